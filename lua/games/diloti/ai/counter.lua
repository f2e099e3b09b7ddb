-- Counter: follows every card played and plays the odds.
--
-- It counts the cards still unseen (ctx.chance) and follows every move
-- through on_event, reading what each opponent's lays give away: a
-- player who lays a card while the table offers a good capture to some
-- rank most likely holds no card of that rank (until the next deal
-- refills the hands). It then scores moves like 'cautious', with those
-- sharper odds, and with two counts of its own:
-- - a captured card is worth what it does to the race for most cards
--   (D23), read from the capture piles: a lot while the race is close,
--   nothing once a side has more than half the pack;
-- - with four players, what its partner could take counts too, as far as
--   the opponent between is likely to have no capture.
-- In the last deal of a two-player round the unseen cards are exactly the
-- other hand: once few cards are left it plays that known deal out
-- exactly (the engine's exact endgame search), last capture (D22) and all.
-- With more players the unseen cards are split among the other hands in a
-- way it cannot know: near the end it plays the odds literally, solving a
-- hundred deals consistent with its count exactly and taking the move that
-- does best on average.
local RISK = 1.3    -- how much a possible loss weighs against a sure gain
local SWEEP = 1.5   -- extra dread of leaving a xeri
local DOUBT = 0.4   -- what is left of a chance once a lay says "lacks it"
local SPREAD = 1.8  -- captures come in lumps: the race's spread against coin flips
local FEED = 0.3    -- share of what the partner may take if the opponent between cannot
local EXACT = 10    -- cards left in both hands when it plays the known last deal exactly
local EXACT_MORE = 12 -- with three or four players: cards left in all hands when it samples
local DEALS = 100   -- deals it samples then (about 20 ms a move)

local RANKS = { "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K" }

-- What this player has read from the moves of this deal.
local lacks = {}   -- seat -> {rank = true}
-- What one more captured card is worth now (card_value, each decision).
local card = 0.25

local function worth(cards, ctx)
  return card * #cards + ctx.points(cards)
end

-- The race for most cards: the lead d of its side over the other, with
-- `left` cards still to be taken, ends roughly as d plus a normal spread.
-- One card more moves the expected points (win minus loss) by the slope of
-- that curve: 0.25 at the start of a round (as 'cautious' counts every
-- card), up to twice that in a close race late on, nothing once decided.
local function card_value(view, ctx)
  local total, mine, theirs = #view.hand + #view.unseen + #view.table.loose, 0, 0
  for _, d in ipairs(view.table.declarations) do total = total + #d.cards end
  for s = 0, view.sides - 1 do
    local n = #view.captured[s]
    total = total + n
    if s == ctx.side then mine = n else theirs = math.max(theirs, n) end
  end
  if 2 * mine > total or 2 * theirs > total then return 0 end
  local sd = SPREAD * math.sqrt(math.max(total - mine - theirs, 1))
  local z = (mine - theirs) / sd
  return 2 * ctx.rules.points.cards * math.exp(-z * z / 2) / (sd * math.sqrt(2 * math.pi))
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

-- What `seat` can expect to take from tbl on its turn (its captures, best
-- first, each weighted by the chance that it holds the rank and none of the
-- better ones), and the chance that it has no capture at all.
local function expect(tbl, seat, ctx, sweep)
  local options = {}
  for _, rank in ipairs(RANKS) do
    local cap = ctx.best_capture(rank, tbl)
    if cap then
      local p = odds(rank, seat, ctx)
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
  return e, none
end

local function score(m, ctx, view)
  local sim = ctx.simulate(m)
  if not sim then return -1000 end
  local s = gain(sim, ctx)
  if sim.table and not sim.round_over then
    local threat, none = expect(sim.table, (ctx.seat + 1) % view.players, ctx, SWEEP)
    s = s - RISK * threat
    if ctx.partner then s = s + FEED * none * expect(sim.table, ctx.partner, ctx, 1) end
    -- Its side's declarations are captures to come, if nobody takes them first.
    for _, d in ipairs(sim.table.declarations) do
      if d.owner == ctx.seat or d.owner == ctx.partner then s = s + 0.8 * worth(d.cards, ctx) end
    end
  end
  -- Among equals, keep the valuable cards and play the low ones.
  return s - ctx.points({ m.card }) * 0.1 - ctx.value(m.card) / 100
end

-- The end of the last deal, played exactly (two players: the one deal
-- there is; more: sampled deals); nil when the pack is not empty yet, too
-- many cards are left, or there is no search.
local function endgame(view, moves, ctx)
  local left, limit = 0, view.players == 2 and EXACT or EXACT_MORE
  for s = 0, view.players - 1 do left = left + view.hand_counts[s] end
  if view.pack_count > 0 or #moves < 2 or left > limit then return nil end
  local r = ctx.search{ exact = limit, iterations = 200, deals = DEALS }
  if not (r and (r.exact or r.deals > 0)) then return nil end
  local legal = {}
  for _, m in ipairs(moves) do legal[m] = true end
  for _, m in ipairs(r.moves) do
    -- Its best move that a house rule has not taken away.
    if legal[m.move] then return m.move end
  end
end

return {
  name = "counter",
  description = "Counts every card and reads the opponents' lays; plays the odds",
  help = [[It counts the unseen cards and follows every move through on_event,
reading what each opponent's lays reveal: laying while some rank could
make a good capture means that rank is most likely missing from the hand,
until the next deal (its notes list these reads). Its odds for the next
player's answer combine those reads with the unseen-card counts and the
declarations' owners (D14). A captured card is worth what it does to the
race for most cards, as the capture piles stand. With four players it
counts what its partner could take if the opponent between cannot. In the
last deal of a two-player round the other hand is known: with at most ten
cards left in the hands it plays the deal out exactly, last capture
included. With three or four players, from twelve cards left, it solves a
hundred deals of the unseen cards exactly and plays the best on average.]],
  choose = function(view, moves, ctx)
    -- Its reads, as a note: "seat 1 lacks 9 K".
    local notes = {}
    for seat = 0, view.players - 1 do
      local list = {}
      for _, rank in ipairs(RANKS) do
        if lacks[seat] and lacks[seat][rank] then list[#list + 1] = rank end
      end
      if #list > 0 then notes[#notes + 1] = "seat " .. seat .. " lacks " .. table.concat(list, " ") end
    end
    local note = #notes > 0 and table.concat(notes, "; ") or nil
    local known = endgame(view, moves, ctx)
    if known then return known, note end
    card = card_value(view, ctx)
    local best, best_score
    for i, m in ipairs(ctx.moves_info) do
      local s
      if m.kind == "claim" then s = 1
      elseif m.kind == "keep" then s = 0
      else s = score(m, ctx, view) end
      if not best or s > best_score then best, best_score = i, s end
    end
    return moves[best], note
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
