return {
  name = "target",
  rule = "V-target",
  description = "Play the match to N points instead of 61 (121 is the usual long game)",
  arg = { name = "N", default = 121 },
  rules = function(r, n)
    if n < 1 then return "the target must be at least 1" end
    if r.match ~= "points" then r.match = "points" end
    r.target = n
  end,
}
