-- Diloti's and Kontsina's rules for lua/diloti.lua (the package's `rules`
-- part): the base rules, their check, a new handle, and the players a
-- game is made for (D6, D7, K1, K7, K8).
local core = require "diloti.core"

local M = {}

function M.new(opts) return core.open("diloti", opts) end
function M.check(rules) return core.check_rules("diloti", rules) end

--- Words for the command line: how many may play, and a spec to copy.
M.players_help = "2, 4 (or 3 in kontsina)"
M.example_spec = "diloti+forced-capture+target=121"

--- The base rules of a base name ("diloti", "kontsina").
function M.base(name) return core.base_rules("diloti", name) end

--- The base a custom rules table (given as a table) starts from.
function M.custom_base(spec) return core.base_rules("diloti", spec.capture == "one" and "kontsina" or "diloti") end

-- Rules for a number of players: deals follow from the deck (D6, D7, K1,
-- K7, K8), and four players of Diloti always play in partnerships (D7).
function M.set_players(rules, players, teams)
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

--- The rules for opts.players and opts.teams (new{}), or nil and why.
function M.seat(rules, opts)
  if opts.players then return M.set_players(rules, opts.players, opts.teams) end
  if opts.teams ~= nil then rules.teams = opts.teams and rules.players == 4 end
  return rules
end

return M
