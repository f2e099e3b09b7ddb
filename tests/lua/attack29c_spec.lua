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
-- 3. In a chain, a hook's answer given as a text (or a table of its own
--    with a text) was looked up among all the engine's legal moves, not
--    among the moves that hook was given: a later rule named back a move
--    an earlier rule of the chain had dropped, and it was allowed
--    (diloti+only2+readd: "8h lay" played though only2 forbids it;
--    pilotta+no-contra+X: X said contra back in).
--    docs/house-rules.md: a hook "may only drop moves, never add one".
--    Such an answer is now refused, naming the move (older than 86b7bbd).
-- The rest holds, and stays tested here.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"

local EX1 = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c"
local CHILD_SECONDS = 6

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

local R = require("hook_rules").new(tmp, EX1)
local rule, game, plain, three = R.rule, R.game, R.plain, R.three

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

  -- (an answer of one more move than there are, alone and in a chain:
  -- attack29_spec.lua, "the same move many times ...")
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

-- g:moves, g:check (text and number), g:parse, g:play (number and text),
-- and every dropped move refused: one verdict, read every way. Returns
-- the list.
local function agrees(g, pos)
  local moves = g:moves()
  local first = {}
  for i, t in ipairs(moves) do first[t] = first[t] or i end
  for i, t in ipairs(moves) do
    assert.is_true((g:check(t)), t)
    assert.is_true((g:check(i)), t)
    assert.equals(first[t], assert(g:parse(t)).index, t)
    local e = assert(g:clone():play(i))
    assert.equals(t, e.text)
    e = assert(g:clone():play(t))
    assert.equals(first[t], e.index)
  end
  for _, t in ipairs(plain(pos)) do
    if not first[t] then
      local ok, why = g:check(t)
      assert.is_false(ok, t)
      assert.matches("house rule", why)
      assert.is_nil((g:clone():play(t)))
    end
  end
  assert.is_false((g:check(#moves + 1)))
  return moves
end

describe("attack 29c: what holds, the answers read by engine numbers", function()
  -- Hooks that answer the same every call (a clone calls its own).
  local HOOKS = {
    dup = { "function(m) return { m[2], m[2], m[1] } end", function(all) return { all[2], all[2], all[1] } end },
    revnum = { "function(m) local t = {} for i = #m, 1, -1 do t[#t + 1] = i end return t end",
      function(all) local t = {} for i = #all, 1, -1 do t[#t + 1] = all[i] end return t end },
    swapin = { "function(m) m[1], m[2] = m[2], m[1] return m end",
      function(all) local t = { table.unpack(all) } t[1], t[2] = t[2], t[1] return t end },
    remin = { "function(m) table.remove(m, 1) return m end", function(all) return { table.unpack(all, 2) } end },
    modtext = { "function(m) m[1].text = m[2].text m[1].kind = 'x' return { m[1] } end",
      function(all) return { all[1] } end },
    metat = { "function(m) return { setmetatable({ text = m[2].text }, { __index = error, __len = error }), m[1] } end",
      function(all) return { all[2], all[1] } end },
    biglen = { "function(m) return setmetatable({ m[1] }, { __len = function() return 2^40 end }) end",
      function(all) return { all[1] } end },
    keepall = { "function(m) for i = 1, #m do m[i] = m[i] end return m, { x = 'y' } end",
      function(all) return all end },
    copyall = { "function(m) return table.move(m, 1, #m, 1, {}) end", function(all) return all end },
    notab = { "function(m) return 42 end", function(all) return all end },
  }
  for name, h in pairs(HOOKS) do rule(name, h[1]) end

  it("every answer, alone, first and last in a chain, on a plain and a crowded table", function()
    local BIG = "hands=10h 9h 8h 7h 6h / 10s 9s 8s 7s 6s; table=Ac 2c 3c 4c 5c Ad 2d 3d 4d 5d Ah 2h 3h 4h 5h; pack=-"
    for name, h in pairs(HOOKS) do
      for _, pos in ipairs{ EX1, BIG } do
        local want = h[2](plain(pos))
        for _, spec in ipairs(three(name)) do
          local g = game(spec, pos)
          if pos == EX1 then
            assert.same(want, agrees(g, pos), spec)
          else
            assert.same(want, g:moves(), spec)
          end
        end
      end
    end
  end)

  it("a move kept from an earlier position and answered again is looked up by its text", function()
    rule("stale", "function(m) local r = old or m old = m return r end", "local old")
    for _, spec in ipairs(three("stale")) do
      local g = game(spec)
      agrees(g, EX1)
      assert(g:play("8h x 2c 3h 5s 6d 8c"))
      local ok, err = pcall(g.moves, g)
      assert.is_false(ok)
      assert.matches("which is not a legal move here", err)
    end
  end)

  it("a lost call's warning comes once, with its own verdict; the shared 'all kept' one never holds it", function()
    -- (loses its call where 14 moves are offered: too many values)
    rule("lose", [[function(m)
      if #m ~= 14 then return m end
      local t = { m[1] }
      while #t < 1100000 do table.move(t, 1, #t, #t + 1) end
      return t
    end]])
    local g, p = game("diloti+lose"), game("diloti+pass")
    assert.equals(14, #g:moves())
    assert.equals(14, #g:moves())
    local e, warn = g:play(1)
    assert.truthy(e)
    assert.matches("too many values.*standard moves used for this position", warn)
    e, warn = g:play(1)
    assert.truthy(e)
    assert.is_nil(warn)
    e, warn = p:play(1)
    assert.truthy(e)
    assert.is_nil(warn)
    assert.truthy(g:undo() and g:undo())
    e, warn = g:play(2)
    assert.truthy(e)
    assert.matches("too many values", warn)
    e, warn = p:play(1)
    assert.truthy(e)
    assert.is_nil(warn)
  end)
end)

describe("attack 29c: what holds, core.box.moves and the box's limits", function()
  it("no script reaches core.box.moves: not its main chunk's ..., not its globals, not a hook's arguments", function()
    rule("reach", [[function(m, s, ...)
        assert(select('#', ...) == 0, 'more arguments')
        for k, v in pairs(_G) do assert(k ~= 'core' and k ~= 'moves', k) end
        return m
      end]], "assert(select('#', ...) == 0, 'the main chunk was given something')")
    for _, spec in ipairs(three("reach")) do
      assert.equals(14, #game(spec):moves())
    end
  end)

  it("a hook that loops, recurses or eats memory is stopped at its limit, alone and in a chain", function()
    rule("spin", "function(m) while true do end end")
    rule("deep", "function(m) return f(1) end", "local function f(n) return f(n + 1) + 1 end")
    rule("eat", "function(m) local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 2^20 - 64) end end")
    local WHY = { spin = "instruction budget exceeded", deep = "stack overflow", eat = "memory cap exceeded" }
    for name, why in pairs(WHY) do
      for _, spec in ipairs(three(name)) do
        local t0 = os.clock()
        local ok, err = pcall(game(spec).moves, game(spec))
        assert.is_false(ok, spec)
        -- (its own limit; a slow build, under the sanitizers, may meet
        -- the clock first)
        assert.is_truthy(err:find(why, 1, true) or err:find("time limit exceeded", 1, true), err)
        assert.is_true(os.clock() - t0 < 3, spec .. " ran " .. os.clock() - t0 .. " s")
      end
    end
  end)
end)

describe("attack 29c: what holds, Pilotta's no-contra", function()
  it("keeps every move but contra and recontra through whole rounds, the reason given for them", function()
    for seed = 1, 6 do
      local g = assert(diloti.new{ rules = "pilotta+no-contra", seed = seed })
      local ref = assert(diloti.new{ rules = "pilotta", seed = seed })
      local saw = false
      for _ = 1, 80 do
        local all, want = ref:moves(), {}
        if #all == 0 then break end
        for _, m in ipairs(all) do
          if m:match("^contra") or m:match("^recontra") then
            saw = true
            local ok, why = g:check(m)
            assert.is_false(ok)
            assert.matches("house rule no%-contra", why)
          else
            want[#want + 1] = m
          end
        end
        assert.same(want, g:moves())
        local m = want[seed % #want + 1]
        assert(g:play(m))
        assert(ref:play(m))
      end
      assert.is_true(saw or seed > 1, "no contra was ever offered")
    end
  end)
end)

describe("attack 29c: what holds, core.box.moves's own loops under the clock", function()
  it("a call whose time goes into the native's loops, not the script's, stops at the time limit", function()
    local b = diloti.box.new{ label = "t", time = 5, budget = 1e12, memory = 256 << 20 }
    -- (the hook runs a few instructions; the native numbers 300,000 moves)
    local ok, f = b:run([[
      local moves = ...
      local l = {}
      for i = 1, 300000 do l[i] = {} end
      local r = { l[2], l[1] }
      return function() local _, k = moves(function() return r end, l) return #k end]], "=t", nil, diloti.box.moves)
    assert.is_true(ok, f)
    assert.equals(2, f())
    b:limits{ time = 0.005 }
    local done, err = pcall(f)
    b:close()
    assert.is_false(done)
    assert.matches("time limit exceeded", err)
  end)
end)

describe("attack 29c, finding 3: a later rule of a chain naming back a move an earlier one dropped", function()
  rule("only2", "function(m) return { m[1], m[2] } end")
  rule("readd", "function(m) return { '8h lay' } end")
  rule("readdt", "function(m) return { m[1], { text = '8h lay' } } end")
  rule("name2", "function(m) return { m[2].text:lower(), { text = m[1].text } } end")

  it("is refused, by text or by a table of the script's own, naming the move", function()
    for _, spec in ipairs{ "diloti+only2+readd", "diloti+only2+readdt", "diloti+only2+pass+readd" } do
      local g = game(spec)
      local ok, err = pcall(g.moves, g)
      assert.is_false(ok, spec)
      assert.matches("'8h lay'", err, 1, true)
      assert.matches("dropped", err, 1, true)
      local played, effect = pcall(g.play, g, "8h lay")
      assert.is_false(played and effect ~= nil, spec)
    end
  end)

  it("Pilotta: a rule after no-contra cannot say contra back in", function()
    local spec = rule("backcontra", [[function(m)
        local t = {}
        for i = 1, #m do t[i] = m[i] end
        t[#t + 1] = 'contra'
        return t
      end]], nil, "pilotta")
    -- (the first position of a round that offers contra)
    local ref = assert(diloti.new{ rules = "pilotta", seed = 1 })
    local offered
    for _ = 1, 40 do
      for _, m in ipairs(ref:moves()) do offered = offered or m == "contra" end
      if offered then break end
      local l = ref:moves()
      assert(ref:play(l[2] or l[1])) -- (a bid: four passes would end the round)
    end
    assert.is_true(offered, "no contra was offered")
    local pos = ref:position()
    local alone = assert(diloti.new{ rules = spec, rules_dirs = { tmp }, position = pos })
    assert.is_false((pcall(alone.moves, alone))) -- (a move too many)
    local g = assert(diloti.new{ rules = "pilotta+no-contra+backcontra", rules_dirs = { tmp }, position = pos })
    local ok, err = pcall(g.moves, g)
    assert.is_false(ok)
    assert.matches("'contra', which an earlier house rule of the chain dropped", err, 1, true)
    local played, effect = pcall(g.play, g, "contra")
    assert.is_false(played and effect ~= nil)
  end)

  it("(holds) a move the rule was given, named by its text, and the same answer first in the chain", function()
    local all = plain()
    assert.same({ all[2], all[1] }, game("diloti+only2+name2"):moves())
    assert.same({ "8h lay" }, game("diloti+readd+only2"):moves())
    assert.same({ all[1], "8h lay" }, game("diloti+readdt+pass"):moves())
  end)
end)
