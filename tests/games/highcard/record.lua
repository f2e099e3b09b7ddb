-- Highcard's record part: the comment line under a finished round.
local M = {}

--- "round 2 over: 2 - 1 (tricks)".
function M.round_line(round, b)
  return string.format("round %d over: %d - %d (tricks)", round, b[0].total, b[1].total)
end

--- Statistics fields a match counts per side besides points and rounds.
M.stats_fields = {}

return M
