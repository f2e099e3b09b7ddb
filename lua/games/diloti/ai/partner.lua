-- Partner: a team player for four-player Diloti (two partnerships, D7).
--
-- It scores moves like 'cautious', for its side: what it captures, less
-- what the next player (always an opponent) could take from the table it
-- leaves. Two partnership terms come on top. What its partner (who plays
-- after that opponent) could take counts a little, but only as far as the
-- opponent between is likely to have no capture at all and so leave the
-- table to the partner. A declaration of its partner's still on the table
-- counts half as a capture to come for the side. Its partner's declaration
-- is a card the partner surely holds (D14): it leaves the partner's pile
-- to the partner unless an opponent threatens it, and it does not raise an
-- opponent's declaration of a value the partner has declared too (the
-- partner would have taken both). With two players it plays like
-- 'cautious'.
local CARD = 0.25
local RISK = 1.3
local SWEEP = 1.5
local FEED = 0.3   -- what the partner may take if the opponent between cannot
local PDECL = 0.5  -- the partner's declaration on the table, a capture to come

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

-- What `seat` can expect to take from tbl on its turn.
local function expect(tbl, seat, ctx, sweep)
  local options = {}
  for _, rank in ipairs(RANKS) do
    local cap = ctx.best_capture(rank, tbl)
    if cap then
      local p = ctx.chance(rank, seat)
      if p > 0 then
        local v = worth(cap.cards, ctx)
        if cap.sweep and ctx.rules.xeri then v = v + sweep * ctx.rules.points.xeri end
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

-- The partner's declaration before the move, if any.
local function partner_decl(view, ctx)
  if not ctx.partner then return nil end
  for _, d in ipairs(view.table.declarations) do
    if d.owner == ctx.partner then return d end
  end
end

local function takes(m, ref)
  for _, item in ipairs(m.takes or {}) do
    if item == ref then return true end
  end
  return false
end

local function score(m, ctx, view, nxt)
  local sim = ctx.simulate(m)
  if not sim then return -1000 end
  local s = gain(sim, ctx)
  local pd = partner_decl(view, ctx)
  if pd and takes(m, pd.ref) then
    -- Taking the partner's pile gains the side nothing it would not get
    -- anyway, unless an opponent was about to take it first.
    local danger = ctx.chance(pd.value, nxt)
    s = s - 0.5 * (1 - danger) * worth(pd.cards, ctx)
  end
  if pd and m.kind == "raise" then
    -- The partner holds that value and would have taken both piles.
    for _, d in ipairs(view.table.declarations) do
      if takes(m, d.ref) and d.value == pd.value then s = s - 100 end
    end
  end
  if sim.table and not sim.round_over then
    s = s - RISK * expect(sim.table, nxt, ctx, SWEEP)
    if ctx.partner then
      -- The partner gets the table only if the opponent between has no
      -- capture on it.
      local none = 1
      for _, rank in ipairs(RANKS) do
        if ctx.best_capture(rank, sim.table) then none = none * (1 - ctx.chance(rank, nxt)) end
      end
      s = s + FEED * none * expect(sim.table, ctx.partner, ctx, 1)
    end
    for _, d in ipairs(sim.table.declarations) do
      if d.owner == ctx.seat then s = s + 0.7 * worth(d.cards, ctx)
      elseif ctx.partner and d.owner == ctx.partner then s = s + PDECL * worth(d.cards, ctx) end
    end
  end
  return s - ctx.points({ m.card }) * 0.1 - ctx.value(m.card) / 100
end

return {
  name = "partner",
  description = "Plays for its side in four-player Diloti: counts what its partner can take, never crosses it",
  help = [[Made for four players in two partnerships. It values a move like
'cautious': what it captures, less what the next player (an opponent) could
then take. On top, it counts a share of what its partner, two seats on,
could take, weighted by the chance that the opponent between has no
capture and must leave the table alone, and half of its partner's
declarations left on the table. A partner's declaration tells it a card
the partner holds (D14): it leaves the partner's pile alone unless an
opponent threatens it, and never raises an opponent's declaration of the
value the partner has declared (the partner would have taken both). With
two players it plays like 'cautious'.]],
  choose = function(view, moves, ctx)
    local nxt = (ctx.seat + 1) % view.players
    local best, best_score
    for i, m in ipairs(ctx.moves_info) do
      local s
      if m.kind == "claim" then s = 1
      elseif m.kind == "keep" then s = 0
      else s = score(m, ctx, view, nxt) end
      if not best or s > best_score then best, best_score = i, s end
    end
    return moves[best]
  end,
}
