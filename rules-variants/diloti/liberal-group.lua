return {
  name = "liberal-group",
  rule = "V-liberal-group",
  description = "A plain declaration may stand as a single card inside a group's component",
  requires = { "diloti" },
  rules = { liberal_group = true },
}
