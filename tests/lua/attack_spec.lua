-- Attacks on the boxes that untrusted scripts run in (issue 7, redesigned
-- in issue 13: every AI, house rule and lesson runs in a Lua state of its
-- own, core.box), from AI scripts and rules variant scripts alike, beyond
-- what sandbox_spec.lua and ai_spec.lua already try: every way out through
-- files, processes and bytecode, from every hook; escapes through
-- metatables and the string metatable; runaway loops, memory bombs and
-- deep recursion in every hook; huge return values against the limits of
-- what may cross between a box and the host; coroutines; hidden cards read
-- through any helper an AI is given; memory hoarded across calls against
-- each box's exact cap. Each must fail with a clear message, and the game
-- goes on: an AI loses that one decision (a fallback is played), a broken
-- variant is refused when it loads or its hook's failure is reported, and
-- a script a limit stopped is loaded afresh.
--
-- What a script can reach is walked from inside its box (the host cannot
-- see into it, and neither can the script see out). Attempts that could
-- hang this process run in child processes that are killed after a few
-- seconds.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local ai = require "diloti.ai"
local box = diloti.box

local EX1 = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c"
local LAST = "hands=Jc / 10h; table=10s Jd; deal=4; ply=46; pack=-"
local FALLBACK = "8h x 2c 3h 5s 6d 8c"
local CHILD_SECONDS = 8
local REAL_STRING_INDEX = getmetatable("").__index
local MIB = 1024 * 1024
-- Under AddressSanitizer freed memory is kept in quarantine, so the
-- process's resident size says nothing about what is still held.
local ASAN = (os.getenv("LD_PRELOAD") or ""):find("asan", 1, true) ~= nil

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

local function mib() return collectgarbage("count") / 1024 end

--- The process's resident memory in MiB (Linux), 0 where unknown.
local function rss_mib()
  local f = io.open("/proc/self/status", "r")
  if not f then return 0 end
  local s = f:read("a")
  f:close()
  return (tonumber(s:match("VmRSS:%s*(%d+)")) or 0) / 1024
end

-- Names that must not be found anywhere a script can reach.
local FORBIDDEN = { "io", "os", "debug", "load", "loadstring", "loadfile", "dofile", "require", "package",
                    "collectgarbage", "getmetatable", "rawset", "coroutine", "print", "module", "setfenv",
                    "getfenv", "newproxy", "dump", "sethook", "getregistry", "getupvalue", "setupvalue",
                    "upvalueid", "execute", "popen", "getenv", "loadlib", "searchpath", "wrap", "yield",
                    "resume", "isyieldable", "running", "state", "game", "g", "hands" }

-- Source text defining walk(roots) inside a script (support.WALK with
-- the forbidden names of this file); summary(report) makes it one line:
-- "boolean,function,...;paths found".
local WALK = support.WALK .. [[
local FORBIDDEN = ]] .. support.set_literal(FORBIDDEN) .. [[

local walk_any = walk
local function walk(roots) return walk_any(roots, FORBIDDEN) end

local function summary(r)
  local kinds = {}
  for t in next, r.types do kinds[#kinds + 1] = t end
  table.sort(kinds)
  return table.concat(kinds, ",") .. ";" .. r.found
end
]]

--- Asserts that a walk's summary found only plain values and functions
-- of the script's own state, and no forbidden name.
local function walked_clean(line)
  assert.is_string(line)
  local kinds, found = line:match("^([^;]*);(.*)$")
  assert(kinds, "not a walk summary: " .. line)
  assert.equals("", found)
  for k in kinds:gmatch("[^,]+") do
    assert(k == "boolean" or k == "function" or k == "number" or k == "string" or k == "table",
      "reachable: a " .. k)
  end
  assert.matches("function", kinds)
  assert.matches("table", kinds)
end

--- The host's string metatable is the real one, intact (no script runs in
-- the host's state, so none can change it).
local function strings_intact()
  local mt = getmetatable("")
  assert(mt.__index == REAL_STRING_INDEX, "the string metatable was left pointing elsewhere")
  assert(mt.__index == string)
  assert.equals("X", ("x"):upper())
  assert.is_function(string.dump)
  assert.is_function(("").dump)
end

--- A game can still be made and played.
local function game_goes_on()
  local g = assert(diloti.new{ position = EX1 })
  assert(g:play(FALLBACK))
  assert(g:play("9c lay"))
  strings_intact()
end

-- ---- AI scripts -----------------------------------------------------------

local n_written = 0
--- A player from a script body. `NAME` is defined for the body.
local function player_of(body, opts)
  n_written = n_written + 1
  local name = "a" .. n_written
  local path = support.write(tmp .. "/" .. name .. ".lua", "local NAME = '" .. name .. "'\n" .. body)
  return ai.player(path, opts)
end

--- An AI whose choose() runs `code` fails with a message matching
-- `pattern`; the fallback is played and the game goes on.
local function choose_fails(code, pattern, opts)
  local p = assert(player_of("return { name = NAME, description = 'attack', choose = function(view, moves, ctx)\n"
    .. code .. "\nend }", opts))
  local g = assert(diloti.new{ position = EX1 })
  local move, info = p:choose(g, 0)
  strings_intact()
  assert.is_true(info.fallback, "not stopped: " .. code)
  assert.equals(FALLBACK, move)
  local any = false
  for pat in pattern:gmatch("[^|]+") do any = any or info.warning:match(pat) ~= nil end
  assert(any, "expected '" .. pattern .. "' in: " .. info.warning)
  assert.matches("lost this decision", info.warning)
  assert.truthy(g:play(move))
  game_goes_on()
  return info
end

--- An AI whose hook (on_event or on_round_end) runs `code` reports the
-- failure as a warning; a whole round still ends normally.
local function hook_fails(hook, code, pattern, opts)
  local p = assert(player_of("return { name = NAME, description = 'attack', "
    .. "choose = function(_, moves) return moves[1] end, "
    .. hook .. " = function(arg, ctx)\n" .. code .. "\nend }", opts))
  local g = assert(diloti.new{ position = LAST })
  local r = ai.play(g, { [0] = p, [1] = assert(ai.player("greedy")) })
  strings_intact()
  assert.equals("round-over", g:phase())
  local all = table.concat(r.warnings, "\n")
  assert.matches(hook .. " failed", all)
  local any = false
  for pat in pattern:gmatch("[^|]+") do any = any or all:match(pat) ~= nil end
  assert(any, "expected '" .. pattern .. "' in: " .. all)
  game_goes_on()
  return r
end

--- An AI whose main chunk runs `code` is refused with a clear reason.
local function main_fails(code, pattern)
  local p, why = player_of(code .. "\nreturn { name = NAME, description = 'x', choose = function() end }")
  strings_intact()
  assert.is_nil(p)
  local any = false
  for pat in pattern:gmatch("[^|]+") do any = any or why:match(pat) ~= nil end
  assert(any, "expected '" .. pattern .. "' in: " .. tostring(why))
  game_goes_on()
end

-- ---- variant scripts ------------------------------------------------------

--- Loads a variant from source; returns it or nil, message.
local function variant(name, src)
  local v, why = diloti.variants.load_source(src, name .. ".lua")
  strings_intact()
  return v, why
end

--- A variant with one hook, as source.
local function hook_variant(name, hook, code)
  return "return { name = '" .. name .. "', description = 'attack', hooks = {\n  " .. hook
    .. " = function(a, b)\n" .. code .. "\nend } }"
end

--- A moves hook running `code` makes moves() fail with a clear message;
-- the handle stays usable.
local function moves_hook_fails(code, pattern)
  local v = assert(variant("mh", hook_variant("mh", "moves", code)))
  local g = assert(diloti.new{ rules = {}, hooks = v.hooks, position = EX1 })
  local ok, why = pcall(g.moves, g)
  strings_intact()
  assert.is_false(ok)
  assert.matches("moves hook", why)
  local any = false
  for pat in pattern:gmatch("[^|]+") do any = any or why:match(pat) ~= nil end
  assert(any, "expected '" .. pattern .. "' in: " .. why)
  assert.is_string(g:position())
  game_goes_on()
end

--- A score hook running `code` leaves standard scoring, with a warning.
local function score_hook_fails(code, pattern)
  local v = assert(variant("sh", hook_variant("sh", "score", code)))
  local g = assert(diloti.new{ rules = {}, hooks = v.hooks, position = LAST })
  assert.truthy(g:play("Jc x Jd"))
  local ok, warn = g:play("10h x 10s")
  strings_intact()
  assert.truthy(ok)
  assert.matches("score hook", warn)
  local any = false
  for pat in pattern:gmatch("[^|]+") do any = any or warn:match(pat) ~= nil end
  assert(any, "expected '" .. pattern .. "' in: " .. warn)
  assert.equals("round-over", g:phase())
  game_goes_on()
end

--- A match hook running `code` leaves the standard match end.
local function match_hook_fails(code, pattern)
  local v = assert(variant("xh", hook_variant("xh", "match", code)))
  local g = assert(diloti.new{ rules = {}, hooks = v.hooks, position = LAST .. "; score=60 60" })
  assert.truthy(g:play("Jc x Jd"))
  local ok, warn = g:play("10h x 10s")
  strings_intact()
  assert.truthy(ok)
  assert.matches("match hook", warn)
  local any = false
  for pat in pattern:gmatch("[^|]+") do any = any or warn:match(pat) ~= nil end
  assert(any, "expected '" .. pattern .. "' in: " .. warn)
  assert.equals("match-over", g:phase())
  game_goes_on()
end

--- A variant whose main chunk runs `code` is refused.
local function variant_refused(code, pattern)
  local v, why = variant("vm", code .. "\nreturn { name = 'vm', description = 'x' }")
  assert.is_nil(v)
  local any = false
  for pat in pattern:gmatch("[^|]+") do any = any or why:match(pat) ~= nil end
  assert(any, "expected '" .. pattern .. "' in: " .. tostring(why))
  assert.matches("^vm%.lua", why)
  game_goes_on()
end

--- A variant whose rules function runs `code` cannot be used.
local function rules_fn_fails(code, pattern)
  local dir = tmp .. "/rf" .. n_written
  n_written = n_written + 1
  os.execute("mkdir -p " .. support.q(dir))
  support.write(dir .. "/rf.lua", "return { name = 'rf', description = 'x', rules = function(r, arg)\n"
    .. code .. "\nend }")
  local g, why = diloti.new{ rules = "diloti+rf", rules_dirs = { dir } }
  strings_intact()
  assert.is_nil(g)
  local any = false
  for pat in pattern:gmatch("[^|]+") do any = any or why:match(pat) ~= nil end
  assert(any, "expected '" .. pattern .. "' in: " .. tostring(why))
  diloti.variants.catalogue({ dir }) -- (cached; nothing else to free)
  game_goes_on()
end

-- The same attack code, tried from every place untrusted code runs.
local function everywhere(name, code, pattern)
  describe(name, function()
    it("in an AI's choose()", function() choose_fails(code .. "\nreturn moves[1]", pattern) end)
    it("in an AI's on_event()", function() hook_fails("on_event", code, pattern) end)
    it("in an AI's on_round_end()", function() hook_fails("on_round_end", code, pattern) end)
    it("in an AI's main chunk", function() main_fails(code, pattern) end)
    it("in a variant's main chunk", function() variant_refused(code, pattern) end)
    it("in a variant's rules function", function() rules_fn_fails(code, pattern) end)
    it("in a moves hook", function() moves_hook_fails(code .. "\nreturn a", pattern) end)
    it("in a score hook", function() score_hook_fails(code .. "\nreturn a", pattern) end)
    it("in a match hook", function() match_hook_fails(code, pattern) end)
  end)
end

describe("box attacks", function()
  describe("files, processes and code from outside", function()
    everywhere("io.open", "local f = io.open('/etc/passwd') x = f:read('a')", "global 'io'")
    everywhere("os.execute", "os.execute('touch /tmp/diloti-attack-pwned')", "global 'os'")
    everywhere("require", "require('io')", "global 'require'")
    everywhere("dofile", "dofile('/etc/passwd')", "global 'dofile'")
    everywhere("loadfile", "loadfile('/etc/passwd')", "global 'loadfile'")
    everywhere("load of bytecode", "load('\\27Lua\\84\\0')()", "global 'load'")
    everywhere("package.loadlib", "package.loadlib('/lib/x86_64-linux-gnu/libc.so.6', '*')", "global 'package'")
    everywhere("the real string library through getmetatable", "getmetatable('').__index.dump(print)",
      "global 'getmetatable'")
    everywhere("string.dump through a string's methods", "local b = ('').dump(function() end) load(b)()",
      "field 'dump'|method 'dump'|call a nil")
    everywhere("_G.io through rawget", "local io = rawget(_G, 'io') or rawget(_ENV, 'io') io.open('/etc/passwd')",
      "local 'io'|nil value")

    it("left nothing behind from the refused os.execute", function()
      assert.is_nil(io.open("/tmp/diloti-attack-pwned", "r"))
    end)

    it("finds nothing dangerous anywhere reachable in a fresh box (walked from inside it)", function()
      local b = box.new{ label = "walker" }
      local ok, line, globals = b:run(WALK .. [[
        local names = {}
        for k in next, _G do names[#names + 1] = k end
        table.sort(names)
        return summary(walk({ env = _ENV, strings = { ("").upper, ("").x } })), table.concat(names, " ")]],
        "=walk", { budget = 100000000, time = 20 })
      b:close()
      assert.is_true(ok, line)
      walked_clean(line)
      assert.equals("_G _VERSION assert error ipairs math next pairs pcall rawequal rawget rawlen select "
        .. "setmetatable string table tonumber tostring type utf8 xpcall", globals)
    end)

    it("finds nothing dangerous reachable from a variant's main chunk and from its hooks", function()
      local dir = tmp .. "/walkv"
      os.execute("mkdir -p " .. support.q(dir))
      support.write(dir .. "/walkv.lua", WALK .. [[
        local loaded = summary(walk({ env = _ENV }))
        return { name = "walkv", description = loaded, hooks = { moves = function(moves, state)
          local now = walk({ env = _ENV, moves = moves })
          if now.found ~= "" or now.types.userdata or now.types.thread then error("reached " .. summary(now)) end
          return moves
        end } }]])
      local v = diloti.variants.catalogue({ dir }).found.walkv
      assert.is_table(v, "not loaded")
      walked_clean(v.description)
      local g = assert(diloti.new{ rules = "diloti+walkv", rules_dirs = { dir }, position = EX1 })
      assert.equals(#assert(diloti.new{ position = EX1 }):moves(), #g:moves())
    end)

    it("finds nothing dangerous reachable from an AI's choose(): its globals, the view, the moves, ctx", function()
      local p = assert(player_of(WALK .. [[
        return { name = NAME, description = "x", choose = function(view, moves, ctx)
          return moves[1], summary(walk({ env = _ENV, view = view, moves = moves, ctx = ctx }))
        end }]]))
      local _, info = p:choose(assert(diloti.new{ position = EX1 }), 0)
      assert.is_nil(info.fallback, info.warning)
      walked_clean(info.note)
    end)
  end)

  describe("escapes through metatables", function()
    it("a string's methods are the box's own string library, and ('').x finds nothing", function()
      choose_fails([[
        assert(("").x == nil and ("").dump == nil)
        assert(("x").upper == string.upper or true)
        error("checked")]], "checked")
    end)

    it("setmetatable on the libraries changes only the script's own copies", function()
      choose_fails([[
        setmetatable(string, { __index = function() return "pwned" end })
        setmetatable(table, { __newindex = function() error("trap") end })
        string.upper = function() return "pwned" end
        return "nonsense"]], "not a legal move|not a move")
      assert.is_nil(getmetatable(string))
      assert.is_nil(getmetatable(table))
      assert.equals("X", string.upper("x"))
    end)

    it("cannot give strings (a value every script shares) a metatable", function()
      choose_fails("setmetatable('', {})", "table expected")
    end)

    it("may change its own copy of the view and the moves, metatables included: nothing else sees it", function()
      local p = assert(player_of([[
        local first
        return { name = NAME, description = "x", choose = function(view, moves)
          if not first then
            first = view
            setmetatable(view, { __index = function() return "Ac" end })
            setmetatable(view.hand, { __index = function() return "Ac" end })
            view.hand[1] = "Ac"
            moves[1] = "Ac x 8c"
            return "Ac x 8c"
          end
          return moves[1], tostring(rawequal(first, view)) .. " " .. view.hand[1] .. " " .. tostring(view.nothing)
            .. " " .. first.hand[1]
        end }]]))
      local g = assert(diloti.new{ position = EX1 })
      local real = assert(diloti.new{ position = EX1 }):view(0)
      local move, info = p:choose(g, 0)
      assert.is_true(info.fallback)
      assert.matches("'Ac x 8c', which is not a legal move", info.warning)
      assert.equals(FALLBACK, move)
      assert.same(real, g:view(0))
      move, info = p:choose(g, 0)
      assert.is_nil(info.fallback, info.warning)
      assert.is_truthy(g:check(move))
      -- a fresh view each decision; the old one is the script's own, as it left it
      assert.equals("false " .. real.hand[1] .. " nil Ac", info.note)
    end)

    it("cannot make a finalizer run: not through an __index offering __gc, not by adding it later (child)",
      function()
        local child = support.spawn([[
local diloti = require "diloti"
local b = diloti.box.new{}
local ok, refused = b:run([==[
  local loop = function() while true do end end
  local refused = not pcall(setmetatable, {}, { __gc = loop })
  local mt = {}
  setmetatable(mt, { __index = function(t, k)
    if k == "__gc" then t.__gc = loop end
  end })
  kept1 = setmetatable({}, mt)
  local later = {}
  kept2 = setmetatable({}, later)
  later.__gc = loop
  return refused and not pcall(setmetatable, {}, later)]==], "=gc")
print("CALL", ok, refused)
print("AGAIN", b:run("kept1, kept2 = nil, nil local t = {} for i = 1, 1e5 do t[i] = {} end return #t", "=gc"))
b:close()
collectgarbage() collectgarbage()
print("RESULT collected")]], CHILD_SECONDS)
        local out, code = child.wait()
        assert(code ~= 124, "a finalizer ran outside the limits (killed): " .. out)
        assert.matches("CALL\ttrue\ttrue", out)
        assert.matches("AGAIN\ttrue\t100000", out)
        assert.matches("RESULT collected", out)
      end)

    it("__close and __mode tricks run inside the budget", function()
      choose_fails([[
        local t = setmetatable({}, { __close = function() while true do end end })
        do local x <close> = t end]], "instruction budget exceeded|time limit exceeded", { budget = 300000 })
      choose_fails([[
        local weak = setmetatable({}, { __mode = "kv" })
        weak[{}] = {}
        return 42]], "returned move number 42")
    end)

    it("an error object with a runaway __tostring is still stopped", function()
      choose_fails("error(setmetatable({}, { __tostring = function() while true do end end }))",
        "instruction budget exceeded|error in error handling", { budget = 300000 })
    end)

    it("rawget on the views and ctx finds nothing hidden behind them", function()
      local p = assert(player_of([[
        return { name = NAME, description = "x", choose = function(view, moves, ctx)
          local found = {}
          for _, k in ipairs{ "hands", "pack", "state", "game", "g" } do
            if rawget(view, k) ~= nil or rawget(ctx, k) ~= nil then found[#found + 1] = k end
          end
          return moves[1], table.concat(found, ",")
        end }]]))
      local _, info = p:choose(assert(diloti.new{ position = EX1 }), 0)
      assert.is_nil(info.fallback, info.warning)
      assert.equals("", info.note)
    end)
  end)

  describe("the string metatable after a script", function()
    it("is the real one after a script that succeeds, errors, or runs out of budget, memory or time", function()
      -- (no script runs in the host's state: there is nothing to restore)
      for _, src in ipairs{ "return ('x'):upper()", "error('boom')", "while true do end",
                            "local t = {} while true do t[#t + 1] = ('x'):rep(1000) .. #t end",
                            "string.upper = nil string.rep = error setmetatable(string, {})" } do
        local b = box.new{ budget = 200000, memory = 1 << 20, time = 0.2 }
        local ok, f = b:run("return function() " .. src .. " end", "=s")
        assert.is_true(ok, f)
        pcall(f)
        b:run(src, "=s", { budget = 200000, time = 0.2 })
        b:close()
        strings_intact()
      end
    end)

    it("is the real one after a hook run inside an AI's decision (a nested sandboxed call)", function()
      local v = assert(variant("nest", hook_variant("nest", "moves", "return a")))
      local p = assert(player_of([[
        return { name = NAME, description = "x", choose = function(view, moves, ctx)
          ctx.simulate(moves[1])
          return moves[1], tostring(("").dump)
        end }]]))
      local g = assert(diloti.new{ rules = {}, hooks = v.hooks, position = EX1 })
      local _, info = p:choose(g, 0)
      assert.is_nil(info.fallback, info.warning)
      assert.equals("nil", info.note)
      strings_intact()
    end)
  end)

  describe("runaway loops in every hook", function()
    everywhere("a plain infinite loop", "while true do end", "instruction budget exceeded|time limit exceeded")
    everywhere("a loop swallowed by its own pcall, again and again",
      "for i = 1, 1e9 do pcall(function() while true do end end) end",
      "instruction budget exceeded|time limit exceeded")
    everywhere("a loop inside a table.sort comparator",
      "local t = {} for i = 1, 100 do t[i] = i end table.sort(t, function(a, b) while true do end end)",
      "instruction budget exceeded|time limit exceeded")
    everywhere("a loop inside a gsub callback",
      "string.gsub(('x'):rep(10), 'x', function() while true do end end)",
      "instruction budget exceeded|time limit exceeded")

    it("an AI's time limit stops a loop even with a huge instruction budget", function()
      local info = choose_fails("while true do end", "time limit exceeded", { time = 0.1, budget = 1e12 })
      assert.is_true(info.seconds < 2)
    end)
  end)

  describe("memory bombs", function()
    -- (a variant's load budget is small: it may run out of instructions
    -- first; under AddressSanitizer, filling 64 MiB takes longer than a
    -- house rule's second)
    local SLOW = ASAN and "|time limit exceeded" or ""
    everywhere("a table that grows for ever", "local t = {} while true do t[#t + 1] = { #t } end",
      "memory cap exceeded|not enough memory|instruction budget exceeded" .. SLOW)
    everywhere("a string doubled for ever", "local s = 'x' while true do s = s .. s end",
      "memory cap exceeded|not enough memory|string longer than 1024 KiB refused")
    everywhere("string.rep of a gigabyte", "local s = string.rep('x', 1 << 30)",
      "memory cap exceeded|not enough memory|string longer than 1024 KiB refused")
    everywhere("a table of strings that grows for ever",
      "local t = {} while true do t[#t + 1] = string.rep('x', 1 << 20) end",
      "memory cap exceeded|instruction budget exceeded" .. SLOW)
    everywhere("table.concat of a huge list",
      "local t = {} for i = 1, 100 do t[i] = ('x'):rep(1 << 20) end local s = table.concat(t, table.concat(t))",
      "memory cap exceeded|not enough memory|string longer than 1024 KiB refused" .. SLOW)
    everywhere("string.format with a huge width", "local s = string.format('%999999999d', 1)",
      "invalid conversion")

    it("frees what a bomb took", function()
      collectgarbage()
      local before = mib()
      choose_fails("local t = {} while true do t[#t + 1] = string.rep('x', 1 << 20) end", "memory cap exceeded")
      collectgarbage()
      assert.is_true(mib() - before < 16)
    end)
  end)

  describe("deep recursion", function()
    everywhere("plain Lua recursion", "local function f(n) return 1 + f(n + 1) end f(1)",
      "stack overflow|memory cap exceeded|instruction budget exceeded" .. (ASAN and "|time limit exceeded" or ""))
    everywhere("recursion through pcall", "local function f() local ok, e = pcall(f) error(e, 0) end f()",
      "stack overflow|C stack overflow|error in error handling|memory cap exceeded|instruction budget")
    everywhere("recursion through __index metamethods",
      "local t = setmetatable({}, { __index = function(t, k) return t[k .. ''] end }) local x = t.x",
      "stack overflow")
    everywhere("recursion through gsub callbacks",
      "local function f(s) return (s:gsub('.', f)) end f('xx')", "stack overflow")
    everywhere("recursion through __tostring inside string.format",
      "local t t = setmetatable({}, { __tostring = function() return string.format('%s', t) end }) "
        .. "local s = tostring(t)", "stack overflow")
  end)

  describe("huge return values", function()
    --- A game under a variant loaded by name from a folder of its own,
    -- the way a table uses house rules.
    local function named_game(name, src, position)
      local dir = tmp .. "/vn-" .. name
      os.execute("mkdir -p " .. support.q(dir))
      support.write(dir .. "/" .. name .. ".lua", src)
      return assert(diloti.new{ rules = "diloti+" .. name, rules_dirs = { dir }, position = position })
    end

    it("an AI returning a huge table, a table inside itself, a huge string or a table with a metatable "
      .. "loses the decision quickly", function()
      local t0 = os.clock()
      choose_fails("local t = {} for i = 1, 1000000 do t[i] = moves[1] end return t",
        "too many values to pass between a script and the host %(more than 1000000%)")
      choose_fails("local t = {} t[1] = t return t", "nested deeper than 32 levels")
      choose_fails("return { [{}] = moves[1] }", "a table with a key of type table")
      choose_fails("return string.rep('8h x 8c ', 100000)", "not a move")
      choose_fails("return setmetatable({}, { __index = function() return moves[1] end })", "not a move")
      assert.is_true(os.clock() - t0 < 10)
      local p = assert(player_of([[
        return { name = NAME, description = "x", choose = function(view, moves)
          return moves[1], string.rep("\1", 1 << 20)
        end }]]))
      local _, info = p:choose(assert(diloti.new{ position = EX1 }), 0)
      assert.is_nil(info.fallback)
      assert.equals(200, #info.note)
      assert.is_nil(info.note:find("\1", 1, true))
    end)

    it("one crossing carries at most 1,000,000 values, 32 levels and 64 MiB of text, each refused by name", function()
      local b = box.new{ label = "big", memory = 256 * MIB, budget = 1e9, time = 30 }
      local ok, make = b:run([[return {
        list = function(n) local t = {} for i = 1, n do t[i] = i end return t end,
        deep = function(d) local t = {} local c = t for _ = 2, d do c[1] = {} c = c[1] end return t end,
        text = function(mib) local t = {} for i = 1, mib do t[i] = string.rep("x", 1 << 20) end return t end,
        keep = function(v) kept = v return type(v) end,
      }]], "=make")
      assert.is_true(ok, make)
      local t0 = os.clock()
      -- (a list of n numbers is 2n + 1 values)
      assert.equals(499999, #make.list(499999))
      local fine, why = pcall(make.list, 500000)
      assert.is_false(fine)
      assert.matches("too many values to pass between a script and the host (more than 1000000)", why, 1, true)
      local d = make.deep(32)
      for _ = 1, 31 do d = d[1] end
      assert.same({}, d)
      fine, why = pcall(make.deep, 33)
      assert.is_false(fine)
      assert.matches("a script returned a value nested deeper than 32 levels (a table inside itself?)", why, 1, true)
      local text = make.text(64)
      assert.equals(64, #text)
      assert.equals(64 * MIB, #text[1] * #text)
      fine, why = pcall(make.text, 65)
      assert.is_false(fine)
      assert.matches("too much text to pass between a script and the host (more than 64 MiB)", why, 1, true)
      -- the same limits the other way, for what the host passes in
      local list = {}
      for i = 1, 500000 do list[i] = i end
      fine, why = pcall(make.keep, list)
      assert.is_false(fine)
      assert.matches("too many values to pass between a script and the host", why)
      local deep = {}
      local c = deep
      for _ = 1, 40 do c[1] = {} c = c[1] end
      fine, why = pcall(make.keep, deep)
      assert.is_false(fine)
      assert.matches("nested deeper than 32 levels", why)
      fine, why = pcall(make.keep, { [{}] = 1 })
      assert.is_false(fine)
      assert.matches("a table key of type table cannot be passed", why)
      fine, why = pcall(make.keep, coroutine.create(print))
      assert.is_false(fine)
      assert.matches("a thread cannot be passed", why)
      assert.is_true(os.clock() - t0 < 20)
      b:close()
    end)

    it("box:run returns false and why when what a chunk returns cannot cross (it does not raise)", function()
      for _, case in ipairs{
        { "local t = {} t[1] = t return t", "nested deeper than 32 levels" },
        { "return { [{}] = 1 }", "key of type table" },
        { "local t = {} for i = 1, 600000 do t[i] = i end return t", "too many values" },
      } do
        local b = box.new{}
        local ok, r1, r2 = pcall(b.run, b, case[1], "=out")
        b:close()
        assert(ok, "box:run raised: " .. tostring(r1))
        assert.is_false(r1)
        assert.matches(case[2], r2)
      end
    end)

    it("an AI's hooks returning huge values: what they return is ignored", function()
      local p = assert(player_of([[
        return { name = NAME, description = "x",
          choose = function(_, moves) return moves[1] end,
          on_event = function() local t = {} for i = 1, 300000 do t[i] = i end return t, ("x"):rep(1 << 20) end,
          on_round_end = function() local t = {} t[1] = t return t, ("y"):rep(1 << 20) end }]]))
      local g = assert(diloti.new{ position = LAST })
      local r = ai.play(g, { [0] = p, [1] = assert(ai.player("greedy")) })
      assert.same({}, r.warnings)
      assert.equals("round-over", g:phase())
    end)

    it("a moves hook returning millions of moves is refused at once: it loses that call", function()
      local t0 = os.clock()
      -- (a crossing limit: the standard moves, and a warning when one is
      -- played; issue 24, finding 3)
      local v = assert(variant("mh", hook_variant("mh", "moves",
        "local t = {} for i = 1, 2000000 do t[i] = a[1] end return t")))
      local g = assert(diloti.new{ rules = {}, hooks = v.hooks, position = EX1 })
      local moves = g:moves()
      assert.same(assert(diloti.new{ position = EX1 }):moves(), moves)
      local _, warn = g:play(moves[1])
      assert.matches("^house rule 'mh' %(mh%.lua%), moves hook: too many values to pass between a script "
        .. "and the host %(more than 1000000%).*; standard moves used for this position$", warn)
      assert.is_true(os.clock() - t0 < 5)
      game_goes_on()
      -- (under the crossing limits, more moves than there are is refused by the engine)
      g = named_game("many", hook_variant("many", "moves",
        "local t = {} for i = 1, 1000 do t[i] = a[1] end return t"), EX1)
      local ok, why = pcall(g.moves, g)
      assert.is_false(ok)
      assert.matches("returned 1000 moves, more than the 14 legal ones", why)
    end)

    it("a moves hook returning a huge reason for a veto", function()
      local g = named_game("veto", hook_variant("veto", "moves", [[
        local kept, why = {}, {}
        for i, m in ipairs(a) do if i > 1 then kept[#kept + 1] = m else why[m.text] = ("no"):rep(1 << 19) end end
        return kept, why]]), EX1)
      local first = g:moves()[1]
      local refused = assert(diloti.new{ rules = {}, position = EX1 }):moves()[1]
      assert.are_not.equal(refused, first)
      local ok, why = g:play(refused)
      assert.is_nil(ok)
      assert.is_string(why)
      game_goes_on()
    end)

    it("a score hook returning a huge or strange breakdown leaves standard scoring", function()
      for i, body in ipairs{ "return { [0] = { total = ('9'):rep(1 << 20) }, [1] = a[1] }",
                             "return { [0] = { total = 1e300 }, [1] = a[1] }",
                             "return { [0] = setmetatable({}, { __index = function() return 1 end }), [1] = a[1] }" } do
        local g = named_game("sb" .. i, hook_variant("sb" .. i, "score", body), LAST)
        assert.truthy(g:play("Jc x Jd"))
        local ok, warn = g:play("10h x 10s")
        assert.truthy(ok)
        assert.matches("house rule %(score hook%) returned a bad breakdown, standard scoring used", warn)
        assert.equals(13, g:result().score[1])
      end
      -- anything but a table leaves the breakdown as it was (the hook
      -- declined to change it)
      local g = named_game("shs", hook_variant("shs", "score", "return ('x'):rep(1 << 20)"), LAST)
      assert.truthy(g:play("Jc x Jd"))
      assert.truthy(g:play("10h x 10s"))
      assert.equals(13, g:result().score[1])
      game_goes_on()
    end)

    it("a variant's own hooks (variants.load_source) given to diloti.new answer like any hook", function()
      local v = assert(variant("direct", [[
        return { name = "direct", description = "x", hooks = {
          moves = function(a)
            local kept, why = {}, {}
            for _, m in ipairs(a) do
              if m.text ~= "2d lay" then kept[#kept + 1] = m else why[m.text] = ("no"):rep(1 << 19) end
            end
            return kept, why
          end,
          score = function(s)
            local t = {}
            for side = 0, 1 do t[side] = {} for k, x in pairs(s[side]) do t[side][k] = x end end
            t[0].total = t[0].total + 100
            return t
          end,
          match = function() return false end } }]]))
      local g = assert(diloti.new{ rules = {}, hooks = v.hooks, position = EX1 })
      local all = assert(diloti.new{ rules = {}, position = EX1 }):moves()
      assert.is_true(support.has(all, "2d lay"))
      assert.equals(#all - 1, #g:moves(), "the veto was not applied")
      assert.is_nil((g:play("2d lay")))
      g = assert(diloti.new{ rules = {}, hooks = v.hooks, position = LAST .. "; score=60 60" })
      assert.truthy(g:play("Jc x Jd"))
      assert.truthy(g:play("10h x 10s"))
      assert.equals(104, g:result().round[0].total, "the new breakdown was not used")
      assert.equals("round-over", g:phase(), "the match hook's answer was not used")
    end)

    it("a match hook returning a huge string", function()
      local v = assert(variant("mhs", hook_variant("mhs", "match", "return ('x'):rep(1 << 20)")))
      local g = assert(diloti.new{ rules = {}, hooks = v.hooks, position = LAST .. "; score=60 60" })
      assert.truthy(g:play("Jc x Jd"))
      local ok = g:play("10h x 10s")
      assert.truthy(ok)
      assert.is_string(g:phase())
      game_goes_on()
    end)

    it("a variant whose main chunk returns a huge table is refused quickly", function()
      local t0 = os.clock()
      -- built by one C call, so the load budget does not stop it; the
      -- crossing refuses it by its size
      local v, why = variant("hugev", "local t = { string.byte(string.rep('x', 900000), 1, -1) } "
        .. "t.name = 'hugev' t.description = 'x' return t")
      assert.is_nil(v)
      assert.is_truthy(why:match("^hugev%.lua: too many values to pass between a script and the host")
        or why:match("^hugev%.lua: a script returned more than 1000000 values"), why)
      assert.is_true(os.clock() - t0 < 5)
    end)

    it("a variant or an AI in the user's folder returning a table inside itself is refused; the rest still load",
      function()
        local vdir, adir = tmp .. "/selfref-v", tmp .. "/selfref-a"
        os.execute("mkdir -p " .. support.q(vdir) .. " " .. support.q(adir))
        support.write(vdir .. "/selfref.lua", "local t = { name = 'selfref', description = 'x' } "
          .. "t.rules = { loop = t } return t")
        support.write(adir .. "/selfai.lua", "local t = { name = 'selfai', description = 'x', "
          .. "choose = function(_, m) return m[1] end } t.loop = { t } return t")
        local out, err, code = support.cli({ "--rules-dir", vdir, "rules" })
        assert.equals(0, code, err)
        assert.matches("forced%-capture", out)
        assert.matches("selfref%.lua.*nested deeper than 32 levels", err)
        out, err, code = support.cli({ "ai", "--ai-dir", adir })
        assert.equals(0, code, err)
        assert.matches("greedy", out)
        assert.matches("selfai%.lua.*nested deeper than 32 levels", err)
      end)

    it("a rules function returning a huge message is refused", function()
      rules_fn_fails("return ('x'):rep(1 << 20)", "^rules: rf:")
    end)

    it("the crossing limits leave room for what the host itself sends: the bounded list of 11,700 legal "
      .. "moves reaches a moves hook and an AI", function()
      local CROWDED = "hands=10h 9h 8h 7h 6h / 10s 9s 8s 7s 6s; table=Ac 2c 3c 4c 5c 6c 7c 8c 9c Ad 2d 3d 4d 5d; "
        .. "pack=-"
      local plain = assert(diloti.new{ position = CROWDED })
      local all = #plain:moves()
      assert.equals(11700, (plain:count()))
      assert.is_true(all > 1000 and all <= 5000, all)
      local g = named_game("passall", hook_variant("passall", "moves", "return a"), CROWDED)
      local ok, res = pcall(g.moves, g)
      assert(ok, res)
      assert.equals(all, #res)
      local p = assert(player_of("return { name = NAME, description = 'x', choose = function(view, moves, ctx) "
        .. "return moves[#ctx.moves_info] end }"))
      local move, info = p:choose(assert(diloti.new{ position = CROWDED }), 0)
      assert.is_nil(info.fallback, info.warning)
      assert.equals(res[#res], move)
    end)
  end)

  describe("coroutines", function()
    everywhere("coroutine.wrap", "local co = coroutine.wrap(function() end)", "global 'coroutine'")
    everywhere("coroutine through _G", "local c = _G.coroutine.yield()", "field 'coroutine'|nil value")

    it("no coroutine function is reachable from ctx, the view, the moves or the globals (walked from inside)",
      function()
        local p = assert(player_of(WALK .. [[
          local kept
          return { name = NAME, description = "x", choose = function(view, moves, ctx)
            if not kept then
              kept = { view = view, moves = moves, ctx = ctx, env = _ENV }
              return moves[1], summary(walk(kept))
            end
            -- what the last decision was given, as the script kept it
            return moves[1], summary(walk(kept)) .. "|" .. tostring(coroutine) .. tostring(_G.coroutine)
          end }]]))
        local g = assert(diloti.new{ position = EX1 })
        local _, info = p:choose(g, 0)
        assert.is_nil(info.fallback, info.warning)
        walked_clean(info.note)
        _, info = p:choose(g, 0)
        assert.is_nil(info.fallback, info.warning)
        local line, rest = info.note:match("^(.*)|(.*)$")
        walked_clean(line)
        assert.equals("nilnil", rest)
      end)

    it("a ctx.simulate kept from an earlier decision no longer works", function()
      local p = assert(player_of([[
        local old
        return { name = NAME, description = "x", choose = function(view, moves, ctx)
          if not old then old = ctx.simulate return moves[1], "kept" end
          local ok, why = pcall(old, moves[1])
          return moves[1], tostring(ok) .. " " .. tostring(why)
        end }]]))
      local g = assert(diloti.new{ position = EX1 })
      local _, info = p:choose(g, 0)
      assert.equals("kept", info.note)
      _, info = p:choose(g, 0)
      assert.is_nil(info.fallback, info.warning)
      assert.matches("^false .*works only during the call it was given to", info.note)
    end)
  end)

  describe("hidden cards", function()
    -- Everything an AI can learn in a decision, beyond ai_spec's spy:
    -- simulate of every card laid and of every capture of every card,
    -- with the refusals' words; best_capture of every table it can build;
    -- chance for every seat and rank; an exact search request; every
    -- moves_info field. Its digest comes back as the note.
    local SPY = [[
      local function dump(v, out, depth)
        depth = depth or 0
        local t = type(v)
        if t == "table" and depth < 8 then
          local keys = {}
          for k in pairs(v) do keys[#keys + 1] = k end
          table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
          out[#out + 1] = "{"
          for _, k in ipairs(keys) do out[#out + 1] = tostring(k) .. "=" dump(v[k], out, depth + 1) end
          out[#out + 1] = "}"
        elseif t ~= "function" then
          out[#out + 1] = tostring(v) .. ";"
        end
      end
      local function digest(s)
        local h = 0xcbf29ce484222325
        for i = 1, #s do h = (h ~ s:byte(i)) * 0x100000001b3 end
        return string.format("%x", h)
      end
      local RANKS = { "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K" }
      return { name = NAME, description = "spy", choose = function(view, moves, ctx)
        local out = {}
        dump(view, out) dump(moves, out) dump(ctx, out)
        for _, r in ipairs(RANKS) do
          for s in ("cdhs"):gmatch(".") do
            local c = r .. s
            dump({ ctx.simulate(c .. " lay") }, out)
            dump({ ctx.simulate(view.hand[1] .. " x " .. c) }, out)
            dump({ ctx.simulate(c .. " x " .. (view.table.loose[1] or "")) }, out)
            dump(ctx.best_capture(c, { loose = { c }, declarations = {} }), out)
          end
          dump(ctx.best_capture(r), out)
          for seat = 0, view.players - 1 do out[#out + 1] = tostring(ctx.chance(r, seat)) end
        end
        for _, m in ipairs(ctx.moves_info) do dump({ ctx.simulate(m) }, out) end
        dump({ ctx.search{ iterations = 200, seed = 5, exact = 10 } }, out)
        dump({ ctx.search{ iterations = 100, seed = 7, weights = { cards = 2, xeri = 5 } } }, out)
        local text = table.concat(out, "")
        return moves[1], digest(text) .. " " .. #text
      end }]]

    local function spy(position, seed, rules)
      local g = assert(diloti.new{ position = position, seed = seed, rules = rules })
      local p = assert(player_of(SPY, { seed = 1 }))
      local _, info = p:choose(g, g:turn())
      assert.is_nil(info.fallback, info.warning)
      return info.note, g
    end

    -- A position whose every card not hidden is placed: the cards not
    -- named in `known` (the hands, table and declarations given) go to
    -- seat 0's captured pile, leaving exactly `hidden` for the ?N slots.
    local function placed(position, known, hidden)
      local used = {}
      for c in known:gmatch("%S+") do used[c] = true end
      local pile = {}
      for _, r in ipairs{ "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K" } do
        for suit in ("cdhs"):gmatch(".") do
          if not used[r .. suit] then pile[#pile + 1] = r .. suit end
        end
      end
      return position .. "; piles=" .. table.concat(pile, " ", 1, #pile - hidden) .. " / -"
    end

    local function same_for_hidden(position, rules)
      local a, ga = spy(position, 1, rules)
      local b, gb = spy(position, 2, rules)
      assert.are_not.equal(ga:position(), gb:position()) -- the hidden cards differ
      assert.equals(a, b)
    end

    it("learns nothing about the other hands or the pack mid-deal", function()
      same_for_hidden("hands=8h 2d 5c 9s Jh Kd / ?6; table=8c 6d 5s 3h; pack=?36")
    end)

    it("learns nothing in a late deal, with most cards captured", function()
      same_for_hidden(placed("hands=8h 2d 5c / ?3; table=8c 6d 5s 3h; deal=3; ply=36; pack=?4",
        "8h 2d 5c 8c 6d 5s 3h", 7))
    end)

    it("learns nothing with four players and declarations on the table", function()
      -- (each declaration's owner holds a 5, D19: those two stay put)
      same_for_hidden(placed("hands=3s 8s Kd / ?3 / 5c ?2 / 5s ?2; table=9c P5@2(Ad+4d) P5@3(2h+3h); "
        .. "dealer=3; turn=0; ply=8; pack=?24", "3s 8s Kd 5c 5s 9c Ad 4d 2h 3h", 31), "diloti+players=4")
    end)

    it("cannot see the next deal through ctx.simulate of the deal's last card", function()
      same_for_hidden(placed("hands=8h / ?1; dealer=1; turn=0; table=3c 8c; pack=?12", "8h 3c 8c", 13))
    end)
  end)

  describe("state kept across calls", function()
    -- Each script's box has an exact cap on everything its state holds,
    -- what it keeps between calls included: a script that hoards hits the
    -- cap during some call, loses that call (the message names it and the
    -- cap), and is loaded afresh from its source, empty-handed. Garbage is
    -- the box's own collector's business, and the host's memory is not
    -- the script's. (No string may exceed 1 MiB: hoards are made of many.)

    it("an AI hoarding memory across decisions hits its cap, loses that decision and is loaded afresh; "
      .. "memory stays bounded", function()
      local p = assert(player_of([[
        local hoard = {}
        return { name = NAME, description = "hoards", choose = function(_, moves)
          for _ = 1, 4 do hoard[#hoard + 1] = string.rep("x", 1024 * 1024) end
          return moves[1], tostring(#hoard // 4)
        end }]], { memory = 16 * MIB }))
      local g = assert(diloti.new{ position = EX1 })
      collectgarbage()
      local before, rss0 = mib(), rss_mib()
      local reloaded, peak, last_failed = 0, 0, false
      for _ = 1, 30 do
        local _, info = p:choose(g, 0)
        if info.fallback then
          assert.is_false(last_failed, "two decisions lost in a row: " .. info.warning)
          reloaded, last_failed = reloaded + 1, true
          assert.matches("lost this decision: .*a%d+%.lua: memory cap exceeded in AI 'a%d+' at seat 0 %(choose%) "
            .. "%(16 MiB%); the script will be loaded afresh; played", info.warning)
        else
          -- (loaded afresh: its hoard starts again from nothing)
          if last_failed then assert.equals("1", info.note) end
          last_failed = false
        end
        if p._box then -- (nil from a failure until the next decision loads it afresh)
          local used, cap = p._box:memory()
          assert.equals(16 * MIB, cap)
          assert.is_true(used <= cap)
        end
        peak = math.max(peak, rss_mib() - rss0)
      end
      assert.is_true(reloaded >= 5, "loaded afresh " .. reloaded .. " times")
      -- (unchecked it would keep 120 MiB)
      if not ASAN then assert.is_true(peak < 64, "the process grew by " .. peak .. " MiB") end
      p = nil -- luacheck: ignore
      collectgarbage()
      assert.is_true(mib() - before < 16)
      game_goes_on()
    end)

    it("an AI is charged only for what its own state holds, not for the host's memory", function()
      -- The host (a long session, a tournament) may grow by far more than
      -- an AI's cap while the AI holds little: never a failure then.
      local p = assert(player_of([[
        local n, kept = 0, {}
        return { name = NAME, description = "modest", choose = function(_, moves, ctx)
          n = n + 1
          kept[n] = ctx -- (its own copy: a few KB a decision, counted)
          return moves[1], tostring(n)
        end }]], { memory = 16 * MIB }))
      local g = assert(diloti.new{ position = EX1 })
      local host = {}
      for i = 1, 6 do
        host[i] = string.rep("h", 8 * MIB + i) -- 48 MiB in all, held by the host
        local _, info = p:choose(g, 0)
        assert.is_nil(info.fallback, info.warning)
        assert.equals(tostring(i), info.note) -- the same script all along
        assert.is_true(p._box:memory() < 4 * MIB)
      end
      assert.equals(6, #host)
      host = nil -- luacheck: ignore
      collectgarbage()
    end)

    it("an AI whose script fails to load again when loaded afresh loses its decisions, the game goes on", function()
      -- (loading is deterministic now: the same source and seed load the
      -- same way, so the failing second load is another script's)
      local _, second = player_of("error('second load')\nreturn {}")
      assert.matches("a%d+%.lua:2: second load", second)
      local p = assert(player_of([[
        local hoard = {}
        return { name = NAME, description = "fragile", choose = function(_, moves)
          for _ = 1, 6 do hoard[#hoard + 1] = string.rep("x", 1024 * 1024) end
          return moves[1]
        end }]], { memory = 16 * MIB }))
      p._reload = function() return nil, second end
      local g = assert(diloti.new{ position = EX1 })
      local seen
      for _ = 1, 8 do
        local mv, info = p:choose(g, 0)
        assert.is_true(g:check(mv))
        if info.fallback and info.warning:find("restarting it failed: " .. second, 1, true) then seen = true end
      end
      assert.is_true(seen, "never told that loading it afresh failed")
      game_goes_on()
    end)

    it("an AI hoarding in on_event is loaded afresh too, and the round ends", function()
      local p = assert(player_of([[
        local hoard = {}
        return { name = NAME, description = "hoards",
          choose = function(_, moves) return moves[1] end,
          on_event = function() for _ = 1, 6 do hoard[#hoard + 1] = string.rep("y", 1024 * 1024) end end }]],
        { memory = 16 * MIB }))
      local g = assert(diloti.new{ seed = 3 })
      local r = ai.play(g, { [0] = p, [1] = assert(ai.player("random")) })
      assert.equals("round-over", g:phase())
      local all = table.concat(r.warnings, "\n")
      assert.matches("on_event failed: .*memory cap exceeded in AI 'a%d+' at seat 0 %(on_event%) %(16 MiB%); "
        .. "the script will be loaded afresh", all)
      assert.is_nil(all:find("turned off", 1, true)) -- (each load starts with a clean slate)
      collectgarbage()
      assert.is_true(mib() < 200)
    end)

    it("an AI that churns garbage every decision but keeps nothing is never stopped", function()
      local p = assert(player_of([[
        return { name = NAME, description = "churns", choose = function(_, moves)
          local t = {} for i = 1, 20000 do t[i] = { i } end
          local s = {} for i = 1, 8 do s[i] = string.rep("z", 1024 * 1024) end -- 8 MiB a decision
          return moves[#s[8] % #moves + 1]
        end }]], { memory = 16 * MIB }))
      local g = assert(diloti.new{ seed = 4 })
      local r = ai.play(g, { [0] = p, [1] = assert(ai.player("random")) })
      assert.same({}, r.warnings)
    end)

    -- A variant's box lives as long as what uses it: a game loads each
    -- variant it names afresh, and variants.load_source's hooks share one
    -- box whatever game they are given to. Its cap is 64 MiB.
    local KEPT = "memory cap exceeded in variant '%s' %%(%s%%) %%(64 MiB%%); it will be loaded afresh"

    --- A variant in a folder of its own, used by name as a table would;
    -- returns the rules spec and the folder list.
    local function variant_dir(name, src)
      local dir = tmp .. "/vd-" .. name
      os.execute("mkdir -p " .. support.q(dir))
      support.write(dir .. "/" .. name .. ".lua", src)
      return "diloti+" .. name, { dir }
    end

    --- Runs a moves hook n times: next_game(i) gives the game for call i
    -- (its moves hook runs once per position). check(ok, result, i) looks
    -- at each answer. Returns how often it failed and how far the
    -- process grew (MiB).
    local function hook_calls(n, next_game, check)
      collectgarbage()
      local rss0 = rss_mib()
      local stopped, peak, last_failed = 0, 0, false
      for i = 1, n do
        local g = next_game(i)
        local ok, res = pcall(g.moves, g)
        if ok then
          last_failed = false
        else
          assert.is_false(last_failed, "two calls failed in a row: " .. res)
          stopped, last_failed = stopped + 1, true
        end
        if check then check(ok, res, i) end
        peak = math.max(peak, rss_mib() - rss0)
      end
      return stopped, peak
    end

    --- One game under a variant by name, its position changed between
    -- calls (a move played and taken back) so that the hook runs again.
    local function one_game(spec, dirs, position)
      local g = assert(diloti.new{ rules = spec, rules_dirs = dirs, position = position or EX1 })
      local move = assert(diloti.new{ position = position or EX1 }):moves()[1]
      return function(i)
        if i > 1 and pcall(g.play, g, move) then assert.is_true(g:undo()) end
        return g
      end
    end

    it("a moves hook keeping 8 MiB a call is stopped at the cap and loaded afresh; the game goes on", function()
      local spec, dirs = variant_dir("hogm", [[
        local hoard = {}
        return { name = "hogm", description = "hoards", hooks = { moves = function(moves)
          for _ = 1, 8 do hoard[#hoard + 1] = string.rep("m", 1024 * 1024) end
          return moves
        end } }]])
      local all = #assert(diloti.new{ position = EX1 }):moves()
      collectgarbage()
      local before = mib()
      local stopped, peak = hook_calls(40, one_game(spec, dirs), function(ok, res)
        if ok then
          assert.equals(all, #res)
        elseif not res:match("time limit exceeded in variant 'hogm' %(moves hook%) %(%d+ ms%); "
          .. "it will be loaded afresh$") then
          -- (the memory cap stops it; under a sanitizer on a loaded machine
          -- the clock may trip first, which stops and reloads it as well)
          assert.matches("^house rule 'hogm' %([^)]*hogm%.lua%), moves hook: "
            .. KEPT:format("hogm", "moves hook") .. "$", res)
        end
      end)
      assert.is_true(stopped >= 4, "stopped " .. stopped .. " times")
      -- (unchecked it would hold 320 MiB)
      if not ASAN then assert.is_true(peak < 150, "the process grew by " .. peak .. " MiB") end
      collectgarbage()
      assert.is_true(mib() - before < 16)
      game_goes_on()
    end)

    it("the same moves hook given to game after game (variants.load_source) is stopped the same way", function()
      local v = assert(variant("hogn", [[
        local hoard = {}
        return { name = "hogn", description = "hoards", hooks = { moves = function(moves)
          for _ = 1, 8 do hoard[#hoard + 1] = string.rep("n", 1024 * 1024) end
          return moves
        end } }]]))
      local stopped, peak = hook_calls(40, function()
        return assert(diloti.new{ rules = {}, hooks = v.hooks, position = EX1 })
      end, function(ok, res)
        if not ok then
          assert.matches("^house rule 'hogn' %(hogn%.lua%), moves hook: "
            .. KEPT:format("hogn", "moves hook") .. "$", res)
        end
      end)
      assert.is_true(stopped >= 4, "stopped " .. stopped .. " times")
      if not ASAN then assert.is_true(peak < 150, "the process grew by " .. peak .. " MiB") end
    end)

    it("a score hook keeping 8 MiB a round is stopped too; standard scoring for that round only", function()
      local v = assert(variant("hogs", [[
        local hoard = {}
        return { name = "hogs", description = "hoards", hooks = { score = function(s)
          for _ = 1, 8 do hoard[#hoard + 1] = string.rep("s", 1024 * 1024) end
          s[0].total = s[0].total + 1
          return s
        end } }]]))
      collectgarbage()
      local rss0 = rss_mib()
      local stopped, peak = 0, 0
      for _ = 1, 40 do
        local g = assert(diloti.new{ rules = {}, hooks = v.hooks, position = LAST })
        assert.truthy(g:play("Jc x Jd"))
        local ok, warn = g:play("10h x 10s")
        assert.truthy(ok)
        assert.equals("round-over", g:phase())
        if warn then
          assert.matches("^house rule 'hogs' %(hogs%.lua%), score hook: "
            .. KEPT:format("hogs", "score hook") .. "; standard scoring used for this round$", warn)
          assert.equals(4, g:result().score[0])
          stopped = stopped + 1
        else
          -- the hook ran (after a fresh load too): its point is in the score
          assert.equals(5, g:result().score[0])
        end
        peak = math.max(peak, rss_mib() - rss0)
      end
      assert.is_true(stopped >= 4, "stopped " .. stopped .. " times")
      if not ASAN then assert.is_true(peak < 150, "the process grew by " .. peak .. " MiB") end
      game_goes_on()
    end)

    it("a hook that keeps memory and then fails is stopped at the cap all the same", function()
      local v = assert(variant("hogf", [[
        local hoard = {}
        return { name = "hogf", description = "hoards", hooks = { moves = function()
          for _ = 1, 8 do hoard[#hoard + 1] = string.rep("f", 1024 * 1024) end
          error("kept " .. #hoard // 8)
        end } }]]))
      local g = assert(diloti.new{ rules = {}, hooks = v.hooks, position = EX1 })
      local stopped, expect = 0, 1
      for _ = 1, 30 do
        local ok, why = pcall(g.moves, g)
        assert.is_false(ok)
        if why:find("memory cap exceeded", 1, true) then
          assert.matches(KEPT:format("hogf", "moves hook") .. "$", why)
          stopped, expect = stopped + 1, 1 -- loaded afresh: it keeps nothing
        else
          assert.matches("hogf%.lua%), moves hook: line %d+: kept " .. expect .. "$", why)
          expect = expect + 1
        end
      end
      assert.is_true(stopped >= 3, "stopped " .. stopped .. " times")
      game_goes_on()
    end)

    it("a hook stopped by its budget is loaded afresh: what it kept is gone", function()
      local v = assert(variant("hogb", [[
        local hoard = {}
        return { name = "hogb", description = "hoards", hooks = { moves = function()
          hoard[#hoard + 1] = string.rep("b", 1024 * 1024)
          if #hoard % 3 == 0 then while true do end end
          error("kept " .. #hoard)
        end } }]]))
      local g = assert(diloti.new{ rules = {}, hooks = v.hooks, position = EX1 })
      local seen = {}
      for _ = 1, 9 do
        local _, why = pcall(g.moves, g)
        seen[#seen + 1] = why:match("kept %d+") or (why:find("instruction budget exceeded in variant 'hogb' "
          .. "(moves hook) (10000000 instructions); it will be loaded afresh", 1, true) and "budget") or why
      end
      assert.equals("kept 1,kept 2,budget,kept 1,kept 2,budget,kept 1,kept 2,budget", table.concat(seen, ","))
    end)

    it("a hook keeping only its arguments (copies the host sent into its box) is stopped too", function()
      -- 3,119 legal moves: about 1.5 MiB of arguments a call
      local BUSY = "hands=10h 9h 8h 7h 6h / 10s 9s 8s 7s 6s; table=Ac 2c 3c 4c 5c 6c 7c 8c 9c Ad 2d 3d; pack=-"
      local spec, dirs = variant_dir("argk", [[
        local keep = {}
        return { name = "argk", description = "keeps what it is given", hooks = { moves = function(moves, state)
          keep[#keep + 1] = moves
          keep[#keep + 1] = state
          return moves
        end } }]])
      local all = #assert(diloti.new{ position = BUSY }):moves()
      local stopped, peak = hook_calls(120, one_game(spec, dirs, BUSY), function(ok, res)
        if ok then
          assert.equals(all, #res)
        else
          assert.matches(KEPT:format("argk", "moves hook") .. "$", res)
        end
      end)
      assert.is_true(stopped >= 1, "never stopped")
      if not ASAN then assert.is_true(peak < 150, "the process grew by " .. peak .. " MiB") end
    end)

    it("what a hook does to the moves it was given is not handed on: the next hook gets the engine's", function()
      local dir = tmp .. "/vd-chain"
      os.execute("mkdir -p " .. support.q(dir))
      support.write(dir .. "/giver.lua", [[
        local n = 0
        return { name = "giver", description = "hands on a lot", hooks = { moves = function(moves)
          n = n + 1
          local pad = {}
          for i = 1, 8 do pad[i] = string.rep("g", 1024 * 1024) end
          moves[1].pad = pad
          return moves
        end } }]])
      support.write(dir .. "/keeper.lua", [[
        local keep = {}
        return { name = "keeper", description = "keeps it", hooks = { moves = function(moves)
          if moves[1].pad then error("handed the giver's padding") end
          keep[#keep + 1] = moves[1]
          return moves
        end } }]])
      local stopped, peak = hook_calls(40, one_game("diloti+giver+keeper", { dir }), function(ok, res)
        assert.is_true(ok, tostring(res))
      end)
      assert.equals(0, stopped)
      if not ASAN then assert.is_true(peak < 200, "the process grew by " .. peak .. " MiB") end
    end)

    it("a rules function keeping memory cannot carry it from table to table: each game loads it afresh", function()
      local spec, dirs = variant_dir("hogr", [[
        local hoard = {}
        return { name = "hogr", description = "hoards", rules = function(r)
          for _ = 1, 8 do hoard[#hoard + 1] = string.rep("r", 1024 * 1024) end
          r.target = 60 + #hoard // 8
        end }]])
      collectgarbage()
      local rss0 = rss_mib()
      for _ = 1, 30 do
        local g = assert(diloti.new{ rules = spec, rules_dirs = dirs })
        assert.equals(61, g:rules().target) -- (its first call, every time)
      end
      -- (the boxes of those games are freed with them)
      collectgarbage()
      collectgarbage()
      if not ASAN then assert.is_true(rss_mib() - rss0 < 32, "the process kept " .. rss_mib() - rss0 .. " MiB") end
    end)

    it("a rules function hoarding through variants.load_source is stopped at the cap", function()
      local v = assert(variant("hogq", [[
        local hoard = {}
        return { name = "hogq", description = "hoards", rules = function(r)
          for _ = 1, 8 do hoard[#hoard + 1] = string.rep("q", 1024 * 1024) end
          r.target = 60 + #hoard // 8
        end }]]))
      local stopped, expect = 0, 61
      for _ = 1, 30 do
        local ok, r = pcall(v.rules, {})
        if ok then
          assert.equals(expect, r.target) -- (its hoard grows from call to call)
          expect = expect + 1
        else
          assert.matches(KEPT:format("hogq", "rules function") .. "$", r)
          stopped, expect = stopped + 1, 61
        end
      end
      assert.is_true(stopped >= 2, "stopped " .. stopped .. " times")
    end)

    it("a hook churning garbage, or holding a large table from its load, is never stopped", function()
      local spec, dirs = variant_dir("churn", [[
        local big = {}
        for i = 1, 24 do big[i] = string.rep("b", 1024 * 1024) end -- 24 MiB kept from its load
        local seen = {}
        return { name = "churn", description = "churns", hooks = { moves = function(moves)
          local t = {} for i = 1, 20000 do t[i] = { i } end
          local s = {} for i = 1, 16 do s[i] = string.rep("z", 1024 * 1024) end -- 16 MiB of garbage a call
          seen[#moves] = #s[16] + #big -- a few bytes kept, the same key each time
          return moves
        end } }]])
      local all = #assert(diloti.new{ position = EX1 }):moves()
      local stopped = hook_calls(40, one_game(spec, dirs), function(ok, res)
        assert(ok, res)
        assert.equals(all, #res)
      end)
      assert.equals(0, stopped)
    end)

    it("memory the session holds itself does not count against a variant", function()
      local spec, dirs = variant_dir("light", [[
        local n = 0
        return { name = "light", description = "keeps a counter", hooks = { moves = function(moves)
          n = n + 1
          local s = {} for i = 1, 8 do s[i] = string.rep("l", 1024 * 1024) end -- garbage
          return #s > 0 and moves
        end } }]])
      local all = #assert(diloti.new{ position = EX1 }):moves()
      local mine = { string.rep("u", 100 * MIB) }
      local stopped = hook_calls(40, one_game(spec, dirs), function(ok, res, i)
        mine[#mine + 1] = string.rep("u", 4 * MIB + i) -- and it grows between calls
        assert(ok, res)
        assert.equals(all, #res)
      end)
      assert.equals(0, stopped)
      assert.is_true(#mine[1] + #mine[41] > 0)
    end)
  end)
end)
