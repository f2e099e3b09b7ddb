-- Counter: follows every card played and plays the odds.
--
-- It counts the cards still unseen (ctx.chance) and follows every move
-- through on_event, reading what each opponent's lays give away: a
-- player who lays a card while the table offers a good capture to some
-- rank most likely holds no card of that rank (until the next deal
-- refills the hands). It then scores moves like 'cautious', with those
-- sharper odds, and in the last deal of a two-player round, where the
-- unseen cards are exactly the other hand, its odds are certainties.
-- With the pack empty it also plays for the last capture, which takes the
-- cards left on the table (D22).
local CARD = 0.25
local RISK = 1.3
local SWEEP = 1.5
local DOUBT = 0.4   -- what is left of a chance once a lay says "lacks it"

local RANKS = { "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K" }

-- What this player has read from the moves of this deal.
local lacks = {}   -- seat -> {rank = true}

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

local function odds(rank, seat, ctx)
  local p = ctx.chance(rank, seat)
  if p > 0 and p < 1 and lacks[seat] and lacks[seat][rank] then p = p * DOUBT end
  return p
end

local function threat(tbl, seat, ctx)
  local options = {}
  for _, rank in ipairs(RANKS) do
    local cap = ctx.best_capture(rank, tbl)
    if cap then
      local p = odds(rank, seat, ctx)
      if p > 0 then
        local v = worth(cap.cards, ctx)
        if cap.sweep and ctx.rules.xeri then v = v + SWEEP * ctx.rules.points.xeri end
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

local function score(m, ctx, view)
  local sim = ctx.simulate(m)
  if not sim then return -1000 end
  local s = gain(sim, ctx)
  if sim.table and not sim.round_over then
    local nxt = (ctx.seat + 1) % view.players
    s = s - RISK * threat(sim.table, nxt, ctx)
    local left = 0
    for _, c in ipairs(sim.table.loose) do left = left + CARD + ctx.points({ c }) end
    for _, d in ipairs(sim.table.declarations) do
      if d.owner == ctx.seat or d.owner == ctx.partner then s = s + 0.8 * worth(d.cards, ctx) end
    end
    -- Last deal: whoever captures last takes what the table holds.
    if view.pack_count == 0 then
      if m.kind == "capture" then s = s + 0.5 * left else s = s - 0.2 * left end
    end
  end
  return s - ctx.points({ m.card }) * 0.1 - ctx.value(m.card) / 100
end

return {
  name = "counter",
  description = "Counts every card and reads the opponents' lays; plays the odds",
  help = [[It counts the unseen cards and follows every move through on_event,
reading what each opponent's lays reveal: laying while some rank could
make a good capture means that rank is most likely missing from the hand,
until the next deal (its notes list these reads). Its odds for the next
player's answer combine those reads with the unseen-card counts and the
declarations' owners (D14); in the last deal of a two-player round they
are exact. It plays for the last capture once the pack is empty.]],
  choose = function(view, moves, ctx)
    local best, best_score
    for i, m in ipairs(ctx.moves_info) do
      local s
      if m.kind == "claim" then s = 1
      elseif m.kind == "keep" then s = 0
      else s = score(m, ctx, view) end
      if not best or s > best_score then best, best_score = i, s end
    end
    -- Its reads, as a note: "seat 1 lacks 9 K".
    local notes = {}
    for seat = 0, view.players - 1 do
      local list = {}
      for _, rank in ipairs(RANKS) do
        if lacks[seat] and lacks[seat][rank] then list[#list + 1] = rank end
      end
      if #list > 0 then notes[#notes + 1] = "seat " .. seat .. " lacks " .. table.concat(list, " ") end
    end
    return moves[best], #notes > 0 and table.concat(notes, "; ") or nil
  end,
  on_event = function(e, ctx)
    if e.type == "round_start" then
      lacks = {}
      return
    end
    if e.type ~= "move" or not e.card then return end
    if e.dealt then lacks = {} end
    -- A card played shows the rank was there after all.
    if lacks[e.seat] then lacks[e.seat][ctx.rank(e.card)] = nil end
    if e.kind == "lay" and e.seat ~= ctx.seat and not e.dealt then
      local mine = lacks[e.seat] or {}
      lacks[e.seat] = mine
      local laid = ctx.rank(e.card)
      for _, rank in ipairs(RANKS) do
        local cap = rank ~= laid and ctx.best_capture(rank, e.table)
        -- Only a capture nobody would pass up says much.
        if cap and (cap.sweep or cap.points > 0 or cap.count >= 3) then mine[rank] = true end
      end
    end
  end,
}
