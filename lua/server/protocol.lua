-- The wire protocol over a room (docs/protocol.md), apart from any network.
--
-- A host (protocol.host) stands over one room (lua/room.lua): it makes the
-- room's id, one token per person's seat and a watch token, keeps one
-- stream of frames per viewer (each person's seat, and the spectators
-- together) with its sequence numbers and a bounded backlog, and plays
-- the people's moves it is sent. A connection (host:connect) is one
-- client: it reads the client's messages (text, untrusted: size first,
-- then a bounded decoder, then every field's type), answers, and hands it
-- its viewer's frames through the send function it was given. Nothing
-- here reads a socket, a clock or a file but the random source for the
-- tokens, and both the source and the clock can be handed in.
--
-- What a viewer is sent is only what the room gives it: room:view, the
-- legal moves when its seat is to move, and room:subscribe's events cut
-- for it. A spectator's stream is the spectator's view and events.
local core = require "diloti.core"
local json = require "diloti.match.json"
local rulebook = require "diloti.table.rulebook"

local M = {}

M.VERSION = 1
-- Limits on what a client sends (docs/protocol.md, "Limits").
M.MAX_MESSAGE = 4096   -- bytes of one message, checked before decoding
M.MAX_DEPTH = 1        -- a message is one object; its values are scalars
M.MAX_MOVE = 200       -- bytes of a move's text
M.MAX_NAME = 32        -- bytes of a name, after cleaning
M.MAX_LINE = 300       -- bytes of a line of advice
M.MAX_LINES = 40       -- lines of advice
M.BACKLOG = 256        -- frames kept per viewer for a client that reconnects
M.RESUME_GAP = 1 << 32  -- a resumed room's streams go on this far past their kept numbers
M.TOKEN_BYTES = 32     -- 256 bits a token, written as 64 hex digits
-- Token buckets: burst and refill per second, for every message and
-- (besides) for the requests that make the engine think.
M.RATE = { burst = 20, per_second = 10 }
M.ADVICE_RATE = { burst = 3, per_second = 0.2 }

-- ---------------------------------------------------------------------
-- Tokens

--- n bytes from the system's random source (/dev/urandom: the kernel's
-- generator, fit for secrets; core.rng is a seeded game generator and
-- is not).
function M.urandom(n)
  local f = assert(io.open("/dev/urandom", "rb"))
  local b = f:read(n)
  f:close()
  assert(b and #b == n, "protocol: short read from /dev/urandom")
  return b
end

--- A fresh token: TOKEN_BYTES from random(n) (M.urandom by default) as
-- hex. At 64 characters it is a long string to Lua, never interned, so
-- no table or string cache compares it: only M.same does.
function M.token(random)
  local b = (random or M.urandom)(M.TOKEN_BYTES)
  assert(type(b) == "string" and #b == M.TOKEN_BYTES, "protocol: the random source gave too few bytes")
  return (b:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

--- Whether the string given equals the secret, in a time that depends on
-- the lengths only (core.same_secret: no early exit, no branch on a byte).
function M.same(secret, given)
  return core.same_secret(secret, given)
end

-- ---------------------------------------------------------------------
-- Rate limits: a token bucket on an injected clock

local function bucket(spec, clock)
  return { burst = spec.burst, rate = spec.per_second, level = spec.burst, at = clock(), clock = clock }
end

local function take(b)
  local now = b.clock()
  b.level = math.min(b.burst, b.level + math.max(0, now - b.at) * b.rate)
  b.at = now
  if b.level < 1 then return false end
  b.level = b.level - 1
  return true
end

--- A token bucket ({burst, per_second} on clock) and taking a token from
-- it (false when it is empty): the lobby's limits are the same kind.
-- Whole seconds until the bucket holds a token again.
local function wait_of(b)
  local s = (1 - b.level) / b.rate
  return s < 86400 and math.max(1, math.ceil(s)) or 86400
end

M.bucket, M.take = bucket, take

-- ---------------------------------------------------------------------
-- The host over a room

local Host = {}
Host.__index = Host
M.Host = Host

local Conn = {}
Conn.__index = Conn
M.Conn = Conn

local function key_of(viewer) return viewer == nil and "watch" or viewer end

--- protocol.host(room, o) -> a host over room. o: names (seat -> a
-- person's or AI's name; cleaned and cut to MAX_NAME), random (n ->
-- n bytes; M.urandom), clock (-> seconds; core.clock), backlog (frames
-- kept per viewer; M.BACKLOG), advise (kind, room, seat, msg -> lines,
-- or nil and why: the hint, why and explain a front end offers; none
-- by default), after (fn(host) called when the room has settled after a
-- move: a place to store it before the next one), rate (each
-- connection's bucket, {burst, per_second}; M.RATE), advice_rate (each
-- seat's bucket for hint, why and explain; M.ADVICE_RATE), paced (a person's
-- move does not let the AIs play: the front end steps them), presence
-- (tell every connection who is connected: Host:tell_presence) and
-- presence_gap (seconds between two such tellings); and for a
-- room resumed after a restart, id, tokens and seqs (Host:keep's).
function M.host(room, o)
  o = o or {}
  local h = setmetatable({
    room = room, random = o.random or M.urandom, clock = o.clock or core.clock,
    backlog = o.backlog or M.BACKLOG, advise = o.advise, after = o.after, rate = o.rate, paced = o.paced,
    advice_rate = o.advice_rate, presence = o.presence, presence_gap = o.presence_gap,
    streams = {}, seat_tokens = {}, names = {},
  }, Host)
  -- (a room resumed after a restart keeps its id, tokens and numbers)
  local tokens = o.tokens or {}
  h.id = o.id or M.token(h.random)
  h.watch = tokens.watch or M.token(h.random)
  h.first_seq = o.seqs or {}
  -- (numbers taken after the last store, by fresh joins and notices, were
  -- sent but not kept: a resumed room's streams go on RESUME_GAP past the
  -- kept ones, so no number means two frames, and a `last` from before
  -- the restart gets a fresh state, never a replay that skips)
  h.seq_gap = o.seqs and M.RESUME_GAP or 0
  for seat = 0, room.players_n - 1 do
    local kept = tokens.seats and (tokens.seats[seat] or tokens.seats[tostring(seat)])
    if kept then h.seat_tokens[seat] = kept
    elseif room:is_outside(seat) then h.seat_tokens[seat] = M.token(h.random) end
    local name = o.names and o.names[seat]
    if type(name) ~= "string" or name == "" then
      local spec = room.specs[seat]
      -- (an AI by the name its script gives, never the file it came from)
      local p = room.players[seat]
      name = spec.kind == "ai" and ("AI " .. tostring(p and p.name or spec.name)) or ("seat " .. seat)
    end
    h.names[seat] = core.plain(name, M.MAX_NAME)
  end
  for seat in pairs(h.seat_tokens) do h:stream(seat) end
  h:stream(nil)
  return h
end

--- The stream of viewer (a seat or nil): its number, backlog and
-- connections; made (and subscribed to the room) when first asked.
function Host:stream(viewer)
  local k = key_of(viewer)
  local s = self.streams[k]
  if s then return s end
  -- (kept numbers come back from JSON with a seat's key as a number or a text)
  s = { viewer = viewer, seq = (self.first_seq[k] or self.first_seq[tostring(k)] or 0) + self.seq_gap, frames = {},
    conns = {} }
  self.streams[k] = s
  s.stop = self.room:subscribe(viewer, function(e) self:event(s, e) end)
  return s
end

-- Appends a frame to a stream (the next number, kept in the backlog) and
-- sends it to the stream's connections; with only, numbers it and sends
-- it to that connection alone, unkept.
function Host:push(s, msg, only)
  s.seq = s.seq + 1
  msg.v, msg.seq = M.VERSION, s.seq
  local text = json.encode(msg)
  if only then return only.send(text) end
  local f = s.frames
  f[#f + 1] = { seq = s.seq, text = text }
  if #f > self.backlog then table.remove(f, 1) end
  if self.held then
    local held = self.held
    for _, c in ipairs(s.conns) do held[#held + 1] = { c, text } end
  else
    for _, c in ipairs(s.conns) do c.send(text) end
  end
end

-- An event of the room, cut for the stream's viewer by room:subscribe.
function Host:event(s, e)
  if e.type == "round_over" or e.type == "match_over" then
    self:push(s, { type = "result", kind = e.type == "round_over" and "round" or "match", result = e.result })
  else
    self:push(s, { type = "event", event = e })
  end
end

--- The state frame of viewer: its view, whose turn, and its legal moves
-- when its seat is to move.
function Host:state_of(viewer)
  local g = self.room.g
  local phase, turn = g:phase(), g:turn()
  local msg = { type = "state", view = self.room:view(viewer), phase = phase, turn = turn }
  if viewer ~= nil and turn == viewer and self.room:is_outside(viewer) then
    local moves, cut = g:moves()
    msg.moves, msg.cut = moves, cut
  end
  return msg
end

--- Sends every stream a fresh state.
function Host:broadcast()
  for _, s in pairs(self.streams) do self:push(s, self:state_of(s.viewer)) end
end

--- Sends every stream a frame (a copy each: push numbers it).
function Host:announce(msg)
  for _, s in pairs(self.streams) do
    local m = {}
    for k, v in pairs(msg) do m[k] = v end
    self:push(s, m)
  end
end

--- What a restart needs to go on: the tokens and each stream's number.
function Host:keep()
  local seqs = {}
  for k, s in pairs(self.streams) do seqs[tostring(k)] = s.seq end
  return { id = self.id, tokens = { seats = self.seat_tokens, watch = self.watch }, seqs = seqs }
end

-- Runs fn(room) with the frames it makes held, sends every stream its
-- state after it, lets after() store the room, and only then sends what
-- was held: a move not stored is not announced (a failing after() sends
-- nothing, and the server must close the room). Returns fn's answers.
function Host:commit(fn)
  self:hold()
  local r = table.pack(pcall(fn, self.room))
  local ok, fault = r[1], r[2]
  if ok then self:broadcast() end
  if ok and self.after then ok, fault = pcall(self.after, self) end
  if not ok then
    self.held = nil
    error(fault, 0)
  end
  self:release()
  return table.unpack(r, 2, r.n)
end

--- One step of the room (an AI's move, or the next round dealt), with
-- every viewer's state after it; stored (after) before it is sent, as
-- settle. Returns room:step's answers.
function Host:step()
  return self:commit(self.room.step)
end

--- Lets the room's AIs play until a person is to move, then sends every
-- viewer its state. Returns what stopped the room (room:advance's).
-- The frames are kept while the room moves and sent once after() has
-- returned: a front end that stores the moves there announces none it
-- has not stored.
function Host:settle()
  return self:commit(self.room.advance)
end

--- Keeps the frames made from now on (in the backlog, unsent) until
-- release: a person's move is held from the moment it is played.
function Host:hold()
  self.held = self.held or {}
end

--- Sends the frames held.
function Host:release()
  local held = self.held or {}
  self.held = nil
  for _, x in ipairs(held) do
    if not x[1].closed then x[1].send(x[2]) end
  end
end

--- Sends each viewer its state without letting the AIs move (a room
-- that paces its AIs moves them with step), stored first as settle.
function Host:begin()
  self:commit(self.room.driver)
end

--- Starts the room (its first round's events) and sends each viewer
-- its state.
function Host:start()
  return self:settle()
end

--- The viewer a token opens among tokens ({seats = {[seat] = token},
-- watch = token}, a room's own or as stored): a seat, or false for the
-- watch token; nil when it opens none. Every token is compared, whichever
-- matches.
function M.viewer_in(tokens, token)
  if type(tokens) ~= "table" or type(token) ~= "string" then return nil end
  local found
  for seat, t in pairs(type(tokens.seats) == "table" and tokens.seats or {}) do
    if type(t) == "string" and M.same(t, token) then found = seat end
  end
  if type(tokens.watch) == "string" and M.same(tokens.watch, token) then found = false end
  return found
end

--- The viewer a token opens in this room (M.viewer_in).
function Host:viewer_of(room_id, token)
  local room_ok = M.same(self.id, room_id)
  local found = M.viewer_in({ seats = self.seat_tokens, watch = self.watch }, token)
  if not room_ok then return nil end
  return found
end

-- Who is connected: each person's seat (true while a connection holds
-- it; an AI's seat is false) and how many watch.
function Host:connected()
  local seats = {}
  for seat = 0, self.room.players_n - 1 do
    local s = self.streams[key_of(seat)]
    seats[seat] = s ~= nil and #s.conns > 0
  end
  local w = self.streams[key_of(nil)]
  return seats, w and #w.conns or 0
end

--- With o.presence: tells every connection who is connected now (a
-- reply, not a stream frame: it is not kept, and a client that comes
-- back is told in its welcome). With o.presence_gap, at most once in so
-- many seconds: a change within it waits (Host:presence_due says until
-- when) and is told by the call after, with whatever changed meanwhile.
function Host:tell_presence()
  if not self.presence then return end
  local seats, watching = self:connected()
  -- (told when a seat comes or goes, not for each watcher: a watch link
  -- joined again and again must not make every viewer a frame each time;
  -- the count rides along with the next change, and each welcome)
  local key = {}
  for seat = 0, self.room.players_n - 1 do key[#key + 1] = seats[seat] and "1" or "0" end
  key = table.concat(key)
  if key == self.told then
    self.presence_wait = nil
    return
  end
  -- (and a seat's link joined and left in a loop, from as many addresses
  -- as it likes, must not make every viewer two frames a round)
  local gap, now = self.presence_gap, nil
  if gap then
    now = self.clock()
    if self.told_at and now < self.told_at + gap then
      self.presence_wait = self.told_at + gap
      return
    end
  end
  self.told, self.told_at, self.presence_wait = key, now, nil
  for _, s in pairs(self.streams) do
    for _, c in ipairs(s.conns) do c:reply { type = "presence", connected = seats, watching = watching } end
  end
end

--- When a presence held back by o.presence_gap is due (the host's clock),
-- or nil when none waits: the front end calls tell_presence then.
function Host:presence_due()
  return self.presence_wait
end

--- Closes the host: every connection hears nothing more, and the room's
-- streams are stopped (the room itself goes on, for its owner).
function Host:close()
  for _, s in pairs(self.streams) do
    s.stop()
    for _, c in ipairs(s.conns) do c.closed = true end
    s.conns = {}
  end
  self.streams = {}
  self.closed = true
end

--- A new connection: send(text) is called with every frame for it.
function Host:connect(send)
  return setmetatable({
    host = self, send = send, rate = bucket(self.rate or M.RATE, self.clock),
  }, Conn)
end

--- The advice bucket of a seat: shared by its connections and kept over
-- joins, so a seat cannot fill it again by connecting again.
function Host:advice_bucket(seat)
  self.advice_buckets = self.advice_buckets or {}
  local b = self.advice_buckets[seat]
  if not b then
    b = bucket(self.advice_rate or M.ADVICE_RATE, self.clock)
    self.advice_buckets[seat] = b
  end
  return b
end

-- ---------------------------------------------------------------------
-- A connection: one client

-- A reply to this connection only: it carries its stream's newest number
-- (or 0 before joining), is not kept and is never replayed.
function Conn:reply(msg)
  msg.v, msg.seq = M.VERSION, self.stream and self.stream.seq or 0
  if not self.closed then self.send(json.encode(msg)) end
end

function Conn:error(code, message)
  self:reply { type = "error", code = code, message = message }
  return nil, code
end

--- Closes the connection: it hears nothing more.
function Conn:close()
  self.closed = true
  local s = self.stream
  if s then
    for i, c in ipairs(s.conns) do
      if c == self then
        table.remove(s.conns, i)
        self.host:tell_presence()
        break
      end
    end
  end
end

-- The fields each message may have and their types ("move" is a text or
-- a whole number; "last" a whole number 0 or more).
local FIELDS = {
  hello = { room = "string", token = "string", last = "count", name = "string" },
  move = { move = "move", seat = "count" },
  hint = { seat = "count" },
  why = { seat = "count", move = "move" },
  explain = { seat = "count", n = "count" },
  ping = { id = "count" },
}

local REQUIRED = { hello = { "room", "token" }, move = { "move" } }

local function check_field(kind, v)
  if kind == "string" then return type(v) == "string" end
  if kind == "count" then return math.type(v) == "integer" and v >= 0 end
  if kind == "move" then return type(v) == "string" or (math.type(v) == "integer" and v >= 1) end
  return false
end

-- The message of a text, or nil and the error's code and message. more:
-- types of a caller's own besides FIELDS, each with its fields (the
-- lobby's catalogue).
local function read(text, more)
  if type(text) ~= "string" then return nil, "bad-json", "a message is text" end
  if #text > M.MAX_MESSAGE then
    return nil, "too-large", string.format("a message is at most %d bytes (this one: %d)", M.MAX_MESSAGE, #text)
  end
  local ok, msg, err = pcall(json.decode, text, M.MAX_DEPTH)
  if not ok then return nil, "bad-json", "not JSON" end
  if msg == nil then return nil, "bad-json", core.plain(err or "not JSON", M.MAX_LINE) end
  -- (the decoder reads [] as an empty table: only a text that opens with
  -- { is an object)
  if type(msg) ~= "table" or msg[1] ~= nil or not text:find("^[ \t\r\n]*{") then
    return nil, "bad-message", "a message is a JSON object"
  end
  if msg.v ~= M.VERSION then
    return nil, "bad-version", string.format("this server speaks version %d of the protocol (the message's v: %s)",
      M.VERSION, core.plain(tostring(msg.v), 20))
  end
  local fields = type(msg.type) == "string" and (FIELDS[msg.type] or more and more[msg.type])
  if not fields then
    return nil, "unknown-type", "unknown message type '" .. core.plain(tostring(msg.type), 40) .. "'"
  end
  for k, val in pairs(msg) do
    if k ~= "v" and k ~= "type" then
      local kind = type(k) == "string" and fields[k]
      if not kind then
        return nil, "bad-field", string.format("a %s message has no field '%s'", msg.type,
          core.plain(tostring(k), 40))
      end
      if not check_field(kind, val) then
        return nil, "bad-field", string.format("the field '%s' of a %s message has the wrong type", k, msg.type)
      end
    end
  end
  for _, k in ipairs(REQUIRED[msg.type] or {}) do
    if msg[k] == nil then
      return nil, "bad-field", string.format("a %s message needs the field '%s'", msg.type, k)
    end
  end
  if type(msg.move) == "string" and #msg.move > M.MAX_MOVE then
    return nil, "too-large", string.format("a move is at most %d bytes", M.MAX_MOVE)
  end
  return msg
end
M.read = read

--- Handles one message from the client (its text, as received): true,
-- or nil and the error's code (an error frame was sent). The room is
-- changed only by an accepted move. A fault of the host's own (an
-- advisor that raised, a value the encoder cannot write) is no crash:
-- the client is told "internal" without the fault's words (they may
-- quote what it may not see), and the words are the third value, for
-- the server's log.
function Conn:receive(text)
  if self.closed then return nil, "closed" end
  local ok, r, code = pcall(self.dispatch, self, text)
  if ok then return r, code end
  self:error("internal", "the server failed to handle this message")
  return nil, "internal", tostring(r)
end

function Conn:dispatch(text)
  if not take(self.rate) then return self:error("rate-limited", "too many messages: slow down") end
  local msg, code, why = read(text)
  if not msg then return self:error(code, why) end
  if msg.type == "ping" then
    self:reply { type = "pong", id = msg.id }
    return true
  end
  if msg.type == "hello" then return self:hello(msg) end
  if not self.stream then return self:error("not-joined", "say hello with the room and a token first") end
  local seat = self.stream.viewer
  if seat == nil then return self:error("not-your-seat", "a spectator does not play") end
  if msg.seat ~= nil and msg.seat ~= seat then
    return self:error("not-your-seat", string.format("this connection plays seat %d, not seat %d", seat, msg.seat))
  end
  if msg.type == "move" then return self:move(seat, msg) end
  return self:ask(seat, msg)
end

-- hello: joins the viewer a token opens; with `last`, the frames after
-- it (or a fresh state when the backlog no longer reaches back so far).
function Conn:hello(msg)
  local h = self.host
  if self.stream then return self:error("joined", "this connection has joined already") end
  local viewer = h:viewer_of(msg.room, msg.token)
  if viewer == nil then return self:error("bad-token", "no such room, or no such seat or watch token in it") end
  if viewer == false then viewer = nil end
  local s = h:stream(viewer)
  if viewer ~= nil then
    -- (one connection a seat: the newest takes it, the old one is told
    -- and closed)
    for _, c in ipairs(s.conns) do
      c:reply { type = "error", code = "replaced", message = "this seat was joined from another connection" }
      c.closed = true
    end
    s.conns = {}
  end
  self.stream = s
  s.conns[#s.conns + 1] = self
  local names, kinds = {}, {}
  for seat = 0, h.room.players_n - 1 do
    names[seat] = h.names[seat]
    kinds[seat] = h.room:is_outside(seat) and "person" or "ai"
  end
  local first = s.frames[1]
  local last = msg.last
  local replay = last ~= nil and last <= s.seq and (last >= s.seq or (first and last >= first.seq - 1))
  self:reply {
    type = "welcome", seat = viewer, spectator = viewer == nil, game = h.room.g:game(), rules = h.room.g:rules(),
    players = h.room.players_n, names = names, seats = kinds, resume = replay and "replay" or "fresh",
    -- (the game so far, as this viewer may know it: a client that joins
    -- late, or comes back too late for a replay, sees what was played; a
    -- replay sends the frames it missed instead)
    history = not replay and h.room.g:history(viewer == nil and "spectator" or viewer) or nil,
    connected = h.presence and (h:connected()) or nil,
    watching = h.presence and select(2, h:connected()) or nil,
  }
  if replay then
    for _, f in ipairs(s.frames) do
      if f.seq > last then self.send(f.text) end
    end
  else
    -- (the next number, to this connection only and not kept: the other
    -- spectators of the stream see a gap that stands for nothing they
    -- missed, and a join does not make each of them a frame)
    h:push(s, h:state_of(viewer), self)
  end
  h:tell_presence()
  return true
end

-- move: a person's move at its own seat, when it is its turn.
function Conn:move(seat, msg)
  local h = self.host
  local g = h.room.g
  local turn = g:turn()
  if turn ~= seat then
    return self:error("out-of-turn", turn and string.format("it is seat %d's turn, not yours (seat %d)", turn, seat)
      or "nobody is to move: the " .. g:phase():gsub("-", " "))
  end
  local move = msg.move
  if type(move) == "string" then move = core.plain(move, M.MAX_MOVE) end
  h:hold()
  local ok, e, why = pcall(h.room.play, h.room, seat, move)
  if not (ok and e) then h:release() end
  if not ok then error(e, 0) end
  if not e then
    -- (a move read as far as the rule it breaks: "not a move: P7: ..."
    -- is a refusal by P7)
    why = rulebook.rule_first(core.plain(tostring(why), M.MAX_LINE))
    self:reply { type = "refusal", move = msg.move, reason = why, rule = why:match("^([%w%-=]+):") }
    return nil, "refused"
  end
  -- (a room that paces its AIs moves them itself, one at a time)
  if h.paced then h:begin() else h:settle() end
  return true
end

-- hint, why, explain: for the connection's own seat, through the front
-- end's advisor, rate-limited apart.
function Conn:ask(seat, msg)
  local h = self.host
  if not h.advise then return self:error("not-offered", "this room gives no " .. msg.type) end
  local b = h:advice_bucket(seat)
  if not take(b) then
    return self:error("rate-limited", string.format("too many requests for advice: ask again in %d s", wait_of(b)))
  end
  local lines, why = h.advise(msg.type, h.room, seat, msg)
  if not lines then return self:error("not-offered", core.plain(tostring(why), M.MAX_LINE)) end
  local out = {}
  for i = 1, math.min(#lines, M.MAX_LINES) do out[i] = core.plain(tostring(lines[i]), M.MAX_LINE) end
  self:reply { type = "advice", kind = msg.type, lines = out }
  return true
end

return M
