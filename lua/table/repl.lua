-- The table: where people play, at a Lua prompt.
--
-- A session is one front end over a room (lua/room.lua: the game, the
-- seats, the driver and the record): the keyboard, the screen, the Lua
-- prompt and the session's own commands (commands.new_set).
-- Each line typed is, in this order: a command (the `commands` table,
-- which a user file may extend), a move (notation, a number from the
-- list, or a short unambiguous form), or Lua, run with the game in scope
-- as `g`. Input and output are functions, so the tests drive a session
-- with scripted lines and no terminal; the program gives it libedit.
local diloti = require "diloti"
local core = require "diloti.core"
local textfile = require "diloti.scripts.textfile"
local ai = require "diloti.ai.player"
local room = require "diloti.room"
local screen = require "diloti.table.screen"
local games = require "diloti.table.games"
local commands = require "diloti.table.commands"
local rulebook = require "diloti.table.rulebook"

local M = { commands = commands }


local Session = {}
M.Session = Session

-- What the room holds, read and written through the session as before
-- (T.g, T.opts, T.specs, T.players, T.players_n): a game put at the
-- table (T.g = other) is put in the room.
local ROOM_KEYS = { g = true, opts = true, specs = true, players = true, players_n = true }
Session.__index = function(t, k)
  if ROOM_KEYS[k] then
    local r = rawget(t, "room")
    return r and r[k]
  end
  return Session[k]
end
Session.__newindex = function(t, k, v)
  local r = rawget(t, "room")
  if r and ROOM_KEYS[k] then
    if k == "g" then r:set_game(v) else r[k] = v end
    return
  end
  rawset(t, k, v)
end

local DIRECTIONS = { [2] = { [0] = "South", [1] = "North" },
  [3] = { [0] = "South", [1] = "East", [2] = "West" },
  [4] = { [0] = "South", [1] = "East", [2] = "North", [3] = "West" } }

-- ---------------------------------------------------------------------
-- Output

-- Everything the table prints fits the terminal's width, and none of it
-- can drive the terminal: AI and variant texts, records, lessons and
-- error messages come from strangers' files, so print is the one place
-- where the table's output is cleaned (screen.safe keeps the board's own
-- colours).
local function joined(...)
  local parts = table.pack(...)
  for i = 1, parts.n do parts[i] = tostring(parts[i]) end
  return table.concat(parts, "\t")
end

function Session:print(...)
  self.write(screen.fit(self.style, screen.safe(self.style, joined(...))) .. "\n")
end

-- The values and print() output of Lua the user typed at the prompt: their
-- own code, shown as it is (it may colour its output on purpose).
function Session:print_raw(...)
  self.write(screen.fit(self.style, joined(...)) .. "\n")
end

function Session:printf(fmt, ...)
  self:print(string.format(fmt, ...))
end

--- Says a refusal or a problem, plainly; never raises.
function Session:complain(msg)
  self:print(msg)
end

-- ---------------------------------------------------------------------
-- Games and seats

local function side_name(self, side)
  local sides = self.g:view(0).sides or 2
  if sides == self.players_n then return self.names[side] end
  local a, b = side, side + sides
  return self.names[a] .. " & " .. (self.names[b] or "?")
end
Session.side_name = side_name

local function seat_label(players_n, humans, seat, spec)
  local dir = DIRECTIONS[players_n] and DIRECTIONS[players_n][seat] or ("Seat " .. seat)
  if spec.kind == "human" then
    if humans == 1 then return "You" end
    return dir
  end
  return string.format("%s (%s)", spec.name, dir)
end

--- The seats' names for specs ({kind = "human"} or {kind = "ai", name})
-- and a player count: "You", "greedy (North)", or directions when
-- several people play.
function Session.seat_names(specs, players_n)
  local humans = 0
  for seat = 0, players_n - 1 do
    if specs[seat].kind == "human" then humans = humans + 1 end
  end
  local names = {}
  for seat = 0, players_n - 1 do names[seat] = seat_label(players_n, humans, seat, specs[seat]) end
  return names, humans
end

local on_event -- (below: what the table makes of the room's events)

--- Starts a new game from options (see the `new` command). Returns true,
-- or nil and a message (the current game is kept).
function Session:new_game(o)
  o = o or {}
  local name, gerr = games.name_of(o.game, o.rules)
  if not name then return nil, gerr end
  local gm = games.get(name)
  local ro = {}
  for k, v in pairs(o) do ro[k] = v end
  ro.game, ro.seed = name, o.seed or self.clock() % 1000000
  ro.rules_dirs, ro.ai_dirs, ro.default_ai, ro.player = self.rules_dirs, self.ai_dirs, gm.default_ai(self.ai_dirs),
    gm.player
  ro.interrupted = function() return self.interrupted() end
  local r, err = room.new(ro)
  if not r then return nil, err end
  self:seat_at(r, gm)
  return true
end

--- Seats the session at a room (a new game's, or one made elsewhere:
-- an online room, lua/table/remote.lua) whose game's table part is gm.
function Session:seat_at(r, gm)
  r:listen(function(e, _, d) on_event(self, e, d) end)
  self.room, self.gm = r, gm
  self.commands.use_game(gm)
  self.names, self.humans = Session.seat_names(r.specs, r.players_n)
  self.practice = r.opts.practice ~= false
  self.log, self.recent, self.paused, self.saved = {}, {}, false, false
  -- (the board of the first person's seat; a spectator's room draws the
  -- spectator's view)
  self.viewer = self:first_human()
  if self.viewer == nil and not r.spectator then self.viewer = 0 end
  self.shown_round = nil
end

--- "You 12, greedy (North) 7" (rounds won too, where rounds decide).
function Session:score_line(view)
  view = view or self.g:view(self.viewer)
  local parts = {}
  for side = 0, (view.sides or 2) - 1 do
    local won = view.rounds_won and view.rounds_won[side]
    parts[#parts + 1] = string.format("%s %d%s", side_name(self, side), view.score[side] or 0,
      (won and won > 0) and string.format(" (%d round%s won)", won, won == 1 and "" or "s") or "")
  end
  return table.concat(parts, ", ")
end

function Session:first_human()
  for seat = 0, self.players_n - 1 do
    if self.specs[seat].kind == "human" then return seat end
  end
end

function Session:is_human(seat)
  return self.room:is_human(seat)
end

--- The seat a person must move for now, or nil.
--- The rules of the game at the table (asked of the engine once a game).
function Session:rules()
  if self._rules_of ~= self.g then self._rules_of, self._rules = self.g, self.g:rules() end
  return self._rules
end

function Session:human_to_move()
  local seat = self.g:turn()
  if self:is_human(seat) then return seat end
end

function Session:unfinished()
  return self.g and self.g:phase() ~= "match-over" and #self.g:history() > 0 and not self.saved
end

-- ---------------------------------------------------------------------
-- Playing

local function remember(self, seat, move, event, note)
  local line = self.gm.describe(self.style, event, self.names, { rules = self:rules() })
  self.log[#self.log + 1] = {
    seat = seat, move = move, text = line, round = event.round, deal = event.deal, note = note,
    hist = event.number, -- this move's index in g:history()
    event = event,
  }
  self.recent[#self.recent + 1] = line
  self.saved = false
  if self.on_move then self.on_move(seat, move, event) end
end

-- Observers follow every move: before_move(session, seat, move, game)
-- sees the game before a legal move is played, after_move(session, seat,
-- move, event) after it. The coach is one. A failing observer is
-- reported, never fatal.
--- A line for the opening lines, under the banner (an extension's word
-- to a newcomer).
function Session:greet(line, when)
  self.greetings[#self.greetings + 1] = { line = line, when = when }
end

function Session:observe(o)
  for _, have in ipairs(self.observers) do
    if have.name == o.name then return end
  end
  self.observers[#self.observers + 1] = o
end

local function notify(self, what, ...)
  for _, o in ipairs(self.observers) do
    if o[what] then
      local ok, err = xpcall(o[what], debug.traceback, self, ...)
      if not ok then self.recent[#self.recent + 1] = string.format("warning: %s failed: %s", o.name or what, err) end
    end
  end
end

-- What the table makes of the driver's events: the log, the observers,
-- warnings, and the round's end.
function on_event(self, e, d)
  if e.type == "move" then
    local info = d.last_info or {}
    if info.warning then self.recent[#self.recent + 1] = info.warning end
    remember(self, e.seat, e.move, e, info.note)
    notify(self, "after_move", e.seat, e.move, e)
    for _, line in ipairs(self.gm.after_move(self, e)) do self.recent[#self.recent + 1] = line end
  elseif e.type == "warning" then
    self.recent[#self.recent + 1] = "warning: " .. e.message
  elseif e.type == "round_over" then
    -- The round's last moves first, then where the cards went, then the
    -- breakdown (with the match's result when it is over).
    for _, line in ipairs(self.recent) do self:print(line) end
    self.recent = {}
    self:print(self.gm.round_summary(self.style, e.result, self.names, { rules = self:rules() }))
    -- Time to read the breakdown before the next deal's first moves
    -- scroll it away (a person at a terminal only: not piped, not CI).
    -- 'quit' there leaves, without dealing the next round.
    if self.pause_rounds and not e.result.over then
      local answer = self.read(string.format("Press Enter to deal round %d. ",
        select(3, self.g:where()) + 1))
      local word = type(answer) == "string" and answer:match("^%s*(%S*)"):lower()
      if word and self.commands.find(word) == self.commands.find("quit") then self:leave() end
    end
  elseif e.type == "round_start" and e.new_round then
    local who = self.names[e.dealer]
    self.recent[#self.recent + 1] = who == "You" and string.format("Round %d: you deal.", e.round)
      or string.format("Round %d: %s deals.", e.round, who)
  end
end

--- The game loop for the game at the table (lua/driver.lua, held by the
-- room): the AIs play their seats, the people's seats wait for what they
-- type.
function Session:driver()
  return self.room:driver()
end

--- The computer may think now (an AI's move, the coach's search): at a
-- terminal a line says so if the wait passes a third of a second, until
-- the table next writes or asks.
function Session:thinking()
  if self.busy then self.busy(true) end
end

--- Plays a move for the seat to move; returns true or nil and the
-- engine's reason (led by the rule id). The game is untouched when it is
-- refused. info: an AI's answer (note, warning); seat: the seat to move,
-- when the caller knows the move is legal.
function Session:play(move, info, seat)
  local g = self.g
  if #self.observers > 0 then
    -- (observers see legal moves only; a caller that resolved the move
    -- already says whose it is)
    if not seat then
      local parsed = g:parse(move)
      seat, move = parsed and parsed.seat, parsed and parsed.text or move
    end
    if seat then
      self:thinking()
      notify(self, "before_move", seat, move, g)
    end
  end
  local e, why, gone = self.room:play(nil, move, info)
  if not e then return nil, why, gone end
  return true
end

-- Lets the AIs play until a person is to move or the match ends (a
-- round's end is shown as it happens). Ctrl-C stops before the AI's move
-- is played (the game is untouched) and pauses: 'go' carries on.
function Session:advance()
  local r = self.room
  while true do
    if self.done or self.paused and self.g:turn() then return end
    -- (each move's line erases the thinking line: armed again for the next)
    self:thinking()
    local e, why, more, seat = r:step()
    -- (a room whose moves come from elsewhere, in their own time: each
    -- is shown as it comes)
    if r.live and #self.recent > 0 then
      for _, line in ipairs(self.recent) do self:print(line) end
      self.recent = {}
    end
    if not e then
      if why == "closed" then
        -- (a room elsewhere that is gone for good: the session ends)
        self:complain(tostring(more))
        self.done = true
      elseif why == "interrupted" and more == nil then
        self.paused = true
        self:print("Interrupted: type 'go' to follow the room again.")
      elseif why == "interrupted" then
        self.paused = true
        self:print(string.format("Interrupted: %s's move was not played. Type 'go' to let it play.",
          self.names[more]))
      elseif why == "refused" then
        self:complain(string.format("%s: %s", self.names[seat], more))
        self.paused = true
      end
      return
    end
  end
end

--- Shows the board to the person to move (or the last one who did), and
-- what happened since. With several people at one keyboard, the hand is
-- hidden until the next one presses Enter.
function Session:show()
  if self.done then return end -- (left at the pause between rounds)
  local seat = self:human_to_move()
  if seat and self.humans > 1 and seat ~= self.viewer then
    -- (an undo at the hand-over has drawn the board for its asker)
    if self:handover(seat) then return end
  end
  if seat then self.viewer = seat end
  local view = self.g:view(self.viewer)
  local names = setmetatable({ you = self.viewer }, { __index = self.names })
  -- (the mover's own legal moves say what its turn line may suggest; asked
  -- for only by a game that needs them)
  local g, viewer = self.g, self.viewer
  local function moves() return view.turn == viewer and g:moves() or {} end
  self:print(self.gm.board(self.style, view, { names = names, recent = self.recent, rules = self:rules(),
    moves = moves }))
  self.recent = {}
  local phase = view.phase
  if phase == "match-over" then
    -- (the board says the match is over, the round's breakdown who won)
    self:print(self.room.over_line or "Type 'new' for another game.")
  elseif seat then
    local say = self.gm.prompt_line(view, self.names[seat])
    if say then self:print(say) end
  end
end

-- Several people at one keyboard: clear the screen and wait, so that the
-- next player does not see the previous one's hand. The one who just
-- moved may still take it back here, before the keyboard changes hands.
-- Returns true if they did. ESC[3J clears the scrollback as well: ESC[2J
-- alone leaves every hand shown so far a scroll away.
function Session:handover(seat)
  self.write(self.style.colour and "\27[H\27[2J\27[3J" or string.rep("\n", 40))
  local mover = self.viewer
  local can_undo = mover and self:is_human(mover) and commands.can_undo(self, mover)
  self:printf("%s's turn. Pass the keyboard to %s and press Enter.", self.names[seat], self.names[seat])
  if can_undo then self:printf("(%s: type 'undo' instead to take your move back.)", self.names[mover]) end
  local answer = self.read("")
  if can_undo and type(answer) == "string" and answer:match("^%s*[Uu]n?d?o?%s*$") then
    -- (whoever typed it, the hand shown next is the mover's: hand the
    -- keyboard back first)
    self.viewer = nil
    commands.undo(self, mover)
    return true
  end
  return false
end

--- An engine's sentence in the board's words (the game's own words():
-- suit symbols where the terminal shows them, "you" for the person to
-- move); as it is for a game without one.
function Session:words(text)
  return games.words(self.gm, self.style, text, self.names, self:human_to_move() or self.viewer)
end

--- Says why a typed move was refused; the first time a refusal cites a
-- rule id, also how to read that rule.
function Session:refused(why)
  why = rulebook.rule_first(why)
  self:complain("Refused: " .. self:words(why))
  local id = why:match("^([%w%-]+):")
  if id and not self.told_rules_id and rulebook.is_id(id) and rulebook.find(id) then
    self.told_rules_id = true
    self:printf("('rules %s' explains the rule, with an example.)", id)
  end
end

--- Plays what a person typed as a move, if it is one. Returns true if
-- the line was taken as a move (played or refused). sure: the person said
-- it is a move ('play ...', or a line that only a move could be), so the
-- move reader's message is shown even when it does not look like one.
function Session:try_move(line, sure)
  if not sure and not self.gm.looks_like_move(line) then return false end
  local seat = self:human_to_move()
  if not seat then
    self:complain("It is not your turn" .. (self.g:phase() == "match-over" and ": the match is over." or "."))
    return true
  end
  local r = self.gm.resolve(self.g, line)
  if r.candidates then
    self:print("That fits several moves; type one of them (or its number in 'moves'):")
    for _, m in ipairs(r.candidates) do self:print("  " .. m) end
  elseif r.error then
    self:refused(r.error)
    if r.suggestions and #r.suggestions > 0 then
      self:print("Legal moves close to it: " .. table.concat(r.suggestions, ", ", 1, math.min(4, #r.suggestions)))
    end
  else
    -- (a game may ask once about a move that costs more than it seems:
    -- the same move typed again is played)
    local doubt = self.gm.second_thought and self.gm.second_thought(self.g, r.move)
    if doubt and self.doubted ~= r.move then
      self.doubted = r.move
      self:complain(self:words(doubt))
      return true
    end
    self.doubted = nil
    local ok, why, gone = self:play(r.move, nil, seat)
    if gone == "closed" then
      -- (a room elsewhere, gone for good: the session ends)
      self:complain(tostring(why))
      self.done = true
      return true
    end
    -- (a move a room elsewhere may not have had: no refusal of the rules)
    if gone == "unsent" then self:complain(tostring(why)) return true end
    if not ok then self:refused(why) return true end
    if self.after_human_move then self.after_human_move(seat, r.move) end
    self:advance()
    self:show()
  end
  return true
end

-- ---------------------------------------------------------------------
-- Lua at the table

local function pretty(v, depth)
  depth = depth or 0
  if type(v) == "string" then return string.format("%q", v) end
  if type(v) ~= "table" or depth > 1 then return tostring(v) end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) == type(b) and (type(a) == "number" or type(a) == "string") then return a < b end
    return type(a) < type(b)
  end)
  local parts = {}
  for i, k in ipairs(keys) do
    if i > 24 then parts[#parts + 1] = "..."; break end
    local key = math.type(k) == "integer" and ("[" .. k .. "]") or tostring(k)
    parts[#parts + 1] = key .. " = " .. pretty(v[k], depth + 1)
  end
  return "{" .. table.concat(parts, ", ") .. "}"
end
M.pretty = pretty

function Session:lua_env()
  if self.env then return self.env end
  local session = self
  local function print_here(...) session:print_raw(...) end
  self.env = setmetatable({ diloti = diloti, ai = ai, session = self, T = self, print = print_here }, {
    __index = function(_, k)
      if k == "g" then return session.g end
      return _G[k]
    end,
  })
  return self.env
end

-- The traceback down to the table's own frames, which say nothing useful.
local function traceback(e)
  local msg = tostring(e)
  if msg:match("interrupted$") then return msg end
  -- A house rule's failure names its script, hook and line: the table's
  -- own frames would only bury that.
  if msg:match("^house rule") then return msg end
  -- (so is the engine's refusal of what house rules did, led by a rule id)
  if msg:match("^[DKCP]%d+: ") then return msg end
  local tb = debug.traceback(msg, 2)
  local cut = tb:find("\n%s*%[C%]: in function 'xpcall'")
  return cut and tb:sub(1, cut - 1) or tb
end

-- Compiles a chunk, trying it first as an expression (as lua.c does).
local function compile(code, env)
  local f = load("return " .. code, "=table", "t", env)
  if f then return f end
  return load(code, "=table", "t", env)
end

--- Is this (possibly multi-line) chunk unfinished?
function M.incomplete(code)
  local _, err = load(code, "=table", "t")
  return err ~= nil and err:match("<eof>$") ~= nil and not load("return " .. code, "=table", "t")
end

--- Runs Lua typed at the table. An error shows a traceback and leaves the
-- game as it was before the chunk ran.
function Session:run_lua(code)
  local f, err = compile(code, self:lua_env())
  if not f then self:complain(err) return end
  local g, saved = self.g, self.g:clone()
  local before = #g:history()
  local res = table.pack(xpcall(f, traceback))
  self.interrupted()
  if not res[1] then
    self:complain(res[2])
    if self.g == g and g:position() ~= saved:position() then
      self.room:set_game(saved)
      self:print("(the game was put back as it was before that line)")
    end
    return
  end
  for i = 2, res.n do self:print_raw(pretty(res[i])) end
  if self.g == g and #g:history() ~= before then
    self.recent[#self.recent + 1] = "(the game was changed from Lua)"
    self:advance()
    self:show()
  end
end

-- ---------------------------------------------------------------------
-- One line

--- Fits what follows to the terminal as it is now: its width is asked
-- again for each screen, so that a resized window is followed. A style
-- given to the session keeps its width.
function Session:refresh_width()
  if self.fixed_width then return end
  self.style.width = math.max(screen.width(self.getenv, self.terminal), screen.MIN_WIDTH)
end

-- A short first word that starts like a card ("9zz", "Qx"), or a line
-- with a move's operators: meant as a move, so it gets the move reader's
-- message rather than "unknown command".
local function meant_as_move(line)
  local first = line:match("^%s*(%S+)")
  if #first <= 3 and first:match("^[%dAaJjQqKkTt]") then return true end
  if #first > 4 then return false end
  for w in line:gmatch("%S+") do
    local lw = w:lower()
    if lw == "x" or lw == "+" or lw == "=" or lw == "lay" then return true end
  end
  return false
end

-- Lua typed without its prefix: say how to run it instead of guessing.
local function looks_like_lua(line)
  if line:match("[%(%):%[%]{}=\"']") then return true end
  local first = line:match("^%s*([%a_]+)")
  return first == "for" or first == "local" or first == "if" or first == "while" or first == "function"
    or first == "return" or first == "repeat" or first == "print" or first == "do"
end

function Session:unknown(word, line)
  local near = self.commands.nearest(word)
  local msg = string.format("unknown command '%s'", screen.safe(nil, word))
  if near then
    self:complain(msg .. "; did you mean " .. near .. "?")
  elseif looks_like_lua(line) then
    self:complain(string.format("%s. To run it as Lua, type '=%s' (or 'lua' for Lua mode).", msg,
      screen.safe(nil, line:match("^%s*(.-)%s*$"))))
  else
    self:complain(msg .. "; type 'help' for the commands, or a move such as '" .. self.gm.move_example .. "'.")
  end
end

--- Handles one complete line: a command, a move, or Lua behind its
-- prefix ('=EXPR', 'lua CODE', or any line in Lua mode).
function Session:handle(line)
  self:refresh_width()
  if self.lua_mode then
    if line:match("^%s*%.%s*$") then
      self.lua_mode = false
      return self:print("Back at the table.")
    end
    return self:run_lua(line)
  end
  if line:match("^%s*$") then
    if self.paused then self.paused = false; self:advance(); self:show() end
    return
  end
  local word, rest = line:match("^%s*(%S+)%s*(.-)%s*$")
  local cmd = self.commands.find(word)
  -- A word the game's moves begin with is the move's, even when a
  -- command (a user's own, say) has the same name (the set holds none).
  if cmd and self.gm.move_word and self.gm.move_word[word:lower()] then cmd = nil end
  if cmd then
    -- A broken command (a user's own, say) must not end the session.
    local ok, err = xpcall(cmd.run, traceback, self, rest, word)
    if not ok then self:complain(string.format("the '%s' command failed: %s", cmd.name, err)) end
    self.interrupted()
    return
  end
  if line:match("^%s*=") then return self:run_lua(line:match("^%s*=(.*)$")) end
  if self:try_move(line) then return end
  if meant_as_move(line) then return self:try_move(line, true) end
  self:unknown(word, line)
end

-- The Lua in a line, if the line is Lua: after '=' or 'lua ', or all of
-- it in Lua mode.
function Session:lua_part(line)
  if self.lua_mode then return not line:match("^%s*%.%s*$") and line or nil end
  local code = line:match("^%s*=(.*)$")
  if code then return code end
  local w, rest = line:match("^%s*(%S+)%s+(.-)$")
  if w and w:lower() == "lua" and rest:match("%S") then return rest end
  return nil
end

--- Reads one whole input: a line, or more while its Lua is unfinished.
-- Returns the text, nil at the end of input, or false after Ctrl-C.
function Session:read_input()
  local line = self.read(self:prompt())
  if not line then return line end
  local code = self:lua_part(line)
  while code and M.incomplete(code) do
    local more = self.read(">> ")
    if not more then return more end
    line, code = line .. "\n" .. more, code .. "\n" .. more
  end
  return line
end

function Session:prompt()
  if self.lua_mode then return "lua> " end
  local seat = self:human_to_move()
  if seat and self.humans > 1 then return screen.safe(nil, self.names[seat]) .. "> " end
  return "diloti> "
end

-- A yes or a no typed at a question that asks for a file name.
local function yes_no(answer)
  local w = answer:lower()
  if w == "y" or w == "yes" then return "yes" end
  if w == "n" or w == "no" then return "no" end
end

local function trimmed(answer)
  return type(answer) == "string" and answer:match("^%s*(.-)%s*$") or ""
end

--- Before 'new' or 'load' drops an unsaved game: asks, when someone can
-- answer, to save it, drop it or keep playing. Returns true to go on.
-- (A yes asks for the file; a no is asked again: keep or drop?)
function Session:may_discard(doing)
  if not (self:unfinished() and self.ask_on_quit) then return true end
  self:printf("This game is not saved. Before you %s:", doing)
  local answer = trimmed(self.read("type a file name to save it, 'discard' to drop it, or Enter to keep playing: "))
  if yes_no(answer) == "no" then
    self:printf("'%s' is not a file name here.", answer)
    answer = trimmed(self.read("A file name to save the game, 'discard' to drop it, or Enter to keep playing: "))
  elseif yes_no(answer) == "yes" then
    answer = trimmed(self.read("The file to save it in (Enter to keep playing): "))
  end
  if answer == "" then
    self:print("Your game goes on.")
    return false
  end
  if answer:lower() == "discard" then return true end
  self.commands.find("save").run(self, answer)
  if not self.saved then self:print("Your game goes on.") end
  return self.saved
end

--- Leaving: asks to save an unfinished game when someone can answer (a
-- yes asks for the file, a no leaves without saving).
function Session:leave()
  if self:unfinished() and self.ask_on_quit then
    -- (under 80 columns: the line editor breaks a longer prompt mid-word)
    local answer = trimmed(self.read("Save the unfinished game? A file name, or Enter to leave without saving: "))
    if yes_no(answer) == "yes" then
      answer = trimmed(self.read("The file to save it in (Enter to leave without saving): "))
    elseif yes_no(answer) == "no" then
      answer = ""
    end
    if answer ~= "" then self.commands.find("save").run(self, answer) end
  end
  self.done = true
end

-- Nothing that goes wrong while handling a line ends the session: a
-- house rule whose hook fails makes g:moves() raise, for one.
local function guarded(self, f, ...)
  self:thinking()
  local ok, err = xpcall(f, traceback, self, ...)
  if self.busy then self.busy(false) end
  self.interrupted()
  if not ok then
    self:complain("Error: " .. tostring(err))
    self:print("(the table goes on; 'new' starts another game)")
  end
end

--- The loop: returns the exit code.
function Session:run()
  self:refresh_width()
  self:print(M.banner(self))
  -- (a greeting may be for one game only: when(session) says)
  for _, gr in ipairs(self.greetings) do
    if not gr.when or gr.when(self) then self:print(gr.line) end
  end
  guarded(self, self.advance)
  guarded(self, self.show)
  while not self.done do
    local input = self:read_input()
    if input == nil then
      self:print("")
      guarded(self, self.leave)
      self.done = true
    elseif input == false then
      self:print("(Ctrl-C: line dropped. Type 'quit' or press Ctrl-D to leave.)")
    else
      if self.history_add then self.history_add(input) end
      guarded(self, self.handle, input)
    end
  end
  return 0
end

function M.banner(self)
  return string.format("diloti %s: the table. %s. Type 'help' for the commands.",
    diloti.version, self:describe_game())
end

function Session:describe_game()
  if self.room.describe then return self.room:describe() end
  local o = self.opts
  local ais, partner = {}, nil
  local me = self:first_human()
  local teams = self:rules().teams
  for seat = 0, self.players_n - 1 do
    if teams and me and seat ~= me and seat % 2 == me % 2 then
      partner = self.names[seat]
    elseif not self:is_human(seat) then
      ais[#ais + 1] = self.names[seat]
    end
  end
  local who = #ais > 0 and ("against " .. table.concat(ais, " and ")) or "people only"
  if partner then who = "with " .. partner .. " as partner, " .. who end
  return string.format("%s, %d players %s, seed %d%s", o.rules or self.gm.name, self.players_n, who, o.seed,
    self.practice and ", practice game (undo allowed)" or "")
end

-- ---------------------------------------------------------------------
-- Tab completion

local function starts(s, prefix)
  return s:sub(1, #prefix):lower() == prefix:lower()
end

-- The next word of each legal move that continues what is typed.
local function move_words(self, before, word)
  local out, seen = {}, {}
  local g = self.g
  if not g:turn() then return out end
  for _, m in ipairs(g:moves()) do
    if starts(m, before) then
      local nxt = m:sub(#before + 1):match("^(%S+)")
      if nxt and starts(nxt, word) and not seen[nxt] then
        seen[nxt] = true
        out[#out + 1] = nxt
      end
    end
  end
  return out
end

local function names_of(list, word)
  local out = {}
  for _, n in ipairs(list) do if starts(n, word) then out[#out + 1] = n end end
  table.sort(out)
  return out
end

-- The house rules of a game as its specs name them (by the name after
-- the base); with no base typed yet, the games' bases too.
local function rule_names(self, game, bases)
  local cat = diloti.variants.catalogue(self.rules_dirs)
  local out = diloti.variants.names_for(cat, game)
  if bases then
    local have = {}
    for _, n in ipairs(out) do have[n] = true end
    for _, g in ipairs(diloti.games()) do
      for _, b in ipairs(g.bases) do
        if not have[b] then out[#out + 1], have[b] = b, true end
      end
    end
  end
  return out
end

local function option_words(self, word)
  local key, val = word:match("^([%w_]+)=(.*)$")
  if key == "ai" or key == "partner" then
    local _, names = ai.catalogue(self.ai_dirs, self.opts and self.opts.game)
    local out = {}
    for _, n in ipairs(names) do if starts(n, val) then out[#out + 1] = key .. "=" .. n end end
    return out
  elseif key == "rules" then
    local head, last = val:match("^(.*%+)([^+]*)$")
    head, last = head or "", last or val
    local game = head ~= "" and games.name_of(nil, head) or self.gm.name
    local out = {}
    for _, n in ipairs(rule_names(self, game, head == "")) do
      if starts(n, last) then out[#out + 1] = "rules=" .. head .. n end
    end
    table.sort(out)
    return out
  end
  local keys = {}
  for k in commands.new_keys():gmatch("[%w_]+") do keys[#keys + 1] = k .. "=" end
  return names_of(keys, word)
end

--- Candidates for the word being typed at [start, ...) of the line.
function Session:complete(word, line, start)
  local before = line:sub(1, start - 1)
  local first = before:match("^%s*(%S+)%s")
  if not first then
    local out = names_of((function()
      local ns = {}
      for n in pairs(self.commands.by_name) do if #n > 1 then ns[#ns + 1] = n end end
      return ns
    end)(), word)
    for _, w in ipairs(move_words(self, "", word)) do out[#out + 1] = w end
    return out
  end
  local cmd = self.commands.find(first)
  if not cmd then return move_words(self, before:gsub("^%s+", ""), word) end
  if cmd.name == "new" then return option_words(self, word) end
  if cmd.name == "help" then
    local ns = {}
    for _, c in ipairs(self.commands.list) do ns[#ns + 1] = c.name end
    return names_of(ns, word)
  end
  if cmd.name == "rules" then return names_of(rule_names(self, self.gm.name), word) end
  if cmd.name == "ai" then
    return names_of(select(2, ai.catalogue(self.ai_dirs, self.opts and self.opts.game)), word)
  end
  if cmd.name == "why" then return move_words(self, before:gsub("^%s*%S+%s+", ""), word) end
  return {}
end

-- ---------------------------------------------------------------------

--- A session. o: write(text), read(prompt) -> line | nil | false,
-- interrupted() -> bool, history_add(line), getenv, clock() -> seconds,
-- busy(on, delay) (the thinking line at a terminal, lua/table's host:
-- src/lua/lline.c) and busy_delay (seconds before it shows, 0.3),
-- style (screen style, its width kept), terminal() -> the terminal's
-- width or nil (else COLUMNS, else 80), rules_dirs, ai_dirs, ask_on_quit,
-- pause_rounds (wait for Enter before each new deal), and game options
-- for the first game (see the `new` command); or room, a room made
-- elsewhere to sit at instead (an online room, lua/table/remote.lua: it
-- answers as lua/room.lua does, and may add live (show each event as it
-- comes), describe() (the banner's words), spectator and over_line).
function M.new(o)
  o = o or {}
  local self = setmetatable({
    write = o.write or io.write,
    read = o.read or screen.ask,
    interrupted = o.interrupted or function() return false end,
    history_add = o.history_add,
    getenv = o.getenv or os.getenv,
    clock = o.clock or os.time,
    rules_dirs = o.rules_dirs,
    ai_dirs = o.ai_dirs,
    ask_on_quit = o.ask_on_quit,
    pause_rounds = o.pause_rounds,
    save_dir = o.save_dir,
    terminal = o.terminal,
    fixed_width = o.style ~= nil,
    observers = {}, greetings = {},
    commands = commands.new_set(),
  }, Session)
  -- What the program adds to the table (the lessons, the coach): each
  -- puts its commands and observers in this session now (lua/cli.lua
  -- passes them).
  for _, ext in ipairs(o.extensions or {}) do ext.install(self) end
  if o.busy then
    -- The thinking line (line.busy): whatever the table writes or asks
    -- next erases it first.
    local write, read, busy = self.write, self.read, o.busy
    self.busy = function(on) return busy(on, o.busy_delay) end
    self.write = function(text) busy(false) return write(text) end
    self.read = function(prompt) busy(false) return read(prompt) end
  end
  self.style = o.style or screen.detect(self.getenv, self.terminal)
  if o.room then
    -- (a room made elsewhere: its game's table part draws it)
    self:seat_at(o.room, games.get(o.room.g:game()))
    return self
  end
  local ok, err = self:new_game(o.game)
  if not ok then return nil, err end
  return self
end

-- ---------------------------------------------------------------------
-- The program

local function xdg(var, fallback)
  local d = os.getenv(var)
  if d and d ~= "" then return d end
  local home = os.getenv("HOME")
  return home and (home .. fallback) or nil
end

local function quote(s) return "'" .. s:gsub("'", [['\'']]) .. "'" end

-- The user's own additions to the table: trusted code (like a shell's rc
-- file), run with the session's commands and the session in scope. Read with
-- the scripts' size limit, and only when it is an ordinary file.
local function user_file(self, dir)
  local path = dir and (dir .. "/table.lua")
  if not (path and core.filekind(path, true)) then return end
  local env = setmetatable({ commands = self.commands, session = self, diloti = diloti }, { __index = _G })
  local src, err = textfile.read(path, textfile.MAX_SCRIPT)
  local chunk
  if src then chunk, err = load(src, "@" .. path, "t", env) end
  if chunk then
    local ok, rerr = xpcall(chunk, debug.traceback)
    if not ok then err = rerr end
  end
  if err then self:print("warning: " .. path .. " failed, the table goes on without it: " .. err) end
end

-- DILOTI_THINKING_DELAY: seconds before the thinking line shows (0.3;
-- 0 at once, as the terminal test has it), 0 to 60.
local function thinking_delay()
  local d = tonumber(os.getenv("DILOTI_THINKING_DELAY") or "")
  if d and d >= 0 and d <= 60 then return d end
end

--- `diloti` and `diloti play`: the table at the terminal. a: the parsed
-- command line (rules, seed, rules_dir, ai_dir, ai, players, ...).
function M.start(a, extensions)
  local has_line, line = pcall(require, "diloti.line")
  if not has_line then line = nil end
  local state = xdg("XDG_STATE_HOME", "/.local/state")
  local hist = state and (state .. "/diloti/history")
  if line and hist then line.history_load(hist) end
  -- (--rules has a default, the default game's: with --game another
  -- game's own)
  local rules = a.rules
  if a.game and rules == games.default_name() then rules = nil end
  local game = {
    game = a.game, rules = rules, seed = a.seed and math.tointeger(tonumber(a.seed)), players = a.players,
    ai = a.ai, partner = a.partner, humans = a.humans, target = a.target,
    practice = a.practice ~= "off",
  }
  for _, v in ipairs(a.seat or {}) do
    local seat, who = v:match("^(%d)=(%S+)$")
    if not seat then
      io.stderr:write("diloti: --seat wants N=NAME (an AI name or 'human'), not '", v, "'\n")
      return 1
    end
    game.seats = game.seats or {}
    game.seats[tonumber(seat)] = who
  end
  local s, err = M.new {
    read = line and line.read or nil, interrupted = line and line.interrupted or nil,
    history_add = line and line.history_add or nil, rules_dirs = a.rules_dir, ai_dirs = a.ai_dir,
    terminal = line and line.width or nil,
    busy = line and line.busy or nil, busy_delay = thinking_delay(),
    ask_on_quit = line and line.isatty() or false, game = game, extensions = extensions,
    pause_rounds = line and line.isatty() and (os.getenv("CI") or "") == "" or false,
  }
  if not s then
    io.stderr:write("diloti: ", screen.safe(nil, err), "\n")
    return 1
  end
  if line and not line.isatty() then s.style.colour = false end
  if line then line.completer(function(word, text, start) return s:complete(word, text, start) end) end
  user_file(s, diloti.variants.user_dir())
  local code = s:run()
  if line and hist then
    os.execute("mkdir -p " .. quote(state .. "/diloti"))
    line.history_save(hist)
  end
  return code
end

return M
