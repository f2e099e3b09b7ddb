-- Attack 29b: a hostile script author against the speed work of issue 29
-- (f06abcf..): the lazy ctx helpers and the box's rng and clock given
-- once (lua/ai/box_helpers.lua), a seat's decision data kept on the host
-- (lua/ai/ctx.lua), the moves prelude's kept list and its "all" verdict
-- (lua/scripts/variants.lua, src/lua/handle.c), the library functions
-- run without the clock's guard (src/lua/boxlib.c), calls without a map
-- of services (src/lua/box.c).
--
-- Findings (each test failed before its fix):
-- 1. math.floor, math.ceil, math.abs and math.tointeger (unguarded since
--    issue 29) convert a string argument, which costs its length: a
--    megabyte of spaces takes ~0.7 ms. Called from C, as table.sort's
--    comparator, no count hook comes between the calls: a house rule or
--    an AI sorting 20,000 references to one such string ran for minutes
--    past a time limit of one second (the host's thread, a room's, held
--    all along). rawequal, unguarded too, compares two long strings byte
--    by byte: the same comparator on distinct equal strings overran its
--    limit tenfold. Each now looks at the clock when an argument may cost
--    (a string; for rawget, a long string key), and stays unguarded for
--    what costs nothing (numbers, tables, short strings).
-- The rest holds, and stays tested here.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local ai = require "diloti.ai"

local EX1 = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c"
local CHILD_SECONDS = 8

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

-- A house rule `name` whose moves hook is `hook`, after `top` (its own
-- main chunk's text).
local function rule(name, hook, top)
  support.write(tmp .. "/" .. name .. ".lua", string.format(
    "%s\nreturn { name = %q, description = 'x', hooks = { moves = %s } }", top or "", name, hook))
  return "diloti+" .. name
end
rule("pass", "function(moves) return moves end")

local function game(spec, pos)
  return assert(diloti.new{ rules = spec, rules_dirs = { tmp }, position = pos or EX1 })
end
local function plain(pos) return assert(diloti.new{ position = pos or EX1 }):moves() end

-- An AI player from a script's body (NAME is its name), in a folder of
-- its own.
local written = 0
local function player_of(body, opts)
  written = written + 1
  local name = "b" .. written
  local dir = tmp .. "/ai" .. written
  os.execute("mkdir -p " .. support.q(dir))
  local path = support.write(dir .. "/" .. name .. ".lua", "local NAME = '" .. name .. "'\n" .. body)
  return assert(ai.player(path, opts))
end

describe("attack 29b, finding 1: unguarded library functions called from C", function()
  local running = {}
  local dir

  -- (each in a child process, killed after a few seconds: before the fix
  -- they ran for minutes)
  lazy_setup(function()
    dir = support.tmpdir()
    local prelude = "local diloti = require 'diloti'\n"
      .. string.format("local DIR = %q\n", dir)
    -- One string of a megabyte, 20,000 references to it, sorted with a
    -- comparator that converts it (nil: never less, a whole sort).
    local big = "local s = string.rep(' ', 2^20 - 64) local t = {} for i = 1, 20000 do t[i] = s end "
    support.write(dir .. "/sortbomb.lua", big .. [[
return { name = "sortbomb", description = "x", hooks = { moves = function(m)
  table.sort(t, math.tointeger)
  return m
end } }]])
    support.write(dir .. "/sortbomb_ai.lua", "local NAME = 'sortbomb_ai'\n" .. big .. [[
return { name = NAME, description = "x", choose = function(_, moves)
  table.sort(t, math.tointeger)
  return moves[1]
end }]])
    local function box_sort(cmp, setup)
      return prelude .. string.format([[
local b = diloti.box.new{ label = "sorts", time = 5, budget = 1e12 }
local ok, f = b:run(%q, "=sorts")
assert(ok, f)
b:limits{ time = 0.2 }
local t0 = os.clock()
local ok2, why = pcall(f)
print("SPENT", os.clock() - t0)
print("RESULT", ok2, why)]], setup .. " return function() table.sort(t, " .. cmp .. ") end")
    end
    local children = {
      tointeger = box_sort("math.tointeger", big),
      floor = box_sort("math.floor", "local s = string.rep('1', 2^20 - 64) local t = {} for i = 1, 20000 do t[i] = s end"),
      ceil = box_sort("math.ceil", "local s = string.rep('1', 2^20 - 64) local t = {} for i = 1, 20000 do t[i] = s end"),
      abs = box_sort("math.abs", "local s = string.rep('1', 2^20 - 64) local t = {} for i = 1, 20000 do t[i] = s end"),
      -- (distinct strings of a megabyte, equal but for their last byte:
      -- never equal, every compare reads them whole)
      rawequal = box_sort("rawequal", "local ss = {} for i = 1, 20 do ss[i] = string.rep('x', 2^20 - 100) "
        .. "..  string.char(64 + i) end local t = {} for i = 1, 100000 do t[i] = ss[i % 20 + 1] end "
        .. "for i = 1, 100000, 20 do t[i] = {} end"),
      rule = prelude .. [[
local g = assert(diloti.new{ rules = "diloti+sortbomb", rules_dirs = { DIR }, position = "hands=8h 2d / 9c; table=8c" })
local t0 = os.clock()
local ok, why = pcall(g.moves, g)
print("SPENT", os.clock() - t0)
print("RESULT", ok, why)]],
      ai = prelude .. [[
local ai = require "diloti.ai"
local p = assert(ai.player(DIR .. "/sortbomb_ai.lua", { time = 0.5 }))
local g = assert(diloti.new{ position = "hands=8h 2d / 9c; table=8c" })
local t0 = os.clock()
local text, info = p:choose(g, 0)
print("SPENT", os.clock() - t0)
print("RESULT", text, info.warning)]],
    }
    for name, code in pairs(children) do running[name] = support.spawn(code, CHILD_SECONDS) end
  end)

  lazy_teardown(function() support.rmdir(dir) end)

  local function result(name)
    local out, code = running[name].wait()
    assert(code ~= 124, name .. ": still running after " .. CHILD_SECONDS .. " s (killed); output: " .. out)
    assert(code == 0, name .. ": the child failed (exit " .. tostring(code) .. "): " .. out)
    local line = out:match("RESULT\t([^\n]*)")
    assert(line, "no result in: " .. out)
    return line, tonumber(out:match("SPENT\t(%S+)"))
  end

  for _, name in ipairs{ "tointeger", "floor", "ceil", "abs", "rawequal" } do
    it("stops table.sort with " .. name .. " as its comparator on long strings at the time limit", function()
      local line, spent = result(name)
      -- (floor, ceil and abs answer a number: an invalid order, found
      -- early or late; whichever comes first, soon)
      assert.matches("^false\t", line)
      assert.is_true(spent < 0.5, name .. " ran " .. tostring(spent) .. " s: " .. line)
    end)
  end

  it("stops a house rule's moves hook that sorts so at its time limit", function()
    local line, spent = result("rule")
    assert.matches("time limit exceeded", line)
    assert.is_true(spent < 2, "ran " .. tostring(spent) .. " s")
  end)

  it("stops an AI's choose that sorts so at its time limit: the fallback is played", function()
    local line, spent = result("ai")
    assert.matches("time limit exceeded", line)
    assert.is_true(spent < 1.5, "ran " .. tostring(spent) .. " s")
  end)
end)
