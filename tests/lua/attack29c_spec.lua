-- Attack 29c: a hostile house-rule author against the moves hook called
-- by C in its box (core.box.moves, src/lua/boxmoves.c), the verdict kept
-- by engine numbers and the one shared "all kept" verdict
-- (src/lua/handle.c), box:run's extra arguments, and Pilotta's rewritten
-- no-contra (86b7bbd, 4daa0d1).
--
-- Findings (each test failed before its fix):
-- 1. In a chain of house rules (diloti+a+b), the host numbers each
--    hook's answer (lua/scripts/variants.lua, moves_named) by walking
--    it up to its length, #kept, on the host's thread after the call's
--    limits. An answer's length is any border of the table: 1,025 moves
--    and then entries at 2^11, 2^12, ..., 2^40 (a table of 1,055
--    entries, well within the crossing limits) has the length 2^40 in
--    the host as in the box, and the walk went through all of it: the
--    program (a room's thread) hung for hours. Alone, the same rule is
--    refused at once (the engine reads one more than the legal moves).
--    The walk now ends at the answer's first hole, a non-move.
-- 2. The same far border in a lesson's steps (older than issue 29): the
--    lesson was checked step by step with ipairs, up to its first hole,
--    then walked up to #steps, 2^40: the table's lesson list (`learn`,
--    Runner:mark) hung once the user had answered a step of it (a
--    lesson of the user's folder may take a built-in lesson's id, and
--    its progress). A list of a lesson (steps, rules, accept, choices)
--    now has no hole: its length is the count of its entries.
-- The rest holds, and stays tested here.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"

local EX1 = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c"
local CHILD_SECONDS = 6

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

-- A house rule `name` whose moves hook is `hook`, after `top` (its own
-- main chunk's text), for `game`; more hooks in `more`.
local function rule(name, hook, top, game, more)
  local stem = (game == "pilotta" and "pilotta-" or "") .. name
  support.write(tmp .. "/" .. stem .. ".lua", string.format(
    "%s\nreturn { name = %q, description = 'x', %s hooks = { %s %s } }", top or "", stem,
    game == "pilotta" and "game = 'pilotta'," or "", hook and ("moves = " .. hook .. ",") or "", more or ""))
  return (game or "diloti") .. "+" .. name
end
rule("pass", "function(moves, state) return moves end")
rule("pass1", "function(moves) return moves end")

local function game(spec, pos)
  return assert(diloti.new{ rules = spec, rules_dirs = { tmp }, position = pos or EX1 })
end
local function plain(pos) return assert(diloti.new{ position = pos or EX1 }):moves() end
-- The answer alone, first in a chain and last in one.
local function three(name)
  return { "diloti+" .. name, "diloti+" .. name .. "+pass", "diloti+pass+" .. name }
end

-- Runs code (after `local diloti, DIR = ...`) in a child killed after
-- CHILD_SECONDS; returns its RESULT line and the CPU seconds it printed
-- as SPENT.
local function child(code)
  return support.spawn("local diloti = require 'diloti'\n"
    .. string.format("local DIR = %q\n", tmp) .. code, CHILD_SECONDS)
end
local function result(running, name)
  local out, code = running.wait()
  assert(code ~= 124, name .. ": still running after " .. CHILD_SECONDS .. " s (killed); output: " .. out)
  assert(code == 0, name .. ": the child failed (exit " .. tostring(code) .. "): " .. out)
  local line = out:match("RESULT\t([^\n]*)")
  assert(line, "no result in: " .. out)
  return line, tonumber(out:match("SPENT\t(%S+)"))
end

describe("attack 29c, finding 1: an answer whose length is a far border, in a chain", function()
  -- 1,025 moves, then one at each power of two up to 2^40: its length,
  -- in the box and in the host's copy, is 2^40.
  local FAR = [[function(m)
    local t = {}
    for i = 1, 1025 do t[i] = m[1] end
    local j = 2048
    while j <= 2^40 do t[j] = m[1] j = j * 2 end
    return t
  end]]
  local FARNUM = FAR:gsub("m%[1%]", "1")
  rule("far", FAR)
  rule("farnum", FARNUM)

  local running = {}
  lazy_setup(function()
    for _, name in ipairs{ "far", "farnum" } do
      for _, spec in ipairs(three(name)) do
        running[spec] = child(string.format([[
local g = assert(diloti.new{ rules = %q, rules_dirs = { DIR }, position = %q })
local t0 = os.clock()
local ok, why = pcall(g.moves, g)
print("SPENT", os.clock() - t0)
print("RESULT", ok, why)]], spec, EX1))
      end
    end
  end)

  for _, name in ipairs{ "far", "farnum" } do
    for _, spec in ipairs(three(name)) do
      it("is refused at once: " .. spec, function()
        local line, spent = result(running[spec], spec)
        assert.matches("^false\t", line)
        assert.is_truthy(line:find("more than the 14 legal ones", 1, true) or line:find("non-move", 1, true), line)
        assert.is_true(spent < 1, spec .. " ran " .. tostring(spent) .. " s")
      end)
    end
  end

  it("(holds) an answer of one more move than there are is still refused as such in a chain", function()
    rule("more", "function(m) local t = {} for i = 1, #m + 1 do t[i] = m[1] end return t end")
    for _, spec in ipairs(three("more")) do
      local ok, err = pcall(game(spec).moves, game(spec))
      assert.is_false(ok)
      assert.matches("returned 15 moves, more than the 14 legal ones", err)
    end
  end)
end)

describe("attack 29c, finding 2: a lesson whose steps end at a far border", function()
  local learn = require "diloti.teach.learn"
  local FAR = [[
    local steps = {}
    for i = 1, 1025 do steps[i] = { text = "a note" } end
    local j = 2048
    while j <= 2^40 do steps[j] = { text = "x" } j = j * 2 end
    return { id = "99-far", title = "far", rules = { "D1" }, steps = steps }]]

  it("is refused when it is loaded, not walked to 2^40 later", function()
    local lesson, why = learn.load_source(FAR, tmp .. "/99-far.lua")
    assert.is_true(lesson == nil, "the lesson was loaded") -- (not dumped whole)
    assert.matches("needs a list of steps", why)
    -- (a hole anywhere, and in any list of a lesson, is refused alike)
    lesson, why = learn.load_source([[return { id = "99-hole", title = "hole", rules = { "D1", nil, "D2" },
      steps = { { text = "a" } } }]], tmp .. "/99-hole.lua")
    assert.is_nil(lesson)
    assert.matches("'rules' must list", why)
  end)

  it("(holds) a lesson of plain notes loads and is marked as before", function()
    local lesson = assert(learn.load_source([[return { id = "99-ok", title = "ok", rules = { "D1" },
      steps = { { text = "a" }, { text = "b" } } }]], tmp .. "/99-ok.lua"))
    local r = setmetatable({ progress = { [learn.key(lesson)] = { done = false, steps = { true } } } },
      { __index = learn.Runner })
    assert.equals("1/2", r:mark(lesson))
  end)
end)
