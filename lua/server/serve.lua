-- `diloti serve`: the server's main state. It listens (diloti.net), starts
-- a thread for every room the store holds unfinished, and is the lobby:
-- a connection that has joined no room may say hello (it is handed to
-- the room its hello names; the room checks the token), create a room
-- (a new room's thread is started with the creator's options, and
-- answers the creator itself) or ping. Everything else is the rooms'
-- (lua/server/roomhost.lua). Nothing here plays a game.
local core = require "diloti.core"
local json = require "diloti.match.json"
local protocol = require "diloti.server.protocol"

local M = {}

M.MAX_CREATE = 80 * 1024 -- bytes of a create message (it may carry a script)
M.MAX_ROOMS = 1000
-- Bytes of a house rule's rule id and of its argument's name in the
-- catalogue.
M.MAX_RULE_ID, M.MAX_ARG_NAME = 40, 20
-- Rooms an address may create: a burst, then one every so many seconds.
M.CREATE_RATE = { burst = 10, per_second = 1 / 30 }
-- What the lobby reads from one address, all its connections together:
-- this many times a connection's rate (the lobby runs in the loop every
-- room's frames go through).
M.ADDRESS_LOBBY = 2
M.ROOM_MODULE = "diloti.server.roomhost"

local function reply(srv, conn, msg)
  msg.v, msg.seq = protocol.VERSION, 0
  srv:send(conn, json.encode(msg))
end

local function err(srv, conn, code, message)
  reply(srv, conn, { type = "error", code = code, message = message })
end

local bucket, take = protocol.bucket, protocol.take

-- ---------------------------------------------------------------------
-- The lobby

local Lobby = {}
Lobby.__index = Lobby

--- M.lobby(srv, o) -> a handler for srv:run. o: data (the store's
-- folder, or nil), store (its rooms, lua/server/rooms.lua: sleeping
-- rooms are woken from it), base (the links' base), max_rooms, room_rate
-- (rooms an address may make a minute), rate, advice_rate, script_cpu, room_memory
-- and idle (the rooms' settings), clock.
function M.lobby(srv, o)
  -- (the catalogue is made here, before the server listens: making it
  -- reads the user's folders of scripts, whose main chunks may take
  -- seconds, and the first request held every room's frames as long)
  return setmetatable({ srv = srv, o = o, clock = o.clock or core.clock, conns = {}, addrs = {}, lobby_rates = {},
    counts = {}, catalogue = M.catalogue_text() }, Lobby)
end

-- An address's buckets are forgotten once they are full again (a new
-- one starts full: nothing changes for the address), in a sweep each
-- time the table has doubled since the last: an IPv6 client has many
-- addresses, and kept for ever each cost ~400 bytes.
M.SWEEP_FROM = 1024

local function full(b, now)
  return b.level + math.max(0, now - b.at) * b.rate >= b.burst
end

-- The bucket of addr in self[name], made by make() when there is none.
function Lobby:bucket_of(name, addr, make)
  local t = self[name]
  local b = t[addr]
  if b then return b end
  b = make()
  t[addr] = b
  local c = self.counts[name] or { n = 0, limit = M.SWEEP_FROM }
  self.counts[name] = c
  c.n = c.n + 1
  if c.n > c.limit then
    local now = self.clock()
    for a, x in pairs(t) do
      if x ~= b and full(x, now) then
        t[a] = nil
        c.n = c.n - 1
      end
    end
    c.limit = math.max(M.SWEEP_FROM, 2 * c.n)
  end
  return b
end

-- The bucket of a connection's messages (per = 1), or of an address's
-- (per = ADDRESS_LOBBY).
local function lobby_bucket(o, per, clock)
  local r = o.rate
  local spec = r and { burst = 2 * r, per_second = r } or protocol.RATE
  return bucket({ burst = per * spec.burst, per_second = per * spec.per_second }, clock)
end

-- Takes one room from the address's bucket: true, or false when it has
-- made as many as it may for now.
function Lobby:take_room(addr)
  return take(self:bucket_of("addrs", addr, function()
    local per_minute = self.o.room_rate
    return bucket(per_minute and { burst = math.max(10, per_minute), per_second = per_minute / 60 } or M.CREATE_RATE,
      self.clock)
  end))
end

-- ---------------------------------------------------------------------
-- The catalogue: what a lobby page offers (docs/protocol.md, "catalogue")

-- The games a room can be made of (each package's `tables`): an id for
-- the page, the rules and players a create sends, and whose house rules
-- and AIs apply (the package's name).
local function tables()
  local out = {}
  for _, pkg in ipairs(require("diloti.registry").list()) do
    for _, t in ipairs(pkg.tables or {}) do
      out[#out + 1] = { id = t.id, title = t.title, rules = t.rules, players = t.players, house = pkg.name }
    end
  end
  return out
end
-- (players and target are fields of a create of their own)
local OWN_FIELDS = { players = true, target = true }

-- The ids of the tables a house rule can be played at: those whose rules
-- and players the engine takes with it (a rule that requires another
-- base, or more players, is not offered at a table without them). Asked
-- of the engine, so that the lobby offers what a create would accept.
local function tables_for(short, arg, game, all)
  local diloti = require "diloti"
  local ids = {}
  for _, t in ipairs(all) do
    if t.house == game then
      local spec = t.rules .. "+" .. short .. (arg and "=" .. tostring(arg) or "")
      local g = diloti.new { rules = spec, players = t.players, seed = 1 }
      if g then
        ids[#ids + 1] = t.id
        g:close()
      end
    end
  end
  return ids
end

-- Each game's house rules: name (as a spec writes it), one-line
-- description, the rule id it changes, `arg` for those that take a
-- number (NAME=N), and the ids of the tables it can be played at.
local function house_rules(games)
  local variants = require "diloti.scripts.variants"
  local cat = variants.catalogue()
  local all = tables()
  local out = {}
  for _, g in ipairs(games) do out[g] = {} end
  for _, n in ipairs(cat.names) do
    local v = cat.found[n]
    local list, short = out[variants.game_of(v)], variants.short_name(v)
    if list and not v.base and not OWN_FIELDS[short] then
      -- (a house rule may be the operator's own, untrusted like any
      -- script: each of its words one short line of plain text)
      local rule = type(v.rule) == "string" and core.plain(v.rule, M.MAX_RULE_ID) or ""
      local arg = v.arg and (type(v.arg.name) == "string" and core.plain(v.arg.name, M.MAX_ARG_NAME) or "")
      local default = v.arg and (math.type(v.arg.default) == "integer" and v.arg.default or 1) or nil
      list[#list + 1] = { name = short, description = core.plain(v.description or "", 200),
        rule = rule ~= "" and rule or nil, arg = arg and (arg ~= "" and arg or "N") or nil,
        tables = tables_for(short, default, variants.game_of(v), all) }
    end
  end
  return out
end

-- Each game's AIs: the levels of play, and the shipped AIs from the
-- weakest to the strongest with their one-line descriptions.
local function ais(games)
  local ai = require "diloti.ai.player"
  local ladders, levels = ai.LADDERS, ai.LEVELS
  local out = {}
  for _, g in ipairs(games) do
    local found = ai.catalogue(nil, g)
    local e = { levels = {}, shipped = {} }
    for _, l in ipairs(ai.LEVEL_ORDER) do
      if levels[g] and levels[g][l] then e.levels[#e.levels + 1] = l end
    end
    for _, name in ipairs(ladders[g] or {}) do
      local info = found[name]
      e.shipped[#e.shipped + 1] = { name = name, description = info and core.plain(info.description or "", 200) or "" }
    end
    out[g] = e
  end
  return out
end

--- The catalogue message (made once: the shipped scripts do not change
-- while the server runs).
function M.catalogue()
  local games = require("diloti.registry").names()
  return { type = "catalogue", games = tables(), house_rules = house_rules(games), ai = ais(games) }
end

--- The catalogue as sent: encoded once (again for each request, its 7 KB
-- cost ~0.3 ms of the loop every room shares, 8 times a ping).
function M.catalogue_text()
  local msg = M.catalogue()
  msg.v, msg.seq = protocol.VERSION, 0
  return json.encode(msg)
end

-- The lobby's own types besides protocol.read's, with their fields.
local LOBBY_TYPES = { catalogue = {} }

-- Are as many rooms awake as the server takes (--max-rooms)?
local FULL = "the server has as many rooms as it takes: try later"
function Lobby:full()
  return self.srv:info().rooms >= (self.o.max_rooms or M.MAX_ROOMS)
end

-- counted: the room was taken from the address's bucket already.
function Lobby:create(conn, c, msg, counted)
  local srv = self.srv
  if not counted and not self:take_room(c.addr) then
    return err(srv, conn, "rate-limited", "too many rooms made from this address")
  end
  if self:full() then return err(srv, conn, "full", FULL) end
  local id = protocol.token()
  local ok, why = srv:spawn(id, M.ROOM_MODULE, json.encode(self:room_arg { id = id, conn = conn, create = msg }))
  if not ok then err(srv, conn, "internal", tostring(why)) end
end

function Lobby:message(conn, text)
  local srv, c = self.srv, self.conns[conn]
  if not c then return end
  if not take(c.rate) then return err(srv, conn, "rate-limited", "too many messages: slow down") end
  local a = self:bucket_of("lobby_rates", c.addr,
    function() return lobby_bucket(self.o, M.ADDRESS_LOBBY, self.clock) end)
  if not take(a) then
    return err(srv, conn, "rate-limited", "too many messages from this address: slow down")
  end
  local counted = false
  if #text > protocol.MAX_MESSAGE then
    -- (only a create may be longer: it can carry a script)
    if #text > M.MAX_CREATE or not text:find('"type"%s*:%s*"create"') then
      return err(srv, conn, "too-large", string.format("a message is at most %d bytes", protocol.MAX_MESSAGE))
    end
    -- (and it counts as a room before it is read: reading 80 KB of JSON
    -- made to be slow takes ~30 ms of the loop every room shares)
    if not self:take_room(c.addr) then
      return err(srv, conn, "rate-limited", "too many rooms made from this address")
    end
    counted = true
  end
  local ok, msg = pcall(json.decode, text, 2)
  if not ok or type(msg) ~= "table" then return err(srv, conn, "bad-json", "not a JSON object") end
  if msg.type == "create" and msg.v == protocol.VERSION then return self:create(conn, c, msg, counted) end
  if #text > protocol.MAX_MESSAGE then
    return err(srv, conn, "too-large", string.format("a message is at most %d bytes", protocol.MAX_MESSAGE))
  end
  local m, code, why = protocol.read(text, LOBBY_TYPES)
  if not m then return err(srv, conn, code, why) end
  if m.type == "ping" then return reply(srv, conn, { type = "pong", id = m.id }) end
  if m.type == "catalogue" then return srv:send(conn, self.catalogue) end
  if m.type ~= "hello" then return err(srv, conn, "not-joined", "say hello with the room and a token first") end
  local well_formed = #m.room == protocol.TOKEN_BYTES * 2
  local bound, refusal, words = well_formed and srv:bind(conn, m.room, text)
  if well_formed and not bound then bound, refusal, words = self:wake(conn, m.room, text, m.token) end
  if not bound then
    err(srv, conn, refusal or "bad-token", words or "no such room, or no such seat or watch token in it")
    srv:close(conn, words or "no such room or token")
    return
  end
  self.conns[conn] = nil
end

-- A stored room whose thread sleeps (nobody came for a while, or the
-- server started without it): started again, and the connection bound
-- to it; the room checks the token again, as always. Only a token of the
-- room wakes it, and only while the server has room for it: waking
-- rooms by their ids alone took a thread each past --max-rooms.
-- Returns true, or false and the error's code and words.
function Lobby:wake(conn, id, text, token)
  local st = self.o.store
  local row = st and st:get(id)
  if not (row and protocol.viewer_in(row.info.tokens, token) ~= nil) then return false end
  if self:full() then
    return false, "full", FULL
  end
  local ok = self.srv:spawn(id, M.ROOM_MODULE, json.encode(self:room_arg { id = id, resume = true }))
  return ok and self.srv:bind(conn, id, text)
end

-- What a room's thread is started with: the server's settings and a.
function Lobby:room_arg(a)
  local o = self.o
  a.data, a.base, a.rate, a.script_cpu, a.advice_rate, a.idle = o.data, o.base, o.rate, o.script_cpu,
    o.advice_rate, o.idle
  a.room_memory = o.room_memory
  return a
end

--- The handler: srv:run calls it with ("open", conn, address),
-- ("message", conn, text) and ("close", conn).
function Lobby:handler()
  return function(kind, conn, x)
    if kind == "open" then
      self.conns[conn] = { addr = x, rate = lobby_bucket(self.o, 1, self.clock) }
    elseif kind == "message" then
      self:message(conn, x)
    else
      self.conns[conn] = nil
    end
  end
end

-- ---------------------------------------------------------------------
-- The server

-- The folder of the static files: --static, $DILOTI_WEB, or the first
-- of the source tree's and the installed ones that exists.
local function static_dir(a)
  local dirs = { a.static, os.getenv("DILOTI_WEB"), "web", "/usr/local/share/diloti/web", "/usr/share/diloti/web" }
  for i = 1, 5 do
    local d = dirs[i]
    if d and core.filekind(d) == "directory" then return d end
  end
  return nil
end

local function origins(base, host, port, extra)
  local o = { base:match("^(https?://[^/]+)") }
  for _, h in ipairs { host, "127.0.0.1", "localhost", "[::1]" } do
    o[#o + 1] = string.format("http://%s:%d", h, port)
  end
  for _, x in ipairs(extra or {}) do o[#o + 1] = x end
  return o
end

-- The numeric options' bounds: a rate of 0 or of 1e-30 made every
-- "ask again in N s" fail (N past any integer), a negative one promised
-- a wait that never ended. --room-memory: core.box.pool's bounds (a pool
-- it refuses would fail every room as it is made). Each: field, option,
-- lowest, highest, whole numbers only, the unit's words.
local BOUNDS = {
  { "rate", "--rate", 0.01, 1e6 }, { "room_rate", "--room-rate", 0.01, 1e6 },
  { "advice_rate", "--advice-rate", 0.01, 1e6 }, { "idle", "--idle", 1, 1e7 },
  { "script_cpu", "--script-cpu", 0.01, 60 },
  { "per_address", "--per-address", 1, 1e6, true }, { "max_rooms", "--max-rooms", 1, 1e7, true },
  { "room_memory", "--room-memory", 1, 1 << 20, true, " of MiB" },
}

--- The first numeric option out of its bounds, as a sentence; nil if none.
function M.bad_number(a)
  for _, b in ipairs(BOUNDS) do
    local v, name, lo, hi, whole = a[b[1]], b[2], b[3], b[4], b[5]
    if v ~= nil and (type(v) ~= "number" or v ~= v or v < lo or v > hi or (whole and math.type(v) ~= "integer")) then
      return string.format("%s must be %s%s from %s to %s, not %s", name, whole and "a whole number" or "a number",
        b[6] or "", tostring(lo), string.format("%.0f", hi), tostring(v))
    end
  end
end

--- M.main(a): a: listen, port, data, static, url, origin (a list),
-- per_address, max_rooms. Returns the exit status.
function M.main(a)
  local net = require "diloti.net"
  local rooms = require "diloti.server.rooms"
  local host, port = a.listen or "127.0.0.1", a.port or 8080
  local static = static_dir(a)
  if not static then
    io.stderr:write("diloti serve: no folder of web pages (give --static DIR)\n")
    return 1
  end
  local bad = M.bad_number(a)
  if bad then
    io.stderr:write("diloti serve: ", bad, "\n")
    return 1
  end
  local data = a.data or rooms.default_dir()
  local st, why = rooms.open(data)
  if not st then
    io.stderr:write("diloti serve: ", tostring(why), "\n")
    return 1
  end
  local srv
  srv, why = net.listen {
    host = host, port = port, static = static, per_address = a.per_address, max_message = M.MAX_CREATE,
    origins = origins(a.url or string.format("http://%s:%d", host, port), host, port, a.origin),
  }
  if not srv then
    io.stderr:write("diloti serve: ", why, "\n")
    return 1
  end
  port = srv:info().port
  -- (with --port 0 the origins are known once the port is)
  srv:allow(origins(a.url or string.format("http://%s:%d", host, port), host, port, a.origin))
  local base = (a.url or string.format("http://%s:%d", host == "0.0.0.0" and "127.0.0.1" or host, port)):gsub("/$", "")
  local lobby = M.lobby(srv, { data = data, base = base, max_rooms = a.max_rooms, room_rate = a.room_rate,
    rate = a.rate, script_cpu = a.script_cpu, advice_rate = a.advice_rate, idle = a.idle, store = st,
    room_memory = a.room_memory })
  -- (the newest first, and no more than --max-rooms: the others sleep in
  -- the store until a hello with one of their tokens wakes them; a pile
  -- of stored rooms once all took a thread at each restart)
  local resumed, list = 0, st:unfinished() or {}
  for i = #list, 1, -1 do
    if lobby:full() then break end
    if srv:spawn(list[i].id, M.ROOM_MODULE, json.encode(lobby:room_arg { id = list[i].id, resume = true })) then
      resumed = resumed + 1
    end
  end
  io.stdout:write(string.format("diloti serve: listening on %s (data: %s; %d rooms resumed)\n", base, data, resumed))
  io.stdout:flush()
  srv:run(lobby:handler())
  srv:close_all()
  st:close()
  io.stdout:write("diloti serve: stopped\n")
  return 0
end

return M
