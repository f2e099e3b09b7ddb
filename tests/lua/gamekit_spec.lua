-- The game kit (lua/gamekit.lua, issue 26): a game written in Lua gives
-- a small definition and gets a game handle with the methods and answers
-- of the C handles (docs/architecture.md, "The game handle", "Writing a
-- game in Lua"). The game here is a toy made for these checks only:
-- six cards 1c-6c, two each, the rest face down; a seat plays a card of
-- its hand (or says "peek", once a round: a private look at nothing);
-- each card scores its value; the round ends when both hands are empty.
require "diloti" -- (sets up the compiled-in modules)
local kit = require "diloti.gamekit"

local DECK = { "1c", "2c", "3c", "4c", "5c", "6c" }

local function toy(extra)
  local def = {
    name = "toy", rules = { players = 2, teams = false, hand_size = 2, target = 12 },
    messages = { round_over = "T5: the round is over", players = "T1: two players" },
    check = function(r)
      if r.hand_size ~= 2 then return "T2: hands are of two cards" end
      if r.target < 1 then return "T6: the target is at least 1" end
    end,
    deal = function(rules, dealer, rand)
      local d = kit.shuffle(DECK, rand)
      local first = 1 - dealer
      return { hands = { [first] = { d[1], d[2] }, [dealer] = { d[3], d[4] } }, pack = { d[5], d[6] },
        turn = first, points = { [0] = 0, [1] = 0 }, played = {}, peeked = {}, hand_size = rules.hand_size }
    end,
    moves = function(s)
      local out = {}
      for _, c in ipairs(s.hands[s.turn]) do
        out[#out + 1] = { text = c, kind = "play", card = c, value = c:byte() - 48 }
      end
      if not s.peeked[s.turn] then out[#out + 1] = { text = "peek", kind = "peek" } end
      return out
    end,
    read = function(text)
      local t = text:match("^%s*(%S+)%s*$")
      t = t and t:lower()
      if t == "peek" or (t and t:match("^%dc$")) then return t end
      return nil, "a card like 3c, or peek"
    end,
    refuse = function(_, text)
      if text == "peek" then return "T4: one peek a round" end
      return "T3: you do not hold " .. text
    end,
    apply = function(s, m)
      local seat = s.turn
      -- (a seat whose hand is empty is skipped)
      s.turn = #s.hands[1 - seat] > 0 and 1 - seat or seat
      if m.kind == "peek" then
        s.peeked[seat] = true
        return { secret = "nothing" }
      end
      for i, c in ipairs(s.hands[seat]) do
        if c == m.card then table.remove(s.hands[seat], i) end
      end
      s.played[#s.played + 1] = m.card
      s.points[seat] = s.points[seat] + m.value
      return { points = s.points[seat] }
    end,
    table = function(s) return s.played end,
    over = function(s) return #s.hands[0] + #s.hands[1] == 0 end,
    score = function(s)
      local p = s.points
      return { [0] = { total = p[0] }, [1] = { total = p[1] }, winner = p[0] > p[1] and 0 or 1 }
    end,
    public = function(e) e.secret = nil return e end,
    explain = function(_, m) return "plays " .. m.text end,
  }
  for k, v in pairs(extra or {}) do def[k] = v end
  return kit.game(def)
end

local function snap(g)
  local function ser(v)
    if type(v) ~= "table" then return tostring(v) end
    local keys, out = {}, {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
    for _, k in ipairs(keys) do out[#out + 1] = tostring(k) .. "=" .. ser(v[k]) end
    return "{" .. table.concat(out, ",") .. "}"
  end
  return g:position() .. "|" .. ser(g:state()) .. "|" .. ser(g:history())
end

-- Plays the first listed card (never the peek) until the round ends.
local function finish_round(g)
  while g:phase() == "play" do assert(g:play(1)) end
end

describe("gamekit", function()
  local T = toy()

  describe("a rules part", function()
    it("gives base rules that carry the game, and checks rules tables", function()
      assert.same({ game = "toy", players = 2, teams = false, hand_size = 2, target = 12 }, T.base())
      assert.same(T.base(), T.base("toy"))
      local none, why = T.base("other")
      assert.is_nil(none)
      assert.matches("no base rules 'other'", why)
      assert.is_true(T.check(T.base()))
      local r = T.base()
      r.colour = "red"
      assert.matches("no rule 'colour' in toy", select(2, T.check(r)))
      r = T.base()
      r.target = "12"
      assert.matches("target should be a number", select(2, T.check(r)))
      r = T.base()
      r.hand_size = 3
      assert.matches("^T2:", select(2, T.check(r)))
      assert.matches("rules should be a table", select(2, T.check("toy")))
      r = T.base()
      r.game = "other"
      assert.matches("not toy's", select(2, T.check(r)))
    end)

    it("seats players as the front door asks (seat), and starts a whole rules table from the base", function()
      local r = T.base()
      assert.equals(r, T.seat(r, {}))
      assert.same(r, T.seat(r, { players = 2, teams = false }))
      local none, why = T.seat(r, { players = 3 })
      assert.is_nil(none)
      assert.matches("T1: two players", why, 1, true)
      assert.is_nil((T.seat(r, { teams = true })))
      assert.same(T.base(), T.custom_base { target = 3 })
    end)

    it("makes games from a spec, a rules table or options, and refuses what it cannot make", function()
      assert.equals(3, assert(T.new { rules = "toy+target=3", seed = 1 }):rules().target)
      assert.equals(7, assert(T.new { rules = { target = 7 }, seed = 1 }):rules().target)
      assert.equals(9, assert(T.new { target = 9, seed = 1 }):rules().target)
      local bad = {
        { { rules = "toy+colour=3" }, "no house rule 'colour' in toy" },
        { { rules = "toy+soy" }, "toy has no house rules" },
        { { rules = "other" }, "no game rules 'other' in toy" },
        { { rules = "toy+target=0" }, "T6" },
        { { rules = 12 }, "rules" },
        { { players = 3 }, "T1: two players" },
        { { teams = true }, "T1: two players" },
        { { dealer = 2 }, "dealer" },
        { { dealer = "0" }, "dealer" },
        { { position = "x" }, "cannot start from a position" },
        { { hooks = { moves = function() end } }, "no house rules" },
        { { seed = "x" }, "seed" },
      }
      for _, b in ipairs(bad) do
        local g, why = T.new(b[1])
        assert.is_nil(g, b[2])
        assert.matches(b[2], why, 1, true)
      end
      assert(T.new { hooks = {}, seed = 1 })
    end)

    it("deals the same cards from the same seed", function()
      assert.equals(T.new({ seed = 5 }):position(), T.new({ seed = 5 }):position())
      local differ = false
      for seed = 1, 20 do differ = differ or T.new({ seed = seed }):position() ~= T.new({ seed = 5 }):position() end
      assert.is_true(differ)
    end)

    it("refuses a definition that misses a part (a programming mistake)", function()
      assert.has_error(function() kit.game { name = "x", rules = {} } end)
      assert.has_error(function() toy { deal = 3 } end)
      assert.has_error(function() toy { name = 3 } end)
    end)
  end)

  describe("a handle", function()
    it("names its game and locks its metatable", function()
      local g = T.new { seed = 1 }
      assert.equals("toy", g:game())
      assert.equals("toy", g:rules().game)
      assert.is_false(getmetatable(g))
    end)

    it("lists moves as texts or tables, fresh each time", function()
      local g = T.new { seed = 1, dealer = 1 }
      local texts = g:moves()
      assert.equals(3, #texts)
      assert.equals("peek", texts[3])
      local list = g:moves(true)
      assert.same({ text = texts[1], index = 1, kind = "play", seat = 0, card = texts[1],
        value = texts[1]:byte() - 48 }, list[1])
      list[1].text, texts[1] = "zz", "zz"
      assert.are_not.equal("zz", g:moves()[1])
      assert.are_not.equal("zz", g:moves(true)[1].text)
      assert.same({ 3, true }, { g:count() })
      assert.has_error(function() g:count(0) end)
      assert.has_error(function() g:count(1.5) end)
    end)

    it("reads a move by its text, a form the game reads, its number or a table", function()
      local g = T.new { seed = 1 }
      local c = g:moves()[1]
      assert.equals(c, g:parse(c).text)
      assert.equals(c, g:parse(c:upper()).text)
      assert.equals(c, g:parse(1).text)
      assert.equals(c, g:parse(1.0).text)
      assert.equals(c, g:parse({ text = c }).text)
      assert.equals("peek", g:parse(" PEEK ").text)
      assert.same({ true, "plays " .. c }, { g:check(c) })
    end)

    it("refuses what is no legal move with nil, why, the game untouched", function()
      local g = T.new { seed = 1 }
      local held = {}
      for _, m in ipairs(g:moves()) do held[m] = true end
      local other
      for _, c in ipairs(DECK) do if not held[c] then other = c end end
      local before = snap(g)
      local cases = {
        { other, "T3: you do not hold " .. other },
        { "zz", "not a move: a card like 3c, or peek" },
        { "", "not a move" },
        { 4, "no move number 4 here (there are 3 moves)" },
        { 0, "no move number 0 here" },
        { 1.5, "not a move: 1.5 is not a whole number" },
        { 1e300, "no move number" },
        { true, "not a move: a move is its text, its number in the list or a table with its text" },
        { {}, "not a move: a move table needs its text (a string)" },
        { { text = 1 }, "not a move: a move table needs its text (a string)" },
        { function() end, "not a move" },
      }
      for _, case in ipairs(cases) do
        for _, method in ipairs({ "play", "parse" }) do
          local m, why = g[method](g, case[1])
          assert.is_nil(m, method .. " " .. tostring(case[1]))
          assert.matches(case[2], why, 1, true)
        end
        local ok, why = g:check(case[1])
        assert.is_false(ok)
        assert.matches(case[2], why, 1, true)
      end
      local m, why = g:play()
      assert.is_nil(m)
      assert.matches("not a move", why)
      assert.equals(before, snap(g))
      -- a move allowed once a round, refused the second time by the game's word
      assert(g:play("peek"))
      assert(g:play("peek"))
      assert.same({ nil, "T4: one peek a round" }, { g:play("peek") })
    end)

    it("answers a move with its effect and records it in the history", function()
      local g = T.new { seed = 1, dealer = 1 }
      local c = g:moves()[1]
      local e = assert(g:play(c, true))
      assert.same({ text = c, index = 1, kind = "play", seat = 0, side = 0, round = 1, deal = 1, ply = 0, number = 1,
        card = c, value = c:byte() - 48, points = c:byte() - 48, table = {}, xeri = false, dealt = false,
        redealt = false, round_over = false, match_over = false }, e)
      assert.is_nil(assert(g:play(1)).table, "no table unless asked")
      assert.same({ seat = 0, move = c, kind = "play", round = 1, deal = 1, ply = 0, round_over = false },
        g:history()[1])
      assert.equals(2, #g:history())
      assert.same({ "play", 0, 1, 1, 2 }, { g:where() })
    end)

    it("undoes a move exactly, and says false when there is nothing to undo", function()
      local g = T.new { seed = 3 }
      assert.is_false(g:undo())
      local steps = { snap(g) }
      while g:phase() ~= "match-over" do
        if g:phase() == "round-over" then assert(g:next_round()) else assert(g:play(g:moves()[1])) end
        steps[#steps + 1] = snap(g)
      end
      for i = #steps - 1, 1, -1 do
        assert.is_true(g:undo())
        assert.equals(steps[i], snap(g), "step " .. i)
      end
      assert.is_false(g:undo())
    end)

    it("clones into an independent game, its undo its own", function()
      local g = T.new { seed = 4 }
      assert(g:play(1))
      local c = g:clone()
      local before = snap(g)
      assert.equals(before, snap(c))
      assert(c:play(1))
      assert.equals(before, snap(g), "a move on the clone")
      assert(c:undo())
      assert(c:undo())
      assert.is_false(c:undo())
      assert.equals(before, snap(g), "undo on the clone")
      assert(g:play(1))
      assert.are_not.equal(snap(g), snap(c))
      -- tables handed out are copies
      g:state().hands[0][1] = "zz"
      g:view(0).hand[1] = "zz"
      g:history()[1].move = "zz"
      g:rules().target = 99
      assert.is_nil(g:position():find("zz"))
      assert.is_nil(g:history()[1].move:find("zz"))
      assert.equals(12, g:rules().target)
    end)

    it("keeps a clone's undo apart when both take back the same move and play on", function()
      local g = T.new { seed = 8 }
      local start = snap(g)
      assert(g:play(1))
      local c = g:clone()
      assert(g:undo())
      assert(c:undo())
      assert(g:play(2))
      assert(g:play(1))
      assert.equals(start, snap(c), "the clone's taken back state")
      assert(c:play(1))
      assert(c:undo())
      assert.equals(start, snap(c))
      assert(g:undo())
      assert(g:undo())
      assert.equals(start, snap(g))
    end)

    it("ends a round, deals the next and ends the match at the target", function()
      local g = T.new { seed = 2, target = 12 }
      assert.same({ nil, "the round is not over yet" }, { g:next_round() })
      finish_round(g)
      assert.equals("round-over", g:phase())
      assert.is_nil(g:turn())
      assert.same({}, g:moves())
      assert.same({ nil, "T5: the round is over" }, { g:play(1) })
      local h = g:history()
      assert.is_true(h[#h].round_over)
      assert.is_table(h[#h].breakdown)
      local r = g:result()
      assert.is_false(r.over)
      assert.equals(r.round[0].total, r.score[0])
      local n = assert(g:next_round())
      local rounds = 2
      assert.same({ round = 2, dealer = 0, deal = 1 }, n)
      assert.equals("next-round", g:history()[#g:history()].kind)
      while g:phase() ~= "match-over" do
        if g:phase() == "round-over" then assert(g:next_round()) rounds = rounds + 1 else assert(g:play(1)) end
      end
      r = g:result()
      assert.is_true(r.over)
      assert.is_true(r.score[r.winner] >= 12)
      assert.is_true(r.score[r.winner] > r.score[1 - r.winner])
      assert.equals(rounds, r.rounds)
      assert.same({ nil, "the match is over" }, { g:next_round() })
      assert.same({ nil, "the match is over" }, { g:play(1) })
      assert.equals(g:view(0).winner, r.winner)
    end)

    it("shows each seat its own hand, a spectator none, and no undealt card", function()
      local g = T.new { seed = 6 }
      local s = g:state()
      assert.equals(2, #s.pack)
      for seat = 0, 1 do
        local v = g:view(seat)
        assert.same(s.hands[seat], v.hand)
        assert.is_nil(v.hands)
        assert.is_nil(v.pack)
        assert.same({ [0] = 2, [1] = 2 }, v.hand_count)
        assert.equals(2, v.pack_count)
        assert.equals(seat, v.seat)
        assert.equals(0, v.turn, "the dealer's opponent leads (the dealer: the last seat)")
      end
      assert.is_nil(g:view(nil).hand)
      assert.is_nil(g:view("spectator").hand)
      assert.has_error(function() g:view(2) end)
      assert.has_error(function() g:view("x") end)
      local pos = g:position(0)
      assert.truthy(pos:find(table.concat(s.hands[0], " "), 1, true))
      assert.falsy(pos:find(table.concat(s.hands[1], " "), 1, true))
      assert.falsy(pos:find(s.pack[1], 1, true))
      local all = g:position(true)
      for seat = 0, 1 do assert.falsy(all:find(s.hands[seat][1], 1, true)) end
      assert.truthy(g:position():find(s.pack[1], 1, true))
      -- a table by seat reads as its items, in seat order
      assert.truthy(g:position():find("; score=0 0; ", 1, true), g:position())
      assert.truthy(g:position():find("; points=0 0; ", 1, true), g:position())
    end)

    it("gives the mover its whole effect and the others their public part", function()
      local g = T.new { seed = 1, dealer = 1 }
      local e = assert(g:play("peek"))
      assert.equals("nothing", e.secret)
      assert.same(e, g:public(e, 0))
      local other = g:public(e, 1)
      assert.is_nil(other.secret)
      assert.is_nil(other.index)
      assert.equals("peek", other.text)
      assert.is_nil(g:public(e, nil).index)
      assert.has_error(function() g:public("x", 0) end)
      assert.has_error(function() g:public(e, 5) end)
      -- another seat's history goes through the same cut
      assert.equals("peek", g:history(1)[1].move)
      assert.has_error(function() g:history(7) end)
    end)

    it("has no search, no sealed world and nothing to simulate unless the game gives them", function()
      local g = T.new { seed = 1 }
      for _, m in ipairs({ "search", "sealed", "simulate" }) do
        local r, why = g[m](g, 1, 1)
        assert.is_nil(r)
        assert.matches("toy", why)
      end
    end)

    it("is freed by close: any later call is an error", function()
      local g = T.new { seed = 1 }
      g:close()
      assert.has_error(function() g:moves() end, "the game has been freed")
      assert.has_error(function() g.play({}, 1) end)
    end)

    it("leaves the game as it was when the game's apply fails", function()
      local G = toy { apply = function(s) s.turn = 9 error("broken") end }
      local g = G.new { seed = 1 }
      local before = snap(g)
      assert.has_error(function() g:play(1) end)
      assert.equals(before, snap(g))
      assert.is_false(g:undo())
    end)
  end)
end)
