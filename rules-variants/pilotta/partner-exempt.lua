return {
  name = "partner-exempt",
  game = "pilotta",
  rule = "PV-partner-exempt",
  description = "A player who cannot follow while his partner wins the trick may play any card",
  rules = { partner_exempt = true },
}
