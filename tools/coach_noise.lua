-- The coach's noise: how often it would flag the expert's own moves, and
-- for contrast random and greedy moves, over positions of seeded
-- two-player games that the expert plays out.
--
--   nice -n 10 build/diloti run tools/coach_noise.lua [positions] [iterations] [rows.csv] [first-seed]
--
-- At each position with a choice, the coach's search (its own seed, as at
-- the table) ranks the moves once; the expert's move (searched with the
-- expert's seed), a random move and greedy's move are judged against that
-- ranking. Prints the flag rates for a grid of thresholds and marks the
-- coach's own (coach.threshold).
local diloti = require "diloti"
local ai = require "diloti.ai"
local advice = require "diloti.games.diloti.advice"
local coach = require "diloti.games.diloti.coach"

local WANT = math.tointeger(tonumber(arg and arg[1] or "")) or 300
local ITER = math.tointeger(tonumber(arg and arg[2] or "")) or advice.ITERATIONS
local FIRST = math.tointeger(tonumber(arg and arg[4] or "")) or 1
local KINDS = { "expert", "random", "greedy" }

local function players(seed)
  return {
    expert = assert(ai.player("expert", { seed = seed })),
    greedy = assert(ai.player("greedy", { seed = seed })),
  }
end

-- One judged position: per kind, {gap, share, exact, differs}.
local function judge(g, seat, p, rng)
  local ranked, r = advice.rank(g, seat, { iterations = ITER, seed = #g:history() + 1 })
  if not ranked then return nil end
  local moves = g:moves()
  local chosen = {
    expert = (p.expert:choose(g, seat)),
    random = moves[rng(#moves)],
    greedy = (p.greedy:choose(g, seat)),
  }
  local row = { exact = r.exact }
  for _, k in ipairs(KINDS) do
    local v = coach.verdict(ranked, r.exact, chosen[k], { gap = 0, share = 1, exact_gap = 0 })
    if v then row[k] = { gap = v.gap, share = v.share, differs = v.mine ~= v.best } end
  end
  return row, chosen.expert
end

local function collect()
  local rows, seed, t0 = {}, FIRST - 1, os.clock()
  while #rows < WANT do
    seed = seed + 1
    local g = assert(diloti.new { seed = seed, players = 2 })
    local p = players(seed)
    local rng = ai.rng(seed * 7919)
    while g:phase() == "play" and #rows < WANT do
      local seat = g:turn()
      local move
      if #g:moves() >= 2 then
        local row
        row, move = judge(g, seat, p, rng)
        rows[#rows + 1] = row
      else
        move = g:moves()[1]
      end
      assert(g:play(move))
    end
    io.stderr:write(string.format("\r%d positions, %d games, %.0f s", #rows, seed - FIRST + 1, os.clock() - t0))
  end
  io.stderr:write("\n")
  return rows, seed - FIRST + 1
end

local function flagged(x, exact, gap, share, exact_gap)
  if not x or not x.differs then return false end
  if exact then return x.gap >= exact_gap end
  return x.gap >= gap and x.share <= share
end

local function rate(rows, kind, gap, share, exact_gap)
  local n, f = 0, 0
  for _, row in ipairs(rows) do
    if row[kind] then
      n = n + 1
      if flagged(row[kind], row.exact, gap, share, exact_gap) then f = f + 1 end
    end
  end
  return 100 * f / math.max(n, 1), f, n
end

local function report(rows, games)
  local th = coach.threshold
  local exact = 0
  for _, row in ipairs(rows) do if row.exact then exact = exact + 1 end end
  print(string.format("%d positions with a choice from %d seeded 2-player games (seeds %d-%d); %d playouts; "
    .. "%d solved exactly", #rows, games, FIRST, FIRST + games - 1, ITER, exact))
  local line = {}
  for _, k in ipairs(KINDS) do
    local n, d = 0, 0
    for _, row in ipairs(rows) do
      if row[k] then n = n + 1; if row[k].differs then d = d + 1 end end
    end
    line[#line + 1] = string.format("%s %.1f%%", k, 100 * d / math.max(n, 1))
  end
  print("not the coach's first choice: " .. table.concat(line, ", "))
  print(string.format("%-6s %-6s %9s %9s %9s", "gap", "share", "expert", "random", "greedy"))
  for _, gap in ipairs { 0.5, 0.75, 1, 1.5, 2, 2.5, 3, 4 } do
    for _, share in ipairs { 0.05, 0.10, 0.20, 1 } do
      local cells = {}
      for _, k in ipairs(KINDS) do
        cells[#cells + 1] = string.format("%8.1f%%", (rate(rows, k, gap, share, th.exact_gap)))
      end
      local mark = (gap == th.gap and share == th.share) and "  <- coach.threshold" or ""
      print(string.format("%-6.1f %-6.2f %s%s", gap, share, table.concat(cells, " "), mark))
    end
  end
  print(string.format("the coach's threshold: gap >= %.1f points and share <= %.2f (exact: gap >= %d)",
    th.gap, th.share, th.exact_gap))
  for _, k in ipairs(KINDS) do
    local pct, f, n = rate(rows, k, th.gap, th.share, th.exact_gap)
    print(string.format("  %-7s flagged %5.1f%% (%d of %d)", k, pct, f, n))
  end
end

-- The raw numbers, to try other thresholds without searching again.
local function save(rows, path)
  local f = assert(io.open(path, "w"))
  f:write("exact,kind,differs,gap,share\n")
  for _, row in ipairs(rows) do
    for _, k in ipairs(KINDS) do
      local x = row[k]
      if x then f:write(string.format("%s,%s,%s,%.4f,%.5f\n", row.exact, k, x.differs, x.gap, x.share)) end
    end
  end
  f:close()
end

local rows, games = collect()
report(rows, games)
if arg and arg[3] then save(rows, arg[3]) end
