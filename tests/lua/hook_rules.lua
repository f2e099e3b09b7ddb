-- House rules written on the fly for the moves-hook attack specs
-- (attack29, attack29c, attack31..33): rules.new(tmp, ex) gives rule,
-- game, plain and three over the folder tmp, positions defaulting to ex,
-- and for Pilotta write, pgame, outcome and side_by_side. "pass" and
-- "pass1" (with and without the state) are written at once.
local diloti = require "diloti"
local support = require "support"

local M = {}

function M.new(tmp, ex)
  local R = {}
  -- A house rule `name` whose moves hook is `hook`, after `top` (its own
  -- main chunk's text), for `game`; more hooks in `more`. Returns its spec.
  function R.rule(name, hook, top, game, more)
    local stem = (game == "pilotta" and "pilotta-" or "") .. name
    support.write(tmp .. "/" .. stem .. ".lua", string.format(
      "%s\nreturn { name = %q, description = 'x', %s hooks = { %s %s } }", top or "", stem,
      game == "pilotta" and "game = 'pilotta'," or "", hook and ("moves = " .. hook .. ",") or "", more or ""))
    return (game or "diloti") .. "+" .. name
  end
  function R.game(spec, pos)
    return assert(diloti.new{ rules = spec, rules_dirs = { tmp }, position = pos or ex })
  end
  function R.plain(pos) return assert(diloti.new{ position = pos or ex }):moves() end
  -- The answer alone, first in a chain and last in one.
  function R.three(name)
    return { "diloti+" .. name, "diloti+" .. name .. "+pass", "diloti+pass+" .. name }
  end
  -- A Pilotta rule `name` whose file is `body`; returns its spec.
  function R.write(name, body)
    support.write(tmp .. "/pilotta-" .. name .. ".lua", body)
    return "pilotta+" .. name
  end
  function R.pgame(spec, seed)
    return assert(diloti.new{ rules = spec, rules_dirs = { tmp }, seed = seed or 3 })
  end
  -- What g:moves() gives: "ok" and the moves, or "error" and the message.
  function R.outcome(g)
    local ok, r = pcall(g.moves, g)
    if ok then return "ok", table.concat(r, "|") end
    return "error", tostring(r)
  end
  -- Plays the same moves in Pilotta games of each spec (bids preferred
  -- to passes) and calls check(games, ref, step) at each step; ref plays
  -- the plain rules.
  function R.side_by_side(specs, seeds, steps, check)
    local r = 1
    for _, seed in ipairs(seeds) do
      local gs = {}
      for i, s in ipairs(specs) do gs[i] = R.pgame(s, seed) end
      local ref = R.pgame("pilotta", seed)
      for step = 1, steps do
        local all = ref:moves()
        if #all == 0 then break end
        check(gs, ref, step)
        r = (r * 1103515245 + 12345) % 2147483648
        local m = all[1 + (r >> 8) % #all]
        if all[1] == "pass" and #all > 1 and step % 4 ~= 0 then m = all[2] end
        assert(ref:play(m))
        for _, g in ipairs(gs) do g:play(m) end
      end
    end
  end
  R.rule("pass", "function(moves, state) return moves end")
  R.rule("pass1", "function(moves) return moves end")
  return R
end

return M
