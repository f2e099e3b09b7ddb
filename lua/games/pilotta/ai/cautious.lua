-- Cautious: a careful partner for Pilotta, by the evaluation and a few
-- plain habits (ctx.bid, ctx.careful: lua/games/pilotta/ai_helpers.lua).
--
-- Auction: it bids what the evaluation gives its team, 30 trick points
-- kept in hand, raises its partner only with real support and doubles
-- only a contract well above what the opponents can make. Play: it
-- announces its best declaration first and every other, shows when its
-- team stands, says the belote; it counts the trumps still out and draws
-- them while it holds the best, returns its partner's suit, leads its
-- Aces, never spends points on a trick it cannot win, feeds points to a
-- trick its partner is sure to win, and wins a trick as cheaply as it
-- surely can.
local BID = { margin = 30, contra = 50, recontra = 30 }

return {
  name = "cautious",
  description = "A careful partner: counts trumps, returns your suit, bids with a margin",
  strength = "beats follower",
  game = "pilotta",
  help = [[A careful Pilotta partner with no look-ahead. In the auction it bids
what the evaluation says its hand brings to the team (expected trick points
for each trump suit with an average partner, its declarations, its belote),
keeping 30 points in hand; it raises its partner's suit only with support,
says contra only when the opponents' contract is well above what its hand
leaves them, and recontra only when its own is well within reach. In the
play it announces every declaration it holds, shows when its team stands,
says the belote, draws trumps while it holds the best one and its team
holds the contract, returns its partner's suit, leads its Aces, never wastes
points on a trick it cannot win and feeds points to a trick its partner is
sure to take.]],
  choose = function(_, _, ctx) return ctx.decide(BID) end,
}
