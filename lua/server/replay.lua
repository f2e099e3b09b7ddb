-- `diloti replay`: the finished games a server kept (lua/server/rooms.lua)
-- listed, and one of them told move by move for people: who played what
-- and what it did, who took each trick, each round's result and how the
-- match ended. Only text comes out; lua/cli.lua prints it (cleaned of
-- terminal controls: names and summaries came from the network).
local record = require "diloti.match.record"
local core = require "diloti.core"

local M = {}

M.ID_SHOWN = 12 -- the first letters of an id the list shows (enough to pick one)
M.MAX_NAME = 40
M.MAX_SUMMARY = 200

local function date(t)
  return math.type(t) == "integer" and os.date("%Y-%m-%d %H:%M", t) or "?"
end

--- The lines listing finished games (st:finished()'s rows).
function M.list_lines(rows)
  local out = {}
  for _, r in ipairs(rows) do
    out[#out + 1] = string.format("%-" .. M.ID_SHOWN .. "s  %-8s %s  %s", r.id:sub(1, M.ID_SHOWN), r.game,
      date(r.created), core.plain(r.summary or "", M.MAX_SUMMARY))
  end
  return out
end

-- Each seat's name: the one the room knew (info.names; plain text, as
-- the protocol made it), else the AI the
-- record names, else "seat N"; an AI says so, and a name two seats share
-- says its seat.
local function names_of(info, rec, players)
  local names, count = {}, {}
  local given = type(info) == "table" and type(info.names) == "table" and info.names or {}
  for seat = 0, players - 1 do
    local ai = record.seat_ai(rec.seats and rec.seats[seat])
    local name = type(given[seat]) == "string" and core.plain(given[seat], M.MAX_NAME) or ""
    if name == "" then name = ai or ("seat " .. seat) end
    names[seat] = { name = name, ai = ai }
    count[name] = (count[name] or 0) + 1
  end
  for seat = 0, players - 1 do
    local n, tags = names[seat], {}
    if n.ai then tags[#tags + 1] = n.ai == n.name and "AI" or ("AI " .. n.ai) end
    if count[n.name] > 1 then tags[#tags + 1] = "seat " .. seat end
    names[seat] = #tags > 0 and string.format("%s (%s)", n.name, table.concat(tags, ", ")) or n.name
  end
  return names
end

-- A move told with its player: the engine's explanation, with "seat N"
-- replaced by the name when it starts with it ("seat 2 bids 110c").
local function told(g, seat, text, names)
  local ok, why = g:check(text)
  local name = names[seat] or ("seat " .. tostring(seat))
  if not ok or type(why) ~= "string" or why == "" then return string.format("%s: %s", name, text) end
  local rest = why:match("^seat " .. seat .. " (.*)$")
  if rest then return string.format("%s %s   [%s]", name, rest, text) end
  return string.format("%s: %s   [%s]", name, why, text)
end

-- Who is on side s: every seat of that side (one seat without teams).
local function side_names(g, side, names)
  local r = g:rules()
  local sides = r.teams and 2 or r.players
  local list = {}
  for seat = 0, r.players - 1 do
    if seat % sides == side then list[#list + 1] = names[seat] end
  end
  return table.concat(list, " and ")
end

local function match_line(g, names)
  local ok, res = pcall(g.result, g)
  if not ok or type(res) ~= "table" or not res.over then
    return string.format("The game stops here (%s).", g:phase():gsub("-", " "))
  end
  local scores = {}
  for side = 0, 3 do
    local s = type(res.score) == "table" and res.score[side]
    if type(s) ~= "number" then break end
    scores[#scores + 1] = tostring(math.tointeger(s) or s)
  end
  local score = #scores > 0 and (", " .. table.concat(scores, " - ")) or ""
  if math.type(res.winner) ~= "integer" then return "Match over: no winner" .. score .. "." end
  return string.format("Match over: %s won%s.", side_names(g, res.winner, names), score)
end

local function header(g, rec, room, names)
  local out, game, players = {}, g:game(), g:rules().players
  out[#out + 1] = string.format("%s, room %s: started %s, over %s", game, room.id, date(room.created),
    date(room.finished_at))
  if rec.rules and rec.rules ~= game then out[#out + 1] = "Rules: " .. rec.rules end
  local seats = {}
  for seat = 0, players - 1 do seats[#seats + 1] = string.format("%d %s", seat, names[seat]) end
  out[#out + 1] = "Seats: " .. table.concat(seats, ", ")
  return out
end

--- The lines telling a stored game: room = {id, info, record, created,
-- finished_at, summary} (st:get()). Returns the lines, or nil and why.
-- opts: rules_dirs (for house rules of the user's).
function M.game_lines(room, opts)
  if type(room.record) ~= "string" then return nil, string.format("room %s has no moves stored", room.id) end
  local st, err = record.replay(room.record, { text = true, name = "room " .. room.id,
    rules_dirs = opts and opts.rules_dirs })
  if not st then return nil, err end
  local g, rec = st:game(), st:record()
  local players = g:rules().players
  local names = names_of(room.info, rec, players)
  local out = header(g, rec, room, names)
  local round
  for i = 1, st:total() do
    local text = st:move(i)
    local seat = g:turn()
    local line = text ~= "next-round" and told(g, seat, text, names)
    assert(st:step())
    local h = g:history()[i]
    if h.round ~= round and text ~= "next-round" then
      round = h.round
      out[#out + 1] = ""
      out[#out + 1] = "Round " .. tostring(round)
    end
    if line then out[#out + 1] = string.format("%4d  %s", i, line) end
    if h.breakdown then
      out[#out + 1] = "      " .. record.round_line(h.round, h.breakdown, g:game())
    elseif h.trick_over and g:turn() then
      out[#out + 1] = string.format("      (the trick goes to %s)", names[g:turn()])
    end
  end
  out[#out + 1] = ""
  out[#out + 1] = match_line(g, names)
  return out
end

-- ---------------------------------------------------------------------
-- The command

local function pick(st, prefix, dir)
  local rows, err = st:find(prefix)
  if not rows then return nil, err end
  local done = {}
  for _, r in ipairs(rows) do
    if r.finished ~= 0 then done[#done + 1] = r end
  end
  if #done == 1 then return done[1] end
  if #done > 1 then
    local ids = {}
    for _, r in ipairs(done) do ids[#ids + 1] = r.id:sub(1, #prefix + 4) end
    return nil, string.format("'%s' starts %d finished games' ids (%s...): give more of it", prefix, #done,
      table.concat(ids, "..., "))
  end
  if #rows > 0 then return nil, string.format("the game in room %s is not over yet", rows[1].id) end
  return nil, string.format("no game '%s' in %s (see 'diloti replay' for the list)", prefix, dir)
end

--- `diloti replay [--data DIR] [ID]`: a.data, a.id, a.rules_dir. out(line)
-- prints, fail(fmt, ...) complains and returns the exit code.
function M.cli(a, out, fail)
  local rooms = require "diloti.server.rooms"
  local dir = a.data
  if not dir then
    local why
    dir, why = rooms.default_dir()
    if not dir then return fail("%s", why) end
  end
  -- (a folder without games is not made by looking at it)
  if core.filekind(dir .. "/" .. rooms.FILE, true) ~= "file" then
    if a.id then return fail("no games stored in %s", dir) end
    out(string.format("No finished games in %s.", dir))
    return 0
  end
  local st, err = rooms.open(dir)
  if not st then return fail("%s", err) end
  local code = 0
  if not a.id then
    local rows, ferr = st:finished()
    if not rows then
      code = fail("%s", ferr)
    elseif #rows == 0 then
      out(string.format("No finished games in %s.", dir))
    else
      for _, line in ipairs(M.list_lines(rows)) do out(line) end
    end
  else
    local found, perr = pick(st, a.id, dir)
    local room = found and st:get(found.id)
    local lines, gerr
    if room then lines, gerr = M.game_lines(room, { rules_dirs = a.rules_dir }) end
    if lines then
      for _, line in ipairs(lines) do out(line) end
    else
      code = fail("%s", perr or gerr or "cannot read the game")
    end
  end
  st:close()
  return code
end

return M
