return {
  name = "xeri-first-card",
  rule = "V-xeri-first-card",
  description = "The first card of the round can score a xeri too",
  requires = { "diloti" },
  rules = { xeri_first_card = true },
}
