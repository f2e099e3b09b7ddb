-- Findings 3 to 6 of issue 24, each tried the way the attacker did and
-- written to fail on the code before: a house rule's hook breaking a
-- crossing limit took the match down; cleaning a script's text and
-- listing a folder of scripts held host memory outside every cap; cards
-- left in sight in Pilotta's hidden position and in the hot-seat
-- scrollback. (Finding 5's JSON depth is in match_spec.lua, finding 4's
-- error text in tests/c/test_oom.c.)
--
-- What could take the program down, or measures its memory, runs in a
-- child process.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local core = require "diloti.core"

local EX1 = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c"

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

--- Runs Lua code in a child process that loads the module like this one;
-- returns its output and exit status (124: killed after `seconds`).
-- Under AddressSanitizer the child keeps no freed memory in quarantine,
-- so that what it measures of its memory is the program's.
local function child(code, seconds)
  n = n + 1
  local script = support.write(tmp .. "/child" .. n .. ".lua",
    "local diloti = require 'diloti'\nlocal ai = require 'diloti.ai'\n"
    .. "local function peak() local f = io.open('/proc/self/status') local s = f:read('a') f:close() "
    .. "return tonumber(s:match('VmHWM:%s*(%d+)')) // 1024 end\n" .. code)
  local asan = os.getenv("ASAN_OPTIONS")
  local cmd = string.format("%sLUA_CPATH=%s timeout %d %s %s 2>&1",
    asan and ("ASAN_OPTIONS=" .. support.q(asan .. ":quarantine_size_mb=0") .. " ") or "",
    support.q(package.cpath), seconds or 60, support.q(support.lua), support.q(script))
  local p = assert(io.popen(cmd, "r"))
  local out = p:read("a")
  local _, _, status = p:close()
  return out, status
end

describe("finding 5: host memory is counted", function()
  -- 63 references to one 1 MiB string of byte 0x80: 63 MiB counted, but
  -- cleaned into 189 MiB of U+FFFD, and the host peaked at 391 MiB.
  local NOTE = "local s = string.rep('\\x80', 1 << 20) local t = {} for i = 1, 63 do t[i] = s end "

  it("text cleaned on its way out of a box is counted as it is written, not as it was", function()
    local b = core.box.new{}
    local ok, why = b:run(NOTE .. "return t", "=note")
    assert.is_false(ok)
    assert.matches("too much text to pass between a script and the host (more than 64 MiB)", why, 1, true)
    -- (plain text of the same size still crosses)
    local fine, t = b:run("local s = string.rep('x', 1 << 20) local t = {} for i = 1, 63 do t[i] = s end "
      .. "return t", "=plain")
    assert.is_true(fine, t)
    assert.equals(63, #t)
    b:close()
  end)

  it("an AI's note of 63 references to a 1 MiB string of 0x80: the host stays within the crossing limit",
    function()
      local path = file("note.lua", "return { name = 'note', description = 'x', choose = function(view, moves)\n"
        .. NOTE .. "return moves[1], t end }")
      local out, code = child(string.format([[
local p = assert(ai.player(%q))
local g = assert(diloti.new{ position = %q })
collectgarbage()
local before = peak()
local move, info = p:choose(g, 0)
print("MOVE", move, "FALLBACK", tostring(info.fallback))
print("GREW", peak() - before)
]], path, EX1))
      assert.equals(0, code, out)
      local grew = tonumber(out:match("GREW\t(%d+)"))
      -- (before: 195 MiB in lua5.4, 391 in diloti; now the crossing stops at 64 MiB of cleaned text)
      assert(grew and grew < 120, "the host grew by " .. tostring(grew) .. " MiB: " .. out)
    end)
end)

describe("finding 3: a house rule's hook that breaks a crossing limit loses that call, the match goes on", function()
  -- 15 loose cards A-5: 49,640 legal moves, some 1.3 million values as
  -- move tables, over the crossing's 1,000,000.
  local BIG = "hands=10h 9h 8h 7h 6h / 10s 9s 8s 7s 6s; table=Ac 2c 3c 4c 5c Ad 2d 3d 4d 5d Ah 2h 3h 4h 5h; pack=-"
  local DEEP = "local t = {} local m = t for _ = 1, 40 do m.x = {} m = m.x end "
  local dir = tmp .. "/rules"
  os.execute("mkdir -p " .. support.q(dir))
  --- A house rule `name` (for `game`) whose hook `hook` is `body`
  -- (arguments a, b).
  local function rule(name, hook, body, game)
    local stem = (game == "pilotta" and "pilotta-" or "") .. name
    support.write(dir .. "/" .. stem .. ".lua", string.format(
      "return { name = %q, description = 'x', %s hooks = { %s = function(a, b)\n%s\nend } }",
      stem, game == "pilotta" and "game = 'pilotta'," or "", hook, body))
    return (game or "diloti") .. "+" .. name
  end
  local function lit(t) return (t:gsub("%p", "%%%0")) end
  -- The start of the warning: the rule, its file and the hook (a pattern).
  local LIMIT = { format = function(_, name, stem, hook)
    return lit(string.format("house rule '%s' (%s/%s.lua), %s hook: ", name, dir, stem, hook))
  end }

  it("a moves hook given a list over the limit (Diloti): the standard moves, a warning naming the rule "
    .. "and the limit", function()
    local spec = rule("lays", "moves", [[
      local out = {}
      for _, m in ipairs(a) do if m.kind == "lay" then out[#out + 1] = m end end
      if #out == 0 then return a end
      return out]])
    local g = assert(diloti.new{ rules = spec, rules_dirs = { dir }, position = BIG })
    local ok, moves = pcall(g.moves, g)
    assert.is_true(ok, tostring(moves))
    local plain = assert(diloti.new{ position = BIG }):moves()
    local effect, warn = g:play(moves[1])
    assert.is_table(effect, warn)
    if #moves == #plain then
      -- (the list crossed whole: too many values, so the hook lost its call)
      assert.matches(LIMIT:format("lays", "lays", "moves") .. "too many values to pass between a script "
        .. "and the host %(more than 1000000%).*; standard moves used for this position$", warn)
    else
      -- (a list the engine keeps short crosses: the hook kept only lays)
      assert.is_nil(warn)
      for _, m in ipairs(moves) do assert.matches(" lay$", m) end
    end
  end)

  it("a moves hook answering a move nested deeper than 32 levels (Diloti): the standard moves, once warned",
    function()
      local spec = rule("deep", "moves", DEEP .. "return { { text = a[1].text, x = t } }")
      local g = assert(diloti.new{ rules = spec, rules_dirs = { dir }, position = EX1 })
      local ok, moves = pcall(g.moves, g)
      assert.is_true(ok, tostring(moves))
      assert.same(assert(diloti.new{ position = EX1 }):moves(), moves)
      assert.is_true(g:check(moves[2]))
      local _, warn = g:play(moves[2])
      assert.matches(LIMIT:format("deep", "deep", "moves") .. "a script returned a value nested deeper than 32 "
        .. "levels.*; standard moves used for this position$", warn)
      -- (the next position's call fails again, and says so again)
      local _, again = g:play(g:moves()[1])
      assert.matches("nested deeper than 32", again)
    end)

  it("a moves hook answering too many values (Diloti): the standard moves", function()
    local spec = rule("many", "moves", "local t = {} for i = 1, 1100000 do t[i] = 1 end return t")
    local g = assert(diloti.new{ rules = spec, rules_dirs = { dir }, position = EX1 })
    local ok, moves = pcall(g.moves, g)
    assert.is_true(ok, tostring(moves))
    assert.equals(14, #moves)
    local _, warn = g:play(moves[1])
    assert.matches(LIMIT:format("many", "many", "moves") .. "too many values", warn)
  end)

  it("a second moves hook still filters when the first loses its call", function()
    local spec = rule("deep2", "moves", DEEP .. "return { t }")
    rule("first", "moves", "return { a[1] }")
    local g = assert(diloti.new{ rules = spec .. "+first", rules_dirs = { dir }, position = EX1 })
    local moves = g:moves()
    assert.equals(1, #moves)
    local _, warn = g:play(moves[1])
    assert.matches("house rule 'deep2'", warn)
  end)

  it("diloti match with such a moves hook plays on and counts the warnings", function()
    local out, err, code = support.cli({ "--rules-dir", dir, "match", "random", "random", "--games", "1",
      "--seed", "5", "--rules", "diloti+deep" })
    assert.equals(0, code, err)
    local warned = tonumber(out:match("house rules: +(%d+) warnings"))
    assert(warned and warned > 0, out)
  end)

  it("score and match hooks answering too deep a value (Diloti): standard scoring and match end", function()
    rule("deeps", "score", DEEP .. "a.extra = t return a")
    rule("deepm", "match", DEEP .. "return t")
    local out, err, code = support.cli({ "--rules-dir", dir, "match", "random", "random", "--games", "1",
      "--seed", "5", "--rules", "diloti+deeps+deepm" })
    assert.equals(0, code, err)
    assert.matches("house rules: +%d+ warnings", out)
  end)

  it("Pilotta: moves, score and match hooks breaking a crossing limit lose their call; the match goes on",
    function()
      local spec = rule("deep", "moves", DEEP .. "return { { text = a[1].text, x = t } }", "pilotta")
      local g = assert(diloti.new{ rules = spec, rules_dirs = { dir } })
      local ok, moves = pcall(g.moves, g)
      assert.is_true(ok, tostring(moves))
      assert.same(assert(diloti.new{ rules = "pilotta" }):moves(), moves)
      local _, warn = g:play(moves[1])
      assert.matches(LIMIT:format("pilotta-deep", "pilotta-deep", "moves") .. "a script returned a value "
        .. "nested deeper than 32 levels.*; standard moves used for this position$", warn)
      rule("deeps", "score", DEEP .. "a.extra = t return a", "pilotta")
      rule("deepm", "match", DEEP .. "return t", "pilotta")
      local out, err, code = support.cli({ "--rules-dir", dir, "match", "random", "random", "--games", "1",
        "--seed", "5", "--rules", "pilotta+deep+deeps+deepm" })
      assert.equals(0, code, err)
      local warned = tonumber(out:match("house rules: +(%d+) warnings"))
      assert(warned and warned > 0, out)
    end)
end)

describe("finding 5: listing a folder of scripts", function()
  local catalogue = require "diloti.scripts.catalogue"
  local untrusted = require "diloti.scripts.untrusted"
  local player = require "diloti.ai.player"
  local ai_cli = require "diloti.ai.cli"
  local dir = tmp .. "/ais"
  os.execute("mkdir -p " .. support.q(dir))
  for i = 0, 9 do
    -- (a source of a little under 1 MiB, the most a script may be: a
    -- description is kept to 200 bytes)
    support.write(dir .. "/big" .. i .. ".lua", "-- " .. string.rep("d", (1 << 20) - 200) .. i .. "\n"
      .. "return { name = 'big" .. i .. "', description = 'd', choose = function(_, moves) return moves[1] end }")
  end

  --- Runs f with the folder's main chunks counted, print silenced, and
  -- every file's stamp changing at each look (as a file just saved does
  -- once: the catalogue then reads the folder again). Returns the count.
  local function counted(f)
    local load, stamp, print0 = untrusted.load, core.stamp, _G.print
    local runs, tick = 0, 0
    untrusted.load = function(src, path, opts)
      if path:find(dir, 1, true) then runs = runs + 1 end
      return load(src, path, opts)
    end
    core.stamp = function(path)
      tick = tick + 1
      return tostring(tick) .. path, false
    end
    _G.print = function() end
    catalogue.refresh()
    local ok, err = pcall(f)
    untrusted.load, core.stamp, _G.print = load, stamp, print0
    catalogue.refresh()
    assert(ok, err)
    return runs
  end

  it("diloti ai runs each AI's main chunk once (it ran three times: once a game's list, once for refusals)",
    function()
      assert.equals(10, counted(function() assert.equals(0, ai_cli.cli_list({ ai_dir = { dir } })) end))
      assert.equals(10, counted(function() assert.equals(0, ai_cli.cli_show({ ai_dir = { dir }, name = "big3" })) end))
    end)

  it("a listing has a total budget: scripts read after it is spent are refused, saying so", function()
    local function refused(budget)
      local old = catalogue.BUDGET
      catalogue.BUDGET = budget
      catalogue.refresh()
      local ok, views, errors = pcall(player.catalogues, { dir })
      catalogue.BUDGET = old
      catalogue.refresh()
      assert(ok, views)
      local found, over = views("diloti"), {}
      for _, e in ipairs(errors) do
        if e.message:find("not loaded: the scripts read before it", 1, true) then over[#over + 1] = e.message end
      end
      return found, over
    end
    -- (the program's own AIs are not counted: they are all there)
    local found, over = refused({ seconds = 1000, bytes = 5 * 512 * 1024 })
    assert.is_table(found.master)
    local read = 0
    for i = 0, 9 do if found["big" .. i] then read = read + 1 end end
    -- each keeps a little under 1 MiB (its source): three are read,
    -- then the budget is spent
    assert.equals(3, read)
    assert.equals(7, #over)
    assert.matches("hold more than 2 MiB together %(the budget of a listing%)", over[1])
    found, over = refused({ seconds = 0, bytes = 1 << 30 })
    assert.is_table(found.big0)
    assert.is_nil(found.big1)
    assert.equals(9, #over)
    assert.matches("big%d%.lua: not loaded: the scripts read before it ran their main chunks for more than 0 s",
      over[1])
  end)
end)
