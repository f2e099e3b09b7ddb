-- Pilotta's side of the AI players (the package's `ai` part): the shipped
-- AIs' ladder and levels, the fallback move of an AI that failed, and
-- what a decision's ctx holds in this game (lua/ai/ctx.lua calls it).
local context = require "diloti.ai.ctx"

local M = {}

local first_line = require("diloti.scripts.textfile").first_line
local whole_option = context.whole_option

--- The shipped AIs from the weakest to the strongest, as measured (docs/ai.md §11).
M.LADDER = { "random", "follower", "cautious", "expert", "master" }
--- Levels of play for people: the AI each stands for (a level never hides
-- an AI's own name: the level expert is the AI expert).
M.LEVELS = { easy = "follower", normal = "cautious", hard = "expert", expert = "expert" }

--- The box adds Pilotta's own helpers (ai_helpers.lua M.own) to a
-- decision whose data names the game (lua/ai/box_helpers.lua).
M.data_game = "pilotta"

--- The move played for an AI that failed: the first legal one.
function M.fallback(infos)
  return infos[1] and infos[1].text
end

--- What every call's ctx holds: P1, P2: four players, partners opposite,
-- team A the even seats.
function M.static(_, seat)
  local ctx = { seat = seat, players = 4, teams = true, sides = 2 }
  if seat then ctx.side, ctx.partner = seat % 2, (seat + 2) % 4 end
  return ctx
end

-- Pilotta's answer: what the seat's own move does in public (the card,
-- the belote, the trick it completes and who won it, the end of the
-- round); nothing the move would reveal of other hands. Played on the
-- world of the seat's view (g:simulate), as every game's is.
function M.simulate(game, seat, _, move)
  local e, why = game:simulate(seat, move)
  if not e then return nil, why end
  local res = { move = e.text, kind = e.kind, card = e.card, belote = e.belote, round_over = e.round_over }
  local t = e.trick_over
  if type(t) == "table" then res.trick_over = { winner = t.winner, points = t.points } end
  return res
end

-- Pilotta's search (g:search, PIMC over deals of the unseen cards): the
-- options are deals, time, seed and infer; the time is capped by what is
-- left of the decision, the solver's table by the AI's memory cap.
local PL_MAX_DEALS = 2000
local PL_DEFAULT_DEALS = 24

--- ctx.search: PIMC from the seat's view.
function M.search(p, game, seat, o)
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

return M
