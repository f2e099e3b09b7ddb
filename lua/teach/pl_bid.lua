-- What a Pilotta hand is worth in the auction, for the table's advice
-- (hint, why, explain, the coach). A plain count, written for the table
-- until the AIs' own bidding evaluation (issue 17, lua/ai) is merged:
-- everything outside this file asks `M.evaluate` and `M.advise` only, so
-- swapping the count for that evaluation touches nothing else.
--
-- The count: a contract in suit s is worth the trick points the hand
-- brings with s as trumps plus an average partner's share, rounded down
-- to a bid. Trumps bring their card points (P6) and a length bonus (each
-- trump is a likely trick); aces on the side bring their 11 and what the
-- others throw on them; a ten beside its ace is likely to win too; the
-- belote (P39) and declarations (P33) add their value. A suit with too
-- few trumps to hold (under three with the Jack, under four with the Jack
-- or the Nine, under five without either) is worth no contract.
local help = require "diloti.ai.helpers"

local M = {}

M.PARTNER = 25 -- an average partner's trick points for the bidders
M.LENGTH = 5 -- a trump's worth beyond its card points
M.SIDE_ACE = 15 -- a side ace: its 11 and the small cards it catches
M.SIDE_TEN = 10 -- a side ten beside its ace
M.MARGIN = 10 -- a bid this far above the worth is "above the hand"
M.UNDER = 20 -- the advice bids this far under the worth (or the lowest open bid)

local SUITS = { "c", "d", "h", "s" }
local SUIT_WORD = { c = "clubs", d = "diamonds", h = "hearts", s = "spades" }
local RUN_ORDER = { ["7"] = 1, ["8"] = 2, ["9"] = 3, ["10"] = 4, J = 5, Q = 6, K = 7, A = 8 }

M.SUIT_WORD = SUIT_WORD

local function by_suit(hand)
  local out = { c = {}, d = {}, h = {}, s = {} }
  for _, c in ipairs(hand) do
    local s = help.suit(c)
    out[s][c:sub(1, -2)] = true
    out[s].n = (out[s].n or 0) + 1
  end
  return out
end

-- The runs (P33) in a hand: their values added (fours left aside: rare).
local function runs_value(suits)
  local total = 0
  for _, s in ipairs(SUITS) do
    local len = 0
    for r = 1, 9 do
      local held = false
      for rank, o in pairs(RUN_ORDER) do
        if o == r and suits[s][rank] then held = true end
      end
      if held then len = len + 1 else
        if len >= 5 then total = total + 100 elseif len == 4 then total = total + 50
        elseif len == 3 then total = total + 20 end
        len = 0
      end
    end
  end
  return total
end

--- The hand's worth per trump suit: { c = {worth, points, trumps, belote,
-- parts}, ... } where points are the estimated trick points for the
-- bidders and worth the highest bid they support (0 below 80).
function M.evaluate(hand)
  local suits = by_suit(hand)
  local decl = runs_value(suits)
  local out = {}
  for _, t in ipairs(SUITS) do
    local pts, parts = M.PARTNER + decl, {}
    local n = suits[t].n or 0
    for _, c in ipairs(hand) do
      if help.suit(c) == t then pts = pts + help.card_points(c, t) + M.LENGTH end
    end
    local aces = 0
    for _, s in ipairs(SUITS) do
      if s ~= t and suits[s].A then
        aces = aces + 1
        pts = pts + M.SIDE_ACE + (suits[s]["10"] and M.SIDE_TEN or 0)
      end
    end
    local belote = suits[t].K and suits[t].Q or false
    if belote then pts = pts + 20 end
    local nine = suits[t]["9"] and (suits[t].J and " and the Nine" or " with the Nine") or ""
    parts[#parts + 1] = string.format("%d trump%s%s%s", n, n == 1 and "" or "s",
      suits[t].J and " with the Jack" or "", nine)
    if aces > 0 then parts[#parts + 1] = string.format("%d ace%s on the side", aces, aces == 1 and "" or "s") end
    if belote then parts[#parts + 1] = "the belote (20)" end
    if decl > 0 then parts[#parts + 1] = string.format("declarations worth %d", decl) end
    local worth = math.floor(pts / 10) * 10
    -- (too few trumps to hold them: no contract in that suit, P20)
    local holds = (suits[t].J and n >= 3) or (n >= 4 and (suits[t].J or suits[t]["9"])) or n >= 5
    if not holds then worth = 0 end
    out[t] = { worth = worth >= 80 and math.min(worth, 160) or 0, points = pts, trumps = n, belote = belote,
      parts = parts }
  end
  return out
end

--- The defenders' hope against a contract in suit t: the trick points
-- this hand is likely to take from the bidders (aces, tens beside them,
-- the Jack and Nine of their trumps).
function M.defence(hand, t)
  local suits = by_suit(hand)
  local pts = 0
  local n = suits[t].n or 0
  if suits[t].J then pts = pts + 25 end
  if suits[t]["9"] and n >= 2 then pts = pts + 18 end
  if suits[t].A and n >= 3 then pts = pts + 11 end
  for _, s in ipairs(SUITS) do
    if s ~= t and suits[s].A then pts = pts + M.SIDE_ACE + (suits[s]["10"] and M.SIDE_TEN or 0) end
  end
  return pts
end

-- The strongest suit of an evaluation: suit, its entry. The worth
-- first, then (when no suit holds a contract) the longest, then points.
local function stronger(a, b)
  if a.worth ~= b.worth then return a.worth > b.worth end
  if a.trumps ~= b.trumps then return a.trumps > b.trumps end
  return a.points > b.points
end

function M.best(ev)
  local best
  for _, s in ipairs(SUITS) do
    if not best or stronger(ev[s], ev[best]) then best = s end
  end
  return best, ev[best]
end

local function find(moves, text)
  for _, m in ipairs(moves) do
    if (type(m) == "table" and m.text or m) == text then return text end
  end
end

--- In words: "about 100 in hearts (5 trumps with the Jack, 1 ace on the side)".
function M.worth_words(e, s)
  if e.worth == 0 then
    return string.format("not enough for 80 in %s (%s)", SUIT_WORD[s], table.concat(e.parts, ", "))
  end
  return string.format("about %d in %s (%s)", e.worth, SUIT_WORD[s], table.concat(e.parts, ", "))
end

--- A call for the seat whose view this is, among the legal moves: the
-- call, a reason in words, and how clear it is (points beyond the need).
function M.advise(view, moves)
  local ev = M.evaluate(view.hand)
  local k = view.contract
  local team = view.seat % 2
  local suit, e = M.best(ev)
  if view.phase == "trump" then
    local t = "trump " .. suit
    if find(moves, t) then return t, "your hand is worth most with them: " .. M.worth_words(e, suit), 0 end
  end
  if k and k.team ~= team and find(moves, "contra") then
    local d = M.defence(view.hand, k.suit)
    local they = 162 - d - M.PARTNER
    if they + M.MARGIN < k.value then
      return "contra", string.format("the bidders need %d and your hand should keep them to about %d "
        .. "(its aces and high trumps take about %d points, P16)", k.value, they, d), k.value - they
    end
  end
  if k and k.team == team and find(moves, "recontra") then
    local w = ev[k.suit].worth
    if w >= k.value + 20 then
      return "recontra", string.format("your hand is worth %s, well above the %d your side bid (P17)",
        M.worth_words(ev[k.suit], k.suit), k.value), w - k.value
    end
  end
  local high = k and k.value or 70
  -- (over a partner's bid, only with much more than it promises)
  local need = high + ((k and k.team == team) and 20 or 10)
  if e.worth >= need then
    -- (a bid some way under the worth: the count is rough, and the
    -- partner may raise)
    local v = math.max(80, high + 10, e.worth - M.UNDER)
    local t = v .. suit
    if find(moves, t) then
      return t, "your hand is worth " .. M.worth_words(e, suit), e.worth - v
    end
  end
  local why
  if k and k.team == team then
    why = "your side holds the highest bid, and your hand adds too little to raise it"
  elseif e.worth == 0 then
    why = "your best suit is " .. M.worth_words(e, suit)
  else
    why = string.format("your best is %s, not above the %d bid", M.worth_words(e, suit), high)
  end
  return "pass", why, 0
end

return M
