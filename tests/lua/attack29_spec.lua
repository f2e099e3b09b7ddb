-- Attack 29: a hostile house-rule author against the cheaper moves hook
-- crossing (core.box.params, the prelude's numbers, the list a lone hook
-- is given made by C in its box, the chain's engine numbers, tables
-- copied presized, generational collection in boxes).
--
-- Findings (each test failed before its fix):
-- 1. the prelude read rawget, rawlen and type from the script's own
--    globals: a rule defining a global `type` of its own (or replacing
--    rawget) had its answer misread: every move kept, or another one;
-- 2. a hole in an answer ({1, nil, 2}) was cut to the moves before it
--    by the prelude's renumbering, silently, where the engine had
--    refused it as a non-move;
-- 3. a table a script returns many times over crosses once per
--    reference, and each copy walked the table's empty slots: one sparse
--    table (2^21 slots, nothing in them) in 50,000 places kept the
--    host's thread (a room's) copying for minutes after the call ended;
-- 4. an answer's text the engine refused was quoted whole in the error:
--    a megabyte of it (older than issue 29);
-- 5. a host's own hook (diloti.new{hooks}) that filtered its list in
--    place and gave it back had every move allowed (the list given back
--    was taken for "unchanged"), and a play ran the hook before the
--    engine refused an illegal move (a broken hook raised instead):
--    module_spec failed on both.
-- The rest holds, and stays tested here.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local core = { box = diloti.box }

local EX1 = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c"
-- 15 loose cards: a crowded table, its list cut at the engine's bound.
local BIG = "hands=10h 9h 8h 7h 6h / 10s 9s 8s 7s 6s; table=Ac 2c 3c 4c 5c Ad 2d 3d 4d 5d Ah 2h 3h 4h 5h; pack=-"

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

local R = require("hook_rules").new(tmp, EX1)
local rule, game, plain, three = R.rule, R.game, R.plain, R.three

describe("attack 29, finding 1: the prelude's own rawget, rawlen and type", function()
  it("a rule defining a global `type` of its own keeps the move it answered, not every move", function()
    rule("owntype", "function(moves) return { moves[3] } end",
      "function type(m) return m.kind end")
    local want = plain()
    for _, spec in ipairs(three("owntype")) do
      assert.same({ want[3] }, game(spec):moves(), spec)
    end
  end)

  it("replacing rawget or rawlen changes nothing of how the answer is read", function()
    rule("ownget", "function(moves) return { moves[3], moves[1] } end",
      "rawget = function() return 7 end")
    rule("ownlen", "function(moves) return { moves[3], moves[1] } end",
      "rawlen = function() return 1 end")
    rule("ownerr", "function(moves) return { moves[3], moves[1] } end",
      "rawlen = function() error('mine') end ipairs = rawlen pairs = rawlen")
    local want = plain()
    for _, name in ipairs{ "ownget", "ownlen", "ownerr" } do
      for _, spec in ipairs(three(name)) do
        assert.same({ want[3], want[1] }, game(spec):moves(), spec)
      end
    end
  end)

  it("a score hook's change in place is kept though the rule has its own `type`", function()
    rule("ownscore", nil, "function type() return 'table' end",
      nil, "score = function(b) b[0].total = b[0].total + 100 end")
    local g = game("diloti+ownscore", "hands=Jc / 10h; table=10s Jd; deal=4; ply=46; pack=-")
    local ref = assert(diloti.new{ position = "hands=Jc / 10h; table=10s Jd; deal=4; ply=46; pack=-" })
    for _, x in ipairs{ g, ref } do
      repeat local e = assert(x:play(x:moves()[1])) until e.round_over
    end
    local a, b = g:state(), ref:state()
    assert.equals(b.score[0] + 100, a.score[0])
  end)
end)

describe("attack 29, finding 2: holes in an answer", function()
  it("a hole is refused as a non-move, alone and in a chain, not cut short", function()
    rule("hole", "function(moves) return { 1, nil, 2 } end")
    rule("hole2", "function(moves) return { moves[1], nil, moves[2] } end")
    for _, name in ipairs{ "hole", "hole2" } do
      for _, spec in ipairs(three(name)) do
        local ok, err = pcall(game(spec).moves, game(spec))
        assert.is_false(ok, spec)
        assert.matches("non%-move", err, 1, false, spec)
      end
    end
  end)
end)

describe("attack 29, finding 3: a table returned many times over", function()
  -- (built with table.move: a loop would spend the call's budget)
  local SPARSE = [[
    local function sparse()
      local t = { string.byte(string.rep("x", 65536), 1, -1) }
      while #t < 2097152 do table.move(t, 1, #t, #t + 1) end
      local none = {}
      table.move(none, 1, 1048576, 1, t)
      table.move(none, 1, 1048576, 1048577, t)
      return t
    end
    local function times(x, n)
      local out = { x }
      while #out < n do table.move(out, 1, math.min(#out, n - #out), #out + 1) end
      return out
    end]]

  it("copying it costs what it holds, not its empty slots once per reference (a box's function)", function()
    local child = support.spawn(string.format([[
      local core = { box = require("diloti").box }
      local b = core.box.new{ label = "sparse" }
      local ok, f = b:run(%q .. " return function(n) return times(sparse(), n) end", "=s")
      assert(ok, f)
      local t0 = os.clock()
      local ok2, out = pcall(f, 50000)
      assert(ok2, out)
      assert(#out == 50000 and next(out[1]) == nil and out[1] ~= out[2], "copies")
      print(string.format("copied in %%.2f s", os.clock() - t0))
      local ok3, err = pcall(f, 600000)
      print(ok3, err, b:crossed())
    ]], SPARSE), 20)
    local out, code = child.wait()
    assert.equals(0, code, out)
    assert.matches("copied in 0%.%d%d s", out)
    assert.matches("false\t.*too many values.*\ttrue", out)
  end)

  it("a table met again still counts in full, and still meets the depth limit", function()
    local b = core.box.new{ label = "dag" }
    local ok, fns = b:run([[return {
      dag = function(levels)
        local t = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }
        for _ = 1, levels do t = { t, t } end
        return t
      end,
      deep = function(d)
        local leaf = { x = 1 }
        local top = {}
        for i = 1, 20 do top[i] = {} end
        top[21] = leaf
        local m = top
        for _ = 1, d do m.next = {} m = m.next end
        m.leaf = leaf
        return top
      end }]], "=dag")
    assert.is_true(ok, fns)
    -- 2^12 copies of ten values: ~100,000 values, shared or not
    local t = fns.dag(12)
    local function leaves(x) if x[1] == 1 then return 1 end return leaves(x[1]) + leaves(x[2]) end
    assert.equals(4096, leaves(t))
    assert.are_not.equal(t[1], t[2])
    local ok2, err = pcall(fns.dag, 17)
    assert.is_false(ok2)
    assert.matches("too many values", err)
    assert.is_true(b:crossed())
    -- (the leaf first met at depth 1, past the memo's start, then deeper
    -- than 32 levels)
    assert.equals(1, fns.deep(25).next.next.next.x == nil and 1 or 0)
    local ok3, err3 = pcall(fns.deep, 31)
    assert.is_false(ok3)
    assert.matches("nested deeper than 32 levels", err3)
    b:close()
  end)

  it("a moves hook answering it: the engine refuses the answer at once, or the hook loses its call", function()
    support.write(tmp .. "/sparse.lua", SPARSE
      .. " return { name = 'sparse', description = 'x', hooks = { moves = function(m) "
      .. "return times(sparse(), N or 50000) end } }")
    support.write(tmp .. "/sparsebig.lua", SPARSE
      .. " return { name = 'sparsebig', description = 'x', hooks = { moves = function(m) "
      .. "return times(sparse(), 600000) end } }")
    local child = support.spawn(string.format([[
      local diloti = require "diloti"
      local g = assert(diloti.new{ rules = "diloti+sparse", rules_dirs = { %q }, position = %q })
      print(pcall(g.moves, g))
      g = assert(diloti.new{ rules = "diloti+sparsebig", rules_dirs = { %q }, position = %q })
      local moves = g:moves()
      print(#moves, select(2, g:play(moves[1])))
    ]], tmp, EX1, tmp, EX1), 20)
    local out, code = child.wait()
    assert.equals(0, code, out)
    assert.matches("false\thouse rule %(moves hook%) returned a non%-move", out)
    assert.matches("\n14\thouse rule 'sparsebig' .*too many values.*standard moves used for this position", out)
  end)
end)

describe("attack 29, finding 4: a refused answer's text in the error", function()
  it("a megabyte of text answered is named by its start, not repeated whole", function()
    rule("mega", "function(m) return { string.rep('A', 1000000) } end")
    rule("megalines", "function(m) return { 'no such\\nmove ' .. string.rep('B', 5000) } end")
    for _, name in ipairs{ "mega", "megalines" } do
      for _, spec in ipairs(three(name)) do
        local ok, err = pcall(game(spec).moves, game(spec))
        assert.is_false(ok)
        assert.is_true(#err < 300, spec .. ": " .. #err .. " bytes")
        assert.matches("returned '[AB no suchmve]+%.%.%.', which is not a legal move here", err)
        assert.is_nil(err:find("\n"))
      end
    end
    -- (a short one is named whole)
    rule("shortbad", "function(m) return { '9s x 9h' } end")
    local ok, err = pcall(game("diloti+shortbad").moves, game("diloti+shortbad"))
    assert.is_false(ok)
    assert.matches("returned '9s x 9h', which", err)
  end)
end)

describe("attack 29, finding 5: a host's own hook, and a play found in the verdict", function()
  -- (the engine took the list given back for "every move": a host's own
  -- hook that filtered in place let every dropped move be played, and
  -- one that added a move was not refused: module_spec failed on it)
  it("the moves it removed are refused, and a move it added is an error", function()
    local want = plain()
    local g = assert(diloti.new{ rules = {}, position = EX1, hooks = { moves = function(list)
      for i = #list, 1, -1 do if list[i].kind ~= "lay" then table.remove(list, i) end end
      return list
    end } })
    local moves = g:moves()
    assert.same({ "2d lay", "8h lay" }, moves)
    assert.is_false((g:check(want[1])))
    assert.is_nil((g:play(want[1])))
    local added = assert(diloti.new{ rules = {}, position = EX1, hooks = { moves = function(list)
      list[#list + 1] = { text = "Kc lay" }
      return list
    end } })
    local ok, err = pcall(added.moves, added)
    assert.is_false(ok)
    assert.matches("'Kc lay', which is not a legal move here", err)
  end)

  it("a move the engine refuses is refused before the hook is asked (a play looked up in the verdict)", function()
    local calls = 0
    local g = assert(diloti.new{ rules = {}, position = EX1, hooks = { moves = function(list)
      calls = calls + 1
      if calls == 1 then error("broken hook") end
      return { list[2] }
    end } })
    local effect, why = g:play("Kc lay")
    assert.is_nil(effect)
    assert.is_string(why)
    assert.equals(0, calls)
    assert.has_error(function() g:play("8h lay") end)
    -- (once made, the verdict answers: kept moves by any spelling, others refused)
    local moves = g:moves()
    assert.equals(1, #moves)
    assert.is_false((g:check("8h lay")))
    assert.truthy(g:play(moves[1]:upper()))
    assert.equals(2, calls)
  end)

  it("a chain of house rules that keeps every move still answers every move, in order", function()
    local g = game("diloti+pass+pass1")
    assert.same(plain(), g:moves())
    assert.truthy(g:play(plain()[3]))
  end)
end)

describe("attack 29: what holds", function()
  it("metatables, __len and __index on the answer or its moves are never run: the raw answer is read", function()
    rule("metalen", "function(m) return setmetatable({}, { __len = function() return 3 end, "
      .. "__index = function(_, i) return m[i] end }) end")
    rule("metaentry", "function(m) return { setmetatable({}, { __index = m[2] }) } end")
    rule("metagiven", "function(m) table.remove(m, 1) setmetatable(m, { __index = function() return m[1] end, "
      .. "__len = function() return 99 end }) end")
    local want = plain()
    for _, spec in ipairs(three("metalen")) do
      local ok, err = pcall(game(spec).moves, game(spec))
      assert.is_false(ok)
      assert.matches("no legal move", err)
    end
    for _, spec in ipairs(three("metaentry")) do
      local ok, err = pcall(game(spec).moves, game(spec))
      assert.is_false(ok)
      assert.matches("non%-move", err)
    end
    for _, spec in ipairs(three("metagiven")) do
      assert.same({ table.unpack(want, 2) }, game(spec):moves(), spec)
    end
  end)

  it("NaN, infinities, -0.0, 1.0 and the integers' ends are refused by name, never taken for a move", function()
    for i, case in ipairs{ "0/0", "1/0", "-1/0", "-0.0", "1.0", "math.maxinteger", "math.mininteger", "0" } do
      rule("num" .. i, "function(m) return { " .. case .. " } end")
      for _, spec in ipairs(three("num" .. i)) do
        local ok, err = pcall(game(spec).moves, game(spec))
        assert.is_false(ok, spec)
        assert.is_truthy(err:find("non%-move") or err:find("move number"), err)
      end
    end
  end)

  it("the same move many times is kept as often; one more than the legal moves is refused", function()
    rule("same", "function(m) local t = {} for i = 1, #m do t[i] = m[1] end return t end")
    rule("sameno", "function(m) local t = {} for i = 1, #m do t[i] = 1 end return t end")
    rule("more", "function(m) local t = {} for i = 1, #m + 1 do t[i] = m[1] end return t end")
    local want = plain()
    for _, name in ipairs{ "same", "sameno" } do
      for _, spec in ipairs(three(name)) do
        local g = game(spec)
        local moves = g:moves()
        assert.equals(#want, #moves)
        for _, m in ipairs(moves) do assert.equals(want[1], m) end
        assert.truthy(g:play(#moves))
      end
    end
    for _, spec in ipairs(three("more")) do
      local ok, err = pcall(game(spec).moves, game(spec))
      assert.is_false(ok)
      assert.matches("returned 15 moves, more than the 14 legal ones", err)
    end
  end)

  it("the given list changed in place, or texts and copies, name the engine's moves; made-up ones are refused",
    function()
      rule("mutrm", "function(m) table.remove(m, 1) m[1].text = '9s x 9h' end")
      rule("mutadd", "function(m) m[#m + 1] = { text = '9s x 9h' } end")
      local want = plain()
      for _, spec in ipairs(three("mutrm")) do
        assert.same({ table.unpack(want, 2) }, game(spec):moves(), spec)
      end
      for _, spec in ipairs(three("mutadd")) do
        local ok, err = pcall(game(spec).moves, game(spec))
        assert.is_false(ok)
        assert.matches("'9s x 9h', which is not a legal move here", err)
      end
    end)

  it("giant answers lose the hook its call with the standard moves and a warning, alone and in a chain", function()
    rule("giant", "function(m) local t = {} for i = 1, 1100000 do t[i] = 1 end return t end")
    rule("giantdeep", "function(m) local t = {} local x = t for _ = 1, 40 do x.x = {} x = x.x end "
      .. "return { 1, t } end")
    rule("gianttext", "function(m) local s = string.rep('x', 1000000) local t = {} "
      .. "for i = 1, #m do t[i] = { text = s, s, s, s, s, s, s } end return t end")
    local want = plain()
    for _, name in ipairs{ "giant", "giantdeep", "gianttext" } do
      for _, spec in ipairs(three(name)) do
        local g = game(spec)
        assert.same(want, g:moves(), spec)
        local _, warn = g:play(want[1])
        assert.matches("house rule '" .. name .. "'.*; standard moves used for this position", warn)
      end
    end
  end)

  it("a memory trip inside the prelude's part names the rule and its cap; the next call runs afresh", function()
    -- (fills its memory to within 4 KB, then answers all moves but one:
    -- the prelude's list of numbers no longer fits; a list kept whole
    -- needs none)
    rule("brim", "function(m) local t = {} for i = 1, #m - 1 do t[i] = m[i] end "
      .. "local kb = string.rep('y', 1000) "
      .. "local hoard, add = {}, function(h, size) h[#h + 1] = string.rep(kb, size) end "
      .. "for i = 1, 1100 do hoard[i] = false end for i = 1, 1100 do hoard[i] = nil end "
      .. "for _, size in ipairs{ 65, 4 } do "
      .. "while pcall(add, hoard, size) do end end HOARD = hoard return t end")
    -- (a crowded table: the prelude's numbers for 3,636 moves need ~64 KiB)
    local g = game("diloti+brim", BIG)
    local ok, err = pcall(g.moves, g)
    assert.is_false(ok)
    assert.matches("house rule 'brim' .*memory cap exceeded.*; it will be loaded afresh$", err)
    -- (loaded afresh, it fills up again and says so again)
    local ok2, again = pcall(g.moves, g)
    assert.is_false(ok2)
    assert.matches("house rule 'brim' .*memory cap exceeded.*; it will be loaded afresh$", again)
  end)

  it("a rule that is alone in one game and chained in another answers the same in both", function()
    rule("evens", "function(m) local t = {} for i = 2, #m, 2 do t[#t + 1] = i end return t end")
    rule("lays", "function(m) local t = {} for _, x in ipairs(m) do if x.kind == 'lay' then t[#t + 1] = x end end "
      .. "return t end")
    local alone, chained, other = game("diloti+evens"), game("diloti+evens+pass1"), game("diloti+pass+evens")
    local want = {}
    for i, m in ipairs(plain()) do if i % 2 == 0 then want[#want + 1] = m end end
    assert.same(want, alone:moves())
    assert.same(want, chained:moves())
    assert.same(want, other:moves())
    -- (the chain hands the next hook the engine's moves of the numbers kept)
    local lays = game("diloti+evens+lays"):moves()
    for _, m in ipairs(lays) do assert.matches(" lay$", m) assert.is_truthy(support.has(want, m)) end
  end)

  it("the list built in a box: the host cannot read it, and it crosses during its call only", function()
    local b = core.box.new{ label = "k" }
    local ok, fns = b:run("return { count = function(t) K = t return #t end, get = function() return K end, "
      .. "n = function(t) return #t end, again = function(cb) return cb() end }", "=k")
    assert.is_true(ok, fns)
    local other = core.box.new{ label = "o" }
    local _, ocount = other:run("return function(t) return #t end", "=o")
    local kept, seen = nil, {}
    local g = assert(diloti.new{ rules = {}, position = EX1, hooks = { moves_built = true, moves = function(list)
      kept = list
      seen.index = pcall(function() return list[1] end)
      seen.len = pcall(function() return #list end)
      seen.meta = getmetatable(list)
      seen.params = select("#", core.box.params(list))
      seen.count, seen.nested, seen.other = fns.count(list), fns.n({ list, list }), ocount(list)
      return list
    end } })
    assert.same(plain(), g:moves())
    assert.same({ index = false, len = false, meta = false, params = 0, count = 14, nested = 2, other = 14 }, seen)
    -- (what the script kept is its own plain copy; the handle no longer crosses)
    assert.equals(14, #fns.get())
    for _, f in ipairs{ fns.count, ocount, function(x) return fns.again(function() return x end) end } do
      local ok2, err = pcall(f, kept)
      assert.is_false(ok2)
      assert.matches("userdata cannot be passed", err)
    end
    b:close()
    other:close()
  end)

  it("core.box.params answers nothing but for a stub of an open box at rest", function()
    local b = core.box.new{ label = "p" }
    local ok, fns = b:run("return { f = function(a, b) end, call = function(cb) return cb() end }", "=p")
    assert.is_true(ok, fns)
    assert.same({ 2, false }, { core.box.params(fns.f) })
    local during = { fns.call(function() return select("#", core.box.params(fns.f)) end) }
    assert.same({ 0 }, during)
    for _, v in ipairs{ 0 / 0, math.huge, -0.0, math.mininteger, "", string.rep("s", 100), {}, { fns.f },
      setmetatable({}, { __call = fns.f }), print, string.len, io.stdout, coroutine.create(print), b, false } do
      assert.equals(0, select("#", core.box.params(v)), tostring(v))
    end
    assert.equals(0, select("#", core.box.params(nil, fns.f)))
    b:close()
    assert.equals(0, select("#", core.box.params(fns.f)))
  end)

  it("Pilotta: numbers, holes and forged moves in a moves hook are read as the engine's or refused", function()
    local spec = rule("rev", "function(m) local t = {} for i = #m, 1, -1 do t[#t + 1] = i end return t end",
      nil, "pilotta")
    local g = assert(diloti.new{ rules = spec, rules_dirs = { tmp } })
    local ref = assert(diloti.new{ rules = "pilotta" }):moves()
    local want = {}
    for i = #ref, 1, -1 do want[#want + 1] = ref[i] end
    assert.same(want, g:moves())
    assert.truthy(g:play(want[1]))
    local forged = rule("forged", "function(m) return { { text = 'contra' }, { text = 'pass', kind = 'bid' } } end",
      nil, "pilotta")
    local f = assert(diloti.new{ rules = forged, rules_dirs = { tmp } })
    local ok, err = pcall(f.moves, f)
    assert.is_false(ok)
    assert.matches("'contra', which is not a legal move here", err)
  end)

  it("a crowded table: a lone hook's numbers over the cut list; a played move found by its text", function()
    rule("bigrev", "function(m) local t = {} for i = #m, 1, -2 do t[#t + 1] = i end return t end")
    local g = game("diloti+bigrev", BIG)
    local ref = plain(BIG)
    local moves = g:moves()
    assert.equals(math.ceil(#ref / 2), #moves)
    assert.equals(ref[#ref], moves[1])
    -- a kept move by another spelling of its text; a dropped one is refused
    assert.is_true((g:check(moves[1]:upper())))
    assert.is_false((g:check(ref[#ref - 1])))
    assert.matches("house rule", select(2, g:check(ref[#ref - 1])))
    assert.truthy(g:play(moves[1]:upper()))
  end)

  it("a box collecting generationally keeps its exact count through churn near its cap", function()
    local b = core.box.new{ label = "gc", memory = 8 * 1024 * 1024 }
    local ok, f = b:run([[
      local keep = setmetatable({}, { __mode = "k" })
      return function(rounds)
        local live = {}
        for r = 1, rounds do
          local ok = pcall(function()
            for i = 1, 2000 do
              local t = { i, tostring(i), { i } }
              keep[t] = { t }
              live[i % 500 + 1] = t
              if i % 7 == 0 then live[i % 500 + 1] = string.rep("z", 1000 + i) end
            end
          end)
          if not ok then live = {} end
        end
        return #live
      end]], "=gc")
    assert.is_true(ok, f)
    local base = b:memory()
    for _ = 1, 20 do assert.equals(500, f(5)) end
    local used, cap = b:memory()
    assert.is_true(used <= cap)
    assert.is_true(used < base + 4 * 1024 * 1024, tostring(used))
    b:close()
  end)
end)
