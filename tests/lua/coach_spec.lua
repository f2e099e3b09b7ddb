-- The coach and `explain` at the table (lua/teach/coach.lua, Diloti's words lua/games/diloti/coach.lua), with scripted
-- sessions and a small search budget so that the spec runs in seconds.
require "diloti"
local repl = require "diloti.table.repl"
-- The table as the program builds it: with the lessons and the coach.
local EXT = { require "diloti.teach.learn", (require "diloti.teach.coach") }
local coach = require "diloti.games.diloti.coach" -- (Diloti's words; the commands are lua/teach/coach.lua's)

local ENV = { NO_COLOR = "1", TERM = "xterm", LANG = "C" }
local function getenv(k) return ENV[k] end

-- A session whose prompts show in its output and whose input is over.
local function session(game)
  local s
  s = assert(repl.new { extensions = EXT,
    write = function() end,
    read = function(prompt) s.write(prompt) return nil end,
    getenv = getenv, clock = function() return 1000 end,
    game = game,
  })
  s:advance()
  return s
end

-- Handles one line and returns what the session printed for it, with
-- the lines the table wraps to its width joined again.
local function say(s, line)
  local out = {}
  s.write = function(t) out[#out + 1] = t end
  s:handle(line)
  return (table.concat(out):gsub("\n  +", " "))
end

-- Seat 0 (you) to move: a 9 sweeps 5+4 for a xeri; a 5 takes the 5 and
-- leaves the 4 for the next player to sweep.
local XERI = "hands=9c 5h 3d Kc / 8s 4h Jd Qs; table=5s 4d; ply=3"
-- The last cards, all known (the exact search): your 10 takes the 10 of
-- diamonds; laying leaves it to North's 10.
local TEN = "hands=10h 3d 5s Qc / 10s 8s Jd 2h; table=10d Kh; pack=-; ply=40"

describe("the coach", function()
  local saved
  setup(function()
    saved = coach.iterations
    coach.iterations = 3000
  end)
  teardown(function() coach.iterations = saved end)

  describe("coach on|off|verbose", function()
    it("is off until asked, and says which state it is in", function()
      local s = session { position = XERI, ai = "random" }
      assert.matches("coach is off", say(s, "coach"))
      assert.matches("Coach on", say(s, "coach on"))
      assert.matches("coach is on", say(s, "coach"))
      assert.matches("verbose", say(s, "coach verbose"))
      assert.matches("Coach off", say(s, "coach off"))
      assert.is_false(s.coach.on)
    end)

    it("refuses a word it does not know, with the choices", function()
      local s = session { position = XERI, ai = "random" }
      local out = say(s, "coach maybe")
      assert.matches("'maybe' is not a choice", out)
      assert.matches("coach on", out)
      assert.is_false(s.coach.on)
    end)

    it("keeps its state per session", function()
      local a = session { position = XERI, ai = "random" }
      local b = session { position = XERI, ai = "random" }
      say(a, "coach on")
      assert.is_true(a.coach.on)
      assert.matches("coach is off", say(b, "coach"))
    end)

    it("says nothing when off", function()
      local s = session { position = XERI, ai = "random" }
      assert.not_matches("Coach", say(s, "5h x 5s"))
    end)
  end)

  describe("flags", function()
    it("a move that leaves an easy xeri, naming the better move, the reason and how sure it is", function()
      local s = session { position = XERI, ai = "random" }
      say(s, "coach on")
      local out = say(s, "5h x 5s")
      assert.matches("Coach: 9c x 4d 5s was better than 5h x 5s", out, 1, true)
      assert.matches("sweeps the table for a xeri", out, 1, true)
      assert.matches("leaves a table a 4 sweeps", out, 1, true)
      assert.matches("holds one with a chance of about %d+%%", out)
      assert.matches("[Ss]ure: the search rates it about [%d.]+ points better and gave your move [%w%d ]+%% of", out)
    end)

    it("a lay that leaves the 10 of diamonds to the next player's 10, for certain in a known last deal", function()
      local s = session { position = TEN, ai = "random" }
      say(s, "coach on")
      local out = say(s, "3d lay")
      assert.matches("Coach: 10h x 10d was better than 3d lay", out, 1, true)
      assert.matches("it takes 10d (2 points)", out, 1, true)
      assert.matches("yours leaves 10d to a 10, and random (North) holds one for certain", out, 1, true)
      assert.matches("Certain: with every card left known, the exact search counts 4 points more for it", out, 1, true)
    end)

    it("with people sharing the keyboard, before the next one takes over", function()
      local s = session { position = XERI, humans = 2 }
      say(s, "coach on")
      local out = say(s, "5h x 5s")
      local coach_at, enter_at = out:find("Coach: 9c x 4d 5s", 1, true), out:find("(press Enter)", 1, true)
      assert.truthy(coach_at and enter_at and coach_at < enter_at)
      assert.matches("North's turn", out:sub(enter_at), 1, true)
    end)

    it("not the best move; verbose says it was good", function()
      local s = session { position = XERI, ai = "random" }
      say(s, "coach on")
      assert.not_matches("Coach", say(s, "9c x 4d 5s"))
      s = session { position = XERI, ai = "random" }
      say(s, "coach verbose")
      assert.matches("Coach: good move", say(s, "9c x 4d 5s"))
    end)

    it("not a forced move, and not the computer's moves", function()
      local s = session { position = "hands=Kc / 8s 4h; table=Kh 5s 4d; ply=3", ai = "random" }
      say(s, "coach verbose")
      local out = say(s, "Kc x Kh")
      assert.not_matches("Coach", out)
      assert.matches("random %(North%)", out)
    end)
  end)

  describe("the verdict", function()
    local ranked = {
      { move = "a", value = 0.70, visits = 9000 },
      { move = "b", value = 0.69, visits = 800 },
      { move = "c", value = 0.40, visits = 200 },
    }
    it("flags a move well below the best that the search hardly tried", function()
      local v = coach.verdict(ranked, false, "c", { gap = 2, share = 0.1, exact_gap = 2 })
      assert.is_true(v.flag)
      assert.is_true(v.gap > 5)
      assert.is_true(math.abs(v.share - 0.02) < 1e-9)
    end)
    it("leaves close calls and the best move alone", function()
      local th = { gap = 2, share = 0.1, exact_gap = 2 }
      assert.is_false(coach.verdict(ranked, false, "b", th).flag)
      assert.is_false(coach.verdict(ranked, false, "a", th).flag)
      assert.is_nil(coach.verdict(ranked, false, "zz", th))
    end)
    it("reads exact values as points", function()
      local exact = { { move = "a", value = 3, visits = 1 }, { move = "b", value = 3, visits = 1 },
        { move = "c", value = 1, visits = 1 } }
      local th = { gap = 2, share = 0.1, exact_gap = 2 }
      assert.is_false(coach.verdict(exact, true, "b", th).flag)
      assert.is_true(coach.verdict(exact, true, "c", th).flag)
    end)
  end)
end)

describe("explain", function()
  local saved
  setup(function()
    saved = coach.iterations
    coach.iterations = 2000
  end)
  teardown(function() coach.iterations = saved end)

  it("a capture: the cards, the xeri, each side, and your alternatives ranked", function()
    local s = session { position = XERI, ai = "random" }
    say(s, "9c x 4d 5s")
    local out = say(s, "explain 1")
    assert.matches("Move 1 (round 1, deal 1): You captured", out, 1, true)
    assert.matches("Xeri!", out, 1, true)
    assert.matches("You: +3 cards, a xeri (10 points)", out, 1, true)
    assert.matches("random (North): nothing taken", out, 1, true)
    assert.matches("Alternatives (the search from your seat", out, 1, true)
    assert.matches("1. 9c x 4d 5s%s+[+-]%d+%.%d   <%- the move played", out)
  end)

  it("a move that leaves a sweep says what sweeps it and how likely", function()
    local s = session { position = XERI, ai = "random" }
    say(s, "5h x 5s")
    local out = say(s, "explain 1")
    assert.matches("Next, random (North) could sweep the table with a 4 (they hold one with a chance of about 24%, "
      .. "from what you could see)", out, 1, true)
    assert.matches("5h x 5s%s+[+-]%d+%.%d   <%- the move played", out)
  end)

  it("a declaration: who owns it now and the obligation it brings (D19)", function()
    local s = session { position = "hands=3h 8c 2d / 9s 4h Jd Qs; table=5s; ply=3", ai = "random" }
    say(s, "3h + 5s = 8")
    local out = say(s, "explain 1")
    assert.matches("You now own a plain 8 (2 cards)", out, 1, true)
    assert.matches("you may only capture or build a group with it, and you must keep an 8 (D19)", out, 1, true)
  end)

  it("a capture of a declaration frees its owner", function()
    local s = session { position = "hands=8c 2d / 8s 4h; table=P8@1(3h+5s) 6d; ply=3; last=1", ai = "random" }
    say(s, "8c x P8@1")
    local out = say(s, "explain 1")
    assert.matches("It took random (North)'s plain 8 (2 cards) off the table; random (North) is free of it (D19)",
      out, 1, true)
  end)

  it("a lay", function()
    local s = session { position = XERI, ai = "random" }
    say(s, "3d lay")
    local out = say(s, "explain 1")
    assert.matches("You laid 3d.", out, 1, true)
    assert.matches("You: nothing taken", out, 1, true)
  end)

  it("defaults to the last move", function()
    local s = session { position = XERI, ai = "random" }
    say(s, "3d lay")
    assert.matches("Move 2 ", say(s, "explain"), 1, true)
  end)

  describe("never reveals a computer's hand", function()
    -- Two deals alike in everything seat 0 can see: North's 2d/Kd and
    -- the pack's 2h/Qs are swapped.
    local A = "dealer=0; hands=9c 5h / 7c 2d Kd; table=3h 4s 5d; pack=Qs 3c 2h 6h; ply=3"
    local B = "dealer=0; hands=9c 5h / 7c 2h Qs; table=3h 4s 5d; pack=Kd 3c 2d 6h; ply=3"

    local function played(pos)
      local s = assert(repl.new { extensions = EXT, write = function() end, read = function() return nil end,
        getenv = getenv,
        clock = function() return 1000 end, game = { position = pos, ai = "random" } })
      assert(s:play("7c x 3h 4s")) -- North (seat 1) moves first
      assert(s:play("5h x 5d"))
      return s
    end

    it("its alternatives are not shown, and the whole text is the same for both deals", function()
      local a, b = played(A), played(B)
      assert.same(a.g:view(0), b.g:view(0))
      local ea, eb = say(a, "explain 1"), say(b, "explain 1")
      assert.equals(ea, eb)
      assert.matches("other choices are not shown", ea, 1, true)
      assert.not_matches("2d", ea)
      assert.not_matches("Kd", ea)
      assert.equals(say(a, "explain 2"), say(b, "explain 2"))
    end)

    it("shows them once that hand has been played out", function()
      local s = session { position = "dealer=0; hands=9c 5h / 7c 2d; table=3h 4s 5d; pack=-; ply=3", ai = "random" }
      local out = say(s, "explain 1")
      assert.matches("other choices are not shown", out, 1, true)
      say(s, "9c lay")
      out = say(s, "explain 1")
      assert.matches("Alternatives (the search from random (North)'s seat", out, 1, true)
    end)
  end)

  it("any move of a whole round and into the next, with the coach on throughout", function()
    local s = session { seed = 11, ai = "greedy" }
    say(s, "coach verbose")
    local rounds = 0
    while rounds < 2 and s.g:phase() ~= "match-over" do
      local before = s.g:view(0).round
      local out = say(s, s.g:moves()[1])
      assert.not_matches("failed", out)
      if s.g:view(0).round ~= before then rounds = rounds + 1 end
    end
    for n = 1, #s.log do
      local out = say(s, "explain " .. n)
      assert.matches("^Move " .. n .. " %(round %d, deal %d%): ", out)
      assert.not_matches("Cannot explain", out)
    end
  end)

  it("four players and Kontsina: every move explained, partners' hands kept hidden", function()
    local games = { { players = 4, seed = 3, ai = "greedy" }, { rules = "kontsina", seed = 4, ai = "greedy" } }
    for _, game in ipairs(games) do
      local s = session(game)
      say(s, "coach verbose")
      for i = 1, 12 do
        if s.g:phase() ~= "play" then break end
        assert.not_matches("failed", say(s, s.g:moves()[1]))
        if i == 1 and game.players == 4 then
          -- the partner (seat 2) has just played the first card of a hand still in play
          assert.equals(2, s.log[#s.log - 1].seat)
          assert.matches("not shown", say(s, "explain " .. (#s.log - 1)), 1, true)
        end
      end
      for n = 1, #s.log do
        local out = say(s, "explain " .. n)
        assert.matches("^Move " .. n .. " ", out)
        if game.rules == "kontsina" then assert.not_matches("sweep", out) end
      end
    end
  end)

  describe("bad arguments", function()
    it("no moves yet", function()
      local s = session { position = XERI, ai = "random" }
      assert.matches("Nothing to explain yet", say(s, "explain"))
    end)
    it("a number outside the log", function()
      local s = session { position = XERI, ai = "random" }
      say(s, "3d lay")
      assert.matches("there is no move 999; the log holds moves 1-2", say(s, "explain 999"), 1, true)
      assert.matches("there is no move 0", say(s, "explain 0"), 1, true)
    end)
    it("not a number", function()
      local s = session { position = XERI, ai = "random" }
      say(s, "3d lay")
      assert.matches("'x' is not a move number", say(s, "explain x"), 1, true)
    end)
    it("a log the game no longer matches", function()
      local s = session { position = XERI, ai = "random" }
      say(s, "3d lay")
      s.log[1].move = "9c lay"
      assert.matches("Cannot explain move 1", say(s, "explain 1"), 1, true)
    end)
  end)
end)
