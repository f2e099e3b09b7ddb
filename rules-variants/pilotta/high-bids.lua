return {
  name = "high-bids",
  game = "pilotta",
  rule = "PV-high-bids",
  description = "Numeric bids go on past 160 up to 240, still below capot",
  rules = { high_bids = true },
}
