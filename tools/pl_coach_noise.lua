-- The Pilotta coach's noise: how often it would flag the search's own
-- cards, and for contrast random cards and the rule-follower's, over
-- positions of seeded games (lua/games/pilotta/coach.lua, M.threshold).
--
--   nice -n 10 build/diloti run tools/pl_coach_noise.lua [positions] [deals] [rows.csv] [first-seed]
--
-- The rule-follower plays every seat, so the positions are a café
-- player's. At each play position with two cards or more, the coach's
-- search (its seed, as at the table) ranks the cards once; the search's
-- own choice (searched again with another seed), a random card and the
-- follower's card are judged against that ranking. Prints the flag rates
-- for a grid of gaps (game points) and marks the coach's own. Needs the
-- Pilotta search (g:search); says so and stops without it.
local diloti = require "diloti"
local ai = require "diloti.ai"
local plc = require "diloti.games.pilotta.coach"

local WANT = math.tointeger(tonumber(arg and arg[1] or "")) or 300
local DEALS = math.tointeger(tonumber(arg and arg[2] or "")) or plc.budget.deals
local FIRST = math.tointeger(tonumber(arg and arg[4] or "")) or 1
local KINDS = { "search", "random", "follower" }

local function cards(g)
  local out = {}
  for _, m in ipairs(g:moves(true)) do if m.kind == "play" then out[#out + 1] = m.text end end
  return out
end

-- One judged position: per kind {gap, differs}, and exact.
local function judge(g, seat, follower, rng)
  local ranked, r = plc.rank(g, seat, { deals = DEALS, time = 5, seed = #g:history() + 1 })
  if not ranked then return nil, r end
  local again = plc.rank(g, seat, { deals = DEALS, time = 5, seed = #g:history() + 7919 })
  local list = cards(g)
  local chosen = { search = again and again[1].move, random = list[rng(#list)], follower = follower:choose(g, seat) }
  local row = { exact = r.exact }
  for _, k in ipairs(KINDS) do
    local v = chosen[k] and plc.verdict(ranked, r.exact, chosen[k], { gap = 0, exact_gap = 0 })
    if v then row[k] = { gap = v.gap, differs = v.mine ~= v.best } end
  end
  return row
end

local function collect()
  local rows, seed, t0 = {}, FIRST - 1, os.clock()
  while #rows < WANT do
    seed = seed + 1
    local g = assert(diloti.new { game = "pilotta", seed = seed })
    local follower = assert(ai.player("follower", { seed = seed }))
    local rng = ai.rng(seed * 7919)
    while g:phase() ~= "round-over" and g:phase() ~= "match-over" and #rows < WANT do
      local seat = g:turn()
      if g:phase() == "play" and #cards(g) >= 2 and #cards(g) == #g:moves() then
        local row, err = judge(g, seat, follower, rng)
        if not row then
          io.stderr:write("no Pilotta search: " .. tostring(err) .. "\n")
          os.exit(1)
        end
        rows[#rows + 1] = row
      end
      assert(g:play((follower:choose(g, seat))))
    end
    io.stderr:write(string.format("\r%d positions, %d rounds, %.0f s", #rows, seed - FIRST + 1, os.clock() - t0))
  end
  io.stderr:write("\n")
  return rows, seed - FIRST + 1
end

local function rate(rows, kind, gap, exact_gap)
  local n, f = 0, 0
  for _, row in ipairs(rows) do
    local x = row[kind]
    if x then
      n = n + 1
      if x.differs and x.gap >= (row.exact and exact_gap or gap) then f = f + 1 end
    end
  end
  return 100 * f / math.max(n, 1), f, n
end

local function report(rows, rounds)
  local th = plc.threshold
  local exact = 0
  for _, row in ipairs(rows) do if row.exact then exact = exact + 1 end end
  print(string.format("%d play positions with a choice from %d seeded rounds (seeds %d-%d); %d deals a search; "
    .. "%d exact", #rows, rounds, FIRST, FIRST + rounds - 1, DEALS, exact))
  print(string.format("%-6s %9s %9s %9s", "gap", "search", "random", "follower"))
  for _, gap in ipairs { 0.5, 1, 1.5, 2, 2.5, 3, 4 } do
    local cells = {}
    for _, k in ipairs(KINDS) do cells[#cells + 1] = string.format("%8.1f%%", (rate(rows, k, gap, th.exact_gap))) end
    print(string.format("%-6.1f %s%s", gap, table.concat(cells, " "), gap == th.gap and "  <- the coach's" or ""))
  end
  for _, k in ipairs(KINDS) do
    local pct, f, n = rate(rows, k, th.gap, th.exact_gap)
    print(string.format("  %-8s flagged %5.1f%% (%d of %d) at gap >= %.1f (exact: %.1f)", k, pct, f, n, th.gap,
      th.exact_gap))
  end
end

local function save(rows, path)
  local f = assert(io.open(path, "w"))
  f:write("exact,kind,differs,gap\n")
  for _, row in ipairs(rows) do
    for _, k in ipairs(KINDS) do
      local x = row[k]
      if x then f:write(string.format("%s,%s,%s,%.4f\n", row.exact, k, x.differs, x.gap)) end
    end
  end
  f:close()
end

local rows, rounds = collect()
report(rows, rounds)
if arg and arg[3] then save(rows, arg[3]) end
