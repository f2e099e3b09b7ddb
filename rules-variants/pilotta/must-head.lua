return {
  name = "must-head",
  game = "pilotta",
  rule = "PV-must-head",
  description = "Following a plain suit nobody has trumped, you must beat its best card if you can",
  rules = { must_head = true },
}
