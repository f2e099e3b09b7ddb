return {
  name = "dealer-peeks",
  rule = "V-dealer-peeks",
  description = "The dealer sees the bottom card of the pack, the one they get in the last deal",
  rules = { dealer_peeks = true },
}
