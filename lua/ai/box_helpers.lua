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
local pairs, ipairs, next, setmetatable, rawget = pairs, ipairs, next, setmetatable, rawget
local type, error, tostring = type, error, tostring

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

-- A ctx's lazy fields: the host's (sent when first read, through the
-- `more` service of its call) and the helpers (all made when any of them
-- is first read: a decision that reads none, as a tournament's random or
-- table-driven AI, makes none of their closures).
local calls = setmetatable({}, { __mode = "k" }) -- ctx -> {host =, view =, made =}
local HELPER = {}  -- the names a helper may take (new() fills it)
local make_helpers -- (new() sets it)

-- The helpers of the call, made as they were before a call began: a
-- field the script set itself under a helper's name stays the script's.
local function materialize(t)
  local call = calls[t]
  if not call or call.made then return end
  call.made = true
  local own = {}
  for k in next, HELPER do own[k] = rawget(t, k) end
  make_helpers(t, call.view, call.host)
  for k, v in next, own do t[k] = v end -- (CTX has no __newindex: a plain set)
end

local CTX = {
  __index = function(t, k)
    if HELPER[k] then
      materialize(t)
      return rawget(t, k)
    end
    local call = LAZY[k] and calls[t]
    if not call or not call.host then return nil end -- (a hook's ctx has no host)
    local v = call.host("more", k)
    t[k] = v
    return v
  end,
  __pairs = function(t)
    materialize(t)
    for k in pairs(LAZY) do local _ = t[k] end
    return next, t, nil
  end,
}

local function guard_globals()
  -- (only what the box allows: getmetatable is not among it)
  for _, name in ipairs{ "setmetatable", "getmetatable", "next", "rawget" } do
    local f = _ENV[name]
    if f then
      _ENV[name] = function(t, ...)
        fill(t)
        materialize(t)
        return f(t, ...)
      end
    end
  end
end

--- new(games, default) -> the box's answer: decide, notify, bind.
-- games: a list of {name =, helpers =} (the registry's order); default:
-- the default game's name.
function M.new(games, default)
  local by_name, shared = {}, {}
  for _, g in ipairs(games) do
    by_name[g.name] = g.helpers
    if g.helpers.shared then shared[#shared + 1] = g.helpers.shared end
  end

  -- The helpers in a ctx, bound to the rules in force and (for choose)
  -- to the view.
  make_helpers = function(ctx, view, host)
    for i = 1, #shared do shared[i](ctx, view) end
    if view then
      local game = by_name[ctx.game] or by_name[default]
      if game and game.own then game.own(ctx, view) end
      ctx.simulate = function(move) return host("simulate", move) end
      ctx.search = function(opts) return host("search", opts) end
    end
  end

  -- Every name a helper may take, from a trial of every game's.
  local trial = {}
  for i = 1, #shared do shared[i](trial, {}) end
  for _, g in ipairs(games) do if g.helpers.own then g.helpers.own(trial, {}) end end
  for k in next, trial do HELPER[k] = true end
  HELPER.simulate, HELPER.search = true, true

  -- ctx from plain data and the call's host service; the helpers and
  -- the host's fields come when first read.
  local function ctx_of(data, view, host)
    calls[data] = { host = host, view = view }
    return set_metatable(data, CTX)
  end

  local B = {}
  local box_services = {} -- (bind's second argument)

  -- The static fields of each seat's decisions, as the host last sent
  -- them (key -> {fields =, rest =}): a decision's ctx is made from them
  -- here, rather than sent whole each time. rest: the fields the
  -- constructor of fresh() does not name; deep: some field is a table.
  local kept = {}
  local USUAL = { seat = true, players = true, teams = true, sides = true, side = true, partner = true,
    game = true }
  local function keep(key, fields)
    local rest, deep = {}, false
    for k, v in next, fields do
      if not USUAL[k] then rest[#rest + 1] = k end
      if type(v) == "table" then deep = true end
    end
    kept[key] = { fields = fields, rest = rest, deep = deep }
  end

  local function copy(t)
    local out = {}
    for k, v in next, t do
      if type(v) == "table" then v = copy(v) end
      out[k] = v
    end
    return out
  end

  --- decide(choose, key, moves, host, fields): the script's choose with
  -- its view and ctx. key names the seat's static fields the box keeps;
  -- fields, when given, are the new ones (the host sends them when they
  -- change, or to a box that has not had them). host: the call's service.
  -- (every instruction here runs under the box's count hook: the ctx is
  -- made in place, not by helper functions)
  function B.decide(choose, key, moves, host, fields)
    if fields ~= nil then keep(key, fields) end
    local s = kept[key]
    if not s then error("ctx: no static fields kept for " .. tostring(key), 0) end
    -- The ctx: a table of its own (what a script writes into it stays in
    -- that decision), made its size at once by one constructor.
    local f, ctx = s.fields
    if s.deep then
      ctx = copy(f)
      ctx.rng, ctx.time_left = box_services.rng, box_services.time_left
    else
      ctx = { seat = f.seat, players = f.players, teams = f.teams, sides = f.sides, side = f.side,
        partner = f.partner, game = f.game, rng = box_services.rng, time_left = box_services.time_left }
      local rest = s.rest
      for i = 1, #rest do
        local k = rest[i]
        ctx[k] = f[k]
      end
    end
    local view = set_metatable({}, VIEW)
    unfilled[view] = host
    calls[ctx] = { host = host, view = view }
    return choose(view, moves, set_metatable(ctx, CTX))
  end

  --- notify(hook, data, arg): on_event or on_round_end with its ctx. What
  -- the hook returns means nothing and is not sent back.
  function B.notify(hook, data, arg)
    local host = data.host
    data.host = nil
    hook(arg, ctx_of(data, nil, host))
  end

  --- bind({name = natives}, services): each game's helpers get their
  -- own game's natives; every decision's ctx the box's services (rng,
  -- time_left).
  function B.bind(natives, services)
    for name, t in pairs(natives) do
      local h = by_name[name]
      if h and h.bind then h.bind(t) end
    end
    if services then box_services = services end
  end

  return B
end

-- Inside a box (where there is no require) the helpers run before the
-- script: the globals that could tell an unfilled view from a plain table
-- are wrapped before the script can keep the originals.
if require == nil then guard_globals() end

return M
