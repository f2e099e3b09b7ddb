-- A room on a server, for the terminal table (issue 27): `diloti join
-- LINK` plays a seat of an online room, `diloti watch LINK` watches one.
--
-- A remote room answers the table (lua/table/repl.lua) as a room of its
-- own (lua/room.lua) does: `g` (the game as this viewer knows it),
-- `specs`, `players_n`, `opts`, listen, play, step, advance, is_human,
-- is_outside, view, undo. What it knows comes from the server's frames
-- (docs/protocol.md): `state` (the viewer's view, phase, turn and its
-- moves), `event` (cut for this viewer), `result`; what it does, it
-- sends (`move`, and `hint`, `why`, `explain` through ask). The table
-- draws and plays through it without knowing the room is elsewhere.
--
-- `g` here is no game handle: the engine and every hidden card are on
-- the server. It answers the handle's questions the table asks
-- (view, turn, phase, moves, rules, where, parse) from the last state
-- frame; a move it cannot find in the list of legal moves goes to the
-- server as typed, whose engine reads it and refuses it with its rule id.
--
-- The transport is two functions, send(text) and recv(timeout) -> text,
-- or nil and "timeout" or "closed" (and why), made by o.connect() for
-- each connection: the tests hand in a protocol host in the same process,
-- the program a WebSocket (diloti.wsclient). A dropped connection is
-- made again, saying the last frame seen (bounded tries).
--
-- Everything the server sends is untrusted like any network input: a
-- frame is read with a size and nesting bound, and what it holds is
-- printed through the table (which cleans every line it prints).
local diloti = require "diloti"
local json = require "diloti.match.json"
local registry = require "diloti.registry"

local M = {}

M.VERSION = 1
M.MAX_FRAME = 1 << 20   -- bytes of one frame from the server
M.MAX_DEPTH = 16        -- nesting of a frame (a view is a few levels deep)
M.WAIT = 1              -- seconds of one recv
M.REPLY_WAITS = 60      -- recvs without an answer before a request gives up
M.DRAIN = 64            -- frames read at most without waiting, before a prompt
M.TRIES = 5             -- connections tried after one dropped
M.BACKOFF = { 0, 1, 2, 4, 8 } -- seconds before each try

-- ---------------------------------------------------------------------
-- Frames

-- The server writes a seat's number as an object's key in text ("0"):
-- back to integers, as the game's own tables have them.
local function integer_keys(v)
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in pairs(v) do
    local n = type(k) == "string" and k:match("^%-?%d+$") and #k <= 9 and math.tointeger(tonumber(k))
    out[n or k] = integer_keys(x)
  end
  return out
end

--- A frame's text read: the message, or nil and why.
function M.read(text)
  if type(text) ~= "string" then return nil, "a frame is text" end
  if #text > M.MAX_FRAME then return nil, string.format("a frame over %d bytes", M.MAX_FRAME) end
  local ok, msg, err = pcall(json.decode, text, M.MAX_DEPTH)
  if not ok then return nil, type(msg) == "table" and msg.json or "not JSON" end
  if type(msg) ~= "table" or type(msg.type) ~= "string" then
    return nil, err or "a frame is a JSON object with a type"
  end
  return integer_keys(msg)
end

-- ---------------------------------------------------------------------
-- The game as this viewer knows it

local Game = {}
Game.__index = Game
M.Game = Game

local function trim(s) return (s:match("^%s*(.-)%s*$"):gsub("%s+", " ")) end

function Game:view() return self.st.view or {} end
function Game:turn() return self.st.turn end
function Game:phase() return self.st.phase or "waiting" end
function Game:game() return self.name end
function Game.history() return {} end
function Game:clone() return self end
function Game.position() return "" end

--- The legal moves of this viewer's seat when it is to move: the texts
-- (the structured form is the server's; asked for it, the texts as
-- tables), and what the list leaves out when it is cut.
function Game:moves(structured)
  local out = {}
  for i, m in ipairs(self.st.moves or {}) do out[i] = structured and { text = m } or m end
  return out, self.st.cut
end

function Game:count()
  return #(self.st.moves or {}), not self.st.cut
end

--- The rules: the view's own when it carries them, else the welcome's,
-- else the game's base rules for the players (the house rules of the
-- room are then the server's alone).
function Game:rules()
  local v = self.st.view
  if v and type(v.rules) == "table" then return v.rules end
  if not self.base_rules then
    local g = diloti.new { game = self.name, players = self.players }
    self.base_rules = g and g:rules() or { players = self.players }
  end
  return self.base_rules
end

function Game:where()
  local v = self:view()
  return self:phase(), self:turn(), v.round, v.deal, v.ply
end

--- A typed move as the table's readers ask the engine: a number of the
-- list, a text of the list (spelt any case, any spacing), one word that
-- begins exactly one listed move ("7h" when it has one use); a word that
-- begins several says which. Anything else is the server's to read: it
-- goes as typed, and a refusal comes back with its rule id.
function Game:parse(move)
  local list = self.st.moves or {}
  local seat = self.st.turn
  if math.type(move) == "integer" then
    if list[move] then return { text = list[move], seat = seat } end
    return nil, string.format("there is no move number %d: the list has %d", move, #list)
  end
  if type(move) ~= "string" then return nil, "not a move" end
  local text = trim(move)
  local low = text:lower()
  for _, m in ipairs(list) do
    if trim(m):lower() == low then return { text = m, seat = seat } end
  end
  if not low:find(" ", 1, true) and low ~= "" then
    local fits = {}
    for _, m in ipairs(list) do
      if m:lower():sub(1, #low) == low then fits[#fits + 1] = m end
    end
    if #fits == 1 then return { text = fits[1], seat = seat } end
    if #fits > 1 then
      return nil, string.format("'%s' begins several moves: %s; type one of them, or its number in 'moves'",
        text, table.concat(fits, ", ", 1, math.min(#fits, 8)) .. (#fits > 8 and ", ..." or ""))
    end
  end
  return { text = text, seat = seat }
end

--- Is a move legal? The server's engine says when it is played.
function Game.check()
  return false, "the online room checks a move when it is played ('why MOVE' asks the server)"
end

-- ---------------------------------------------------------------------
-- The room

local Remote = {}
Remote.__index = Remote
M.Remote = Remote

-- Words for what the server refused, when it says nothing more useful.
local GONE = {
  replaced = "this seat was joined from another connection (another window or device): this one is closed",
  ["bad-token"] = "the server knows no such room or token: the link is wrong, or the room is closed",
}

--- remote.open(o) -> a room, or nil and why. o: connect() -> transport
-- ({send, recv, close}) or nil and why; room, token (64 hex digits);
-- url (what the connection goes to, for messages); sleep(seconds)
-- (between reconnecting tries); wait (seconds of a recv, M.WAIT);
-- max_idle (recvs without a frame before giving up while waiting for
-- the others: none by default, people take their time; tests bound it);
-- interrupted() -> bool (Ctrl-C: asked while waiting).
function M.open(o)
  local self = setmetatable({
    connect = o.connect, room_id = o.room, token = o.token, url = o.url or "the server",
    sleep = o.sleep or function(s) if s > 0 then os.execute(string.format("sleep %d", s)) end end,
    wait = o.wait or M.WAIT, max_idle = o.max_idle, interrupted = o.interrupted,
    listeners = {}, queue = {}, last = 0, fresh = false, live = true, notes = {},
    over_line = "The match is over: 'quit' leaves the room.",
  }, Remote)
  -- (last 0: the frames so far, while the server still keeps them)
  local ok, why = self:join(0)
  if not ok then return nil, why end
  return self
end

-- Connects and says hello (with the last frame seen, when rejoining):
-- true, or nil and why.
function Remote:join(last)
  local t, why = self.connect()
  if not t then
    why = tostring(why or "no answer")
    return nil, why:match("^cannot connect") and why or ("cannot connect to " .. self.url .. ": " .. why)
  end
  self.t, self.welcome_msg = t, nil
  local sent, serr = self:send { type = "hello", room = self.room_id, token = self.token, last = last }
  if not sent then return nil, serr end
  local ok, werr = self:await(function() return self.welcome_msg end)
  if not ok then return nil, werr end
  local w = self.welcome_msg
  if w.type == "error" then
    return nil, GONE[w.code] or ("the server refused to join: " .. tostring(w.message))
  end
  if not self.g then
    local seated, fault = pcall(self.seat, self, w)
    if not seated then return nil, tostring(fault) end
  end
  return true
end

-- The room's seats from the welcome: this connection's seat a person's
-- ("You"), the others by the names the server gives.
function Remote:seat(w)
  local n = math.tointeger(w.players)
  if not n or n < 1 or n > 16 then error("the server's welcome has no player count", 0) end
  if type(w.game) ~= "string" or not registry.get(w.game) then
    error(string.format("the server plays a game this program does not know (%s)", tostring(w.game)), 0)
  end
  self.players_n, self.spectator = n, w.spectator == true
  self.my_seat = not self.spectator and math.tointeger(w.seat) or nil
  self.specs, self.players = {}, {}
  for seat = 0, n - 1 do
    local name = type(w.names) == "table" and w.names[seat]
    self.specs[seat] = seat == self.my_seat and { kind = "human" }
      or { kind = "remote", name = type(name) == "string" and name or ("seat " .. seat) }
  end
  self.g = setmetatable({ st = {}, name = w.game, players = n }, Game)
  -- (the room's rules when the welcome carries them, house rules and all:
  -- the rules table, or the spec that names them)
  if type(w.rules) == "table" then self.g.base_rules = w.rules end
  self.opts = { game = w.game, rules = type(w.rules) == "string" and w.rules or w.game, players = n, seed = 0,
    practice = false }
end

-- Sends a message: true, or nil and why. rejoin: a connection found
-- closed is made again and the message sent on the new one.
function Remote:send(msg, rejoin)
  msg.v = M.VERSION
  local text = json.encode(msg)
  local ok, why, more = self.t.send(text)
  if ok == nil and why == "closed" and rejoin then
    local back, err = self:reconnect(more)
    if not back then return nil, err end
    ok, why, more = self.t.send(text)
  end
  if ok == nil and why then
    return nil, "cannot send to " .. self.url .. ": " .. tostring(more or why)
  end
  return true
end

-- One frame in: true (something came), or nil and "timeout" or
-- "closed" (and why).
function Remote:pump(wait)
  local text, why, more = self.t.recv(wait or self.wait)
  if not text then
    if why == "timeout" then return nil, "timeout" end
    return nil, "closed", more or why
  end
  local msg = M.read(text)
  if not msg then return true end -- (a frame it cannot read: dropped)
  self:take(msg)
  return true
end

local STREAM = { state = true, event = true, result = true, seat = true, notice = true }

-- A line for what the server tells every viewer besides the game: a seat
-- that changed hands (a person gone too long, back again), a notice.
local function told(self, msg)
  local seat = math.tointeger(msg.seat)
  local who = seat == nil and "a seat" or (seat == self.my_seat and "your seat")
    or string.format("seat %d (%s)", seat, self.specs[seat] and self.specs[seat].name or "?")
  local why = type(msg.why) == "string" and (": " .. msg.why) or ""
  if msg.type == "notice" then return type(msg.message) == "string" and msg.message or nil end
  if msg.kind == "ai" then return string.format("%s is played by an AI now%s", who, why) end
  if msg.kind == "person" then return string.format("%s is played by its person again%s", who, why) end
end

-- A frame from the server: the stream's frames in order (once each: a
-- replay after reconnecting may send again what was seen), the replies
-- where the request waiting for them finds them.
function Remote:take(msg)
  local seq = math.tointeger(msg.seq)
  if STREAM[msg.type] then
    if not seq or seq <= self.last then return end
    self.last = seq
  end
  local ty = msg.type
  if ty == "state" then
    if type(msg.view) ~= "table" then return end
    local moves
    if type(msg.moves) == "table" then
      moves = {}
      for _, m in ipairs(msg.moves) do
        if type(m) == "string" then moves[#moves + 1] = m end
      end
    end
    self.g.st = { view = msg.view, phase = type(msg.phase) == "string" and msg.phase or nil,
      turn = math.tointeger(msg.turn), moves = moves, cut = type(msg.cut) == "string" and msg.cut or nil }
    self.fresh = true
  elseif ty == "event" then
    if type(msg.event) == "table" and type(msg.event.type) == "string" then
      self.queue[#self.queue + 1] = msg.event
      self.fresh = false
    end
  elseif ty == "result" then
    local r = type(msg.result) == "table" and msg.result or {}
    self.queue[#self.queue + 1] = { type = msg.kind == "match" and "match_over" or "round_over", result = r }
    self.fresh = false
  elseif ty == "seat" or ty == "notice" then
    local line = told(self, msg)
    if line then self.queue[#self.queue + 1] = { type = "warning", source = "room", message = line } end
  elseif ty == "welcome" then
    self.welcome_msg = msg
    -- (a fresh start of the stream: a server that restarted numbers its
    -- frames from 1 again, and the state that follows is the next one)
    if msg.resume ~= "replay" then self.last = seq or 0 end
  elseif ty == "error" and (msg.code == "replaced" or msg.code == "bad-token") then
    if self.welcome_msg == nil and msg.code == "bad-token" then self.welcome_msg = msg end
    self.gone = GONE[msg.code]
    self.reply = msg
  elseif ty == "refusal" or ty == "error" or ty == "advice" then
    self.reply = msg
  end
end

-- Reads frames until done() is true: true, or nil and why (the
-- connection lost for good, or no answer in REPLY_WAITS recvs). rejoin:
-- a dropped connection is made again (the frames missed come again), and
-- when they have come without done() the answer is nil, "rejoined": the
-- request never reached the server.
function Remote:await(done, rejoin)
  local idle, rejoined = 0, false
  while not done() do
    if self.gone then return nil, self.gone end
    local done_ok, ok, why, more = pcall(self.pump, self)
    if not done_ok then
      if tostring(ok):match("interrupted$") then
        return nil, "you stopped waiting for the server's answer (Ctrl-C); 'go' follows the room again"
      end
      error(ok, 0)
    end
    if ok then
      idle = 0
    elseif why == "timeout" then
      if rejoined then return nil, "rejoined" end
      idle = idle + 1
      if idle >= M.REPLY_WAITS then return nil, "the server at " .. self.url .. " does not answer" end
    elseif rejoin then
      local back, err = self:reconnect(more)
      if not back then return nil, err end
      rejoined = true
    else
      return nil, "the connection to " .. self.url .. " closed" .. (more and (": " .. tostring(more)) or "")
    end
  end
  return true
end

-- The connection dropped: connects again, saying the last frame seen,
-- up to TRIES times. true, or nil and why it gave up.
function Remote:reconnect(why)
  if self.t and self.t.close then pcall(self.t.close) end
  for i = 1, M.TRIES do
    self.sleep(M.BACKOFF[i] or M.BACKOFF[#M.BACKOFF])
    local ok, err = self:join(self.last)
    if ok then
      local w = self.welcome_msg
      self.notes[#self.notes + 1] = w.resume == "replay" and "connection lost and made again: nothing missed"
        or "connection lost and made again: the moves made meanwhile are not shown; the board is as it stands"
      return true
    end
    why = err
    if self.gone then break end
  end
  self.gone = self.gone or string.format("lost the connection to %s and could not make it again (%d tries): %s",
    self.url, M.TRIES, tostring(why))
  return nil, self.gone
end

-- Reads on until done(): a dropped connection is made again; an
-- interrupted wait and a connection lost for good end it. true, or nil
-- and why ("closed", "interrupted", "idle") and the message.
function Remote:follow(done)
  local idle = 0
  while not done() do
    if self.gone then return nil, "closed", self.gone end
    if self.interrupted and self.interrupted() then return nil, "interrupted" end
    -- (Ctrl-C at the terminal raises "interrupted" in the Lua running
    -- then, most likely here after a recv: the wait stops, nothing lost)
    local done_ok, ok, why, more = pcall(self.pump, self)
    if not done_ok then
      if tostring(ok):match("interrupted$") then return nil, "interrupted" end
      error(ok, 0)
    end
    if ok then
      idle = 0
    elseif why == "timeout" then
      idle = idle + 1
      if self.max_idle and idle >= self.max_idle then return nil, "idle", "nothing came from the server" end
    else
      local back, err = self:reconnect(more)
      if not back then return nil, "closed", err end
    end
  end
  return true
end

-- ---------------------------------------------------------------------
-- What the table asks of a room

function Remote:listen(fn)
  local l = self.listeners
  l[#l + 1] = fn
  return function()
    for i, f in ipairs(l) do if f == fn then table.remove(l, i) return end end
  end
end

-- The next event heard: to every listener (as a room's driver emits).
function Remote:emit()
  local e = table.remove(self.queue, 1)
  for _, fn in ipairs(self.listeners) do fn(e, self, {}) end
  return e
end

function Remote:is_outside(seat) return seat ~= nil and seat == self.my_seat end
function Remote:is_human(seat) return seat ~= nil and seat == self.my_seat end
function Remote:view() return self.g:view() end
function Remote:driver() return self end
function Remote.set_game() end

--- No taking back in a room others share.
function Remote.undo() return false end

--- What the banner says of the room.
function Remote:describe()
  local who = self.spectator and "watching" or string.format("playing seat %d", self.my_seat)
  local others = {}
  for seat = 0, self.players_n - 1 do
    if seat ~= self.my_seat then others[#others + 1] = self.specs[seat].name end
  end
  return string.format("%s, %d players, online at %s, %s (with %s)", self.g:game(), self.players_n, self.url,
    who, table.concat(others, ", "))
end

--- Plays this seat's move (seat nil: this seat's, as the table says it):
-- the move's event, or nil and why (the server's refusal, led by its
-- rule id; the room untouched), and "closed" when the connection is
-- lost for good, "unsent" when the move may not have reached the server.
function Remote:play(seat, move)
  if self.gone then return nil, self.gone, "closed" end
  if self.spectator then return nil, "a spectator does not play" end
  if seat ~= nil and seat ~= self.my_seat then
    return nil, string.format("this connection plays seat %d", self.my_seat)
  end
  if type(move) == "table" then move = move.text end
  self.reply = nil
  local sent, serr = self:send({ type = "move", move = move }, true)
  if not sent then return nil, serr, self.gone and "closed" or "unsent" end
  local mine
  local function done()
    if self.reply then return true end
    for _, e in ipairs(self.queue) do
      if e.type == "move" and e.seat == self.my_seat then mine = e return true end
    end
    return false
  end
  local ok, why = self:await(done, true)
  if why == "rejoined" then
    if self.welcome_msg and self.welcome_msg.resume == "replay" then
      return nil, "the connection was lost before the server had your move: it was not played; type it again",
        "unsent"
    end
    return nil, "the connection was lost and made again, and the server did not say whether it had your move: "
      .. "'go' shows where the game stands", "unsent"
  end
  if not ok then return nil, why, self.gone and "closed" or "unsent" end
  if not mine then
    local r = self.reply
    return nil, tostring(r.reason or r.message or "the server refused the move")
  end
  -- (the events before this seat's move and the move itself, heard now)
  while true do
    local e = self:emit()
    if e == mine then return e end
  end
end

--- One step: the next event heard (after waiting for it), or nil and
-- why the room stopped: "wait" and the seat (this seat is to move),
-- "over" (the match), "closed" and why (the connection is lost for good),
-- "interrupted".
function Remote:step()
  while true do
    if #self.queue > 0 then return self:emit() end
    for _, n in ipairs(self.notes) do
      for _, fn in ipairs(self.listeners) do fn({ type = "warning", message = n, source = "room" }, self, {}) end
    end
    self.notes = {}
    local stop = self:stopped()
    -- (what came with the state that stops the room, a notice after it,
    -- is shown before the prompt)
    if stop then self:drain() end
    if stop and #self.queue == 0 then
      if stop == "over" then return nil, "over" end
      return nil, "wait", self.my_seat
    end
    if not stop then
      local ok, why, more = self:follow(function() return #self.queue > 0 or self:stopped() ~= nil end)
      if not ok then return nil, why, more end
    end
  end
end

-- Reads what has arrived already, without waiting (a bounded number of
-- frames; a connection found closed is the next wait's to make again).
function Remote:drain()
  for _ = 1, M.DRAIN do
    if not self:pump(0) then return end
  end
end

-- Whether the room, as the last state frame says with no event after
-- it, waits for this seat ("wait") or is over ("over"); nil while the
-- others play. (A round's end is no stop: the server deals the next.)
function Remote:stopped()
  if not self.fresh then return nil end
  local st = self.g.st
  if st.phase == "match-over" then return "over" end
  if st.turn ~= nil and st.turn == self.my_seat then return "wait" end
  return nil
end

function Remote:advance()
  while true do
    local e, why, more, seat = self:step()
    if not e then return why, more, seat end
  end
end

--- hint, why, explain asked of the server for this seat: the lines, or
-- nil and why. fields: the request's own (why's move, explain's n).
function Remote:ask(kind, fields)
  if self.gone then return nil, self.gone end
  if self.spectator then return nil, "a spectator asks no " .. kind end
  local msg = { type = kind }
  for k, v in pairs(fields or {}) do msg[k] = v end
  self.reply = nil
  local sent, serr = self:send(msg, true)
  if not sent then return nil, serr end
  local ok, why = self:await(function() return self.reply ~= nil end, true)
  if why == "rejoined" then return nil, "the connection was lost before the answer came: ask again" end
  if not ok then return nil, why end
  local r = self.reply
  if r.type == "advice" and type(r.lines) == "table" then return r.lines end
  return nil, tostring(r.reason or r.message or "the server gave no advice")
end

--- Closes the connection.
function Remote:close()
  if self.t and self.t.close then pcall(self.t.close) end
  self.gone = self.gone or "closed"
end

-- ---------------------------------------------------------------------
-- The table's commands in an online room

local function not_here(what)
  return function(T)
    T:complain(string.format("Not in an online room: %s. The room is the server's; 'quit' leaves it.", what))
  end
end

local function ask(kind, fields_of)
  return function(T, rest)
    local lines, why = T.room:ask(kind, fields_of and fields_of(rest) or nil)
    if not lines then return T:complain(string.format("No %s: %s", kind, why)) end
    for _, l in ipairs(lines) do T:print(l) end
  end
end

--- The commands a table seated at a remote room has besides (or instead
-- of) its own: hint, why and explain asked of the server; what would
-- change a game of one's own refused.
M.extension = {
  install = function(T)
    local add = T.commands.add
    add { name = "hint", usage = "hint", help = "the server's advice for your move", run = ask("hint") }
    add { name = "why", aliases = { "check" }, usage = "why MOVE",
      help = "the server's word on a move (nothing is played)",
      run = ask("why", function(rest) return rest ~= "" and { move = rest } or nil end) }
    add { name = "explain", usage = "explain [N]", help = "the server's word on a move played (N moves back)",
      run = ask("explain", function(rest)
        local n = math.tointeger(tonumber(rest))
        return n and n >= 0 and { n = n } or nil
      end) }
    add { name = "undo", aliases = { "u" }, usage = "undo", help = "(not in an online room)",
      run = not_here("moves played stand, for every seat") }
    add { name = "new", aliases = { "n" }, usage = "new", help = "(not in an online room)",
      run = not_here("'new' starts a game of your own: quit, then run diloti") }
    add { name = "load", usage = "load", help = "(not in an online room)",
      run = not_here("'load' puts a saved game at a table of your own") }
    add { name = "save", usage = "save", help = "(not in an online room)",
      run = not_here("the server keeps the room's record; you see only your part of it") }
    add { name = "replay", usage = "replay", help = "(not in an online room)",
      run = not_here("'replay' shows a saved game: quit, then run diloti") }
    add { name = "ai", usage = "ai", help = "(not in an online room)",
      run = not_here("the room's seats are the server's to give") }
    add { name = "declare", usage = "declare", help = "(not in an online room)",
      run = not_here("type the move itself, as 'moves' lists it") }
  end,
}

-- ---------------------------------------------------------------------
-- The program's side

--- The transport of the program: a WebSocket to url (diloti.wsclient),
-- as connect() for remote.open.
function M.websocket(url)
  return function()
    local okm, ws = pcall(require, "diloti.wsclient")
    if not (okm and type(ws) == "table" and type(ws.connect) == "function") then
      return nil, "this program was built without its WebSocket client"
    end
    local ok, c, why = pcall(ws.connect, url, { protocol = "diloti.v1", max = M.MAX_FRAME })
    if not ok then return nil, tostring(c) end
    if not c then return nil, why end
    return {
      send = function(text) return c:send(text) end,
      recv = function(timeout) return c:recv(timeout) end,
      close = function() return c:close() end,
    }
  end
end

--- `diloti join LINK` and `diloti watch LINK`: the table at the room a
-- parsed link (diloti.server.link) opens, at the terminal. Returns the
-- exit code: 1 when the room could not be joined or the connection was
-- lost for good.
function M.start(l)
  local core = require "diloti.core"
  local has_line, line = pcall(require, "diloti.line")
  if not has_line then line = nil end
  local rr, why = M.open {
    connect = M.websocket(l.ws), room = l.room, token = l.token, url = l.base,
  }
  if not rr then
    io.stderr:write("diloti: ", core.clean(tostring(why)), "\n")
    return 1
  end
  local repl = require "diloti.table.repl"
  local s, err = repl.new {
    read = line and line.read or nil, interrupted = line and line.interrupted or nil,
    history_add = line and line.history_add or nil, terminal = line and line.width or nil,
    room = rr, extensions = { M.extension }, ask_on_quit = false, pause_rounds = false,
  }
  if not s then
    rr:close()
    io.stderr:write("diloti: ", core.clean(tostring(err)), "\n")
    return 1
  end
  if line and not line.isatty() then s.style.colour = false end
  if line then line.completer(function(word, text, start) return s:complete(word, text, start) end) end
  local code = s:run()
  local lost = rr.gone
  rr:close()
  return lost and 1 or code
end

return M
