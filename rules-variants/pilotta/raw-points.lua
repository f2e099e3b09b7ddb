return {
  name = "raw-points",
  game = "pilotta",
  rule = "PV-raw-points",
  description = "No division by ten: the sheet keeps raw points and the target is ten times as high",
  rules = { rounding = "raw" },
  conflicts = { "round-7", "round-5" },
}
