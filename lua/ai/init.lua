-- require "diloti.ai": the AI players' front door, for the program and
-- for Lua code driving AIs (docs/ai.md §8). Each idea lives in its own
-- file: ai/player.lua (loading and deciding), ai/ctx.lua (what a
-- decision sees), ai/cli.lua (`diloti ai`); the ctx helpers (also run
-- inside each AI's box) are the default game's package's ai_helpers part;
-- the game loop is lua/driver.lua.
local player = require "diloti.ai.player"
local cli = require "diloti.ai.cli"
local driver = require "diloti.driver"
local core = require "diloti.core"
local registry = require "diloti.registry"

local M = {
  NAME = player.NAME, defaults = player.defaults,
  real_name = player.real_name,
  player = player.player, catalogue = player.catalogue, load_all = player.load_all,
  refresh = player.refresh, user_dir = player.user_dir, fallback = player.fallback,
  play = driver.play, move_event = driver.move_event,
  rng = core.rng,
  cli_list = cli.cli_list, cli_show = cli.cli_show,
}

-- (read when first asked: the registry finds the games then)
local HELPERS = { ranks = true, value = true, rank = true, chance = true }
local NATIVE = { points = true, best_capture = true }
return setmetatable(M, { __index = function(_, k)
  if k == "LADDER" or k == "LEVELS" then return player[k] end
  if HELPERS[k] then return registry.part(registry.default(), "ai_helpers")[k] end
  -- (the engine's own answers for AI authors at the host: the default
  -- game's natives, best_capture and points)
  if NATIVE[k] then return core.natives(registry.default().name)[k] end
end })
