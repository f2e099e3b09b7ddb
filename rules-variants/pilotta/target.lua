return {
  name = "target",
  game = "pilotta",
  rule = "PV-target",
  description = "Play the match to N game points instead of 351 (151, 251, 301, 400, 401 are usual)",
  arg = { name = "N", default = 151 },
  rules = function(r, n)
    if n < 1 or n > 10000 then return "the target must be between 1 and 10000 game points" end
    r.target = n
  end,
}
