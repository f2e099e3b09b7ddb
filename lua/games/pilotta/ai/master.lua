-- Master: expert's bidding, and a search that reads the calls. Its deals
-- are weighed by what each of the other seats' calls says of its hand,
-- read as the shipped AIs mean them (src/pilotta/infer.c), besides all
-- the play shows; and it looks at more of them.
--
-- (Reading the calls in the bidding too, `read`, was tried with the
-- search's play and gave nothing: -0.26 [-0.72, +0.19] a round against
-- the same AI without it, 200 deal pairs, seed 11; docs/ai.md §11.)
local SEARCH = { deals = 80, time = 0.8, infer = true } -- (the search bench's budget for master)
local BID = { margin = 20, contra = 50, recontra = 20 }

return {
  name = "master",
  description = "Expert's bidding; plays by searching deals weighed by the calls, at most 0.8 s a card",
  strength = "beats expert",
  game = "pilotta",
  help = [[Bids as expert does. For each card it asks the engine's search for 80
deals of the hidden cards that agree with what it has seen, weighed by
what each call says of the hand that made it (an opening says its suit is
the bidder's best and worth about the bid, a pass that no suit covers the
next bid, a contra that the doubler holds their trumps), solves them
exactly with each card it may play, and plays the card whose round comes
out best on average. Announces every declaration, shows when its team
stands and says the belote. Without the search it plays as cautious does.]],
  choose = function(_, _, ctx) return ctx.decide(BID, SEARCH) end,
}
