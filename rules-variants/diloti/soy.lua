return {
  name = "soy",
  rule = "V-soy",
  description = "A group of exactly two equal cards (a soy) can never be added to or merged",
  requires = { "diloti" },
  rules = { soy = true },
}
