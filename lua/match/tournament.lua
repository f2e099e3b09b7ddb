-- Tournaments between AIs: `diloti match A B [C D]` and `diloti merge`.
--
-- Duplicate play. Deal i (1..N) has its own seed, derived from --seed and
-- i, and is played twice: first with A's side in the even seats (A in
-- seat 0, or A and C in seats 0 and 2), then with every seat s taken by
-- the player of seat s xor 1, so that the other side sits where A's did
-- and gets the same cards. Each AI instance gets a seed that depends on
-- the deal and its seat only, so an AI playing itself scores exactly 1/2.
-- --games N counts deals: 2N games (61-point matches, or single rounds
-- with --rounds-only).
--
-- Everything is reported from A's side (A, or A+C with four AIs): a deal
-- pair is the statistical unit (its two games are far from independent).
--
--   score    (wins + draws/2) / games; 95% interval from the spread of the
--            deal pairs' scores (mean +- t * sd / sqrt(pairs))
--   win rate wins / games, Wilson 95% interval
--   Elo      -400 log10(1/score - 1), its interval from the score's
--   points   per round for each side; the difference A - B as a ratio of
--            per-pair sums (points / rounds), interval by the delta method
--   SPRT     (--sprt) the Gaussian approximation of the generalized SPRT
--            on the pair scores (as in fishtest): H0 elo = --elo0 against
--            H1 elo = --elo1, LLR = n (s1 - s0) (2 mean - s0 - s1) / (2 var),
--            stop when LLR leaves [log(b/(1-a)), log((1-b)/a)] with
--            a = b = --alpha, after at least 10 pairs.
--
-- --jobs N runs N copies of the program, each playing every N-th deal and
-- streaming one line per deal pair back; the pairs are taken in deal
-- order, so totals, intervals and the SPRT stop are those of a single
-- process. --shard k/n plays deals k, k+n, k+2n, ... and writes them with
-- --json; `diloti merge` puts shard files back together in deal order.
local diloti = require "diloti"
local core = require "diloti.core"
local game_of = require("diloti.ai.ctx").game_of
local registry = require "diloti.registry"
local textfile = require "diloti.scripts.textfile"

local M = {}

local MIN_SPRT_PAIRS = 10
local SPRT_VAR_FLOOR = 0.01
local MAX_ROUNDS = 1000 -- a match that has not ended by then is an engine bug

local stats = require "diloti.match.stats"
local json = require "diloti.match.json"
M.stats, M.json = stats, json

-- ---------------------------------------------------------------------
-- Seeds

local mix64 = core.mix64 -- splitmix64's output for a state (src/rng.c)

--- The seed of deal i of a run seeded `seed` (a non-negative integer).
function M.deal_seed(seed, i)
  return mix64(mix64(seed) + i) & 0x7FFFFFFFFFFFFFFF
end

--- The seed of the AI in `seat` for a deal: the same in both games of
-- the pair, whoever sits there.
function M.seat_seed(deal_seed, seat)
  return mix64(deal_seed ~ (0x5DEECE66D * (seat + 1))) & 0x7FFFFFFFFFFFFFFF
end

-- ---------------------------------------------------------------------
-- Playing one deal pair

--- Which name slot sits in `seat` in game `leg` (1 or 2) of a pair: the
-- slot is 0-based in the list A B [C D]; even slots are A's side.
function M.slot(seat, leg)
  return leg == 1 and seat or seat ~ 1
end

--- The players of each seat in game `leg` of a pair: a list (1-based by
-- seat + 1) of {name =, side = "a"|"b"}.
function M.seating(names, nplayers, leg)
  local t = {}
  for seat = 0, nplayers - 1 do
    local slot = M.slot(seat, leg)
    t[seat + 1] = { name = names[slot % #names + 1], side = slot % 2 == 0 and "a" or "b" }
  end
  return t
end

local function new_ai_stats()
  return { moves = 0, timed = 0, time = 0.0, tmax = 0.0, fallbacks = 0, warnings = 0 }
end

--- The default player factory and play function (the AI driver).
local function driver()
  local ok, ai = pcall(require, "diloti.ai")
  if not ok then error("the AI driver (diloti.ai) is not available: " .. tostring(ai), 0) end
  return ai
end

-- A game's record part (lua/games/NAME/record.lua): the word for its
-- points, the players a match seats when the game fixes them, and what a
-- match counts beside the points (`counts`: per side and shared, added
-- after each round).
-- (a game without a record part: the defaults, points and no counts)
local function record_part(game)
  local pkg = type(game) == "table" and game or registry.get(game) or registry.default()
  return registry.part(pkg, "record") or {}
end

-- Every game's counts (a result file's legs say by their fields whose).
local function all_counts()
  local out = {}
  for _, pkg in ipairs(registry.list()) do
    local c = record_part(pkg).counts
    if c then out[#out + 1] = c end
  end
  return out
end

-- One game of a pair; returns its record. cfg: names, nplayers, rules,
-- rules_dirs, rounds_only, time, ai_dirs, factory(name, opts), play(game,
-- players, opts).
local function play_leg(cfg, deal_seed, leg)
  local part = record_part(cfg.game)
  local game, err = diloti.new{ rules = cfg.rules, rules_dirs = cfg.rules_dirs, seed = deal_seed,
    players = not part.players and cfg.nplayers or nil }
  if not game then error("rules: " .. tostring(err), 0) end
  local counts = part.counts
  local seating = M.seating(cfg.names, cfg.nplayers, leg)
  local st = { a = new_ai_stats(), b = new_ai_stats() }
  local players, side_of_seat = {}, {}
  for seat = 0, cfg.nplayers - 1 do
    local who = seating[seat + 1]
    local p, perr = cfg.factory(who.name, { seed = M.seat_seed(deal_seed, seat), dirs = cfg.ai_dirs,
      time = cfg.time, game = cfg.game })
    if not p then error(string.format("AI '%s': %s", who.name, tostring(perr)), 0) end
    players[seat] = p
    side_of_seat[seat] = who.side
  end
  local nsides = #game:result().score + 1 -- sides are 0-based
  local group = {}                        -- game side -> "a" | "b"
  for seat = 0, cfg.nplayers - 1 do group[seat % nsides] = side_of_seat[seat] end
  local rec = { leg = leg, a_seat = leg == 1 and 0 or 1, rounds = 0, a_points = 0, b_points = 0,
    a_rounds = 0, b_rounds = 0, a = st.a, b = st.b, rules = { warnings = 0 } }
  if counts then
    for _, k in ipairs(counts.sides) do rec["a_" .. k], rec["b_" .. k] = 0, 0 end
    for _, k in ipairs(counts.shared) do rec[k] = 0 end
  end
  -- decisions and their time (info.seconds, from the driver), fallbacks
  -- (info.fallback: the AI lost the decision), warnings (a hook of the AI
  -- failed; a house rule's count apart, in rec.rules); the first message
  -- of each is kept
  local function on_move(seat, _, info)
    local s = st[side_of_seat[seat]]
    s.moves = s.moves + 1
    if type(info) ~= "table" then return end
    local dt = tonumber(info.seconds)
    if dt then
      s.timed = s.timed + 1
      s.time = s.time + dt
      if dt > s.tmax then s.tmax = dt end
    end
    if info.fallback then
      s.fallbacks = s.fallbacks + 1
      s.message = s.message or info.warning
    end
  end
  local function on_warning(seat, msg, source)
    local s = source == "rules" and rec.rules or st[side_of_seat[seat]]
    if not s then return end
    s.warnings = s.warnings + 1
    s.message = s.message or msg
  end
  while true do
    cfg.play(game, players, { on_move = on_move, on_warning = on_warning })
    local phase = game:phase()
    if phase ~= "round-over" and phase ~= "match-over" then
      error("the AI driver returned before the end of the round (phase " .. phase .. ")", 0)
    end
    local r = game:result()
    rec.rounds = rec.rounds + 1
    for side = 0, nsides - 1 do
      local total = r.round[side].total
      rec[group[side] .. "_points"] = rec[group[side] .. "_points"] + total
    end
    if counts then counts.add(rec, group, r.round) end
    local rw = r.round.winner
    if rw and rw < 0 then rw = nil end -- a tied round
    if rw then
      rec[group[rw] .. "_rounds"] = rec[group[rw] .. "_rounds"] + 1
    end
    if cfg.rounds_only then
      rec.result = rw == nil and 0.5 or group[rw] == "a" and 1 or 0
      break
    end
    if r.over then
      local mw = r.winner
      if mw and mw < 0 then mw = nil end
      rec.result = mw == nil and 0.5 or group[mw] == "a" and 1 or 0
      break
    end
    if rec.rounds >= MAX_ROUNDS then error("the match did not end after " .. MAX_ROUNDS .. " rounds", 0) end
    assert(game:next_round())
  end
  return rec
end

--- Plays deal pair i: {deal = i, seed = deal seed, legs = {game 1, game 2}}.
function M.play_pair(cfg, i)
  local seed = M.deal_seed(cfg.seed, i)
  return { deal = i, seed = seed, legs = { play_leg(cfg, seed, 1), play_leg(cfg, seed, 2) } }
end

-- ---------------------------------------------------------------------
-- Accumulating pairs (in deal order) into the statistics

local Acc = {}
Acc.__index = Acc

--- A fresh accumulator; sprt = {elo0 =, elo1 =, alpha =} or nil.
function M.accumulator(sprt)
  return setmetatable({
    pairs = 0, games = 0, wins = 0, draws = 0, losses = 0,
    s_sum = 0.0, s_sq = 0.0,
    r_sum = 0, r_sq = 0, a_pts = 0, b_pts = 0, x_sum = 0, x_sq = 0, xr_sum = 0,
    a_rounds = 0, b_rounds = 0,
    ai = { a = new_ai_stats(), b = new_ai_stats() }, rules = { warnings = 0 },
    sprt = sprt, stopped = nil,
  }, Acc)
end

--- Adds one pair record; returns the SPRT decision ("H0" or "H1") when
-- this pair settles it.
function Acc:add(pair)
  self.pairs = self.pairs + 1
  local score, x, r = 0.0, 0, 0
  for _, leg in ipairs(pair.legs) do
    self.games = self.games + 1
    if leg.result == 1 then
      self.wins = self.wins + 1
    elseif leg.result == 0 then
      self.losses = self.losses + 1
    else
      self.draws = self.draws + 1
    end
    score = score + leg.result
    x = x + leg.a_points - leg.b_points
    r = r + leg.rounds
    self.a_pts = self.a_pts + leg.a_points
    self.b_pts = self.b_pts + leg.b_points
    self.a_rounds = self.a_rounds + leg.a_rounds
    self.b_rounds = self.b_rounds + leg.b_rounds
    for _, side in ipairs{ "a", "b" } do
      local s, t = self.ai[side], leg[side]
      s.moves = s.moves + t.moves
      s.timed = s.timed + (t.timed or 0)
      s.time = s.time + t.time
      if t.tmax > s.tmax then s.tmax = t.tmax end
      s.fallbacks = s.fallbacks + t.fallbacks
      s.warnings = s.warnings + t.warnings
      s.message = s.message or t.message
    end
    for _, counts in ipairs(all_counts()) do
      if type(leg["a_" .. counts.sides[1]]) == "number" then
        self.counted = self.counted or {}
        local c = self.counted[counts.name]
        if not c then
          c = {}
          for _, k in ipairs(counts.shared) do c[k] = 0 end
          self.counted[counts.name] = c
          self.counted[#self.counted + 1] = counts.name
        end
        for _, side in ipairs{ "a", "b" } do
          for _, k in ipairs(counts.sides) do
            local key = side .. "_" .. k
            c[key] = (c[key] or 0) + (tonumber(leg[key]) or 0)
          end
        end
        for _, k in ipairs(counts.shared) do c[k] = c[k] + (tonumber(leg[k]) or 0) end
      end
    end
    -- (results written before house rules had a count of their own have none)
    local hr = leg.rules
    if type(hr) == "table" and type(hr.warnings) == "number" then
      self.rules.warnings = self.rules.warnings + hr.warnings
      self.rules.message = self.rules.message or hr.message
    end
  end
  score = score / #pair.legs
  self.s_sum = self.s_sum + score
  self.s_sq = self.s_sq + score * score
  self.r_sum = self.r_sum + r
  self.r_sq = self.r_sq + r * r
  self.x_sum = self.x_sum + x
  self.x_sq = self.x_sq + x * x
  self.xr_sum = self.xr_sum + x * r
  if self.sprt and not self.stopped then
    local llr, lo, hi = self:llr()
    if self.pairs >= MIN_SPRT_PAIRS then
      if llr >= hi then
        self.stopped = "H1"
      elseif llr <= lo then
        self.stopped = "H0"
      end
      return self.stopped
    end
  end
end

--- The SPRT's llr and bounds so far.
function Acc:llr()
  local sp = self.sprt
  local n = self.pairs
  local lo, hi = stats.sprt_bounds(sp.alpha, sp.beta)
  if n == 0 then return 0, lo, hi end
  local mean = self.s_sum / n
  local var = math.max(self.s_sq / n - mean * mean, SPRT_VAR_FLOOR)
  return stats.sprt_llr(n, mean, var, stats.score(sp.elo0), stats.score(sp.elo1)), lo, hi
end

local function clamp01(v) return math.max(0, math.min(1, v)) end

--- The statistics so far, as a plain table (the JSON "summary").
function Acc:summary()
  local n, g = self.pairs, self.games
  local sum = { pairs = n, games = g, wins = self.wins, draws = self.draws, losses = self.losses,
    rounds = self.r_sum, a_rounds_won = self.a_rounds, b_rounds_won = self.b_rounds }
  if n == 0 then return sum end
  local score = (self.wins + self.draws / 2) / g
  local smean = self.s_sum / n
  local lo, hi = smean, smean
  if n > 1 then
    local var = math.max(0, (self.s_sq - n * smean * smean) / (n - 1))
    local h = stats.t95(n - 1) * math.sqrt(var / n)
    lo, hi = clamp01(smean - h), clamp01(smean + h)
  end
  sum.score = { value = score, lo = lo, hi = hi }
  local wlo, whi = stats.wilson(self.wins, g)
  sum.win_rate = { value = self.wins / g, lo = wlo, hi = whi }
  sum.elo = { value = stats.elo(score), lo = stats.elo(lo), hi = stats.elo(hi) }
  -- points per round: ratio of sums, interval by the delta method
  local m = self.x_sum / self.r_sum
  local dlo, dhi = m, m
  if n > 1 then
    local resid = math.max(0, self.x_sq - 2 * m * self.xr_sum + m * m * self.r_sq)
    local rbar = self.r_sum / n
    local se = math.sqrt(resid / (n - 1) / n) / rbar
    local h = stats.t95(n - 1) * se
    dlo, dhi = m - h, m + h
  end
  sum.points_per_round = { a = self.a_pts / self.r_sum, b = self.b_pts / self.r_sum,
    diff = { value = m, lo = dlo, hi = dhi } }
  sum.rounds_per_game = self.r_sum / g
  sum.ai = {}
  for _, side in ipairs{ "a", "b" } do
    local s = self.ai[side]
    sum.ai[side] = { moves = s.moves, timed = s.timed, mean_ms = s.timed > 0 and 1000 * s.time / s.timed or nil,
      max_ms = 1000 * s.tmax, fallbacks = s.fallbacks, warnings = s.warnings, first_message = s.message }
  end
  sum.rules = { warnings = self.rules.warnings, first_message = self.rules.message }
  for _, name in ipairs(self.counted or {}) do
    local c = {}
    for k, v in pairs(self.counted[name]) do c[k] = v end
    sum[name] = c
  end
  if self.sprt then
    local llr, blo, bhi = self:llr()
    sum.sprt = { elo0 = self.sprt.elo0, elo1 = self.sprt.elo1, alpha = self.sprt.alpha,
      beta = self.sprt.beta or self.sprt.alpha, llr = llr, lower = blo, upper = bhi, result = self.stopped }
  end
  return sum
end

-- ---------------------------------------------------------------------
-- Text report, CSV, JSON files

local function side_names(cfg)
  local n = cfg.names
  if #n == 4 then return n[1] .. "+" .. n[3], n[2] .. "+" .. n[4] end
  return n[1], n[2]
end

local function fmt_elo(e)
  if e == math.huge then return "+inf" end
  if e == -math.huge then return "-inf" end
  if math.abs(e) < 0.5 then return "0" end
  return string.format("%+.0f", e)
end

local function pct(v) return string.format("%.1f%%", 100 * v) end

--- The report printed at the end of a run or merge (a string).
function M.report(cfg, sum)
  local A, B = side_names(cfg)
  local L = {}
  local function add(...) L[#L + 1] = string.format(...) end
  add("%s vs %s: %s, %d players, seed %d", A, B, cfg.rules, cfg.nplayers, cfg.seed)
  add("%d deals played twice with seats swapped: %d %s", sum.pairs, sum.games,
    cfg.rounds_only and "single rounds" or "matches")
  if sum.pairs == 0 then return table.concat(L, "\n") .. "\n" end
  add("results for %s: %d wins, %d draws, %d losses", A, sum.wins, sum.draws, sum.losses)
  add("  score     %.3f  [%.3f, %.3f]  (wins + draws/2 per game; 95%% CI over deal pairs)",
    sum.score.value, sum.score.lo, sum.score.hi)
  add("  win rate  %s  [%s, %s]  (Wilson 95%% CI)", pct(sum.win_rate.value), pct(sum.win_rate.lo),
    pct(sum.win_rate.hi))
  add("  Elo       %s  [%s, %s]  (%s - %s)", fmt_elo(sum.elo.value), fmt_elo(sum.elo.lo), fmt_elo(sum.elo.hi),
    A, B)
  local ppr = sum.points_per_round
  add("%s per round: %s %.2f, %s %.2f, difference %+.2f [%+.2f, %+.2f] (95%% CI)",
    record_part(cfg.game).points_word or "points", A, ppr.a, B, ppr.b,
    ppr.diff.value, ppr.diff.lo, ppr.diff.hi)
  add("rounds: %d (%.2f per game), won %d by %s, %d by %s", sum.rounds, sum.rounds_per_game, sum.a_rounds_won,
    A, sum.b_rounds_won, B)
  for _, counts in ipairs(all_counts()) do
    local c = sum[counts.name]
    if c then counts.report(add, c, A, B) end
  end
  for _, side in ipairs{ "a", "b" } do
    local s = sum.ai[side]
    local times = s.mean_ms and string.format("%.3f ms mean, %.1f ms max", s.mean_ms, s.max_ms) or "not timed"
    add("%-10s %d decisions, %s; %d fallbacks, %d warnings", (side == "a" and A or B) .. ":", s.moves, times,
      s.fallbacks, s.warnings)
    if s.first_message then add("  first: %s", s.first_message) end
  end
  local hr = sum.rules
  if hr and hr.warnings > 0 then
    add("%-10s %d warnings (a hook failed; standard rules used that round)", "house rules:", hr.warnings)
    if hr.first_message then add("  first: %s", hr.first_message) end
  end
  if sum.sprt then
    local sp = sum.sprt
    local verdict = sp.result == "H1" and string.format("H1 accepted: %s is stronger (elo >= %g)", A, sp.elo1)
      or sp.result == "H0" and string.format("H0 accepted: %s is not stronger (elo <= %g)", A, sp.elo0)
      or "no decision"
    add("SPRT elo0=%g elo1=%g alpha=%g: LLR %.2f [%.2f, %.2f], %s after %d deals", sp.elo0, sp.elo1, sp.alpha,
      sp.llr, sp.lower, sp.upper, verdict, sum.pairs)
  end
  return table.concat(L, "\n") .. "\n"
end

M.csv_columns = { "deal", "seed", "game", "a_seat", "rounds", "a_points", "b_points", "a_rounds_won",
  "b_rounds_won", "a_result", "a_decisions", "a_ms_mean", "a_ms_max", "a_fallbacks", "a_warnings",
  "b_decisions", "b_ms_mean", "b_ms_max", "b_fallbacks", "b_warnings", "rules_warnings" }

local function csv_field(v)
  if math.type(v) == "float" then v = string.format("%.6g", v) else v = tostring(v) end
  if v:find('[,"\n]') then v = '"' .. v:gsub('"', '""') .. '"' end
  return v
end

--- One CSV row per game (two per deal pair), with a header line; a game
-- whose record part counts more (its counts.csv) adds those columns.
function M.csv(pairs_list, game)
  local counts = record_part(game).counts
  local extra = counts and counts.csv
  local header = table.concat(M.csv_columns, ",")
  if extra then header = header .. "," .. table.concat(extra, ",") end
  local out = { header }
  for _, p in ipairs(pairs_list) do
    for _, leg in ipairs(p.legs) do
      local row = { p.deal, p.seed, leg.leg, leg.a_seat, leg.rounds, leg.a_points, leg.b_points, leg.a_rounds,
        leg.b_rounds, leg.result }
      for _, side in ipairs{ "a", "b" } do
        local s = leg[side]
        row[#row + 1] = s.moves
        row[#row + 1] = (s.timed or 0) > 0 and 1000 * s.time / s.timed or ""
        row[#row + 1] = 1000 * s.tmax
        row[#row + 1] = s.fallbacks
        row[#row + 1] = s.warnings
      end
      row[#row + 1] = leg.rules and leg.rules.warnings or 0
      if extra then
        for _, k in ipairs(extra) do row[#row + 1] = leg[k] or 0 end
      end
      for i, v in ipairs(row) do row[i] = csv_field(v) end
      out[#out + 1] = table.concat(row, ",")
    end
  end
  return table.concat(out, "\n") .. "\n"
end

local FORMAT = "diloti-match"

-- The part of cfg that goes into the files (and must agree on merge).
local function file_config(cfg)
  return { game = cfg.game, names = cfg.names, players = cfg.nplayers, rules = cfg.rules, seed = cfg.seed,
    games = cfg.games,
    rounds_only = cfg.rounds_only or false, time = cfg.time, sprt = cfg.sprt,
    shard = cfg.shard and { k = cfg.shard.k, n = cfg.shard.n } or nil, version = diloti.version }
end

--- The JSON document of a run: format, config, summary and every pair.
function M.document(cfg, sum, pairs_list)
  return { format = FORMAT, format_version = 1, config = file_config(cfg), summary = sum, pairs = pairs_list }
end

local function write_file(path, text)
  local f, e = io.open(path, "wb")
  if not f then return nil, e end
  local ok, werr = f:write(text)
  local cok, cerr = f:close()
  if not ok then return nil, werr end
  if not cok then return nil, cerr end
  return true
end

local read_file = textfile.read

-- ---------------------------------------------------------------------
-- Progress

local function is_tty(fd)
  local ok = os.execute("test -t " .. fd)
  return ok == true
end

local function hms(s)
  s = math.floor(s + 0.5)
  if s >= 3600 then return string.format("%d:%02d:%02d", s // 3600, s % 3600 // 60, s % 60) end
  return string.format("%d:%02d", s // 60, s % 60)
end

local function columns()
  local c = math.tointeger(tonumber(os.getenv("COLUMNS") or ""))
  if c and c > 20 then return c end
  local p = io.popen("stty size </dev/tty 2>/dev/null")
  local size = p and p:read("l")
  if p then p:close() end
  c = size and math.tointeger(tonumber(size:match("^%d+%s+(%d+)") or ""))
  return c and c > 20 and c or 80
end

local function progress(enabled, total)
  if not enabled then return { update = function() end, done = function() end } end
  local t0, last, shown = os.time(), -1, false
  local cols = columns()
  local step = math.max(1, total // 200)
  local p = {}
  function p.update(acc, force)
    local n = acc.pairs
    local now = os.time()
    if not force and n % step ~= 0 and now == last then return end
    last = now
    local width = 20
    local fill = total > 0 and math.floor(width * n / total) or width
    local line = string.format("[%s%s] %d/%d", string.rep("#", fill), string.rep(".", width - fill), n, total)
    local el = now - t0
    if n > 0 and el > 0 then line = line .. " ETA " .. hms(el / n * (total - n)) end
    local s = acc:summary()
    if s.sprt then line = line .. string.format("  LLR %.2f", s.sprt.llr) end
    if s.score then
      line = line .. string.format("  score %.3f [%.3f,%.3f] Elo %s  pts/round %+.2f", s.score.value, s.score.lo,
        s.score.hi, fmt_elo(s.elo.value), s.points_per_round.diff.value)
    end
    io.stderr:write("\r", line:sub(1, cols - 1), "\27[K")
    io.stderr:flush()
    shown = true
  end
  function p.done()
    if shown then io.stderr:write("\r\27[K") io.stderr:flush() end
  end
  return p
end

-- ---------------------------------------------------------------------
-- The commands

-- Messages and reports quote AI scripts (their failures, a first
-- warning) and result files: cleaned of terminal controls.
local function err(fmt, ...)
  io.stderr:write("diloti: ", core.clean(string.format(fmt, ...)), "\n")
  return 1
end

local function concat_lists(...)
  local t = {}
  for _, l in ipairs{ ... } do
    if type(l) == "table" then for _, v in ipairs(l) do t[#t + 1] = v end end
  end
  return t
end

local function parse_int(s, what, min)
  local v = math.tointeger(tonumber(s))
  if not v or (min and v < min) then return nil, string.format("%s: expected an integer%s, got '%s'", what,
    min and (" >= " .. min) or "", tostring(s)) end
  return v
end

local function parse_shard(s, what)
  local k, n = tostring(s):match("^(%d+)/(%d+)$")
  k, n = math.tointeger(tonumber(k)), math.tointeger(tonumber(n))
  if not k or n < 1 or k < 1 or k > n then
    return nil, string.format("%s: expected k/n with 1 <= k <= n, got '%s'", what, tostring(s))
  end
  return { k = k, n = n }
end

--- The deal indices a process plays: 1..games, then every n-th from k
-- for the shard, then every n-th of those from k for the part (--jobs).
function M.indices(games, shard, part)
  local t = {}
  for i = 1, games do
    if not shard or (i - 1) % shard.n == shard.k - 1 then t[#t + 1] = i end
  end
  if part then
    local u = {}
    for j = part.k, #t, part.n do u[#u + 1] = t[j] end
    t = u
  end
  return t
end

-- Where this program is: inside the diloti binary, the binary itself;
-- otherwise (a plain lua5.4 loading diloti.so) DILOTI_BIN.
local function self_bin()
  local f = io.open("/proc/self/stat", "r")
  local pid = f and f:read("n")
  if f then f:close() end
  if pid then
    local p = io.popen("readlink /proc/" .. math.tointeger(pid) .. "/exe 2>/dev/null")
    local exe = p and p:read("l")
    if p then p:close() end
    if exe and not exe:match("/lua[%d.]*$") and not exe:match("/busted$") then return exe end
  end
  return os.getenv("DILOTI_BIN") or "diloti" -- (the program's name)
end

local function q(s)
  return "'" .. tostring(s):gsub("'", [['\'']]) .. "'"
end

--- The configuration of a run from parsed arguments: cfg, or nil and a
-- message.
function M.config(a)
  local want = a.match_game or a.game
  local rules = a.match_rules or a.rules
  -- (the global --rules defaults to the default game: --game alone picks that game's base rules)
  local default = registry.default().name
  if want and (rules == nil or rules == default) then rules = want end
  local cfg = { names = a.ai, rules = rules or default, rounds_only = a.rounds_only or false }
  if #cfg.names ~= 2 and #cfg.names ~= 4 then
    return nil, "match: give two AIs (A B) or four (A B C D, partners A+C against B+D)"
  end
  local e
  cfg.games, e = parse_int(a.games or "100", "--games", 1)
  if not cfg.games then return nil, e end
  local seed = a.match_seed or a.seed
  if seed then
    cfg.seed, e = parse_int(seed, "--seed", 0)
    if not cfg.seed then return nil, e end
  elseif a.shard then
    return nil, "--shard needs --seed (every shard must play the same deals)"
  else
    cfg.seed = os.time()
  end
  local g0, gerr0 = diloti.new{ rules = cfg.rules, rules_dirs = a.rules_dir }
  if not g0 then return nil, gerr0 end
  cfg.game = game_of(g0:rules())
  g0:close()
  if want and game_of{ game = want } ~= cfg.game then
    return nil, string.format("--game %s, but the rules '%s' are %s's", want, cfg.rules, cfg.game)
  end
  if a.players then
    cfg.nplayers, e = parse_int(a.players, "--players")
    if not cfg.nplayers then return nil, e end
  else
    cfg.nplayers = record_part(cfg.game).players or (#cfg.names == 4 and 4 or nil)
  end
  local fixed = record_part(cfg.game).players
  if fixed then
    if cfg.nplayers ~= fixed then return nil, record_part(cfg.game).players_refusal(cfg.nplayers) end
  else
    if not cfg.nplayers then
      local g, gerr = diloti.new{ rules = cfg.rules, rules_dirs = a.rules_dir }
      if not g then return nil, gerr end
      cfg.nplayers = g:rules().players
    end
    if cfg.nplayers ~= 2 and cfg.nplayers ~= 4 then
      return nil, "--players: duplicate play needs 2 or 4 players, not " .. cfg.nplayers
    end
    if #cfg.names == 4 and cfg.nplayers ~= 4 then return nil, "four AIs need --players 4" end
    local g, gerr = diloti.new{ rules = cfg.rules, rules_dirs = a.rules_dir, players = cfg.nplayers, seed = 1 }
    if not g then return nil, gerr end
  end
  cfg.rules_dirs = a.rules_dir
  cfg.ai_dirs = concat_lists(a.ai_dir, a.match_ai_dir)
  if a.time then
    cfg.time = tonumber(a.time)
    if not cfg.time or cfg.time <= 0 then return nil, "--time: expected seconds > 0, got '" .. a.time .. "'" end
  end
  if a.sprt then
    local elo0, elo1, alpha = tonumber(a.elo0 or 0), tonumber(a.elo1 or 20), tonumber(a.alpha or 0.05)
    if not elo0 or not elo1 or elo1 <= elo0 then return nil, "--elo0/--elo1: need numbers with elo0 < elo1" end
    if not alpha or alpha <= 0 or alpha >= 0.5 then return nil, "--alpha: expected a number in (0, 0.5)" end
    cfg.sprt = { elo0 = elo0, elo1 = elo1, alpha = alpha, beta = alpha }
  end
  if a.shard then
    cfg.shard, e = parse_shard(a.shard, "--shard")
    if not cfg.shard then return nil, e end
  end
  if a.part then
    cfg.part, e = parse_shard(a.part, "--part")
    if not cfg.part then return nil, e end
  end
  cfg.jobs = 1
  if a.jobs then
    cfg.jobs, e = parse_int(a.jobs, "--jobs", 1)
    if not cfg.jobs then return nil, e end
  end
  cfg.factory = a.factory
  cfg.play = a.play_fn
  return cfg
end

-- The worker command for part j of J (--jobs).
local function worker_command(a, cfg, j, J)
  local words = a.worker_prefix and { table.unpack(a.worker_prefix) } or { self_bin() }
  for _, d in ipairs(a.rules_dir or {}) do
    words[#words + 1] = "--rules-dir"
    words[#words + 1] = d
  end
  words[#words + 1] = "match"
  for _, n in ipairs(cfg.names) do words[#words + 1] = n end
  local function opt(k, v) words[#words + 1] = k words[#words + 1] = tostring(v) end
  opt("--rules", cfg.rules)
  opt("--players", cfg.nplayers)
  opt("--games", cfg.games)
  opt("--seed", cfg.seed)
  for _, d in ipairs(cfg.ai_dirs) do opt("--ai-dir", d) end
  if cfg.time then opt("--time", string.format("%.17g", cfg.time)) end
  if cfg.rounds_only then words[#words + 1] = "--rounds-only" end
  if cfg.shard then opt("--shard", cfg.shard.k .. "/" .. cfg.shard.n) end
  opt("--part", j .. "/" .. J)
  words[#words + 1] = "--stream"
  for i, w in ipairs(words) do words[i] = q(w) end
  return "exec " .. table.concat(words, " ")
end

-- Produces the pairs of `indices` in order, calling on_pair(pair) for
-- each; stops when on_pair returns true. Returns true, or nil, message.
local function produce_local(cfg, indices, on_pair)
  for _, i in ipairs(indices) do
    local ok, pair = pcall(M.play_pair, cfg, i)
    if not ok then
      return nil, string.format("deal %d (seed %d): %s", i, M.deal_seed(cfg.seed, i), tostring(pair))
    end
    if on_pair(pair) then break end
  end
  return true
end

local function produce_jobs(a, cfg, indices, on_pair)
  local J = math.min(cfg.jobs, #indices)
  local pipes = {}
  for j = 1, J do
    local p, e = io.popen(worker_command(a, cfg, j, J), "r")
    if not p then
      for _, o in ipairs(pipes) do o:close() end
      return nil, "cannot start a worker: " .. tostring(e)
    end
    pipes[j] = p
  end
  local ok, msg = true, nil
  for t, i in ipairs(indices) do
    local j = (t - 1) % J + 1
    local line = pipes[j]:read("l")
    local pair = line and line:match("^pair (.*)$")
    pair = pair and json.decode(pair)
    if not pair or pair.deal ~= i then
      ok, msg = nil, string.format("worker %d/%d failed before deal %d%s", j, J, i,
        line and (": unexpected output: " .. line:sub(1, 200)) or "")
      break
    end
    if on_pair(pair) then break end
  end
  -- Closing a pipe ends a worker that still has deals to play (SIGPIPE
  -- on its next line).
  for j = 1, J do
    local _, _, code = pipes[j]:close()
    if ok == nil and code ~= 0 and code ~= nil then
      msg = msg .. string.format(" (worker %d exit status %s)", j, tostring(code))
    end
  end
  return ok, msg
end

local function write_outputs(a, cfg, sum, list)
  local code = 0
  if a.json then
    local ok, e = write_file(a.json, json.encode(M.document(cfg, sum, list)) .. "\n")
    if not ok then code = err("cannot write %s: %s", a.json, e) end
  end
  if a.csv then
    local ok, e = write_file(a.csv, M.csv(list, cfg.game))
    if not ok then code = err("cannot write %s: %s", a.csv, e) end
  end
  return code
end

--- `diloti match`: returns an exit code. `a` is the parsed command line;
-- from Lua (tests, tools) it may also hold factory and play_fn (in place
-- of ai.player and ai.play), output (a file-like object for the report)
-- and worker_prefix (the words that start a worker, in place of this
-- program).
function M.run(a)
  local cfg, e = M.config(a)
  if not cfg then return err("%s", e) end
  if not (cfg.factory and cfg.play) then
    local ok, ai = pcall(driver)
    if not ok then return err("%s", ai) end
    cfg.factory = cfg.factory or ai.player
    cfg.play = cfg.play or ai.play
  end
  -- every AI must load before anything is played (or a worker started)
  for _, n in ipairs(cfg.names) do
    local p, perr = cfg.factory(n, { seed = 1, dirs = cfg.ai_dirs, time = cfg.time, game = cfg.game })
    if not p then
      perr = tostring(perr)
      return err("%s", perr:find("^AI '") and perr or string.format("AI '%s': %s", n, perr))
    end
  end
  local indices = M.indices(cfg.games, cfg.shard, cfg.part)
  if a.stream then
    io.stdout:setvbuf("full")
    local ok, perr = produce_local(cfg, indices, function(pair)
      io.stdout:write("pair ", json.encode(pair), "\n")
      io.stdout:flush()
    end)
    if not ok then return err("%s", perr) end
    return 0
  end
  -- SPRT in a shard: every deal is played; merge applies the stop
  local acc = M.accumulator(not cfg.shard and cfg.sprt or nil)
  local list, keep = {}, a.json or a.csv -- every pair, only for the files
  local bar = progress(not a.quiet and is_tty(2), #indices)
  local function on_pair(pair)
    if keep then list[#list + 1] = pair end
    local stop = acc:add(pair)
    bar.update(acc, stop ~= nil)
    return stop ~= nil
  end
  local ok, perr
  if cfg.jobs > 1 and #indices > 1 then
    ok, perr = produce_jobs(a, cfg, indices, on_pair)
  else
    ok, perr = produce_local(cfg, indices, on_pair)
  end
  bar.done()
  if not ok then return err("%s", perr) end
  local sum = acc:summary()
  local out = a.output or io.stdout
  out:write(core.clean(M.report(cfg, sum)))
  if cfg.shard and cfg.sprt then out:write("(the SPRT stop is applied when the shards are merged)\n") end
  if cfg.shard then
    out:write(string.format("shard %d/%d: %d of %d deals%s\n", cfg.shard.k, cfg.shard.n, acc.pairs, cfg.games,
      a.json and "" or " (no --json: nothing to merge later)"))
  end
  return write_outputs(a, cfg, sum, list)
end

local function same(x, y)
  if type(x) ~= type(y) then return false end
  if type(x) ~= "table" then return x == y end
  for k, v in pairs(x) do if not same(v, y[k]) then return false end end
  for k in pairs(y) do if x[k] == nil then return false end end
  return true
end

-- A pair's outcome without its timings (the same deal played twice
-- gives the same outcome, not the same times).
local function outcome(p)
  local t = { p.deal, p.seed }
  for _, leg in ipairs(p.legs or {}) do
    for _, k in ipairs{ "rounds", "a_points", "b_points", "a_rounds", "b_rounds", "result" } do t[#t + 1] = leg[k] end
    for _, side in ipairs{ "a", "b" } do t[#t + 1] = leg[side] and leg[side].moves end
  end
  return json.encode(t)
end

local function valid_pair(p)
  if type(p) ~= "table" or math.type(p.deal) ~= "integer" or type(p.legs) ~= "table" or #p.legs ~= 2 then
    return false
  end
  for _, leg in ipairs(p.legs) do
    for _, k in ipairs{ "rounds", "a_points", "b_points", "a_rounds", "b_rounds", "result" } do
      if type(leg[k]) ~= "number" then return false end
    end
    for _, side in ipairs{ "a", "b" } do
      local s = leg[side]
      if type(s) ~= "table" then return false end
      for _, k in ipairs{ "moves", "time", "tmax", "fallbacks", "warnings" } do
        if type(s[k]) ~= "number" then return false end
      end
    end
  end
  return true
end

-- A game's title, by its name (nil for a game this program does not play).
local function title_of(name)
  local pkg = type(name) == "string" and registry.get(name)
  return pkg and pkg.name == name and pkg.title or nil
end

-- The game of a result file's config: its own field, else the game that
-- owns the base of its rules spec (the default game for any other).
local function file_game(c)
  if type(c.game) == "string" then return c.game end
  local base = type(c.rules) == "string" and c.rules:match("^[^+]*") or nil
  return (registry.of_base(base) or registry.default()).name
end

-- A result file's config as the merge reads it (the file may come from
-- anywhere): a count of deals, and a game this program plays.
local function valid_config(c)
  if type(c) ~= "table" or math.type(c.games) ~= "integer" or c.games < 1 then return false end
  return c.game == nil or title_of(c.game) ~= nil
end

--- Combines result documents (decoded JSON) into cfg and the pair list
-- in deal order: cfg, list, warnings; or nil, message.
function M.combine(docs)
  local base, base_game, list, seen, warnings = nil, nil, {}, {}, {}
  for idx, d in ipairs(docs) do
    if type(d) ~= "table" or d.format ~= FORMAT or not valid_config(d.config) then
      return nil, string.format("file %d is not a diloti match result", idx)
    end
    local c = d.config
    -- (files written before there were two games name no game: their rules say it)
    local game = file_game(c)
    if not base then
      base, base_game = c, game
    elseif game ~= base_game then
      return nil, string.format("file %d is a %s match result and file 1 a %s one: results of two games "
        .. "cannot be merged", idx, title_of(game) or game, title_of(base_game) or base_game)
    else
      for _, k in ipairs{ "names", "players", "rules", "seed", "games", "rounds_only", "time", "sprt" } do
        if not same(base[k], c[k]) then
          return nil, string.format("file %d was played with another %s than file 1", idx, k)
        end
      end
    end
    for _, p in ipairs(d.pairs or {}) do
      if not valid_pair(p) then return nil, string.format("file %d: a malformed deal record", idx) end
      if seen[p.deal] then
        if outcome(seen[p.deal]) ~= outcome(p) then
          return nil, string.format("deal %d appears twice with different results", p.deal)
        end
        warnings[#warnings + 1] = string.format("deal %d appears twice (counted once)", p.deal)
      else
        seen[p.deal] = p
        list[#list + 1] = p
      end
    end
  end
  if not base then return nil, "no result files" end
  table.sort(list, function(x, y) return x.deal < y.deal end)
  -- (counted from the deals present: base.games may be any size)
  local missing = base.games
  for deal in pairs(seen) do if deal >= 1 and deal <= base.games then missing = missing - 1 end end
  if missing > 0 then
    warnings[#warnings + 1] = string.format("%d of %d deals are missing (a shard not merged?)", missing, base.games)
  end
  local cfg = { game = base_game, names = base.names, nplayers = base.players, rules = base.rules, seed = base.seed,
    games = base.games, rounds_only = base.rounds_only, time = base.time, sprt = base.sprt }
  return cfg, list, warnings
end

--- `diloti merge FILE...`: returns an exit code (a.output as for run).
function M.merge(a)
  local docs = {}
  for _, path in ipairs(a.files) do
    local text, e = read_file(path, textfile.MAX_RESULTS)
    if not text then return err("%s", e) end
    local d, jerr = json.decode(text)
    if d == nil then return err("%s: %s", path, jerr) end
    docs[#docs + 1] = d
  end
  local cfg, list, warnings = M.combine(docs)
  if not cfg then return err("%s", list) end
  for _, w in ipairs(warnings) do io.stderr:write("diloti: merge: ", core.clean(w), "\n") end
  local acc = M.accumulator(cfg.sprt)
  local kept = {}
  for _, p in ipairs(list) do
    kept[#kept + 1] = p
    if acc:add(p) then break end
  end
  local sum = acc:summary()
  local out = a.output or io.stdout
  out:write(core.clean(M.report(cfg, sum)))
  if #kept < #list then
    out:write(string.format("(the SPRT stopped after deal %d: %d later deals left out)\n",
      kept[#kept].deal, #list - #kept))
  end
  return write_outputs(a, cfg, sum, kept)
end

--- Adds the `match` and `merge` commands to an argparse parser (which
-- already has the global --rules, --rules-dir, --ai-dir and --seed).
function M.setup(parser)
  local c = parser:command("match")
  c:summary("Play AIs against each other on duplicate deals: win rates, Elo, points.")
  c:usage("Usage: diloti match [options] A B [C D]")
  c:description("Each deal is played twice with the seats swapped (with four players, the partnerships), "
    .. "and results are given from the first side's point of view: score and win rate with 95% intervals, "
    .. "Elo difference, points per round. AIs are named as for the prompt or given as script paths.")
  c:epilog("--games counts deals (each one played twice). With four AIs, A+C play B+D. "
    .. "The SPRT tests H0 elo <= elo0 against H1 elo >= elo1 on the deal pairs' scores and stops "
    .. "as soon as one is accepted. --shard k/n plays every n-th deal from k; merge the --json files "
    .. "with `diloti merge`.")
  c:argument("ai", "AI names or script files: A B, or A B C D."):args("2-4")
  c:option("--games", "Deals to play (each twice, seats swapped).", "100")
  c:option("--seed", "Seed of the whole run (default: the time, printed).", nil):target("match_seed")
  c:option("--rules", "Rules (as the global --rules).", nil):target("match_rules")
  c:option("--game", string.format("The game: %s; --rules may add house rules.", diloti.game_choices()))
    :target("match_game")
  c:option("--ai-dir", "Another folder of AI scripts."):count("*"):target("match_ai_dir")
  c:option("--players", "2 or 4 players (default: 4 with four AIs, else the rules' own).")
  c:option("--jobs", "Worker processes (the results are those of one process).", "1")
  c:option("--shard", "Play only shard k of n (k/n); needs --seed.")
  c:option("--json", "Write the results (every deal pair) as JSON.")
  c:option("--csv", "Write one CSV row per game.")
  c:flag("--sprt", "Stop as soon as the SPRT decides (see --elo0, --elo1, --alpha).")
  c:option("--elo0", "SPRT: Elo of H0 (a negative one as --elo0=-10).", "0")
  c:option("--elo1", "SPRT: Elo of H1.", "20")
  c:option("--alpha", "SPRT: both error rates.", "0.05")
  c:option("--time", "Seconds per decision for each AI (as the AI driver's time option).")
  c:flag("--rounds-only", "Play single rounds instead of whole matches.")
  c:flag("-q --quiet", "No progress bar (there is none when stderr is not a terminal).")
  c:option("--part", "Internal: part j of J of this run (--jobs workers)."):hidden(true)
  c:flag("--stream", "Internal: write one line per deal pair (--jobs workers)."):hidden(true)
  local m = parser:command("merge", "Combine the --json files of match shards into one report.")
  m:summary("Combine the --json files of match shards into one report.")
  m:usage("Usage: diloti merge [--json FILE] [--csv FILE] FILE...")
  m:argument("files", "Result files of `diloti match --shard k/n --json FILE`."):args("+")
  m:option("--json", "Write the combined results as JSON.")
  m:option("--csv", "Write one CSV row per game.")
  return c, m
end

return M
