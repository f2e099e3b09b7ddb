-- The table's auction advice for Pilotta (hint, why, explain, the coach),
-- on the AIs' own evaluation: lua/games/pilotta/ai_helpers.lua values the hand for
-- each trump suit (trick points calibrated on double-dummy deals, the
-- declarations times the chance they stand, the belote; docs/ai.md §11)
-- and its bidding policy, with expert's options, gives the call. So the
-- call advised at the table is the call the `expert` AI would make in the
-- same seat (tests/lua/pl_bid_spec.lua checks it on random auctions);
-- this file only puts the evaluation's figures into words.
--
-- The dependency runs one way: the table's teaching reads the AIs'
-- helpers, the AIs never read the table's teaching.
local PL = require "diloti.games.pilotta.ai_helpers"

local M = {}

--- expert's bidding options (lua/games/pilotta/ai/expert.lua,
-- BID): 20 trick points kept in hand, contra when the bidders should fall
-- 50 short, recontra with 20 to spare.
M.OPTS = { margin = 20, contra = 50, recontra = 20 }

--- The sure tricks pl_helpers.bid wants for capot (its default).
M.CAPOT = 8

local SUITS = PL.SUITS
local SUIT_WORD = { c = "clubs", d = "diamonds", h = "hearts", s = "spades" }
local RANK_WORD = { J = "Jack", ["9"] = "Nine", A = "Ace", ["10"] = "Ten", K = "King", Q = "Queen" }
local FOUR_WORD = { J = "Jacks", ["9"] = "Nines", A = "Aces", ["10"] = "Tens", K = "Kings", Q = "Queens" }
M.SUIT_WORD = SUIT_WORD

local function plural(n, one, many)
  return string.format("%d %s", n, n == 1 and one or (many or one .. "s"))
end

local function round(x) return math.floor(x + 0.5) end
-- (a cover is said rounded down: the bids it covers are the ones at or
-- under the figure said)
local floor = math.floor

-- "a, b and c"
local function list_words(parts)
  if #parts <= 1 then return parts[1] or "" end
  return table.concat(parts, ", ", 1, #parts - 1) .. " and " .. parts[#parts]
end

local function ctx_of(view, rules)
  local seat = view.seat or 0
  return { seat = seat, side = seat % 2, partner = (seat + 2) % 4, rules = rules or {} }
end

-- The moves as moves_info entries (g:moves(true)); texts are read as
-- g:moves() gives them.
local function infos_of(moves)
  local out = {}
  for i, m in ipairs(moves) do
    if type(m) == "table" then out[i] = m
    else
      local kind = (m == "pass" or m == "contra" or m == "recontra") and m or (m:match("^trump") and "trump" or "bid")
      out[i] = { text = m, kind = kind }
    end
  end
  return out
end

--- The evaluation of a hand for each trump suit: { c = e, d = e, ... }
-- with pl_helpers.evaluate's fields (tricks, decls, decl_total,
-- decl_best, decl_expect, belote, total, winners, features) and `n` the
-- trumps held, `cover` the highest bid the hand covers by itself with
-- opts.margin kept in hand (total - margin, in trick points).
function M.evaluate(hand, rules, opts)
  opts = opts or M.OPTS
  local out = {}
  for _, s in ipairs(SUITS) do
    local e = PL.evaluate(hand, s, rules or {})
    e.n = 0
    for _, c in ipairs(hand) do if select(2, PL.split(c)) == s then e.n = e.n + 1 end end
    e.cover = e.total - (opts.margin or M.OPTS.margin)
    out[s] = e
  end
  return out
end

-- The trick-point estimate's parts in words: the trumps (length and
-- honours), the side aces, tens and short suits.
local function tricks_words(e)
  local f = e.features
  local honours = {}
  for _, r in ipairs { "J", "9", "A", "10" } do
    if f["t" .. r] == 1 then honours[#honours + 1] = "the " .. RANK_WORD[r] end
  end
  local parts = { plural(e.n, "trump") .. (#honours > 0 and (" with " .. list_words(honours)) or
    (e.n > 0 and " without the Jack or the Nine" or "")) }
  if f.sA > 0 then parts[#parts + 1] = plural(f.sA, "side Ace") end
  local tens = f.s10 - f.s10A
  if f.s10A > 0 then parts[#parts + 1] = plural(f.s10A, "side Ten beside its Ace", "side Tens beside their Aces") end
  if tens > 0 then parts[#parts + 1] = plural(tens, "side Ten") end
  if f.short > 0 then parts[#parts + 1] = "short side suits to trump in" end
  return table.concat(parts, "; ")
end

local function decl_word(d)
  if d.kind == "four" then return "four " .. FOUR_WORD[d.rank] .. " (" .. d.value .. ")" end
  return string.format("a run of %d (%d)", #d.cards, d.value)
end

-- The declarations in words, with how likely they stand (P36, P37).
local function decl_words(e)
  if e.decl_total == 0 then return nil end
  local list = {}
  for _, d in ipairs(e.decls) do list[#list + 1] = decl_word(d) end
  local stands = e.decl_expect / e.decl_total
  if stands >= 0.995 then return string.format("declarations %d (%s, which should stand)", e.decl_total,
    list_words(list)) end
  return string.format("declarations %d (%s, counted at %d: a best declaration of %d stands about %d%% of the time)",
    round(e.decl_expect), list_words(list), round(e.decl_expect), e.decl_best, round(stands * 100))
end

--- The hand's worth in suit s in words: "about 128 for your side with
-- hearts as trumps: 96 in tricks (...), declarations ..., the belote 20".
function M.worth_words(e, s)
  local parts = { string.format("%d in tricks (%s)", round(e.tricks), tricks_words(e)) }
  parts[#parts + 1] = decl_words(e)
  if e.belote > 0 then parts[#parts + 1] = "the belote 20" end
  return string.format("about %d for your side with %s as trumps: %s", round(e.total), SUIT_WORD[s],
    list_words(parts))
end

-- The sure tricks in words (capot): from the trumps (the top ones in
-- sequence, all of them when they draw the rest), the side Aces and the
-- Tens under them.
local function winners_words(e)
  local f = e.features
  local parts = {}
  local tw = e.winners - f.sA - f.s10A
  if tw > 0 then parts[#parts + 1] = string.format("%d from its trumps, the top ones in sequence", tw) end
  if f.sA > 0 then parts[#parts + 1] = plural(f.sA, "side Ace") end
  if f.s10A > 0 then parts[#parts + 1] = plural(f.s10A, "Ten beside its Ace", "Tens beside their Aces") end
  return string.format("%s by itself with %s as trumps%s", plural(e.winners, "trick"), SUIT_WORD[e.trumps],
    #parts > 0 and (" (" .. table.concat(parts, "; ") .. ")") or "")
end

--- The tricks the hand should take by itself with suit s as trumps (nil:
-- its best suit), as pl_helpers.evaluate counts them for capot, and that
-- in words.
function M.sure_tricks(view, rules, s)
  local ev = M.evaluate(view.hand, rules)
  if not s then
    for _, t in ipairs(SUITS) do if not s or ev[t].total > ev[s].total then s = t end end
  end
  return ev[s].winners, winners_words(ev[s])
end

-- What the position holds for the words: the evaluation, the best suit,
-- the contract, the lowest legal bid in each suit.
local function position(view, infos, rules, opts)
  local p = { ev = M.evaluate(view.hand, rules, opts), c = view.contract, seat = view.seat or 0, lowest = {},
    values = { c = {}, d = {}, h = {}, s = {} }, opts = opts }
  p.side, p.partner = p.seat % 2, (p.seat + 2) % 4
  for _, s in ipairs(SUITS) do
    if not p.best or p.ev[s].total > p.ev[p.best].total then p.best = s end
  end
  for _, m in ipairs(infos) do
    p[m.kind] = true
    local v, s, capot = PL.parse_bid(m.text)
    if v and not capot then
      for _, t in ipairs(s and { s } or SUITS) do
        if not p.lowest[t] or v < p.lowest[t] then p.lowest[t] = v end
        p.values[t][#p.values[t] + 1] = v
      end
    end
  end
  p.has_bid, p.passed, p.phase, p.rules = false, false, view.phase, rules or {}
  for _, c in ipairs(view.calls or {}) do
    if c.seat == p.seat and c.kind == "bid" then p.has_bid = true end
    if c.seat == p.seat and c.kind == "pass" then p.passed = true end
  end
  if p.c and type(p.c) ~= "table" then p.c = nil end
  return p
end

-- (in words, as the rest of the sentence: "100 in spades", not "100s")
local function contract_words(c)
  local suit = c.suit and (" in " .. SUIT_WORD[c.suit]) or ""
  if c.capot then return "capot" .. suit end
  return tostring(c.value) .. suit
end

-- The suit a contract is played in, for this hand (a numbers-only bid:
-- the hand's best).
local function suit_of(p) return p.c.suit or p.best end

-- The highest bid this seat's evaluation covers in suit s over its
-- partner's standing contract: the partner's bid counts on an average
-- partner (PL.AVERAGE); this hand adds what it holds above that.
-- The lowest raise of the partner's contract expert would make in suit
-- s: pl_helpers.bid raises by more than one step (the step is what any
-- partner a little above average would add).
local function lowest_raise(p, s)
  local low
  for _, v in ipairs(p.values[s]) do
    if v > p.c.value + 10 and (not low or v < low) then low = v end
  end
  return low
end

local function raise_cover(p, s)
  return p.c.value + p.ev[s].total - PL.AVERAGE
end

--- The highest bid value the evaluation covers in suit s (nil: the best
-- suit) for the seat of `view`, as expert reckons it: its own hand with
-- the margin kept, or over its partner's contract in that suit what the
-- hand adds to an average partner; and the reason in words.
function M.cover(view, moves, rules, s, opts)
  opts = opts or M.OPTS
  local p = position(view, infos_of(moves), rules, opts)
  s = s or p.best
  local e = p.ev[s]
  local own = e.cover
  local words = string.format("%s; keeping %d in hand, it covers %d", M.worth_words(e, s), opts.margin, floor(own))
  local c = p.c
  if c and c.team == p.side and c.bidder == p.partner and (c.suit == nil or c.suit == s) then
    local r = raise_cover(p, s)
    if r > own then
      return r, string.format("your partner's %s counts on an average partner (%d for a side); your hand is worth %s, "
        .. "%d %s than that, so your side covers about %d", contract_words(c), PL.AVERAGE, M.worth_words(e, s),
        math.abs(round(e.total - PL.AVERAGE)), e.total >= PL.AVERAGE and "more" or "less", floor(r)), e
    end
  end
  return own, words, e
end

-- ---- the reasons for each kind of call ---------------------------------------

local function contra_reason(p)
  local c = p.c
  local s = suit_of(p)
  local e = p.ev[s]
  if c.capot then
    return string.format("a capot needs every trick (P14), and your hand should take %s (P16)", winners_words(e)),
      10 * e.winners
  end
  local claim = math.min(c.value, PL.TRICKS_CLAIM)
  local left = 162 - e.tricks
  -- (the estimate is linear: a very strong hand can pass 162 in it)
  local shown = math.min(162, e.tricks)
  local need = c.value > PL.TRICKS_CLAIM
    and string.format("their %s must bring at least %d from tricks (the rest of a bid over %d may rest on "
      .. "declarations and the belote)", contract_words(c), claim, PL.TRICKS_CLAIM)
    or string.format("their %s needs %d from tricks", contract_words(c), claim)
  return string.format("%s; with %s as trumps your side should take about %d in tricks (%s), leaving them about %d, "
    .. "%d under what they need, and a contra wants them %d short (P16)", need, SUIT_WORD[s], round(shown),
    tricks_words(e), round(162 - shown), round(claim - 162 + shown), p.opts.contra), claim - (left + p.opts.contra)
end

--- What a contra by the seat of `view` rests on, for the coach: {short,
-- words} with `short` how far under what their contract needs from
-- tricks this hand leaves the bidders (for a capot: the sure tricks it
-- takes from them, times 10), and `words` those figures said; nil when
-- no contract of the other side stands.
function M.contra_case(view, moves, rules, opts)
  opts = opts or M.OPTS
  local p = position(view, infos_of(moves), rules, opts)
  local c = p.c
  if not c or c.team == p.side then return nil end
  local s = suit_of(p)
  local e = p.ev[s]
  if c.capot then
    return { short = 10 * e.winners, capot = true, words = string.format("a capot needs every trick (P14), and your "
      .. "hand should take %s", winners_words(e)) }
  end
  local claim = math.min(c.value, PL.TRICKS_CLAIM)
  local shown = math.min(162, e.tricks)
  local short = claim - (162 - shown)
  return { short = short, words = string.format("their %s needs %d from tricks; with %s as trumps your side should "
    .. "take about %d in tricks (%s), leaving them about %d, %s", contract_words(c), claim, SUIT_WORD[s], round(shown),
    tricks_words(e), round(162 - shown), short >= 0.5 and string.format("%d under what they need", round(short))
      or string.format("enough for it with %d to spare", round(-short))) }
end

-- Why no contra: the same figures, short of the margin.
local function no_contra(p)
  local c = p.c
  local s = suit_of(p)
  local e = p.ev[s]
  if c.capot then return "your hand counts no sure trick against their capot (P16)" end
  local claim = math.min(c.value, PL.TRICKS_CLAIM)
  local left = round(math.max(0, 162 - e.tricks))
  local standing = left >= claim and string.format("%d, enough for the %d they need from tricks", left, claim)
    or string.format("%d of the %d they need from tricks, %d short", left, claim, claim - left)
  return string.format("no contra: with %s as trumps your side should take about %d in tricks, leaving them about "
    .. "%s; a contra wants them %d short (P16)", SUIT_WORD[s], round(math.min(162, e.tricks)), standing,
    p.opts.contra)
end

-- The figure a recontra rests on: what our side should make of its own
-- contract.
local function ours(p)
  local s = suit_of(p)
  if p.c.bidder == p.seat then return p.ev[s].total, s end
  return raise_cover(p, s), s
end

--- What a recontra by the seat of `view` rests on: {above, words} with
-- `above` what this side should make beyond its own contract (negative:
-- short of it); nil when no contract of this side stands.
function M.recontra_case(view, moves, rules, opts)
  opts = opts or M.OPTS
  local p = position(view, infos_of(moves), rules, opts)
  if not p.c or p.c.team ~= p.side then return nil end
  local mine, s = ours(p)
  local e = p.ev[s]
  local words
  if p.c.bidder == p.seat then
    words = string.format("your %s: your hand is worth %s", contract_words(p.c), M.worth_words(e, s))
  else
    words = string.format("your partner's %s counts on an average partner (%d for a side); your hand is worth %s: "
      .. "your side should make about %d", contract_words(p.c), PL.AVERAGE, M.worth_words(e, s), round(mine))
  end
  return { above = mine - p.c.value, words = words }
end

local function recontra_reason(p, yes)
  local mine, s = ours(p)
  local e = p.ev[s]
  local base
  if p.c.bidder == p.seat then
    base = string.format("your %s after their contra: your hand is worth %s", contract_words(p.c), M.worth_words(e, s))
  else
    base = string.format("your partner's %s after their contra counts on an average partner (%d for a side); your "
      .. "hand is worth %s: your side should make about %d", contract_words(p.c), PL.AVERAGE, M.worth_words(e, s),
      round(mine))
  end
  local above = floor(mine - p.c.value)
  if yes then
    return string.format("%s, %d above the bid, and a recontra wants %d (P17)", base, above, p.opts.recontra),
      mine - (p.c.value + p.opts.recontra)
  end
  return string.format("%s, %d %s the bid, not the %d above it that a recontra wants (P17)", base, math.abs(above),
    above >= 0 and "above" or "under", p.opts.recontra)
end

local function bid_reason(p, call)
  local v, s, capot = PL.parse_bid(call)
  s = s or p.best
  local e = p.ev[s]
  local c = p.c
  if capot then
    return string.format("capot promises all eight tricks (250, P14, P42), and your hand should take %s",
      winners_words(e)), e.cover - (p.lowest[s] or 80)
  end
  if c and c.team == p.side then
    local r = raise_cover(p, s)
    return string.format("your partner's %s counts on an average partner (%d for a side); your hand is worth %s, "
      .. "%d more than that: keeping %d in hand, your side covers %d, and %d is the highest bid under it (P14)",
      contract_words(c), PL.AVERAGE, M.worth_words(e, s), round(e.total - PL.AVERAGE), p.opts.margin, floor(r), v),
      r - (lowest_raise(p, s) or v)
  end
  local over = c and string.format(", over their %s", contract_words(c)) or ""
  return string.format("your hand is worth %s; keeping %d in hand for what it cannot see, it covers %d, and %d is the "
    .. "highest bid under it%s (P14)", M.worth_words(e, s), p.opts.margin, floor(e.cover), v, over),
    e.cover - (p.lowest[s] or v)
end

-- Why no bid is open to this seat when none is (the words and the rule
-- ids): the auction is over (the contra window), the seat passed under
-- PV-pass-final, or a contra closed the bidding.
local function closed_words(p)
  if p.phase == "contra" then
    return "but the auction is over: in the contra window only a pass or a contra is open", "PV-contra-after-auction"
  end
  if p.rules.pass_final and p.passed then
    return "but after your pass you may not bid again", "PV-pass-final"
  end
  if p.c and p.c.mult and p.c.mult > 1 then return "but a contra has closed the bidding", "P16, P18" end
  return "and no bid is open"
end

-- Why no bid of our own: the best suit's cover against the lowest open bid.
local function no_bid(p)
  local e = p.ev[p.best]
  local low = p.lowest[p.best]
  local under, id
  if low then under = string.format("under the lowest open bid, %d", low)
  else under, id = closed_words(p) end
  local ids = id and ("P14, P15, " .. id) or "P14, P15"
  return string.format("your best is %s; keeping %d in hand, it covers %d, %s (%s)",
    M.worth_words(e, p.best), p.opts.margin, floor(e.cover), under, ids)
end

local function pass_reason(p)
  local c = p.c
  if p.contra and c and c.team ~= p.side then return no_contra(p) .. "; " .. no_bid(p) end
  if p.recontra then return recontra_reason(p, false) end
  if c and c.mult and c.mult > 1 then
    return "after a contra only a pass is open to you (P18)"
  end
  if c and c.team == p.side then
    if c.bidder == p.seat then
      return string.format("your own %s is the highest bid (P15)", contract_words(c))
    end
    if p.has_bid then
      return string.format("your side holds the highest bid, your partner's %s, and you have bid already: the AIs "
        .. "raise once an auction, since partners raising each other in turn climb too high (P15)", contract_words(c))
    end
    local s = suit_of(p)
    local e = p.ev[s]
    local low = lowest_raise(p, s)
    return string.format("your partner's %s counts on an average partner (%d for a side); your hand is worth %s, "
      .. "so your side covers about %d with %d kept in hand, %s: no raise (P14, P15)", contract_words(c),
      PL.AVERAGE, M.worth_words(e, s), floor(raise_cover(p, s)), p.opts.margin,
      low and string.format("under %d, the lowest raise (the AIs raise by two steps or more, on a hand 20 or more "
        .. "better than that average partner)", low) or "and no raise is open")
  end
  return no_bid(p)
end

--- advise(view, moves, rules, opts) -> call, why, clear: expert's call
-- for the seat of `view` among the legal `moves` (g:moves(true) entries,
-- or their texts) under `rules`, the reason in words (rule ids
-- included), and how clear it is: the trick points beyond what the call
-- needs (0 for a pass).
function M.advise(view, moves, rules, opts)
  opts = opts or M.OPTS
  rules = rules or {}
  local infos = infos_of(moves)
  local ctx = ctx_of(view, rules)
  local p = position(view, infos, rules, opts)
  if infos[1] and infos[1].kind == "trump" then
    local call = infos[PL.name_trumps(view, infos, ctx)].text
    local s = call:match("([cdhs])$")
    return call, string.format("your hand is worth most with them: %s (P20, PV-suit-after-auction)",
      M.worth_words(p.ev[s], s)), 0
  end
  local call = infos[PL.bid(view, infos, ctx, opts)].text
  local why, clear
  if call == "pass" then why, clear = pass_reason(p), 0
  elseif call == "contra" then why, clear = contra_reason(p)
  elseif call == "recontra" then why, clear = recontra_reason(p, true)
  else why, clear = bid_reason(p, call) end
  return call, why, math.max(0, clear)
end

return M
