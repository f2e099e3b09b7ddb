-- The diloti module as Lua sees it: the C core (game handles, rules
-- tables, the boxes untrusted scripts run in) plus rules variants resolved by name.
--
--   local diloti = require "diloti"
--   local g = assert(diloti.new{rules = "diloti+forced-capture", seed = 7})
--   for _, m in ipairs(g:moves()) do print(m) end
--   local ok, why = g:play("7h lay")   -- nil, "D19: ..." when refused
--   local p = assert(diloti.new{game = "pilotta", seed = 7})   -- or rules = "pilotta+..."
--
-- This is the one place that knows there are two games: a rules spec's
-- base (or opts.game) picks the game, and each game has its own handle
-- with the same methods (docs/architecture.md, "The game interface").
local core = ...
package.loaded["diloti.core"] = core

local variants = require "diloti.scripts.variants"

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

-- Rules for a number of players: deals follow from the deck (D6, D7, K1,
-- K7, K8), and four players of Diloti always play in partnerships (D7).
local function set_players(rules, players, teams)
  -- (a count so large that players * hand_size wraps round is no count)
  local n = math.tointeger(players)
  if not n or n < 1 or n > 52 then
    return nil, string.format("%s players: try 2 or 4 players (or 3 in kontsina)", tostring(players))
  end
  players = n
  local per = players * rules.hand_size
  local rest = 52 - rules.table_cards
  if rest % per ~= 0 then
    return nil, string.format("%d players cannot share 52 cards in deals of %d (D6/K1): "
      .. "try 2 or 4 players (or 3 in kontsina)", players, rules.hand_size)
  end
  rules.players, rules.deals = players, rest // per
  if teams == nil then teams = players == 4 and rules.declarations end
  rules.teams = teams and players == 4 or false
  return rules
end

-- The games, each with its base rules, its check and its constructor.
local GAMES = {
  diloti = { new = core.new, check = core.check_rules },
  pilotta = { new = core.pilotta_new, check = core.pilotta_check_rules },
}

--- The games this program plays, and the base games of each (the names
-- a rules spec may start with).
function M.games()
  return {
    { name = "diloti", bases = { "diloti", "kontsina" } },
    { name = "pilotta", bases = { "pilotta" } },
  }
end

--- The game a rules table is for ("diloti" or "pilotta").
function M.game_of(rules)
  return type(rules) == "table" and rules.game == "pilotta" and "pilotta" or "diloti"
end

--- Resolves a rules spec ("diloti+soy+target=121", "pilotta+partner-exempt")
-- or a rules table into {rules = table, hooks = table, names = list, game}.
-- Returns nil, message on an unknown name or a conflict. opts.game picks
-- the base when the spec names none.
function M.rules(spec, opts)
  opts = opts or {}
  if opts.game ~= nil and not GAMES[opts.game] then
    return nil, string.format("unknown game '%s'; games: diloti, pilotta", tostring(opts.game))
  end
  if type(spec) == "table" then
    local game = (spec.game == "pilotta" or opts.game == "pilotta") and "pilotta" or "diloti"
    local base = game == "pilotta" and core.pilotta_rules()
      or core.rules(spec.capture == "one" and "kontsina" or "diloti")
    for k, v in pairs(spec) do base[k] = v end
    return { rules = base, hooks = opts.hooks or {}, names = { "custom" }, game = game }
  end
  return variants.resolve(spec or opts.game or "diloti", opts)
end

--- A new game. opts: rules (spec string or table), players, teams, seed,
-- dealer, target, position (a position string), rules_dirs (more variant
-- folders), hooks (with a rules table).
function M.new(opts)
  opts = opts or {}
  if opts.hooks ~= nil and type(opts.rules) ~= "table" then
    -- (a spec's house rules bring their own hooks: these would be lost)
    return nil, "hooks come with a rules table (rules = {...}); a rules spec's house rules bring their own"
  end
  local r, err = M.rules(opts.rules, opts)
  if not r then return nil, err end
  local rules = copy(r.rules)
  local game = M.game_of(rules)
  if opts.game and opts.game ~= game then
    return nil, string.format("rules '%s' are for %s, not %s", r.spec or "custom", game, opts.game)
  end
  if game == "pilotta" then
    -- P1: four players in two partnerships, nothing to choose
    if opts.players and opts.players ~= 4 then
      return nil, "P1: Pilotta is played by exactly four players in two partnerships"
    end
    if opts.teams == false then return nil, "P1: Pilotta is always played in two partnerships" end
  elseif opts.players then
    local ok, perr = set_players(rules, opts.players, opts.teams)
    if not ok then return nil, perr end
  elseif opts.teams ~= nil then
    rules.teams = opts.teams and rules.players == 4
  end
  if opts.target then rules.target = opts.target end
  -- (the checks raise on a field the game does not know: a rules table of
  -- one game with the other's fields is an answer, not an error)
  local fine, ok, cerr = pcall(GAMES[game].check, rules)
  if not fine then return nil, "rules: " .. tostring(ok):gsub("^[^\n]-:%d+: ", "") end
  if not ok then return nil, "rules: " .. cerr end
  return GAMES[game].new{
    rules = rules, seed = opts.seed, dealer = opts.dealer,
    position = opts.position, hooks = r.hooks,
  }
end

M.set_players = set_players

return M
