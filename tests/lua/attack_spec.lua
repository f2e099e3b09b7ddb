-- Attacks on the sandbox from AI scripts and rules variant scripts alike
-- (issue 7), beyond what sandbox_spec.lua and ai_spec.lua already try:
-- every way out through files, processes and bytecode, from every hook;
-- escapes through metatables and the shared string metatable; runaway
-- loops, memory bombs and deep recursion in every hook; huge return
-- values; coroutines; hidden cards read through any helper an AI is
-- given; memory hoarded across calls. Each must fail with a clear
-- message, and the game goes on: an AI loses that one decision (a
-- fallback is played), a broken variant is refused when it loads or its
-- hook's failure is reported.
--
-- Attempts that could hang this process run in child processes that are
-- killed after a few seconds.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local ai = require "diloti.ai"
local sandbox = diloti.sandbox

local EX1 = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c"
local LAST = "hands=Jc / 10h; table=10s Jd; deal=4; ply=46; pack=-"
local FALLBACK = "8h x 2c 3h 5s 6d 8c"
local CHILD_SECONDS = 8
local REAL_STRING_INDEX = getmetatable("").__index

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

local function mib() return collectgarbage("count") / 1024 end

--- The host's string metatable is the real one again, and intact.
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
  assert.is_true(g:play(move))
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
  assert.is_true(g:play("Jc x Jd"))
  local ok, warn = g:play("10h x 10s")
  strings_intact()
  assert.is_true(ok)
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
  assert.is_true(g:play("Jc x Jd"))
  local ok, warn = g:play("10h x 10s")
  strings_intact()
  assert.is_true(ok)
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

describe("sandbox attacks", function()
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

    it("finds nothing dangerous anywhere in a fresh environment (walked from the host)", function()
      local bad = {}
      for _, lib in ipairs{ "io", "os", "debug", "coroutine", "package" } do
        for _, f in pairs(_G[lib]) do if type(f) == "function" then bad[f] = lib end end
      end
      for _, k in ipairs{ "load", "loadfile", "dofile", "require", "collectgarbage", "getmetatable", "rawset",
                          "setmetatable", "print" } do
        bad[_G[k]] = k
      end
      bad[string.dump] = "string.dump"
      local seen = {}
      local function walk(v, path)
        if seen[v] then return end
        if type(v) == "function" then
          assert(not bad[v], "reachable from a sandbox: " .. path .. " (" .. tostring(bad[v]) .. ")")
        elseif type(v) == "table" then
          seen[v] = true
          for k, x in pairs(v) do walk(x, path .. "." .. tostring(k)) end
        end
      end
      walk(sandbox.env(), "env")
    end)
  end)

  describe("escapes through metatables", function()
    it("a string's methods are the sandbox's copy, and ('').x finds nothing", function()
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

    it("cannot change the metatable of the views and lists it is given", function()
      choose_fails([[
        local ok = pcall(setmetatable, view, {})
        local ok2 = pcall(setmetatable, view.hand, { __index = function() return "Ac" end })
        view.hand[1] = "Ac"]], "read%-only|protected")
    end)

    it("cannot reach a finalizer through an __index that adds __gc while setmetatable looks (child)", function()
      local child = support.spawn([[
local diloti = require "diloti"
local sandbox = diloti.sandbox
local fn = assert(sandbox.load([==[
  local mt = {}
  setmetatable(mt, { __index = function(t, k)
    if k == "__gc" then t.__gc = function() while true do end end end
  end })
  setmetatable({}, mt)
  return "set"]==], "=gc"))
print("CALL", sandbox.call(fn))
collectgarbage() collectgarbage()
print("RESULT collected")]], CHILD_SECONDS)
      local out, code = child.wait()
      assert(code ~= 124, "the finalizer ran outside the budget (killed): " .. out)
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
      for _, src in ipairs{ "return ('x'):upper()", "error('boom')", "while true do end",
                            "local t = {} while true do t[#t + 1] = ('x'):rep(1000) .. #t end" } do
        sandbox.call({ budget = 200000, memory = 1 << 20, time = 0.2 }, assert(sandbox.load(src, "=s")))
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
    -- (a variant's load budget is small: it may run out of instructions first)
    everywhere("a table that grows for ever", "local t = {} while true do t[#t + 1] = { #t } end",
      "memory cap exceeded|not enough memory|instruction budget exceeded")
    everywhere("a string doubled for ever", "local s = 'x' while true do s = s .. s end",
      "memory cap exceeded|not enough memory")
    everywhere("string.rep of a gigabyte", "local s = string.rep('x', 1 << 30)",
      "memory cap exceeded|not enough memory")
    everywhere("table.concat of a huge list",
      "local t = {} for i = 1, 100 do t[i] = ('x'):rep(1 << 20) end local s = table.concat(t, table.concat(t))",
      "memory cap exceeded|not enough memory")
    everywhere("string.format with a huge width", "local s = string.format('%999999999d', 1)",
      "invalid conversion")

    it("frees what a bomb took", function()
      collectgarbage()
      local before = mib()
      choose_fails("local s = 'x' while true do s = s .. s end", "memory cap exceeded")
      collectgarbage()
      assert.is_true(mib() - before < 16)
    end)
  end)

  describe("deep recursion", function()
    everywhere("plain Lua recursion", "local function f(n) return 1 + f(n + 1) end f(1)",
      "stack overflow|memory cap exceeded|instruction budget exceeded")
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
    it("an AI returning a million-element table, a huge string or a huge note loses the decision quickly", function()
      local t0 = os.clock()
      choose_fails("local t = {} for i = 1, 1000000 do t[i] = moves[1] end return t", "not a move")
      choose_fails("return string.rep('8h x 8c ', 1000000)", "not a move")
      choose_fails("return setmetatable({}, { __index = function() return moves[1] end })", "not a move")
      assert.is_true(os.clock() - t0 < 10)
      local p = assert(player_of([[
        return { name = NAME, description = "x", choose = function(view, moves)
          return moves[1], string.rep("\1", 10000000)
        end }]]))
      local _, info = p:choose(assert(diloti.new{ position = EX1 }), 0)
      assert.is_nil(info.fallback)
      assert.equals(200, #info.note)
      assert.is_nil(info.note:find("\1", 1, true))
    end)

    it("an AI's hooks returning huge values are ignored", function()
      local p = assert(player_of([[
        local big = {}
        return { name = NAME, description = "x",
          choose = function(_, moves) return moves[1] end,
          on_event = function() local t = {} for i = 1, 500000 do t[i] = i end return t, ("x"):rep(1 << 24) end,
          on_round_end = function() return ("y"):rep(1 << 24) end }]]))
      local g = assert(diloti.new{ position = LAST })
      local r = ai.play(g, { [0] = p, [1] = assert(ai.player("greedy")) })
      assert.same({}, r.warnings)
      assert.equals("round-over", g:phase())
    end)

    it("a moves hook returning millions of moves is refused at once", function()
      local t0 = os.clock()
      moves_hook_fails("local t = {} for i = 1, 2000000 do t[i] = a[1] end return t", "more than the %d+ legal")
      assert.is_true(os.clock() - t0 < 5)
    end)

    it("a moves hook returning a huge reason for a veto", function()
      local v = assert(variant("veto", hook_variant("veto", "moves", [[
        local kept, why = {}, {}
        for i, m in ipairs(a) do if i > 1 then kept[#kept + 1] = m else why[m.text] = ("no"):rep(1 << 20) end end
        return kept, why]])))
      local g = assert(diloti.new{ rules = {}, hooks = v.hooks, position = EX1 })
      local first = g:moves()[1]
      local refused = assert(diloti.new{ rules = {}, position = EX1 }):moves()[1]
      assert.are_not.equal(refused, first)
      local ok, why = g:play(refused)
      assert.is_nil(ok)
      assert.is_string(why)
      game_goes_on()
    end)

    it("a score hook returning a huge or strange breakdown leaves standard scoring", function()
      score_hook_fails("return { [0] = { total = ('9'):rep(1 << 20) }, [1] = a[1] }", "bad breakdown")
      score_hook_fails("return { [0] = { total = 1e300 }, [1] = a[1] }", "bad breakdown")
      -- anything but a table leaves the breakdown as it was (the hook
      -- declined to change it)
      local v = assert(variant("shs", hook_variant("shs", "score", "return ('x'):rep(1 << 24)")))
      local g = assert(diloti.new{ rules = {}, hooks = v.hooks, position = LAST })
      assert.is_true(g:play("Jc x Jd"))
      assert.is_true(g:play("10h x 10s"))
      assert.equals(13, g:result().score[1])
      game_goes_on()
    end)

    it("a match hook returning a huge string", function()
      local v = assert(variant("mhs", hook_variant("mhs", "match", "return ('x'):rep(1 << 24)")))
      local g = assert(diloti.new{ rules = {}, hooks = v.hooks, position = LAST .. "; score=60 60" })
      assert.is_true(g:play("Jc x Jd"))
      local ok = g:play("10h x 10s")
      assert.is_true(ok)
      assert.is_string(g:phase())
      game_goes_on()
    end)

    it("a variant whose main chunk returns a huge table is refused quickly", function()
      local t0 = os.clock()
      -- built by one C call, so the load budget does not stop it; the
      -- loader's copy of it must not take long either
      local v, why = variant("hugev", "local t = { string.byte(string.rep('x', 900000), 1, -1) } "
        .. "t.name = 'hugev' t.description = 'x' return t")
      assert.is_nil(v)
      assert.matches("hugev%.lua: unknown field", why)
      assert.is_true(os.clock() - t0 < 5)
    end)

    it("a rules function returning a huge message is refused", function()
      rules_fn_fails("return ('x'):rep(1 << 24)", "^rules: rf:")
    end)
  end)

  describe("coroutines", function()
    everywhere("coroutine.wrap", "local co = coroutine.wrap(function() end)", "global 'coroutine'")
    everywhere("coroutine through _G", "local c = _G.coroutine.yield()", "field 'coroutine'|nil value")

    it("no coroutine function is reachable from ctx, the view or the moves (walked from the host)", function()
      local p = assert(player_of([[
        local kept
        return { name = NAME, description = "x", choose = function(view, moves, ctx)
          kept = { view = view, moves = moves, ctx = ctx, env = _ENV }
          return moves[1]
        end }]]))
      p:choose(assert(diloti.new{ position = EX1 }), 0)
      local kept
      for i = 1, 10 do
        local name, value = debug.getupvalue(p.script.choose, i)
        if name == "kept" then kept = value end
        if not name then break end
      end
      assert.is_table(kept)
      local bad = {}
      for _, lib in ipairs{ "coroutine", "io", "os", "debug", "package" } do
        for _, f in pairs(_G[lib]) do if type(f) == "function" then bad[f] = lib end end
      end
      for _, k in ipairs{ "load", "loadfile", "dofile", "require", "collectgarbage", "getmetatable", "rawset" } do
        bad[_G[k]] = k
      end
      bad[string.dump] = "string.dump"
      local seen = {}
      local function walk(v, path, depth)
        if seen[v] or depth > 8 then return end
        if type(v) == "function" then
          assert(not bad[v], path .. " is " .. tostring(bad[v]))
          seen[v] = true
          for i = 1, 60 do
            local name, up = debug.getupvalue(v, i)
            if not name then break end
            -- the ctx helpers close over the engine's own objects (the
            -- game, the driver): those are host values, not the script's
            if type(up) == "function" then walk(up, path .. "^" .. name, depth + 1) end
          end
        elseif type(v) == "table" then
          seen[v] = true
          for k, x in next, v do walk(x, path .. "." .. tostring(k), depth + 1) end
        end
      end
      walk(kept.ctx, "ctx", 0)
      walk(kept.env, "env", 0)
      walk(kept.moves, "moves", 0)
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
    it("an AI hoarding memory across decisions loses a decision and is restarted; the heap stays bounded", function()
      collectgarbage()
      local before = mib()
      local p = assert(player_of([[
        local hoard = {}
        return { name = NAME, description = "hoards", choose = function(_, moves)
          hoard[#hoard + 1] = string.rep("x", 6 * 1024 * 1024 + #hoard)
          return moves[1], tostring(#hoard)
        end }]], { memory = 16 * 1024 * 1024 }))
      local g = assert(diloti.new{ position = EX1 })
      local restarted, peak = 0, 0
      for _ = 1, 15 do
        local _, info = p:choose(g, 0)
        if info.fallback then
          restarted = restarted + 1
          assert.matches("keeps %d+ MiB between calls, more than the 16 MiB cap; it was restarted", info.warning)
        end
        peak = math.max(peak, mib() - before)
      end
      assert.is_true(restarted >= 2, "never restarted")
      assert.is_true(peak < 80, "the heap grew to " .. peak .. " MiB")
      p = nil -- luacheck: ignore
      collectgarbage()
      assert.is_true(mib() - before < 16)
      game_goes_on()
    end)

    it("an AI is charged only for what it keeps, not for the host's memory", function()
      -- The host (a long session, a tournament) may grow by far more than
      -- an AI's cap while the AI holds almost nothing: no restart then.
      local p = assert(player_of([[
        local n, kept = 0, {}
        return { name = NAME, description = "modest", choose = function(_, moves, ctx)
          n = n + 1
          kept[n] = ctx -- its helpers reach the host's game: not the script's memory
          return moves[1], tostring(n)
        end }]], { memory = 16 * 1024 * 1024 }))
      local g = assert(diloti.new{ position = EX1 })
      local host = {}
      for i = 1, 6 do
        host[i] = string.rep("h", 8 * 1024 * 1024 + i) -- 48 MiB in all, held by the host
        local _, info = p:choose(g, 0)
        assert.is_nil(info.fallback, info.warning)
        assert.equals(tostring(i), info.note) -- the same script all along
      end
      assert.equals(6, #host)
      host = nil -- luacheck: ignore
      collectgarbage()
    end)

    it("an AI whose script fails to load again after a restart loses its decisions, the game goes on", function()
      -- Its main chunk fails from the second load on (math.random follows
      -- the player's seed, so the second load draws another number).
      local probe = assert(player_of([[return { name = NAME, description = "d" .. math.random(1, 1000000),
        choose = function(_, moves) return moves[1] end }]]))
      local first = probe.description:sub(2)
      local p = assert(player_of([[
        local hoard = {}
        if math.random(1, 1000000) ~= ]] .. first .. [[ then error("second load") end
        return { name = NAME, description = "fragile", choose = function(_, moves)
          hoard[#hoard + 1] = string.rep("x", 6 * 1024 * 1024 + #hoard)
          return moves[1]
        end }]], { memory = 16 * 1024 * 1024 }))
      local g = assert(diloti.new{ position = EX1 })
      local seen
      for _ = 1, 8 do
        local mv, info = p:choose(g, 0)
        assert.is_true(g:check(mv))
        if info.fallback and info.warning:find("restarting it failed") then seen = true end
      end
      assert.is_true(seen, "never told that the restart failed")
    end)

    it("an AI hoarding in on_event is restarted too, and the round ends", function()
      local p = assert(player_of([[
        local hoard = {}
        return { name = NAME, description = "hoards",
          choose = function(_, moves) return moves[1] end,
          on_event = function() hoard[#hoard + 1] = string.rep("y", 6 * 1024 * 1024 + #hoard) end }]],
        { memory = 16 * 1024 * 1024 }))
      local g = assert(diloti.new{ seed = 3 })
      local r = ai.play(g, { [0] = p, [1] = assert(ai.player("random")) })
      assert.equals("round-over", g:phase())
      assert.matches("it was restarted", table.concat(r.warnings, "\n"))
      collectgarbage()
      assert.is_true(mib() < 200)
    end)

    it("an AI that churns garbage every decision but keeps nothing is never restarted", function()
      local p = assert(player_of([[
        return { name = NAME, description = "churns", choose = function(_, moves)
          local t = {} for i = 1, 20000 do t[i] = { i } end
          local s = string.rep("z", 4 * 1024 * 1024)
          return moves[#s % #moves + 1]
        end }]], { memory = 16 * 1024 * 1024 }))
      local g = assert(diloti.new{ seed = 4 })
      local r = ai.play(g, { [0] = p, [1] = assert(ai.player("random")) })
      assert.same({}, r.warnings)
    end)

    -- A variant's hooks are closures loaded once: the per-call cap bounds
    -- each call, and each variant has an account of what it keeps between
    -- calls. One that keeps too much fails that call naming itself, is
    -- restarted from its source, and the next call works.
    local KEPT = "memory cap exceeded in variant '%s': it keeps %%d+ MiB between calls, more than the 64 MiB cap; "
      .. "it was restarted"

    --- A variant in a folder of its own, used by name as a table would;
    -- returns the rules spec and the folder list.
    local function variant_dir(name, src)
      local dir = tmp .. "/vd-" .. name
      os.execute("mkdir -p " .. support.q(dir))
      support.write(dir .. "/" .. name .. ".lua", src)
      return "diloti+" .. name, { dir }
    end

    it("a moves hook keeping 8 MiB a call is stopped near the cap; the game goes on", function()
      local spec, dirs = variant_dir("hogm", [[
        local hoard = {}
        return { name = "hogm", description = "hoards", hooks = { moves = function(moves)
          hoard[#hoard + 1] = string.rep("m", 8 * 1024 * 1024 + #hoard)
          return moves
        end } }]])
      local g = assert(diloti.new{ rules = spec, rules_dirs = dirs, position = EX1 })
      local all = #assert(diloti.new{ position = EX1 }):moves()
      collectgarbage()
      local before = mib()
      local stopped, peak, last_failed = 0, 0, false
      for _ = 1, 40 do
        local ok, res = pcall(g.moves, g)
        if ok then
          assert.equals(all, #res)
          last_failed = false
        else
          assert.is_false(last_failed, "two calls failed in a row: " .. res)
          assert.matches("^house rule %(moves hook%) failed: " .. KEPT:format("hogm"), res)
          stopped, last_failed = stopped + 1, true
        end
        peak = math.max(peak, mib() - before)
      end
      assert.is_true(stopped >= 4, "stopped " .. stopped .. " times")
      -- (unchecked it would hold 320 MiB; the account lets it reach the
      -- cap plus what one call keeps)
      assert.is_true(peak < 100, "the heap grew to " .. peak .. " MiB")
      assert.is_true(g:play(FALLBACK))
      g = nil -- luacheck: ignore
      collectgarbage()
      -- (the catalogue keeps the variant, and what it holds, under the cap)
      assert.is_true(mib() - before < 80)
      game_goes_on()
    end)

    it("a score hook keeping 8 MiB a round is stopped too; standard scoring for that round only", function()
      local v = assert(variant("hogs", [[
        local hoard = {}
        return { name = "hogs", description = "hoards", hooks = { score = function(s)
          hoard[#hoard + 1] = string.rep("s", 8 * 1024 * 1024 + #hoard)
          s[0].total = s[0].total + 1
          return s
        end } }]]))
      collectgarbage()
      local before = mib()
      local stopped, peak = 0, 0
      for _ = 1, 40 do
        local g = assert(diloti.new{ rules = {}, hooks = v.hooks, position = LAST })
        assert.is_true(g:play("Jc x Jd"))
        local ok, warn = g:play("10h x 10s")
        assert.is_true(ok)
        assert.equals("round-over", g:phase())
        if warn then
          assert.matches("^house rule %(score hook%) failed, standard scoring used: " .. KEPT:format("hogs"), warn)
          assert.equals(4, g:result().score[0])
          stopped = stopped + 1
        else
          -- the hook ran (after a restart too): its point is in the score
          assert.equals(5, g:result().score[0])
        end
        peak = math.max(peak, mib() - before)
      end
      assert.is_true(stopped >= 4, "stopped " .. stopped .. " times")
      assert.is_true(peak < 100, "the heap grew to " .. peak .. " MiB")
      game_goes_on()
    end)

    it("a hook that keeps memory and then fails (an error, the budget) is stopped all the same", function()
      local v = assert(variant("hogf", [[
        local hoard = {}
        return { name = "hogf", description = "hoards", hooks = { moves = function()
          hoard[#hoard + 1] = string.rep("f", 8 * 1024 * 1024 + #hoard)
          if #hoard % 2 == 0 then while true do end end
          error("nothing to see")
        end } }]]))
      local g = assert(diloti.new{ rules = {}, hooks = v.hooks, position = EX1 })
      collectgarbage()
      local before = mib()
      local stopped, peak = 0, 0
      for _ = 1, 30 do
        local ok, why = pcall(g.moves, g)
        assert.is_false(ok)
        if why:find("memory cap exceeded", 1, true) then
          assert.matches(KEPT:format("hogf"), why)
          stopped = stopped + 1
        else
          assert.is_truthy(why:find("nothing to see", 1, true)
            or why:find("instruction budget exceeded in variant 'hogf' (moves hook)", 1, true), why)
        end
        peak = math.max(peak, mib() - before)
      end
      assert.is_true(stopped >= 2, "stopped " .. stopped .. " times")
      assert.is_true(peak < 100, "the heap grew to " .. peak .. " MiB")
      game_goes_on()
    end)

    it("a hook keeping only its arguments (built by the C side, a few KB a call) is stopped too", function()
      local v = assert(variant("argk", [[
        local keep = {}
        return { name = "argk", description = "keeps what it is given", hooks = { moves = function(moves, state)
          keep[#keep + 1] = moves
          keep[#keep + 1] = state
          return moves
        end } }]]))
      local g = assert(diloti.new{ rules = {}, hooks = v.hooks, position = EX1 })
      collectgarbage()
      local before = mib()
      local stopped, peak = 0, 0
      for i = 1, 8000 do
        local ok, why = pcall(g.moves, g)
        if not ok then
          assert.matches(KEPT:format("argk"), why)
          stopped = stopped + 1
        end
        if i % 100 == 0 then peak = math.max(peak, mib() - before) end
      end
      assert.is_true(stopped >= 1, "never stopped")
      assert.is_true(peak < 100, "the heap grew to " .. peak .. " MiB")
    end)

    it("a hook keeping what another variant's hook handed on is the one stopped", function()
      local dir = tmp .. "/vd-chain"
      os.execute("mkdir -p " .. support.q(dir))
      support.write(dir .. "/giver.lua", [[
        local n = 0
        return { name = "giver", description = "hands on a lot", hooks = { moves = function(moves)
          n = n + 1
          moves[1].pad = string.rep("g", 8 * 1024 * 1024 + n)
          return moves
        end } }]])
      support.write(dir .. "/keeper.lua", [[
        local keep = {}
        return { name = "keeper", description = "keeps it", hooks = { moves = function(moves)
          keep[#keep + 1] = moves[1]
          return moves
        end } }]])
      local g = assert(diloti.new{ rules = "diloti+giver+keeper", rules_dirs = { dir }, position = EX1 })
      collectgarbage()
      local before = mib()
      local stopped, peak = 0, 0
      for _ = 1, 40 do
        local ok, why = pcall(g.moves, g)
        if not ok then
          assert.matches(KEPT:format("keeper"), why)
          stopped = stopped + 1
        end
        peak = math.max(peak, mib() - before)
      end
      assert.is_true(stopped >= 4, "stopped " .. stopped .. " times")
      assert.is_true(peak < 100, "the heap grew to " .. peak .. " MiB")
    end)

    it("a rules function keeping memory from table to table is stopped too", function()
      local spec, dirs = variant_dir("hogr", [[
        local hoard = {}
        return { name = "hogr", description = "hoards", rules = function(r)
          hoard[#hoard + 1] = string.rep("r", 8 * 1024 * 1024 + #hoard)
          r.target = 61
        end }]])
      collectgarbage()
      local before = mib()
      local stopped, peak = 0, 0
      for _ = 1, 30 do
        local g, why = diloti.new{ rules = spec, rules_dirs = dirs }
        if not g then
          assert.matches("^rules: variant 'hogr' failed: " .. KEPT:format("hogr"), why)
          stopped = stopped + 1
        end
        peak = math.max(peak, mib() - before)
      end
      assert.is_true(stopped >= 2, "stopped " .. stopped .. " times")
      assert.is_true(peak < 100, "the heap grew to " .. peak .. " MiB")
    end)

    it("a hook churning garbage, or holding a large table from its load, is never stopped", function()
      local v = assert(variant("churn", [[
        local big = string.rep("b", 24 * 1024 * 1024)
        local seen = {}
        return { name = "churn", description = "churns", hooks = { moves = function(moves)
          local t = {} for i = 1, 20000 do t[i] = { i } end
          local s = string.rep("z", 16 * 1024 * 1024 + #t)
          seen[#moves] = #s + #big -- a few bytes kept, the same key each time
          return moves
        end } }]]))
      local g = assert(diloti.new{ rules = {}, hooks = v.hooks, position = EX1 })
      local all = #assert(diloti.new{ position = EX1 }):moves()
      for _ = 1, 40 do assert.equals(all, #g:moves()) end
    end)

    it("memory the session holds itself does not count against a variant", function()
      local v = assert(variant("light", [[
        local n = 0
        return { name = "light", description = "keeps a counter", hooks = { moves = function(moves)
          n = n + 1
          local s = string.rep("l", 8 * 1024 * 1024 + n) -- garbage: the account walks often
          return #s > 0 and moves
        end } }]]))
      local g = assert(diloti.new{ rules = {}, hooks = v.hooks, position = EX1 })
      local all = #assert(diloti.new{ position = EX1 }):moves()
      local mine = { string.rep("u", 100 * 1024 * 1024) }
      for i = 1, 40 do
        mine[#mine + 1] = string.rep("u", 4 * 1024 * 1024 + i) -- and it grows between calls
        assert.equals(all, #g:moves())
      end
      assert.is_true(#mine[1] + #mine[41] > 0)
    end)
  end)
end)
