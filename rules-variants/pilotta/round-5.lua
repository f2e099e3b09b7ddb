return {
  name = "round-5",
  game = "pilotta",
  rule = "PV-round-5",
  description = "Game points: a remainder of 5 to 9 rounds up (more trick points first when both would)",
  rules = { rounding = "5" },
  conflicts = { "round-7", "raw-points" },
}
