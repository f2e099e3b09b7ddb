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
--    limit tenfold. table.sort now calls a comparator that is a C
--    function under the clock (a script's own is under the count hook);
--    the functions stay unguarded elsewhere.
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
    -- (digits: a number, never less or always, an invalid order found late)
    local digits = "local s = string.rep('1', 2^20 - 64) local t = {} for i = 1, 20000 do t[i] = s end"
    local children = {
      tointeger = box_sort("math.tointeger", big),
      floor = box_sort("math.floor", digits),
      ceil = box_sort("math.ceil", digits),
      abs = box_sort("math.abs", digits),
      -- (distinct strings of a megabyte, equal but for their last byte:
      -- never equal, every compare reads them whole)
      rawequal = box_sort("rawequal", "local ss = {} for i = 1, 20 do ss[i] = string.rep('x', 2^20 - 100) "
        .. "..  string.char(64 + i) end local t = {} for i = 1, 100000 do t[i] = ss[i % 20 + 1] end "
        .. "for i = 1, 100000, 20 do t[i] = {} end"),
      -- (what holds: a comparator of the script's own, and a loop in Lua
      -- on strings just short of the hook's every few instructions)
      lua_cmp = box_sort("function(a, b) return math.tointeger(a) end", big),
      loop = prelude .. [[
local b = diloti.box.new{ label = "loop", time = 5, budget = 1e12 }
local ok, f = b:run("local s = '0x' .. string.rep('f', 60000) local f = math.tointeger "
  .. "return function() while true do " .. string.rep("f(s) ", 300) .. " end end", "=loop")
assert(ok, f)
b:limits{ time = 0.2 }
local t0 = os.clock()
local ok2, why = pcall(f)
print("SPENT", os.clock() - t0)
print("RESULT", ok2, why)]],
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

  it("(holds) stops a sort by a comparator of the script's own, and a loop of conversions, at the limit", function()
    for _, name in ipairs{ "lua_cmp", "loop" } do
      local line, spent = result(name)
      assert.matches("time limit exceeded", line, 1, true, name)
      assert.is_true(spent < 0.5, name .. " ran " .. tostring(spent) .. " s")
    end
  end)

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

describe("attack 29b: what holds, the unguarded library functions", function()
  it("answer as before for what costs nothing, and refuse as before", function()
    local b = diloti.box.new{ label = "plain" }
    local ok, v = b:run([[
      local long = string.rep('x', 100)
      local t = { [long] = 1, a = 2 }
      local other = string.rep('x', 99) .. 'x'
      return table.concat({ math.floor(1.5), math.ceil(1.5), math.abs(-2), tostring(math.tointeger(3.0)),
        math.floor('2.5'), tostring(math.tointeger('7')), tostring(math.tointeger('x')),
        tostring(rawequal(long, other)), tostring(rawequal('a', 'a')), tostring(rawget(t, other)),
        tostring(rawget(t, 'a')), tostring(select(2, pcall(math.floor, {})) ~= nil) }, ' ')]], "=plain")
    b:close()
    assert.is_true(ok, v)
    assert.equals("1 2 2 3 2 7 nil true true 1 2 true", v)
  end)

  it("a sort of tables or numbers by rawequal or math.type still ends soon (constant-time calls)", function()
    local b = diloti.box.new{ label = "sorts", time = 5, budget = 1e12 }
    local ok, f = b:run("local t, u = {}, {} for i = 1, 100000 do t[i] = {} u[i] = i end "
      .. "return function() table.sort(t, rawequal) pcall(table.sort, u, math.type) return #t end", "=sorts")
    assert.is_true(ok, f)
    local t0 = os.clock()
    assert.equals(100000, f())
    b:close()
    assert.is_true(os.clock() - t0 < 0.5)
  end)
end)

describe("attack 29b: what holds, the moves prelude's all-kept answer", function()
  rule("mutall", "function(moves) for _, m in ipairs(moves) do m.text = 'Kh lay' m.kind = 'lay' end return moves end")
  rule("swapback", "function(moves) moves[1], moves[2] = moves[2], moves[1] "
    .. "moves[1], moves[2] = moves[2], moves[1] return moves end")
  rule("meta", "function(moves) return setmetatable({}, { __index = moves, __len = function() return #moves end }) end")
  rule("eqtrick", "function(moves) local mt = { __eq = function() return true end } local t = {} "
    .. "for i = 1, #moves do t[i] = setmetatable({ text = 'Kh lay' }, mt) end return t end")
  rule("inplace", "function(moves) table.remove(moves, 1) end")
  rule("holes", "function(moves) moves[2] = nil return moves end")
  rule("errmid", "function(moves) table.remove(moves, 1) error('mid') end")
  rule("extra", "function(moves) moves[#moves + 1] = moves[1] return moves end")
  rule("dup", "function(moves) local t = {} for i = 1, #moves do t[i] = moves[1] end return t end")
  -- (the tables of the first list it was given, as many as it is given
  -- now: the engine looks their texts up)
  rule("stale", "function(moves) if old then local t = {} for i = 1, #moves do t[i] = old[i] end return t end "
    .. "old = moves return moves end")

  -- Every way of asking agrees with g:moves(): check, simulate and play,
  -- by text and by number.
  local function agrees(spec, want)
    local all = plain()
    local g = game(spec)
    assert.same(want, g:moves(), spec)
    local allowed = {}
    for i, t in ipairs(want) do
      allowed[t] = true
      assert.equals(t, g:moves(true)[i].text, spec)
    end
    for _, t in ipairs(all) do
      assert.equals(allowed[t] == true, (g:check(t)), spec .. " check " .. t)
      assert.equals(allowed[t] == true, g:simulate(0, t) ~= nil, spec .. " simulate " .. t)
    end
    local h = game(spec)
    local e = assert(h:play(#want))
    assert.equals(want[#want], e.text, spec)
    assert.is_nil(game(spec):play(#want + 1), spec)
    assert.is_false((game(spec):check("Kh lay")), spec)
  end

  it("a hook that kept every move (changed or moved back) allows every move, numbered as the engine's", function()
    local all = plain()
    agrees("diloti+mutall", all)
    agrees("diloti+swapback", all)
    agrees("diloti+mutall+pass", all)
  end)

  it("a list changed in place, or the same move many times, is read move by move", function()
    local all = plain()
    local rest = { table.unpack(all, 2) }
    agrees("diloti+inplace", rest)
    agrees("diloti+pass+inplace", rest)
    local dup = {}
    for i = 1, #all do dup[i] = all[1] end
    agrees("diloti+dup", dup)
  end)

  it("a list of proxies, holes, one too many or an error is refused, never taken as every move", function()
    for spec, why in pairs{ ["diloti+meta"] = "no legal move",
                            ["diloti+eqtrick"] = "'Kh lay', which is not a legal move",
                            ["diloti+holes"] = "non%-move", ["diloti+extra"] = "more than the 14 legal ones",
                            ["diloti+errmid"] = "mid" } do
      local ok, err = pcall(game(spec).moves, game(spec))
      assert.is_false(ok, spec)
      assert.matches(why, err, 1, false, spec)
    end
  end)

  it("a crowded table kept whole: a legal move past the cut list is refused alike, verdict made or not", function()
    local BIG = "hands=10h 9h 8h 7h 6h / 10s 9s 8s 7s 6s; table=Ac 2c 3c 4c 5c Ad 2d 3d 4d 5d Ah 2h 3h 4h 5h; pack=-"
    local unlisted = "10h x Ac 4c 5c"
    local p = assert(diloti.new{ position = BIG })
    assert.is_true((p:check(unlisted)))
    for _, t in ipairs(p:moves()) do assert.are_not.equal(unlisted, t) end
    local before = game("diloti+pass", BIG)
    local ok, why = before:check(unlisted)
    assert.is_false(ok)
    assert.matches("judges only the listed ones", why, 1, true)
    local after = game("diloti+pass", BIG)
    assert.same(p:moves(), after:moves())
    assert.same({ false, why }, { after:check(unlisted) })
    assert.same({ nil, why }, { after:play(unlisted) })
  end)

  it("Pilotta: a hook that kept every move, changed, allows them as the engine's", function()
    support.write(tmp .. "/pilotta-pmutall.lua", "return { name = 'pilotta-pmutall', description = 'x', "
      .. "game = 'pilotta', hooks = { moves = function(moves) for _, m in ipairs(moves) do m.text = 'contra' end "
      .. "return moves end } }")
    local g = assert(diloti.new{ rules = "pilotta+pmutall", rules_dirs = { tmp } })
    local ref = assert(diloti.new{ rules = "pilotta" }):moves()
    assert.same(ref, g:moves())
    assert.is_false((g:check("contra")))
    assert.is_nil(g:play(#ref + 1))
    assert.equals(ref[#ref], assert(g:play(#ref)).text)
  end)

  it("move tables kept from an earlier call are looked up by their text, not taken for the new ones", function()
    local g = game("diloti+stale")
    assert.same(plain(), g:moves())
    assert(g:play("8h lay"))
    local ok, why = pcall(g.moves, g)
    assert.is_false(ok)
    assert.matches("returned '2d x 2c', which is not a legal move here", why, 1, true)
  end)
end)

describe("attack 29b: what holds, the lazy ctx and a seat's kept data", function()
  -- Seat 0 of EX1 plays, then seat 1 (9c): the same player for both.
  local function two_decisions(body)
    local p = player_of(body)
    local g = game()
    local _, i0 = p:choose(g, 0)
    assert(g:play("8h lay"))
    local _, i1 = p:choose(g, 1)
    return i0, i1
  end

  it("a ctx kept unread from one decision tells nothing in the next, of another seat", function()
    local _, info = two_decisions([[
      local kept, kept_view
      return { name = NAME, description = "x", choose = function(view, moves, ctx)
        if not kept then kept, kept_view = ctx, view return moves[1] end
        local out = {}
        local ok0, hand = pcall(function() return kept_view.hand end)
        out[#out + 1] = "view=" .. (ok0 and type(hand) or "refused")
        for _, k in ipairs{ "unseen", "moves_info", "rules" } do
          local ok, v = pcall(function() return kept[k] end)
          out[#out + 1] = k .. "=" .. (ok and type(v) or "refused")
        end
        local ok = pcall(function() return kept.simulate("2d lay") end)
        out[#out + 1] = "simulate=" .. (ok and "ran" or "refused")
        ok = pcall(function() return kept.best_capture("8h") end)
        out[#out + 1] = "best_capture=" .. (ok and "ran" or "refused")
        out[#out + 1] = "seat=" .. tostring(kept.seat) .. "/" .. tostring(ctx.seat)
        return moves[1], table.concat(out, " ")
      end }]])
    assert.is_nil(info.fallback, info.warning)
    assert.equals("view=refused unseen=refused moves_info=refused rules=refused simulate=refused "
      .. "best_capture=refused seat=0/1", info.note)
  end)

  it("what a script writes into its ctx stays in that decision: the next gets the seat's own data", function()
    local i0, i1 = two_decisions([[
      return { name = NAME, description = "x", choose = function(_, moves, ctx)
        local seen = table.concat({ tostring(ctx.seat), tostring(ctx.partner), tostring(ctx.extra),
          tostring(ctx.host), type(ctx.rng), type(ctx.time_left), tostring(ctx.game), type(ctx.points) }, " ")
        ctx.seat, ctx.partner, ctx.extra, ctx.host, ctx.rng, ctx.time_left = 5, 7, "mine", print, nil, nil
        ctx.game, ctx.points = "pilotta", 1
        return moves[1], seen
      end }]])
    assert.is_nil(i0.fallback, i0.warning)
    assert.is_nil(i1.fallback, i1.warning)
    assert.equals("0 nil nil nil function function nil function", i0.note)
    assert.equals("1 nil nil nil function function nil function", i1.note)
  end)

  it("no field of a view or ctx, however first read, holds another seat's cards", function()
    -- (seat 1 holds 9c: seat 0's decision, read every way, never names it
    -- outside unseen)
    local _, info = two_decisions([[
      local function walk(v, out, depth)
        if depth > 4 then return end
        if type(v) == "string" then out[#out + 1] = v
        elseif type(v) == "table" then for k, x in next, v do walk(k, out, depth + 1) walk(x, out, depth + 1) end end
      end
      local found
      return { name = NAME, description = "x", choose = function(view, moves, ctx)
        if ctx.seat == 0 then
          local out = {}
          walk(rawget(view, "hand"), out, 0)
          for k, v in pairs(ctx) do if k ~= "unseen" then walk(k, out, 0) walk(v, out, 0) end end
          for k, v in next, view do if k ~= "unseen" then walk(k, out, 0) walk(v, out, 0) end end
          found = table.concat(out, " "):find("9c", 1, true) ~= nil
          return moves[1]
        end
        return moves[1], tostring(found)
      end }]])
    assert.is_nil(info.fallback, info.warning)
    assert.equals("false", info.note)
  end)
end)

describe("attack 29b: what holds, calls without a map of services", function()
  it("a service kept from one call is refused in a later call given no table", function()
    local b = diloti.box.new{ label = "svc" }
    local _, keep = b:run("return function(svc) kept = svc return 1 end", "=svc")
    local _, use = b:run("return function(...) local ok, why = pcall(kept) return ok, why end", "=svc2")
    local _, later = b:run("return nil", "=svc3")
    assert.is_nil(later)
    assert.equals(1, keep(function() return "secret" end))
    for _, args in ipairs{ {}, { 1, "x", true }, { keep } } do
      local ok, why = use(table.unpack(args))
      assert.is_false(ok)
      assert.matches("works only during the call it was given to", why, 1, true)
    end
    b:close()
  end)
end)
