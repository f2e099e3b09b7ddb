-- Pilotta as a newcomer meets it (issue 25, items 1, 6 and 7): move words
-- that no command shadows, the words of the table's messages, the round's
-- breakdown and 'score', and the front door (--help, the man page, 'ai').
-- Scripted sessions, no terminal.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local support = dofile(here .. "support.lua")
require "diloti" -- (the compiled-in modules)
local repl = require "diloti.table.repl"
local commands = require "diloti.table.commands"
local games = require "diloti.table.games"
local pilotta = require "diloti.games.pilotta.table"
local screen = require "diloti.table.screen"
local EXT = { require "diloti.teach.learn", (require "diloti.teach.coach") }

local ENV = { NO_COLOR = "1", TERM = "xterm", LANG = "C.UTF-8" }
local ASCII = { NO_COLOR = "1", TERM = "xterm", LANG = "C" }

local function session(game, lines, env, pause)
  local out, i = {}, 0
  local s = assert(repl.new {
    pause_rounds = pause,
    write = function(t) out[#out + 1] = t end,
    read = function(prompt)
      out[#out + 1] = prompt
      i = i + 1
      if lines and lines[i] ~= nil then return lines[i] end
      return lines and "" or nil
    end,
    getenv = function(k) return (env or ENV)[k] end, clock = function() return 1000 end, extensions = EXT,
    game = game,
  })
  s:advance()
  return s, function() return table.concat(out) end
end

local function say(s, line)
  local out = {}
  s.write = function(t) out[#out + 1] = t end
  s:handle(line)
  return table.concat(out)
end

-- Hearts trumps; seat 0 announces a run of 3 in clubs, nobody else does,
-- and West wins trick 1 with the Jh: seat 0 is to show in trick 2 after
-- West leads.
local DEAL = "dealer=3; calls=80h, pass, pass, pass; hands=7c 8c 9c Ah 7s 8s 10s Ks"
  .. " / 10d Jd Qd 7h 9s Js 8h As / Kc Ac 9h 10h Qs Kd Ad 7d / 10c Jc Qc 8d 9d Jh Qh Kh"

local function hotseat(position)
  local s = session({ game = "pilotta", humans = 4, position = position or DEAL }, {})
  s.read = function() return "" end
  return s
end

local function to_show()
  local s = hotseat()
  for _, line in ipairs { "announce 7c 8c 9c", "7s", "9s", "Qs", "Jh", "Kh" } do say(s, line) end
  assert.equals(0, s.g:turn())
  assert.is_true(s.g:moves()[1]:match("^show") ~= nil)
  return s
end

local function shown(s)
  for _, d in ipairs(s.g:view(0).announcements) do
    if d.seat == 0 then return d.shown end
  end
end

describe("a move word is never a command (issue 25, item 1)", function()
  it("plays 'show' at a Pilotta table, in hot-seat and alone with the computers", function()
    local s = to_show()
    say(s, "show")
    assert.is_true(shown(s))
    s = to_show()
    say(s, "show 7♣ 8♣ 9♣")
    assert.is_true(shown(s))
    -- one person: the computers play trick 1's end and East's lead
    local h = to_show()
    local one = session({ game = "pilotta", humans = 1, position = h.g:position() })
    assert.equals(0, one.g:turn())
    local out = say(one, "show")
    assert.is_true(shown(one))
    assert.matches("You showed", out, 1, true)
  end)

  -- Every word a game's move reader knows: the engine's parsers (the
  -- words they match), and what the game's table module adds.
  local function parser_words(path)
    local set = {}
    for w in support.read(here .. "../../" .. path):gmatch('word%(%s*[%w&]+%s*,%s*"(%a+)"%)') do set[w] = true end
    return set
  end

  it("checks every game's move words against every command and alias", function()
    local s = session({ game = "pilotta", seed = 5 })
    assert.is_truthy(s)
    local sources = { diloti = "src/diloti/notation.c", pilotta = "src/pilotta/notation.c" }
    for _, name in ipairs(games.names()) do
      local gm = games.get(name)
      assert.is_table(gm.move_words, name .. " lists no move words")
      local listed = {}
      for _, w in ipairs(gm.move_words) do listed[w] = true end
      local from_parser = parser_words(sources[name])
      assert.is_truthy(next(from_parser), "no word found in " .. sources[name])
      for w in pairs(from_parser) do assert.is_true(listed[w], name .. ": the parser's '" .. w .. "' is not listed") end
      for _, w in ipairs(gm.move_words) do
        assert.is_nil(commands.by_name[w:lower()], name .. ": the move word '" .. w .. "' is a command")
      end
    end
    -- (the words the examples in 'help' begin with)
    for _, name in ipairs(games.names()) do
      local gm = games.get(name)
      local listed = {}
      for _, w in ipairs(gm.move_words) do listed[w] = true end
      for _, row in ipairs(gm.help_moves) do
        local first = row[1]:match("^(%a+)")
        if first and not screen.parse_card(row[1]:match("^(%S+)")) then
          assert.is_true(listed[first:lower()], name .. ": 'help' shows '" .. first .. "', not a listed move word")
        end
      end
    end
  end)

  it("plays a move word before a command a user's table.lua adds under that name", function()
    local s = to_show()
    s.commands.add { name = "show", run = function(T) T:print("user's show") end }
    local out = say(s, "show")
    assert.is_nil(out:find("user's show", 1, true))
    assert.is_true(shown(s))
  end)
end)

describe("the front door names Pilotta (issue 25, item 7)", function()
  it("in the top-level --help and the man page's NAME and DESCRIPTION", function()
    assert.matches("Pilotta", (support.cli { "--help" }):match("^(.-)\nOptions:"))
    local man = support.read(here .. "../../docs/diloti.6")
    assert.matches("Pilotta", man:match("\n%.SH NAME\n(.-)\n%.SH "))
    assert.matches("Pilotta", man:match("\n%.SH DESCRIPTION\n(.-)\n%.SH "))
  end)

  it("lists only that game's AIs with 'diloti ai --game GAME'", function()
    local out = support.cli { "ai", "--game", "pilotta" }
    assert.matches("Pilotta:", out, 1, true)
    assert.is_nil(out:find("Diloti and Kontsina", 1, true))
    assert.is_nil(out:find("builder", 1, true))
    out = support.cli { "ai", "--game", "diloti" }
    assert.matches("builder", out, 1, true)
    assert.is_nil(out:find("Pilotta:", 1, true))
    assert.is_nil(out:find("follower", 1, true))
  end)

  it("never breaks a team's name over two lines in the round's breakdown and the sheet", function()
    for _, width in ipairs { 60, 100 } do
      local st = screen.detect(function(k) return ENV[k] end)
      st.width, st.colour = width, false
      local names = { [0] = "You", [1] = "cautious (East)", [2] = "cautious (North)", [3] = "cautious (West)" }
      local r = { [0] = { tricks = 5, trick_points = 88, declarations = 20, belote = 0, raw = 0, game = 0 },
        [1] = { tricks = 3, trick_points = 74, declarations = 0, belote = 0, raw = 292, game = 29 },
        bidders = 0, value = 110, mult = 1, made = false }
      local out = pilotta.round_summary(st, { round = r, score = { [0] = 0, [1] = 29 }, rounds = 1 }, names)
      -- (the grid's header: the lines between the first and the Tricks row)
      local head = assert(out:match("^[^\n]*\n(.-)\nTricks"))
      for line in head:gmatch("[^\n]+") do
        assert.is_nil(line:find("&%s*$"), width .. ": a team's name broken: " .. line)
      end
      if width == 60 then assert.matches("East & West", out, 1, true) end
    end
  end)

  it("has no stray record file at the top of the repository", function()
    assert.is_nil(io.open(here .. "../../1", "r"))
  end)
end)

describe("words and messages (issue 25, item 6)", function()
  local function flat(s) return (s:gsub("%s+", " ")) end

  it("says that you have no declaration when 'announce' finds none (P35)", function()
    local s = hotseat()
    for _, line in ipairs { "announce 7c 8c 9c", "7s", "9s" } do say(s, line) end
    assert.equals(2, s.g:turn()) -- (North holds no run and no four)
    local out = flat(say(s, "announce"))
    assert.matches("Refused: P35: you have no declaration to announce", out, 1, true)
    assert.is_nil(out:find("names the declaration's cards", 1, true))
    assert.equals(2, s.g:turn())
  end)

  it("leaves at 'quit' typed at 'Press Enter to deal round 2', without dealing it", function()
    local s, output = session({ game = "pilotta", seed = 5, seats = { [0] = "random" } }, { "quit" }, nil, true)
    assert.matches("Press Enter to deal round 2", output(), 1, true)
    assert.is_true(s.done)
    assert.equals("round-over", s.g:phase())
    assert.equals(1, s.g:view(0).round)
    -- (Enter deals it, as before)
    local t = session({ game = "pilotta", seed = 5, seats = { [0] = "random" } }, { "", "q" }, nil, true)
    assert.is_true(t.done)
    assert.equals("round-over", t.g:phase())
    assert.equals(2, t.g:view(0).round)
  end)

  it("names cards with the board's suit symbols and the person as 'you' in refusals and 'why'", function()
    local s = hotseat()
    local out = flat(say(s, "Jd"))
    assert.matches("you do not hold J♦", out, 1, true)
    out = flat(say(s, "why Jd"))
    assert.matches("Not allowed: P51: you do not hold J♦", out, 1, true)
    out = flat(say(s, "why 7s"))
    assert.matches("Legal: 7♠", out, 1, true)
    assert.is_nil(out:find("seat 0", 1, true))
    -- in the auction, alone with the computers: 'why 160s'
    local one = session({ game = "pilotta", humans = 1,
      position = "dealer=3; hands=10c Kc 8d Ad 9h Qh 8s Js / ?8 / ?8 / ?8" })
    out = flat(say(one, "why 160s"))
    assert.matches("you bid 160♠", out, 1, true)
    assert.is_nil(out:find("seat 0", 1, true))
    -- a terminal without Unicode keeps the letters
    local plain = session({ game = "pilotta", humans = 4, position = DEAL }, {}, ASCII)
    plain.read = function() return "" end
    assert.matches("you do not hold Jd", flat(say(plain, "Jd")), 1, true)
  end)

  it("takes 'double' for contra and 'redouble' for recontra (P16, P17)", function()
    local s = hotseat(" dealer=3; hands=7c 8c 9c Ah 7s 8s 10s Ks / 10d Jd Qd 7h 9s Js 8h As"
      .. " / Kc Ac 9h 10h Qs Kd Ad 7d / 10c Jc Qc 8d 9d Jh Qh Kh")
    say(s, "80h")
    say(s, "double")
    assert.equals(2, s.g:view(0).contract.mult)
    say(s, "redouble")
    assert.equals(4, s.g:view(0).contract.mult)
  end)

  it("'score' in a round says the declarations announced, the belote and what the bidders still need", function()
    local s = hotseat()
    -- (seat 0 bid 80 hearts; West holds the Kh and Qh of trumps)
    for _, line in ipairs { "announce 7c 8c 9c", "7s", "9s", "Qs", "Jh", "Kh" } do say(s, line) end
    local out = flat(say(s, "score"))
    assert.matches("South: a run of 3 (20)", out, 1, true)
    assert.matches("Belote: West", out, 1, true)
    -- South & North: 0 trick points + 20 of declarations: 60 still needed for 80
    assert.matches("South & North need 60 more points for the contract of 80 (P42)", out, 1, true)
  end)

  local function summary(r, width)
    local st = screen.detect(function(k) return ENV[k] end)
    st.width, st.colour = width or 100, false
    local names = { [0] = "You", [1] = "cautious (East)", [2] = "cautious (North)", [3] = "cautious (West)" }
    return pilotta.round_summary(st, { round = r, score = { [0] = 0, [1] = 0 }, rounds = 1 }, names)
  end

  local function row(out, label)
    return out:match("\n" .. label .. "%s+(%-?%d+)%s+(%-?%d+)")
  end

  it("says why a side's declarations count for the other side after a failed or doubled contract (P44, P45)", function()
    -- (PE22's shape: the bidders announced 20, recontra, failed)
    local out = summary { [0] = { tricks = 3, trick_points = 70, declarations = 20, belote = 0, raw = 0, game = 0 },
      [1] = { tricks = 5, trick_points = 92, declarations = 0, belote = 0, raw = 582, game = 58 },
      bidders = 0, value = 100, mult = 4, made = false }
    assert.matches("cautious (East) & cautious (West) take all (P45)", flat(out), 1, true)
    assert.matches("declarations", flat(out):match("take all %(P45%)(.*)$"))
  end)

  it("shows a swept side's lost declarations as lost, not as counted (P43)", function()
    local out = summary { [0] = { tricks = 8, trick_points = 250, declarations = 0, belote = 0, raw = 360, game = 36 },
      [1] = { tricks = 0, trick_points = 0, declarations = 20, belote = 0, raw = 0, game = 0 },
      bidders = 0, value = 110, mult = 1, made = true }
    local a, b = row(out, "Declarations")
    assert.equals("0", a)
    assert.equals("0", b)
    assert.matches("Lost: cautious (East) & cautious (West)'s declarations (20): a side that takes no trick "
      .. "loses them (P43)", flat(out), 1, true)
  end)
end)
