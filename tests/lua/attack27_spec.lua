-- Issue 27 seen by an attacker: `diloti serve` faces the network. Every
-- test here is an attempt on a real server of the test's own (127.0.0.1,
-- port 0, data in a temporary folder, stopped at the end; every wait
-- bounded): to crash or hang it or a room, to read what a client may not
-- (another seat's cards, a token, a file, the server's paths), to act as
-- someone else, to escape an uploaded AI's box or starve the room with
-- it, and to connect from a page elsewhere. After each attempt the server
-- must be alive and still answer a plain client.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local S = require "support_server"
local json = require "diloti.match.json"
local ws = require "diloti.wsclient"

local srv
local tmp = support.tmpdir()
-- Every frame any client of these tests was sent, and every token and
-- link handed out: none may reach the server's log, no frame may name
-- the server's folders.
local seen, secrets = {}, {}
teardown(function() support.rmdir(tmp) end)

local function remember(m)
  if type(m) ~= "table" or m.type ~= "created" then return m end
  secrets[#secrets + 1] = m.watch
  for _, s in ipairs(m.seats or {}) do secrets[#secrets + 1] = s.link end
  return m
end

local function recv(c, t)
  local text, why = c:recv(t or 5)
  if not text then return nil, why end
  seen[#seen + 1] = text
  return remember(json.decode(text)), text
end

-- Reads until pred(frame); fails after t seconds.
local function wait(c, pred, t)
  local deadline = os.time() + (t or 10)
  while os.time() <= deadline do
    local m, why = recv(c, 1)
    if m and pred(m) then return m end
    if not m and why == "closed" then return nil, "closed" end
  end
  error("no such frame in time")
end

local function send(c, msg)
  if type(msg) == "string" then return c:send(msg) end
  msg.v = msg.v or 1
  return c:send(json.encode(msg))
end

-- The answer to a ping on a new connection: the server still serves.
local function serves(source)
  if not S.alive(srv) then return false, "the server died" end
  local c, err = ws.connect(srv.ws, { timeout = 5, source = source })
  if not c then return false, err end
  send(c, { type = "ping", id = 99 })
  local m = wait(c, function(f) return f.type == "pong" end, 10)
  c:close()
  return m and m.id == 99
end

-- Whether this address is served again within 20 s (its sockets closed).
local function serves_again()
  for _ = 1, 40 do
    if serves() then return true end
    S.sleep(0.5)
  end
  return false
end

local function create(o)
  local c = S.client(srv)
  o.type = o.type or "create"
  send(c, o)
  local m, why = recv(c, 20)
  c:close()
  return m, why
end

local function join(link, last)
  local c = S.client(srv)
  local room, token = S.parse(link)
  send(c, { type = "hello", room = room, token = token, last = last })
  return c, wait(c, function(m) return m.type == "welcome" or m.type == "error" end)
end

-- ---------------------------------------------------------------------
-- Raw WebSocket bytes (bash's /dev/tcp): what diloti.wsclient never sends

local function raw_frame(opcode, payload, fin, len)
  local b0 = (fin == false and 0 or 0x80) | opcode
  local n = len or #payload
  local head
  if n < 126 then head = string.char(b0, 0x80 | n)
  elseif n < 65536 then head = string.char(b0, 0x80 | 126) .. string.pack(">I2", n)
  else head = string.char(b0, 0x80 | 127) .. string.pack(">I8", n) end
  return head .. "\0\0\0\0" .. payload -- (a zero mask: the payload as it is)
end

local function upgrade(headers)
  return "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    .. "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    .. "Sec-WebSocket-Protocol: diloti.v1\r\n" .. (headers or "") .. "\r\n"
end

-- Sends the parts one after the other (a pause between), reads what
-- comes back for at most `seconds`: the HTTP status and the server's
-- frames ({op, data}).
local n_raw = 0
local function raw(parts, seconds)
  n_raw = n_raw + 1
  local cmd = { "exec 3<>/dev/tcp/127.0.0.1/" .. srv.port }
  for i, p in ipairs(parts) do
    local file = string.format("%s/raw%d.%d", tmp, n_raw, i)
    support.write(file, p)
    cmd[#cmd + 1] = "cat " .. file .. " >&3; sleep 0.2"
  end
  cmd[#cmd + 1] = "cat <&3"
  local p = io.popen(string.format("timeout %d bash -c %s 2>/dev/null", seconds or 2,
    support.q(table.concat(cmd, "; "))))
  local out = p:read("a")
  p:close()
  local status = out:match("^HTTP/1%.1 (%d+)")
  local frames, pos = {}, (out:find("\r\n\r\n", 1, true) or #out) + 4
  while pos + 1 <= #out do
    local b0, b1 = out:byte(pos, pos + 1)
    local n = b1 & 0x7f
    pos = pos + 2
    if n == 126 then n, pos = string.unpack(">I2", out, pos)
    elseif n == 127 then n, pos = string.unpack(">I8", out, pos) end
    frames[#frames + 1] = { op = b0 & 0x0f, data = out:sub(pos, pos + n - 1) }
    pos = pos + n
  end
  return status, frames, out
end

local function texts(frames)
  local t = {}
  for _, f in ipairs(frames) do
    if f.op == 1 then
      seen[#seen + 1] = f.data
      t[#t + 1] = json.decode(f.data)
    end
  end
  return t
end

local function closed_with(frames)
  for _, f in ipairs(frames) do
    if f.op == 8 then return #f.data >= 2 and string.unpack(">I2", f.data) or 0, f.data:sub(3) end
  end
end

local function ping_text(id) return json.encode { v = 1, type = "ping", id = id } end

describe("issue 27 attacks: frames", function()
  setup(function() srv = S.start { data = tmp .. "/data" } end)
  teardown(function() S.stop(srv) end)

  it("a well-formed raw exchange works (the helper is sound)", function()
    local status, frames = raw({ upgrade(), raw_frame(1, ping_text(1)) }, 4)
    assert.equal("101", status)
    local t = texts(frames)
    assert.equal("pong", t[1] and t[1].type)
  end)

  it("a binary frame closes that connection, nothing else", function()
    local status, frames = raw({ upgrade(), raw_frame(2, "\0\1\2\3") }, 4)
    assert.equal("101", status)
    assert.truthy(closed_with(frames))
    assert.is_true(serves())
  end)

  it("a message in fragments is put back together; a fragment flood is too-large and dropped", function()
    local msg = ping_text(2)
    -- (four parts with pauses between: 2 s was once too little under CI's load)
    local status, frames = raw({ upgrade(), raw_frame(1, msg:sub(1, 5), false), raw_frame(0, msg:sub(6, 12), false),
      raw_frame(0, msg:sub(13), true) }, 4)
    assert.equal("101", status)
    assert.equal("pong", (texts(frames)[1] or {}).type)
    -- 200 fragments of 1000 bytes: over the server's 80 KB
    local parts = { upgrade(), raw_frame(1, ("x"):rep(1000), false) }
    local body = {}
    for _ = 1, 200 do body[#body + 1] = raw_frame(0, ("x"):rep(1000), false) end
    body[#body + 1] = raw_frame(0, "", true) .. raw_frame(1, ping_text(3))
    parts[3] = table.concat(body)
    status, frames = raw(parts, 4)
    assert.equal("101", status)
    local t = texts(frames)
    assert.equal("too-large", t[1] and t[1].code)
    assert.equal("pong", t[2] and t[2].type, "the connection goes on after the dropped message")
    assert.is_true(serves())
  end)

  it("invalid UTF-8 in a text frame closes that connection", function()
    for _, bad in ipairs { "\xff\xfe", '{"v":1,"type":"ping","id":1,"x":"\xc0\xae"}', "\xed\xa0\x80",
      "\xf4\x90\x80\x80" } do
      -- (the server closes the connection: a longer bound costs nothing,
      -- and a loaded machine's bash may need it to connect at all)
      local status, frames = raw({ upgrade(), raw_frame(1, bad) }, 8)
      assert.equal("101", status)
      assert.truthy(closed_with(frames))
      assert.is_nil(texts(frames)[1])
    end
    assert.is_true(serves())
  end)

  it("a frame that claims 2^62 bytes, a control frame of 126, a bad close: the connection only", function()
    for _, f in ipairs { raw_frame(1, "abc", true, 1 << 62), raw_frame(9, ("p"):rep(126)),
      raw_frame(8, string.pack(">I2", 999) .. "why"), raw_frame(3, "x"),
      raw_frame(1, "{", false) .. raw_frame(1, "}") } do
      local status = raw({ upgrade(), f }, 5)
      assert.equal("101", status)
      assert.is_true(serves())
    end
  end)
end)

describe("issue 27 attacks: connections and origins", function()
  setup(function() srv = S.start { data = tmp .. "/data2" } end)
  teardown(function() S.stop(srv) end)

  it("one address holds at most 32 connections at once; a closed one frees its place", function()
    local held = {}
    for i = 1, 32 do held[i] = assert(ws.connect(srv.ws, { timeout = 5 })) end
    local extra = ws.connect(srv.ws, { timeout = 5 })
    if extra then
      -- (the upgrade may pass and the socket close right after)
      local m, why = extra:recv(2)
      assert.is_nil(m, "a 33rd connection was served")
      assert.equal("closed", why)
    end
    held[1]:close()
    S.sleep(0.3)
    held[1] = assert(ws.connect(srv.ws, { timeout = 5 }))
    send(held[1], { type = "ping", id = 5 })
    assert.equal(5, wait(held[1], function(f) return f.type == "pong" end).id)
    for _, c in ipairs(held) do c:close() end
    S.sleep(0.3)
    assert.is_true(serves())
  end)

  it("2000 sockets that never finish their request do not stop others from being served", function()
    local script = string.format([[for i in $(seq 1 2000); do exec {fd}<>/dev/tcp/127.0.0.1/%d || break;
      printf 'GET /ws HTTP/1.1\r\nHost: x\r\n' >&$fd; done; echo up; sleep 15]], srv.port)
    local file = tmp .. "/hold.sh"
    support.write(file, script)
    local p = io.popen("timeout 30 bash " .. support.q(file) .. " 2>/dev/null & echo $!")
    local pid = p:read("l")
    p:close()
    S.sleep(4)
    -- (another address: the one holding the sockets is past its own limit)
    local ok, why = serves("127.0.0.2")
    os.execute("kill " .. pid .. " 2>/dev/null; pkill -P " .. pid .. " 2>/dev/null")
    assert.is_true(ok, why)
    assert.is_true(serves_again())
  end)

  -- (the per-address limit once counted WebSocket connections only, so
  -- one address holding ~11,000 plain sockets left nobody else able to
  -- connect until it let go; now every socket counts)
  it("11,000 plain sockets from one address do not keep others out, and its count falls when they close", function()
    local file = tmp .. "/hold-many.sh"
    support.write(file, string.format([[ulimit -n 12000; for i in $(seq 1 11000); do
      exec {fd}<>/dev/tcp/127.0.0.1/%d || break; done; sleep 20]], srv.port))
    local pidfile = tmp .. "/hold-many.pid"
    os.execute("(timeout 40 bash " .. support.q(file) .. " >/dev/null 2>&1 & echo $! >" .. support.q(pidfile) .. ")")
    -- (the address that holds them is turned away while it does; the
    -- server drops sockets that say nothing after a few seconds)
    local away = false
    for _ = 1, 40 do
      if not serves() then away = true break end
      S.sleep(0.1)
    end
    assert.is_true(away, "the address holding the sockets was never turned away")
    local ok, why = serves("127.0.0.2")
    assert.is_true(ok, why)
    local pid = support.read(pidfile):match("%d+")
    os.execute("kill " .. pid .. " 2>/dev/null; pkill -P " .. pid .. " 2>/dev/null")
    assert.is_true(serves_again(), "the address's count did not fall when its sockets closed")
  end)

  it("a page elsewhere may not connect; the server's own origins may; no Origin is not a browser", function()
    local own = string.format("http://127.0.0.1:%d", srv.port)
    for _, o in ipairs { "http://evil.example", "http://evil.example:" .. srv.port, "null",
      "http://127.0.0.1:" .. (srv.port + 1), own .. "/", own .. ".evil.example", "HTTP://127.0.0.1:" .. srv.port,
      "http://127.0.0.1:" .. srv.port .. "@evil.example", "https://127.0.0.1:" .. srv.port } do
      local c = o:match("^[!-~]+$") and ws.connect(srv.ws, { origin = o, timeout = 5 })
      if c then
        local m, why = c:recv(2)
        assert.is_nil(m, o)
        assert.equal("closed", why, o)
      end
      -- (and the same by hand, with a rebound Host)
      local status = raw({ upgrade("Origin: " .. o .. "\r\n") }, 1)
      assert.is_not.equal("101", status, o)
      status = raw({ upgrade("Origin: " .. o .. "\r\nHost: evil.example:" .. srv.port .. "\r\n") }, 1)
      assert.is_not.equal("101", status, o)
    end
    for _, o in ipairs { own, "http://localhost:" .. srv.port } do
      local c = assert(ws.connect(srv.ws, { origin = o, timeout = 5 }))
      send(c, { type = "ping", id = 6 })
      assert.equal(6, wait(c, function(f) return f.type == "pong" end).id, o)
      c:close()
    end
    -- two Origin headers: the second may not sneak in
    local status = raw({ upgrade("Origin: " .. own .. "\r\nOrigin: http://evil.example\r\n") }, 1)
    assert.is_not.equal("101", status)
    assert.is_true(serves())
  end)

  it("odd HTTP: huge and many headers, odd methods and targets, upgrades elsewhere than /ws", function()
    local up = upgrade():gsub("GET /ws ", "GET %%s ")
    for _, req in ipairs {
      "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " .. ("a"):rep(100000) .. "\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: x\r\n" .. ("X-A: b\r\n"):rep(5000) .. "\r\n",
      "GET /" .. ("a"):rep(20000) .. " HTTP/1.1\r\nHost: x\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n" .. ("x"):rep(10000),
      "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\nx\r\n",
      "GET http://evil.example/ws HTTP/1.1\r\nHost: evil.example\r\n\r\n", "CONNECT 127.0.0.1:22 HTTP/1.1\r\n\r\n",
      "TRACE / HTTP/1.1\r\nHost: x\r\n\r\n", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "\0\1\2\3\r\n\r\n",
      "GET / HTTP/9.9\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
    } do
      local _, _, out = raw({ req }, 2)
      assert.falsy(out:find("root:", 1, true))
      assert.is_true(serves(), req:sub(1, 60))
    end
    -- (lws folds "//ws" and "/ws/../ws" into /ws: the same endpoint)
    for _, path in ipairs { "/", "/play", "/watch", "/ws/", "/WS", "/ws%00", "/wsx", "/index.html" } do
      local status = raw({ up:format(path) }, 1)
      assert.is_not.equal("101", status, path)
    end
    -- (the one that must be answered may take its time on a loaded machine:
    -- a CI run once had no answer within 1 s)
    assert.equal("101", (raw({ up:format("/ws") }, 5)))
  end)

  it("the web pages: encoded, doubled and odd paths reach nothing outside their folder", function()
    local marker = "root:"
    for _, path in ipairs { "/%252e%252e/%252e%252e/etc/passwd", "/..%5c..%5cetc/passwd", "/%c0%ae%c0%ae/etc/passwd",
      "/play/..%2f..%2f..%2fetc/passwd", "/watch/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/.%2e/.%2e/.%2e/etc/passwd",
      "/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/index.html%00/../../etc/passwd",
      "/" .. ("../"):rep(50) .. "etc/passwd",
      "/" .. ("a/"):rep(3000), "/play/../../../../proc/self/environ", "/..", "/.git/config", "/../Makefile" } do
      local status, _, out = raw({ "GET " .. path .. " HTTP/1.0\r\n\r\n" }, 2)
      assert.falsy(out:find(marker, 1, true), path)
      assert.falsy(out:find("DILOTI_BIN", 1, true), path)
      assert.falsy(out:find("[core]", 1, true), path)
      assert.falsy(out:find("CFLAGS", 1, true), path)
      assert.is_not.equal("500", status, path)
    end
    assert.is_true(serves())
  end)
end)

describe("issue 27 attacks: the lobby and odd creates", function()
  setup(function() srv = S.start { data = tmp .. "/data3" } end)
  teardown(function() S.stop(srv) end)

  local function raw_create(text)
    local c = S.client(srv)
    c:send(text)
    local m, why = recv(c, 20)
    c:close()
    return m, why
  end

  local base = '{"v":1,"type":"create","rules":"diloti","seats":["person","ai"]'
  it("odd numbers, keys and escapes: each create is answered (made or refused), never a hang", function()
    local odd = {
      ',"players":1e400', ',"players":-0', ',"players":2.0', ',"players":-1e400', ',"target":1e400',
      ',"target":-0', ',"pace":-0.0', ',"pace":1e-400', ',"pace":1e400', ',"pace":-1e-10',
      ',"seed":9223372036854775807',
      ',"seed":-9223372036854775808', ',"seed":99999999999999999999', ',"seed":0', ',"takeover":9223372036854775807',
      ',"type":"hello"', ',"type":"create","type":"create"', ',"rules":"pilotta"', ',"seats":{"1":"person"}',
      ',"names":["\\u0000\\u001b[2J","\\u202e\\ud83d\\ude00"]', ',"names":["\\ud800"]', ',"names":[1,2]',
      ',"names":"Ann"', ',"names":{"0":"x"}', ',"names":[null,"x"]', ',"seats":[null,"person"]',
      ',"seats":["person",null]', ',"seats":[["person"],"ai"]', ',"seats":["person",5]', ',"seats":[]',
      ',"seats":["person","ai:normal\\u0000x"]', ',"seats":["person","ai:' .. ("a"):rep(5000) .. '"]',
      ',"takeover_ai":"../../x"', ',"takeover_ai":"' .. ("a"):rep(3000) .. '"', ',"takeover_ai":""',
      ',"script_name":"../../../x"', ',"rules":"diloti+' .. ("last-capture+"):rep(8) .. 'last-capture"',
      ',"rules":"diloti,,,,"', ',"rules":"diloti+"', ',"rules":"=="', ',"players":4,"seats":["ai","ai","ai","person"]',
      ',"rules":"pilotta","players":3,"seats":["person","ai","ai"]', ',"__index":1', ',"":1',
      ',"seats":["script","ai"],"script":"return {}","script_name":"x"', ',"v":1.0', ',"script":""',
    }
    for _, x in ipairs(odd) do
      local text = base .. x .. "}"
      local m, why = raw_create(text)
      assert.truthy(m, "no answer to " .. text:sub(1, 200) .. ": " .. tostring(why))
      assert.truthy(m.type == "created" or m.type == "error", text:sub(1, 200))
      if m.type == "error" then assert.truthy(#m.message > 0 and #m.message < 400, m.message) end
    end
    assert.is_true(serves())
  end)

  it("deep, long and broken JSON in the lobby: refused with a code, the connection goes on", function()
    local c = S.client(srv)
    for _, text in ipairs {
      ("["):rep(100000), base .. ',"x":' .. ("["):rep(50000) .. "}",
      '{"v":1,"type":"create","seats":"' .. ("x"):rep(81 * 1024) .. '"}',
      ('{"a":1,'):rep(2000) .. "}", '{"v":1,"type":"ping","id":1' .. (',"id":1'):rep(500) .. "}", "", " ", "null", "[]",
      "{}", '"create"', "1e400", "-", '{"v":1,"type":"ping","id":-0}', '{"v":1,"type":"ping","id":1e400}',
      '{"v":1,"type":"create"}', '{"v":1,"type":"create","seats":[]}' .. ("x"):rep(5000),
      '{"v":1,"type":"hello","room":"' .. ("0"):rep(64) .. '","token":"' .. ("0"):rep(64) .. '"}',
    } do
      send(c, text)
      local m = wait(c, function() return true end, 10)
      assert.truthy(m, text:sub(1, 80))
      if m.type ~= "error" then assert.equal("pong", m.type, text:sub(1, 80)) end
      if m.code == "bad-token" then
        c:close()
        c = S.client(srv)
      end
    end
    c:close()
    assert.is_true(serves())
  end)

  it("long names or a long script_name: refused, or the room stores its moves", function()
    for _, x in ipairs { ',"names":["' .. ("N"):rep(40000) .. '","' .. ("M"):rep(35000) .. '"]',
      ',"script_name":"' .. ("s"):rep(70000) .. '"', ',"names":["' .. ("\\u00e9"):rep(6000) .. '"]' } do
      local m = raw_create(base .. ',"pace":0' .. x .. "}")
      assert.truthy(m and (m.type == "created" or m.type == "error"))
      if m.type == "created" then
        local c, w = join(m.seats[1].link)
        assert.equal("welcome", w and w.type, json.encode(w or "closed"))
        local st = wait(c, function(f) return f.type == "state" and f.turn == 0 and f.moves end)
        assert.truthy(st)
        send(c, { type = "move", move = 1 })
        local after = wait(c, function(f) return f.type == "event" or f.type == "error" end)
        assert.is_not.equal("error", after and after.type, json.encode(after or "closed"))
        c:close()
      end
    end
    assert.is_true(serves())
  end)
end)

describe("issue 27 attacks: reading and acting as another", function()
  setup(function() srv = S.start { data = tmp .. "/data4" } end)
  teardown(function() S.stop(srv) end)

  it("a late join (a seat or a spectator): its welcome and history hold no hidden card", function()
    local diloti = require "diloti"
    for _, g in ipairs { { rules = "diloti", players = 2 }, { rules = "pilotta", players = 4 },
      { rules = "kontsina", players = 3 } } do
      local seats = {}
      for i = 1, g.players do seats[i] = "person" end
      local m = create { rules = g.rules, players = g.players, seats = seats, pace = 0, seed = 7 }
      assert.equal("created", m.type)
      local mirror = diloti.new { rules = g.rules, players = g.players, seed = 7 }
      local links = {}
      for _, s in ipairs(m.seats) do links[s.seat] = s.link end
      math.randomseed(3)
      for _ = 1, 14 do
        if mirror:phase() == "round-over" or mirror:phase() == "match-over" then break end
        local list = mirror:moves()
        local mv = list[math.random(#list)]
        local c = join(links[mirror:turn()])
        wait(c, function(f) return f.type == "state" end)
        send(c, { type = "move", move = mv })
        assert.truthy(wait(c, function(f) return f.type == "event" or f.type == "refusal" end).type == "event")
        c:close()
        assert.truthy(mirror:play(mv))
      end
      for viewer = -1, g.players - 1 do
        local link = viewer < 0 and m.watch or links[viewer]
        local who = viewer >= 0 and viewer or nil
        local set = support.hidden(mirror, who)
        for _, last in ipairs { false, 0, 3 } do
          local c, w = join(link, last or nil)
          assert.equal("welcome", w.type)
          local leak = support.leaks(w, set, "welcome")
          assert.is_nil(leak, g.rules .. " viewer " .. tostring(who) .. ": " .. tostring(leak))
          local deadline = os.time() + 3
          while os.time() < deadline do
            local f = recv(c, 0.5)
            if not f then break end
            leak = support.leaks(f, set, f.type)
            assert.is_nil(leak, g.rules .. " viewer " .. tostring(who) .. ": " .. tostring(leak))
          end
          c:close()
        end
      end
    end
  end)

  it("another seat's move, a spectator's move, a watch token, room A's token on room B: refused", function()
    local a = create { rules = "diloti", players = 2, seats = { "person", "person" }, pace = 0, seed = 5 }
    local b = create { rules = "diloti", players = 2, seats = { "person", "person" }, pace = 0, seed = 5 }
    -- (c0: the seat to move, c1 the other)
    local c0 = join(a.seats[1].link)
    local st = wait(c0, function(f) return f.type == "state" end)
    local mover = st.turn
    local c1 = join(a.seats[2 - mover].link)
    c0:close()
    c0 = join(a.seats[mover + 1].link)
    st = wait(c0, function(f) return f.type == "state" end)
    for _, msg in ipairs { { type = "move", move = 1 }, { type = "move", move = st.moves[1] },
      { type = "move", move = 1, seat = mover } } do
      send(c1, msg)
      local e = wait(c1, function(f) return f.type == "error" end)
      assert.truthy(e.code == "out-of-turn" or e.code == "not-your-seat", e.code)
    end
    local watch = join(a.watch)
    for _, msg in ipairs { { type = "move", move = 1 }, { type = "move", move = 1, seat = mover },
      { type = "hint" } } do
      send(watch, msg)
      local e = wait(watch, function(f) return f.type == "error" end)
      assert.truthy(e.code == "not-your-seat" or e.code == "not-offered", e.code)
    end
    -- a second hello on a joined connection, even with another seat's token
    local room, token = S.parse(a.seats[2 - mover].link)
    send(c0, { type = "hello", room = room, token = token })
    assert.equal("joined", wait(c0, function(f) return f.type == "error" end).code)
    -- room A's tokens on room B, B's id with A's watch token, a token as a room id
    local _, wtok = S.parse(a.watch)
    local _, t0 = S.parse(a.seats[1].link)
    for _, pair in ipairs { { b.room, t0 }, { b.room, wtok }, { t0, t0 }, { b.room, b.room }, { a.room, a.room },
      { b.room, t0:upper() }, { b.room:upper(), select(2, S.parse(b.seats[1].link)) } } do
      local c = S.client(srv)
      send(c, { type = "hello", room = pair[1], token = pair[2] })
      local e, why = wait(c, function(f) return f.type == "error" or f.type == "welcome" end)
      assert.equal("bad-token", e and e.code, why)
      c:close()
    end
    -- nothing of that moved room A: the same seat is still to move, and plays
    send(c0, { type = "move", move = 1 })
    local ev = wait(c0, function(f) return f.type == "event" end)
    assert.equal(mover, ev.event.seat)
    for _, c in ipairs { c0, c1, watch } do c:close() end
  end)

  it("a seat joined from a second connection: the first is told, then closed", function()
    local m = create { rules = "diloti", players = 2, seats = { "person", "ai" }, pace = 0 }
    local c1 = join(m.seats[1].link)
    local c2 = join(m.seats[1].link)
    local told = wait(c1, function(f) return f.type == "error" end)
    assert.equal("replaced", told.code)
    local _, why = wait(c1, function() return false end, 10)
    assert.equal("closed", why, "the replaced connection was left open")
    c1:close()
    -- the seat is the second connection's
    send(c2, { type = "ping", id = 3 })
    assert.equal(3, wait(c2, function(f) return f.type == "pong" end).id)
    c2:close()
  end)

  -- (a fresh state once went to the spectators' whole stream, so every
  -- spectator was sent a frame each time anyone joined with the watch link)
  it("spectators joining again and again do not make every spectator a frame each", function()
    local m = create { rules = "diloti", players = 2, seats = { "person", "person" } }
    local a = join(m.watch)
    wait(a, function(f) return f.type == "state" end)
    for _ = 1, 40 do
      local b = join(m.watch)
      b:close()
    end
    local frames = 0
    while recv(a, 1) do frames = frames + 1 end
    a:close()
    assert.truthy(frames < 10, string.format("%d frames to a spectator for 40 joins of another", frames))
  end)

  it("odd move numbers and texts, odd `last`: refused, the room unchanged", function()
    local m = create { rules = "diloti", players = 2, seats = { "person", "person" }, pace = 0, seed = 9 }
    local probe = join(m.seats[1].link)
    local mover = wait(probe, function(f) return f.type == "state" end).turn
    probe:close()
    local c0 = join(m.seats[mover + 1].link)
    local st = wait(c0, function(f) return f.type == "state" end)
    for _, mv in ipairs { '0', '-1', '9223372036854775807', '-9223372036854775808', '1.5', '1e400',
      '"' .. ("7h "):rep(60) .. '"',
      '"\\u0000"', '"7h\\nx 3c"', '"\\u001b[2J"', '""', '"' .. ("\\u00e9"):rep(150) .. '"', 'true', '{}', '[1]' } do
      c0:send('{"v":1,"type":"move","move":' .. mv .. '}')
      local r = wait(c0, function(f) return f.type == "error" or f.type == "refusal" or f.type == "event" end)
      assert.is_not.equal("event", r.type, mv)
      assert.is_not.equal("internal", r.code, mv)
    end
    for _, last in ipairs { '9223372036854775807', '-1', '1e400', '"1"', '99999999999999999999' } do
      local c = S.client(srv)
      local room, token = S.parse(m.seats[2 - mover].link)
      c:send(string.format('{"v":1,"type":"hello","room":"%s","token":"%s","last":%s}', room, token, last))
      local w = wait(c, function(f) return f.type == "welcome" or f.type == "error" end)
      if w.type == "welcome" then assert.equal("fresh", w.resume, last) end
      c:close()
    end
    send(c0, { type = "move", move = st.moves[1] })
    assert.equal(mover, wait(c0, function(f) return f.type == "event" end).event.seat)
    c0:close()
  end)
end)

-- An uploaded AI for seat 1 of a two-player Diloti whose choose runs body
-- first (its result ignored).
local function script_room(name, body, o)
  local src = string.format([[
local function attempt() %s end
return { name = %q, game = "diloti", description = "attack",
  choose = function(ctx) attempt() return ctx.moves[1] end }]], body, name)
  o = o or {}
  local m = create { rules = "diloti", players = 2, seats = { "person", "script" }, script = src, script_name = name,
    pace = 0, seed = o.seed or 4, target = o.target }
  return m, src
end

describe("issue 27 attacks: uploaded AIs", function()
  setup(function() srv = S.start { data = tmp .. "/data5" } end)
  teardown(function() S.stop(srv) end)

  -- Plays seat 0 for n of its moves (the first legal one); fails when the
  -- room stops answering within `t` seconds for one of them.
  local function play_on(c, n, t)
    local done = 0
    while done < n do
      local f = wait(c, function(x) return x.type == "state" and x.turn == 0 and x.moves or x.type == "result" end, t)
      if not f or f.type == "result" then return done end
      send(c, { type = "move", move = 1 })
      done = done + 1
    end
    return done
  end

  it("escapes: files, the process, the host's libraries, binary chunks; the room plays on", function()
    local marker = tmp .. "/escaped"
    local body = string.format([[
      local M = %q
      local tries = {
        function() io.open(M, "w"):write("x") end, function() os.execute("touch " .. M) end,
        function() require("io").open(M, "w"):write("x") end, function() load("io.open(...,'w')")(M) end,
        function() local f = load(string.dump(function() end)) end,
        function() load("\27Lua\84\0\25\147\13\10\26\10\4\8\8x")() end,
        function() dofile("/etc/passwd") end, function() loadfile("/etc/passwd")() end,
        function() package.loadlib("/lib/x86_64-linux-gnu/libc.so.6", "system")("touch " .. M) end,
        function() debug.sethook() end, function() collectgarbage("stop") end,
        function() getmetatable("").__index.rep = function() return "pwned" end end,
        function() string.dump(print) end, function() _G.io = 1; _ENV.os = 1 end,
        function() rawget(_G, "io").open(M, "w") end, function() coroutine.wrap(function() end)() end,
        function() local s = ("x"):rep(1 << 40) end, function() local s = ("x"):rep(1e7, ("y"):rep(1e3)) end,
        function() local t = {} for i = 1, 1e8 do t[i] = i end end,
        function() local function f() return 1 + f() end return f() end,
        function() local function g(s) return (s:gsub(".", g)) end return g("xx") end,
        function() return ("x"):rep(1e5):find((".-"):rep(60) .. "y") end,
        function() return string.format("%%099999999d", 1) end,
        function() error(setmetatable({}, { __tostring = function() while true do end end })) end,
        function() setmetatable({}, { __gc = function() while true do end end }) end,
        function() return utf8.char(0x7fffffff):rep(1e8) end,
        function() return table.concat(setmetatable({}, { __index = function() return "x" end }), "", 1, 1e9) end,
      }
      for _, f in ipairs(tries) do pcall(f) end
    ]], marker)
    local m = script_room("upload-escape", body)
    assert.equal("created", m.type, json.encode(m))
    local c = join(m.seats[1].link)
    assert.equal(3, play_on(c, 3, 60))
    c:close()
    assert.falsy(io.open(marker, "r"), "the script wrote a file")
    assert.is_true(serves())
  end)

  it("a choose that returns poison: a table with metamethods, a huge text, a function", function()
    for i, ret in ipairs {
      'setmetatable({}, { __tostring = function() while true do end end, __eq = function() while true do end end })',
      '("7h "):rep(3e6)', 'function() end', 'setmetatable({}, { __index = function() while true do end end })',
      '0/0', 'math.huge', '-1', '2^63', '{ ctx.moves[1] }', 'ctx.moves[1] .. "\\0" .. ("x"):rep(1e6)' } do
      local name = "upload-poison" .. i
      local src = string.format([[return { name = %q, game = "diloti", description = "poison",
        choose = function(ctx) return %s end }]], name, ret)
      local m = create { rules = "diloti", players = 2, seats = { "person", "script" }, script = src,
        script_name = name,
        pace = 0, seed = 4 }
      assert.truthy(m and (m.type == "created" or m.type == "error"), ret)
      if m.type == "created" then
        local c = join(m.seats[1].link)
        assert.equal(2, play_on(c, 2, 60), ret)
        c:close()
      end
    end
    assert.is_true(serves())
  end)

  it("a script that loops in a coroutine or a metamethod loses its call; the room plays on", function()
    for i, body in ipairs { "coroutine.wrap(function() while true do end end)()",
      "local t = setmetatable({}, { __index = function(t, k) return t[k + 1] end }) return t[1]",
      "local s = setmetatable({}, { __lt = function() while true do end end }) table.sort({ s, s, s, s })",
      "while true do pcall(error) end", "local function f() pcall(f) end f() while true do end" } do
      local m = script_room("upload-loop" .. i, body)
      assert.equal("created", m.type, json.encode(m))
      local c = join(m.seats[1].link)
      assert.equal(2, play_on(c, 2, 60), body)
      c:close()
    end
  end)

  it("a script that fails to load is told why without the server's folders or any part of their path", function()
    for _, src in ipairs { "error('boom')", "x = ", "local t = {} t.x.y = 1", "while true do end",
      "error(('y'):rep(5000))", "return { name = 'mine', game = 'diloti', choose = 5 }" } do
      local m = create { rules = "diloti", players = 2, seats = { "person", "script" }, script = src,
        script_name = "mine" }
      assert.equal("error", m.type, src)
      assert.falsy(m.message:find("/", 1, true), m.message)
      assert.falsy(m.message:find("%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x"), m.message)
      assert.falsy(m.message:find(tmp, 1, true), m.message)
      assert.truthy(#m.message < 400)
    end
  end)

  it("the uploaded AI may not sit at an 'ai:NAME' seat or take chairs over, where its CPU went uncounted", function()
    local src = [[return { name = "upload-x", game = "diloti", description = "x",
      choose = function(ctx) return ctx.moves[1] end }]]
    for _, o in ipairs {
      { players = 4, seats = { "person", "script", "ai:upload-x", "ai:upload-x" } },
      { players = 2, seats = { "person", "script" }, takeover_ai = "upload-x" },
    } do
      o.rules, o.script, o.script_name = "diloti", src, "upload-x"
      local m = create(o)
      assert.equal("error", m.type, json.encode(o.seats))
      assert.truthy(m.message:find("upload-x", 1, true) or m.message:find("uploaded", 1, true), m.message)
    end
  end)

  it("script_name as a file name: climbing, long, odd characters are refused; nothing written outside", function()
    local src = [[return { name = "x", game = "diloti", choose = function(ctx) return ctx.moves[1] end }]]
    for _, name in ipairs { "../../escape", "..", ".", "/tmp/escape", "a/b", ("n"):rep(300), "a\0b", "a b", "-x", "_x",
      "x.lua", "CON", "\u{202e}x", "x\n" } do
      local m = create { rules = "diloti", players = 2, seats = { "person", "script" }, script = src,
        script_name = name }
      assert.truthy(m, name)
      if m.type ~= "error" then
        -- (a name the pattern lets through must stay in the room's folder)
        assert.truthy(name:match("^[%w][%w%-_]*$"), "a create with script_name " .. name .. " was not refused")
      end
    end
    assert.falsy(io.open(tmp .. "/escape.lua", "r"))
    assert.falsy(io.open("/tmp/escape.lua", "r"))
    assert.is_true(serves())
  end)

  it("a script named like a shipped AI inside its file may not stand in for the room's built-in AIs", function()
    -- its file is 'mine', its own name 'normal': the takeover AI and every
    -- 'ai' seat of the room are 'normal'
    local src = [[return { name = "normal", game = "diloti", description = "impostor",
      choose = function(ctx) while true do end end }]]
    local m = create { rules = "diloti", players = 2, seats = { "person", "script" }, script = src,
      script_name = "mine" }
    assert.truthy(m)
    if m.type == "created" then
      -- it may play its seat, under its own file's name, never as 'normal'
      for _, s in ipairs(m.seats) do assert.is_not.equal("AI normal", s.name) end
      local c, w = join(m.seats[1].link)
      assert.is_not.equal("AI normal", w.names["1"])
      c:close()
    end
  end)
end)

describe("issue 27 attacks: memory and time", function()
  setup(function() srv = S.start { data = tmp .. "/data6" } end)
  teardown(function() S.stop(srv) end)

  local function rss_kb()
    local t = S.read("/proc/" .. srv.pid .. "/status") or ""
    return tonumber(t:match("VmRSS:%s*(%d+)")) or 0
  end

  -- A room whose uploaded AI at seat 1 thinks for seconds on each move
  -- (its time limit); the person at seat 0, joined: c, room id.
  local function busy_room()
    local src = [[return { name = "upload-slow", game = "diloti", description = "slow",
      choose = function(ctx)
        local n = 0
        for _ = 1, 3000 do n = n + #("x"):rep(1e6) end
        return ctx.moves[1]
      end }]]
    local m = create { rules = "diloti", players = 2, seats = { "person", "script" }, script = src,
      script_name = "upload-slow", pace = 0, seed = 4 }
    assert.equal("created", m.type, json.encode(m))
    local c = join(m.seats[1].link)
    wait(c, function(f) return f.type == "state" and f.turn == 0 and f.moves end, 30)
    return c, m.room
  end

  it("a client that knows a room's id floods it while its thread is busy: the server's memory stays bounded", function()
    local c, room = busy_room()
    send(c, { type = "move", move = 1 }) -- (the script thinks now)
    S.sleep(0.3)
    local before = rss_kb()
    local f = S.client(srv)
    send(f, { type = "hello", room = room, token = ("0"):rep(64) })
    local big = ("x"):rep(80 * 1024 - 16)
    local sent = 0
    for _ = 1, 1500 do
      if not f:send(big) then break end
      sent = sent + 1
    end
    local grown = (rss_kb() - before) // 1024
    f:close()
    assert.truthy(grown < 48, string.format("%d messages of 80 KB queued for a busy room: %d MB more", sent, grown))
    -- the room's own person still plays
    assert.truthy(wait(c, function(x) return x.type == "state" and x.turn == 0 and x.moves end, 30))
    c:close()
    assert.is_true(serves())
  end)

  -- (an uploaded AI may keep 32 MiB, its cap, and a room seated it three
  -- times: ~90 MB a room, kept until --idle; now a room's boxes hold
  -- --room-memory, 40 MiB, together)
  it("rooms of fat uploaded AIs that nobody joins: the server's memory stays bounded", function()
    local src = [[local keep = {}
      for i = 1, 24 do keep[i] = ("x"):rep((1 << 20) - 64) .. i end
      return { name = "upload-fat", game = "diloti", description = "fat",
        choose = function(ctx) return keep[1] and ctx.moves[1] end }]]
    local before = rss_kb()
    for _ = 1, 4 do
      local m = create { rules = "diloti", players = 4, seats = { "person", "script", "script", "script" },
        script = src, script_name = "upload-fat" }
      -- (three seats of it do not fit: the creator is told, and of its
      -- script only, never of the server's folders)
      assert.equal("bad-room", m.code, json.encode(m))
      assert.matches("upload%-fat%.lua: memory cap exceeded .*40 MiB", m.message)
      assert.is_nil(m.message:find(tmp, 1, true))
    end
    -- (one seat of it fits, and plays)
    local m = create { rules = "diloti", players = 2, seats = { "person", "script" }, script = src,
      script_name = "upload-fat" }
    assert.equal("created", m.type, json.encode(m))
    local grown = (rss_kb() - before) // 1024
    assert.truthy(grown < 200, string.format("4 rooms nobody joined: %d MB more", grown))
  end)

  it("watchers that never read an AI-only room at full speed: the server's memory stays bounded", function()
    local m = create { rules = "diloti", players = 2, seats = { "ai:random", "ai:random" }, pace = 0, target = 100000 }
    assert.equal("created", m.type, json.encode(m))
    local before = rss_kb()
    local idle = {}
    for i = 1, 8 do idle[i] = join(m.watch) end
    S.sleep(6)
    local grown = (rss_kb() - before) // 1024
    -- 8 MB a connection at most, then closed
    assert.truthy(grown < 8 * 8 + 32, string.format("%d MB more for 8 watchers that do not read", grown))
    for _, c in ipairs(idle) do c:close() end
    assert.is_true(serves())
  end)
end)

describe("issue 27 attacks: floods and rooms that do not wait", function()
  setup(function() srv = S.start { data = tmp .. "/data7" } end)
  teardown(function() S.stop(srv) end)

  it("hello floods: many connections, many hellos on one; each refused, the server goes on", function()
    for i = 1, 150 do
      local c = S.client(srv)
      send(c, { type = "hello", room = string.format("%064x", i), token = ("f"):rep(64) })
      local e = wait(c, function(f) return f.type == "error" end)
      assert.equal("bad-token", e.code)
      c:close()
    end
    local c = S.client(srv)
    for i = 1, 200 do
      if not send(c, { type = "hello", room = string.format("%064x", i), token = ("f"):rep(64) }) then break end
    end
    c:close()
    -- a real room's id with wrong tokens, on one connection after another
    local m = create { rules = "diloti", players = 2, seats = { "person", "ai" } }
    for i = 1, 100 do
      local x = S.client(srv)
      send(x, { type = "hello", room = m.room, token = string.format("%064x", i) })
      assert.equal("bad-token", wait(x, function(f) return f.type == "error" end).code)
      x:close()
    end
    local p, w = join(m.seats[1].link)
    assert.equal("welcome", w.type)
    p:close()
    assert.is_true(serves())
  end)

  it("an uploaded AI that burns its time every move: other rooms answer at once; its room goes on", function()
    local src = [[return { name = "upload-burn", game = "diloti", description = "burns",
      choose = function(ctx) local n = 0 for _ = 1, 1e9 do n = n + #("x"):rep(1e6) end return ctx.moves[1] end }]]
    local a = create { rules = "diloti", players = 2, seats = { "person", "script" }, script = src,
      script_name = "upload-burn", pace = 0, seed = 4 }
    assert.equal("created", a.type, json.encode(a))
    local b = create { rules = "diloti", players = 2, seats = { "person", "person" }, pace = 0 }
    local ca = join(a.seats[1].link)
    local cb = join(b.seats[1].link)
    wait(cb, function(f) return f.type == "state" end)
    -- while room a's script burns: room b answers every ping (the bound is
    -- generous: a busy machine; a room that waited would take 5 s)
    local slow, took = 0, {}
    -- (the seat goes after about 16 s on an idle machine; a loaded one
    -- takes longer: a CI run beside a bench on both cores went past 40 s)
    local deadline = os.time() + 90
    local taken_over = false
    while os.time() < deadline and not taken_over do
      local t0 = os.clock() + os.time()
      send(cb, { type = "ping", id = 1 })
      local p = wait(cb, function(f) return f.type == "pong" end, 10)
      assert.truthy(p)
      local dt = os.time() + os.clock() - t0
      took[#took + 1] = dt
      if dt > 3 then slow = slow + 1 end
      -- room a: seat 0 plays when asked; the script's seat is handed to a
      -- built-in AI once it has burnt its share
      local f = recv(ca, 0.5)
      while f do
        if f.type == "state" and f.turn == 0 and f.moves then send(ca, { type = "move", move = 1 }) end
        if f.type == "seat" and f.seat == 1 and f.kind == "ai" then taken_over = true end
        f = recv(ca, 0.2)
      end
    end
    assert.equal(0, slow, "room b waited for room a's script: " .. table.concat(took, " "))
    assert.is_true(taken_over, "the burning script kept its seat")
    ca:close()
    cb:close()
  end)
end)

describe("issue 27 attacks: an uploaded AI's hooks", function()
  setup(function() srv = S.start { data = tmp .. "/data10" } end)
  teardown(function() S.stop(srv) end)

  it("a script that burns its time in on_event during the person's moves loses its seat too", function()
    -- (its own moves cost nothing: only its hooks, which ran uncounted
    -- while the others moved, ~3.4 s a move for ever)
    local src = [[return { name = "upload-hook", game = "diloti", description = "burns in its hook",
      choose = function(ctx) return ctx.moves[1] end,
      on_event = function(e, ctx)
        if e.type == "move" and e.seat ~= ctx.seat then
          local n = 0
          for _ = 1, 1500 do n = n + #("x"):rep(1e6) end
        end
      end }]]
    local m = create { rules = "diloti", players = 2, seats = { "person", "script" }, script = src,
      script_name = "upload-hook", pace = 0, seed = 4 }
    assert.equal("created", m.type, json.encode(m))
    local c = join(m.seats[1].link)
    local deadline, taken = os.time() + 120, nil
    while os.time() < deadline and not taken do
      local f = recv(c, 10)
      if f and f.type == "state" and f.turn == 0 and f.moves then send(c, { type = "move", move = 1 }) end
      if f and f.type == "seat" and f.seat == 1 and f.kind == "ai" then taken = f end
      if f and f.type == "result" and f.kind == "match" then break end
    end
    c:close()
    assert.truthy(taken, "the script kept its seat")
  end)
end)

describe("issue 27 attacks: the lobby's loop", function()
  -- (the server's own rate of rooms: 10 at once from an address)
  setup(function() srv = S.start { data = tmp .. "/data9", args = "--room-rate 2 --rate 10" } end)
  teardown(function() S.stop(srv) end)

  it("an address's connections share one rate in the lobby", function()
    -- The lobby runs in the loop every room's frames go through; a flat
    -- 4 KB object takes ~2.4 ms to read there (twice). Each connection
    -- kept its own rate, so 16 connections of one address had all their
    -- 400 read. An address's lobby messages now share a bucket (40, then
    -- 20 a second, at --rate 10).
    local answered, limited = 0, 0
    local slow = "{" .. ('"a":1,'):rep(600) .. '"v":1,"type":"ping"}'
    support.write(tmp .. "/lobby-up", upgrade())
    support.write(tmp .. "/lobby-flood", raw_frame(1, slow):rep(25))
    for i = 1, 16 do
      os.execute(string.format("(timeout 6 bash -c 'exec 3<>/dev/tcp/127.0.0.1/%d; cat %s >&3; sleep 0.3; "
        .. "cat %s >&3; cat <&3' >%s 2>/dev/null &)", srv.port, tmp .. "/lobby-up", tmp .. "/lobby-flood",
        tmp .. "/lobby-out" .. i))
    end
    S.sleep(7)
    for i = 1, 16 do
      local out = S.read(tmp .. "/lobby-out" .. i) or ""
      for code in out:gmatch('"code":"([%w%-]+)"') do
        if code == "rate-limited" then limited = limited + 1 else answered = answered + 1 end
      end
    end
    assert.truthy(answered < 200, string.format("%d of 400 messages of one address read, %d refused", answered,
      limited))
    assert.truthy(limited > 0)
  end)

  it("a spectator's flood of slow JSON is read only within its rate", function()
    local function cpu()
      local f = {}
      for x in (S.read("/proc/" .. srv.pid .. "/stat") or ""):gmatch("%S+") do f[#f + 1] = x end
      return (tonumber(f[14]) + tonumber(f[15])) / 100
    end
    local m = create { rules = "diloti", players = 2, seats = { "person", "person" } }
    local w = join(m.watch)
    local slow = "{" .. ('"a":1,'):rep(660) .. '"v":1}'
    local t0 = cpu()
    -- (one at a time, each after the answer to the one before: the room
    -- keeps up, and its inbox never fills)
    local n = 0
    for _ = 1, 1500 do
      if not w:send(slow) then break end
      if not w:recv(5) then break end
      n = n + 1
    end
    local used = cpu() - t0
    w:close()
    assert.equal(1500, n)
    -- (~1.2 ms each when every one was read: 1.8 s)
    assert.truthy(used < 0.9, string.format("%.2f s of the server's CPU for %d messages past the rate", used, n))
  end)

  it("long creates are counted against the address's rooms before they are read", function()
    -- Reading 80 KB of JSON made to be slow (a long flat array) costs
    -- ~30 ms of the loop every room's frames go through; 32 connections
    -- of one address sending them kept it busy. Past the address's rooms,
    -- a long create is refused unread.
    local broken = '{"v":1,"type":"create","rules":"diloti","seats":[' .. ("1,"):rep(40000) .. "1]"
    local c = S.client(srv)
    local read, refused = 0, 0
    for _ = 1, 30 do
      assert.truthy(c:send(broken))
      local m = wait(c, function(f) return f.type == "error" end)
      if m.code == "bad-json" then read = read + 1 elseif m.code == "rate-limited" then refused = refused + 1 end
    end
    c:close()
    assert.truthy(read <= 10, string.format("%d long creates read, %d refused", read, refused))
    assert.equal(30, read + refused)
    assert.is_true(serves())
  end)
end)

describe("issue 27 attacks: advice online", function()
  setup(function() srv = S.start { data = tmp .. "/data11", args = "--advice-rate 6000" } end)
  teardown(function() S.stop(srv) end)

  it("hint, why and explain with odd arguments, at every turn: no hidden card, no internal error", function()
    local diloti = require "diloti"
    for _, g in ipairs { { rules = "diloti", players = 2 }, { rules = "pilotta", players = 4 } } do
      local seats = {}
      for i = 1, g.players do seats[i] = "person" end
      local m = create { rules = g.rules, players = g.players, seats = seats, pace = 0, seed = 21 }
      assert.equal("created", m.type, json.encode(m))
      local mirror = diloti.new { rules = g.rules, players = g.players, seed = 21 }
      local conns = {}
      for _, x in ipairs(m.seats) do
        conns[x.seat] = join(x.link)
      end
      math.randomseed(9)
      for _ = 1, 12 do
        if mirror:phase() ~= "play" and mirror:phase() ~= "auction" and mirror:turn() == nil then break end
        local turn = mirror:turn()
        for seat, c in pairs(conns) do
          local set = support.hidden(mirror, seat)
          for _, ask in ipairs { { type = "hint" }, { type = "why", move = 1 }, { type = "why", move = 9999 },
            { type = "why", move = "As x " .. ("Kh "):rep(40) }, { type = "why", move = "\0" },
            { type = "explain", n = 0 }, { type = "explain", n = 1 }, { type = "explain", n = 1 << 40 },
            { type = "hint", seat = (seat + 1) % g.players } } do
            send(c, ask)
            local f = wait(c, function(x) return x.type == "advice" or x.type == "error" end, 30)
            assert.is_not.equal("internal", f.code, json.encode(ask))
            -- (a card the asker named itself may be quoted back)
            local own = {}
            for k, v in pairs(set) do own[k] = v end
            for w in tostring(ask.move or ""):gmatch("%w+") do own[w] = nil end
            -- ("a group of 7s" is sevens, not the seven of spades)
            local said = json.decode(json.encode(f))
            for i, line in ipairs(said.lines or {}) do said.lines[i] = line:gsub("group of %w+", "group") end
            local leak = support.leaks(said, own, "advice")
            assert.is_nil(leak, string.format("%s seat %d (turn %s): %s; asked %s, answered %s", g.rules, seat,
              tostring(turn), tostring(leak), json.encode(ask), json.encode(f)))
          end
        end
        local list = mirror:moves()
        local mv = list[math.random(#list)]
        send(conns[turn], { type = "move", move = mv })
        assert.truthy(mirror:play(mv))
        S.sleep(0.1)
      end
      for _, c in pairs(conns) do c:close() end
    end
  end)
end)

describe("issue 27 attacks: a kill in the middle", function()
  it("a room with an uploaded AI, killed after a move: resumed, and its AI plays on", function()
    local data = tmp .. "/data8"
    srv = S.start { data = data }
    local src = [[return { name = "upload-keep", game = "diloti", description = "the first move",
      choose = function(ctx) return ctx.moves[1] end }]]
    local m = create { rules = "diloti", players = 2, seats = { "person", "script" }, script = src,
      script_name = "upload-keep", pace = 0, seed = 4 }
    assert.equal("created", m.type, json.encode(m))
    local c = join(m.seats[1].link)
    wait(c, function(f) return f.type == "state" and f.turn == 0 and f.moves end)
    send(c, { type = "move", move = 1 })
    wait(c, function(f) return f.type == "event" and f.event.seat == 1 end)
    c:close()
    S.stop(srv, "KILL")
    srv = S.start { data = data }
    local c2, w = join(m.seats[1].link)
    assert.equal("welcome", w.type, json.encode(w))
    assert.equal("AI upload-keep", w.names["1"])
    -- seat 0 moves, and the uploaded AI (not a stand-in) answers
    wait(c2, function(f) return f.type == "state" and f.turn == 0 and f.moves end)
    send(c2, { type = "move", move = 1 })
    wait(c2, function(f) return f.type == "event" and f.event.seat == 1 end)
    c2:close()
    S.stop(srv)
  end)
end)

describe("issue 27 attacks: what the server wrote and said", function()
  it("no frame named the server's folders; no log holds a token, a link or a room's whole id", function()
    assert.truthy(#seen > 100 and #secrets > 10)
    for _, text in ipairs(seen) do
      assert.falsy(text:find(tmp, 1, true), text:sub(1, 300))
      assert.falsy(text:find("/scripts/", 1, true), text:sub(1, 300))
      assert.falsy(text:find("rooms.sqlite", 1, true), text:sub(1, 300))
    end
    local p = io.popen("ls " .. support.q(tmp) .. " | grep '\\.log\\.'")
    local logs = {}
    for name in p:lines() do logs[#logs + 1] = S.read(tmp .. "/" .. name) end
    p:close()
    assert.truthy(#logs >= 6)
    for _, log in ipairs(logs) do
      for _, link in ipairs(secrets) do
        local room, token = S.parse(link)
        assert.falsy(log:find(token, 1, true), "a token in the log")
        assert.falsy(log:find(link, 1, true), "a link in the log")
        assert.falsy(log:find(room, 1, true), "a room's whole id in the log")
      end
      assert.falsy(log:find("%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x"),
        "32 hex digits in a row in the log: " .. log:sub(1, 2000))
    end
  end)
end)
