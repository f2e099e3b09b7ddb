-- A room's options as its creator sends them (docs/protocol.md, "create"),
-- checked field by field: they come from the network. The game itself
-- (its rules, players, target) is checked by the engine when the room is
-- made; this file checks shapes, sizes and the seats.
local core = require "diloti.core"
local ai = require "diloti.ai.player"
local json = require "diloti.match.json"

local M = {}

M.MAX_SCRIPT = 64 * 1024 -- bytes of an uploaded AI
M.MAX_RULES = 120
M.MAX_NAME = 32
M.MAX_RAW_NAME = 256 -- bytes of a name as sent (before cleaning)
M.TAKEOVER = 60 -- seconds a person may be gone before an AI takes the chair
M.PACE = 0.7 -- seconds between the AIs' moves
M.TAKEOVER_AI = "normal"

local FIELDS = {
  v = "number", type = "string", rules = "string", players = "integer", target = "integer", seed = "integer",
  seats = "table", names = "table", script = "string", takeover = "integer", pace = "number",
  takeover_ai = "string", script_name = "string",
}

local function fail(fmt, ...) return nil, string.format(fmt, ...) end

local function check_fields(m)
  for k, v in pairs(m) do
    local want = type(k) == "string" and FIELDS[k]
    if not want then return fail("a create message has no field '%s'", core.plain(tostring(k), 40)) end
    local ok = want == "integer" and math.type(v) == "integer" or type(v) == want
    if not ok then return fail("the field '%s' of a create message must be a %s", k, want) end
  end
  return true
end

local function check_ai_name(name)
  if #name > M.MAX_NAME or not name:match(ai.NAME) then
    return fail("'%s' is not an AI's name (letters, digits, - and _)", core.plain(name, M.MAX_NAME))
  end
  return true
end

-- The seats' specs (room.lua's), and which seats run the uploaded script.
local function check_seats(m, o)
  local seats = m.seats
  if #seats ~= o.players then return fail("seats: %d seats for %d players", #seats, o.players) end
  o.specs, o.script_seats = {}, {}
  local people = 0
  for i, s in ipairs(seats) do
    local seat = i - 1
    if type(s) ~= "string" then return fail("seat %d: a seat is a text", seat) end
    if s == "person" then
      o.specs[seat] = { kind = "human" }
      people = people + 1
    elseif s == "script" then
      -- (a room's stored options name the script installed when it was
      -- made; a creator's must send it)
      if not m.script and not (o.stored_form and m.script_name) then
        return fail("seat %d: 'script' needs the script (the field 'script')", seat)
      end
      o.script_seats[seat] = true
      o.specs[seat] = { kind = "ai", name = m.script_name or "?" }
    else
      local name = s:match("^ai:(.+)$") or (s == "ai" and M.TAKEOVER_AI)
      if not name then return fail("seat %d: 'person', 'ai', 'ai:NAME' or 'script', not '%s'", seat,
        core.plain(s, 40)) end
      local ok, why = check_ai_name(name)
      if not ok then return nil, string.format("seat %d: %s", seat, why) end
      -- (the uploaded AI plays only its 'script' seats, whose CPU the room
      -- counts against its budget)
      if name == m.script_name then
        return fail("seat %d: the uploaded AI sits at 'script' seats, not 'ai:%s'", seat, name)
      end
      o.specs[seat] = { kind = "ai", name = name }
    end
  end
  if m.script and not next(o.script_seats) then return fail("a script was sent, but no seat is 'script'") end
  if m.script and not m.script_name then
    return fail("script_name: the uploaded AI's name (the name its script gives) is needed with the script")
  end
  o.people = people
  return true
end

local function check_names(m, o)
  o.names = {}
  if m.names == nil then return true end
  for i = 1, o.players do
    local n = m.names[i]
    if n ~= nil and type(n) ~= "string" then return fail("names: name %d is not a text", i) end
    -- (a name is cut to MAX_NAME once cleaned; what is sent is stored
    -- with the room's options, so it is bounded too)
    if n and #n > M.MAX_RAW_NAME then return fail("names: name %d is over %d bytes", i, M.MAX_RAW_NAME) end
    if n and n ~= "" then o.names[i - 1] = core.plain(n, M.MAX_NAME) end
  end
  if #m.names > o.players then return fail("names: %d names for %d players", #m.names, o.players) end
  return true
end

local function new_seed()
  local b = require("diloti.server.protocol").urandom(6)
  local n = 0
  for i = 1, #b do n = n * 256 + b:byte(i) end
  return n
end

--- M.check(m[, from_store]) -> o, or nil and why. m: the decoded create
-- message, or (from_store true) the options stored for a room, o.stored, to
-- make it again: its uploaded AI is then the one installed by name.
function M.check(m, from_store)
  if type(m) ~= "table" then return fail("a create message is a JSON object") end
  local ok, why = check_fields(m)
  if not ok then return nil, why end
  if type(m.rules) ~= "string" or m.rules == "" or #m.rules > M.MAX_RULES or not m.rules:match("^[%w%-_+.= ,]+$") then
    return fail("rules: the game and house rules, as at the table ('GAME' or 'GAME+VARIANT', as --rules takes them)")
  end
  local players = m.players or 2
  if players < 2 or players > 4 then return fail("players: 2, 3 or 4") end
  if m.target and (m.target < 1 or m.target > 100000) then return fail("target: 1 to 100000") end
  if type(m.seats) ~= "table" then return fail("seats: a list of 'person', 'ai:NAME' or 'script'") end
  if m.script and #m.script > M.MAX_SCRIPT then return fail("script: at most %d bytes", M.MAX_SCRIPT) end
  local takeover = m.takeover or M.TAKEOVER
  if takeover < 0 or takeover > 3600 then return fail("takeover: 0 (never) to 3600 seconds") end
  local pace = m.pace or M.PACE
  if pace ~= pace or pace < 0 or pace > 5 then return fail("pace: 0 to 5 seconds between the AIs' moves") end
  if m.script_name then
    ok, why = check_ai_name(m.script_name)
    if not ok then return nil, "script_name: " .. why end
  end
  local o = { rules = m.rules, players = players, target = m.target, takeover = takeover, pace = pace,
    seed = m.seed or new_seed(), script = m.script, takeover_ai = m.takeover_ai or M.TAKEOVER_AI,
    stored_form = from_store == true }
  ok, why = check_ai_name(o.takeover_ai)
  if not ok then return nil, "takeover_ai: " .. why end
  if o.takeover_ai == m.script_name then
    return fail("takeover_ai: a built-in AI takes a chair over, not the uploaded one")
  end
  ok, why = check_seats(m, o)
  if not ok then return nil, why end
  ok, why = check_names(m, o)
  if not ok then return nil, why end
  if o.stored_form and next(o.script_seats) then o.script_name = m.script_name end
  local stored = {}
  for k, v in pairs(m) do stored[k] = v end
  stored.v, stored.type, stored.seed, stored.script = nil, nil, o.seed, nil
  o.stored = stored
  return o
end

local function sh_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

--- Writes the uploaded script into dir (made, mode 0700) and loads it as
-- the table would: {dir}, or nil and why. Its name is the script's own,
-- and must not be a shipped AI's.
--- msg with the uploaded script's path (dir/NAME.lua) written as its
-- file's name alone, cleaned to one line: the client is told of its
-- script, never of the server's folders.
function M.unpath(msg, dir, name)
  local path, file = dir .. "/" .. name .. ".lua", name .. ".lua"
  local at = msg:find(path, 1, true)
  while at do
    msg = msg:sub(1, at - 1) .. file .. msg:sub(at + #path)
    at = msg:find(path, 1, true)
  end
  -- (Lua cuts a long chunk name to its tail, "...<folder>/NAME.lua")
  msg = msg:gsub("%S*/" .. file:gsub("%p", "%%%0"), (file:gsub("%%", "%%%%")))
  return core.plain(msg, 300)
end

function M.install_script(o, dir)
  local ok, why = check_ai_name(o.stored.script_name)
  if not ok then return nil, "script_name: " .. why end
  local shipped = select(1, ai.load_all(nil))
  if shipped[o.stored.script_name] then
    return fail("script: '%s' is the name of a shipped AI: give yours a name of its own", o.stored.script_name)
  end
  if not os.execute("mkdir -p -m 700 " .. sh_quote(dir)) then return fail("cannot make the script's folder") end
  local path = dir .. "/" .. o.stored.script_name .. ".lua"
  local f = io.open(path, "w")
  if not f then return fail("cannot store the script") end
  f:write(o.script)
  f:close()
  local found, names, errors = ai.load_all({ dir })
  if errors and errors[1] then
    local e = errors[1]
    local msg = tostring(type(e) == "table" and (e[2] or e.message) or e)
    return nil, "script: " .. M.unpath(msg, dir, o.stored.script_name)
  end
  for _, name in ipairs(names) do
    local info = found[name]
    if info and info.file == path then
      o.script_name = name
      o.stored.script_name = name
      for seat in pairs(o.script_seats) do o.specs[seat] = { kind = "ai", name = name } end
      return { dir }
    end
  end
  return fail("script: it must return a table with a name and a choose function (see docs/ai.md)")
end

--- The link of a seat (kind "play") or the watchers ("watch").
function M.link(base, kind, id, token)
  return string.format("%s/%s#%s:%s", base or "http://127.0.0.1:8080", kind, id, token)
end

--- A line for a list of games.
function M.summary(room)
  local g = room.g
  local ok, res = pcall(g.result, g)
  local score = ok and type(res) == "table" and res.scores and json.encode(res.scores) or ""
  return core.plain(string.format("%s, %d players, %s %s", room.opts.rules or g:game(), room.players_n,
    g:phase(), score), 200)
end

return M
