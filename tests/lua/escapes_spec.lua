-- Terminal escapes from strangers' files never reach the terminal. AI
-- scripts, variants, lessons and game records are downloaded; whatever
-- text they carry (a description, a help, an error message, a lesson's
-- title or steps, a record's fields) is printed with its controls made
-- visible (core.clean): no OSC 52 clipboard write, no screen clear with a
-- fake prompt, no title change, no right-to-left override.
local support = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "support.lua")
require "diloti"
local repl = require "diloti.table.repl"
-- The table as the program builds it: with the lessons and the coach.
local EXT = { require "diloti.teach.learn", (require "diloti.teach.coach") }
local ai = require "diloti.ai"

-- Clipboard write, screen clear, fake prompt, title, a bidi override
-- ("exe.png" shown as "gnp.exe"), a C1 CSI, BEL, backspace.
local EVIL = "\27]52;c;cGF5bG9hZA==\7\27[2J\27[H\27]0;pwned\7\r$ rm -rf ~\8\8 \226\128\174gnp.exe \194\155" .. "31m"

-- Nothing a terminal acts on: C0 controls but newline (and tab), DEL, C1
-- in UTF-8, bidirectional controls, bytes that are not UTF-8.
local function assert_clean(out, what)
  what = what or "output"
  local c = out:find("[%z\1-\8\11-\31\127]")
  assert(not c, string.format("%s holds control byte 0x%02x near: %q", what, c and out:byte(c) or 0,
    c and out:sub(math.max(1, c - 20), c + 20) or ""))
  assert(not out:find("\194[\128-\159]"), what .. " holds a C1 control")
  assert(not out:find("\226\128[\142\143\170-\174]"), what .. " holds a bidi control")
  assert(not out:find("\226\129[\166-\169]"), what .. " holds a bidi isolate")
  assert(not out:find("\216\156", 1, true), what .. " holds U+061C")
  assert(utf8.len(out), what .. " is not UTF-8")
end

-- Output with the lines the screen wrapped joined again, for matching.
local function flat(text)
  return (text:gsub("\n +", " "))
end

-- The visible form of EVIL's start, to show the text is there, defused.
local SHOWN = "^[]52;c;cGF5bG9hZA==^G^[[2J"

local function q(s) return string.format("%q", s) end

local AI_SCRIPT = [[
return {
  name = "evil",
  description = "plays fair " .. %s,
  help = "more " .. %s .. "\nsecond line",
  author = %s,
  choose = function(view, moves) error("choose says " .. %s) end,
}]]

local VARIANT = [[
return {
  name = "evil-rule",
  description = "a house rule " .. %s,
  help = "details " .. %s,
  requires = { "diloti" },
  rules = { soy = true },
}]]

local LESSON = [[
return { id = "16-evil", title = "Lesson " .. %s, rules = { "D11" },
  intro = "intro " .. %s,
  steps = {
    { text = "step text " .. %s, position = "hands=8h 2d / 9c; table=8c 3s", ask = "ask " .. %s,
      accept = { "8h x 8c" }, hint = "hint " .. %s, wrong = "D11: wrong " .. %s },
  } }]]

local function evil_ai(dir)
  support.write(dir .. "/evil.lua", AI_SCRIPT:format(q(EVIL), q(EVIL), q(EVIL), q(EVIL)))
  support.write(dir .. "/broken.lua", "error(" .. q("broken " .. EVIL) .. ")")
  -- an error object whose type name is the payload
  support.write(dir .. "/named.lua", "error(setmetatable({}, { __name = " .. q("named " .. EVIL) .. " }))")
end

local function evil_variant(dir)
  support.write(dir .. "/evil-rule.lua", VARIANT:format(q(EVIL), q(EVIL)))
  support.write(dir .. "/bad-rule.lua", "error(" .. q("bad " .. EVIL) .. ")")
end

local function evil_lessons(config)
  local d = config .. "/diloti/lessons"
  os.execute("mkdir -p " .. support.q(d))
  support.write(d .. "/16-evil.lua", LESSON:format(q(EVIL), q(EVIL), q(EVIL), q(EVIL), q(EVIL), q(EVIL)))
  support.write(d .. "/17-broken.lua", "error(" .. q("broken lesson " .. EVIL) .. ")")
  return d
end

-- The program with `input` on its standard input; stdout and stderr apart.
local function run(args, env, input)
  local infile = support.write(support.scratch(), input or "")
  local errf = support.scratch()
  local parts = { "XDG_CONFIG_HOME=" .. support.q(support.no_config) }
  for k, v in pairs(env or {}) do parts[#parts + 1] = k .. "=" .. support.q(v) end
  parts[#parts + 1] = "TERM=xterm timeout 30 " .. support.q(support.bin)
  for _, a in ipairs(args) do parts[#parts + 1] = support.q(a) end
  local p = assert(io.popen(table.concat(parts, " ") .. " 2>" .. support.q(errf) .. " <" .. support.q(infile), "r"))
  local out = p:read("a")
  local _, _, code = p:close()
  local err = support.read(errf)
  os.remove(infile)
  os.remove(errf)
  return flat(out), flat(err), code
end

describe("text from strangers' files reaches the terminal cleaned", function()
  local dir
  before_each(function()
    dir = support.tmpdir()
    ai.refresh()
  end)
  after_each(function()
    support.rmdir(dir)
    ai.refresh()
  end)

  describe("diloti ai", function()
    it("lists an AI whose description holds escapes, and says why a broken one was refused", function()
      evil_ai(dir)
      local out, err, code = run { "--ai-dir", dir, "ai" }
      assert.equals(0, code)
      assert_clean(out, "stdout")
      assert_clean(err, "stderr")
      assert.matches("evil%s+plays fair " .. support.lit(SHOWN), out)
      assert.matches("greedy", out)
      assert.matches("AI refused: .*broken%.lua.*broken " .. support.lit(SHOWN), err)
    end)

    it("explains that AI: description, help and author", function()
      evil_ai(dir)
      local out, err, code = run { "--ai-dir", dir, "ai", "evil" }
      assert.equals(0, code, err)
      assert_clean(out, "stdout")
      assert.matches("more " .. support.lit(SHOWN), out)
      assert.matches("second line", out)
      assert.matches("by " .. support.lit(SHOWN), out)
      out, err, code = run { "--ai-dir", dir, "ai", "broken" }
      assert.equals(1, code)
      assert_clean(out .. err)
      assert.matches("broken " .. support.lit(SHOWN), err)
    end)

    it("and its failing decisions in a match report", function()
      evil_ai(dir)
      local out, err, code = run { "--ai-dir", dir, "match", "evil", "random", "--games", "1", "--seed", "3", "-q" }
      assert.equals(0, code, err)
      assert_clean(out, "stdout")
      assert_clean(err, "stderr")
      assert.matches("choose says " .. support.lit(SHOWN), out)
    end)
  end)

  describe("diloti rules", function()
    it("lists and explains a variant whose texts hold escapes", function()
      evil_variant(dir)
      local out, err, code = run { "--rules-dir", dir, "rules" }
      assert.equals(0, code)
      assert_clean(out, "stdout")
      assert_clean(err, "stderr")
      assert.matches("evil%-rule%s+a house rule " .. support.lit(SHOWN), out)
      assert.matches("bad " .. support.lit(SHOWN), err)
      out, err, code = run { "--rules-dir", dir, "rules", "evil-rule" }
      assert.equals(0, code, err)
      assert_clean(out .. err)
      assert.matches("details " .. support.lit(SHOWN), out)
    end)

    it("cleans an unknown variant's name in the refusal", function()
      local out, err, code = run { "--rules", "diloti+" .. EVIL, "moves", "hands=8h / 9c; table=8c" }
      assert.equals(1, code)
      assert_clean(out .. err)
      assert.matches("unknown variant", err)
    end)
  end)

  describe("diloti learn", function()
    it("lists a lesson whose title holds escapes, and a broken one's error", function()
      evil_lessons(dir)
      local out, err, code = run({ "learn", "list" }, { XDG_CONFIG_HOME = dir, XDG_STATE_HOME = dir .. "/state" })
      assert.equals(0, code, err)
      assert_clean(out, "stdout")
      assert_clean(err, "stderr")
      assert.matches("Lesson " .. support.lit(SHOWN), out)
      assert.matches("broken lesson " .. support.lit(SHOWN), out)
    end)

    it("shows its intro, steps, hints and explanations cleaned", function()
      evil_lessons(dir)
      local out, err = run({ "learn", "16" }, { XDG_CONFIG_HOME = dir, XDG_STATE_HOME = dir .. "/state" },
        "hint\n2d lay\n8h x 8c\nquit\n")
      assert_clean(out, "stdout")
      assert_clean(err, "stderr")
      for _, w in ipairs { "intro", "step text", "ask", "hint", "D11: wrong" } do
        assert.matches(w .. " " .. support.lit(SHOWN), out)
      end
    end)

    it("--check names the problems of a lesson file without its escapes", function()
      local d = evil_lessons(dir)
      local bad = support.write(d .. "/18-bad.lua", ([[
return { id = "18-bad", title = "t", rules = { "D11" }, steps = {
  { text = "t", position = "hands=8h 2d / 9c; table=8c 3s", accept = { %s }, wrong = "D11: no" } } }]])
        :format(q("9c x 8c" .. EVIL)))
      local out, err, code = run({ "learn", "--check", bad }, { XDG_STATE_HOME = dir .. "/state" })
      assert.equals(1, code)
      assert_clean(out .. err)
      assert.matches("problem: ", out)
      out, err, code = run({ "learn", "--check", d .. "/17-broken.lua" }, { XDG_STATE_HOME = dir .. "/state" })
      assert.equals(1, code)
      assert_clean(out .. err)
      assert.matches("broken lesson " .. support.lit(SHOWN), out)
      out, err, code = run({ "learn", "--check" }, { XDG_CONFIG_HOME = dir, XDG_STATE_HOME = dir .. "/state" })
      assert.equals(1, code)
      assert_clean(out .. err)
      assert.matches("16%-evil: 1 steps, 1 with a move: ok", out)
    end)
  end)

  describe("the table", function()
    local ENV = { NO_COLOR = "1", TERM = "xterm", LANG = "C.UTF-8" }

    -- A session with output collected; lines are handled one by one.
    local function session(game, extra, input)
      local out, i = {}, 0
      local o = {
        write = function(s) out[#out + 1] = s end,
        read = function(prompt)
          out[#out + 1] = prompt
          i = i + 1
          return input and input[i]
        end,
        getenv = function(k) return (extra and extra.env or ENV)[k] end,
        clock = function() return 1000 end,
        game = game, ai_dirs = { dir }, rules_dirs = { dir },
      }
      local s = assert(repl.new(setmetatable({ extensions = EXT }, { __index = o })))
      return s, function()
        local text = table.concat(out)
        out = {}
        return flat(text)
      end
    end

    it("shows the AI's failed decisions, and the ai and rules commands, cleaned", function()
      evil_ai(dir)
      evil_variant(dir)
      local s, output = session { seed = 5, ai = "evil", rules = "diloti+evil-rule" }
      s:advance()
      s:show()
      s:handle("1")
      for _, c in ipairs { "ai", "ai evil", "rules", "rules evil-rule", "ai broken", "ai named", "rules bad-rule" } do
        s:handle(c)
      end
      local out = output()
      assert_clean(out)
      assert.matches("lost this decision: .*choose says " .. support.lit(SHOWN), out)
      assert.matches("more " .. support.lit(SHOWN), out)
      assert.matches("details " .. support.lit(SHOWN), out)
    end)

    it("cleans with colour on too, and keeps its own colours", function()
      evil_ai(dir)
      local env = { TERM = "xterm", LANG = "C.UTF-8" }
      local s, output = session({ seed = 5, ai = "evil" }, { env = env })
      assert.is_true(s.style.colour)
      s:advance()
      s:show()
      s:handle("ai evil")
      local out = output()
      assert.matches("\27[1m", out, 1, true) -- "Your turn." in bold
      local without_own = out:gsub("\27%[3[19]m", ""):gsub("\27%[22m", ""):gsub("\27%[1m", "")
      assert_clean(without_own)
      assert.matches("more " .. support.lit(SHOWN), out)
    end)

    it("takes a teacher's lesson with its texts cleaned", function()
      evil_lessons(dir)
      local env = { NO_COLOR = "1", TERM = "xterm", XDG_CONFIG_HOME = dir }
      local s, output = session({ seed = 5, ai = "random" }, { env = env }, { "hint", "8h x 8c", "" })
      s.learn_progress_path = false
      output()
      s:handle("learn")
      s:handle("learn 16")
      local out = output()
      assert_clean(out)
      assert.matches("Lesson " .. support.lit(SHOWN), out)
      assert.matches("step text " .. support.lit(SHOWN), out)
      assert.matches("broken lesson " .. support.lit(SHOWN), out)
    end)

    it("cleans what a record file holds when it is loaded or replayed", function()
      -- The loader refuses C0 controls; C1 and bidi controls are valid UTF-8.
      local sneaky = "x\194\155[2J\226\128\174gnp"
      local function rec(rules, seat1, move)
        return table.concat({ "diloti-record 1", "rules: " .. rules, "seed: 3", "seat 0: human " .. sneaky,
          "seat 1: " .. seat1, "venue: " .. sneaky, "moves", "1 s0: " .. move, "end 1", "" }, "\n")
      end
      local g = assert(require("diloti").new { seed = 3 })
      local first = g:moves()[1]
      local files = {
        support.write(dir .. "/rules.dlt", rec("diloti+" .. sneaky, "ai greedy", first)),
        support.write(dir .. "/seat.dlt", rec("diloti", "ai " .. sneaky, first)),
        support.write(dir .. "/move.dlt", rec("diloti", "ai greedy", first .. sneaky)),
        support.write(dir .. "/good.dlt", rec("diloti", "ai greedy", first)),
        support.write(dir .. "/esc.dlt", rec("diloti", "ai greedy", first .. "\27[2J")),
      }
      local s, output = session({ seed = 5, ai = "random" }, nil, { "n", "b", "q" })
      for _, f in ipairs(files) do
        s:handle("load " .. f)
        s:handle("replay " .. f)
      end
      s:handle("log")
      local out = output()
      assert_clean(out)
      assert.matches("Not loaded", out)
      assert.matches("Loaded .*good%.dlt: 1 moves", out)
    end)

    it("cleans a mistyped line it echoes back", function()
      local s, output = session { seed = 5, ai = "random" }
      output()
      s:handle("\27]0;title\7")
      assert_clean(output())
      s:handle("print(\"\27]0;title\7\")")
      assert_clean(output())
    end)

    it("leaves the output of the user's own Lua as it is", function()
      local s, output = session { seed = 5, ai = "random" }
      output()
      s:handle([[lua print("\27[1mbold\27[22m")]])
      assert.equals("\27[1mbold\27[22m\n", output())
      -- but an error raised with a script's text is cleaned
      s:handle([[lua error("\27]0;title\7")]])
      assert_clean(output())
    end)

    it("runs in the program: an AI's texts at the table", function()
      evil_ai(dir)
      local out, err = run({ "--ai-dir", dir, "play", "--ai", "evil", "--seed", "4" }, nil, "ai evil\n1\nquit\n")
      assert_clean(out, "stdout")
      assert_clean(err, "stderr")
      assert.matches("more " .. support.lit(SHOWN), out)
    end)
  end)
end)
