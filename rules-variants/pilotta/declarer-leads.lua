return {
  name = "declarer-leads",
  game = "pilotta",
  rule = "PV-declarer-leads",
  description = "The contract holder leads to the first trick",
  rules = { declarer_leads = true },
}
