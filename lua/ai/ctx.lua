-- What an AI's choose() and hooks get as ctx: plain data about the seat
-- and the rules, and the two host services a decision may call
-- (simulate, search). The helpers of lua/games/diloti/ai_helpers.lua are added inside
-- the AI's own box. See docs/ai.md §3.3.
local core = require "diloti.core"
local textfile = require "diloti.scripts.textfile"

local M = {}

local first_line = textfile.first_line

-- ---- the context a decision sees ---------------------------------------

local function side_of(rules, seat)
  local sides = rules.teams and 2 or rules.players
  return seat % sides
end

local function card_set(list)
  local s = {}
  for _, c in ipairs(list) do s[c] = true end
  return s
end

-- What a move would do, from the mover's side, with public consequences
-- only: nothing the move would reveal later (new hands, a redeal) is
-- returned. The engine plays the move on the world of the seat's view
-- (g:simulate: the cards the seat cannot see dealt anew from what it can
-- see), never on a copy of the real game: what the call costs depends on
-- nothing the seat cannot see (docs/security.md, "Sealed services").
local function simulate(game, seat, view, move)
  local e, why = game:simulate(seat, move)
  if not e then return nil, why end
  local res = { move = e.text, kind = e.kind, card = e.card, value = e.value }
  if e.kind == "claim" or e.kind == "keep" then
    res.redeal = e.kind == "claim"
    return res
  end
  res.round_over, res.dealt, res.xeri, res.captured = e.round_over, e.dealt, e.xeri, e.captured
  if e.round_over then
    res.sweep = e.swept
    res.table = { loose = {}, declarations = {} }
    return res
  end
  -- The table afterwards may only hold what was there and the card played.
  local after = e.after
  local allowed = card_set({ e.card })
  for _, l in ipairs(view.table.loose) do allowed[l] = true end
  for _, d in ipairs(view.table.declarations) do for _, x in ipairs(d.cards) do allowed[x] = true end end
  local fine = true
  for _, l in ipairs(after.loose) do fine = fine and allowed[l] == true end
  for _, d in ipairs(after.declarations) do for _, x in ipairs(d.cards) do fine = fine and allowed[x] == true end end
  res.table = fine and after or nil
  return res
end

-- Pilotta's answer: what the seat's own move does in public (the card,
-- the belote, the trick it completes and who won it, the end of the
-- round); nothing the move would reveal of other hands. Played on the
-- world of the seat's view (g:simulate), as Diloti's is.
local function pl_simulate(game, seat, move)
  local e, why = game:simulate(seat, move)
  if not e then return nil, why end
  local res = { move = e.text, kind = e.kind, card = e.card, belote = e.belote, round_over = e.round_over }
  local t = e.trick_over
  if type(t) == "table" then res.trick_over = { winner = t.winner, points = t.points } end
  return res
end

local SEARCH_NUM = { exploration = true, epsilon = true, infer = true }
local WEIGHTS = { "cards", "clubs", "aces", "ten_diamonds", "two_clubs", "xeri", "count" }
-- The exact endgame search stops at a node limit and at the time limit
-- given below, then leaves the move to the tree search; past these sizes
-- it would mostly hit them.
local MAX_EXACT = 16
local MAX_DEALS = 1000

-- An integer option of ctx.search, at least lo when lo is given; nil when
-- absent. The error points at the AI's ctx.search call.
local function whole_option(o, k, lo, what)
  local v = rawget(o, k)
  if v == nil then return nil end
  v = math.tointeger(v)
  if not v or (lo and v < lo) then error("ctx.search: " .. k .. " must be " .. what, 0) end
  return v
end

local function search(p, game, seat, o)
  if not game.search then return nil, "this engine has no search" end
  if o ~= nil and type(o) ~= "table" then error("ctx.search: a table of options expected", 0) end
  o = o or {}
  local args = { seat = seat }
  local n = whole_option(o, "iterations", 0, "a whole number")
  if n then args.iterations = math.min(n, 100000000) end
  for k in pairs(SEARCH_NUM) do
    local v = rawget(o, k)
    if v ~= nil then
      if type(v) ~= "number" then error("ctx.search: " .. k .. " must be a number", 0) end
      args[k] = v
    end
  end
  local exact = whole_option(o, "exact", nil, "a whole number of cards")
  if exact then args.exact = math.max(0, math.min(exact, MAX_EXACT)) end
  local pool = whole_option(o, "pool", 1, "a whole number of deals")
  if pool then args.pool = math.min(pool, 100000) end
  local deals = whole_option(o, "deals", 0, "a whole number")
  if deals then args.deals = math.min(deals, MAX_DEALS) end
  local seed = whole_option(o, "seed", nil, "an integer")
  if seed then
    args.seed = seed & 0x1FFFFFFFFFFFFF
  else
    args.seed = p._box:random(0, 0x7FFFFFFF)
  end
  local w = rawget(o, "weights")
  if w ~= nil then
    if type(w) ~= "table" then error("ctx.search: weights must be a table", 0) end
    args.weights = {}
    for _, k in ipairs(WEIGHTS) do
      local v = rawget(w, k)
      if k == "aces" and v == nil then v = rawget(w, "ace") end
      if v ~= nil then
        if type(v) ~= "number" then error("ctx.search: weights." .. k .. " must be a number", 0) end
        args.weights[k] = v
      end
    end
  end
  -- The search runs in C, where no hook can stop it: it always gets a
  -- time limit inside what is left of the decision.
  local left = p._box:time_left() or p.time
  local want = rawget(o, "time")
  if want ~= nil and type(want) ~= "number" then error("ctx.search: time must be a number of seconds", 0) end
  local cap = left * 0.9 - 0.02
  if cap <= 0.001 then return nil, "no time left to search" end
  args.time = math.min(want and want > 0 and want or cap, cap)
  -- Neither given: the engine's own default count, not the whole decision.
  if not args.iterations and not (want and want > 0) then args.iterations = 2000 end
  -- The search's tree is C memory held for this one call: it stays within
  -- the AI's memory cap (a node a playout, under 160 bytes a node with the
  -- tree's growth).
  local most = math.max(1000, p.memory // 160)
  args.iterations = math.min(args.iterations or most, most)
  local ok, r, err = pcall(game.search, game, args)
  if not ok then return nil, first_line(r) end
  if not r then return nil, err end
  p._search = { iterations = r.iterations, value = r.value, exact = r.exact, deals = r.deals }
  return r
end

-- Pilotta's search (g:search, PIMC over deals of the unseen cards): the
-- options are deals, time, seed and infer; the time is capped by what is
-- left of the decision, the solver's table by the AI's memory cap.
local PL_MAX_DEALS = 2000
local PL_DEFAULT_DEALS = 24

local function pl_search(p, game, seat, o)
  if o ~= nil and type(o) ~= "table" then error("ctx.search: a table of options expected", 0) end
  o = o or {}
  local args = { seat = seat, memory = p.memory }
  local deals = whole_option(o, "deals", 1, "a whole number of deals, at least 1")
  if deals then args.deals = math.min(deals, PL_MAX_DEALS) end
  local seed = whole_option(o, "seed", nil, "an integer")
  if seed then
    args.seed = seed & 0x1FFFFFFFFFFFFF
  else
    args.seed = p._box:random(0, 0x7FFFFFFF)
  end
  local infer = rawget(o, "infer")
  if infer ~= nil and type(infer) ~= "boolean" then error("ctx.search: infer must be true or false", 0) end
  args.infer = infer
  local left = p._box:time_left() or p.time
  local want = rawget(o, "time")
  if want ~= nil and type(want) ~= "number" then error("ctx.search: time must be a number of seconds", 0) end
  local cap = left * 0.9 - 0.02
  if cap <= 0.001 then return nil, "no time left to search" end
  args.time = math.min(want and want > 0 and want or cap, cap)
  -- Neither given: the engine's own count, not the whole decision.
  if not args.deals then args.deals = (want and want > 0) and PL_MAX_DEALS or PL_DEFAULT_DEALS end
  local ok, r, err = pcall(game.search, game, args)
  if not ok then return nil, first_line(r) end
  if not r then return nil, err end
  p._search = { value = r.value, exact = r.exact, deals = r.deals, nodes = r.nodes }
  return r
end

-- What choose() gets as ctx, as plain data and the host functions the
-- script may call during this one decision (simulate, search); the box
-- adds the helpers of lua/games/diloti/ai_helpers.lua inside.
local function decision_data(p, game, seat)
  local data = M.static(p._rules, seat)
  local pilotta = M.game_of(p._rules) == "pilotta"
  -- (the box adds Pilotta's own helpers to a Pilotta decision's ctx)
  if pilotta then data.game = "pilotta" end
  local view
  -- The one host service of the call (lua/games/diloti/ai_helpers.lua turns it into
  -- ctx.simulate, ctx.search and the fields sent when first read).
  data.host = function(what, arg)
    if what == "more" then
      if arg == "rules" then return p._rules end
      view = view or game:view(seat)
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
      if pilotta then return pl_simulate(game, seat, m) end
      view = view or game:view(seat)
      return simulate(game, seat, view, m)
    elseif what == "search" then
      if pilotta then return pl_search(p, game, seat, arg) end
      return search(p, game, seat, arg)
    end
    error("ctx: no such service", 0)
  end
  data.rng = core.box.rng
  data.time_left = core.box.time_left
  return data
end

--- The game a rules table belongs to: Kontsina is a rules set of Diloti's
-- engine, so its AIs are Diloti's.
function M.game_of(rules)
  local g = type(rules) == "table" and rules.game or nil
  if g == nil or g == "kontsina" then return "diloti" end
  return g
end

--- What every call's ctx holds (no game needed): the seat, its side and
-- partner (the game is ctx.rules.game).
function M.static(rules, seat)
  if M.game_of(rules) == "pilotta" then
    -- P1, P2: four players, partners opposite, team A the even seats
    local ctx = { seat = seat, players = 4, teams = true, sides = 2 }
    if seat then ctx.side, ctx.partner = seat % 2, (seat + 2) % 4 end
    return ctx
  end
  local ctx = { seat = seat, players = rules and rules.players, teams = rules and rules.teams }
  if rules and seat then
    ctx.sides = rules.teams and 2 or rules.players
    ctx.side = side_of(rules, seat)
    if rules.teams then ctx.partner = (seat + 2) % rules.players end
  end
  return ctx
end

M.decision_data = decision_data

return M
