-- The rules of the second Diloti text (seed 001): play passes to the
-- dealer's left, and any triple on the table is dealt again.
return {
  name = "seed001",
  rule = "V-seed001",
  description = "Seed 001's rules: play to the dealer's left, redeal any triple on the table",
  requires = { "diloti" },
  conflicts = { "redeal-any-triple" },
  rules = { clockwise = true, redeal = "any-triple" },
}
