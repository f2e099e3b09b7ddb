-- Master: the engine's own search at about a second a move.
--
-- ctx.search runs the C search (information-set Monte Carlo tree search
-- over the deals consistent with this seat's view, and an exact search of
-- a fully known last deal) from this seat's view only. The iteration
-- count, not the clock, sets its strength, so a seed replays the same
-- game on any machine; the driver's time limit still caps it.
local ITERATIONS = 75000 -- median ~0.4 s, 95th percentile under 1 s (make bench)
local EXACT = 10 -- cards left in both hands when the exact endgame starts

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
  description = "The engine's MCTS at full strength: three times expert's playouts, about 0.4 s a move",
  help = [[The same search as 'expert' (ctx.search: Monte Carlo tree search over
the ways the unseen cards could lie, from its own seat only) with 75,000
playouts a move (about 0.4 s here, under a second at worst), and the exact search
of a known last deal from ten cards in hand instead of eight.]],
  choose = function(_, moves, ctx)
    if #moves == 1 then return moves[1] end
    local r, why = ctx.search{ iterations = ITERATIONS, exact = EXACT }
    if r then
      -- The search knows the rules, not a house rule's moves hook: take
      -- its best move that is also in the list.
      local legal = {}
      for _, m in ipairs(moves) do legal[m] = true end
      for _, m in ipairs(r.moves) do
        if legal[m.move] then
          return m.move, string.format("%d playouts, value %.3f", r.iterations, r.value)
        end
      end
    end
    return plain(ctx), "no search: " .. tostring(why or "no legal move in its answer")
  end,
}
