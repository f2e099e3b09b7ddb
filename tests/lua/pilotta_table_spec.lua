-- Pilotta at the table (lua/games/pilotta/table.lua with the shared
-- session, commands and driver): a session driven by scripted lines, no
-- terminal. The board, a whole match typed by move numbers, every command,
-- refusals with their P ids, save/load/replay, and the program's --game.
local support = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "support.lua")
local diloti = require "diloti" -- (the compiled-in modules)
local repl = require "diloti.table.repl"
local screen = require "diloti.table.screen"
local pilotta = require "diloti.games.pilotta.table"
-- The table as the program builds it: with the lessons and the coach.
local EXT = { require "diloti.teach.learn", (require "diloti.teach.coach") }

local ENV = { NO_COLOR = "1", TERM = "xterm", LANG = "C.UTF-8" }
local function getenv(k) return ENV[k] end

-- A session reading `lines` (then Enter for every question: the
-- hand-over between people at one keyboard).
local function session(game, lines, extra)
  local out, i = {}, 0
  local o = {
    write = function(s) out[#out + 1] = s end,
    read = function(prompt)
      out[#out + 1] = prompt
      i = i + 1
      if lines and lines[i] ~= nil then return lines[i] end
      return lines and "" or nil
    end,
    getenv = getenv, clock = function() return 1000 end, extensions = EXT,
    game = game or { game = "pilotta", seed = 5 },
  }
  for k, v in pairs(extra or {}) do o[k] = v end
  local s = assert(repl.new(o))
  s:advance()
  return s, function() return table.concat(out) end
end

-- One line handled; its output.
local function say(s, line)
  local out = {}
  s.write = function(t) out[#out + 1] = t end
  s:handle(line)
  return table.concat(out)
end

-- Everybody at one keyboard, and the hand-over's Enter answered.
local function hotseat(seed)
  local s = session({ game = "pilotta", seed = seed or 3, humans = 4, dealer = 3 }, {})
  s.read = function() return "" end
  return s
end

-- Plays the auction of a hot-seat game to a contract of 80 in a suit
-- seat 0 may bid (seat 0 is the eldest hand with dealer 3): 80x, pass x3.
local function to_play(s)
  assert.equals("auction", s.g:phase())
  assert.equals(0, s.g:turn())
  s:handle("80c")
  for _ = 1, 3 do s:handle("pass") end
  assert.equals("play", s.g:phase())
end

describe("Pilotta at the table", function()
  it("seats you with an AI partner against two AIs, and shows the auction and your eight cards", function()
    local s, output = session({ game = "pilotta", seed = 5 })
    s:show()
    local out = output()
    assert.equals("pilotta", s.gm.name)
    assert.equals(4, s.players_n)
    assert.is_true(s:is_human(0))
    for seat = 1, 3 do assert.is_false(s:is_human(seat)) end
    -- (the default Pilotta AI is the normal level: the cautious partner)
    assert.matches("pilotta, 4 players with cautious (North) as partner", s:describe_game(), 1, true)
    assert.matches("Auction:", out)
    assert.matches("Your hand:", out)
    assert.matches("%(North%) 8 %(partner%)", out)
    assert.matches("Score: You & cautious (North) 0, cautious (East) & cautious (West) 0 (to 351)", out, 1, true)
    assert.equals(8, #s.g:view(0).hand)
  end)

  it("is chosen by the rules too (rules=pilotta+...), and refuses a game it does not know", function()
    local s = session({ rules = "pilotta", seed = 2 })
    assert.equals("pilotta", s.gm.name)
    local r, err = repl.new { write = function() end, read = function() end, getenv = getenv,
      game = { game = "belote" } }
    assert.is_nil(r)
    assert.matches("no game 'belote'", err)
    r, err = repl.new { write = function() end, read = function() end, getenv = getenv,
      game = { game = "pilotta", rules = "diloti+soy" } }
    assert.is_nil(r)
    assert.matches("diloti's, not pilotta's", err)
  end)

  it("does not list or check a computer's moves while it is to act (they would show its cards, P50)", function()
    -- Ctrl-C stopped the computer at seat 1 before its card: the table waits
    local s = session({ game = "pilotta", seed = 5,
      position = "dealer=3; calls=80h, pass, pass, pass; tricks=7c; hands=?7 / ?8 / ?8 / ?8" }, nil,
      { interrupted = function() return true end })
    assert.is_true(s.paused)
    assert.equals(1, s.g:turn())
    local hand = s.g:view(1).hand
    for _, line in ipairs{ "moves", "why 7c", "why " .. hand[1], "check 1" } do
      local out = say(s, line)
      assert.matches("not your turn", out, 1, true)
      assert.is_nil(out:find("do not hold", 1, true), out)
      assert.is_nil(out:find("Legal", 1, true), out)
    end
    -- and the list comes back with the person's turn
    say(s, "go")
  end)

  it("plays a whole match to its end by typing move numbers", function()
    local s = session({ game = "pilotta", seed = 11, target = 151 })
    local typed = 0
    while s.g:phase() ~= "match-over" and typed < 3000 do
      assert.is_number(s:human_to_move(), s.g:phase())
      local out = say(s, "1")
      assert.is_nil(out:find("Refused", 1, true), out)
      typed = typed + 1
    end
    assert.equals("match-over", s.g:phase())
    local r = s.g:result()
    assert.is_true(r.score[0] >= 151 or r.score[1] >= 151)
    assert.is_true(r.over)
    local out = say(s, "board")
    assert.matches("The match is over", out)
    assert.matches("It is not your turn: the match is over", say(s, "1"))
  end)

  it("plays the default match to 351 with AIs at every other seat", function()
    local s = session({ game = "pilotta", seed = 4 })
    local typed = 0
    while s.g:phase() ~= "match-over" and typed < 5000 do
      say(s, "1")
      typed = typed + 1
    end
    assert.equals("match-over", s.g:phase())
    local r = s.g:result()
    assert.is_true(math.max(r.score[0], r.score[1]) >= 351)
    assert.matches("Round %d+", say(s, "score"))
  end)

  it("draws the contract, trumps, the trick with who is winning, tricks and points won", function()
    local s = hotseat(3)
    to_play(s)
    local out = say(s, "board")
    assert.matches("Contract: 80♣ by South", out)
    assert.matches("trumps: ♣", out)
    assert.matches("Trick 1: South to lead", out)
    assert.matches("Won: South & North 0 tricks, 0 points; East & West 0 tricks, 0 points", out)
    say(s, "1")
    out = say(s, "board")
    assert.matches("Trick 1: South %S+ · South is winning it", out)
    for _ = 1, 2 do say(s, "1") end
    out = say(s, "1")
    assert.matches("wins trick 1 %(%d+ points?%)", out)
    assert.matches("Trick 2:", out)
    assert.matches("Won: South & North %d tricks?, %d+ points", out)
  end)

  it("reads calls and cards in notation, by number and by short form", function()
    local s = hotseat(3)
    -- a card's name in the auction is refused rather than read as a
    -- short bid (a newcomer means the card); a bid in full, and PC7's
    -- short form where it names no card
    local out = say(s, "9h")
    assert.matches("names a card, and this is the auction: to bid 90 in hearts type 90", out, 1, true)
    assert.matches("9 alone for the bids of 90", out, 1, true)
    assert.equals(0, #s.g:history())
    assert.matches("names a card", say(s, "10\u{2666}"), 1, true)
    assert.matches("East", say(s, "90h"))
    assert.equals("90h", s.g:history()[1].move)
    say(s, "100\u{2660}")
    assert.equals("100s", s.g:history()[2].move)
    -- "110" fits four bids: the choice
    out = say(s, "110")
    assert.matches("several", out)
    assert.matches("110c", out)
    assert.equals(2, #s.g:history())
    -- a number alone in the auction is PC7's bid in tens, not the list's
    -- eleventh call: it lists the bids of 110, and plays none
    out = say(s, "11")
    assert.matches("several", out)
    assert.matches("110", out, 1, true)
    assert.equals(2, #s.g:history())
    -- PC7's short form where it names no card: 11c is 110c
    say(s, "11c")
    assert.equals("110c", s.g:history()[3].move)
    -- "capot" fits one suit each: the choice too
    assert.matches("capot s", say(s, "capot"))
    say(s, "contra")
    assert.equals("contra", s.g:history()[4].move)
    say(s, "recontra")
    assert.equals("play", s.g:phase())
    -- a card by its name, and by its number
    local hand = s.g:view(s.g:turn()).hand
    local legal = s.g:moves()
    local first = legal[1]:match("^(%S+)")
    say(s, first:gsub("h$", "\u{2665}"):gsub("d$", "\u{2666}"):gsub("c$", "\u{2663}"):gsub("s$", "\u{2660}"))
    assert.equals(first, s.g:history()[#s.g:history()].move:match("^(%S+)"))
    assert.equals(7, #s.g:view(0).hand)
    assert.is_true(#hand == 8)
  end)

  it("a run not shown in trick 2 is lost on the board and in 'score', and no longer counted (P38)", function()
    -- seed 19: we bid 100d, announce our run, win trick 1, then play
    -- trick 2's card without showing it
    local s = session({ game = "pilotta", seed = 19 }, {})
    for _, line in ipairs { "100d", "announce", "Jd" } do say(s, line) end
    local out = say(s, "score"):gsub("%s+", " ")
    assert.matches("55 so far", out, 1, true)
    -- (the table asks once: a slip of the keyboard would lose the run)
    local before = #s.g:history()
    out = say(s, "Kc"):gsub("%s+", " ")
    assert.matches("P38: you announced a declaration and have not shown it: playing K\u{2663} now loses it. "
      .. "Type 'show' first, or K\u{2663} again to play it all the same.", out, 1, true)
    assert.equals(before, #s.g:history())
    assert.truthy(s.g:moves()[1])
    out = say(s, "Kc"):gsub("%s+", " ")
    assert.matches("a run of 3 (20) lost: not shown in trick 2 (P38)", out, 1, true)
    out = say(s, "score"):gsub("%s+", " ")
    assert.matches("a run of 3 (20) (lost, not shown in trick 2, P38)", out, 1, true)
    assert.matches("need 65 more points for the contract of 100 (P42): 35 so far", out, 1, true)
  end)

  it("asks nothing of a card played after 'show', nor of a card with nothing to show (P38)", function()
    local s = session({ game = "pilotta", seed = 19 }, {})
    for _, line in ipairs { "100d", "announce", "Jd", "show" } do say(s, line) end
    local before = #s.g:history()
    local out = say(s, "Kc"):gsub("%s+", " ")
    assert.is_nil(out:find("P38: you announced", 1, true))
    assert.is_true(#s.g:history() > before)
    assert.is_nil(out:find("lost", 1, true))
    -- a card of trick 1, with a declaration one may announce, is played at once
    local s2 = session({ game = "pilotta", seed = 19 }, {})
    say(s2, "100d")
    before = #s2.g:history()
    say(s2, "Jd")
    assert.is_true(#s2.g:history() > before)
  end)

  it("'show' by one whose side's declarations do not stand says why: P37, not P38", function()
    -- seat 0's run of four (50) beats seat 3's run of three: seat 3 has
    -- nothing to show in trick 2, because of the comparison
    local g = assert(diloti.new { game = "pilotta", position = "dealer=3; round=1; score=0 0; calls=80c, 90d, "
      .. "pass, pass, 110c, pass, pass, pass; hands=7c 8c 10c 9d 7h 8h 7s / 7d Jd Qd Kd Ad Ah 9s / Kc Ac 8d Qh Js "
      .. "Qs As / 10d 9h 10h Jh Kh 10s Ks; tricks=9c 8s Jc Qc; decls=0:7c 8c 9c 10c, 1:Qd Kd Ad, 3:9h 10h Jh; "
      .. "belote=3" })
    assert.equals(2, g:turn())
    assert(g:play(g:moves()[1]))
    assert.equals(3, g:turn())
    local r = pilotta.resolve(g, "show")
    assert.equals("P37: the other side's declarations stand, so yours count for nothing and are not shown", r.error)
  end)

  it("refuses what the rules forbid with the rule id, the game untouched", function()
    local s = hotseat(3)
    local out = say(s, "170h")
    assert.matches("Refused: P14", out)
    out = say(s, "recontra")
    assert.matches("Refused: P1[78]", out)
    out = say(s, "85h")
    assert.matches("Refused: P14: bids go in tens", out, 1, true)
    -- (a bid read as far as the rule it breaks starts with the rule)
    out = say(s, "90 nt")
    assert.matches("Refused: P7: every contract has a trump suit", out, 1, true)
    out = say(s, "why 90 all")
    assert.matches("Not allowed: P7: ", out, 1, true)
    assert.equals(0, #s.g:history())
    to_play(s)
    -- seat 0 leads; seat 1 then tries a card of another suit while holding the led suit
    say(s, "1")
    local led = s.g:history()[#s.g:history()].move:match("^%S+"):sub(-1)
    local hand = s.g:view(1).hand
    local off, has_led
    for _, c in ipairs(hand) do
      if c:sub(-1) == led then has_led = true elseif c:sub(-1) ~= "c" then off = c end
    end
    local before = #s.g:history()
    if has_led and off then
      assert.matches("Refused: P2[3-6]", say(s, off))
      assert.equals(before, #s.g:history())
    end
    assert.matches("Refused: P51", say(s, "7h") .. say(s, "8h") .. say(s, "9h") .. say(s, "As"))
    assert.matches("Refused: P18", say(s, "pass"))
    assert.equals(before, #s.g:history())
  end)

  describe("every command", function()
    it("help names Pilotta's moves and its ids", function()
      local s = session()
      local out = say(s, "help")
      assert.matches("90h", out)
      assert.matches("capot s", out)
      assert.matches("announce", out)
      assert.matches("P24", out)
      assert.is_nil(out:find("8h x 3c 5s", 1, true))
      -- (Diloti's 'declare VALUE' is not listed; typed, it says what to do)
      assert.is_nil(out:find("declare VALUE", 1, true))
      assert.is_nil(out:find("G8", 1, true))
      assert.matches("no 'declare'.*announce CARDS.*P35", say(s, "declare 20"))
    end)

    it("moves lists the calls, numbered", function()
      local s = hotseat(3)
      local out = say(s, "moves")
      assert.matches("1%) pass", out)
      assert.matches("%d+%) 80♣", out)
      assert.matches("capot ♠", out)
    end)

    it("why says whether a call or card is allowed, playing nothing", function()
      local s = hotseat(3)
      assert.matches("Legal: 80♥", say(s, "why 80h")) -- (in the board's words, issue 25)
      assert.matches("Not allowed: P14", say(s, "why 170h"))
      assert.equals(0, #s.g:history())
    end)

    it("hint gives a legal action and why, in words", function()
      local s = hotseat(3)
      local out = say(s, "hint")
      assert.matches("^Hint: pass: your best is about %d+ for your side with %a+ as trumps: .*under the lowest "
        .. "open bid, 80 %(P14, P15%)%.", out)
      to_play(s)
      -- (the search's place, with a stand-in that ranks the legal cards
      -- in order: lua/games/pilotta/coach.lua and its spec say more)
      local plc = require "diloti.games.pilotta.coach"
      local saved = plc.search
      plc.search = function(g)
        local moves = {}
        for i, m in ipairs(g:moves(true)) do
          if m.kind == "play" then moves[#moves + 1] = { move = m.text, value = -i, made = 0.5 } end
        end
        return { best = moves[1].move, deals = 4, exact = false, moves = moves }
      end
      out = say(s, "hint")
      plc.search = saved
      assert.matches("^Hint: ", out)
      local card = out:match("^Hint: (%S+):")
      assert.truthy(s.g:check(card), out)
    end)

    it("undo takes back your call and the computer's answers", function()
      local s = session({ game = "pilotta", seed = 5 })
      local n = #s.g:history()
      say(s, "1")
      assert.is_true(#s.g:history() > n)
      assert.matches("Undone: %d+ moves?", say(s, "undo"))
      assert.equals(n, #s.g:history())
    end)

    it("score shows the sheet in tens and this round's trick points", function()
      local s = hotseat(3)
      to_play(s)
      for _ = 1, 4 do say(s, "1") end
      local out = say(s, "score")
      assert.matches("Match: South & North 0, East & West 0", out)
      assert.matches("Contract: 80♣ by South", out)
      assert.matches("%d trick points", out)
      -- after a round: its line on the sheet
      while s.g:phase() == "play" do say(s, "1") end
      out = say(s, "score")
      assert.matches("The sheet, in tens", out)
      assert.matches("Round 1", out)
    end)

    it("log tells the calls and cards in words, announcements by kind and value only", function()
      local s = session({ game = "pilotta", seed = 5 })
      say(s, "1")
      local out = say(s, "log")
      assert.matches("Round 1", out)
      assert.matches("You passed%.", out)
      assert.is_nil(out:find("announce %S+ %S+ %S+", 1))
    end)

    it("board, go, ai, rules, lua, play, declare, coach and explain answer without failing", function()
      local s = session()
      for _, line in ipairs { "board", "go", "ai", "rules", "=g:phase()", "play 1", "declare 8", "coach on",
        "explain", "new game=pilotta seed=9", "rules P24" } do
        local out = say(s, line)
        assert.is_nil(out:find("command failed", 1, true), line .. ": " .. out)
        assert.is_nil(out:find("Error", 1, true), line .. ": " .. out)
      end
      assert.matches("announce", say(s, "declare 8"))
      assert.matches("Coach on", say(s, "coach on"))
    end)

    it("new game=pilotta from a Diloti table, and back", function()
      local s = session({ seed = 5, ai = "random" })
      assert.equals("diloti", s.gm.name)
      local out = say(s, "new game=pilotta")
      assert.matches("New game: pilotta, 4 players", out)
      assert.equals("pilotta", s.gm.name)
      out = say(s, "new game=diloti")
      assert.matches("New game: diloti, 2 players", out)
      assert.matches("Table:", out)
      out = say(s, "new rules=pilotta+partner-exempt")
      assert.equals("pilotta", s.gm.name)
      assert.matches("pilotta%+partner%-exempt", out)
    end)

    it("save, load and replay a Pilotta game", function()
      local dir = support.tmpdir()
      local s = session({ game = "pilotta", seed = 8 })
      for _ = 1, 6 do say(s, "1") end
      local n = #s.g:history()
      assert.matches("Saved", say(s, "save " .. dir .. "/p.dlt"))
      local t = session({ seed = 2, ai = "random" })
      local out = say(t, "load " .. dir .. "/p.dlt")
      assert.matches("Loaded", out)
      assert.equals("pilotta", t.gm.name)
      assert.equals(n, #t.g:history())
      assert.equals(s.g:position(), t.g:position())
      local lines = { "n", "n", "b", "goto 3", "q" }
      local i = 0
      t.read = function() i = i + 1 return lines[i] end
      out = say(t, "replay " .. dir .. "/p.dlt")
      assert.matches("Hands:", out)
      assert.matches("Auction:", out)
      assert.matches("Back at your game", out)
      support.rmdir(dir)
    end)
  end)

  it("fits the board to a narrow terminal", function()
    local s = hotseat(3)
    to_play(s)
    say(s, "1")
    for _, w in ipairs { 30, 50, 100 } do
      s.style = screen.style { width = w, unicode = true }
      s.fixed_width = true
      for line in say(s, "board"):gmatch("[^\n]+") do
        assert.is_true(screen.visible_width(line) <= w, w .. ": " .. line)
      end
    end
  end)

  it("knows who is winning a trick (P29) and the card points (P6)", function()
    -- PE14: clubs trumps, 2:Qh 3:Ah 0:As 1:10h -> seat 3; hearts trumps 0:8d 1:7h 2:Ad 3:Kd -> seat 1
    local t = { { seat = 2, card = "Qh" }, { seat = 3, card = "Ah" }, { seat = 0, card = "As" },
      { seat = 1, card = "10h" } }
    assert.equals(3, pilotta.trick_winner(t, "c"))
    t = { { seat = 0, card = "8d" }, { seat = 1, card = "7h" }, { seat = 2, card = "Ad" }, { seat = 3, card = "Kd" } }
    assert.equals(1, pilotta.trick_winner(t, "h"))
    assert.equals(20, pilotta.card_points("Jh", "h"))
    assert.equals(2, pilotta.card_points("Jh", "c"))
  end)

  describe("the program", function()
    it("plays Pilotta with --game pilotta", function()
      local state = support.tmpdir()
      local cmd = string.format("printf 'moves\\n1\\nquit\\n' | XDG_CONFIG_HOME=%s XDG_STATE_HOME=%s NO_COLOR=1 "
        .. "timeout 30 %s play --game pilotta --seed 3 2>&1", support.q(support.no_config), support.q(state),
        support.q(support.bin))
      local p = assert(io.popen(cmd))
      local out = p:read("a")
      local _, _, code = p:close()
      support.rmdir(state)
      assert.equals(0, code, out)
      assert.matches("pilotta, 4 players", out)
      assert.matches("Auction:", out)
      assert.matches("1%) pass", out)
    end)
  end)

  describe("tab completion", function()
    it("offers the house rules of the game at the table", function()
      local s = session({ game = "pilotta", seed = 5 })
      local c = s:complete("s", "rules s", 7)
      assert.same({ "suit-after-auction", "swept-keeps-declarations" }, c)
      assert.same({ "rules=pilotta+partner-exempt", "rules=pilotta+pass-final" },
        s:complete("rules=pilotta+pa", "new rules=pilotta+pa", 5))
      assert.same({ "rules=diloti+soy" }, s:complete("rules=diloti+so", "new rules=diloti+so", 5))
      local bases = s:complete("rules=", "new rules=", 5)
      for _, b in ipairs { "rules=diloti", "rules=kontsina", "rules=pilotta", "rules=partner-exempt" } do
        local found = false
        for _, x in ipairs(bases) do found = found or x == b end
        assert.is_true(found, b)
      end
    end)
  end)

  describe("the turn line", function()
    -- seat 0 (you) leads the first trick; the two hands differ only in a run
    local function board(hand)
      local s = session({ game = "pilotta", humans = 1,
        position = "dealer=3; calls=80h, pass, pass, pass; hands=" .. hand .. " / ?8 / ?8 / ?8" })
      local out = say(s, "board")
      return s, out
    end

    it("suggests announcing only when the hand holds a declaration to announce (P35)", function()
      local _, plain = board("7c 9c Jc 7d 9d Jd 7s 9s")
      assert.matches("Your turn: card%.", plain)
      assert.is_nil(plain:find("announce", 1, true))
      local s, run = board("7c 8c 9c 7d 9d Jd 7s 9s")
      assert.matches("'announce' a declaration first, P35", run, 1, true)
      say(s, "announce 7c 8c 9c")
      assert.is_nil(say(s, "board"):find("'announce' a declaration first", 1, true))
    end)

    it("gives as examples of a call only calls that are legal now (P14-P16)", function()
      local s = session({ game = "pilotta", humans = 1,
        position = "dealer=2; calls=110d; hands=10c Kc 8d Ad 9h Qh 8s Js / ?8 / ?8 / ?8" })
      local line = assert(say(s, "board"):match("Your turn: call %(([^)]*)%)"))
      assert.matches("^pass, 120c, capot c, contra", line)
      assert.is_nil(line:find("90", 1, true))
      s = session({ game = "pilotta", humans = 1,
        position = "dealer=3; hands=10c Kc 8d Ad 9h Qh 8s Js / ?8 / ?8 / ?8" })
      line = assert(say(s, "board"):match("Your turn: call %(([^)]*)%)"))
      assert.matches("^pass, 80c, capot c", line)
      assert.is_nil(line:find("contra", 1, true)) -- (nothing to double yet)
    end)

    it("says only 'call' on the board at a computer's turn, with no empty list of examples", function()
      -- (the board drawn while East, a computer, is to call: no legal move of the viewer's to quote)
      local out = {}
      local s = assert(repl.new { write = function(t) out[#out + 1] = t end, read = function() return nil end,
        getenv = getenv, clock = function() return 1000 end, extensions = EXT,
        game = { game = "pilotta", humans = 1, position = "dealer=0; hands=10c Kc 8d Ad 9h Qh 8s Js / ?8 / ?8 / ?8" } })
      assert.equals(1, s.g:turn())
      s:show()
      local shown = table.concat(out)
      assert.matches("turn: call%.", shown)
      assert.is_nil(shown:find("call ()", 1, true))
    end)
  end)

  it("says how two equal declarations were decided without naming their cards (P36, P50)", function()
    local s = session({ game = "pilotta", humans = 4,
      position = "dealer=3; calls=80h, pass, pass, pass; hands=7c 8c 9c Ah 7s 8s 10s Ks"
        .. " / 10d Jd Qd 7h 9s Js 8h As / Kc Ac 9h 10h Qs Kd Ad 7d / 10c Jc Qc 8d 9d Jh Qh Kh" })
    local out = {}
    for _, line in ipairs { "announce 7c 8c 9c", "7s", "announce 10d Jd Qd", "9s", "Qs", "Jh" } do
      out[#out + 1] = say(s, line)
    end
    local all = table.concat(out):gsub("%s+", " ")
    assert.matches("a run of 3 (20) against a run of 3 (20): the higher top card, or the trump suit",
      all, 1, true)
    assert.is_nil(all:find("a run of 3 (20) beats a run of 3 (20)", 1, true))
  end)
end)
