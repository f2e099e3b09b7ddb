-- Greedy: the move that gains the most right now, nothing more.
--
-- A capture is worth its cards (a little each, for the most-cards
-- bonus), the points in them (aces, 10 of diamonds, 2 of clubs) and a
-- xeri. Whatever does not capture is worth nothing, so among those it
-- keeps its valuable cards and lays the cheapest one.
local CARD = 0.25

local function gain(sim, ctx)
  if not sim then return -1000 end
  local g = 0
  if sim.captured then
    g = g + CARD * #sim.captured + ctx.points(sim.captured)
  end
  if sim.xeri then g = g + ctx.rules.points.xeri end
  if sim.sweep then
    local s = CARD * #sim.sweep.cards + ctx.points(sim.sweep.cards)
    g = g + (sim.sweep.side == ctx.side and s or -s)
  end
  return g
end

-- What playing a card without capturing gives away (the smaller the
-- better): its points, and a little for its value so that low cards go first.
local function cost(card, ctx)
  return ctx.points({ card }) + ctx.value(card) / 100
end

return {
  name = "greedy",
  description = "Takes the biggest immediate gain: cards, aces, 10d, 2c and xeri",
  help = [[Scores every legal move by what it captures at once: a quarter point
per card, the points in the cards and the xeri bonus. When nothing captures
it lays its least valuable card; it never declares unless it must (D19)
and never looks ahead: it will happily leave an easy xeri to the next
player.]],
  choose = function(_, moves, ctx)
    local best, best_score
    for i, m in ipairs(ctx.moves_info) do
      local score
      if m.kind == "claim" or m.kind == "keep" then
        score = m.kind == "keep" and 0 or -1
      else
        score = gain(ctx.simulate(m), ctx) - cost(m.card, ctx)
        if m.kind ~= "capture" and m.kind ~= "lay" then score = score - 0.05 end
      end
      if not best or score > best_score then best, best_score = i, score end
    end
    return moves[best]
  end,
}
