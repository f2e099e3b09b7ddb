-- Diloti's side of the AI players (the package's `ai` part): the shipped
-- AIs' ladder and levels, the fallback move of an AI that failed, and
-- what a decision's ctx holds in this game (its static fields, and the
-- host services simulate and search: lua/ai/ctx.lua calls them).
local core = require "diloti.core"
-- (the engine's answers: src/diloti/lua/lcapture.c)
local native = core.natives("diloti")
local context = require "diloti.ai.ctx"
local help = require "diloti.games.diloti.ai_helpers"

local M = {}

local first_line = require("diloti.scripts.textfile").first_line
local whole_option = context.whole_option

--- The shipped AIs from the weakest to the strongest, as measured (docs/ai.md
-- §10; with two players, where partner does not play).
M.LADDER = { "random", "greedy", "builder", "cautious", "counter", "expert", "master" }
--- Levels of play for people: the AI each stands for.
M.LEVELS = { easy = "greedy", normal = "builder", hard = "counter", expert = "expert" }

--- The move played for an AI that failed: keep the deal (claims), else
-- the capture taking the most, else laying the card that gives the least
-- away. Deterministic and always legal.
function M.fallback(infos, rules)
  for _, m in ipairs(infos) do
    if m.kind == "keep" then return m.text end
  end
  local best, best_score
  for _, m in ipairs(infos) do
    local score
    if m.kind == "capture" then
      score = 100 + #m.takes
    elseif m.kind == "lay" then
      score = -(native.points({ m.card }, rules) * 10 + (help.value(m.card) or 0))
    else
      score = -50
    end
    if not best or score > best_score then best, best_score = m.text, score end
  end
  return best or (infos[1] and infos[1].text)
end

local function side_of(rules, seat)
  local sides = rules.teams and 2 or rules.players
  return seat % sides
end

local function card_set(list)
  local s = {}
  for _, c in ipairs(list) do s[c] = true end
  return s
end

--- What every call's ctx holds: the seat, its side and partner.
function M.static(rules, seat)
  local ctx = { seat = seat, players = rules and rules.players, teams = rules and rules.teams }
  if rules and seat then
    ctx.sides = rules.teams and 2 or rules.players
    ctx.side = side_of(rules, seat)
    if rules.teams then ctx.partner = (seat + 2) % rules.players end
  end
  return ctx
end

-- What a move would do, from the mover's side, with public consequences
-- only: nothing the move would reveal later (new hands, a redeal) is
-- returned. The engine plays the move on the world of the seat's view
-- (g:simulate: the cards the seat cannot see dealt anew from what it can
-- see), never on a copy of the real game: what the call costs depends on
-- nothing the seat cannot see (docs/security.md, "Sealed services").
function M.simulate(game, seat, view, move)
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

local SEARCH_NUM = { exploration = true, epsilon = true, infer = true }
local WEIGHTS = { "cards", "clubs", "aces", "ten_diamonds", "two_clubs", "xeri", "count" }
-- The exact endgame search stops at a node limit and at the time limit
-- given below, then leaves the move to the tree search; past these sizes
-- it would mostly hit them.
local MAX_EXACT = 16
local MAX_DEALS = 1000

--- ctx.search: the engine's search from the seat's view, within the
-- decision's time and memory.
function M.search(p, game, seat, o)
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

return M
