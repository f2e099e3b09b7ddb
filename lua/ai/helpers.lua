-- The helpers an AI gets in ctx (value, rank, points, best_capture,
-- chance) and the driver that hands them over. Pure Lua without require:
-- the host loads it as a module, and every AI's own Lua state runs the
-- same text before the AI's script (docs/security.md), so that an AI
-- calls these without crossing into the host.
local M = {}

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

--- The points a list of cards scores by itself under the rules' points
-- (aces, the 10 of diamonds, the 2 of clubs; not the majorities).
function M.points(cards, rules)
  local p = rules and rules.points or { ace = 1, ten_diamonds = 2, two_clubs = 1 }
  local n = 0
  for _, card in ipairs(cards) do
    local c = canon_card(card)
    if c then
      if RANK[c] == "A" then n = n + (p.ace or 0)
      elseif c == "10d" then n = n + (p.ten_diamonds or 0)
      elseif c == "2c" then n = n + (p.two_clubs or 0) end
    end
  end
  return n
end

-- Partitions of v into numeral values, each as a list of {value, count}:
-- every way a combination of value v can be made (D3).
local PARTITIONS = {}
for v = 1, 10 do
  local out = {}
  local function rec(rem, maxp, acc)
    if rem == 0 then
      local counts = {}
      for _, x in ipairs(acc) do counts[x] = (counts[x] or 0) + 1 end
      local p, size = {}, 0
      for x = 10, 1, -1 do
        if counts[x] then p[#p + 1] = { x, counts[x] }; size = size + counts[x] end
      end
      p.size = size
      out[#out + 1] = p
      return
    end
    for x = math.min(rem, maxp), 1, -1 do
      acc[#acc + 1] = x
      rec(rem - x, x, acc)
      acc[#acc] = nil
    end
  end
  rec(v, v, {})
  PARTITIONS[v] = out
end

-- The most loose cards that disjoint combinations of value v can cover,
-- given counts per value: returns how many cards of each value are used.
local function cover(counts, v)
  local parts = {}
  for _, p in ipairs(PARTITIONS[v]) do
    local fits = true
    for _, vc in ipairs(p) do
      if (counts[vc[1]] or 0) < vc[2] then fits = false; break end
    end
    if fits then parts[#parts + 1] = p end
  end
  local best, best_use = 0, {}
  local use = {}
  local left = 0 -- cards not yet used: once all are covered, stop looking
  for x = 1, v do left = left + (counts[x] or 0) end
  local function rec(i, total)
    if total + left <= best then return end
    if i > #parts then
      if total > best then
        best = total
        best_use = {}
        for k, n in pairs(use) do best_use[k] = n end
      end
      return
    end
    local p = parts[i]
    local kmax = math.huge
    for _, vc in ipairs(p) do kmax = math.min(kmax, counts[vc[1]] // vc[2]) end
    for k = kmax, 0, -1 do
      for _, vc in ipairs(p) do
        counts[vc[1]] = counts[vc[1]] - k * vc[2]
        use[vc[1]] = (use[vc[1]] or 0) + k * vc[2]
      end
      left = left - k * p.size
      rec(i + 1, total + k * p.size)
      left = left + k * p.size
      for _, vc in ipairs(p) do
        counts[vc[1]] = counts[vc[1]] + k * vc[2]
        use[vc[1]] = use[vc[1]] - k * vc[2]
      end
    end
  end
  rec(1, 0)
  return best_use, best
end

-- How much a card is worth to take, to choose between equal-valued cards.
local function worth(c, rules)
  local w = 1 + 3 * M.points({ c }, rules)
  if rules and rules.points and (rules.points.clubs or 0) > 0 and c:sub(-1) == "c" then w = w + 0.3 end
  return w
end

-- The rank meant by a card ("7h"), a value (7) or a rank ("J"), or nil.
local function rank_of(what)
  if math.type(what) == "integer" and what >= 1 and what <= 10 then return RANKS[what] end
  if type(what) == "string" then return RANK_VALUE[what] and what or M.rank(what) end
  return nil
end

--- What a card of this rank could capture from a table (a view's table,
-- or the table in a simulate() answer) under the standard capture rules:
-- {cards = list, count = n, points = p, sweep = bool} for the best
-- capture (the most cards, point cards first), or nil if it takes nothing.
-- sweep: it would take everything on the table (a xeri unless the rules'
-- exceptions apply). `what` is a card ("7h"), a value (7) or a rank ("J").
function M.best_capture(what, tbl, rules)
  local rank = rank_of(what)
  if not rank then error("best_capture: a card, a value 1-10 or a rank expected", 2) end
  local v = RANK_VALUE[rank]
  local one = rules and rules.capture == "one"
  local loose, decls = {}, {}
  for _, c in ipairs(tbl and tbl.loose or {}) do loose[#loose + 1] = c end
  for _, d in ipairs(tbl and tbl.declarations or {}) do decls[#decls + 1] = d end
  local taken = {}
  if v == 0 or one then
    -- one card of the same rank (D12, K2); three face cards together
    -- under V-three-face-cards.
    local same = {}
    for _, c in ipairs(loose) do if RANK[c] == rank then same[#same + 1] = c end end
    table.sort(same, function(a, b) return worth(a, rules) > worth(b, rules) end)
    if v == 0 then
      if #same == 3 and rules and rules.three_face_cards then
        taken = same
      elseif same[1] then
        taken = { same[1] }
      end
    else
      -- Kontsina: one combination, the best of a single card and sums.
      local best, best_w = nil, 0
      if same[1] then best, best_w = { same[1] }, worth(same[1], rules) end
      local by = {}
      for _, c in ipairs(loose) do
        local cv = VALUE[c]
        if cv and cv > 0 and cv < v then
          by[cv] = by[cv] or {}
          table.insert(by[cv], c)
        end
      end
      for _, list in pairs(by) do table.sort(list, function(a, b) return worth(a, rules) > worth(b, rules) end) end
      for _, p in ipairs(PARTITIONS[v]) do
        if p.size >= 2 then
          local cards, w, ok = {}, 0, true
          for _, vc in ipairs(p) do
            local list = by[vc[1]]
            if not list or #list < vc[2] then ok = false; break end
            for i = 1, vc[2] do cards[#cards + 1] = list[i]; w = w + worth(list[i], rules) end
          end
          if ok and w > best_w then best, best_w = cards, w end
        end
      end
      if best then taken = best end
    end
  else
    local counts, by = {}, {}
    for _, c in ipairs(loose) do
      local cv = VALUE[c]
      if cv and cv > 0 and cv <= v then
        counts[cv] = (counts[cv] or 0) + 1
        by[cv] = by[cv] or {}
        table.insert(by[cv], c)
      end
    end
    local use = cover(counts, v)
    for cv, n in pairs(use) do
      if n > 0 then
        table.sort(by[cv], function(a, b) return worth(a, rules) > worth(b, rules) end)
        for i = 1, n do taken[#taken + 1] = by[cv][i] end
      end
    end
    for _, d in ipairs(decls) do
      if d.value == v then
        for _, c in ipairs(d.cards) do taken[#taken + 1] = c end
      end
    end
  end
  if #taken == 0 then return nil end
  table.sort(taken)
  local loose_taken = 0
  for _, c in ipairs(taken) do
    for _, l in ipairs(loose) do if l == c then loose_taken = loose_taken + 1; break end end
  end
  local decls_taken = 0
  if v > 0 and not one then
    for _, d in ipairs(decls) do if d.value == v then decls_taken = decls_taken + 1 end end
  end
  return {
    cards = taken, count = #taken, points = M.points(taken, rules),
    sweep = loose_taken == #loose and decls_taken == #decls,
  }
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

local guarded = false
local function guard_globals()
  guarded = true
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
  data.points = function(cards) return M.points(cards, data.rules) end
  data.best_capture = function(what, tbl)
    return M.best_capture(what, tbl or (view and view.table), data.rules)
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
  if not guarded then guard_globals() end
  local view = set_metatable({}, VIEW)
  unfilled[view] = data.host
  return choose(view, moves, ctx_of(data, view))
end

--- notify(hook, data, arg): on_event or on_round_end with its ctx. What
-- the hook returns means nothing and is not sent back.
function M.notify(hook, data, arg)
  hook(arg, ctx_of(data))
end

return M
