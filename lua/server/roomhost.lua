-- One online room in a thread of its own (src/net/worker.c runs
-- run(chan, arg) in a Lua state made for it).
--
-- The room is lua/room.lua's, the wire is lua/server/protocol.lua's; this
-- file is the room's life between the two: it makes the room from a
-- creator's options (or from its stored record after a restart), stores
-- every accepted move before it is announced, plays the AIs' moves at the
-- room's pace, seats an AI in a person's chair when they have been gone
-- longer than the room allows and gives the chair back when they return,
-- and keeps the room's uploaded scripts inside a CPU budget. The channel
-- (chan) is all it knows of the network: next(timeout) -> kind, conn,
-- text; send(conn, text); close(conn, why); cpu().
local core = require "diloti.core"
local json = require "diloti.match.json"
local protocol = require "diloti.server.protocol"
local room_mod = require "diloti.room"
local record = require "diloti.match.record"
local options = require "diloti.server.options"
local advice = require "diloti.server.advice"
local untrusted = require "diloti.scripts.untrusted"
local variants = require "diloti.scripts.variants"
local ai = require "diloti.ai.player"

local M = {}

-- (a room's scripts run under their file's name alone: an uploaded AI
-- that reads its chunk's name from an error of its own and hands it back
-- changed, where options.unpath cannot find it, has no folder to tell)
untrusted.chunk_name = function(file) return "@" .. file:match("[^/]*$") end

-- How long a finished room stays open for its viewers, in seconds.
M.LINGER = 600
-- How long a room with nobody connected keeps its thread: then it sleeps
-- (its thread and state end; it stays stored) until a hello wakes it.
M.IDLE = 1800
-- How many times a move's storing is tried when the file stays locked
-- (each try waits up to the store's busy timeout, 5 s).
M.STORE_TRIES = 12
-- An uploaded script's CPU per minute of the room: past it, the seat is
-- played by a built-in AI for the rest of the game.
M.SCRIPT_BUDGET = 20
-- Seconds between two presence messages of a room: changes within it are
-- told together at its end (protocol.lua, Host:tell_presence).
M.PRESENCE_GAP = 0.5

local function now() return core.clock() end

--- Where a room's uploaded AI is kept (its data folder's scripts/ID):
-- one folder for the room's life, so error messages lose its path.
local script_dirs = setmetatable({}, { __mode = "k" }) -- (not in a: a is the lobby's JSON)
function M.script_dir(a)
  if not script_dirs[a] then
    local base = a.data
    if not base then -- (a room run with no data folder: a folder of its own)
      base = os.tmpname()
      os.remove(base)
      base = base .. ".d"
    end
    script_dirs[a] = base .. "/scripts/" .. a.id
  end
  return script_dirs[a]
end

-- ---------------------------------------------------------------------
-- Storage (lua/server/rooms.lua when the server has a data folder)

local function open_store(dir)
  if not dir then return nil end
  local rooms = require "diloti.server.rooms"
  return assert(rooms.open(dir))
end

-- Stores the room after a move; a move that cannot be stored is not
-- announced (the host sends nothing when this raises) and the room
-- stops: after a restart it goes on from its last stored move.
local function progress(R)
  if not R.store then return end
  local rec, why = record.encode(R.room.g, R.room:meta { server = "diloti serve" })
  local ok
  if rec then
    local keep = R.host:keep()
    local p = { record = rec, seqs = keep.seqs, finished = R.room.g:phase() == "match-over",
      summary = options.summary(R.room) }
    -- (the file has one writer at a time: a room that waited the store's
    -- busy timeout in a crowd of busy rooms waits again, a few times,
    -- rather than stop)
    for _ = 1, M.STORE_TRIES do
      ok, why = R.store:progress(R.id, p)
      if ok or not tostring(why):find("locked", 1, true) then break end
    end
  end
  if not ok then
    R.failed = "the room could not be stored: " .. tostring(why)
    error(R.failed, 0)
  end
end

-- ---------------------------------------------------------------------
-- Making the room

-- What a room's boxes may hold together (uploaded AIs, house rules):
-- MiB, --room-memory. The built-in AIs hold under 1 MiB in it.
M.ROOM_MEMORY = 40

-- The pool of a room's boxes: its scripts' memory, bounded together, so
-- that a room of three uploaded AIs each at its own cap is not 3 times it.
local function pool_of(a)
  return core.box.pool { total = (a.room_memory or M.ROOM_MEMORY) * 1024 * 1024 }
end

-- The room for checked options o (lua/server/options.lua), or nil and why.
local function make_room(o, dirs, pool)
  return room_mod.new {
    rules = o.rules, players = o.players, target = o.target, seed = o.seed,
    specs = o.specs, ai_dirs = dirs, default_ai = "normal", pool = pool,
  }
end

local function created(R, chan, conn, base)
  local links = {}
  for seat, tok in pairs(R.host.seat_tokens) do
    links[#links + 1] = { seat = seat, name = R.host.names[seat], link = options.link(base, "play", R.id, tok) }
  end
  table.sort(links, function(a, b) return a.seat < b.seat end)
  chan:send(conn, json.encode {
    v = protocol.VERSION, type = "created", seq = 0, room = R.id, game = R.room.g:game(),
    rules = R.opts.rules, seats = links, watch = options.link(base, "watch", R.id, R.host.watch),
  })
end

-- An AI that failed its call (an error, its time or memory spent): the
-- room says so to everyone, without the AI's own words (they may quote
-- its hand), and goes on with the move played for it.
local function tell_failures(R)
  R.room:listen(function(e, _, d)
    local info = d and d.last_info
    if e.type == "move" and info and info.warning and R.host then
      R.host:announce { type = "notice", seat = e.seat,
        message = string.format("the AI at seat %d failed its call; a move was played for it", e.seat) }
    end
  end)
end

local function host_for(R, keep)
  local o = R.opts
  R.advise = R.advise or function(kind, room, seat, msg)
    return advice.advise(kind, room, seat, msg, R.host and R.host.names)
  end
  if not R.told then
    R.told = true
    tell_failures(R)
  end
  R.host = protocol.host(R.room, {
    names = o.names, id = keep and keep.id or R.id, tokens = keep and keep.tokens, seqs = keep and keep.seqs,
    after = function() progress(R) end, advise = R.advise, paced = true, presence = true,
    presence_gap = M.PRESENCE_GAP,
    rate = R.rate and { burst = 2 * R.rate, per_second = R.rate },
    -- (a burst of at least 3, or of five seconds' worth)
    advice_rate = R.advice_rate and { burst = math.max(3, R.advice_rate / 12), per_second = R.advice_rate / 60 },
  })
end

-- A new room from a creator's message: R, or nil (the creator was told).
local function create(a, chan)
  local o, why = options.check(a.create)
  local function refuse(msg)
    chan:send(a.conn, json.encode { v = protocol.VERSION, type = "error", seq = 0, code = "bad-room", message = msg })
    return nil
  end
  if not o then return refuse(why) end
  local dirs
  if o.script then
    local dir = M.script_dir(a)
    dirs, why = options.install_script(o, dir)
    if not dirs then return refuse(why) end
  end
  local room, err = make_room(o, dirs, pool_of(a))
  if not room then
    err = tostring(err)
    if o.script then err = options.unpath(err, M.script_dir(a), o.stored.script_name) end
    return refuse(core.plain(variants.without_folders(err), protocol.MAX_LINE))
  end
  -- (an AI no catalogue holds would never take an absent person's chair:
  -- the room would wait on that turn for good)
  local game = room.g:game()
  if not ai.catalogue(dirs, game)[ai.real_name(o.takeover_ai, game)] then
    return refuse(string.format("takeover_ai: no AI called '%s' plays %s", o.takeover_ai, game))
  end
  local R = { id = a.id, opts = o, room = room, dirs = dirs, base = a.base, store = open_store(a.data), rate = a.rate,
    advice_rate = a.advice_rate }
  host_for(R)
  R.id = R.host.id
  if R.store then
    local keep = R.host:keep()
    local stored, serr = R.store:create(R.id, {
      game = room.g:game(), options = o.stored, tokens = keep.tokens, names = o.names, created = os.time(),
    })
    -- (a room that is not stored could not store its first move either)
    if not stored then
      io.stderr:write("diloti serve: room ", R.id:sub(1, 8), ": not stored: ", (tostring(serr):gsub(R.id, "…")), "\n")
      return refuse("the room could not be stored: try again later")
    end
  end
  created(R, chan, a.conn, a.base)
  R.host:begin()
  return R
end

-- The seats taken from the uploaded AI before a restart: a built-in AI's.
local function demote(R, seats)
  for _, seat in ipairs(type(seats) == "table" and seats or {}) do
    if R.opts.script_seats[seat] then
      R.opts.script_seats[seat] = nil
      R.room:seat(seat, { kind = "ai", name = R.opts.takeover_ai })
    end
  end
end

-- A room stored before a restart: R, or nil and why.
local function resume(a)
  local store = open_store(a.data)
  local row = store:get(a.id)
  if not row then return nil, "no such room in the store" end
  local o = assert(options.check(row.info.options, true))
  local dirs = o.script_name and { M.script_dir(a) } or nil
  local room, err
  if row.record and row.record ~= "" then
    room, err = room_mod.load(row.record, { text = true, ai_dirs = dirs, pool = pool_of(a) })
    if room then
      -- (the seats as the room last had them: a person's chair an AI took
      -- over is the person's again, to take back with their link)
      for seat, s in pairs(o.specs) do room:seat(seat, s) end
    end
  else
    room, err = make_room(o, dirs, pool_of(a))
  end
  if not room then return nil, err end
  local R = { id = a.id, opts = o, room = room, dirs = dirs, base = a.base, store = store, rate = a.rate,
    advice_rate = a.advice_rate }
  demote(R, row.info.demoted)
  host_for(R, { id = a.id, tokens = row.info.tokens, seqs = row.seqs })
  R.host:begin()
  return R
end

-- ---------------------------------------------------------------------
-- Seats: a person gone too long, and back

local function announce_seat(R, seat, kind)
  R.host:announce { type = "seat", seat = seat, kind = kind, name = R.host.names[seat] }
end

local function take_over(R, seat)
  R.dropped[seat] = nil
  if R.taken[seat] or not R.room:is_outside(seat) then return end
  local ok = R.room:seat(seat, { kind = "ai", name = R.opts.takeover_ai })
  if ok then
    R.taken[seat] = true
    announce_seat(R, seat, "ai")
  end
end

local function give_back(R, seat)
  if not R.taken[seat] then return end
  R.taken[seat] = nil
  R.room:seat(seat, { kind = "human" })
  announce_seat(R, seat, "person")
end

local function seat_has_conn(R, seat)
  local s = R.host.streams[seat]
  return s and #s.conns > 0
end

-- ---------------------------------------------------------------------
-- Messages

local function on_message(R, chan, conn, text)
  local c = R.conns[conn]
  if not c then return end
  -- (a person coming back: the chair is theirs before the state they are
  -- sent, so that it carries their moves. Only a connection that has not
  -- joined is read here: a joined one's messages are read within its
  -- rate, by c:receive, and once more below when accepted)
  local msg = not c.stream and protocol.read(text) or nil
  if msg and msg.type == "hello" then
    local v = R.host:viewer_of(msg.room, msg.token)
    if v then give_back(R, v) end
  end
  local ok, code, fault = c:receive(text)
  if fault then io.stderr:write("diloti serve: room ", R.id:sub(1, 8), ": ", fault, "\n") end
  if not ok and (code == "bad-token" or code == "joined" and not c.stream) then
    chan:close(conn, "no such room or token")
  end
  -- (a seat joined again: the connection it was taken from was told so,
  -- and is closed: it hears nothing more and holds no socket)
  if ok and msg and msg.type == "hello" then
    for id, other in pairs(R.conns) do
      if other.closed and not other.hung_up then
        other.hung_up = true
        chan:close(id, "this seat was joined from another connection")
      end
    end
  end
  if ok and not msg then msg = protocol.read(text) end
  local v = c.stream and c.stream.viewer
  if v ~= nil then R.dropped[v] = nil end
  -- (the AIs answer a person's move at the room's pace, not at once)
  if ok and msg and msg.type == "move" then R.next_step = now() + R.opts.pace end
end

local function on_close(R, conn)
  local c = R.conns[conn]
  if not c then return end
  R.conns[conn] = nil
  local v = c.stream and c.stream.viewer
  c:close()
  if v ~= nil and not seat_has_conn(R, v) and R.opts.takeover > 0 then R.dropped[v] = now() end
end

-- ---------------------------------------------------------------------
-- The loop

-- The seat whose AI is to move now, or nil.
local function ai_to_move(R)
  local g = R.room.g
  local phase = g:phase()
  if phase == "match-over" then return nil end
  if phase == "round-over" then return -1 end
  local turn = g:turn()
  if turn and not R.room:is_outside(turn) then return turn end
  return nil
end

-- One step of the AIs.
local function step(R)
  R.host:step()
  R.next_step = now() + R.opts.pace
end

-- The uploaded AI's seats count its CPU: its moves, and its hooks, which
-- run during everyone's moves (chan:cpu is this room's thread's).
local function meter(R, chan)
  local function clock() return chan:cpu() end
  for seat in pairs(R.opts.script_seats) do
    local p = R.room.players[seat]
    if p then p.meter = clock end
  end
end

-- Past its budget, the uploaded AI's seats are played by a built-in AI
-- for the rest of the game.
local function budget(R)
  local spent = 0
  for seat in pairs(R.opts.script_seats) do
    local p = R.room.players[seat]
    spent = spent + (p and p.spent or 0)
  end
  if spent <= (R.script_budget or M.SCRIPT_BUDGET) * math.max(1, (now() - R.started) / 60) then return end
  local seats = {}
  for seat in pairs(R.opts.script_seats) do
    seats[#seats + 1] = seat
    R.opts.script_seats[seat] = nil
    R.room:seat(seat, { kind = "ai", name = R.opts.takeover_ai })
    R.host:announce { type = "seat", seat = seat, kind = "ai", name = R.host.names[seat],
      why = "the uploaded AI used more than its share of the room's CPU" }
  end
  -- (for the rest of the game: a restart, or the room's waking, does not
  -- give the script its seats back with a fresh budget)
  if R.store then
    local ok, why = R.store:update_info(R.id, { demoted = seats })
    if not ok then io.stderr:write("diloti serve: room ", R.id:sub(1, 8), ": ", tostring(why), "\n") end
  end
end


-- How long to wait for a message before there is work to do.
local function timeout(R)
  local t = math.huge
  if ai_to_move(R) then t = math.max(0, R.next_step - now()) end
  for _, at in pairs(R.dropped) do t = math.min(t, math.max(0, at + R.opts.takeover - now())) end
  if R.quiet_since then t = math.min(t, math.max(0, R.quiet_since + R.idle - now())) end
  local due = R.host:presence_due()
  if due then t = math.min(t, math.max(0, due - now())) end
  return t < math.huge and t or nil
end

-- Whether the room may sleep: nobody connected for long enough (a
-- finished room lingers less).
local function sleepy(R)
  if next(R.conns) ~= nil or not R.quiet_since then return false end
  return now() >= R.quiet_since + R.idle
end

local function loop(R, chan)
  while true do
    local kind, conn, text = chan:next(timeout(R))
    if kind == "stop" then return end
    if kind == "open" then
      R.conns[conn] = R.host:connect(function(t) chan:send(conn, t) end)
      R.quiet_since = nil
    elseif kind == "message" then
      on_message(R, chan, conn, text)
    elseif kind == "close" then
      on_close(R, conn)
    end
    for seat, at in pairs(R.dropped) do
      if now() >= at + R.opts.takeover then take_over(R, seat) end
    end
    local due = R.host:presence_due()
    if due and now() >= due then R.host:tell_presence() end
    if ai_to_move(R) and now() >= R.next_step and not R.failed then
      local ok, e = pcall(step, R)
      if not ok then R.failed = R.failed or tostring(e) end
    end
    if next(R.opts.script_seats) and not R.failed then
      local ok, e = pcall(budget, R)
      if not ok then R.failed = tostring(e) end
    end
    if R.failed then
      io.stderr:write("diloti serve: room ", R.id:sub(1, 8), ": ", R.failed, "\n")
      -- (its people are told, not left at a table that never moves: the
      -- fault's words, which may quote what they may not see, stay in the log)
      for _, c in pairs(R.conns) do
        c:error("internal", "this room stopped on a fault and is closed: the server's log says why")
      end
      return
    end
    if kind == "close" and next(R.conns) == nil then R.quiet_since = now() end
    R.idle = R.room.g:phase() == "match-over" and math.min(M.LINGER, R.idle_limit) or R.idle_limit
    if sleepy(R) then return end
  end
end

--- run(chan, arg): arg is JSON: {id, data (folder, or none), base (the
-- links' base), and create (the creator's options) with conn (the
-- creator's connection), or resume = true}.
function M.run(chan, arg)
  local a = json.decode(arg)
  local R, why
  if a.resume then
    R, why = resume(a)
    if not R then
      io.stderr:write("diloti serve: room ", tostring(a.id):sub(1, 8), " not resumed: ", tostring(why), "\n")
      return
    end
  else
    R = create(a, chan)
    if not R then return end
  end
  R.conns, R.dropped, R.taken = {}, {}, {}
  R.script_budget = a.script_cpu
  R.idle_limit = a.idle or M.IDLE
  R.idle = R.idle_limit
  R.quiet_since = now()
  R.started, R.next_step = now(), now() + R.opts.pace
  meter(R, chan)
  loop(R, chan)
  if R.store then R.store:close() end
end

return M
