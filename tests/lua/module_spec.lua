-- The diloti module as a Lua programmer sees it: diloti.new, .rules,
-- .card, .variants, .sandbox, and every method of a game handle. Rule ids
-- refer to RULES.md; seats are 0-based everywhere.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"

local sorted, fields, has = support.sorted, support.fields, support.has

-- RULES.md example 1 and its complete move list (docs/notation.md §6).
local EX1 = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c"
local EX1_MOVES = {
  "2d x 2c", "2d lay", "2d + 6d = 8", "2d + 3h 5s 6d = G8", "2d + 3h 5s 6d 8c = G8", "2d + 6d 8c = G8",
  "8h x 2c 6d", "8h x 2c 3h 5s 6d", "8h x 3h 5s", "8h x 3h 5s 8c", "8h x 2c 3h 5s 6d 8c", "8h x 2c 6d 8c",
  "8h x 8c", "8h lay",
}
-- The last two cards of a round (RULES.md example 12, second part).
local LAST = "hands=Jc / 10h; table=10s Jd; deal=4; ply=46; pack=-"

local function at(position, rules)
  return assert(diloti.new{ position = position, rules = rules })
end

local function finish_round(g)
  assert(g:play("Jc x Jd"))
  return g:play("10h x 10s")
end

describe("the diloti module", function()
  it("exports new, rules, card, variants, box and a version string", function()
    assert.is_function(diloti.new)
    assert.is_function(diloti.rules)
    assert.is_function(diloti.card)
    assert.is_table(diloti.variants)
    assert.is_table(diloti.box)
    assert.is_string(diloti.version)
    assert.matches("^%d+%.%d+", diloti.version)
    for _, f in ipairs{ "resolve", "catalogue", "load_all", "load_source", "user_dir" } do
      assert.is_function(diloti.variants[f], f)
    end
    for _, f in ipairs{ "new", "of", "rng", "time_left" } do assert.is_function(diloti.box[f], f) end
  end)

  it("is the same module when required twice", function()
    assert.equals(diloti, require "diloti")
  end)

  describe("diloti.card", function()
    it("reads ASCII, Unicode and alternative spellings and gives the card's value (D1)", function()
      assert.same({ "10d", 10 }, { diloti.card("10d") })
      assert.same({ "10d", 10 }, { diloti.card("Td") })
      assert.same({ "10d", 10 }, { diloti.card("10♦") })
      assert.same({ "7h", 7 }, { diloti.card("7♡") })
      assert.same({ "Ac", 1 }, { diloti.card("1c") })
      assert.same({ "Ks", 0 }, { diloti.card("KS") })
    end)

    it("prints Unicode suits when asked", function()
      assert.equals("Q♠", (diloti.card("Qs", true)))
      assert.equals("10♦", (diloti.card("10d", true)))
    end)

    it("returns nil and a message for what is not a card", function()
      for _, s in ipairs{ "11c", "0c", "7x", "10", "", "7h " } do
        local c, why = diloti.card(s)
        assert.is_nil(c, s)
        assert.matches("is not a card", why)
      end
    end)

    it("raises an error for a non-string argument (a programming mistake)", function()
      assert.has_error(function() diloti.card({}) end)
    end)
  end)

  describe("diloti.rules", function()
    it("resolves the default spec to Diloti (D1-D24)", function()
      local r = assert(diloti.rules())
      assert.same({ "diloti" }, r.names)
      assert.equals(2, r.rules.players)
      assert.equals(6, r.rules.hand_size)
      assert.equals(4, r.rules.deals)
      assert.equals(61, r.rules.target)
      assert.is_true(r.rules.declarations)
      assert.same({ cards = 4, ace = 1, ten_diamonds = 2, two_clubs = 1, clubs = 0, xeri = 10 }, r.rules.points)
    end)

    it("resolves a combination into rules, hooks and names", function()
      local r = assert(diloti.rules("diloti+forced-capture+last-capture+target=121"))
      assert.same({ "diloti", "forced-capture", "last-capture", "target" }, r.names)
      assert.is_true(r.rules.forced_capture)
      assert.equals(121, r.rules.target)
      assert.is_function(r.hooks.score)
    end)

    it("accepts a rules table (a custom game based on the capture kind)", function()
      local r = assert(diloti.rules({ forced_capture = true }))
      assert.same({ "custom" }, r.names)
      assert.is_true(r.rules.forced_capture)
      assert.equals("many", r.rules.capture)
      local k = assert(diloti.rules({ capture = "one" }))
      assert.is_false(k.rules.declarations)
    end)

    it("returns nil and a message for an unknown variant", function()
      local r, why = diloti.rules("diloti+nope")
      assert.is_nil(r)
      assert.matches("unknown variant 'nope'", why)
    end)
  end)

  describe("diloti.new", function()
    it("deals a new two-player game in which the non-dealer plays first (D4, D5)", function()
      local g = assert(diloti.new{ seed = 1 })
      local s = g:state()
      assert.equals("play", g:phase())
      assert.equals((s.dealer + 1) % 2, g:turn())
      assert.equals(6, #s.hands[0])
      assert.equals(6, #s.hands[1])
      assert.equals(4, #s.table.loose)
      assert.equals(36, #s.pack)
    end)

    it("deals the same cards for the same seed, and different ones for another", function()
      local a, b, c = diloti.new{ seed = 42 }, diloti.new{ seed = 42 }, diloti.new{ seed = 43 }
      assert.equals(a:position(), b:position())
      assert.are_not.equal(a:position(), c:position())
    end)

    it("lets the caller choose the dealer (D4)", function()
      for dealer = 0, 1 do
        local g = assert(diloti.new{ seed = 5, dealer = dealer })
        assert.equals(dealer, g:state().dealer)
        assert.equals(1 - dealer, g:turn())
      end
      local g, why = diloti.new{ seed = 5, dealer = 2 }
      assert.is_nil(g)
      assert.matches("dealer", why)
    end)

    it("seats four players in partnerships with two deals a round (D7, D8)", function()
      local g = assert(diloti.new{ players = 4, seed = 3 })
      local r = g:rules()
      assert.equals(4, r.players)
      assert.is_true(r.teams)
      assert.equals(2, r.deals)
      local v = g:view(0)
      assert.equals(6, v.hand_counts[3])
      assert.equals(2, v.sides)
      assert.is_nil(v.score[2])
    end)

    it("deals Kontsina to three players in four deals (K7)", function()
      local g = assert(diloti.new{ rules = "kontsina", players = 3, seed = 3 })
      assert.equals(4, g:rules().deals)
      assert.equals(4, #g:view(0).hand)
      assert.equals(4, g:view(0).hand_counts[2])
    end)

    it("refuses three players of Diloti, naming the deal rule (D6)", function()
      local g, why = diloti.new{ players = 3 }
      assert.is_nil(g)
      assert.matches("3 players", why)
      assert.matches("D6", why)
    end)

    it("takes a match target", function()
      assert.equals(121, assert(diloti.new{ target = 121 }):rules().target)
    end)

    it("starts from a position string", function()
      local g = at(EX1)
      assert.equals(0, g:turn())
      assert.same({ "2d", "8h" }, { table.unpack(g:view(0).hand) })
    end)

    it("returns nil and the parser's message for a bad position", function()
      local g, why = diloti.new{ position = "hands=8h 2d / 9c; table=8h" }
      assert.is_nil(g)
      assert.equals("position, at 25: 8h is placed twice", why)
      g, why = diloti.new{ position = "table=5s" }
      assert.is_nil(g)
      assert.matches("hands=", why)
    end)

    it("returns nil and a message for unknown rules", function()
      local g, why = diloti.new{ rules = "diloti+colour" }
      assert.is_nil(g)
      assert.matches("unknown variant 'colour'", why)
    end)

    it("raises an error for arguments of the wrong type (programming mistakes)", function()
      assert.has_error(function() diloti.new{ seed = "x" } end)
      assert.has_error(function() diloti.new{ dealer = 0.5 } end)
    end)
  end)

  describe("a game handle", function()
    it("has a locked metatable and a readable tostring", function()
      local g = at(EX1)
      assert.is_false(getmetatable(g))
      assert.matches("^diloti game: 2 players, round 1, deal 1, seat 0 to play", tostring(g))
      assert.has_error(function() g.moves = nil end)
    end)

    it("lists the legal moves as strings (D11: one move per set of cards taken)", function()
      assert.same(sorted(EX1_MOVES), sorted(at(EX1):moves()))
    end)

    it("lists structured moves with text, kind, seat, card, value and the items taken", function()
      local g = at("hands=Ah 9d 2c / 8h 3c; table=9s P8@1(5c+3s)")
      local by = {}
      for _, m in ipairs(g:moves(true)) do by[m.text] = m end
      local grp = by["Ah + 9s P8@1 = G9"]
      assert.is_table(grp)
      assert.equals("group", grp.kind)
      assert.equals(0, grp.seat)
      assert.equals("Ah", grp.card)
      assert.equals(9, grp.value)
      assert.same({ "9s", "P8@1" }, grp.takes)
      assert.equals("raise", by["Ah + P8@1 = 9"].kind)
      assert.equals("capture", by["9d x 9s"].kind)
      assert.equals("lay", by["2c lay"].kind)
      assert.same({}, by["2c lay"].takes)
      assert.is_nil(by["2c lay"].value)
    end)

    it("plays a legal move: what it did, and the turn passes (D9)", function()
      local g = at(EX1)
      assert.truthy(g:play("8h x 8c, 5s+3h, 6d+2c"))
      assert.equals(1, g:turn())
      local f = fields(g:position(true))
      assert.equals("-", f.table)
      assert.equals("2c 3h 5s 6d 8c 8h / -", f.piles)
      assert.equals("1 0", f.xeri)
    end)

    it("plays a move given as a table from moves(true)", function()
      local g = at(EX1)
      for _, m in ipairs(g:moves(true)) do
        if m.text == "8h x 8c" then assert.truthy(g:play(m)) end
      end
      assert.equals(1, g:turn())
    end)

    it("refuses an illegal move with nil and '<rule id>: reason', leaving the game as it was (D11)", function()
      local g = at(EX1)
      local before = g:position()
      local ok, why = g:play("8h x 6d 5s")
      assert.is_nil(ok)
      assert.matches("^D11: ", why)
      assert.equals(before, g:position())
      assert.equals(0, #g:history())
    end)

    it("refuses a card the player does not hold (D9)", function()
      local ok, why = at(EX1):play("9c lay")
      assert.is_nil(ok)
      assert.equals("D9: you do not hold 9c", why)
    end)

    it("refuses a raise of your own declaration (D16)", function()
      local ok, why = at("hands=2h 7d 9c / 5h; table=P7@0(3c+4s)"):play("2h + P7@0 = 9")
      assert.is_nil(ok)
      assert.equals("D16: you may not raise your own declaration", why)
    end)

    it("refuses a declarer's raise of another declaration (D19)", function()
      local g = at("turn=1; hands=2h 7d Kc / 4d 5h Qs 10s; table=Ac P7@0(3c+4s)")
      assert.truthy(g:play("4d + Ac = 5"))
      local ok, why = g:play("2h + P5@1 = 7")
      assert.is_nil(ok)
      assert.matches("^D19: you own the plain declaration of 7:", why)
    end)

    it("says which declaration a declarer owns, and how a group's hold ends (D19, D18)", function()
      local _, why = at("turn=0; hands=8h 3c / 4d 5h; table=Kd G8@0(8s, 5c+3d)"):play("3c lay")
      assert.equals("D19: you own the group of 8s: you may not lay a card until it is captured or added to by "
        .. "someone else", why)
      _, why = at("turn=0; hands=8h 3c / 4d 5h; table=Kd P8@0(5c+3d)"):play("3c lay")
      assert.equals("D19: you own the plain declaration of 8: you may not lay a card until it is captured, "
        .. "raised or added to by someone else", why)
    end)

    it("cites the rule of the move typed for a value past 10: D15 a plain, D16 a raise, D2 a group", function()
      local g = at("turn=0; hands=2s 10h 4h / 4d 5h 10c; table=Kd 9c P10@1(4c+6d)")
      local _, why = g:play("2s + 9c = 11")
      assert.matches("D15: a declared value is 1 to 10, not 11", why, 1, true)
      _, why = g:play("2s + P10 = 12")
      assert.matches("D16: a declared value is 1 to 10, not 12", why, 1, true)
      _, why = g:play("2s + 9c = G11")
      assert.matches("D2: a declared value is 1 to 10, not 11", why, 1, true)
    end)

    it("refuses what does not parse with 'not a move' and where", function()
      local ok, why = at(EX1):play("zz")
      assert.is_nil(ok)
      assert.matches("^not a move: at 1: ", why)
    end)

    it("answers nil, why when the move is neither a string, a table with text nor a move number", function()
      local g = at(EX1)
      for _, bad in ipairs{ true, {}, { text = 1 } } do
        local ok, why = g:play(bad)
        assert.is_nil(ok)
        assert.matches("^not a move", why)
      end
    end)

    it("checks a move without playing it: true and what it does, or false and why", function()
      local g = at(EX1)
      local ok, what = g:check("8h x 8c 5s 3h 6d 2c")
      assert.is_true(ok)
      assert.matches("capture", what)
      assert.matches("D11", what)
      ok, what = g:check("2d + 6d = 8")
      assert.is_true(ok)
      assert.matches("declare 8", what)
      ok, what = g:check("8h x 6d 5s")
      assert.is_false(ok)
      assert.matches("^D11: ", what)
      assert.equals(0, g:turn())
      assert.equals(0, #g:history())
    end)

    it("undoes moves one by one back to the start, then says false", function()
      local g = at(EX1)
      local start = g:position()
      assert.truthy(g:play("2d lay"))
      local mid = g:position()
      assert.truthy(g:play("9c lay"))
      assert.is_true(g:undo())
      assert.equals(mid, g:position())
      assert.is_true(g:undo())
      assert.equals(start, g:position())
      assert.is_false(g:undo())
    end)

    it("clones into an independent game", function()
      local g = at(EX1)
      local c = g:clone()
      assert.equals(g:position(), c:position())
      assert.truthy(c:play("8h x 8c"))
      assert.equals(0, g:turn())
      assert.equals(1, c:turn())
      g = nil -- luacheck: ignore 311
      collectgarbage()
      assert.truthy(c:play("9c lay"))
    end)

    it("keeps a clone's house-rule hooks", function()
      local g = assert(diloti.new{ rules = "forced-capture+last-capture", position = LAST })
      local c = g:clone()
      finish_round(c)
      assert.equals(14, c:result().score[1])
    end)

    it("says whose turn it is, and nil once the round is over", function()
      local g = at(LAST)
      assert.equals(0, g:turn())
      assert.truthy(g:play("Jc x Jd"))
      assert.equals(1, g:turn())
      assert.truthy(g:play("10h x 10s"))
      assert.is_nil(g:turn())
      assert.equals("round-over", g:phase())
    end)

    it("has no moves once the round is over, and refuses any card (D22)", function()
      local g = at(LAST)
      finish_round(g)
      assert.same({}, g:moves())
      local ok, why = g:play("10h lay")
      assert.is_nil(ok)
      assert.matches("^D22: ", why)
    end)

    it("refuses to start the next round while the round is on (D22)", function()
      local ok, why = at(EX1):next_round()
      assert.is_nil(ok)
      assert.matches("^D22: ", why)
    end)

    it("starts the next round with the deal passed to the other player (D4)", function()
      local g = at(LAST)
      finish_round(g)
      local dealer = g:state().dealer
      assert.truthy(g:next_round())
      local s = g:state()
      assert.equals("play", g:phase())
      assert.equals(2, s.round)
      assert.equals(1 - dealer, s.dealer)
      assert.equals(dealer, g:turn())
      assert.equals(6, #s.hands[0])
      assert.same({ [0] = 4, [1] = 13 }, { [0] = s.score[0], [1] = s.score[1] })
    end)

    it("undoes the start of a round like a move", function()
      local g = at(LAST)
      finish_round(g)
      assert.truthy(g:next_round())
      local h = g:history()
      assert.equals("next-round", h[#h].kind)
      assert.is_true(g:undo())
      assert.equals("round-over", g:phase())
      assert.is_true(g:undo())
      assert.equals("play", g:phase())
    end)

    it("ends the match once a side reaches the target, and refuses another round (D24)", function()
      local g = at(LAST .. "; score=60 60")
      finish_round(g)
      assert.equals("match-over", g:phase())
      local r = g:result()
      assert.is_true(r.over)
      assert.equals(1, r.winner)
      local ok, why = g:next_round()
      assert.is_nil(ok)
      assert.matches("^D24: ", why)
    end)

    it("plays another round when the totals are level at the target (D24)", function()
      local g = at("hands=Jc / 10h; table=10s Jd; deal=4; ply=46; pack=-; score=70 61")
      finish_round(g)
      local r = g:result()
      assert.equals(74, r.score[0])
      assert.equals(74, r.score[1])
      assert.equals("round-over", g:phase())
      assert.is_false(r.over)
    end)

    it("scores a round per side: cards, aces, 10d, 2c and xeri (D23)", function()
      local g = at(LAST)
      finish_round(g)
      local r = g:result()
      local s0, s1 = r.round[0], r.round[1]
      assert.equals(26, s0.cards)
      assert.equals(26, s1.cards)
      assert.equals(0, s0.pts_cards + s1.pts_cards) -- 26-26: nobody gets the 4
      assert.equals(1, s1.xeris)
      assert.equals(10, s1.pts_xeri)
      assert.equals(4, s0.total)
      assert.equals(13, s1.total)
      assert.equals(1, r.round.winner)
      assert.same({ [0] = 4, [1] = 13 }, { [0] = r.score[0], [1] = r.score[1] })
      assert.equals(1, r.rounds)
    end)

    it("gives each seat a view of its own hand and only counts for the others", function()
      local g = assert(diloti.new{ seed = 11 })
      local s = g:state()
      for seat = 0, 1 do
        local v = g:view(seat)
        assert.equals(seat, v.seat)
        assert.same(s.hands[seat], { table.unpack(v.hand) })
        assert.equals(6, v.hand_counts[0])
        assert.equals(6, v.hand_counts[1])
        assert.is_nil(v.hands)
        assert.is_nil(v.pack)
        assert.equals(36, v.pack_count)
        assert.equals(52 - 6 - 4, #v.unseen)
        for _, c in ipairs(s.hands[1 - seat]) do assert.is_true(has(v.unseen, c)) end
        for _, c in ipairs(v.hand) do assert.is_false(has(v.unseen, c)) end
      end
    end)

    it("keys per-seat and per-side tables by 0-based seat numbers", function()
      local v = at(LAST .. "; score=3 9; xeri=1 2"):view(1)
      assert.equals(3, v.score[0])
      assert.equals(9, v.score[1])
      assert.equals(1, v.xeri[0])
      assert.equals(2, v.xeri[1])
      assert.equals(1, v.hand_counts[0])
      assert.is_nil(v.score[2])
    end)

    it("shows declarations with kind, value, owner, reference and components", function()
      local g = at("hands=Ah 9d 2c / 8h 3c; table=9s P8@1(5c+3s)")
      assert.truthy(g:play("Ah + 9s P8@1 = G9"))
      local decl = g:view(1).table.declarations[1]
      assert.equals("group", decl.kind)
      assert.equals(9, decl.value)
      assert.equals(0, decl.owner)
      assert.equals("G9@0", decl.ref)
      assert.same({ "Ah", "3s", "5c", "9s" }, { table.unpack(decl.cards) })
      assert.same({ "Ah", "3s", "5c" }, { table.unpack(decl.components[1]) })
      assert.same({ "9s" }, { table.unpack(decl.components[2]) })
    end)

    it("hands out plain views: changing one changes that copy only", function()
      local g = at(EX1)
      local v = g:view(0)
      assert.is_nil(getmetatable(v))
      v.turn, v.score[0], v.hand[1] = 1, 99, "Ac"
      assert.equals(0, g:view(0).score[0])
      assert.equals("2d", g:view(0).hand[1])
      assert.equals(0, g:turn())
      local s = g:state()
      s.hands[0][1] = "Kc"
      assert.equals("2d", g:state().hands[0][1])
    end)

    it("hands out a fresh view each time, and the view does not follow the game", function()
      local g = at(EX1)
      local v1, v2 = g:view(0), g:view(0)
      assert.are_not.equal(v1, v2)
      assert.truthy(g:play("8h x 8c"))
      assert.equals(2, #v1.hand)
      assert.equals(1, #g:view(0).hand)
    end)

    it("iterates views with pairs, ipairs and #", function()
      local v = at(EX1):view(0)
      local n = 0
      for _ in pairs(v.table.loose) do n = n + 1 end
      assert.equals(5, n)
      assert.equals(5, #v.table.loose)
      local cards = {}
      for _, c in ipairs(v.table.loose) do cards[#cards + 1] = c end
      assert.same({ "2c", "3h", "5s", "6d", "8c" }, cards)
    end)

    it("raises an error for a seat that does not exist", function()
      local g = at(EX1)
      assert.has_error(function() g:view(2) end)
      assert.has_error(function() g:view(-1) end)
    end)

    it("shows everything in state(): all hands and the pack (the god view)", function()
      local s = at(EX1):state()
      assert.is_nil(s.seat)
      assert.same({ "2d", "8h" }, { table.unpack(s.hands[0]) })
      assert.same({ "9c" }, { table.unpack(s.hands[1]) })
      assert.equals(44, #s.pack)
      assert.equals(44, s.pack_count)
      assert.equals(0, s.turn)
      assert.equals(1, s.dealer)
    end)

    it("writes its position, which reads back to the same game", function()
      local g = assert(diloti.new{ seed = 9 })
      for _ = 1, 5 do assert(g:play(g:moves()[1])) end
      local p = g:position()
      local h = at(p)
      assert.equals(p, h:position())
      assert.same(sorted(g:moves()), sorted(h:moves()))
    end)

    it("hides the pack's order when asked (pack=?N)", function()
      local p = at(EX1):position(true)
      assert.equals("dealer=1; turn=0; round=1; deal=1; ply=1; hands=2d 8h / 9c; table=2c 3h 5s 6d 8c; "
        .. "piles=- / -; xeri=0 0; score=0 0; won=0 0; last=-; pack=?44", p)
    end)

    it("returns a fresh rules table that does not change the game", function()
      local g = at(EX1)
      local r = g:rules()
      assert.equals("many", r.capture)
      assert.equals("face-triple", r.redeal)
      assert.equals("points", r.match)
      r.target = 1
      r.points.xeri = 0
      assert.equals(61, g:rules().target)
      assert.equals(10, g:rules().points.xeri)
    end)

    it("records the history with seat, kind, round, deal and xeri", function()
      local g = at(EX1)
      assert.truthy(g:play("8h x 2c 3h 5s 6d 8c"))
      assert.truthy(g:play("9c lay"))
      local h = g:history()
      assert.equals(2, #h)
      assert.equals("8h x 2c 3h 5s 6d 8c", h[1].move)
      assert.equals(0, h[1].seat)
      assert.equals("capture", h[1].kind)
      assert.is_true(h[1].xeri)
      assert.equals(1, h[1].round)
      assert.equals(1, h[1].deal)
      assert.equals("lay", h[2].kind)
      assert.is_false(h[2].xeri)
    end)

    it("records the canonical form of each move", function()
      local g = at("hands=6h 6c / 9c; table=6s 4d 2h")
      assert.truthy(g:play("6h + 6s 4d 2h = G6"))
      assert.equals("6h + 2h 4d 6s = G6", g:history()[1].move)
    end)

    it("hides a seat's private decisions from the others' history (V-face-card-claim)", function()
      local p = "dealer=1; turn=0; ply=9; hands=2c / 3d; table=9s; "
        .. "pack=Jc Jd Jh Qc Qd Qh Qs Kc Kd Kh Ks 10c"
      local g = assert(diloti.new{ rules = "face-card-claim-any-deal", position = p })
      assert.truthy(g:play("2c lay"))
      assert.truthy(g:play("3d lay"))
      assert.equals("claim", g:phase())
      assert.truthy(g:play("keep"))
      local mine, theirs = g:history(0), g:history(1)
      assert.equals(3, #mine)
      assert.equals("keep", mine[3].move)
      assert.equals(2, #theirs)
      assert.equals(3, #g:history())
    end)

    it("plays a whole match of random moves: every position has a move (D20), one declaration per owner (D19)",
      function()
        local g = assert(diloti.new{ seed = 2024 })
        local n = 0
        while g:phase() ~= "match-over" do
          if g:phase() == "round-over" then
            assert.truthy(g:next_round())
          else
            local moves = g:moves()
            assert.is_true(#moves > 0)
            assert.truthy(g:play(moves[(n * 7919) % #moves + 1]))
            n = n + 1
            local owners = {}
            for _, d in ipairs(g:state().table.declarations) do
              assert.is_nil(owners[d.owner])
              owners[d.owner] = true
            end
          end
        end
        local r = g:result()
        assert.is_true(r.over)
        assert.is_true(r.score[r.winner] >= 61)
        assert.is_true(r.score[r.winner] > r.score[1 - r.winner])
      end)
  end)

  describe("house-rule hooks given to diloti.new", function()
    local function no_lays(moves)
      local kept, why = {}, {}
      for _, m in ipairs(moves) do
        if m.kind == "lay" then why[m.text] = "house rule: no laying here" else kept[#kept + 1] = m end
      end
      return kept, why
    end

    it("filters the moves, and a vetoed move is refused with the hook's reason", function()
      local g = assert(diloti.new{ rules = {}, hooks = { moves = no_lays }, position = EX1 })
      local list = g:moves()
      assert.equals(12, #list)
      assert.is_false(has(list, "8h lay"))
      local ok, why = g:play("8h lay")
      assert.is_nil(ok)
      assert.equals("house rule: no laying here", why)
      local cok, cwhy = g:check("2d lay")
      assert.is_false(cok)
      assert.equals("house rule: no laying here", cwhy)
      assert.truthy(g:play("8h x 8c"))
    end)

    it("gives the moves hook the moves as tables and a state of its own", function()
      local seen
      local g = assert(diloti.new{ rules = {}, position = EX1, hooks = {
        moves = function(moves, state)
          state.turn = 1 -- its own copy
          seen = { n = #moves, kind = moves[1].kind, hand = #state.hands[0] }
          return moves
        end,
      } })
      assert.equals(14, #g:moves())
      assert.same({ n = 14, kind = seen.kind, hand = 2 }, seen)
      assert.equals(0, g:turn())
      assert.is_string(seen.kind)
    end)

    it("cannot add moves: a hook that returns a move the core does not allow is a clear error", function()
      local g = assert(diloti.new{ rules = {}, position = EX1, hooks = {
        moves = function(moves)
          moves[#moves + 1] = { text = "Kc lay", kind = "lay" }
          return moves
        end,
      } })
      local ok, why = pcall(g.moves, g)
      assert.is_false(ok)
      assert.matches("moves hook", why)
      assert.matches("'Kc lay', which is not a legal move", why, 1, true)
      -- A broken hook is the hook author's mistake: play raises too (a
      -- move the core refuses is refused before the hook is asked).
      assert.has_error(function() g:play("8h lay") end)
      assert.is_nil((g:play("Kc lay")))
    end)

    it("raises a clear error when the moves hook returns no list", function()
      local g = assert(diloti.new{ rules = {}, position = EX1, hooks = { moves = function() end } })
      local ok, why = pcall(g.moves, g)
      assert.is_false(ok)
      assert.matches("moves hook", why)
    end)

    it("reports an engine error when the moves hook leaves no legal move (D20)", function()
      local g = assert(diloti.new{ rules = {}, position = EX1, hooks = { moves = function() return {} end } })
      local ok, why = pcall(g.moves, g)
      assert.is_false(ok)
      assert.matches("D20", why)
      assert.equals(0, g:turn())
    end)

    it("lets a score hook change a round's points", function()
      local g = assert(diloti.new{ rules = {}, position = LAST, hooks = {
        score = function(score)
          score[0].total = score[0].total + 100
          return score
        end,
      } })
      assert.truthy(finish_round(g))
      assert.equals(104, g:result().score[0])
      assert.equals("match-over", g:phase())
      assert.equals(0, g:result().winner)
    end)

    it("keeps standard scoring, and says so, when the score hook fails", function()
      local g = assert(diloti.new{ rules = {}, position = LAST, hooks = { score = function() error("oops") end } })
      assert.truthy(g:play("Jc x Jd"))
      local ok, warn = g:play("10h x 10s")
      assert.truthy(ok)
      assert.matches("score hook", warn)
      assert.matches("standard scoring", warn)
      assert.matches("oops", warn)
      assert.equals(13, g:result().score[1])
      assert.equals("round-over", g:phase())
    end)

    it("treats a malformed score breakdown like a failed hook: warns, keeps standard scoring", function()
      local g = assert(diloti.new{ rules = {}, position = LAST, hooks = {
        score = function(score)
          score[0].total = "lots"
          return score
        end,
      } })
      assert.truthy(g:play("Jc x Jd"))
      local ok, res, warn = pcall(g.play, g, "10h x 10s")
      assert.is_true(ok) -- play must not raise after the move has been made
      assert.truthy(res)
      assert.matches("score hook", warn)
      assert.equals(13, g:result().score[1])
    end)

    it("lets a match hook end the match or play on", function()
      local g = assert(diloti.new{ rules = {}, position = LAST, hooks = { match = function() return 0 end } })
      finish_round(g)
      assert.equals("match-over", g:phase())
      assert.equals(0, g:result().winner)
      g = assert(diloti.new{ rules = {}, position = LAST .. "; score=60 60",
                             hooks = { match = function() return false end } })
      finish_round(g)
      assert.equals("round-over", g:phase())
      assert.is_nil(g:result().winner)
    end)

    it("keeps the standard match end, and says so, when the match hook fails", function()
      local g = assert(diloti.new{ rules = {}, position = LAST .. "; score=60 60",
                                   hooks = { match = function() error("nope") end } })
      assert.truthy(g:play("Jc x Jd"))
      local ok, warn = g:play("10h x 10s")
      assert.truthy(ok)
      assert.matches("match hook", warn)
      assert.equals("match-over", g:phase())
      assert.equals(1, g:result().winner)
    end)
  end)
end)
