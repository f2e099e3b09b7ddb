-- Cautious: gains what it safely can, and above all never leaves the
-- next player an easy xeri.
--
-- Every move is scored by what it captures now, minus what the next
-- player could expect to capture from the table it leaves. That
-- expectation counts the unseen cards: how many of each rank are still
-- out, how many cards the next player holds, and what each rank could
-- take (a sweep counts its xeri). A declaration the next player owns is
-- a card they surely hold (D14).
local CARD = 0.25  -- one captured card, towards the most-cards bonus
local RISK = 1.3   -- how much a possible loss weighs against a sure gain
local SWEEP = 1.5  -- extra dread of leaving a xeri

local function worth(cards, ctx)
  return CARD * #cards + ctx.points(cards)
end

local function gain(sim, ctx)
  local g = 0
  if sim.captured then g = g + worth(sim.captured, ctx) end
  if sim.xeri then g = g + ctx.rules.points.xeri end
  if sim.sweep then
    local s = worth(sim.sweep.cards, ctx)
    g = g + (sim.sweep.side == ctx.side and s or -s)
  end
  return g
end

-- What `seat` can expect to take from the table tbl on its turn: its
-- captures, best first, each weighted by the chance that it holds the
-- rank and none of the better ones.
local function threat(tbl, seat, ctx)
  local options = {}
  for _, rank in ipairs{ "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K" } do
    local cap = ctx.best_capture(rank, tbl)
    if cap then
      local p = ctx.chance(rank, seat)
      if p > 0 then
        local v = CARD * cap.count + cap.points
        if cap.sweep and ctx.rules.xeri then v = v + SWEEP * ctx.rules.points.xeri end
        options[#options + 1] = { p = p, v = v }
      end
    end
  end
  table.sort(options, function(a, b) return a.v > b.v end)
  local e, none = 0, 1
  for _, o in ipairs(options) do
    e = e + o.v * o.p * none
    none = none * (1 - o.p)
  end
  return e
end

local function score(m, ctx, view)
  local sim = ctx.simulate(m)
  if not sim then return -1000 end
  local s = gain(sim, ctx)
  if sim.table and not sim.round_over then
    s = s - RISK * threat(sim.table, (ctx.seat + 1) % view.players, ctx)
    -- Its own declaration is a capture to come, if nobody takes it first.
    for _, d in ipairs(sim.table.declarations) do
      if d.owner == ctx.seat then s = s + 0.7 * worth(d.cards, ctx) end
    end
  end
  -- Among equals, keep the valuable cards and play the low ones.
  return s - ctx.points({ m.card }) * 0.1 - ctx.value(m.card) / 100
end

return {
  name = "cautious",
  description = "Never leaves an easy xeri: weighs every capture against the unseen cards",
  help = [[For each legal move it adds up what the move captures now (a quarter
point a card, the card points, a xeri) and subtracts what the next player
could expect to take from the table left behind, counting how many cards of
each rank are still unseen and how many the next player holds. Leaving a
sweepable table counts half again as bad as the xeri itself. It claims a
redeal of a hand of face cards when the rules allow it.]],
  choose = function(view, moves, ctx)
    local best, best_score
    for i, m in ipairs(ctx.moves_info) do
      local s
      if m.kind == "claim" then s = 1
      elseif m.kind == "keep" then s = 0
      else s = score(m, ctx, view) end
      if not best or s > best_score then best, best_score = i, s end
    end
    return moves[best]
  end,
}
