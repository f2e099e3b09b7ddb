-- The sandbox that variant scripts and house-rule hooks run in: an
-- allow-list environment, text-only loading, an instruction budget and a
-- memory cap (64 MiB by default). Every escape below is tried and must
-- fail with a clear message, after which the game goes on.
--
-- Attempts that could hang this process (runaway C calls, code that runs
-- outside the budget) run in child processes that are killed after a
-- few seconds; they start together so the suite stays quick.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local sandbox = diloti.sandbox

local lit = support.lit

local EX1 = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c"
local LAST = "hands=Jc / 10h; table=10s Jd; deal=4; ply=46; pack=-"
local CHILD_SECONDS = 6

--- Loads src in a fresh sandbox environment and calls it under the
-- default limits (or opts). Returns what sandbox.call returns.
local function run(src, opts)
  local fn, err = sandbox.load(src, "=escape")
  assert(fn, err)
  if opts then return sandbox.call(opts, fn) end
  return sandbox.call(fn)
end

--- Something printable for a failure message (results may be bytecode).
local function show(v)
  if type(v) == "string" and v:sub(1, 4) == "\27Lua" then return "bytecode (" .. #v .. " bytes)" end
  return (tostring(v):gsub("[^%g ]", "?"))
end

--- Asserts that src fails, with a message matching pattern.
local function refused(src, pattern)
  local ok, why = run(src)
  assert(ok == false, "the script was not stopped; it returned: " .. show(why))
  assert(type(why) == "string" and why:match(pattern), "unexpected message: " .. tostring(why))
  return why
end

--- The game still works after an escape attempt.
local function game_goes_on()
  local g = assert(diloti.new{ position = EX1 })
  assert(g:play("8h x 2c 3h 5s 6d 8c"))
  assert(g:play("9c lay"))
  return g
end

local function mib() return collectgarbage("count") / 1024 end

describe("the sandbox", function()
  describe("sandbox.env: an allow-list", function()
    local env = sandbox.env()

    it("leaves out io, os, debug, load, require and every other way out", function()
      for _, name in ipairs{ "io", "os", "debug", "load", "loadstring", "loadfile", "dofile", "require",
                             "package", "collectgarbage", "getmetatable", "rawset", "coroutine", "print",
                             "module", "setfenv", "getfenv", "newproxy" } do
        assert.is_nil(rawget(env, name), name)
      end
    end)

    it("keeps the safe base functions and the string, table, math and utf8 libraries", function()
      for _, name in ipairs{ "assert", "error", "ipairs", "next", "pairs", "pcall", "select", "tonumber",
                             "tostring", "type", "xpcall", "rawequal", "rawget", "rawlen", "setmetatable" } do
        assert.is_function(env[name], name)
      end
      for _, lib in ipairs{ "string", "table", "math", "utf8" } do assert.is_table(env[lib], lib) end
      assert.is_function(env.string.rep)
      assert.equals(env, env._G)
      assert.equals("Lua 5.4", env._VERSION)
    end)

    it("has no string.dump (bytecode out would mean bytecode in)", function()
      assert.is_nil(env.string.dump)
    end)

    it("gives each environment private copies of the libraries", function()
      local a, b = sandbox.env(), sandbox.env()
      assert.are_not.equal(a.string, b.string)
      assert.are_not.equal(a.string, string)
      local ok = run("string.upper = function() return 'pwned' end; table.insert = nil; math.pi = 3")
      assert.is_true(ok)
      assert.equals("X", ("x"):upper())
      assert.equals("X", string.upper("x"))
      assert.is_function(table.insert)
      assert.is_true(math.pi > 3.14)
    end)
  end)

  describe("sandbox.load: text only", function()
    it("refuses bytecode, saying it loads text only", function()
      local fn, why = sandbox.load(string.dump(function() return 1 end), "=bytes")
      assert.is_nil(fn)
      assert.matches("binary chunk", why)
      assert.matches("mode is 't'", why)
    end)

    it("refuses bytecode even behind a text-looking start", function()
      local fn = sandbox.load("\27Lua" .. ("x"):rep(40), "=bytes")
      assert.is_nil(fn)
    end)

    it("returns nil and file:line: reason for a syntax error", function()
      local fn, why = sandbox.load("local x = \n)", "@house.lua")
      assert.is_nil(fn)
      assert.matches("^house%.lua:2:", why)
    end)

    it("runs the chunk in the environment given, or a fresh sandbox one", function()
      local env = sandbox.env()
      env.answer = 42
      local fn = assert(sandbox.load("return answer, io", "=t", env))
      assert.same({ true, 42, nil }, { sandbox.call(fn) })
      fn = assert(sandbox.load("return io, os, type(string)", "=t"))
      assert.same({ true, nil, nil, "table" }, { sandbox.call(fn) })
    end)
  end)

  describe("sandbox.call", function()
    it("returns true and the function's results", function()
      assert.same({ true, 1, "two", 3 }, { run("return 1, 'two', 3") })
      assert.same({ true, 5 }, { sandbox.call(function(a, b) return a + b end, 2, 3) })
    end)

    it("returns false and the message with a traceback when the function fails", function()
      local ok, why = run("error('no way')")
      assert.is_false(ok)
      assert.matches("escape:1: no way", why)
      assert.matches("traceback", why)
    end)

    it("stops an infinite loop with the instruction budget, and the game goes on", function()
      local ok, why = run("while true do end")
      assert.is_false(ok)
      assert.matches("^instruction budget exceeded", why)
      game_goes_on()
    end)

    it("takes a smaller budget, and says how big it was", function()
      local ok, why = run("while true do end", { budget = 200000 })
      assert.is_false(ok)
      assert.matches("instruction budget exceeded", why)
      assert.is_nil(why:find("(0 million", 1, true), "misleading size in: " .. why)
    end)

    it("takes a smaller memory cap, and says how big it was", function()
      local ok, why = run("local t = {} for i = 1, 1e6 do t[i] = ('x'):rep(64) .. i end", { memory = 1 << 20 })
      assert.is_false(ok)
      assert.equals("memory cap exceeded (1 MiB)", why)
    end)

    it("raises an error when not given a function (a programming mistake)", function()
      assert.has_error(function() sandbox.call(42) end)
      assert.has_error(function() sandbox.call({ budget = 10 }) end)
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
    }
    for _, a in ipairs(attempts) do
      it("refuses " .. a[1], function()
        refused(a[2], lit(a[3]))
      end)
    end

    it("left no trace of the refused os.execute", function()
      assert.is_nil(io.open("/tmp/diloti-spec-pwned", "r"))
    end)

    it("stops a string.rep of a gigabyte at the memory cap, and frees what it took", function()
      local before = mib()
      local ok, why = run("return #string.rep('x', 1 << 30)")
      assert.is_false(ok)
      assert.equals("memory cap exceeded (64 MiB)", why)
      collectgarbage()
      assert.is_true(mib() - before < 16)
      game_goes_on()
    end)

    it("stops a string that doubles forever at the memory cap", function()
      local before = mib()
      refused("local s = 'x' while true do s = s .. s end", "^memory cap exceeded")
      collectgarbage()
      assert.is_true(mib() - before < 16)
    end)

    it("stops a table that grows forever at the memory cap", function()
      local before = mib()
      refused("local t = {} while true do t[#t + 1] = { #t } end", "^memory cap exceeded")
      collectgarbage()
      assert.is_true(mib() - before < 16)
      game_goes_on()
    end)

    it("keeps the cap on after the script swallows a memory error with pcall", function()
      local ok, first, second = run([[
        local a = pcall(string.rep, 'x', 1 << 30)
        local b = pcall(string.rep, 'x', 1 << 30)
        return a, b]])
      assert.is_true(ok)
      assert.is_false(first)
      assert.is_false(second)
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
        "stack overflow")
    end)

    it("does not let a pcall inside the script swallow the budget error", function()
      local ok, why = run([[
        local caught = pcall(function() while true do end end)
        return "escaped", caught]])
      assert.is_false(ok, "the script carried on after the budget ran out")
      assert.matches("instruction budget exceeded", why)
    end)

    it("does not let an error handler (xpcall) swallow the budget error", function()
      local ok, why = run([[
        xpcall(function() while true do end end, function(m) return m end)
        return "escaped"]])
      assert.is_false(ok, "the script carried on after the budget ran out")
      assert.matches("instruction budget exceeded", why)
    end)
  end)

  describe("runaway C calls and code outside the budget (child processes)", function()
    local prelude = "local diloti = require 'diloti'\nlocal sandbox = diloti.sandbox\n"
      .. "local function run(src) return sandbox.call(assert(sandbox.load(src, '=escape'))) end\n"
    local children = {
      swallow = prelude .. [[
local ok, why = run("while true do pcall(function() while true do end end) end")
print("RESULT", ok, why)]],
      rep_empty = prelude .. [[
local ok, why = run("return #string.rep('', math.maxinteger)")
print("RESULT", ok, why)]],
      control = prelude .. [[
local ok, why = run("while true do end")
print("RESULT", ok, why)]],
      move = prelude .. [[
local ok, why = run("return #table.move({}, 1, 1 << 50, 2)")
print("RESULT", ok, why)]],
      pattern = prelude .. [[
local ok, why = run("return string.find(string.rep('a', 40000), '.-.-.-.-.-b')")
print("RESULT", ok, why)]],
      gc = prelude .. [[
local ok = run("setmetatable({}, { __gc = function() while true do end end }) return 1")
collectgarbage() collectgarbage()
print("RESULT", ok, "collected")]],
      moves_len = prelude .. [[
local v = assert(diloti.variants.load_source([==[
return { name = "lenbomb", description = "x", hooks = { moves = function()
  return setmetatable({}, { __len = function() while true do end end })
end } }]==], "lenbomb.lua"))
local g = assert(diloti.new{ rules = {}, hooks = v.hooks, position = "hands=8h 2d / 9c; table=8c" })
local ok, why = pcall(g.moves, g)
print("RESULT", ok, why)]],
      score_index = prelude .. [[
local v = assert(diloti.variants.load_source([==[
return { name = "indexbomb", description = "x", hooks = { score = function(s)
  return { [0] = setmetatable({}, { __index = function() while true do end end }), [1] = s[1] }
end } }]==], "indexbomb.lua"))
local g = assert(diloti.new{ rules = {}, hooks = v.hooks,
  position = "hands=Jc / 10h; table=10s Jd; deal=4; ply=46; pack=-" })
assert(g:play("Jc x Jd"))
local ok, res, warn = pcall(g.play, g, "10h x 10s")
print("RESULT", ok, res, warn, g:phase())]],
      variant_pairs = prelude .. [[
local v, why = diloti.variants.load_source(
  "return setmetatable({}, { __pairs = function() while true do end end })", "pairsbomb.lua")
print("RESULT", v, why)]],
      nested = prelude .. [[
local g = assert(diloti.new{ rules = {}, position = "hands=8h 2d / 9c; table=8c",
  hooks = { moves = function(m) return m end } })
local ok, why = sandbox.call(function() g:moves() while true do end end)
print("RESULT", ok, why)]],
    }
    local running = {}

    lazy_setup(function()
      for name, code in pairs(children) do running[name] = support.spawn(code, CHILD_SECONDS) end
    end)

    local function result(name)
      local out, code = running[name].wait()
      assert(code ~= 124, "still running after " .. CHILD_SECONDS .. " s (killed); output: " .. out)
      assert(code == 0, "the child failed (exit " .. tostring(code) .. "): " .. out)
      local line = out:match("RESULT\t([^\n]*)")
      assert(line, "no result in: " .. out)
      return line
    end

    it("(the harness: a plain infinite loop in a child is stopped well before the kill)", function()
      assert.matches("^false\tinstruction budget exceeded", result("control"))
    end)

    it("stops a loop of pcalls that keeps swallowing the budget error", function()
      assert.matches("^false\tinstruction budget exceeded", result("swallow"))
    end)

    it("answers string.rep of an empty string a huge number of times at once (a C loop the hook cannot see)",
      function()
        -- The sandbox's string.rep returns "" without looping: right, and quick.
        assert.matches("^true\t0", result("rep_empty"))
      end)

    it("stops table.move over a huge range (a C loop the hook cannot see)", function()
      assert.matches("^false\t", result("move"))
    end)

    it("stops a pattern that backtracks for ever (a C call the hook cannot see)", function()
      assert.matches("^false\t", result("pattern"))
    end)

    it("does not run a script's __gc finalizer outside the budget", function()
      assert.matches("collected", result("gc"))
    end)

    it("does not run a moves hook's __len metamethod outside the budget", function()
      assert.matches("^false\t.*moves hook", result("moves_len"))
    end)

    it("does not run a score hook's __index metamethod outside the budget", function()
      local line = result("score_index")
      assert.matches("round%-over$", line)
    end)

    it("does not run a variant table's __pairs metamethod outside the budget while loading it", function()
      assert.matches("^nil\t.*pairsbomb%.lua", result("variant_pairs"))
    end)

    it("keeps the budget of an outer sandboxed call after a nested one (a hook run inside)", function()
      assert.matches("^false\tinstruction budget exceeded", result("nested"))
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
      ["table-bomb"] = "local t = {} for i = 1, 100 do t[i] = string.rep('x', 1 << 22) .. i end",
      ["recursion"] = "local function f() return 1 + f() end f()",
      ["swallow"] = "pcall(function() while true do end end)",
    }
    local reasons = {
      ["open-file"] = "global 'io'", ["run-command"] = "global 'os'", ["use-require"] = "global 'require'",
      ["use-load"] = "global 'load'", ["use-dofile"] = "global 'dofile'", ["use-debug"] = "global 'debug'",
      ["real-string"] = "global 'getmetatable'", ["dump-method"] = "dump", ["loop"] = "instruction budget",
      ["rep-bomb"] = "memory cap", ["table-bomb"] = "memory cap", ["recursion"] = "stack overflow|instruction budget",
      ["swallow"] = "instruction budget",
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
      assert.is_true(g:play("8h x 2c 3h 5s 6d 8c"))
      assert.is_nil(io.open("/tmp/diloti-spec-pwned", "r"))
    end)
  end)

  describe("escape attempts from house-rule hooks", function()
    local dir
    local hooks = {
      ["moves-loop"] = "moves = function() while true do end end",
      ["moves-io"] = "moves = function(m) io.open('/etc/passwd') return m end",
      ["moves-write"] = "moves = function(m, state) state.turn = 1 return m end",
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
      assert.is_true(g:play("Jc x Jd"))
      local ok, warn = g:play("10h x 10s")
      assert.is_true(ok)
      assert.matches("score hook", warn)
      assert.matches("standard scoring", warn)
      local any = false
      for p in pattern:gmatch("[^|]+") do any = any or warn:match(p) ~= nil end
      assert(any, "expected '" .. pattern .. "' in: " .. warn)
      assert.equals(13, g:result().score[1])
      assert.is_true(g:next_round())
      assert.is_true(#g:moves() > 0)
    end

    it("stops a moves hook's infinite loop with a clear message", function()
      moves_fail("moves-loop", "instruction budget exceeded")
    end)

    it("names the variant whose moves hook ran out of budget", function()
      local why = moves_fail("moves-loop", "instruction budget exceeded")
      assert.matches("moves%-loop", why)
    end)

    it("refuses io in a moves hook, naming file and line", function()
      moves_fail("moves-io", lit(dir .. "/moves-io.lua:2:") .. ".*global 'io'")
    end)

    it("refuses a moves hook's write to the state it is shown", function()
      moves_fail("moves-write", "read%-only")
    end)

    it("stops a score hook's infinite loop and scores the round by the rules", function()
      score_fails("score-loop", "instruction budget exceeded")
    end)

    it("stops a score hook's memory bomb at the cap and scores the round by the rules", function()
      local before = mib()
      score_fails("score-bomb", "memory cap exceeded")
      collectgarbage()
      assert.is_true(mib() - before < 16)
    end)

    it("refuses os in a score hook and scores the round by the rules", function()
      score_fails("score-os", "global 'os'")
      assert.is_nil(io.open("/tmp/diloti-spec-pwned", "r"))
    end)

    it("stops a score hook's deep recursion and scores the round by the rules", function()
      score_fails("score-recursion", "stack overflow|memory cap exceeded")
    end)

    it("stops a match hook's infinite loop and ends the match by the rules", function()
      local g = hooked("match-loop", LAST .. "; score=60 60")
      assert.is_true(g:play("Jc x Jd"))
      local ok, warn = g:play("10h x 10s")
      assert.is_true(ok)
      assert.matches("match hook", warn)
      assert.matches("instruction budget exceeded", warn)
      assert.equals("match-over", g:phase())
      assert.equals(1, g:result().winner)
    end)

    it("puts hooks given to diloti.new under the same budget", function()
      local g = assert(diloti.new{ rules = {}, position = EX1, hooks = { moves = function() while true do end end } })
      local ok, why = pcall(g.moves, g)
      assert.is_false(ok)
      assert.matches("instruction budget exceeded", why)
    end)
  end)
end)
