-- Diloti's helpers for AIs (value, rank, points, best_capture, chance):
-- every AI's ctx gets them, whatever game it plays (M.shared). Pure Lua
-- without require: the host loads it as a module, and every AI's own Lua
-- state runs the same text before the AI's script (the descriptor's
-- `ai_box`; lua/ai/box_helpers.lua hands the helpers out as ctx fields),
-- so that an AI calls these without crossing into the host. points and
-- best_capture are the engine's own (M.bind), so that they follow the
-- rules in force.
local M = {}

-- What the helpers call, kept now: inside a box the script shares these
-- globals and may replace them.
local ipairs, type, error = ipairs, type, error

-- ---- cards ----------------------------------------------------------

local RANKS = { "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K" }
local VALUE, RANK = {}, {}
for i, r in ipairs(RANKS) do
  for s in ("cdhs"):gmatch(".") do
    VALUE[r .. s] = i <= 10 and i or 0
    RANK[r .. s] = r
  end
end
local RANK_VALUE = {}
for i, r in ipairs(RANKS) do RANK_VALUE[r] = i <= 10 and i or 0 end
M.ranks = RANKS

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
  if VALUE[c] then return c end
  if #c > 16 then return nil end
  local r, s = c:match("^(10)(.+)$")
  if not r then r, s = c:match("^(.)(.+)$") end
  if not r then return nil end
  s = s:gsub("\u{FE0F}$", "")
  local rank, suit = RANK_OF[r:lower()], SUIT_OF[s:lower()] or SUIT_OF[s]
  return rank and suit and (rank .. suit) or nil
end

--- A card's numeral value (A = 1, 10 = 10), 0 for J, Q, K, nil if not a card.
function M.value(card)
  local c = canon_card(card)
  return c and VALUE[c]
end

--- A card's rank ("A", "2" .. "10", "J", "Q", "K"), nil if not a card.
function M.rank(card)
  local c = canon_card(card)
  return c and RANK[c]
end

-- The engine's own answers (src/diloti/lua/lcapture.c), given by M.bind: the
-- host's core.natives("diloti"), or inside a box the box's
-- own copies of the same C functions, so that an AI asks without
-- crossing into the host.
local native = {}

--- bind{best_capture =, points =}: the C functions the helpers call.
function M.bind(t)
  native.best_capture, native.points = t.best_capture, t.points
end

--- The points a list of cards scores by itself under the rules' points
-- (aces, the 10 of diamonds, the 2 of clubs; not the majorities).
function M.points(cards, rules)
  return native.points(cards, rules)
end

--- What a card of this rank could capture from a table (a view's table,
-- or the table in a simulate() answer) under the rules in force, variants
-- included, as the engine's move generator lists the captures:
-- {cards = list (card order), count = n, points = p, sweep = bool} for the
-- best capture (the most cards, then the most points, then the most clubs
-- when clubs score), nil if it takes nothing, nil and a reason for a
-- table that cannot be. sweep: it would take everything on the table (a
-- xeri unless the rules' exceptions apply). `what` is a card ("7h"), a
-- value (7) or a rank ("J").
function M.best_capture(what, tbl, rules)
  return native.best_capture(what, tbl, rules)
end

-- The rank meant by a card ("7h"), a value (7) or a rank ("J"), or nil.
local function rank_of(what)
  if math.type(what) == "integer" and what >= 1 and what <= 10 then return RANKS[what] end
  if type(what) == "string" then return RANK_VALUE[what] and what or M.rank(what) end
  return nil
end

--- The chance that seat `who` holds at least one card of a rank (a card,
-- a value or a rank), seen from `view`: certain for the viewer's own hand
-- and for a declaration's owner (D14: the owner holds a card of its
-- value), otherwise from how many of that rank are unseen and how many
-- cards the seat holds (a full new hand when it has none and the pack
-- still deals).
function M.chance(view, rules, what, who)
  local rank = rank_of(what)
  if not rank then error("chance: a card, a value 1-10 or a rank expected", 2) end
  if math.type(who) ~= "integer" or who < 0 or who >= view.players then
    error("chance: a seat expected", 2)
  end
  if who == view.seat then
    for _, c in ipairs(view.hand) do if RANK[c] == rank then return 1 end end
    return 0
  end
  local v = RANK_VALUE[rank]
  if v > 0 then
    for _, d in ipairs(view.table.declarations) do
      if d.owner == who and d.value == v then return 1 end
    end
  end
  local h = view.hand_counts[who]
  if h == 0 then
    if view.pack_count == 0 then return 0 end
    h = rules.hand_size
  end
  local k, u = 0, 0
  for _, c in ipairs(view.unseen) do
    u = u + 1
    if RANK[c] == rank then k = k + 1 end
  end
  if k == 0 then return 0 end
  if h >= u then return 1 end
  local miss = 1
  for i = 0, h - 1 do
    miss = miss * (u - k - i) / (u - i)
    if miss <= 0 then return 1 end
  end
  return 1 - miss
end

-- ---- inside an AI's box -------------------------------------------------

--- shared(ctx, view): these helpers in a ctx (of any game), bound to the
-- rules in force and, for a decision, to its view (lua/ai/box_helpers.lua).
function M.shared(ctx, view)
  ctx.value, ctx.rank = M.value, M.rank
  ctx.points = function(cards) return M.points(cards, ctx.rules) end
  ctx.best_capture = function(what, tbl)
    return M.best_capture(what, tbl or (view and view.table), ctx.rules)
  end
  if view then
    ctx.chance = function(what, who) return M.chance(view, ctx.rules, what, who) end
  end
end

return M
