-- ctx.simulate and ctx.best_capture from inside an AI's box agree with the
-- engine's own list of moves under every rules variant: an AI plans with
-- the rules in force, never with a second copy of them in Lua.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local ai = require "diloti.ai"
local core = require "diloti.core"

-- The AI answers, for every legal move, what ctx.simulate says it
-- captures (or "-"), its xeri and round end, and for every capture the
-- best capture ctx.best_capture finds for that card: one line a move.
local HASH = [[
local function digest(s)
  local h = 7
  for i = 1, #s do h = (h * 31 + s:byte(i)) % 2147483647 end
  return #s .. ":" .. h
end
]]
local PROBE = HASH .. [[
return { name = "probe", description = "asks ctx about every move", choose = function(view, moves, ctx)
  local out = {}
  for i, m in ipairs(ctx.moves_info) do
    local s = assert(ctx.simulate(m))
    local best = m.card and m.kind == "capture" and ctx.best_capture(m.card) or nil
    out[i] = table.concat({ s.move, s.captured and table.concat(s.captured, " ") or "-", tostring(s.xeri),
      tostring(s.round_over), best and tostring(best.count) or "-" }, "|")
  end
  return 1, digest(table.concat(out, "\n"))
end }
]]

local dir
setup(function()
  dir = support.tmpdir()
  support.write(dir .. "/probe.lua", PROBE)
end)
teardown(function() support.rmdir(dir) end)

-- What the engine says of the same moves: the effect of each played on a
-- copy, and the most cards any capture with that card takes.
local function digest(s)
  local h = 7
  for i = 1, #s do h = (h * 31 + s:byte(i)) % 2147483647 end
  return #s .. ":" .. h
end

local function expected(g)
  local infos = g:moves(true)
  local most = {}
  for _, m in ipairs(infos) do
    if m.kind == "capture" then
      local c <close> = g:clone()
      local n = #assert(c:play(m.text)).captured - 1 -- (best_capture counts the table's cards)
      most[m.card] = math.max(most[m.card] or 0, n)
    end
  end
  local out = {}
  for i, m in ipairs(infos) do
    local c <close> = g:clone()
    local e = assert(c:play(m.text))
    out[i] = table.concat({ e.text, e.captured and table.concat(e.captured, " ") or "-", tostring(e.xeri),
      tostring(e.round_over), m.kind == "capture" and tostring(most[m.card]) or "-" }, "|")
  end
  return digest(table.concat(out, "\n"))
end

local SPECS = { "kontsina" }
for _, n in ipairs(diloti.variants.catalogue().names) do
  if n ~= "kontsina" then SPECS[#SPECS + 1] = n == "diloti" and n or ("diloti+" .. n) end
end

describe("ctx.simulate and ctx.best_capture in an AI's box", function()
  for _, spec in ipairs(SPECS) do
    it("agree with g:moves() and g:play() under " .. spec, function()
      local g = diloti.new { rules = spec, seed = 11 }
      if not g then return end -- (a variant that needs another, e.g. an argument's base)
      local p = assert(ai.player(dir .. "/probe.lua", { seed = 1 }))
      local rng = core.rng(7)
      local checked = 0
      for _ = 1, 60 do
        if not g:turn() then break end
        local _, info = p:choose(g)
        assert.is_nil(info.fallback, info.warning)
        assert.equals(expected(g), info.note)
        checked = checked + 1
        local moves = g:moves()
        assert(g:play(moves[rng(#moves)]))
      end
      assert.is_true(checked > 0)
    end)
  end
end)
