-- make bench's lines for diloti serve: a server of its own on a free
-- loopback port, data in a temporary folder.
--   1. ROOMS rooms of AIs playing at full speed, a watching client on each:
--      moves a second (from the store), memory a room (the server's RSS).
--   2. A person's move in one room to the other person's event, p50 and p99,
--      while those rooms play; then again while MASTERS rooms of master AIs
--      think (the target: p99 under 50 ms).
-- diloti run tools/server_bench.lua [ROOMS] [MASTERS]
local core = require "diloti.core"
local json = require "diloti.match.json"
local ws = require "diloti.wsclient"

local ROOMS = tonumber(arg and arg[1]) or 200
local MASTERS = tonumber(arg and arg[2]) or 50
local bin = os.getenv("DILOTI_BIN") or "build/diloti"

local function sh(cmd)
  local p = io.popen(cmd)
  local out = p:read("a")
  p:close()
  return out
end

local tmp = sh("mktemp -d"):gsub("%s+$", "")
local data = tmp .. "/data"
local pid = sh(string.format("%s serve --port 0 --static web --data %s --room-rate 100000 --rate 100000 "
  .. "--per-address 100000 --max-rooms 100000 >%s/log 2>&1 & echo $!", bin, data, tmp)):gsub("%s+$", "")
local base
for _ = 1, 200 do
  local f = io.open(tmp .. "/log")
  local t = f and f:read("a") or ""
  if f then f:close() end
  base = t:match("listening on (http://[%d%.]+:%d+)")
  if base then break end
  os.execute("sleep 0.05")
end
assert(base, "the server did not start")
local url = base:gsub("^http", "ws") .. "/ws"

local function rss_kib()
  local t = sh("grep VmRSS /proc/" .. pid .. "/status")
  return tonumber(t:match("(%d+)")) or 0
end

local function send(c, m)
  m.v = 1
  assert(c:send(json.encode(m)))
end

local function recv(c, t)
  local text = c:recv(t or 10)
  return text and json.decode(text)
end

local function create(o)
  local c = assert(ws.connect(url))
  o.type = "create"
  send(c, o)
  local m = recv(c, 30)
  c:close()
  assert(m and m.type == "created", json.encode(m or {}))
  return m
end

local function join(link)
  local room, token = link:match("#(%x+):(%x+)$")
  local c = assert(ws.connect(url))
  send(c, { type = "hello", room = room, token = token })
  repeat local m = recv(c) until m and m.type == "welcome"
  return c
end

local function moves_stored()
  local rooms = require "diloti.server.rooms"
  local st = assert(rooms.open(data))
  local n = 0
  for _, r in ipairs(st:unfinished()) do
    for _ in (r.record or ""):gmatch("\n%d+ s%d") do n = n + 1 end
  end
  st:close()
  return n
end

local function drain(clients)
  for _, c in ipairs(clients) do
    while c:recv(0) do end
  end
end

-- A person's move to the other person's event, n times: sorted seconds.
local function latencies(n)
  local m = create { rules = "diloti", players = 2, seats = { "person", "person" }, pace = 0, target = 10000 }
  local a, b = join(m.seats[1].link), join(m.seats[2].link)
  local by_seat = { [0] = a, [1] = b }
  local out = {}
  local turn_state = {}
  local function newest(c)
    local last
    while true do
      local f = recv(c, 0)
      if not f then return last end
      if f.type == "state" then last = f end
    end
  end
  turn_state[0], turn_state[1] = newest(a), newest(b)
  local turn = (turn_state[0] or turn_state[1]).turn
  while #out < n do
    if turn == nil then break end
    local mover, other = by_seat[turn], by_seat[1 - turn]
    local t0 = core.clock()
    send(mover, { type = "move", move = 1 })
    local f
    repeat f = recv(other, 10) until not f or f.type == "event"
    out[#out + 1] = core.clock() - t0
    repeat f = recv(other, 10) until not f or f.type == "state"
    turn = f and f.turn
    -- (at a round's end the server deals the next one: its state follows)
    while f and turn == nil and f.phase == "round-over" do
      repeat f = recv(other, 10) until not f or f.type == "state"
      turn = f and f.turn
    end
    while mover:recv(0) do end
    if turn == nil then break end
  end
  a:close()
  b:close()
  table.sort(out)
  return out
end

local function pct(list, p)
  return list[math.max(1, math.ceil(#list * p))] * 1000
end

local rss0 = rss_kib()
local watchers, seats = {}, {}
local made = core.clock()
-- (each room waits for a person at seat 0 while the others are made; the
-- person joins and leaves, and a second later an AI plays for them: then
-- every seat is an AI's, at full speed)
for i = 1, ROOMS do
  local m = create { rules = i % 2 == 0 and "pilotta" or "diloti", players = i % 2 == 0 and 4 or 2,
    seats = i % 2 == 0 and { "person", "ai", "ai", "ai" } or { "person", "ai" }, pace = 0, target = 10000,
    takeover = 1 }
  watchers[#watchers + 1] = join(m.watch)
  seats[#seats + 1] = m.seats[1].link
end
made = core.clock() - made
for _, link in ipairs(seats) do join(link):close() end
local warm = core.clock() + 3
while core.clock() < warm do drain(watchers) end
local n0, t0 = moves_stored(), core.clock()
local stop = t0 + 5
local lat
while core.clock() < stop do drain(watchers) end
lat = latencies(200)
drain(watchers)
local n1, t1 = moves_stored(), core.clock()
local rss1 = rss_kib()
print(string.format("diloti serve, %d rooms of AIs at full speed, a watcher each: %.0f moves a second; "
  .. "%.0f KiB a room; the rooms made in %.1f s", ROOMS, (n1 - n0) / (t1 - t0), (rss1 - rss0) / ROOMS, made))
print(string.format("  a person's move to the other person's event, meanwhile: p50 %.1f ms, p99 %.1f ms (%d moves)",
  pct(lat, 0.5), pct(lat, 0.99), #lat))
for _, c in ipairs(watchers) do c:close() end

os.execute("kill -TERM " .. pid)
os.execute("sleep 1")
pid = nil
-- (a second server: only the master AIs and the two people)
pid = sh(string.format("%s serve --port 0 --static web --data %s2 --room-rate 100000 --rate 100000 "
  .. "--per-address 100000 --max-rooms 100000 >%s/log2 2>&1 & echo $!", bin, data, tmp)):gsub("%s+$", "")
base = nil
for _ = 1, 200 do
  local f = io.open(tmp .. "/log2")
  local t = f and f:read("a") or ""
  if f then f:close() end
  base = t:match("listening on (http://[%d%.]+:%d+)")
  if base then break end
  os.execute("sleep 0.05")
end
url = base:gsub("^http", "ws") .. "/ws"
for _ = 1, MASTERS do
  create { rules = "diloti", players = 2, seats = { "ai:master", "ai:master" }, pace = 0, target = 10000 }
end
os.execute("sleep 1")
lat = latencies(200)
print(string.format("  the same while %d rooms of master AIs think: p50 %.1f ms, p99 %.1f ms (target: under 50 ms)",
  MASTERS, pct(lat, 0.5), pct(lat, 0.99)))
os.execute("kill -TERM " .. pid)
os.execute("sleep 1; rm -rf " .. tmp)
