-- A house rule's moves hook, crossing cheaply (issue 29): its answer
-- leaves the box as numbers into the list it was given, the state is
-- made only for a hook that names it, and what one hook makes up is
-- never handed to the next as a move.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local core = { box = require("diloti").box }
local diloti = require "diloti"
local variants = diloti.variants

-- 8h and 2d in hand, 9c to come; 8h captures 8c, 2d has many sums.
local EX1 = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c"

local tmp = support.tmpdir()
local function rule(name, body, game)
  support.write(tmp .. "/" .. name .. ".lua", string.format(
    "return { name = %q, description = 'x', %s hooks = { moves = %s } }",
    name, game and ("game = '" .. game .. "',") or "", body))
end

describe("core.box.params", function()
  it("reads the parameters of a script's function, and nothing else", function()
    local b = core.box.new{ label = "p" }
    local ok, fns = b:run("return { one = function(a) return a end, two = function(a, b) return b end, "
      .. "more = function(a, ...) return ... end, none = function() end, c = string.len }", "=p")
    assert.is_true(ok, fns)
    assert.same({ 1, false }, { core.box.params(fns.one) })
    assert.same({ 2, false }, { core.box.params(fns.two) })
    assert.same({ 1, true }, { core.box.params(fns.more) })
    assert.same({ 0, false }, { core.box.params(fns.none) })
    -- (a C function of the box: vararg, as Lua reports it)
    assert.same({ 0, true }, { core.box.params(fns.c) })
    for _, v in ipairs{ 1, 2.5, "f", true, {}, print, function(a) return a end, b, coroutine.create(print) } do
      assert.equals(0, select("#", core.box.params(v)), tostring(v))
    end
    assert.equals(0, select("#", core.box.params()))
    b:close()
    assert.equals(0, select("#", core.box.params(fns.one)))
  end)
end)

describe("a moves hook's crossing", function()
  it("a hook naming one parameter is not handed the state; one naming two is", function()
    rule("one", "function(moves) return moves end")
    rule("two", "function(moves, state) if type(state) ~= 'table' then error('no state') end return moves end")
    rule("va", "function(moves, ...) if select('#', ...) == 0 or ... == nil then error('no state') end "
      .. "return moves end")
    local function hooks(spec) return assert(variants.resolve(spec, { rules_dirs = { tmp } })).hooks end
    assert.is_false(hooks("diloti+one").moves_state)
    assert.is_nil(hooks("diloti+two").moves_state)
    assert.is_nil(hooks("diloti+one+two").moves_state)
    assert.is_nil(hooks("diloti+va").moves_state)
    assert.is_false(hooks("pilotta+no-contra").moves_state)
    for _, spec in ipairs{ "diloti+two", "diloti+va", "diloti+one+two" } do
      local g = assert(diloti.new{ rules = spec, rules_dirs = { tmp }, position = EX1 })
      assert.same(assert(diloti.new{ position = EX1 }):moves(), g:moves(), spec)
    end
  end)

  it("a move the hook changed in place is still the engine's move (the answer is its number)", function()
    rule("rename", "function(moves) for _, m in ipairs(moves) do m.text = 'forged ' .. m.text end "
      .. "return { moves[2], moves[1] } end")
    local g = assert(diloti.new{ rules = "diloti+rename", rules_dirs = { tmp }, position = EX1 })
    local plain = assert(diloti.new{ position = EX1 }):moves()
    assert.same({ plain[2], plain[1] }, g:moves())
    assert.truthy(g:play(plain[2]))
  end)

  it("a hook answering numbers, texts or copies of moves names the same moves", function()
    local plain = assert(diloti.new{ position = EX1 }):moves()
    rule("nums", "function(moves) return { 2, 1 } end")
    rule("txts", "function(moves) return { moves[2].text, moves[1].text } end")
    rule("copies", "function(moves) return { { text = moves[2].text }, { text = moves[1].text } } end")
    for _, name in ipairs{ "nums", "txts", "copies" } do
      local g = assert(diloti.new{ rules = "diloti+" .. name, rules_dirs = { tmp }, position = EX1 })
      assert.same({ plain[2], plain[1] }, g:moves(), name)
    end
  end)

  it("a forged move is never handed to the next hook: it gets the engine's move of that text", function()
    -- (forge claims every move is a lay; lays keeps lays: the captures
    -- must not pass as lays)
    rule("forge", "function(moves) local out = {} for i, m in ipairs(moves) do "
      .. "out[i] = { text = m.text, kind = 'lay' } end return out end")
    rule("lays", "function(moves) local out = {} for _, m in ipairs(moves) do "
      .. "if m.kind == 'lay' then out[#out + 1] = m end end return out end")
    local g = assert(diloti.new{ rules = "diloti+forge+lays", rules_dirs = { tmp }, position = EX1 })
    local moves = g:moves()
    assert.is_true(#moves > 0)
    for _, m in ipairs(moves) do assert.matches(" lay$", m) end
  end)

  it("a made-up move ends the chain: the engine refuses it by name, the next hook never sees it", function()
    rule("madeup", "function(moves) return { { text = '9s x 9h', kind = 'capture' } } end")
    rule("spy", "function(moves) for _, m in ipairs(moves) do "
      .. "if m.text == '9s x 9h' then error('handed a made-up move') end end return moves end")
    local g = assert(diloti.new{ rules = "diloti+madeup+spy", rules_dirs = { tmp }, position = EX1 })
    local ok, err = pcall(g.moves, g)
    assert.is_false(ok)
    assert.matches("'9s x 9h', which is not a legal move here", err)
  end)

  it("Pilotta's no-contra keeps every move but contra and recontra, by number", function()
    local g = assert(diloti.new{ rules = "pilotta+no-contra" })
    local plain = assert(diloti.new{ rules = "pilotta" })
    for _ = 1, 6 do
      local want = {}
      for _, m in ipairs(plain:moves()) do
        if not m:match("^contra") and not m:match("^recontra") then want[#want + 1] = m end
      end
      assert.same(want, g:moves())
      local m = want[#want]
      assert.truthy(g:play(m))
      assert.truthy(plain:play(m))
    end
  end)

  it("one hook is given a list the engine makes in its box (moves_built); a chain is not", function()
    rule("one", "function(moves) return moves end")
    rule("two", "function(moves, state) return moves end")
    local function hooks(spec) return assert(variants.resolve(spec, { rules_dirs = { tmp } })).hooks end
    assert.is_true(hooks("diloti+one").moves_built)
    assert.is_true(hooks("pilotta+no-contra").moves_built)
    assert.is_nil(hooks("diloti+one+two").moves_built)
  end)

  it("the list made in a box crosses during the hook's call only: kept, it is refused like any userdata", function()
    local b = core.box.new{ label = "k" }
    local ok, count = b:run("return function(t) return #t end", "=k")
    assert.is_true(ok, count)
    local kept, during
    local g = assert(diloti.new{ rules = {}, position = EX1, hooks = { moves_built = true, moves = function(list)
      kept = list
      during = count(list)
      return { 2, 1 }
    end } })
    local plain = assert(diloti.new{ position = EX1 }):moves()
    assert.same({ plain[2], plain[1] }, g:moves())
    assert.equals(#plain, during)
    assert.equals("userdata", type(kept))
    assert.is_nil(getmetatable(kept) and next(getmetatable(kept)) or nil)
    local ok2, err = pcall(count, kept)
    assert.is_false(ok2)
    assert.matches("a userdata cannot be passed to a script", err)
    b:close()
  end)

  it("numbers out of range, floats, nil and other types in an answer are refused by name", function()
    -- (alone, the engine reads the answer; in a chain, the chain does)
    for _, case in ipairs{ { "{ 99 }", "move number 99" }, { "{ 0 }", "move number 0" },
      { "{ -1 }", "move number %-1" }, { "{ 1.5 }", "non%-move", "move number 1.5" },
      { "{ true }", "non%-move" }, { "{ {} }", "non%-move" }, { "{ 'nonsense' }", "'nonsense', which is not" } } do
      for _, spec in ipairs{ "built", "chain" } do
        rule("bad", "function(moves) return " .. case[1] .. " end")
        rule("pass", "function(moves, state) return moves end")
        local g = assert(diloti.new{ rules = spec == "built" and "diloti+bad" or "diloti+pass+bad",
          rules_dirs = { tmp }, position = EX1 })
        local ok, err = pcall(g.moves, g)
        assert.is_false(ok, case[1])
        assert.is_truthy(err:find(case[2]) or case[3] and err:find(case[3]), case[1] .. ": " .. err)
      end
    end
  end)

  -- A hook that keeps every move in its place costs no list at all: the
  -- engine's own answers, numbered alike; one that reorders or drops a
  -- move is read move by move. Every way of naming a move finds the same.
  it("a hook that keeps every move in place answers as the engine; one that reorders does not", function()
    rule("keep", "function(moves) end")
    rule("same", "function(moves) return moves end")
    rule("copy", "function(moves) local t = {} for i, m in ipairs(moves) do t[i] = m end return t end")
    rule("flip", "function(moves) local t = {} for i = #moves, 1, -1 do t[#t + 1] = moves[i] end return t end")
    local plain = assert(diloti.new{ position = EX1 })
    local want, n = plain:moves(), #plain:moves()
    for _, name in ipairs{ "keep", "same", "copy", "flip" } do
      local g = assert(diloti.new{ rules = "diloti+" .. name, rules_dirs = { tmp }, position = EX1 })
      local list = g:moves()
      assert.equals(n, #list, name)
      if name == "flip" then assert.equals(want[1], list[n], name) else assert.same(want, list, name) end
      for i, info in ipairs(g:moves(true)) do
        assert.equals(list[i], info.text, name)
        assert.equals(i, info.index, name)
      end
      -- (by number, by text, by table: the same move, numbered as listed)
      for _, how in ipairs{ "number", "text", "table" } do
        local h = assert(diloti.new{ rules = "diloti+" .. name, rules_dirs = { tmp }, position = EX1 })
        local arg = how == "number" and 2 or how == "text" and list[2] or { text = list[2] }
        local e = assert(h:play(arg))
        assert.equals(list[2], e.text, name .. " " .. how)
        assert.equals(2, e.index, name .. " " .. how)
      end
      local ok, why = g:check("Kh lay")
      assert.is_false(ok, name)
      assert.is_string(why, name)
      assert.is_nil(g:play(n + 1), name)
    end
  end)
  -- The verdict of a hook that filters keeps the moves by their engine
  -- number (issue 29): every way of naming one finds its place, a move
  -- shown twice keeps its first place, a dropped one its reason.
  it("a filtering hook's moves are found by number, text and table; one shown twice keeps its first place", function()
    rule("dup", "function(moves) return { moves[3], moves[1], moves[3] }, { [moves[2].text] = 'not this one' } end")
    local plain = assert(diloti.new{ position = EX1 }):moves()
    local g = assert(diloti.new{ rules = "diloti+dup", rules_dirs = { tmp }, position = EX1 })
    assert.same({ plain[3], plain[1], plain[3] }, g:moves())
    for i, info in ipairs(g:moves(true)) do
      assert.equals(({ plain[3], plain[1], plain[3] })[i], info.text)
      assert.equals(i, info.index)
    end
    for _, arg in ipairs{ plain[3], { text = plain[3] } } do
      local h = assert(diloti.new{ rules = "diloti+dup", rules_dirs = { tmp }, position = EX1 })
      h:moves()
      local e = assert(h:play(arg))
      assert.equals(plain[3], e.text)
      assert.equals(1, e.index)
    end
    local h = assert(diloti.new{ rules = "diloti+dup", rules_dirs = { tmp }, position = EX1 })
    local e = assert(h:play(2))
    assert.equals(plain[1], e.text)
    assert.equals(2, e.index)
    -- (asked before any list was made, and again after: the same answers)
    for _, first in ipairs{ false, true } do
      local k = assert(diloti.new{ rules = "diloti+dup", rules_dirs = { tmp }, position = EX1 })
      if first then k:moves() end
      local ok, why = k:play(plain[2])
      assert.is_nil(ok)
      assert.equals("not this one", why)
      ok, why = k:check(plain[4])
      assert.is_false(ok)
      assert.equals("house rule: this move is not allowed", why)
      assert.is_true((k:check(plain[1])))
      assert.is_nil(k:play(4))
    end
  end)
  -- A crowded table's list is cut; a hook judges only the listed moves, so
  -- a legal move past the cut is refused with a hook, before its verdict
  -- is made and after (one that kept every move), and played without.
  it("a legal move past a cut list is refused under a hook that keeps every move, verdict made or not", function()
    local CROWDED = "hands=10h 9h 8h 7h 6h / 10s 9s 8s 7s 6s; table=Ac 2c 3c 4c 5c 6c 7c 8c 9c Ad 2d 3d 4d 5d; pack=-"
    local unlisted = "10h x Ac 9c"
    local plain = assert(diloti.new{ position = CROWDED })
    for _, m in ipairs(plain:moves()) do assert.are_not.equal(unlisted, m) end
    assert.truthy(plain:clone():play(unlisted))
    rule("same", "function(moves) return moves end")
    for _, first in ipairs{ false, true } do
      local g = assert(diloti.new{ rules = "diloti+same", rules_dirs = { tmp }, position = CROWDED })
      if first then assert.equals(#plain:moves(), #g:moves()) end
      local ok, why = g:play(unlisted)
      assert.is_nil(ok)
      assert.matches("more legal moves than the engine lists", why)
    end
  end)
end)
