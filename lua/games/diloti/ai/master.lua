-- Master: the engine's own search at about a second a move.
--
-- ctx.search runs the C search (information-set Monte Carlo tree search
-- over the deals consistent with this seat's view, and an exact search of
-- a fully known last deal) from this seat's view only. The iteration
-- count, not the clock, sets its strength, so a seed replays the same
-- game on any machine; the driver's time limit still caps it.
local ITERATIONS = 75000 -- median ~0.4 s, 95th percentile under 1 s (make bench)
local EXACT = 10 -- cards left in both hands when the exact endgame starts
-- Reading the others' hands from their play this deal (docs/ai.md, 6),
-- a temperature in points, with three or four players: measured there, it
-- is what puts master above expert (docs/ai.md, 10; 1 and 4 did worse
-- than 2). With two players master plays as it was measured to beat
-- expert, without it (one run with it was no clearer: docs/ai.md, 10).
local INFER = 2

-- Without the search (an engine built without it, or no time left): the
-- move that captures the most, else the cheapest lay.
local function plain(ctx)
  local best, best_score
  for i, m in ipairs(ctx.moves_info) do
    local s = 0
    if m.kind == "capture" then
      local sim = ctx.simulate(m)
      s = 1 + #sim.captured + ctx.points(sim.captured) + (sim.xeri and 10 or 0)
    elseif m.card then
      s = -(ctx.points({ m.card }) + ctx.value(m.card) / 10)
    end
    if not best or s > best_score then best, best_score = i, s end
  end
  return best
end

return {
  name = "master",
  description = "Expert's search, three times the playouts; with four players it reads hands from the play too",
  help = [[The same search as 'expert' (ctx.search: Monte Carlo tree search over
the ways the unseen cards could lie, from its own seat only) with 75,000
playouts a move (about 0.4 s here, under a second at worst), the exact search
of a known last deal from ten cards in hand instead of eight. With three or
four players it also reads the play: the deals it imagines favour hands
that explain what the others did this deal (a declaration needs a card kept
back for it; few players pass up the 10 of diamonds or a xeri).]],
  choose = function(view, moves, ctx)
    if #moves == 1 then return moves[1] end
    local r, why = ctx.search{ iterations = ITERATIONS, exact = EXACT, infer = view.players > 2 and INFER or 0 }
    if r then
      -- The search knows the rules, not a house rule's moves hook: take
      -- its best move that is also in the list.
      local legal = {}
      for _, m in ipairs(moves) do legal[m] = true end
      for _, m in ipairs(r.moves) do
        if legal[m.move] then
          return m.move, string.format("%d playouts, value %.3f, %d moves read", r.iterations, r.value,
            r.seen or 0)
        end
      end
    end
    return plain(ctx), "no search: " .. tostring(why or "no legal move in its answer")
  end,
}
