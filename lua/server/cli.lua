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
end

M.commands = {}

function M.commands.serve(a)
  return require("diloti.server.serve").main(a)
end

return M
