-- The terminal as a client of an online room (lua/table/remote.lua):
-- the table (lua/table/repl.lua) seated at a remote room whose frames
-- come from a real protocol host (lua/server/protocol.lua) in the same
-- process, through a fake transport (send, recv). Whole rounds of
-- 2-player Diloti and of Pilotta played at the table's prompt, a refusal
-- shown with its rule id, a spectator, a dropped connection made again,
-- and one that cannot be.
require "diloti" -- (the compiled-in modules)
local room = require "diloti.room"
local json = require "diloti.match.json"
local protocol = require "diloti.server.protocol"
local remote = require "diloti.table.remote"
local repl = require "diloti.table.repl"
local screen = require "diloti.table.screen"

local counting_random = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "support.lua").counting_random

-- A room behind a protocol host, started. The clock moves ten seconds a
-- reading: no rate limit is met by a test that is not about them.
local function server(o, host_o)
  local r = assert(room.new(o))
  local now = 0
  local ho = { clock = function() now = now + 10 return now end, random = counting_random() }
  for k, v in pairs(host_o or {}) do ho[k] = v end
  local h = protocol.host(r, ho)
  h:start()
  return r, h
end

-- The fake transport: connect() makes a connection to the host; recv
-- hands the frames it was sent in order, calls t.idle() when there are
-- none (where another seat may move), and drops the connection when the
-- test says so (t.drop = true).
local function transport(h)
  local t = { connects = 0, sent = {}, host = h }
  function t.connect()
    if t.refuse then return nil, "connection refused" end
    t.connects = t.connects + 1
    local q = {}
    local c = t.host:connect(function(text) q[#q + 1] = text end)
    return {
      send = function(text)
        if t.drop_send then
          t.drop_send = nil
          c:close()
        end
        if c.closed then return nil, "closed", "the test dropped it" end
        if t.swallow then
          t.swallow = nil
          return true
        end
        t.sent[#t.sent + 1] = text
        c:receive(text)
        return true
      end,
      recv = function()
        if t.raise then
          t.raise = nil
          error("table:1: interrupted", 0)
        end
        if t.drop then
          t.drop = nil
          c:close()
          if t.on_drop then t.on_drop() end
          return nil, "closed", "the test dropped it"
        end
        if #q == 0 and t.idle then t.idle() end
        local text = table.remove(q, 1)
        if text and t.rewrite then text = t.rewrite(text) end
        if text then return text end
        return nil, "timeout"
      end,
      close = function() c:close() end,
    }
  end
  return t
end

local function open(h, t, token, extra)
  local o = { connect = t.connect, room = h.id, token = token, url = "ws://test/ws", sleep = function() end,
    max_idle = 20 }
  for k, v in pairs(extra or {}) do o[k] = v end
  return remote.open(o)
end

-- The table at a remote room, reading lines from answer(prompt, session)
-- (nil: the end of input). Returns the session and its whole output.
local function play(rr, answer, extra)
  local out = {}
  local s
  local o = {
    write = function(text) out[#out + 1] = text end,
    read = function(prompt)
      out[#out + 1] = prompt
      return answer(prompt, s)
    end,
    getenv = function(k) return ({ NO_COLOR = "1", TERM = "xterm", LANG = "C.UTF-8" })[k] end,
    style = screen.style { width = 100 }, room = rr, extensions = { remote.extension },
  }
  for k, v in pairs(extra or {}) do o[k] = v end
  s = assert(repl.new(o))
  s:run()
  return s, table.concat(out)
end

-- A player at the prompt: a legal move each turn (by number and by text
-- in turn), then the end of input when nobody asks it anything more.
local function mover(script)
  local n = 0
  return function(prompt, s)
    if prompt ~= "diloti> " then return "" end
    n = n + 1
    if script and script[n] then return script[n](s) end
    local moves = s.g:moves()
    if #moves == 0 then return nil end
    local pick = (n * 5) % #moves + 1
    return n % 2 == 0 and tostring(pick) or moves[pick]
  end
end

local function count(text, pattern)
  local n = 0
  for _ in text:gmatch(pattern) do n = n + 1 end
  return n
end

describe("the table at an online room", function()
  it("plays a whole round of 2-player Diloti through the wire", function()
    local r, h = server { rules = "diloti", players = 2, ai = "random", seed = 11, match = false }
    local t = transport(h)
    local rr = assert(open(h, t, h.seat_tokens[0]))
    local s, out = play(rr, mover())
    assert.equal("round-over", r.g:phase())
    assert.is_true(s.done)
    -- every move of the round, both seats', was shown at the client
    local moves = 0
    for _, x in ipairs(r.g:history()) do if x.seat then moves = moves + 1 end end
    assert.equal(moves, #s.log)
    assert.is_true(#s.log >= 48, #s.log)
    assert.truthy(out:find("online at ws://test/ws, playing seat 0", 1, true), out:sub(1, 300))
    -- the round's breakdown, drawn from the result frame
    assert.truthy(out:find("AI random %(North%)"))
    assert.truthy(out:lower():find("round 1"), out:sub(-2000))
    -- no move the client sent was refused
    assert.falsy(out:find("Refused:", 1, true), out:match("Refused:[^\n]*"))
  end)

  it("says what the server tells every viewer: a seat that changed hands, a notice", function()
    local _, h = server { rules = "diloti", players = 2, ai = "random", seed = 11, match = false }
    h:announce { type = "seat", seat = 1, kind = "ai", name = "AI random", why = "gone too long" }
    h:announce { type = "notice", seat = 1, message = "the AI at seat 1 failed its call" }
    h:announce { type = "seat", seat = 0, kind = "person" }
    local t = transport(h)
    local rr = assert(open(h, t, h.seat_tokens[0]))
    local _, out = play(rr, function() return nil end)
    assert.truthy(out:find("seat 1 (AI random) is played by an AI now: gone too long", 1, true), out)
    assert.truthy(out:find("the AI at seat 1 failed its call", 1, true))
    assert.truthy(out:find("your seat is played by its person again", 1, true))
  end)

  it("plays a whole match of 2-player Diloti, to its end", function()
    local r, h = server { rules = "diloti", players = 2, ai = "random", seed = 3, target = 21 }
    local t = transport(h)
    local rr = assert(open(h, t, h.seat_tokens[0]))
    local s, out = play(rr, mover())
    assert.equal("match-over", r.g:phase())
    local moves = 0
    for _, x in ipairs(r.g:history()) do if x.seat then moves = moves + 1 end end
    assert.equal(moves, #s.log)
    assert.is_true(count(out, "Round %d+: [^\n]* deals%.") >= 2, out:sub(1, 500))
    assert.truthy(out:find("The match is over: 'quit' leaves the room.", 1, true), out:sub(-800))
    assert.falsy(out:find("Type 'new'", 1, true))
    assert.falsy(out:find("Refused:", 1, true), out:match("Refused:[^\n]*"))
  end)

  it("plays a whole round of Pilotta through the wire (announcements, by text and number)", function()
    local r, h = server { game = "pilotta", ai = "random", seed = 4, humans = 1, match = false }
    local t = transport(h)
    local rr = assert(open(h, t, h.seat_tokens[0]))
    local s, out = play(rr, mover())
    assert.equal("round-over", r.g:phase())
    local moves = 0
    for _, x in ipairs(r.g:history()) do if x.seat then moves = moves + 1 end end
    assert.equal(moves, #s.log)
    assert.is_true(#s.log >= 36, #s.log)
    assert.falsy(out:find("Refused:", 1, true), out:match("Refused:[^\n]*"))
    -- the client was never sent a card of another hand: its view has its own only
    assert.equal(nil, rr.g:view().hands)
  end)

  it("shows a refusal with its rule id, the room untouched, then plays on", function()
    local r, h = server { rules = "diloti", players = 2, ai = "random", seed = 11, match = false }
    local t = transport(h)
    local rr = assert(open(h, t, h.seat_tokens[0]))
    local before
    local bad = function(s)
      before = #r.g:history()
      local v = s.g:view()
      -- a capture of a loose card by a card of another value
      for _, c in ipairs(v.hand) do
        for _, l in ipairs(v.table.loose) do
          if c:sub(1, -2) ~= l:sub(1, -2) then return c .. " x " .. l end
        end
      end
    end
    local s, out = play(rr, mover { bad, function() assert.equal(before, #r.g:history()) return "1" end })
    local refusal = out:match("Refused: [^\n]*")
    assert.truthy(refusal and refusal:match("^Refused: D%d+: "), out)
    assert.truthy(out:find("'rules D%d+' explains the rule"))
    assert.equal("round-over", r.g:phase())
    assert.is_true(#s.log >= 48)
    -- the move went to the server as typed: the engine there refused it
    local refused = 0
    for _, m in ipairs(t.sent) do if m:find('"type":"move"', 1, true) then refused = refused + 1 end end
    assert.is_true(refused >= 25)
  end)

  it("a word that begins several moves says which; commands that change a game are refused", function()
    local _, h = server { rules = "diloti", players = 2, ai = "random", seed = 11, match = false }
    local t = transport(h)
    local rr = assert(open(h, t, h.seat_tokens[0]))
    local lines = { "undo", "new", "save x.txt", "load x.txt", "hint" }
    local i, tried = 0, false
    local answer = function(prompt, s)
      if prompt ~= "diloti> " then return "" end
      i = i + 1
      if lines[i] then return lines[i] end
      if tried then return nil end
      -- a card alone that begins several moves (else a move, and again)
      local seen = {}
      for _, m in ipairs(s.g:moves()) do
        local w = m:match("^(%S+)")
        if seen[w] then tried = true return w end
        seen[w] = true
      end
      return "1"
    end
    local _, out = play(rr, answer)
    assert.equal(4, count(out, "Not in an online room: "))
    assert.truthy(out:find("No hint: this room gives no hint", 1, true))
    assert.truthy(out:find("begins several moves: ", 1, true), out)
  end)

  it("asks the server for hint, why and explain", function()
    local asked = {}
    local _, h = server({ rules = "diloti", players = 2, ai = "random", seed = 11, match = false },
      { advise = function(kind, _, seat, msg)
        asked[#asked + 1] = { kind, seat, msg.move, msg.n }
        return { "advice of kind " .. kind }
      end })
    local t = transport(h)
    local rr = assert(open(h, t, h.seat_tokens[0]))
    local lines = { "hint", "why 7h lay", "explain 2" }
    local i = 0
    local _, out = play(rr, function(prompt)
      if prompt ~= "diloti> " then return "" end
      i = i + 1
      return lines[i]
    end)
    assert.equal(3, count(out, "advice of kind "))
    assert.same({ { "hint", 0 }, { "why", 0, "7h lay" }, { "explain", 0, nil, 2 } }, asked)
  end)

  it("a spectator follows a room of people, sees no hand, and plays nothing", function()
    local r, h = server { game = "pilotta", seats = { [0] = "human", [2] = "human" }, humans = 0, ai = "random",
      seed = 6, match = false }
    -- the people: protocol clients that play their first legal move
    local people = {}
    for _, seat in ipairs { 0, 2 } do
      local last
      local c = h:connect(function(text)
        local f = json.decode(text)
        if f.type == "state" then last = f end
      end)
      c:receive(json.encode { v = 1, type = "hello", room = h.id, token = h.seat_tokens[seat] })
      people[seat] = { c = c, state = function() return last end }
    end
    local t = transport(h)
    t.idle = function()
      local p = people[r.g:turn()]
      if p and p.state() and p.state().moves then
        assert(p.c:receive(json.encode { v = 1, type = "move", move = 1 }))
      end
    end
    local rr = assert(open(h, t, h.watch))
    assert.is_true(rr.spectator)
    local lines = { "Jh", "hint", "undo" }
    local i = 0
    local s, out = play(rr, function(prompt)
      if prompt ~= "diloti> " then return "" end
      i = i + 1
      return lines[i]
    end)
    assert.equal("round-over", r.g:phase())
    local moves = 0
    for _, x in ipairs(r.g:history()) do if x.seat then moves = moves + 1 end end
    assert.equal(moves, #s.log)
    assert.truthy(out:find("watching", 1, true))
    -- the board, drawn from the spectator's view: every seat's count, no hand
    assert.falsy(out:find("Error", 1, true), out:match("Error[^\n]*"))
    assert.truthy(out:find("Cards in hand: seat 0 (South) 0, AI random (East) 0", 1, true), out:sub(-1500))
    assert.falsy(out:find("'s hand: ", 1, true) or out:find("Your hand", 1, true))
    assert.truthy(out:find("It is not your turn", 1, true))
    assert.truthy(out:find("No hint: a spectator asks no hint", 1, true))
    assert.is_nil(rr.g:view().hand)
    for _, m in ipairs(t.sent) do assert.falsy(m:find('"type":"move"', 1, true), m) end
  end)

  it("a spectator of 2-player Diloti sees the board without a hand", function()
    local r, h = server { rules = "diloti", players = 2, humans = 1, ai = "random", seed = 9, match = false }
    local last
    local c = h:connect(function(text)
      local f = json.decode(text)
      if f.type == "state" then last = f end
    end)
    c:receive(json.encode { v = 1, type = "hello", room = h.id, token = h.seat_tokens[0] })
    local t = transport(h)
    t.idle = function()
      if r.g:turn() == 0 and last and last.moves then
        assert(c:receive(json.encode { v = 1, type = "move", move = #last.moves }))
      end
    end
    local rr = assert(open(h, t, h.watch))
    local s, out = play(rr, function() return nil end)
    assert.equal("round-over", r.g:phase())
    assert.is_nil(s.viewer)
    assert.falsy(out:find("Error", 1, true), out:match("Error[^\n]*"))
    assert.truthy(out:find("Cards in hand: seat 0 (South) 0, AI random (North) 0", 1, true), out:sub(-1500))
    assert.falsy(out:find("'s hand: ", 1, true) or out:find("Your hand", 1, true))
    assert.falsy(out:find("[Yy]our"), out:match("[^\n]*[Yy]our[^\n]*"))
  end)

  it("Ctrl-C while following a room stops the wait; 'go' follows it again", function()
    local _, h = server { rules = "diloti", players = 2, humans = 2, seed = 9, match = false }
    local t = transport(h)
    local calls, stop = 0, false
    local rr = assert(open(h, t, h.watch, { interrupted = function()
      calls = calls + 1
      local was = stop
      stop = false
      return was
    end }))
    local lines = { "go" }
    local i = 0
    t.idle = function() if calls == 3 or calls == 12 then stop = true end end
    local s, out = play(rr, function(prompt)
      if prompt ~= "diloti> " then return "" end
      i = i + 1
      return lines[i]
    end)
    assert.equal(2, count(out, "Interrupted: type 'go' to follow the room again."))
    assert.truthy(out:find("seat 1 (North) to play.", 1, true) or out:find("seat 0 (South) to play.", 1, true), out)
    assert.is_true(s.done)
  end)

  it("draws with the rules the welcome carries (a room's house rules), else the game's base rules", function()
    local r, h = server { rules = "diloti", players = 2, ai = "random", seed = 11, match = false }
    local t = transport(h)
    local rules = r.g:rules()
    rules.target = 99
    t.rewrite = function(text)
      local f = json.decode(text)
      if f.type ~= "welcome" then return text end
      f.rules = rules
      return json.encode(f)
    end
    local rr = assert(open(h, t, h.seat_tokens[0]))
    assert.equal(99, rr.g:rules().target)
    local _, out = play(rr, function() return nil end)
    assert.truthy(out:find("(to 99)", 1, true), out)
    t.rewrite = nil
    rr = assert(open(h, t, h.seat_tokens[0]))
    assert.equal(61, rr.g:rules().target)
  end)

  it("Ctrl-C while waiting for a move's answer stops the wait; nothing is lost", function()
    local r, h = server { rules = "diloti", players = 2, ai = "random", seed = 12, match = false }
    local t = transport(h)
    local rr = assert(open(h, t, h.seat_tokens[0]))
    local n = 0
    local base = mover()
    local s, out = play(rr, function(prompt, sess)
      if prompt == "diloti> " then
        n = n + 1
        if n == 4 then t.raise = true end
        if n == 5 then return "go" end
      end
      return base(prompt, sess)
    end)
    assert.equal(1, count(out, "you stopped waiting for the server's answer %(Ctrl%-C%)"))
    assert.falsy(out:find("Refused", 1, true), out:match("Refused[^\n]*"))
    assert.equal("round-over", r.g:phase())
    local moves = 0
    for _, x in ipairs(r.g:history()) do if x.seat then moves = moves + 1 end end
    assert.equal(moves, #s.log)
  end)

  it("makes a dropped connection again and carries on where it was", function()
    local r, h = server { rules = "diloti", players = 2, ai = "random", seed = 12, match = false }
    local t = transport(h)
    local rr = assert(open(h, t, h.seat_tokens[0]))
    local n = 0
    local base = mover()
    local s, out = play(rr, function(prompt, sess)
      if prompt == "diloti> " then
        n = n + 1
        if n == 3 or n == 9 then t.drop = true end
      end
      return base(prompt, sess)
    end)
    assert.equal(3, t.connects)
    assert.equal("round-over", r.g:phase())
    assert.equal(2, count(out, "connection lost and made again: nothing missed"))
    local moves = 0
    for _, x in ipairs(r.g:history()) do if x.seat then moves = moves + 1 end end
    assert.equal(moves, #s.log, "no move shown twice nor missed")
    -- the hello again said the last frame seen
    local hellos = 0
    for _, m in ipairs(t.sent) do
      local f = json.decode(m)
      if f.type == "hello" then
        hellos = hellos + 1
        if hellos > 1 then assert.is_true(f.last > 0) end
      end
    end
    assert.equal(3, hellos)
  end)

  it("follows a server that restarted: its streams begin again from 1, after a fresh state", function()
    local r = assert(room.new { rules = "diloti", players = 2, ai = "random", seed = 12, match = false })
    local function host()
      local now = 0
      return protocol.host(r, { clock = function() now = now + 10 return now end, random = counting_random() })
    end
    local h = host()
    h:start()
    local t = transport(h)
    local rr = assert(open(h, t, h.seat_tokens[0]))
    local n = 0
    local base = mover()
    local s, out = play(rr, function(prompt, sess)
      if prompt == "diloti> " then
        n = n + 1
        if n == 6 then
          -- (the server restarts: a new host over the room, the same tokens)
          h:close()
          t.host = host()
          t.drop_send = true
        end
      end
      return base(prompt, sess)
    end)
    assert.equal(2, t.connects)
    assert.equal("round-over", r.g:phase())
    assert.truthy(out:find("the moves made meanwhile are not shown", 1, true))
    assert.falsy(out:find("Refused", 1, true), out:match("Refused[^\n]*"))
    local moves = 0
    for _, x in ipairs(r.g:history()) do if x.seat then moves = moves + 1 end end
    assert.equal(moves, #s.log)
  end)

  it("a move lost with its connection is said not played (the frames since came again)", function()
    local r, h = server { rules = "diloti", players = 2, ai = "random", seed = 12, match = false }
    local t = transport(h)
    local rr = assert(open(h, t, h.seat_tokens[0]))
    local n = 0
    local base = mover()
    local s, out = play(rr, function(prompt, sess)
      if prompt == "diloti> " then
        n = n + 1
        if n == 3 then t.swallow, t.drop = true, true end
      end
      return base(prompt, sess)
    end)
    assert.equal(1, count(out:gsub("%s+", " "), "the connection was lost before the server had your move: it was "
      .. "not played; type it again"))
    assert.equal("round-over", r.g:phase())
    local moves = 0
    for _, x in ipairs(r.g:history()) do if x.seat then moves = moves + 1 end end
    assert.equal(moves, #s.log)
  end)

  it("a move whose fate a restarted server does not tell: 'go' shows where the game stands", function()
    local r = assert(room.new { rules = "diloti", players = 2, ai = "random", seed = 12, match = false })
    local function host()
      local now = 0
      return protocol.host(r, { clock = function() now = now + 10 return now end, random = counting_random() })
    end
    local h = host()
    h:start()
    local t = transport(h)
    local rr = assert(open(h, t, h.seat_tokens[0]))
    local n = 0
    local base = mover()
    local _, out = play(rr, function(prompt, sess)
      if prompt == "diloti> " then
        n = n + 1
        if n == 3 then
          t.drop = true
          t.on_drop = function()
            h:close()
            t.host = host()
          end
        end
        if n == 4 then return "go" end
      end
      return base(prompt, sess)
    end)
    assert.equal(1, count(out:gsub("%s+", " "), "the server did not say whether it had your move: 'go' shows where "
      .. "the game stands"))
    assert.falsy(out:find("Refused", 1, true), out:match("Refused[^\n]*"))
    assert.equal("round-over", r.g:phase())
  end)

  it("a connection found closed when a move is sent is made again, and the move sent on it", function()
    local r, h = server { rules = "diloti", players = 2, ai = "random", seed = 12, match = false }
    local t = transport(h)
    local rr = assert(open(h, t, h.seat_tokens[0]))
    local n = 0
    local base = mover()
    local s, out = play(rr, function(prompt, sess)
      if prompt == "diloti> " then
        n = n + 1
        if n == 4 then t.drop_send = true end
      end
      return base(prompt, sess)
    end)
    assert.equal(2, t.connects)
    assert.equal("round-over", r.g:phase())
    assert.falsy(out:find("Refused", 1, true), out:match("Refused[^\n]*"))
    local moves = 0
    for _, x in ipairs(r.g:history()) do if x.seat then moves = moves + 1 end end
    assert.equal(moves, #s.log)
  end)

  it("a move the server never answers is said so, not as a refusal; typed again, it is played", function()
    local r, h = server { rules = "diloti", players = 2, ai = "random", seed = 12, match = false }
    local t = transport(h)
    local rr = assert(open(h, t, h.seat_tokens[0]))
    local n = 0
    local base = mover()
    local waits = remote.REPLY_WAITS
    remote.REPLY_WAITS = 3
    local ok, s, out = pcall(play, rr, function(prompt, sess)
      if prompt == "diloti> " then
        n = n + 1
        if n == 3 then t.swallow = true end
      end
      return base(prompt, sess)
    end)
    remote.REPLY_WAITS = waits
    assert(ok, s)
    assert.truthy(out:find("> the server at ws://test/ws does not answer\n", 1, true), out)
    assert.falsy(out:find("Refused", 1, true), out:match("Refused[^\n]*"))
    assert.equal("round-over", r.g:phase())
    local moves = 0
    for _, x in ipairs(r.g:history()) do if x.seat then moves = moves + 1 end end
    assert.equal(moves, #s.log)
  end)

  it("gives up after its tries with a clear message, and the session ends", function()
    local _, h = server { rules = "diloti", players = 2, ai = "random", seed = 12, match = false }
    local t = transport(h)
    local slept = {}
    local rr = assert(open(h, t, h.seat_tokens[0], { sleep = function(x) slept[#slept + 1] = x end }))
    local base = mover()
    local n = 0
    local s, out = play(rr, function(prompt, sess)
      if prompt == "diloti> " then
        n = n + 1
        if n == 2 then t.drop, t.refuse = true, true end
      end
      return base(prompt, sess)
    end)
    assert.is_true(s.done)
    out = out:gsub("%s+", " ")
    assert.truthy(out:find("could not make it again (5 tries): cannot connect to ws://test/ws: connection refused",
      1, true), out:sub(-600))
    assert.same(remote.BACKOFF, slept)
  end)

  it("says what is wrong when the server refuses to join", function()
    local _, h = server { rules = "diloti", players = 2, ai = "random", seed = 1 }
    local t = transport(h)
    local rr, why = open(h, t, string.rep("0", 64))
    assert.is_nil(rr)
    assert.truthy(why:find("no such room or token", 1, true), why)
    t.refuse = true
    rr, why = open(h, t, h.seat_tokens[0])
    assert.is_nil(rr)
    assert.equal("cannot connect to ws://test/ws: connection refused", why)
  end)

  it("a server's welcome it cannot seat, or a state of odd shapes, is no crash", function()
    local _, h = server { rules = "diloti", players = 2, ai = "random", seed = 11, match = false }
    local t = transport(h)
    t.rewrite = function(text)
      local f = json.decode(text)
      if f.type == "welcome" then f.game = "chess" end
      return json.encode(f)
    end
    local rr, why = open(h, t, h.seat_tokens[0])
    assert.is_nil(rr)
    assert.equal("the server plays a game this program does not know (chess)", why)
    t.rewrite = function(text)
      local f = json.decode(text)
      if f.type == "state" and f.moves then
        f.moves[1] = 7
        f.moves[2] = "\27[2J" .. f.moves[2]
      end
      return json.encode(f)
    end
    rr = assert(open(h, t, h.seat_tokens[0]))
    local asked = 0
    local _, out = play(rr, function(prompt)
      asked = asked + 1
      if prompt == "diloti> " and asked == 1 then return "moves" end
    end)
    assert.truthy(out:find("2) ", 1, true), out)
    assert.falsy(out:find("\27", 1, true))
    for _, m in ipairs(rr.g:moves()) do assert.is_string(m) end
  end)

  it("reads only what a frame may be: too large, not JSON, nested too deep", function()
    assert.is_nil((remote.read(string.rep(" ", remote.MAX_FRAME + 1))))
    assert.is_nil((remote.read("{nope")))
    assert.is_nil((remote.read("[1,2]")))
    assert.is_nil((remote.read(string.rep("[", 40) .. string.rep("]", 40))))
    local m = assert(remote.read('{"type":"state","view":{"score":{"0":3,"1":4}}}'))
    assert.same({ [0] = 3, [1] = 4 }, m.view.score)
  end)
end)
