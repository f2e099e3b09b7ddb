--- diloti.screen: the table's text. Turns views, move events, legal moves
-- and round results into strings that fit a terminal. Pure: no I/O, no
-- engine calls, so the REPL and the tests can feed it any tables.
--
-- A style is `{unicode = bool, colour = bool, width = N}`. Every renderer
-- returns one string (lines joined with "\n"); no line is wider than
-- `st.width` visible columns, ANSI codes excluded.
--
-- Text from strangers' files (AI and variant descriptions, lessons, game
-- records, error messages) may hold terminal controls: screen.safe(st,
-- text) shows them instead (core.clean), keeping only the colour codes
-- this file itself writes. The table and the lessons pass everything they
-- print through it.
local clean = require("diloti.core").clean

local M = {}

local SUIT_SYMBOL = { c = "♣", d = "♦", h = "♥", s = "♠" }
local SUIT_OF_SYMBOL = { ["♣"] = "c", ["♧"] = "c", ["♦"] = "d", ["♢"] = "d",
  ["♥"] = "h", ["♡"] = "h", ["♠"] = "s", ["♤"] = "s" }
local RED = { d = true, h = true }
local RANK_ALIAS = { T = "10", ["1"] = "A" }
local VALUE = { A = 1, J = 0, Q = 0, K = 0 }

-- Only the foreground is reset, so a card inside bold text stays bold.
local SGR_RED, SGR_FG = "\27[31m", "\27[39m"
local SGR_BOLD, SGR_NORMAL = "\27[1m", "\27[22m"

-- Below this a board cannot say anything useful per line.
M.MIN_WIDTH = 20
M.DEFAULT_WIDTH = 80

-- ---- styles --------------------------------------------------------------

--- screen.style{unicode, colour, width}: a style; ASCII, no colour and
-- 80 columns unless told otherwise (`color` is accepted for `colour`).
function M.style(opts)
  opts = opts or {}
  local colour = opts.colour
  if colour == nil then colour = opts.color end
  local width = math.tointeger(opts.width) or M.DEFAULT_WIDTH
  return { unicode = opts.unicode == true, colour = colour == true, width = math.max(width, M.MIN_WIDTH) }
end

local function set(getenv, name)
  local v = getenv(name)
  if v == nil or v == "" then return nil end
  return v
end

-- POSIX: the first of LC_ALL, LC_CTYPE, LANG that is set decides.
local function locale_is_utf8(getenv)
  local loc = set(getenv, "LC_ALL") or set(getenv, "LC_CTYPE") or set(getenv, "LANG") or ""
  return loc:lower():find("utf%-?8") ~= nil
end

--- screen.ask(prompt): the plain-terminal way of asking for a line (the
-- table and the lessons use it when libedit's reader is not there).
-- Returns the line, or nil at the end of the input.
function M.ask(prompt)
  io.write(prompt)
  io.flush()
  return io.read("l")
end

--- screen.width(getenv, terminal): the columns to fit. The terminal's
-- own answer first (`terminal()`, e.g. diloti.line's width: nil when the
-- output is not a terminal), then a numeric COLUMNS, then 80. Asked again
-- for each screen, so that a resized window is followed.
function M.width(getenv, terminal)
  local w = terminal and math.tointeger(terminal())
  if w and w > 0 then return w end
  w = math.tointeger(tonumber((getenv or os.getenv)("COLUMNS") or ""))
  if w and w > 0 then return w end
  return M.DEFAULT_WIDTH
end

--- screen.detect(getenv, terminal): the style the environment asks for.
-- `getenv` works like os.getenv (tests pass a fake one); `terminal` as
-- for screen.width.
function M.detect(getenv, terminal)
  getenv = getenv or os.getenv
  local term = set(getenv, "TERM")
  -- no-color.org: a NO_COLOR that is present and not empty turns colour off.
  local colour = set(getenv, "NO_COLOR") == nil and term ~= nil and term ~= "dumb"
  local ascii = set(getenv, "DILOTI_ASCII")
  local unicode = locale_is_utf8(getenv) and (ascii == nil or ascii == "0")
  return M.style{ unicode = unicode, colour = colour, width = M.width(getenv, terminal) }
end

-- ---- measuring and fitting -----------------------------------------------

-- The only escape sequences the screen writes (see the SGR_ names above):
-- screen.safe keeps these, and only when the style has colour.
local OWN_SGR = { [SGR_RED] = true, [SGR_FG] = true, [SGR_BOLD] = true, [SGR_NORMAL] = true }

--- screen.safe(st, text): text fit for the terminal. Every terminal
-- control (C0 but newline and tab, DEL, C1, bidi controls, bytes that are
-- not UTF-8) is shown instead of acted on; with st.colour, the screen's
-- own colour codes are kept (at worst a script could colour its own text
-- red or bold with them). Text without ESC takes the C fast path only.
function M.safe(st, text)
  text = tostring(text)
  if not (st and st.colour) or not text:find("\27", 1, true) then return clean(text) end
  local out, i = {}, 1
  while true do
    local s, e = text:find("\27%[%d*m", i)
    if not s then break end
    local code = text:sub(s, e)
    if OWN_SGR[code] then
      out[#out + 1] = clean(text:sub(i, s - 1))
      out[#out + 1] = code
    else
      out[#out + 1] = clean(text:sub(i, e))
    end
    i = e + 1
  end
  out[#out + 1] = clean(text:sub(i))
  return table.concat(out)
end

--- The text without ANSI SGR codes.
function M.strip(s)
  return (s:gsub("\27%[[%d;]*m", ""))
end

-- Characters that do not take one column: combining marks and
-- zero-width characters take none, East Asian wide ones and emoji two
-- (the ranges of Unicode's East Asian Width W and F, and the marks most
-- text uses; a terminal's own table may differ at the edges). Names and
-- labels come from strangers' scripts: measured in characters, 13
-- ideographs moved a row's numbers under the next side's name.
-- {first, last, columns}, sorted.
local NOT_ONE = {
  { 0x0300, 0x036F, 0 }, { 0x0483, 0x0489, 0 }, { 0x0591, 0x05BD, 0 }, { 0x0610, 0x061A, 0 },
  { 0x064B, 0x065F, 0 }, { 0x1100, 0x115F, 2 }, { 0x1AB0, 0x1AFF, 0 }, { 0x1DC0, 0x1DFF, 0 },
  { 0x200B, 0x200F, 0 }, { 0x2060, 0x2064, 0 }, { 0x20D0, 0x20FF, 0 }, { 0x231A, 0x231B, 2 },
  { 0x2329, 0x232A, 2 }, { 0x23E9, 0x23EC, 2 }, { 0x23F0, 0x23F0, 2 }, { 0x23F3, 0x23F3, 2 },
  { 0x25FD, 0x25FE, 2 }, { 0x2614, 0x2615, 2 }, { 0x2648, 0x2653, 2 }, { 0x267F, 0x267F, 2 },
  { 0x2693, 0x2693, 2 }, { 0x26A1, 0x26A1, 2 }, { 0x26AA, 0x26AB, 2 }, { 0x26BD, 0x26BE, 2 },
  { 0x26C4, 0x26C5, 2 }, { 0x26CE, 0x26CE, 2 }, { 0x26D4, 0x26D4, 2 }, { 0x26EA, 0x26EA, 2 },
  { 0x26F2, 0x26F3, 2 }, { 0x26F5, 0x26F5, 2 }, { 0x26FA, 0x26FA, 2 }, { 0x26FD, 0x26FD, 2 },
  { 0x2705, 0x2705, 2 }, { 0x270A, 0x270B, 2 }, { 0x2728, 0x2728, 2 }, { 0x274C, 0x274C, 2 },
  { 0x274E, 0x274E, 2 }, { 0x2753, 0x2755, 2 }, { 0x2757, 0x2757, 2 }, { 0x2795, 0x2797, 2 },
  { 0x27B0, 0x27B0, 2 }, { 0x27BF, 0x27BF, 2 }, { 0x2B1B, 0x2B1C, 2 }, { 0x2B50, 0x2B50, 2 },
  { 0x2B55, 0x2B55, 2 }, { 0x2E80, 0x303E, 2 }, { 0x3041, 0x33FF, 2 }, { 0x3400, 0x4DBF, 2 },
  { 0x4E00, 0x9FFF, 2 }, { 0xA000, 0xA4CF, 2 }, { 0xA960, 0xA97F, 2 }, { 0xAC00, 0xD7A3, 2 },
  { 0xF900, 0xFAFF, 2 }, { 0xFE00, 0xFE0F, 0 }, { 0xFE10, 0xFE19, 2 }, { 0xFE20, 0xFE2F, 0 },
  { 0xFE30, 0xFE6F, 2 }, { 0xFEFF, 0xFEFF, 0 }, { 0xFF00, 0xFF60, 2 }, { 0xFFE0, 0xFFE6, 2 },
  { 0x16FE0, 0x1B2FF, 2 }, { 0x1F004, 0x1F004, 2 }, { 0x1F0CF, 0x1F0CF, 2 }, { 0x1F18E, 0x1F18E, 2 },
  { 0x1F191, 0x1F19A, 2 }, { 0x1F200, 0x1F2FF, 2 }, { 0x1F300, 0x1F64F, 2 }, { 0x1F680, 0x1F6FF, 2 },
  { 0x1F7E0, 0x1F7EB, 2 }, { 0x1F90C, 0x1F9FF, 2 }, { 0x1FA70, 0x1FAFF, 2 }, { 0x20000, 0x2FFFD, 2 },
  { 0x30000, 0x3FFFD, 2 }, { 0xE0100, 0xE01EF, 0 },
}

-- The columns of one code point.
local function char_width(cp)
  if cp < 0x300 then return 1 end
  local lo, hi = 1, #NOT_ONE
  while lo <= hi do
    local mid = (lo + hi) // 2
    local r = NOT_ONE[mid]
    if cp < r[1] then
      hi = mid - 1
    elseif cp > r[2] then
      lo = mid + 1
    else
      return r[3]
    end
  end
  return 1
end

-- The columns of a character (its UTF-8 bytes; a stray byte counts one).
local function ch_width(ch)
  if #ch == 1 then return 1 end
  local ok, cp = pcall(utf8.codepoint, ch)
  return ok and char_width(cp) or 1
end

--- Visible columns: UTF-8 characters as a terminal shows them (wide
-- ones two, combining and zero-width ones none), ANSI codes excluded.
function M.visible_width(s)
  local plain = M.strip(s)
  local n = utf8.len(plain)
  if not n then return #plain end
  -- (below U+0300 every character is one column: most text)
  if not plain:find("[\204-\244]") then return n end
  n = 0
  for _, cp in utf8.codes(plain) do n = n + char_width(cp) end
  return n
end
local vwidth = M.visible_width

-- Splits a word wider than `w` into pieces of at most `w` columns,
-- never inside an ANSI code or a UTF-8 sequence.
local function chop(word, w)
  if w < 1 or vwidth(word) <= w then return { word } end
  local pieces, cur, used, i = {}, {}, 0, 1
  while i <= #word do
    local esc = word:match("^\27%[[%d;]*m", i)
    local ch = esc or word:match("^" .. utf8.charpattern, i) or word:sub(i, i)
    if not esc then
      local cw = ch_width(ch)
      if used + cw > w and used > 0 then
        pieces[#pieces + 1] = table.concat(cur)
        cur, used = {}, 0
      end
      used = used + cw
    end
    cur[#cur + 1] = ch
    i = i + #ch
  end
  pieces[#pieces + 1] = table.concat(cur)
  return pieces
end

-- The pieces of one item, each with the separator put before it: the
-- item whole if it fits in `room` columns, else its words (chopped if
-- need be), so a long item breaks at its spaces.
local function pieces_of(item, sep, room)
  if vwidth(item) <= room then return { { item, sep } } end
  local out = {}
  for word in item:gmatch("%S+") do
    for _, piece in ipairs(chop(word, room)) do
      out[#out + 1] = { piece, #out == 0 and sep or " " }
    end
  end
  return out
end

-- Ends a line before `sep`: a visible separator ("," or " vs") stays at
-- the end of the line when it fits, else it starts the next one.
local function break_at(line, used, sep, width)
  local tail = sep:match("^(.-)%s*$")
  line = line:gsub("%s+$", "")
  if tail:match("%S") == nil then return line, "" end
  if used + vwidth(tail) <= width then return line .. tail, "" end
  return line, sep:match("^%s*(.-)%s*$") .. " "
end

-- Lays `items` after `label`, `sep` between them, as many per line as fit;
-- later lines start under the first item (or `hang` columns in). An item
-- may be {text, separator} to be put after a separator of its own.
local function flow(label, items, width, sep, hang)
  sep = sep or " "
  local indent = math.min(hang or vwidth(label), width // 2)
  local margin = string.rep(" ", indent)
  local lines, line, used, empty = {}, label, vwidth(label), true
  for _, item in ipairs(items) do
    local text, before_item = item, sep
    if type(item) == "table" then text, before_item = item[1], item[2] end
    for _, p in ipairs(pieces_of(text, before_item, width - indent)) do
      local piece, before = p[1], empty and "" or p[2]
      local w = vwidth(piece)
      if used + vwidth(before) + w > width and (not empty or used > indent) then
        line, before = break_at(line, used, before, width)
        lines[#lines + 1] = line
        line, used = margin, indent
      end
      line, used, empty = line .. before .. piece, used + vwidth(before) + w, false
    end
  end
  lines[#lines + 1] = line
  return lines
end

-- One line of prose, wrapped at spaces with a hanging indent.
local function wrap(text, width, hang)
  if vwidth(text) <= width then return { text } end
  local lead = text:match("^ *")
  local words = {}
  for w in text:gmatch("%S+") do words[#words + 1] = w end
  if #lead >= width // 2 then lead = "" end
  return flow(lead, words, width, " ", math.max(#lead, hang or 0))
end

local function add(lines, more)
  for _, l in ipairs(more) do lines[#lines + 1] = l end
end

-- Every line of `lines` fitted to the width, joined.
local function fit(lines, width)
  local out = {}
  for _, l in ipairs(lines) do
    for _, w in ipairs(wrap(l, width, 2)) do out[#out + 1] = w end
  end
  return table.concat(out, "\n")
end

--- screen.flow(label, items, width, sep, hang): items after a label, as
-- many a line as fit (each game's board lays its lines with it).
M.flow = flow

--- screen.fit(st, text): any text, each line wrapped to the style's width.
function M.fit(st, text)
  local lines = {}
  for l in (text .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = l end
  return fit(lines, st.width)
end

local function pad(s, w)
  return s .. string.rep(" ", math.max(0, w - vwidth(s)))
end

local function lpad(s, w)
  return string.rep(" ", math.max(0, w - vwidth(s))) .. s
end

local function bold(st, s)
  if not st.colour then return s end
  return SGR_BOLD .. s .. SGR_NORMAL
end

--- screen.rule(st): a horizontal line across the width.
function M.rule(st)
  return string.rep(st.unicode and "─" or "-", st.width)
end

-- ---- lists -----------------------------------------------------------------

-- Below this many columns for the texts, a list puts each under its term.
local MIN_TEXT = 20

--- screen.deflist(st, rows, opts): a list of {term, text} in two columns
-- that hold at any width: the terms `opts.indent` (2) columns in, each
-- text wrapped inside the second column with a hanging indent. A term
-- longer than the first column may be (2/5 of the width) has a line to
-- itself, its text below in the column; when the second column would be
-- too narrow, every text goes under its term. Terms are never cut.
function M.deflist(st, rows, opts)
  opts = opts or {}
  local width, indent, gap = st.width, opts.indent or 2, opts.gap or 2
  local cap = math.max(8, width * 2 // 5)
  local termw = 0
  for _, r in ipairs(rows) do
    local w = vwidth(r[1])
    if w <= cap then termw = math.max(termw, w) end
  end
  local col = indent + termw + gap
  local stacked = width - col < MIN_TEXT
  if stacked then col = indent + 4 end
  local margin, lines = string.rep(" ", col), {}
  for _, r in ipairs(rows) do
    local head = string.rep(" ", indent) .. r[1]
    local words = {}
    for w in tostring(r[2] or ""):gmatch("%S+") do words[#words + 1] = w end
    local body = #words > 0 and flow("", words, width - col, " ", 0) or {}
    local first = 1
    if stacked or vwidth(head) + gap > col then
      add(lines, wrap(head, width, indent + 2))
    else
      lines[#lines + 1] = pad(head, col) .. (body[1] or "")
      first = 2
    end
    for i = first, #body do lines[#lines + 1] = margin .. body[i] end
  end
  for i, l in ipairs(lines) do lines[i] = l:gsub("%s+$", "") end
  return table.concat(lines, "\n")
end

-- ---- cards ---------------------------------------------------------------

--- Rank ("A", "2".."10", "J", "Q", "K") and suit letter of a card name,
-- or nil. Takes the engine's names and the spellings a player may type.
function M.parse_card(c)
  if type(c) ~= "string" then return nil end
  local rank, suit = c:match("^(%w%w?)([cdhsCDHS])$")
  if not rank then
    local r, sym = c:match("^(%w%w?)(" .. utf8.charpattern .. ")\239\184\143$")
    if not r then r, sym = c:match("^(%w%w?)(" .. utf8.charpattern .. ")$") end
    rank, suit = r, SUIT_OF_SYMBOL[sym or ""]
    if not suit then return nil end
  end
  rank = rank:upper()
  rank = RANK_ALIAS[rank] or rank
  if not (VALUE[rank] or (tonumber(rank) and tonumber(rank) >= 2 and tonumber(rank) <= 10 and rank:match("^%d+$"))) then
    return nil
  end
  return rank, suit:lower()
end

--- The numeral value of a card (A = 1 ... 10 = 10), 0 for J, Q, K.
function M.value(c)
  local rank = M.parse_card(c)
  if not rank then return 0 end
  return VALUE[rank] or tonumber(rank)
end

--- screen.card(st, "7h"): "7♥" (red when st.colour) or "7h". Text that
-- is not a card comes back unchanged.
function M.card(st, c)
  local rank, suit = M.parse_card(c)
  if not rank then return tostring(c) end
  local text = rank .. (st.unicode and SUIT_SYMBOL[suit] or suit)
  if st.colour and RED[suit] then text = SGR_RED .. text .. SGR_FG end
  return text
end

--- screen.cards(st, list, sep): the cards styled, joined with `sep` (" ").
function M.cards(st, list, sep)
  local out = {}
  for i, c in ipairs(list or {}) do out[i] = M.card(st, c) end
  return table.concat(out, sep or " ")
end

-- A move text with each card word styled ("8h x 2c" -> "8♥ x 2♣").
local function styled_move(st, text)
  return (text:gsub("%S+", function(word)
    if M.parse_card(word) then return M.card(st, word) end
  end))
end
M.styled_move = styled_move

-- ---- names ---------------------------------------------------------------

local function name_of(names, seat)
  if seat == nil then return "nobody" end
  return (names and names[seat]) or ("Seat " .. seat)
end

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

--- The name of a scoring side: the seat's name, or "A & B" for partners.
function M.side_name(names, side, players, sides)
  if not players or not sides or sides >= players then return name_of(names, side) end
  local parts = {}
  for seat = side, players - 1, sides do parts[#parts + 1] = name_of(names, seat) end
  return table.concat(parts, " & ")
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

-- ---- legal moves ---------------------------------------------------------

-- Rows of `entries` in as many columns as fit, filled down then across.
local function columns(entries, width, gap)
  local widest = 0
  for _, e in ipairs(entries) do widest = math.max(widest, vwidth(e)) end
  local ncol = math.max(1, (width + gap) // (widest + gap))
  local nrow = math.ceil(#entries / ncol)
  ncol = math.ceil(#entries / math.max(nrow, 1))
  local lines = {}
  for r = 1, nrow do
    local row = {}
    for c = 1, ncol do
      local e = entries[(c - 1) * nrow + r]
      if e then row[#row + 1] = (c < ncol and entries[c * nrow + r]) and pad(e, widest + gap) or e end
    end
    lines[#lines + 1] = table.concat(row)
  end
  return lines
end

--- screen.moves(st, moves): the legal moves numbered from 1, in columns.
-- `moves` holds move texts or the tables of g:moves(true) (their `text`).
function M.moves(st, moves)
  if #moves == 0 then return "No legal moves." end
  local digits = #tostring(#moves)
  local entries = {}
  for i, m in ipairs(moves) do
    local text = type(m) == "table" and (m.text or m.move or "?") or tostring(m)
    entries[i] = lpad(tostring(i), digits) .. ") " .. styled_move(st, text)
  end
  local lines = {}
  for _, l in ipairs(columns(entries, st.width, 3)) do add(lines, wrap(l, st.width, digits + 2)) end
  return table.concat(lines, "\n")
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

-- A name in lines of at most `w` columns, broken at its spaces (a word
-- longer than that is split, never cut short).
local function name_lines(name, w)
  if vwidth(name) <= w then return { name } end
  -- (partners' names break after their "&" first, then at any space)
  local parts = {}
  for part in (name .. " & "):gmatch("(.-) & ") do parts[#parts + 1] = part .. " &" end
  parts[#parts] = parts[#parts]:sub(1, -3)
  local out = flow("", parts, w, " ", 0)
  for i, l in ipairs(out) do out[i] = l:gsub("^%s+", "") end
  return out
end

-- A cell as text: the count right-aligned, its points in their own column.
local function cell_text(c, lw, rw)
  return lpad(c[1], lw) .. (rw > 0 and "  " .. lpad(c[2], rw) or "")
end

-- Side by side: a column per side under its name (wrapped onto more
-- header lines when long). Nil when the columns or a word of a name do
-- not fit the width.
local function grid_across(header, rows, width)
  local labelw = 0
  for _, row in ipairs(rows) do labelw = math.max(labelw, vwidth(row[1])) end
  local ncol = #header
  local room = (width - labelw) // math.max(ncol, 1) - 2
  local lw, rw, sw, heads, depth, used = {}, {}, {}, {}, 1, labelw
  for c = 1, ncol do
    lw[c], rw[c] = 1, 0
    for _, row in ipairs(rows) do
      lw[c] = math.max(lw[c], vwidth(row[c + 1][1]))
      rw[c] = math.max(rw[c], vwidth(row[c + 1][2]))
    end
    local data = lw[c] + (rw[c] > 0 and rw[c] + 2 or 0)
    local longest = 0
    for word in header[c]:gmatch("%S+") do longest = math.max(longest, vwidth(word)) end
    if longest > math.max(room, data) then return nil end
    heads[c] = name_lines(header[c], math.max(room, data))
    depth = math.max(depth, #heads[c])
    sw[c] = data
    for _, l in ipairs(heads[c]) do sw[c] = math.max(sw[c], vwidth(l)) end
    used = used + 2 + sw[c]
  end
  if used > width then return nil end
  local lines = {}
  for d = 1, depth do
    local line = pad("", labelw)
    for c = 1, ncol do line = line .. "  " .. pad(heads[c][d] or "", sw[c]) end
    lines[d] = line
  end
  for _, row in ipairs(rows) do
    local line = pad(row[1], labelw)
    for c = 1, ncol do line = line .. "  " .. pad(cell_text(row[c + 1], lw[c], rw[c]), sw[c]) end
    lines[#lines + 1] = line
  end
  for i, l in ipairs(lines) do lines[i] = l:gsub("%s+$", "") end
  return lines
end

-- One side after the other, for a width the columns do not fit:
-- "You:" then "Cards 7 (+4), Aces 1 (+1), ...".
local function grid_down(header, rows, width)
  local lines = {}
  for c = 1, #header do
    add(lines, wrap(header[c] .. ":", width, 2))
    local items = {}
    for _, row in ipairs(rows) do
      local count, pts = row[c + 1][1], row[c + 1][2]
      if pts == "-" then pts = "" end
      local text = row[1] .. (count ~= "" and " " .. count or "")
      if pts ~= "" then text = text .. (count ~= "" and " (" .. pts .. ")" or " " .. pts) end
      if count ~= "" or pts ~= "" then items[#items + 1] = text end
    end
    add(lines, flow("  ", items, width, ", ", 2))
  end
  return lines
end

-- The rows under a header of side names, numbers right-aligned and the
-- points in their own column; one side after the other when too narrow.
-- Names are never cut.
local function grid(header, rows, width)
  return grid_across(header, rows, width) or grid_down(header, rows, width)
end

--- screen.grid(header, rows, width): rows of {label, {count, points}...}
-- under the sides' names (a game's round breakdown).
M.grid = grid

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
