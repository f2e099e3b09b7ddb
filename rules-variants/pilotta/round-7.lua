return {
  name = "round-7",
  game = "pilotta",
  rule = "PV-round-7",
  description = "Game points: a remainder of 7 to 9 rounds up, 0 to 6 down",
  rules = { rounding = "7" },
  conflicts = { "round-5", "raw-points" },
}
