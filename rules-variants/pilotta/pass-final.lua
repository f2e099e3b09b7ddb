return {
  name = "pass-final",
  game = "pilotta",
  rule = "PV-pass-final",
  description = "A player who has passed may not bid again in the same auction (contra stays open)",
  rules = { pass_final = true },
}
