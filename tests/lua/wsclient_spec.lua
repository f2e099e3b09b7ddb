-- diloti.wsclient (src/net/client.c): the blocking WebSocket client, against
-- a small lws echo server started for this spec (tests/net/echo.c, built as
-- build/tests/ws_echo) on a free 127.0.0.1 port and killed at the end.
-- Then every argument of every function given what it does not expect.
local support = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "support.lua")
local ws = require "diloti.wsclient"

local bin_dir = support.bin:match("^(.*)/[^/]+$") or "."
local ECHO = os.getenv("DILOTI_WS_ECHO") or (bin_dir .. "/tests/ws_echo")
local THREADS = bin_dir .. "/tests/ws_threads"

local dir, pid, port, silent

-- Starts the echo server (which would end by itself after 120 s) and
-- waits for the port it prints.
local function start_echo()
  dir = support.tmpdir()
  assert(io.open(ECHO, "rb"), "no " .. ECHO .. ": make build/tests/ws_echo"):close()
  local portf, pidf = dir .. "/port", dir .. "/pid"
  assert(os.execute(string.format("%s 0 120 > %s 2>&1 </dev/null & echo $! > %s",
    support.q(ECHO), support.q(portf), support.q(pidf))))
  pid = assert(tonumber(support.read(pidf):match("%d+")), "no pid")
  for _ = 1, 500 do
    local f = io.open(portf, "rb")
    local text = f and f:read("a")
    if f then f:close() end
    port = text and tonumber(text:match("\nport (%d+)"))
    silent = text and tonumber(text:match("silent (%d+)"))
    if port then return end
    os.execute("sleep 0.01")
  end
  error("the echo server did not start: " .. tostring(support.read(portf)))
end

local function url(path) return "ws://127.0.0.1:" .. port .. (path or "/ws") end

-- A client connected to the echo server.
local function open(o)
  local c, err = ws.connect(url(), o)
  assert(c, err)
  return c
end

-- A port nothing listens on (tcpmux: no test machine runs it).
local REFUSED = "ws://127.0.0.1:1/ws"

describe("diloti.wsclient", function()
  setup(start_echo)
  teardown(function()
    if pid then os.execute("kill " .. pid .. " 2>/dev/null") end
    support.rmdir(dir)
  end)

  describe("against an echo server", function()
    it("connects, sends and receives text, and closes", function()
      local c = open()
      assert.equal(true, c:send("hello"))
      assert.equal("hello", c:recv(5))
      assert.equal(true, c:send(""))
      assert.equal("", c:recv(5))
      assert.equal(true, c:close())
      assert.equal(true, c:close()) -- twice is fine
    end)

    it("keeps messages in order and answers timeout when none is there", function()
      local c = open()
      assert.equal(true, c:send("burst 50"))
      for i = 1, 50 do assert.equal("m" .. i, c:recv(5)) end
      local m, why = c:recv(0)
      assert.is_nil(m)
      assert.equal("timeout", why)
      m, why = c:recv(0.05)
      assert.is_nil(m)
      assert.equal("timeout", why)
      c:close()
    end)

    it("sends several messages before reading any answer", function()
      local c = open()
      for i = 1, 20 do assert.equal(true, c:send("s" .. i)) end
      for i = 1, 20 do assert.equal("s" .. i, c:recv(5)) end
      c:close()
    end)

    it("reassembles a fragmented message and receives large ones whole", function()
      local c = open()
      c:send("frag 300000 7")
      assert.equal(string.rep("x", 300000), c:recv(5))
      c:send("big 1048576") -- exactly the default limit
      assert.equal(1048576, #c:recv(5))
      local text = string.rep("0123456789", 50000) .. "\0\1\255"
      c:send(text)
      assert.equal(text, c:recv(5))
      c:close()
    end)

    it("closes with a clear error on a message larger than o.max", function()
      local c = open { max = 1000 }
      c:send("big 1000")
      assert.equal(1000, #c:recv(5))
      c:send("frag 1001 3")
      local m, why, reason = c:recv(5)
      assert.is_nil(m)
      assert.equal("closed", why)
      assert.matches("larger than the limit of 1000 bytes", reason)
      local ok, why2 = c:send("more")
      assert.is_nil(ok)
      assert.equal("closed", why2)
      c:close()
    end)

    it("reports the server's close code and words", function()
      local c = open()
      c:send("close 4001 go away")
      local m, why, reason = c:recv(5)
      assert.is_nil(m)
      assert.equal("closed", why)
      assert.matches("4001: go away", reason, 1, true)
      assert.equal("closed", select(2, c:recv(0)))
      assert.is_nil(c:fd())
    end)

    it("delivers what arrived before the server closed, then closed", function()
      local c = open()
      c:send("burst 3")
      c:send("close 1000 done")
      assert.equal("m1", c:recv(5))
      assert.equal("m2", c:recv(5))
      assert.equal("m3", c:recv(5))
      assert.equal("closed", select(2, c:recv(5)))
    end)

    it("gives its descriptors back as soon as the server has closed, not at gc", function()
      local f = assert(io.open("/proc/self/stat", "rb"))
      local me = f:read("a"):match("^(%d+)")
      f:close()
      local function fds()
        local p = assert(io.popen("ls /proc/" .. me .. "/fd | wc -l"))
        local n = tonumber(p:read("a"))
        p:close()
        return n
      end
      -- No collection during the count: an earlier test's client left to
      -- the collector would give its descriptors back in the middle (when
      -- depends on how often the loop polled), and one of these that kept
      -- its descriptors until collected would be hidden by it.
      collectgarbage("collect")
      collectgarbage("collect")
      collectgarbage("stop")
      local cs = {}
      local before = fds()
      for i = 1, 8 do
        cs[i] = open()
        cs[i]:send("close 1000 bye")
        assert.equal("closed", select(2, cs[i]:recv(5)))
      end
      local after = fds()
      collectgarbage("restart")
      assert.equal(before, after)
      for i = 1, 8 do cs[i]:close() end
    end)

    it("notices a connection dropped without a close frame", function()
      local c = open()
      c:send("drop")
      local m, why, reason = c:recv(5)
      assert.is_nil(m)
      assert.equal("closed", why)
      assert.is_string(reason)
    end)

    it("sends o.origin as it is, and none by default", function()
      local c = open { origin = "http://example.org:8080" }
      c:send("origin")
      assert.equal("origin:http://example.org:8080", c:recv(5))
      c:close()
      c = open()
      c:send("origin")
      assert.equal("origin:", c:recv(5))
      c:close()
    end)

    it("connects from o.source, a local address, when given", function()
      local c = open { source = "127.0.0.2" }
      c:send("peer")
      assert.matches("^peer:[:f]*127%.0%.0%.2$", c:recv(5))
      c:close()
      c = open()
      c:send("peer")
      assert.matches("^peer:[:f]*127%.0%.0%.1$", c:recv(5))
      c:close()
    end)

    it("gives its socket while open", function()
      local c = open()
      assert.is_true(math.type(c:fd()) == "integer" and c:fd() >= 0)
      c:close()
      assert.is_nil(c:fd())
    end)

    it("holds a dozen clients at once, each with its own messages", function()
      local cs = {}
      for i = 1, 12 do cs[i] = open() end
      for i = 12, 1, -1 do cs[i]:send("client " .. i) end
      for i = 1, 12 do assert.equal("client " .. i, cs[i]:recv(5)) end
      for i = 1, 6 do cs[i]:close() end
      for i = 7, 12 do
        cs[i]:send("still " .. i)
        assert.equal("still " .. i, cs[i]:recv(5))
      end
      cs = nil -- luacheck: ignore 311 (the rest go with the garbage)
      collectgarbage()
      collectgarbage()
    end)

    it("works in several threads' Lua states at once (build/tests/ws_threads)", function()
      assert(io.open(THREADS, "rb"), "no " .. THREADS .. ": make build/tests/ws_threads"):close()
      local p = assert(io.popen(string.format("timeout 60 %s %d 6 40 2>&1", support.q(THREADS), port)))
      local out = p:read("a")
      local ok = p:close()
      assert.matches("6 threads, 40 rounds each: 0 failed", out, 1, true)
      assert.is_true(ok)
    end)

    it("closes at the end of a <close> block, and a closed client refuses politely", function()
      local kept
      do
        local c <close> = open()
        kept = c
        c:send("x")
      end
      local ok, why = kept:send("y")
      assert.is_nil(ok)
      assert.equal("closed", why)
      assert.equal("closed", select(2, kept:recv(0)))
      assert.equal("closed", select(2, kept:recv()))
      assert.equal(true, kept:close())
      assert.matches("closed", tostring(kept))
    end)

    it("waits for a message without a timeout (or a huge one) until one comes", function()
      local c = open()
      c:send("late")
      assert.equal("late", c:recv())
      c:send("later")
      assert.equal("later", c:recv(1e300))
      c:send("last")
      assert.equal("last", c:recv(math.huge))
      c:close()
    end)
  end)

  describe("refuses", function()
    it("a port where nothing listens, with a message and no client", function()
      local c, err = ws.connect(REFUSED, { timeout = 5 })
      assert.is_nil(c)
      assert.matches("cannot connect to 127.0.0.1:1", err, 1, true)
    end)

    it("a host that does not resolve", function()
      local c, err = ws.connect("ws://no-such-host.invalid:4000/ws", { timeout = 5 })
      assert.is_nil(c)
      assert.matches("no%-such%-host%.invalid:4000", err)
    end)

    it("an unreachable address, within o.timeout", function()
      local c, err = ws.connect("ws://192.0.2.1:9/ws", { timeout = 0.3 })
      assert.is_nil(c)
      assert.matches("192.0.2.1:9", err, 1, true)
    end)

    it("a server that never answers the handshake, within o.timeout", function()
      assert.is_number(silent, "the echo server's silent port")
      local c, err = ws.connect("ws://127.0.0.1:" .. silent .. "/ws", { timeout = 0.3 })
      assert.is_nil(c)
      assert.matches("no answer within 0.3 s (o.timeout)", err, 1, true)
    end)

    it("an IPv6 address where nothing listens, named in brackets", function()
      local c, err = ws.connect("ws://[::1]:" .. port .. "/ws", { timeout = 5 })
      assert.is_nil(c)
      assert.matches("[::1]:" .. port, err, 1, true)
    end)

    it("a server that does not speak the protocol asked for", function()
      local c, err = ws.connect(url(), { protocol = "not.diloti" })
      assert.is_nil(c)
      assert.matches("closed the connection during the handshake", err, 1, true)
    end)

    it("wss to a server without TLS (or says this build has no TLS)", function()
      local c, err = ws.connect("wss://127.0.0.1:" .. port .. "/ws", { timeout = 5 })
      assert.is_nil(c)
      if ws.tls then
        assert.matches("cannot connect", err)
      else
        assert.matches("wss is not supported by this build", err)
      end
    end)

    it("malformed URLs, saying what is wrong", function()
      local cases = {
        { "", "must start with ws://" },
        { "127.0.0.1:80/ws", "must start with ws://" },
        { "http://127.0.0.1/ws", "not http" },
        { "ftp://x/y", "must start with ws://" },
        { "ws://", "no host" },
        { "ws:///ws", "no host" },
        { "ws://:80/ws", "no host" },
        { "ws://127.0.0.1:0/ws", "port" },
        { "ws://127.0.0.1:65536/ws", "port" },
        { "ws://127.0.0.1:99999999/ws", "port" },
        { "ws://127.0.0.1:/ws", "port" },
        { "ws://127.0.0.1:8x/ws", "host holds a bad character" },
        { "ws://user@127.0.0.1/ws", "user name" },
        { "ws://a b/ws", "bad character" },
        { "ws://[::1/ws", "IPv6" },
        { "ws://127.0.0.1/ws#frag", "fragment" },
        { "ws://127.0.0.1/w s", "space" },
        { "ws://127.0.0.1/ws\r\nX-Evil: 1", "control character" },
        { "ws://127.0.0.1/\200", "non%-ASCII" },
        { "ws://127.0.0.1\0/ws", "NUL" },
        { "ws://" .. string.rep("a", 300) .. "/ws", "host is too long" },
        { "ws://127.0.0.1/" .. string.rep("a", 5000), "too long" },
      }
      for _, case in ipairs(cases) do
        local c, err = ws.connect(case[1], { timeout = 1 })
        assert.is_nil(c, case[1])
        assert.is_string(err, case[1])
        assert(err:find(case[2]), case[1] .. " -> " .. err)
      end
    end)
  end)

  describe("arguments of the wrong type or size", function()
    local function raises(pattern, f, ...)
      local ok, err = pcall(f, ...)
      assert.is_false(ok)
      assert.matches(pattern, tostring(err))
    end

    it("connect's URL and options", function()
      raises("string expected", ws.connect)
      raises("string expected", ws.connect, {})
      raises("string expected", ws.connect, true)
      raises("table expected", ws.connect, url(), "diloti.v1")
      raises("table expected", ws.connect, url(), 5)
      raises("unknown option", ws.connect, url(), { timout = 1 })
      raises("unknown option", ws.connect, url(), { "positional" })
      raises("o.protocol must be a string", ws.connect, url(), { protocol = 1 })
      raises("o.protocol must be 1 to", ws.connect, url(), { protocol = "" })
      raises("o.protocol must be 1 to", ws.connect, url(), { protocol = string.rep("p", 200) })
      raises("o.protocol holds a bad character", ws.connect, url(), { protocol = "a b" })
      raises("o.protocol holds a bad character", ws.connect, url(), { protocol = "a,b" })
      raises("o.origin holds a bad character", ws.connect, url(), { origin = "x\r\nSet-Cookie: a" })
      raises("o.origin must be a string", ws.connect, url(), { origin = {} })
      raises("o.source holds a bad character", ws.connect, url(), { source = "eth0; rm" })
      raises("o.source must be a string", ws.connect, url(), { source = 127 })
      raises("o.source must be 1 to", ws.connect, url(), { source = string.rep("1", 50) })
      raises("o.origin must be 1 to", ws.connect, url(), { origin = string.rep("o", 2000) })
      raises("o.timeout must be a number", ws.connect, url(), { timeout = "5" })
      raises("o.timeout must be from", ws.connect, url(), { timeout = 0 })
      raises("o.timeout must be from", ws.connect, url(), { timeout = -1 })
      raises("o.timeout must be from", ws.connect, url(), { timeout = 0 / 0 })
      raises("o.timeout must be from", ws.connect, url(), { timeout = math.huge })
      raises("o.max must be from", ws.connect, url(), { max = 0 })
      raises("o.max must be from", ws.connect, url(), { max = 2 ^ 40 })
      raises("o.max must be a whole number", ws.connect, url(), { max = 10.5 })
      raises("o.max must be a number", ws.connect, url(), { max = "10" })
    end)

    it("send, recv, close and fd, on open and closed clients", function()
      local c = open()
      raises("string expected", c.send, c)
      raises("string expected", c.send, c, {})
      raises("string expected", c.send, c, nil)
      raises("number expected", c.recv, c, "soon")
      raises("at least 0", c.recv, c, -1)
      raises("at least 0", c.recv, c, 0 / 0)
      raises("wsclient expected", c.send, "not a client", "x")
      raises("wsclient expected", c.recv, {}, 1)
      raises("wsclient expected", c.close, io.stdout)
      raises("wsclient expected", c.fd, nil)
      -- the client still works after all that
      c:send("after")
      assert.equal("after", c:recv(5))
      c:close()
      raises("string expected", c.send, c, 42 == 0)
      assert.equal("closed", select(2, c:send("x")))
      assert.equal("closed", select(2, c:recv(1)))
      raises("number expected", c.recv, c, {})
      assert.is_nil(c:fd())
    end)

    it("a message too large to send", function()
      local c = open()
      local ok, err = pcall(c.send, c, string.rep("x", 64 * 1024 * 1024 + 1))
      assert.is_false(ok)
      assert.matches("larger than 64 MiB", err)
      c:send("fine")
      assert.equal("fine", c:recv(5))
      c:close()
    end)
  end)
end)
