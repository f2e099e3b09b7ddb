return {
  name = "redeal-any-triple",
  rule = "V-redeal-any-triple",
  description = "Redeal the table when 3 or 4 of its cards share any rank, not only face cards",
  requires = { "diloti" },
  rules = { redeal = "any-triple" },
}
