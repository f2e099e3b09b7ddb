return {
  name = "belote-transfers",
  game = "pilotta",
  rule = "PV-belote-transfers",
  description = "The side that loses the contract (failed, or under contra) loses its belote too",
  rules = { belote_transfers = true },
}
