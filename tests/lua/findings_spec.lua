-- The seven findings of issue 13 (scripts in Lua states of their own), each
-- tried the way the attacker did, and the functions a script can reach
-- called with arguments of every type and size. Written to fail on the
-- design before (one Lua state shared by the host and every script).
--
-- Anything that crashed or hung the old design runs in a child process
-- (support.spawn, support.cli) that is killed after a while, so that this
-- suite reports a failure instead of dying with the program.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local ai = require "diloti.ai"
local learn = require "diloti.teach.learn"

local EX1 = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c"
local FALLBACK = "8h x 2c 3h 5s 6d 8c"
-- A crowded table: 11,700 legal moves.
local CROWDED = "hands=10h 9h 8h 7h 6h / 10s 9s 8s 7s 6s; table=Ac 2c 3c 4c 5c 6c 7c 8c 9c Ad 2d 3d 4d 5d; pack=-"

--- A one-step lesson's source: main runs in its main chunk, accept in
-- its accept function (before the answer), on EX1.
local function lesson_src(id, title, main, accept)
  return string.format([[
%s
return {
  id = %q, title = %q, rules = { "D11" },
  steps = { { text = "Take.", position = %q,
    accept = function(m) %s return m.kind == "capture" end, wrong = "D11: take it" } },
}]], main, id, title, EX1, accept)
end

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

local n = 0
--- Writes a file into this spec's folder (a subfolder per call when `dir`).
local function file(name, text, dir)
  n = n + 1
  local d = tmp .. "/" .. (dir or ("d" .. n))
  os.execute("mkdir -p " .. support.q(d))
  return support.write(d .. "/" .. name, text), d
end

--- An AI script whose choose() runs `body` (NAME is its name).
local function ai_file(name, body, extra)
  return file(name .. ".lua", "return { name = '" .. name .. "', description = 'attack', "
    .. (extra or "") .. "choose = function(view, moves, ctx)\n" .. body .. "\nend }")
end

--- Runs Lua code in a child process that loads the module like this one;
-- returns its output and exit status (124: killed after `seconds`).
-- Under AddressSanitizer the child keeps no freed memory in quarantine,
-- so that what it measures of its memory is the program's.
local function child(code, seconds)
  local script = support.write(tmp .. "/child" .. n .. ".lua",
    "local diloti = require 'diloti'\nlocal ai = require 'diloti.ai'\n" .. code)
  n = n + 1
  local asan = os.getenv("ASAN_OPTIONS")
  local cmd = string.format("%sLUA_CPATH=%s timeout %d %s %s 2>&1",
    asan and ("ASAN_OPTIONS=" .. support.q(asan .. ":quarantine_size_mb=0") .. " ") or "",
    support.q(package.cpath), seconds or 20, support.q(support.lua), support.q(script))
  local p = assert(io.popen(cmd, "r"))
  local out = p:read("a")
  local _, _, status = p:close()
  return out, status
end

--- Plays one decision of the AI in `path` on EX1 in a child; prints the
-- move, whether it was a fallback, its warning and the CPU seconds.
local function decide_in_child(path, opts, seconds)
  return child(string.format([[
local p = assert(ai.player(%q, %s))
local g = assert(diloti.new{ position = %q })
local move, info = p:choose(g, 0)
print("MOVE", move, "FALLBACK", tostring(info.fallback), "SECONDS", info.seconds)
print("WARNING", info.warning)
assert(g:play(move))
print("DONE")
]], path, opts or "{}", EX1), seconds)
end

describe("finding 1: type confusion through the host's functions", function()
  it("pairs(view) hands out a plain next: calling it on another table is a clean error, never a crash", function()
    local path = ai_file("tc1", "local nxt = pairs(view); nxt({}, 'x'); return moves[1]")
    local out, code = decide_in_child(path)
    assert.equals(0, code, out)
    assert.matches("DONE", out)
    assert.matches("FALLBACK\ttrue", out)
    assert.matches("invalid key to 'next'", out)
  end)

  it("a fake table forged through __index cannot steer what next reads (the attack's next step)", function()
    local path = ai_file("tc2", [[
      local nxt = pairs(view)
      local ok = pcall(nxt, setmetatable({}, { __index = 12345678 }), "x")
      ok = pcall(nxt, setmetatable({}, { __index = 0x7fffffff }), 1)
      return moves[1] ]])
    local out, code = decide_in_child(path)
    assert.equals(0, code, out)
    assert.matches("DONE", out)
  end)

  it("the same from a house rule's hook, whose state is a plain table too", function()
    local _, dir = file("tc.lua", [[
return { name = "tc", description = "x", hooks = { moves = function(moves, state)
  local nxt = pairs(state)
  pcall(nxt, {}, "x")
  assert(getmetatable == nil)
  return moves
end } }]])
    local out, _, code = support.cli({ "--rules", "diloti+tc", "--rules-dir", dir, "moves", EX1 })
    assert.equals(0, code)
    assert.matches("8h x 8c", out)
  end)

  it("no address reaches a script: tostring, string.format's %s and %p", function()
    local box = diloti.box.new{ label = "addresses" }
    local ok, a, b, c, d, e = box:run([[
      local t, f = {}, function() end
      local p_ok, p_err = pcall(string.format, "%p", t)
      return tostring(t), tostring(f), string.format("%s %s %s", t, f, print), tostring(tostring),
        (p_ok and "formatted" or p_err)
    ]], "=addresses")
    assert.is_true(ok, a)
    for _, s in ipairs{ a, b, c, d } do
      assert.is_nil(s:match("0x%x+"), s)
      assert.is_nil(s:match("%x%x%x%x%x%x"), s)
    end
    assert.equals("table", a)
    assert.equals("function", b)
    assert.matches("'%%p' is not available", e)
  end)

  it("nothing a script can reach is a userdata, a thread or a host function", function()
    local box = diloti.box.new{ label = "walk", budget = 100000000, time = 30 }
    local ok, kinds = box:run([[
      local seen, kinds, stack = {}, {}, { _G, "" }
      stack[#stack + 1] = getmetatable
      local i = 1
      while i <= #stack do
        local v = stack[i]
        i = i + 1
        local t = type(v)
        kinds[t] = (kinds[t] or 0) + 1
        if t == "table" and not seen[v] then
          seen[v] = true
          for k, x in next, v do stack[#stack + 1] = k; stack[#stack + 1] = x end
        end
      end
      return kinds
    ]], "=walk")
    assert.is_true(ok, kinds)
    assert.is_nil(kinds.userdata)
    assert.is_nil(kinds.thread)
    assert.is_true(kinds["function"] > 50)
  end)
end)

describe("finding 2: one C call outruns every limit", function()
  local function refused_quickly(body, pattern)
    local path = ai_file("cc" .. (n + 1), body)
    local out, code = decide_in_child(path, "{ time = 1 }", 15)
    assert.equals(0, code, out)
    assert.matches("FALLBACK\ttrue", out)
    assert.matches(pattern, out)
    local secs = tonumber(out:match("SECONDS\t([%d.e-]+)"))
    assert(secs and secs < 2, "the decision took " .. tostring(secs) .. " s under a 1 s limit")
  end

  it("a backtracking pattern", function()
    refused_quickly([[("a"):rep(1e5):find(".-b") return moves[1] ]], "pattern too costly")
  end)

  it("a back-reference", function()
    refused_quickly([[("a"):rep(5e4):find("(a+)%1b") return moves[1] ]], "pattern too costly")
  end)

  it("a plain find with a 1 MB needle answers at once", function()
    local path = ai_file("cc-plain", [[
      local s = ("a"):rep(1e6)
      assert(s:find(("a"):rep(5e5) .. "b", 1, true) == nil)
      return moves[1] ]])
    local out, code = decide_in_child(path, "{ time = 1 }", 15)
    assert.equals(0, code, out)
    assert.matches("FALLBACK\tnil", out)
  end)

  it("table.move of four million elements", function()
    refused_quickly([[local t = {} table.move(t, 1, 1 << 22, 2) return moves[1] ]], "table.move: more than")
  end)

  it("string.rep of an empty string a huge number of times is answered at once", function()
    local path = ai_file("cc-rep", [[assert(("").rep("", 1 << 62) == "") return moves[1] ]])
    local out, code = decide_in_child(path, "{ time = 1 }", 15)
    assert.equals(0, code, out)
    assert.matches("FALLBACK\tnil", out)
  end)

  it("a loop of costly calls stops at the time limit, not several times over", function()
    local path = ai_file("cc-loop", [[
      local s = ("x"):rep(1 << 20)
      while true do s = s:upper():lower() end ]])
    local out, code = decide_in_child(path, "{ time = 0.3, budget = 1e12 }", 30)
    assert.equals(0, code, out)
    assert.matches("time limit exceeded", out)
    local secs = tonumber(out:match("SECONDS\t([%d.e-]+)"))
    -- (a limit, not a speed: the old design let this run ten times over)
    assert(secs and secs < 0.6, "a 0.3 s decision took " .. tostring(secs) .. " s")
  end)

  -- Each entry point but choose() had no clock at all: a loop of costly
  -- calls under the instruction budget ran for minutes.
  local SLOW = [[local s = ("x"):rep(1 << 20) for _ = 1, 1e6 do s = s:upper() end]]

  it("a variant's main chunk has a time limit (diloti rules)", function()
    local _, dir = file("slowv.lua", SLOW .. "\nreturn { name = 'slowv', description = 'x' }")
    local _, err, code = support.cli({ "--rules-dir", dir, "rules" })
    assert.are_not.equal(124, code)
    assert.matches("slowv.lua.*time limit exceeded", err)
  end)

  it("a moves hook has a time limit (diloti moves)", function()
    local _, dir = file("slowh.lua", "return { name = 'slowh', description = 'x', hooks = { moves = function(m)\n"
      .. SLOW .. "\nreturn m end } }")
    local _, err, code = support.cli({ "--rules", "diloti+slowh", "--rules-dir", dir, "moves", EX1 })
    assert.are_not.equal(124, code)
    assert.matches("time limit exceeded in variant 'slowh' %(moves hook%)", err)
  end)

  it("a rules function has a time limit", function()
    local _, dir = file("slowr.lua", "return { name = 'slowr', description = 'x', rules = function(r)\n"
      .. SLOW .. "\nend }")
    local _, err, code = support.cli({ "--rules", "diloti+slowr", "--rules-dir", dir, "moves", EX1 })
    assert.are_not.equal(124, code)
    assert.matches("time limit exceeded in variant 'slowr' %(rules function%)", err)
  end)

  it("an AI's main chunk has a time limit (diloti ai)", function()
    local _, dir = file("slowai.lua",
      SLOW .. "\nreturn { name = 'slowai', description = 'x', choose = function() end }")
    local _, err, code = support.cli({ "ai", "--ai-dir", dir })
    assert.are_not.equal(124, code)
    assert.matches("slowai.lua.*time limit exceeded", err)
  end)

  it("a lesson's main chunk has a time limit (diloti learn --check)", function()
    local path = file("90-slow.lua", lesson_src("90-slow", "Slow", SLOW, ""))
    local out, err, code = support.cli({ "learn", "--check", path })
    assert.are_not.equal(124, code)
    assert.matches("time limit exceeded", out .. err)
  end)

  it("a lesson's accept function has a time limit (diloti learn --check)", function()
    local path = file("90-slow.lua", lesson_src("90-slow", "Slow", "", SLOW))
    local out, err, code = support.cli({ "learn", "--check", path })
    assert.are_not.equal(124, code)
    assert.equals(1, code, out .. err)
    -- (said as it is, at the first move: not "accepts none of the legal
    -- moves" after one time limit per legal move, 14 s)
    assert.matches("step 1: the step's accept function failed on .-: .*time limit exceeded", out .. err)
  end)
end)

-- A message handler runs where its error was raised; a limit's error is
-- raised in the count hook, where Lua runs no hook: a handler that loops
-- there ran for ever (a helper's attack on the lessons). Every place an
-- untrusted script runs, each stopped by its limit.
describe("a message handler (xpcall) that loops", function()
  local LOOP = "xpcall(function() while true do end end, function() while true do end end)"

  it("in a lesson's accept function and its main chunk (diloti learn --check)", function()
    for _, src in ipairs{ lesson_src("91-handler", "Handler", "", LOOP),
                          lesson_src("91-handler", "Handler", LOOP, "") } do
      local out, err, code = support.cli({ "learn", "--check", (file("91-handler.lua", src)) })
      assert.equals(1, code, out .. err)
      assert.matches("instruction budget exceeded", out .. err)
    end
  end)

  it("in an AI's choose and its main chunk", function()
    local out, code = decide_in_child(ai_file("xh", LOOP), nil, 15)
    assert.equals(0, code, out)
    assert.matches("instruction budget exceeded", out)
    local _, dir = file("xhmain.lua",
      LOOP .. "\nreturn { name = 'xhmain', description = 'x', choose = function() end }")
    local _, err2, code2 = support.cli({ "ai", "--ai-dir", dir })
    assert.are_not.equal(124, code2)
    assert.matches("xhmain.lua.*instruction budget exceeded", err2)
  end)

  it("in a house rule's moves hook", function()
    local _, dir = file("xhv.lua", "return { name = 'xhv', description = 'x', hooks = { moves = function(m)\n"
      .. LOOP .. "\nreturn m end } }")
    local _, err, code = support.cli({ "--rules", "diloti+xhv", "--rules-dir", dir, "moves", EX1 })
    assert.are_not.equal(124, code)
    assert.matches("instruction budget exceeded in variant 'xhv' %(moves hook%)", err)
  end)
end)

describe("a script's error text of a megabyte", function()
  -- It reached the screen, the match report and a room's players whole.
  local BIG = "error(('boom '):rep(200000), 0)"
  local CUT = "%.%.%. %(cut: %d+ bytes in all%)"
  -- (hooks and rules functions pass on one line of a few hundred bytes
  -- already: they are only held to the bound)
  local function short(text, whole)
    assert.is_true(#text < 4400, "passed on " .. #text .. " bytes")
    if whole ~= false then assert.matches(CUT, text) end
  end

  it("is cut at 4 KiB from an AI's choose (the match report's line)", function()
    local _, dir = ai_file("loud", BIG)
    local out, err, code = support.cli({ "--ai-dir", dir, "match", "loud", "random", "--games", "1" })
    assert.equals(0, code, err)
    short(out:match("first: ([^\n]*)"))
    assert.is_true(#out < 8000)
  end)

  it("is cut from an AI's main chunk", function()
    local _, dir = file("loudmain.lua",
      BIG .. "\nreturn { name = 'loudmain', description = 'x', choose = function() end }")
    local _, err = support.cli({ "ai", "--ai-dir", dir })
    short(err)
  end)

  it("is cut from a house rule's main chunk, rules function and moves hook", function()
    local _, dir = file("loudv.lua", BIG .. "\nreturn { name = 'loudv', description = 'x' }")
    local _, err = support.cli({ "--rules-dir", dir, "rules" })
    short(err)
    _, dir = file("loudr.lua", "return { name = 'loudr', description = 'x', rules = function(r)\n" .. BIG .. "\nend }")
    _, err = support.cli({ "--rules", "diloti+loudr", "--rules-dir", dir, "moves", EX1 })
    short(err, false)
    _, dir = file("loudh.lua", "return { name = 'loudh', description = 'x', hooks = { moves = function(m)\n"
      .. BIG .. "\nreturn m end } }")
    _, err = support.cli({ "--rules", "diloti+loudh", "--rules-dir", dir, "moves", EX1 })
    short(err, false)
  end)

  it("is cut however it is written: a byte that is not UTF-8 is shown as three", function()
    local _, dir = ai_file("loudff", "error(('\\255'):rep(200000), 0)")
    local out, err, code = support.cli({ "--ai-dir", dir, "match", "loudff", "random", "--games", "1" })
    assert.equals(0, code, err)
    short(out:match("first: ([^\n]*)"))
  end)

  -- The loaders' own messages quote what the script chose: a name, a key.
  local MEGA = "('a'):rep(1000000)"
  it("a name or key of a megabyte in a loader's message is cut (AIs, house rules, lessons)", function()
    local _, dir = file("x.lua", "return { name = " .. MEGA .. ", description = 'd', choose = function() end }")
    local _, err = support.cli({ "ai", "--ai-dir", dir })
    short(err, false)
    _, dir = file("w.lua",
      "return { name = 'w', description = 'd', choose = function() end, ['on_' .. " .. MEGA .. "] = 1 }")
    _, err = support.cli({ "ai", "--ai-dir", dir })
    short(err, false)
    _, dir = file("x.lua", "return { name = " .. MEGA .. ", description = 'd' }")
    _, err = support.cli({ "--rules-dir", dir, "rules" })
    short(err, false)
    _, dir = file("z.lua", "return { name = 'z', description = 'd', hooks = { [" .. MEGA .. "] = function() end } }")
    _, err = support.cli({ "--rules-dir", dir, "rules" })
    short(err, false)
    local l, why = learn.load_source("return { id = '92-loud', title = 'T', [" .. MEGA .. "] = 1, steps = {} }",
      "92-loud.lua")
    assert.is_nil(l)
    short(why, false)
  end)

  it("a description, help or title of megabytes is cut where it is listed", function()
    local _, dir = file("y.lua", "return { name = 'y', description = ('\\255'):rep(1e6), help = ('\\27'):rep(1e6), "
      .. "choose = function() end }")
    local out, err = support.cli({ "ai", "--ai-dir", dir })
    assert.is_true(#out + #err < 30000, "listed " .. (#out + #err) .. " bytes")
    _, dir = file("y.lua", "return { name = 'y', description = ('\\255'):rep(1e6), help = ('x'):rep(1e6) }")
    out, err = support.cli({ "--rules-dir", dir, "rules" })
    assert.is_true(#out + #err < 30000, "listed " .. (#out + #err) .. " bytes")
    local l = assert(learn.load_source("return { id = '92-loud', title = ('t'):rep(1e6), rules = { 'D11' }, steps = { "
      .. "{ text = 'Take.', position = " .. string.format("%q", EX1)
      .. ", accept = function() return true end, wrong = 'D11: take it' } } }",
      "92-loud.lua"))
    assert.is_true(#l.title <= 200)
  end)

  it("a moves hook that answers a megabyte that is no move: one line from 'diloti moves', no traceback", function()
    local _, dir = file("badm.lua", "return { name = 'badm', description = 'x', hooks = { moves = function(m)\n"
      .. "return { " .. MEGA .. " } end } }")
    local out, err, code = support.cli({ "--rules", "diloti+badm", "--rules-dir", dir, "moves", EX1 })
    assert.equals(1, code, out)
    assert.matches("^diloti: house rule %(moves hook%) returned 'a+%.%.%.', which is not a legal move here\n$", err)
  end)

  -- (a second attack: what a house rule chose, quoted in the host's own
  -- refusals, and the page 'diloti rules NAME' makes of it)
  it("what a house rule chose is cut where a refusal quotes it", function()
    local function refusal(name, body, args)
      local _, dir = file(name .. ".lua", "return { name = '" .. name .. "', description = 'd', " .. body .. " }")
      local cmd = { "--rules", "diloti+" .. name .. (args or ""), "--rules-dir", dir, "moves", EX1 }
      local _, err, code = support.cli(cmd)
      assert.equals(1, code, err)
      assert.is_true(#err < 2100, name .. ": " .. #err .. " bytes")
    end
    refusal("rf", "rules = function(r) return ('E\\27'):rep(100000) end")
    refusal("req", "requires = { " .. MEGA .. " }")
    refusal("arg", "arg = { name = " .. MEGA .. ", default = 5 }", "=zz")
    refusal("gm", "rules = function(r) r.game = " .. MEGA .. " end")
    refusal("key", "rules = { [" .. MEGA .. "] = 1 }")
    -- a moves hook's reason for a move it takes away
    local _, dir = file("rs.lua", "return { name = 'rs', description = 'd', hooks = { moves = function(m)\n"
      .. "local why = {} for i = 2, #m do why[m[i].text or m[i]] = ('W\\27'):rep(50000) end\n"
      .. "return { m[1] }, why end } }")
    local _, err, code = support.cli({ "--rules", "diloti+rs", "--rules-dir", dir, "apply", EX1, "8h x 8c" })
    assert.equals(1, code, err)
    assert.is_true(#err < 4400, "the reason: " .. #err .. " bytes")
    -- a lesson's spec naming no house rule, as learn --check reports it
    local path = file("92-loud.lua", "return { id = '92-loud', title = 'T', spec = 'diloti+' .. " .. MEGA
      .. ", rules = { 'D11' }, steps = { { text = 'Take.', position = " .. string.format("%q", EX1)
      .. ", accept = function() return true end, wrong = 'D11: take it' } } }")
    local out
    out, err, code = support.cli({ "learn", "--check", path })
    assert.equals(1, code, out .. err)
    assert.matches("unknown variant", out .. err)
    assert.is_true(#out + #err < 2500, "the lesson's spec: " .. (#out + #err) .. " bytes")
  end)

  it("a house rule's page and the listing show what it chose in lines of bounded length", function()
    local _, dir = file("x.lua", "return { name = 'x', description = 'd', requires = { " .. MEGA .. " }, conflicts = { "
      .. MEGA .. " }, arg = { name = " .. MEGA .. ", default = " .. MEGA .. " }, rules = { [" .. MEGA .. "] = "
      .. MEGA .. " } }")
    local out, err = support.cli({ "--rules-dir", dir, "rules", "x" })
    assert.is_true(#out + #err < 8000, "the page: " .. (#out + #err) .. " bytes")
    out, err = support.cli({ "--rules-dir", dir, "rules" })
    assert.is_true(#out + #err < 8000, "the listing: " .. (#out + #err) .. " bytes")
  end)

  it("is cut from a lesson's main chunk and its accept function", function()
    local function lesson(main, accept) return lesson_src("92-loud", "Loud", main, accept) end
    local l, why = learn.load_source(lesson(BIG, ""), "92-loud.lua")
    assert.is_nil(l)
    short(why)
    l = assert(learn.load_source(lesson("", BIG), "92-loud.lua"))
    local g = assert(diloti.new{ position = EX1 })
    local _, err = learn.accepted(g, l.steps[1])
    short(err)
  end)
end)

describe("finding 3: the host never runs a script's metamethods", function()
  local EVIL = [[
return { name = "evil", description = "x", hooks = { moves = function(moves)
  return setmetatable(moves, { __len = function() while true do end end,
    __index = function() while true do end end, __pairs = function() while true do end end })
end } }]]

  it("a moves hook's list with looping metamethods: a whole match is played", function()
    local _, dir = file("evil.lua", EVIL)
    local out, err, code = support.cli({ "--rules", "diloti+evil", "--rules-dir", dir, "match", "random", "greedy",
      "--games", "1" })
    assert.equals(0, code, err)
    assert.matches("rounds:", out)
  end)

  it("a move that contains itself is refused with the crossing's limit, no stack overflow", function()
    local _, dir = file("selfref.lua", [[
return { name = "selfref", description = "x", hooks = { moves = function(moves)
  local m = { text = moves[1].text }
  m.self = m
  return { m }
end } }]])
    local out, err, code = support.cli({ "--rules", "diloti+selfref", "--rules-dir", dir, "match", "random", "greedy",
      "--games", "1" })
    assert.are_not.equal(124, code)
    assert.matches("nested deeper than", out .. err)
    assert.is_nil((out .. err):match("stack overflow"))
  end)

  it("an AI's answer with metamethods is read as plain data", function()
    local path = ai_file("meta", [[
      return setmetatable({}, { __index = function() while true do end end }) ]])
    local out, code = decide_in_child(path, "{ time = 1 }", 15)
    assert.equals(0, code, out)
    assert.matches("not a move %(no text%)", out)
  end)
end)

describe("finding 6: memory outside the cap", function()
  it("ctx.simulate in a loop does not grow the process past the cap", function()
    -- The script holds 20 MiB of its own, under its 32 MiB cap: in one
    -- shared state that put off the collector, which alone freed clones.
    local path = ai_file("sim", [[
      local keep = {}
      for i = 1, 150000 do keep[i] = ("x"):rep(100) .. i end
      for _ = 1, 20000 do ctx.simulate(moves[1]) end
      return moves[1], #keep ]])
    local out, code = child(string.format([[
local function rss()
  local f = io.open("/proc/self/statm")
  local pages = f:read("n"); pages = f:read("n")
  f:close()
  return pages * 4096 / 2^20
end
local p = assert(ai.player(%q, { memory = 32 * 2^20, time = 60 }))
-- A game with a history (each clone copies it): 40 moves into a round.
local g = assert(diloti.new{ seed = 5 })
for _ = 1, 40 do assert(g:play(g:moves()[1])) end
collectgarbage()
local before = rss()
local move, info = p:choose(g, g:turn())
print("GROWTH", rss() - before, "FALLBACK", tostring(info.fallback), info.warning)
]], path), 120)
    assert.equals(0, code, out)
    assert.matches("FALLBACK\tnil", out)
    local growth = tonumber(out:match("GROWTH\t([%d.e-]+)"))
    -- (it grew by 1,010 MiB before; now by the script's own state)
    assert(growth and growth < 64, "the process grew by " .. tostring(growth) .. " MiB")
  end)

  it("a script's memory is its own state's exact count", function()
    local box = diloti.box.new{ memory = 4 * 2^20 }
    local used = box:memory()
    assert.is_true(used > 0 and used < 2^20)
    local ok, why = box:run("local t = {} for i = 1, 1e7 do t[i] = i end")
    assert.is_false(ok)
    assert.matches("memory cap exceeded .*%(4 MiB%)", why)
    assert.is_true(box:broken())
    assert.is_true(box:memory() <= 4 * 2^20)
  end)
end)

describe("finding 7: refusals and checks without rebuilding the move list", function()
  it("a house rule's moves hook runs once per position, however many moves are checked", function()
    local calls = 0
    local g = assert(diloti.new{ rules = {}, position = CROWDED, hooks = { moves = function(moves)
      calls = calls + 1
      local kept = {}
      for i = 1, #moves, 2 do kept[#kept + 1] = moves[i] end
      return kept
    end } })
    local all = g:moves(true)
    local checked = 0
    for i = 1, #all, 11 do
      g:check(all[i].text)
      checked = checked + 1
    end
    assert.is_true(checked > 50)
    assert.equals(1, calls)
    local c = g:clone()
    c:moves()
    assert.equals(2, calls) -- a clone is asked itself
    assert.truthy(g:play(all[1].text))
    g:moves()
    assert.equals(3, calls)
    assert.is_true(g:undo())
    g:moves()
    assert.equals(4, calls)
  end)

  it("a vetoed move is refused with the hook's reason, a core-illegal one with its rule id", function()
    local g = assert(diloti.new{ rules = {}, position = EX1, hooks = { moves = function(moves)
      local kept, why = {}, {}
      for _, m in ipairs(moves) do
        if m.kind == "lay" then why[m.text] = "house rule: no laying" else kept[#kept + 1] = m end
      end
      return kept, why
    end } })
    assert.same({ false, "house rule: no laying" }, { g:check("2d lay") })
    local ok, why = g:check("9c lay")
    assert.is_false(ok)
    assert.matches("^D%d+:", why)
  end)

  it("moves --explain on a position with 11,700 moves finishes (it took 42 s), on the bounded list", function()
    local out, err, code = support.cli({ "moves", "--explain", CROWDED })
    assert.equals(0, code)
    -- (issue 24: a list holds at most 5,000 moves and says how many there are)
    local g = assert(diloti.new{ position = CROWDED })
    assert.equals(#g:moves(), #support.lines(out))
    assert.matches("diloti: 11700 legal moves; a crowded table", err)
  end)
end)

describe("lessons are untrusted scripts too", function()
  local function lesson(main, accept) return lesson_src("91-x", "X", main, accept) end

  for what, code in pairs{
    ["an endless loop"] = "while true do end",
    ["a memory bomb"] = "local t = {} for i = 1, 1e8 do t[i] = ('x'):rep(100) .. i end",
    ["a costly pattern"] = "('a'):rep(1e5):find('.-b')",
    ["io"] = "io.open('/etc/passwd')",
  } do
    it("stops " .. what .. " in a lesson's main chunk", function()
      local l, why = learn.load_source(lesson(code, ""), "91-x.lua")
      assert.is_nil(l)
      assert.matches("^91%-x%.lua", why)
    end)

    it("stops " .. what .. " in a lesson's accept function, which then counts as a wrong answer", function()
      local l = assert(learn.load_source(lesson("", code), "91-x.lua"))
      local g = assert(diloti.new{ position = EX1 })
      local info = g:moves(true)[1]
      assert.is_false(learn.is_right(l.steps[1], {}, info))
      -- and the lesson still answers afterwards (loaded afresh if a limit stopped it)
      assert.is_false(learn.is_right(l.steps[1], {}, info))
    end)
  end
end)

describe("every function a script can reach, with every type and size of argument", function()
  -- Runs inside a box: the script calls everything it can reach (its
  -- globals, the libraries, a string's methods) with 0 to 3 arguments
  -- drawn from values of every type, and tallies what happened.
  local CALLS = tonumber(os.getenv("DL_FUZZ_CALLS") or "") or 1000
  local SRC = [[
local per = ...
local big = ("a"):rep(100000)
local mt = setmetatable({}, {
  __index = function() error("index") end, __len = function() return 1 << 40 end,
  __tostring = function() return {} end, __lt = function() return true end,
  __concat = function() return "c" end, __call = function() return 1 end,
})
local VALUES = { nil, true, false, 0, 1, -1, 3, 2^31, 2^53, math.mininteger, math.maxinteger, 0.5, -0.0,
  1/0, -1/0, 0/0, "", "x", "%", "%s%d%p", "(%w+)%1", "[", big, {}, { 1, 2, 3 }, mt,
  function() return 1 end, string.rep, 100000, 1 << 30 }
local NV = 31
local fns = {}
for _, lib in ipairs{ "string", "table", "math", "utf8" } do
  for k, f in pairs(_G[lib]) do
    if type(f) == "function" then fns[#fns + 1] = { lib .. "." .. k, f } end
  end
end
for k, f in pairs(_G) do if type(f) == "function" then fns[#fns + 1] = { k, f } end end
fns[#fns + 1] = { "('').rep", ("").rep }
table.sort(fns, function(a, b) return a[1] < b[1] end)
local calls, errors, seed = 0, 0, 7
local function pick()
  seed = (seed * 1103515245 + 12345) % 2147483648
  return VALUES[seed % NV + 1]
end
for _, f in ipairs(fns) do
  for i = 1, per do
    local k = i % 4
    local a, b, c = pick(), pick(), pick()
    local ok
    if k == 0 then ok = pcall(f[2])
    elseif k == 1 then ok = pcall(f[2], a)
    elseif k == 2 then ok = pcall(f[2], a, b)
    else ok = pcall(f[2], a, b, c) end
    calls = calls + 1
    if not ok then errors = errors + 1 end
  end
end
return calls, errors, #fns
]]

  it("each call returns or fails cleanly, and the box goes on", function()
    local box = diloti.box.new{ label = "every function", memory = 256 * 2^20, budget = 1 << 40, time = 300 }
    local ok, calls, errors, nfns = box:run((SRC:gsub("local per = %.%.%.", "local per = " .. CALLS)), "=fuzz",
      { budget = 1 << 40, time = 300 })
    assert(ok, calls)
    assert(nfns > 70, "only " .. tostring(nfns) .. " functions")
    assert.equals(nfns * CALLS, calls)
    assert.is_true(errors > 0 and errors < calls)
    assert.is_true(box:run("return 1 + 1"))
  end)

  it("so does every ctx function an AI is given", function()
    local path = ai_file("ctxfuzz", [[
      local VALUES = { nil, true, 0, -1, 2^53, 0.5, 0/0, "", "8h x 8c", "Zz", ("x"):rep(5000), {},
        { text = "8h x 8c" }, { loose = { "7h" }, declarations = { {} } }, function() end,
        setmetatable({}, { __index = function() error("x") end }) }
      local names = {}
      for k, v in pairs(ctx) do if type(v) == "function" then names[#names + 1] = k end end
      table.sort(names)
      local calls = 0
      for _, k in ipairs(names) do
        for i = 1, #VALUES do
          for j = 1, #VALUES, 3 do
            pcall(ctx[k], VALUES[i], VALUES[j])
            calls = calls + 1
          end
        end
      end
      return moves[1], "calls " .. calls .. " " .. table.concat(names, ",") ]])
    local p = assert(ai.player(path, { time = 60 }))
    local g = assert(diloti.new{ position = EX1 })
    local move, info = p:choose(g, 0)
    assert.is_nil(info.fallback, info.warning)
    assert.equals(g:moves()[1], move)
    assert.matches("best_capture,card_points,chance,points,rank,rng,search,simulate,strength,suit,time_left,"
      .. "value,winning", info.note)
    assert.truthy(g:play(move))
    assert.equals(FALLBACK, FALLBACK)
  end)
end)

-- What an attacker's second look at the boxes found (all fixed):
describe("a second look: costly single operations and walks", function()
  local function stopped(body, pattern, opts)
    local path = ai_file("sl" .. (n + 1), body)
    local out, code = decide_in_child(path, opts or "{ time = 1 }", 30)
    assert.equals(0, code, out)
    assert.matches("FALLBACK\ttrue", out)
    assert.matches(pattern, out)
    local secs = tonumber(out:match("SECONDS\t([%d.e-]+)"))
    assert(secs and secs < 2, "the decision took " .. tostring(secs) .. " s under a 1 s limit")
  end

  it("a string longer than 1 MiB is refused", function()
    stopped([[local s = ("x"):rep(1 << 21) return moves[1] ]], "string longer than 1024 KiB refused")
  end)

  it("sorting strings full of NULs stops at the time limit", function()
    stopped([[local s = ("\0"):rep(1 << 20) local t = {} for i = 1, 100000 do t[i] = s end
      table.sort(t) return moves[1] ]], "time limit exceeded")
  end)

  it("comparing strings full of NULs in a loop stops at the time limit", function()
    stopped([[local s = ("\0"):rep(1 << 20) local n = 0 while true do if s < s then n = n + 1 end end ]],
      "time limit exceeded")
  end)

  it("a chain of __index tables cannot make unpack, move or concat run long", function()
    local chain = [[local t, cur = {}, nil cur = t
      for _ = 1, 1990 do local nx = {} setmetatable(cur, { __index = nx }) cur = nx end ]]
    stopped(chain .. "local _ = select('#', table.unpack(t, 1, 900000)) return moves[1]",
      "table.unpack: more than 1000 elements of a table with a metatable")
    stopped(chain .. "table.move(t, 1, 100000, 1, {}) return moves[1]", "table.move: more than 1000 elements")
    stopped(chain .. "local _ = table.concat(t, '', 1, 5000) return moves[1]", "table.concat: more than 1000")
    stopped(chain .. "local _ = ('x'):rep(5000):gsub('.', t) return moves[1]", "pattern too costly")
  end)

  it("a gmatch iterator called in a loop stops at the time limit", function()
    -- (once the subject is searched through, each call answers at once,
    -- so the instruction budget may come first)
    stopped([[local it = ("a"):rep(1000000):gmatch("b") while true do it() end]], "exceeded in AI")
  end)

  it("a main chunk returning tables that share subtables is refused at once", function()
    local _, dir = file("dag.lua", [[local t = {} for _ = 1, 30 do t = { t, t, t, t } end
return { name = "dag", description = "x", choose = function() return 1 end, x = t }]])
    local _, err, code = support.cli({ "ai", "--ai-dir", dir })
    assert.are_not.equal(124, code)
    assert.matches("dag.lua.*more than 1000000", err)
  end)

  it("listing house rules holds one script's memory at a time, not every script's", function()
    local dir = tmp .. "/hogs"
    os.execute("mkdir -p " .. support.q(dir))
    for i = 1, 12 do
      support.write(dir .. "/hog" .. i .. ".lua", "keep = {} for i = 1, 3 do keep[i] = ('x'):rep(1000000 + i) "
        .. ".. ('y'):rep(i) end local big = {} for i = 1, 40 do big[i] = keep[1] .. i end\n"
        .. "return { name = 'hog" .. i .. "', description = 'x', rules = {} }")
    end
    local out, code = child(string.format([[
local found = diloti.variants.load_all({ %q })
collectgarbage()
local f = io.open("/proc/self/status") local s = f:read("a") f:close()
print("PEAK", tonumber(s:match("VmHWM:%%s*(%%d+)")) // 1024, "FOUND", found.hog12 and "yes")
]], dir), 60)
    assert.equals(0, code, out)
    assert.matches("FOUND\tyes", out)
    local peak = tonumber(out:match("PEAK\t(%d+)"))
    -- (each script holds ~45 MiB: all twelve would be 540 MiB)
    assert(peak and peak < 200, "peak memory " .. tostring(peak) .. " MiB")
  end)
end)
