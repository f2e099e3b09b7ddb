-- Diloti's drawing at the terminal table (the package's `board` part):
-- the board from a seat's view, a move's sentence, the round's summary and
-- the round so far. The shared helpers (styles, fitting, cards, lists,
-- the moves in columns) are lua/table/screen.lua's, and this module
-- answers for them too (screen.card, board.card alike).
local screen = require "diloti.table.screen"

local M = setmetatable({}, { __index = screen })
local flow, wrap, add, fit, bold = screen.flow, screen.wrap, screen.add, screen.fit_lines, screen.bold
local styled_move, grid = screen.styled_move, screen.grid

-- ---- names ---------------------------------------------------------------

local name_of = screen.name_of

-- The seat that reads the screen: names.you if given, else the seat named "You".
local function is_you(names, seat)
  if names and names.you ~= nil then return names.you == seat end
  local n = names and names[seat]
  return type(n) == "string" and n:lower() == "you"
end

local function possessive(names, seat)
  if is_you(names, seat) then return "your" end
  return name_of(names, seat) .. "'s"
end

-- Whose it is, said of `mover`'s move: "their"/"your" for their own (or
-- `own` when given, e.g. "the"), else "your"/"X's".
local function whose(names, owner, mover, own)
  if owner == mover then return own or (is_you(names, mover) and "your" or "their") end
  return possessive(names, owner)
end

local function plural(n, one, many)
  return n .. " " .. (n == 1 and one or (many or one .. "s"))
end

-- ---- table items ---------------------------------------------------------

local function component_text(st, comp)
  return M.cards(st, comp, "+")
end

local function decl_cards_text(st, d)
  local parts = {}
  for i, comp in ipairs(d.components or { d.cards or {} }) do parts[i] = component_text(st, comp) end
  return table.concat(parts, ", ")
end

local function decl_kind_text(d)
  if d.kind == "group" then return "group of " .. d.value .. "s" end
  return "plain " .. d.value
end

-- "greedy's plain 8 (3♠+5♣)" as seen by `mover`; without the cards when short.
local function decl_phrase(st, d, names, mover, short)
  local s = whose(names, d.owner, mover) .. " " .. decl_kind_text(d)
  if short then return s end
  return s .. " (" .. decl_cards_text(st, d) .. ")"
end

local function find_decl(tbl, ref)
  for _, d in ipairs(tbl and tbl.declarations or {}) do
    if d.ref == ref then return d end
  end
  local owner = tonumber(ref:match("@(%d+)$") or "")
  for _, d in ipairs(tbl and tbl.declarations or {}) do
    if d.owner == owner then return d end
  end
  return nil
end

-- The taken items of an event: loose card names and declaration tables.
local function split_takes(e)
  local loose, decls = {}, {}
  for _, item in ipairs(e.takes or {}) do
    if M.parse_card(item) then
      loose[#loose + 1] = item
    else
      decls[#decls + 1] = find_decl(e.table, item) or { ref = item, kind = "plain", value = 0, components = {} }
    end
  end
  return loose, decls
end

-- ---- splitting into parts ------------------------------------------------

-- Finds a split of `units` ({value, label}) into parts each worth `v`
-- (largest units first), by backtracking; nil if there is none.
local function partition(units, v)
  if v < 1 then return nil end
  table.sort(units, function(a, b)
    if a.value ~= b.value then return a.value > b.value end
    return a.label < b.label
  end)
  local used, parts = {}, {}
  local solve
  local function extend(part, from, sum)
    if sum == v then
      parts[#parts + 1] = { table.unpack(part) }
      if solve() then return true end
      parts[#parts] = nil
      return false
    end
    for j = from, #units do
      local u = units[j]
      if not used[j] and u.value > 0 and sum + u.value <= v then
        used[j] = true
        part[#part + 1] = u
        if extend(part, j + 1, sum + u.value) then return true end
        used[j], part[#part] = nil, nil
      end
    end
    return false
  end
  solve = function()
    local first
    for i = 1, #units do
      if not used[i] then first = i; break end
    end
    if not first then return true end
    local u = units[first]
    if u.value < 1 then return false end
    used[first] = true
    if extend({ u }, first + 1, u.value) then return true end
    used[first] = nil
    return false
  end
  if solve() then return parts end
  return nil
end

local function parts_text(parts)
  table.sort(parts, function(a, b)
    if #a ~= #b then return #a < #b end
    return a[1].value > b[1].value
  end)
  local out = {}
  for i, p in ipairs(parts) do
    local labels = {}
    for j, u in ipairs(p) do labels[j] = u.label end
    out[i] = table.concat(labels, "+")
  end
  return table.concat(out, ", ")
end

local function card_unit(st, c)
  return { value = M.value(c), label = M.card(st, c) }
end

local function decl_unit(st, d, names, mover, short)
  return { value = d.value, label = decl_phrase(st, d, names, mover, short) }
end

-- "8♣, 5♠+3♥" for what a move takes; items one by one when no split works.
local function takes_text(st, loose, decls, v, names, mover, extra)
  local units = {}
  for _, c in ipairs(loose) do units[#units + 1] = card_unit(st, c) end
  -- Inside a group's parentheses a declaration is named without its cards.
  for _, d in ipairs(decls) do units[#units + 1] = decl_unit(st, d, names, mover, extra ~= nil) end
  if extra then units[#units + 1] = extra end
  local parts = partition(units, v)
  if parts then return parts_text(parts) end
  local labels = {}
  for i, u in ipairs(units) do labels[i] = u.label end
  return table.concat(labels, ", ")
end

-- ---- events --------------------------------------------------------------

local function capture_sentence(st, e, names, who)
  local loose, decls = split_takes(e)
  local what = takes_text(st, loose, decls, M.value(e.card), names, e.seat)
  local n = e.captured and #e.captured or (#loose + 1)
  return string.format("%s captured %s with %s: %s.", who, what, M.card(st, e.card), plural(n, "card"))
end

local function plain_sentence(st, e, who)
  local loose = split_takes(e)
  return string.format("%s declared a plain %d (%s on %s).", who, e.value, M.card(st, e.card), M.cards(st, loose, "+"))
end

local function pronoun_owns(names, seat)
  return is_you(names, seat) and "yours" or "theirs"
end

local function raise_sentence(st, e, names, who)
  local loose, decls = split_takes(e)
  local d = decls[1] or { value = "?", owner = nil }
  local with = M.card(st, e.card)
  if #loose > 0 then with = with .. " and " .. M.cards(st, loose, "+") end
  return string.format("%s raised %s plain %s to %d with %s; it is %s now.", who,
    possessive(names, d.owner), tostring(d.value), e.value, with, pronoun_owns(names, e.seat))
end

-- Components after a group move: those of the groups it takes, plus the
-- rest (card played, loose cards, plain declarations) in parts worth v.
local function group_size(e, loose, decls)
  local n, rest = 0, M.value(e.card)
  for _, c in ipairs(loose) do rest = rest + M.value(c) end
  for _, d in ipairs(decls) do
    if d.kind == "group" then n = n + #(d.components or {}) else rest = rest + (d.value or 0) end
  end
  return n + rest // math.max(e.value, 1)
end

-- The plain declaration a group move raises with its card (D17), if any:
-- an opponent's, worth the group's value less the card's.
local function raised_plain(e, plains)
  local need = e.value - M.value(e.card)
  if need <= 0 then return nil end
  for _, d in ipairs(plains) do
    if d.value == need and d.owner ~= e.seat then return d end
  end
  return nil
end

local function group_sentence(st, e, names, who)
  local loose, decls = split_takes(e)
  local groups, plains = {}, {}
  for _, d in ipairs(decls) do
    if d.kind == "group" then groups[#groups + 1] = d else plains[#plains + 1] = d end
  end
  local size = plural(group_size(e, loose, decls), "component")
  local played = card_unit(st, e.card)
  if #groups == 0 then
    return string.format("%s declared a group of %ds (%s).", who, e.value,
      takes_text(st, loose, plains, e.value, names, e.seat, played))
  end
  local target = groups[1]
  for _, g in ipairs(groups) do
    if g.owner == e.seat then target = g end
  end
  local raised = raised_plain(e, plains)
  local extras = {}
  if #loose > 0 then extras[#extras + 1] = M.cards(st, loose, "+") end
  for _, d in ipairs(plains) do
    if d ~= raised then extras[#extras + 1] = decl_phrase(st, d, names, e.seat, true) end
  end
  local merged = {}
  for _, g in ipairs(groups) do
    if g ~= target then merged[#merged + 1] = decl_phrase(st, g, names, e.seat, true) end
  end
  local act = "added " .. played.label
  if raised then act = "raised " .. decl_phrase(st, raised, names, e.seat, true) .. " with " .. played.label end
  if #extras > 0 then act = act .. (raised and " and " or " with ") .. table.concat(extras, ", ") end
  local s = string.format("%s %s %s %s group of %ds%s (%s)", who, act, raised and "into" or "to",
    whose(names, target.owner, e.seat, "the"), e.value,
    #merged > 0 and (", merging " .. table.concat(merged, ", ")) or "", size)
  if target.owner ~= e.seat then s = s .. "; it is " .. pronoun_owns(names, e.seat) .. " now" end
  return s .. "."
end

local function move_sentence(st, e, names, who)
  local k = e.kind
  if k == "claim" then return who .. " claimed a redeal (V-face-card-claim)." end
  if k == "keep" then
    return string.format("%s kept %s cards (V-face-card-claim).", who, is_you(names, e.seat) and "your" or "their")
  end
  if k == "lay" then return string.format("%s laid %s.", who, M.card(st, e.card)) end
  if k == "capture" then return capture_sentence(st, e, names, who) end
  if k == "plain" then return plain_sentence(st, e, who) end
  if k == "raise" then return raise_sentence(st, e, names, who) end
  if k == "group" then return group_sentence(st, e, names, who) end
  return string.format("%s played %s.", who, styled_move(st, e.move or tostring(e.card)))
end

--- screen.describe(st, event, names, opts): one sentence for a move event
-- (docs/ai.md §5). `names[seat]` names the seats ("Seat N" by default);
-- the seat named "You" (or `names.you`) is spoken to. `opts.xeri_points`
-- (10) is what a xeri is worth.
function M.describe(st, e, names, opts)
  local s = move_sentence(st, e, names, name_of(names, e.seat))
  if e.xeri then
    s = s .. string.format(" Xeri! (%d points)", opts and opts.xeri_points or 10)
  end
  if e.round_over then
    s = s .. " That was the last card of the round."
  elseif e.dealt then
    s = s .. " New cards are dealt."
  end
  return s
end

-- ---- the board -----------------------------------------------------------

local function sep(st)
  return st.unicode and " · " or " | "
end

local function header_lines(st, v, names, rules)
  local round = "Round " .. v.round
  if rules and rules.match == "rounds" and rules.target then round = round .. " of " .. rules.target end
  local deal = "deal " .. v.deal
  if rules and rules.deals then deal = deal .. " of " .. rules.deals end
  local items = { round .. ", " .. deal, "dealer: " .. name_of(names, v.dealer),
    "pack: " .. plural(v.pack_count or 0, "card") }
  return flow("", items, st.width, sep(st), 0)
end

local function per_side(v, names, field)
  local items = {}
  for side = 0, v.sides - 1 do
    items[#items + 1] = M.side_name(names, side, v.players, v.sides) .. " " .. tostring(field[side] or 0)
  end
  return items
end

-- What each side's captures and xeris would score if the round ended now
-- (view.so_far), once there is something to say: none at a round's start.
local function so_far_items(v, names)
  if not v.so_far or (v.phase ~= "play" and v.phase ~= "claim") then return {} end
  local any = false
  for side = 0, v.sides - 1 do
    local r = v.so_far[side] or {}
    any = any or (r.cards or 0) > 0 or (r.xeris or 0) > 0
  end
  if not any then return {} end
  local totals = {}
  for side = 0, v.sides - 1 do totals[side] = v.so_far[side].total end
  return per_side(v, names, totals)
end

local function score_lines(st, v, names, rules)
  local lines = {}
  if v.teams and v.sides < v.players then
    local sides = {}
    for side = 0, v.sides - 1 do
      local seats = {}
      for seat = side, v.players - 1, v.sides do seats[#seats + 1] = tostring(seat) end
      sides[#sides + 1] = M.side_name(names, side, v.players, v.sides) .. " (seats " .. table.concat(seats, "+") .. ")"
    end
    for _, l in ipairs(flow("Partners: ", sides, st.width, " vs ")) do lines[#lines + 1] = l end
  end
  local by_rounds = rules and rules.match == "rounds"
  local label = by_rounds and "Rounds won: " or "Score: "
  local items = per_side(v, names, by_rounds and v.rounds_won or v.score)
  if rules and rules.target and not by_rounds then items[#items] = items[#items] .. " (to " .. rules.target .. ")" end
  if by_rounds then items[#items] = items[#items] .. "; points " .. table.concat(per_side(v, names, v.score), ", ") end
  for i, item in ipairs(so_far_items(v, names)) do
    items[#items + 1] = i == 1 and { "this round so far: " .. item, "; " } or item
  end
  for _, l in ipairs(flow(label, items, st.width, ", ")) do lines[#lines + 1] = l end
  return lines
end

local function table_lines(st, v, names)
  local t = v.table or {}
  local loose = {}
  for i, c in ipairs(t.loose or {}) do loose[i] = M.card(st, c) end
  local decls = t.declarations or {}
  if #loose == 0 and #decls == 0 then return { "Table: empty" } end
  local lines = flow("Table: ", #loose > 0 and loose or { "no loose cards" }, st.width)
  for _, d in ipairs(decls) do
    local comps = {}
    for i, comp in ipairs(d.components or { d.cards or {} }) do
      comps[i] = component_text(st, comp) .. (i < #(d.components or { 0 }) and "," or "")
    end
    local label = string.format("  %s  %s %s: ", d.ref or "?", possessive(names, d.owner), decl_kind_text(d))
    for _, l in ipairs(flow(label, comps, st.width, " ", 6)) do lines[#lines + 1] = l end
  end
  return lines
end

local function partner_of(v, seat)
  if v.teams and v.sides < v.players then return (seat + v.sides) % v.players end
  return nil
end

local function hands_lines(st, v, names, numbered)
  local items = {}
  if v.seat == nil then
    -- (a spectator's view: every seat's count, and no hand of its own)
    for seat = 0, v.players - 1 do
      items[#items + 1] = name_of(names, seat) .. " " .. (v.hand_counts and v.hand_counts[seat] or 0)
    end
    return flow("Cards in hand: ", items, st.width, ", ")
  end
  local partner = partner_of(v, v.seat)
  for i = 1, v.players - 1 do
    local seat = (v.seat + i) % v.players
    local n = v.hand_counts and v.hand_counts[seat] or 0
    items[#items + 1] = name_of(names, seat) .. " " .. n .. (seat == partner and " (partner)" or "")
  end
  local lines = flow("Cards in hand: ", items, st.width, ", ")
  local hand = {}
  for i, c in ipairs(v.hand or {}) do hand[i] = M.card(st, c) end
  local numbers = {}
  for i, c in ipairs(hand) do numbers[i] = i .. ") " .. c end
  local label = (is_you(names, v.seat) and "Your" or name_of(names, v.seat) .. "'s") .. " hand: "
  local shown = #hand == 0 and { "empty" } or (numbered and numbers or hand)
  for _, l in ipairs(flow(label, shown, st.width, numbered and "  " or " ")) do lines[#lines + 1] = l end
  if v.known_bottom then lines[#lines + 1] = "Bottom card of the pack: " .. M.card(st, v.known_bottom) end
  return lines
end

local function captured_lines(st, v, names)
  local items = {}
  for side = 0, v.sides - 1 do
    local n = v.captured and v.captured[side] and #v.captured[side] or 0
    local x = v.xeri and v.xeri[side] or 0
    local s = M.side_name(names, side, v.players, v.sides) .. " " .. plural(n, "card")
    if x > 0 then s = s .. " (" .. plural(x, "xeri") .. ")" end
    items[#items + 1] = s
  end
  if v.last_capturer then items[#items] = items[#items] .. "; last capture: " .. name_of(names, v.last_capturer) end
  return flow("Captured: ", items, st.width, ", ")
end

local function turn_line(st, v, names)
  if v.phase == "round-over" then return "The round is over." end
  if v.phase == "match-over" then return "The match is over." end
  local who = name_of(names, v.turn)
  if v.phase == "claim" then
    local subject = is_you(names, v.turn) and "You" or who
    return bold(st, subject .. " may claim a redeal or keep the cards (V-face-card-claim).")
  end
  if is_you(names, v.turn) then return bold(st, "Your turn.") end
  return who .. " to play."
end

--- screen.board(st, view, opts): the whole table as one seat sees it.
-- opts: `names` (by seat), `recent` (lines of what just happened, shown
-- first), `numbered` (number the hand), `rules` (g:rules(): the target,
-- deals per round and match kind; optional).
function M.board(st, v, opts)
  opts = opts or {}
  local names = opts.names
  local lines = {}
  for _, r in ipairs(opts.recent or {}) do add(lines, wrap(r, st.width, 2)) end
  if #lines > 0 then lines[#lines + 1] = "" end
  add(lines, header_lines(st, v, names, opts.rules))
  add(lines, score_lines(st, v, names, opts.rules))
  lines[#lines + 1] = M.rule(st)
  add(lines, table_lines(st, v, names))
  lines[#lines + 1] = ""
  add(lines, hands_lines(st, v, names, opts.numbered))
  add(lines, captured_lines(st, v, names))
  lines[#lines + 1] = M.rule(st)
  lines[#lines + 1] = turn_line(st, v, names)
  return fit(lines, st.width)
end

-- ---- round summary -------------------------------------------------------

local function side_count(result)
  local n = 0
  local sides = result.score or (result.round or {})
  while sides[n] ~= nil do n = n + 1 end
  return n
end

-- A cell of the summary: what a side took, and the points it scored.
local function cell(count, pts)
  local right = (pts and pts ~= 0) and string.format("%+d", pts) or ""
  if not count then return { "", right ~= "" and right or "-" } end
  return { tostring(count), right }
end

-- Which rows a summary shows: those the rules in force score (a xeri
-- only where there are xeris at all), or else, without the rules, those
-- that scored for some side.
local function scored(rules, round, sides, field, key)
  if rules and rules.points and rules.points[field] ~= nil then
    return rules.points[field] ~= 0 and not (field == "xeri" and rules.xeri == false)
  end
  for s = 0, sides - 1 do
    if (round[s][key] or 0) ~= 0 then return true end
  end
  return false
end

local function summary_items(st, round, sides, rules)
  local items = {}
  local rows = {
    { "Cards", "cards", "pts_cards", "cards" },
    { "Clubs", "clubs", "pts_clubs", "clubs" },
    { "Aces", "aces", "pts_aces", "ace" },
    { M.card(st, "10d"), nil, "pts_ten_diamonds", "ten_diamonds" },
    { M.card(st, "2c"), nil, "pts_two_clubs", "two_clubs" },
    { "Xeris", "xeris", "pts_xeri", "xeri" },
  }
  for i, r in ipairs(rows) do
    -- (the cards are counted whatever they score, unless the rules say)
    if scored(rules, round, sides, r[4], r[3]) or (i == 1 and not rules) then items[#items + 1] = r end
  end
  return items
end

-- Points the items do not explain (a house rule's score hook).
local function other_points(round, s, items)
  local sum = 0
  for _, r in ipairs(items) do sum = sum + (round[s][r[3]] or 0) end
  return (round[s].total or 0) - sum
end

local function round_rows(st, round, sides, rules, total_label)
  local items = summary_items(st, round, sides, rules)
  local rows = {}
  for _, r in ipairs(items) do
    local row = { r[1] }
    for s = 0, sides - 1 do row[s + 2] = cell(r[2] and round[s][r[2]], round[s][r[3]]) end
    rows[#rows + 1] = row
  end
  -- (named by the house rule that gave them, when it did: round.label)
  local other, any = { type(round.label) == "string" and round.label or "Other" }, false
  for s = 0, sides - 1 do
    local o = other_points(round, s, items)
    other[s + 2] = cell(nil, o)
    any = any or o ~= 0
  end
  if any then rows[#rows + 1] = other end
  local total = { total_label or "Round total" }
  for s = 0, sides - 1 do total[s + 2] = { tostring(round[s].total or 0), "" } end
  rows[#rows + 1] = total
  return rows
end

local function match_rows(result, sides, rules)
  local by_rounds = rules and rules.match == "rounds"
  local score, won = { by_rounds and "Points" or "Match score" }, { "Rounds won" }
  for s = 0, sides - 1 do
    score[s + 2] = { tostring(result.score and result.score[s] or 0), "" }
    won[s + 2] = { tostring(result.rounds_won and result.rounds_won[s] or 0), "" }
  end
  if by_rounds or not rules then return { score, won } end
  return { score }
end

-- "You win", "greedy wins", "You & North win".
local function subject_verb(names, side, players, sides, verb)
  local plural_subject = sides < players or is_you(names, side)
  return M.side_name(names, side, players, sides) .. " " .. verb .. (plural_subject and "" or "s")
end

local function closing_line(result, names, rules, sides, players)
  if result.over then
    if result.winner == nil or result.winner < 0 then return "The match is over." end
    return "The match is over: " .. subject_verb(names, result.winner, players, sides, "win") .. "."
  end
  if not rules then return nil end
  if rules.match == "rounds" then
    return string.format("The match is %d rounds; the most rounds won wins.", rules.target)
  end
  return string.format("The match is played to %d points.", rules.target)
end

local function opening_line(result, names, sides, players)
  local n = result.rounds and " " .. result.rounds or ""
  local w = result.round.winner
  if w == nil or w < 0 then return "Round" .. n .. " is over: a tie." end
  return string.format("Round%s is over: %s it.", n, subject_verb(names, w, players, sides, "win"))
end

--- screen.round_summary(st, result, names, opts): the breakdown of a
-- finished round (g:result()) per side, and the match so far. opts:
-- `rules` (g:rules(): which items score, the target), `players` (else
-- 4 when names has a seat 3 and there are 2 sides).
function M.round_summary(st, result, names, opts)
  opts = opts or {}
  local rules = opts.rules
  local sides = side_count(result)
  local players = opts.players or (rules and rules.players)
    or ((sides == 2 and names and names[3]) and 4 or sides)
  local lines, rows = {}, {}
  if result.round then
    lines[1] = opening_line(result, names, sides, players)
    rows = round_rows(st, result.round, sides, rules)
  else
    lines[1] = "No round has finished yet."
  end
  add(rows, match_rows(result, sides, rules))
  local header = {}
  for s = 0, sides - 1 do header[s + 1] = M.side_name(names, s, players, sides) end
  add(lines, grid(header, rows, st.width))
  lines[#lines + 1] = closing_line(result, names, rules, sides, players)
  return fit(lines, st.width)
end

--- screen.round_so_far(st, view, names, opts): what each side has earned
-- in the round being played (view.so_far, as the engine counts it), in
-- the columns the rules in force score, and the match so far. opts as
-- for round_summary.
function M.round_so_far(st, v, names, opts)
  opts = opts or {}
  local rules = opts.rules
  local players = opts.players or (rules and rules.players) or v.players
  local deal = "deal " .. v.deal .. (rules and rules.deals and (" of " .. rules.deals) or "")
  local lines = { string.format("Round %d so far (%s):", v.round, deal) }
  local rows = round_rows(st, v.so_far, v.sides, rules, "So far")
  add(rows, match_rows(v, v.sides, rules))
  local header = {}
  for s = 0, v.sides - 1 do header[s + 1] = M.side_name(names, s, players, v.sides) end
  add(lines, grid(header, rows, st.width))
  lines[#lines + 1] = closing_line({}, names, rules, v.sides, players)
  return fit(lines, st.width)
end

return M
