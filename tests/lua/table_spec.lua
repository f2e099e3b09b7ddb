-- The table (lua/table/repl.lua, lua/table/commands.lua): a session driven with
-- scripted input lines, no terminal.
local support = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "support.lua")
local diloti = require "diloti"
local repl = require "diloti.table.repl"
-- The table as the program builds it: with the lessons and the coach.
local EXT = { require "diloti.teach.learn", (require "diloti.teach.coach") }
local record = require "diloti.match.record"

local ENV = { NO_COLOR = "1", TERM = "xterm", LANG = "C.UTF-8" }
local function getenv(k) return ENV[k] end

--- A session reading from `lines` (a list; nil after the last one).
-- Returns the session and a function giving all output so far.
local function session(game, lines, extra)
  local out = {}
  local i = 0
  local o = {
    write = function(s) out[#out + 1] = s end,
    read = function(prompt)
      out[#out + 1] = prompt
      i = i + 1
      return lines and lines[i]
    end,
    getenv = getenv, clock = function() return 1000 end,
    game = game or { seed = 5, ai = "random" },
  }
  for k, v in pairs(extra or {}) do o[k] = v end
  local s = assert(repl.new(setmetatable({ extensions = EXT }, { __index = o })))
  s:advance() -- as run() does: the computer moves until a person is to move
  return s, function() return table.concat(out) end
end

local function run(game, lines, extra)
  local s, output = session(game, lines, extra)
  s:run()
  return s, output()
end

-- A session whose output is cleared, then one line handled.
local function say(s, line)
  local out = {}
  s.write = function(t) out[#out + 1] = t end
  s:handle(line)
  return table.concat(out)
end

local POS = "hands=8h 2d 7c / 9c 3s; table=8c 6d 5s 3h 2c"

describe("the table", function()
  describe("starting", function()
    it("greets, names the game and shows the board with the hand", function()
      local _, out = run({ seed = 5, ai = "random" }, { "quit" })
      assert.matches("the table", out)
      assert.matches("against random", out)
      assert.matches("Your hand:", out)
      assert.matches("Table:", out)
    end)

    it("refuses bad options with a clear message", function()
      local s, err = repl.new { extensions = EXT, game = { rules = "diloti+nonsense" },
        write = function() end, getenv = getenv }
      assert.is_nil(s)
      assert.matches("nonsense", err)
      s, err = repl.new { extensions = EXT, game = { ai = "nobody" }, write = function() end, getenv = getenv }
      assert.is_nil(s)
      assert.matches("nobody", err)
    end)

    it("leaves at the end of input", function()
      local s = run(nil, {})
      assert.is_true(s.done)
    end)
  end)

  describe("moves", function()
    it("plays a move typed in notation, and the computer answers", function()
      local s = session({ position = POS, ai = "random" })
      local out = say(s, "8h x 8c 5s 3h 6d 2c")
      assert.matches("You captured", out)
      assert.matches("Xeri", out)
      assert.equals(1, #s.g:history() >= 1 and 1 or 0)
    end)

    it("plays a move by its number in the list", function()
      local s = session({ position = POS, ai = "random" })
      local first = s.g:moves()[1]
      say(s, "1")
      assert.equals(first, s.g:history()[1].move)
    end)

    it("plays a short input that fits one legal move (7c x)", function()
      local s = session({ position = POS, ai = "random" })
      local out = say(s, "7c x")
      assert.matches("You captured", out)
      assert.equals("7c x 2c 5s", s.g:history()[1].move)
    end)

    it("lists the candidates of an ambiguous short input and plays nothing", function()
      local s = session({ position = POS, ai = "random" })
      local out = say(s, "8h")
      assert.matches("several moves", out)
      assert.matches("8h x 8c", out)
      assert.equals(0, #s.g:history())
    end)

    it("refuses an illegal move with its rule id and leaves the game untouched (D10, D9)", function()
      local s = session({ position = "hands=Jh 2d / 9c; table=Jc 5s", ai = "random" })
      local before = s.g:position()
      local out = say(s, "Jh lay")
      assert.matches("Refused: D10", out)
      assert.equals(before, s.g:position())
      out = say(s, "9c lay")
      assert.matches("D9", out)
      assert.equals(before, s.g:position())
    end)

    it("refuses a wrong sum and suggests the legal captures close to it (D11)", function()
      local s = session({ position = POS, ai = "random" })
      local out = say(s, "8h x 5s 2c")
      assert.matches("Refused: D11", out)
      assert.equals(0, #s.g:history())
    end)

    it("says what is wrong with half a move", function()
      local s = session({ position = POS, ai = "random" })
      local out = say(s, "8h x 9d")
      assert.matches("Refused", out)
      assert.equals(0, #s.g:history())
      out = say(s, "8h +")
      assert.matches("8h", out)
      assert.equals(0, #s.g:history())
    end)

    it("takes a declaration named by its cards, kind and value, or value, and 'CARD on ITEMS' (issue 15, item 3)",
      function()
        local P9 = "hands=9h 7h / 9c 3c; table=9s 2h P9@1(3d+6c)"
        for line, move in pairs {
          ["9h x 6c 3d 9s"] = "9h x 9s P9@1", ["9h x P9"] = "9h x P9@1", ["9h x 9s 9@1"] = "9h x 9s P9@1",
          ["7h on 2h"] = "7h + 2h = 9", ["7h + 2 = 9"] = "7h + 2h = 9",
        } do
          local s = session({ position = P9, ai = "random" })
          say(s, line)
          assert.equals(move, s.g:history()[1] and s.g:history()[1].move, line)
        end
        local s = session({ position = P9, ai = "random" })
        local out = say(s, "9h x 9")
        assert.matches("several moves", out)
        assert.matches("9h x 9s\n", out)
        assert.matches("9h x P9@1\n", out)
        out = say(s, "9h x 6c")
        assert.matches("6c is part of P9@1%(3d%+6c%): name every card of it, or the declaration as P9@1",
          (out:gsub("%s+", " ")))
        assert.equals(0, #s.g:history())
      end)

    it("refuses a move number that is not in the list", function()
      local s = session({ position = POS, ai = "random" })
      local out = say(s, "99")
      assert.matches("no move number 99", out)
    end)

    it("plays a whole match against random by typing move numbers", function()
      local lines = {}
      for i = 1, 2000 do lines[i] = "1" end
      local s = run({ seed = 11, ai = "random", target = 21 }, lines)
      assert.equals("match-over", s.g:phase())
      assert.is_true(#s.log > 40)
    end)
  end)

  describe("Lua at the table", function()
    it("runs Lua behind '=', 'lua CODE' or in lua mode, with the game as g", function()
      local s = session()
      assert.matches("4", say(s, "=2*2"))
      assert.matches("0", say(s, "=g:turn()"))
      assert.matches("hello", say(s, "lua 'hello'"))
      assert.matches("Lua mode", say(s, "lua"))
      assert.matches("2", say(s, "1 + 1"))
      assert.matches("0", say(s, "g:turn()"))
      assert.matches("Back at the table", say(s, "."))
      assert.matches("unknown command", say(s, "g:turn()"))
    end)

    it("shows an error with a traceback and keeps the game", function()
      local s = session({ position = POS, ai = "random" })
      local before = s.g:position()
      local out = say(s, "lua g:play('7c lay'); error('boom')")
      assert.matches("boom", out)
      assert.matches("traceback", out)
      assert.matches("put back", out)
      assert.equals(before, s.g:position())
    end)

    it("reads more lines while a chunk is unfinished", function()
      local _, out = run(nil, { "lua for i = 1, 3 do", "print('line' .. i)", "end", "quit" })
      assert.matches("line3", out)
      _, out = run(nil, { "lua", "for i = 1, 2 do", "print('row' .. i)", "end", ".", "quit" })
      assert.matches("row2", out)
    end)

    it("notices a move played from Lua and lets the computer answer", function()
      local s = session({ position = POS, ai = "random" })
      local out = say(s, "=g:play('7c lay')")
      assert.matches("changed from Lua", out)
      assert.equals(0, s.g:turn())
    end)

    it("reports a syntax error without running anything", function()
      local s = session()
      local out = say(s, "lua x = = 2")
      assert.matches("unexpected symbol", out)
    end)
  end)

  describe("declare VALUE", function()
    it("makes the one legal declaration of a value, lists several, and says why there is none", function()
      -- 3h + 5s = 8 (holding the 8h) is the only declaration of 8
      local s = session({ position = "hands=3h 8h 4d / 9c 3s; table=5s 2c Kd", ai = "random" })
      local before = #s.g:history()
      say(s, "declare 8")
      assert.equals("3h + 5s = 8", s.g:history()[before + 1].move)
      s = session({ position = "hands=3h 8h 4d / 9c 3s; table=5s 2c Kd", ai = "random" })
      assert.matches("D1[45]", say(s, "declare 9"))
      assert.matches("declare 8", say(s, "declare"))
    end)
  end)

  describe("typos", function()
    it("names an unknown word and the command it was probably meant to be", function()
      local s = session()
      local out = say(s, "hnit")
      assert.matches("unknown command 'hnit'", out, 1, true)
      assert.matches("did you mean hint?", out, 1, true)
      assert.not_matches("nil", out)
      assert.matches("did you mean score?", say(s, "socre"), 1, true)
      assert.matches("did you mean undo?", say(s, "UNDO!"), 1, true)
      -- (two steps apart is too far for a short word: 'clear' is not 'learn')
      assert.not_matches("did you mean", say(s, "clear"))
      assert.matches("did you mean explain?", say(s, "explian"), 1, true)
    end)

    it("points at 'help' when nothing is close, and at '=' when the line is Lua", function()
      local s = session()
      local out = say(s, "frobnicate")
      assert.matches("unknown command 'frobnicate'", out, 1, true)
      assert.matches("help", out)
      out = say(s, "g:moves()")
      assert.matches("=g:moves()", out, 1, true)
      assert.not_matches("table:1", out)
    end)

    it("gives a move-like line the move parser's message, not Lua's", function()
      local s = session({ position = POS, ai = "random" })
      for _, line in ipairs { "play Qc", "9zz", "8h x 3", "Qx" } do
        local out = say(s, line)
        assert.not_matches("table:1", out)
        assert.not_matches("syntax error", out)
        assert.not_matches("unknown command", out)
      end
      assert.matches("Refused", say(s, "9zz"))
      assert.matches("Qc", say(s, "play Qc"))
      -- 'play MOVE' plays the move
      local before = #s.g:history()
      say(s, "play 8h x 8c")
      assert.equals("8h x 8c", s.g:history()[before + 1].move)
    end)
  end)

  describe("commands", function()
    it("help lists every command, and explains one", function()
      local s = session()
      local out = say(s, "help")
      for _, c in ipairs(repl.commands.list) do assert.matches(c.name, out, 1, true) end
      assert.matches("new %[OPTIONS%]", say(s, "help new"))
      assert.matches("no command", say(s, "help frobnicate"))
    end)

    it("moves lists the legal moves, numbered", function()
      local s = session({ position = POS, ai = "random" })
      local out = say(s, "moves")
      assert.matches("1%)", out)
      assert.matches("7♣ lay", out)
    end)

    it("why explains a legal move and refuses an illegal one with the rule id", function()
      local s = session({ position = POS, ai = "random" })
      assert.matches("Legal: 7c lay", say(s, "why 7c lay"))
      assert.matches("D9", say(s, "check Kc lay"))
      assert.matches("Which move", say(s, "why"))
      assert.matches("several", say(s, "why 8h"))
      assert.equals(0, #s.g:history())
    end)

    it("hint names a legal move and says why", function()
      local s = session({ position = POS, ai = "random" })
      local out = say(s, "hint")
      assert.matches("Hint: 8h x 2c 3h 5s 6d 8c", out)
      assert.matches("xeri", out)
    end)

    it("hint warns of a sweep the move leaves only where a sweep scores (a xeri: Diloti, not Kontsina, K2)",
      function()
      local pos = "hands=Ac 2d / 5s 6s; table=4c"
      local out = say(session({ position = pos, ai = "random" }), "hint"):gsub("%s+", " ")
      -- (of the hinted move, before the other is named)
      assert.matches("Ac lay: laying A♣ gives the least away, though it leaves a table a 5 would sweep; 2d lay", out,
        1, true)
      out = say(session({ rules = "kontsina", position = pos, ai = "random" }), "hint")
      assert.matches("Hint:", out, 1, true)
      assert.is_nil(out:find("sweep", 1, true), out)
    end)

    it("hint counts the aces a capture takes ('two aces', not 'an ace, an ace')", function()
      local out = say(session({ position = "hands=Ah Kd / 5s 6s; table=As", ai = "random" }), "hint"):gsub("%s+", " ")
      assert.matches("Ah x As: it takes 2 cards with two aces", out, 1, true)
    end)

    it("why cites Kontsina's own rule (K2) for its lays and captures, not Diloti's", function()
      local pos = "hands=4d 2d / 5s 6s; table=4c"
      local s = session({ rules = "kontsina", position = pos, ai = "random" })
      local out = say(s, "why 2d lay")
      assert.matches("(K2)", out, 1, true)
      assert.is_nil(out:find("D10", 1, true), out)
      out = say(s, "why 4d x 4c")
      assert.matches("(K2)", out, 1, true)
      assert.is_nil(out:find("D11", 1, true), out)
      assert.matches("(D10)", say(session({ position = pos, ai = "random" }), "why 2d lay"), 1, true)
    end)

    it("undo takes back the person's move and the answers to it", function()
      local s = session({ seed = 3, ai = "random" })
      local before = s.g:position()
      say(s, "1")
      say(s, "undo")
      assert.equals(before, s.g:position())
      assert.matches("Nothing to undo", say(s, "undo"))
    end)

    -- Issue 24, finding 6: ESC[2J clears what is on the screen, not the
    -- scrollback, where every hand shown before was still there.
    it("in hot-seat, the hand-over clears the scrollback too, not only the screen", function()
      local colour = { TERM = "xterm", LANG = "C.UTF-8" }
      local s = session({ seed = 3, players = 2, humans = 2 }, { "" },
        { getenv = function(k) return colour[k] end })
      assert.is_true(s.style.colour)
      local text = say(s, "1") -- seat 0 moves; hand-over to seat 1
      local clear = text:find("\27[H\27[2J\27[3J", 1, true)
      assert.is_truthy(clear, "no clear of the scrollback in: " .. text:gsub("\27", "ESC"))
      assert.is_truthy(clear < text:find("Pass the keyboard to North", 1, true))
    end)

    it("in hot-seat, undo takes back only the asker's own last move, and says so", function()
      -- Two people, one keyboard. At the hand-over, the one who just moved
      -- may still take it back; the next one at the keyboard may not.
      local s = session({ seed = 3, players = 2, humans = 2 }, { "", "", "undo" })
      assert.matches("Nothing of yours to undo", say(s, "undo"))
      say(s, "1") -- seat 0; hand-over to seat 1: Enter
      assert.equals(1, s:human_to_move())
      local text = say(s, "undo") -- seat 1 asks: seat 0's move is not theirs
      assert.matches("has played since your last move", text)
      assert.equals(1, #s.g:history())
      say(s, "1") -- seat 1; hand-over to seat 0: Enter
      text = say(s, "1") -- seat 0; at the hand-over, seat 0 types 'undo'
      assert.matches("type 'undo' instead to take your move back", text)
      assert.matches("Undone: your move ", text)
      -- (the keyboard goes back to seat 0 before its hand is shown again)
      local again = text:find("Pass the keyboard to South", 1, true)
      assert.is_truthy(again and again < text:find("Undone: your move ", 1, true))
      assert.equals(2, #s.g:history())
      assert.equals(0, s:human_to_move())
      -- four players, two people (seats 0 and 2) and two AIs
      s = session({ seed = 3, players = 4, humans = 2, ai = "random" }, { "undo" })
      local before = #s.g:history()
      s:handle("1") -- seat 0, then the AI at seat 1; at the hand-over seat 0 takes it back
      assert.equals(before, #s.g:history())
      assert.equals(0, s:human_to_move())
    end)

    it("new and load ask before dropping an unsaved game (when someone can answer)", function()
      local dir = support.tmpdir()
      -- Enter keeps the game
      local s = session({ seed = 3, ai = "random" }, { "" }, { ask_on_quit = true })
      say(s, "1")
      local g = s.g
      local text = say(s, "new seed=9")
      assert.equals(g, s.g)
      assert.matches("not saved", text)
      assert.matches("goes on", text)
      -- 'discard' drops it
      s = session({ seed = 3, ai = "random" }, { "discard" }, { ask_on_quit = true })
      say(s, "1")
      g = s.g
      s:handle("new seed=9")
      assert.are_not.equal(g, s.g)
      -- a file name saves it first, then goes on to the new game
      local path = dir .. "/kept.dlt"
      s = session({ seed = 3, ai = "random" }, { path }, { ask_on_quit = true })
      say(s, "1")
      g = s.g
      say(s, "save " .. dir .. "/other.dlt")
      say(s, "1")
      s:handle("load " .. dir .. "/other.dlt")
      assert.are_not.equal(g, s.g)
      assert.is_truthy(support.read(path))
      -- nothing to ask about: a saved game, or no one to answer (piped)
      s = session({ seed = 3, ai = "random" }, {}, { ask_on_quit = false })
      say(s, "1")
      g = s.g
      s:handle("new seed=9")
      assert.are_not.equal(g, s.g)
      support.rmdir(dir)
    end)

    it("a yes or a no at a save question is an answer, never a file name", function()
      local dir = support.tmpdir()
      local tried = {}
      -- (saves go through a spy: the old reading saved to ./n and ./y)
      local function spy(s)
        local real = s.room.save
        s.room.save = function(self, path, extra)
          tried[#tried + 1] = path
          if path:sub(1, #dir) == dir then return real(self, path, extra) end
          return nil, "a test saves only in its own folder"
        end
        return s
      end
      -- leaving: 'n' leaves without saving, 'yes' asks for the name
      local s = spy(session({ seed = 3, ai = "random" }, { "n" }, { ask_on_quit = true }))
      say(s, "1")
      s:handle("quit")
      assert.is_true(s.done)
      assert.same({}, tried)
      s = spy(session({ seed = 3, ai = "random" }, { "Yes", dir .. "/left.dlt" }, { ask_on_quit = true }))
      say(s, "1")
      local text = say(s, "quit")
      assert.is_true(s.done)
      assert.same({ dir .. "/left.dlt" }, tried)
      assert.matches("Saved to ", text)
      -- before a new game: 'y' asks for the name; 'no' is asked again
      tried = {}
      s = spy(session({ seed = 3, ai = "random" }, { "y", dir .. "/kept.dlt" }, { ask_on_quit = true }))
      say(s, "1")
      local g = s.g
      s:handle("new seed=9")
      assert.are_not.equal(g, s.g)
      assert.same({ dir .. "/kept.dlt" }, tried)
      s = spy(session({ seed = 3, ai = "random" }, { "no", "" }, { ask_on_quit = true }))
      say(s, "1")
      g = s.g
      text = say(s, "new seed=9")
      assert.equals(g, s.g)
      assert.matches("'no' is not a file name", text, 1, true)
      assert.same({ dir .. "/kept.dlt" }, tried)
      support.rmdir(dir)
    end)

    it("undo is refused in a game with practice=off", function()
      local s = session({ seed = 3, ai = "random", practice = false })
      say(s, "1")
      assert.matches("No undo", say(s, "undo"))
    end)

    it("score and log describe the round so far", function()
      local s = session({ seed = 3, ai = "random" })
      say(s, "1")
      assert.matches("Round 1 so far", say(s, "score"))
      local log = say(s, "log")
      assert.matches("Round 1", log)
      assert.matches("You ", log)
      assert.matches("No moves yet", say(session({ seed = 3, ai = "random", humans = 2 }), "log"))
    end)

    it("score breaks the round so far down per side, in the columns the rules score (issue 15, item 7)",
      function()
        local piles = "hands=8h 2d / 9c 7c; table=8c 6d 5s 3h 4c; piles=Ac 10d 2c 4s 6s / Ah Kd; xeri=1 0; pack=?36"
        local out = say(session({ position = piles, ai = "random" }), "score")
        assert.matches("Match: You 0, random %(North%) 0 %(target 61%)", out)
        assert.matches("Round 1 so far %(deal 1 of 4%):", out)
        assert.matches("\nCards +5 +%+4 +2\n", out)
        assert.matches("\nXeris +1 +%+10 +0\n", out)
        assert.matches("\nSo far +18 +1\n", out)
        assert.is_nil(out:lower():find("clubs", 1, true))
        out = say(session({ rules = "kontsina", ai = "random",
          position = "hands=8h 2d 9d 4h / 9c 7c 9h 9s; table=8c 6d 5s 3h; piles=Ad 10d 2c 4s 6s / Ah 3c 5c; "
            .. "pack=?32" }),
          "score")
        assert.matches("\nClubs +1 +2 +%+1\n", out)
        assert.is_nil(out:find("Aces", 1, true))
        assert.is_nil(out:find("Xeris", 1, true))
      end)

    it("rules lists the variants and explains one", function()
      local s = session()
      assert.matches("forced%-capture", say(s, "rules"))
      assert.matches("V%-soy", say(s, "rules soy"))
      assert.matches("No variant", say(s, "rules nonsense"))
    end)

    it("ai lists the computer players and explains one", function()
      local s = session()
      assert.matches("master", say(s, "ai"))
      assert.matches("greedy", say(s, "ai greedy"))
      assert.matches("No AI", say(s, "ai nobody"))
    end)

    it("new starts a game with options and refuses bad ones, keeping the game", function()
      local s = session()
      local g = s.g
      assert.matches("not an option", say(s, "new banana"))
      assert.matches("unknown option", say(s, "new colour=red"))
      assert.matches("whole number", say(s, "new seed=x"))
      assert.matches("No new game", say(s, "new rules=diloti+nonsense"))
      assert.equals(g, s.g)
      assert.matches("New game", say(s, "new 4 ai=greedy seed=9"))
      assert.equals(4, s.g:rules().players)
      assert.matches("greedy", s.names[1])
      assert.matches("New game", say(s, "new rules=kontsina seed=2"))
      assert.equals("one", s.g:rules().capture)
    end)

    it("new seats a chosen AI (or a person) at any seat", function()
      local s = session()
      assert.matches("New game", say(s, "new players=4 ai=random seat1=expert seat2=human seat3=greedy"))
      assert.matches("expert", s.names[1])
      assert.matches("greedy", s.names[3])
      assert.is_true(s:is_human(2))
      assert.matches("no seat 5", say(s, "new players=2 seat5=greedy"))
    end)

    it("ends a round in order: its last moves, where the leftover cards went (D22), then the breakdown; "
      .. "the match result once, with plurals", function()
      local s, out = session({ ai = "random", seed = 2, target = 5 })
      for _ = 1, 200 do
        if s.g:phase() == "match-over" then break end
        if s:human_to_move() then s:handle("1") end
      end
      s:handle("score")
      local text = out()
      local last = text:find("That was the last card of the round", 1, true)
      local left = text:find("The cards left on the table", 1, true)
      local over = text:find("Round 1 is over", 1, true)
      assert.is_truthy(last and left and over, text:sub(-1500))
      assert.is_true(last < left and left < over)
      assert.matches("who captured last %(D22%)", text)
      local _, results = text:gsub("The match is over: ", "")
      assert.equals(1, results)
      assert.matches("%(1 round won%)", text)
      assert.is_nil(text:find("1 rounds won", 1, true))
    end)

    it("waits for Enter between rounds on a terminal, never after the last, and not when piped", function()
      local function play(pause)
        local s, out = session({ ai = "random", seed = 2, target = 21 }, nil, { pause_rounds = pause })
        for _ = 1, 400 do
          if s.g:phase() == "match-over" then break end
          if s:human_to_move() then s:handle("1") end
        end
        return s, out()
      end
      local s, text = play(true)
      assert.equals("match-over", s.g:phase())
      local rounds = select(3, s.g:where())
      assert.is_true(rounds >= 2)
      local _, pauses = text:gsub("Press Enter to deal round %d+", "")
      assert.equals(rounds - 1, pauses)
      local over, pause = text:find("Round 1 is over", 1, true), text:find("Press Enter to deal round 2", 1, true)
      local next_round = text:find("Round 2: ", 1, true)
      assert.is_truthy(over and pause and next_round)
      assert.is_true(over < pause and pause < next_round)
      -- (piped input and CI: no waiting)
      local _, piped = play(false)
      assert.is_nil(piped:find("Press Enter", 1, true))
    end)

    it("plays a newcomer against the 'normal' level, and takes levels by name", function()
      local s = session({ seed = 4 })
      assert.matches("builder", s.names[1])
      say(s, "new ai=hard")
      assert.matches("counter", s.names[1])
      say(s, "new easy")
      assert.matches("greedy", s.names[1])
    end)

    it("go carries on after an interruption, which played nothing", function()
      local hits = 0
      local s = session({ seed = 4, ai = "random" })
      s.interrupted = function()
        hits = hits + 1
        return hits == 1
      end
      local before = #s.g:history()
      say(s, "1")
      assert.is_true(s.paused)
      local n = #s.g:history()
      assert.equals(before + 1, n)
      say(s, "go")
      assert.is_false(s.paused)
      assert.is_true(#s.g:history() > n)
    end)

    it("a moves hook that leaves no move is one line naming D20, with no traceback", function()
      local dir = support.tmpdir()
      support.write(dir .. "/empty.lua", [[
        return { name = "empty", description = "removes every move",
          hooks = { moves = function() return {} end } }
      ]])
      local _, out = run({ seed = 3, ai = "random" }, { "new rules=diloti+empty", "1", "quit" },
        { rules_dirs = { dir } })
      assert.matches("D20", out)
      assert.matches("table goes on", out)
      assert.not_matches("traceback", out)
      support.rmdir(dir)
    end)

    it("a house rule whose hook fails is reported, and the table goes on", function()
      local dir = support.tmpdir()
      support.write(dir .. "/broken-hook.lua", [[
return { name = "broken-hook", description = "fails on every list of moves",
  hooks = { moves = function() error("no moves for you") end } }
]])
      local s, out = run({ rules = "diloti+broken-hook", seed = 3, ai = "random" }, { "1", "moves", "new rules=diloti",
        "1", "quit" }, { rules_dirs = { dir } })
      support.rmdir(dir)
      assert.is_true(s.done)
      assert.matches("no moves for you", out)
      assert.matches("the table goes on", out)
      assert.matches("New game", out)
      assert.equals("diloti", s.opts.rules)
    end)

    it("a failing user command is reported and the session goes on", function()
      local s = session()
      s.commands.add { name = "boom", help = "fails", run = function() error("kaboom") end }
      local out = say(s, "boom")
      assert.matches("'boom' command failed", out)
      assert.matches("kaboom", out)
    end)
  end)

  describe("save, load and replay", function()
    local dir
    before_each(function() dir = support.tmpdir() end)
    after_each(function() support.rmdir(dir) end)

    it("save then load gives the same game", function()
      local s = session({ seed = 8, ai = "greedy" })
      for _ = 1, 5 do say(s, "1") end
      local pos = s.g:position()
      assert.matches("Saved", say(s, "save " .. dir .. "/a.dlt"))
      local t = session({ seed = 1, ai = "random" })
      local out = say(t, "load " .. dir .. "/a.dlt")
      assert.matches("Loaded", out)
      assert.equals(pos, t.g:position())
      assert.matches("greedy", t.names[1])
    end)

    it("load of a missing or corrupt file keeps the current game", function()
      local s = session({ seed = 8, ai = "greedy" })
      say(s, "1")
      local g, pos = s.g, s.g:position()
      assert.matches("Not loaded", say(s, "load " .. dir .. "/missing.dlt"))
      support.write(dir .. "/bad.dlt", "\0\1\2garbage")
      assert.matches("Not loaded", say(s, "load " .. dir .. "/bad.dlt"))
      assert.matches("Which file", say(s, "load"))
      assert.equals(g, s.g)
      assert.equals(pos, s.g:position())
    end)

    it("save into a missing folder says so", function()
      local s = session()
      assert.matches("Not saved", say(s, "save " .. dir .. "/no/such/dir/x.dlt"))
    end)

    it("replay steps through a saved game with every hand shown", function()
      local g = assert(diloti.new { seed = 6 })
      for _ = 1, 6 do g:play(g:moves()[1]) end
      assert(record.save(dir .. "/r.dlt", g, { rules = "diloti", seed = 6, players = 2,
        seats = { [0] = "human", [1] = "ai greedy" } }))
      local s = session(nil, { "n", "n", "b", "goto 6", "n", "x", "q" })
      local out = {}
      s.write = function(t) out[#out + 1] = t end
      s:handle("replay " .. dir .. "/r.dlt")
      out = table.concat(out)
      assert.matches("Hands:", out)
      assert.matches("%[1/6%]", out)
      assert.matches("%[6/6%]", out)
      assert.matches("the end", out)
      assert.matches("In a replay", out)
      assert.matches("Back at your game", out)
      -- The recorded players are named, not the ones at the table now.
      assert.matches("greedy %(North%)", out)
      assert.not_matches("random", out)
    end)

    it("quit offers to save an unfinished game", function()
      local path = dir .. "/q.dlt"
      local s = run({ seed = 8, ai = "greedy" }, { "1", "quit", path }, { ask_on_quit = true })
      assert.is_true(s.done)
      local g2 = assert(record.load(path))
      assert.equals(s.g:position(), g2:position())
    end)
  end)

  describe("the terminal's width (issue 15, item 12)", function()
    -- A two-column list: under a line that is not indented, each entry's
    -- term two columns in and its text at one column, continued there.
    local function columns_hold(text, width)
      local col, want_more
      for line in (text .. "\n"):gmatch("(.-)\n") do
        assert.is_true(utf8.len(line) <= width, string.format("%d > %d: %q", utf8.len(line), width, line))
        local lead = line:find("%S")
        if want_more then
          assert.equals(col, lead, "a term alone with no text under it:\n" .. text)
          want_more = false
        elseif line:match("^  %S") then
          local term_end = line:find("%S  +%S")
          if term_end then
            local at = line:find("%S", term_end + 1)
            col = col or at
            assert.equals(col, at, "a text off its column:\n" .. text)
          else
            want_more = col ~= nil -- (a long term: its text starts on the next line)
          end
        elseif lead and lead > 1 then
          assert.equals(col, lead, "a continued text off its column:\n" .. text)
        else
          col = nil -- a heading: a new list may follow
        end
      end
    end

    local function lists(s)
      local help = say(s, "help")
      return help:match("Commands:\n(.-)\nAnything"), say(s, "ai"):match("^(.-)\nPlay against"),
        say(s, "rules"):match("^.-:\n(.*)$")
    end

    for _, width in ipairs{ 40, 60, 80, 120 } do
      it("keeps help, ai and rules in two columns at " .. width .. " columns (COLUMNS)", function()
        local s = session(nil, nil, { getenv = function(k) return k == "COLUMNS" and tostring(width) or ENV[k] end })
        for _, list in ipairs{ lists(s) } do
          assert.is_string(list)
          columns_hold(list, width)
        end
        assert.matches("\n  why MOVE", say(s, "help"))
      end)
    end

    it("asks the terminal again for each line typed, so that a resize is followed", function()
      local cols = 100
      local s = session(nil, nil, { terminal = function() return cols end })
      local wide = say(s, "rules")
      cols = 50
      local narrow = say(s, "rules")
      local widest = 0
      for line in wide:gmatch("[^\n]+") do widest = math.max(widest, utf8.len(line)) end
      assert.is_true(widest > 50)
      columns_hold(narrow:match("^.-:\n(.*)$"), 50)
      for line in say(s, "board"):gmatch("[^\n]+") do assert.is_true(utf8.len(line) <= 50, line) end
    end)

    it("plays a four-player match at 60 columns: nothing wider, no name cut", function()
      local lines = {}
      for i = 1, 3000 do lines[i] = "1" end
      local _, out = run({ seed = 4, players = 4, ai = "cautious", partner = "cautious", target = 21 }, lines,
        { getenv = function(k) return k == "COLUMNS" and "60" or ENV[k] end })
      assert.matches("The match is over", out)
      for line in out:gmatch("[^\n]+") do
        assert.is_true(utf8.len(line) <= 60 + #"diloti> ", line) -- (a prompt is followed by what was typed)
      end
      assert.is_nil(out:find("~", 1, true))
      assert.matches("cautious %(East%) &", out)
    end)
  end)

  describe("four players", function()
    it("seats a person with an AI partner against two AIs", function()
      local s = session({ seed = 2, players = 4, ai = "greedy", partner = "cautious" })
      assert.matches("You", s.names[0])
      assert.matches("cautious", s.names[2])
      assert.matches("greedy", s.names[1])
      assert.matches("greedy", s.names[3])
      assert.equals(0, s.g:turn() == 0 and 0 or s.g:turn())
    end)

    it("hides the hands between two people at one keyboard", function()
      local s = session({ seed = 2, players = 4, humans = 2, ai = "random" }, { "" })
      local first = s:human_to_move()
      assert.is_not_nil(first)
      s:show()
      local out = say(s, "1")
      assert.matches("Pass the keyboard", out)
    end)
  end)

  describe("tab completion", function()
    it("completes commands, moves, options and variant names", function()
      local s = session({ position = POS, ai = "random" })
      assert.same({ "moves" }, s:complete("mov", "mov", 1))
      local c = s:complete("8", "8", 1)
      assert.is_true(#c >= 1)
      assert.same({ "x" }, s:complete("x", "8h x", 4))
      local w = s:complete("", "8h x ", 6)
      assert.is_true(#w >= 1)
      assert.same({ "ai=greedy" }, s:complete("ai=gr", "new ai=gr", 5))
      assert.same({ "rules=diloti+soy" }, s:complete("rules=diloti+so", "new rules=diloti+so", 5))
      assert.same({ "soy" }, s:complete("so", "rules so", 7))
    end)
  end)

  describe("the program", function()
    local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"

    local function play(input, config, args)
      local state = support.tmpdir()
      local cmd = string.format(
        "printf %s | XDG_CONFIG_HOME=%s XDG_STATE_HOME=%s NO_COLOR=1 timeout 30 %s play %s 2>&1",
        support.q(input), support.q(config), support.q(state), support.q(support.bin),
        args or "--seed 3 --ai random")
      local p = assert(io.popen(cmd))
      local out = p:read("a")
      local _, _, code = p:close()
      support.rmdir(state)
      return out, code
    end

    it("runs the user's table.lua from docs/table.md, adding a command", function()
      local doc = support.read(here .. "../../docs/table.md")
      local code = doc:match("<!%-%- example: table%.lua %-%->%s*```lua\n(.-)```")
      assert.is_string(code)
      local config = support.tmpdir()
      os.execute("mkdir -p " .. support.q(config .. "/diloti"))
      support.write(config .. "/diloti/table.lua", code)
      local out, status = play("help\nunseen\nquit\n", config)
      support.rmdir(config)
      assert.equals(0, status)
      assert.matches("unseen%s+how many cards", out)
      assert.matches("unseen: %d+ clubs, %d+ diamonds", out)
    end)

    it("reports a broken table.lua and carries on", function()
      local config = support.tmpdir()
      os.execute("mkdir -p " .. support.q(config .. "/diloti"))
      support.write(config .. "/diloti/table.lua", "commands.add { name = 'x' } error('nope')")
      local out, status = play("moves\nquit\n", config)
      support.rmdir(config)
      assert.equals(0, status)
      assert.matches("table.lua failed", out)
      assert.matches("1%)", out)
    end)

    it("takes --seat N=NAME", function()
      local out, status = play("quit\n", support.no_config, "--players 4 --seat 1=greedy --seat 3=expert --seed 2")
      assert.equals(0, status)
      assert.matches("greedy %(East%)", out)
      assert.matches("expert %(West%)", out)
      out, status = play("", support.no_config, "--seat east=greedy")
      assert.equals(1, status)
      assert.matches("N=NAME", out)
    end)

    it("refuses bad options with the reason and exit code 1", function()
      local out, status = play("", support.no_config, "--ai nobody")
      assert.equals(1, status)
      assert.matches("nobody", out)
    end)
  end)
end)
