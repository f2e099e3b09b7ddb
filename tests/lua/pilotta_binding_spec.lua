-- Pilotta's game handle (src/lua/handle.c over src/pilotta/lua/ops.c): the interface of
-- docs/architecture.md with Pilotta's answers. Rule ids refer to
-- PILOTTA.md (P…, PV-…); seats are 0-based, team 0 is seats 0 and 2.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local core = require "diloti.core"
local record = require "diloti.match.record"

local function new(opts)
  opts = opts or {}
  opts.game = opts.game or "pilotta"
  return assert(diloti.new(opts))
end

-- Plays the first legal action (or, with pick, the one it picks) n times
-- or until nothing is to be played; deals new rounds when asked.
local function advance(g, n, pick, rounds)
  for _ = 1, n do
    local ph = g:phase()
    if ph == "match-over" then return end
    if ph == "round-over" then
      if not rounds then return end
      assert(g:next_round())
    else
      local ms = g:moves()
      assert(g:play(pick and ms[pick(#ms)] or ms[1]))
    end
  end
end

local function picker(seed)
  local rng = core.rng(seed)
  return function(n) return rng(n) end
end

-- A seat-0 hand with nothing to announce, the auction done (80c by seat
-- 0), seat 0 to lead; the other hands hidden and dealt from the seed.
local P = "dealer=3; calls=80c, pass, pass, pass; hands=7h 8h 9h 10h Jh Qs Ks As / %s ?5 / ?8 / ?8"

describe("Pilotta's game handle", function()
  describe("making a game", function()
    it("answers diloti.new{game = 'pilotta'} and rules = 'pilotta' alike", function()
      local a = new{ seed = 4 }
      local b = assert(diloti.new{ rules = "pilotta", seed = 4 })
      assert.equals(a:position(), b:position())
      assert.equals("pilotta", a:game())
      assert.equals("diloti", assert(diloti.new{ seed = 1 }):game())
      assert.equals("auction", a:phase())
    end)

    it("reads house rules and a target from the spec (PV-partner-exempt, PV-target)", function()
      local g = assert(diloti.new{ rules = "pilotta+partner-exempt+target=151" })
      local r = g:rules()
      assert.is_true(r.partner_exempt)
      assert.equals(151, r.target)
      assert.equals("pilotta", r.game)
      assert.equals(4, r.players)
    end)

    it("lists the games and their bases", function()
      local names = {}
      for _, gm in ipairs(diloti.games()) do names[gm.name] = gm.bases end
      assert.same({ "pilotta" }, names.pilotta)
      assert.same({ "diloti", "kontsina" }, names.diloti)
      assert.equals("pilotta", diloti.game_of(new():rules()))
    end)

    it("refuses other player counts (P1), unknown games and mixed specs", function()
      local g, why = diloti.new{ game = "pilotta", players = 2 }
      assert.is_nil(g)
      assert.matches("^P1:", why)
      g, why = diloti.new{ game = "chess" }
      assert.is_nil(g)
      assert.matches("unknown game 'chess'", why)
      g, why = diloti.new{ game = "pilotta", rules = "diloti+soy" }
      assert.is_nil(g)
      assert.matches("for diloti, not pilotta", why)
      g, why = diloti.new{ game = "pilotta", dealer = 7 }
      assert.is_nil(g)
      assert.matches("^P1:", why)
      assert.has_error(function() core.open("pilotta", { seed = "x" }) end)
      assert.has_error(function() core.open("pilotta", { rules = { nonsense = true } }) end)
      assert.has_error(function() core.open("pilotta", { rules = { rounding = "8" } }) end)
      assert.has_error(function() core.open("pilotta", { rules = { players = 2 } }) end)
      -- (numbers past 32 bits are neither cut down to a valid one nor misquoted)
      assert.has_error(function() core.open("pilotta", { rules = { players = (1 << 32) + 4 } }) end)
      assert.has_error(function() core.open("pilotta", { rules = { target = 1 << 40 } }) end, "rules.target: "
        .. (1 << 40) .. " is out of range")
      assert.has_error(function() core.open("pilotta", 7) end)
    end)

    it("deals the same game from the same seed and dealer", function()
      assert.equals(new{ seed = 9, dealer = 2 }:position(), new{ seed = 9, dealer = 2 }:position())
      assert.equals(2, new{ seed = 9, dealer = 2 }:view(0).dealer)
    end)

    it("starts from a position, or says what is wrong with it", function()
      local g = new{ position = P:format("7c 8c 9c"), seed = 5 }
      assert.equals("play", g:phase())
      assert.equals(0, g:turn())
      local bad, why = diloti.new{ game = "pilotta", position = "hands=nonsense" }
      assert.is_nil(bad)
      assert.is_string(why)
    end)
  end)

  describe("moves and play", function()
    it("lists calls as texts and tables", function()
      local g = new{ seed = 7, dealer = 3 }
      local ms, st = g:moves(), g:moves(true)
      assert.equals("pass", ms[1])
      assert.equals(#ms, #st)
      assert.same({ text = "90h", index = 8, kind = "bid", seat = 0, value = 90, suit = "h", capot = false }, st[8])
      assert.equals("capot s", ms[#ms])
    end)

    it("plays by text, by number and by table, and answers the effect", function()
      local g = new{ seed = 7, dealer = 3 }
      local e = assert(g:play("90h"))
      assert.equals("90h", e.text)
      assert.equals("bid", e.kind)
      assert.equals(0, e.seat)
      assert.equals(0, e.side)
      assert.equals(1, e.round)
      assert.equals(0, e.ply)
      assert.equals(1, e.number)
      assert.is_false(e.round_over)
      assert.is_false(e.match_over)
      e = assert(g:play{ text = "contra" })
      assert.equals("contra", e.kind)
      assert.equals(1, e.seat)
      assert.equals(2, g:view(0).contract.mult)
      e = assert(g:play(1))
      assert.equals("pass", e.text)
      assert.equals(2, e.seat)
    end)

    it("refuses an illegal action with its rule id and leaves the game untouched", function()
      local g = new{ seed = 7, dealer = 3 }
      assert(g:play("100h"))
      assert(g:play("pass"))
      local before = g:position()
      local ok, why = g:play("90s")
      assert.is_nil(ok)
      assert.matches("^P14:", why)
      ok, why = g:play("contra")
      assert.is_nil(ok)
      assert.matches("^P16:", why)
      ok, why = g:play("Jh")
      assert.is_nil(ok)
      assert.matches("not a move", why)
      ok, why = g:play(500)
      assert.is_nil(ok)
      assert.matches("no move number 500", why)
      ok, why = g:play(1.5)
      assert.is_nil(ok)
      assert.matches("not a whole number", why)
      ok, why = g:play(2 ^ 70)
      assert.is_nil(ok)
      assert.matches("no move number", why)
      assert.equals(before, g:position())
    end)

    it("is robust to every argument type and size", function()
      local g = new{ seed = 2 }
      local before = g:position()
      for _, bad in ipairs{ true, false, {}, { text = 5 }, function() end, io.stdout, g } do
        assert.is_nil((g:play(bad)))
        assert.is_nil((g:parse(bad)))
        assert.is_false((g:check(bad)))
      end
      assert.is_nil((g:play()))
      for _, text in ipairs{ "", " ", string.rep("9", 100000), string.rep("pass ", 10000), "\0", "capot",
                             "90x", "announce", "show 7c", "trump h", "-80h", "80h belote" } do
        assert.is_nil((g:play(text)))
        assert.is_nil((g:parse(text)))
        assert.is_false((g:check(text)))
      end
      assert.is_nil(g:view().hand) -- (a spectator's view, issue 26)
      assert.has_error(function() g:view(4) end)
      assert.has_error(function() g:view(-1) end)
      assert.has_error(function() g:view("x") end)
      assert.has_error(function() g:history(9) end)
      assert.has_error(function() g:position(7) end)
      assert.has_error(function() g.moves(nil) end)
      assert.has_error(function() g.moves({}) end)
      assert.has_error(function() g.play(io.stdout, "pass") end)
      assert.has_error(function() g.turn(assert(diloti.new{ seed = 1 })) end)
      assert.equals(before, g:position())
    end)

    it("says what an announcement is when checking it: the run or four its cards make", function()
      local g = new{ seed = 3 }
      local ann
      for _ = 1, 200 do
        for _, m in ipairs(g:moves()) do if m:match("^announce") then ann = m end end
        if ann then break end
        if g:phase() == "round-over" then g:next_round() end
        local pick = g:moves()[1]
        for _, m in ipairs(g:moves()) do if m:match("^%d") then pick = m; break end end
        assert.truthy(g:play(pick))
      end
      assert.is_string(ann)
      local n = select(2, ann:gsub("%S+", "")) - 1
      local ok, what = g:check(ann)
      assert.is_true(ok)
      assert.matches("announces run of " .. n .. ", 20 %(P35%)", what)
    end)

    it("parses and checks without playing", function()
      local g = new{ seed = 7, dealer = 3 }
      local m = assert(g:parse("9h"))
      assert.equals("90h", m.text)
      assert.equals(8, m.index)
      local ok, what = g:check("9h")
      assert.is_true(ok)
      assert.matches("bids 90h", what)
      assert.equals(0, #g:history())
    end)

    it("reports tricks, belote and the end of the round in the effect", function()
      local g = new{ seed = 11, dealer = 3 }
      g:play("80h")
      local seen_trick, seen_round
      for _ = 1, 200 do
        if g:phase() == "round-over" or g:phase() == "match-over" then break end
        local e = assert(g:play(1, true))
        if e.kind == "play" then
          assert.is_table(e.table)
          assert.is_string(e.card)
          assert.is_boolean(e.belote)
        end
        if e.trick_over then
          seen_trick = e.trick_over
          assert.equals(3, #e.table)
        end
        if e.round_over then seen_round = e end
      end
      assert.is_table(seen_round)
      assert.is_table(seen_trick)
      assert.is_number(seen_trick.winner)
      assert.is_number(seen_trick.points)
      assert.equals(8, seen_trick.number)
    end)
  end)

  describe("undo and clone", function()
    it("undoes every step back to the deal, across rounds", function()
      local g = new{ seed = 3 }
      local start = g:position()
      local positions = { start }
      local pick = picker(5)
      for _ = 1, 120 do
        advance(g, 1, pick, true)
        positions[#positions + 1] = g:position()
      end
      for i = #positions - 1, 1, -1 do
        assert.is_true(g:undo())
        assert.equals(positions[i], g:position())
      end
      assert.is_false(g:undo())
      assert.equals(start, g:position())
    end)

    it("clones into an independent game", function()
      local g = new{ seed = 3 }
      advance(g, 10, nil, true)
      local c = g:clone()
      assert.equals(g:position(), c:position())
      advance(c, 5, nil, true)
      assert.are_not.equals(g:position(), c:position())
      assert.equals(#g:history() + 5, #c:history())
      c:close()
      assert.has_error(function() c:moves() end)
      assert.matches("freed", tostring(c))
      assert.equals(10, #g:history())
    end)
  end)

  describe("where the game stands", function()
    it("answers turn, phase and where together", function()
      local g = new{ seed = 7, dealer = 3 }
      assert.same({ "auction", 0, 1, 1, 0 }, { g:where() })
      g:play("pass")
      assert.same({ "auction", 1, 1, 1, 1 }, { g:where() })
    end)

    it("has nobody to act once a round is thrown in (P19), and deals the next", function()
      local g = new{ seed = 7, dealer = 3 }
      for _ = 1, 4 do g:play("pass") end
      assert.equals("round-over", g:phase())
      assert.is_nil(g:turn())
      local r = g:result()
      assert.is_true(r.round.thrown_in)
      assert.same({ [0] = 0, [1] = 0 }, r.score)
      local nr = assert(g:next_round())
      assert.equals(2, nr.round)
      assert.equals(0, nr.dealer)
      local no, why = g:next_round()
      assert.is_nil(no)
      assert.matches("^P10:", why)
    end)
  end)

  describe("views (P50)", function()
    it("hold the seat's own hand, the calls, the contract and the tricks", function()
      local g = new{ seed = 7, dealer = 3 }
      g:play("90h")
      for _ = 1, 3 do g:play("pass") end
      g:play(1)
      local v = g:view(1)
      assert.equals(1, v.seat)
      assert.equals(8, #v.hand)
      assert.same({ [0] = 7, 8, 8, 8 }, v.hand_count)
      assert.same({ text = "90h", kind = "bid", seat = 0 }, v.calls[1])
      assert.equals(90, v.contract.value)
      assert.equals("h", v.trumps)
      assert.equals(0, v.leader)
      assert.equals(0, v.winning)
      assert.equals(1, #v.trick)
      assert.equals(1, #v.tricks)
      assert.is_nil(v.hands)
      assert.equals(8, #g:state().hands[2])
    end)

    it("are identical for two deals differing only in cards the seat cannot see", function()
      local a = new{ position = P:format("7c 8c 9c") .. "; decls=1:7c 8c 9c", seed = 5 }
      local b = new{ position = P:format("7d 8d 9d") .. "; decls=1:7d 8d 9d", seed = 5 }
      assert.are_not.equals(a:position(), b:position())
      assert.same(a:view(0), b:view(0))
      assert.same(a:moves(), b:moves())
      assert.equals(20, a:view(0).announcements[1].value)
      assert.is_nil(a:view(0).announcements[1].cards)
      assert.same({ "7c", "8c", "9c" }, a:view(1).announcements[1].cards)
      assert.same({ "7c", "8c", "9c" }, a:state().announcements[1].cards)
      a:play("As")
      b:play("As")
      assert.same(a:view(0), b:view(0))
      assert.same(a:history(0), b:history(0))
    end)

    it("tell another seat's announcement by the words said at a table: a run's length, a four's rank (P35, P50)",
      function()
      local g = new{ position = "dealer=3; calls=80c, pass, pass, pass; "
        .. "hands=7h 8h 9h 10h Jh Qs 7s As / Kc Kd Kh Ks ?4 / ?8 / ?8", seed = 5 }
      assert.truthy(g:play("announce 7h 8h 9h 10h Jh"))
      assert.truthy(g:play("As"))
      assert.truthy(g:play("announce Kc Kd Kh Ks"))
      local run, four = g:view(1).announcements[1], g:view(0).announcements[2]
      assert.same({ seat = 0, kind = "run", value = 100, length = 5, shown = false }, run)
      assert.same({ seat = 1, kind = "four", value = 100, rank = "K", shown = false }, four)
      -- the partner hears no more than an opponent
      assert.same(run, g:view(2).announcements[1])
      assert.same(four, g:view(3).announcements[2])
    end)

    it("hide another seat's announced cards in its history", function()
      local g = new{ position = P:format("7c 8c 9c"), seed = 5 }
      g:play("As")
      local ann
      for _, m in ipairs(g:moves(true)) do if m.kind == "announce" then ann = ann or m end end
      assert.is_table(ann, "seat 1 can announce its run")
      g:play(ann)
      assert.matches("^announce 7c", g:history(1)[2].move)
      assert.matches("^announce %(run of", g:history(0)[2].move)
      assert.equals(ann.text, g:history()[2].move)
    end)

    it("hide whether another seat declined its belote (it would say it holds the other card, P50)", function()
      local g = new{ position = "dealer=3; calls=80h, pass, pass, pass; hands=Kh Qh 7d 8c ?4 / ?8 / ?8 / ?8",
        seed = 4 }
      assert.truthy(g:play("Qh nobelote"))
      assert.equals("Qh nobelote", g:history()[1].move) -- (the record replays it)
      assert.equals("Qh nobelote", g:history(0)[1].move)
      for seat = 1, 3 do assert.equals("Qh", g:history(seat)[1].move) end
    end)
  end)

  describe("results and the match", function()
    it("plays a whole match to its end with random legal actions", function()
      local g = new{ seed = 21, rules = "pilotta+target=151" }
      advance(g, 5000, picker(21), true)
      assert.equals("match-over", g:phase())
      local r = g:result()
      assert.is_true(r.over)
      assert.is_number(r.winner)
      assert.is_true(r.score[r.winner] >= 151)
      assert.is_number(r.round[0].trick_points)
      assert.is_number(r.round.value)
      assert.equals(r.round[0].game, r.round[0].total)
      local total = 0
      for _, h in ipairs(g:history()) do
        if h.breakdown then total = total + h.breakdown[0].game end
      end
      assert.equals(r.score[0], total)
      assert.is_nil(g:turn())
      assert.is_nil((g:next_round()))
    end)

    it("writes positions that hide hands on request", function()
      local g = new{ seed = 2 }
      assert.matches("%?8", g:position(true))
      local _, count = g:position(1):gsub("%?8", "")
      assert.equals(3, count)
      assert.not_matches("%?", g:position())
    end)

    it("counts its calls in core.calls()", function()
      local g = new{ seed = 2 }
      local before = core.calls()
      g:moves()
      g:turn()
      assert.equals(before + 2, core.calls())
    end)

    it("searches only in the play (pilotta_search_spec has the rest)", function()
      local ok, why = new():search{}
      assert.is_nil(ok)
      assert.matches("not being played", why)
    end)
  end)

  describe("house-rule hooks", function()
    it("filter moves and name the reason (pilotta-no-contra)", function()
      local g = assert(diloti.new{ rules = "pilotta+no-contra", seed = 7, dealer = 3 })
      g:play("90h")
      for _, m in ipairs(g:moves()) do assert.are_not.equals("contra", m) end
      local ok, why = g:play("contra")
      assert.is_nil(ok)
      assert.matches("no%-contra", why)
    end)

    it("let a score hook change the game points and a match hook end the match", function()
      local hooks = {
        score = function(b) b[0].game = b[0].game + 100 b.label = "Bonus" return b end,
        match = function(state) if state.score[0] >= 100 then return 0 end end,
      }
      local g = assert(core.open("pilotta", { seed = 7, dealer = 3, hooks = hooks }))
      g:play("80h")
      advance(g, 200, picker(1))
      assert.equals("match-over", g:phase())
      assert.equals(0, g:result().winner)
      assert.equals("Bonus", g:result().round.label)
    end)

    it("turn a failing score hook into a warning with standard scoring", function()
      local g = assert(core.open("pilotta", { seed = 7, dealer = 3, hooks = { score = function() error("boom") end } }))
      g:play("80h")
      local warning
      for _ = 1, 200 do
        if g:turn() == nil then break end
        local e, w = g:play(1)
        assert.is_table(e)
        warning = warning or w
      end
      assert.matches("boom", warning)
    end)

    it("keep the match score within bounds whatever a score hook gives, round after round", function()
      -- (a score hook's most every round, and a match hook that never ends
      -- the match: the C score would overflow after some 21,000 rounds)
      local hooks = {
        score = function(b) b[0].game, b[1].game = 99999, -99999 return b end,
        match = function() return false end,
      }
      local g = assert(core.open("pilotta", { seed = 7, dealer = 3, hooks = hooks,
        position = "dealer=3; score=1000000 0; hands=?8 / ?8 / ?8 / ?8" }))
      local warning, rounds = nil, 0
      while not warning and rounds < 200 do
        if g:turn() then
          local _, w = assert(g:play(g:phase() == "auction" and g:moves()[2] or 1))
          warning = w
        else
          assert(g:next_round())
          rounds = rounds + 1
        end
      end
      assert.matches("10000000", warning)
      local r = g:result()
      -- (that round's standard points, at most a few hundred, came instead)
      assert.is_true(r.score[0] <= 10001000 and r.score[1] >= -10001000, r.score[0] .. " " .. r.score[1])
    end)

    it("refuse a moves hook that invents or empties moves", function()
      local g = assert(core.open("pilotta",
        { seed = 7, hooks = { moves = function() return { { text = "Jh" } } end } }))
      assert.has_error(function() g:moves() end)
      g = assert(core.open("pilotta", { seed = 7, hooks = { moves = function() return {} end } }))
      assert.has_error(function() g:moves() end)
    end)
  end)

  describe("records", function()
    it("save, load and replay a Pilotta game, carrying the game's name", function()
      local dir = support.tmpdir()
      local g = assert(diloti.new{ rules = "pilotta+partner-exempt", seed = 12 })
      advance(g, 80, picker(12), true)
      local meta = { rules = "pilotta+partner-exempt", seed = 12 }
      local text = assert(record.encode(g, meta))
      assert.matches("\ngame: pilotta\n", text)
      local path = dir .. "/p.rec"
      assert(record.save(path, g, meta))
      local back = assert(record.load(path))
      assert.equals(g:position(), back:position())
      assert.equals("pilotta", back:game())
      os.remove(path)
      os.remove(dir)
    end)

    it("leave a Diloti record without a game line, readable as before", function()
      local g = assert(diloti.new{ seed = 3 })
      g:play(1)
      local text = assert(record.encode(g, { seed = 3 }))
      assert.not_matches("game:", text)
      assert.equals(g:position(), assert(record.load(text, { text = true })):position())
    end)

    it("refuse a record whose game and rules disagree", function()
      local g = assert(diloti.new{ seed = 3 })
      local text = assert(record.encode(g, { seed = 3 })):gsub("\n", "\ngame: pilotta\n", 1)
      local ok, why = record.load(text, { text = true })
      assert.is_nil(ok)
      assert.matches("not pilotta", why)
    end)
  end)
end)
