-- House rules written on the fly for the moves-hook attack specs
-- (attack29, attack29c): rules.new(tmp, ex) gives rule, game, plain and
-- three over the folder tmp, positions defaulting to ex. "pass" and
-- "pass1" (with and without the state) are written at once.
local diloti = require "diloti"
local support = require "support"

local M = {}

function M.new(tmp, ex)
  local R = {}
  -- A house rule `name` whose moves hook is `hook`, after `top` (its own
  -- main chunk's text), for `game`; more hooks in `more`. Returns its spec.
  function R.rule(name, hook, top, game, more)
    local stem = (game == "pilotta" and "pilotta-" or "") .. name
    support.write(tmp .. "/" .. stem .. ".lua", string.format(
      "%s\nreturn { name = %q, description = 'x', %s hooks = { %s %s } }", top or "", stem,
      game == "pilotta" and "game = 'pilotta'," or "", hook and ("moves = " .. hook .. ",") or "", more or ""))
    return (game or "diloti") .. "+" .. name
  end
  function R.game(spec, pos)
    return assert(diloti.new{ rules = spec, rules_dirs = { tmp }, position = pos or ex })
  end
  function R.plain(pos) return assert(diloti.new{ position = pos or ex }):moves() end
  -- The answer alone, first in a chain and last in one.
  function R.three(name)
    return { "diloti+" .. name, "diloti+" .. name .. "+pass", "diloti+pass+" .. name }
  end
  R.rule("pass", "function(moves, state) return moves end")
  R.rule("pass1", "function(moves) return moves end")
  return R
end

return M
