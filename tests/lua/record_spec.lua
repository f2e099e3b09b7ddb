-- Game records (diloti.record, docs/record.md): what `save`, `load` and
-- `replay` at the table rest on. Games are played to their end by a
-- seeded random policy, saved, and loaded back; broken records of every
-- kind must come back as nil and "NAME:LINE: ..." and never as an error.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local record = require "diloti.match.record"

-- Plays random steps (next_round included) until the match ends or
-- `limit` steps are played. Returns the positions before the first step
-- and after each one, for checking replays step by step.
local function play(g, seed, limit)
  local rng = seed
  local function pick(n)
    rng = (rng * 1103515245 + 12345) % 2147483648
    return rng % n + 1
  end
  local positions = { [0] = g:position() }
  for i = 1, limit or math.huge do
    local phase = g:phase()
    if phase == "match-over" then break end
    if phase == "round-over" then
      assert(g:next_round())
    else
      local moves = g:moves()
      assert(g:play(moves[pick(#moves)]))
    end
    positions[i] = g:position()
  end
  return positions
end

local function new_game(meta)
  return assert(diloti.new{
    rules = meta.rules, players = meta.players, teams = meta.teams, seed = meta.seed,
    dealer = meta.dealer, target = meta.target, position = meta.position,
  })
end

-- encode -> decode -> load, checked at the end of the game; `first`
-- moves are played before the random ones.
local function round_trip(meta, seed, limit, first)
  local g = new_game(meta)
  for _, m in ipairs(first or {}) do assert(g:play(m)) end
  play(g, seed, limit)
  local text = assert(record.encode(g, meta))
  local rec = assert(record.decode(text, "t"))
  local g2, rec2 = record.load(rec)
  assert(g2, rec2)
  assert.equals(g:position(), g2:position())
  assert.equals(#g:history(), #rec.moves)
  return g, rec, text
end

local function has_kind(g, kind)
  for _, h in ipairs(g:history()) do
    if h.kind == kind then return true end
  end
  return false
end

-- A message of the form "NAME:LINE: ...", with the line returned.
local function at_line(msg, name)
  assert.is_string(msg)
  local line = msg:match("^" .. support.lit(name or "record") .. ":(%d+): ")
  assert(line, "no NAME:LINE: in " .. msg)
  return tonumber(line)
end

-- A short real save: one whole round, the next-round step and a few moves
-- of the second round.
local SHORT = { rules = "diloti", seed = 11, seats = { [0] = "human", [1] = "ai greedy" }, date = "2026-11-22" }
local function short_save()
  local g = new_game(SHORT)
  local positions = play(g, 5, 60)
  assert(has_kind(g, "next-round"), "the short save should cross a round")
  return g, assert(record.encode(g, SHORT)), positions
end

describe("diloti.match.record", function()
  describe("encode, decode and load", function()
    it("replay a whole 2-player match of random moves to the same position", function()
      local g = round_trip({ rules = "diloti+soy", seed = 42 }, 1)
      assert.equals("match-over", g:phase())
      assert.is_true(has_kind(g, "next-round"))
    end)

    it("replay a whole 4-player match in partnerships (D7)", function()
      local g = round_trip({ rules = "diloti", players = 4, seed = 7, dealer = 2 }, 3)
      assert.equals("match-over", g:phase())
      assert.equals(4, g:rules().players)
    end)

    it("replay whole Kontsina matches, 2 and 3 players (K1-K8)", function()
      round_trip({ rules = "kontsina", seed = 3 }, 9)
      local g = round_trip({ rules = "kontsina+players=3", seed = 4, target = 11 }, 2)
      assert.equals(3, g:rules().players)
    end)

    it("replay the claim and keep decisions of V-face-card-claim", function()
      -- Seeds 36 and 360 deal a claim in the first deal.
      local g = round_trip({ rules = "diloti+face-card-claim", seed = 36 }, 1, nil, { "claim" })
      assert.is_true(has_kind(g, "claim"))
      g = round_trip({ rules = "diloti+face-card-claim", seed = 360 }, 2, nil, { "keep" })
      assert.is_true(has_kind(g, "keep"))
      assert.equals("match-over", g:phase())
    end)

    it("replay a game that starts from a position string, with its seed", function()
      local meta = { position = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c", seed = 5 }
      local g, rec, text = round_trip(meta, 8)
      assert.equals(meta.position, rec.position)
      assert.matches("\nposition: hands=8h 2d / 9c;", text, 1, true)
      assert.equals("match-over", g:phase())
    end)

    it("return a new game and leave the caller's game alone", function()
      local g, text = short_save()
      local before = g:position()
      local g2 = assert(record.load(text))
      assert.are_not.equal(g, g2)
      assert(g2:undo())
      assert.equals(before, g:position())
    end)

    it("decode every header field, seat descriptions and the moves with their lines", function()
      local g = new_game{ rules = "diloti+soy", seed = 42, target = 121 }
      play(g, 1, 20)
      local text = assert(record.encode(g, {
        rules = "diloti+soy", seed = 42, target = 121, teams = false, dealer = 1, date = "2026-11-22",
        seats = { [0] = "human", [1] = "ai master seed=3" }, extra = { table = "kitchen" },
      }))
      local rec = assert(record.decode(text, "t"))
      assert.equals("1.0", rec.version)
      assert.equals("diloti+soy", rec.rules)
      assert.same({ 42, 121, false, 1, "2026-11-22" }, { rec.seed, rec.target, rec.teams, rec.dealer, rec.date })
      assert.same({ [0] = "human", [1] = "ai master seed=3" }, rec.seats)
      assert.same({ table = "kitchen" }, rec.extra)
      assert.equals(20, #rec.moves)
      local lines = support.lines(text)
      for i, m in ipairs(rec.moves) do
        assert.equals(g:history()[i].move, m.text)
        assert.matches(": " .. support.lit(m.text) .. "$", lines[m.line])
      end
    end)

    it("write next-round as a numbered step and mark each round", function()
      local g, text = short_save()
      local n
      for i, h in ipairs(g:history()) do
        if h.kind == "next-round" then n = i end
      end
      assert.matches("\n" .. n .. ": next%-round\n# round 2\n", text)
      assert.matches("\n# round 1\n1 s%d: ", text)
    end)

    it("keep unknown header lines and accept a newer minor version", function()
      local _, text = short_save()
      text = text:gsub("^diloti%-record 1\n", "diloti-record 1.7\nclock: 5+3\nmood: calm\n")
      local g, rec = record.load(text)
      assert(g, rec)
      assert.equals("1.7", rec.version)
      assert.same({ clock = "5+3", mood = "calm" }, rec.extra)
    end)

    it("accept CRLF line endings, comments and blank lines", function()
      local g, text = short_save()
      text = text:gsub("\n", "\r\n"):gsub("\r\nmoves\r\n", "\r\n\r\n# a comment\r\nmoves\r\n")
      local g2 = assert(record.load(text))
      assert.equals(g:position(), g2:position())
    end)

    it("find a user variant through opts.rules_dirs, and name it when it is missing", function()
      local d = support.tmpdir()
      support.write(d .. "/no-ace-lay.lua", [[
return {
  name = "no-ace-lay",
  description = "An ace may not be laid",
  hooks = {
    moves = function(moves)
      local kept = {}
      for _, m in ipairs(moves) do
        if not (m.kind == "lay" and m.card:sub(1, 1) == "A") then kept[#kept + 1] = m end
      end
      return kept
    end,
  },
}]])
      local meta = { rules = "diloti+no-ace-lay", seed = 9, rules_dirs = { d } }
      local g = assert(diloti.new(meta))
      play(g, 4, 30)
      local path = d .. "/g.dil"
      assert(record.save(path, g, meta))
      local g2 = assert(record.load(path, { rules_dirs = { d } }))
      assert.equals(g:position(), g2:position())
      local none, why = record.load(path)
      assert.is_nil(none)
      assert.matches(":2: the game cannot be made with rules 'diloti%+no%-ace%-lay': .*unknown variant", why)
      support.rmdir(d)
    end)

    it("accept moves typed by hand without a seat mark, in any notation form", function()
      local text = "diloti-record 1\nposition: hands=8h 2d / 9c; table=8c 6d 5s 3h 2c\nmoves\n"
        .. "1: 8H X 8♣, 5s+3h, 6d+2c\n2: 9c lay\nend 2\n"
      local g = assert(record.load(text))
      assert.equals("8h x 2c 3h 5s 6d 8c", g:history()[1].move)
    end)
  end)

  describe("encode", function()
    it("refuses meta it cannot write, with a message", function()
      local g = new_game{ seed = 1 }
      local cases = {
        { rules = {} }, { seed = 1.5 }, { players = 5 }, { teams = "yes" },
        { seats = { [0] = "two\nlines" } }, { seats = { [7] = "x" } },
        { extra = { ["bad key"] = "x" } }, { extra = { seed = "1" } }, { extra = { k = "a\0b" } },
      }
      for _, meta in ipairs(cases) do
        local text, why = record.encode(g, meta)
        assert.is_nil(text)
        assert.matches("meta", why)
      end
    end)

    it("returns nil and a message for something that is not a game", function()
      for _, v in ipairs{ 1, "g", {}, { history = 1 } } do
        local text, why = record.encode(v, {})
        assert.is_nil(text)
        assert.equals("not a game", why)
      end
    end)
  end)

  describe("a record cut short", function()
    it("is refused with a clear message at every byte offset, without an error", function()
      local g, text = short_save()
      for cut = 0, #text - 2 do
        local ok, g2, why = pcall(record.load, text:sub(1, cut), { text = true })
        assert.is_true(ok, g2)
        assert.is_nil(g2, "loaded a record cut at byte " .. cut)
        at_line(why)
      end
      -- Only the last newline missing: the whole game is there.
      local g2 = assert(record.load(text:sub(1, #text - 1)))
      assert.equals(g:position(), g2:position())
    end)

    it("loads a prefix of the game with partial=true once the header is whole", function()
      local g, text, positions = short_save()
      local header = text:find("\nmoves\n", 1, true) + #"\nmoves\n" - 1
      local history = g:history()
      for cut = 0, #text do
        local ok, g2, why = pcall(record.load, text:sub(1, cut), { text = true, partial = true })
        assert.is_true(ok, g2)
        if cut < header then
          assert.is_nil(g2)
          at_line(why)
        else
          assert(g2, why)
          local h2 = g2:history()
          for i, h in ipairs(h2) do assert.equals(history[i].move, h.move) end
          assert.equals(positions[#h2], g2:position())
        end
      end
    end)

    it("is refused when the file on disk is cut short", function()
      local d = support.tmpdir()
      local _, text = short_save()
      local path = support.write(d .. "/cut.dil", text:sub(1, #text // 2))
      local g, why = record.load(path)
      assert.is_nil(g)
      assert.matches("cut short", why)
      assert.matches("^" .. support.lit(path) .. ":%d+: ", why)
      support.rmdir(d)
    end)
  end)

  -- Found by fuzz_record (tests/fuzz/regress/record): a tab is allowed
  -- as a space in a record edited by hand, and one inside a header value
  -- was kept, so that the game loaded but could not be saved again.
  it("takes a tab inside a header value as a space, and saves the game again", function()
    local text = "diloti-record 1\nrules: diloti\nposition: hands=7h 2d Kc \t\t/ 9c 7d; table=8c 6d 5s 3h 2c Kd\n"
      .. "date: 2024\t01\nseat 1: ai\tgreedy\nhouse:\tmine\tours\nmoves\nend 0\n"
    local g, rec = record.load(text, { text = true, name = "tabs" })
    assert.is_truthy(g, rec)
    assert.equals("2024 01", rec.date)
    assert.equals("mine ours", rec.extra.house)
    assert.is_nil(rec.position:find("\t"))
    local again = assert(record.encode(g, { rules = rec.rules, position = rec.position, date = rec.date,
      seats = rec.seats, extra = rec.extra }))
    assert.is_true(record.verify(g, again))
  end)

  describe("broken records", function()
    local function refused(text, pattern, name)
      local ok, g, why = pcall(record.load, text, { text = true, name = name })
      assert.is_true(ok, g)
      assert.is_nil(g, text)
      at_line(why, name)
      if pattern then assert.matches(pattern, why) end
      return why
    end

    it("give a message for garbage bytes, never an error", function()
      refused("\0\1\2\255 garbage", "control character")
      refused("diloti-record 1\nrules: \255\254\n", "not UTF%-8")
      refused("\137PNG\r\n\26\n\0\0\0\rIHDR", "not UTF%-8")
      local rng = 1
      for _ = 1, 300 do
        local bytes = {}
        for i = 1, 1 + rng % 200 do
          rng = (rng * 1103515245 + 12345) % 2147483648
          bytes[i] = string.char(rng // 65536 % 256)
        end
        refused(table.concat(bytes))
      end
    end)

    it("give a message for an empty file and for text that is not a record", function()
      refused("", "empty file")
      refused("\n", "empty file")
      refused("hello\nworld\n", "not a diloti record")
    end)

    it("refuse a different major version", function()
      local _, text = short_save()
      local why = refused((text:gsub("^diloti%-record 1", "diloti-record 2")), "version 2 is not supported")
      assert.equals(1, at_line(why))
      refused((text:gsub("^diloti%-record 1", "diloti-record 0.9")), "version 0 is not supported")
    end)

    it("name the line of a bad number, a repeated key or a bad header line", function()
      local _, text = short_save()
      assert.equals(3, at_line(refused((text:gsub("seed: 11", "seed: 1x1")), "seed: '1x1' is not a whole number")))
      refused((text:gsub("seed: 11", "seed: 99999999999999999999")), "not a whole number")
      refused((text:gsub("seed: 11\n", "seed: 11\nplayers: 9\n")), "players: 9 is out of range")
      refused((text:gsub("seed: 11\n", "seed: 11\nseed: 12\n")), "seed given twice")
      refused((text:gsub("seed: 11\n", "seed: 11\njust words\n")), "expected 'key: value'")
      refused((text:gsub("seed: 11\n", "seed: 11\nteams: maybe\n")), "yes or no")
    end)

    it("name a move line out of sequence, a bad seat mark and a wrong end count", function()
      local g, text = short_save()
      local seat = g:history()[3].seat
      refused((text:gsub("\n3 s", "\n4 s")), "move 4 out of sequence %(expected 3%)")
      refused((text:gsub("\n3 s", "\n3 x")), "seat should be written s0")
      refused((text:gsub("\n3 s%d", "\n3 s" .. 1 - seat)),
        string.format("move 3 is marked s%d, but it is seat %d's turn", 1 - seat, seat))
      refused((text:gsub("\nend (%d+)", "\nend 3")), "the end line counts 3 moves")
      refused(text .. "7h lay\n", "text after the end line")
      refused((text:gsub("\nfinal:", "\n2 s1: 7h lay\nfinal:")), "out of sequence")
    end)

    it("report an illegal move with its line and the rule id", function()
      local text = table.concat({
        "diloti-record 1",
        "rules: diloti",
        "position: hands=Jc 5d / 10h 4s; table=10s Jd; deal=4; ply=46; pack=-",
        "moves",
        "1 s0: Jc lay",
        "end 1",
      }, "\n") .. "\n"
      local why = refused(text, "move 'Jc lay' refused: D10: ", "game.dil")
      assert.equals(5, at_line(why, "game.dil"))
    end)

    it("report a move whose card is not held (D9) at its line in a real save", function()
      local _, text = short_save()
      local st = assert(record.replay(text))
      st:seek(4)
      local theirs = st:game():view(1 - st:game():turn()).hand[1]
      local line, n = 0, nil
      text = text:gsub("[^\n]*\n", function(l)
        line = line + 1
        if l:match("^5 s") then
          n = line
          return "5: " .. theirs .. " lay\n"
        end
      end)
      local why = refused(text, "move '" .. support.lit(theirs) .. " lay' refused: D9: ")
      assert.equals(n, at_line(why))
    end)

    it("say that the game cannot be made with an unknown variant", function()
      local _, text = short_save()
      local bad = text:gsub("rules: diloti", "rules: diloti+no-such-rule")
      local why = refused(bad, "unknown variant 'no%-such%-rule'")
      assert.equals(2, at_line(why))
      refused((text:gsub("rules: diloti\n", "rules: diloti\nplayers: 3\n")), "cannot be made")
    end)

    it("catch moves that no longer lead to the saved final position", function()
      local _, text = short_save()
      refused((text:gsub("\nfinal: dealer=%d", "\nfinal: dealer=9")), "do not lead to the saved final position")
    end)

    it("name a seat the game does not have", function()
      local _, text = short_save()
      refused((text:gsub("seat 1: ", "seat 3: ")), "seat 3, but the game has 2 players")
    end)

    it("name a missing file", function()
      local g, why = record.load("/nonexistent/diloti/game.dil")
      assert.is_nil(g)
      assert.matches("^/nonexistent/diloti/game%.dil: No such file", why)
    end)
  end)

  describe("save", function()
    it("writes a file that loads back to the same game", function()
      local d = support.tmpdir()
      local g = short_save()
      assert.is_true(record.save(d .. "/g.dil", g, SHORT))
      local g2, rec = record.load(d .. "/g.dil")
      assert(g2, rec)
      assert.equals(g:position(), g2:position())
      assert.equals("ai greedy", rec.seats[1])
      assert.is_nil(io.open(d .. "/g.dil.tmp"))
      support.rmdir(d)
    end)

    it("names the file when its folder is missing", function()
      local g = short_save()
      local ok, why = record.save("/nonexistent/diloti/g.dil", g, SHORT)
      assert.is_nil(ok)
      assert.equals("cannot save /nonexistent/diloti/g.dil: No such file or directory", why)
    end)

    it("refuses meta that would not replay to the game and keeps the older file", function()
      local d = support.tmpdir()
      local g = short_save()
      local path = d .. "/g.dil"
      assert.is_true(record.save(path, g, SHORT))
      local old = support.read(path)
      local ok, why = record.save(path, g, { rules = "diloti", seed = 12 })
      assert.is_nil(ok)
      assert.matches("would not replay", why)
      ok, why = record.save(path, g, { rules = {} })
      assert.is_nil(ok)
      assert.matches("meta.rules", why)
      assert.equals(old, support.read(path))
      assert.is_nil(io.open(path .. ".tmp"))
      support.rmdir(d)
    end)
    -- Only inside the test's own folder: a special file made there stands
    -- for a device such as /dev/null (never touch the real one).
    it("never replaces a device, a link or a folder, and distrusts a left-over .tmp", function()
      local d = support.tmpdir()
      local g = short_save()
      os.execute("mkfifo " .. support.q(d .. "/fifo"))
      os.execute("mkdir " .. support.q(d .. "/dir"))
      support.write(d .. "/real.dil", "keep me")
      os.execute("ln -s real.dil " .. support.q(d .. "/link.dil"))
      local ok, why = record.save(d .. "/fifo", g, SHORT)
      assert.is_nil(ok)
      assert.matches("device or special file", why)
      ok, why = record.save(d .. "/dir", g, SHORT)
      assert.is_nil(ok)
      assert.matches("it is a directory", why)
      ok, why = record.save(d .. "/link.dil", g, SHORT)
      assert.is_nil(ok)
      assert.matches("it is a link", why)
      assert.equals("keep me", support.read(d .. "/real.dil"))
      support.write(d .. "/new.dil.tmp", "planted")
      ok, why = record.save(d .. "/new.dil", g, SHORT)
      assert.is_nil(ok)
      assert.matches("is in the way", why)
      assert.is_nil(io.open(d .. "/new.dil"))
      support.rmdir(d)
    end)
  end)

  describe("the replay stepper", function()
    it("starts at step 0 and steps forward and back through the positions", function()
      local _, text, positions = short_save()
      local st = assert(record.replay(text))
      assert.equals(0, st:at())
      assert.equals(60, st:total())
      assert.equals(positions[0], st:game():position())
      for i = 1, st:total() do
        assert.equals(st:move(i), st:step())
        assert.equals(i, st:at())
        assert.equals(positions[i], st:game():position())
      end
      local none, why = st:step()
      assert.is_nil(none)
      assert.matches("end", why)
      for i = st:total() - 1, 0, -1 do
        assert.equals(st:move(i + 1), st:back())
        assert.equals(positions[i], st:game():position())
      end
      assert.is_nil((st:back()))
    end)

    it("goes to any step, across a next-round step in both directions", function()
      local g, text, positions = short_save()
      local st = assert(record.replay(assert(record.decode(text))))
      local nr
      for i, h in ipairs(g:history()) do
        if h.kind == "next-round" then nr = i end
      end
      assert.equals("next-round", st:move(nr))
      for _, n in ipairs{ 60, nr - 1, nr + 3, 0, nr, 17, 60 } do
        assert.equals(n, st["goto"](st, n))
        assert.equals(n, st:at())
        assert.equals(positions[n], st:game():position())
      end
      assert.equals(5, st:seek(5))
      assert.is_nil((st:seek(61)))
      assert.is_nil((st:seek(-1)))
      assert.is_nil((st:seek("x")))
      assert.equals(5, st:at())
      assert.is_nil(st:move(61))
    end)

    it("is refused like load for a broken record", function()
      local st, why = record.replay("diloti-record 1\nmoves\n1 s0: Kz lay\nend 1\n")
      assert.is_nil(st)
      assert.matches("^record:3: move 'Kz lay' refused", why)
    end)
  end)
end)
