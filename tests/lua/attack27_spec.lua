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
  msg.v = msg.v or 1
  return c:send(type(msg) == "string" and msg or json.encode(msg))
end

-- The answer to a ping on a new connection: the server still serves.
local function serves()
  if not S.alive(srv) then return false, "the server died" end
  local c, err = ws.connect(srv.ws, { timeout = 5 })
  if not c then return false, err end
  send(c, { type = "ping", id = 99 })
  local m = wait(c, function(f) return f.type == "pong" end, 10)
  c:close()
  return m and m.id == 99
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
    local status, frames = raw { upgrade(), raw_frame(1, ping_text(1)) }
    assert.equal("101", status)
    local t = texts(frames)
    assert.equal("pong", t[1] and t[1].type)
  end)

  it("a binary frame closes that connection, nothing else", function()
    local status, frames = raw { upgrade(), raw_frame(2, "\0\1\2\3") }
    assert.equal("101", status)
    assert.truthy(closed_with(frames))
    assert.is_true(serves())
  end)

  it("a message in fragments is put back together; a fragment flood is too-large and dropped", function()
    local msg = ping_text(2)
    local status, frames = raw { upgrade(), raw_frame(1, msg:sub(1, 5), false), raw_frame(0, msg:sub(6, 12), false),
      raw_frame(0, msg:sub(13), true) }
    assert.equal("101", status)
    assert.equal("pong", (texts(frames)[1] or {}).type)
    -- 200 fragments of 1000 bytes: over the server's 80 KB
    local parts = { upgrade(), raw_frame(1, ("x"):rep(1000), false) }
    local body = {}
    for _ = 1, 200 do body[#body + 1] = raw_frame(0, ("x"):rep(1000), false) end
    body[#body + 1] = raw_frame(0, "", true) .. raw_frame(1, ping_text(3))
    parts[3] = table.concat(body)
    status, frames = raw(parts)
    assert.equal("101", status)
    local t = texts(frames)
    assert.equal("too-large", t[1] and t[1].code)
    assert.equal("pong", t[2] and t[2].type, "the connection goes on after the dropped message")
    assert.is_true(serves())
  end)

  it("invalid UTF-8 in a text frame closes that connection", function()
    for _, bad in ipairs { "\xff\xfe", '{"v":1,"type":"ping","id":1,"x":"\xc0\xae"}', "\xed\xa0\x80", "\xf4\x90\x80\x80" } do
      local status, frames = raw { upgrade(), raw_frame(1, bad) }
      assert.equal("101", status)
      assert.truthy(closed_with(frames))
      assert.is_nil(texts(frames)[1])
    end
    assert.is_true(serves())
  end)

  it("a frame that claims 2^62 bytes, a control frame of 126, a bad close: the connection only", function()
    for _, f in ipairs { raw_frame(1, "abc", true, 1 << 62), raw_frame(9, ("p"):rep(126)),
      raw_frame(8, string.pack(">I2", 999) .. "why"), raw_frame(3, "x"), raw_frame(1, "{", false) .. raw_frame(1, "}") } do
      local status = raw({ upgrade(), f }, 2)
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
    local ok, why = serves()
    os.execute("kill " .. pid .. " 2>/dev/null; pkill -P " .. pid .. " 2>/dev/null")
    assert.is_true(ok, why)
    S.sleep(0.5)
    assert.is_true(serves())
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

  it("the web pages: encoded, doubled and odd paths reach nothing outside their folder", function()
    local marker = "root:"
    for _, path in ipairs { "/%252e%252e/%252e%252e/etc/passwd", "/..%5c..%5cetc/passwd", "/%c0%ae%c0%ae/etc/passwd",
      "/play/..%2f..%2f..%2fetc/passwd", "/watch/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/.%2e/.%2e/.%2e/etc/passwd",
      "/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/index.html%00/../../etc/passwd", "/" .. ("../"):rep(50) .. "etc/passwd",
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
