-- Expert: the engine's own search at about a quarter of a second a move.
--
-- ctx.search runs the C search (information-set Monte Carlo tree search
-- over the deals consistent with this seat's view, and an exact search of
-- a fully known last deal) from this seat's view only. The iteration
-- count, not the clock, sets its strength, so a seed replays the same
-- game on any machine; the driver's time limit still caps it.
local ITERATIONS = 25000 -- median ~0.1 s, 95th percentile under 0.25 s (make bench)
local EXACT = 8 -- cards left in both hands when the exact endgame starts

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
  name = "expert",
  description = "Searches the possible deals with the engine's MCTS, about 0.1 s a move",
  help = [[Calls the engine's search through ctx.search with 25,000 playouts a move
(about a tenth of a second here, under a quarter at worst): Monte Carlo tree search
over the ways the unseen cards could lie, seen from its own seat only, and
an exact search of the last deal once the other hand is known (two
players). 'master' is the same search with three times the playouts.]],
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
