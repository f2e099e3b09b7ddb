return {
  name = "double-all",
  game = "pilotta",
  rule = "PV-double-all",
  description = "Under contra the winning side's whole score is multiplied, not only the contract",
  rules = { double_all = true },
}
