-- Pilotta in records and matches (the package's `record` part): a
-- finished round's line, and what a match counts beside the points.
local M = {}

--- A finished round: "round 3 over: 33 - 2 (contract made)" in game
-- points, team 0 first; a thrown-in round says so.
function M.round_line(round, b)
  if b.thrown_in then return string.format("round %d over: thrown in (all passed)", round) end
  local line = string.format("round %d over: %d - %d (contract %s)", round, math.tointeger(b[0].game) or 0,
    math.tointeger(b[1].game) or 0, b.made and "made" or "failed")
  if type(b.label) == "string" then line = line .. " (" .. b.label .. ")" end
  return line
end

--- What a match's report calls the points.
M.points_word = "game points"

--- The match always seats four (P1), in two partnerships swapped in the
-- second game of a pair.
M.players = 4
function M.players_refusal(n) return "--players: Pilotta is for four players (P1), not " .. n end

-- Adds one finished round (result().round: the bidders' team, made,
-- thrown_in, each team's tricks) to a game's record.
local function count_contract(rec, group, round)
  if round.thrown_in or round.bidders == nil then
    rec.thrown = rec.thrown + 1
    return
  end
  local side = group[round.bidders]
  local key = side .. (round.made and "_made" or "_failed")
  rec[key] = rec[key] + 1
  for team = 0, 1 do
    if round[team].tricks == 8 then
      local by = group[team] .. "_capots"
      rec[by] = rec[by] + 1
    end
  end
end

--- The contracts (P42) and sweeps (P32), counted per side of the match:
-- made and failed by the side that held the contract, capots by the side
-- that won all eight tricks; a round thrown in (P19) apart. `name`: the
-- summary's field; `sides`: counts per side (a_KEY, b_KEY); `shared`: one
-- count for both; `csv`: the columns they add.
M.counts = {
  name = "contracts",
  sides = { "made", "failed", "capots" },
  shared = { "thrown" },
  add = count_contract,
  csv = { "a_made", "a_failed", "a_capots", "b_made", "b_failed", "b_capots", "thrown" },
}

--- The report's lines of the counts (add: the report's line writer).
function M.counts.report(add, c, A, B)
  add("contracts: %s made %d, failed %d; %s made %d, failed %d; %d thrown in", A, c.a_made, c.a_failed, B,
    c.b_made, c.b_failed, c.thrown)
  add("capots: %d by %s, %d by %s", c.a_capots, A, c.b_capots, B)
end

return M
