-- A room (lua/room.lua): a game, its seats, the driver, the record and
-- per-viewer event streams, apart from any terminal. And the table's
-- commands, one set per session (lua/table/commands.lua), built from
-- nothing that registers itself at require.
local support = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "support.lua")
require "diloti" -- (the compiled-in modules)
local room = require "diloti.room"

-- A room does no input or output: while a test plays, printing or
-- writing fails the test (and is counted, should the failure be caught).
local said
local real = { print = print, write = io.write, stdout = io.stdout, read = io.read }
local function silent()
  said = {}
  local function fail(...)
    said[#said + 1] = table.concat({ ... }, " ")
    error("a room wrote output: " .. tostring((...)), 2)
  end
  _G.print, io.write, io.read = fail, fail, fail -- luacheck: ignore 122
end
local function loud()
  _G.print, io.write, io.read = real.print, real.write, real.read -- luacheck: ignore 122
end

local function human(seat_kinds)
  local specs = {}
  for seat, k in pairs(seat_kinds) do
    specs[seat] = k == "human" and { kind = "human" } or { kind = "ai", name = k }
  end
  return specs
end

-- Every string in a value, deep.
local function strings(v, out)
  out = out or {}
  if type(v) == "string" then out[#out + 1] = v
  elseif type(v) == "table" then
    for k, x in pairs(v) do strings(k, out) strings(x, out) end
  end
  return out
end

-- The card words of a value ("Qh", "10d" in "Qh nobelote", "8h x 3c").
local function card_words(v)
  local out = {}
  for _, s in ipairs(strings(v)) do
    for w in s:gmatch("[%w]+") do out[#out + 1] = w end
  end
  return out
end

-- The cards in the hands of every seat but `viewer` now (all of them
-- for a spectator): none may show in what viewer hears.
local function hidden_from(g, viewer)
  local hidden = {}
  for seat, hand in pairs(g:state().hands or {}) do
    if seat ~= viewer then
      for _, c in ipairs(hand) do hidden[c] = seat end
    end
  end
  -- (Pilotta's shown declarations are public, still in hand: P38)
  for _, a in ipairs(g:state().announcements or {}) do
    if a.shown then for _, c in ipairs(a.cards or {}) do hidden[c] = nil end end
  end
  return hidden
end

-- Subscribes every seat and a spectator; checks each event as it comes
-- (the game is the one after the move). Returns the streams.
local function watch(r)
  local streams = { spectator = {} }
  local function check(viewer, e)
    local hidden = hidden_from(r.g, viewer)
    for _, w in ipairs(card_words(e)) do
      assert.is_nil(hidden[w], string.format("viewer %s hears %s, in seat %s's hand, in a %s event %s %s",
        tostring(viewer), w, tostring(hidden[w]), e.type, tostring(e.kind), tostring(e.text)))
    end
    if e.type == "move" and e.seat ~= viewer then
      assert.is_nil(e.index, "another seat's move number in its list")
      assert.are_not.equal("keep", e.kind, "another seat's private keep")
      for _, s in ipairs(strings(e)) do assert.is_nil(s:find("nobelote", 1, true), "a declined belote: " .. s) end
      if e.kind == "announce" and type(e.declaration) == "table" then assert.is_nil(e.declaration.cards) end
    end
  end
  for seat = 0, r.players_n - 1 do
    streams[seat] = {}
    r:subscribe(seat, function(e) check(seat, e) table.insert(streams[seat], e) end)
  end
  r:subscribe(nil, function(e) check(nil, e) table.insert(streams.spectator, e) end)
  return streams
end

-- Plays the room's round out: AIs by the room, people by their first
-- legal move (or a move chosen by pick). Returns the number of moves
-- the people played.
local function play_round(r, pick)
  local typed = 0
  for _ = 1, 500 do
    local why, seat = r:advance()
    if why == "over" then return typed end
    assert.equals("wait", why)
    local moves = r.g:moves()
    local m = pick and pick(r, seat, moves) or moves[1]
    local e, err = r:play(seat, m)
    assert.is_truthy(e, err)
    typed = typed + 1
  end
  error("the round did not end")
end

local function count(list, pred)
  local n = 0
  for _, e in ipairs(list) do if pred(e) then n = n + 1 end end
  return n
end

describe("a room", function()
  before_each(silent)
  after_each(loud)

  it("plays a whole Diloti round with AIs only, and no output", function()
    local r = assert(room.new { rules = "diloti", seed = 11, match = false,
      specs = human { [0] = "random", [1] = "greedy" } })
    local streams = watch(r)
    assert.equals("over", (r:advance()))
    assert.equals("round-over", r.g:phase())
    local moves = count(streams[0], function(e) return e.type == "move" end)
    assert.is_true(moves >= 24, moves)
    for _, k in ipairs { 1, "spectator" } do
      assert.equals(moves, count(streams[k], function(e) return e.type == "move" end))
    end
    assert.equals(1, count(streams.spectator, function(e) return e.type == "round_over" end))
    assert.same({}, said)
  end)

  it("tells its viewers a house rule's failure by its file's name, never the folder it lies in", function()
    -- (a server's house rules lie in its operator's folders: a failing
    -- score hook's warning named /home/<user>/.config/... to every viewer)
    local dir = support.tmpdir()
    support.write(dir .. "/failscore.lua", "return { name = 'failscore', description = 'd', "
      .. "hooks = { score = function() error('boom') end } }")
    local r = assert(room.new { rules = "diloti+failscore", rules_dirs = { dir }, seed = 11, match = false,
      specs = human { [0] = "random", [1] = "greedy" } })
    local streams = watch(r)
    assert.equals("over", (r:advance()))
    local warned = 0
    for _, k in ipairs { 0, 1, "spectator" } do
      for _, e in ipairs(streams[k]) do
        if e.type == "warning" and e.source == "rules" then
          warned = warned + 1
          assert.matches("^house rule 'failscore' %(failscore%.lua%), score hook: ", e.message)
          assert.is_nil(e.message:find(dir, 1, true), e.message)
        end
      end
    end
    assert.equals(3, warned)
    support.rmdir(dir)
  end)

  it("gives online advice by its house rules: why and hint know what a moves hook takes away", function()
    -- (the advisor's world was made without the room's hooks: with
    -- pilotta+no-contra, 'why contra' said Legal, and hint could say contra)
    local advice = require "diloti.server.advice"
    local r = assert(room.new { rules = "pilotta+no-contra", seed = 1, match = false,
      specs = human { [0] = "human", [1] = "cautious", [2] = "cautious", [3] = "cautious" } })
    assert.is_table(r.g:hooks())
    assert.is_nil(assert(room.new { rules = "pilotta", seed = 1, match = false,
      specs = human { [0] = "human", [1] = "cautious", [2] = "cautious", [3] = "cautious" } }).g:hooks())
    r:advance()
    assert.truthy(r.g:play("pass"))
    r:advance()
    assert.equals(0, r.g:turn())
    local lines = assert(advice.advise("why", r, 0, { move = "contra" }))
    assert.matches("^Not allowed: house rule no%-contra", lines[1])
    for _ = 1, 3 do
      local hint = assert(advice.advise("hint", r, 0, {}))
      assert.is_nil(table.concat(hint, " "):find("contra", 1, true))
    end
  end)

  it("plays a whole Diloti round with a person's moves", function()
    local r = assert(room.new { rules = "kontsina", players = 3, seed = 4, match = false,
      specs = human { [0] = "human", [1] = "random", [2] = "builder" } })
    watch(r)
    local typed = play_round(r)
    assert.is_true(typed >= 12, typed)
    assert.equals("round-over", r.g:phase())
    local mine = 0
    for _, h in ipairs(r.g:history()) do if h.seat == 0 then mine = mine + 1 end end
    assert.equals(typed, mine)
  end)

  it("plays a whole Pilotta round with AIs only, and with a person's moves", function()
    local r = assert(room.new { game = "pilotta", seed = 2, match = false,
      specs = human { [0] = "random", [1] = "follower", [2] = "random", [3] = "follower" } })
    watch(r)
    assert.equals("over", (r:advance()))
    assert.equals("round-over", r.g:phase())
    -- a person at seat 0 bids 80 in a suit and plays the first legal card
    local p = assert(room.new { game = "pilotta", seed = 3, match = false,
      specs = human { [0] = "human", [1] = "follower", [2] = "cautious", [3] = "follower" } })
    local streams = watch(p)
    local typed = play_round(p, function(_, _, moves)
      for _, m in ipairs(moves) do if m:match("^80") then return m end end
    end)
    assert.is_true(typed >= 8, typed)
    assert.equals("round-over", p.g:phase())
    assert.equals(1, count(streams[2], function(e) return e.type == "round_over" end))
    assert.same({}, said)
  end)

  it("never sends a hidden card of another seat: announcements, belote declined, private keeps", function()
    -- Pilotta rounds with announcements and belotes: seat 0 a person who
    -- announces and shows what it can, and declines the belote.
    local announced, declined = 0, 0
    for seed = 1, 12 do
      local r = assert(room.new { game = "pilotta", seed = seed, match = false,
        specs = human { [0] = "human", [1] = "expert", [2] = "expert", [3] = "expert" } })
      watch(r)
      play_round(r, function(_, _, moves)
        for _, m in ipairs(moves) do
          if m:match("^announce") or m == "show" then return m end
          if m:match("nobelote$") then return m end
          if m:match("^80") then return m end
        end
      end)
      for _, h in ipairs(r.g:history()) do
        if h.seat == 0 and h.kind == "announce" then announced = announced + 1 end
        if h.seat == 0 and tostring(h.move):match("nobelote") then declined = declined + 1 end
      end
    end
    assert.is_true(announced > 0, "no announcement in these rounds")
    assert.is_true(declined > 0, "no belote declined in these rounds")
    -- Diloti's private keep (V-face-card-claim): only the keeper hears it
    local r = assert(room.new { rules = "face-card-claim-any-deal", match = false,
      position = "dealer=1; turn=0; ply=9; hands=2c / 3d; table=9s; pack=Jc Jd Jh Qc Qd Qh Qs Kc Kd Kh Ks 10c",
      specs = human { [0] = "human", [1] = "human" } })
    local streams = watch(r)
    assert.is_truthy(r:play(0, "2c lay"))
    assert.is_truthy(r:play(1, "3d lay"))
    assert.equals("claim", r.g:phase())
    assert.is_truthy(r:play(0, "keep"))
    assert.equals(1, count(streams[0], function(e) return e.kind == "keep" end))
    assert.equals(0, count(streams[1], function(e) return e.kind == "keep" end))
    assert.equals(0, count(streams.spectator, function(e) return e.kind == "keep" end))
  end)

  it("shows a spectator no hand", function()
    for _, o in ipairs { { rules = "diloti", seed = 5 }, { game = "pilotta", seed = 5 } } do
      o.specs = o.game and human { [0] = "human", [1] = "random", [2] = "random", [3] = "random" }
        or human { [0] = "human", [1] = "random" }
      local r = assert(room.new(o))
      r:advance()
      local v = r:view(nil)
      assert.is_nil(v.hand)
      -- (what a spectator has not seen is every card out of sight: the
      -- list names no holder, so it is left out of the scan)
      v.unseen = nil
      local hidden = hidden_from(r.g, nil)
      for _, w in ipairs(card_words(v)) do assert.is_nil(hidden[w], w .. " is in a hand") end
      assert.is_table(r:view(0).hand)
    end
  end)

  it("seats a person, an AI or a learner at a seat, the game untouched", function()
    local r = assert(room.new { rules = "diloti", seed = 8, specs = human { [0] = "human", [1] = "random" } })
    assert.equals("wait", (r:advance()))
    local pos = r.g:position()
    -- the person's seat given to an AI: the AIs play on
    assert.is_truthy(r:seat(0, { kind = "ai", name = "greedy" }))
    assert.equals(pos, r.g:position())
    local e = r:step()
    assert.is_truthy(e)
    assert.equals("move", e.type)
    assert.equals(0, e.seat)
    -- and back to a person, or a lesson's learner: the room waits for them
    assert.is_truthy(r:seat(0, { kind = "lesson" }))
    assert.is_truthy(r:seat(1, { kind = "human" }))
    local why, seat = r:advance()
    assert.equals("wait", why)
    assert.is_true(r:is_outside(seat))
    assert.is_truthy(r:play(seat, r.g:moves()[1]))
    -- bad seats and bad AIs are refused, the seats as they were
    for _, bad in ipairs { { 2, { kind = "human" } }, { 0, { kind = "ghost" } },
      { 1, { kind = "ai", name = "nobody" } }, { 1, "human" } } do
      local ok, err = r:seat(bad[1], bad[2])
      assert.is_nil(ok)
      assert.is_string(err)
    end
    assert.same({ kind = "lesson" }, r.specs[0])
    assert.same({ kind = "human" }, r.specs[1])
  end)

  it("keeps two rooms in one process apart", function()
    local specs = human { [0] = "human", [1] = "random" }
    local a = assert(room.new { rules = "diloti", seed = 9, specs = specs })
    local b = assert(room.new { rules = "diloti", seed = 9, specs = specs })
    local heard = { a = 0, b = 0 }
    a:subscribe(0, function() heard.a = heard.a + 1 end)
    b:subscribe(0, function() heard.b = heard.b + 1 end)
    local before = b.g:position()
    a:advance()
    assert.is_truthy(a:play(0, a.g:moves()[1]))
    a:advance()
    assert.equals(before, b.g:position())
    assert.equals(0, #b.g:history())
    assert.equals(0, heard.b)
    assert.is_true(heard.a > 0)
    assert.are_not.equal(a.players[1], b.players[1])
    -- seats given the same table stay each room's own
    assert.is_truthy(a:seat(1, { kind = "human" }))
    assert.same({ kind = "ai", name = "random" }, b.specs[1])
    -- and b plays on by itself
    b:advance()
    assert.is_truthy(b:play(0, b.g:moves()[#b.g:moves()]))
    assert.is_true(heard.b > 0)
  end)

  it("refuses a bad move with why, and leaves the game and the streams untouched", function()
    local r = assert(room.new { rules = "diloti", seed = 5, specs = human { [0] = "human", [1] = "random" } })
    r:advance()
    local heard = 0
    r:subscribe(nil, function() heard = heard + 1 end)
    local pos, n = r.g:position(), #r.g:history()
    local seat = r.g:turn()
    for _, bad in ipairs { "9zz", "Ah x Kc", { text = 1 }, 1.5, 999, true } do
      local e, why = r:play(seat, bad)
      assert.is_nil(e)
      assert.is_string(why)
    end
    local e, why = r:play(1 - seat, r.g:moves()[1])
    assert.is_nil(e)
    assert.matches("turn", why)
    e, why = r:play(7, r.g:moves()[1])
    assert.is_nil(e)
    assert.matches("no seat", why)
    assert.equals(pos, r.g:position())
    assert.equals(n, #r.g:history())
    assert.equals(0, heard)
    -- an AI's seat is not played from outside
    local ais = assert(room.new { rules = "diloti", seed = 5, specs = human { [0] = "random", [1] = "random" } })
    e, why = ais:play(ais.g:turn(), ais.g:moves()[1])
    assert.is_nil(e)
    assert.matches("computer", why)
  end)

  it("saves and loads its record", function()
    loud()
    local dir = support.tmpdir()
    silent()
    local r = assert(room.new { game = "pilotta", seed = 7, practice = false,
      specs = human { [0] = "human", [1] = "cautious", [2] = "random", [3] = "cautious" } })
    r:advance()
    for _ = 1, 3 do
      assert.is_truthy(r:play(0, r.g:moves()[1]))
      r:advance()
    end
    local path = dir .. "/game.dlt"
    assert.is_truthy(r:save(path, { practice = "off" }))
    local l, rec = room.load(path)
    loud()
    support.rmdir(dir)
    assert.is_truthy(l, rec)
    assert.equals(r.g:position(), l.g:position())
    assert.equals("off", rec.extra.practice)
    assert.same(r.specs, l.specs)
    assert.equals(7, l.opts.seed)
    assert.equals("pilotta", l.g:game())
    -- the loaded room plays on like the first
    assert.equals(r:advance(), l:advance())
    assert.equals(r.g:position(), l.g:position())
    local e1 = r:play(0, r.g:moves()[1])
    local e2 = l:play(0, l.g:moves()[1])
    assert.equals(e1.text, e2.text)
    local bad, why = room.load(dir .. "/none.dlt")
    assert.is_nil(bad)
    assert.is_string(why)
  end)
end)

-- ---------------------------------------------------------------------
-- The commands of a session

local ENV = { NO_COLOR = "1", TERM = "xterm", LANG = "C.UTF-8" }
local function session(extensions)
  local repl = require "diloti.table.repl"
  return assert(repl.new { write = function() end, read = function() return nil end,
    getenv = function(k) return ENV[k] end, clock = function() return 1 end,
    game = { ai = "random", seed = 1 }, extensions = extensions })
end

local function names(s)
  local out = {}
  for _, c in ipairs(s.commands.list) do out[#out + 1] = c.name end
  return out
end

-- The modules of a layer (lua/table/*.lua, lua/teach/*.lua, ...).
local function modules(dir, prefix)
  local out = {}
  local p = assert(io.popen("ls " .. support.q(dir)))
  for f in p:lines() do
    local m = f:match("^([%w_]+)%.lua$")
    if m then out[#out + 1] = prefix .. (m == "init" and "" or ("." .. m)) end
  end
  p:close()
  return out
end

describe("the commands of a session", function()
  it("are not changed by requiring any table or teach module", function()
    local before = names(session())
    local why = session().commands.find("why").run
    for _, layer in ipairs { { "lua/table", "diloti.table" }, { "lua/table/games", "diloti.table.games" },
      { "lua/teach", "diloti.teach" } } do
      for _, m in ipairs(modules(layer[1], layer[2])) do require(m) end
    end
    local s = session()
    assert.same(before, names(s))
    assert.equals(why, s.commands.find("why").run)
    assert.is_nil(s.commands.find("hint"))
    assert.same({}, s.observers)
  end)

  it("are each session's own: extensions and additions stay in theirs", function()
    local coached = session { require "diloti.teach.coach", (require "diloti.teach.learn") }
    local plain = session()
    assert.is_table(coached.commands.find("hint"))
    assert.is_table(coached.commands.find("learn"))
    assert.is_nil(plain.commands.find("hint"))
    assert.is_nil(plain.commands.find("learn"))
    assert.are_not.equal(coached.commands.find("why").run, plain.commands.find("why").run)
    coached.commands.add { name = "mine", run = function(T) T:print("mine") end }
    assert.is_nil(plain.commands.find("mine"))
    assert.is_nil(session().commands.find("mine"))
    -- the same extension installed again in a third session: its own
    -- commands, the second session unchanged
    local again = session { require "diloti.teach.coach" }
    assert.is_table(again.commands.find("hint"))
    assert.is_nil(plain.commands.find("hint"))
    assert.equals(#names(plain), #names(session()))
  end)

  it("take a command added with a name and run alone: help lists and explains it", function()
    local s = session()
    s.commands.add { name = "bare", run = function(T) T:print("bare ran") end }
    local out = {}
    s.write = function(t) out[#out + 1] = t end
    s:handle("help")
    s:handle("help bare")
    s:handle("bare")
    local text = table.concat(out)
    assert.is_nil(text:find("failed", 1, true), text)
    assert.matches("bare", text)
    assert.matches("bare ran", text)
  end)

  it("belong to a session that is a front end over its room", function()
    local s = session()
    assert.equals(s.room.g, s.g)
    local heard = {}
    s.room:subscribe(nil, function(e) heard[#heard + 1] = e end)
    s:advance()
    local seat = s:human_to_move()
    s:handle("1")
    local first
    for _, e in ipairs(heard) do if e.type == "move" then first = first or e end end
    assert.is_table(first)
    assert.equals(seat, first.seat)
    -- a game put at the table is put in the room, and played on there
    local copy = s.g:clone()
    s.g = copy
    assert.equals(copy, s.room.g)
    assert.equals(copy, s:driver().game)
  end)

  it("take a game's own commands, and never a move word", function()
    local commands = require "diloti.table.commands"
    local set = commands.new_set()
    set.use_game { name = "x", move_word = { lay = true }, commands = {
      { name = "stack", help = "the game's own", run = function() end },
      { name = "lay", help = "a move word", run = function() end } } }
    assert.is_table(set.find("stack"))
    assert.is_nil(set.find("lay"))
    set.use_game { name = "y", move_word = {} }
    assert.is_nil(set.find("stack"))
    local games = require "diloti.table.games"
    for _, name in ipairs(games.names()) do
      local s = session { require "diloti.teach.coach", (require "diloti.teach.learn") }
      assert.is_truthy(s:new_game { game = name, ai = "random" })
      for _, w in ipairs(games.get(name).move_words) do
        assert.is_nil(s.commands.find(w), name .. ": the move word '" .. w .. "' is a command")
      end
    end
  end)
end)
