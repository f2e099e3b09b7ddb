-- The Pilotta course (lua/games/pilotta/lessons/): every P id of
-- PILOTTA.md taught by some lesson, every lesson played through with
-- right and wrong answers (an illegal one refused with its rule id, a
-- legal wrong one explained with the lesson's), `learn --game pilotta`
-- and `learn` at a Pilotta table, and the limits on a stranger's lesson.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local support = dofile(here .. "support.lua")
require "diloti"
local learn = require "diloti.teach.learn"
local games = require "diloti.table.games"
local screen = require "diloti.table.screen"
local repl = require "diloti.table.repl"
local EXT = { require "diloti.teach.learn", (require "diloti.teach.coach") }

local RULE_LEAD = "^P[%w%-=]*:"
local lessons, load_errors = learn.load_all { builtin_only = true, game = "pilotta" }
local pilotta = games.get("pilotta")

-- The ids of PILOTTA.md: rules (P1...), house rules (PV-...) and
-- clarifications (PC1...); as of this writing when ../shared is missing.
local function embedded_ids()
  local ids = {}
  for i = 1, 51 do ids[#ids + 1] = "P" .. i end
  for i = 1, 10 do ids[#ids + 1] = "PC" .. i end
  for _, v in ipairs { "deal-left", "suit-after-auction", "pass-final", "high-bids", "contra-after-auction",
    "declarer-leads", "partner-exempt", "must-head", "decl-overlap", "decl-100-tie", "no-contract-bonus",
    "fail-keeps-declarations", "belote-transfers", "double-all", "swept-keeps-declarations", "round-7",
    "round-5", "raw-points", "target=N" } do
    ids[#ids + 1] = "PV-" .. v
  end
  return ids
end

local function spec_ids()
  for _, p in ipairs { here .. "../../../shared/spec/PILOTTA.md", "../shared/spec/PILOTTA.md" } do
    local f = io.open(p, "r")
    if f then
      local ids = {}
      for line in f:read("a"):gmatch("[^\n]+") do
        local id = line:match("^%- (P%d+)%.") or line:match("^%- (PC%d+)%.") or line:match("^%- (PV%-[%w%-=]+):")
        if id then ids[#ids + 1] = id end
      end
      f:close()
      if #ids > 0 then return ids end
    end
  end
  return embedded_ids()
end

--- The P ids (P1...) no lesson of the list names.
local function uncovered(list, ids)
  local covered, missing = {}, {}
  for _, l in ipairs(list) do
    for _, id in ipairs(l.rules) do covered[id] = true end
  end
  for _, id in ipairs(ids) do
    if id:match("^P%d+$") and not covered[id] then missing[#missing + 1] = id end
  end
  return missing
end

local function runner(lines, o)
  o = o or {}
  return support.lesson_runner(lines, { lessons = o.lessons or lessons, progress_path = o.progress_path,
    game = "pilotta" })
end

local walk = support.lesson_walk

-- An action the engine refuses in g with a rule of the play or the
-- auction (not P51's "you do not hold"): a card of the hand, or a call.
local function illegal_action(g)
  local v = g:view(g:turn())
  local tries = {}
  for _, c in ipairs(v.hand) do tries[#tries + 1] = c end
  for _, c in ipairs { "pass", "contra", "recontra", "80c", "90h", "100d", "170s", "capot s" } do
    tries[#tries + 1] = c
  end
  for _, text in ipairs(tries) do
    local r = pilotta.resolve(g, text)
    if r.error and r.error:match(RULE_LEAD) and not r.error:match("^P51") then return text, r.error end
  end
end

local flat, legal_wrong = support.flat, support.legal_wrong

describe("the Pilotta course", function()
  it("loads, in order, with unique ids, apart from Diloti's course", function()
    assert.same({}, load_errors)
    assert.is_true(#lessons >= 15)
    for i = 2, #lessons do assert.is_true(lessons[i - 1].id < lessons[i].id) end
    for _, l in ipairs(lessons) do assert.equals("pilotta", l.game) end
    for _, l in ipairs(learn.load_all { builtin_only = true }) do assert.is_nil(l.game) end
  end)

  it("takes a teacher's lesson from the lessons folder's pilotta/ (one folder convention)", function()
    local dir = support.tmpdir()
    os.execute("mkdir -p " .. support.q(dir .. "/pilotta"))
    local src = support.read(here .. "../../lua/games/pilotta/lessons/01-players-and-deal.lua")
    -- (the same lesson without its game field, as 99-mine in the game's folder)
    src = src:gsub('game = "pilotta",', ""):gsub('"01%-players%-and%-deal"', '"99-mine"')
    support.write(dir .. "/pilotta/99-mine.lua", src)
    support.write(dir .. "/pilotta/98-lost.lua", (src:gsub('"99%-mine"', '"98-lost", game = "diloti"')))
    local list, errors = learn.load_all { dirs = { dir }, game = "pilotta", getenv = function() return nil end }
    support.rmdir(dir)
    local mine
    for _, l in ipairs(list) do if l.id == "99-mine" then mine = l end end
    assert.is_table(mine)
    assert.equals("pilotta", mine.game)
    assert.equals("pilotta/99-mine", learn.key(mine))
    assert.equals(1, #errors)
    assert.matches("lies in the folder of pilotta's lessons", errors[1].message)
  end)

  it("covers every P id of PILOTTA.md, and names no other id", function()
    local ids = spec_ids()
    assert.is_true(#ids >= 51)
    assert.same({}, uncovered(lessons, ids))
    local known = {}
    for _, id in ipairs(ids) do known[id] = true end
    for _, l in ipairs(lessons) do
      for _, id in ipairs(l.rules) do assert(known[id], l.id .. " names an unknown rule id " .. id) end
    end
  end)

  it("notices a P id no lesson teaches any more", function()
    -- (P46 is taught by one lesson only: take it away)
    local list = {}
    for _, l in ipairs(lessons) do
      local rules = {}
      for _, id in ipairs(l.rules) do if id ~= "P46" then rules[#rules + 1] = id end end
      list[#list + 1] = { id = l.id, rules = rules }
    end
    assert.same({ "P46" }, uncovered(list, spec_ids()))
  end)

  it("gives nearly every move step an illegal try and a legal wrong one to explain", function()
    local steps, illegal, wrong = 0, 0, 0
    for _, l in ipairs(lessons) do
      for _, s in ipairs(walk(l)) do
        if s.answers then
          steps = steps + 1
          if illegal_action(s.g) then illegal = illegal + 1 end
          if legal_wrong(s.g, s.answers) then wrong = wrong + 1 end
        end
      end
    end
    assert.is_true(steps >= 20, steps .. " move steps")
    assert.is_true(illegal >= steps * 0.6, illegal .. " of " .. steps)
    assert.is_true(wrong >= steps * 0.6, wrong .. " of " .. steps)
  end)

  it("names the sides as the table does, never 'team A' or 'team B'", function()
    local function each_string(t, fn)
      for _, v in pairs(t) do
        if type(v) == "string" then fn(v) elseif type(v) == "table" then each_string(v, fn) end
      end
    end
    for _, l in ipairs(lessons) do
      each_string(l, function(text)
        assert.is_nil(text:match("[Tt]eam [AB]%f[%W]"), l.id .. ": " .. text)
      end)
    end
  end)

  it("asks no count of points under a finished round's score line without saying which points", function()
    -- (the board's score line shows the round in game points, in tens: a
    -- question on the points must say which figure it wants)
    for _, l in ipairs(lessons) do
      for i, s in ipairs(walk(l)) do
        if s.g and learn.step_kind(s.step) == "number" and s.g:phase() ~= "play" then
          local said = s.step.ask
          assert(said:find("game points", 1, true) or said:find("card points", 1, true)
            or said:find("trick points", 1, true), l.id .. " step " .. i .. ": " .. said)
        end
      end
    end
  end)

  it("says each refused card's duty with the cards that may be played, never another refused one", function()
    local n = 0
    for _, l in ipairs(lessons) do
      for _, s in ipairs(walk(l)) do
        if s.g and s.g:phase() == "play" then
          local legal = {}
          for _, m in ipairs(s.g:moves(true)) do if m.card then legal[m.card] = true end end
          for _, c in ipairs(s.g:view(s.g:turn()).hand) do
            if not legal[c] then
              local ok, why = s.g:play(c)
              assert.is_nil(ok)
              n = n + 1
              for w in tostring(why):gmatch("%f[%w]([%dJQKA]+[cdhs])%f[%W]") do
                for _, h in ipairs(s.g:view(s.g:turn()).hand) do
                  assert.is_false(h == w and not legal[w], l.id .. ": " .. tostring(why))
                end
              end
            end
          end
        end
      end
    end
    assert.is_true(n >= 10, n .. " refusals")
  end)

  it("asks for calls, cards, announcements, a show and numbers", function()
    local kinds = {}
    for _, l in ipairs(lessons) do
      for _, s in ipairs(walk(l)) do
        for _, a in ipairs(s.answers or {}) do
          local word = a:match("^(%a+)")
          if a:match("^%d+[cdhs]$") or word == "capot" or word == "pass" or word == "contra"
            or word == "recontra" then
            kinds.call = true
          elseif word == "announce" or word == "show" then
            kinds[word] = true
          else
            kinds.card = true
          end
        end
        if learn.step_kind(s.step) == "number" then kinds.number = true end
      end
    end
    assert.same({ call = true, card = true, announce = true, show = true, number = true }, kinds)
  end)

  for _, lesson in ipairs(lessons) do
    describe(lesson.id, function()
      it("is played through with wrong answers first, each explained with its rule id", function()
        local steps = walk(lesson)
        local lines, expect = {}, {}
        for _, s in ipairs(steps) do
          local kind = learn.step_kind(s.step)
          if kind == "move" then
            local bad, why = illegal_action(s.g)
            if bad then
              lines[#lines + 1] = bad
              expect[#expect + 1] = "Not allowed: " .. why
            end
            local wrong = legal_wrong(s.g, s.answers)
            if wrong then
              lines[#lines + 1] = wrong
              expect[#expect + 1] = "That move (" .. wrong .. ") is legal, but not what this step asks. "
                .. learn.wrong_text(s.g, s.step, wrong)
              assert.matches(RULE_LEAD, learn.wrong_text(s.g, s.step, wrong))
            end
            lines[#lines + 1] = s.answers[1]
          elseif kind == "question" then
            for n = 1, #s.step.choices do
              if not learn.is_answer(s.step, n) then
                lines[#lines + 1] = tostring(n)
                expect[#expect + 1] = "Not quite. " .. ((s.step.wrong_choices or {})[n] or s.step.wrong)
                break
              end
            end
            lines[#lines + 1] = tostring(type(s.step.answer) == "table" and s.step.answer[1] or s.step.answer)
          elseif kind == "number" then
            lines[#lines + 1] = tostring(s.step.number + 10)
            expect[#expect + 1] = "Not quite. " .. s.step.wrong
            lines[#lines + 1] = tostring(s.step.number)
          else
            lines[#lines + 1] = ""
          end
        end
        local r, out = runner(lines)
        assert.equals("done", r:run_lesson(lesson))
        local text = flat(out())
        for _, e in ipairs(expect) do
          assert(text:find(flat(e), 1, true), "missing: " .. e .. "\n" .. out())
        end
        for _, e in ipairs(expect) do
          if e:match("^Not") then assert.matches("P[%w%-]*:", e) end
        end
        assert.matches("Lesson done: " .. support.lit(lesson.title), text)
      end)
    end)
  end

  it("draws the Pilotta table and says each action in its words", function()
    local step = lessons[3].steps[2]
    local g = assert(learn.setup(lessons[3], step))
    local board = learn.board(screen.style {}, g)
    assert.matches("Contract: 80h by Seat 0", board)
    assert.matches("Your hand: ", board)
    local r, out = runner { "7s" }
    assert.equals("right", (r:step(lessons[3], 2)))
    assert.matches("Right: You played 7s%.", out())
  end)

  it("answers 'why MOVE' at a move step in the table's words, playing nothing", function()
    local g = assert(learn.setup(lessons[3], lessons[3].steps[2]))
    local held
    for _, m in ipairs(g:moves()) do held = held or m end
    local r, out = runner { "why " .. held, "why 2s", "7s" }
    assert.equals("right", (r:step(lessons[3], 2)))
    local o = out()
    assert.matches("Legal: " .. support.lit(held), o)
    assert.matches("Not allowed: ", o)
    assert.matches("Right: You played 7s%.", o)
  end)

  it("shows a played-out round from the learner's seat", function()
    local l
    for _, x in ipairs(lessons) do if x.id == "06-trick-points" then l = x end end
    local r, out = runner { "Qd", "Ad", "23" }
    local _, _, g = r:step(l, 1)
    _, _, g = r:step(l, 2, g)
    local mark = #out()
    assert.equals("right", (r:step(l, 3, g)))
    local last = out():sub(mark + 1)
    assert.matches("The round is over", last)
    assert.matches("Seat 1 & You", last)
  end)
end)

describe("learning Pilotta", function()
  local ENV = { NO_COLOR = "1", TERM = "xterm", LANG = "C" }
  local dir
  before_each(function() dir = support.tmpdir() end)
  after_each(function() support.rmdir(dir) end)

  local function opening(game, state)
    local out = {}
    local s = assert(repl.new { extensions = EXT, write = function(t) out[#out + 1] = t end,
      read = function() return nil end, clock = function() return 1000 end,
      getenv = function(k) if k == "XDG_STATE_HOME" then return state end return ENV[k] end,
      game = game })
    s:run()
    return table.concat(out)
  end

  it("is offered at a Pilotta table until a Pilotta lesson is done, and Diloti's at Diloti's", function()
    local state = dir .. "/state"
    local pl = opening({ game = "pilotta", seed = 5, ai = "random" }, state)
    assert.matches("New to Pilotta%? Type 'learn'", pl)
    assert.is_nil(pl:find("New to Diloti", 1, true))
    os.execute("mkdir -p " .. support.q(state .. "/diloti"))
    -- (a Diloti lesson done says nothing about Pilotta)
    support.write(state .. "/diloti/progress", "01-capturing done 1,2,3\n")
    assert.matches("New to Pilotta%? Type 'learn'", opening({ game = "pilotta", seed = 5, ai = "random" }, state))
    support.write(state .. "/diloti/progress", "pilotta/01-players-and-deal done 1,2,3,4,5\n")
    assert.is_nil(opening({ game = "pilotta", seed = 5, ai = "random" }, state):find("New to Pilotta", 1, true))
    assert.matches("New to Diloti%? Type 'learn'", opening({ seed = 5, ai = "random" }, state))
  end)

  it("'learn' at a Pilotta table lists and runs the Pilotta course, then goes back to the game", function()
    local out, i = {}, 0
    local lines = { "80h", "quit" }
    local s = assert(repl.new { extensions = EXT,
      write = function(t) out[#out + 1] = t end,
      read = function(prompt) out[#out + 1] = prompt; i = i + 1; return lines[i] end,
      getenv = function(k) return ENV[k] end, clock = function() return 1000 end,
      game = { game = "pilotta", seed = 5, ai = "random" },
    })
    s.learn_progress_path = false
    s:handle("learn")
    local text = table.concat(out)
    assert.matches("Lessons: Pilotta", text)
    assert.matches(support.lit(lessons[1].title), text)
    assert.is_nil(text:find("Capturing", 1, true))
    local before = s.g:position()
    s:handle("learn 1")
    text = table.concat(out)
    assert.matches("Lesson 01%-players%-and%-deal", text)
    assert.matches("Back at the table", text)
    assert.equals(before, s.g:position())
  end)

  it("keeps Pilotta progress under the course's name", function()
    local path = dir .. "/progress"
    local r = runner({ "3" }, { progress_path = path })
    r:step(lessons[1], 1)
    r:record(lessons[1], 1, false)
    local p = learn.load_progress(path)
    assert.is_true(p["pilotta/01-players-and-deal"].steps[1])
    assert.is_nil(p["01-players-and-deal"])
  end)

  describe("diloti learn --game pilotta", function()
    local function run(args, input)
      local file = support.write(dir .. "/input", input or "")
      local parts = { "XDG_CONFIG_HOME=" .. support.q(dir .. "/config"),
        "XDG_STATE_HOME=" .. support.q(dir .. "/state"),
        "timeout 60", support.q(support.bin) }
      for _, a in ipairs(args) do parts[#parts + 1] = support.q(a) end
      local p = assert(io.popen(table.concat(parts, " ") .. " 2>&1 <" .. support.q(file), "r"))
      local out = p:read("a")
      local _, _, code = p:close()
      return out, code
    end

    it("lists both courses, and runs a Pilotta lesson", function()
      local out, code = run { "learn", "list" }
      assert.equals(0, code, out)
      assert.matches("Capturing", out)
      assert.matches("diloti learn %-%-game pilotta", out)
      for i, l in ipairs(lessons) do assert.matches(i .. "%. .-" .. support.lit(l.title), out) end
      out, code = run({ "learn", "--game", "pilotta", "7" }, "90h\n80s\n90s\nquit\n")
      assert.equals(0, code, out)
      -- (in the board's words: bids with their suits' symbols)
      assert.matches("That move %(90\u{2665}%) is legal, but not what this step asks%. P12:", out)
      assert.matches("Right: You bid 90\u{2660}%.", out)
      out, code = run { "learn", "--game", "chess" }
      assert.equals(1, code)
      assert.matches("no game 'chess'", out)
    end)

    it("--check walks every lesson of both courses, and a Pilotta file's before moves", function()
      local out, code = run { "learn", "--check" }
      assert.equals(0, code, out)
      for _, l in ipairs(lessons) do assert.matches(support.lit(l.id) .. ": %d+ steps, %d+ with a move: ok", out) end
      assert.matches("Pilotta: " .. #lessons .. " lessons loaded and walked, 0 problems", out)
      local lesson = [[return { game = "pilotta", id = "%s", title = "Mine", rules = { "P23" }, steps = {
        { text = "Follow.", position = "dealer=3; calls=80h, pass, pass, pass; hands=?8 / ?8 / ?8 / ?8",
          before = { %s }, accept = function(m) return m.card ~= nil end, wrong = "P23: follow suit." } } }]]
      local bad = support.write(dir .. "/16-bad.lua", lesson:format("16-bad", '"pass"'))
      out, code = run { "learn", "--check", bad }
      assert.equals(1, code, out)
      assert.matches("the move 'pass' before this step was refused: P18", out)
      local good = support.write(dir .. "/16-good.lua", lesson:format("16-good", ""))
      out, code = run { "learn", "--check", good }
      assert.equals(0, code, out)
      assert.matches("16%-good: 1 steps, 1 with a move: ok", out)
    end)
  end)
end)

describe("a stranger's lesson", function()
  local function lesson(step)
    return ([[return { game = "pilotta", id = "90-x", title = "x", rules = { "P23" },
      steps = { %s } }]]):format(step)
  end
  local function list(n, item)
    local t = {}
    for i = 1, n do t[i] = string.format("%q", item) end
    return "{ " .. table.concat(t, ", ") .. " }"
  end
  local POS = [[position = "dealer=3; hands=?8 / ?8 / ?8 / ?8"]]

  it("may list only so many accepted moves, moves before, choices and wrong moves", function()
    local function try(fields)
      return learn.load_source(lesson("{ text = 't', " .. POS .. ", wrong = 'P12: no', " .. fields .. " }"),
        "90-x.lua")
    end
    assert.is_truthy(try("accept = " .. list(16, "pass")))
    local l, why = try("accept = " .. list(17, "pass"))
    assert.is_nil(l)
    assert.matches("'accept' lists at most 16", why)
    assert.is_truthy(try("accept = { 'pass' }, before = " .. list(40, "pass")))
    l, why = try("accept = { 'pass' }, before = " .. list(41, "pass"))
    assert.is_nil(l)
    assert.matches("'before' lists at most 40", why)
    l, why = try("accept = { 'pass' }, before = { " .. string.format("%q", string.rep("x", 201)) .. " }")
    assert.is_nil(l)
    assert.matches("longer than 200 bytes", why)
    local wm = {}
    for i = 1, 17 do wm[i] = string.format("[%q] = 'P12: no'", "8" .. i .. "h") end
    l, why = try("accept = { 'pass' }, wrong_moves = { " .. table.concat(wm, ", ") .. " }")
    assert.is_nil(l)
    assert.matches("'wrong_moves' lists at most 16", why)
    l, why = learn.load_source(lesson("{ text = 't', ask = 'a', answer = 1, wrong = 'P1: no', choices = "
      .. list(11, "c") .. " }"), "90-x.lua")
    assert.is_nil(l)
    assert.matches("'choices' lists at most 10", why)
  end)

  it("is checked for wrong moves it could never explain", function()
    local function walked(wrong_moves)
      local l = assert(learn.load_source(lesson(([[{ text = 't', ask = 'Lead.',
        position = "dealer=3; calls=80h, pass, pass, pass; hands=As 7s 7c 8c 7d 8d Kh Qh / ?8 / ?8 / ?8",
        accept = { "As" }, wrong = "P22: lead the Ace.", wrong_moves = { %s } }]]):format(wrong_moves)), "90-x.lua"))
      return learn.walk(l, function() end)
    end
    assert.is_true(walked("['7s'] = 'P22: the Ace.'"))
    local ok, why = walked("['Jd'] = 'P22: the Ace.'")
    assert.is_nil(ok)
    assert.matches("the wrong move 'Jd' is not legal here: P51", why)
    ok, why = walked("['As'] = 'P22: the Ace.'")
    assert.is_nil(ok)
    assert.matches("the wrong move 'As' is one of the step's answers", why)
  end)

  it("asks numbers as whole numbers, explained with a rule id, and names a game there is", function()
    local l, why = learn.load_source(lesson("{ text = 't', ask = 'a', number = 1.5, wrong = 'P1: no' }"), "90-x.lua")
    assert.is_nil(l)
    assert.matches("'number' must be a whole number", why)
    l, why = learn.load_source(lesson("{ text = 't', ask = 'a', number = 8, wrong = 'eight' }"), "90-x.lua")
    assert.is_nil(l)
    assert.matches("led by its rule id", why)
    assert.is_truthy(learn.load_source(lesson("{ text = 't', ask = 'a', number = 8, wrong = 'P11: eight' }"),
      "90-x.lua"))
    l, why = learn.load_source((lesson("{ text = 't' }"):gsub('"pilotta"', '"chess"')), "90-x.lua")
    assert.is_nil(l)
    assert.matches("no game 'chess'", why)
  end)
end)
