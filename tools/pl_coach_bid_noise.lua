-- The Pilotta coach's noise in the auction: how often its remarks on a
-- call (a bid above the hand, a capot without eight sure tricks, a contra
-- or recontra the hand does not back, a missed bid, raise, contra or
-- recontra: lua/games/pilotta/coach.lua, call_verdict and M.threshold's `over`,
-- `missed`, `contra` and `recontra`) would come on expert's own calls,
-- on cautious's and the rule-follower's, and on random legal calls.
--
--   nice -n 10 build/diloti run tools/pl_coach_bid_noise.lua [positions] [first-seed]
--
-- The auctions of seeded games are walked with expert's calls (a table of
-- experts); at each position every kind of caller's call is judged
-- against the advice from that seat. Prints, per kind, the share of calls
-- each `over` and each `missed` of a grid would flag, and marks the
-- coach's own thresholds.
local diloti = require "diloti"
local ai = require "diloti.ai"
local PL = require "diloti.games.pilotta.ai_helpers"
local bid = require "diloti.games.pilotta.bid"
local plc = require "diloti.games.pilotta.coach"

local WANT = math.tointeger(tonumber(arg and arg[1] or "")) or 2000
local FIRST = math.tointeger(tonumber(arg and arg[2] or "")) or 1
local KINDS = { "expert", "cautious", "follower", "random" }
local OVER = { 0, 10, 20, 30, 40 }
local MISSED = { 0, 5, 10, 20, 30 }
-- (a contra is flagged when it leaves the bidders less than `contra`
-- short, a recontra when the side should make less than `recontra` above
-- its bid: the grids are upper bounds)
local CONTRA = { 10, 20, 30, 40, 50 }
local RECONTRA = { -20, -10, 0, 10, 20 }
local CAUTIOUS = { margin = 30, contra = 50, recontra = 30 } -- (lua/games/pilotta/ai/cautious.lua)

local function ctx_of(g, seat)
  return { seat = seat, side = seat % 2, partner = (seat + 2) % 4, rules = g:rules() }
end

local counts = {} -- kind -> {n, over = {[x] = n}, missed = {[x] = n}, capot = n}
for _, k in ipairs(KINDS) do
  counts[k] = { n = 0, over = {}, missed = {}, contra = {}, recontra = {}, capot = 0, contras = 0, recontras = 0 }
end

local function judge(kind, g, seat, call)
  local c = counts[kind]
  c.n = c.n + 1
  local v = plc.call_verdict(g:view(seat), g:moves(true), g:rules(), call,
    { over = math.huge, missed = math.huge, contra = -math.huge, recontra = -math.huge })
  if v.over then
    for _, x in ipairs(OVER) do if v.over >= x then c.over[x] = (c.over[x] or 0) + 1 end end
  end
  if v.missed then
    for _, x in ipairs(MISSED) do if v.missed >= x then c.missed[x] = (c.missed[x] or 0) + 1 end end
  end
  if v.sure and v.sure < bid.CAPOT then c.capot = c.capot + 1 end
  if v.short then
    c.contras = c.contras + 1
    for _, x in ipairs(CONTRA) do
      if (v.capot and v.short == 0) or (not v.capot and v.short < x) then c.contra[x] = (c.contra[x] or 0) + 1 end
    end
  end
  if v.above then
    c.recontras = c.recontras + 1
    for _, x in ipairs(RECONTRA) do if v.above < x then c.recontra[x] = (c.recontra[x] or 0) + 1 end end
  end
end

local n, seed = 0, FIRST - 1
while n < WANT do
  seed = seed + 1
  local g = assert(diloti.new { game = "pilotta", seed = seed, dealer = seed % 4 })
  local follower = assert(ai.player("follower", { game = "pilotta", seed = seed }))
  local rng = ai.rng(seed * 7919)
  while n < WANT and (g:phase() == "auction" or g:phase() == "contra") do
    local seat, infos = g:turn(), g:moves(true)
    local v, ctx = g:view(seat), ctx_of(g, seat)
    local calls = {
      expert = infos[PL.bid(v, infos, ctx, bid.OPTS)].text,
      cautious = infos[PL.bid(v, infos, ctx, CAUTIOUS)].text,
      follower = (follower:choose(g)),
      random = infos[rng(#infos)].text,
    }
    for _, k in ipairs(KINDS) do judge(k, g, seat, calls[k]) end
    n = n + 1
    assert(g:play(calls.expert))
  end
end

local th = plc.threshold
print(string.format("%d auction positions (seeds %d-%d), expert calling", n, FIRST, seed))
local function pct(x, of) return string.format("%5.1f%%", 100 * (x or 0) / math.max(1, of)) end
local GRID = { over = OVER, missed = MISSED, contra = CONTRA, recontra = RECONTRA }
for _, what in ipairs { "over", "missed", "contra", "recontra" } do
  local grid = GRID[what]
  local head = { string.format("%-9s", what) }
  for _, x in ipairs(grid) do head[#head + 1] = string.format("%6s", x .. (x == th[what] and "*" or "")) end
  print(table.concat(head, " "))
  for _, k in ipairs(KINDS) do
    local row = { string.format("%-9s", k) }
    for _, x in ipairs(grid) do row[#row + 1] = pct(counts[k][what][x], counts[k].n) end
    if what == "contra" or what == "recontra" then
      -- (and of that kind's own contras or recontras)
      local own = counts[k][what .. "s"]
      row[#row + 1] = string.format("  of %d %ss:", own, what)
      for _, x in ipairs(grid) do row[#row + 1] = pct(counts[k][what][x], own) end
    end
    print(table.concat(row, " "))
  end
end
local row = { "capot without 8 sure tricks:" }
for _, k in ipairs(KINDS) do row[#row + 1] = k .. " " .. pct(counts[k].capot, counts[k].n) end
print(table.concat(row, " "))
