-- Master: expert's search with more deals and with inference (the deals
-- weighed by what the auction and the play say of the hidden hands), and
-- bids that read the partner's and the opponents' calls.
local SEARCH = { deals = 80, time = 0.8, infer = true } -- (the search bench's budget for master)
local BID = { margin = 20, contra = 50, recontra = 20, read = true }

return {
  name = "master",
  description = "Expert's search on more deals, reading the auction and the play",
  strength = "above expert: not separated yet",
  game = "pilotta",
  help = [[Bids like expert, and reads the auction: a suit its partner bid is
worth more to the team, one the opponents bid less. For each card it asks
the engine's search for 80 deals of the hidden cards, weighed by what the
calls, the announcements and the play so far say of each hand, solves them
exactly with each card it may play, and plays the card whose round comes
out best on average. Announces every declaration, shows when its team
stands and says the belote. Without the search it plays as cautious does.]],
  choose = function(_, _, ctx) return ctx.decide(BID, SEARCH) end,
}
