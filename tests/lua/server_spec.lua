-- `diloti serve` as its clients meet it: a real server started by the
-- test on a free loopback port (tests/lua/support_server.lua), clients
-- over WebSocket (diloti.wsclient). Rooms made, joined and played to the
-- end in every game with people and AIs; refusals; every frame to every
-- client checked for cards its viewer may not know; a socket killed and
-- the client back where it was; a person gone and an AI in the chair,
-- then the person back; an uploaded AI that loops or eats memory; hostile
-- clients; rooms that do not wait for each other.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local S = require "support_server"
local json = require "diloti.match.json"
local diloti = require "diloti"

local srv

-- Plays seat's moves (the first legal one, or choose(frame)) until
-- stop(frame) holds; returns the frames read.
local function play(c, seat, stop, choose, all)
  all = all or { texts = {} }
  local deadline = os.time() + 120
  while os.time() < deadline do
    local f, text = S.recv(c, 5)
    assert(f, "no frame: " .. tostring(text))
    all[#all + 1] = f
    all.texts[#all.texts + 1] = text
    if stop(f) then return all end
    if f.type == "state" and f.turn == seat and f.moves then
      S.send(c, { type = "move", move = choose and choose(f) or 1 })
    elseif f.type == "error" and f.code == "rate-limited" then
      S.sleep(0.3)
      S.send(c, { type = "move", move = 1 })
    end
  end
  error("the game did not end in time")
end

local function match_over(f) return f.type == "result" and f.kind == "match" end

-- A raw HTTP request (bash's /dev/tcp: the path goes out as written).
local function http(port, request)
  local file = support.scratch()
  local f = assert(io.open(file, "wb"))
  f:write(request)
  f:close()
  local p = io.popen(string.format(
    "timeout 5 bash -c 'exec 3<>/dev/tcp/127.0.0.1/%d; cat %s >&3; cat <&3' 2>/dev/null", port, file))
  local out = p:read("a")
  p:close()
  os.remove(file)
  return out
end

describe("diloti serve", function()
  setup(function() srv = S.start() end)
  teardown(function() S.stop(srv) end)

  it("serves its web pages, and nothing outside their folder", function()
    local home = http(srv.port, "GET / HTTP/1.0\r\n\r\n")
    assert.truthy(home:find("200 OK", 1, true))
    assert.truthy(home:find("diloti join", 1, true))
    assert.truthy(home:find('data-page="lobby"', 1, true))
    -- (the table at /play/ and /watch/; /play is sent on there, the room
    -- and token after '#' stay with the browser)
    for _, path in ipairs { "/play/", "/watch/" } do
      local page = http(srv.port, "GET " .. path .. " HTTP/1.0\r\n\r\n")
      assert.truthy(page:find("200 OK", 1, true), path)
      assert.truthy(page:find('data-page="table"', 1, true), path)
    end
    local moved = http(srv.port, "GET /play HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"):lower()
    assert.truthy(moved:find("^http/1%.%d 301") and moved:find("location: [^\r]*/play/"), moved)
    for _, path in ipairs { "/../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc/passwd",
      "/play/../../etc/passwd", "//etc/passwd", "/web/../README.md" } do
      local r = http(srv.port, "GET " .. path .. " HTTP/1.0\r\n\r\n")
      assert.falsy(r:find("root:", 1, true), path)
      assert.falsy(r:find("diloti serve", 1, true), path)
    end
  end)

  it("the lobby's catalogue: games, player counts, house rules described, AI levels and shipped AIs", function()
    local c = S.client(srv)
    S.send(c, { type = "catalogue" })
    local m = S.wait(c, function(f) return f.type == "catalogue" or f.type == "error" end)
    c:close()
    assert.equal("catalogue", m.type, m.message)
    local games = {}
    for _, g in ipairs(m.games) do games[g.id] = g end
    for id, want in pairs { ["diloti-2"] = { "diloti", 2 }, ["diloti-4"] = { "diloti", 4 },
      ["kontsina-2"] = { "kontsina", 2 }, ["kontsina-3"] = { "kontsina", 3 },
      ["kontsina-4"] = { "kontsina+players=4", 4 },
      pilotta = { "pilotta", 4 } } do
      assert.is_table(games[id], id)
      assert.equal(want[1], games[id].rules, id)
      assert.equal(want[2], games[id].players, id)
      assert.is_string(games[id].title)
      assert.is_table(m.house_rules[games[id].house], id)
      assert.is_table(m.ai[games[id].house], id)
    end
    local by_name = {}
    for _, v in ipairs(m.house_rules.diloti) do by_name[v.name] = v end
    assert.truthy(by_name["forced-capture"].description:find("capture", 1, true))
    assert.is_nil(by_name.diloti) -- (the bases are the games, not house rules)
    assert.is_nil(by_name.players) -- (players and target have fields of their own)
    assert.equal("N", by_name.points.arg)
    -- each house rule names the tables it can be played at, as the engine
    -- takes them: Kontsina's own not at Diloti's, partnerships at four
    assert.same({ "kontsina-2", "kontsina-3", "kontsina-4" }, by_name.points.tables)
    assert.same({ "diloti-2", "diloti-4" }, by_name.soy.tables)
    assert.same({ "kontsina-4" }, by_name.teams.tables)
    local teams = S.create(srv, { rules = games["kontsina-4"].rules .. "+teams", players = 4,
      seats = { "person", "ai", "ai", "ai" } })
    assert.equal("created", teams.type, teams.message)
    local pil = {}
    for _, v in ipairs(m.house_rules.pilotta) do pil[v.name] = v end
    assert.is_table(pil["no-contra"])
    assert.same({ "easy", "normal", "hard", "expert" }, m.ai.pilotta.levels)
    local shipped = {}
    for _, a in ipairs(m.ai.diloti.shipped) do shipped[a.name] = a.description end
    assert.is_string(shipped.master)
    -- every seat a catalogue offers makes a room
    local r = S.create(srv, { rules = games["kontsina-3"].rules, players = 3,
      seats = { "person", "ai:" .. m.ai.diloti.levels[1], "ai:" .. m.ai.diloti.shipped[1].name } })
    assert.equal("created", r.type, r.message)
  end)

  it("creates rooms: links for the people's seats and a watch link; bad options refused with why", function()
    local m = S.create(srv, { rules = "pilotta", players = 4, seats = { "person", "ai:normal", "person", "ai" } })
    assert.equal("created", m.type)
    assert.equal(2, #m.seats)
    for _, s in ipairs(m.seats) do
      local room, token, kind = S.parse(s.link)
      assert.equal(m.room, room)
      assert.equal(64, #token)
      assert.equal("play", kind)
    end
    assert.equal("watch", select(3, S.parse(m.watch)))
    local bad = {
      { { rules = "pilotta", players = 4, seats = { "person" } }, "4 players" },
      { { rules = "no-such-game", players = 2, seats = { "person", "ai" } }, "" },
      { { rules = "diloti", players = 2, seats = { "person", "robot" } }, "seat 1" },
      { { rules = "diloti", players = 2, seats = { "person", "ai:../../x" } }, "seat 1" },
      { { rules = "diloti", players = 2, seats = { "person", "script" } }, "script" },
      { { rules = "diloti", players = 2, seats = { "person", "ai" }, colour = "red" }, "colour" },
      { { rules = "diloti", players = 2, seats = { "person", "ai" }, takeover = -1 }, "takeover" },
      { { rules = "diloti; rm", players = 2, seats = { "person", "ai" } }, "rules" },
    }
    for _, b in ipairs(bad) do
      local r = S.create(srv, b[1])
      assert.equal("error", r.type, json.encode(b[1]))
      assert.equal("bad-room", r.code)
      assert.truthy(r.message:find(b[2], 1, true), r.message)
    end
  end)

  for _, g in ipairs {
    { rules = "diloti", players = 2, seats = { "person", "ai:normal" } },
    { rules = "diloti", players = 4, seats = { "person", "ai", "person", "ai:expert" } },
    { rules = "kontsina", players = 3, seats = { "ai", "person", "ai" } },
    { rules = "pilotta", players = 4, seats = { "person", "ai", "ai:cautious", "person" } },
  } do
    it(string.format("a whole match of %s for %d over the network, people and AIs", g.rules, g.players), function()
      g.pace, g.target = 0, 1
      local m = S.create(srv, g)
      assert.equal("created", m.type, json.encode(m))
      local clients = {}
      for _, s in ipairs(m.seats) do
        local c, w = S.join(srv, s.link)
        assert.equal("welcome", w.type)
        assert.equal(s.seat, w.seat)
        clients[#clients + 1] = { c = c, seat = s.seat, done = false }
      end
      -- (each person plays in turn; a person whose turn it is not reads on)
      local deadline = os.time() + 120
      local over = 0
      while over < #clients and os.time() < deadline do
        for _, cl in ipairs(clients) do
          if not cl.done then
            local f = S.recv(cl.c, 0.05)
            if f and match_over(f) then
              cl.done = true
              over = over + 1
            elseif f and f.type == "state" and f.turn == cl.seat and f.moves then
              S.send(cl.c, { type = "move", move = 1 })
            end
          end
        end
      end
      assert.equal(#clients, over)
      for _, cl in ipairs(clients) do cl.c:close() end
    end)
  end

  it("a refusal names the rule; out of turn and another seat's move are errors; the game goes on", function()
    local m = S.create(srv, { rules = "diloti", players = 2, seats = { "person", "ai" }, pace = 2, seed = 3 })
    local c = S.join(srv, m.seats[1].link)
    local st = S.wait(c, function(f) return f.type == "state" and f.turn == 0 end)
    local v = st.view
    -- a card of the hand on a table card of another rank: no such capture
    local h, t
    for _, x in ipairs(v.hand) do
      for _, y in ipairs(v.table.loose) do
        if x:sub(1, -2) ~= y:sub(1, -2) then h, t = x, y end
      end
    end
    S.send(c, { type = "move", move = h .. " x " .. t })
    local r = S.wait(c, function(f) return f.type == "refusal" end)
    assert.truthy(r.rule and r.rule:match("^D%d+"), json.encode(r))
    S.send(c, { type = "move", move = 1, seat = 1 })
    assert.equal("not-your-seat", S.wait(c, function(f) return f.type == "error" end).code)
    S.send(c, { type = "move", move = 1 })
    S.wait(c, function(f) return f.type == "event" and f.event.seat == 0 end)
    -- (the AI waits 2 s before it moves: it is not seat 0's turn)
    S.send(c, { type = "move", move = 1 })
    assert.equal("out-of-turn", S.wait(c, function(f) return f.type == "error" end).code)
    c:close()
  end)

  it("a client whose socket was killed comes back with its last seq and misses nothing", function()
    local m = S.create(srv, { rules = "diloti", players = 2, seats = { "person", "ai" }, pace = 0.2 })
    local c = S.join(srv, m.seats[1].link)
    local f = S.wait(c, function(x) return x.type == "state" and x.turn == 0 end)
    local seen = f.seq
    S.send(c, { type = "move", move = 1 })
    c:close() -- (killed before the AI's answer)
    S.sleep(0.6)
    local c2, w2 = S.join(srv, m.seats[1].link, seen)
    assert.equal("replay", w2.resume)
    local frames = {}
    local g = S.wait(c2, function(x)
      frames[#frames + 1] = x
      return x.type == "state" and x.turn == 0
    end)
    assert.equal(seen + 1, frames[1].seq)
    for i = 2, #frames do assert.equal(frames[i - 1].seq + 1, frames[i].seq) end
    assert.truthy(g.moves)
    c2:close()
  end)

  it("a person gone longer than the room allows: an AI takes the chair; the link takes it back", function()
    local m = S.create(srv, { rules = "diloti", players = 2, seats = { "person", "ai" }, pace = 0.3, takeover = 1 })
    local watch = S.join(srv, m.watch)
    local c = S.join(srv, m.seats[1].link)
    S.wait(c, function(x) return x.type == "state" and x.turn == 0 end)
    c:close()
    local taken = S.wait(watch, function(x) return x.type == "seat" end, 10)
    assert.same({ 0, "ai" }, { taken.seat, taken.kind })
    -- the AI plays seat 0's moves meanwhile
    S.wait(watch, function(x) return x.type == "event" and x.event.type == "move" and x.event.seat == 0 end, 10)
    local c2, w2 = S.join(srv, m.seats[1].link)
    assert.equal(0, w2.seat)
    local back = S.wait(watch, function(x) return x.type == "seat" end, 10)
    assert.same({ 0, "person" }, { back.seat, back.kind })
    local st = S.wait(c2, function(x) return x.type == "state" and x.turn == 0 and x.moves end, 10)
    assert.truthy(#st.moves > 0)
    c2:close()
    watch:close()
  end)

  it("an uploaded AI: it plays; one that loops or eats memory loses its call and the room goes on", function()
    local good = [[return { name = "upload-first", game = "diloti", description = "the first move",
      choose = function(_, moves) return moves[1] end }]]
    local m = S.create(srv, { rules = "diloti", players = 2, seats = { "person", "script" }, script = good,
      script_name = "upload-first",
      pace = 0, target = 1 })
    assert.equal("created", m.type, json.encode(m))
    local c = S.join(srv, m.seats[1].link)
    local frames = play(c, 0, match_over)
    for _, f in ipairs(frames) do assert.is_not.equal("notice", f.type, "the uploaded AI lost a call") end
    c:close()
    for _, body in ipairs { "while true do end", "local t = {} while true do t[#t + 1] = ('x'):rep(1e6) end" } do
      local bad = string.format([[return { name = "upload-bad", game = "diloti", description = "bad",
        choose = function() %s end }]], body)
      local m2 = S.create(srv, { rules = "diloti", players = 2, seats = { "person", "script" }, script = bad,
        script_name = "upload-bad",
        pace = 0, target = 1 })
      assert.equal("created", m2.type, json.encode(m2))
      local c2 = S.join(srv, m2.seats[1].link)
      local told = 0
      for _, f in ipairs(play(c2, 0, match_over)) do
        if f.type == "notice" and f.seat == 1 then told = told + 1 end
      end
      assert.truthy(told > 0)
      c2:close()
    end
  end)

  it("rooms do not wait for each other: a move in one is answered while an AI thinks long in another", function()
    -- (an uploaded AI that counts for most of its budget before it moves:
    -- its room's thread is busy for a good part of a second)
    local slow = [[return { name = "slow-think", game = "diloti", description = "thinks long",
      choose = function(_, moves) local n = 0 for _ = 1, 40000000 do n = n + 1 end return moves[1] end }]]
    local a = S.create(srv, { rules = "diloti", players = 2, seats = { "person", "script" }, script = slow,
      script_name = "slow-think", pace = 0, seed = 6 })
    assert.equal("created", a.type, json.encode(a))
    local b = S.create(srv, { rules = "diloti", players = 2, seats = { "person", "person" }, pace = 0, seed = 6 })
    local ca = S.join(srv, a.seats[1].link)
    S.wait(ca, function(f) return f.type == "state" and f.turn == 0 and f.moves end, 30)
    local b0, b1 = S.join(srv, b.seats[1].link), S.join(srv, b.seats[2].link)
    local st = S.wait(b0, function(f) return f.type == "state" end)
    local mover, other = b0, b1
    if st.turn == 1 then mover, other = b1, b0 end
    S.send(ca, { type = "move", move = 1 }) -- (the slow AI starts to think)
    S.wait(ca, function(f) return f.type == "event" and f.event.seat == 0 end)
    S.send(mover, { type = "move", move = 1 })
    S.wait(other, function(f) return f.type == "event" end)
    -- the other room's AI has not moved yet
    local ai_moved = false
    while true do
      local f = S.recv(ca, 0)
      if not f then break end
      if f.type == "event" and f.event.seat == 1 then ai_moved = true end
    end
    assert.is_false(ai_moved)
    S.wait(ca, function(f) return f.type == "event" and f.event.seat == 1 end, 30)
    for _, c in ipairs { ca, b0, b1 } do c:close() end
  end)

  it("diloti create makes a room from the command line; its links are joined; a bad option is told", function()
    local dir = support.tmpdir()
    local ai = dir .. "/mine.lua"
    support.write(ai, [[return { name = "mine", game = "diloti", description = "the last move",
      choose = function(_, moves) return moves[#moves] end }]])
    local out, err, code = support.cli { "create", "--server", srv.base, "--game", "diloti", "--players", "4",
      "--seat", "person", "--seat", "script", "--seat", "person", "--seat", "ai:expert", "--name", "Ann",
      "--script", ai }
    assert.equal(0, code, err)
    local links = {}
    for kind, link in out:gmatch("diloti (%a+) '([^']+)'") do links[#links + 1] = { kind, link } end
    assert.equal(3, #links, out)
    assert.equal("join", links[1][1])
    assert.truthy(out:find("seat 0 (Ann)", 1, true), out)
    local c, w = S.join(srv, links[1][2])
    assert.equal("AI mine", w.names["1"] or w.names[1])
    c:close()
    local _
    _, err, code = support.cli { "create", "--server", srv.base, "--game", "no-such-game" }
    assert.equal(1, code)
    assert.truthy(err:find("diloti create: ", 1, true), err)
    _, err, code = support.cli { "create", "--server", "http://127.0.0.1:1", "--game", "diloti" }
    assert.equal(1, code)
    assert.truthy(err:find("127.0.0.1", 1, true), err)
  end)

  it("a script that is not an AI, or names a shipped AI, is refused with why", function()
    for _, src in ipairs { "return 42", "this is not Lua", [[return { name = "master", game = "diloti",
      choose = function(_, moves) return moves[1] end }]] } do
      local r = S.create(srv, { rules = "diloti", players = 2, seats = { "person", "script" }, script = src,
        script_name = src:match('name = "(%w+)"') or "mine" })
      assert.equal("error", r.type, src)
      assert.truthy(r.message:find("script", 1, true), r.message)
    end
  end)
end)

describe("diloti serve: nothing hidden on the wire", function()
  setup(function() srv = S.start() end)
  teardown(function() S.stop(srv) end)

  -- Four people and a spectator, in lockstep: after each move every
  -- client reads until its new state; every frame it got is checked
  -- against a game of the test's own, played with the same seed and the
  -- same moves.
  for _, g in ipairs { { rules = "diloti", players = 4 }, { rules = "pilotta", players = 4 } } do
    it(string.format("%s for four: every frame to every seat and the spectator, two rounds", g.rules), function()
      local seats = {}
      for i = 1, g.players do seats[i] = "person" end
      local m = S.create(srv, { rules = g.rules, players = g.players, seats = seats, pace = 0, seed = 11 })
      local mirror = diloti.new { rules = g.rules, players = g.players, seed = 11 }
      local clients = {}
      for _, s in ipairs(m.seats) do clients[#clients + 1] = { c = (S.join(srv, s.link)), viewer = s.seat } end
      clients[#clients + 1] = { c = (S.join(srv, m.watch)), viewer = nil }
      math.randomseed(5)
      local checked, moves = 0, 0
      local function read_all()
        for _, cl in ipairs(clients) do
          local set = support.hidden(mirror, cl.viewer)
          local ok, err = pcall(S.wait, cl.c, function(f)
            local leak = support.leaks(f, set, f.type)
            assert.is_nil(leak, "seat " .. tostring(cl.viewer) .. ": " .. tostring(leak))
            checked = checked + 1
            cl.last = f
            return f.type == "state"
          end, 5)
          assert(ok, string.format("%s (viewer %s, after %d moves, the mirror's phase %s; last frame %s)",
            tostring(err), tostring(cl.viewer), moves, mirror:phase(), json.encode(cl.last or {}):sub(1, 300)))
        end
      end
      read_all()
      local rounds = 0
      while rounds < 2 do
        if mirror:phase() == "round-over" then
          rounds = rounds + 1
          if rounds == 2 then break end
          mirror:next_round()
        else
          local list = mirror:moves()
          local mv = list[math.random(#list)]
          local turn = mirror:turn()
          S.send(clients[turn + 1].c, { type = "move", move = mv })
          assert.truthy(mirror:play(mv))
          moves = moves + 1
        end
        read_all()
      end
      assert.truthy(moves > 20)
      assert.truthy(checked > 5 * moves)
      for _, cl in ipairs(clients) do cl.c:close() end
    end)
  end
end)

describe("diloti serve: killed and started again", function()
  -- The moves of a history (welcome's) as texts.
  local function moves_of(history)
    local out = {}
    for _, h in ipairs(history or {}) do
      if h.move and h.kind ~= "next-round" then out[#out + 1] = h.move end
    end
    return out
  end

  it("SIGKILL at random moments, five times: every move a client saw is kept, every link works", function()
    local data = support.tmpdir() .. "/data"
    local s = S.start { data = data }
    -- (stopped however the test ends: a server left running plays on)
    finally(function() S.stop(s, "KILL") end)
    -- (matches that do not end while the test runs: a finished room is
    -- not started again)
    local people = S.create(s, { rules = "pilotta", players = 4, seats = { "person", "ai", "ai", "ai" }, pace = 0,
      target = 10000 })
    local ais = S.create(s, { rules = "diloti", players = 2, seats = { "ai", "ai" }, pace = 0.01, target = 10000 })
    assert.equal("created", people.type, json.encode(people))
    assert.equal("created", ais.type, json.encode(ais))
    math.randomseed(27)
    local seen = { [people.room] = {}, [ais.room] = {} }
    local last_seq = {}
    local src = { [people.room] = {}, [ais.room] = {} }
    for kill = 1, 5 do
      local clients = {}
      for _, m in ipairs { people, ais } do
        local w, welcome = S.join(s, m.watch)
        assert.equal("welcome", welcome.type, "watch after restart " .. kill)
        -- (the numbers go on: a client never sees a number again)
        assert.truthy(welcome.seq >= (last_seq[m.room] or 0), "the watch stream numbered again from 0")
        local h = moves_of(welcome.history)
        -- (what was seen before the kill is where the room goes on from)
        -- (compared by the first word, the card or the call: an event may
        -- say less than the history (Pilotta's "announce" is "announce (run
        -- of 3, 20)" once the round tells it), and a build on the table may
        -- be written by its cards or by its pile's name)
        for i, mv in ipairs(seen[m.room]) do
          assert.equal(mv:match("^%S+"), h[i] and h[i]:match("^%S+"),
            string.format("kill %d, move %d of %d seen, %d kept (%s; %s)", kill, i, #seen[m.room], #h,
              m.room == people.room and "people" or "AIs", src[m.room][i] or "?"))
        end
        seen[m.room] = h
        src[m.room] = {}
        for i = 1, #h do src[m.room][i] = "history at start " .. kill .. " resume " .. welcome.resume end
        clients[#clients + 1] = { c = w, room = m.room }
      end
      local me, hello = S.join(s, people.seats[1].link)
      assert.equal(0, hello.seat)
      assert.truthy(hello.seq >= (last_seq.me or 0), "the seat's stream numbered again from 0")
      local stop = os.clock() + 0.05 + math.random() * 0.4
      local deadline = os.time() + 5
      while os.clock() < stop and os.time() < deadline do
        local f = S.recv(me, 0.02)
        if f and f.seq and f.seq > 0 then last_seq.me = f.seq end
        if f and f.type == "state" and f.turn == 0 and f.moves then S.send(me, { type = "move", move = 1 }) end
        for _, cl in ipairs(clients) do
          local e = S.recv(cl.c, 0.01)
          if e and e.seq and e.seq > 0 then last_seq[cl.room] = e.seq end
          if e and e.type == "event" and e.event.type == "move" then
            local list = seen[cl.room]
            list[#list + 1] = e.event.move
            src[cl.room][#list] = "event seq " .. e.seq .. " in phase " .. kill
          end
        end
      end
      S.stop(s, "KILL")
      s = S.start { data = data }
    end
    assert.truthy(#seen[ais.room] > 10)
    S.stop(s)
  end)
end)

describe("diloti serve: advice", function()
  setup(function() srv = S.start() end)
  teardown(function() S.stop(srv) end)

  for _, g in ipairs { { rules = "diloti", players = 2 }, { rules = "pilotta", players = 4 } } do
    it(g.rules .. ": hint and why for the seat to move, explain for its own last move, from the coach", function()
      local seats = { "person" }
      for i = 2, g.players do seats[i] = "ai" end
      local m = S.create(srv, { rules = g.rules, players = g.players, seats = seats, pace = 0, seed = 8 })
      local c = S.join(srv, m.seats[1].link)
      S.wait(c, function(f) return f.type == "state" and f.turn == 0 and f.moves end, 20)
      S.send(c, { type = "hint" })
      local a = S.wait(c, function(f) return f.type == "advice" or f.type == "error" end, 20)
      assert.equal("advice", a.type, json.encode(a))
      assert.truthy(a.lines[1]:find("^Hint: "), a.lines[1])
      S.send(c, { type = "why", move = 1 })
      a = S.wait(c, function(f) return f.type == "advice" or f.type == "error" end, 20)
      assert.truthy(a.lines[1]:find("^Legal: "), json.encode(a))
      -- in the game's words, as at the terminal: the seat is "you"
      assert.is_nil(a.lines[1]:find("seat 0", 1, true), a.lines[1])
      S.send(c, { type = "explain" })
      a = S.wait(c, function(f) return f.type == "advice" or f.type == "error" end, 20)
      assert.equal("not-offered", a.code)
      assert.truthy(a.message:find("no move yet", 1, true), a.message)
      -- after a move of its own, the coach's word on it
      S.send(c, { type = "move", move = 1 })
      S.wait(c, function(f) return f.type == "event" and f.event.seat == 0 end, 20)
      S.send(c, { type = "explain" })
      a = S.wait(c, function(f) return f.type == "advice" or f.type == "error" end, 20)
      if a.type == "advice" then
        assert.truthy(a.lines[1]:find("^Your move "), json.encode(a))
        assert.truthy(a.lines[2]:find("^Coach"), json.encode(a))
      else
        assert.equal("not-offered", a.code)
        assert.truthy(a.message:find("coach", 1, true), a.message)
      end
      c:close()
    end)
  end
end)

describe("diloti serve: a room's CPU budget", function()
  it("an uploaded AI past its room's CPU budget: a built-in AI takes its seat, everyone is told", function()
    local s = S.start { args = "--script-cpu 0.05" }
    finally(function() S.stop(s) end)
    local busy = [[return { name = "busy", game = "diloti", description = "counts before it moves",
      choose = function(_, moves) local n = 0 for i = 1, 20000000 do n = n + i end return moves[1] end }]]
    local m = S.create(s, { rules = "diloti", players = 2, seats = { "person", "script" }, script = busy,
      script_name = "busy", pace = 0 })
    assert.equal("created", m.type, json.encode(m))
    -- (last = 0: every frame since the room began, the seat's change among them)
    local c = S.join(s, m.seats[1].link, 0)
    local seat
    local deadline = os.time() + 60
    while not seat and os.time() < deadline do
      local f = S.recv(c, 1)
      if f then
        if f.type == "seat" then seat = f end
        if f.type == "state" and f.turn == 0 and f.moves then S.send(c, { type = "move", move = 1 }) end
      end
    end
    assert.truthy(seat, "no seat frame")
    assert.same({ 1, "ai" }, { seat.seat, seat.kind })
    assert.truthy(seat.why:find("CPU", 1, true))
    local _, w = S.join(s, m.watch)
    assert.equal("ai", w.seats["1"] or w.seats[1])
    -- the game goes on with the built-in AI
    S.wait(c, function(f)
      if f.type == "state" and f.turn == 0 and f.moves then S.send(c, { type = "move", move = 1 }) end
      return f.type == "event" and f.event.seat == 1
    end, 30)
    c:close()
    -- for the rest of the game: a crash and a restart do not give the
    -- uploaded AI its seat back (nor a fresh budget)
    S.stop(s, "KILL")
    local s2 = S.start { data = s.data, args = "--script-cpu 0.05" }
    finally(function() S.stop(s2) end)
    local c2 = S.join(s2, m.seats[1].link)
    local again, moves = nil, 0
    deadline = os.time() + 20
    while moves < 6 and not again and os.time() < deadline do
      local f = S.recv(c2, 1)
      if f then
        if f.type == "seat" then again = f end
        if f.type == "event" and f.event.seat == 1 then moves = moves + 1 end
        if f.type == "state" and f.turn == 0 and f.moves then S.send(c2, { type = "move", move = 1 }) end
      end
    end
    assert.is_nil(again, "the uploaded AI had its seat back after the restart")
    assert.truthy(moves >= 3, "the room did not go on after the restart")
    c2:close()
  end)
end)

describe("diloti serve: rooms nobody uses", function()
  local threads = S.threads

  it("sleep when nobody has been connected for --idle seconds, and wake for the next hello", function()
    local s = S.start { args = "--idle 1" }
    finally(function() S.stop(s) end)
    local base = threads(s)
    local m = S.create(s, { rules = "diloti", players = 2, seats = { "person", "ai" }, pace = 0 })
    local c = S.join(s, m.seats[1].link)
    local st = S.wait(c, function(f) return f.type == "state" and f.turn == 0 and f.moves end)
    S.send(c, { type = "move", move = 1 })
    local moved = S.wait(c, function(f) return f.type == "state" and f.turn == 0 and f.moves end)
    assert.equal(base + 1, threads(s)) -- (the room's thread)
    c:close()
    for _ = 1, 60 do
      if threads(s) == base then break end
      S.sleep(0.1)
    end
    assert.equal(base, threads(s), "the room did not sleep")
    -- the seat's link wakes it where it was
    local c2, w = S.join(s, m.seats[1].link)
    assert.equal("welcome", w.type)
    assert.equal(0, w.seat)
    local again = S.wait(c2, function(f) return f.type == "state" and f.turn == 0 end)
    assert.same(moved.view.hand, again.view.hand)
    assert.is_not.same(st.view.hand, again.view.hand)
    assert.truthy(again.seq > moved.seq)
    c2:close()
  end)
end)

describe("diloti serve: a room a house rule stops", function()
  -- (an operator's house rule whose moves hook always fails: the room
  -- stopped at its first position and closed its people's connections
  -- without a word; found by a helper's attack)
  local cfg = support.tmpdir()
  os.execute("mkdir -p " .. support.q(cfg .. "/diloti/rules-variants"))
  support.write(cfg .. "/diloti/rules-variants/failmoves.lua", "return { name = 'failmoves', description = 'd', "
    .. "hooks = { moves = function(m) error('no moves today') end } }")
  local s
  setup(function() s = S.start { env = "XDG_CONFIG_HOME=" .. support.q(cfg) } end)
  teardown(function() S.stop(s); support.rmdir(cfg) end)

  it("tells its people that it stopped, with no word of the fault, and the server serves on", function()
    local m = S.create(s, { rules = "diloti+failmoves", players = 2, seats = { "person", "ai" }, seed = 5 })
    local c, w
    if m.type == "created" then c, w = S.join(s, m.seats[1].link) end
    local told = m.type == "error" and m or (w and w.type == "error" and w)
    if not told then
      told = S.wait(c, function(f) return f.type == "error" end, 10)
    end
    assert.equals("internal", told.code)
    assert.matches("this room stopped", told.message)
    assert.is_nil(told.message:find("no moves today", 1, true))
    assert.is_nil(told.message:find(cfg, 1, true))
    if c then c:close() end
    assert.equals("created", S.create(s, { rules = "diloti", players = 2, seats = { "person", "ai" } }).type)
  end)
end)
