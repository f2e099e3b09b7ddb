-- What an AI's box answers with (its prelude, built by lua/ai/player.lua
-- box_helpers): the driver that hands a call its view and ctx, over the
-- helpers of every game. Pure Lua without require: every AI's box runs
-- this text after each package's ai_box file (docs/security.md), so that
-- an AI reads its view and calls its helpers without crossing into the
-- host. Names no game: the games come as a list.
--
-- A game's helpers (the table its ai_box file returns) may hold:
--   shared(ctx, view)  the helpers every AI's ctx gets, whatever game it
--                      plays (view: the decision's, nil in a hook)
--   own(ctx, view)     the helpers of a decision of this game only
--   bind(natives)      the C functions it calls: its game's natives
--                      (core.natives(name)), the box's own copies
-- A decision is of the game its data names (data.game: the game's ai part
-- sets it), else of the default game.
local M = {}

-- What the driver calls, kept now: inside a box the script shares these
-- globals and may replace them.
local pairs, ipairs, next, setmetatable = pairs, ipairs, next, setmetatable

-- ctx fields the host sends only when a script reads them (through the
-- `more` service of the call), so that a decision that needs little
-- costs little.
local LAZY = { rules = true, moves_info = true, unseen = true }

-- The view, filled in from the host when it is first read; a plain table
-- from then on (its metatable goes once it is filled). Inside the box the
-- functions that could tell it apart from a plain table (setmetatable,
-- getmetatable, next) fill it first, so a script sees its own full copy
-- whatever it does first.
local unfilled = setmetatable({}, { __mode = "k" }) -- view -> the call's host service
local set_metatable = setmetatable -- (before guard_globals wraps it)

local function fill(view)
  local host = unfilled[view]
  if not host then return end
  unfilled[view] = nil
  set_metatable(view, nil)
  for k, v in pairs(host("more", "view")) do view[k] = v end
end

local VIEW = {
  __index = function(t, k) fill(t) return t[k] end,
  __newindex = function(t, k, v) fill(t) t[k] = v end,
  __pairs = function(t) fill(t) return next, t, nil end,
  __len = function(t) fill(t) return #t end,
}

local function guard_globals()
  -- (only what the box allows: getmetatable is not among it)
  for _, name in ipairs{ "setmetatable", "getmetatable", "next" } do
    local f = _ENV[name]
    if f then _ENV[name] = function(t, ...) fill(t) return f(t, ...) end end
  end
end

-- A ctx's lazy fields come from the host of its call.
local hosts = setmetatable({}, { __mode = "k" })
local CTX = {
  __index = function(t, k)
    local host = LAZY[k] and hosts[t]
    if not host then return nil end
    local v = host("more", k)
    t[k] = v -- (no __newindex: a plain set)
    return v
  end,
  __pairs = function(t)
    for k in pairs(LAZY) do local _ = t[k] end
    return next, t, nil
  end,
}

--- new(games, default) -> the box's answer: decide, notify, bind.
-- games: a list of {name =, helpers =} (the registry's order); default:
-- the default game's name.
function M.new(games, default)
  local by_name, shared = {}, {}
  for _, g in ipairs(games) do
    by_name[g.name] = g.helpers
    if g.helpers.shared then shared[#shared + 1] = g.helpers.shared end
  end

  -- ctx from the plain data the host sent, with the helpers bound to the
  -- rules in force and (for choose) to the view.
  local function ctx_of(data, view)
    local host = data.host
    data.host = nil
    for i = 1, #shared do shared[i](data, view) end
    if view then
      local game = by_name[data.game] or by_name[default]
      if game and game.own then game.own(data, view) end
      data.simulate = function(move) return host("simulate", move) end
      data.search = function(opts) return host("search", opts) end
    end
    hosts[data] = host
    return set_metatable(data, CTX)
  end

  local B = {}

  --- decide(choose, data, moves): the script's choose with its view and
  -- ctx.
  function B.decide(choose, data, moves)
    local view = set_metatable({}, VIEW)
    unfilled[view] = data.host
    return choose(view, moves, ctx_of(data, view))
  end

  --- notify(hook, data, arg): on_event or on_round_end with its ctx. What
  -- the hook returns means nothing and is not sent back.
  function B.notify(hook, data, arg)
    hook(arg, ctx_of(data))
  end

  --- bind{name = natives}: each game's helpers get their own game's.
  function B.bind(natives)
    for name, t in pairs(natives) do
      local h = by_name[name]
      if h and h.bind then h.bind(t) end
    end
  end

  return B
end

-- Inside a box (where there is no require) the helpers run before the
-- script: the globals that could tell an unfilled view from a plain table
-- are wrapped before the script can keep the originals.
if require == nil then guard_globals() end

return M
