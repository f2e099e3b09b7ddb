-- Expert: bids with the evaluation, plays with the engine's search.
--
-- ctx.search samples the deals of the unseen cards that agree with this
-- seat's view (the cards played, the voids shown, the announcements),
-- solves each exactly and plays the card that does best on average (PIMC,
-- docs/ai.md §11). Without the search (an engine without it, or no time
-- left) it plays as cautious does.
local SEARCH = { deals = 24, time = 0.2 } -- (the search bench's budget for expert)
local BID = { margin = 20, contra = 50, recontra = 20 }

return {
  name = "expert",
  description = "Bids by the evaluation; plays by searching the deals, at most 0.2 s a card",
  strength = "beats cautious",
  game = "pilotta",
  help = [[Bids with the evaluation (what its hand brings to the team for each
trump suit, its declarations and belote), keeping 20 points in hand; raises,
overcalls, doubles and redoubles on the same figures. Announces every
declaration, shows when its team stands and says the belote. For each card
it asks the engine's search: 24 deals of the hidden cards that agree with
what it has seen are solved exactly with each card it may play, and it
plays the card whose round comes out best on average for its team. Without
the search it plays as cautious does.]],
  choose = function(_, _, ctx) return ctx.decide(BID, SEARCH) end,
}
