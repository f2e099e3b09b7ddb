return {
  name = "fail-keeps-declarations",
  game = "pilotta",
  rule = "PV-fail-keeps-declarations",
  description = "A failed contract (no contra) keeps the bidders' own declarations",
  rules = { fail_keeps_declarations = true },
}
