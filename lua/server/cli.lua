-- The server's commands on the command line: `diloti serve` (and the
-- commands that talk to a server). Added to the parser by lua/cli.lua.
local M = {}

local function port(s)
  local n = math.tointeger(tonumber(s))
  return n and n >= 0 and n <= 65535 and n or nil
end

--- Adds the commands to an argparse parser.
function M.setup(p)
  local c = p:command("serve", "Put rooms online: an HTTP and WebSocket server (docs/server.md).")
  c:option("--listen", "The address to listen on (0.0.0.0: every address of the machine).", "127.0.0.1")
  c:option("--port", "The port (0: any free port, printed at start).", "8080"):convert(port)
  c:option("--data", "The server's data folder (its SQLite file and uploaded AIs); "
    .. "default $XDG_STATE_HOME/diloti/server.")
  c:option("--static", "The folder of the web pages.")
  c:option("--url", "The address people reach the server by, for the links (behind a proxy: https://...).")
  c:option("--origin", "Another origin whose pages may connect (a browser's Origin header); repeatable."):count("*")
  c:option("--per-address", "Connections at once from one address.", "32"):convert(math.tointeger)
  c:option("--max-rooms", "Rooms at once.", "1000"):convert(math.tointeger)
  c:option("--rate", "Messages a second one connection may send (after a burst of twice as many).", "10")
    :convert(tonumber)
  c:option("--room-rate", "Rooms one address may make a minute (after a first 10).", "2"):convert(tonumber)
  c:option("--advice-rate", "Requests for advice (hint, why, explain) a minute a seat may make, "
    .. "after a first 3.", "12"):convert(tonumber)
  c:option("--idle", "Seconds a room with nobody connected keeps its thread; then it sleeps (stored) "
    .. "until someone joins.", "1800"):convert(tonumber)
  c:option("--script-cpu", "Seconds of CPU a minute a room's uploaded AI may use; past it a built-in AI "
    .. "plays its seat.", "20"):convert(tonumber)
  c:option("--room-memory", "MiB a room's scripts (its uploaded AIs, its house rules) may hold together; an AI "
    .. "past it fails its call and a move is played for it.", "40"):convert(math.tointeger)
  c = p:command("create", "Make a room on a server: prints a link for each person's seat and one to watch.")
  c:option("--server", "The server's address.", "http://127.0.0.1:8080")
  c:option("--game", "The game and its house rules, as --rules takes them.",
    require("diloti.registry").default().name)
  c:option("--players", "How many play.", "2"):convert(math.tointeger)
  c:option("--seat", "What sits at the next seat: person, ai, ai:NAME or script (repeatable; "
    .. "by default a person, then AIs)."):count("*")
  c:option("--name", "The next seat's name (repeatable)."):count("*")
  c:option("--script", "An AI of yours (a Lua file) for the 'script' seats; its name is the file's.")
  c:option("--target", "Points that end the match."):convert(math.tointeger)
  c:option("--takeover", "Seconds a person may be gone before an AI plays for them (0: never).")
    :convert(math.tointeger)
  c:option("--pace", "Seconds between the AIs' moves."):convert(tonumber)
end

M.commands = {}

local function fail(msg)
  io.stderr:write("diloti create: ", msg, "\n")
  return 1
end

-- The create message for the command's options, or nil and why.
local function create_message(a)
  local seats = {}
  for i = 1, a.players or 2 do seats[i] = a.seat[i] or (i == 1 and "person" or "ai") end
  if #a.seat > #seats then return nil, string.format("%d seats given for %d players", #a.seat, #seats) end
  local m = { v = 1, type = "create", rules = a.game, players = a.players, seats = seats, names = a.name,
    target = a.target, takeover = a.takeover, pace = a.pace }
  if a.script then
    local f, err = io.open(a.script, "rb")
    if not f then return nil, err end
    m.script = f:read("a")
    f:close()
    m.script_name = a.script:match("([^/]+)%.lua$")
    if not m.script_name then return nil, "the script's file name must end in .lua (its name is the AI's)" end
  end
  return m
end

function M.commands.create(a)
  local core = require "diloti.core"
  local json = require "diloti.match.json"
  local m, why = create_message(a)
  if not m then return fail(why) end
  local base = a.server:gsub("/+$", "")
  local url = base:gsub("^http", "ws") .. "/ws"
  if not url:match("^wss?://") then return fail("the server's address starts with http:// or https://") end
  local ws = require "diloti.wsclient"
  local c, err = ws.connect(url)
  if not c then return fail(err) end
  c:send(json.encode(m))
  local text, rerr = c:recv(30)
  c:close()
  if not text then return fail("no answer from the server: " .. tostring(rerr)) end
  local ok, r = pcall(json.decode, text)
  if not ok or type(r) ~= "table" then return fail("the server's answer is not JSON") end
  if r.type ~= "created" then return fail(core.plain(tostring(r.message or r.code or text), 300)) end
  print(string.format("A room of %s (%s).", core.plain(tostring(r.rules), 120), core.plain(tostring(r.game), 40)))
  for _, s in ipairs(r.seats or {}) do
    print(string.format("  seat %d (%s): diloti join '%s'", s.seat, core.plain(tostring(s.name), 40),
      core.plain(tostring(s.link), 400)))
  end
  print(string.format("  to watch: diloti watch '%s'", core.plain(tostring(r.watch), 400)))
  print("Each seat's link is its key: give it only to the person who plays there.")
  return 0
end

function M.commands.serve(a)
  return require("diloti.server.serve").main(a)
end

return M
