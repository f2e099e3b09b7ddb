-- What a player typed, turned into one legal move: the full notation
-- (any spelling the engine reads), the number of a move in the list, or a
-- shorter input that fits exactly one legal move ("7h" when the 7h has one
-- legal use, "7h x" for its only capture, "7h x 3c" for the capture that
-- takes the 3c, "3h on 5s" for the declaration that puts the 3h on the 5s
-- and nothing else). Items are named as the notation names them, a
-- declaration by its reference, kind and value, value or cards. Used by
-- the table and the lessons.
--
--   local r = moveinput.resolve(g, "7h x")
--   r.move        the canonical move text, when exactly one fits
--   r.candidates  the moves that fit, when several do
--   r.error       why nothing fits: the engine's refusal (led by its rule
--                 id) or what could not be read; r.suggestions lists the
--                 legal moves close to a refused one
local diloti = require "diloti"

local M = {}

local OPS = { x = "capture", ["-"] = "lay", lay = "lay", ["+"] = "declare", ["="] = "declare" }

local function words(text)
  local out = {}
  -- '+', '=', ',' and 'x' between items may come without spaces: "7hx3c".
  local spaced = text:gsub("[,]", " "):gsub("([%+=])", " %1 ")
  for w in spaced:gmatch("%S+") do out[#out + 1] = w end
  return out
end

-- A card or a declaration, as the engine reads them (docs/notation.md
-- 2.2): a reference ("P4@1", "@1"), kind and value ("P4"), or a value
-- alone ("4": a loose card or a declaration worth 4).
local function item(w)
  local c = diloti.card(w)
  if c then return c end
  local kind, value, seat = w:upper():match("^([PG]?)(%d*)@(%d+)$")
  if seat then return { kind = kind, value = tonumber(value), seat = tonumber(seat) } end
  kind, value = w:upper():match("^([PG])(%d+)$")
  if kind then return { kind = kind, value = tonumber(value) } end
  if w:match("^%d+$") then return { kind = "", value = tonumber(w), worth = true } end
  return nil
end

-- What a card (as the engine prints it: "Ah", "10d") counts: J, Q, K nothing.
local function value_of(card)
  local rank = card:sub(1, -2)
  return rank == "A" and 1 or tonumber(rank) or 0
end

local function ref_fits(ref, take)
  local kind, value, seat = take:match("^([PG])(%d+)@(%d+)$")
  if not kind then
    -- a loose card: only a bare value names one
    return ref.worth == true and value_of(take) == ref.value
  end
  if ref.seat and tonumber(seat) ~= ref.seat then return false end
  if ref.kind ~= "" and ref.kind ~= kind then return false end
  return not ref.value or ref.value == tonumber(value)
end

local function names(want, t)
  if type(want) == "table" then return want.ref == t or (not want.ref and ref_fits(want, t)) end
  return want == t
end

local function takes_all(move, items)
  for _, want in ipairs(items) do
    local found = false
    for _, t in ipairs(move.takes or {}) do
      if names(want, t) then
        found = true
        break
      end
    end
    if not found then return false end
  end
  return true
end

-- Is every take of the move named ("3h on 5s" names all it joins)?
local function named_all(move, items)
  for _, t in ipairs(move.takes or {}) do
    local found = false
    for _, want in ipairs(items) do
      if names(want, t) then
        found = true
        break
      end
    end
    if not found then return false end
  end
  return true
end

-- All the cards of a declaration, named one by one, stand for it (as in
-- the notation); some of them name nothing.
local function whole_declarations(g, items)
  local ok, v = pcall(g.view, g, g:turn() or 0)
  if not ok then return items end
  local named, out = {}, {}
  for _, w in ipairs(items) do if type(w) == "string" then named[w] = true end end
  local whole = {}
  for _, d in ipairs(v.table.declarations) do
    local all = true
    for _, c in ipairs(d.cards) do all = all and named[c] == true end
    for _, c in ipairs(d.cards) do whole[c] = all and d.ref or false end
  end
  local added = {}
  for _, w in ipairs(items) do
    local ref = type(w) == "string" and whole[w]
    if ref then
      if not added[ref] then out[#out + 1] = { ref = ref } end
      added[ref] = true
    else
      out[#out + 1] = w
    end
  end
  return out
end

local function kind_fits(op, value, move)
  if not op then return true end
  if op == "declare" then
    if not (move.kind == "plain" or move.kind == "raise" or move.kind == "group") then return false end
    if value then
      local group = value:upper():sub(1, 1) == "G"
      local v = tonumber(group and value:sub(2) or value)
      if v ~= move.value then return false end
      if group ~= (move.kind == "group") then return false end
    end
    return true
  end
  return move.kind == op
end

-- The parts of a short input: card, operator, items, declared value.
local function parse_short(text)
  local w = words(text)
  local card = diloti.card(w[1] or "")
  if not card then return nil end
  local q = { card = card, items = {} }
  local i = 2
  if w[i] and OPS[w[i]:lower()] then
    q.op = OPS[w[i]:lower()]
    i = i + 1
  elseif w[i] and w[i]:lower() == "on" then
    -- "3h on 5s": the card joins exactly those items, to the one value
    -- that is legal
    q.op, q.exact = "declare", true
    i = i + 1
  end
  while w[i] do
    if w[i] == "=" then
      q.op = "declare"
      q.value = w[i + 1]
      if not q.value or w[i + 2] then return nil end
      break
    elseif w[i] == "+" then
      q.op = "declare"
    else
      local it = item(w[i])
      if not it then return nil end
      q.items[#q.items + 1] = it
    end
    i = i + 1
  end
  -- "3h 5s 8": no operator, items, then a value: the '+' and '=' left out.
  local last = w[#w]
  if not q.op and #q.items >= 2 and last:match("^[Gg]?%d+$") then
    q.op, q.value = "declare", last
    q.items[#q.items] = nil
  end
  return q
end

local function matching(moves, q)
  local out = {}
  for _, m in ipairs(moves) do
    if m.card == q.card and kind_fits(q.op, q.value, m) and takes_all(m, q.items)
      and (not q.exact or named_all(m, q.items)) then
      out[#out + 1] = m.text
    end
  end
  return out
end

--- Does this input look like a move rather than a command or Lua? A move
-- starts with a card, or is a move number, claim or keep.
function M.looks_like_move(text)
  local first = text:match("^%s*(%S+)")
  if not first then return false end
  if first:match("^%d+$") then return text:match("^%s*%d+%s*$") ~= nil end
  if first == "claim" or first == "keep" then return true end
  return diloti.card(first:gsub("[x%+=,].*$", "")) ~= nil
end

--- resolve(game, text [, moves]) -> {move=} | {candidates=} | {error=}.
-- moves: the structured legal moves (game:moves(true)) if already known.
function M.resolve(g, text, moves)
  text = text:match("^%s*(.-)%s*$")
  local n = math.tointeger(tonumber(text))
  if n and text:match("^%d+$") then
    local m = g:parse(n)
    if m then return { move = m.text } end
    moves = moves or g:moves()
    return { error = string.format("there is no move number %d: the list has %d (type 'moves')", n, #moves) }
  end
  -- The engine's canonical spelling is the one the list shows.
  local parsed, why = g:parse(text)
  if parsed then return { move = parsed.text } end
  moves = moves or g:moves(true)
  local q = parse_short(text)
  if q then q.items = whole_declarations(g, q.items) end
  local fits = q and matching(moves, q) or {}
  if why and not why:match("^not a move") then
    -- A whole move the rules refuse: the reason, and what would fit.
    return { error = why, suggestions = fits }
  end
  if not q then return { error = why or "not a move" } end
  if #fits == 1 then return { move = fits[1] } end
  if #fits > 1 then return { candidates = fits } end
  return { error = M.why_not(g, q, moves, why) }
end

-- Nothing fits a short input: say why in the engine's words where we can.
function M.why_not(g, q, moves, parse_error)
  local held = false
  for _, m in ipairs(moves) do
    if m.card == q.card then held = true; break end
  end
  if not held then
    local _, why = g:check(q.card .. " lay")
    if why and why:match("^D9") then return why end
    return string.format("%s has no legal move here%s", q.card, why and (" (" .. why .. ")") or "")
  end
  if q.op == "lay" then
    local _, why = g:check(q.card .. " lay")
    return why or parse_error
  end
  local why = q.exact and M.why_not_on(g, q)
  if why then return why end
  return string.format("no legal move of %s fits that; %s", q.card,
    parse_error and parse_error:gsub("^not a move: ", "the input reads: ") or "type 'moves' for the list")
end

-- "3h on 5s" fits nothing: the engine's refusal of the plain declaration
-- those cards would make, when they are all loose cards.
function M.why_not_on(g, q)
  local sum, cards = value_of(q.card), {}
  for _, w in ipairs(q.items) do
    if type(w) ~= "string" then return nil end
    sum, cards[#cards + 1] = sum + value_of(w), w
  end
  if #cards == 0 then return nil end
  local text = string.format("%s + %s = %d", q.card, table.concat(cards, " "), sum)
  if sum > 10 then
    return string.format("D15: %s would make %d, and a declared value is 1 to 10", text:match("^(.-) ="), sum)
  end
  local _, why = g:check(text)
  if why and why:match("^not a move") then return nil end
  return why
end

-- ---------------------------------------------------------------------
-- Natural ways to say a declaration (the lessons teach them).

local DECLARE_KINDS = { plain = "P", raise = "P", group = "G" }

-- Cards summing to `want` out of a list of card names (at most 2^12 tries).
local function subsets(cards, want, fn)
  local n = math.min(#cards, 12)
  for mask = 1, (1 << n) - 1 do
    local sum, pick = 0, {}
    for i = 1, n do
      if mask & (1 << (i - 1)) ~= 0 then sum, pick[#pick + 1] = sum + value_of(cards[i]), cards[i] end
    end
    if sum == want and fn(pick) then return true end
  end
end

-- No declaration of v is legal: the engine's refusal of a plain one the
-- hand and the loose cards could make, if there is one.
local function why_no_declaration(g, v, kind)
  local what = kind == "G" and string.format("a group of %ds", v) or string.format("a declaration of %d", v)
  local why
  if kind ~= "G" then
    local view = g:view(g:turn() or 0)
    for _, c in ipairs(view.hand) do
      local cv = value_of(c)
      if cv > 0 and cv < v and not why then
        subsets(view.table.loose, v - cv, function(pick)
          local _, w = g:check(string.format("%s + %s = %d", c, table.concat(pick, " "), v))
          if w and not w:match("^not a move") then why = w end
          return why ~= nil
        end)
      end
    end
  end
  return why or string.format("no move here makes %s (type 'moves' for the list)", what)
end

-- The texts of `list` that are in `expected`.
local function expected_of(list, expected)
  local out = {}
  for _, t in ipairs(list) do if expected[t] then out[#out + 1] = t end end
  return out
end

--- One move if one fits (an expected one first), else the choices.
function M.pick(fits, expected)
  local exp = expected_of(fits, expected or {})
  if #exp == 1 then return { move = exp[1] } end
  if #exp > 1 then return { candidates = exp } end
  if #fits == 1 then return { move = fits[1] } end
  if #fits > 1 then return { candidates = fits } end
end

--- "declare 8", "declare G8" (a group), "declare P8" (plain or a raise):
-- the declaration of that value, among the legal moves (those in
-- `expected` first, when given), as resolve answers.
function M.declare(g, what, expected)
  local kind, digits = what:upper():match("^([PG]?)(%d+)%.?$")
  if not digits then
    return { error = "say the value to declare: 'declare 8', or 'declare G8' for a group of 8s" }
  end
  local v = #digits <= 2 and tonumber(digits)
  if not v or v < 1 or v > 10 then
    return { error = string.format("D15: a declared value is 1 to 10, not %s", digits:sub(1, 12)) }
  end
  local fits = {}
  for _, m in ipairs(g:moves(true)) do
    local k = DECLARE_KINDS[m.kind]
    if k and m.value == v and (kind == "" or kind == k) then fits[#fits + 1] = m.text end
  end
  return M.pick(fits, expected) or { error = why_no_declaration(g, v, kind) }
end

return M
