-- The lessons (lua/teach/learn.lua, lua/games/diloti/lessons/): every lesson played through
-- with its right answers and with wrong ones, every rule id of RULES.md
-- covered, progress kept across sessions, `learn` at the table and on
-- the command line, and docs/rules.md in step with its generator.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local support = dofile(here .. "support.lua")
local diloti = require "diloti"
local learn = require "diloti.teach.learn"
local moveinput = require "diloti.games.diloti.input"
local repl = require "diloti.table.repl"
-- The table as the program builds it: with the lessons and the coach.
local EXT = { require "diloti.teach.learn", (require "diloti.teach.coach") }

local RULE_LEAD = "^[DKCV][%w%-=]*:"
local lessons, load_errors = learn.load_all { builtin_only = true }

--- A runner of these lessons reading `lines` (support.lesson_runner).
local function runner(lines, o)
  o = o or {}
  return support.lesson_runner(lines, { lessons = o.lessons or lessons, progress_path = o.progress_path })
end

local walk = support.lesson_walk

-- The table a continuing step builds on: the previous one after its first answer.
local function prev_of(steps, i)
  local p = steps[i - 1]
  if not p or not p.g then return nil end
  local g = p.g:clone()
  if p.answers then assert(g:play(p.answers[1])) end
  return g
end

-- A move the engine refuses in g, with its refusal: a lay, or a capture
-- of one loose card, for each card in hand.
local function illegal_move(g)
  local v = g:view(g:turn())
  for _, c in ipairs(v.hand) do
    local tries = { c .. " lay" }
    for _, t in ipairs(v.table.loose) do tries[#tries + 1] = c .. " x " .. t end
    for _, d in ipairs(v.table.declarations) do
      tries[#tries + 1] = string.format("%s + %s = %d", c, d.ref, d.value % 10 + 1)
    end
    for _, text in ipairs(tries) do
      local r = moveinput.resolve(g, text)
      if r.error and r.error:match(RULE_LEAD) then return text, r.error end
    end
  end
end

local flat, legal_wrong = support.flat, support.legal_wrong

local function rule_ids(text)
  local ids = {}
  for line in text:gmatch("[^\n]+") do
    local id = line:match("^%- ([DKC]%d+)%.") or line:match("^%- (V%-[%w%-=]+)")
    if id then ids[#ids + 1] = id end
  end
  return ids
end

-- The ids of RULES.md as of this writing, for checkouts without ../shared.
local EMBEDDED_IDS = {}
for i = 1, 24 do EMBEDDED_IDS[#EMBEDDED_IDS + 1] = "D" .. i end
for i = 1, 8 do EMBEDDED_IDS[#EMBEDDED_IDS + 1] = "K" .. i end
for i = 1, 9 do EMBEDDED_IDS[#EMBEDDED_IDS + 1] = "C" .. i end
for _, v in ipairs { "redeal-any-triple", "three-face-cards", "face-card-claim", "dealer-peeks", "forced-capture",
  "liberal-group", "liberal-raise", "liberal-capture", "soy", "no-xeri-last-card", "xeri-first-card", "target=N",
  "seed001" } do
  EMBEDDED_IDS[#EMBEDDED_IDS + 1] = "V-" .. v
end

local function spec_ids()
  for _, p in ipairs { here .. "../../../shared/spec/RULES.md", "../shared/spec/RULES.md" } do
    local f = io.open(p, "r")
    if f then
      local ids = rule_ids(f:read("a"))
      f:close()
      if #ids > 0 then return ids end
    end
  end
  return EMBEDDED_IDS
end

describe("the lessons", function()
  it("all load, in order, with unique ids", function()
    assert.same({}, load_errors)
    assert.is_true(#lessons >= 15)
    for i = 2, #lessons do assert.is_true(lessons[i - 1].id < lessons[i].id) end
  end)

  it("are data, not modules: requiring the module learn loads none of them", function()
    for _, l in ipairs(lessons) do
      assert.is_nil(package.preload["diloti.teach.lessons." .. l.id])
      assert.is_nil(package.loaded["diloti.teach.lessons." .. l.id])
    end
  end)

  it("cover every rule id of RULES.md, and name no other", function()
    local covered, known = {}, {}
    for _, l in ipairs(lessons) do
      for _, id in ipairs(l.rules) do covered[id] = l.id end
    end
    local ids = spec_ids()
    assert.is_true(#ids >= 50)
    local missing = {}
    for _, id in ipairs(ids) do
      known[id] = true
      if not covered[id] then missing[#missing + 1] = id end
    end
    assert.same({}, missing)
    for id, lesson in pairs(covered) do assert(known[id], lesson .. " names an unknown rule id " .. id) end
  end)

  it("give nearly every move step an illegal try and a legal wrong one to explain", function()
    local steps, illegal, wrong = 0, 0, 0
    for _, l in ipairs(lessons) do
      for _, s in ipairs(walk(l)) do
        if s.answers then
          steps = steps + 1
          if illegal_move(s.g) then illegal = illegal + 1 end
          if legal_wrong(s.g, s.answers) then wrong = wrong + 1 end
        end
      end
    end
    assert.is_true(steps >= 40)
    assert.is_true(illegal >= steps * 0.9, illegal .. " of " .. steps)
    assert.is_true(wrong >= steps * 0.85, wrong .. " of " .. steps)
  end)

  it("use every worked example of RULES.md (1-14)", function()
    local used = {}
    for _, l in ipairs(lessons) do
      for _, n in ipairs(l.examples or {}) do used[n] = true end
    end
    for n = 1, 14 do assert(used[n], "worked example " .. n .. " is in no lesson") end
  end)

  for _, lesson in ipairs(lessons) do
    describe(lesson.id, function()
      it("sets up every position, and each answer is legal", function()
        local steps = walk(lesson)
        assert.equals(#lesson.steps, #steps)
        for i, s in ipairs(steps) do
          if s.answers then
            assert.is_true(#s.answers > 0)
            for _, a in ipairs(s.answers) do
              assert(s.g:check(a), string.format("step %d: %s is refused", i, a))
            end
          end
        end
      end)

      it("accepts every right answer", function()
        local steps = walk(lesson)
        for i, s in ipairs(steps) do
          local kind = learn.step_kind(s.step)
          local tries = s.answers or {}
          if kind == "question" then
            tries = {}
            for n = 1, #s.step.choices do
              if learn.is_answer(s.step, n) then tries[#tries + 1] = tostring(n) end
            end
          elseif kind == "note" then
            tries = { "" }
          end
          for _, a in ipairs(tries) do
            local r, out = runner { a }
            local res = r:step(lesson, i, prev_of(steps, i))
            assert(res == "right", string.format("step %d: '%s' gave %s:\n%s", i, a, tostring(res), out()))
          end
        end
      end)

      it("explains wrong answers with the rule id, then accepts the right one", function()
        local steps = walk(lesson)
        for i, s in ipairs(steps) do
          local kind = learn.step_kind(s.step)
          if kind == "move" then
            local prev = prev_of(steps, i)
            local bad, why = illegal_move(s.g)
            if bad then
              local r, out = runner { bad, s.answers[1] }
              assert.equals("right", r:step(lesson, i, prev))
              assert.matches("Not allowed: " .. support.lit(flat(why)), flat(out()))
            end
            local wrong = legal_wrong(s.g, s.answers)
            if wrong then
              local r, out = runner { wrong, s.answers[1] }
              assert.equals("right", r:step(lesson, i, prev))
              local text = learn.wrong_text(s.g, s.step, wrong)
              assert.matches(RULE_LEAD, text)
              assert.matches("is legal, but", out())
              assert.matches(support.lit(flat(text)), flat(out()))
            end
          elseif kind == "question" then
            for n = 1, #s.step.choices do
              if not learn.is_answer(s.step, n) then
                local r, out = runner { tostring(n), tostring(type(s.step.answer) == "table" and s.step.answer[1]
                  or s.step.answer) }
                assert.equals("right", r:step(lesson, i, nil))
                local text = (s.step.wrong_choices or {})[n] or s.step.wrong
                assert.matches(RULE_LEAD, text)
                assert.matches(support.lit(flat(text)), flat(out()))
              end
            end
          end
        end
      end)

      it("plays through from start to end with the first answers", function()
        local lines = {}
        for _, s in ipairs(walk(lesson)) do
          local kind = learn.step_kind(s.step)
          if kind == "move" then lines[#lines + 1] = s.answers[1]
          elseif kind == "question" then
            lines[#lines + 1] = tostring(type(s.step.answer) == "table" and s.step.answer[1] or s.step.answer)
          else lines[#lines + 1] = "" end
        end
        local r, out = runner(lines)
        assert.equals("done", r:run_lesson(lesson))
        assert.matches("Lesson done", out())
        assert.equals("done", r:mark(lesson))
      end)
    end)
  end
end)

describe("the lesson runner", function()
  local first = lessons[1]

  it("answers hint, moves, board and help, and reads a move by its number", function()
    local steps = walk(first)
    local n
    for i, m in ipairs(steps[1].g:moves()) do if m == steps[1].answers[1] then n = i end end
    local r, out = runner { "hint", "moves", "board", "help", tostring(n) }
    assert.equals("right", r:step(first, 1, nil))
    local o = out()
    assert.matches("Hint: ", o)
    assert.matches("1%) ", o)
    assert.matches("Your hand:", o)
    assert.matches("why MOVE, hint, moves, board, skip, quit", o)
  end)

  it("answers 'why MOVE' at a move step without playing it (D1, D2 cited for a refusal)", function()
    local r, out = runner { "why 7h x 7c", "check Kd x 7c", "why", "why 7h x 4d", "7h x 7c" }
    assert.equals("right", r:step(first, 1, nil))
    local o = out()
    assert.matches("Legal: 7h x 7c: ", o)
    assert.matches("Not allowed: D%d+", o)
    assert.matches("Which move%? e%.g%. 'why 7h x 7c'", o)
    -- nothing was played by asking: the step still took the answer after
    assert.not_matches("Not allowed: not a move", o)
    local r2, out2 = runner { "help", "quit" }
    assert.equals("quit", r2:step(first, 1, nil))
    assert.matches("why MOVE", out2())
  end)

  it("reads a short form of a move, as the table does", function()
    local r = runner { "7h x" }
    assert.equals("right", r:step(first, 1, nil))
  end)

  it("skips a step (it stays open) and quits a lesson", function()
    local r, out = runner { "skip", "quit" }
    assert.equals("quit", r:run_lesson(first))
    assert.matches("Skipped%. One right answer: 7h x 7c", out())
    assert.equals("0/" .. #first.steps, r:mark(first))
  end)

  it("stops at the end of input", function()
    local r = runner {}
    assert.equals("eof", r:run_lesson(first))
  end)

  it("finds lessons by number, id, name and 'next'", function()
    local r = runner {}
    assert.equals(lessons[3], r:find("3"))
    assert.equals(lessons[2], r:find(lessons[2].id))
    assert.equals(lessons[15], r:find("kontsina"))
    assert.equals(lessons[1], r:find("next"))
    local none, err = r:find("nonsense")
    assert.is_nil(none)
    assert.matches("no lesson 'nonsense'", err)
  end)
end)

describe("the notation, taught and forgiven (issue 15, item 9)", function()
  local function by_id(id)
    for _, l in ipairs(lessons) do if l.id:sub(1, #id) == id then return l end end
    error("no lesson " .. id)
  end

  -- The kinds of move a learner types, from the engine's move fields: a
  -- group is told apart by the declarations it takes in.
  local function tags_of(g, text)
    local r = moveinput.resolve(g, text)
    assert(r.move, text .. ": " .. tostring(r.error))
    local seat, out = g:turn(), {}
    for _, m in ipairs(g:moves(true)) do
      if m.text == r.move then
        local decls = {}
        for _, t in ipairs(m.takes or {}) do
          local kind, owner = t:match("^([PG])%d+@(%d+)$")
          if kind then decls[#decls + 1] = { kind = kind, own = tonumber(owner) == seat } end
        end
        if m.kind == "capture" then
          out[#decls > 0 and "capture a declaration" or "capture"] = true
        elseif m.kind == "group" then
          if #decls == 0 then out.group = true end
          for _, d in ipairs(decls) do
            out[d.own and "add to your declaration" or d.kind == "P" and "raise into a group" or "merge"] = true
          end
        else
          out[m.kind] = true
        end
      end
    end
    return out
  end

  it("show how to type each kind of move the first time the course asks for it", function()
    local seen = {}
    for _, l in ipairs(lessons) do
      for i, s in ipairs(walk(l)) do
        local new = {}
        for _, a in ipairs(s.answers or {}) do
          for t in pairs(tags_of(s.g, a)) do if not seen[t] then new[t] = true end end
        end
        if next(new) then
          local where = string.format("%s step %d, the first %s", l.id, i, next(new))
          local n = s.step.notation
          assert(n and n.move, where .. ", shows no notation")
          local shown = tags_of(s.g, n.move)
          for t in pairs(new) do assert(shown[t], where .. ": its example '" .. n.move .. "' is no " .. t) end
          for t in pairs(new) do seen[t] = true end
        end
      end
    end
    for _, t in ipairs { "capture", "lay", "plain", "raise", "group", "raise into a group", "add to your declaration",
      "merge", "capture a declaration", "claim" } do
      assert(seen[t], "the course never asks for a " .. t)
    end
  end)

  it("show the notation on the step's own board, and the other spellings of the same move", function()
    local shown = 0
    for _, l in ipairs(lessons) do
      for i, s in ipairs(walk(l)) do
        local n = s.step.notation
        if n then
          shown = shown + 1
          local r = moveinput.resolve(s.g, n.move)
          assert(r.move and s.g:check(r.move), string.format("%s step %d: '%s' is no legal move", l.id, i, n.move))
          for _, alt in ipairs(n.also or {}) do
            local a = learn.resolve(s.g, s.step, alt)
            assert.equals(r.move, a.move, string.format("%s step %d: '%s'", l.id, i, alt))
          end
          local run, out = runner { "skip" }
          run:step(l, i, prev_of(walk(l), i))
          assert.matches("How to type it: " .. support.lit(n.move), flat(out()))
        end
      end
    end
    assert.is_true(shown >= 9)
  end)

  -- Lines typed at one step, each answered before the right one ends it.
  local function try(id, n, lines)
    local l = by_id(id)
    local steps = walk(l)
    local r, out = runner(lines)
    local res = r:step(l, n, prev_of(steps, n))
    return res, flat(out())
  end

  it("take 'declare 8': the one declaration of 8 the step expects", function()
    assert.equals("right", (try("03", 1, { "declare 8" })))
    assert.equals("right", (try("04", 1, { "declare 9" })))
    local res, out = try("05", 1, { "declare 5", "declare G5", "5h + 5s = G5" })
    assert.equals("right", res)
    assert.matches("That fits several moves: 5d %+ 5s = G5 | 5h %+ 5s = G5%. Say which one%.", out)
    -- none legal: the engine says why the obvious one is refused
    res, out = try("03", 3, { "declare 8", "declare 11", "declare", "3h + 4c = 7" })
    assert.equals("right", res)
    assert.matches("Not allowed: D14: to declare 8 you must still hold a card of value 8 after playing 3h", out)
    assert.matches("Not allowed: D15: a declared value is 1 to 10, not 11", out)
    assert.matches("Not allowed: say the value to declare: 'declare 8'", out)
  end)

  it("take '3h on 5s', the card on the items, when one value fits", function()
    assert.equals("right", (try("03", 1, { "3h on 5s" })))
    assert.equals("right", (try("03", 1, { "3h 5s 8" })))
    assert.equals("right", (try("04", 1, { "5h on P4@1" })))
    assert.equals("right", (try("05", 1, { "5d on 5s" })))
    local res, out = try("05", 3, { "6h on 2h", "6h + 2h 8s = G8" })
    assert.equals("right", res)
    assert.matches("That move %(6h %+ 2h = 8%) is legal, but not what this step asks", out)
  end)

  it("take a declaration named by its cards, by kind and value, or by value", function()
    for _, line in ipairs { "5h + P4 = 9", "5h + Ac 3s = 9", "5h + 3s Ac = 9", "5h + 4 = 9", "5h + P4", "5h on P4",
      "5h on 4" } do
      assert.equals("right", (try("04", 1, { line })), line)
    end
    for _, line in ipairs { "9d x G9", "9d x 9s 4c 5c", "9d x 9", "9d x G9" } do
      assert.equals("right", (try("06", 4, { line })), line)
    end
  end)

  it("say 'did you mean a group of 5s?' to a plain 5 made of two 5s", function()
    local res, out = try("05", 1, { "5d + 5s = 5", "5d + 5s = G5" })
    assert.equals("right", res)
    assert.matches("Not allowed: D15: did you mean a group of 5s %(5d %+ 5s = G5%)%?", out)
    assert.not_matches("make 10, not 5", out)
  end)
end)

describe("lessons from a teacher's folder", function()
  local dir
  before_each(function() dir = support.tmpdir() end)
  after_each(function() support.rmdir(dir) end)

  local function getenv(k) if k == "XDG_CONFIG_HOME" then return dir end end

  it("are loaded, sorted among the built-in ones, and can replace one", function()
    os.execute("mkdir -p " .. support.q(dir .. "/diloti/lessons"))
    support.write(dir .. "/diloti/lessons/99-my-table.lua", [[
return { id = "99-my-table", title = "At my table", rules = { "D11" }, steps = {
  { text = "Take the 8.", position = "hands=8h 2d / 9c; table=8c 6d", ask = "Go.",
    accept = function(m) return m.kind == "capture" end, wrong = "D11: capture." } } }]])
    support.write(dir .. "/diloti/lessons/01-capturing.lua", [[
return { id = "01-capturing", title = "My own first lesson", rules = { "D11" }, steps = {
  { text = "Pick one.", ask = "Which?", choices = { "a", "b" }, answer = 2, wrong = "D11: b." } } }]])
    local list, errors = learn.load_all { getenv = getenv }
    assert.same({}, errors)
    assert.equals("My own first lesson", list[1].title)
    assert.equals("99-my-table", list[#list].id)
    local r = runner({ "2d lay", "8h x 8c" }, { lessons = list })
    assert.equals("done", r:run_lesson(list[#list]))
  end)

  it("run in the sandbox, and broken ones are refused with their file", function()
    os.execute("mkdir -p " .. support.q(dir .. "/diloti/lessons"))
    support.write(dir .. "/diloti/lessons/50-escape.lua", [[io.open("/tmp/x", "w") return {}]])
    support.write(dir .. "/diloti/lessons/51-loop.lua", [[while true do end]])
    support.write(dir .. "/diloti/lessons/52-bad.lua", [[return { id = "52-bad", title = "x", rules = { "D1" },
      steps = { { text = "t", position = "hands=8h / 9c", accept = { "8h lay" }, wrong = "no rule id" } } }]])
    local list, errors = learn.load_all { getenv = getenv }
    assert.equals(#lessons, #list)
    assert.equals(3, #errors)
    local msgs = {}
    for _, e in ipairs(errors) do msgs[#msgs + 1] = e.message end
    table.sort(msgs)
    assert.matches("50%-escape%.lua", msgs[1])
    assert.matches("51%-loop%.lua", msgs[2])
    assert.matches("52%-bad%.lua: step 1: 'wrong' must explain", msgs[3])
  end)
end)

describe("progress", function()
  local dir
  before_each(function() dir = support.tmpdir() end)
  after_each(function() support.rmdir(dir) end)

  it("is saved, and reloaded by the next session", function()
    local path = dir .. "/state/diloti/progress"
    local r = runner({ "7h x 7c", "quit" }, { progress_path = path })
    assert.equals("quit", r:run_lesson(lessons[1]))
    local p = learn.load_progress(path)
    assert.is_true(p[lessons[1].id].steps[1])
    assert.is_false(p[lessons[1].id].done)
    local again = runner({}, { progress_path = path })
    assert.equals("1/" .. #lessons[1].steps, again:mark(lessons[1]))
    local full = {}
    for _, s in ipairs(walk(lessons[2])) do full[#full + 1] = s.answers and s.answers[1] or tostring(s.step.answer) end
    local r2 = runner(full, { progress_path = path })
    assert.equals("done", r2:run_lesson(lessons[2]))
    local r3 = runner({}, { progress_path = path })
    assert.equals("done", r3:mark(lessons[2]))
    assert.equals(lessons[1], r3:find("next"))
  end)

  it("is found under XDG_STATE_HOME, or ~/.local/state", function()
    local function env(t) return function(k) return t[k] end end
    assert.equals("/s/diloti/progress", learn.progress_path(env { XDG_STATE_HOME = "/s", HOME = "/h" }))
    assert.equals("/h/.local/state/diloti/progress", learn.progress_path(env { HOME = "/h" }))
  end)

  it("tolerates a missing or corrupt file", function()
    assert.same({}, learn.load_progress(dir .. "/none"))
    local path = support.write(dir .. "/progress", "\0\1garbage\n01-capturing done 1,2,x\n"
      .. "02-face-cards-and-laying open 2\nnonsense line\n03-plain-declarations maybe 1\n")
    local p = learn.load_progress(path)
    assert.is_nil(p["01-capturing"])
    assert.is_true(p["02-face-cards-and-laying"].steps[2])
    assert.is_nil(p["03-plain-declarations"])
    local r = runner({ "7h x 7c", "quit" }, { progress_path = path })
    r:run_lesson(lessons[1])
    assert.is_true(learn.load_progress(path)["01-capturing"].steps[1])
  end)
end)

describe("learn at the table", function()
  local ENV = { NO_COLOR = "1", TERM = "xterm", LANG = "C" }
  local function session(lines)
    local out, i = {}, 0
    local s = assert(repl.new { extensions = EXT,
      write = function(t) out[#out + 1] = t end,
      read = function(prompt) out[#out + 1] = prompt; i = i + 1; return lines[i] end,
      getenv = function(k) return ENV[k] end, clock = function() return 1000 end,
      game = { seed = 5, ai = "random" },
    })
    return s, function() return table.concat(out) end
  end

  it("points a newcomer at the course in the opening lines, until a lesson is done", function()
    local dir = support.tmpdir()
    local state = dir .. "/state"
    local function opening(game)
      local out = {}
      local s = assert(repl.new { extensions = EXT, write = function(t) out[#out + 1] = t end,
        read = function() return nil end, clock = function() return 1000 end,
        getenv = function(k) if k == "XDG_STATE_HOME" then return state end return ENV[k] end,
        game = game or { seed = 5, ai = "random" } })
      s:run()
      return table.concat(out)
    end
    assert.matches("New to Diloti%? Type 'learn'", opening())
    -- (the course is Diloti's: not a word of it at a Pilotta table)
    assert.is_nil(opening({ game = "pilotta", seed = 5 }):find("New to Diloti", 1, true))
    os.execute("mkdir -p " .. support.q(state .. "/diloti"))
    support.write(state .. "/diloti/progress", "01-capturing open 1\n")
    assert.matches("New to Diloti%? Type 'learn'", opening())
    support.write(state .. "/diloti/progress", "01-capturing done 1,2,3\n")
    assert.is_nil(opening():find("New to Diloti", 1, true))
    support.rmdir(dir)
  end)

  it("lists the lessons", function()
    local s, out = session {}
    s:handle("learn")
    assert.matches("Lessons", out())
    assert.matches(support.lit(lessons[1].title), out())
  end)

  it("runs a lesson, then goes back to the game", function()
    local s, out = session { "7h x 7c", "quit" }
    local before = s.g:position()
    s:handle("learn 1")
    assert.matches("Right: You captured 7c with 7h", out())
    assert.matches("Back at the table", out())
    assert.equals(before, s.g:position())
  end)

  it("says so for a lesson that does not exist", function()
    local s, out = session {}
    s:handle("learn 99x")
    assert.matches("no lesson", out())
  end)
end)

describe("diloti learn", function()
  local state
  before_each(function() state = support.tmpdir() end)
  after_each(function() support.rmdir(state) end)

  -- The program with `input` on its standard input.
  local function run(args, input)
    local file = support.write(support.scratch(), input or "")
    local parts = { "XDG_CONFIG_HOME=" .. support.q(support.no_config), "XDG_STATE_HOME=" .. support.q(state),
      "timeout 30", support.q(support.bin) }
    for _, a in ipairs(args) do parts[#parts + 1] = support.q(a) end
    local p = assert(io.popen(table.concat(parts, " ") .. " 2>&1 <" .. support.q(file), "r"))
    local out = p:read("a")
    local _, _, code = p:close()
    os.remove(file)
    return out, code
  end

  it("lists the lessons", function()
    local out, code = run { "learn", "list" }
    assert.equals(0, code)
    for i, l in ipairs(lessons) do assert.matches(i .. "%. .-" .. support.lit(l.title), out) end
  end)

  it("runs a lesson from its input and remembers the step", function()
    local out, code = run({ "learn", "1" }, "8h lay\n7h x 7c\nquit\n")
    assert.equals(0, code)
    assert.matches("Not allowed: D9: you do not hold 8h", out)
    -- (in the board's words: the cards with their suits' symbols)
    assert.matches("Right: You captured 7\u{2663} with 7\u{2665}", out)
    local p = learn.load_progress(state .. "/diloti/progress")
    assert.is_true(p["01-capturing"].steps[1])
  end)

  it("--check walks every lesson, or one file, and fails on a lesson that cannot be played", function()
    local out, code = run { "learn", "--check" }
    assert.equals(0, code)
    for _, l in ipairs(lessons) do assert.matches(support.lit(l.id) .. ": %d+ steps, %d+ with a move: ok", out) end
    assert.matches(#lessons .. " lessons loaded and walked, 0 problems", out)
    -- A teacher's lesson whose answer is not legal in its position (the 9c
    -- cannot take the 8c), and one that is fine.
    local lesson = [[return { id = "%s", title = "Mine", rules = { "D11" }, steps = {
      { text = "Take it.", position = "hands=8h 2d / 9c; table=8c 3s", ask = "Take the 8.",
        accept = { "%s" }, wrong = "D11: an 8 takes an 8." } } }]]
    local bad = support.write(state .. "/16-bad.lua", lesson:format("16-bad", "9c x 8c"))
    out, code = run { "learn", "--check", bad }
    assert.equals(1, code)
    assert.matches("problem: .*16%-bad%.lua: 16%-bad step 1: the accepted move '9c x 8c' is not legal here: D9", out)
    assert.matches("1 lesson loaded and walked, 1 problem\n", out)
    local good = support.write(state .. "/16-good.lua", lesson:format("16-good", "8h x 8c"))
    out, code = run { "learn", "--check", good }
    assert.equals(0, code, out)
    assert.matches("16%-good: 1 steps, 1 with a move: ok", out)
  end)

  it("refuses an unknown lesson", function()
    local out, code = run { "learn", "nonsense" }
    assert.equals(1, code)
    assert.matches("no lesson 'nonsense'", out)
  end)
end)

describe("docs/rules.md", function()
  it("is what tools/rules_doc.lua writes", function()
    local root = here .. "../../"
    local p = assert(io.popen("cd " .. support.q(root) .. " && " .. support.q(support.bin)
      .. " run tools/rules_doc.lua 2>&1"))
    local generated = p:read("a")
    p:close()
    local f = assert(io.open(root .. "docs/rules.md", "r"))
    local checked_in = f:read("a")
    f:close()
    assert(generated == checked_in, "docs/rules.md is stale: run 'make docs'")
  end)

  it("draws a board for every step with a table", function()
    local f = assert(io.open(here .. "../../docs/rules.md", "r"))
    local text = f:read("a")
    f:close()
    local boards, tables = 0, 0
    for _ in text:gmatch("```text\n") do boards = boards + 1 end
    for _, l in ipairs(lessons) do
      for _, s in ipairs(l.steps) do if s.position or s.continue then tables = tables + 1 end end
    end
    assert.equals(tables, boards)
  end)
end)

-- Keep the module list honest: the runner must not need a terminal.
assert(diloti.version)
