return {
  name = "deal-left",
  game = "pilotta",
  rule = "PV-deal-left",
  description = "The deal passes to the dealer's left after each round",
  rules = { deal_left = true },
}
