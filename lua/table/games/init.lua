-- The games the table can seat, by name: each a module of the few parts
-- that differ from game to game (drawing, the move reader's short forms,
-- the rules' own sentences, the default AI). The session, the commands,
-- the driver, records and the loop are the same for all of them.
local M = {}

local MODULES = { diloti = "diloti.table.games.diloti", pilotta = "diloti.table.games.pilotta" }

-- Base rules that belong to a game of another name (kontsina is Diloti's).
local BASE = { kontsina = "diloti" }

--- The game's names, sorted.
function M.names()
  local out = {}
  for k in pairs(MODULES) do out[#out + 1] = k end
  table.sort(out)
  return out
end

--- The game a rules spec ("pilotta+partner-exempt") or an explicit game
-- name asks for: the name, or nil and a message for an unknown game.
function M.name_of(game, rules)
  local base = type(rules) == "string" and rules:match("^%s*([%w_]+)") or nil
  base = base and base:lower()
  local of_rules = base and (MODULES[base] and base or BASE[base])
  if game == nil then return of_rules or "diloti" end
  local g = tostring(game):lower()
  if not MODULES[g] then
    return nil, string.format("no game '%s': the table plays %s", tostring(game), table.concat(M.names(), ", "))
  end
  if of_rules and of_rules ~= g then
    return nil, string.format("the rules '%s' are %s's, not %s's", rules, of_rules, g)
  end
  return g
end

--- The table's module for a game name (required when first asked).
function M.get(name)
  return require(MODULES[name] or MODULES.diloti)
end

return M
