return {
  name = "decl-100-tie",
  game = "pilotta",
  rule = "PV-decl-100-tie",
  description = "A four worth 100 and a run worth 100 tie when declarations are compared",
  rules = { decl_100_tie = true },
}
