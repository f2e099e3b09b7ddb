-- A game package with nothing but its rules part (a descriptor and a
-- definition for the game kit, written into a temporary folder) goes
-- through the generic modules on their defaults: the AI player (a boxed
-- script of any game, its failing decision's fallback move), records
-- (the round line) and matches (the points' word, the players). What a
-- game's package leaves out is never an error (issue 26,
-- docs/architecture.md "Games as packages").
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
require "diloti"
local registry = require "diloti.registry"
local record = require "diloti.match.record"
local driver = require "diloti.driver"
local tournament = require "diloti.match.tournament"
local ai = require "diloti.ai.player"

-- Two players each say a number, one or two, in turn; a round is one
-- number each, worth its value; the first to 5 wins.
local RULES = [[
local kit = require "diloti.gamekit"
return kit.game {
  name = "bare", rules = { players = 2, target = 5 },
  deal = function(_, dealer) return { turn = 1 - dealer, said = { [0] = 0, [1] = 0 }, n = 0 } end,
  moves = function()
    return { { text = "one", kind = "say", value = 1 }, { text = "two", kind = "say", value = 2 } }
  end,
  apply = function(s, m)
    s.said[m.seat], s.n, s.turn = s.said[m.seat] + m.value, s.n + 1, 1 - m.seat
  end,
  over = function(s) return s.n == 2 end,
  score = function(s) return { [0] = { total = s.said[0] }, [1] = { total = s.said[1] } } end,
}
]]

local dir
setup(function()
  dir = support.tmpdir()
  assert(os.execute("mkdir " .. support.q(dir .. "/bare")))
  support.write(dir .. "/bare/init.lua", [[
return { name = "bare", title = "Bare", bases = { "bare" }, parts = { rules = "diloti.games.bare.rules" } }
]])
  support.write(dir .. "/bare/rules.lua", RULES)
  assert(registry.add_dir(dir))
end)
teardown(function() support.rmdir(dir) end)

describe("a game with only its rules part", function()
  it("is made by the front door and played by a boxed script of any game", function()
    local g = assert(require("diloti").new { game = "bare", seed = 1 })
    local players = {}
    for seat = 0, 1 do players[seat] = assert(ai.player("random", { game = "bare", seed = seat })) end
    local r = driver.play(g, players, { match = true })
    assert.is_true(r.over)
    assert.same({}, r.warnings)
  end)

  it("plays the first legal move for a script whose decision failed", function()
    local path = support.write(dir .. "/broken.lua",
      'return { name = "broken", description = "fails", game = "any", choose = function() error("no") end }')
    local g = assert(require("diloti").new { game = "bare", seed = 2 })
    local p = assert(ai.player(path, { game = "bare" }))
    local move, info = p:choose(g, g:turn())
    assert.equals("one", move)
    assert.is_true(info.fallback)
  end)

  it("saves and loads a record, each round's line in default words", function()
    local g = assert(require("diloti").new { game = "bare", seed = 3 })
    for _ = 1, 2 do assert(g:play(1)) end
    local text = assert(record.encode(g, { rules = "bare", seed = 3, date = false }))
    assert.matches("# round 1 over", text, 1, true)
    local path = dir .. "/r.dlt"
    assert(record.save(path, g, { rules = "bare", seed = 3, date = false }))
    local loaded = assert(record.load(path))
    assert.equals(g:position(), loaded:position())
  end)

  it("plays a pair of the tournament runner, and `diloti match` reports points", function()
    local cfg = { names = { "random", "random" }, nplayers = 2, rules = "bare", rounds_only = false, ai_dirs = {},
      game = "bare", seed = 9, play = driver.play, factory = ai.player }
    local pair = tournament.play_pair(cfg, 1)
    assert.equals(2, #pair.legs)
    local out, err, code = support.cli({ "match", "random", "random", "--game", "bare", "--games", "1" },
      { DILOTI_GAMES_PATH = dir })
    assert.equals(0, code, err)
    assert.matches("points per round", out, 1, true)
  end)
end)
