return {
  name = "decl-overlap",
  game = "pilotta",
  rule = "PV-decl-overlap",
  description = "A card may count in a four and in a run at the same time",
  rules = { decl_overlap = true },
}
