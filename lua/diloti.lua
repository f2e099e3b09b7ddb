-- The diloti module as Lua sees it: the C core (game handles, rules
-- tables, the boxes untrusted scripts run in) plus rules variants resolved by name.
--
--   local diloti = require "diloti"
--   local g = assert(diloti.new{rules = "diloti+forced-capture", seed = 7})
--   for _, m in ipairs(g:moves()) do print(m) end
--   local ok, why = g:play("7h lay")   -- nil, "D19: ..." when refused
--   local p = assert(diloti.new{game = NAME, seed = 7})   -- another game (diloti.games())
--
-- A rules spec's base (or opts.game) picks the game, a package of the
-- registry (lua/registry.lua), and each game has its own handle with the
-- same methods (docs/architecture.md, "The game interface").
local core = ...
package.loaded["diloti.core"] = core

local variants = require "diloti.scripts.variants"
local registry = require "diloti.registry"

local M = {
  version = core.version,
  card = core.card,
  box = core.box,
  variants = variants,
}

local function copy(t)
  local c = {}
  for k, v in pairs(t) do c[k] = type(v) == "table" and copy(v) or v end
  return c
end

-- A game's package's rules part (lua/games/NAME/rules.lua).
local function rules_part(pkg) return registry.part(pkg, "rules") end

--- The games this program plays, and the base games of each (the names
-- a rules spec may start with).
function M.games()
  local out = {}
  for i, pkg in ipairs(registry.list()) do out[i] = { name = pkg.name, bases = { table.unpack(pkg.bases) } } end
  return out
end

--- The games in words for a command line's help: "A (the default) or B".
function M.game_choices()
  local parts = {}
  for i, pkg in ipairs(registry.list()) do parts[i] = pkg.name .. (pkg.default and " (the default)" or "") end
  local last = table.remove(parts)
  return #parts > 0 and (table.concat(parts, ", ") .. " or " .. last) or last
end

--- The game a rules table is for (its package's name).
function M.game_of(rules)
  return registry.of_rules(rules).name
end

--- Resolves a rules spec ("BASE+house-rule+target=121")
-- or a rules table into {rules = table, hooks = table, names = list, game}.
-- Returns nil, message on an unknown name or a conflict. opts.game picks
-- the base when the spec names none.
function M.rules(spec, opts)
  opts = opts or {}
  local want = opts.game ~= nil and registry.get(opts.game)
  if opts.game ~= nil and (not want or want.name ~= opts.game) then
    return nil, string.format("unknown game '%s'; games: %s", tostring(opts.game), table.concat(registry.names(), ", "))
  end
  if type(spec) == "table" then
    local pkg = spec.game ~= nil and registry.get(spec.game)
    -- (a rules table of a game this program does not play is the default game's, as before)
    pkg = (pkg and pkg ~= registry.default() and pkg) or want or registry.default()
    local base = rules_part(pkg).custom_base(spec)
    for k, v in pairs(spec) do base[k] = v end
    return { rules = base, hooks = opts.hooks or {}, names = { "custom" }, game = pkg.name }
  end
  return variants.resolve(spec or opts.game or registry.default().name, opts)
end

--- A new game. opts: rules (spec string or table), players, teams, seed,
-- dealer, target, position (a position string), rules_dirs (more variant
-- folders), hooks (with a rules table), pool (the core.box.pool its house
-- rules' boxes count in: a room's; the host's when absent).
function M.new(opts)
  opts = opts or {}
  if opts.hooks ~= nil and type(opts.rules) ~= "table" then
    -- (a spec's house rules bring their own hooks: these would be lost)
    return nil, "hooks come with a rules table (rules = {...}); a rules spec's house rules bring their own"
  end
  local r, err = M.rules(opts.rules, opts)
  if not r then return nil, err end
  -- (a count of players given twice must agree: the option used to win
  -- in silence over the house rule the room or the record names)
  if opts.players ~= nil and opts.players ~= r.rules.players then
    for _, name in ipairs(r.names or {}) do
      if name == "players" then
        return nil, string.format("players: %s, but the house rules say players=%s", tostring(opts.players),
          tostring(r.rules.players))
      end
    end
  end
  local rules = copy(r.rules)
  local pkg = registry.of_rules(rules)
  local game = pkg.name
  if opts.game and opts.game ~= game then
    return nil, string.format("rules '%s' are for %s, not %s", r.spec or "custom", game, opts.game)
  end
  local part = rules_part(pkg)
  -- (a rules part may answer the rules changed in place or a new table)
  local seated, perr = part.seat(rules, opts)
  if not seated then return nil, perr end
  rules = seated
  if opts.target then rules.target = opts.target end
  -- (the checks raise on a field the game does not know: a rules table of
  -- one game with the other's fields is an answer, not an error)
  local fine, cok, cerr = pcall(part.check, rules)
  if not fine then return nil, "rules: " .. tostring(cok):gsub("^[^\n]-:%d+: ", "") end
  if not cok then return nil, "rules: " .. cerr end
  return part.new{
    rules = rules, seed = opts.seed, dealer = opts.dealer,
    position = opts.position, hooks = r.hooks,
  }
end

--- Rules for a number of players (the default game's: D6, D7, K1, K7, K8).
function M.set_players(...) return rules_part(registry.default()).set_players(...) end

return M
