-- Builder: plays for declarations and groups, and defends its own.
--
-- On top of what a move captures now, it values every declaration on the
-- table afterwards: its own (and its partner's) as cards it expects to
-- collect, less the chance that the next player holds the value (and, for
-- a plain one, could raise it away); an opponent's as cards lost. So it
-- declares when it can, turns its plain declarations into groups (which
-- cannot be raised, D18), raises opponents' declarations to steal them
-- (D16), and captures its own pile once it is in danger.
local CARD = 0.25
local RISK = 1.0   -- what the next player may take (cautious weighs it 1.3)
local BUILD = 1.1  -- what an own declaration is worth, per its cards' worth
local RAISE = 0.2  -- the chance a plain declaration gets raised away

local RANKS = { "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K" }

local function worth(cards, ctx)
  return CARD * #cards + ctx.points(cards)
end

local function gain(sim, ctx)
  local g = 0
  if sim.captured then g = g + worth(sim.captured, ctx) end
  if sim.xeri then g = g + ctx.rules.points.xeri end
  if sim.sweep then
    local s = worth(sim.sweep.cards, ctx)
    g = g + (sim.sweep.side == ctx.side and s or -s)
  end
  return g
end

-- What `seat` can expect to take from the table on its turn: its
-- captures, best first, each weighted by the chance that it holds the
-- rank and none of the better ones.
local function threat(tbl, seat, ctx)
  local options = {}
  for _, rank in ipairs(RANKS) do
    local cap = ctx.best_capture(rank, tbl)
    if cap then
      local p = ctx.chance(rank, seat)
      if p > 0 then
        local v = worth(cap.cards, ctx)
        if cap.sweep and ctx.rules.xeri then v = v + 1.5 * ctx.rules.points.xeri end
        options[#options + 1] = { p = p, v = v }
      end
    end
  end
  table.sort(options, function(a, b) return a.v > b.v end)
  local e, none = 0, 1
  for _, o in ipairs(options) do
    e = e + o.v * o.p * none
    none = none * (1 - o.p)
  end
  return e
end

local function friendly(owner, ctx)
  return owner == ctx.seat or owner == ctx.partner
end

-- The declarations on the table after a move, as expected gains (the
-- next player's chance to take them is in the threat).
local function declarations(tbl, ctx, nxt)
  local s = 0
  for _, d in ipairs(tbl.declarations) do
    local w = worth(d.cards, ctx)
    if friendly(d.owner, ctx) then
      local keep = 1
      if d.kind == "plain" and d.value < 10 then keep = 1 - RAISE end
      s = s + (BUILD * w + 0.15 * #d.cards) * keep
    elseif d.owner ~= nxt then
      s = s - w
    end
  end
  return s
end

local function score(m, ctx, view)
  local sim = ctx.simulate(m)
  if not sim then return -1000 end
  local s = gain(sim, ctx)
  if sim.table and not sim.round_over then
    local nxt = (ctx.seat + 1) % view.players
    s = s - RISK * threat(sim.table, nxt, ctx) + declarations(sim.table, ctx, nxt)
  end
  return s - ctx.points({ m.card }) * 0.1 - ctx.value(m.card) / 100
end

return {
  name = "builder",
  description = "Plays for declarations and groups, and defends its own",
  help = [[Values each move by its capture plus every declaration left on the
table: its own and its partner's as cards to come (less the chance the next
player holds the value, or raises a plain one away), an opponent's as cards
lost. It declares and groups whenever it can hold on to the pile, turns its
plain declarations into groups (which nobody can raise), raises opponents'
declarations to take them over, and captures its own pile when it is in
danger. It worries less than 'cautious' about the loose cards it leaves.]],
  choose = function(view, moves, ctx)
    local best, best_score
    for i, m in ipairs(ctx.moves_info) do
      local s
      if m.kind == "claim" then s = 1
      elseif m.kind == "keep" then s = 0
      else s = score(m, ctx, view) end
      if not best or s > best_score then best, best_score = i, s end
    end
    return moves[best]
  end,
}
