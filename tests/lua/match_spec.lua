-- The tournament runner (diloti.match): its statistics against known
-- values, the JSON and CSV files, duplicate play (the same deals with the
-- seats swapped), shards, merge and --jobs giving the totals of one run,
-- and the SPRT stopping early on a lopsided pairing. Stub AIs (written
-- below) stand in for the AI driver, so the suite does not depend on the
-- strength of any shipped AI.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
require "diloti"
local match = require "diloti.match.tournament"
local stats, json = match.stats, match.json

-- Stub AIs and a play loop with the driver's interface: player(name,
-- opts) -> player | nil, err; player:choose(game, seat) -> move, info;
-- play(game, players, opts) plays to the end of the round.
local STUBS = [[
local S = {}
local P = {}
P.__index = P
S.created = {}
local VALUE = { A = 1, ["10d"] = 2, ["2c"] = 1 }
local function worth(card)
  return 1 + 3 * (VALUE[card] or VALUE[card:sub(1, 1)] or 0)
end
function S.player(name, opts)
  if name ~= "first" and name ~= "greedy" and name ~= "random" and name ~= "recorder" then
    return nil, "no AI named '" .. tostring(name) .. "'"
  end
  local p = setmetatable({ name = name, rng = (opts.seed or 1) % 2147483647 + 1, id = #S.created + 1 }, P)
  S.created[#S.created + 1] = p
  return p
end
function P:choose(game, seat)
  if self.name == "recorder" then
    local v = game:view(seat)
    if not self.hand and v.round == 1 then
      self.seat, self.hand = seat, table.concat(v.hand, " ")
      if v.ply == 0 then self.position = game:position(true) end
    end
  end
  if self.name == "greedy" then
    local best, bw = nil, -1
    for _, m in ipairs(game:moves(true)) do
      local w = 0
      for _, c in ipairs(m.takes or {}) do w = w + worth(c) end
      if w > bw then best, bw = m.text, w end
    end
    return best, {}
  elseif self.name == "random" then
    local moves = game:moves()
    self.rng = self.rng * 48271 % 2147483647
    return moves[self.rng % #moves + 1], {}
  end
  return game:moves()[1], {}
end
function S.play(game, players, opts)
  while game:phase() == "play" or game:phase() == "claim" do
    local seat = game:turn()
    local t0 = os.clock()
    local move, info = players[seat]:choose(game, seat)
    info.seconds = os.clock() - t0
    assert(game:play(move))
    if opts and opts.on_move then opts.on_move(seat, move, info) end
  end
  return game:result()
end
return S
]]

local tmp = support.tmpdir()
local stubs_file = support.write(tmp .. "/stubs.lua", STUBS)
local stubs = dofile(stubs_file)

-- A host for the match and merge commands inside the diloti program, with
-- the stub AIs: `diloti run driver.lua -- match ...` (what --jobs starts).
local driver = support.write(tmp .. "/driver.lua", string.format([[
local stubs = dofile(%q)
local match = require "diloti.match.tournament"
local argparse = require "argparse"
local p = argparse("diloti")
p:option("--rules", "Rules.", "diloti")
p:option("--rules-dir", "Variant folders."):count("*")
p:option("--ai-dir", "AI folders."):count("*")
p:option("--seed", "Seed.")
p:command_target("command")
match.setup(p)
local a = p:parse({ ... })
a.factory, a.play_fn = stubs.player, stubs.play
a.worker_prefix = { %q, "run", %q, "--" }
if a.command == "merge" then return match.merge(a) end
return match.run(a)
]], stubs_file, support.bin, tmp .. "/driver.lua"))

local function host(args)
  local full = { "run", driver, "--" }
  for _, v in ipairs(args) do full[#full + 1] = v end
  return support.cli(full)
end

-- Runs `match` in this process with the stubs; returns the exit code and
-- the report.
local function run(argv, extra)
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
  a.factory, a.play_fn = stubs.player, stubs.play
  local buf = {}
  a.output = { write = function(self, ...)
    for _, s in ipairs{ ... } do buf[#buf + 1] = s end
    return self
  end }
  for k, v in pairs(extra or {}) do a[k] = v end
  local code
  if a.command == "merge" then code = match.merge(a) else code = match.run(a) end
  return code, table.concat(buf)
end

local function load_json(path)
  local d, e = json.decode(support.read(path))
  assert(d, e)
  return d
end

-- The results of the games of a document, without the timings.
local function results(doc)
  local t = {}
  for _, p in ipairs(doc.pairs) do
    for _, leg in ipairs(p.legs) do
      t[#t + 1] = table.concat({ p.deal, p.seed, leg.leg, leg.rounds, leg.a_points, leg.b_points, leg.result,
        leg.a.moves, leg.b.moves }, ",")
    end
  end
  return t
end

local function near(expected, actual, tol)
  assert(math.abs(expected - actual) <= (tol or 1e-9),
    string.format("expected %.12g, got %.12g", expected, actual))
end

teardown(function() support.rmdir(tmp) end)

describe("match statistics", function()
  it("has Student's t quantiles (95%, two-sided)", function()
    near(12.706204736, stats.t95(1), 1e-8)
    near(2.776445105, stats.t95(4), 1e-8)
    near(2.228138852, stats.t95(10), 1e-8)
    near(2.200985160, stats.t95(11), 1e-5)
    near(2.042272456, stats.t95(30), 1e-6)
    near(1.983971519, stats.t95(100), 1e-7)
  end)

  it("gives the Wilson interval", function()
    local lo, hi = stats.wilson(8, 10)
    near(0.4901624715, lo, 1e-9)
    near(0.9433178485, hi, 1e-9)
    lo, hi = stats.wilson(0, 10)
    near(0, lo)
    near(0.2775327998, hi, 1e-9)
    lo, hi = stats.wilson(50, 100)
    near(0.4038315, lo, 1e-6)
    near(0.5961685, hi, 1e-6)
  end)

  it("turns score fractions into Elo differences and back", function()
    near(0, stats.elo(0.5))
    near(190.8485019, stats.elo(0.75), 1e-6)
    near(-190.8485019, stats.elo(0.25), 1e-6)
    near(0.6400649998, stats.score(100), 1e-9)
    near(0.3, stats.score(stats.elo(0.3)), 1e-12)
    assert.equals(math.huge, stats.elo(1))
    assert.equals(-math.huge, stats.elo(0))
  end)

  it("gives a mean with its t interval", function()
    local m, lo, hi, sd = stats.mean_ci{ 1, 2, 3, 4, 5 }
    near(3, m)
    near(math.sqrt(2.5), sd)
    near(3 - 2.776445105 * math.sqrt(2.5) / math.sqrt(5), lo, 1e-8)
    near(3 + 2.776445105 * math.sqrt(2.5) / math.sqrt(5), hi, 1e-8)
    m, lo, hi = stats.mean_ci{ 7 }
    assert.equals(7, m)
    assert.equals(7, lo)
    assert.equals(7, hi)
  end)

  it("has the SPRT bounds and log-likelihood ratio", function()
    local lo, hi = stats.sprt_bounds(0.05)
    near(-2.944438979, lo, 1e-8)
    near(2.944438979, hi, 1e-8)
    -- n (s1 - s0) (2 mean - s0 - s1) / (2 var)
    near(100 * 0.1 * (1.2 - 1.1) / (2 * 0.25), stats.sprt_llr(100, 0.6, 0.25, 0.5, 0.6))
    near(0, stats.sprt_llr(100, 0.55, 0.25, 0.5, 0.6), 1e-12)
  end)

  it("accumulates pairs into scores, Elo and points per round", function()
    local acc = match.accumulator()
    local function leg(result, rounds, a, b)
      local z = { moves = 1, time = 0.001, tmax = 0.001, fallbacks = 0, warnings = 0 }
      return { result = result, rounds = rounds, a_points = a, b_points = b, a_rounds = 0, b_rounds = 0, a = z, b = z }
    end
    acc:add{ deal = 1, legs = { leg(1, 2, 30, 10), leg(0, 2, 10, 30) } }
    acc:add{ deal = 2, legs = { leg(1, 1, 20, 0), leg(1, 3, 20, 10) } }
    acc:add{ deal = 3, legs = { leg(0.5, 2, 11, 11), leg(1, 2, 15, 5) } }
    local s = acc:summary()
    assert.same({ 6, 4, 1, 1 }, { s.games, s.wins, s.draws, s.losses })
    near(4.5 / 6, s.score.value)
    -- pair scores 0.5, 1, 0.75: mean 0.75, sd 0.25
    local h = stats.t95(2) * 0.25 / math.sqrt(3)
    near(0.75 - h, s.score.lo)
    near(1, s.score.hi) -- clamped
    near(stats.elo(0.75), s.elo.value)
    near(stats.elo(0.75 - h), s.elo.lo)
    -- points per round: (0 + 30 + 10) / 12
    near(40 / 12, s.points_per_round.diff.value)
    near(106 / 12, s.points_per_round.a)
    near(66 / 12, s.points_per_round.b)
    -- its interval: the residuals x - m r of the pairs, over the mean rounds
    local _, dlo, dhi = stats.mean_ci{ 0 - 4 * 40 / 12, 30 - 4 * 40 / 12, 10 - 4 * 40 / 12 }
    near(40 / 12 + dlo / 4, s.points_per_round.diff.lo, 1e-9)
    near(40 / 12 + dhi / 4, s.points_per_round.diff.hi, 1e-9)
    local w1, w2 = stats.wilson(4, 6)
    near(w1, s.win_rate.lo)
    near(w2, s.win_rate.hi)
  end)
end)

describe("match JSON", function()
  it("round-trips the values of a result file", function()
    local v = {
      name = "tab\t \"quoted\" back\\slash\n ünïcode \1", int = 9223372036854775807, neg = -42,
      float = 0.1, third = 1 / 3, whole = 2.0, yes = true, no = false, list = { 1, 2.5, "x", { a = {} } },
      nested = { deeper = { 1, { 2, { 3 } } } }, empty = {},
    }
    local text = json.encode(v)
    assert.is_nil(text:find("\n"))
    local back = json.decode(text)
    assert.same(v, back)
    assert.equals("integer", math.type(back.int))
    assert.equals("float", math.type(back.whole))
    assert.equals(json.encode(back), text)
  end)

  it("reads ordinary JSON and refuses broken text", function()
    local v = json.decode(' { "a" : [1, -2.5e3, null, "\\u00e9\\ud83d\\ude00\\/"], "b": {} } ')
    assert.equals(1, v.a[1])
    assert.equals(-2500.0, v.a[2])
    assert.is_nil(v.a[3])
    assert.equals("é😀/", v.a[4])
    assert.same({}, v.b)
    for _, bad in ipairs{ "", "{", "[1,]", '{"a" 1}', '"open', "1 2", "nul", '"\\x"' } do
      local r, e = json.decode(bad)
      assert.is_nil(r, bad)
      assert.matches("^json: ", e, 1, false)
    end
    assert.equals("null", json.encode(0 / 0))
    assert.equals("null", json.encode(math.huge))
  end)

  -- Issue 24, finding 5: 300,000 nested '[' overflowed the reader's stack.
  it("refuses text nested deeper than its depth limit with a clear error", function()
    local ok, r, e = pcall(json.decode, ("["):rep(300000))
    assert.is_true(ok, tostring(r))
    assert.is_nil(r)
    assert.equals("json: nested deeper than " .. json.MAX_DEPTH .. " levels at offset "
      .. (json.MAX_DEPTH + 1), e)
    r, e = json.decode(("{\"a\":"):rep(1000) .. "1" .. ("}"):rep(1000))
    assert.is_nil(r)
    assert.matches("^json: nested deeper than", e)
    local deep = ("["):rep(json.MAX_DEPTH) .. ("]"):rep(json.MAX_DEPTH)
    assert.is_table(json.decode(deep))
  end)

  it("nests no deeper than a smaller limit a caller asks (lua/server/protocol.lua's messages)", function()
    assert.is_table(json.decode('{"a":1}', 1))
    local r, e = json.decode('{"a":[1]}', 1)
    assert.is_nil(r)
    assert.equals("json: nested deeper than 1 levels at offset 6", e)
    assert.is_table(json.decode('{"a":[1]}', 2))
    -- (never deeper than its own limit)
    assert.is_nil(json.decode(("["):rep(json.MAX_DEPTH + 1), json.MAX_DEPTH + 50))
  end)

  it("diloti merge of a file of nested '[': one line naming the file and the limit", function()
    local file = support.write(tmp .. "/nested.json", ("["):rep(300000))
    local out, err, code = support.cli({ "merge", file })
    assert.equals(1, code)
    assert.equals("", out)
    assert.equals("diloti: " .. file .. ": json: nested deeper than " .. json.MAX_DEPTH
      .. " levels at offset " .. (json.MAX_DEPTH + 1) .. "\n", err)
  end)
end)

describe("duplicate play", function()
  it("seats A's side in the even seats, then swaps every seat with its neighbour", function()
    local function names(n, players, leg)
      local t = {}
      for i, s in ipairs(match.seating(n, players, leg)) do t[i] = s.name .. ":" .. s.side end
      return table.concat(t, " ")
    end
    assert.equals("A:a B:b", names({ "A", "B" }, 2, 1))
    assert.equals("B:b A:a", names({ "A", "B" }, 2, 2))
    assert.equals("A:a B:b A:a B:b", names({ "A", "B" }, 4, 1))
    assert.equals("B:b A:a B:b A:a", names({ "A", "B" }, 4, 2))
    assert.equals("A:a B:b C:a D:b", names({ "A", "B", "C", "D" }, 4, 1))
    assert.equals("B:b A:a D:b C:a", names({ "A", "B", "C", "D" }, 4, 2))
  end)

  it("derives distinct, reproducible deal seeds from the run's seed", function()
    local seen = {}
    for i = 1, 1000 do
      local s = match.deal_seed(7, i)
      assert.equals(s, match.deal_seed(7, i))
      assert.is_true(s >= 0)
      assert.is_nil(seen[s])
      seen[s] = true
    end
    assert.are_not.equal(match.deal_seed(7, 1), match.deal_seed(8, 1))
  end)

  it("plays the same deal twice with the seats swapped", function()
    for _, players in ipairs{ 2, 4 } do
      stubs.created = {}
      local cfg = { names = { "recorder", "recorder" }, nplayers = players, rules = "diloti", seed = 11,
        rounds_only = true, ai_dirs = {}, factory = stubs.player, play = stubs.play }
      local pair = match.play_pair(cfg, 3)
      assert.equals(3, pair.deal)
      assert.equals(match.deal_seed(11, 3), pair.seed)
      local made = stubs.created
      assert.equals(2 * players, #made)
      local first_position
      for seat = 0, players - 1 do
        local p1, p2 = made[seat + 1], made[players + seat + 1]
        assert.equals(seat, p1.seat)
        assert.equals(seat, p2.seat)
        assert.equals(p1.hand, p2.hand) -- the same cards in the same seat
        first_position = first_position or p1.position or p2.position
        if p1.position or p2.position then assert.equals(p1.position, p2.position) end
      end
      assert.is_string(first_position)
      -- one round, both games: A's side scored what B's side did in the other
      local g1, g2 = pair.legs[1], pair.legs[2]
      assert.equals(0, g1.a_seat)
      assert.equals(1, g2.a_seat)
      assert.equals(g1.a_points, g2.b_points)
      assert.equals(g1.b_points, g2.a_points)
    end
  end)

  it("gives exactly half the points to an AI playing itself", function()
    for _, argv in ipairs{
      { "match", "random", "random", "--games", "6", "--seed", "5" },
      { "match", "random", "random", "--games", "6", "--seed", "5", "--players", "4", "--rounds-only" },
      { "match", "random", "random", "random", "random", "--games", "4", "--seed", "5" },
    } do
      local file = tmp .. "/self.json"
      argv[#argv + 1] = "--json"
      argv[#argv + 1] = file
      local code = run(argv)
      assert.equals(0, code)
      local s = load_json(file).summary
      assert.equals(0.5, s.score.value)
      assert.equals(0, s.points_per_round.diff.value)
      assert.equals(s.wins, s.losses)
    end
  end)
end)

describe("match runs", function()
  it("reports from A's side and writes JSON and CSV", function()
    local jf, cf = tmp .. "/one.json", tmp .. "/one.csv"
    local code, out = run({ "match", "greedy", "first", "--games", "5", "--seed", "3", "--json", jf, "--csv", cf })
    assert.equals(0, code)
    assert.matches("greedy vs first: diloti, 2 players, seed 3", out, 1, true)
    assert.matches("5 deals played twice with seats swapped: 10 matches", out, 1, true)
    assert.matches("score%s+%d%.%d+%s+%[", out)
    assert.matches("Wilson", out, 1, true)
    assert.matches("Elo", out, 1, true)
    assert.matches("points per round: greedy", out, 1, true)
    assert.matches("fallbacks", out, 1, true)
    local doc = load_json(jf)
    assert.equals("diloti-match", doc.format)
    assert.same({ "greedy", "first" }, doc.config.names)
    assert.equals(5, #doc.pairs)
    assert.equals(10, doc.summary.games)
    for _, p in ipairs(doc.pairs) do
      for _, leg in ipairs(p.legs) do
        assert.is_true(leg.a_points >= 61 or leg.b_points >= 61) -- whole matches (D24)
      end
    end
    local lines = support.lines(support.read(cf))
    assert.equals(table.concat(match.csv_columns, ","), lines[1])
    assert.equals(11, #lines)
    assert.matches("^1,%d+,1,0,", lines[2])
    assert.matches("^1,%d+,2,1,", lines[3])
  end)

  it("gives the same totals from shards and merge as from one run", function()
    local base = { "match", "greedy", "random", "--games", "9", "--seed", "21", "--rounds-only" }
    local function with(...)
      local t = { table.unpack(base) }
      for _, v in ipairs{ ... } do t[#t + 1] = v end
      return t
    end
    assert.equals(0, run(with("--json", tmp .. "/all.json")))
    local files = {}
    for k = 1, 3 do
      files[k] = tmp .. "/shard" .. k .. ".json"
      assert.equals(0, run(with("--shard", k .. "/3", "--json", files[k])))
      assert.equals(3, #load_json(files[k]).pairs)
    end
    local code, out = run({ "merge", files[3], files[1], files[2], "--json", tmp .. "/merged.json",
      "--csv", tmp .. "/merged.csv" })
    assert.equals(0, code)
    assert.matches("9 deals played twice", out, 1, true)
    local all, merged = load_json(tmp .. "/all.json"), load_json(tmp .. "/merged.json")
    assert.same(results(all), results(merged))
    for _, k in ipairs{ "score", "win_rate", "elo", "points_per_round" } do
      assert.same(all.summary[k], merged.summary[k])
    end
    assert.equals(19, #support.lines(support.read(tmp .. "/merged.csv")))
    -- a missing shard is reported, and the rest still merged
    local _, err2, code2 = host{ "merge", files[1], files[2] }
    assert.equals(0, code2)
    assert.matches("3 of 9 deals are missing", err2, 1, true)
    -- shards of different runs are refused
    assert.equals(0, run({ "match", "greedy", "random", "--games", "9", "--seed", "22", "--rounds-only",
      "--shard", "3/3", "--json", tmp .. "/other.json" }))
    local _, err3, code3 = host{ "merge", files[1], tmp .. "/other.json" }
    assert.equals(1, code3)
    assert.matches("another seed", err3, 1, true)
  end)

  it("gives the same results with --jobs as in one process", function()
    local common = { "match", "greedy", "random", "--games", "12", "--seed", "8" }
    local function go(...)
      local t = { table.unpack(common) }
      for _, v in ipairs{ ... } do t[#t + 1] = v end
      return host(t)
    end
    local out1, err1, code1 = go("--json", tmp .. "/j1.json")
    assert.equals(0, code1, err1)
    local out3, err3, code3 = go("--jobs", "3", "--json", tmp .. "/j3.json")
    assert.equals(0, code3, err3)
    assert.same(results(load_json(tmp .. "/j1.json")), results(load_json(tmp .. "/j3.json")))
    local function without_times(s) return (s:gsub("[^\n]*decisions[^\n]*\n", "")) end
    assert.equals(without_times(out1), without_times(out3))
    -- in-process too (DILOTI_BIN workers would need the real AIs)
    local code, out = run({ "match", "greedy", "random", "--games", "12", "--seed", "8", "--jobs", "2" },
      { worker_prefix = { support.bin, "run", driver, "--" } })
    assert.equals(0, code)
    assert.equals(without_times(out1), without_times(out))
  end)

  it("stops early with --sprt on a lopsided pairing", function()
    local jf = tmp .. "/sprt.json"
    local code, out = run({ "match", "greedy", "first", "--games", "300", "--seed", "4", "--rounds-only", "--sprt",
      "--json", jf })
    assert.equals(0, code)
    local s = load_json(jf).summary
    assert.equals("H1", s.sprt.result)
    assert.is_true(s.pairs < 300)
    assert.is_true(s.sprt.llr >= s.sprt.upper)
    assert.matches("H1 accepted: greedy is stronger", out, 1, true)
    -- the other way round: H0
    code, out = run({ "match", "first", "greedy", "--games", "300", "--seed", "4", "--rounds-only", "--sprt" })
    assert.equals(0, code)
    assert.matches("H0 accepted: first is not stronger", out, 1, true)
    -- shards play everything; merge stops where one run stopped
    local files = {}
    for k = 1, 2 do
      files[k] = tmp .. "/sprt" .. k .. ".json"
      assert.equals(0, run({ "match", "greedy", "first", "--games", "300", "--seed", "4", "--rounds-only", "--sprt",
        "--shard", k .. "/2", "--json", files[k] }))
    end
    local merged = tmp .. "/sprt-merged.json"
    code, out = run({ "merge", files[1], files[2], "--json", merged })
    assert.equals(0, code)
    assert.matches("the SPRT stopped after deal " .. s.pairs, out, 1, true)
    assert.same(s.score, load_json(merged).summary.score)
  end)

  it("refuses bad arguments with a message", function()
    local cases = {
      { { "match", "random", "first", "random" }, "two AIs" },
      { { "match", "random", "nobody" }, "no AI named 'nobody'" },
      { { "match", "random", "first", "--shard", "1/2" }, "needs --seed" },
      { { "match", "random", "first", "--seed", "1", "--shard", "3/2" }, "k/n" },
      { { "match", "random", "first", "--games", "0" }, "--games" },
      { { "match", "random", "first", "--players", "3", "--rules", "kontsina" }, "2 or 4 players" },
      { { "match", "random", "first", "--rules", "nonsense" }, "nonsense" },
      { { "match", "random", "first", "--sprt", "--elo0", "30" }, "elo0 < elo1" },
    }
    local notjson = support.write(tmp .. "/not.json", "{ nope")
    local other = support.write(tmp .. "/other-format.json", '{"format": "something else"}')
    local broken = support.write(tmp .. "/broken-pair.json", '{"format": "diloti-match", "config": {"games": 2}, '
      .. '"pairs": [{"deal": 1, "legs": [{"rounds": 1}]}]}')
    cases[#cases + 1] = { { "merge", notjson }, "not.json: json: " }
    cases[#cases + 1] = { { "merge", other }, "not a diloti match result" }
    cases[#cases + 1] = { { "merge", broken }, "malformed deal record" }
    cases[#cases + 1] = { { "merge", tmp .. "/absent.json" }, "absent.json" }
    for _, c in ipairs(cases) do
      local out, err, code = host(c[1])
      assert.equals(1, code, table.concat(c[1], " ") .. ": " .. err)
      assert.equals("", out)
      assert.matches(c[2], err, 1, true)
    end
  end)
end)

describe("match with the AI driver", function()
  local ai_ok = pcall(require, "diloti.ai")

  it("plays the shipped AIs, timing their decisions", function()
    if not ai_ok then
      pending("diloti.ai is missing")
      return
    end
    local jf = tmp .. "/ai.json"
    local code, out = run({ "match", "greedy", "random", "--games", "2", "--seed", "1", "--rounds-only", "--time", "2",
      "--json", jf }, { factory = false, play_fn = false })
    assert.equals(0, code)
    assert.matches("greedy vs random", out, 1, true)
    assert.matches("ms mean", out, 1, true)
    local s = load_json(jf).summary
    assert.is_true(s.ai.a.timed > 0 and s.ai.a.timed == s.ai.a.moves)
    assert.equals(0, s.ai.a.fallbacks + s.ai.b.fallbacks)
  end)

  it("counts the decisions an AI loses, with the first message", function()
    if not ai_ok then
      pending("diloti.ai is missing")
      return
    end
    local dir = tmp .. "/ais"
    os.execute("mkdir -p " .. support.q(dir))
    support.write(dir .. "/broken.lua", [[
return { name = "broken", description = "fails every decision",
  choose = function() error("no idea") end }
]])
    local jf = tmp .. "/broken.json"
    local code, out = run({ "match", "broken", "random", "--games", "1", "--seed", "2", "--rounds-only",
      "--ai-dir", dir, "--json", jf }, { factory = false, play_fn = false })
    assert.equals(0, code)
    local s = load_json(jf).summary
    assert.is_true(s.ai.a.fallbacks > 0)
    assert.equals(s.ai.a.moves, s.ai.a.fallbacks)
    assert.equals(0, s.ai.b.fallbacks)
    assert.matches("no idea", out, 1, true)
  end)
end)

describe("the diloti program's match command", function()
  local _, _, wired = support.cli{ "match", "--help" }
  local ai_ok = pcall(require, "diloti.ai")

  it("plays the shipped random AI", function()
    if wired ~= 0 or not ai_ok then
      pending("match is not wired into lua/cli.lua yet, or diloti.ai is missing")
      return
    end
    local out, err, code = support.cli{ "match", "random", "random", "--games", "3", "--seed", "1", "--rounds-only",
      "--jobs", "2" }
    assert.equals(0, code, err)
    assert.matches("random vs random: diloti, 2 players, seed 1", out, 1, true)
    assert.matches("score     0.500", out, 1, true)
    local _, merr, mcode = support.cli{ "merge", "/nonexistent/file.json" }
    assert.equals(1, mcode)
    assert.matches("nonexistent", merr, 1, true)
  end)
end)
