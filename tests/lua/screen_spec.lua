-- The table's screen (lua/table/screen.lua, and Diloti's board,
-- lua/games/diloti/board.lua): styles from the environment, cards
-- in ASCII and Unicode with or without colour, the board of one seat's
-- view (fitting the width, hiding what the seat may not see), a sentence
-- for every kind of move, the legal-move list and the round summaries.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local driver = require "diloti.driver"
local screen = require "diloti.games.diloti.board" -- (and lua/table/screen.lua's helpers through it)

local ASCII = screen.style{}
local UNI = screen.style{ unicode = true }
local COLOUR = screen.style{ unicode = true, colour = true }
local NAMES = { [0] = "You", [1] = "greedy" }
local NAMES4 = { [0] = "You", [1] = "greedy (East)", [2] = "expert (North)", [3] = "random (West)" }

local function env(vars)
  return function(k) return vars[k] end
end

local function game(o)
  return assert(diloti.new(o))
end

-- The events of `moves` played from a game (canonical texts).
local function events(opts, moves)
  local g, out = game(opts), {}
  for _, text in ipairs(moves) do
    out[#out + 1] = driver.move_event(assert(g:play(text, true)), g:rules())
  end
  return out, g
end

local function last_event(opts, moves)
  local list = events(opts, moves)
  return list[#list]
end

-- Asserts every line of `text` is at most `width` visible columns.
local function assert_fits(text, width)
  for line in (text .. "\n"):gmatch("(.-)\n") do
    local w = screen.visible_width(line)
    assert(w <= width, string.format("%d columns > %d: %q", w, width, line))
  end
end

local function has_word(text, word)
  return text:find("%f[%w]" .. support.lit(word) .. "%f[%W]") ~= nil
end

-- Plays a round with the first legal move, calling fn(g) before each move.
local function each_position(opts, fn)
  local g = game(opts)
  while g:phase() == "play" do
    fn(g)
    assert(g:play(g:moves()[1]))
  end
  fn(g)
  return g
end

local CROWDED4 = "dealer=3; hands=5h 9c 2d 7h / 5d 9d 3d / 4h 4c 7s / 2h 6h 8h; "
  .. "table=3c 7c 10c Jc Qc Kd 2s 10s Jh Ad Ah 6d P4@2(Ac+3s) G9@1(9h,4d+5c,9s) P7@0(2c+5s); "
  .. "xeri=1 0; score=23 31; piles=4s 10d / Qd; last=1"

describe("the screen", function()
  describe("styles", function()
    it("defaults to ASCII without colour at 80 columns", function()
      assert.same({ unicode = false, colour = false, width = 80 }, screen.style())
      assert.same({ unicode = true, colour = true, width = 100 },
        screen.style{ unicode = true, colour = true, width = 100 })
    end)

    it("chooses Unicode when the locale is UTF-8 (utf8 too, any case)", function()
      assert.is_true(screen.detect(env{ LANG = "en_US.UTF-8", TERM = "xterm" }).unicode)
      assert.is_true(screen.detect(env{ LANG = "el_GR.utf8", TERM = "xterm" }).unicode)
      assert.is_false(screen.detect(env{ LANG = "C", TERM = "xterm" }).unicode)
      assert.is_false(screen.detect(env{ TERM = "xterm" }).unicode)
    end)

    it("reads LC_ALL before LC_CTYPE before LANG", function()
      assert.is_false(screen.detect(env{ LC_ALL = "C", LC_CTYPE = "C.UTF-8", LANG = "C.UTF-8" }).unicode)
      assert.is_true(screen.detect(env{ LC_CTYPE = "C.UTF-8", LANG = "C" }).unicode)
      assert.is_false(screen.detect(env{ LC_CTYPE = "POSIX", LANG = "C.UTF-8" }).unicode)
    end)

    it("falls back to ASCII when DILOTI_ASCII=1", function()
      local st = screen.detect(env{ LANG = "C.UTF-8", TERM = "xterm", DILOTI_ASCII = "1" })
      assert.is_false(st.unicode)
      assert.equals("7h", screen.card(screen.style{ unicode = st.unicode }, "7h"))
    end)

    it("turns colour off for NO_COLOR, TERM=dumb and an unset TERM", function()
      assert.is_true(screen.detect(env{ TERM = "xterm-256color" }).colour)
      assert.is_false(screen.detect(env{ TERM = "xterm", NO_COLOR = "1" }).colour)
      assert.is_false(screen.detect(env{ TERM = "xterm", NO_COLOR = "anything" }).colour)
      assert.is_false(screen.detect(env{ TERM = "dumb" }).colour)
      assert.is_false(screen.detect(env{}).colour)
    end)

    it("takes the width from a numeric COLUMNS, else 80", function()
      assert.equals(132, screen.detect(env{ COLUMNS = "132" }).width)
      assert.equals(80, screen.detect(env{ COLUMNS = "wide" }).width)
      assert.equals(80, screen.detect(env{}).width)
    end)
  end)

  describe("cards", function()
    it("prints suits as symbols in Unicode and letters in ASCII, 10 as 10", function()
      assert.equals("7♥", screen.card(UNI, "7h"))
      assert.equals("7h", screen.card(ASCII, "7h"))
      assert.equals("10♦", screen.card(UNI, "10d"))
      assert.equals("K♣", screen.card(UNI, "Kc"))
      assert.equals("A♠", screen.card(UNI, "As"))
      assert.equals("10d", screen.card(ASCII, "10d"))
    end)

    it("colours hearts and diamonds red, and only when the style has colour", function()
      assert.equals("\27[31m7♥\27[39m", screen.card(COLOUR, "7h"))
      assert.equals("\27[31m10♦\27[39m", screen.card(COLOUR, "10d"))
      assert.equals("8♣", screen.card(COLOUR, "8c"))
      assert.equals("Q♠", screen.card(COLOUR, "Qs"))
      assert.is_nil(screen.card(UNI, "7h"):find("\27", 1, true))
    end)

    it("reads the spellings a player may type", function()
      assert.equals("10♦", screen.card(UNI, "Td"))
      assert.equals("A♠", screen.card(UNI, "1s"))
      assert.equals("K♣", screen.card(UNI, "KC"))
      assert.equals("7h", screen.card(ASCII, "7♡"))
      assert.equals("lay", screen.card(UNI, "lay"))
    end)

    it("joins a list with spaces", function()
      assert.equals("2♣ 10♦ K♥", screen.cards(UNI, { "2c", "10d", "Kh" }))
      assert.equals("", screen.cards(UNI, {}))
    end)

    it("measures visible width in characters, without ANSI codes", function()
      assert.equals(3, screen.visible_width(screen.card(COLOUR, "10h")))
      assert.equals(5, screen.visible_width("7♥ 8♣"))
    end)
  end)

  describe("the board", function()
    local g = game{ position = "hands=Ah 9d 2c 6c / 8h 3c 9h; "
      .. "table=9s 2d 10d Kd P8@1(5c+3s) G6@0(6h,2h+4d,6s); score=12 30; xeri=1 0; piles=Qs Qh / -; last=0" }
    local board = screen.board(ASCII, g:view(0), { names = NAMES, rules = g:rules(), numbered = true })

    it("opens with the round, deal, dealer, pack and the score with its target", function()
      local first = support.lines(board)
      assert.equals("Round 1, deal 1 of 4 | dealer: greedy | pack: 32 cards", first[1])
      assert.equals("Score: You 12, greedy 30 (to 61); this round so far: You 14, greedy 0", first[2])
    end)

    it("lists the loose cards, then each declaration with ref, kind, value, components and owner", function()
      assert.truthy(board:find("Table: 2d 9s 10d Kd", 1, true))
      assert.truthy(board:find("P8@1  greedy's plain 8: 3s+5c", 1, true))
      assert.truthy(board:find("G6@0  your group of 6s: 6h, 2h+4d, 6s", 1, true))
    end)

    it("shows the others' hand sizes, your hand numbered, captures, xeris and the turn", function()
      assert.truthy(board:find("Cards in hand: greedy 3", 1, true))
      assert.truthy(board:find("Your hand: 1) Ah  2) 2c  3) 6c  4) 9d", 1, true))
      assert.truthy(board:find("Captured: You 3 cards (1 xeri), greedy 0 cards; last capture: You", 1, true))
      local lines = support.lines(board)
      assert.equals("Your turn.", lines[#lines])
    end)

    it("leaves the hand unnumbered unless asked, and names another seat's turn", function()
      local b = screen.board(UNI, game{ position = "turn=1; hands=Ah 9d / 8h 3c" }:view(0), { names = NAMES })
      assert.truthy(b:find("Your hand: A♥ 9♦", 1, true))
      assert.truthy(b:find("greedy to play.", 1, true))
      assert.truthy(b:find("Table: empty", 1, true))
    end)

    it("names seats Seat N by default and speaks of a named seat's hand", function()
      local b = screen.board(ASCII, game{ position = "hands=Ah 9d / 8h 3c" }:view(1))
      assert.truthy(b:find("Seat 1's hand: 3c 8h", 1, true))
      assert.truthy(b:find("Seat 0 to play.", 1, true))
    end)

    it("puts what just happened at the top", function()
      local b = screen.board(ASCII, g:view(0), { names = NAMES, recent = { "greedy laid 7h.", "You laid 8c." } })
      local lines = support.lines(b)
      assert.equals("greedy laid 7h.", lines[1])
      assert.equals("You laid 8c.", lines[2])
    end)

    it("shows the partnerships with four players (seats 0+2 vs 1+3)", function()
      local g4 = game{ rules = "diloti+players=4", position = CROWDED4 }
      local b = screen.board(ASCII, g4:view(0), { names = NAMES4, rules = g4:rules() })
      assert.truthy(b:find("Partners: You & expert (North) (seats 0+2) vs", 1, true))
      assert.truthy(b:find("greedy (East) & random (West) (seats 1+3)", 1, true))
      assert.truthy(b:find("Score: You & expert (North) 23, greedy (East) & random (West) 31 (to 61)", 1, true))
      assert.truthy(b:find("expert (North) 3 (partner)", 1, true))
      assert.truthy(b:find("P4@2  expert (North)'s plain 4: Ac+3s", 1, true))
    end)

    it("shows the rounds won in Kontsina", function()
      local gk = game{ rules = "kontsina", position = "hands=8h 2d / 9c 7d; won=1 0; score=4 1" }
      local b = screen.board(ASCII, gk:view(0), { names = NAMES, rules = gk:rules() })
      assert.truthy(b:find("Round 1 of 3, deal 1 of 6", 1, true))
      assert.truthy(b:find("Rounds won: You 1, greedy 0; points You 4, greedy 1", 1, true))
    end)

    it("never shows another seat's cards: the same view text whatever they hold", function()
      local a = game{ position = "hands=8h 2d Kc / 9c 7d 3c; table=8c 6d", seed = 1 }
      local b = game{ position = "hands=8h 2d Kc / 9h 7s 4c; table=8c 6d", seed = 1 }
      for _, st in ipairs{ ASCII, COLOUR } do
        assert.equals(screen.board(st, a:view(0), { names = NAMES }), screen.board(st, b:view(0), { names = NAMES }))
      end
      local text = screen.board(ASCII, a:view(0), { names = NAMES })
      for _, c in ipairs(a:view(1).hand) do assert.is_false(has_word(text, c), c) end
    end)

    it("hides the other hands in every position of seeded rounds (2 and 4 players)", function()
      for _, rules in ipairs{ "diloti", "diloti+players=4" } do
        each_position({ seed = 9, rules = rules }, function(gg)
          local v = gg:view(0)
          local text = screen.board(ASCII, v)
          for seat = 1, v.players - 1 do
            for _, c in ipairs(gg:view(seat).hand) do assert.is_false(has_word(text, c), c) end
          end
        end)
      end
    end)

    it("fits 80 columns on crowded tables, with 4 players, long names and colour", function()
      local g4 = game{ rules = "diloti+players=4", position = CROWDED4 }
      for seat = 0, 3 do
        assert_fits(screen.board(COLOUR, g4:view(seat), { names = NAMES4, numbered = true, rules = g4:rules() }), 80)
      end
      local many = game{ position = "hands=Kh Ks / Qc Qd; table=Ac Ad Ah As 2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s "
        .. "5c 5d 5h 5s 6c 6d 6h 6s 7c 7d 7h 7s 10c 10d 10h 10s Jc Jd Jh Js" }
      local long = { [0] = "a player with a very long name indeed", [1] = "another player with a long name too" }
      assert_fits(screen.board(COLOUR, many:view(0), { names = long, recent = { string.rep("word ", 40) } }), 80)
    end)

    it("fits a narrow width in every position of a round", function()
      for _, width in ipairs{ 40, 20 } do
        local st = screen.style{ unicode = true, colour = true, width = width }
        each_position({ seed = 4, rules = "diloti+players=4" }, function(gg)
          assert_fits(screen.board(st, gg:view(gg:turn() or 0), { names = NAMES4, rules = gg:rules() }), width)
        end)
        assert_fits(screen.board(st, game{ rules = "diloti+players=4", position = CROWDED4 }:view(0),
          { names = NAMES4 }), width)
      end
    end)

    it("uses plain ASCII without colour", function()
      local b = screen.board(ASCII, game{ rules = "diloti+players=4", position = CROWDED4 }:view(0), { names = NAMES4 })
      assert.is_nil(b:find("[\128-\255]"))
      assert.is_nil(b:find("\27", 1, true))
    end)
  end)

  describe("describing a move", function()
    local EX1 = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c"

    it("says who laid which card", function()
      local e = last_event({ position = "hands=8h 2d / 9c; table=8c" }, { "2d lay" })
      assert.equals("You laid 2♦.", screen.describe(UNI, e, NAMES))
      assert.equals("Seat 0 laid 2d.", screen.describe(ASCII, e))
    end)

    it("splits a capture into its parts, counts the cards and announces a xeri", function()
      local e = last_event({ position = EX1 }, { "8h x 3h 5s 8c" })
      assert.equals("You captured 8♣, 5♠+3♥ with 8♥: 4 cards.", screen.describe(UNI, e, NAMES))
      e = last_event({ position = EX1 }, { "8h x 2c 3h 5s 6d 8c" })
      assert.equals("You captured 8♣, 6♦+2♣, 5♠+3♥ with 8♥: 6 cards. Xeri! (10 points)",
        screen.describe(UNI, e, NAMES))
    end)

    it("names a captured declaration with its owner and cards", function()
      local e = last_event({ position = "hands=10c 9d / 9c 2h 7s; table=4h 5h G9@1(9s,4c+5c)" }, { "9d x 4h 5h G9@1" })
      assert.equals("You captured greedy's group of 9s (9♠, 4♣+5♣), 5♥+4♥ with 9♦: 6 cards. Xeri! (10 points)",
        screen.describe(UNI, e, NAMES))
    end)

    it("describes face-card and Kontsina captures", function()
      local e = last_event({ position = "hands=Jc 5d / 10h 2c; table=10s Jd" }, { "Jc x Jd" })
      assert.equals("You captured J♦ with J♣: 2 cards.", screen.describe(UNI, e, NAMES))
      e = last_event({ rules = "kontsina", position = "hands=8h 2d Kc Qs / 9c 7d 3c 4h; table=8c 6d 5s 3h" },
        { "8h x 3h 5s" })
      assert.equals("You captured 5♠+3♥ with 8♥: 3 cards.", screen.describe(UNI, e, NAMES))
    end)

    it("describes a plain declaration (D15)", function()
      local e = last_event({ position = "turn=1; hands=9c 2d / 3c 8d; table=5d" }, { "3c + 5d = 8" })
      assert.equals("West declared a plain 8 (3♣ on 5♦).", screen.describe(UNI, e, { [0] = "You", [1] = "West" }))
    end)

    it("describes a raise of your declaration and of another's (D16)", function()
      local e = last_event({ position = "turn=1; hands=5h 6c / 4s 8d 2s; table=P6@0(Ac+5s)" }, { "2s + P6@0 = 8" })
      assert.equals("East raised your plain 6 to 8 with 2♠; it is theirs now.",
        screen.describe(UNI, e, { [0] = "You", [1] = "East" }))
      e = last_event({ position = "hands=5h 9c / 4s 7d; table=P4@1(Ac+3s)" }, { "5h + P4@1 = 9" })
      assert.equals("You raised greedy's plain 4 to 9 with 5♥; it is yours now.", screen.describe(UNI, e, NAMES))
    end)

    it("describes new groups with their components (D17)", function()
      local e = last_event({ position = "hands=6h 6c / 9c; table=6s 4d 2h" }, { "6h + 2h 4d 6s = G6" })
      assert.equals("You declared a group of 6s (6♠, 6♥, 4♦+2♥).", screen.describe(UNI, e, NAMES))
      e = last_event({ position = "hands=Ah 9d 2c / 8h 3c; table=9s P8@1(5c+3s)" }, { "Ah + 9s P8@1 = G9" })
      assert.equals("You declared a group of 9s (9♠, greedy's plain 8+A♥).", screen.describe(UNI, e, NAMES))
    end)

    it("describes additions to a group, raises into it and merges, with the components after", function()
      local list = events({ position = "hands=Ac 2s 7d 8h 8s Kd / 4h 6c Ah 9c 10s Kh; table=2c 3d 4s 8c" },
        { "Ac + 3d 4s 8c = G8", "4h + 2c = 6", "2s + G8@0 P6@1 = G8", "Ah lay", "7d + Ah G8@0 = G8",
          "9c lay", "8h + G8@0 = G8", "10s lay", "8s x G8@0" })
      local said = {}
      for i, e in ipairs(list) do said[i] = screen.describe(UNI, e, NAMES) end
      assert.equals("You declared a group of 8s (8♣, 4♠+3♦+A♣).", said[1])
      assert.equals("greedy declared a plain 6 (4♥ on 2♣).", said[2])
      assert.equals("You raised greedy's plain 6 with 2♠ into the group of 8s (3 components).", said[3])
      assert.equals("You added 7♦ with A♥ to the group of 8s (4 components).", said[5])
      assert.equals("You added 8♥ to the group of 8s (5 components).", said[7])
      assert.equals("You captured your group of 8s (A♣+3♦+4♠, 8♣, 2♣+2♠+4♥, A♥+7♦, 8♥) with 8♠: 11 cards.", said[9])
      local e = last_event({ position = "turn=1; hands=6h 2d 6c / 6d 9c 2h; table=4h G6@0(2c+4s,6s)" },
        { "2h + 4h G6@0 = G6" })
      assert.equals("greedy added 2♥ with 4♥ to your group of 6s (3 components); it is theirs now.",
        screen.describe(UNI, e, NAMES))
      e = last_event({ position = "hands=2d 8d / 9c 2h 8h; table=6h G8@0(8s,Ac+7c) G8@1(2c+6s,8c)" },
        { "2d + 6h G8@0 G8@1 = G8" })
      assert.equals("You added 2♦ with 6♥ to the group of 8s, merging greedy's group of 8s (5 components).",
        screen.describe(UNI, e, NAMES))
    end)

    it("describes redeal claims and keeps (V-face-card-claim)", function()
      local pos = "ply=0; claim=0; hands=Jc Jd Qc Qs Kh 2c / 9c 7d 3c 4h 5h 6h; table=8c 6d 5s 3h"
      local e = last_event({ rules = "diloti+face-card-claim", position = pos }, { "claim" })
      assert.equals("greedy claimed a redeal (V-face-card-claim).", screen.describe(UNI, e, { [0] = "greedy" }))
      e = last_event({ rules = "diloti+face-card-claim", position = pos }, { "keep" })
      assert.equals("You kept your cards (V-face-card-claim).", screen.describe(UNI, e, NAMES))
    end)

    it("says when new cards are dealt and when the round ends", function()
      local list = events({ position = "hands=8h / 9c; pack=Ac 2c 3c 4c 5c 6c Ad 2d 3d 4d 5d 6d" },
        { "8h lay", "9c lay" })
      assert.equals("greedy laid 9♣. New cards are dealt.", screen.describe(UNI, list[2], NAMES))
      local e = last_event({ position = "hands=Jc / 10h; table=10s Jd; deal=4; ply=46; pack=-" },
        { "Jc x Jd", "10h x 10s" })
      assert.equals("greedy captured 10♠ with 10♥: 2 cards. Xeri! (10 points) That was the last card of the round.",
        screen.describe(UNI, e, NAMES))
    end)

    it("uses the names given, in four-player games too", function()
      local e = last_event({ rules = "diloti+players=4",
        position = "dealer=3; hands=5h 9c / 5d 9d / 4h 4c / 2h 6h; table=8c Kd P4@2(Ac+3s)" },
        { "9c lay", "5d + P4@2 = 9" })
      assert.equals("greedy (East) raised expert (North)'s plain 4 to 9 with 5♦; it is theirs now.",
        screen.describe(UNI, e, NAMES4))
    end)
  end)

  describe("the legal moves", function()
    local g = game{ rules = "diloti+players=4", position = CROWDED4 }

    it("numbers the moves in order, with cards styled, from texts or tables", function()
      local moves = g:moves()
      local text = screen.moves(UNI, moves)
      assert.equals(screen.moves(UNI, g:moves(true)), text)
      assert.truthy(text:find(" 1) 2♦ x A♦ A♥", 1, true))
      assert.truthy(text:find(#moves .. ") 9♣ x 2♠ 3♣ 6♦ 7♣ G9@1", 1, true))
      local numbers = {}
      for n in text:gmatch("(%d+)%) ") do numbers[#numbers + 1] = tonumber(n) end
      table.sort(numbers)
      for i = 1, #moves do assert.equals(i, numbers[i]) end
    end)

    it("lays them out in columns that fit the width", function()
      local text = screen.moves(COLOUR, g:moves())
      assert_fits(text, 80)
      assert.truthy(#support.lines(text) < #g:moves())
      assert_fits(screen.moves(screen.style{ width = 24 }, g:moves()), 24)
      assert.equals("1) claim   2) keep", screen.moves(ASCII, { "claim", "keep" }))
    end)
  end)

  describe("round summaries", function()
    local function side(t)
      local r = { aces = 0, cards = 0, clubs = 0, xeris = 0, pts_aces = 0, pts_cards = 0, pts_clubs = 0,
        pts_ten_diamonds = 0, pts_two_clubs = 0, pts_xeri = 0, total = 0 }
      for k, v in pairs(t) do r[k] = v end
      return r
    end

    it("breaks a Diloti round down per side, with the match score (D23, D24)", function()
      local result = {
        over = false, rounds = 1, score = { [0] = 23, [1] = 8 }, rounds_won = { [0] = 1, [1] = 0 },
        round = { winner = 0,
          [0] = side{ cards = 30, aces = 3, xeris = 1, pts_cards = 4, pts_aces = 3, pts_ten_diamonds = 2,
            pts_xeri = 10, total = 19 },
          [1] = side{ cards = 22, aces = 1, pts_aces = 1, pts_two_clubs = 1, total = 2 } } }
      local rules = game{ seed = 1 }:rules()
      local text = screen.round_summary(UNI, result, NAMES, { rules = rules })
      assert.equals(table.concat({
        "Round 1 is over: You win it.",
        "             You      greedy",
        "Cards        30   +4  22",
        "Aces          3   +3   1  +1",
        "10♦               +2       -",
        "2♣                 -      +1",
        "Xeris         1  +10   0",
        "Round total  19        2",
        "Match score  23        8",
        "The match is played to 61 points.",
      }, "\n"), text)
    end)

    it("shows the clubs majority and rounds won in Kontsina (K4, K5)", function()
      local result = {
        over = false, rounds = 2, score = { [0] = 4, [1] = 5 }, rounds_won = { [0] = 1, [1] = 1 },
        round = { winner = 1,
          [0] = side{ cards = 22, clubs = 5, aces = 2, pts_two_clubs = 1, total = 1 },
          [1] = side{ cards = 30, clubs = 8, aces = 2, pts_cards = 2, pts_clubs = 1, pts_ten_diamonds = 1,
            total = 4 } } }
      local rules = game{ rules = "kontsina", seed = 1 }:rules()
      local text = screen.round_summary(ASCII, result, NAMES, { rules = rules })
      assert.truthy(text:find("Round 2 is over: greedy wins it.", 1, true))
      assert.truthy(text:find("Clubs         5       8  +1", 1, true))
      assert.truthy(text:find("Rounds won    1       1", 1, true))
      assert.is_nil(text:find("Aces", 1, true))
      assert.is_nil(text:find("Xeris", 1, true))
      assert.truthy(text:find("The match is 3 rounds", 1, true))
    end)

    it("names the partnerships in four-player Diloti and fits 80 columns", function()
      local g = each_position({ seed = 2, rules = "diloti+players=4" }, function() end)
      local text = screen.round_summary(COLOUR, g:result(), NAMES4, { rules = g:rules() })
      assert_fits(text, 80)
      assert.truthy(text:find("You & expert (North)", 1, true))
      assert.truthy(text:find("greedy (East) & random (West)", 1, true))
      assert.truthy(text:find("Round total", 1, true))
    end)

    it("summarises real rounds of every base game and player count within the width", function()
      for _, rules in ipairs{ "diloti", "diloti+players=4", "kontsina", "kontsina+players=3", "kontsina+players=4",
        "diloti+last-capture" } do
        local g = each_position({ seed = 6, rules = rules }, function() end)
        local names = { [0] = "You", "greedy (East)", "expert (North)", "random (West)" }
        for _, width in ipairs{ 80, 30 } do
          local st = screen.style{ unicode = true, colour = true, width = width }
          local text = screen.round_summary(st, g:result(), names, { rules = g:rules() })
          assert_fits(text, width)
          assert.truthy(text:find("Round 1 is over", 1, true), rules)
        end
        local r = g:result()
        local plain = screen.round_summary(ASCII, r, names)
        for s = 0, g:view(0).sides - 1 do
          assert.truthy(plain:find(tostring(r.round[s].total), 1, true))
        end
      end
    end)

    it("says so when no round has finished, and names the match winner", function()
      local g = game{ seed = 3 }
      assert.truthy(screen.round_summary(ASCII, g:result(), NAMES):find("No round has finished yet.", 1, true))
      local text = screen.round_summary(ASCII, {
        over = true, winner = 1, rounds = 4, score = { [0] = 50, [1] = 63 }, rounds_won = { [0] = 1, [1] = 3 },
        round = { winner = 1, [0] = side{ total = 3 }, [1] = side{ total = 8 } } }, NAMES)
      assert.truthy(text:find("The match is over: greedy wins.", 1, true))
    end)
  end)

  describe("the round so far (issue 15, item 7)", function()
    -- You hold A♣ 2♣ 4♠ 6♠ 10♦ and a xeri, greedy A♥ K♦.
    local PILES = "hands=8h 2d / 9c 7c; table=8c 6d 5s 3h 4c; piles=Ac 10d 2c 4s 6s / Ah Kd; xeri=1 0; "
      .. "score=12 30; pack=?36"

    it("is on the board's score line once something is captured", function()
      local g = game{ position = PILES }
      local b = screen.board(ASCII, g:view(0), { names = NAMES, rules = g:rules() })
      assert.equals("Score: You 12, greedy 30 (to 61); this round so far: You 18, greedy 1", support.lines(b)[2])
      local narrow = screen.board(screen.style{ width = 40 }, g:view(0), { names = NAMES, rules = g:rules() })
      assert.equals("Score: You 12, greedy 30 (to 61);", support.lines(narrow)[3])
      assert.equals("       this round so far: You 18,", support.lines(narrow)[4])
      assert.equals("       greedy 1", support.lines(narrow)[5])
      local fresh = game{ seed = 3 }
      local b0 = screen.board(ASCII, fresh:view(0), { names = NAMES, rules = fresh:rules() })
      assert.is_nil(b0:find("so far", 1, true))
    end)

    it("breaks down in full what each side has earned, only in the columns Diloti scores (D23)", function()
      local g = game{ position = PILES }
      local text = screen.round_so_far(UNI, g:view(0), NAMES, { rules = g:rules() })
      assert.equals(table.concat({
        "Round 1 so far (deal 1 of 4):",
        "             You      greedy",
        "Cards         5   +4   2",
        "Aces          1   +1   1  +1",
        "10♦               +2       -",
        "2♣                +1       -",
        "Xeris         1  +10   0",
        "So far       18        1",
        "Match score  12       30",
        "The match is played to 61 points.",
      }, "\n"), text)
      assert.is_nil(text:find("Clubs", 1, true))
    end)

    it("shows the clubs majority in Kontsina, and no aces or xeris (K4)", function()
      local g = game{ rules = "kontsina",
        position = "hands=8h 2d 9d 4h / 9c 7c 9h 9s; table=8c 6d 5s 3h; piles=Ad 10d 2c 4s 6s / Ah 3c 5c; pack=?32" }
      local text = screen.round_so_far(ASCII, g:view(0), NAMES, { rules = g:rules() })
      assert.truthy(text:find("Clubs       1      2  +1", 1, true), text)
      assert.truthy(text:find("Cards       5  +2  3", 1, true), text)
      assert.is_nil(text:find("Aces", 1, true))
      assert.is_nil(text:find("Xeris", 1, true))
      assert.truthy(text:find("Rounds won", 1, true))
    end)

    it("leaves out what the rules in force do not score: no xeris when a variant scores none", function()
      local g = game{ position = PILES }
      local rules = g:rules()
      rules.points.xeri, rules.points.ace = 0, 0
      local text = screen.round_so_far(ASCII, g:view(0), NAMES, { rules = rules })
      assert.is_nil(text:find("Xeris", 1, true))
      assert.is_nil(text:find("Aces", 1, true))
    end)
  end)

  describe("at the terminal's width (issue 15, item 12)", function()
    local WIDTHS = { 40, 60, 80, 120 }
    local LONG = { [0] = "You", [1] = "cautious (East)", [2] = "cautious (North)", [3] = "cautious (West)" }

    -- Every word of every name is on the screen whole, and nothing is cut.
    local function names_whole(text, names, players)
      assert.is_nil(text:find("~", 1, true), text)
      for seat = 0, players - 1 do
        for word in names[seat]:gmatch("%S+") do
          assert.truthy(text:find(support.lit(word)), word .. " is cut in:\n" .. text)
        end
      end
    end

    it("wraps a list's descriptions inside their column, with the terms whole", function()
      local rows = {
        { "help [COMMAND]", "what you can type here" },
        { "face-card-claim-any-deal", "As face-card-claim, on any deal: a claim cancels the round, captures and all" },
        { "why MOVE", "is this move allowed, and what would it do (nothing is played, whatever it is)" },
        { "x", "" },
      }
      for _, width in ipairs(WIDTHS) do
        local st = screen.style{ unicode = true, width = width }
        local text = screen.deflist(st, rows)
        assert_fits(text, width)
        local lines = support.lines(text)
        -- Where the descriptions start: the column of the first one.
        local col = lines[1]:find("what you", 1, true)
        assert.is_number(col, text)
        local words, next_row = {}, 1
        for _, l in ipairs(lines) do
          local rest = l
          local term = rows[next_row] and rows[next_row][1]
          if term and l:sub(1, 2 + #term) == "  " .. term then
            rest, next_row = string.rep(" ", 2 + #term) .. l:sub(3 + #term), next_row + 1
          end
          if rest:match("%S") then
            assert.equals(string.rep(" ", col - 1), rest:sub(1, col - 1), "a description off its column:\n" .. text)
            assert.is_nil(rest:sub(col):find("^ "), "a description off its column:\n" .. text)
          end
          for w in rest:gmatch("%S+") do words[#words + 1] = w end
        end
        assert.equals(#rows + 1, next_row, "a term is cut or missing:\n" .. text)
        local want = {}
        for _, r in ipairs(rows) do for w in r[2]:gmatch("%S+") do want[#want + 1] = w end end
        assert.same(want, words)
      end
    end)

    it("puts a long term on its own line, its description under the column", function()
      local st = screen.style{ width = 60 }
      local text = screen.deflist(st, { { "a", "short" }, { string.rep("t", 40), "after a long term" } })
      local lines = support.lines(text)
      assert.equals("  " .. string.rep("t", 40), lines[2])
      assert.equals(lines[1]:find("short", 1, true), lines[3]:find("after", 1, true))
    end)

    it("draws boards, breakdowns and the round so far within the width, names whole", function()
      for _, width in ipairs(WIDTHS) do
        local st = screen.style{ unicode = true, colour = true, width = width }
        for _, spec in ipairs{ { rules = "diloti+players=4", names = LONG, n = 4 },
          { rules = "kontsina+players=4", names = LONG, n = 4 }, { rules = "diloti", names = NAMES, n = 2 } } do
          local g = each_position({ seed = 6, rules = spec.rules }, function(gg)
            local v = gg:view(0)
            for _, text in ipairs{ screen.board(st, v, { names = spec.names, rules = gg:rules() }),
              screen.round_so_far(st, v, spec.names, { rules = gg:rules() }) } do
              assert_fits(text, width)
            end
          end)
          local summary = screen.round_summary(st, g:result(), spec.names, { rules = g:rules() })
          assert_fits(summary, width)
          names_whole(summary, spec.names, spec.n)
          names_whole(screen.round_so_far(st, g:view(0), spec.names, { rules = g:rules() }), spec.names, spec.n)
        end
      end
    end)

    it("wraps a long side name in the breakdown's header instead of cutting it", function()
      local g = each_position({ seed = 2, rules = "diloti+players=4" }, function() end)
      local text = screen.round_summary(ASCII, g:result(), LONG, { rules = g:rules() })
      assert.is_nil(text:find("~", 1, true))
      assert.truthy(text:find("cautious (East) &", 1, true), text)
      assert.truthy(text:find("cautious (West)", 1, true), text)
      assert_fits(text, 80)
    end)

    it("asks the terminal for the width first, then COLUMNS, then takes 80", function()
      local cols = env{ COLUMNS = "100", TERM = "xterm" }
      assert.equals(60, screen.detect(cols, function() return 60 end).width)
      assert.equals(100, screen.detect(cols, function() return nil end).width)
      assert.equals(100, screen.detect(cols).width)
      assert.equals(80, screen.detect(env{ TERM = "xterm" }, function() return nil end).width)
    end)
  end)
end)
