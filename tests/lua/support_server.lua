-- A `diloti serve` of the test's own: started on a free loopback port
-- (--port 0; the port is read from its first line) with its data in the
-- test's temporary folder, stopped (or killed) by the test. Clients talk
-- to 127.0.0.1 only, and every wait is bounded.
local support = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "support.lua")
require "diloti" -- (the compiled-in modules)
local json = require "diloti.match.json"

local S = {}

local function sleep(s) os.execute("sleep " .. s) end

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local t = f:read("a")
  f:close()
  return t
end
S.read = read
S.sleep = sleep

--- S.start(o) -> server {pid, base, ws, data, log}. o: data (a folder;
-- a new temporary one by default), args (more arguments), env.
function S.start(o)
  o = o or {}
  local data = o.data or (support.tmpdir() .. "/data")
  local log = data .. ".log." .. tostring(os.time()) .. tostring(math.random(1e6))
  local cmd = string.format(
    "%s%s serve --port 0 --static web --room-rate 6000 --rate 1000 --advice-rate 6000 --data %s %s >%s 2>&1 & echo $!",
    o.env and (o.env .. " ") or "", support.q(support.bin), support.q(data), o.args or "", support.q(log))
  local p = io.popen(cmd)
  local pid = p:read("l")
  p:close()
  local srv = { pid = pid, data = data, log = log }
  for _ = 1, 200 do
    local t = read(log) or ""
    local base = t:match("listening on (http://[%d%.]+:%d+)")
    if base then
      srv.base = base
      srv.port = tonumber(base:match(":(%d+)$"))
      srv.ws = base:gsub("^http", "ws") .. "/ws"
      return srv
    end
    if t:find("diloti serve: ", 1, true) and not t:find("listening") then break end
    sleep(0.05)
  end
  error("the server did not start: " .. (read(log) or "(no log)"))
end

--- Whether the process lives.
function S.alive(srv)
  return os.execute("kill -0 " .. srv.pid .. " 2>/dev/null") == true
end

--- Stops the server (signal: TERM by default; KILL for a crash) and
-- waits (bounded) until it is gone.
function S.stop(srv, signal)
  os.execute(string.format("kill -%s %s 2>/dev/null", signal or "TERM", srv.pid))
  for _ = 1, 200 do
    if not S.alive(srv) then return true end
    sleep(0.05)
  end
  os.execute("kill -KILL " .. srv.pid .. " 2>/dev/null")
  return false
end

--- The threads the server runs now (the lobby's, and one a room awake),
-- or nil once it is gone.
function S.threads(srv)
  local n = S.read("/proc/" .. srv.pid .. "/status")
  return n and tonumber(n:match("Threads:%s*(%d+)"))
end

--- A client of the server (o: wsclient's options).
function S.client(srv, o)
  local ws = require "diloti.wsclient"
  return assert(ws.connect(srv.ws, o))
end

function S.send(c, msg)
  msg.v = msg.v or 1
  return c:send(json.encode(msg))
end

--- The next frame, decoded, or nil and why.
function S.recv(c, timeout)
  local text, why = c:recv(timeout or 5)
  if not text then return nil, why end
  return json.decode(text), text
end

--- Reads frames until pred(frame) holds: that frame, and every frame
-- read (texts in all.texts). Fails after timeout seconds.
function S.wait(c, pred, timeout, all)
  all = all or { texts = {} }
  local deadline = os.time() + (timeout or 10)
  while os.time() <= deadline do
    local m, text = S.recv(c, 1)
    if m then
      all[#all + 1] = m
      all.texts[#all.texts + 1] = text
      if pred(m) then return m, all end
    elseif text == "closed" then
      error("the connection closed while waiting")
    end
  end
  error("no such frame within " .. tostring(timeout or 10) .. " s")
end

--- Makes a room: the `created` answer (room, seats = {seat, name, link},
-- watch).
function S.create(srv, o)
  local c = S.client(srv)
  o.type = "create"
  S.send(c, o)
  local m = S.recv(c, 20)
  c:close()
  return m
end

--- The room id and token of a link.
function S.parse(link)
  local kind, room, token = link:match("/(%a+)#(%x+):(%x+)$")
  return room, token, kind
end

--- Joins with a link: the client and its welcome.
function S.join(srv, link, last)
  local c = S.client(srv)
  local room, token = S.parse(link)
  S.send(c, { type = "hello", room = room, token = token, last = last })
  local w = S.wait(c, function(m) return m.type == "welcome" or m.type == "error" end, 10)
  return c, w
end

return S
