return {
  name = "points",
  rule = "K5",
  description = "Kontsina to N points (21) instead of a number of rounds won; ties play on",
  requires = { "kontsina" },
  arg = { name = "N", default = 21 },
  rules = function(r, n)
    if n < 1 then return "the target must be at least 1" end
    r.match, r.target = "points", n
  end,
}
