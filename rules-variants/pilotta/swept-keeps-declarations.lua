return {
  name = "swept-keeps-declarations",
  game = "pilotta",
  rule = "PV-swept-keeps-declarations",
  description = "Defenders who win no trick against a made contract keep their declarations",
  rules = { swept_keeps_declarations = true },
}
