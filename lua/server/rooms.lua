-- The rooms of a server in one SQLite file (DIR/rooms.sqlite, through
-- diloti.store): how each room was made, its record after every accepted
-- move, the last sequence number of each of its streams, and whether it
-- is over. `diloti serve` writes a room's progress before it announces
-- the move, so a server killed at any moment finds every announced move
-- again when it starts (st:unfinished()); `diloti replay` reads the
-- finished games (st:finished()).
--
-- Each thread (each room) opens its own st: one SQLite connection per
-- Lua state; SQLite's locks keep the writers apart.
local store = require "diloti.store"
local json = require "diloti.match.json"
local core = require "diloti.core"

local M = {}

M.FILE = "rooms.sqlite"
M.SCHEMA = 1 -- PRAGMA user_version of the file this code writes
M.MAX_ID = 128
M.MAX_SUMMARY = 200
-- (a record is at most record.MAX_BYTES; the info is a few hundred bytes)
M.MAX_INFO = 64 * 1024

local SCHEMA_SQL = {
  [[CREATE TABLE rooms (
    id TEXT PRIMARY KEY NOT NULL,
    game TEXT NOT NULL,
    created INTEGER NOT NULL,
    info TEXT NOT NULL,
    record TEXT,
    seqs TEXT NOT NULL DEFAULT '{}',
    finished INTEGER NOT NULL DEFAULT 0,
    finished_at INTEGER,
    summary TEXT,
    updated INTEGER NOT NULL
  )]],
  "CREATE INDEX rooms_by_state ON rooms (finished, created)",
  "PRAGMA user_version = " .. M.SCHEMA,
}

local St = {}
St.__index = St

--- Where a server keeps its rooms when no --data is given:
-- $XDG_STATE_HOME/diloti/server, else ~/.local/state/diloti/server.
-- getenv: os.getenv by default. Returns the path, or nil and why.
function M.default_dir(getenv)
  getenv = getenv or os.getenv
  local state = getenv("XDG_STATE_HOME")
  -- (the XDG rules: a relative value is to be ignored)
  if state and state:sub(1, 1) == "/" then return state .. "/diloti/server" end
  local home = getenv("HOME")
  if not home or home:sub(1, 1) ~= "/" then
    return nil, "no folder for the server's data: set HOME or XDG_STATE_HOME, or give --data DIR"
  end
  return home .. "/.local/state/diloti/server"
end

local function quote(s) return "'" .. s:gsub("'", [['\'']]) .. "'" end

-- The folder, made with mode 0700 when missing (the rooms' tokens are
-- in the file: nobody else needs to read it).
local function make_dir(dir)
  local kind = core.filekind(dir, true)
  if kind == "directory" then return true end
  if kind then return nil, string.format("%s is not a folder", dir) end
  os.execute("mkdir -p -m 0700 " .. quote(dir) .. " 2>/dev/null")
  if core.filekind(dir, true) ~= "directory" then return nil, string.format("cannot make the folder %s", dir) end
  return true
end

local function version_of(db)
  local rows, err = db:rows("PRAGMA user_version")
  if not rows then return nil, err end
  return rows[1].user_version
end

-- Makes the schema in a fresh file. Under the write lock, the version is
-- read again: another thread may have made it meanwhile.
local function make_schema(db)
  local ok, err = pcall(db.tx, db, function(d)
    if assert(version_of(d)) ~= 0 then return end
    for _, sql in ipairs(SCHEMA_SQL) do assert(d:exec(sql)) end
  end)
  if not ok then return nil, tostring(err) end
  return true
end

--- rooms.open(dir) -> st, or nil and a message. Makes dir (mode 0700)
-- and dir/rooms.sqlite with its schema when missing.
function M.open(dir)
  if type(dir) ~= "string" or dir == "" then return nil, "rooms: expected a folder name" end
  if dir:find("\0", 1, true) then return nil, "rooms: the folder name holds a NUL byte" end
  local ok, err = make_dir(dir)
  if not ok then return nil, "rooms: " .. err end
  local path = dir .. "/" .. M.FILE
  local db, derr = store.open(path)
  if not db then return nil, "rooms: " .. derr end
  local v, verr = version_of(db)
  if v == 0 then
    local made
    made, verr = make_schema(db)
    v = made and M.SCHEMA or nil
  end
  if v ~= M.SCHEMA then
    db:close()
    if not v then return nil, string.format("rooms: %s: %s", path, verr) end
    return nil, string.format("rooms: %s is of schema %d; this diloti knows schema %d%s", path, v, M.SCHEMA,
      v > M.SCHEMA and " (it was written by a newer diloti)" or "")
  end
  return setmetatable({ db = db, path = path }, St)
end

-- ---------------------------------------------------------------------
-- Values in and out

local function check_id(id)
  if type(id) ~= "string" or id == "" or #id > M.MAX_ID or not id:match("^[%w_%-]+$") then
    return nil, string.format("rooms: a room id is 1 to %d letters, digits, '-' or '_'", M.MAX_ID)
  end
  return true
end

local function encode(v, what, max)
  local ok, text = pcall(json.encode, v)
  if not ok then return nil, string.format("rooms: %s cannot be stored: %s", what, tostring(text)) end
  if #text > max then return nil, string.format("rooms: %s is too big (%d bytes)", what, #text) end
  return text
end

-- JSON writes a key as a string: the keys that were whole numbers (seats)
-- come back as numbers.
local function numeric_keys(v)
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in pairs(v) do
    local n = type(k) == "string" and k:match("^%-?%d+$") and math.tointeger(tonumber(k))
    out[n or k] = numeric_keys(x)
  end
  return out
end

local function decode(text, what, id)
  local v, err = json.decode(text or "{}")
  if v == nil then return nil, string.format("rooms: room %s: its %s is damaged: %s", id, what, tostring(err)) end
  return numeric_keys(v)
end

local function check_info(info)
  if type(info) ~= "table" then return nil, "rooms: info must be a table" end
  if type(info.game) ~= "string" or info.game == "" then return nil, "rooms: info.game must name the game" end
  if info.created ~= nil and math.type(info.created) ~= "integer" then
    return nil, "rooms: info.created must be whole seconds"
  end
  for _, k in ipairs { "options", "tokens", "names" } do
    if info[k] ~= nil and type(info[k]) ~= "table" then
      return nil, string.format("rooms: info.%s must be a table", k)
    end
  end
  return true
end

local function check_progress(p)
  if type(p) ~= "table" then return nil, "rooms: progress must be a table" end
  if type(p.record) ~= "string" then return nil, "rooms: progress.record must be the record's text" end
  if p.seqs ~= nil and type(p.seqs) ~= "table" then return nil, "rooms: progress.seqs must be a table" end
  for k, n in pairs(p.seqs or {}) do
    if math.type(n) ~= "integer" or n < 0 then
      return nil, string.format("rooms: progress.seqs[%s] must be a whole number, 0 or more", tostring(k))
    end
  end
  if p.finished ~= nil and type(p.finished) ~= "boolean" then
    return nil, "rooms: progress.finished is true or false"
  end
  if p.summary ~= nil and (type(p.summary) ~= "string" or #p.summary > M.MAX_SUMMARY) then
    return nil, string.format("rooms: progress.summary must be a text of at most %d bytes", M.MAX_SUMMARY)
  end
  return true
end

local function closed(self)
  if not self.db then error("rooms: the store is closed", 3) end
  return self.db
end

-- ---------------------------------------------------------------------
-- The store's operations: each returns a value, or nil and a message.

--- Stores a new room. info: {game, options = {...}, tokens = {seats =
-- {[seat] = token}, watch = token}, names = {[seat] = name}, created =
-- unix seconds (now by default)}, plain data (kept as JSON).
function St:create(id, info)
  local db = closed(self)
  local ok, err = check_id(id)
  if ok then ok, err = check_info(info) end
  if not ok then return nil, err end
  local created = info.created or os.time()
  local copy = {}
  for k, v in pairs(info) do copy[k] = v end
  copy.created = created
  local text, terr = encode(copy, "info", M.MAX_INFO)
  if not text then return nil, terr end
  local done, derr = db:exec("INSERT INTO rooms (id, game, created, info, updated) VALUES (?, ?, ?, ?, ?)",
    id, info.game, created, text, os.time())
  if not done then
    if derr:find("UNIQUE constraint", 1, true) then return nil, string.format("rooms: room %s exists already", id) end
    return nil, "rooms: " .. derr
  end
  return true
end

--- Changes fields of a room's info (what create stored): changes =
-- {key = value}; a value nil is kept as it was. Only the room's own
-- thread calls it. Returns true, or nil and a message.
function St:update_info(id, changes)
  local row, err = self:get(id)
  if not row then return nil, err end
  if type(changes) ~= "table" then return nil, "rooms: update_info: changes must be a table" end
  for k, v in pairs(changes) do row.info[k] = v end
  local ok, cerr = check_info(row.info)
  if not ok then return nil, cerr end
  local text, terr = encode(row.info, "info", M.MAX_INFO)
  if not text then return nil, terr end
  local done, derr = closed(self):exec("UPDATE rooms SET info = ?, updated = ? WHERE id = ?", text, os.time(), id)
  if not done then return nil, "rooms: " .. derr end
  return true
end

--- A room's progress after an accepted move, in one statement (one
-- small transaction): p = {record = TEXT (as the table's save writes
-- it), seqs = {[stream] = last number}, finished = bool, summary =
-- short text}.
function St:progress(id, p)
  local db = closed(self)
  local ok, err = check_id(id)
  if ok then ok, err = check_progress(p) end
  if not ok then return nil, err end
  local seqs, serr = encode(p.seqs or {}, "progress.seqs", M.MAX_INFO)
  if not seqs then return nil, serr end
  local now = os.time()
  local done, n = db:exec([[UPDATE rooms SET record = ?, seqs = ?, finished = ?,
      finished_at = CASE WHEN ? THEN coalesce(finished_at, ?) END, summary = ?, updated = ?
    WHERE id = ?]], p.record, seqs, p.finished == true, p.finished == true, now, p.summary, now, id)
  if not done then return nil, "rooms: " .. n end
  if n == 0 then return nil, string.format("rooms: there is no room %s", id) end
  return true
end

local function room_of(row)
  local info, err = decode(row.info, "info", row.id)
  if not info then return nil, err end
  local seqs, serr = decode(row.seqs, "seqs", row.id)
  if not seqs then return nil, serr end
  return {
    id = row.id, game = row.game, created = row.created, info = info, record = row.record, seqs = seqs,
    finished = row.finished ~= 0, finished_at = row.finished_at, summary = row.summary,
  }
end

--- Everything kept of a room: {id, game, created, info, record, seqs,
-- finished, finished_at, summary}; nil when there is none (and a
-- message when the file would not answer).
function St:get(id)
  local db = closed(self)
  local ok, err = check_id(id)
  if not ok then return nil, err end
  local rows, rerr = db:rows("SELECT * FROM rooms WHERE id = ?", id)
  if not rows then return nil, "rooms: " .. rerr end
  if not rows[1] then return nil, string.format("rooms: there is no room %s", id) end
  return room_of(rows[1])
end

--- The rooms to resume, oldest first: a list of {id, info, record, seqs}
-- (record nil before the first move), and a list of messages for rooms
-- whose stored data is damaged (left out).
function St:unfinished()
  local db = closed(self)
  local rows, err = db:rows("SELECT * FROM rooms WHERE finished = 0 ORDER BY created, id")
  if not rows then return nil, "rooms: " .. err end
  local list, damaged = {}, {}
  for _, row in ipairs(rows) do
    local r, why = room_of(row)
    if r then
      list[#list + 1] = { id = r.id, info = r.info, record = r.record, seqs = r.seqs }
    else
      damaged[#damaged + 1] = why
    end
  end
  return list, damaged
end

--- The finished games, oldest first: {id, game, created, finished_at,
-- summary}.
function St:finished()
  local db = closed(self)
  local rows, err = db:rows([[SELECT id, game, created, finished_at, summary FROM rooms WHERE finished = 1
    ORDER BY finished_at, created, id]])
  if not rows then return nil, "rooms: " .. err end
  return rows
end

--- The finished games whose id starts with prefix (for `diloti replay
-- PREFIX`): a list as finished()'s.
function St:find(prefix)
  local db = closed(self)
  if type(prefix) ~= "string" or not prefix:match("^[%w_%-]+$") or #prefix > M.MAX_ID then
    return nil, "rooms: a room id (or its first letters) is letters, digits, '-' or '_'"
  end
  local rows, err = db:rows([[SELECT id, game, created, finished_at, summary, finished FROM rooms
    WHERE substr(id, 1, ?) = ? ORDER BY created, id]], #prefix, prefix)
  if not rows then return nil, "rooms: " .. err end
  return rows
end

function St:close()
  if self.db then self.db:close() end
  self.db = nil
  return true
end

return M
