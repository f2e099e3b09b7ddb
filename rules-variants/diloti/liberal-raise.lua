return {
  name = "liberal-raise",
  rule = "V-liberal-raise",
  description = "A raise may join loose cards as well as the card played",
  requires = { "diloti" },
  rules = { liberal_raise = true },
}
