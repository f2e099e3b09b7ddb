-- The rules reference: one entry for every rule id the engine, the
-- lessons and the house rules cite, each a short statement in our own
-- words and an example in the notation of docs/notation.md. The entries
-- are each game's (its package's `rulebook` part: parts, entries, and
-- family, near, is_id, numbered for the shape of its ids), in the order
-- of the registry; this module looks them up and prints them.
--
-- The table's `rules D19` and `diloti rules D19` print an entry, and
-- docs/rules-reference.md is written from the entries by
-- tools/rules_ref_doc.lua (`make docs`); tests/lua/rulebook_spec.lua
-- checks every example.
--
-- An example: `rules` (the rules spec, default the game's name),
-- `position` (none: a new game with seed 1), `steps` and `expect`, or only
-- `text`. A step is a move with `refused = ID` (checked, not played), with
-- `legal = true` (checked, not played) or neither (played); `say` is a
-- short comment. `expect` holds fields of the position after the steps.
-- `invalid = ID`: the position itself is refused, citing ID.
local registry = require "diloti.registry"

local M = {}

-- The games' parts, entries and the game of each entry, gathered when
-- first asked (M.parts and M.entries read as fields).
local books, game_of_entry, by_id

local function gather()
  if books then return end
  books, game_of_entry, by_id = {}, {}, {}
  local parts, entries = {}, {}
  for _, pkg in ipairs(registry.list()) do
    local book = registry.part(pkg, "rulebook")
    if book then
      books[#books + 1] = book
      for _, p in ipairs(book.parts) do parts[#parts + 1] = p end
      for _, e in ipairs(book.entries) do
        entries[#entries + 1] = e
        game_of_entry[e] = pkg.name
        by_id[e.id:lower()] = e
        for _, a in ipairs(e.aliases or {}) do by_id[a:lower()] = e end
      end
    end
  end
  rawset(M, "parts", parts)
  rawset(M, "entries", entries)
end

setmetatable(M, { __index = function(_, k)
  if k == "parts" or k == "entries" then
    gather()
    return rawget(M, k)
  end
end })

-- ---------------------------------------------------------------------
-- Looking up and printing

-- The first answer of a games' rulebooks' function f to id.
local function ask(f, id)
  gather()
  for _, book in ipairs(books) do
    local a, b = book[f](id)
    if a then return a, b end
  end
  return nil
end

--- The part an id belongs to (a key of M.parts: "D", "PV", ...), or nil.
function M.family(id) return ask("family", id) end

--- The game an entry is about (its package's name).
function M.game_of(e)
  gather()
  return game_of_entry[e] or registry.default().name
end

--- Does a word look like a rule id (D19, V-soy, P24, ...), rather than a
-- variant's name?
function M.is_id(word) return ask("is_id", word) ~= nil end

--- A refusal as a person reads it: a move read as far as a rule that
-- forbids it ("not a move: P7: ...") starts with the rule.
function M.rule_first(why)
  why = tostring(why)
  local rest = why:match("^not a move: (.*)")
  local id = rest and rest:match("^([%w%-=]+):")
  if id and M.is_id(id) then return rest end
  return why
end

--- The entry of an id, in any case ("d19", "V-SOY", "V-target=N"), or nil.
function M.find(id)
  gather()
  return by_id[tostring(id):lower()]
end

--- The anchor of an entry in docs/rules-reference.md: its id in lower case.
function M.anchor(e)
  return e.id:lower()
end

M.DOC = "docs/rules-reference.md"

--- The families of rule ids every game cites, in words ("D1-D24
-- (...), ...; P1-P51 (...)"), each game's rulebook's ids_help.
function M.ids_help()
  local out = {}
  for _, pkg in ipairs(registry.list()) do
    local book = registry.part(pkg, "rulebook")
    if book and book.ids_help then out[#out + 1] = book.ids_help end
  end
  return table.concat(out, "; ")
end

-- How much of an unknown id is compared and shown.
local ID_MAX = 40

-- Edit distance, for the ids nearest to a mistyped one.
local function distance(a, b)
  local prev = {}
  for j = 0, #b do prev[j] = j end
  for i = 1, #a do
    local cur = { [0] = i }
    for j = 1, #b do
      local cost = a:sub(i, i) == b:sub(j, j) and 0 or 1
      cur[j] = math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
    end
    prev = cur
  end
  return prev[#b]
end

--- Up to `n` (3) ids nearest to an unknown one: by number within its
-- letter (D29 -> D24, D23, D22), else by spelling.
function M.nearest(id, n)
  n = n or 3
  -- (the longest id is under 30 letters: what is typed past that says
  -- nothing of which one was meant, and would make the distance slow)
  id = tostring(id):sub(1, ID_MAX):upper()
  local letter, num = ask("numbered", id)
  local family = ask("near", id)
  local scored = {}
  for i, e in ipairs(M.entries) do
    local score
    local el, en = ask("numbered", e.id)
    if letter and el == letter then
      score = math.abs(tonumber(en) - tonumber(num))
    else
      local same = family == M.family(e.id)
      score = 100 + distance(id, e.id:upper()) + (same and 0 or 100)
    end
    scored[#scored + 1] = { e.id, score, i }
  end
  table.sort(scored, function(a, b)
    if a[2] ~= b[2] then return a[2] < b[2] end
    return a[3] < b[3]
  end)
  local out = {}
  for i = 1, math.min(n, #scored) do out[i] = scored[i][1] end
  return out
end

--- The example of an entry as lines of text in the notation.
function M.example_lines(e)
  local ex = e.example
  if not ex then return {} end
  if ex.text then
    local out = {}
    for l in (ex.text .. "\n"):gmatch("(.-)\n") do out[#out + 1] = l end
    return out
  end
  local out = {}
  if ex.rules and ex.rules ~= M.game_of(e) then out[#out + 1] = "rules: " .. ex.rules end
  out[#out + 1] = ex.position or "(a new game)"
  if ex.invalid then out[#out + 1] = "-> refused (" .. ex.invalid .. ")" end
  local w = 0
  for _, s in ipairs(ex.steps or {}) do w = math.max(w, #s[1]) end
  for _, s in ipairs(ex.steps or {}) do
    local what = s.refused and ("refused (" .. s.refused .. ")") or s.legal and "allowed" or "played"
    local line = string.format("%-" .. (w + 2) .. "s%s", s[1], what)
    if s.say then line = line .. ": " .. s.say end
    out[#out + 1] = line
  end
  if ex.expect then
    local keys = {}
    for k in pairs(ex.expect) do keys[#keys + 1] = k end
    -- in the order a position prints its fields
    local order = { dealer = 1, turn = 2, round = 3, deal = 4, ply = 5, phase = 6, hands = 7, table = 8,
      piles = 9, xeri = 10, score = 11, won = 12, last = 13, claim = 14, pack = 15, winning = 16 }
    table.sort(keys, function(a, b) return (order[a] or 99) < (order[b] or 99) end)
    local parts = {}
    for i, k in ipairs(keys) do parts[i] = k .. "=" .. ex.expect[k] end
    out[#out + 1] = "then: " .. table.concat(parts, "; ")
  end
  if ex.note then out[#out + 1] = "(" .. ex.note .. ")" end
  return out
end

--- An entry as lines for a terminal (the caller wraps them): the id and
-- title, the statement, the example, where the page is.
function M.lines(e)
  local out = { e.id .. ". " .. e.title, "  " .. e.text }
  if e.variant then
    local game = M.game_of(e)
    local named = game ~= registry.default().name and ("game=" .. game .. " ") or ""
    out[#out + 1] = "  A house rule: add it with 'new " .. named .. "rules=" .. game .. "+" .. e.variant .. "'."
  end
  local ex = M.example_lines(e)
  if #ex > 0 then
    out[#out + 1] = "  Example:"
    for _, l in ipairs(ex) do out[#out + 1] = "    " .. l end
  end
  out[#out + 1] = "  All the rules: " .. M.DOC .. "#" .. M.anchor(e)
  return out
end

--- What to say for an id with no entry.
function M.unknown(id)
  id = tostring(id)
  local shown = #id > ID_MAX and id:sub(1, ID_MAX) .. "..." or id
  return string.format("No rule '%s'. Nearest: %s (every id: %s).", shown, table.concat(M.nearest(id), ", "), M.DOC)
end

return M
