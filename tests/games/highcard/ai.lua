-- Highcard's AI part: the fallback move (what the host plays when an AI
-- fails) and two built-in players, "random" and "low" (always its lowest
-- card), enough for matches and the table. No scripts, no boxes.
local M = { levels = { "random", "low" }, default = "random" }

--- The move to play when an AI fails: the lowest card (the first move).
function M.fallback(infos)
  local m = infos and infos[1]
  return type(m) == "table" and m.text or m
end

local Player = {}
Player.__index = Player

function Player:choose(game, seat)
  assert(game:turn() == seat, "not this seat's turn")
  local moves = game:moves()
  if self.name == "low" then return moves[1], {} end
  self.rng = (self.rng * 48271) % 2147483647
  return moves[self.rng % #moves + 1], {}
end

--- A player by name, or nil and why. opts.seed makes a run repeatable.
function M.player(name, opts)
  if name ~= "random" and name ~= "low" then
    return nil, string.format("no highcard AI named '%s' (random, low)", tostring(name))
  end
  local seed = math.tointeger(opts and opts.seed) or 1
  return setmetatable({ name = name, rng = seed % 2147483646 + 1 }, Player)
end

return M
