-- The wire protocol over a room (lua/server/protocol.lua,
-- docs/protocol.md), without a network: whole rounds of 4-player Diloti
-- and of Pilotta played through it, people's seats driven by messages
-- and AIs at the others, every frame sent to every seat and to a
-- spectator captured and checked for cards its viewer may not know;
-- refusals that leave the room untouched; reconnecting with the last
-- sequence number seen.
require "diloti" -- (the compiled-in modules)
local room = require "diloti.room"
local json = require "diloti.match.json"
local protocol = require "diloti.server.protocol"
local support = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "support.lua")

-- ---- what a viewer may not know (tests/lua/support.lua) ------------------

local hidden, leaks = support.hidden, support.leaks

local STREAM = { state = true, event = true, result = true }

-- ---- a room behind the protocol, every frame captured ---------------------

local function fake_clock()
  local c = { now = 0 }
  c.fn = function() return c.now end
  return c
end

local counting_random = support.counting_random

-- A table: room, host, a client per person's seat and one spectator, each
-- client's frames decoded, each checked against what its viewer could not
-- see when the frame was made (stream frames) or sent (replies).
local function table_of(o)
  local r = assert(room.new(o))
  local clock = fake_clock()
  local h = protocol.host(r, { clock = clock.fn, random = o.random or counting_random(), advise = o.advise,
    names = o.names, after = o.after })
  local t = { room = r, host = h, clock = clock, clients = {}, leaks = {}, at = {} }
  -- (the hidden cards of each stream frame, taken when it is made)
  local push = h.push
  h.push = function(self, s, msg)
    local k = s.viewer == nil and "watch" or s.viewer
    t.at[k] = t.at[k] or {}
    t.at[k][s.seq + 1] = hidden(r.g, s.viewer)
    return push(self, s, msg)
  end
  function t.client(viewer, token)
    local c = { viewer = viewer, frames = {} }
    c.conn = h:connect(function(text)
      local f = assert(json.decode(text), text)
      c.frames[#c.frames + 1] = f
      local k = viewer == nil and "watch" or viewer
      local set = STREAM[f.type] and t.at[k][f.seq] or hidden(r.g, viewer)
      local bad = leaks(f, set, "frame " .. f.type .. " to " .. tostring(viewer))
      if bad then t.leaks[#t.leaks + 1] = bad end
    end)
    function c.say(msg)
      msg.v = msg.v or protocol.VERSION
      return c.conn:receive(json.encode(msg))
    end
    function c.last(ty)
      for i = #c.frames, 1, -1 do if c.frames[i].type == ty then return c.frames[i] end end
    end
    function c.hello(last)
      return c.say { type = "hello", room = h.id, token = token, last = last }
    end
    return c
  end
  for seat, tok in pairs(h.seat_tokens) do t.clients[seat] = t.client(seat, tok) end
  t.watcher = t.client(nil, h.watch)
  return t
end

local function join_all(t)
  for _, c in pairs(t.clients) do assert.is_true(c.hello()) end
  assert.is_true(t.watcher.hello())
end

-- Plays the round through the protocol: each person's move is one of
-- the moves its last state frame listed, by text or by number.
local function play_round(t)
  local g = t.room.g
  local moves_played = 0
  t.host:start()
  for _ = 1, 2000 do
    local turn = g:turn()
    if turn == nil or g:phase() == "round-over" or g:phase() == "match-over" then break end
    local c = assert(t.clients[turn], "the room stopped at an AI's seat")
    local st = c.last("state")
    assert.equals(turn, st.turn)
    assert.is_table(st.moves, "the seat to move is sent its moves")
    local pick = (moves_played * 7) % #st.moves + 1
    local move = moves_played % 2 == 0 and st.moves[pick] or pick
    t.clock.now = t.clock.now + 1
    assert.is_true(c.say { type = "move", move = move })
    moves_played = moves_played + 1
  end
  assert.is_true(g:phase() == "round-over" or g:phase() == "match-over", g:phase())
  return moves_played
end

local function seqs_ok(frames)
  local last = 0
  for _, f in ipairs(frames) do
    assert.equals(protocol.VERSION, f.v)
    assert.is_true(math.type(f.seq) == "integer" and f.seq >= last, "seq goes back")
    if STREAM[f.type] then
      assert.is_true(f.seq > last or last == 0)
    end
    last = f.seq
  end
end

-- ---------------------------------------------------------------------------

describe("the wire: nothing hidden in any frame", function()
  it("the leak check can fail: another hand in a frame is caught", function()
    local t = table_of { rules = "diloti", players = 4, humans = 2, ai = "random", seed = 5, match = false }
    t.host:start()
    local s = t.room.g:state()
    assert.is_string(leaks({ hands = s.hands }, hidden(t.room.g, 0), "x"))
    assert.is_nil(leaks({ unseen = s.hands[1] }, hidden(t.room.g, 0), "x"))
  end)

  for _, seed in ipairs { 1, 2, 3, 4 } do
    it("a whole round of 4-player Diloti, people at seats 0 and 2 (seed " .. seed .. ")", function()
      local t = table_of { rules = "diloti", players = 4, humans = 2, ai = "random", seed = seed, match = false }
      join_all(t)
      local n = play_round(t)
      assert.is_true(n >= 12, n)
      assert.same({}, t.leaks)
      for seat, c in pairs(t.clients) do
        seqs_ok(c.frames)
        assert.equals("round", c.last("result").kind, "seat " .. seat .. " hears the round's result")
        local moved = 0
        for _, f in ipairs(c.frames) do
          if f.type == "event" and f.event.type == "move" then moved = moved + 1 end
        end
        assert.is_true(moved >= 40, moved)
      end
      seqs_ok(t.watcher.frames)
      assert.is_nil(t.watcher.last("state").moves)
      assert.is_nil(t.watcher.last("state").view.hand)
      assert.equals("round", t.watcher.last("result").kind)
    end)
  end

  for _, seed in ipairs { 3, 4, 5, 6, 7, 8 } do
    local people = seed % 2 == 0 and { [0] = "human", [2] = "human" } or { [1] = "human", [3] = "human" }
    local at = seed % 2 == 0 and "0 and 2" or "1 and 3"
    it("a whole round of Pilotta, people at seats " .. at .. " (seed " .. seed .. ")", function()
      local t = table_of { game = "pilotta", humans = 0, seats = people, ai = "random", seed = seed, match = false }
      join_all(t)
      local n = play_round(t)
      assert.is_true(n >= 4, n)
      assert.same({}, t.leaks)
      for _, c in pairs(t.clients) do
        seqs_ok(c.frames)
        assert.is_table(c.last("result"))
      end
      seqs_ok(t.watcher.frames)
      assert.is_table(t.watcher.last("result"))
    end)
  end

  it("a whole match of Kontsina for three, round after round, to its result", function()
    local t = table_of { rules = "kontsina+target=25", players = 3, humans = 1, ai = "random", seed = 6 }
    join_all(t)
    play_round(t)
    assert.equals("match-over", t.room.g:phase())
    assert.same({}, t.leaks)
    local rounds = 0
    for _, f in ipairs(t.clients[0].frames) do
      if f.type == "result" and f.kind == "round" then rounds = rounds + 1 end
    end
    assert.is_true(rounds >= 2, rounds)
    assert.equals("match", t.clients[0].last("result").kind)
    assert.equals("match", t.watcher.last("result").kind)
  end)

  it("after(host) runs before any frame of a move is sent (where the server stores it)", function()
    local t
    local calls, heard_then = 0, {}
    t = table_of { rules = "diloti", players = 4, humans = 2, ai = "random", seed = 8, match = false }
    t.host.after = function(h)
      calls = calls + 1
      heard_then[calls] = #t.clients[0].frames
      assert.equals(t.host, h)
    end
    join_all(t)
    t.host:start()
    local turn = t.room.g:turn()
    local c = t.clients[turn]
    local n = #t.clients[0].frames
    local history = #t.room.g:history()
    assert.is_true(c.say { type = "move", move = 1 })
    assert.is_true(#t.room.g:history() > history)
    assert.equals(n, heard_then[calls], "no frame of the move before after() returned")
    assert.is_true(#t.clients[0].frames > n)
  end)

  it("an after() that fails: nothing of the move is sent, the client hears 'internal'", function()
    local t = table_of { rules = "diloti", players = 4, humans = 2, ai = "random", seed = 8, match = false }
    join_all(t)
    t.host:start()
    t.host.after = function() error("disk full") end
    local c = t.clients[t.room.g:turn()]
    local counts = {}
    for seat, x in pairs(t.clients) do counts[seat] = #x.frames end
    local ok, code = c.say { type = "move", move = 1 }
    assert.is_nil(ok)
    assert.equals("internal", code)
    for seat, x in pairs(t.clients) do
      assert.equals(counts[seat] + (x == c and 1 or 0), #x.frames)
    end
    assert.equals("internal", c.frames[#c.frames].code)
  end)

  it("start answers what stopped the room; a closed host sends nothing more", function()
    local t = table_of { rules = "diloti", players = 4, humans = 2, ai = "random", seed = 8, match = false,
      after = function() end }
    join_all(t)
    local why, seat = t.host:start()
    assert.equals("wait", why)
    assert.equals(t.room.g:turn(), seat)
    local n = #t.watcher.frames
    t.host:close()
    t.room:advance()
    t.room:play(seat, 1)
    t.room:advance()
    assert.equals(n, #t.watcher.frames)
  end)

  it("a seat is never sent another seat's legal moves, nor a spectator any", function()
    local t = table_of { rules = "diloti", players = 4, humans = 2, ai = "random", seed = 7, match = false }
    join_all(t)
    play_round(t)
    for seat, c in pairs(t.clients) do
      for _, f in ipairs(c.frames) do
        if f.type == "state" and f.moves then assert.equals(seat, f.turn) end
      end
    end
    for _, f in ipairs(t.watcher.frames) do assert.is_nil(f.moves) end
  end)
end)

describe("the wire: refusals leave the room untouched", function()
  local function fresh()
    local t = table_of { rules = "diloti", players = 4, humans = 2, ai = "random", seed = 9, match = false }
    join_all(t)
    t.host:start()
    return t
  end

  local function untouched(t, f)
    local before = t.room.g:position()
    local n = #t.room.g:history()
    local code = f()
    assert.equals(before, t.room.g:position())
    assert.equals(n, #t.room.g:history())
    return code
  end

  local function error_of(c)
    local f = c.frames[#c.frames]
    assert.equals("error", f.type)
    return f.code, f.message
  end

  it("malformed JSON, a non-object, an unknown type, a wrong version, an unknown field", function()
    local t = fresh()
    local c = t.clients[t.room.g:turn()]
    for text, want in pairs {
      ['{"v":1,"type":"move","move":'] = "bad-json",
      ["not json at all"] = "bad-json",
      ['[1,2]'] = "bad-message",
      ['{"v":1,"type":"teleport"}'] = "unknown-type",
      ['{"v":2,"type":"ping"}'] = "bad-version",
      ['{"v":1,"type":"move","move":"7h","card":"Ah"}'] = "bad-field",
      ['{"v":1,"type":"move","move":{"text":"7h"}}'] = "bad-json",
      ['{"v":1,"type":"move","move":1.5}'] = "bad-field",
      ['{"v":1,"type":"move"}'] = "bad-field",
      ['{"v":1,"type":"move","move":0}'] = "bad-field",
      ['{"v":1,"type":"hello","token":"x"}'] = "bad-field",
      ['{"v":1,"type":"ping","id":[[[[[[[[1]]]]]]]]}'] = "bad-json",
    } do
      untouched(t, function() assert.is_nil(c.conn:receive(text)) end)
      assert.equals(want, (error_of(c)), text)
    end
  end)

  -- Found while fuzzing the reader (tests/fuzz/fuzz_message.c): the JSON
  -- decoder reads an empty array as an empty table, which passed for an
  -- object and was answered about the protocol's version.
  it("an empty array is no object either (not a version mismatch)", function()
    for _, text in ipairs { "[]", " [ ] ", "\n[]\t" } do
      local msg, code, why = protocol.read(text)
      assert.is_nil(msg)
      assert.equals("bad-message", code, text)
      assert.matches("JSON object", why)
    end
    local msg, code = protocol.read("{}")
    assert.is_nil(msg)
    assert.equals("bad-version", code)
    assert.is_table(protocol.read(' \r\n{"v":1,"type":"ping"}'))
  end)

  it("a message too large is refused before it is read", function()
    local t = fresh()
    local c = t.clients[t.room.g:turn()]
    local read = json.decode
    local decoded = 0
    local big = '{"v":1,"type":"move","move":"' .. string.rep("7", protocol.MAX_MESSAGE) .. '"}'
    json.decode = function(text, ...) -- luacheck: ignore 122
      if text == big then decoded = decoded + 1 end
      return read(text, ...)
    end
    untouched(t, function() assert.is_nil(c.conn:receive(big)) end)
    json.decode = read -- luacheck: ignore 122
    assert.equals(0, decoded)
    assert.equals("too-large", (error_of(c)))
    -- (a long move under the message's limit: too large too)
    untouched(t, function() c.say { type = "move", move = string.rep("7", protocol.MAX_MOVE + 1) } end)
    assert.equals("too-large", (error_of(c)))
  end)

  it("a move out of turn, a move for another seat, a spectator's move", function()
    local t = fresh()
    local turn = t.room.g:turn()
    local other = turn == 0 and 2 or 0
    local c, o = t.clients[turn], t.clients[other]
    local move = c.last("state").moves[1]
    untouched(t, function() assert.is_nil(o.say { type = "move", move = move }) end)
    assert.equals("out-of-turn", (error_of(o)))
    untouched(t, function() assert.is_nil(c.say { type = "move", move = move, seat = other }) end)
    assert.equals("not-your-seat", (error_of(c)))
    untouched(t, function() assert.is_nil(t.watcher.say { type = "move", move = move }) end)
    assert.equals("not-your-seat", (error_of(t.watcher)))
    untouched(t, function() assert.is_nil(c.say { type = "hint", seat = other }) end)
    assert.equals("not-your-seat", (error_of(c)))
  end)

  it("a move the rules refuse: a refusal with the game's words, the rule id apart", function()
    local t = fresh()
    local c = t.clients[t.room.g:turn()]
    untouched(t, function() assert.is_nil(c.say { type = "move", move = "zz" }) end)
    local f = c.frames[#c.frames]
    assert.equals("refusal", f.type)
    assert.equals("zz", f.move)
    assert.matches("not a move", f.reason)
    -- (a refusal led by its rule id names it: a capture of a card of
    -- another value, D11)
    local g = t.room.g
    local v = g:view(g:turn())
    local bad
    for _, card in ipairs(v.hand) do
      for _, loose in ipairs(v.table.loose) do
        local ok, why = g:check(card .. " x " .. loose)
        if not ok and why:match("^D11:") then bad = card .. " x " .. loose end
      end
    end
    assert.is_string(bad, "a capture the rules refuse")
    untouched(t, function() assert.is_nil(c.say { type = "move", move = bad }) end)
    f = c.frames[#c.frames]
    assert.equals("refusal", f.type)
    assert.equals("D11", f.rule)
    assert.matches("^D11: ", f.reason)
  end)

  it("a move read only as far as the rule it breaks is refused with that rule first (P7, P14)", function()
    local t = table_of { game = "pilotta", humans = 4, ai = "random", seed = 3, match = false }
    join_all(t)
    t.host:start()
    local c = t.clients[t.room.g:turn()]
    for move, id in pairs { ["90 nt"] = "P7", ["250h"] = "P14" } do
      untouched(t, function() assert.is_nil(c.say { type = "move", move = move }) end)
      local f = c.frames[#c.frames]
      assert.equals("refusal", f.type)
      assert.equals(id, f.rule)
      assert.matches("^" .. id .. ": ", f.reason)
    end
    untouched(t, function() assert.is_nil(c.say { type = "move", move = "90 x" }) end)
    assert.matches("^not a move: ", c.frames[#c.frames].reason)
    assert.is_nil(c.frames[#c.frames].rule)
  end)

  it("a bad token, a wrong room, a message before hello", function()
    local t = table_of { rules = "diloti", players = 4, humans = 2, ai = "random", seed = 9, match = false }
    t.host:start()
    local tok = t.host.seat_tokens[0]
    local c = t.client(0, tok)
    untouched(t, function() assert.is_nil(c.say { type = "move", move = 1 }) end)
    assert.equals("not-joined", (error_of(c)))
    local wrong = tok:sub(1, -2) .. (tok:sub(-1) == "0" and "1" or "0")
    for _, hello in ipairs {
      { type = "hello", room = t.host.id, token = wrong },
      { type = "hello", room = t.host.id, token = tok:sub(1, 32) },
      { type = "hello", room = t.host.id, token = "" },
      { type = "hello", room = t.host.id .. "x", token = tok },
      { type = "hello", room = t.host.seat_tokens[2], token = tok },
    } do
      untouched(t, function() assert.is_nil(c.say(hello)) end)
      assert.equals("bad-token", (error_of(c)))
    end
    assert.is_nil(c.last("welcome"))
    assert.is_true(c.say { type = "hello", room = t.host.id, token = tok })
    assert.equals(0, c.last("welcome").seat)
  end)

  it("a connection past its rate is refused until its bucket fills again (the clock handed in)", function()
    local t = fresh()
    local c = t.clients[0]
    for _ = 1, protocol.RATE.burst do c.say { type = "ping" } end
    assert.is_nil(c.say { type = "ping", id = 1 })
    assert.equals("rate-limited", (error_of(c)))
    t.clock.now = t.clock.now + 1
    assert.is_true(c.say { type = "ping", id = 2 })
    assert.equals("pong", c.frames[#c.frames].type)
    assert.equals(2, c.frames[#c.frames].id)
  end)

  it("hint, why and explain: for its own seat, through the front end's advisor, rate-limited", function()
    local asked = {}
    local t = table_of { rules = "diloti", players = 4, humans = 2, ai = "random", seed = 9, match = false,
      advise = function(kind, _, seat) asked[#asked + 1] = { kind, seat } return { "line\27[31m one", "two" } end }
    join_all(t)
    t.host:start()
    local c = t.clients[2]
    assert.is_true(c.say { type = "hint" })
    local f = c.frames[#c.frames]
    assert.equals("advice", f.type)
    assert.is_nil(f.lines[1]:find("\27", 1, true))
    assert.same({ "hint", 2 }, asked[1])
    assert.is_true(c.say { type = "why", move = "7h" })
    assert.is_true(c.say { type = "explain", n = 1 })
    assert.is_nil(c.say { type = "hint" })
    local code, words = error_of(c)
    assert.equals("rate-limited", code)
    -- how long to wait: a token comes back every 5 s (ADVICE_RATE)
    assert.equals("too many requests for advice: ask again in 5 s", words)
    local t2 = fresh()
    assert.is_nil(t2.clients[0].say { type = "hint" })
    assert.equals("not-offered", (error_of(t2.clients[0])))
  end)

  it("advice is limited per seat: joining again or on a second connection gets no fresh bucket", function()
    local answered = 0
    local t = table_of { rules = "diloti", players = 2, humans = 1, ai = "random", seed = 9, match = false,
      advise = function() answered = answered + 1 return { "a word" } end }
    join_all(t)
    t.host:start()
    local seat = t.room.g:turn()
    local tok = t.host.seat_tokens[seat]
    for _ = 1, 15 do
      local c = t.client(seat, tok)
      assert.is_true(c.hello())
      for _ = 1, 3 do c.say { type = "hint" } end
      c.conn:close()
    end
    assert.equals(protocol.ADVICE_RATE.burst, answered)
    -- (the seat's bucket fills again with time, whichever connection asks)
    t.clock.now = t.clock.now + 60
    local c = t.client(seat, tok)
    assert.is_true(c.hello())
    assert.is_true(c.say { type = "hint" })
  end)

  it("a fault of the host's own is an internal error, its words kept from the client", function()
    local t = table_of { rules = "diloti", players = 4, humans = 2, ai = "random", seed = 9, match = false,
      advise = function(_, r, seat) error("secret " .. table.concat(r.g:view(seat).hand, " ")) end }
    join_all(t)
    t.host:start()
    local c = t.clients[0]
    local ok, code, words = c.say { type = "hint" }
    assert.is_nil(ok)
    assert.equals("internal", code)
    assert.matches("secret", words)
    local f = c.frames[#c.frames]
    assert.equals("internal", f.code)
    assert.is_nil(f.message:find("secret", 1, true))
    assert.is_true(c.say { type = "ping" })
  end)

  it("names are cleaned and bounded", function()
    local t = table_of { rules = "diloti", players = 4, humans = 2, ai = "random", seed = 9, match = false,
      names = { [0] = "Ann\27[2J" .. string.rep("x", 100) } }
    join_all(t)
    local w = t.clients[0].last("welcome")
    assert.is_nil(w.names["0"]:find("\27", 1, true))
    assert.is_true(#w.names["0"] <= protocol.MAX_NAME)
  end)
end)

describe("the wire: whatever a client sends", function()
  it("random bytes and broken messages: an error each, the room untouched, never a fault", function()
    local t = table_of { rules = "diloti", players = 4, humans = 2, ai = "random", seed = 14, match = false }
    join_all(t)
    t.host:start()
    -- (the seat not to move: a well-formed move by chance is refused too)
    local c = t.clients[t.room.g:turn() == 0 and 2 or 0]
    local rand = require("diloti.core").rng(99)
    local pieces = { "{", "}", "[", "]", '"', ":", ",", "\\", "\\u12", "1", "-", "e9", "true", "null", " ",
      '"v"', '"type"', '"move"', '"hello"', '"seat"', "1e999", "\0", "\255", '"\\ud800"' }
    local before = t.room.g:position()
    for i = 1, 3000 do
      local parts = {}
      if i % 3 == 0 then parts[1] = '{"v":1,"type":"move","move":' end
      for _ = 1, rand(12) do parts[#parts + 1] = pieces[rand(#pieces)] end
      local text = table.concat(parts)
      if i % 5 == 0 then
        local b = {}
        for k = 1, rand(30) do b[k] = string.char(rand(256) - 1) end
        text = table.concat(b)
      end
      t.clock.now = t.clock.now + 1
      local ok, code = c.conn:receive(text)
      assert.is_true(ok == true or (ok == nil and code ~= "internal"), text)
      if ok == nil and code ~= "refused" then assert.equals("error", c.frames[#c.frames].type) end
    end
    assert.equals(before, t.room.g:position())
  end)
end)

describe("the wire: reconnecting", function()
  it("with the last seq seen: the frames missed, in order, then on as before", function()
    local t = table_of { rules = "diloti", players = 4, humans = 2, ai = "random", seed = 12, match = false }
    join_all(t)
    t.host:start()
    local c0 = t.clients[0]
    local seen = c0.frames[#c0.frames].seq
    c0.conn:close()
    -- seat 2's moves go on while seat 0 is away
    local g = t.room.g
    for _ = 1, 3 do
      if g:turn() == 2 then t.clients[2].say { type = "move", move = 1 } end
    end
    local again = t.client(0, t.host.seat_tokens[0])
    assert.is_true(again.hello(seen))
    assert.equals("replay", again.frames[1].type == "welcome" and again.frames[1].resume)
    local missed = {}
    for i = 2, #again.frames do missed[#missed + 1] = again.frames[i] end
    local s = t.host.streams[0]
    local want = {}
    for _, f in ipairs(s.frames) do if f.seq > seen then want[#want + 1] = json.decode(f.text) end end
    assert.same(want, missed)
    for i, f in ipairs(missed) do assert.equals(seen + i, f.seq) end
    assert.same({}, t.leaks)
    -- (the old connection hears nothing more)
    local n = #c0.frames
    local third = t.client(0, t.host.seat_tokens[0])
    assert.is_true(third.hello(again.frames[#again.frames].seq))
    assert.equals("replaced", again.frames[#again.frames].code)
    assert.equals("replay", third.frames[1].resume)
    again = third
    if g:turn() == 0 then assert.is_true(again.say { type = "move", move = 1 }) end
    assert.equals(n, #c0.frames)
  end)

  it("with a seq the backlog no longer reaches: a fresh state", function()
    local r = assert(room.new { rules = "diloti", players = 4, humans = 2, ai = "random", seed = 12,
      match = false })
    local h = protocol.host(r, { backlog = 4, random = counting_random(), clock = function() return 0 end })
    h:start()
    for _ = 1, 6 do h:broadcast() end
    local c = { frames = {} }
    c.conn = h:connect(function(text) c.frames[#c.frames + 1] = json.decode(text) end)
    assert.is_true(c.conn:receive(json.encode { v = 1, type = "hello", room = h.id, token = h.seat_tokens[0],
      last = 1 }))
    assert.equals("fresh", c.frames[1].resume)
    assert.equals(2, #c.frames)
    assert.equals("state", c.frames[2].type)
    assert.equals(h.streams[0].seq, c.frames[2].seq)
    -- (a seq from the future: fresh too)
    local d = { frames = {} }
    d.conn = h:connect(function(text) d.frames[#d.frames + 1] = json.decode(text) end)
    d.conn:receive(json.encode { v = 1, type = "hello", room = h.id, token = h.seat_tokens[0], last = 1000000 })
    assert.equals("fresh", d.frames[1].resume)
    assert.is_true(#h.streams[0].frames <= 4)
  end)

  it("a viewer's fresh state goes to its own connection only: other spectators hear nothing of a join", function()
    local r = assert(room.new { rules = "diloti", players = 2, humans = 2, seed = 12, match = false })
    local h = protocol.host(r, { random = counting_random(), clock = function() return 0 end })
    h:start()
    local a = { frames = {} }
    a.conn = h:connect(function(text) a.frames[#a.frames + 1] = json.decode(text) end)
    a.conn:receive(json.encode { v = 1, type = "hello", room = h.id, token = h.watch })
    local kept, n = #h:stream(nil).frames, #a.frames
    for _ = 1, 5 do
      local b = { frames = {} }
      b.conn = h:connect(function(text) b.frames[#b.frames + 1] = json.decode(text) end)
      b.conn:receive(json.encode { v = 1, type = "hello", room = h.id, token = h.watch })
      assert.equals("state", b.frames[2].type)
      b.conn:close()
    end
    assert.equals(n, #a.frames)
    assert.equals(kept, #h:stream(nil).frames)
    -- (a reconnect after the numbers the joins took is a replay: they stand for nothing missed)
    local c = { frames = {} }
    c.conn = h:connect(function(text) c.frames[#c.frames + 1] = json.decode(text) end)
    c.conn:receive(json.encode { v = 1, type = "hello", room = h.id, token = h.watch, last = a.frames[n].seq })
    assert.equals("replay", c.frames[1].resume)
  end)
end)

describe("the wire: who is connected (presence)", function()
  local function client(h, token)
    local c = { frames = {} }
    c.conn = h:connect(function(text) c.frames[#c.frames + 1] = json.decode(text) end)
    c.conn:receive(json.encode { v = 1, type = "hello", room = h.id, token = token })
    function c.last(ty)
      for i = #c.frames, 1, -1 do if c.frames[i].type == ty then return c.frames[i] end end
    end
    return c
  end

  it("a host made with presence: welcome says who is connected, and every viewer hears who comes and goes", function()
    local r = assert(room.new { rules = "diloti", players = 4, humans = 2, ai = "random", seed = 12, match = false })
    local h = protocol.host(r, { presence = true, random = counting_random(), clock = function() return 0 end })
    h:start()
    local a = client(h, h.seat_tokens[0])
    assert.same({ ["0"] = true, ["1"] = false, ["2"] = false, ["3"] = false }, a.last("welcome").connected)
    local w = client(h, h.watch)
    local b = client(h, h.seat_tokens[2])
    local p = a.last("presence")
    assert.same({ ["0"] = true, ["1"] = false, ["2"] = true, ["3"] = false }, p.connected)
    assert.equals(1, p.watching)
    assert.equals(h.streams[0].seq, p.seq) -- (a reply: its stream's newest number, not kept)
    b.conn:close()
    assert.same({ ["0"] = true, ["1"] = false, ["2"] = false, ["3"] = false }, w.last("presence").connected)
    for _, f in ipairs(h.streams[0].frames) do assert.falsy(f.text:find('"presence"', 1, true)) end
  end)

  it("watchers coming and going tell nobody: the count rides with the next seat's change", function()
    local r = assert(room.new { rules = "diloti", players = 2, humans = 2, seed = 5, match = false })
    local h = protocol.host(r, { presence = true, random = counting_random(), clock = function() return 0 end })
    h:start()
    local a = client(h, h.seat_tokens[0])
    local n = #a.frames
    for _ = 1, 5 do client(h, h.watch).conn:close() end
    local w = client(h, h.watch)
    assert.equals(n, #a.frames)
    assert.equals(1, w.last("welcome").watching)
    client(h, h.seat_tokens[1])
    assert.same({ ["0"] = true, ["1"] = true }, a.last("presence").connected)
    assert.equals(1, a.last("presence").watching)
  end)

  it("a host made without it sends none", function()
    local r = assert(room.new { rules = "diloti", players = 2, humans = 2, seed = 3, match = false })
    local h = protocol.host(r, { random = counting_random(), clock = function() return 0 end })
    h:start()
    local a = client(h, h.seat_tokens[0])
    client(h, h.seat_tokens[1])
    assert.is_nil(a.last("presence"))
    assert.is_nil(a.last("welcome").connected)
  end)
end)

describe("the wire: tokens", function()
  it("are 256 bits from /dev/urandom, each different, as hex", function()
    local r = assert(room.new { rules = "diloti", players = 4, humans = 4, seed = 1, match = false })
    local h = protocol.host(r)
    local all = { h.id, h.watch }
    for seat = 0, 3 do all[#all + 1] = h.seat_tokens[seat] end
    local seen = {}
    for _, tok in ipairs(all) do
      assert.equals(2 * protocol.TOKEN_BYTES, #tok)
      assert.matches("^%x+$", tok)
      assert.is_nil(seen[tok])
      seen[tok] = true
    end
  end)

  it("are compared whole: a prefix, a longer string, a non-string are no match", function()
    local s = protocol.token()
    local flip = s:sub(1, -2) .. (s:sub(-1) == "a" and "b" or "a")
    assert.is_false(protocol.same(s, flip))
    assert.is_true(protocol.same(s, s .. ""))
    assert.is_false(protocol.same(s, s:sub(1, -2)))
    assert.is_false(protocol.same(s, s .. "0"))
    assert.is_false(protocol.same(s, ""))
    assert.is_false(protocol.same(s, nil))
    assert.is_false(protocol.same(s, s:upper()))
  end)

  it("core.same_secret: whole strings, NUL bytes counted, another type no match", function()
    local core = require "diloti.core"
    assert.is_true(core.same_secret("ab\0cd", "ab\0cd"))
    assert.is_false(core.same_secret("ab\0cd", "ab\0ce"))
    assert.is_false(core.same_secret("ab\0cd", "ab"))
    assert.is_false(core.same_secret("ab", "ab\0"))
    assert.is_false(core.same_secret("12", 12))
    assert.is_false(core.same_secret("x", nil))
    assert.is_true(core.same_secret("", ""))
    assert.is_false(core.same_secret("", nil))
    assert.has_error(function() core.same_secret(nil, "x") end)
  end)

  it("an AI's seat has no token", function()
    local r = assert(room.new { rules = "diloti", players = 4, humans = 2, ai = "random", seed = 1, match = false })
    local h = protocol.host(r, { random = counting_random() })
    assert.is_string(h.seat_tokens[0])
    assert.is_nil(h.seat_tokens[1])
  end)
end)
