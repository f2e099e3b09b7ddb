-- Pilotta's hint, why, explain and coach at the table (lua/games/pilotta/coach.lua;
-- the auction's advice is lua/games/pilotta/bid.lua's, expert's call: its own
-- spec is pl_bid_spec.lua), with scripted sessions. The engine's search is
-- replaced by a stand-in that follows its Lua contract (g:search{seat...}:
-- the cards ranked best first, values in game points) and ranks by values
-- the test gives, so each reason can be asked for; it also checks that it
-- is asked from the seat to move only.
require "diloti"
local repl = require "diloti.table.repl"
local plc = require "diloti.games.pilotta.coach"
local EXT = { require "diloti.teach.learn", (require "diloti.teach.coach") }

local ENV = { NO_COLOR = "1", TERM = "xterm", LANG = "C" }
local function getenv(k) return ENV[k] end

local asked -- the seats the stand-in was asked for
local values -- card -> value (game points) of the stand-in's ranking
local points -- card -> trick points (default: 60 + 10 x value)
local solved -- the deals each call solves in its time: a list, one a call (default: all asked for)
local wanted -- the deals each call asked for

local function stand_in(g, o)
  asked[#asked + 1] = o.seat
  wanted[#wanted + 1] = o.deals
  assert(o.seat == g:turn(), "the search is asked for the seat to move")
  local out = {}
  for _, m in ipairs(g:moves(true)) do
    if m.kind == "play" then
      local v = values[m.text] or 0
      out[#out + 1] = { move = m.text, value = v, points = points[m.text] or (60 + 10 * v),
        made = math.min(1, math.max(0, v / 4)) }
    end
  end
  table.sort(out, function(a, b) return a.value > b.value end)
  local deals = solved[#wanted] or o.deals
  return { best = out[1].move, value = out[1].value, deals = deals, nodes = 1000, exact = false, moves = out }
end

local function session(position, extra)
  local s
  local o = { extensions = EXT, write = function() end, read = function() return nil end,
    getenv = getenv, clock = function() return 1000 end,
    game = { game = "pilotta", seed = 4, ai = "random", position = position } }
  for k, v in pairs(extra or {}) do o.game[k] = v end
  s = assert(repl.new(o))
  s:advance()
  return s
end

-- The cards another seat holds that nobody has seen.
local function hidden(s)
  local st = s.g:state()
  local out = {}
  for seat = 0, 3 do
    if not s:is_human(seat) then
      for _, c in ipairs(st.hands[seat]) do out[#out + 1] = c end
    end
  end
  return out
end

local function names(text, c)
  return text:find("%f[%w]" .. c .. "%f[%W]") ~= nil
end

-- One line handled; its output, the table's wrapping undone. It must
-- never name a card hidden in another hand: the advice's lines (Hint,
-- Coach, Legal, explain's) none hidden before the line, the rest (the
-- computers' moves after yours show their cards) none hidden after it.
local function say(s, line)
  local before, round = hidden(s), select(3, s.g:where())
  local out = {}
  s.write = function(t) out[#out + 1] = t end
  s:handle(line)
  local text = table.concat(out):gsub("\n  +", " ")
  local advice = {}
  for l in text:gmatch("[^\n]+") do
    if l:match("^Round %d+ |") then break end -- (the board: your own hand and the public cards)
    if not l:match(" played ") and not l:match(" wins? trick ") then advice[#advice + 1] = l end
  end
  advice = table.concat(advice, "\n")
  for _, c in ipairs(before) do
    assert.is_false(names(advice, c), string.format("'%s' names %s, a hidden card: %s", line, c, advice))
  end
  -- (a new round deals new hands: the old round's cards are public)
  for _, c in ipairs(select(3, s.g:where()) == round and hidden(s) or {}) do
    assert.is_false(names(text, c), string.format("'%s' names %s, a hidden card: %s", line, c, text))
  end
  return text
end

-- You (South, seat 0) play last to the first trick, which your partner
-- North is winning with the Ah; clubs are trumps (North's 80).
local FEED = "dealer=0; calls=pass, 80c, pass, pass, pass; hands=10h Qh 7d 9d Kd 7s 9s Js / ?7 / ?7 / ?7; "
  .. "tricks=7h Ah 8h"
-- No heart left: you must trump North's winning trick (P25, P27).
local TRUMP = "dealer=0; calls=pass, 80c, pass, pass, pass; hands=Jc 7c 7d 9d Kd 7s 9s Js / ?7 / ?7 / ?7; "
  .. "tricks=7h Ah 8h"
-- West's Kh is winning; your Ah would take it, your 9h would not.
local LOST = "dealer=0; calls=80c, pass, pass, pass; hands=Ah 9h 7d 9d Kd 7s 9s Js / ?7 / ?7 / ?7; "
  .. "tricks=7h 8h Kh"
-- The auction, you first (dealer West): a strong heart hand (expert bids 160h).
local HEARTS = "dealer=3; hands=Jh 9h Ah 10h Kh As 7c 8d / ?8 / ?8 / ?8"
-- The auction, you first: clubs cover 87 with 20 kept in hand (expert bids 80c).
local CLUBS = "dealer=3; hands=Jc 7c 8c Ad 9d 7h 8s Ks / ?8 / ?8 / ?8"

describe("Pilotta's coach", function()
  local saved
  before_each(function()
    saved = plc.search
    plc.search = stand_in
    asked, values, points, solved, wanted = {}, {}, {}, {}, {}
  end)
  after_each(function() plc.search = saved end)

  describe("hint", function()
    it("gives the search's best card from your seat, with what it does", function()
      values = { ["10h"] = 3, Qh = 1 }
      local s = session(FEED)
      local out = say(s, "hint")
      assert.matches("Hint: 10h: your partner wins the trick (21 points)", out, 1, true)
      assert.matches("rates it 2.0 game points above Qh", out, 1, true)
      assert.matches("your side's contract of 80 still needs 80 points", out, 1, true)
      assert.same({ 0 }, asked)
      assert.equals(0, #s.g:history()) -- (nothing played)
    end)

    it("says to announce a declaration first in the first trick", function()
      local s = session("dealer=0; calls=pass, 80c, pass, pass, pass; hands=10h Qh 7d 8d 9d 7s 9s Ks / ?7 / ?7 / ?7; "
        .. "tricks=7h Ah 8h")
      assert.matches("Hint: announce 7d 8d 9d: announcing costs nothing", say(s, "hint"), 1, true)
    end)

    it("gives expert's call in the auction, from the AIs' evaluation of the hand", function()
      local s = session(HEARTS)
      local out = say(s, "hint")
      assert.matches("^Hint: 160h: your hand is worth about %d+ for your side with hearts as trumps: %d+ in tricks "
        .. "%(5 trumps with the Jack, the Nine, the Ace and the Ten; 1 side Ace", out)
      assert.matches("keeping 20 in hand for what it cannot see, it covers %d+, and 160 is the highest bid under it "
        .. "%(P14%)", out)
      assert.same({}, asked)
    end)

    it("passes with a weak hand", function()
      local s = session("dealer=3; hands=7h 8h 7c 8c 9d 7s 8s 9s / ?8 / ?8 / ?8")
      local out = say(s, "hint")
      assert.matches("^Hint: pass: your best is about %d+ for your side", out)
      assert.matches("under the lowest open bid, 80 (P14, P15)", out, 1, true)
    end)

    it("over a partner's bid: a raise, from what the hand adds to an average partner", function()
      local s = session("dealer=1; calls=80h, pass; hands=Jh 9h Ac As 10s Ad Kd 7c / ?8 / ?8 / ?8")
      assert.matches("^Hint: %d+h: your partner's 80 in hearts counts on an average partner %(83 for a side%)",
        say(s, "hint"))
    end)

    it("says so when the search has no answer", function()
      plc.search = function() return nil, "search: Pilotta has no search yet" end
      local s = session(FEED)
      assert.matches("No hint: search: Pilotta has no search yet", say(s, "hint"), 1, true)
    end)

    -- g:search answers the legal cards in pack order, all valued 0, when
    -- its time ran out before one deal was solved (a slow or busy
    -- machine): that is no ranking, and no advice may rest on it.
    it("gives no card when the search solved no deal in its time", function()
      local ran_out = function(g, o)
        local r = stand_in(g, o)
        r.deals, r.exact = 0, false
        for _, m in ipairs(r.moves) do m.value, m.points, m.made = 0, 0, 0 end
        return r
      end
      values = { ["10h"] = 3, Qh = 1 }
      plc.search = ran_out
      local s = session(FEED)
      local out = say(s, "hint")
      assert.matches("No hint: the search solved no deal in its time", out, 1, true)
      assert.is_nil(out:find("0 sampled deals", 1, true))
      out = say(s, "why Qh")
      assert.matches("(No rating from the search: the search solved no deal in its time.)", out, 1, true)
      say(s, "coach verbose")
      say(s, "Qh")
      out = say(s, "explain 1")
      assert.matches("(No alternatives: the search solved no deal in its time.)", out, 1, true)
      assert.is_nil(out:find("0 sampled deals", 1, true))
    end)
  end)

  describe("on few deals (issue 25: a hint on 3 sampled deals)", function()
    it("searches again for the rest of the deals it needs, and counts them all", function()
      values = { ["10h"] = 3, Qh = 1 }
      solved = { 3, 21 }
      local s = session(FEED)
      local out = say(s, "hint")
      assert.same({ 48, 21 }, wanted)
      assert.matches("Hint: 10h: .* The search from your seat %(24 sampled deals%) rates it 2%.0 game points above "
        .. "Qh", out)
      assert.not_matches("rough", out)
    end)

    it("says a hint is a rough guess when the deals stay too few, gives no share of them, and the coach is quiet",
      function()
        values = { ["10h"] = 3, Qh = 0 }
        solved = { 2, 1, 2, 1, 2, 1 }
        local s = session(FEED)
        local out = say(s, "hint")
        assert.matches("The search from your seat (only 3 sampled deals in its time: a rough guess) rates it",
          out, 1, true)
        assert.not_matches("%% of the deals", out)
        say(s, "coach verbose")
        out = say(s, "Qh")
        assert.matches("Coach: no opinion (the search solved only 3 deals in its time: too few to judge a card).",
          out, 1, true)
      end)

    it("breaks a tie in game points by the trick points kept, then by the card points put down", function()
      -- three cards alike in game points: the Qh keeps 4 more trick points
      values = { ["10h"] = 1, Qh = 1 }
      points = { ["10h"] = 60, Qh = 64 }
      local s = session(FEED)
      local out = say(s, "hint")
      assert.matches("Hint: Qh: .* rates 10h about as good in game points, but Qh keeps about 4 trick points more "
        .. "for your side", out)
      -- alike in both: the card that puts down fewer points first
      points = { ["10h"] = 64, Qh = 64 }
      out = say(s, "hint")
      assert.matches("Hint: Qh: .* rates 10h about as good, and Qh puts down 7 card points fewer", out)
    end)
  end)

  describe("why", function()
    it("gives a card's rule, what it does, and the search's rating against the best", function()
      values = { ["10h"] = 3, Qh = 1 }
      local s = session(FEED)
      local out = say(s, "why Qh")
      assert.matches("Legal: Qh: it follows the led suit, with any card of it (P23, P28).", out, 1, true)
      assert.matches("Your partner wins the trick (14 points).", out, 1, true)
      assert.matches("2.0 game points below the best, 10h (rank 2 of 2)", out, 1, true)
      out = say(s, "why 10h")
      assert.matches("it is the best card, 2.0 game points above Qh", out, 1, true)
      assert.equals(0, #s.g:history())
    end)

    it("refuses an illegal card with its rule id, asking the search nothing", function()
      local s = session(FEED)
      assert.matches("Not allowed: P23", say(s, "why 7d"))
      assert.same({}, asked)
    end)

    it("names the trump spent and the duty to trump", function()
      local s = session(TRUMP)
      local out = say(s, "why Jc")
      assert.matches("Legal: Jc: with no card of the led suit, it must trump (P25).", out, 1, true)
      assert.matches("it spends a trump (the Jack, 20 points); you keep 1; 6 trumps out in other hands", out, 1, true)
    end)

    it("names the belote said or lost", function()
      local s = session("dealer=0; calls=pass, 80c, pass, pass, pass; hands=Kc Qc 7d 9d Kd 7s 9s Js / ?7 / ?7 / ?7; "
        .. "tricks=7h Ah 8h")
      assert.matches("it says the belote (20, P39)", say(s, "why Qc belote"), 1, true)
      assert.matches("its 20 are lost (P39)", say(s, "why Qc nobelote"), 1, true)
    end)

    it("in the auction: the call's legality, the evaluation and the advice", function()
      local s = session(HEARTS)
      local out = say(s, "why 160s")
      assert.matches("Legal: 160s", out, 1, true)
      assert.matches("Your hand, by the AIs' evaluation: about %d+ for your side with spades as trumps: .*; keeping "
        .. "20 in hand, it covers %d+: 160 is %d+ steps above the %d+ it covers%.", out)
      assert.matches("The advice would be 160h: your hand is worth about", out, 1, true)
      out = say(s, "why 160h")
      assert.matches("It is the advice's call too (the expert AI's).", out, 1, true)
      out = say(s, "why 120h")
      assert.matches("The advice would be 160h: the highest bid in that suit that your hand covers with 20 kept in "
        .. "hand.", out, 1, true)
      assert.matches("Capot promises all eight tricks (250, P14, P42): your hand should take 6 tricks by itself with "
        .. "hearts as trumps", say(s, "why capot h"), 1, true)
      assert.matches("Not allowed: P14", say(s, "why 170h"))
    end)
  end)

  describe("coach", function()
    it("is on for Pilotta, and silent when the card is the search's", function()
      values = { ["10h"] = 3, Qh = 1 }
      local s = session(FEED)
      assert.matches("Coach on", say(s, "coach on"))
      assert.not_matches("Coach:", say(s, "10h"))
    end)

    it("names the points your partner's trick could have had", function()
      values = { ["10h"] = 3, Qh = 0 }
      local s = session(FEED)
      say(s, "coach on")
      local out = say(s, "Qh")
      assert.matches("Coach: 10h was better than Qh: your partner's trick could have had your 10h (10 points)",
        out, 1, true)
      assert.matches("the search makes it go your side's way in 75% of its deals with it, 0% with yours", out, 1, true)
      assert.matches("Fairly sure: the search from your seat (48 sampled deals) rates it about 3.0 game points "
        .. "better", out, 1, true)
    end)

    it("names the trump given away on the partner's trick", function()
      values = { ["7c"] = 3, Jc = 0 }
      local s = session(TRUMP)
      say(s, "coach on")
      local out = say(s, "Jc")
      assert.matches("Coach: 7c was better than Jc: yours spends the Jack of trumps (20 points) where the Seven "
        .. "would do", out, 1, true)
    end)

    it("names the best card of a suit spent on a trick it does not win", function()
      -- no heart and no trump: any card (P26); your As is the best spade left
      values = { ["7d"] = 3, As = 0 }
      local s = session("dealer=0; calls=pass, 80c, pass, pass, pass; hands=As 7d 9d Kd 7s 9s Js Qd / ?7 / ?7 / ?7; "
        .. "tricks=7h Ah 8h")
      assert.matches("Legal: 7d: with no card of the led suit and no trump, any card may go (P26).", say(s, "why 7d"),
        1, true)
      say(s, "coach on")
      local out = say(s, "As")
      assert.matches("Coach: 7d was better than As: yours spends your As, the best spade left, on a trick it does "
        .. "not win itself", out, 1, true)
    end)

    it("names the trick the best card would have won", function()
      values = { Ah = 2.5, ["9h"] = 0 }
      local s = session(LOST)
      say(s, "coach on")
      local out = say(s, "9h")
      assert.matches("Coach: Ah was better than 9h: Ah would have won the trick (15 points so far)", out, 1, true)
    end)

    it("on a lead: the trumps a trump lead draws, the ten led while a higher card is out", function()
      values = { ["9c"] = 3, ["10h"] = 0 }
      local s = session("dealer=3; calls=80c, pass, pass, pass; hands=10h 9c 7d 9d Kd 7s 9s / ?7 / ?7 / ?7; "
        .. "tricks=Jc 7c 8c Qc")
      say(s, "coach on")
      local out = say(s, "10h")
      assert.matches("Coach: 9c was better than 10h: leading a trump draws the 3 trumps still out before they can "
        .. "cut your side's cards; yours leads 10 points into a suit where a higher card is still out", out, 1, true)
    end)

    it("names the belote not said", function()
      values = { ["Qc belote"] = 2.5, ["Kc belote"] = 2.4 }
      local s = session("dealer=0; calls=pass, 80c, pass, pass, pass; hands=Kc Qc 7d 9d Kd 7s 9s Js / ?7 / ?7 / ?7; "
        .. "tricks=7h Ah 8h")
      say(s, "coach on")
      local out = say(s, "Qc nobelote")
      assert.matches("Coach: Qc belote was better than Qc nobelote: ", out, 1, true)
      assert.matches("you did not say the belote: its 20 are lost (P39)", out, 1, true)
    end)

    it("names the highest trump kept for the last trick and its 10", function()
      -- trick 7, you lead: no trump is out but your 7s; the Kc is the
      -- best club left
      values = { Kc = 3, ["7s"] = 0 }
      local s = session("dealer=3; calls=80s, pass, pass, pass; hands=Kc 7s / ?2 / ?2 / ?2; tricks=As Js Ks 10s / "
        .. "Ad Jd 7d Qd / Ah 9h Jh 8h / Jc 10c Ac Qc / 10d Qs 8d 9s / 10h Qh 8s 7h")
      say(s, "coach on")
      local out = say(s, "7s")
      assert.matches("Coach: Kc was better than 7s: it keeps your 7s, the highest trump left, for the last trick and "
        .. "its 10 (P31)", out, 1, true)
    end)

    it("stays quiet below its threshold; verbose says so", function()
      values = { ["10h"] = 2, Qh = 0 }
      local s = session(FEED)
      say(s, "coach on")
      assert.not_matches("Coach:", say(s, "Qh"))
      s = session(FEED)
      say(s, "coach verbose")
      assert.matches("Coach: fine. The search slightly prefers 10h", say(s, "Qh"), 1, true)
    end)

    it("flags a bid above the hand's worth, and a missed bid", function()
      local s = session(HEARTS)
      say(s, "coach on")
      local out = say(s, "160s")
      assert.matches("Coach: 160s is %d+ steps above the %d+ your hand covers, by the AIs' evaluation: about %d+ for "
        .. "your side with spades as trumps", out)
      s = session(HEARTS)
      say(s, "coach on")
      out = say(s, "pass")
      assert.matches("Coach: a missed bid: 160h was open, and your hand is worth about %d+ for your side with hearts "
        .. "as trumps", out)
    end)

    it("is silent on expert's own call", function()
      local s = session(HEARTS)
      say(s, "coach on")
      assert.not_matches("Coach:", say(s, "160h"))
    end)

    it("lets a bid one step above the advice's go, and names one two steps above it", function()
      -- clubs cover 87 (the advice: 80c, keeping 20 of about 107 in hand):
      -- 90c is one step above, 100c two (issue 25: 130h where the hint
      -- said 110h drew no word), 110c above the whole worth
      local s = session(CLUBS)
      say(s, "coach on")
      assert.not_matches("Coach:", say(s, "90c"))
      s = session(CLUBS)
      say(s, "coach on")
      local out = say(s, "100c")
      assert.matches("Coach: 100c is 2 steps above the 80 your hand covers, by the AIs' evaluation: about %d+ for "
        .. "your side with clubs as trumps: .*; 100 keeps only %d of the 20 the advice keeps in hand for what it "
        .. "cannot see%. If nobody helps, your side must still make 100 %(P42%)%.", out)
      s = session(CLUBS)
      say(s, "coach on")
      out = say(s, "110c")
      assert.matches("Coach: 110c is 3 steps above the 80 your hand covers, by the AIs' evaluation: about %d+ "
        .. "for your side with clubs as trumps: .*; 110 is %d+ above the whole of that worth%.", out)
    end)

    it("names a contra the hand does not back, and lets expert's own go", function()
      local s = session("dealer=2; calls=100s; hands=7c 8c 7d 8d 7h 8h 9h Kd / ?8 / ?8 / ?8")
      assert.matches("^Hint: pass", say(s, "hint"))
      say(s, "coach on")
      local out = say(s, "contra")
      assert.matches("Coach: a contra your hand does not back: their 100 in spades needs 100 from tricks; with "
        .. "spades as trumps your side should take about %d+ in tricks .*, leaving them about %d+, enough for it "
        .. "with %d+ to spare; the advice says contra only when they should fall 50 short %(P16%)%. If they make "
        .. "their contract, they score it doubled %(P45%)%.", out)
      s = session("dealer=2; calls=100s; hands=Js 9s 7s Ad Ah 10h 8c 7c / ?8 / ?8 / ?8")
      assert.matches("^Hint: contra", say(s, "hint"))
      say(s, "coach on")
      assert.not_matches("Coach:", say(s, "contra"))
    end)

    it("names a recontra the side should not make good", function()
      local s = session("dealer=1; calls=120h, contra; hands=7c 9c Qc 7d 9d Qd 8s Ks / ?8 / ?8 / ?8")
      say(s, "coach on")
      assert.matches("Coach: a recontra your side should not make good: your partner's 120 in hearts counts on an "
        .. "average partner %(83 for a side%); your hand is worth about %d+ .*, %d+ under the bid%. If the contract "
        .. "fails, the other side scores it four times over %(P17, P45%)%.", say(s, "recontra"))
    end)

    it("flags a capot without eight sure tricks", function()
      local s = session(HEARTS)
      say(s, "coach on")
      assert.matches("Coach: capot h promises all eight tricks (250, P14, P42), and your hand should take 6 tricks by "
        .. "itself with hearts as trumps", say(s, "capot h"), 1, true)
    end)

    it("flags a missed contra, with what the bidders need against what the hand leaves them", function()
      local s = session("dealer=2; calls=100s; hands=Js 9s 7s Ad Ah 10h 8c 7c / ?8 / ?8 / ?8")
      say(s, "coach on")
      local out = say(s, "pass")
      -- (the contract in words, as the rest of the sentence: not the notation "100s")
      assert.matches("Coach: a missed contra: contra was open, and their 100 in spades needs 100 from tricks; with "
        .. "spades as "
        .. "trumps your side should take about %d+ in tricks %(3 trumps with the Jack and the Nine; 2 side Aces", out)
      assert.matches("leaving them about %d+, %d+ under what they need, and a contra wants them 50 short %(P16%)", out)
    end)

    it("flags a missed raise of the partner's bid", function()
      local s = session("dealer=1; calls=80h, pass; hands=Jh 9h Ac As 10s Ad Kd 7c / ?8 / ?8 / ?8")
      say(s, "coach on")
      assert.matches("Coach: a missed raise: %d+h was open, and your partner's 80 in hearts counts on an average "
        .. "partner", say(s, "pass"))
    end)

    it("lets a pass with a hand worth only the lowest bid go", function()
      local s = session(CLUBS)
      assert.matches("^Hint: 80c: your hand is worth about %d+ for your side with clubs as trumps", say(s, "hint"))
      say(s, "coach on")
      assert.not_matches("Coach:", say(s, "pass"))
    end)

    it("flags a card played before the standing declaration was shown (P38)", function()
      -- your run of 3 stands; in the second trick you must show it first
      local s = session("dealer=3; calls=80c, pass, pass, pass; hands=10h Qh 7d 8d 9d 7s 8s / ?7 / ?7 / ?7; "
        .. "tricks=Ks As 10s Js; decls=0:7d 8d 9d")
      say(s, "coach on")
      -- (the table asks once; the same card again is played)
      assert.matches("P38: you announced a declaration and have not shown it", say(s, "7s"), 1, true)
      local out = say(s, "7s")
      assert.matches("Coach: you played without showing your declaration first: it no longer counts (P38)", out, 1,
        true)
    end)
  end)

  describe("explain", function()
    it("tells what your card did, with the alternatives from your seat", function()
      values = { ["10h"] = 3, Qh = 1 }
      local s = session(FEED)
      say(s, "Qh")
      local out = say(s, "explain 1")
      assert.matches("Move 1 (round 1): You played Qh.", out, 1, true)
      assert.matches("It follows the led suit, with any card of it (P23, P28).", out, 1, true)
      assert.matches("Your partner wins the trick (14 points).", out, 1, true)
      assert.matches("1. 10h +3.0", out:gsub(" +", " "), 1, true)
      assert.matches("<- the card played", out, 1, true)
    end)

    it("does not give away a computer's hand, and asks no search for it", function()
      local s = session(FEED)
      say(s, "Qh")
      asked = {}
      local out = say(s, "explain")
      assert.matches("other choices are not shown: they would give away that hand", out, 1, true)
      assert.same({}, asked)
    end)

    it("tells a call in the auction", function()
      local s = session(HEARTS)
      say(s, "100h")
      local out = say(s, "explain 1")
      assert.matches("It made 100h the highest bid", out, 1, true)
      assert.matches("The advice (the expert AI's call, from your hand): it would have called 160h: your hand is "
        .. "worth about", out, 1, true)
    end)
  end)

  it("never names a hidden card over a whole round of hints, whys, coaching and explains", function()
    values = setmetatable({}, { __index = function(_, k) return (#k * 7) % 5 end })
    local s = session(nil, { seed = 21, dealer = 3 })
    say(s, "coach verbose")
    local n = 0
    while select(3, s.g:where()) == 1 and s.g:phase() ~= "match-over" and n < 60 do
      n = n + 1
      say(s, "hint")
      local m = s.g:moves()
      say(s, "why " .. m[#m])
      say(s, "explain")
      say(s, "1")
    end
    assert.is_true(n >= 8)
  end)
end)
