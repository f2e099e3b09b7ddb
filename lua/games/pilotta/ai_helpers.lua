-- Pilotta's helpers for AIs: the cards' suits, points and strength in a
-- trick (every AI's ctx gets these, whatever game it plays: M.shared),
-- the evaluation of a hand for each trump suit (expected trick points of
-- the seat's team, declarations, belote), a bidding policy built on it,
-- the choice of announcements, and a careful card play (a Pilotta
-- decision's own ctx fields: M.own). Pure Lua without require: the host
-- loads it as a module, and every AI's box runs the same text before the
-- script (the descriptor's `ai_box`; lua/ai/box_helpers.lua hands these
-- out as ctx fields). Nothing here reaches the host: it reads only what
-- the view and the legal moves say. docs/ai.md §11 explains the
-- evaluation and its calibration.
local M = {}

local ipairs, pairs, next, tonumber, type = ipairs, pairs, next, tonumber, type

local SUITS = { "c", "d", "h", "s" }
-- Places in the order of runs (P33), and in the trick orders (P5).
local RUN_RANK = { "7", "8", "9", "10", "J", "Q", "K", "A" }
local TRUMP_ORDER = { ["7"] = 1, ["8"] = 2, Q = 3, K = 4, ["10"] = 5, A = 6, ["9"] = 7, J = 8 }
local PLAIN_ORDER = { ["7"] = 1, ["8"] = 2, ["9"] = 3, J = 4, Q = 5, K = 6, ["10"] = 7, A = 8 }
local TRUMP_POINTS = { J = 20, ["9"] = 14, A = 11, ["10"] = 10, K = 4, Q = 3, ["8"] = 0, ["7"] = 0 }
local PLAIN_POINTS = { J = 2, ["9"] = 0, A = 11, ["10"] = 10, K = 4, Q = 3, ["8"] = 0, ["7"] = 0 }
local FOUR_VALUE = { J = 200, ["9"] = 150, A = 100, ["10"] = 100, K = 100, Q = 100 }

M.SUITS = SUITS

-- A card's rank and suit ("10d" -> "10", "d"), for the canonical
-- spellings the view and the moves use; nil otherwise.
local function split(card)
  if type(card) ~= "string" then return nil end
  local r, s = card:match("^(10)([cdhs])$")
  if not r then r, s = card:match("^([789JQKA])([cdhs])$") end
  return r, s
end
M.split = split

local function points(card, trumps)
  local r, s = split(card)
  if not r then return 0 end
  return s == trumps and TRUMP_POINTS[r] or PLAIN_POINTS[r]
end

-- Strength in a trick (higher wins): trumps over the led suit over the rest.
local function strength(card, trumps, led)
  local r, s = split(card)
  if not r then return 0 end
  if s == trumps then return 20 + TRUMP_ORDER[r] end
  if led == nil or s == led then return 10 + PLAIN_ORDER[r] end
  return PLAIN_ORDER[r]
end

-- ---- the cards as a script may spell them (P5, P6) ------------------------

-- The canonical spellings of the notation's 52 cards.
local CANON = {}
for _, r in ipairs{ "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K" } do
  for s in ("cdhs"):gmatch(".") do CANON[r .. s] = true end
end

-- Suits as the notation spells them: letters, and the Unicode symbols
-- (black and white) with an optional variation selector.
local SUIT_OF = { c = "c", d = "d", h = "h", s = "s" }
for i, s in ipairs{ "c", "d", "h", "s" } do
  SUIT_OF[({ "\u{2663}", "\u{2666}", "\u{2665}", "\u{2660}" })[i]] = s
  SUIT_OF[({ "\u{2667}", "\u{2662}", "\u{2661}", "\u{2664}" })[i]] = s
end
local RANK_OF = { a = "A", t = "10", j = "J", q = "Q", k = "K", ["1"] = "A", ["10"] = "10" }
for i = 2, 9 do RANK_OF[tostring(i)] = tostring(i) end

-- The canonical spelling of a card ("7H", "10♦" -> "7h", "10d"), or nil.
local function canon_card(c)
  if type(c) ~= "string" then return nil end
  if CANON[c] then return c end
  if #c > 16 then return nil end
  local r, s = c:match("^(10)(.+)$")
  if not r then r, s = c:match("^(.)(.+)$") end
  if not r then return nil end
  s = s:gsub("\u{FE0F}$", "")
  local rank, suit = RANK_OF[r:lower()], SUIT_OF[s:lower()] or SUIT_OF[s]
  return rank and suit and (rank .. suit) or nil
end

-- A card's rank and suit ("10d" -> "10", "d") in any spelling, or nil
-- for a card not of the 32-card pack.
local function pl_card(c)
  local card = canon_card(c)
  if not card then return nil end
  local r, s = card:match("^(10)(%a)$")
  if not r then r, s = card:match("^(%w)(%a)$") end
  if not r or not PLAIN_ORDER[r] then return nil end
  return r, s
end

--- A card's suit letter, nil if not a card of the 32-card pack.
function M.suit(card)
  local _, s = pl_card(card)
  return s
end

--- A card's points with `trumps` the trump suit (P6).
function M.card_points(card, trumps)
  local r, s = pl_card(card)
  if not r then return nil end
  return s == trumps and TRUMP_POINTS[r] or PLAIN_POINTS[r]
end

--- How strong a card is in a trick (P5, P29): trumps above the led suit,
-- the led suit above the others, which never win; higher is stronger.
-- led: the suit of the trick's first card (nil: as if it led).
function M.strength(card, trumps, led)
  local r, s = pl_card(card)
  if not r then return nil end
  if s == trumps then return 20 + TRUMP_ORDER[r] end
  if led == nil or s == led then return 10 + PLAIN_ORDER[r] end
  return PLAIN_ORDER[r]
end

--- The place (1-based) of the card winning a trick so far (P29), nil for
-- an empty trick or one with a non-card.
function M.winning(trick, trumps)
  if type(trick) ~= "table" or not trick[1] then return nil end
  local led = M.suit(trick[1])
  local best, at
  for i, c in ipairs(trick) do
    local v = M.strength(c, trumps, led)
    if not v then return nil end
    if not best or v > best then best, at = v, i end
  end
  return at
end

-- ---- declarations (P33, P34) ---------------------------------------------

local function run_value(n)
  if n >= 5 then return 100 elseif n == 4 then return 50 elseif n == 3 then return 20 end
  return 0
end

-- The runs among cards not `used`: a list of {cards, value, top}.
local function runs_of(have, used)
  local out = {}
  for _, s in ipairs(SUITS) do
    local cur = {}
    for p = 1, 9 do
      local c = p <= 8 and (RUN_RANK[p] .. s) or nil
      if c and have[c] and not used[c] then
        cur[#cur + 1] = c
      else
        if #cur >= 3 then out[#out + 1] = { cards = cur, value = run_value(#cur), kind = "run", top = p - 1 } end
        cur = {}
      end
    end
  end
  return out
end

--- The declarations a set of cards holds, chosen as P34 lets a player
-- choose (the fours used, then the runs in the rest) for the most value;
-- overlap: PV-decl-overlap (a card in a four and a run). Returns the
-- list ({kind, value, cards}), their total and the best one's value.
function M.declarations(cards, overlap)
  local have, by_rank = {}, {}
  for _, c in ipairs(cards) do
    local r = split(c)
    if r then
      have[c] = true
      by_rank[r] = (by_rank[r] or 0) + 1
    end
  end
  local fours = {}
  for r, n in pairs(by_rank) do
    if n == 4 and FOUR_VALUE[r] then
      fours[#fours + 1] = { kind = "four", value = FOUR_VALUE[r], rank = r,
        cards = { r .. "c", r .. "d", r .. "h", r .. "s" } }
    end
  end
  table.sort(fours, function(a, b) return a.value > b.value end)
  local best, best_total
  -- every subset of the fours (eight cards hold two at most)
  for mask = 0, (1 << #fours) - 1 do
    local used, list, total = {}, {}, 0
    for i, f in ipairs(fours) do
      if mask & (1 << (i - 1)) ~= 0 then
        list[#list + 1] = f
        total = total + f.value
        if not overlap then for _, c in ipairs(f.cards) do used[c] = true end end
      end
    end
    for _, r in ipairs(runs_of(have, used)) do
      list[#list + 1] = r
      total = total + r.value
    end
    if not best or total > best_total then best, best_total = list, total end
  end
  local top = 0
  for _, d in ipairs(best) do if d.value > top then top = d.value end end
  return best, best_total, top
end

--- The value of one declaration given by its cards (a run or a four), 0
-- when they are neither.
function M.declaration_value(cards)
  local _, total = M.declarations(cards, true)
  return total
end

-- ---- the evaluation --------------------------------------------------------

-- The hand's features for a trump suit: what the trick-point estimate
-- weighs (names as in WEIGHTS).
local function features(hand, trumps)
  local len, has = {}, {}
  for _, s in ipairs(SUITS) do len[s] = 0 end
  for _, c in ipairs(hand) do
    local r, s = split(c)
    if r then
      len[s] = len[s] + 1
      has[c] = true
    end
  end
  local t = trumps
  local n = len[t]
  local f = {
    one = 1,
    tJ = has["J" .. t] and 1 or 0, t9 = has["9" .. t] and 1 or 0,
    tA = has["A" .. t] and 1 or 0, t10 = has["10" .. t] and 1 or 0,
    tKQ = (has["K" .. t] and 1 or 0) + (has["Q" .. t] and 1 or 0),
    tlow = (has["7" .. t] and 1 or 0) + (has["8" .. t] and 1 or 0),
    tlong = math.max(0, n - 3),
    sA = 0, s10 = 0, s10A = 0, sK = 0, short = 0,
  }
  for _, s in ipairs(SUITS) do
    if s ~= t then
      local a, ten = has["A" .. s], has["10" .. s]
      if a then f.sA = f.sA + 1 end
      if ten then
        f.s10 = f.s10 + 1
        if a then f.s10A = f.s10A + 1 end
      end
      if has["K" .. s] then f.sK = f.sK + 1 end
      if n >= 2 then f.short = f.short + math.max(0, 2 - len[s]) end
    end
  end
  return f
end
M.features = features

--- The features' names in the order the calibration fits them.
M.FEATURES = { "one", "tJ", "t9", "tA", "t10", "tKQ", "tlow", "tlong", "sA", "s10", "s10A", "sK", "short" }

-- Weights of the trick-point estimate: the seat's team's trick points
-- (P30-P32, out of 162; 250 for a sweep) with this hand, the trump suit
-- given and an average partner. Fitted by tools/calibrate_bid.lua
-- (docs/ladder/pilotta-calibration.txt); between the markers the tool's
-- output is pasted as it is.
-- BEGIN WEIGHTS
M.WEIGHTS = {
  one = 34.11, tJ = 38.28, t9 = 19.27, tA = 11.86, t10 = 9.46, tKQ = 6.80, tlow = 4.66,
  tlong = 8.29, sA = 19.12, s10 = 4.91, s10A = -2.23, sK = 0.77, short = 5.04,
}
M.CALIBRATION = "solve, 2000 deals, seed 1: R^2 0.255"
-- END WEIGHTS

-- How often a team's best declaration of a value stands (P36, P37),
-- measured by tools/calibrate_bid.lua over random deals.
-- BEGIN STANDS
M.STANDS = { [20] = 0.601, [50] = 0.888, [100] = 1.000, [150] = 1.000, [200] = 1.000 }
-- END STANDS

--- The trick-point estimate of a features table.
function M.tricks_of(f, weights)
  weights = weights or M.WEIGHTS
  local v = 0
  for k, x in pairs(f) do v = v + (weights[k] or 0) * x end
  return v
end

--- evaluate(hand, trumps, rules) -> {trumps, tricks, decls, decl_total,
-- decl_best, decl_expect, belote, total, winners}: for the seat's hand
-- with `trumps` the trump suit, the expected trick points of its team
-- (own hand, an average partner), the declarations it holds and what they
-- are expected to count (times the chance they stand), the belote (20 if
-- it holds the King and Queen of trumps) and their sum; winners counts
-- the tricks the hand should take by itself (for capot).
function M.evaluate(hand, trumps, rules)
  local f = features(hand, trumps)
  local tricks = M.tricks_of(f)
  local decls, total, best = M.declarations(hand, rules and rules.decl_overlap)
  local expect = total * (M.STANDS[best] or (best > 0 and 1 or 0))
  local belote = f.tKQ == 2 and 20 or 0
  -- Sure tricks: the top trumps in sequence draw the others' when the
  -- hand holds five or more; side Aces, and Tens under them.
  local n = 0
  for _, c in ipairs(hand) do if select(2, split(c)) == trumps then n = n + 1 end end
  local seq, order = 0, { "J", "9", "A", "10", "K", "Q", "8", "7" }
  for _, r in ipairs(order) do
    local held = false
    for _, c in ipairs(hand) do if c == r .. trumps then held = true end end
    if not held then break end
    seq = seq + 1
  end
  local winners = seq
  if seq >= 3 and n >= 5 then winners = n end
  winners = winners + f.sA + f.s10A
  return { trumps = trumps, tricks = tricks, decls = decls, decl_total = total, decl_best = best,
    decl_expect = expect, belote = belote, total = tricks + expect + belote, winners = winners,
    features = f }
end

--- What an average hand is worth to its team (the partner the evaluation
-- assumes): the trick points' mean over the calibration's deals (a little
-- over half the 162: sweeps count 250).
M.AVERAGE = 83

-- ---- the auction -------------------------------------------------------------

--- The most trick points a bid is taken to promise from tricks alone;
-- the rest of a higher bid is read as declarations and belote (contra).
M.TRICKS_CLAIM = 100

-- A call's value and suit from its text: "90h" -> 90, "h"; "90" -> 90
-- (PV-suit-after-auction); "capot s" -> 250, "s", true.
local function parse_bid(text)
  local v, s = text:match("^(%d+)([cdhs]?)$")
  if v then return tonumber(v), s ~= "" and s or nil, false end
  s = text:match("^capot%s*([cdhs]?)$")
  if s then return 250, s ~= "" and s or nil, true end
  return nil
end
M.parse_bid = parse_bid

-- The calls a seat made, the last first: its partner's and its opponents'
-- best bids by suit.
local function calls_by(view, seat)
  local best = {}
  for _, c in ipairs(view.calls or {}) do
    if c.seat == seat and c.kind == "bid" then
      local v, s = parse_bid(c.text)
      if v and s and (not best[s] or v > best[s]) then best[s] = v end
    end
  end
  return best
end

--- bid(view, infos, ctx, opts) -> the index in infos of the call to make,
-- and a note. opts: margin (trick points kept in hand below the estimate
-- before bidding, default 10), capot (the sure tricks to bid capot, 8),
-- contra (how far under the contract the opponents must be expected to
-- fall, 20), recontra (how far above it we must expect to be, 20), read
-- (read the partner's and the opponents' bids into the estimate), raise
-- (raise the partner's bid). Only legal calls are chosen: the rules in
-- force are whatever the moves allow.
function M.bid(view, infos, ctx, opts)
  opts = opts or {}
  local margin = opts.margin or 10
  local rules = ctx.rules or {}
  local pass, contra, recontra
  local bids = {}
  for i, m in ipairs(infos) do
    if m.kind == "pass" then pass = i
    elseif m.kind == "contra" then contra = i
    elseif m.kind == "recontra" then recontra = i
    else
      local v, s, capot = parse_bid(m.text)
      if v then bids[#bids + 1] = { i = i, value = v, suit = s, capot = capot } end
    end
  end
  pass = pass or 1
  local hand, side, partner = view.hand, ctx.side, ctx.partner
  local ev, est = {}, {}
  local from_partner = opts.read and calls_by(view, partner) or {}
  local from_opps = {}
  if opts.read then
    for _, o in ipairs{ (ctx.seat + 1) % 4, (ctx.seat + 3) % 4 } do
      for s, v in pairs(calls_by(view, o)) do from_opps[s] = math.max(from_opps[s] or 0, v) end
    end
  end
  for _, s in ipairs(SUITS) do
    ev[s] = M.evaluate(hand, s, rules)
    local e = ev[s].total
    if opts.read then
      -- a partner who bid this suit is stronger there than an average hand;
      -- opponents who bid it hold its trumps
      if from_partner[s] then e = e + math.max(0, from_partner[s] - margin - M.AVERAGE) * 0.5 end
      if from_opps[s] then e = e - 15 end
    end
    est[s] = e
  end
  local c = view.contract
  local function pick(suit, upto, above)
    -- the highest legal bid in `suit` (any suit for numeric-only bids)
    -- from `above` up to `upto`
    local got, gv
    for _, b in ipairs(bids) do
      if not b.capot and (b.suit == suit or b.suit == nil) and b.value <= upto and b.value > (above or 0)
        and (not gv or b.value > gv) then got, gv = b.i, b.value end
    end
    return got
  end
  local function capot_call(suit)
    if ev[suit].winners < (opts.capot or 8) then return nil end
    for _, b in ipairs(bids) do if b.capot and (b.suit == suit or b.suit == nil) then return b.i end end
  end
  local best_suit
  for _, s in ipairs(SUITS) do if not best_suit or est[s] > est[best_suit] then best_suit = s end end
  local function note(what, s)
    return string.format("%s: %s est %.0f (tricks %.0f, declarations %.0f, belote %d)", what, s, est[s],
      ev[s].tricks, ev[s].decl_expect, ev[s].belote)
  end
  if c and c.team == side then
    local s = c.suit or best_suit
    if recontra then
      local mine = c.bidder == ctx.seat and est[s] or (c.value + (est[s] - M.AVERAGE))
      if mine >= c.value + (opts.recontra or 20) then return recontra, note("recontra", s) end
      return pass, "pass"
    end
    -- (one raise per auction, and only by a seat that has not bid: two
    -- partners raising each other in turn would climb to the top)
    local has_bid = next(calls_by(view, ctx.seat)) ~= nil
    if c.bidder == partner and opts.raise ~= false and not has_bid then
      -- the partner's bid says his hand is worth about its value to the
      -- team with an average partner: ours adds what it has above average
      local team = c.value + margin + (est[s] - M.AVERAGE)
      local cap = capot_call(s)
      if cap and est[s] - M.AVERAGE >= 40 then return cap, note("capot", s) end
      local i = pick(s, team - margin, c.value + 10)
      if i then return i, note("raise", s) end
    end
    return pass, "pass"
  end
  if c and c.team ~= side then
    local s = c.suit or best_suit
    if contra then
      -- Their trick points are what ours leave them (our hand with their
      -- trumps, an average partner). A bid past what tricks alone can
      -- promise (TRICKS_CLAIM) rests on declarations or a belote, which
      -- our hand cannot see and which count: only the part of the bid
      -- that tricks must bring is held against our estimate.
      local claim = math.min(c.value, M.TRICKS_CLAIM)
      local doubt = c.capot and (ev[s].winners > 0) or (162 - ev[s].tricks + (opts.contra or 20) <= claim)
      if doubt then return contra, note("contra", s) end
    end
  end
  local above = c and c.value or 0
  local cap = capot_call(best_suit)
  if cap then return cap, note("capot", best_suit) end
  local i = pick(best_suit, est[best_suit] - margin, above)
  if i then return i, note(c and "overcall" or "open", best_suit) end
  return pass, "pass"
end

--- The trump suit to name after a numbers-only auction
-- (PV-suit-after-auction): the index of the naming move for the suit the
-- evaluation likes best.
function M.name_trumps(view, infos, ctx)
  local best, bv
  for i, m in ipairs(infos) do
    local s = m.text:match("([cdhs])$")
    if s then
      local v = M.evaluate(view.hand, s, ctx.rules).total
      if not best or v > bv then best, bv = i, v end
    end
  end
  return best or 1
end

-- ---- announcing, showing, the belote -------------------------------------------

--- The announcement or show to make now, if any: every declaration is
-- worth announcing (it counts only if announced, P35), the most valuable
-- first; a standing announcer always shows (P38). Returns an index or nil.
function M.declare(infos)
  local best, bv
  for i, m in ipairs(infos) do
    if m.kind == "show" then return i end
    if m.kind == "announce" then
      local cards = {}
      for c in m.text:gmatch("%S+") do if c ~= "announce" then cards[#cards + 1] = c end end
      local v = M.declaration_value(cards) * 100 + #cards
      if not best or v > bv then best, bv = i, v end
    end
  end
  return best
end

-- ---- careful card play ---------------------------------------------------------

-- The card of a play move, and whether it gives up a belote.
local function card_of(m)
  return m.text:match("^(%S+)"), m.text:find("nobelote", 1, true) ~= nil
end

--- The legal cards as {i, card} (with the belote said whenever it may be).
function M.cards(infos)
  local out = {}
  for i, m in ipairs(infos) do
    if m.kind == "play" then
      local c, no = card_of(m)
      if not no then out[#out + 1] = { i = i, card = c } end
    end
  end
  return out
end

-- The suits each seat has shown it lacks: a card of another suit played
-- to a trick led in that suit (voids[seat][suit]).
local function voids_of(view)
  local v = { [0] = {}, {}, {}, {} }
  local function scan(cards, leader)
    local _, led = split(cards[1])
    for k = 2, #cards do
      local _, s = split(cards[k])
      if s ~= led then v[(leader + k - 1) % 4][led] = true end
    end
  end
  for _, t in ipairs(view.tricks or {}) do scan(t.cards, t.leader) end
  if view.trick and view.trick[1] then scan(view.trick, view.leader) end
  return v
end
M.voids = voids_of

-- Whether `card` will win this trick whatever the seats still to play
-- (`after`) hold among the unseen cards: none beats it in the led suit,
-- and none can trump over it (a seat is taken to hold trumps while any
-- are unseen, and to follow the led suit until it has shown a void).
local function master(card, trumps, led, unseen, after, voids)
  local v = strength(card, trumps, led)
  local higher_led, higher_trump = false, false
  for _, u in ipairs(unseen) do
    local _, us = split(u)
    if strength(u, trumps, led) > v then
      if us == led then higher_led = true elseif us == trumps then higher_trump = true end
    end
  end
  if higher_led then return false end
  if not higher_trump or led == trumps then return true end
  for _, seat in ipairs(after or {}) do
    if voids == nil or voids[seat][led] then return false end
  end
  return after ~= nil
end
M.master = master

--- careful(view, infos, ctx) -> index, note: the play of a cautious
-- partner: counts the trumps still out and draws them while it holds the
-- best one and its team holds the contract; returns the partner's suit;
-- leads its Aces; never spends points on a trick it cannot win; feeds
-- points to a trick its partner is sure to win; wins a trick as cheaply
-- as it surely can.
function M.careful(view, infos, ctx)
  local trumps = view.trumps
  local cards = M.cards(infos)
  if #cards == 0 then return 1, "no card" end
  local unseen = view.unseen or {}
  local trick = view.trick or {}
  local n = #trick
  local voids = voids_of(view)
  local after = {}
  for k = 1, 3 - n do after[k] = (ctx.seat + k) % 4 end
  local mine = view.contract and view.contract.team == ctx.side
  local function by(key, most)
    local best, bk
    for _, x in ipairs(cards) do
      local k = key(x.card)
      if k and (not best or (most and k > bk) or (not most and k < bk)) then best, bk = x, k end
    end
    return best
  end
  local function cheap(c) return points(c, trumps) * 100 + strength(c, trumps, nil) end
  if n == 0 then
    local out = 0
    for _, u in ipairs(unseen) do if select(2, split(u)) == trumps then out = out + 1 end end
    -- draw the trumps out while ours is the best of them
    if mine and out > 0 then
      local top = by(function(c) return select(2, split(c)) == trumps and strength(c, trumps) or nil end, true)
      if top and master(top.card, trumps, trumps, unseen, after, voids) then return top.i, "draws trumps" end
    end
    -- a side Ace (or any card) that no unseen card beats in its suit
    local ace = by(function(c)
      local _, s = split(c)
      if s == trumps or not master(c, trumps, s, unseen, after, voids) then return nil end
      return points(c, trumps)
    end, true)
    if ace and (out == 0 or mine or points(ace.card, trumps) >= 10) then return ace.i, "leads a master card" end
    -- the suit the partner led first, back to him
    for _, t in ipairs(view.tricks or {}) do
      if t.leader == ctx.partner then
        local _, ps = split(t.cards[1])
        if ps ~= trumps then
          local low = by(function(c) return select(2, split(c)) == ps and cheap(c) or nil end, false)
          if low then return low.i, "returns the partner's suit" end
        end
      end
    end
    local low = by(function(c) return select(2, split(c)) ~= trumps and cheap(c) or nil end, false)
    if low then return low.i, "leads low" end
    return by(cheap, false).i, "leads low"
  end
  local led = select(2, split(trick[1]))
  local win_seat = view.winning
  local best_str = 0
  for _, c in ipairs(trick) do best_str = math.max(best_str, strength(c, trumps, led)) end
  local last = n == 3
  if win_seat == ctx.partner then
    local pc
    for k, c in ipairs(trick) do if (view.leader + k - 1) % 4 == ctx.partner then pc = c end end
    local sure = last or (pc and master(pc, trumps, led, unseen, after, voids))
    if sure then
      -- feed points, never a trump's
      local feed = by(function(c)
        if select(2, split(c)) == trumps and led ~= trumps then return nil end
        return points(c, trumps) * 100 - strength(c, trumps, led)
      end, true)
      if feed then return feed.i, "feeds the partner's trick" end
    end
    return by(cheap, false).i, "plays low under the partner"
  end
  -- the opponents hold the trick: win it as cheaply as is sure, else give least
  local win_cheap, win_sure
  for _, x in ipairs(cards) do
    local s = strength(x.card, trumps, led)
    if s > best_str then
      if not win_cheap or s < strength(win_cheap.card, trumps, led) then win_cheap = x end
      if (last or master(x.card, trumps, led, unseen, after, voids))
        and (not win_sure or s < strength(win_sure.card, trumps, led)) then win_sure = x end
    end
  end
  if win_sure then return win_sure.i, "wins the trick" end
  local at_stake = 0
  for _, c in ipairs(trick) do at_stake = at_stake + points(c, trumps) end
  if win_cheap and at_stake >= 10 then return win_cheap.i, "tries for the trick" end
  return by(cheap, false).i, "gives the least"
end

--- decide(view, infos, ctx, bid, search) -> index, note: a whole
-- decision as the shipped AIs make it. In the auction, the trumps to name
-- or ctx.bid's call with the options `bid`; in the play, a declaration to
-- announce or show, else the card ctx.search ranks first with the options
-- `search` (none: careful play), else the careful card.
function M.decide(view, infos, ctx, bid, search)
  if view.phase ~= "play" then
    if infos[1] and infos[1].kind == "trump" then return M.name_trumps(view, infos, ctx) end
    return M.bid(view, infos, ctx, bid)
  end
  local d = M.declare(infos)
  if d then return d, "declares" end
  if not search then return M.careful(view, infos, ctx) end
  if #infos == 1 then return 1 end
  -- (an engine whose search refuses these options loses nothing: careful play)
  local ok, r, why = pcall(ctx.search, search)
  if not ok then r, why = nil, r end
  if r and r.best then
    for i, m in ipairs(infos) do
      if m.text == r.best then return i, string.format("%d deals, value %.1f", r.deals or 0, r.value or 0) end
    end
  end
  local i, note = M.careful(view, infos, ctx)
  return i, note .. " (no search: " .. tostring(why or "its move is not legal") .. ")"
end

-- ---- inside an AI's box ------------------------------------------------------

--- shared(ctx): the card helpers in a ctx (of any game): plain functions
-- of their arguments (lua/ai/box_helpers.lua).
function M.shared(ctx)
  ctx.suit, ctx.card_points, ctx.strength, ctx.winning = M.suit, M.card_points, M.strength, M.winning
end

--- own(ctx, view): a Pilotta decision's own helpers: the evaluation of a
-- hand for a trump suit, its declarations, and the decisions built on
-- them (an index into moves and a note).
function M.own(ctx, view)
  ctx.evaluate = function(trumps, hand) return M.evaluate(hand or view.hand, trumps, ctx.rules) end
  ctx.declarations = function(cards) return M.declarations(cards, ctx.rules.decl_overlap) end
  ctx.bid = function(opts) return M.bid(view, ctx.moves_info, ctx, opts) end
  ctx.declare = function() return M.declare(ctx.moves_info) end
  ctx.name_trumps = function() return M.name_trumps(view, ctx.moves_info, ctx) end
  ctx.careful = function() return M.careful(view, ctx.moves_info, ctx) end
  ctx.decide = function(bid, search) return M.decide(view, ctx.moves_info, ctx, bid, search) end
end

return M
