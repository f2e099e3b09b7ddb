-- require "diloti.ai": the AI players' front door, for the program and
-- for Lua code driving AIs (docs/ai.md §8). Each idea lives in its own
-- file: ai/player.lua (loading and deciding), ai/ctx.lua (what a
-- decision sees), ai/helpers.lua (the ctx helpers, also run inside each
-- AI's box), ai/cli.lua (`diloti ai`); the game loop is lua/driver.lua.
local player = require "diloti.ai.player"
local help = require "diloti.games.diloti.ai_helpers"
local cli = require "diloti.ai.cli"
local driver = require "diloti.driver"
local core = require "diloti.core"

return {
  NAME = player.NAME, defaults = player.defaults, LADDER = player.LADDER, LEVELS = player.LEVELS,
  real_name = player.real_name,
  player = player.player, catalogue = player.catalogue, load_all = player.load_all,
  refresh = player.refresh, user_dir = player.user_dir, fallback = player.fallback,
  play = driver.play, move_event = driver.move_event,
  ranks = help.ranks, value = help.value, rank = help.rank, points = core.points,
  best_capture = core.best_capture, chance = help.chance,
  rng = core.rng,
  cli_list = cli.cli_list, cli_show = cli.cli_show,
}
