return {
  name = "players",
  rule = "K7",
  description = "Play with N players: 2 or 4 for Diloti (4 in partnerships), 2, 3 or 4 for Kontsina",
  arg = { name = "N", default = 4 },
  rules = function(r, n)
    local per, rest = n * r.hand_size, 52 - r.table_cards
    if n < 2 or n > 4 or rest % per ~= 0 then
      return string.format("%d players cannot share the deck in deals of %d", n, r.hand_size)
    end
    r.players, r.deals = n, rest // per
    -- Diloti's four players always play in fixed partnerships (D7).
    r.teams = n == 4 and r.declarations
  end,
}
