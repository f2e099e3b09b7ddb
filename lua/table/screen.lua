--- diloti.screen: the table's text, shared by every game: styles, fitting
-- text to the terminal, lists, cards, the legal moves in columns and a
-- grid of a round's breakdown. A game draws its board with these (its
-- package's `board` or `table` part). Pure: no I/O, no engine calls, so
-- the REPL and the tests can feed it any tables.
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

-- ---- names ---------------------------------------------------------------

local function name_of(names, seat)
  if seat == nil then return "nobody" end
  return (names and names[seat]) or ("Seat " .. seat)
end
M.name_of = name_of

--- The name of a scoring side: the seat's name, or "A & B" for partners.
function M.side_name(names, side, players, sides)
  if not players or not sides or sides >= players then return name_of(names, side) end
  local parts = {}
  for seat = side, players - 1, sides do parts[#parts + 1] = name_of(names, seat) end
  return table.concat(parts, " & ")
end

-- What a game's drawing builds on (lua/games/NAME/).
M.wrap, M.add, M.bold, M.fit_lines = wrap, add, bold, fit

return M
