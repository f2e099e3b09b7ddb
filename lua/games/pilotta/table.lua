-- The table's Pilotta (PILOTTA.md, ids P…; the package's `table` part):
-- the board, the sentences for
-- each action, the round's breakdown in tens, the move reader's short
-- forms, and the computer players until Pilotta AIs are
-- installed. The session, the commands, the driver and records are the
-- table's own (lua/table/repl.lua); the text tools are lua/table/screen.lua.
--
-- Everything drawn comes from one seat's view (g:view(seat), P50), read
-- once by model() into the plain shape the drawing below uses.
local screen = require "diloti.table.screen"
local ai = require "diloti.ai.player"
local registry = require "diloti.registry"

-- (coach: the game has one, its package's coach part,
-- lua/games/pilotta/coach.lua; lua/teach/coach.lua loads it when asked)
local M = { name = "pilotta", title = "Pilotta", coach = true }
M.new_examples = { "new game=pilotta", "new rules=pilotta+partner-exempt humans=2" }

M.declare_instead = "declarations are announced with 'announce CARDS' in the first trick (P35), "
  .. "and shown with 'show' in the second (P38)."
M.move_example = "90h"
M.rules_help = "Pilotta's rule ids (P1-P51, the house rules' PV-..., the clarifications PC1-PC10) are cited "
  .. "by every refusal: 'rules P24' explains one, with an example. Every rule: docs/rules-reference.md"
M.refusal_help = "A refused call or card names its rule and says why (P24: ...): 'rules P24' explains the rule; "
  .. "'why MOVE' asks about one move, and 'rules' lists the house rules. All of them: docs/rules-reference.md"

local SUITS = { "c", "d", "h", "s" }
local SUIT_WORD = { c = "clubs", d = "diamonds", h = "hearts", s = "spades" }
local SUIT_SYMBOL = { c = "♣", d = "♦", h = "♥", s = "♠" }
local RED = { d = true, h = true }
local TEAM_OF = { [0] = 0, [1] = 1, [2] = 0, [3] = 1 }
-- Trick order (P5), high to low, and card points (P6).
local TRUMP_ORDER = { J = 8, ["9"] = 7, A = 6, ["10"] = 5, K = 4, Q = 3, ["8"] = 2, ["7"] = 1 }
local PLAIN_ORDER = { A = 8, ["10"] = 7, K = 6, Q = 5, J = 4, ["9"] = 3, ["8"] = 2, ["7"] = 1 }
local TRUMP_POINTS = { J = 20, ["9"] = 14, A = 11, ["10"] = 10, K = 4, Q = 3 }
local PLAIN_POINTS = { J = 2, A = 11, ["10"] = 10, K = 4, Q = 3 }
local FOUR_NAME = { J = "Jacks", ["9"] = "Nines", A = "Aces", ["10"] = "Tens", K = "Kings", Q = "Queens",
  ["8"] = "Eights", ["7"] = "Sevens" }

-- ---- small words ---------------------------------------------------------

local function rank_suit(c)
  if type(c) ~= "string" then return nil end
  return c:match("^(%w+)([cdhs])$")
end

--- A suit as the style shows it: "♥" (red with colour) or "h".
local function suit_text(st, s)
  if not s then return "?" end
  local t = st.unicode and SUIT_SYMBOL[s] or s
  if st.colour and RED[s] then t = "\27[31m" .. t .. "\27[39m" end
  return t
end

-- A call or action text with its cards and suits styled ("90h" -> "90♥").
local function styled(st, text)
  text = tostring(text)
  local v, s = text:match("^(%d+)([cdhs])$")
  if v then return v .. suit_text(st, s) end
  local w, s2 = text:match("^(%a+) ([cdhs])$")
  if w then return w .. " " .. suit_text(st, s2) end
  return screen.styled_move(st, text)
end
M.styled = styled

local function name_of(names, seat)
  if seat == nil then return "nobody" end
  return (names and names[seat]) or ("Seat " .. seat)
end

local function is_you(names, seat)
  if names and names.you ~= nil then return names.you == seat end
  return name_of(names, seat) == "You"
end

local function team_name(names, team)
  return screen.side_name(names, team, 4, 2)
end

-- The two teams over a grid's columns: their whole names when both fit
-- on one line beside the row labels, else by their seats' directions
-- ("You & North", "East & West"), so that no team's name is broken over
-- two lines (the board above names every seat's player).
local function grid_heads(st, names)
  local full = { team_name(names, 0), team_name(names, 1) }
  local room = ((st.width or 80) - #"Declarations") // 2 - 2
  if utf8.len(full[1]) <= room and utf8.len(full[2]) <= room then return full end
  local short = {}
  for team = 0, 1 do
    local parts = {}
    for seat = team, 3, 2 do
      local n = name_of(names, seat)
      parts[#parts + 1] = n:match("%((%a+)%)$") or n
    end
    short[team + 1] = table.concat(parts, " & ")
  end
  return short
end

local function plural(n, one, many)
  return n .. " " .. (n == 1 and one or (many or one .. "s"))
end

local function sep(st)
  return st.unicode and " · " or " | "
end

-- ---- the engine's sentences in the board's words ---------------------------

-- The verb after "seat N" as it goes with "you" ("seat 0 bids" -> "you bid").
local VERB_YOU = { plays = "play", bids = "bid", passes = "pass", says = "say", announces = "announce",
  shows = "show", names = "name", holds = "hold", has = "have", is = "are", leads = "lead", wins = "win",
  takes = "take", does = "do", needs = "need" }

-- One word of a sentence: a card or a bid styled as the board draws it.
local function styled_word(st, w)
  local r = w:match("^([789AJQK])[cdhs]$") or w:match("^(10)[cdhs]$")
  if r then return screen.card(st, w) end
  local v, suit = w:match("^(%d%d%d?)([cdhs])$")
  if v then return v .. suit_text(st, suit) end
  return w
end

--- An engine's sentence (a refusal, what 'why' says of a move) in the
-- board's words: cards and bids with the suit symbols the terminal shows
-- ("you do not hold J♦"), "seat N" by the seat's name, and "you" (with its
-- verb) for the seat `you`, the person at the keyboard.
function M.words(st, text, names, you)
  text = tostring(text):gsub("%f[%w]([Ss])eat (%d)(%s*)(%a*)", function(s, n, space, verb)
    local seat = tonumber(n)
    if seat == you or (names and names[seat] == "You") then
      return (s == "S" and "You" or "you") .. space .. (VERB_YOU[verb] or verb)
    end
    return name_of(names, seat) .. space .. verb
  end)
  return (text:gsub("%f[%w](%w+)%f[%W]", function(w) return styled_word(st, w) end))
end

-- ---- the model: a view as the drawing reads it -----------------------------

local function list_of(t)
  local out = {}
  if type(t) ~= "table" then return out end
  local start = t[0] ~= nil and 0 or 1
  local i = start
  while t[i] ~= nil do out[#out + 1] = t[i]; i = i + 1 end
  return out
end

local function card_of(x)
  if type(x) == "table" then return x.card or x.text end
  return x
end

--- The seat the next card goes from and what is won: who wins a trick so
-- far (P29) with trumps `trump`, and its card points (P6).
function M.trick_winner(cards, trump)
  local best, best_seat
  local led = cards[1] and select(2, rank_suit(cards[1].card))
  for _, p in ipairs(cards) do
    local r, s = rank_suit(p.card)
    local score
    if s == trump then score = 100 + TRUMP_ORDER[r] elseif s == led then score = PLAIN_ORDER[r] end
    if score and (not best or score > best) then best, best_seat = score, p.seat end
  end
  return best_seat
end

function M.card_points(card, trump)
  local r, s = rank_suit(card)
  if not r then return 0 end
  return (s == trump and TRUMP_POINTS[r] or PLAIN_POINTS[r]) or 0
end

local function decl_of(d)
  local cards = {}
  for _, c in ipairs(list_of(d.cards)) do cards[#cards + 1] = card_of(c) end
  return { seat = d.seat, kind = d.kind, value = d.value, length = d.length, rank = d.rank,
    cards = cards, shown = d.shown == true or d.shown == 1, lost = d.lost == true }
end

--- The view as the board reads it (see the file's head).
function M.model(v)
  local m = {
    seat = v.seat, phase = v.phase, turn = v.turn, dealer = v.dealer, round = v.round or 1,
    hand = list_of(v.hand), counts = {}, calls = {}, trick = {}, decls = {},
    tricks = { [0] = 0, [1] = 0 }, points = { [0] = 0, [1] = 0 },
    score = { [0] = 0, [1] = 0 }, target = v.target,
  }
  for seat = 0, 3 do m.counts[seat] = v.hand_count and v.hand_count[seat] or 0 end
  for _, c in ipairs(list_of(v.calls)) do m.calls[#m.calls + 1] = { seat = c.seat, text = c.text } end
  local k = v.contract
  if type(k) == "table" then
    m.contract = { seat = k.bidder, value = k.value, suit = k.suit, capot = k.capot, mult = k.mult or 1,
      contra = k.contra_by }
  end
  m.trumps = v.trumps
  -- The trick under way: its cards by seat from its leader (P2), and the
  -- tricks done so far.
  local done = 0
  for _, t in ipairs(list_of(v.tricks)) do
    if type(t) == "table" and t.winner then done = done + 1 end
  end
  m.trick_number = math.min(done + 1, 8)
  local seat = v.leader
  for _, c in ipairs(list_of(v.trick)) do
    m.trick[#m.trick + 1] = { seat = seat, card = c }
    seat = seat and (seat + 1) % 4
  end
  m.winning = v.winning
  for team = 0, 1 do
    m.tricks[team] = v.tricks_won and v.tricks_won[team] or 0
    m.points[team] = v.trick_points and v.trick_points[team] or 0
  end
  for _, d in ipairs(list_of(v.announcements)) do m.decls[#m.decls + 1] = decl_of(d) end
  m.standing = v.standing -- a team, "equal", "none", or nil before trick 1 is complete
  m.belote = v.belote
  for team = 0, 1 do m.score[team] = v.score and v.score[team] or 0 end
  return m
end

-- ---- declarations in words -----------------------------------------------

--- "a run of 4 (50)", "four Nines (150)".
function M.decl_words(d)
  if d.kind == "four" then
    local r = d.rank or (d.cards[1] and rank_suit(d.cards[1]))
    return string.format("four %s (%d)", FOUR_NAME[r] or tostring(r), d.value or 0)
  end
  local n = d.length or #d.cards
  return string.format("a run of %d (%d)", n, d.value or 0)
end

-- ---- the board -----------------------------------------------------------

local function contract_text(st, m, names)
  local k = m.contract
  if not k then return nil end
  local value = k.capot and "capot" or tostring(k.value)
  local s = string.format("%s%s%s by %s", value, k.capot and " " or "", suit_text(st, k.suit),
    name_of(names, k.seat))
  if k.mult == 4 then s = s .. ", contra and recontra (x4)"
  elseif k.mult == 2 then
    s = s .. ", contra" .. (k.contra and (" by " .. name_of(names, k.contra)) or "") .. " (x2)"
  end
  return s
end

local function auction_lines(st, m, names)
  if #m.calls == 0 then return { "Auction: nobody has called yet." } end
  local items = {}
  for _, c in ipairs(m.calls) do items[#items + 1] = name_of(names, c.seat) .. " " .. styled(st, c.text) end
  return screen.flow("Auction: ", items, st.width, ", ")
end

local function decl_lines(st, m, names)
  if #m.decls == 0 then return {} end
  local items = {}
  for _, d in ipairs(m.decls) do
    local s = name_of(names, d.seat) .. ": " .. M.decl_words(d)
    if d.shown then s = s .. " shown " .. screen.cards(st, d.cards) end
    if d.lost then s = s .. " lost: not shown in trick 2 (P38)" end
    items[#items + 1] = s
  end
  local lines = screen.flow("Announced: ", items, st.width, ", ")
  if m.standing == 0 or m.standing == 1 then
    lines[#lines + 1] = "  " .. team_name(names, m.standing) .. "'s declarations stand (P36)"
  elseif m.standing == "equal" then
    lines[#lines + 1] = "  the best of each side are equal: none count (P37)"
  end
  return lines
end

local function trick_lines(st, m, names)
  local label = string.format("Trick %d: ", m.trick_number or 1)
  if #m.trick == 0 then
    local lead = m.turn and (name_of(names, m.turn) .. " to lead") or "none under way"
    return { label .. lead }
  end
  local items = {}
  for _, p in ipairs(m.trick) do items[#items + 1] = name_of(names, p.seat) .. " " .. screen.card(st, p.card) end
  local lines = screen.flow(label, items, st.width, ", ")
  if m.winning then
    lines[#lines] = lines[#lines] .. sep(st) .. (is_you(names, m.winning) and "you are" or (name_of(names, m.winning)
      .. " is")) .. " winning it"
  end
  return lines
end

local function won_lines(st, m, names)
  local items = {}
  for team = 0, 1 do
    items[#items + 1] = string.format("%s %s, %d points", team_name(names, team), plural(m.tricks[team], "trick"),
      m.points[team])
  end
  return screen.flow("Won: ", items, st.width, "; ")
end

local function hand_lines(st, m, names)
  local items = {}
  if m.seat == nil then
    -- (a spectator's view: every seat's count, and no hand of its own)
    for seat = 0, 3 do items[#items + 1] = name_of(names, seat) .. " " .. (m.counts[seat] or 0) end
    return screen.flow("Cards in hand: ", items, st.width, ", ")
  end
  for i = 1, 3 do
    local seat = (m.seat + i) % 4
    items[#items + 1] = name_of(names, seat) .. " " .. (m.counts[seat] or 0) .. (i == 2 and " (partner)" or "")
  end
  local lines = screen.flow("Cards in hand: ", items, st.width, ", ")
  local hand = {}
  for i, c in ipairs(m.hand) do hand[i] = screen.card(st, c) end
  local label = (is_you(names, m.seat) and "Your" or name_of(names, m.seat) .. "'s") .. " hand: "
  for _, l in ipairs(screen.flow(label, #hand == 0 and { "empty" } or hand, st.width, " ")) do
    lines[#lines + 1] = l
  end
  return lines
end

-- Is there a legal move of this kind ("announce", "show") in moves?
local function may(moves, word)
  for _, t in ipairs(moves or {}) do
    if t:sub(1, #word + 1) == word .. " " or t == word then return true end
  end
  return false
end

-- A few of the calls legal now, as examples: pass, the lowest bid, a
-- capot, a contra or recontra (whichever the rules allow at this point);
-- nil when there are none to quote (another seat's turn).
local function call_examples(moves)
  if not moves or #moves == 0 then return nil end
  local out, bid, capot = {}, nil, nil
  for _, t in ipairs(moves) do
    if t == "pass" or t == "contra" or t == "recontra" then out[#out + 1] = t
    elseif not bid and t:match("^%d+[cdhs]?$") then bid = t
    elseif not capot and t:match("^capot") then capot = t end
  end
  local list = {}
  if out[1] == "pass" then list[1] = table.remove(out, 1) end
  list[#list + 1] = bid
  list[#list + 1] = capot
  for _, t in ipairs(out) do list[#list + 1] = t end
  return table.concat(list, ", ") .. (#moves > #list and "..." or "")
end

local function turn_line(st, m, names, legal)
  if m.phase == "round-over" then return "The round is over." end
  if m.phase == "match-over" then return "The match is over." end
  local you = is_you(names, m.turn)
  local who = you and "Your" or (name_of(names, m.turn) .. "'s")
  local what = "card"
  local calling = m.phase == "auction" or m.phase == "contra"
  local moves = (calling or m.phase == "play" and m.trick_number <= 2) and legal and legal() or nil
  if calling then
    local eg = call_examples(moves)
    what = eg and ("call (" .. eg .. ")") or "call"
  elseif m.phase == "trump" then what = "name the trumps ('trump h')"
  elseif may(moves, "announce") then what = "card (or 'announce' a declaration first, P35)"
  elseif may(moves, "show") then what = "card ('show' your declaration first, P38)"
  end
  local s = who .. " turn: " .. what .. "."
  if you then return st.colour and ("\27[1m" .. s .. "\27[22m") or s end
  return s
end

--- screen.board for Pilotta: opts as screen.board's (names, recent, rules), and
-- moves: a function giving the viewer's legal moves when it is to move
-- (its turn line names announce or show only when one is legal).
function M.board(st, v, opts)
  opts = opts or {}
  local names = opts.names
  local m = M.model(v)
  local rules = opts.rules or {}
  local lines = {}
  for _, r in ipairs(opts.recent or {}) do
    for _, l in ipairs(screen.flow("", { r }, st.width, " ", 2)) do lines[#lines + 1] = l end
  end
  if #lines > 0 then lines[#lines + 1] = "" end
  local target = m.target or rules.target
  local head = { "Round " .. m.round, "dealer: " .. name_of(names, m.dealer) }
  for _, l in ipairs(screen.flow("", head, st.width, sep(st), 0)) do lines[#lines + 1] = l end
  local score = {}
  for team = 0, 1 do score[#score + 1] = team_name(names, team) .. " " .. m.score[team] end
  if target then score[2] = score[2] .. " (to " .. target .. ")" end
  for _, l in ipairs(screen.flow("Score: ", score, st.width, ", ")) do lines[#lines + 1] = l end
  lines[#lines + 1] = screen.rule(st)
  if m.phase ~= "play" and m.phase ~= "round-over" and m.phase ~= "match-over" or not m.contract then
    for _, l in ipairs(auction_lines(st, m, names)) do lines[#lines + 1] = l end
    local k = contract_text(st, m, names)
    if k then lines[#lines + 1] = "Highest bid: " .. k end
  else
    lines[#lines + 1] = "Contract: " .. contract_text(st, m, names) .. sep(st) .. "trumps: "
      .. suit_text(st, m.trumps) .. (st.unicode and "" or (" (" .. (SUIT_WORD[m.trumps] or "?") .. ")"))
    for _, l in ipairs(decl_lines(st, m, names)) do lines[#lines + 1] = l end
    if m.belote then lines[#lines + 1] = "Belote: " .. name_of(names, m.belote) .. " (20, P39)" end
    if m.phase == "play" then
      for _, l in ipairs(trick_lines(st, m, names)) do lines[#lines + 1] = l end
    end
    for _, l in ipairs(won_lines(st, m, names)) do lines[#lines + 1] = l end
  end
  lines[#lines + 1] = ""
  for _, l in ipairs(hand_lines(st, m, names)) do lines[#lines + 1] = l end
  lines[#lines + 1] = screen.rule(st)
  lines[#lines + 1] = turn_line(st, m, names, opts.moves)
  return screen.fit(st, table.concat(lines, "\n"))
end

M.moves = function(st, list)
  local texts = {}
  for i, x in ipairs(list) do texts[i] = type(x) == "table" and (x.text or "?") or tostring(x) end
  local shown = {}
  for i, t in ipairs(texts) do shown[i] = styled(st, t) end
  -- (screen.moves styles card words only; the calls' suits are styled here)
  return screen.moves(st, shown)
end

-- ---- events --------------------------------------------------------------

--- One sentence for a move event (the log, the lines above the board).
-- An announcement is said by its kind and value only (P50).
function M.describe(st, e, names)
  local who = name_of(names, e.seat)
  local text = e.move or e.text or "?"
  local k = e.kind
  if k == "pass" then return who .. " passed." end
  if k == "bid" then return string.format("%s bid %s.", who, styled(st, text)) end
  if k == "contra" then return who .. " said contra (x2)." end
  if k == "recontra" then return who .. " said recontra (x4)." end
  if k == "trump" then return string.format("%s named the trumps: %s.", who, suit_text(st, e.suit)) end
  if k == "announce" then
    local cards = list_of(e.cards)
    local r1 = rank_suit(cards[1] or "")
    local four = #cards == 4
    for _, c in ipairs(cards) do four = four and rank_suit(c) == r1 end
    return string.format("%s announced %s.", who,
      M.decl_words({ kind = four and "four" or "run", rank = r1, value = e.value, cards = cards }))
  end
  if k == "show" then
    local cards = {}
    for c in text:gmatch("%S+") do if rank_suit(c) then cards[#cards + 1] = c end end
    return string.format("%s showed %s.", who, screen.cards(st, cards))
  end
  local card = e.card or text:match("^(%S+)")
  return string.format("%s played %s%s.", who, screen.card(st, card), e.belote and ", saying belote (20)" or "")
end

-- The outcome of the declarations, said once the first trick is complete.
local function standing_line(T, m)
  if #m.decls == 0 then return nil end
  local best = {}
  for _, d in ipairs(m.decls) do
    local t = TEAM_OF[d.seat]
    if not best[t] or (d.value or 0) > (best[t].value or 0) then best[t] = d end
  end
  if m.standing == 0 or m.standing == 1 then
    local b, o = best[m.standing], best[1 - m.standing]
    local bw, ow = b and M.decl_words(b) or "?", o and M.decl_words(o)
    local against = ""
    if ow == bw then
      -- the same kind, length and value: the cards decided, which stay
      -- private until shown (P50)
      against = " against " .. ow .. ": the higher top card, or the trump suit"
    elseif ow then
      against = " beats " .. ow
    end
    return string.format("Declarations: %s's stand (%s%s, P36); they must be shown in trick 2 (P38).",
      T:side_name(m.standing), bw, against)
  end
  if m.standing == "equal" then return "Declarations: the best of each side are equal, so none count (P37)." end
  return nil
end

--- Lines after a move's own sentence (T: the session): the trick's
-- winner and points, the declarations' outcome after trick 1, a thrown-in
-- round.
function M.after_move(T, e)
  local out = {}
  local over = e.trick_over
  if type(over) == "table" and over.winner then
    local who = T.names[over.winner]
    out[#out + 1] = string.format("%s %s trick %d (%s%s).", who, who == "You" and "win" or "wins",
      over.number or 0, plural(over.points or 0, "point"), over.number == 8 and ", the last trick's 10 included" or "")
    if over.number == 1 then
      local line = standing_line(T, M.model(T.g:view(T.viewer or 0)))
      if line then out[#out + 1] = line end
    end
  end
  if e.thrown_in then out[#out + 1] = "Everybody passed: the cards are thrown in (P19)." end
  return out
end

function M.prompt_line() return nil end

-- ---- the round's breakdown -------------------------------------------------

local ROWS = {
  { "Tricks", "tricks" }, { "Trick points", "trick_points" }, { "Declarations", "declarations" },
  { "Belote", "belote" }, { "Raw points", "raw" }, { "Game points", "game" },
}

local so_far_extras

-- A swept side's declarations when they are lost (P43: made at x1, the
-- other side took no trick and scores its belote only): the team and
-- their value, or nil.
local function lost_decls(r)
  if not r.made or (r.mult or 1) > 1 or r.bidders == nil then return nil end
  local def = 1 - r.bidders
  local d = r[def]
  if d and d.tricks == 0 and (d.declarations or 0) > 0 and d.raw == (d.belote or 0) then return def, d.declarations end
  return nil
end

-- After a failed contract (P44) or a doubled one (P45), where the
-- winner's raw points come from: both sides' trick points and
-- declarations, and the contract. Nil for other rounds (and for house
-- rules that score them otherwise).
local function takes_all_line(r, names)
  local mult = r.mult or 1
  if r.bidders == nil or (r.made and mult == 1) then return nil end
  local winner = r.made and r.bidders or 1 - r.bidders
  local loser = 1 - winner
  local w, l = r[winner], r[loser]
  if not (w and l) or l.raw ~= (l.belote or 0) then return nil end
  local tp = (w.trick_points or 0) + (l.trick_points or 0)
  local decl = (w.declarations or 0) + (l.declarations or 0)
  local what = string.format("both sides' trick points (%d)", tp)
  if decl > 0 then
    what = what .. string.format(" and declarations (%d%s)", decl,
      (l.declarations or 0) > 0 and (", " .. team_name(names, loser) .. "'s included") or "")
  end
  local value = r.value == 250 and "capot (250)" or tostring(r.value)
  return string.format("%s take all (%s): %s, and the contract's %s%s; %s score only their belote.",
    team_name(names, winner), mult > 1 and "P45" or "P44", what, value, mult > 1 and (" x" .. mult) or "",
    team_name(names, loser))
end

local function round_rows(r, result)
  local rows = {}
  local lost_team = lost_decls(r)
  for _, row in ipairs(ROWS) do
    local cells = { row[1] }
    for team = 0, 1 do
      local v = r[team] and r[team][row[2]] or 0
      if row[2] == "declarations" and team == lost_team then v = 0 end -- (lost: named under the rows)
      cells[team + 2] = { tostring(v), "" }
    end
    rows[#rows + 1] = cells
  end
  local score = { "Match score" }
  for team = 0, 1 do score[team + 2] = { tostring(result.score and result.score[team] or 0), "" } end
  rows[#rows + 1] = score
  return rows
end

-- "the contract 110c by North (x2) is made".
local function contract_outcome(r, names)
  if r.bidders == nil then return "" end
  local value = r.value == 250 and "capot" or tostring(r.value)
  return string.format(": %s's contract of %s%s %s (P42)", team_name(names, r.bidders), value,
    (r.mult or 1) > 1 and (" x" .. r.mult) or "", r.made and "is made" or "failed")
end

--- The breakdown of a finished round (g:result(): trick points, counted
-- declarations, belote, raw points, game points in tens, P41-P46) and the
-- match so far.
function M.round_summary(st, result, names, opts)
  opts = opts or {}
  local rules = opts.rules or {}
  local lines = {}
  local r = result.round
  local n = result.rounds and (" " .. result.rounds) or ""
  if not r then
    lines[1] = "No round has finished yet."
  elseif r.thrown_in then
    lines[1] = string.format("Round%s: everybody passed, no score (P19).", n)
  else
    lines[1] = string.format("Round%s is over%s.", n, contract_outcome(r, names))
    for _, l in ipairs(screen.grid(grid_heads(st, names), round_rows(r, result), st.width)) do
      lines[#lines + 1] = l
    end
    local lost, value = lost_decls(r)
    if lost then
      lines[#lines + 1] = string.format("Lost: %s's declarations (%d): a side that takes no trick loses them (P43).",
        team_name(names, lost), value)
    end
    lines[#lines + 1] = takes_all_line(r, names)
    -- (a house rule's score hook that names what it added, in the game points above)
    if type(r.label) == "string" and r.label ~= "" then
      lines[#lines + 1] = "The game points include the house rules': " .. r.label .. "."
    end
  end
  if result.over then
    if result.winner == 0 or result.winner == 1 then
      lines[#lines + 1] = "The match is over: " .. team_name(names, result.winner) .. " win."
    else
      lines[#lines + 1] = "The match is over."
    end
  else
    lines[#lines + 1] = string.format("The match is played to %d game points (P49).",
      result.target or rules.target or 351)
  end
  return screen.fit(st, table.concat(lines, "\n"))
end

-- The sheet: each finished round's game points, from g:history()'s
-- breakdowns, with the running totals.
local function sheet_lines(history)
  local rows = {}
  local total = { [0] = 0, [1] = 0 }
  for _, h in ipairs(history or {}) do
    local b = h.breakdown
    if h.round_over and type(b) == "table" then
      local cells = { "Round " .. tostring(h.round) }
      for team = 0, 1 do
        local gp = b[team] and b[team].game or 0
        total[team] = total[team] + gp
        cells[team + 2] = { b.thrown_in and "-" or ("+" .. gp), "(" .. total[team] .. ")" }
      end
      rows[#rows + 1] = cells
    end
  end
  return rows
end

-- The declarations that count for a team so far: its announced ones once
-- they stand (P36, P37).
local function counted_decls(m, team)
  if m.standing ~= team then return 0 end
  local sum = 0
  for _, d in ipairs(m.decls) do
    if TEAM_OF[d.seat] == team and not d.lost then sum = sum + (d.value or 0) end
  end
  return sum
end

-- What the bidders still need (P42): their trick points, standing
-- declarations and belote against the contract; a capot's tricks.
local function need_line(m, names)
  local k = m.contract
  if not k or m.phase ~= "play" then return nil end
  local team = TEAM_OF[k.seat]
  local who = team_name(names, team)
  if k.capot then
    if m.tricks[1 - team] > 0 then
      return string.format("%s's capot is lost: the other side took a trick (P42).", who)
    end
    return string.format("%s must take every trick for their capot (P42): %d of 8 so far.", who, m.tricks[team])
  end
  local have = m.points[team] + counted_decls(m, team) + ((m.belote and TEAM_OF[m.belote] == team) and 20 or 0)
  local need = (k.value or 0) - have
  if need > 0 then
    return string.format("%s need %d more points for the contract of %d (P42): %d so far (trick points, "
      .. "standing declarations, belote).", who, need, k.value, have)
  end
  return string.format("%s have the %d of the contract (%d with standing declarations and belote); it is made "
    .. "with a trick of their own, unless the other side takes all eight (P42).", who, k.value, have)
end

-- 'score' in a round: the declarations announced and whose stand, the
-- belote, and what the bidders still need.
so_far_extras = function(m, names)
  local out = {}
  if #m.decls > 0 then
    local items = {}
    for _, d in ipairs(m.decls) do
      items[#items + 1] = name_of(names, d.seat) .. ": " .. M.decl_words(d)
        .. (d.lost and " (lost, not shown in trick 2, P38)" or "")
    end
    local standing = ""
    if m.standing == 0 or m.standing == 1 then
      standing = string.format(" (%s's stand, P36)", team_name(names, m.standing))
    elseif m.standing == "equal" then
      standing = " (the best of each side are equal: none count, P37)"
    elseif m.standing == nil then
      standing = " (compared when trick 1 is complete, P36)"
    end
    out[#out + 1] = "Declarations: " .. table.concat(items, ", ") .. standing
  end
  if m.belote then out[#out + 1] = string.format("Belote: %s (20, P39)", name_of(names, m.belote)) end
  out[#out + 1] = need_line(m, names)
  return out
end

--- 'score': the sheet in tens (P46), each round and the running totals,
-- and this round's tricks and trick points so far. opts: rules,
-- history (g:history()).
function M.round_so_far(st, v, names, opts)
  opts = opts or {}
  local m = M.model(v)
  local lines = {}
  local rows = sheet_lines(opts.history)
  if #rows > 0 then
    lines[#lines + 1] = "The sheet, in tens (each round's game points, the total in brackets):"
    for _, l in ipairs(screen.grid(grid_heads(st, names), rows, st.width)) do
      lines[#lines + 1] = l
    end
  end
  lines[#lines + 1] = string.format("Round %d so far:", m.round)
  local k = contract_text(st, m, names)
  lines[#lines + 1] = "  Contract: " .. (k or "none yet (the auction)")
  for team = 0, 1 do
    lines[#lines + 1] = string.format("  %s: %s, %d trick points", team_name(names, team),
      plural(m.tricks[team], "trick"), m.points[team])
  end
  for _, l in ipairs(so_far_extras(m, names)) do lines[#lines + 1] = "  " .. l end
  local rules = opts.rules or {}
  lines[#lines + 1] = string.format("The match is played to %d game points (P49).", m.target or rules.target or 351)
  return screen.fit(st, table.concat(lines, "\n"))
end

--- Every hand face up (replays).
function M.open_hands(st, g, names)
  local s = g:state()
  local lines = {}
  for seat = 0, 3 do
    local hand = s.hands and s.hands[seat] or {}
    lines[#lines + 1] = string.format("  %-22s %s", names[seat], screen.cards(st, list_of(hand)))
  end
  return table.concat(lines, "\n")
end

-- ---- reading what is typed ------------------------------------------------

--- The words a call or a card may hold (the engine's parser's, and the
-- table's own 'double' and 'redouble'): no command may have one of them
-- as its name (tests/lua/pilotta_newcomer_spec.lua).
M.move_words = { "pass", "contra", "recontra", "double", "redouble", "capot", "trump", "trumps", "announce",
  "show", "belote", "nobelote", "no" }
M.move_word = {}
for _, w in ipairs(M.move_words) do M.move_word[w] = true end
-- (the words a line that is meant as a move may begin with)
local WORDS = { pass = true, contra = true, recontra = true, double = true, redouble = true, capot = true,
  announce = true, show = true, trump = true, trumps = true }
-- The words people say for contra and recontra (P16, P17).
local SYNONYM = { double = "contra", redouble = "recontra" }

--- Does the input look like a call or a card rather than a command?
function M.looks_like_move(text)
  local first = text:match("^%s*(%S+)")
  if not first then return false end
  first = first:lower()
  if WORDS[first] then return true end
  if first:match("^%d+$") then return text:match("^%s*%d+%s*$") ~= nil end
  if first:match("^%d+[cdhs]$") then return true end
  return screen.parse_card(first) ~= nil or first:match("^%d+" .. utf8.charpattern .. "$") ~= nil
end

local function fits_of(moves, pred)
  local out = {}
  for _, m in ipairs(moves) do
    local t = type(m) == "table" and m.text or m
    if pred(t) then out[#out + 1] = t end
  end
  return out
end

-- The short forms: "90" (a bid of 90 in whichever suits are legal),
-- "capot" (in any suit), "announce" or "show" (the one there is).
-- Returns the fitting texts, or nil when the text is no short form.
local function short_fits(g, text)
  local moves = g:moves()
  local low = text:lower()
  local n = low:match("^(%d+)$")
  if n then
    return fits_of(moves, function(t) return t:match("^" .. n .. "[cdhs]$") ~= nil end)
  end
  if low == "capot" then return fits_of(moves, function(t) return t:match("^capot [cdhs]$") ~= nil end) end
  if low == "announce" or low == "show" then
    return fits_of(moves, function(t) return t:sub(1, #low) == low end)
  end
  return nil
end

-- 'announce' or 'show' alone with nothing of the kind to play: why not.
local NONE = {
  announce = "P35: you have no declaration to announce now (a run of three or more cards of a suit, or four "
    .. "of a kind, announced at your turn in trick 1)",
  show = "P38: you have no declaration to show now (a declaration you announced is shown at your turn in "
    .. "trick 2, when your side's stand)",
}

-- PC7 reads "9h" as a bid of 90h, and the engine takes it; but at the
-- table "8h", "9h" and "10h" are also the names of cards, and a newcomer
-- who types one in the auction means the card. Refused, with the bid in
-- full: an accidental bid cannot be taken back online.
local function card_in_auction(g, text)
  if g:phase() ~= "auction" then return nil end
  local rank, suit = screen.parse_card(text)
  local tens = rank and rank:match("^%d+$") and tonumber(rank)
  if not (tens and tens >= 8) then return nil end
  return string.format("%s names a card, and this is the auction: to bid %d in %s type %d%s (PC7's short "
    .. "forms here: %d alone for the bids of %d, 11%s for 110%s)", text, tens * 10, SUIT_WORD[suit], tens * 10, suit,
    tens, tens * 10, suit, suit)
end

-- Why 'show' shows nothing for one who announced: the comparison went
-- the other way or came out equal (P37), which NONE's words do not say.
local function none_reason(g, word)
  if word ~= "show" then return NONE[word] end
  local v = g:view(g:turn() or 0)
  local mine = false
  for _, d in ipairs(v.announcements or {}) do mine = mine or d.seat == v.seat end
  if not mine or v.standing == nil then return NONE.show end
  if v.standing == "equal" then
    return "P37: the best declarations of each side are equal, so none count and there is nothing to show"
  end
  if v.standing ~= TEAM_OF[v.seat] then
    return "P37: the other side's declarations stand, so yours count for nothing and are not shown"
  end
  return NONE.show
end

--- resolve(g, text) -> {move=} | {candidates=} | {error=} (as
-- moveinput.resolve): a move number (below 80), the notation, or a short
-- form ("90" for the bids of 90, "capot", "announce", "show"). In the
-- auction a number from 8 to 24 is PC7's bid in tens, not a move number:
-- "11" meant as 110 must not play the list's eleventh call.
function M.resolve(g, text)
  text = text:match("^%s*(.-)%s*$")
  text = SYNONYM[text:lower()] or text
  local card = card_in_auction(g, text)
  if card then return { error = card } end
  local n = text:match("^%d+$") and math.tointeger(tonumber(text))
  if n and n >= 8 and n <= 24 and g:phase() == "auction" then
    text, n = tostring(n * 10), nil
  end
  if n and n < 80 then
    local m = g:parse(n)
    if m then return { move = m.text } end
    return { error = string.format("there is no move number %d: the list has %d (type 'moves')", n, #g:moves()) }
  end
  local parsed, why = g:parse(text)
  if parsed then return { move = parsed.text } end
  local fits = short_fits(g, text)
  if fits and #fits == 1 then return { move = fits[1] } end
  if fits and #fits > 1 then return { candidates = fits } end
  if fits and NONE[text:lower()] then return { error = none_reason(g, text:lower()) } end
  return { error = tostring(why or "not a call or a card") }
end

--- A move the table asks about once (the session plays it when it is
-- typed again): a card in trick 2 while one's announced declaration
-- waits to be shown loses the declaration (P38), which a slip of the
-- keyboard should not cost. nil for every other move.
function M.second_thought(g, move)
  if move:match("^show") or not may(g:moves(), "show") then return nil end
  return string.format("P38: you announced a declaration and have not shown it: playing %s now loses it. "
    .. "Type 'show' first, or %s again to play it all the same.", move, move)
end

-- ---- the computer's seats -------------------------------------------------

--- The AI for seats the options leave to the computer: the "normal"
-- level of Pilotta (ai/player.lua LEVELS: the cautious partner player).
function M.default_ai() return "normal" end

--- A player for a seat: the AI of that name or level that plays Pilotta
-- (its own, or one that plays any game, as random does).
function M.player(name, opts)
  local o = {}
  for k, v in pairs(opts or {}) do o[k] = v end
  o.game = "pilotta"
  local p, why = ai.player(name, o)
  -- (an AI of another game: named by that game's title)
  local other = not p and why:match("plays ([%w_]+), not pilotta")
  if other then
    local pkg = registry.get(other)
    why = string.format("the AI '%s' plays %s, not Pilotta; 'ai' lists Pilotta's (e.g. ai=cautious)", name,
      pkg and pkg.title or other)
  end
  return p, why
end

-- The moves shown by 'help'.
M.help_moves = {
  { "pass", "pass in the auction (P12)" },
  { "90h", "bid 90 in hearts (P14: 80 to 160 in tens, above the highest bid; 12h is short for 120h, and in "
    .. "the auction 12 alone lists the bids of 120, PC7)" },
  { "capot s", "bid capot in spades: all eight tricks (250)" },
  { "contra, recontra", "double the other side's bid, redouble your side's (P16, P17; 'double' and "
    .. "'redouble' too)" },
  { "90", "the bids of 90 to choose from (the one, when only one suit is legal)" },
  { "Jh", "play the Jack of hearts (10d, J♥ too; 'Qc nobelote' skips the belote, P39)" },
  { "announce 7c 8c 9c", "announce a declaration in trick 1, by its cards (P35)" },
  { "show", "show your announced declaration in trick 2 (P38)" },
  { "4", "the 4th move of the 'moves' list" },
}

-- ---- what the lessons (lua/teach/learn.lua) ask of the game ----------------

M.learn_greeting = "New to Pilotta? Type 'learn' for a short course on its rules, one idea at a time."
M.lesson_help = "Type a call or a card as at the table (pass, 90h, capot s, contra, Jh, 'announce 7c 8c 9c', "
  .. "show), or its number in 'moves'; or: why MOVE, hint, moves, board, skip, quit."

-- (for the tests and the docs: the suits' letters)
M.SUITS = SUITS

return M
