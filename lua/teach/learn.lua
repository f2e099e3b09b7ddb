--- diloti.learn: a course of short lessons on the rules.
--
-- A lesson is a Lua script returning data (see lua/games/NAME/lessons/ and
-- docs/rules.md): id, title, rules (the RULES.md ids it teaches), an
-- optional intro, and steps. Each step explains one idea, may set up a
-- table from a position string, and asks for either a move (`accept`: the
-- moves that count as right, or a predicate over the played move) or a
-- choice (`choices`, `answer`). Steps without a question are notes.
--
-- A lesson belongs to one game's course (its `game`, the default game
-- when it names none; a lesson in a game's folder is that game's): game
-- NAME's lessons are in lua/games/NAME/lessons/. What differs from game
-- to game (the board, the sentences, reading a typed move) is the table
-- part of the game's package (lua/registry.lua), found from the game's
-- rules.
--
-- Built-in lessons are compiled into the program; a teacher adds one by
-- dropping a file into $XDG_CONFIG_HOME/diloti/lessons/ (or its NAME/
-- folder for game NAME's course). All of
-- them are loaded in the same sandbox as rules variants, so a lesson can
-- hold data and small functions but can touch nothing outside itself.
--
-- The runner takes read/write functions, like the table's session, so
-- the tests drive it with scripted lines.
local diloti = require "diloti"
local core = require "diloti.core"
local textfile = require "diloti.scripts.textfile"
local untrusted = require "diloti.scripts.untrusted"
local catalogue = require "diloti.scripts.catalogue"
local driver = require "diloti.driver"
local screen = require "diloti.table.screen"
local games = require "diloti.table.games"
local rulebook = require "diloti.table.rulebook"
local registry = require "diloti.registry"

local M = {}

-- The main chunk, and each call of an `accept` function.
local LOAD = { budget = 2000000, time = 2 }
local CALL = { budget = 1000000, time = 1, memory = 16 * 1024 * 1024 }
-- Lessons are set up with a fixed seed so that unplaced cards, and hence
-- the drawings in docs/rules.md, never change between runs.
M.SEED = 1
-- A rule id ("D19:", "V-forced-capture:", "P24:" ...) at the start of an
-- explanation: a word after one of the first letters of the games' ids
-- (each rulebook part's LEAD).
local rule_lead
local function leads(text)
  if not rule_lead then
    local letters = {}
    for _, pkg in ipairs(registry.list()) do
      local book = registry.part(pkg, "rulebook")
      letters[#letters + 1] = book and book.LEAD or ""
    end
    rule_lead = "^[" .. table.concat(letters) .. "][%w%-=]*:"
  end
  return text:match(rule_lead)
end
-- M.DEFAULT_GAME: the course a lesson that names no game belongs to (the
-- default game's; read when first asked).
setmetatable(M, { __index = function(_, k)
  if k == "DEFAULT_GAME" then return registry.default().name end
end })

-- ---------------------------------------------------------------------
-- Loading lessons

local LESSON_KEYS = {
  id = "string", title = "string", rules = "table", steps = "table", intro = "string",
  spec = "string", players = "number", examples = "table", game = "string",
}
local STEP_KEYS = {
  text = "string", position = "string", spec = "string", players = "number", continue = "boolean",
  before = "table", ask = "string", accept = "any", wrong = "string", wrong_moves = "table",
  hint = "string", after = "string", choices = "table", answer = "any", wrong_choices = "table",
  notation = "table", number = "number",
}
local NOTATION_KEYS = { move = "string", says = "string", also = "table" }


local function check_fields(t, keys, where)
  for k, v in pairs(t) do
    local want = keys[k]
    if not want then return nil, string.format("%sunknown field '%s'", where, tostring(k)) end
    if want ~= "any" and type(v) ~= want then
      return nil, string.format("%sfield '%s' must be a %s", where, k, want)
    end
  end
  return true
end

-- (A list with a hole is refused: its length, which the lesson is
-- walked up to later, may be any border of it, 2^40 for a thousand
-- entries.)
local function is_list_of(t, kind)
  if type(t) ~= "table" or #t == 0 then return false end
  local n = 0
  for _, v in ipairs(t) do
    if type(v) ~= kind then return false end
    n = n + 1
  end
  return n == #t
end

local function step_kind(step)
  if step.accept ~= nil then return "move" end
  if step.choices ~= nil then return "question" end
  if step.number ~= nil then return "number" end
  return "note"
end
M.step_kind = step_kind

-- `learn --check` plays every accepted move and every `before` move, and
-- the runner resolves each `wrong_moves` spelling: a lesson from a
-- stranger may list only so many, each of a move's length.
local MAX_LIST = { accept = 16, before = 40, choices = 10 }
local MAX_WRONG_MOVES, MAX_MOVE_TEXT = 16, 200

local function check_lists(s, where)
  for k, max in pairs(MAX_LIST) do
    local t = s[k]
    if type(t) == "table" then
      if #t > max then return nil, string.format("%s'%s' lists at most %d entries", where, k, max) end
      for _, v in ipairs(t) do
        if type(v) == "string" and #v > MAX_MOVE_TEXT then
          return nil, string.format("%s'%s' has an entry longer than %d bytes", where, k, MAX_MOVE_TEXT)
        end
      end
    end
  end
  local n = 0
  for k, v in pairs(s.wrong_moves or {}) do
    n = n + 1
    if type(k) ~= "string" or type(v) ~= "string" or #k > MAX_MOVE_TEXT then
      return nil, where .. "'wrong_moves' maps a move (a short text) to its explanation"
    end
  end
  if n > MAX_WRONG_MOVES then
    return nil, string.format("%s'wrong_moves' lists at most %d moves", where, MAX_WRONG_MOVES)
  end
  return true
end

local function check_move_step(s, where)
  if not (type(s.accept) == "function" or is_list_of(s.accept, "string")) then
    return nil, where .. "'accept' must be a list of moves or a function"
  end
  if not s.position and not s.continue then return nil, where .. "a move step needs a position (or continue)" end
  if not (s.wrong and leads(s.wrong)) then
    return nil, where .. "'wrong' must explain a wrong move, led by its rule id (e.g. 'D11: ...')"
  end
  return true
end

local function check_question_step(s, where)
  if not is_list_of(s.choices, "string") or #s.choices < 2 then
    return nil, where .. "'choices' must list at least two answers"
  end
  local answers = type(s.answer) == "table" and s.answer or { s.answer }
  if #answers == 0 then return nil, where .. "'answer' is missing" end
  for _, a in ipairs(answers) do
    if math.type(a) ~= "integer" or not s.choices[a] then
      return nil, where .. "'answer' must be the number of a choice (or a list of them)"
    end
  end
  if not (s.wrong and leads(s.wrong)) then
    return nil, where .. "'wrong' must explain a wrong choice, led by its rule id"
  end
  if not s.ask then return nil, where .. "a question needs 'ask'" end
  return true
end

-- A question answered with a number (a score, a count of points).
local function check_number_step(s, where)
  if math.type(s.number) ~= "integer" then return nil, where .. "'number' must be a whole number" end
  if not s.ask then return nil, where .. "a question needs 'ask'" end
  if not (s.wrong and leads(s.wrong)) then
    return nil, where .. "'wrong' must explain a wrong number, led by its rule id"
  end
  return true
end

-- A notation is a line or two shown with the board, and `learn --check`
-- resolves each spelling: a lesson from a stranger may not make either
-- cost more than a few moves' worth.
local NOTATION_MAX_ALSO, NOTATION_MAX_TEXT = 8, 200

local function check_notation(n, where)
  local ok, why = check_fields(n, NOTATION_KEYS, where .. "notation: ")
  if not ok then return nil, why end
  if not n.move then return nil, where .. "notation: needs 'move', the example to type" end
  if n.also and not is_list_of(n.also, "string") then
    return nil, where .. "notation: 'also' must list other spellings of the move"
  end
  if n.also and #n.also > NOTATION_MAX_ALSO then
    return nil, string.format("%snotation: 'also' lists at most %d spellings", where, NOTATION_MAX_ALSO)
  end
  for _, k in ipairs{ "move", "says" } do
    if n[k] and #n[k] > NOTATION_MAX_TEXT then
      return nil, string.format("%snotation: '%s' is longer than %d bytes", where, k, NOTATION_MAX_TEXT)
    end
  end
  for _, alt in ipairs(n.also or {}) do
    if #alt > NOTATION_MAX_TEXT then
      return nil, string.format("%snotation: 'also' has a spelling longer than %d bytes", where, NOTATION_MAX_TEXT)
    end
  end
  return true
end

local function check_step(s, i)
  local where = string.format("step %d: ", i)
  if type(s) ~= "table" then return nil, where .. "must be a table" end
  local ok, why = check_fields(s, STEP_KEYS, where)
  if not ok then return nil, why end
  if s.notation then
    ok, why = check_notation(s.notation, where)
    if not ok then return nil, why end
  end
  if not s.text then return nil, where .. "needs 'text'" end
  if i == 1 and s.continue then return nil, where .. "the first step cannot continue a previous one" end
  ok, why = check_lists(s, where)
  if not ok then return nil, why end
  local kind = step_kind(s)
  if kind == "move" then return check_move_step(s, where) end
  if kind == "question" then return check_question_step(s, where) end
  if kind == "number" then return check_number_step(s, where) end
  return true
end

local function check(t, file)
  if type(t) ~= "table" then return nil, "the script must return a table" end
  local ok, why = check_fields(t, LESSON_KEYS, "")
  if not ok then return nil, why end
  if not (t.id and t.id:match("^%d%d%-[%w%-]+$")) then
    return nil, "needs an id like '07-raising' (two digits, a dash, a name)"
  end
  local stem = file:match("([^/]+)%.lua$")
  if stem and stem ~= t.id then return nil, string.format("id '%s' does not match the file name", t.id) end
  if not t.title or t.title:find("\n") then return nil, "needs a one-line title" end
  if t.game ~= nil and games.name_of(t.game) ~= t.game then
    return nil, string.format("no game '%s': lessons are for %s", t.game, table.concat(games.names(), ", "))
  end
  if not is_list_of(t.rules, "string") then return nil, "'rules' must list the rule ids it teaches" end
  if not is_list_of(t.steps, "table") then return nil, "needs a list of steps" end
  for i, s in ipairs(t.steps) do
    local sok, swhy = check_step(s, i)
    if not sok then return nil, swhy end
  end
  return t
end

local named = textfile.with_file

-- step -> how to load its lesson afresh (see load_source)
local RELOAD = setmetatable({}, { __mode = "k" })

-- Loads one lesson's source in a fresh sandbox: the lesson and its box,
-- or nil and a message naming the file.
local function load_lesson(src, file)
  local box, t = untrusted.load(src, file, {
    label = "lesson " .. file, load = LOAD, budget = CALL.budget, time = CALL.time, memory = CALL.memory,
  })
  if not box then return nil, t end
  local lesson, why = check(t, file)
  if not lesson then
    box:close()
    return nil, file .. ": " .. untrusted.said(why)
  end
  lesson.title = untrusted.line(lesson.title)
  lesson.file = file
  -- An accept function a limit stopped may have left its state halfway
  -- through a change: the lesson is loaded afresh and its steps take the
  -- new functions. The box they leave is closed: kept until the host's
  -- garbage went, a lesson that broke it on every move filled every
  -- script's memory together.
  local function reload()
    local fresh, fresh_box = load_lesson(src, file)
    if not fresh then return end
    for i, st in ipairs(lesson.steps) do
      if fresh.steps[i] then st.accept = fresh.steps[i].accept end
    end
    box:close()
    box = fresh_box
  end
  for _, st in ipairs(lesson.steps) do
    if type(st.accept) == "function" then RELOAD[st] = reload end
  end
  return lesson, box
end

--- Loads one lesson's source in a fresh sandbox. Returns the lesson or
-- nil and a message naming the file.
function M.load_source(src, file)
  local lesson, why = load_lesson(src, file)
  if not lesson then return nil, why end
  return lesson
end

local read_file = textfile.read

--- The teacher's folder: $XDG_CONFIG_HOME/diloti/lessons (or ~/.config/...).
function M.user_dir(getenv)
  return catalogue.user_dir("lessons", getenv)
end

--- The course a lesson belongs to.
function M.game_of(lesson) return lesson.game or M.DEFAULT_GAME end

--- A lesson's name in the progress file: its id, after its game's name
-- for a course other than the default game's ("NAME/03-trumping").
function M.key(lesson)
  local game = M.game_of(lesson)
  return game == M.DEFAULT_GAME and lesson.id or (game .. "/" .. lesson.id)
end

-- One lesson of the catalogue, under its key; a lesson in a game's folder
-- (sub) is that game's.
local function list_one(src, file, builtin, sub)
  local l, err = M.load_source(src, file)
  if not l then return nil, err end
  if sub then
    if l.game ~= nil and l.game ~= sub then
      return nil, string.format("%s: it is for %s, but lies in the folder of %s's lessons ('%s/')", file, l.game,
        sub, sub)
    end
    if sub ~= M.DEFAULT_GAME then l.game = sub end
  end
  l.builtin = builtin
  return l, M.key(l)
end

--- Every lesson of a course, sorted by id: built-in ones, then the
-- teacher's folder and `dirs` (a later lesson with the same id replaces
-- an earlier one). opts: getenv, dirs, builtin_only, game (the course:
-- the default game's unless named; "*" for every course). Returns the list and a
-- list of {file, message} for lessons that were refused.
function M.load_all(opts)
  opts = opts or {}
  local game = opts.game or M.DEFAULT_GAME
  local found, _, errors = catalogue.scan("lessons", list_one, opts)
  local list = {}
  for _, l in pairs(found) do
    if game == "*" or M.game_of(l) == game then list[#list + 1] = l end
  end
  table.sort(list, function(a, b)
    if M.game_of(a) ~= M.game_of(b) then return M.game_of(a) < M.game_of(b) end
    return a.id < b.id
  end)
  return list, errors
end

-- ---------------------------------------------------------------------
-- Setting up a step

--- The names a board uses: the learner is "You", the others by seat,
-- as the notation names them (P4@1 is "Seat 1's").
function M.names(seat, players)
  local names = { you = seat }
  for s = 0, players - 1 do names[s] = s == seat and "You" or ("Seat " .. s) end
  return names
end

-- Plays a move; returns its public event (nil and the refusal if refused).
local function play_event(g, move)
  return driver.new(g):play(move)
end

--- The table's module for game g's game (its package's table part).
function M.game_module(g)
  return games.get(diloti.game_of(g:rules()))
end

-- (st: the learner's style, so that the sentence names cards as the
-- board does, 8♥ rather than 8h)
local function sentence(g, e, learner, st)
  return M.game_module(g).describe(st or screen.style{}, e, M.names(learner, g:rules().players),
    { rules = g:rules() })
end

-- Cards a position places only to make its numbers work (such as spare
-- cards in the capture piles, docs/notation.md 3.4) are no part of the
-- lesson: the game module says which, and the board leaves them out
-- rather than puzzle the learner.
local FILLER = setmetatable({}, { __mode = "k" })
-- The learner's seat at a step's table: whoever is to move, or, once
-- nobody is (a round played out), whoever moved last.
local LEARNER = setmetatable({}, { __mode = "k" })

local function shown_view(g, seat)
  local v, filler = g:view(seat), FILLER[g]
  if not filler then return v end
  return M.game_module(g).lesson_view(v, filler)
end

--- What a line typed at a move step means in game g (as moveinput.resolve
-- answers), with the game's own forms for lessons where it has them;
-- `expected`: the step's accepted moves (text -> true).
local function resolve_in(g, line, expected)
  local gm = M.game_module(g)
  if gm.lesson_resolve then return gm.lesson_resolve(g, line, expected or {}) end
  return gm.resolve(g, line)
end

-- A copy of a step's game that keeps what the board leaves out.
local function clone_game(g)
  local c = g:clone()
  FILLER[c], LEARNER[c] = FILLER[g], LEARNER[g]
  return c
end

--- The game a step starts from. `prev` is the game the previous step
-- ended with (for `continue`). Returns the game and the lines saying what
-- the `before` moves did (in style st, the default's when nil), or nil
-- and a message.
function M.setup(lesson, step, prev, st)
  local g, err
  if step.continue then
    if not prev then return nil, "this step continues a previous one, which has no table" end
    g = clone_game(prev)
  elseif step.position then
    g, err = diloti.new {
      game = M.game_of(lesson), rules = step.spec or lesson.spec, players = step.players or lesson.players,
      position = step.position, seed = M.SEED,
    }
    if not g then return nil, err end
  else
    return nil, "no table in this step"
  end
  local gm = M.game_module(g)
  if not step.continue and gm.lesson_spares then
    FILLER[g] = gm.lesson_spares(g, step.position)
  end
  local events = {}
  for _, m in ipairs(step.before or {}) do
    local e, why = play_event(g, m)
    if not e then return nil, string.format("the move '%s' before this step was refused: %s", m, why) end
    events[#events + 1] = e
  end
  LEARNER[g] = g:turn() or LEARNER[g]
  local said = {}
  for i, e in ipairs(events) do said[i] = sentence(g, e, LEARNER[g], st) end
  return g, said
end

--- Calls fn(i, step, g, said, answers) for each step of a lesson: g is
-- the step's table (nil when it has none), said the sentences for its
-- `before` moves, answers the canonical accepted moves. A continuing step
-- starts from the previous table after its first answer. Returns true,
-- or nil and a message at the first step that cannot be set up.
function M.walk(lesson, fn)
  local prev
  for i, step in ipairs(lesson.steps) do
    local g, said, answers
    if step.position or step.continue then
      g, said = M.setup(lesson, step, prev)
      if not g then return nil, string.format("%s step %d: %s", lesson.id, i, said) end
    end
    if g and step_kind(step) == "move" then
      local set, list = M.accepted(g, step)
      if not set then return nil, string.format("%s step %d: %s", lesson.id, i, list) end
      answers = list
      local ok, why = M.check_wrong_moves(g, step, set)
      if not ok then return nil, string.format("%s step %d: %s", lesson.id, i, why) end
    end
    if step.notation then
      local ok, why = M.check_notation(g, step)
      if not ok then return nil, string.format("%s step %d: %s", lesson.id, i, why) end
    end
    if g then
      prev = clone_game(g)
      if answers then prev:play(answers[1]) end
    end
    fn(i, step, g, said, answers)
  end
  return true
end

--- Is each of a step's `wrong_moves` a legal move in game g that is not
-- one of its answers (`set`)? One that is not would never be said.
-- Returns true or nil and why.
function M.check_wrong_moves(g, step, set)
  local texts = {}
  for text in pairs(step.wrong_moves or {}) do texts[#texts + 1] = text end
  table.sort(texts)
  for _, text in ipairs(texts) do
    -- (read as wrong_text reads it when the learner plays it)
    local r = M.game_module(g).resolve(g, text)
    if not r.move then
      return nil, string.format("the wrong move '%s' is not legal here: %s", text, r.error or "it is ambiguous")
    end
    if set[r.move] then return nil, string.format("the wrong move '%s' is one of the step's answers", text) end
  end
  return true
end

-- A step's accept function on one move: pcall's answers. One a limit
-- stopped is loaded afresh (load_source) before the next call.
local function call_accept(step, info)
  local ok, res = pcall(step.accept, info)
  if not ok then
    local box = core.box.of(step.accept)
    if box and box:broken() and RELOAD[step] then RELOAD[step]() end
  end
  return ok, res
end

--- The canonical texts of a step's accepted moves in game g, or nil and
-- a message when one of them is not legal there. A predicate step gives
-- the legal moves it accepts.
function M.accepted(g, step)
  local set, list = {}, {}
  if type(step.accept) == "function" then
    for _, m in ipairs(g:moves(true)) do
      -- (one failure is the step's answer: a limit hit on every legal
      -- move would keep the learner or the author waiting for each)
      local ok, res = call_accept(step, m)
      if not ok then
        return nil, string.format("the step's accept function failed on %s: %s", m.text, tostring(res))
      end
      if res == true then set[m.text] = true; list[#list + 1] = m.text end
    end
    if #list == 0 then return nil, "the step accepts none of the legal moves" end
    return set, list
  end
  for _, text in ipairs(step.accept) do
    local r = M.game_module(g).resolve(g, text)
    if not r.move then
      return nil, string.format("the accepted move '%s' is not legal here: %s", text, r.error or "it is ambiguous")
    end
    if not set[r.move] then list[#list + 1] = r.move end
    set[r.move] = true
  end
  return set, list
end

--- Does the played move (a g:moves(true) entry) answer the step?
function M.is_right(step, set, info)
  if type(step.accept) ~= "function" then return set[info.text] == true end
  local ok, res = call_accept(step, info)
  return ok and res == true
end

-- ---------------------------------------------------------------------
-- What a learner types: the table's notation and short forms, and the
-- natural ones a game's lessons teach (such as "declare 8" and "3h on
-- 5s", which pick among the moves that fit the one the step expects).

--- A line typed at a lesson's move step, as moveinput.resolve answers
-- it; `expected` is the set of the step's accepted moves (text -> true).
function M.resolve(g, step, line, expected)
  if not expected then expected = M.accepted(g, step) end
  return resolve_in(g, line, expected)
end

--- Is a step's notation an example of a legal move on its board, and do
-- its other spellings name the same move? Returns true or nil and why.
function M.check_notation(g, step)
  local n = step.notation
  if not g then return nil, "a notation needs the step's table" end
  local r = M.game_module(g).resolve(g, n.move)
  if not r.move then
    return nil, string.format("the notation '%s' is not a legal move here: %s", n.move, r.error or "it is ambiguous")
  end
  -- (the step's accepted moves once: an accept function is a call into
  -- the lesson's box per legal move)
  local expected = M.accepted(g, step) or {}
  for _, alt in ipairs(n.also or {}) do
    local a = M.resolve(g, step, alt, expected)
    if a.move ~= r.move then
      return nil, string.format("the notation's '%s' is not the move '%s'", alt, n.move)
    end
  end
  return true
end

--- The lines that show how to type a step's move.
function M.notation_lines(step)
  local n = step.notation
  if not n then return {} end
  local lines = { "How to type it: " .. n.move }
  if n.says then lines[#lines + 1] = "  (" .. n.says .. ")" end
  if n.also then lines[#lines + 1] = "  The same move: " .. table.concat(n.also, "  or  ") end
  return lines
end

--- The lesson's words for a legal move that is not what was asked.
function M.wrong_text(g, step, move)
  for text, why in pairs(step.wrong_moves or {}) do
    local r = M.game_module(g).resolve(g, text)
    if r.move == move then return why end
  end
  return step.wrong
end

-- ---------------------------------------------------------------------
-- Progress: one line per lesson started, "KEY done|open STEP,STEP,..."
-- (the key is the id, after "NAME/" for a lesson of another game than
-- the default one: M.key).

--- Where progress is kept ($XDG_STATE_HOME/diloti/progress), or nil.
function M.progress_path(getenv)
  local d = catalogue.state_dir(getenv)
  return d and (d .. "/progress") or nil
end

--- Reads a progress file. A missing, unreadable or damaged file gives
-- what could be read (lines that make no sense are skipped).
function M.load_progress(path)
  local p = {}
  local text = path and read_file(path, textfile.MAX_PROGRESS)
  for line in (text or ""):gmatch("[^\n]+") do
    local id, state, steps = line:match("^(%l*/?%d%d%-[%w%-]+) (%a+) ?([%d,]*)$")
    if id and (state == "done" or state == "open") then
      local e = { done = state == "done", steps = {} }
      for n in steps:gmatch("%d+") do e.steps[tonumber(n)] = true end
      p[id] = e
    end
  end
  return p
end

local function progress_lines(p)
  local ids = {}
  for id in pairs(p) do ids[#ids + 1] = id end
  table.sort(ids)
  local lines = { "# diloti lessons: ID done|open, then the steps answered" }
  for _, id in ipairs(ids) do
    local steps = {}
    for n in pairs(p[id].steps) do steps[#steps + 1] = n end
    table.sort(steps)
    lines[#lines + 1] = string.format("%s %s %s", id, p[id].done and "done" or "open", table.concat(steps, ","))
  end
  return table.concat(lines, "\n") .. "\n"
end

local function quote(s) return "'" .. s:gsub("'", [['\'']]) .. "'" end

--- Writes progress (through a temporary file, so a crash never leaves
-- half a file). Returns true or nil and a message.
function M.save_progress(path, p)
  if not path then return nil, "nowhere to keep progress (no HOME or XDG_STATE_HOME)" end
  local dir = path:match("^(.*)/[^/]+$")
  if dir then os.execute("mkdir -p " .. quote(dir) .. " 2>/dev/null") end
  local tmp = path .. ".tmp"
  local f, err = io.open(tmp, "w")
  if not f then return nil, err end
  local ok, werr = f:write(progress_lines(p))
  f:close()
  if not ok then os.remove(tmp); return nil, werr end
  local rok, rerr = os.rename(tmp, path)
  if not rok then os.remove(tmp); return nil, rerr end
  return true
end

-- ---------------------------------------------------------------------
-- The runner

local Runner = {}
Runner.__index = Runner
M.Runner = Runner

--- A runner. o: write(text), read(prompt) -> line | nil (end) | false
-- (Ctrl-C), style (screen style), getenv, progress_path (false: keep
-- nothing), lessons (a list; loaded when absent), dirs, game (the
-- course, the default game's unless named).
function M.runner(o)
  o = o or {}
  local getenv = o.getenv or os.getenv
  local write, style = o.write or io.write, o.style or screen.style{}
  local self = setmetatable({
    -- Lessons are strangers' files too: all a runner writes is cleaned
    -- here (screen.safe), titles, steps, hints and messages alike.
    write = function(text) write(screen.safe(style, text)) end,
    read = o.read or screen.ask,
    style = style,
    getenv = getenv,
    game = o.game or M.DEFAULT_GAME,
  }, Runner)
  if o.progress_path == nil then self.path = M.progress_path(getenv) else self.path = o.progress_path or nil end
  self.progress = M.load_progress(self.path)
  if o.lessons then
    self.lessons, self.errors = o.lessons, {}
  else
    self.lessons, self.errors = M.load_all { getenv = getenv, dirs = o.dirs, game = self.game }
  end
  return self
end

function Runner:say(text)
  -- (cleaned before it is fitted, so that the widths are the shown ones)
  self.write(screen.fit(self.style, screen.safe(self.style, text)) .. "\n")
end

function Runner:record(lesson, n, finished)
  local key = M.key(lesson)
  local e = self.progress[key] or { done = false, steps = {} }
  if n then e.steps[n] = true end
  if finished then
    local all = true
    for i = 1, #lesson.steps do if not e.steps[i] then all = false end end
    e.done = all
  end
  self.progress[key] = e
  if self.path then
    local ok, err = M.save_progress(self.path, self.progress)
    if not ok and not self.warned then
      self.warned = true
      self:say("(progress cannot be saved: " .. tostring(err) .. ")")
    end
  end
end

--- "done", "3/5" or "" for a lesson.
function Runner:mark(lesson)
  local e = self.progress[M.key(lesson)]
  if not e then return "" end
  if e.done then return "done" end
  local n = 0
  for i = 1, #lesson.steps do if e.steps[i] then n = n + 1 end end
  return string.format("%d/%d", n, #lesson.steps)
end

function Runner:list()
  -- (each game has a course, and `diloti learn` lists them all: each list
  -- says whose it is)
  self:say("Lessons: " .. games.get(self.game).title .. " ('learn N' takes one, 'learn next' the next one not done):")
  for i, l in ipairs(self.lessons) do
    local mark = self:mark(l)
    mark = mark == "done" and "[x]" or (mark == "" and "[ ]" or mark)
    self.write(screen.fit(self.style, string.format("%3d. %-5s %s", i, mark, screen.safe(self.style, l.title)))
      .. "\n")
    self.write(screen.fit(self.style, "           rules " .. table.concat(l.rules, " ")) .. "\n")
  end
  for _, e in ipairs(self.errors or {}) do self:say("refused lesson: " .. e.message) end
end

--- A lesson by number, id, id prefix or "next"; nil and a message if none.
function Runner:find(what)
  what = (what or "next"):match("^%s*(.-)%s*$")
  if what == "next" or what == "" then
    for _, l in ipairs(self.lessons) do
      local e = self.progress[M.key(l)]
      if not (e and e.done) then return l end
    end
    return nil, "every lesson is done; 'learn N' takes one again"
  end
  local n = math.tointeger(tonumber(what))
  if n then
    if self.lessons[n] then return self.lessons[n] end
    for _, l in ipairs(self.lessons) do if tonumber(l.id:sub(1, 2)) == n then return l end end
  end
  for _, l in ipairs(self.lessons) do
    if l.id == what or l.id:sub(1, #what) == what or l.id:sub(4, 3 + #what) == what then return l end
  end
  return nil, string.format("no lesson '%s'; type 'learn' for the list", what)
end

-- The board the learner sees for game g.
function M.board(st, g)
  local seat = g:turn() or LEARNER[g] or 0
  return M.game_module(g).board(st, shown_view(g, seat),
    { names = M.names(seat, g:rules().players), rules = g:rules() })
end

local QHELP = "Type the number of your answer, or: hint, skip, quit."
local NHELP = "Type a number, or: hint, skip, quit."

-- Commands every question understands; returns a result or nil.
local function common(self, word, step, show, g)
  if word == "quit" or word == "q" or word == "exit" then return "quit" end
  if word == "skip" then return "skip" end
  if word == "hint" then
    self:say("Hint: " .. (step.hint or "read the step's text again: the answer is in it."))
    return "again"
  end
  if word == "board" or word == "b" then if show then show() end return "again" end
  if word == "help" or word == "?" then
    local kind = step_kind(step)
    self:say(kind == "question" and QHELP or kind == "number" and NHELP
      or (g and M.game_module(g).lesson_help) or QHELP)
    return "again"
  end
  return nil
end

-- Reads one line; "eof" at the end of input.
local function ask(self)
  local line = self.read("lesson> ")
  if line == nil then return nil, "eof" end
  if line == false then
    self:say("(line dropped; type 'quit' to leave the lesson)")
    return nil, "again"
  end
  return line
end

-- The loop every asking step runs, a line at a time: the words common()
-- knows first (a skip shows `skipped()`, when given), then `answer(word,
-- line)`, which returns the step's result, or nil to ask again.
function Runner:ask_until(step, show, g, skipped, answer)
  while true do
    local line, why = ask(self)
    if not line then
      if why == "eof" then return "eof" end
    else
      local word = line:match("^%s*(%S*)"):lower()
      local c = common(self, word, step, show, g)
      if c == "quit" then return "quit" end
      if c == "skip" then
        if skipped then skipped() end
        return "skipped"
      end
      if not c and word ~= "" then
        local result = answer(word, line)
        if result then return result end
      end
    end
  end
end

-- 'why MOVE' at a move step, as the table answers it: is the move
-- allowed here and what would it do; nothing is played.
-- An engine's sentence in the board's words (cards and bids with the
-- suit symbols style st shows, where the game's table part says so).
local function in_words(g, st, text)
  local seat = g:turn()
  return games.words(M.game_module(g), st, text, M.names(seat, g:rules().players), seat)
end

local function why_move(g, step, rest, expected)
  local gm = M.game_module(g)
  local function words(text) return in_words(g, screen.style{}, text) end
  if rest == "" then return "Which move? e.g. 'why " .. (gm.move_example or "MOVE") .. "'" end
  local r = M.resolve(g, step, rest, expected)
  if r.candidates then return "That fits several moves: " .. table.concat(r.candidates, " | ") .. "." end
  if r.error then return "Not allowed: " .. words(rulebook.rule_first(r.error)) end
  local _, what = g:check(r.move)
  return "Legal: " .. words(r.move .. ": " .. tostring(what)) .. " (only asked: type it without 'why' to play it)"
end

--- A sentence of the engine's in the learner's style (in_words).
function Runner:words(g, text) return in_words(g, self.style, text) end

function Runner:move_step(step, g)
  local set, list = M.accepted(g, step)
  if not set then return "error", list end
  local function show() self.write(M.board(self.style, g) .. "\n") end
  show()
  for _, line in ipairs(M.notation_lines(step)) do self:say(line) end
  self:say(step.ask or "Your move.")
  local function skipped()
    self:say("Skipped. One right answer: " .. list[1])
    play_event(g, list[1])
  end
  return self:ask_until(step, show, g, skipped, function(word, line)
    if word == "moves" or word == "m" then
      self.write(M.game_module(g).moves(self.style, g:moves(true)) .. "\n")
      return nil
    end
    if word == "why" or word == "check" then
      self:say(why_move(g, step, (line:gsub("^%s*%S+%s*", ""):gsub("%s+$", "")), set))
      return nil
    end
    local r = M.resolve(g, step, line, set)
    if r.candidates then
      self:say("That fits several moves: " .. table.concat(r.candidates, " | ") .. ". Say which one.")
    elseif r.error then
      -- (a text the rules refuse as it is read comes with the reader's
      -- "not a move: " before the rule's own words)
      self:say("Not allowed: " .. self:words(g, rulebook.rule_first(r.error)))
    else
      local info
      for _, m in ipairs(g:moves(true)) do if m.text == r.move then info = m end end
      if M.is_right(step, set, info) then
        local seat = g:turn()
        self:say("Right: " .. sentence(g, play_event(g, r.move), seat, self.style))
        if step.after then self:say(step.after) end
        return "right"
      end
      self:say("That move (" .. self:words(g, r.move) .. ") is legal, but not what this step asks. "
        .. M.wrong_text(g, step, r.move))
    end
  end)
end

local function is_answer(step, n)
  if type(step.answer) == "table" then
    for _, a in ipairs(step.answer) do if a == n then return true end end
    return false
  end
  return step.answer == n
end
M.is_answer = is_answer

function Runner:question_step(step, g)
  local function show() if g then self.write(M.board(self.style, g) .. "\n") end end
  show()
  self:say(step.ask)
  for i, c in ipairs(step.choices) do self:say(string.format("  %d) %s", i, c)) end
  return self:ask_until(step, show, g, nil, function(word)
    local n = math.tointeger(tonumber(word))
    if not n and word:match("^%a$") then n = word:byte() - 96 end
    if not (n and step.choices[n]) then
      self:say(string.format("Type a number from 1 to %d.", #step.choices))
    elseif is_answer(step, n) then
      self:say("Right." .. (step.after and (" " .. step.after) or ""))
      return "right"
    else
      self:say("Not quite. " .. ((step.wrong_choices or {})[n] or step.wrong))
    end
  end)
end

function Runner:number_step(step, g)
  local function show() if g then self.write(M.board(self.style, g) .. "\n") end end
  show()
  self:say(step.ask)
  local function skipped() self:say("Skipped. The answer: " .. step.number) end
  return self:ask_until(step, show, g, skipped, function(word)
    local n = math.tointeger(tonumber(word))
    if not n then
      self:say("Type a whole number.")
    elseif n == step.number then
      self:say("Right." .. (step.after and (" " .. step.after) or ""))
      return "right"
    else
      self:say("Not quite. " .. step.wrong)
    end
  end)
end

function Runner:note_step(g)
  if g then self.write(M.board(self.style, g) .. "\n") end
  local line = self.read("(press Enter) ")
  if line == nil then return "eof" end
  if line and line:match("^%s*q") then return "quit" end
  return "right"
end

function Runner:step(lesson, i, prev)
  local step = lesson.steps[i]
  self:say(string.format("\n-- %s, step %d of %d", lesson.title, i, #lesson.steps))
  local g, said
  if step.position or step.continue then
    g, said = M.setup(lesson, step, prev, self.style)
    if not g then return "error", said end
  end
  self:say(step.text)
  for _, line in ipairs(said or {}) do self:say(line) end
  local kind = step_kind(step)
  local res, err
  if kind == "move" then res, err = self:move_step(step, g)
  elseif kind == "question" then res, err = self:question_step(step, g)
  elseif kind == "number" then res, err = self:number_step(step, g)
  else res = self:note_step(g) end
  return res, err, g
end

--- Runs one lesson. Returns "done", "quit" or "eof".
function Runner:run_lesson(lesson)
  self:say(string.format("Lesson %s: %s (rules %s)", lesson.id, lesson.title, table.concat(lesson.rules, ", ")))
  if lesson.intro then self:say(lesson.intro) end
  local prev
  for i = 1, #lesson.steps do
    local res, err, g = self:step(lesson, i, prev)
    if res == "error" then
      self:say(string.format("This lesson is broken at step %d (%s): %s", i, lesson.file or lesson.id, err))
      return "quit"
    end
    if res == "quit" or res == "eof" then
      self:record(lesson, nil, false)
      return res
    end
    if res == "right" then self:record(lesson, i, false) end
    prev = g or prev
  end
  self:record(lesson, nil, true)
  local done = self.progress[M.key(lesson)].done
  self:say(done and ("Lesson done: " .. lesson.title .. ".")
    or "End of the lesson. Steps you skipped stay open: take the lesson again to answer them.")
  return "done"
end

--- Runs lessons from `first` on, offering the next one after each.
function Runner:course(first)
  local lesson = first
  while lesson do
    local res = self:run_lesson(lesson)
    if res ~= "done" then return res end
    local nxt = self:find("next")
    if not nxt then self:say("Every lesson is done. Well played.") return "done" end
    local line = self.read(string.format("Next: %s. Press Enter to start it, or type quit: ",
      screen.safe(self.style, nxt.title)))
    if not line or line:match("^%s*q") then return line == nil and "eof" or "quit" end
    lesson = nxt
  end
  return "done"
end

-- ---------------------------------------------------------------------
-- At the table, and on the command line

--- `learn`, `learn N`, `learn next` for a table session T: the course
-- of the game at the table.
function M.table_command(T, rest)
  local r = M.runner { write = T.write, read = T.read, style = T.style, getenv = T.getenv,
    progress_path = T.learn_progress_path, game = T.gm and T.gm.name or nil }
  if rest == "" or rest == "list" then return r:list() end
  local lesson, err = r:find(rest)
  if not lesson then return T:complain(err) end
  r:run_lesson(lesson)
  T:print("Back at the table.")
  T:show()
end

-- Has a lesson of a game's course been done? (progress keys, M.key)
local function course_started(progress, game)
  for key, e in pairs(progress) do
    local g = key:match("^(%l+)/") or M.DEFAULT_GAME
    if g == game and e.done then return true end
  end
  return false
end

--- Puts the lessons at a table being built: the `learn` command, and a
-- word in the opening lines for whoever has not finished a lesson of
-- that game's course yet (each game module has its own words).
function M.install(T)
  local path = T.learn_progress_path
  if path == nil then path = M.progress_path(T.getenv) end
  local progress = M.load_progress(path or nil)
  for _, name in ipairs(games.names()) do
    local gm = games.get(name)
    if gm.learn_greeting and not course_started(progress, name) then
      T:greet(gm.learn_greeting, function(s) return (s.gm and s.gm.name or M.DEFAULT_GAME) == name end)
    end
  end
  T.commands.add {
    name = "learn", aliases = { "lesson", "lessons" }, usage = "learn [N|next]",
    help = "lessons on the rules of the game at the table: the list, or take lesson N (or the next one)",
    examples = { "learn", "learn 3", "learn next" },
    run = M.table_command,
  }
end

-- Walks each lesson of a list; a line per lesson, problems added to `problems`.
local function check_list(lessons, out, problems)
  for _, l in ipairs(lessons) do
    local steps, moves = 0, 0
    local ok, why = M.walk(l, function(_, _, _, _, answers)
      steps = steps + 1
      if answers then moves = moves + 1 end
    end)
    if ok then
      out(string.format("%s: %d steps, %d with a move: ok%s\n", l.id, steps, moves,
        l.builtin and "" or ("  [" .. l.file .. "]")))
    else
      problems[#problems + 1] = named(why, l.file)
    end
  end
end

local function count(n, what) return n .. " " .. what .. (n == 1 and "" or "s") end

--- Checks lessons without playing them: the file given, or every lesson
-- found (built in and the teacher's folders), course by course. Each is
-- loaded and walked step by step: every position set up, every accepted
-- move legal, every `before` move played. Writes a line per lesson to
-- out; returns the number of problems. opts as load_all's (game: one
-- course only).
function M.check(file, out, opts)
  local write = out
  out = function(text) write(screen.safe(nil, text)) end -- lessons' texts and errors, cleaned
  opts = opts or {}
  local problems = {}
  if file then
    local src, err = read_file(file, textfile.MAX_SCRIPT)
    local l
    if src then l, err = M.load_source(src, file) end
    if l then check_list({ l }, out, problems) else problems[1] = err end
    for _, p in ipairs(problems) do out("problem: " .. p .. "\n") end
    out(count(l and 1 or 0, "lesson") .. " loaded and walked, " .. count(#problems, "problem") .. "\n")
    return #problems
  end
  local all, errors = M.load_all { getenv = opts.getenv, dirs = opts.dirs, builtin_only = opts.builtin_only,
    game = opts.game or "*" }
  for _, e in ipairs(errors) do problems[#problems + 1] = named(e.message, e.file) end
  local courses, by_game = {}, {}
  for _, l in ipairs(all) do
    local g = M.game_of(l)
    if not by_game[g] then by_game[g] = {}; courses[#courses + 1] = g end
    table.insert(by_game[g], l)
  end
  local summary = {}
  for _, g in ipairs(courses) do
    local before = #problems
    check_list(by_game[g], out, problems)
    summary[#summary + 1] = string.format("%s%s loaded and walked, %s\n",
      #courses > 1 and (games.get(g).title .. ": ") or "", count(#by_game[g], "lesson"),
      count(#problems - before, "problem"))
  end
  for _, p in ipairs(problems) do out("problem: " .. p .. "\n") end
  for _, line in ipairs(summary) do out(line) end
  if #courses ~= 1 then
    out(count(#all, "lesson") .. " loaded and walked, " .. count(#problems, "problem") .. "\n")
  end
  return #problems
end

-- The other courses than the one being taken, each after a blank line.
local function list_others(st, game)
  for _, name in ipairs(games.names()) do
    if name ~= game then
      local r = M.runner { style = st, game = name }
      if #r.lessons > 0 then
        r:say(string.format("\n%s has a course too: 'diloti learn --game %s'.", games.get(name).title, name))
        r:list()
      end
    end
  end
end

--- `diloti learn [LESSON] [--game G]`: the list (every course's), then the
-- lesson asked for (or the next one not done) and those after it, in
-- the course of G (the default game's unless named); with --check, M.check.
function M.cli(a)
  local game
  if a.game then
    local why
    game, why = games.name_of(a.game)
    if not game then io.stderr:write("diloti: ", screen.safe(nil, why), "\n") return 1 end
  end
  if a.check then
    return M.check(a.lesson, io.write, { game = game }) > 0 and 1 or 0
  end
  game = game or M.DEFAULT_GAME
  local has_line, line = pcall(require, "diloti.line")
  local tty = has_line and line.isatty()
  local st = screen.detect(os.getenv, has_line and line.width or nil)
  if not tty then st.colour = false end
  local r = M.runner { read = tty and line.read or nil, style = st, game = game }
  -- (the other courses first when a lesson follows, so that the list of
  -- the course being taken is the one just above its first lesson)
  if a.lesson == "list" then
    r:list()
    list_others(st, game)
    return 0
  end
  if not a.lesson then
    list_others(st, game)
    r:say("")
    r:list()
  end
  local lesson, err = r:find(a.lesson)
  if not lesson then
    if a.lesson then io.stderr:write("diloti: ", screen.safe(nil, err), "\n") return 1 end
    r:say(err)
    return 0
  end
  r:course(lesson)
  return 0
end

return M
