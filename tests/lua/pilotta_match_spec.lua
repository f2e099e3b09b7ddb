-- Matches of Pilotta AIs (lua/match/tournament.lua): duplicate deals
-- really swap the partnerships, a match runs to its target, contracts and
-- capots are counted, and merge puts shards together but refuses to mix
-- a Pilotta result with a Diloti one.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
require "diloti"
local ai = require "diloti.ai"
local match = require "diloti.match.tournament"
local json = match.json

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

-- Runs `match` or `merge` in this process; returns the exit code and
-- the report.
local function run(argv)
  local argparse = require "argparse"
  local p = argparse("diloti")
  p:option("--rules", "Rules.", "diloti")
  p:option("--rules-dir", "Variant folders."):count("*")
  p:option("--ai-dir", "AI folders."):count("*")
  p:option("--seed", "Seed.")
  p:command_target("command")
  match.setup(p)
  local ok, a = p:pparse(argv)
  assert(ok, a)
  local buf = {}
  a.output = { write = function(self, ...)
    for _, s in ipairs{ ... } do buf[#buf + 1] = s end
    return self
  end }
  a.quiet = true
  local code
  if a.command == "merge" then code = match.merge(a) else code = match.run(a) end
  return code, table.concat(buf)
end

local function load_json(path)
  local d, e = json.decode(support.read(path))
  assert(d, e)
  return d
end

describe("Pilotta matches", function()
  it("play each deal twice with the partnerships swapped", function()
    local made, deals = {}, {}
    local cfg = { names = { "follower", "random" }, nplayers = 4, rules = "pilotta+target=151", game = "pilotta",
      seed = 5, rounds_only = true, ai_dirs = {},
      factory = function(name, opts)
        local p, e = ai.player(name, opts)
        if p then made[#made + 1] = p end
        return p, e
      end,
      play = function(game, players, opts)
        deals[#deals + 1] = { position = game:position(), seats = {} }
        for s = 0, 3 do deals[#deals].seats[s] = players[s].name end
        return ai.play(game, players, opts)
      end }
    local pair = match.play_pair(cfg, 2)
    assert.equals(2, #deals)
    assert.equals(deals[1].position, deals[2].position) -- the same cards at the same seats
    -- first game: follower in seats 0 and 2 (team A), random in 1 and 3; then the other way round
    assert.same({ [0] = "follower", "random", "follower", "random" }, deals[1].seats)
    assert.same({ [0] = "random", "follower", "random", "follower" }, deals[2].seats)
    assert.equals(0, pair.legs[1].a_seat)
    assert.equals(1, pair.legs[2].a_seat)
    for _, leg in ipairs(pair.legs) do
      assert.equals(1, leg.rounds)
      assert.equals(1, leg.a_made + leg.a_failed + leg.b_made + leg.b_failed + leg.thrown)
    end
    assert.equals(8, #made)
  end)

  it("give an AI playing itself exactly half, and run whole matches to the target", function()
    local file = tmp .. "/self.json"
    local code, out = run{ "match", "--game", "pilotta", "random", "random", "--games", "3", "--seed", "4",
      "--json", file }
    assert.equals(0, code, out)
    local doc = load_json(file)
    assert.equals("pilotta", doc.config.game)
    assert.equals(0.5, doc.summary.score.value)
    assert.equals(0, doc.summary.points_per_round.diff.value)
    for _, p in ipairs(doc.pairs) do
      for _, leg in ipairs(p.legs) do
        assert.is_true(leg.a_points >= 351 or leg.b_points >= 351) -- P49
        assert.are_not.equal(leg.a_points, leg.b_points)
        assert.equals(leg.rounds, leg.a_made + leg.a_failed + leg.b_made + leg.b_failed + leg.thrown)
      end
      -- the same deal, the same seeds at the same seats: the mirror game
      assert.equals(p.legs[1].a_points, p.legs[2].b_points)
    end
    assert.matches("game points per round: random", out, 1, true)
    assert.matches("contracts: random made %d+, failed %d+; random made %d+, failed %d+; %d+ thrown in", out)
    assert.matches("capots: %d+ by random, %d+ by random", out)
  end)

  it("write CSV rows with the contracts, and merge shards into the totals of one run", function()
    local base = { "match", "--rules", "pilotta+target=151", "follower", "random", "--games", "4", "--seed", "9" }
    local function with(...)
      local t = { table.unpack(base) }
      for _, v in ipairs{ ... } do t[#t + 1] = v end
      return t
    end
    assert.equals(0, run(with("--json", tmp .. "/all.json", "--csv", tmp .. "/all.csv")))
    local lines = support.lines(support.read(tmp .. "/all.csv"))
    assert.equals(9, #lines)
    assert.matches(",a_made,a_failed,a_capots,b_made,b_failed,b_capots,thrown$", lines[1])
    local files = {}
    for k = 1, 2 do
      files[k] = tmp .. "/shard" .. k .. ".json"
      assert.equals(0, run(with("--shard", k .. "/2", "--json", files[k])))
    end
    local code, out = run{ "merge", files[2], files[1], "--json", tmp .. "/merged.json" }
    assert.equals(0, code, out)
    local all, merged = load_json(tmp .. "/all.json"), load_json(tmp .. "/merged.json")
    for _, k in ipairs{ "score", "points_per_round", "contracts" } do
      assert.same(all.summary[k], merged.summary[k])
    end
    assert.equals("pilotta", merged.config.game)
    assert.matches("contracts: follower made", out, 1, true)
  end)

  it("refuse to merge a Pilotta result with a Diloti one, and AIs of another game", function()
    local p, d = tmp .. "/p.json", tmp .. "/d.json"
    assert.equals(0, run{ "match", "--game", "pilotta", "random", "random", "--games", "1", "--seed", "2",
      "--json", p })
    assert.equals(0, run{ "match", "random", "random", "--games", "1", "--seed", "2", "--json", d,
      "--rounds-only" })
    local out, err, code = support.cli{ "merge", p, d }
    assert.equals(1, code, out)
    assert.matches("file 2 is a Diloti match result and file 1 a Pilotta one: results of two games cannot "
      .. "be merged", err, 1, true)
    -- a file from before Pilotta names no game: its rules say Diloti
    local old = load_json(d)
    old.config.game = nil
    support.write(tmp .. "/old.json", json.encode(old))
    out, err, code = support.cli{ "merge", tmp .. "/old.json", p }
    assert.equals(1, code, out)
    assert.matches("file 2 is a Pilotta match result and file 1 a Diloti one", err, 1, true)
    -- a forged config: a count of deals that would take for ever to check,
    -- one that is no number, a game nobody plays
    for _, forge in ipairs{ { games = 1e15 }, { games = "x" }, { games = 0 }, { game = "chess" } } do
      local f = load_json(p)
      for k, v in pairs(forge) do f.config[k] = v end
      support.write(tmp .. "/forged.json", json.encode(f))
      _, err, code = support.cli{ "merge", tmp .. "/forged.json" }
      assert.equals(1, code, err)
      assert.matches("file 1 is not a diloti match result", err, 1, true)
      assert.is_nil(err:find("traceback", 1, true))
    end
    out, err, code = support.cli{ "match", "--game", "pilotta", "greedy", "random", "--games", "1", "--seed", "1" }
    assert.equals(1, code, out)
    assert.matches("AI 'greedy' plays diloti, not pilotta", err, 1, true)
    out, err, code = support.cli{ "match", "--rules", "pilotta", "random", "random", "--players", "2", "--seed", "1" }
    assert.equals(1, code, out)
    assert.matches("Pilotta is for four players (P1)", err, 1, true)
  end)
end)
