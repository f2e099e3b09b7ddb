return {
  name = "teams",
  rule = "K8",
  description = "Four players in two partnerships of opposite seats, pooling their captures",
  rules = function(r)
    if r.players ~= 4 then return "teams needs four players (players=4 first)" end
    r.teams = true
  end,
}
