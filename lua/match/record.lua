-- Game records: the text behind `save FILE`, `load FILE` and `replay FILE`
-- at the table. docs/record.md describes the format; in short:
--
--   diloti-record 1
--   rules: diloti+soy
--   seed: 42
--   seat 0: human
--   moves
--   # round 1
--   1 s0: 7h lay
--   ...
--   final: dealer=1; turn=0; ...
--   end 57
--
-- A record stores how the game was made and every step of g:history(), so
-- that replaying it gives the same game. The loader trusts nothing: every
-- malformed input, cut-short file or refused move comes back as nil and
-- "NAME:LINE: what is wrong", never as a Lua error.
local diloti = require "diloti"
local core = require "diloti.core"
local registry = require "diloti.registry"
local textfile = require "diloti.scripts.textfile"

local M = {}

M.MAGIC = "diloti-record"
M.MAJOR = 1
M.MINOR = 0
-- Real records are a few hundred kilobytes at most; the cap keeps a
-- mistaken `load` of some huge file from eating memory.
M.MAX_BYTES = 4 * 1024 * 1024
M.MAX_LINE = 4096

local NEXT_ROUND = "next-round"

-- Header fields the format knows, in the order they are written. Each
-- kind has a reader (text -> value or nil, why) and a writer.
local FIELDS = {
  { key = "game", kind = "text" },
  { key = "rules", kind = "text" },
  { key = "players", kind = "int", min = 2, max = 4 },
  { key = "teams", kind = "bool" },
  { key = "seed", kind = "int" },
  { key = "dealer", kind = "int", min = 0, max = 3 },
  { key = "target", kind = "int", min = 1 },
  { key = "position", kind = "text" },
  { key = "date", kind = "text" },
  { key = "engine", kind = "text" },
}
local FIELD = {}
for _, f in ipairs(FIELDS) do FIELD[f.key] = f end

-- ---------------------------------------------------------------------
-- Small helpers

local function fail(name, line, fmt, ...)
  return nil, string.format("%s:%d: " .. fmt, name, line, ...)
end

-- A short, printable piece of a bad line for messages.
local function excerpt(s)
  s = s:gsub("[%c\128-\255]", "?")
  if #s > 40 then s = s:sub(1, 37) .. "..." end
  return s
end

local function trim(s)
  return (s:gsub("^%s+", ""):gsub("%s+$", ""))
end

-- Lua integers only: "12" yes, "1.5", "1e3" and 2^63 no.
local function read_int(s)
  if not s:match("^%-?%d+$") then return nil end
  return math.tointeger(tonumber(s))
end

local function is_line(s)
  return type(s) == "string" and not s:find("[%c]") and #s <= M.MAX_LINE and utf8.len(s) ~= nil
end

-- ---------------------------------------------------------------------
-- Seats

-- The AI name syntax, as lua/ai/player.lua checks a script's name.
local AI_NAME = require("diloti.ai.player").NAME

--- The AI a seat description names ("ai greedy", "ai master seed=3"):
-- the word after "ai", or nil when the seat is not an AI's. The table
-- seats that AI again on load.
function M.seat_ai(desc)
  return type(desc) == "string" and desc:match("^ai%s+(%S+)") or nil
end

-- A record is a stranger's file: it names an installed AI, never a file
-- to run (`ai /any/path.lua`) or to read (`ai /dev/zero`). Only a name
-- passes; a path the user types at the table is theirs to give.
local function check_seat(seat, desc)
  local name = M.seat_ai(desc)
  if name and not name:match(AI_NAME) then
    return nil, string.format("seat %d: '%s' is not an AI name (a record names an installed AI: letters, "
      .. "digits, '-' and '_', never a file)", seat, excerpt(name))
  end
  return true
end

-- ---------------------------------------------------------------------
-- Field values

local readers = {}

function readers.text(s)
  if s == "" then return nil, "is empty" end
  return s
end

function readers.int(s, f)
  local n = read_int(s)
  if not n then return nil, string.format("'%s' is not a whole number", excerpt(s)) end
  if (f.min and n < f.min) or (f.max and n > f.max) then
    return nil, string.format("%d is out of range (%s..%s)", n, f.min or "", f.max or "")
  end
  return n
end

function readers.bool(s)
  if s == "yes" then return true elseif s == "no" then return false end
  return nil, string.format("'%s' should be yes or no", excerpt(s))
end

local function write_value(f, v)
  if f.kind == "bool" then
    if type(v) ~= "boolean" then return nil, "should be true or false" end
    return v and "yes" or "no"
  elseif f.kind == "int" then
    local n = math.tointeger(v)
    if not n then return nil, "should be a whole number" end
    local ok, why = readers.int(tostring(n), f)
    if not ok then return nil, why end
    return tostring(n)
  end
  if not is_line(v) or v == "" then return nil, "should be a non-empty one-line string" end
  return v
end

-- ---------------------------------------------------------------------
-- Encoding

local function header_lines(meta, game)
  local out = { string.format("%s %d", M.MAGIC, M.MAJOR) }
  local values = {
    game = game, rules = meta.rules or game or registry.default().name, players = meta.players, teams = meta.teams,
    seed = meta.seed,
    dealer = meta.dealer, target = meta.target, position = meta.position,
    date = meta.date == nil and os.date("%Y-%m-%d") or meta.date or nil,
    engine = "diloti " .. tostring(diloti.version),
  }
  for _, f in ipairs(FIELDS) do
    if values[f.key] ~= nil then
      local text, why = write_value(f, values[f.key])
      if not text then return nil, "meta." .. f.key .. " " .. why end
      out[#out + 1] = f.key .. ": " .. text
    end
  end
  return out
end

local function seat_lines(out, seats)
  if seats == nil then return out end
  if type(seats) ~= "table" then return nil, "meta.seats should be a table" end
  for seat = 0, 3 do
    local d = seats[seat]
    if d ~= nil then
      if not is_line(d) then return nil, string.format("meta.seats[%d] should be a one-line string", seat) end
      local ok, why = check_seat(seat, d)
      if not ok then return nil, "meta.seats: " .. why end
      out[#out + 1] = string.format("seat %d: %s", seat, d)
    end
  end
  for k in pairs(seats) do
    if math.type(k) ~= "integer" or k < 0 or k > 3 then
      return nil, string.format("meta.seats: %s is not a seat (0..3)", tostring(k))
    end
  end
  return out
end

local function extra_lines(out, extra)
  if extra == nil then return out end
  if type(extra) ~= "table" then return nil, "meta.extra should be a table" end
  local keys = {}
  for k, v in pairs(extra) do
    if type(k) ~= "string" or not k:match("^%a[%w_%-]*$") or FIELD[k] or k == "seat" then
      return nil, string.format("meta.extra: '%s' cannot be a header key", tostring(k))
    end
    if not is_line(v) then return nil, string.format("meta.extra.%s should be a one-line string", k) end
    keys[#keys + 1] = k
  end
  table.sort(keys)
  for _, k in ipairs(keys) do out[#out + 1] = k .. ": " .. extra[k] end
  return out
end

-- meta.comments: lines for people (the loader skips them), e.g. that an
-- AI must be installed under its name to load the game.
local function comment_lines(out, comments)
  if comments == nil then return out end
  if type(comments) ~= "table" then return nil, "meta.comments should be a list" end
  for i, c in ipairs(comments) do
    if not is_line(c) then return nil, string.format("meta.comments[%d] should be a one-line string", i) end
    out[#out + 1] = "# " .. c
  end
  return out
end

--- A finished round in one line, for people reading a record (the
-- game's own words: its package's record part). game: a package or its
-- name (default: the default game).
function M.round_line(round, b, game)
  local pkg = type(game) == "table" and game or registry.get(game) or registry.default()
  local part = registry.part(pkg, "record")
  if part and part.round_line then return part.round_line(round, b) end
  -- (a game without its own words: each side's total)
  local totals = {}
  for side = 0, 63 do
    local t = type(b) == "table" and type(b[side]) == "table" and b[side].total
    if t == nil then break end
    totals[#totals + 1] = tostring(t)
  end
  return string.format("round %d over: %s", round, table.concat(totals, " - "))
end

local function move_lines(out, history, game)
  out[#out + 1] = "moves"
  local round
  for i, h in ipairs(history) do
    if h.round ~= round and h.kind ~= NEXT_ROUND then
      round = h.round
      out[#out + 1] = "# round " .. round
    end
    if h.kind == NEXT_ROUND then
      out[#out + 1] = string.format("%d: %s", i, NEXT_ROUND)
    else
      out[#out + 1] = string.format("%d s%d: %s", i, h.seat, h.move)
    end
    if h.breakdown then out[#out + 1] = "# " .. M.round_line(h.round, h.breakdown, game) end
  end
  return out
end

-- The game's history and position, or nil and why (a wrong argument must
-- not raise an error at the table).
local function game_facts(game)
  local ok, history, position = pcall(function() return game:history(), game:position() end)
  if not ok or type(history) ~= "table" or type(position) ~= "string" then
    return nil, "not a game"
  end
  return history, position
end

--- The record of a game as text, or nil and a message. meta says how the
-- game was made: {rules, players, teams, seed, dealer, target, position,
-- seats = {[0] = "human", ...}, extra = {key = value}, date, comments =
-- {line, ...}}; date defaults to today, false leaves it out. A seat "ai
-- X" must name the AI (X a name, not a file).
function M.encode(game, meta)
  meta = meta or {}
  if type(meta) ~= "table" then return nil, "meta should be a table" end
  if meta.rules ~= nil and type(meta.rules) ~= "string" then
    return nil, "meta.rules should be the rules spec string (a rules table cannot be recorded)"
  end
  local history, position = game_facts(game)
  if not history then return nil, position end
  -- (a game handle names its game; the default game's records omit it, as before)
  local ok, name = pcall(function() return game:game() end)
  local default = registry.default().name
  local pkg = ok and registry.get(name) or registry.default()
  local out, why = header_lines(meta, ok and name ~= default and name or nil)
  if out then out, why = seat_lines(out, meta.seats) end
  if out then out, why = extra_lines(out, meta.extra) end
  if out then out, why = comment_lines(out, meta.comments) end
  if not out then return nil, why end
  move_lines(out, history, pkg)
  out[#out + 1] = "final: " .. position
  out[#out + 1] = "end " .. #history
  return table.concat(out, "\n") .. "\n"
end

-- ---------------------------------------------------------------------
-- Decoding

-- The lines of a text with their numbers; a last line without its
-- newline is marked, since a file cut short ends that way.
local function split(text)
  local lines, start = {}, 1
  while start <= #text do
    local nl = text:find("\n", start, true)
    local line = text:sub(start, (nl or #text + 1) - 1)
    lines[#lines + 1] = line:gsub("\r$", "")
    if not nl then lines.unterminated = true break end
    start = nl + 1
  end
  return lines
end

local function check_text(line, name, n)
  if #line > M.MAX_LINE then return fail(name, n, "line longer than %d bytes", M.MAX_LINE) end
  local c = line:find("[%z\1-\8\11-\31\127]")
  if c then return fail(name, n, "control character 0x%02x: not a text record", line:byte(c)) end
  if not utf8.len(line) then return fail(name, n, "not UTF-8 text (binary data?)") end
  return true
end

local function read_version(line, name)
  local major, minor = line:match("^" .. M.MAGIC:gsub("%-", "%%-") .. " (%d+)%.?(%d*)%s*$")
  if not major then
    return fail(name, 1, "not a diloti record (the first line should be '%s %d')", M.MAGIC, M.MAJOR)
  end
  major = read_int(major)
  if major ~= M.MAJOR then
    return fail(name, 1, "record version %s is not supported (this program reads version %d)",
      major or "?", M.MAJOR)
  end
  return string.format("%d.%d", major, read_int(minor) or 0)
end

-- One header line into rec. Returns true, or nil and the message.
local function read_header(rec, line, name, n)
  -- (a tab, allowed in a record edited by hand, is a space: kept inside a
  -- value, it made a record that loads but cannot be saved again)
  line = line:gsub("\t", " ")
  local seat, desc = line:match("^seat%s+(%d+)%s*:%s*(.-)%s*$")
  if seat then
    seat = read_int(seat)
    if not seat or seat > 3 then return fail(name, n, "seat %s: seats are 0..3", excerpt(line:match("%d+"))) end
    if rec.seats[seat] then return fail(name, n, "seat %d given twice", seat) end
    local ok, why = check_seat(seat, desc)
    if not ok then return fail(name, n, "%s", why) end
    rec.seats[seat], rec.where["seat " .. seat] = desc, n
    return true
  end
  local key, value = line:match("^(%a[%w_%-]*)%s*:%s*(.-)%s*$")
  if not key then return fail(name, n, "expected 'key: value' or 'moves', found '%s'", excerpt(line)) end
  if rec.where[key] then return fail(name, n, "%s given twice", key) end
  rec.where[key] = n
  local f = FIELD[key]
  if not f then
    rec.extra[key] = value
    return true
  end
  local v, why = readers[f.kind](value, f)
  if v == nil then return fail(name, n, "%s: %s", key, why) end
  rec[key] = v
  return true
end

local function read_move(rec, line, name, n)
  local num, seat, text = line:match("^(%d+)%s*(%S*)%s*:%s*(.-)%s*$")
  if not num then return fail(name, n, "expected a move such as '1 s0: 7h lay', found '%s'", excerpt(line)) end
  local expected = #rec.moves + 1
  if read_int(num) ~= expected then
    return fail(name, n, "move %s out of sequence (expected %d)", excerpt(num), expected)
  end
  if seat ~= "" then
    seat = seat:match("^s(%d)$")
    if not seat then return fail(name, n, "move %d: the seat should be written s0..s3", expected) end
    seat = read_int(seat)
  else
    seat = nil
  end
  if text == "" then return fail(name, n, "move %d is empty", expected) end
  rec.moves[expected] = { text = text, line = n, seat = seat }
  return true
end

-- What may follow the moves: final (once), then end, then nothing.
local function read_tail(rec, line, name, n)
  if rec.complete then return fail(name, n, "text after the end line: '%s'", excerpt(line)) end
  local final = line:match("^final:%s*(.-)%s*$")
  if final then
    if rec.final then return fail(name, n, "final given twice") end
    if final == "" then return fail(name, n, "final: is empty") end
    rec.final, rec.where.final = final, n
    return true
  end
  local count = line:match("^end%s+(.-)%s*$")
  if not count then return nil end
  count = read_int(count)
  if count ~= #rec.moves then
    return fail(name, n, "the end line counts %s moves but the record holds %d", count or "?", #rec.moves)
  end
  rec.complete, rec.where["end"] = true, n
  return true
end

local function read_body(rec, line, name, n, state)
  line = trim(line)
  if line == "" or line:match("^#") then return true end
  if state.part == "header" then
    if line == "moves" then
      state.part, rec.where.moves = "moves", n
      return true
    end
    return read_header(rec, line, name, n)
  end
  local ok, why = read_tail(rec, line, name, n)
  if ok ~= nil or why then return ok, why end
  if rec.final then return fail(name, n, "a move after the final line: '%s'", excerpt(line)) end
  return read_move(rec, line, name, n)
end

local function new_record(version)
  return { version = version, seats = {}, extra = {}, moves = {}, where = {} }
end

-- A record that did not reach its end line: refused, unless the caller
-- asked to recover the complete lines of a cut-short file.
local function check_complete(rec, name, nlines, partial)
  if rec.complete then return rec end
  if not rec.where.moves then
    return fail(name, nlines, "the record ends inside its header (no 'moves' line): the file is cut short")
  end
  if partial then return rec end
  return fail(name, nlines, "the record ends without its 'end' line: the file is cut short")
end

--- A record table from text, or nil and "NAME:LINE: what is wrong".
-- opts.partial accepts a file cut short after its header: the complete
-- lines are kept (a last line without its newline is dropped).
function M.decode(text, name, opts)
  name = type(name) == "string" and name or "record"
  opts = type(opts) == "table" and opts or {}
  if type(text) ~= "string" then return nil, name .. ": not a text" end
  if #text > M.MAX_BYTES then return nil, string.format("%s: larger than %d bytes", name, M.MAX_BYTES) end
  local lines = split(text)
  if lines.unterminated and opts.partial then lines[#lines] = nil end
  if #lines == 0 or (#lines == 1 and lines[1]:match("^%s*$")) then
    return fail(name, 1, "empty file, or cut short before its first line ended")
  end
  local ok, why = check_text(lines[1], name, 1)
  if not ok then return nil, why end
  local version, verr = read_version(lines[1], name)
  if not version then return nil, verr end
  local rec, state = new_record(version), { part = "header" }
  for n = 2, #lines do
    ok, why = check_text(lines[n], name, n)
    if ok then ok, why = read_body(rec, lines[n], name, n, state) end
    if not ok then
      -- A broken last line with no newline is most likely where a file was cut.
      if n == #lines and lines.unterminated then
        return fail(name, n, "the record is cut short in this line (%s)", why:match("^.-:%d+: (.*)$"))
      end
      return nil, why
    end
  end
  rec.name = name
  return check_complete(rec, name, #lines, opts.partial)
end

-- ---------------------------------------------------------------------
-- Loading

-- Reading (not seeking) also catches a folder, which opens but cannot be read.
local function read_file(path)
  return textfile.read(path, M.MAX_BYTES)
end

-- Text or a path? Text has a newline or starts like a record.
local function source(src, opts)
  if type(src) ~= "string" then return nil, "record: expected a path or the text of a record" end
  if opts.text or src == "" or src:find("\n", 1, true) or src:sub(1, #M.MAGIC) == M.MAGIC then
    return src, opts.name or "record"
  end
  local text, err = read_file(src)
  if not text then return nil, err end
  return text, opts.name or src
end

local function make_game(rec, opts)
  local where = rec.where
  local g, err = diloti.new{
    game = rec.game, rules = rec.rules or rec.game or registry.default().name, players = rec.players, teams = rec.teams,
    seed = rec.seed,
    dealer = rec.dealer, target = rec.target, position = rec.position, rules_dirs = opts.rules_dirs,
    pool = opts.pool,
  }
  if g then return g end
  if rec.position then
    return fail(rec.name, where.position, "the game cannot be set up from this position: %s", err)
  end
  return fail(rec.name, where.rules or 1, "the game cannot be made with rules '%s': %s",
    rec.rules or registry.default().name, err)
end

local function check_seats(g, rec)
  local players = g:rules().players
  for seat in pairs(rec.seats) do
    if seat >= players then
      return fail(rec.name, rec.where["seat " .. seat], "seat %d, but the game has %d players", seat, players)
    end
  end
  return true
end

-- Plays one recorded step on g; nil and the message when refused.
local function play_step(g, rec, i)
  local m = rec.moves[i]
  if m.text == NEXT_ROUND then
    local ok, err = g:next_round()
    if not ok then return fail(rec.name, m.line, "%s refused: %s", NEXT_ROUND, err) end
    return true
  end
  if m.seat and g:turn() ~= m.seat then
    return fail(rec.name, m.line, "move %d is marked s%d, but it is %s", i, m.seat,
      g:turn() and "seat " .. g:turn() .. "'s turn" or "nobody's turn (" .. g:phase() .. ")")
  end
  local ok, err = g:play(m.text)
  if not ok then return fail(rec.name, m.line, "move '%s' refused: %s", excerpt(m.text), err) end
  return true
end

local function replay_all(g, rec)
  for i = 1, #rec.moves do
    local ok, err = play_step(g, rec, i)
    if not ok then return nil, err end
  end
  if rec.final and g:position() ~= rec.final then
    return fail(rec.name, rec.where.final, "the moves do not lead to the saved final position "
      .. "(were the rules, a variant or the engine changed?)")
  end
  return true
end

-- A game built and replayed from a record, with everything that can go
-- wrong as nil and a message; an unexpected error is caught too, so that
-- the table survives whatever a file holds.
local function build(rec, opts)
  local ok, g, err = pcall(function()
    local game, why = make_game(rec, opts)
    if not game then return nil, why end
    local fine, ferr = check_seats(game, rec)
    if fine then fine, ferr = replay_all(game, rec) end
    if not fine then return nil, ferr end
    return game
  end)
  if not ok then return nil, string.format("%s: internal error while loading: %s", rec.name, tostring(g)) end
  return g, err
end

local function decoded(src, opts)
  if type(src) == "table" and src.moves then return src end
  local text, name = source(src, opts)
  if not text then return nil, name end
  return M.decode(text, name, opts)
end

--- A new game from a record: a path, the text (opts.text forces it), or a
-- decoded record. Returns game, record or nil, message. opts: rules_dirs,
-- name (for messages), partial (see decode).
function M.load(src, opts)
  opts = type(opts) == "table" and opts or {}
  local rec, err = decoded(src, opts)
  if not rec then return nil, err end
  local g, gerr = build(rec, opts)
  if not g then return nil, gerr end
  return g, rec
end

--- Whether text replays to exactly game's position: true, or nil and why.
function M.verify(game, text, opts)
  local g, err = M.load(text, { text = true, name = "record", rules_dirs = opts and opts.rules_dirs })
  if not g then return nil, err end
  local _, position = game_facts(game)
  if g:position() ~= position then return nil, "the record does not replay to this game" end
  return true
end

-- ---------------------------------------------------------------------
-- Saving

-- io messages start with the file name; the temporary name would only
-- confuse, so keep the reason alone.
local function reason(err, tmp)
  err = tostring(err)
  if err:sub(1, #tmp + 2) == tmp .. ": " then return err:sub(#tmp + 3) end
  return err
end

-- Only a new name or an ordinary file is saved over: renaming onto a
-- device (/dev/null), a link or a folder would replace it, and as root
-- that can break the system. A left-over temporary file is not trusted
-- either (it could be a link planted to redirect the write).
local function safe_target(path, tmp)
  local kind = core.filekind(path)
  if kind and kind ~= "file" then
    return nil, string.format("cannot save %s: it is a %s, not an ordinary file",
      path, kind == "other" and "device or special file" or kind)
  end
  if core.filekind(tmp) then
    return nil, string.format("cannot save %s: %s is in the way (remove it first)", path, tmp)
  end
  return true
end

local function write_file(path, text)
  local tmp = path .. ".tmp"
  local safe, why = safe_target(path, tmp)
  if not safe then return nil, why end
  local f, err = io.open(tmp, "wb")
  if not f then return nil, string.format("cannot save %s: %s", path, reason(err, tmp)) end
  local ok, werr = f:write(text)
  local closed, cerr = f:close()
  if not ok or not closed then
    os.remove(tmp)
    return nil, string.format("cannot save %s: %s", path, reason(werr or cerr, tmp))
  end
  local moved, merr = os.rename(tmp, path)
  if not moved then
    os.remove(tmp)
    return nil, string.format("cannot save %s: %s", path, reason(merr, tmp))
  end
  return true
end

--- Saves a game's record to path: true, or nil and a message. The text is
-- replayed before it is written (a record that would not load is refused,
-- meta.rules_dirs helps with user variants), and it goes to a temporary
-- file first, so a failed save leaves any older file whole.
function M.save(path, game, meta)
  if type(path) ~= "string" or path == "" then return nil, "save: expected a file name" end
  local text, err = M.encode(game, meta)
  if not text then return nil, err end
  local ok, verr = M.verify(game, text, { rules_dirs = meta and meta.rules_dirs })
  if not ok then
    return nil, string.format("cannot save %s: the record would not replay to this game "
      .. "(does meta say how it was made?): %s", path, verr)
  end
  return write_file(path, text)
end

-- ---------------------------------------------------------------------
-- Replay: stepping through a saved game

local Stepper = {}
Stepper.__index = Stepper

--- A stepper over a record (a path, text or decoded record), or nil and a
-- message. Every move is checked first, then the game is wound back to
-- its start. Steps forward replay the recorded text and steps back use
-- g:undo(), which also takes back a next-round step.
function M.replay(src, opts)
  opts = type(opts) == "table" and opts or {}
  local rec, err = decoded(src, opts)
  if not rec then return nil, err end
  local g, gerr = build(rec, opts)
  if not g then return nil, gerr end
  for _ = 1, #rec.moves do g:undo() end
  return setmetatable({ g = g, rec = rec, i = 0 }, Stepper)
end

function Stepper:game() return self.g end
function Stepper:record() return self.rec end
function Stepper:at() return self.i end
function Stepper:total() return #self.rec.moves end

--- The text of step i (1..total): a move, or "next-round".
function Stepper:move(i)
  local m = self.rec.moves[i]
  return m and m.text
end

--- One step forward: the step's text, or nil and why.
function Stepper:step()
  if self.i >= #self.rec.moves then return nil, "at the end of the record" end
  local ok, err = play_step(self.g, self.rec, self.i + 1)
  if not ok then return nil, err end
  self.i = self.i + 1
  return self.rec.moves[self.i].text
end

--- One step back: the text of the step taken back, or nil and why.
function Stepper:back()
  if self.i == 0 then return nil, "at the start of the record" end
  self.g:undo()
  self.i = self.i - 1
  return self.rec.moves[self.i + 1].text
end

--- To step n (0 is the start): n, or nil and why.
function Stepper:seek(n)
  n = math.tointeger(n)
  if not n or n < 0 or n > #self.rec.moves then
    return nil, string.format("no step %s: steps are 0..%d", tostring(n), #self.rec.moves)
  end
  while self.i > n do self:back() end
  while self.i < n do
    local ok, err = self:step()
    if not ok then return nil, err end
  end
  return n
end
-- `goto` is a Lua keyword: callers write st["goto"](st, n) or st:seek(n).
Stepper["goto"] = Stepper.seek

return M
