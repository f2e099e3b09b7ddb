-- What an AI's choose() and hooks get as ctx: plain data about the seat
-- and the rules, and the two host services a decision may call
-- (simulate, search). What differs from game to game (the static fields,
-- what simulate answers, the search's options) is the `ai` part of the
-- game's package (lua/registry.lua); the helpers of the games' ai_helpers
-- files are added inside the AI's own box. See docs/ai.md §3.3.
local core = require "diloti.core"
local registry = require "diloti.registry"

local M = {}

--- An integer option of ctx.search, at least lo when lo is given; nil when
-- absent. The error points at the AI's ctx.search call.
function M.whole_option(o, k, lo, what)
  local v = rawget(o, k)
  if v == nil then return nil end
  v = math.tointeger(v)
  if not v or (lo and v < lo) then error("ctx.search: " .. k .. " must be " .. what, 0) end
  return v
end

-- What a game's ai part leaves out: the static fields from the rules
-- (sides of equal size, partners opposite), and no simulate or search
-- (nil, why: a script asks, it is not an error).
local DEFAULT = {}
function DEFAULT.static(rules, seat)
  local ctx = { seat = seat, players = rules and rules.players, teams = rules and rules.teams }
  if rules and seat then
    local n = rules.players
    ctx.sides = rules.teams and 2 or n
    ctx.side = rules.teams and seat % 2 or seat
    if rules.teams and n == 4 then ctx.partner = (seat + 2) % n end
  end
  return ctx
end
function DEFAULT.simulate(game) return nil, game:game() .. " offers its AIs no simulate" end
function DEFAULT.search(_, game) return nil, game:game() .. " offers its AIs no search" end

-- The ai part of the package of a rules table, what it leaves out
-- answered by DEFAULT. Kept per rules table: a game's rules do not change
-- during it, and every decision asks.
local AI_OF = setmetatable({}, { __mode = "k" })
local function game_ai(rules)
  local kept = type(rules) == "table" and AI_OF[rules]
  if kept then return kept end
  local part = registry.part(registry.of_rules(rules), "ai") or {}
  kept = setmetatable({}, { __index = function(_, k)
    local v = part[k]
    if v == nil then return DEFAULT[k] end
    return v
  end })
  if type(rules) == "table" then AI_OF[rules] = kept end
  return kept
end

-- The plain data of a seat's decision, before its host is set.
local function new_data(rules, seat, ai)
  local data = M.static(rules, seat)
  -- (the box adds a game's own helpers to a decision whose data names it)
  if ai.data_game then data.game = ai.data_game end
  return data
end

-- A seat's static fields for its decisions, made once per player, rules
-- and seat: the same table while the rules are (the player's box keeps
-- its own copy, and is sent it again when it changes).
local function seat_data(p, rules, seat, ai)
  local kept = rawget(p, "_decision_data")
  if not kept or kept.rules ~= rules then
    kept = { rules = rules }
    p._decision_data = kept
  end
  local data = kept[seat]
  if not data then
    data = new_data(rules, seat, ai)
    kept[seat] = data
  end
  return data
end

-- The one host service of a decision at seat (the helpers turn it into
-- ctx.simulate, ctx.search and the fields sent when first read), and the
-- state of the decision it serves (st.view: the seat's view, once read).
local function host_of(p, game, seat, ai)
  local st = {}
  local function seat_view()
    local view = st.view or game:view(seat)
    st.view = view
    return view
  end
  return function(what, arg)
    if what == "more" then
      if arg == "rules" then return p._rules end
      local view = seat_view()
      if arg == "view" then return view end
      if arg == "unseen" then return view.unseen end
      if arg == "moves_info" then return game:moves(true) end
      return nil
    elseif what == "simulate" then
      local m = type(arg) == "table" and rawget(arg, "text") or arg
      if math.type(m) ~= "integer" and type(m) ~= "string" then
        error("ctx.simulate: a move (text, number or moves_info entry) expected", 0)
      end
      if type(m) == "string" and #m > 200 then return nil, "not a move" end
      return ai.simulate(game, seat, seat_view(), m)
    elseif what == "search" then
      return ai.search(p, game, seat, arg)
    end
    error("ctx: no such service", 0)
  end, st
end

-- A seat's host service, made once per player, game and seat (a closure
-- and its upvalues per decision were a measurable part of a tournament's
-- decision) and emptied of the last decision's view before each one.
local function seat_host(p, game, seat, ai)
  local hosts = rawget(p, "_decision_hosts")
  if not hosts or hosts.game ~= game or hosts.ai ~= ai then
    hosts = { game = game, ai = ai }
    p._decision_hosts = hosts
  end
  local h = hosts[seat]
  if not h then
    local fn, st = host_of(p, game, seat, ai)
    h = { fn = fn, st = st }
    hosts[seat] = h
  end
  h.st.view = nil
  return h.fn
end

--- decision(p, game, seat) -> fields, host: what choose() gets as ctx,
-- as the seat's static fields (plain data, the same table while the
-- rules are) and the host service the script may call during this one
-- decision (simulate, search, the fields sent when first read); the box
-- adds the games' helpers inside. (ctx.rng and ctx.time_left are the
-- box's own, given to it once: see M.box_natives)
function M.decision(p, game, seat)
  local rules = p._rules
  local ai = game_ai(rules)
  if not seat then return new_data(rules, seat, ai), (host_of(p, game, seat, ai)) end
  return seat_data(p, rules, seat, ai), seat_host(p, game, seat, ai)
end

--- decision_data(p, game, seat) -> the same as one table of its own: the
-- static fields and the host service as .host.
function M.decision_data(p, game, seat)
  local fields, host = M.decision(p, game, seat)
  local data = { host = host }
  for k, v in pairs(fields) do data[k] = v end
  return data
end

--- The game a rules table belongs to (its package's name: a base rules
-- set of a game, such as one with its own base name, is that game's).
function M.game_of(rules)
  local g = type(rules) == "table" and rules.game or nil
  if g == nil then return registry.default().name end
  local pkg = registry.get(g) or registry.of_base(g)
  return pkg and pkg.name or g
end

--- What every call's ctx holds (no game needed): the seat, its side and
-- partner (the game is ctx.rules.game).
function M.static(rules, seat)
  return game_ai(rules).static(rules, seat)
end

--- The services every decision's ctx holds that are the box's own (its
-- seeded generator, its clock): handed to an AI's box once, when it is
-- loaded, rather than with each decision.
function M.box_natives()
  return { rng = core.box.rng, time_left = core.box.time_left }
end

return M
