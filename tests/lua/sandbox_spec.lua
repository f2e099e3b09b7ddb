-- The box every untrusted script runs in (core.box, src/lua/box.c,
-- docs/security.md): a Lua state of its own per script, with an
-- allow-list of globals, text-only loading, an instruction budget, a clock
-- and an exact memory cap (64 MiB by default), and only plain data
-- crossing between it and the host. Every escape below is tried against
-- a box and must fail with a clear message, after which the game goes on.
--
-- What used to be tested of the old in-host sandbox (its environment
-- tables walked from the host, the host's string metatable swapped and
-- restored, memory measured on the host's heap) is now stated about the
-- box: its globals are walked from inside it, the host's string library is
-- never touched because no script runs in the host, and memory is the
-- box's own exact count.
--
-- Attempts that could hang this process (runaway C calls, code that could
-- run outside the limits) run in child processes that are killed after a
-- few seconds; they start together so the suite stays quick.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local box = diloti.box

local lit = support.lit

local EX1 = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c"
local LAST = "hands=Jc / 10h; table=10s Jd; deal=4; ply=46; pack=-"
local CHILD_SECONDS = 6
-- Under AddressSanitizer a house rule's second may run out before 64 MiB
-- are filled or the stack overflows: the time limit stops it then.
local ASAN = (os.getenv("LD_PRELOAD") or ""):find("asan", 1, true) ~= nil
local SLOW = ASAN and "|time limit exceeded" or ""

-- A box's globals: exactly these (docs/security.md).
local ALLOWED = { "assert", "error", "ipairs", "next", "pairs", "pcall", "select", "tonumber", "tostring", "type",
                  "xpcall", "rawequal", "rawget", "rawlen", "setmetatable", "string", "table", "math", "utf8",
                  "_G", "_VERSION" }
-- Names that must not be found anywhere a script can reach.
local FORBIDDEN = { "io", "os", "debug", "load", "loadstring", "loadfile", "dofile", "require", "package",
                    "collectgarbage", "getmetatable", "rawset", "coroutine", "print", "module", "setfenv",
                    "getfenv", "newproxy", "dump", "sethook", "getregistry", "getupvalue", "setupvalue",
                    "upvalueid", "execute", "popen", "getenv", "loadlib", "searchpath", "wrap", "yield" }

local set_literal, WALK = support.set_literal, support.WALK

--- Runs src in a fresh box (opts: box.new's; lim: box:run's limits) and
-- closes it. Returns what box:run returned.
local function run(src, opts, lim)
  local b = box.new(opts or {})
  local r = table.pack(b:run(src, "=escape", lim))
  b:close()
  return table.unpack(r, 1, r.n)
end

--- Something printable for a failure message.
local function show(v)
  return (tostring(v):gsub("[^%g ]", "?"))
end

--- Asserts that src fails in a box, with a message matching pattern.
local function refused(src, pattern, opts, lim)
  local ok, why = run(src, opts, lim)
  assert(ok == false, "the script was not stopped; it returned: " .. show(why))
  assert(type(why) == "string" and why:match(pattern), "unexpected message: " .. tostring(why))
  return why
end

--- The host's own string library and metatable, untouched by any script.
local REAL_STRING_INDEX = getmetatable("").__index
local function strings_intact()
  assert(getmetatable("").__index == REAL_STRING_INDEX and REAL_STRING_INDEX == string)
  assert.equals("X", ("x"):upper())
  assert.is_function(string.dump)
end

--- The game still works after an escape attempt.
local function game_goes_on()
  local g = assert(diloti.new{ position = EX1 })
  assert(g:play("8h x 2c 3h 5s 6d 8c"))
  assert(g:play("9c lay"))
  strings_intact()
  return g
end

local function mib() return collectgarbage("count") / 1024 end

describe("the box", function()
  describe("its globals: an allow-list (walked from inside the box)", function()
    it("are exactly the allow-list", function()
      local ok, names = run("local k = {} for n in next, _G do k[#k + 1] = n end table.sort(k) "
        .. "return table.concat(k, ' ')")
      assert.is_true(ok, names)
      local want = {}
      for i, n in ipairs(ALLOWED) do want[i] = n end
      table.sort(want)
      assert.equals(table.concat(want, " "), names)
    end)

    it("reach no io, os, debug, load, require, coroutine or any other way out, however deep", function()
      local ok, report = run(WALK .. "return walk({ _G = _G, strings = { ('').upper, ('').x } }, "
        .. set_literal(FORBIDDEN) .. ")", { budget = 100000000 }, { budget = 100000000, time = 10 })
      assert.is_true(ok, report)
      assert.equals("", report.found)
      -- nothing of the host: no userdata (a proxy, a game), no thread
      local kinds = {}
      for t in pairs(report.types) do kinds[#kinds + 1] = t end
      table.sort(kinds)
      assert.same({ "function", "number", "string", "table" }, kinds)
      assert.is_true(report.types["function"] > 60, report.types["function"] .. " functions")
    end)

    it("keep the safe base functions and the string, table, math and utf8 libraries", function()
      local ok, kinds = run([[
        local t = {}
        for _, n in ipairs{ "assert", "error", "ipairs", "next", "pairs", "pcall", "select", "tonumber",
                            "tostring", "type", "xpcall", "rawequal", "rawget", "rawlen", "setmetatable" } do
          t[n] = type(_G[n])
        end
        for _, n in ipairs{ "string", "table", "math", "utf8" } do t[n] = type(_G[n]) end
        t.rep = type(string.rep)
        t.same_G = _G._G == _G and _ENV == _G
        t.version = _VERSION
        return t]])
      assert.is_true(ok, kinds)
      for _, n in ipairs{ "assert", "error", "ipairs", "next", "pairs", "pcall", "select", "tonumber", "tostring",
                          "type", "xpcall", "rawequal", "rawget", "rawlen", "setmetatable", "rep" } do
        assert.equals("function", kinds[n], n)
      end
      for _, n in ipairs{ "string", "table", "math", "utf8" } do assert.equals("table", kinds[n], n) end
      assert.is_true(kinds.same_G)
      assert.equals("Lua 5.4", kinds.version)
    end)

    it("have no string.dump, neither in string nor through a string's methods", function()
      assert.same({ true, "nil", "nil" }, { run("return type(string.dump), type(('').dump)") })
    end)

    it("are each box's own: a change in one box is seen by no other box, nor by the host", function()
      local a = box.new{}
      local ok, upper = a:run([[
        string.upper = function() return "pwned" end
        table.insert = nil
        math.pi = 3
        return ("x"):upper()]], "=a")
      assert.is_true(ok, upper)
      assert.equals("pwned", upper) -- (its own strings use its own library)
      local ok2, u2, ins, pi = run("return ('x'):upper(), type(table.insert), math.pi")
      assert.is_true(ok2, u2)
      assert.same({ "X", "function", math.pi }, { u2, ins, pi })
      assert.equals("X", ("x"):upper())
      assert.equals("X", string.upper("x"))
      assert.is_function(table.insert)
      assert.is_true(math.pi > 3.14)
      a:close()
      strings_intact()
    end)

    it("keep a box's own globals from one run to the next, and nothing of the host's", function()
      _G.diloti_spec_host_secret = "secret" -- luacheck: ignore
      local a, b = box.new{}, box.new{}
      assert.is_true((a:run("answer = 42", "=a")))
      assert.same({ true, 42, nil }, { a:run("return answer, diloti_spec_host_secret", "=a") })
      assert.same({ true, nil }, { b:run("return answer", "=b") })
      assert.is_nil(rawget(_G, "answer"))
      _G.diloti_spec_host_secret = nil -- luacheck: ignore
      a:close()
      b:close()
    end)
  end)

  describe("box:run: text only", function()
    it("refuses bytecode, saying it loads text only", function()
      local ok, why = run(string.dump(function() return 1 end))
      assert.is_false(ok)
      assert.matches("binary chunk", why)
      assert.matches("mode is 't'", why)
    end)

    it("refuses bytecode even behind a text-looking start", function()
      local ok, why = run("\27Lua" .. ("x"):rep(40))
      assert.is_false(ok)
      assert.matches("binary chunk", why)
    end)

    it("returns false and file:line: reason for a syntax error", function()
      local b = box.new{}
      local ok, why = b:run("local x = \n)", "@house.lua")
      assert.is_false(ok)
      assert.matches("^house%.lua:2:", why)
      assert.is_false(b:broken())
      b:close()
    end)

    it("raises an error for a programming mistake of the host", function()
      local b = box.new{}
      assert.has_error(function() b:run({}) end)
      assert.has_error(function() b:run("return 1", "=x", { budget = "lots" }) end)
      assert.has_error(function() b:run("return 1", "=x", 42) end)
      assert.has_error(function() box.new{ memory = 10 } end)
      assert.has_error(function() box.new{ budget = 0 } end)
      assert.has_error(function() box.new{ time = -1 } end)
      assert.has_error(function() box.new(42) end)
      b:close()
      assert.has_error(function() b:run("return 1") end, "box: the script was closed")
    end)
  end)

  describe("calls into a box", function()
    it("return true and the chunk's results, copied as plain data", function()
      assert.same({ true, 1, "two", 3, { a = { 1, 2 }, [2.5] = true } },
        { run("return 1, 'two', 3, setmetatable({ a = { 1, 2 }, [2.5] = true }, { __index = error })") })
      local _, t = run("return setmetatable({}, { __index = function() return 'from the box' end })")
      assert.is_nil(getmetatable(t))
      assert.is_nil(t.anything)
    end)

    it("hand back the chunk's functions as stubs into the box, under its limits", function()
      local b = box.new{ label = "adder" }
      local ok, add, fail = b:run("return function(a, b) return a + b end, function() error('no way') end", "=f")
      assert.is_true(ok)
      assert.equals(b, box.of(add))
      assert.is_nil(box.of(print))
      assert.equals(5, add(2, 3))
      local ok2, why = pcall(fail)
      assert.is_false(ok2)
      assert.equals("f:1: no way", why) -- file:line: message, no traceback
      b:close()
      assert.has_error(function() add(1, 2) end, "adder: the script was closed")
    end)

    it("return false and the message when the chunk fails; the box stays usable", function()
      local b = box.new{}
      local ok, why = b:run("error('no way')", "=escape")
      assert.is_false(ok)
      assert.equals("escape:1: no way", why)
      assert.is_false(b:broken())
      assert.same({ true, 7 }, { b:run("return 7") })
      assert.same({ false, "(error object is a table value)" }, { b:run("error({})") })
      assert.same({ false, "obj" }, { b:run("error(setmetatable({}, { __tostring = function() return 'obj' end }))") })
      b:close()
    end)

    it("cut a long error text to its first 4 KiB, at a character's end, and say how long it was", function()
      -- A script's error reaches a player's screen, a match report and
      -- the room's other players: a megabyte of it was passed on whole.
      local b = box.new{}
      local ok, why = b:run("error(('boom '):rep(200000), 0)", "=escape")
      assert.is_false(ok)
      assert.equals(("boom "):rep(819) .. "b ... (cut: 1000000 bytes in all)", why)
      local _, fail = b:run("return function(n) error(('\u{394}'):rep(n), 0) end", "=f")
      local ok2, why2 = pcall(fail, 3000) -- 2 bytes a character: 4096 falls between two
      assert.is_false(ok2)
      assert.equals(("\u{394}"):rep(2048) .. " ... (cut: 6000 bytes in all)", why2)
      local ok3, why3 = pcall(fail, 2048) -- 4096 bytes: whole
      assert.is_false(ok3)
      assert.equals(("\u{394}"):rep(2048), why3)
      local _, odd = b:run("return function() error('x' .. ('\u{394}'):rep(3000), 0) end", "=g")
      local _, why4 = pcall(odd) -- byte 4096 is a character's second byte
      assert.equals("x" .. ("\u{394}"):rep(2047) .. " ... (cut: 6001 bytes in all)", why4)
      -- (counted as shown: cleaning writes a byte that is not UTF-8 as
      -- U+FFFD, three bytes, and a control as two)
      local _, bad = b:run("return function(s, n) error(s:rep(n), 0) end", "=h")
      local _, why5 = pcall(bad, "\255", 200000)
      assert.equals(("\u{FFFD}"):rep(1365) .. " ... (cut: 200000 bytes in all)", why5)
      local _, why6 = pcall(bad, "\27", 4096)
      assert.equals(("^["):rep(2048) .. " ... (cut: 4096 bytes in all)", why6)
      local _, why7 = pcall(bad, "\27", 2048)
      assert.equals(("^["):rep(2048), why7)
      -- (bytes that all look like a character's middle: cut where they fall)
      local _, why8 = pcall(bad, "\128", 100000)
      assert.equals(("\u{FFFD}"):rep(1365) .. " ... (cut: 100000 bytes in all)", why8)
      b:close()
    end)

    it("pass the host's values in as copies: a change in the box is not seen by the host, "
      .. "and no host metamethod runs", function()
      local b = box.new{}
      local _, poke = b:run("return function(a) a.x = 1 a.nested.y = 2 return a.z, rawequal(a, a.nested) end")
      local t = { nested = {} }
      assert.same({ nil, false }, { poke(t) })
      assert.is_nil(t.x)
      assert.is_nil(t.nested.y)
      local ran = false
      local trap = setmetatable({ nested = {} }, { __index = function() ran = true end,
                                                   __newindex = function() ran = true end,
                                                   __pairs = function() ran = true end })
      poke(trap)
      assert.is_false(ran)
      b:close()
    end)

    it("refuse a function of another box, and hand a host function in only for the one call", function()
      local a, b = box.new{}, box.new{}
      local _, fa = a:run("return function() return 1 end")
      local _, keep, call_kept = b:run([[
        local kept
        return function(f) kept = f return f(21) end, function() return kept(21) end]])
      local ok, why = pcall(keep, fa)
      assert.is_false(ok)
      assert.matches("a function of another script cannot be passed in", why)
      assert.equals(42, keep(function(x) return x * 2 end))
      ok, why = pcall(call_kept)
      assert.is_false(ok)
      assert.matches("works only during the call", why)
      a:close()
      b:close()
    end)

    it("stop an infinite loop with the instruction budget, mark the box broken, and the game goes on", function()
      local b = box.new{ label = "looper", budget = 200000 }
      local _, loop = b:run("return function() while true do end end", "=loop")
      local ok, why = pcall(loop)
      assert.is_false(ok)
      assert.equals("loop:1: instruction budget exceeded in looper (200000 instructions)", why)
      assert.is_true(b:broken())
      assert.same({ true, 1 }, { b:run("return 1") }) -- (the box itself still works)
      assert.is_false(b:broken())
      b:close()
      game_goes_on()
    end)

    -- (box.new's budget and time, 10 million instructions and 1 s by
    -- default, are for the calls after the chunk)
    it("take the budget of box:run for a chunk, and say how big it was", function()
      local ok, why = run("while true do end", { budget = 1e12 }, { budget = 200000 })
      assert.is_false(ok)
      assert.matches("^escape:1: instruction budget exceeded", why)
      assert.matches("(200000 instructions)", why, 1, true)
    end)

    -- (the time limits themselves are tried in child processes below: a
    -- loop with a budget of 10^12 instructions would hang this one)

    it("take a smaller memory cap, and say how big it was", function()
      local b = box.new{ memory = 1 << 20 }
      local ok, why = b:run("local t = {} for i = 1, 1e6 do t[i] = ('x'):rep(64) .. i end", "=m")
      assert.is_false(ok)
      assert.equals("memory cap exceeded (1 MiB)", why)
      assert.is_true(b:broken())
      local used, cap = b:memory()
      assert.equals(1 << 20, cap)
      assert.is_true(used <= cap)
      b:close()
      refused("local t = {} for i = 1, 1e6 do t[i] = i .. 'x' end", "^memory cap exceeded in small %(1536 KiB%)$",
        { memory = 1536 * 1024, label = "small" })
    end)

    it("count the box's memory exactly", function()
      local b = box.new{}
      local before = b:memory()
      assert.is_true((b:run("keep = string.rep('k', 1 << 20)")))
      local grew = b:memory() - before
      assert.is_true(grew >= 1 << 20 and grew < (1 << 20) + 65536, "grew by " .. grew)
      b:close()
    end)

    it("draw math.random from the box's own seeded generator (math.randomseed does nothing)", function()
      local a, b = box.new{}, box.new{}
      a:seed(5)
      b:seed(5)
      local src = "local x = math.random(1, 1000) math.randomseed(%d) return x, math.random(1, 1000), math.random()"
      local ra = { a:run(src:format(1)) }
      local rb = { b:run(src:format(2)) }
      assert.same(ra, rb)
      b:seed(6)
      assert.are_not.same(ra, { b:run(src:format(1)) })
      a:close()
      b:close()
    end)
  end)

  describe("escape attempts from a script", function()
    local attempts = {
      { "reading a file with io.open", "return io.open('/etc/passwd'):read('a')", "global 'io'" },
      { "reading standard input with io.read", "return io.read('l')", "global 'io'" },
      { "running a command with os.execute", "return os.execute('touch /tmp/diloti-spec-pwned')", "global 'os'" },
      { "reading the environment with os.getenv", "return os.getenv('HOME')", "global 'os'" },
      { "loading a library with require", "return require('io')", "global 'require'" },
      { "compiling text with load", "return load('return 1')()", "global 'load'" },
      { "compiling text with loadstring", "return loadstring('return 1')()", "global 'loadstring'" },
      { "running a file with dofile", "return dofile('/etc/passwd')", "global 'dofile'" },
      { "loading a file with loadfile", "return loadfile('/etc/passwd')", "global 'loadfile'" },
      { "reaching the registry with debug", "return debug.getregistry()", "global 'debug'" },
      { "reaching the real string table through getmetatable('').__index",
        "return getmetatable('').__index.dump", "global 'getmetatable'" },
      { "dumping bytecode with string.dump", "return string.dump(function() end)", "field 'dump'" },
      { "dumping bytecode through a string's methods, ('').dump",
        "return ('').dump(function() end)", "dump" },
      { "stopping the collector with collectgarbage", "return collectgarbage('stop')", "global 'collectgarbage'" },
      { "reaching package.loaded", "return package.loaded.io", "global 'package'" },
      { "writing past a table's metatable with rawset", "return rawset(_G, 'io', 1)", "global 'rawset'" },
      { "giving strings a new metatable", "return setmetatable('', {})", "table expected" },
      { "making coroutines", "return coroutine.wrap(function() end)", "global 'coroutine'" },
      { "printing to the terminal", "print('\\27[2J')", "global 'print'" },
      { "learning an address with %p", "return string.format('%p', {})", "'%p' is not available" },
      { "a finalizer (__gc)", "return setmetatable({}, { __gc = function() end })",
        "__gc metamethods are not allowed" },
    }
    for _, a in ipairs(attempts) do
      it("refuses " .. a[1], function()
        refused(a[2], lit(a[3]))
      end)
    end

    it("left no trace of the refused os.execute", function()
      assert.is_nil(io.open("/tmp/diloti-spec-pwned", "r"))
    end)

    it("shows no address: tostring and string.format of tables and functions", function()
      local ok, a, b, c = run("return tostring({}), tostring(print or pairs), string.format('%s %s', {}, pairs)")
      assert.is_true(ok, a)
      assert.same({ "table", "function", "table function" }, { a, b, c })
    end)

    -- A memory bomb stops at the cap (or, made of one string, at the
    -- longest string a script may make); what it took is collected, so the
    -- same box can then hold 40 MiB within its 64 MiB again. The host's
    -- heap never held any of it.
    local function bomb(src, pattern)
      local before = mib()
      local b = box.new{}
      local ok, why = b:run(src, "=bomb", { budget = 1e9, time = 20 })
      assert.is_false(ok, "not stopped")
      local any = false
      for p in pattern:gmatch("[^|]+") do any = any or why:match(p) ~= nil end
      assert(any, "expected '" .. pattern .. "' in: " .. why)
      assert.is_true(b:broken())
      local used, cap = b:memory()
      assert.is_true(used <= cap)
      local ok2, n = b:run("local t = {} for i = 1, 40 do t[i] = string.rep(string.char(64 + i), 1 << 20) end "
        .. "return #table.concat(t, '', 1, 1) * #t", "=after", { budget = 1e9, time = 20 })
      -- (the time is generous: 40 MiB under a sanitizer on a loaded machine)
      assert.is_true(ok2, n)
      assert.equals(40 << 20, n)
      b:close()
      collectgarbage()
      assert.is_true(mib() - before < 16)
      game_goes_on()
    end

    local TOO_LONG = "^string longer than 1024 KiB refused$"

    it("stops a string.rep of a gigabyte at the memory cap", function()
      bomb("return #string.rep('x', 1 << 30)", "^memory cap exceeded %(64 MiB%)$|" .. TOO_LONG)
    end)

    it("stops a string that doubles forever (at the longest string a script may make)", function()
      bomb("local s = 'x' while true do s = s .. s end", "^memory cap exceeded %(64 MiB%)$|" .. TOO_LONG)
    end)

    it("stops a table of strings that grows forever at the memory cap, and frees what it took", function()
      bomb("local t = {} while true do t[#t + 1] = string.rep('x', 1 << 20) end", "^memory cap exceeded %(64 MiB%)$")
    end)

    it("stops a table that grows forever at the memory cap, and frees what it took", function()
      bomb("local t = {} while true do t[#t + 1] = { #t } end", "^memory cap exceeded %(64 MiB%)$")
    end)

    it("keeps the cap on after the script swallows a memory error with pcall", function()
      local b = box.new{}
      local ok, first, second = b:run([[
        local function fill() local t = {} while true do t[#t + 1] = string.rep("x", 1 << 20) end end
        local a = pcall(fill)
        local b = pcall(fill)
        return a, b]], "=swallow", { budget = 1e9, time = 20 })
      assert.is_true(ok, first)
      assert.is_false(first)
      assert.is_false(second)
      local used, cap = b:memory()
      assert.is_true(used <= cap)
      b:close()
    end)

    it("refuses string.rep results too large to exist", function()
      refused("return string.rep('x', 1 << 62)", "too large")
    end)

    it("stops deep recursion with a stack overflow", function()
      refused("local function f(n) return 1 + f(n + 1) end return f(1)", "stack overflow")
      game_goes_on()
    end)

    it("stops recursion through metamethods with a C stack overflow", function()
      refused("local t = setmetatable({}, { __index = function(t, k) return t[k] end }) return t.x",
        "C stack overflow")
    end)

    it("does not let a pcall inside the script swallow the budget error", function()
      local ok, why = run([[
        local caught = pcall(function() while true do end end)
        return "escaped", caught]])
      assert.is_false(ok, "the script carried on after the budget ran out")
      assert.matches("instruction budget exceeded", why)
    end)

    it("runs not one more line of the script once a limit tripped, even after its pcall caught it", function()
      local b = box.new{}
      local ok, why = b:run("pcall(function() while true do end end) escaped = true", "=swallow")
      assert.is_false(ok)
      assert.matches("instruction budget exceeded", why)
      assert.same({ true, nil }, { b:run("return escaped") })
      b:close()
    end)

    it("does not let an error handler (xpcall) swallow the budget error", function()
      local ok, why = run([[
        xpcall(function() while true do end end, function(m) return m end)
        return "escaped"]])
      assert.is_false(ok, "the script carried on after the budget ran out")
      assert.matches("instruction budget exceeded", why)
    end)

    it("stops a looping __close and a looping __tostring of an error object inside the limits", function()
      refused("local t = setmetatable({}, { __close = function() while true do end end }) "
        .. "do local x <close> = t end", "instruction budget exceeded")
      refused("error(setmetatable({}, { __tostring = function() while true do end end }))",
        "instruction budget exceeded")
    end)

    it("leaves the host's string library and metatable alone (no script runs in the host)", function()
      for _, src in ipairs{ "return ('x'):upper()", "error('boom')", "while true do end",
                            "local t = {} while true do t[#t + 1] = ('x'):rep(1000) .. #t end",
                            "string.upper = nil string.rep = error" } do
        run(src, { budget = 200000, memory = 1 << 20, time = 0.2 })
        strings_intact()
      end
    end)
  end)

  describe("runaway C calls and code outside the limits (child processes)", function()
    local prelude = "local diloti = require 'diloti'\n"
      .. "local function run(src, lim) return diloti.box.new{}:run(src, '=escape', lim) end\n"
    local dir
    local running = {}

    lazy_setup(function()
      dir = support.tmpdir()
      support.write(dir .. "/lenbomb.lua", [[
return { name = "lenbomb", description = "x", hooks = { moves = function(m)
  local function loop() while true do end end
  return setmetatable({ m[1] }, { __len = loop, __index = loop, __pairs = loop })
end } }]])
      support.write(dir .. "/indexbomb.lua", [[
return { name = "indexbomb", description = "x", hooks = { score = function(s)
  return { [0] = setmetatable({}, { __index = function() while true do end end }), [1] = s[1] }
end } }]])
      support.write(dir .. "/busy.lua", [[
return { name = "busy", description = "x", hooks = { moves = function(m)
  for _ = 1, 100000 do end
  return m
end } }]])
      local D = string.format("local DIR = %q\n", dir)
      local children = {
        swallow = prelude .. [[
local ok, why = run("while true do pcall(function() while true do end end) end")
print("RESULT", ok, why)]],
        swallow_then_loop = prelude .. [[
local ok, why = run("pcall(function() while true do end end) local n = 0 while true do n = n + 1 end")
print("RESULT", ok, why)]],
        rep_empty = prelude .. [[
local ok, why = run("return #string.rep('', math.maxinteger), #string.rep('', math.maxinteger, '')")
print("RESULT", ok, why)]],
        time_run = prelude .. [[
local t0 = os.clock()
local ok, why = diloti.box.new{ time = 5, budget = 1e12 }:run("while true do end", "=escape",
  { budget = 1e12, time = 0.2 })
print("SPENT", os.clock() - t0)
print("RESULT", ok, why)]],
        -- (issue 29: the constant-time library functions run unguarded;
        -- a loop of nothing but them still stops at the time limit)
        time_plain_calls = prelude .. [[
local b = diloti.box.new{ label = "calls", time = 0.2, budget = 1e12 }
local _, loop = b:run("return function() local t, f = {1}, math.floor while true do "
  .. "rawget(t, 1) rawlen(t) type(t) rawequal(t, t) f(1.5) math.abs(-1) math.tointeger(2) end end", "=calls")
local t0 = os.clock()
local ok, why = pcall(loop)
print("SPENT", os.clock() - t0)
print("RESULT", ok, why)]],
        time_call = prelude .. [[
local b = diloti.box.new{ label = "slow", time = 0.2, budget = 1e12 }
local _, loop = b:run("return function() while true do end end", "=slow")
local t0 = os.clock()
local ok, why = pcall(loop)
print("SPENT", os.clock() - t0)
print("BROKEN", b:broken())
print("RESULT", ok, why)]],
        control = prelude .. [[
local ok, why = run("while true do end")
print("RESULT", ok, why)]],
        -- (a limit's error is raised in the count hook, where Lua runs no
        -- hook: a message handler run there could loop for ever)
        xpcall_loop = prelude .. [[
local ok, why = run("xpcall(function() while true do end end, function() while true do end end) return 'escaped'")
print("RESULT", ok, why)]],
        xpcall_error_loop = prelude .. [[
local ok, why = run("xpcall(error, function() while true do end end, 'x') return 'escaped'")
print("RESULT", ok, why)]],
        xpcall_time = prelude .. [[
local ok, why = diloti.box.new{ time = 5, budget = 1e12 }:run(
  "xpcall(function() while true do end end, function() while true do end end) return 'escaped'", "=escape",
  { budget = 1e12, time = 0.2 })
print("RESULT", ok, why)]],
        move = prelude .. [[
local ok, why = run("return #table.move({}, 1, 1 << 50, 2)")
print("RESULT", ok, why)]],
        pattern = prelude .. [[
local ok, why = run("return string.find(string.rep('a', 40000), '.-.-.-.-.-b')")
print("RESULT", ok, why)]],
        backref = prelude .. [[
local ok, why = run("return string.find(string.rep('a', 100000), '(a+)%1b')")
print("RESULT", ok, why)]],
        gc = prelude .. [[
local b = diloti.box.new{}
local ok, refused = b:run([==[
  local loop = function() while true do end end
  local refused = not pcall(setmetatable, {}, { __gc = loop })
  -- an __index on the metatable that offers __gc when asked: Lua reads
  -- the field raw, so the object is not marked for finalization
  local mt = setmetatable({}, { __index = function(t, k) if k == "__gc" then t.__gc = loop return loop end end })
  kept1 = setmetatable({}, mt)
  -- __gc added to the metatable after setmetatable: too late to mark it
  local later = {}
  kept2 = setmetatable({}, later)
  later.__gc = loop
  assert(not pcall(setmetatable, {}, later)) -- (refused now)
  return refused]==], "=gc")
print("CALL", ok, refused)
print("AGAIN", b:run("kept1, kept2 = nil, nil local t = {} for i = 1, 1e5 do t[i] = {} end return 1", "=gc"))
b:close() -- a finalizer would run here, outside every limit
collectgarbage() collectgarbage()
print("RESULT", "closed and collected")]],
        moves_len = prelude .. D .. [[
local g = assert(diloti.new{ rules = "diloti+lenbomb", rules_dirs = { DIR }, position = "hands=8h 2d / 9c; table=8c" })
local ok, res = pcall(g.moves, g)
print("RESULT", ok, type(res) == "table" and #res or res)]],
        score_index = prelude .. D .. [[
local g = assert(diloti.new{ rules = "diloti+indexbomb", rules_dirs = { DIR },
  position = "hands=Jc / 10h; table=10s Jd; deal=4; ply=46; pack=-" })
assert(g:play("Jc x Jd"))
local ok, res, warn = pcall(g.play, g, "10h x 10s")
print("RESULT", ok, type(res), warn, g:phase())]],
        variant_pairs = prelude .. [[
local v, why = diloti.variants.load_source(
  "return setmetatable({}, { __pairs = function() while true do end end, "
  .. "__index = function() while true do end end })", "pairsbomb.lua")
print("RESULT", v, why)]],
        nested = prelude .. D .. [[
local g = assert(diloti.new{ rules = "diloti+busy", rules_dirs = { DIR }, position = "hands=8h 2d / 9c; table=8c" })
local b = diloti.box.new{ label = "outer", budget = 1000000 }
local _, f = b:run("return function(svc) for _ = 1, 600000 do end local n = svc() for _ = 1, 600000 do end "
  .. "return 'finished', n end", "=outer")
local n
local ok, why = pcall(f, function() n = #g:moves() return n end)
print("INNER", n)
print("RESULT", ok, why)]],
        reentry = prelude .. [[
local b = diloti.box.new{ label = "re" }
local _, f = b:run("return function(svc) local ok, why = pcall(svc) while true do end end", "=re")
local inner
local ok, why = pcall(f, function() inner = select(2, pcall(f, function() end)) end)
print("INNER", inner)
print("RESULT", ok, why)]],
      }
      for name, code in pairs(children) do running[name] = support.spawn(code, CHILD_SECONDS) end
    end)

    lazy_teardown(function() support.rmdir(dir) end)

    local function result(name)
      local out, code = running[name].wait()
      assert(code ~= 124, "still running after " .. CHILD_SECONDS .. " s (killed); output: " .. out)
      assert(code == 0, "the child failed (exit " .. tostring(code) .. "): " .. out)
      local line = out:match("RESULT\t([^\n]*)")
      assert(line, "no result in: " .. out)
      return line, out
    end

    it("(the harness: a plain infinite loop in a child is stopped well before the kill)", function()
      assert.matches("^false\tescape:1: instruction budget exceeded", result("control"))
    end)

    it("stops a loop at the time limit of a call, soon after it", function()
      local line, out = result("time_call")
      assert.equals("false\tslow:1: time limit exceeded in slow (200 ms)", line)
      assert.matches("BROKEN\ttrue", out)
      local spent = tonumber(out:match("SPENT\t(%S+)"))
      assert.is_true(spent < 0.5, "ran " .. tostring(spent) .. " s")
    end)

    it("stops a loop of constant-time library calls at the time limit too", function()
      local line, out = result("time_plain_calls")
      assert.equals("false\tcalls:1: time limit exceeded in calls (200 ms)", line)
      local spent = tonumber(out:match("SPENT\t(%S+)"))
      assert.is_true(spent < 0.5, "ran " .. tostring(spent) .. " s")
    end)

    it("takes the time limit of box:run for a chunk, and says how long it was", function()
      local line, out = result("time_run")
      assert.matches("^false\tescape:1: time limit exceeded", line)
      local spent = tonumber(out:match("SPENT\t(%S+)"))
      assert.is_true(spent < 1, "ran " .. tostring(spent) .. " s")
      assert.matches("(200 ms)", line, 1, true)
    end)

    it("stops a loop of pcalls that keeps swallowing the budget error", function()
      assert.matches("^false\tescape:1: instruction budget exceeded", result("swallow"))
    end)

    it("stops a message handler (xpcall) that loops, after a limit or after the script's own error", function()
      assert.matches("^false\tescape:1: instruction budget exceeded", result("xpcall_loop"))
      assert.matches("^false\tescape:1: instruction budget exceeded", result("xpcall_error_loop"))
      assert.matches("^false\tescape:1: time limit exceeded", result("xpcall_time"))
    end)

    it("stops a plain loop after a pcall that swallowed the budget error", function()
      assert.matches("^false\tescape:1: instruction budget exceeded", result("swallow_then_loop"))
    end)

    it("answers string.rep of an empty string a huge number of times at once (a C loop the hook cannot see)",
      function()
        assert.matches("^true\t0$", result("rep_empty"))
      end)

    it("refuses table.move over a huge range (a C loop the hook cannot see)", function()
      assert.matches("^false\tescape:1: table.move: more than %d+ elements at once$", result("move"))
    end)

    it("stops a pattern that backtracks for ever (a C call the hook cannot see)", function()
      assert.matches("^false\tescape:1: string.find: pattern too costly", result("pattern"))
    end)

    it("stops a back-reference pattern that backtracks for ever", function()
      assert.matches("^false\tescape:1: string.find: pattern too costly", result("backref"))
    end)

    it("never runs a script's finalizer, not even when its box is closed", function()
      local line, out = result("gc")
      assert.equals("closed and collected", line)
      assert.matches("CALL\ttrue\ttrue", out)
      assert.matches("AGAIN\ttrue\t1", out)
    end)

    it("never runs a moves hook's __len or __index: the host gets the list without its metatable", function()
      assert.matches("^true\t1$", result("moves_len"))
    end)

    it("never runs a score hook's __index: the breakdown is read raw, standard scoring is kept", function()
      assert.matches("^true\ttable\thouse rule %(score hook%) returned a bad breakdown.*round%-over$",
        result("score_index"))
    end)

    it("never runs a variant table's __pairs or __index while loading it", function()
      assert.matches("^nil\tpairsbomb%.lua: needs a name", result("variant_pairs"))
    end)

    it("keeps the budget of an outer call across a nested call into another box (a hook run inside)", function()
      local line, out = result("nested")
      assert.matches("INNER\t3\n", out) -- (the hook ran: the three legal moves)
      assert.equals("false\touter:1: instruction budget exceeded in outer (1000000 instructions)", line)
    end)

    it("refuses a call into a box that is running, and keeps the outer call's budget", function()
      local line, out = result("reentry")
      assert.matches("INNER\tre: called again while it runs", out)
      assert.matches("^false\tre:1: instruction budget exceeded in re", line)
    end)
  end)

  describe("escape attempts from variant scripts in a user folder", function()
    local dir, found, errors
    local scripts = {
      ["open-file"] = "local f = io.open('/etc/passwd')",
      ["run-command"] = "os.execute('touch /tmp/diloti-spec-pwned')",
      ["use-require"] = "local io = require('io')",
      ["use-load"] = "load('return 1')()",
      ["use-dofile"] = "dofile('/etc/passwd')",
      ["use-debug"] = "debug.sethook()",
      ["real-string"] = "local s = getmetatable('').__index",
      ["dump-method"] = "local b = ('').dump(function() end)",
      ["loop"] = "while true do end",
      ["rep-bomb"] = "local s = string.rep('x', 1 << 30)",
      ["table-bomb"] = "local t = {} for i = 1, 100 do t[i] = string.rep('x', 1 << 20) .. i end",
      ["recursion"] = "local function f() return 1 + f() end f()",
      ["swallow"] = "pcall(function() while true do end end)",
    }
    local reasons = {
      ["open-file"] = "global 'io'", ["run-command"] = "global 'os'", ["use-require"] = "global 'require'",
      ["use-load"] = "global 'load'", ["use-dofile"] = "global 'dofile'", ["use-debug"] = "global 'debug'",
      ["real-string"] = "global 'getmetatable'", ["dump-method"] = "dump", ["loop"] = "instruction budget",
      ["rep-bomb"] = "memory cap|string longer than", ["table-bomb"] = "memory cap" .. SLOW,
      ["recursion"] = "stack overflow|instruction budget" .. SLOW, ["swallow"] = "instruction budget",
    }

    lazy_setup(function()
      dir = support.tmpdir()
      for name, body in pairs(scripts) do
        support.write(dir .. "/" .. name .. ".lua",
          body .. "\nreturn { name = '" .. name .. "', description = 'an escape attempt' }\n")
      end
      local f, _, e = diloti.variants.load_all({ dir })
      found, errors = f, e
    end)

    lazy_teardown(function() support.rmdir(dir) end)

    local names = {}
    for name in pairs(scripts) do names[#names + 1] = name end
    table.sort(names)
    for _, name in ipairs(names) do
      it("refuses the script " .. name .. ".lua with a clear reason", function()
        assert.is_nil(found[name], name .. " was loaded")
        local msg
        for _, e in ipairs(errors) do
          if e.file == dir .. "/" .. name .. ".lua" then msg = e.message end
        end
        assert.is_string(msg)
        local any = false
        for reason in reasons[name]:gmatch("[^|]+") do any = any or msg:find(reason, 1, true) ~= nil end
        assert(any, "expected '" .. reasons[name] .. "' in: " .. msg)
      end)
    end

    it("still loads every built-in variant and plays", function()
      for _, n in ipairs(diloti.variants.catalogue().names) do assert.is_table(found[n], n) end
      local g = assert(diloti.new{ rules = "forced-capture", rules_dirs = { dir }, position = EX1 })
      assert.truthy(g:play("8h x 2c 3h 5s 6d 8c"))
      assert.is_nil(io.open("/tmp/diloti-spec-pwned", "r"))
    end)
  end)

  describe("escape attempts from house-rule hooks", function()
    local dir
    local hooks = {
      ["moves-loop"] = "moves = function() while true do end end",
      ["moves-io"] = "moves = function(m) io.open('/etc/passwd') return m end",
      ["moves-write"] = "moves = function(m, state) state.turn = 1 state.hands = nil "
        .. "for k in pairs(state) do state[k] = 'x' end return m end",
      ["score-loop"] = "score = function() while true do end end",
      ["score-bomb"] = "score = function() local t = {} while true do t[#t + 1] = {} end end",
      ["score-os"] = "score = function(s) os.execute('touch /tmp/diloti-spec-pwned') return s end",
      ["score-recursion"] = "score = function(s) local function f() return 1 + f() end return f() end",
      ["match-loop"] = "match = function() while true do end end",
    }

    lazy_setup(function()
      dir = support.tmpdir()
      for name, hook in pairs(hooks) do
        support.write(dir .. "/" .. name .. ".lua",
          "return { name = '" .. name .. "', description = 'a hostile hook', hooks = {\n  " .. hook .. "\n} }\n")
      end
    end)

    lazy_teardown(function() support.rmdir(dir) end)

    local function hooked(name, position)
      return assert(diloti.new{ rules = name, rules_dirs = { dir }, position = position })
    end

    -- A failing moves hook makes moves() and play() raise; the handle
    -- itself stays usable.
    local function moves_fail(name, pattern)
      local g = hooked(name, EX1)
      local ok, why = pcall(g.moves, g)
      assert.is_false(ok)
      assert.matches("moves hook", why)
      assert.matches(pattern, why)
      ok, why = pcall(g.play, g, "8h x 8c")
      assert.is_false(ok)
      assert.matches("moves hook", why)
      assert.is_string(g:position())
      assert.equals(0, g:view(0).turn)
      assert.is_false(g:undo())
      assert.is_string(g:clone():position())
      game_goes_on()
      return why
    end

    -- A failing score hook leaves standard scoring for the round, with a warning.
    local function score_fails(name, pattern)
      local g = hooked(name, LAST)
      assert.truthy(g:play("Jc x Jd"))
      local ok, warn = g:play("10h x 10s")
      assert.truthy(ok)
      assert.matches("score hook", warn)
      assert.matches("standard scoring", warn)
      local any = false
      for p in pattern:gmatch("[^|]+") do any = any or warn:match(p) ~= nil end
      assert(any, "expected '" .. pattern .. "' in: " .. warn)
      assert.equals(13, g:result().score[1])
      assert.truthy(g:next_round())
      assert.is_true(#g:moves() > 0)
    end

    it("stops a moves hook's infinite loop with a clear message", function()
      moves_fail("moves-loop", "instruction budget exceeded")
    end)

    it("names the variant whose moves hook ran out of budget", function()
      local why = moves_fail("moves-loop", "instruction budget exceeded")
      assert.matches("in variant 'moves%-loop' %(moves hook%)", why)
    end)

    it("refuses io in a moves hook, naming file and line", function()
      moves_fail("moves-io", lit(dir .. "/moves-io.lua") .. "%), moves hook: line 2: .*global 'io'")
    end)

    it("lets a moves hook change its own copy of the state, which changes nothing in the game", function()
      local g = hooked("moves-write", EX1)
      local plain = assert(diloti.new{ position = EX1 })
      local before = g:position()
      assert.same(plain:moves(), g:moves())
      assert.equals(before, g:position())
      assert.equals(0, g:view(0).turn)
      assert.same(plain:view(0), g:view(0))
      assert.truthy(g:play("8h x 2c 3h 5s 6d 8c"))
      assert.equals(1, g:view(1).turn)
      assert.truthy(g:play("9c lay"))
    end)

    it("stops a score hook's infinite loop and scores the round by the rules", function()
      score_fails("score-loop", "instruction budget exceeded")
    end)

    it("stops a score hook's memory bomb at the cap and scores the round by the rules", function()
      local before = mib()
      score_fails("score-bomb", "memory cap exceeded in variant 'score%-bomb' %(score hook%) %(64 MiB%)" .. SLOW)
      collectgarbage()
      assert.is_true(mib() - before < 16)
    end)

    it("refuses os in a score hook and scores the round by the rules", function()
      score_fails("score-os", "global 'os'")
      assert.is_nil(io.open("/tmp/diloti-spec-pwned", "r"))
    end)

    it("stops a score hook's deep recursion and scores the round by the rules", function()
      score_fails("score-recursion", "stack overflow|memory cap exceeded" .. SLOW)
    end)

    it("stops a match hook's infinite loop and ends the match by the rules", function()
      local g = hooked("match-loop", LAST .. "; score=60 60")
      assert.truthy(g:play("Jc x Jd"))
      local ok, warn = g:play("10h x 10s")
      assert.truthy(ok)
      assert.matches("match hook", warn)
      assert.matches("instruction budget exceeded", warn)
      assert.equals("match-over", g:phase())
      assert.equals(1, g:result().winner)
    end)

    it("puts hooks from a box given to diloti.new under that box's budget", function()
      -- (a plain host function as a hook is the host's own code: trusted)
      local b = box.new{ label = "my hooks", budget = 200000 }
      local ok, boxed = b:run("return { moves = function() while true do end end }", "=hooks")
      assert.is_true(ok, boxed)
      local g = assert(diloti.new{ rules = {}, position = EX1, hooks = boxed })
      local fine, why = pcall(g.moves, g)
      assert.is_false(fine)
      assert.matches("hooks:1: instruction budget exceeded in my hooks %(200000 instructions%)", why)
      assert.is_true(b:broken())
      b:close()
      game_goes_on()
    end)
  end)
end)
