return {
  name = "liberal-capture",
  rule = "V-liberal-capture",
  description = "A plain declaration counts as a single card of its value in a capture",
  requires = { "diloti" },
  rules = { liberal_capture = true },
}
