-- Calibrates Pilotta's bidding evaluation (lua/games/pilotta/ai_helpers.lua): deals
-- many hands, and for each deal and each trump suit finds the trick
-- points each team takes; fits the weights of the trick-point estimate
-- (one seat's hand features -> its team's trick points) by least squares;
-- measures how often a team's best declaration stands; writes the fitted
-- table and the fit's quality to a results file.
--
--   build/diloti run tools/calibrate_bid.lua [deals] [seed] [results] [solve|playout] [write]
--
-- solve (the default when the engine has g:solve): both sides play
-- perfectly with every hand known (double-dummy, the engine's exact
-- solver on the full deal). playout: the four seats play the careful
-- card play of the helpers (ctx.careful), a stand-in until the solver is
-- there. write puts the fitted weights and the declarations' table into
-- lua/games/pilotta/ai_helpers.lua between its markers.
local diloti = require "diloti"
local PL = require "diloti.games.pilotta.ai_helpers"

local args = {}
local WRITE = false
for _, a in ipairs(arg or {}) do
  if a == "write" then WRITE = true else args[#args + 1] = a end
end
local DEALS = math.tointeger(tonumber(args[1] or "")) or 500
local SEED = math.tointeger(tonumber(args[2] or "")) or 1
local OUT = args[3] or "docs/ladder/pilotta-calibration.txt"
local probe = assert(diloti.new{ rules = "pilotta", seed = 1 })
local MODE = args[4] or (probe.solve and "solve" or "playout")
if MODE == "solve" and not probe.solve then error("this engine has no g:solve: use playout", 0) end

-- A game at the first card with `suit` trumps: the eldest hand bids 80
-- in it and the others pass (who holds the contract does not change the
-- play's value: the eldest leads, P21).
local function at_play(seed, suit)
  local g = assert(diloti.new{ rules = "pilotta", seed = seed })
  assert(g:play("80" .. suit))
  for _ = 1, 3 do assert(g:play("pass")) end
  return g
end

-- Trick points per team {[0] = a, [1] = b} at the end of the round.
local function by_playout(g)
  while g:phase() == "play" do
    local seat = g:turn()
    local view = g:view(seat)
    local infos = g:moves(true)
    local ctx = { seat = seat, side = seat % 2, partner = (seat + 2) % 4, rules = view.rules }
    local i = PL.careful(view, infos, ctx)
    assert(g:play(infos[i].text))
  end
  local v = g:view(0)
  local t = { [0] = v.trick_points[0], v.trick_points[1] }
  for team = 0, 1 do
    if v.tricks_won[team] == 8 then t[team], t[1 - team] = 250, 0 end
  end
  return t
end

local function by_solver(g)
  local r = assert(g:solve())
  local t = {}
  -- (a sweep is 250 for the sweepers; the swept team's value is below 0)
  if r.points >= 250 then
    t[r.team], t[1 - r.team] = 250, 0
  elseif r.points < 0 then
    t[r.team], t[1 - r.team] = 0, 250
  else
    t[r.team], t[1 - r.team] = r.points, 162 - r.points
  end
  return t, r.nodes
end

-- The hands of a fresh deal, per seat.
local function hands(seed)
  local g = assert(diloti.new{ rules = "pilotta", seed = seed })
  local h = {}
  for seat = 0, 3 do h[seat] = g:view(seat).hand end
  return h
end

-- ---- least squares ---------------------------------------------------------

-- Solves A x = b (n x n) by Gaussian elimination with partial pivoting.
local function solve_linear(A, b)
  local n = #b
  for c = 1, n do
    local p = c
    for r = c + 1, n do if math.abs(A[r][c]) > math.abs(A[p][c]) then p = r end end
    A[c], A[p] = A[p], A[c]
    b[c], b[p] = b[p], b[c]
    assert(math.abs(A[c][c]) > 1e-12, "singular system: a feature never varies")
    for r = c + 1, n do
      local f = A[r][c] / A[c][c]
      for k = c, n do A[r][k] = A[r][k] - f * A[c][k] end
      b[r] = b[r] - f * b[c]
    end
  end
  local x = {}
  for r = n, 1, -1 do
    local s = b[r]
    for k = r + 1, n do s = s - A[r][k] * x[k] end
    x[r] = s / A[r][r]
  end
  return x
end

local names = PL.FEATURES
local K = #names
local XtX, Xty = {}, {}
for i = 1, K do
  XtX[i] = {}
  for j = 1, K do XtX[i][j] = 0 end
  Xty[i] = 0
end
local rows = {}
local stands = {} -- own best declaration value -> {n, stood}
local nodes, t0 = 0, os.clock()

for d = 1, DEALS do
  local seed = SEED * 1000003 + d
  local h = hands(seed)
  -- declarations: does the seat's team's best beat the other team's?
  local best = {}
  for seat = 0, 3 do best[seat] = select(3, PL.declarations(h[seat])) end
  for seat = 0, 3 do
    local own = best[seat]
    if own > 0 then
      local team = math.max(own, best[(seat + 2) % 4])
      local other = math.max(best[(seat + 1) % 4], best[(seat + 3) % 4])
      local st = stands[own] or { n = 0, stood = 0 }
      st.n = st.n + 1
      if team > other then st.stood = st.stood + 1 end
      stands[own] = st
    end
  end
  for _, suit in ipairs(PL.SUITS) do
    local g = at_play(seed, suit)
    local t, n
    if MODE == "solve" then t, n = by_solver(g) else t = by_playout(g) end
    nodes = nodes + (n or 0)
    for seat = 0, 3 do
      local f = PL.features(h[seat], suit)
      local x = {}
      for i, k in ipairs(names) do x[i] = f[k] end
      local y = t[seat % 2]
      rows[#rows + 1] = { x = x, y = y }
      for i = 1, K do
        Xty[i] = Xty[i] + x[i] * y
        for j = 1, K do XtX[i][j] = XtX[i][j] + x[i] * x[j] end
      end
    end
  end
end

local w = solve_linear(XtX, Xty)
local weights = {}
for i, k in ipairs(names) do weights[k] = w[i] end

-- Fit quality: R^2, and the mean error by band of the prediction.
local mean = 0
for _, r in ipairs(rows) do mean = mean + r.y end
mean = mean / #rows
local ss_res, ss_tot, bands = 0, 0, {}
for _, r in ipairs(rows) do
  local p = 0
  for i = 1, K do p = p + w[i] * r.x[i] end
  ss_res = ss_res + (r.y - p) ^ 2
  ss_tot = ss_tot + (r.y - mean) ^ 2
  local band = math.floor(p / 20) * 20
  local b = bands[band] or { n = 0, err = 0, abs = 0, y = 0 }
  b.n, b.err, b.abs, b.y = b.n + 1, b.err + (r.y - p), b.abs + math.abs(r.y - p), b.y + r.y
  bands[band] = b
end
local r2 = 1 - ss_res / ss_tot

local out = {}
local function say(fmt, ...) out[#out + 1] = string.format(fmt, ...) end
say("# Pilotta bidding evaluation: calibration")
say("")
say("command: build/diloti run tools/calibrate_bid.lua %d %d %s %s", DEALS, SEED, OUT, MODE)
say("play: %s", MODE == "solve"
  and "both sides perfect with every hand known (g:solve on the full deal: double-dummy)"
  or "the helpers' careful play at every seat (a stand-in for the solver)")
say("deals: %d, each with the four trump suits; samples (seat, suit): %d", DEALS, #rows)
if MODE == "solve" then say("solver nodes: %d in all", nodes) end
say("time: %.1f s of processor", os.clock() - t0)
say("")
say("target: the trick points (P30-P32) of the seat's team; predictors: the seat's own hand")
say("R^2 = %.3f, residual standard deviation %.1f trick points, mean %.1f", r2, math.sqrt(ss_res / #rows), mean)
say("")
say("weights (trick points):")
for _, k in ipairs(names) do say("  %-6s %7.2f", k, weights[k]) end
say("")
say("by predicted band: samples, mean actual, mean error (actual - predicted), mean absolute error")
local keys = {}
for k in pairs(bands) do keys[#keys + 1] = k end
table.sort(keys)
for _, k in ipairs(keys) do
  local b = bands[k]
  say("  %4d-%-4d %6d %7.1f %+7.1f %7.1f", k, k + 19, b.n, b.y / b.n, b.err / b.n, b.abs / b.n)
end
say("")
say("declarations: a seat's best declaration and how often its team's best stands (P36, P37)")
local vals = {}
for v in pairs(stands) do vals[#vals + 1] = v end
table.sort(vals)
local stand_rate = {}
for _, v in ipairs(vals) do
  local s = stands[v]
  stand_rate[v] = s.stood / s.n
  say("  %4d: %6d hands, stands %.3f", v, s.n, s.stood / s.n)
end
local text = table.concat(out, "\n") .. "\n"
local f = assert(io.open(OUT, "w"))
f:write(text)
f:close()
io.write(text)

if WRITE then
  local path = "lua/games/pilotta/ai_helpers.lua"
  local src = assert(io.open(path)):read("a")
  local parts = {}
  for _, k in ipairs(names) do parts[#parts + 1] = string.format("%s = %.2f", k, weights[k]) end
  local lines, line = {}, " "
  for _, p in ipairs(parts) do
    if #line + #p + 2 > 100 then lines[#lines + 1] = line lines[#lines] = lines[#lines]:gsub("%s+$", "") line = " " end
    line = line .. " " .. p .. ","
  end
  lines[#lines + 1] = line
  local wblock = "-- BEGIN WEIGHTS\nM.WEIGHTS = {\n" .. table.concat(lines, "\n") .. "\n}\n"
    .. string.format("M.CALIBRATION = %q\n", string.format("%s, %d deals, seed %d: R^2 %.3f", MODE, DEALS, SEED, r2))
    .. "-- END WEIGHTS"
  local sparts = {}
  for _, v in ipairs(vals) do sparts[#sparts + 1] = string.format("[%d] = %.3f", v, stand_rate[v]) end
  local sblock = "-- BEGIN STANDS\nM.STANDS = { " .. table.concat(sparts, ", ") .. " }\n-- END STANDS"
  local n1, n2
  src, n1 = src:gsub("%-%- BEGIN WEIGHTS.-%-%- END WEIGHTS", function() return wblock end)
  src, n2 = src:gsub("%-%- BEGIN STANDS.-%-%- END STANDS", function() return sblock end)
  assert(n1 == 1 and n2 == 1, "the markers in " .. path .. " are missing")
  local g = assert(io.open(path, "w"))
  g:write(src)
  g:close()
  print("wrote the weights into " .. path)
end
