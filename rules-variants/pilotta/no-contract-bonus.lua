return {
  name = "no-contract-bonus",
  game = "pilotta",
  rule = "PV-no-contract-bonus",
  description = "The contract's value is never added to a score (contra scoring unchanged)",
  rules = { no_contract_bonus = true },
}
