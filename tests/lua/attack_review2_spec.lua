-- Attacks on three changes (a viewer's fresh state sent to its own
-- connection alone; every socket of an address counted; a room's boxes
-- in one pool and its creation errors without the server's folders).
-- Each test is an attempt that must fail; servers are the tests' own
-- (127.0.0.1, port 0, data in a temporary folder).
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local S = require "support_server"
require "diloti"
local room = require "diloti.room"
local json = require "diloti.match.json"
local protocol = require "diloti.server.protocol"

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

local counting_random = support.counting_random

-- A client of host h: its frames, decoded.
local function client(h, token, last)
  local c = { frames = {} }
  c.conn = h:connect(function(text) c.frames[#c.frames + 1] = json.decode(text) end)
  c.conn:receive(json.encode { v = 1, type = "hello", room = h.id, token = token, last = last })
  return c
end

local function last_seq(c)
  local n = 0
  for _, f in ipairs(c.frames) do if f.seq and f.type ~= "welcome" and f.seq > n then n = f.seq end end
  return n
end


describe("review 2 attacks: a fresh state's number", function()
  -- (numbers taken after the last stored move, by fresh joins and by
  -- notices, are taken again after a restart: a `last` from before it
  -- then names a frame of after it)
  it("a spectator back after a restart with the number of a fresh join misses no event made since", function()
    local r = assert(room.new { rules = "diloti", players = 2, humans = 2, seed = 12, match = false })
    local o = { random = counting_random(), clock = function() return 0 end }
    local h = protocol.host(r, o)
    h:start()
    -- (what the server stored after its last move: roomhost's progress)
    local kept = h:keep()
    -- spectators come and go: each join takes a number, none is stored
    for _ = 1, 4 do client(h, h.watch).conn:close() end
    local a = client(h, h.watch)
    local seen = last_seq(a)
    a.conn:close()
    -- the server restarts: the room goes on from what was stored
    local h2 = protocol.host(r, { random = counting_random(), clock = o.clock, id = kept.id, tokens = kept.tokens,
      seqs = kept.seqs })
    h2:begin()
    local p0 = client(h2, h2.seat_tokens[0])
    local p1 = client(h2, h2.seat_tokens[1])
    local s = h2:stream(nil)
    while #s.frames < 8 do
      local turn = r.g:turn()
      local p = turn == 0 and p0 or p1
      p.conn:receive(json.encode { v = 1, type = "move", move = 1 })
    end
    local events = 0
    for _, f in ipairs(s.frames) do if f.text:find('"type":"event"', 1, true) then events = events + 1 end end
    assert.is_true(events > 0)
    -- back with the last number it saw: a replay must bring every event since the restart
    local b = client(h2, h2.watch, seen)
    if b.frames[1].resume == "replay" then
      local got = 0
      for _, f in ipairs(b.frames) do if f.type == "event" then got = got + 1 end end
      assert.equals(events, got, "a replay after the restart skipped events the spectator never saw")
    end
  end)
end)

describe("review 2 attacks: an uploaded script's words about its own file", function()
  local srv
  setup(function() srv = S.start { data = tmp .. "/data" } end)
  teardown(function() S.stop(srv) end)

  -- (the script learns its chunk's name (Lua's "@<path>", cut to its
  -- tail: the script folder's hex name) from an error of its own, then
  -- hands it back changed so that no search for the path finds it)
  local probe = "local ok, e = pcall(function() error('x') end) "
  for _, case in ipairs {
    { "an error of its main chunk", probe .. "error((e:gsub('/', '|')), 0)" },
    { "an error of its main chunk, upper case", probe .. "error(e:upper(), 0)" },
    { "a field the check quotes", probe .. "return { name = 'mine', game = (e:gsub('/', '|')), choose = print }" },
  } do
    it("a creation error (" .. case[1] .. ") holds no part of the server's folders", function()
      local c = S.client(srv)
      S.send(c, { type = "create", rules = "diloti", players = 2, seats = { "person", "script" }, script = case[2],
        script_name = "mine" })
      local m = S.wait(c, function(f) return f.type == "error" or f.type == "created" end, 20)
      c:close()
      assert.equal("error", m.type)
      local msg = m.message:lower()
      assert.falsy(msg:find("scripts", 1, true), m.message)
      assert.falsy(msg:find("%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x"), m.message)
      assert.falsy(msg:find((tmp:match("[^/]+$")):lower(), 1, true), m.message)
    end)
  end
end)

describe("review 2 attacks: every socket an address holds", function()
  local ws = require "diloti.wsclient"
  local srv
  -- (--per-address 2: an address may hold 2 * 2 + 16 = 20 sockets)
  setup(function() srv = S.start { data = tmp .. "/net", args = "--per-address 2" } end)
  teardown(function() S.stop(srv) end)

  local ip = "127.0.0.2"
  local function open_ws()
    local c = ws.connect(srv.ws, { source = ip, timeout = 5 })
    if not c then return nil end
    S.send(c, { type = "ping", id = 7 })
    local text = c:recv(5)
    if not (text and json.decode(text).type == "pong") then c:close() return nil end
    return c
  end

  it("sockets of every kind, closed at every stage, give their places back (no count left behind)", function()
    local curl = "curl -s -o /dev/null --max-time 5 --interface " .. ip .. " "
    local http = srv.ws:gsub("^ws", "http")
    for _ = 1, 3 do
      -- (keep-alive: many files on one socket; a file missing; an upgrade cut before its answer is read;
      -- an upgrade elsewhere; a request too large)
      os.execute(curl .. string.rep(srv.base .. "/ ", 10) .. ">/dev/null 2>&1")
      os.execute(curl .. srv.base .. "/no/such/file >/dev/null 2>&1")
      os.execute(curl .. "--max-time 0.3 -H 'Connection: Upgrade' -H 'Upgrade: websocket' "
        .. "-H 'Sec-WebSocket-Version: 13' -H 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==' "
        .. "-H 'Sec-WebSocket-Protocol: diloti.v1' "
        .. support.q(http) .. " >/dev/null 2>&1")
      os.execute(curl .. "-H 'Connection: Upgrade' -H 'Upgrade: websocket' " .. srv.base .. "/x >/dev/null 2>&1")
      os.execute(curl .. "-H 'X: " .. ("y"):rep(20000) .. "' " .. srv.base .. "/ >/dev/null 2>&1")
    end
    -- (WebSockets opened and closed; a third past the per-address limit refused)
    for _ = 1, 10 do
      local a, b = open_ws(), open_ws()
      assert.truthy(a and b, "the address lost places it should have")
      assert.falsy(open_ws())
      a:close()
      b:close()
    end
    S.sleep(0.5)
    -- the address holds nothing now: 18 idle sockets and 2 WebSockets fit
    local pids = tmp .. "/holders.pid"
    local script = tmp .. "/hold.sh"
    support.write(script, string.format([[for i in $(seq 1 18); do
      (sleep 8 | timeout 8 curl -s --interface %s telnet://127.0.0.1:%d >/dev/null 2>&1) & echo $! >>%s
    done]], ip, srv.port, support.q(pids)))
    os.execute("bash " .. support.q(script))
    S.sleep(1)
    local a, b = open_ws(), open_ws()
    local both = a and b
    if a then a:close() end
    if b then b:close() end
    for pid in (support.read(pids) or ""):gmatch("%d+") do os.execute("kill " .. pid .. " 2>/dev/null") end
    assert.truthy(both, "the count of the address did not fall back to nothing")
    assert.is_true(S.alive(srv))
  end)
end)

describe("review 2 attacks: --room-memory", function()
  -- (a pool of 0 or past 1 TiB once made every room's thread fail as it
  -- was made, the creator never answered)
  it("a --room-memory no pool can have is refused at start, not by every room", function()
    for _, v in ipairs { "0", "1048577" } do
      local ok, why = pcall(S.start, { data = tmp .. "/mem" .. v, args = "--room-memory " .. v })
      if ok then S.stop(why) end
      assert.is_false(ok, v)
      assert.truthy(tostring(why):find("--room-memory", 1, true), why)
    end
    local srv = S.start { data = tmp .. "/mem1", args = "--room-memory 1" }
    local m = S.create(srv, { rules = "diloti", players = 2, seats = { "person", "ai" } })
    S.stop(srv)
    assert.equal("created", m and m.type)
  end)
end)

describe("review 2 attacks: an uploaded AI that fills the room's pool", function()
  local srv
  -- (a pool under one box's cap: the uploaded AI can fill it all)
  setup(function() srv = S.start { data = tmp .. "/pool", args = "--room-memory 20" } end)
  teardown(function() S.stop(srv) end)

  it("the room's house rules and its other AI still play: the round ends and is scored", function()
    local src = [[local keep = {}
      return { name = "upload-hog", game = "diloti", description = "hog",
        choose = function(ctx)
          pcall(function() for i = 1, 1e6 do keep[#keep + 1] = ("x"):rep(1 << 16) .. i end end)
          return ctx.moves[1]
        end }]]
    local m = S.create(srv, { rules = "diloti+last-capture", players = 2, seats = { "script", "ai" }, script = src,
      script_name = "upload-hog", pace = 0, seed = 3 })
    assert.equal("created", m.type, json.encode(m))
    local w = S.join(srv, m.watch)
    local r, all = S.wait(w, function(f) return f.type == "result" end, 90)
    w:close()
    assert.truthy(r, "the room stopped before its round was scored")
    -- (the hog did fill its share: its calls failed, a move was played for it)
    local told = {}
    for _, f in ipairs(all) do if f.type == "notice" then told[f.seat] = true end end
    assert.truthy(told[0], "the hog never filled the pool")
    assert.is_true(S.alive(srv))
  end)
end)
