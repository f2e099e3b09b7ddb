-- Diloti and Kontsina in records and matches (the package's `record`
-- part): a finished round's line, and what a match's report calls the
-- points.
local M = {}

-- The points of a breakdown that its items do not explain: what house
-- rules added (their name is breakdown.label).
local ITEMS = { "pts_cards", "pts_clubs", "pts_aces", "pts_ten_diamonds", "pts_two_clubs", "pts_xeri" }

--- A finished round in one line, for people reading a record: "round 2
-- over: 14 - 9 (Last capture +1 for side 0)" (points per side from
-- side 0; then what house rules added, by the name they gave it).
function M.round_line(round, b)
  local totals, extra = {}, {}
  local side = 0
  while type(b[side]) == "table" do
    local t = b[side]
    totals[#totals + 1] = tostring(math.tointeger(t.total) or 0)
    local other = math.tointeger(t.total) or 0
    for _, k in ipairs(ITEMS) do other = other - (math.tointeger(t[k]) or 0) end
    if other ~= 0 then extra[#extra + 1] = string.format("%+d for side %d", other, side) end
    side = side + 1
  end
  local line = string.format("round %d over: %s", round, table.concat(totals, " - "))
  if #extra > 0 then
    local name = type(b.label) == "string" and b.label or "Other"
    line = line .. string.format(" (%s %s)", name, table.concat(extra, ", "))
  end
  return line
end

--- What a match's report calls the points.
M.points_word = "points"

return M
