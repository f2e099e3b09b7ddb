-- How often the host calls into the engine (core.calls() counts the game
-- handle's methods): one typed move at the table and the AI's reply take
-- at most ten calls, and a house rule's moves hook runs once a position
-- (docs/architecture.md, "The path of one move").
local diloti = require "diloti"
local core = require "diloti.core"
local repl = require "diloti.table.repl"
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local support = dofile(here .. "support.lua")

local EXT = { require "diloti.teach.learn", (require "diloti.teach.coach") }

-- The README's example house rule, with a moves hook.
local NO_ACE_LAY = [[
return {
  name = "no-ace-lay",
  description = "An ace may not be laid on the table",
  hooks = {
    moves = function(moves)
      local kept, why = {}, {}
      for _, m in ipairs(moves) do
        if m.kind == "lay" and m.card:sub(1, 1) == "A" then why[m.text] = "no-ace-lay: aces may not be laid"
        else kept[#kept + 1] = m end
      end
      if #kept == 0 then return moves end -- only aces to lay: one must go (D20)
      return kept, why
    end,
  },
}
]]

-- The same rule naming the moves it keeps by their numbers.
local NO_ACE_LAY_BY_NUMBER = NO_ACE_LAY:gsub("no%-ace%-lay", "no-ace-lay-n")
  :gsub("else kept%[#kept %+ 1%] = m end", "else kept[#kept + 1] = i end")
  :gsub("for _, m in ipairs%(moves%)", "for i, m in ipairs(moves)")

local dir
setup(function()
  dir = support.tmpdir()
  support.write(dir .. "/no-ace-lay.lua", NO_ACE_LAY)
  support.write(dir .. "/no-ace-lay-n.lua", NO_ACE_LAY_BY_NUMBER)
end)
teardown(function() support.rmdir(dir) end)

local function table_with(rules)
  local out = {}
  local s = assert(repl.new {
    extensions = EXT, write = function(t) out[#out + 1] = t end, read = function() return nil end,
    getenv = function() return nil end, clock = function() return 1000 end, rules_dirs = { dir },
    game = { rules = rules, ai = "random", seed = 5 },
  })
  s:advance()
  s:show()
  return s, out
end

-- The first legal move of the person to move, as they would type it.
local function a_move(s)
  return s.g:moves()[1]
end

describe("calls into the engine", function()
  for _, rules in ipairs { "diloti", "diloti+no-ace-lay", "kontsina" } do
    it("a typed move and the AI's reply take at most 10 (" .. rules .. ")", function()
      local s = table_with(rules)
      local worst = 0
      for _ = 1, 12 do
        if not s:human_to_move() then break end
        local line = a_move(s)
        local before = core.calls()
        s:handle(line)
        worst = math.max(worst, core.calls() - before)
      end
      assert.is_true(worst > 0)
      assert.is_true(worst <= 10, "calls for one typed move and the reply: " .. worst)
    end)
  end

  it("a house rule's moves hook may name the moves it keeps by number", function()
    assert.matches("kept%[#kept %+ 1%] = i", NO_ACE_LAY_BY_NUMBER)
    for seed = 1, 20 do
      local a = assert(diloti.new { rules = "diloti+no-ace-lay", rules_dirs = { dir }, seed = seed })
      local b = assert(diloti.new { rules = "diloti+no-ace-lay-n", rules_dirs = { dir }, seed = seed })
      for _ = 1, 30 do
        if not a:turn() then break end
        assert.same(a:moves(), b:moves())
        local _, why = a:play(a:moves()[1])
        assert.is_nil(why)
        assert(b:play(b:moves()[1]))
      end
    end
  end)

  it("make bench's count (tools/calls.lua): at most 10 calls, and the moves hook once a position", function()
    local out, err, code = support.cli { "run", here .. "../../tools/calls.lua" }
    assert.equals(0, code, err)
    local most = tonumber(out:match("at most (%d+)"))
    local runs, positions = out:match("moves hook: (%d+) runs for (%d+) positions")
    assert.is_true(most and most <= 10, out)
    assert.is_truthy(runs, out)
    assert.is_true(tonumber(positions) > 20, out)
    assert.equals(positions, runs)
  end)
end)
