-- Master: expert's search with more deals and with inference (the deals
-- weighed by what the auction and the play say of the hidden hands), and
-- bids that read the partner's and the opponents' calls.
local SEARCH = { deals = 80, time = 0.8, infer = true } -- (the search bench's budget for master)
local BID = { margin = 20, contra = 50, recontra = 20, read = true }

return {
  name = "master",
  description = "Expert's search on more deals, reading the auction and the play",
  strength = "above expert: to measure",
  game = "pilotta",
  help = [[Bids like expert, and reads the auction: a suit its partner bid is
worth more to the team, one the opponents bid less. For each card it asks
the engine's search for 80 deals of the hidden cards, weighed by what the
calls, the announcements and the play so far say of each hand, solves them
exactly with each card it may play, and plays the card whose round comes
out best on average. Announces every declaration, shows when its team
stands and says the belote. Without the search it plays as cautious does.]],
  choose = function(view, moves, ctx)
    local first = ctx.moves_info[1]
    if view.phase ~= "play" then
      if first and first.kind == "trump" then return ctx.name_trumps() end
      return ctx.bid(BID)
    end
    local d = ctx.declare()
    if d then return d, "declares" end
    if #moves == 1 then return 1 end
    -- (an engine whose search refuses these options loses nothing: careful play)
    local ok, r, why = pcall(ctx.search, SEARCH)
    if not ok then r, why = nil, r end
    if r and r.best then
      for i, m in ipairs(moves) do
        if m == r.best then return i, string.format("%d deals, value %.1f", r.deals or 0, r.value or 0) end
      end
    end
    local i, note = ctx.careful()
    return i, note .. " (no search: " .. tostring(why or "its move is not legal") .. ")"
  end,
}
