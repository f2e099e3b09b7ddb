return {
  name = "suit-after-auction",
  game = "pilotta",
  rule = "PV-suit-after-auction",
  description = "Bids are numbers only; the contract holder names trumps when the auction ends",
  rules = { suit_after_auction = true },
}
