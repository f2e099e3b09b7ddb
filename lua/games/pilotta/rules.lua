-- Pilotta's rules for lua/diloti.lua (the package's `rules` part): the
-- base rules, their check, a new handle, and its players (P1).
local core = require "diloti.core"

local M = {}

function M.new(opts) return core.open("pilotta", opts) end
function M.check(rules) return core.check_rules("pilotta", rules) end

--- The base rules (one base: "pilotta").
function M.base() return core.base_rules("pilotta") end

--- The base a custom rules table (given as a table) starts from.
function M.custom_base() return core.base_rules("pilotta") end

--- The rules for opts.players and opts.teams (new{}), or nil and why:
-- four players in two partnerships, nothing to choose (P1).
function M.seat(rules, opts)
  if opts.players and opts.players ~= 4 then
    return nil, "P1: Pilotta is played by exactly four players in two partnerships"
  end
  if opts.teams == false then return nil, "P1: Pilotta is always played in two partnerships" end
  return rules
end

return M
