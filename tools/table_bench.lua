-- `make bench`: Diloti's expert and master as they play at the table,
-- two players: each seat an AI player (its script in its box, ctx.search
-- and all), the moves played through the driver. Prints each AI's time a
-- decision (median and 95th percentile, wall clock as the table shows it)
-- over whole rounds of fixed deals. Arguments: rounds for expert, rounds
-- for master (default 3 and 3).
local diloti = require "diloti"
local ai = require "diloti.ai"

local function percentile(t, p)
  table.sort(t)
  return t[math.max(1, math.ceil(#t * p))]
end

local function measure(name, rounds)
  local times = {}
  local players = {}
  for s = 0, 1 do players[s] = assert(ai.player(name, { seed = s + 1 })) end
  for r = 1, rounds do
    local g = assert(diloti.new{ seed = 1000 + r })
    ai.play(g, players, { on_move = function(_, _, info)
      -- (a forced move is no decision: the AI answers it without a search)
      if info.seconds and info.search then
        times[#times + 1] = info.seconds * 1000
      end
    end })
  end
  print(string.format("diloti %s at the table, 2 players, %d rounds: median %.0f ms, 95th percentile %.0f ms "
    .. "a decision (%d decisions)", name, rounds, percentile(times, 0.5), percentile(times, 0.95), #times))
end

measure("expert", tonumber(arg and arg[1]) or 3)
measure("master", tonumber(arg and arg[2]) or 3)
