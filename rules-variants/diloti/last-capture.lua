-- A house rule written as a hook, not a parameter: no field of the rules
-- says "the last capture scores", so the score hook adds the point.
return {
  name = "last-capture",
  description = "The side that makes the last capture of a round scores 1 extra point",
  hooks = {
    score = function(score, state)
      local seat = state.last_capturer
      if seat then
        local side = state.teams and seat % 2 or seat
        score[side].total = score[side].total + 1
        score.label = "Last capture" -- the name of this point in the round's breakdown
      end
      return score
    end,
  },
}
