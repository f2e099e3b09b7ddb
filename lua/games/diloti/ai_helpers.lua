-- The helpers an AI gets in ctx (value, rank, points, best_capture,
-- chance; for Pilotta suit, card_points, strength, winning) and the
-- driver that hands them over. Pure Lua without require:
-- the host loads it as a module, and every AI's own Lua state runs the
-- same text before the AI's script (docs/security.md), so that an AI
-- calls these without crossing into the host. points and best_capture
-- are the engine's own (M.bind), so that they follow the rules in force.
-- The descriptor's `ai_box` names this file as the one whose M the box
-- answers with (lua/ai/player.lua box_helpers).
local M = {}

-- Pilotta's evaluation, bidding and careful play (lua/games/pilotta/ai_helpers.lua):
-- inside a box its text runs just before this one, as the local PL_HELPERS
-- (its descriptor's ai_box `as`; lua/ai/player.lua joins the files); the
-- host requires it.
-- luacheck: read globals PL_HELPERS
local PL = PL_HELPERS or require("diloti.games.pilotta.ai_helpers")
M.pilotta = PL

-- What the helpers call, kept now: inside a box the script shares these
-- globals and may replace them.
local pairs, ipairs, next, type, error, setmetatable = pairs, ipairs, next, type, error, setmetatable

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

-- ---- Pilotta's cards (P5, P6) -----------------------------------------------

-- Places in the order for winning tricks, low to high, and card points.
local TRUMP_ORDER = { ["7"] = 1, ["8"] = 2, Q = 3, K = 4, ["10"] = 5, A = 6, ["9"] = 7, J = 8 }
local PLAIN_ORDER = { ["7"] = 1, ["8"] = 2, ["9"] = 3, J = 4, Q = 5, K = 6, ["10"] = 7, A = 8 }
local TRUMP_POINTS = { J = 20, ["9"] = 14, A = 11, ["10"] = 10, K = 4, Q = 3, ["8"] = 0, ["7"] = 0 }
local PLAIN_POINTS = { J = 2, ["9"] = 0, A = 11, ["10"] = 10, K = 4, Q = 3, ["8"] = 0, ["7"] = 0 }

-- A Pilotta card's rank and suit ("10d" -> "10", "d"), or nil.
local function pl_card(c)
  local card = canon_card(c)
  if not card then return nil end
  local r, s = card:match("^(10)(%a)$")
  if not r then r, s = card:match("^(%w)(%a)$") end
  if not r or not PLAIN_ORDER[r] then return nil end
  return r, s
end

--- A Pilotta card's suit letter, nil if not a card of the 32-card pack.
function M.suit(card)
  local _, s = pl_card(card)
  return s
end

--- A Pilotta card's points with `trumps` the trump suit (P6).
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

-- ---- inside an AI's state ------------------------------------------------

-- ctx fields the host sends only when a script reads them (through the
-- `more` service of the call), so that a decision that needs little
-- costs little.
local LAZY = { rules = true, moves_info = true, unseen = true }

-- The view, filled in from the host when it is first read; a plain table
-- from then on (its metatable goes once it is filled). Inside the box the
-- functions that could tell it apart from a plain table (setmetatable,
-- getmetatable, next) fill it first, so a script sees its own full copy
-- whatever it does first.
local unfilled = setmetatable({}, { __mode = "k" }) -- view -> the call's host service
local set_metatable = setmetatable -- (before guard_globals wraps it)

local function fill(view)
  local host = unfilled[view]
  if not host then return end
  unfilled[view] = nil
  set_metatable(view, nil)
  for k, v in pairs(host("more", "view")) do view[k] = v end
end

local VIEW = {
  __index = function(t, k) fill(t) return t[k] end,
  __newindex = function(t, k, v) fill(t) t[k] = v end,
  __pairs = function(t) fill(t) return next, t, nil end,
  __len = function(t) fill(t) return #t end,
}

local function guard_globals()
  -- (only what the box allows: getmetatable is not among it)
  for _, name in ipairs{ "setmetatable", "getmetatable", "next" } do
    local f = _ENV[name]
    if f then _ENV[name] = function(t, ...) fill(t) return f(t, ...) end end
  end
end

-- A ctx's lazy fields come from the host of its call.
local hosts = setmetatable({}, { __mode = "k" })
local CTX = {
  __index = function(t, k)
    local host = LAZY[k] and hosts[t]
    if not host then return nil end
    local v = host("more", k)
    t[k] = v -- (no __newindex: a plain set)
    return v
  end,
  __pairs = function(t)
    for k in pairs(LAZY) do local _ = t[k] end
    return next, t, nil
  end,
}

-- ctx from the plain data the host sent, with the helpers bound to the
-- rules in force and (for choose) to the view.
local function ctx_of(data, view)
  local host = data.host
  data.host = nil
  data.value, data.rank = M.value, M.rank
  -- (Pilotta's card helpers are plain functions of their arguments: every AI gets them)
  data.suit, data.card_points, data.strength, data.winning = M.suit, M.card_points, M.strength, M.winning
  data.points = function(cards) return M.points(cards, data.rules) end
  data.best_capture = function(what, tbl)
    return M.best_capture(what, tbl or (view and view.table), data.rules)
  end
  if view and data.game == "pilotta" then
    -- Pilotta's: the evaluation of a hand for a trump suit, its
    -- declarations, and the decisions built on them (an index into moves
    -- and a note)
    data.evaluate = function(trumps, hand) return PL.evaluate(hand or view.hand, trumps, data.rules) end
    data.declarations = function(cards) return PL.declarations(cards, data.rules.decl_overlap) end
    data.bid = function(opts) return PL.bid(view, data.moves_info, data, opts) end
    data.declare = function() return PL.declare(data.moves_info) end
    data.name_trumps = function() return PL.name_trumps(view, data.moves_info, data) end
    data.careful = function() return PL.careful(view, data.moves_info, data) end
    data.decide = function(bid, search) return PL.decide(view, data.moves_info, data, bid, search) end
  end
  if view then
    data.chance = function(what, who) return M.chance(view, data.rules, what, who) end
    data.simulate = function(move) return host("simulate", move) end
    data.search = function(opts) return host("search", opts) end
  end
  hosts[data] = host
  return set_metatable(data, CTX)
end

--- decide(choose, data, moves): the script's choose with its view and
-- ctx.
function M.decide(choose, data, moves)
  local view = set_metatable({}, VIEW)
  unfilled[view] = data.host
  return choose(view, moves, ctx_of(data, view))
end

--- notify(hook, data, arg): on_event or on_round_end with its ctx. What
-- the hook returns means nothing and is not sent back.
function M.notify(hook, data, arg)
  hook(arg, ctx_of(data))
end

-- Inside a box (where there is no require) the helpers run before the
-- script: the globals that could tell an unfilled view from a plain table
-- are wrapped before the script can keep the originals.
if require == nil then guard_globals() end

return M
