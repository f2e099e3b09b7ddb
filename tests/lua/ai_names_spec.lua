-- AI names per game (lua/ai/player.lua, lua/scripts/catalogue.lua): a
-- name means one AI in Diloti and another in Pilotta; a folder's game
-- subfolders (pilotta/, diloti/) hold each game's scripts; a script
-- playing "any" game serves a game unless a script of that game and name
-- is read after it; levels, `diloti ai`, `diloti match`, the table and
-- its records all resolve a name in the game being played.
local support = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "support.lua")
local diloti = require "diloti"
local ai = require "diloti.ai"
local repl = require "diloti.table.repl"

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

-- A script that tags its notes with where it came from.
local function body(name, game, tag)
  return string.format("return { name = %q, description = %q, game = %q, "
    .. "choose = function(_, moves) return moves[1], %q end }", name, "The " .. tag .. " one", game, tag)
end

local n = 0
local function folder()
  n = n + 1
  local d = tmp .. "/f" .. n
  os.execute("mkdir -p " .. support.q(d .. "/pilotta") .. " " .. support.q(d .. "/diloti"))
  return d
end

-- Plays one decision of a fresh game of `rules` with the AI; its note.
local function note_of(p, rules)
  local g = assert(diloti.new{ rules = rules, seed = 3 })
  local _, info = p:choose(g)
  assert.is_nil(info.warning)
  return info.note
end

describe("AI names per game", function()
  it("keeps a Diloti and a Pilotta script of the same name in one folder, each for its game", function()
    local d = folder()
    support.write(d .. "/twin.lua", body("twin", "diloti", "diloti"))
    support.write(d .. "/pilotta/twin.lua", body("twin", "pilotta", "pilotta"))
    local found = ai.catalogue({ d }, "pilotta")
    assert.equals("The pilotta one", found.twin.description)
    assert.equals("The diloti one", ai.catalogue({ d }, "diloti").twin.description)
    assert.equals("The diloti one", ai.catalogue({ d }, "kontsina").twin.description)
    local p = assert(ai.player("twin", { dirs = { d }, game = "pilotta" }))
    assert.equals("pilotta", note_of(p, "pilotta"))
    p = assert(ai.player("twin", { dirs = { d }, game = "diloti" }))
    assert.equals("diloti", note_of(p, "diloti"))
    -- without a game, a name is Diloti's
    assert.equals("diloti", assert(ai.player("twin", { dirs = { d } })).game)
  end)

  it("keeps same-name scripts of different games from two folders", function()
    local a, b = folder(), folder()
    support.write(a .. "/twin.lua", body("twin", "pilotta", "pilotta"))
    support.write(b .. "/twin.lua", body("twin", "diloti", "diloti"))
    assert.equals("pilotta", note_of(assert(ai.player("twin", { dirs = { a, b }, game = "pilotta" })), "pilotta"))
    assert.equals("diloti", note_of(assert(ai.player("twin", { dirs = { a, b }, game = "diloti" })), "diloti"))
  end)

  it("lets an 'any' script serve both games unless a game's own script of that name follows it", function()
    local d = folder()
    support.write(d .. "/both.lua", body("both", "any", "any"))
    support.write(d .. "/pilotta/both.lua", body("both", "pilotta", "pilotta"))
    assert.equals("pilotta", note_of(assert(ai.player("both", { dirs = { d }, game = "pilotta" })), "pilotta"))
    assert.equals("any", note_of(assert(ai.player("both", { dirs = { d }, game = "diloti" })), "diloti"))
    -- a user's 'any' script replaces the shipped AI of that name in both games
    local e = folder()
    support.write(e .. "/follower.lua", body("follower", "any", "mine"))
    assert.equals("mine", note_of(assert(ai.player("follower", { dirs = { e }, game = "pilotta" })), "pilotta"))
    -- and a game's own script replaces it in that game only
    support.write(e .. "/random.lua", body("random", "diloti", "mine"))
    assert.equals("mine", note_of(assert(ai.player("random", { dirs = { e }, game = "diloti" })), "diloti"))
    assert.equals("any", assert(ai.player("random", { dirs = { e }, game = "pilotta" })).game)
  end)

  it("refuses a script in a game's folder that plays another game, and a game that does not exist", function()
    local d = folder()
    support.write(d .. "/pilotta/wrong.lua", body("wrong", "diloti", "x"))
    support.write(d .. "/pilotta/bare.lua", "return { name = 'bare', description = 'no game field', "
      .. "choose = function(_, m) return m[1] end }")
    support.write(d .. "/chess.lua", body("chess", "chess", "x"))
    local found, _, errors = ai.catalogue({ d }, "pilotta")
    local msgs = {}
    for _, e in ipairs(errors) do msgs[e.file:match("([^/]+)%.lua$")] = e.message end
    assert.matches("it plays diloti, but lies in the folder of pilotta's AIs ('pilotta/')", msgs.wrong, 1, true)
    assert.matches("field 'game' must be 'diloti', 'pilotta' or 'any', not 'chess' (no such game)", msgs.chess,
      1, true)
    -- (a script in pilotta/ that names no game plays Pilotta)
    assert.equals("pilotta", found.bare.game)
    assert.equals("pilotta", assert(ai.player("bare", { dirs = { d }, game = "pilotta" })).game)
    local p, why = ai.player("wrong", { dirs = { d }, game = "pilotta" })
    assert.is_nil(p)
    assert.matches("AI 'wrong' was refused when loading: .*pilotta/wrong%.lua: it plays diloti", why)
  end)

  it("resolves the levels in the game played", function()
    assert.equals("greedy", ai.real_name("easy"))
    assert.equals("cautious", ai.real_name("normal", "pilotta"))
    assert.equals("pilotta", assert(ai.player("normal", { game = "pilotta" })).game)
    assert.equals("diloti", assert(ai.player("easy", { game = "diloti" })).game)
    local p, why = ai.player("greedy", { game = "pilotta" })
    assert.is_nil(p)
    assert.equals("AI 'greedy' plays diloti, not pilotta (see 'diloti ai')", why)
    p, why = ai.player("nosuch", { game = "pilotta" })
    assert.is_nil(p)
    assert.matches("unknown AI 'nosuch'; valid names in pilotta: ", why, 1, true)
  end)

  it("`diloti ai NAME` shows each game's AI of that name, or one game's with --game", function()
    local d = folder()
    support.write(d .. "/twin.lua", body("twin", "diloti", "diloti"))
    support.write(d .. "/pilotta/twin.lua", body("twin", "pilotta", "pilotta"))
    local out, _, code = support.cli({ "--ai-dir", d, "ai", "twin" })
    assert.equals(0, code)
    assert.matches("The diloti one.*The pilotta one", out)
    out, _, code = support.cli({ "--ai-dir", d, "ai", "twin", "--game", "pilotta" })
    assert.equals(0, code)
    assert.is_nil(out:find("The diloti one", 1, true))
    assert.matches("The pilotta one", out, 1, true)
    local err
    _, err, code = support.cli({ "ai", "greedy", "--game", "pilotta" })
    assert.equals(1, code)
    assert.matches("AI 'greedy' plays diloti, not pilotta", err, 1, true)
  end)

  it("`diloti match` plays each game's AI of the name", function()
    local d = folder()
    support.write(d .. "/twin.lua", body("twin", "diloti", "diloti"))
    support.write(d .. "/pilotta/twin.lua", body("twin", "pilotta", "pilotta"))
    local _, err, code = support.cli({ "--ai-dir", d, "match", "--game", "pilotta", "twin", "random", "--games",
      "1", "--rounds-only", "--seed", "4" })
    assert.equals(0, code, err)
    _, err, code = support.cli({ "--ai-dir", d, "match", "twin", "random", "--games", "1", "--rounds-only",
      "--seed", "4" })
    assert.equals(0, code, err)
  end)

  it("seats a table's AIs and a loaded record's by the game's names", function()
    local d = folder()
    support.write(d .. "/pilotta/twin.lua", body("twin", "pilotta", "pilotta"))
    support.write(d .. "/twin.lua", body("twin", "diloti", "diloti"))
    local function session(game)
      local o = { write = function() end, read = function() return nil end, clock = function() return 1000 end,
        getenv = function(k) return ({ NO_COLOR = "1", TERM = "xterm", LANG = "C.UTF-8" })[k] end,
        ai_dirs = { d }, game = game }
      return assert(repl.new(o))
    end
    local s = session({ game = "pilotta", seed = 8, ai = "twin", partner = "twin" })
    for seat = 1, 3 do assert.equals("pilotta", s.players[seat].game) end
    s:advance()
    local path = tmp .. "/twin.dlt"
    s:handle("save " .. path)
    local t = session({ seed = 2, ai = "twin" })
    assert.equals("diloti", t.players[1].game)
    t:handle("load " .. path)
    assert.equals("pilotta", t.gm.name)
    for seat = 1, 3 do assert.equals("pilotta", t.players[seat].game) end
  end)
end)
