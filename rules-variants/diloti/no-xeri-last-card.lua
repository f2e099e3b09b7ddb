return {
  name = "no-xeri-last-card",
  rule = "V-no-xeri-last-card",
  description = "The very last card of the round never scores a xeri",
  requires = { "diloti" },
  rules = { xeri_last_card = false },
}
