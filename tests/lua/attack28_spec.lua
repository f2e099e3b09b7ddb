-- Two server messages seen by an attacker before the browser table ships:
-- the lobby's `catalogue` and the rooms' `presence` (docs/protocol.md).
-- Each attempt runs against a real `diloti serve` of the test's own
-- (127.0.0.1, port 0, data in a temporary folder, stopped at the end;
-- every wait bounded), except the lobby's memory of addresses, which
-- needs more addresses than a test can connect from.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local S = require "support_server"
local json = require "diloti.match.json"
local core = require "diloti.core"

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

local srv

local function send(c, msg)
  if type(msg) == "string" then return c:send(msg) end
  msg.v = msg.v or 1
  return c:send(json.encode(msg))
end

-- The next frame: decoded, and its text.
local function recv(c, t)
  local text, why = c:recv(t or 5)
  if not text then return nil, why end
  return json.decode(text), text
end

-- Reads until pred(frame): that frame. Fails after t seconds.
local function wait(c, pred, t)
  local deadline = os.time() + (t or 10)
  while os.time() <= deadline do
    local m, text = recv(c, 1)
    if m and pred(m) then return m, text end
  end
  error("no such frame in time")
end

local function answer(c) return wait(c, function(f) return f.type ~= "presence" end) end

local function serves()
  if not S.alive(srv) then return false end
  local c = S.client(srv)
  send(c, { type = "ping", id = 77 })
  local p = wait(c, function(f) return f.type == "pong" end)
  c:close()
  return p.id == 77
end

local function create(o)
  local c = S.client(srv)
  o.type = "create"
  send(c, o)
  local m = recv(c, 20)
  c:close()
  assert.equal("created", m and m.type, json.encode(m))
  return m
end

-- The catalogue, as text and decoded, on a new connection.
local function catalogue()
  local c = S.client(srv, { max = 1 << 20 })
  send(c, { type = "catalogue" })
  local m, text = recv(c, 10)
  c:close()
  assert.equal("catalogue", m and m.type, text)
  return m, text
end

-- The server's CPU time so far, in seconds (user and system).
local function cpu()
  local t = S.read("/proc/" .. srv.pid .. "/stat") or ""
  local f = {}
  for x in (t:match("%) (.*)$") or ""):gmatch("%S+") do f[#f + 1] = x end
  return ((tonumber(f[12]) or 0) + (tonumber(f[13]) or 0)) / 100
end

-- A byte below space or DEL: what core.plain takes out.
local function has_control(s) return s:find("[%z\1-\31\127]") ~= nil end

-- Every text inside a decoded value.
local function texts_of(v, out)
  out = out or {}
  if type(v) == "string" then out[#out + 1] = v
  elseif type(v) == "table" then
    for k, x in pairs(v) do
      texts_of(k, out)
      texts_of(x, out)
    end
  end
  return out
end

local function keys(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = k end
  table.sort(out)
  return table.concat(out, ",")
end

-- ---------------------------------------------------------------------

describe("attack 28: the catalogue", function()
  setup(function() srv = S.start { data = tmp .. "/data1" } end)
  teardown(function() S.stop(srv) end)

  it("odd requests: refused with a code, the connection goes on and gets the catalogue after", function()
    local c = S.client(srv, { max = 1 << 20 })
    local cases = {
      { '{"v":2,"type":"catalogue"}', "bad-version" },
      { '{"type":"catalogue"}', "bad-version" },
      { '{"v":"1","type":"catalogue"}', "bad-version" },
      { '{"v":1.5,"type":"catalogue"}', "bad-version" },
      { '{"v":1,"type":"Catalogue"}', "unknown-type" },
      { '{"v":1,"type":"catalogue","x":1}', "bad-field" },
      { '{"v":1,"type":"catalogue","games":"all"}', "bad-field" },
      { '{"v":1,"type":"catalogue","x":{"y":1}}', "bad-json" },
      { '{"v":1,"type":"catalogue","x":[1,2]}', "bad-json" },
      { '{"v":1,"type":"catalogue","room":"' .. ("a"):rep(64) .. '"}', "bad-field" },
      { '["catalogue"]', "bad-message" },
      { '"catalogue"', "bad-json" },
      { "null", "bad-json" },
      { "[]", "bad-json" },
      { "1", "bad-json" },
      { '{"v":1,"type":"catalogue"', "bad-json" },
      { '{"v":1,"type":"catalogue","pad":"' .. ("x"):rep(5000) .. '"}', "too-large" },
      { '{"v":1,"type":"catalogue","z":{"type":"create"},"pad":"' .. ("x"):rep(5000) .. '"}', "too-large" },
    }
    for _, case in ipairs(cases) do
      send(c, case[1])
      local m, text = answer(c)
      assert.equal("error", m.type, case[1]:sub(1, 80) .. " -> " .. text:sub(1, 200))
      -- (a refused message may come back as one of two codes where the
      -- reader cannot tell which it is; the catalogue must never come)
      if case[2] == "bad-json" then
        assert.truthy(m.code == "bad-json" or m.code == "bad-message", case[1] .. " -> " .. m.code)
      else
        assert.equal(case[2], m.code, case[1]:sub(1, 80))
      end
      assert.falsy(has_control(m.message))
    end
    send(c, { type = "catalogue" })
    assert.equal("catalogue", answer(c).type)
    c:close()
    assert.is_true(serves())
  end)

  it("names no path, no environment, no script source, no uploaded AI of any room", function()
    -- a room with an uploaded AI whose name and words must stay its room's
    local src = [[return { name = "upload-sneaky-zq", game = "diloti",
      description = "SNEAKY-DESCRIPTION-ZQ", choose = function(ctx) return ctx.moves[1] end }]]
    create { rules = "diloti", players = 2, seats = { "person", "script" }, script = src,
      script_name = "upload-sneaky-zq" }
    local m, text = catalogue()
    assert.falsy(text:find("sneaky", 1, true))
    assert.falsy(text:find("SNEAKY", 1, true))
    local home, cwd = os.getenv("HOME"), io.popen("pwd"):read("l")
    for _, s in ipairs(texts_of(m)) do
      assert.falsy(s:find("^/"), s)
      assert.falsy(s:find("%.lua"), s)
      assert.falsy(s:find("function", 1, true) or s:find("return {", 1, true), s)
      assert.falsy(s:find(tmp, 1, true), s)
      assert.falsy(cwd and #cwd > 1 and s:find(cwd, 1, true), s)
      assert.falsy(home and #home > 1 and s:find(home, 1, true), s)
      assert.falsy(has_control(s), s)
    end
    -- only the fields docs/protocol.md gives, each kind of thing plain
    assert.equal("ai,games,house_rules,seq,type,v", keys(m))
    for _, g in ipairs(m.games) do assert.equal("house,id,players,rules,title", keys(g)) end
    for game, list in pairs(m.house_rules) do
      for _, v in ipairs(list) do
        for k in pairs(v) do
          assert.truthy(k == "name" or k == "description" or k == "rule" or k == "arg" or k == "tables",
            game .. ": " .. k)
        end
        assert.truthy(v.arg == nil or type(v.arg) == "string")
        -- (the tables: ids of the catalogue's own games, nothing else)
        local ids = {}
        for _, g in ipairs(m.games) do ids[g.id] = true end
        for _, t in ipairs(v.tables) do assert.truthy(ids[t], game .. ": " .. tostring(t)) end
      end
    end
    for _, a in pairs(m.ai) do
      assert.equal("levels,shipped", keys(a))
      for _, s in ipairs(a.shipped) do assert.equal("description,name", keys(s)) end
    end
  end)

  -- (the catalogue was encoded again for each request: ~0.3 ms of the
  -- loop every room's frames go through, 8 times a ping)
  it("asked a thousand times costs the server about what a thousand pings do", function()
    local function cost(msg, n)
      local c = S.client(srv, { max = 1 << 20 })
      local before, got = cpu(), 0
      for i = 1, n do
        send(c, msg)
        -- (read as we go: a client that does not is closed at 8 MiB)
        if i % 50 == 0 then
          while got < i do
            assert.truthy(recv(c, 5))
            got = got + 1
          end
        end
      end
      c:close()
      return cpu() - before
    end
    cost({ type = "ping", id = 1 }, 100) -- (warm)
    cost({ type = "catalogue" }, 100)
    local pings = cost({ type = "ping", id = 1 }, 1000)
    local cats = cost({ type = "catalogue" }, 1000)
    assert.truthy(cats <= 2 * pings + 0.08,
      string.format("1000 catalogues took %.2f s of the server's CPU, 1000 pings %.2f s", cats, pings))
    assert.is_true(serves())
  end)
end)

describe("attack 28: the catalogue at the server's own rate", function()
  setup(function() srv = S.start { data = tmp .. "/data2", args = "--rate 10" } end)
  teardown(function() S.stop(srv) end)

  it("counts against the connection's and the address's lobby rate, like every lobby message", function()
    local c = S.client(srv, { max = 1 << 22 })
    for _ = 1, 40 do send(c, { type = "catalogue" }) end
    local n, limited = 0, 0
    for _ = 1, 40 do
      local m = recv(c, 5)
      if not m then break end
      if m.type == "catalogue" then n = n + 1 elseif m.code == "rate-limited" then limited = limited + 1 end
    end
    c:close()
    -- (a burst of 20, then 10 a second)
    assert.truthy(n <= 25, n .. " catalogues for 40 requests sent at once")
    assert.truthy(limited >= 15, limited .. " refused")
    -- many connections of one address share the address's bucket
    local conns, answered = {}, 0
    for i = 1, 8 do
      conns[i] = S.client(srv, { max = 1 << 22 })
      for _ = 1, 15 do send(conns[i], { type = "catalogue" }) end
    end
    for _, x in ipairs(conns) do
      for _ = 1, 15 do
        local m = recv(x, 5)
        if not m then break end
        if m.type == "catalogue" then answered = answered + 1 end
      end
      x:close()
    end
    assert.truthy(answered <= 60, answered .. " catalogues for 120 requests from one address")
    S.sleep(2.5)
    assert.is_true(serves())
  end)
end)

-- The operator's own folder ($XDG_CONFIG_HOME/diloti) holds house rules
-- the catalogue lists; docs/security.md counts them untrusted.
describe("attack 28: the catalogue and the operator's house rules", function()
  local cfg = tmp .. "/config"
  setup(function()
    os.execute("mkdir -p " .. support.q(cfg .. "/diloti/rules-variants/diloti"))
    support.write(cfg .. "/diloti/rules-variants/diloti/loud.lua", [[
      return { name = "loud", description = "a <b>bold</b> house rule",
        rule = "V-\27[31m<script>alert(1)</script>\1" .. ("x"):rep(20000),
        arg = { name = { deep = { ("y"):rep(100) } } },
        rules = function(r) return r end }]])
    -- (a main chunk that takes its whole time: read in the loop, it held
    -- every room's frames for as long)
    support.write(cfg .. "/diloti/rules-variants/diloti/slow.lua", [[
      local n = 0
      for _ = 1, 100000 do n = n + #("x"):rep(1e6) end
      return { name = "slow", description = "slow", rules = function(r) return r end }]])
    srv = S.start { data = tmp .. "/data3", env = "XDG_CONFIG_HOME=" .. support.q(cfg) }
  end)
  teardown(function() S.stop(srv) end)

  it("the first request does not stop the server while the folders are read", function()
    local a = S.client(srv, { max = 1 << 20 })
    local b = S.client(srv)
    local t0 = core.clock()
    send(a, { type = "catalogue" })
    send(b, { type = "ping", id = 5 })
    assert.equal(5, wait(b, function(f) return f.type == "pong" end).id)
    local took = core.clock() - t0
    assert.equal("catalogue", wait(a, function(f) return f.type == "catalogue" end, 20).type)
    a:close()
    b:close()
    assert.truthy(took < 0.8, string.format("a ping waited %.2f s behind the first catalogue", took))
  end)

  it("a house rule's rule id and argument reach it as one short line of plain text", function()
    local m, text = catalogue()
    local loud
    for _, v in ipairs(m.house_rules.diloti) do if v.name == "loud" then loud = v end end
    assert.truthy(loud, "the operator's house rule is listed")
    assert.truthy(#text < 20000, #text .. " bytes of catalogue")
    assert.truthy(loud.rule == nil or (#loud.rule <= 40 and not has_control(loud.rule)), tostring(loud.rule))
    assert.truthy(type(loud.arg) == "string" and #loud.arg <= 20, json.encode(loud.arg))
    for _, s in ipairs(texts_of(m)) do assert.falsy(has_control(s), s) end
  end)
end)

-- ---------------------------------------------------------------------

describe("attack 28: presence", function()
  setup(function() srv = S.start { data = tmp .. "/data4" } end)
  teardown(function() S.stop(srv) end)

  local function join(link)
    local c, w = S.join(srv, link)
    assert.equal("welcome", w.type, json.encode(w))
    return c, w
  end

  -- Every frame c is sent within t seconds (texts and decoded).
  local function drain(c, t, into)
    into = into or { texts = {} }
    local deadline = core.clock() + t
    while core.clock() < deadline do
      local m, text = recv(c, 0.2)
      if m then
        into[#into + 1] = m
        into.texts[#into.texts + 1] = text
      end
    end
    return into
  end

  it("a spectator and a seat learn no token, no address and no name from presence or welcome", function()
    local m = create { rules = "diloti", players = 4, seats = { "person", "ai", "person", "ai" }, pace = 0, seed = 3 }
    local secrets = { (select(2, S.parse(m.watch))) }
    for _, s in ipairs(m.seats) do secrets[#secrets + 1] = select(2, S.parse(s.link)) end
    local w, ww = join(m.watch)
    local a, wa = join(m.seats[1].link)
    local seen_w, seen_a = { ww, texts = { json.encode(ww) } }, { wa, texts = { json.encode(wa) } }
    local st = wait(a, function(f) return f.type == "state" and f.moves end, 20)
    send(a, { type = "move", move = st.moves[1] })
    local b = join(m.seats[2].link)
    b:close()
    drain(w, 2, seen_w)
    drain(a, 0.5, seen_a)
    for _, seen in ipairs { seen_w, seen_a } do
      for _, text in ipairs(seen.texts) do
        for _, tok in ipairs(secrets) do assert.falsy(text:find(tok, 1, true), "a token in " .. text:sub(1, 120)) end
        assert.falsy(text:find(m.room, 1, true), "the room's id in " .. text:sub(1, 120))
        assert.falsy(text:find("127.0.0.1", 1, true), text:sub(1, 120))
      end
    end
    local presences = 0
    for _, f in ipairs(seen_w) do
      if f.type == "presence" then
        presences = presences + 1
        assert.equal("connected,seq,type,v,watching", keys(f))
        for k, v in pairs(f.connected) do
          assert.truthy(k:match("^%d$"))
          assert.is_boolean(v)
        end
        assert.is_false(f.connected["1"]) -- (an AI's seat)
      end
    end
    assert.truthy(presences >= 2, "the spectator heard seat 2 come and go")
    assert.equal(1, ww.watching)
    assert.is_nil(ww.seat)
    assert.is_nil(ww.token)
    assert.equal("connected,game,history,names,players,resume,rules,seats,seq,spectator,type,v,watching", keys(ww))
    a:close()
    w:close()
  end)

  it("names with control characters, markup and length reach every frame as one short plain line", function()
    local loud = "\27[31m<img src=x onerror=alert(1)>\n\r\t\0" .. ("W"):rep(200)
    local m = create { rules = "diloti", players = 2, seats = { "person", "person" }, names = { loud, "\u{202E}evil" },
      takeover = 1 }
    for _, s in ipairs(m.seats) do assert.truthy(#s.name <= 32 and not has_control(s.name), s.name) end
    local w, ww = join(m.watch)
    for _, n in pairs(ww.names) do
      assert.truthy(#n <= 32 and not has_control(n), n)
      assert.falsy(n:find("\u{202E}", 1, true))
    end
    -- a chair taken over by an AI, and given back: the `seat` frames say the name
    local a = join(m.seats[1].link)
    a:close()
    local f = wait(w, function(x) return x.type == "seat" end, 10)
    assert.truthy(#f.name <= 32 and not has_control(f.name), f.name)
    w:close()
  end)

  -- (a seat's link joined and left in a loop made every viewer of the
  -- room two presence frames a round: from many addresses, a flood)
  it("a seat joined and left again and again: the others hear at most a couple of presence frames a second", function()
    local m = create { rules = "diloti", players = 2, seats = { "person", "person" }, takeover = 0 }
    local w = join(m.watch)
    local a = join(m.seats[1].link)
    drain(w, 0.5)
    local t0 = core.clock()
    for _ = 1, 60 do
      local c = join(m.seats[2].link)
      c:close()
      S.sleep(0.01)
    end
    local seen = drain(w, 1.5)
    local took = core.clock() - t0
    local n, last = 0, nil
    for _, f in ipairs(seen) do
      if f.type == "presence" then
        n = n + 1
        last = f
      end
    end
    assert.truthy(n <= took * 2 + 3, string.format("%d presence frames in %.1f s", n, took))
    -- what was held back is told once things are quiet: seat 1 is gone
    assert.truthy(last, "a presence came")
    assert.same({ ["0"] = true, ["1"] = false }, last.connected)
    -- a joiner's welcome says how things are now, whatever waits
    local x, wx = join(m.seats[2].link)
    assert.same({ ["0"] = true, ["1"] = true }, wx.connected)
    x:close()
    a:close()
    w:close()
    assert.is_true(serves())
  end)

  it("spectators coming and going in numbers tell nobody; each welcome counts them", function()
    local m = create { rules = "diloti", players = 2, seats = { "person", "person" } }
    local a = join(m.seats[1].link)
    drain(a, 0.3)
    local held = {}
    for i = 1, 20 do held[i] = join(m.watch) end
    for i = 1, 10 do held[i]:close() end
    local n = 0
    for _, f in ipairs(drain(a, 1)) do if f.type == "presence" then n = n + 1 end end
    assert.equal(0, n)
    local x, wx = join(m.watch)
    assert.equal(11, wx.watching)
    x:close()
    for i = 11, 20 do held[i]:close() end
    a:close()
  end)
end)

-- The host's side of it, on a clock of the test's own.
describe("attack 28: presence held back within its gap", function()
  it("changes within the gap wait and are told together; one that undoes itself is not told", function()
    local room = require "diloti.room"
    local protocol = require "diloti.server.protocol"
    local now = 100
    local r = assert(room.new { rules = "diloti", players = 2, humans = 2, seed = 5, match = false })
    local h = protocol.host(r, { presence = true, presence_gap = 0.5, random = support.counting_random(),
      clock = function() return now end })
    h:start()
    local frames = {} -- (the watcher's)
    local function conn(token, mine)
      local c = h:connect(function(text) if mine then frames[#frames + 1] = json.decode(text) end end)
      c:receive(json.encode { v = 1, type = "hello", room = h.id, token = token })
      return c
    end
    local function presences()
      local n, last = 0, nil
      for _, f in ipairs(frames) do if f.type == "presence" then n, last = n + 1, f end end
      return n, last
    end
    conn(h.watch, true)
    assert.equal(1, (presences())) -- (the first is told at once)
    for _ = 1, 50 do conn(h.seat_tokens[0]):close() end
    assert.equal(1, (presences()))
    -- seat 0 came and went: as it was told, so nothing waits
    assert.is_nil(h:presence_due())
    local a = conn(h.seat_tokens[0])
    assert.equal(100.5, h:presence_due())
    now = 100.4
    h:tell_presence()
    assert.equal(1, (presences()))
    now = 100.5
    h:tell_presence()
    local n, last = presences()
    assert.equal(2, n)
    assert.same({ ["0"] = true, ["1"] = false }, last.connected)
    assert.is_nil(h:presence_due())
    a:close()
    assert.equal(101, h:presence_due())
  end)
end)

-- ---------------------------------------------------------------------

-- The lobby runs in the process here, over a stand-in for the network:
-- a test cannot connect from a hundred thousand addresses, an IPv6
-- client can.
describe("attack 28: the lobby's memory of addresses", function()
  it("an address's buckets are forgotten once full again: a stream of new addresses keeps no table growing", function()
    local serve = require "diloti.server.serve"
    local now = 0
    local pongs = 0
    local fake = {
      send = function(_, _, text) if text:find('"pong"', 1, true) then pongs = pongs + 1 end end,
      close = function() end, info = function() return { rooms = 0 } end,
      bind = function() return false end, spawn = function() return false end,
    }
    local lobby = serve.lobby(fake, { clock = function() return now end })
    local handler = lobby:handler()
    local ping = json.encode { v = 1, type = "ping", id = 1 }
    for i = 1, 30000 do
      local addr = string.format("2001:db8::%x", i)
      handler("open", i, addr)
      handler("message", i, ping)
      handler("close", i)
      if i % 100 == 0 then now = now + 1 end
    end
    assert.equal(30000, pongs)
    local n = 0
    for _ in pairs(lobby.lobby_rates) do n = n + 1 end
    assert.truthy(n <= 5000, n .. " addresses' buckets kept")
    -- an address still within its bucket is remembered, however many
    -- others come meanwhile: 40 messages at once, whatever its connections
    pongs = 0
    for i = 1, 100 do
      handler("open", 40000 + i, "2001:db8::beef")
      handler("message", 40000 + i, ping)
      handler("close", 40000 + i)
      for j = 1, 50 do
        local other = 50000 + i * 100 + j
        handler("open", other, string.format("2001:db8:1::%x", other))
        handler("message", other, ping)
        handler("close", other)
      end
    end
    assert.equal(40, pongs - 100 * 50)
  end)
end)
