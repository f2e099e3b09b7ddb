-- The games the table can seat, by name: each package's `table` part
-- (lua/registry.lua), the few things that differ from game to game
-- (drawing, the move reader's short forms, the rules' own sentences, the
-- default AI). The session, the commands, the driver, records and the
-- loop are the same for all of them.
local registry = require "diloti.registry"

local M = {}

--- The game's names, sorted.
function M.names()
  local out = registry.names()
  table.sort(out)
  return out
end

--- The game a rules spec ("NAME+house-rule") or an explicit game name
-- asks for: the name, or nil and a message for an unknown game.
function M.name_of(game, rules)
  local base = type(rules) == "string" and rules:match("^%s*([%w_]+)") or nil
  local owner = base and registry.of_base(base)
  local of_rules = owner and owner.name
  if game == nil then return of_rules or registry.default().name end
  local g = tostring(game):lower()
  if not registry.get(g) then
    return nil, string.format("no game '%s': the table plays %s%s", tostring(game), table.concat(M.names(), ", "),
      registry.base_hint(g))
  end
  if of_rules and of_rules ~= g then
    return nil, string.format("the rules '%s' are %s's, not %s's", rules, of_rules, g)
  end
  return g
end

--- The default game's name (a table with nothing asked plays it).
function M.default_name()
  return registry.default().name
end

--- The table's module for a game name (required when first asked).
function M.get(name)
  return registry.part(registry.get(name) or registry.default(), "table")
end

--- An engine's sentence in a game's words (the table part's words(): the
-- board's suit symbols, "you" for seat `you`); as it is for a game whose
-- table part has none.
function M.words(gm, st, text, names, you)
  if not (gm and gm.words) then return tostring(text) end
  return gm.words(st, tostring(text), names, you)
end

return M
