return {
  name = "rounds",
  rule = "K5",
  description = "Kontsina over N rounds (3): whoever wins the most rounds wins",
  requires = { "kontsina" },
  conflicts = { "points" },
  arg = { name = "N", default = 3 },
  rules = function(r, n)
    if n < 1 then return "play at least one round" end
    r.match, r.target = "rounds", n
  end,
}
