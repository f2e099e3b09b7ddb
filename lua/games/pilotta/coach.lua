-- Pilotta's hint, why, explain and coach at the table (issue 17). The
-- shared parts (the commands, the observer, taking the game back for
-- `explain`) are lua/teach/coach.lua's, which asks this module (the
-- package's `coach` part) when the table's module says `coach = true`.
--
-- Everything said comes from one seat's knowledge: the facts of a card
-- from that seat's view (P50: its own hand, the cards played, the calls),
-- and the ranking from the engine's search from that seat (g:search with
-- the seat: it samples the hidden hands, it never reads them). So a hint
-- or a coach's line can name the asker's cards and the cards on the
-- table, never a card still hidden in another hand.
--
-- The auction's advice is lua/games/pilotta/bid.lua's: the call the `expert`
-- AI would make in the seat, from the AIs' own evaluation of the hand.
local pilotta = require "diloti.games.pilotta.table"
local screen = require "diloti.table.screen"
local bid = require "diloti.games.pilotta.bid"

local M = {}

-- The search's budget at the table: 48 sampled deals, at most a second
-- (about 20 ms a deal from the first trick on this machine, idle; 30-40
-- ms early in a round). A search that solved fewer than `min_deals` in
-- that second (a loaded machine: issue 25 saw 3, and a 0% made share
-- that was 69% a trick later) is followed by another of up to `more`
-- seconds for the rest; advice still short of them is said to be a rough
-- guess, and the coach stays quiet on it.
M.budget = { deals = 48, time = 1.0, min_deals = 24, more = 2.0 }

-- The search, as one function so that the specs can put a stand-in
-- there (the Lua contract: g:search{seat, deals, time, seed}).
function M.search(g, opts)
  return g:search(opts)
end

-- A card is a clear mistake when the search's best is rated at least
-- `gap` game points (the sheet's tens) above it over the sampled deals,
-- or `exact_gap` when no card was hidden (every deal the same: no noise).
-- Chosen with tools/pl_coach_noise.lua: over 500 play positions of
-- rounds the rule-follower plays (seeds 1-45 and 101-151, 48 deals a
-- search) a gap of 2.5 flags 0.4% of the search's own cards (searched
-- again with another seed), 20.9% of random cards and 7.0% of the
-- follower's (1.5: 2.4%, 29.8%, 11.2%; 2.0: 1.6%, 24.3%, 9.0%).
--
-- In the auction (call_verdict) a bid `over` trick points or more above
-- the highest bid the AIs' evaluation covers in that suit (the advice's
-- bid: the estimate less its margin of 20, down to a step of 10), a
-- contra that leaves the bidders less than `contra` short of what they
-- need from tricks (expert says contra at 50), a recontra where the side
-- should make less than `recontra` beyond its own bid, or a pass where
-- expert's call is `missed` points or more clear (its bid's cover above
-- the lowest open bid, its contra's or recontra's figure beyond its
-- margin), is flagged. Chosen with tools/pl_coach_bid_noise.lua: over
-- 2000 auction positions of tables of experts (seeds 1-386; seeds
-- 1001-1381 in brackets) `over` 20, two steps (issue 25: 130h where the
-- hint said 110h drew no word), flags none of expert's, cautious's or the
-- follower's bids and 65.5% (68.5%) of random legal calls (10: the same
-- for the AIs, 67.5% (70.8%) of random calls); `contra` 30 none of
-- expert's or cautious's contras and 86.0% (85.5%) of random ones (50:
-- 100% (98.4%)); `recontra` 0 none of expert's and 25.0% (11.1%) of
-- random ones; `missed` 10 flags none of expert's passes nor of
-- cautious's (which keeps 30: its passes fall short of expert's bids by
-- less than 10), 19.9% (20.6%) of the follower's calls (it bids only on
-- long strong trumps) and 0.6% (0.3%) of random ones (5: cautious 2.9%
-- (3.4%), follower 23.3% (24.3%); 20: follower 12.6% (12.1%)). A capot is
-- flagged without the eight sure tricks expert wants (none of the three
-- AIs', 19.2% (17.4%) of random calls).
M.threshold = { gap = 2.5, exact_gap = 1, over = 20, missed = 10, contra = 30, recontra = 0 }

-- ---------------------------------------------------------------------
-- Words

local SUIT_NAME = { c = "club", d = "diamond", h = "heart", s = "spade" }
local RANK_NAME = { J = "Jack", ["9"] = "Nine", A = "Ace", ["10"] = "Ten", K = "King", Q = "Queen",
  ["8"] = "Eight", ["7"] = "Seven" }

local function plural(n, one, many)
  return string.format("%d %s", n, n == 1 and one or (many or one .. "s"))
end

local function team_of(seat) return seat % 2 end
local function partner_of(seat) return (seat + 2) % 4 end

local function rank_suit(c)
  return c:match("^(%w+)([cdhs])$")
end

local function card_of(text)
  return text:match("^(%S+)")
end

local function card(T, c) return screen.card(T.style, c) end

local function move_words(T, text) return pilotta.styled(T.style, text) end

local function percent(p)
  return string.format("%d%%", math.floor(p * 100 + 0.5))
end

local function whose(T, seat, me)
  if seat == me then return "your" end
  return T.names[seat] .. "'s"
end

local function who(T, seat, me)
  if seat == me then return "you" end
  return T.names[seat]
end

-- "you"/"your" open a sentence capitalised; seat names stay as written.
local function cap(s) return (s:gsub("^you", "You"):gsub("^it", "It"):gsub("^the", "The"):gsub("^with", "With")) end

-- ---------------------------------------------------------------------
-- What a card does, from one seat's view

local function legal(g)
  local out = {}
  for _, m in ipairs(g:moves(true)) do out[m.text] = m end
  return out
end

local function holds_suit(hand, s)
  for _, c in ipairs(hand) do
    if select(2, rank_suit(c)) == s then return true end
  end
  return false
end

local function count_trumps(list, t)
  local n = 0
  for _, c in ipairs(list or {}) do
    if select(2, rank_suit(c)) == t then n = n + 1 end
  end
  return n
end

-- Does card u, played after c, beat it (P29, with trumps t)?
local function beaten_by(c, u, t)
  return pilotta.trick_winner({ { seat = 0, card = c }, { seat = 1, card = u } }, t) == 1
end

-- Which rule lets this card be played, in words: id, words.
local function permission(m, hand, c, rules)
  local _, s = rank_suit(c)
  local t = m.trumps
  if #m.trick == 0 then return "P22", "the leader may play any card" end
  local led = select(2, rank_suit(m.trick[1].card))
  local best = pilotta.trick_winner(m.trick, t)
  local top
  for _, p in ipairs(m.trick) do if p.seat == best then top = p.card end end
  local beats = beaten_by(top, c, t)
  if s == led then
    if led == t then
      return "P24", beats and "it follows the trumps led, higher than the trumps in the trick"
        or "it follows the trumps led (none of yours beats the trick's best, so any trump)"
    end
    return "P23, P28", "it follows the led suit, with any card of it"
  end
  if s == t then
    local trumped = select(2, rank_suit(top)) == t
    if trumped then
      return "P25", beats and "with no card of the led suit, it trumps, over the trump in the trick"
        or "with no card of the led suit, it must trump, under the trump in the trick when no higher trump is held"
    end
    return "P25", "with no card of the led suit, it must trump"
  end
  -- (hand is nil when the viewer may not know it: the duty to trump
  -- is then cited without saying whether any trump was held)
  if rules.partner_exempt and (hand == nil or holds_suit(hand, t)) and best == (m.turn + 2) % 4 then
    return "PV-partner-exempt", "the partner is winning the trick, so there is no duty to trump"
  end
  return "P26", "with no card of the led suit and no trump, any card may go"
end

--- Is card c the highest trump left, with `unseen` the cards its holder
-- has not seen (P5's trump order)?
function M.master_trump(c, t, unseen)
  if select(2, rank_suit(c)) ~= t then return false end
  for _, u in ipairs(unseen or {}) do
    if select(2, rank_suit(u)) == t and beaten_by(c, u, t) then return false end
  end
  return true
end

--- The facts of playing card move `text` for the seat to move in g (g
-- is not changed), from `viewer`'s view (default: the mover). Public
-- facts only, plus the mover's own hand when the viewer is the mover.
function M.facts(g, text, viewer)
  local seat = g:turn()
  local info = legal(g)[text]
  if not info or info.kind ~= "play" then return nil end
  if viewer == nil then viewer = seat end
  local own = g:view(seat)
  local m = pilotta.model(own)
  local c = info.card or card_of(text)
  local r, s = rank_suit(c)
  local t = m.trumps
  local trick = {}
  for i, p in ipairs(m.trick) do trick[i] = p end
  trick[#trick + 1] = { seat = seat, card = c }
  local winner = pilotta.trick_winner(trick, t)
  local pts = 0
  for _, p in ipairs(trick) do pts = pts + pilotta.card_points(p.card, t) end
  local complete = #trick == 4
  local last = complete and m.trick_number == 8
  local rule, words = permission(m, viewer == seat and own.hand or nil, c, g:rules())
  local f = {
    seat = seat, card = c, rank = r, suit = s, text = text, trumps = t, number = m.trick_number,
    trump = s == t, points = pilotta.card_points(c, t), winner = winner, wins = winner == seat,
    partner_wins = winner == partner_of(seat), partner_was = m.winning == partner_of(seat), was = m.winning,
    complete = complete, last = last, lead = #m.trick == 0, trick_points = pts + (last and 10 or 0),
    rule = rule, rule_words = words, belote = info.belote == true, nobelote = text:find("nobelote", 1, true) ~= nil,
  }
  if viewer == seat then
    f.trumps_kept = count_trumps(own.hand, t) - (f.trump and 1 or 0)
    -- In the seventh trick the card kept is the last trick's: is it the
    -- highest trump still about (it wins trick 8 and its 10 whatever
    -- comes)?
    if #own.hand == 2 then
      f.kept = own.hand[1] == c and own.hand[2] or own.hand[1]
      f.kept_wins = M.master_trump(f.kept, t, own.unseen)
    end
  end
  if viewer ~= false then
    local unseen = g:view(viewer).unseen
    f.trumps_out = count_trumps(unseen, t)
    -- (how many unseen cards of its suit beat it: counted, never named)
    f.higher_out = 0
    for _, u in ipairs(unseen or {}) do
      if select(2, rank_suit(u)) == s and beaten_by(c, u, t) then f.higher_out = f.higher_out + 1 end
    end
  end
  return f
end

-- Who wins the trick, in words.
local function trick_clause(T, f, me)
  local w = f.winner
  if f.complete then
    local pts = plural(f.trick_points, "point") .. (f.last and ", the last trick's 10 included" or "")
    if w == f.seat then return string.format("it wins the trick (%s)", pts) end
    if f.partner_wins then return string.format("%s partner wins the trick (%s)", whose(T, f.seat, me), pts) end
    return string.format("the trick goes to %s (%s)", T.names[w], pts)
  end
  if f.lead then return string.format("it opens trick %d", f.number) end
  if f.wins then
    return string.format("it takes the lead in the trick as it stands (%s in it so far)", plural(f.trick_points,
      "point"))
  end
  if f.partner_wins then return string.format("%s partner still leads the trick", whose(T, f.seat, me)) end
  return string.format("it does not take the trick from %s", T.names[w])
end

local function trump_clause(T, f, me)
  if not f.trump then return nil end
  local kept = f.trumps_kept and string.format("; %s keep %d", who(T, f.seat, me), f.trumps_kept) or ""
  local out = f.trumps_out and string.format("; %s out in other hands", plural(f.trumps_out, "trump")) or ""
  local verb = f.lead and "it leads a trump" or "it spends a trump"
  return string.format("%s (the %s, %s)%s%s", verb, RANK_NAME[f.rank], plural(f.points, "point"), kept, out)
end

local function belote_clause(f)
  if f.belote then return "it says the belote (20, P39)" end
  if f.nobelote then return "it does not say the belote: its 20 are lost (P39)" end
end

--- Clauses on what a card does: the trick, the trump, the belote.
function M.effect(T, f, me)
  local out = { trick_clause(T, f, me) }
  out[#out + 1] = trump_clause(T, f, me)
  out[#out + 1] = belote_clause(f)
  return out
end

-- ---------------------------------------------------------------------
-- The contract's margin, from a view

local function counted_decls(v, team)
  if v.standing ~= team then return 0 end
  local n = 0
  for _, d in ipairs(v.announcements or {}) do
    if team_of(d.seat) == team then n = n + (d.value or 0) end
  end
  return n
end

--- {team, value, capot, have, need} for the contract of view v, or nil.
function M.margin(v)
  local k = v.contract
  if type(k) ~= "table" or not k.team then return nil end
  local have = (v.trick_points and v.trick_points[k.team] or 0) + counted_decls(v, k.team)
    + ((v.belote ~= nil and team_of(v.belote) == k.team) and 20 or 0)
  return { team = k.team, value = k.value, capot = k.capot, have = have, need = math.max(0, k.value - have),
    tricks = v.tricks_won and v.tricks_won[k.team] or 0 }
end

local function margin_words(T, v, me)
  local mg = M.margin(v)
  if not mg then return nil end
  local side = (me ~= nil and mg.team == team_of(me)) and "your side's" or (T:side_name(mg.team) .. "'s")
  if mg.capot then return string.format("%s capot needs every trick", side) end
  if mg.need == 0 then
    return string.format("%s contract of %d has its points%s", side, mg.value,
      mg.tricks == 0 and " (it still needs a trick, P42)" or "")
  end
  return string.format("%s contract of %d still needs %s", side, mg.value, plural(mg.need, "point"))
end

-- ---------------------------------------------------------------------
-- The search's ranking

local function is_card(info) return info and info.kind == "play" end

-- Two searches of the same position on other deals, as one: each card's
-- figures averaged over all the deals.
local function merge(a, b)
  local n, m = a.deals, b.deals
  local by = {}
  for _, x in ipairs(b.moves or {}) do by[x.move] = x end
  local out = {}
  for _, x in ipairs(a.moves or {}) do
    local y = by[x.move]
    if y then
      local function mean(k)
        if x[k] == nil or y[k] == nil then return x[k] end
        return (x[k] * n + y[k] * m) / (n + m)
      end
      out[#out + 1] = { move = x.move, value = mean("value"), points = mean("points"), made = mean("made") }
    end
  end
  return { deals = n + m, nodes = (a.nodes or 0) + (b.nodes or 0), exact = false, moves = out }
end

-- Best first: the game points, as shown (in tenths); between cards rated
-- alike there, the trick points your side keeps, then the fewer card
-- points put on the table (issue 25: 9, K and Q of clubs all +34.4, the
-- King giving the other side 4 points).
local function better(t)
  return function(a, b)
    local va, vb = math.floor(a.value * 10 + 0.5), math.floor(b.value * 10 + 0.5)
    if va ~= vb then return va > vb end
    local pa, pb = a.points or 0, b.points or 0
    if math.abs(pa - pb) >= 0.05 then return pa > pb end
    local ca, cb = pilotta.card_points(a.info.card or card_of(a.move), t),
      pilotta.card_points(b.info.card or card_of(b.move), t)
    if ca ~= cb then return ca < cb end
    return a.move < b.move
  end
end

--- The search's ranking of the legal cards for `seat` in g: a list of
-- {move, value, points, made, info} best first, and the search's answer
-- (with `few` when it rests on fewer than min_deals sampled deals); or
-- nil and a reason.
function M.rank(g, seat, opts)
  opts = opts or {}
  local moves = legal(g)
  local deals, seed = opts.deals or M.budget.deals, opts.seed or (#g:history() + 1)
  local r, err = M.search(g, { seat = seat, deals = deals, time = opts.time or M.budget.time, seed = seed })
  if not r then return nil, tostring(err) end
  local want = math.min(deals, opts.min_deals or M.budget.min_deals)
  if not r.exact and (r.deals or 0) < want then
    -- (other deals: another seed)
    local more = M.search(g, { seat = seat, deals = want - (r.deals or 0), time = opts.more or M.budget.more,
      seed = seed + 7919 })
    if more and (more.deals or 0) > 0 then r = (r.deals or 0) > 0 and merge(r, more) or more end
  end
  -- (out of time before one deal: the cards come in pack order, each 0)
  if (r.deals or 0) == 0 then return nil, "the search solved no deal in its time" end
  r.few = not r.exact and r.deals < want
  local out = {}
  for _, m in ipairs(r.moves or {}) do
    if is_card(moves[m.move]) then
      out[#out + 1] = { move = m.move, value = m.value, points = m.points, made = m.made, info = moves[m.move] }
    end
  end
  if #out == 0 then return nil, "the search found no allowed card" end
  table.sort(out, better(pilotta.model(g:view(seat)).trumps))
  return out, r
end

local function search_source(r)
  if r.exact then return "the search, every card left known" end
  if r.few then
    return string.format("the search from your seat (only %s in its time: a rough guess)",
      plural(r.deals or 0, "sampled deal"))
  end
  return string.format("the search from your seat (%s)", plural(r.deals or 0, "sampled deal"))
end

-- (a share of too few deals is no figure to give)
local function made_words(x, r)
  if x.made == nil or (r and r.few) then return nil end
  return string.format("the contract goes your side's way in %s of the deals", percent(x.made))
end

-- ---------------------------------------------------------------------
-- hint

local function pending(g, kind)
  for _, m in ipairs(g:moves(true)) do
    if m.kind == kind then return m end
  end
end

local function announce_hint(T, m)
  return string.format("Hint: %s: announcing costs nothing, and it counts if your side's best declaration "
    .. "stands when the first trick is complete (P35-P37).", move_words(T, m.text))
end

local function auction_hint(T, g, seat)
  local call, why = bid.advise(g:view(seat), g:moves(true), g:rules())
  return string.format("Hint: %s: %s.", move_words(T, call), why)
end

-- Why the first of two cards rated alike in game points comes first:
-- the trick points it keeps, or the card points it does not put down.
local function tie_words(T, g, a, b)
  local d = (a.points or 0) - (b.points or 0)
  if d >= 0.5 then
    return string.format(" in game points, but %s keeps about %s more for your side", card(T, a.move),
      plural(math.floor(d + 0.5), "trick point"))
  end
  local t = pilotta.model(g:view(g:turn())).trumps
  local ca, cb = pilotta.card_points(card_of(a.move), t), pilotta.card_points(card_of(b.move), t)
  if ca < cb then
    return string.format(", and %s puts down %s fewer", card(T, a.move), plural(cb - ca, "card point"))
  end
  return ""
end

--- The lines of 'hint' for the person at `seat` (their turn), or nil and
-- why not.
function M.hint_line(T, g, seat)
  local phase = g:phase()
  if phase == "auction" or phase == "contra" or phase == "trump" then return auction_hint(T, g, seat) end
  if phase ~= "play" then return nil, "nothing to play now" end
  local a = pending(g, "announce")
  if a then return announce_hint(T, a) .. " (Then 'hint' again for your card.)" end
  local sh = pending(g, "show")
  if sh then
    return string.format("Hint: %s: your side's declarations stand, and yours count only if you show them "
      .. "before your card (P38).", move_words(T, sh.text))
  end
  local cards = {}
  for _, m in ipairs(g:moves(true)) do if is_card(m) then cards[#cards + 1] = m end end
  if #cards == 1 then
    local f = M.facts(g, cards[1].text)
    return string.format("Hint: %s: your only legal card (%s, %s).", move_words(T, cards[1].text), f.rule_words,
      f.rule)
  end
  local ranked, r = M.rank(g, seat)
  if not ranked then return nil, r end
  local best = ranked[1]
  local f = M.facts(g, best.move)
  local parts = M.effect(T, f, seat)
  local s = string.format("Hint: %s: %s", move_words(T, best.move), table.concat(parts, "; "))
  if ranked[2] then
    local gap = best.value - ranked[2].value
    if gap < 0.05 then
      s = s .. string.format(". %s rates %s about as good%s", cap(search_source(r)), move_words(T, ranked[2].move),
        tie_words(T, g, best, ranked[2]))
    else
      s = s .. string.format(". %s rates it %.1f game points above %s", cap(search_source(r)), gap,
        move_words(T, ranked[2].move))
    end
  end
  local mg = margin_words(T, g:view(seat), seat)
  if mg then s = s .. "; " .. mg end
  local made = made_words(best, r)
  if made then s = s .. ": " .. made end
  return s .. "."
end

function M.hint(T, seat)
  local line, err = M.hint_line(T, T.g, seat)
  if not line then return T:complain("No hint: " .. tostring(err)) end
  T:print(line)
end

-- ---------------------------------------------------------------------
-- why MOVE

local function rating_line(T, g, seat, text)
  local ranked, r = M.rank(g, seat)
  if not ranked then return "(No rating from the search: " .. tostring(r) .. ".)" end
  local best, mine = ranked[1], nil
  for i, x in ipairs(ranked) do if x.move == text then mine = x; mine.place = i end end
  if not mine then return "(The search does not rate that card.)" end
  local src = cap(search_source(r))
  local made = made_words(mine, r)
  made = made and string.format("; with it %s", made) or ""
  if mine == best then
    local second = ranked[2]
    return string.format("%s: it is the best card%s%s.", src, second and string.format(", %.1f game points above %s",
      best.value - second.value, move_words(T, second.move)) or "", made)
  end
  return string.format("%s: %.1f game points below the best, %s (rank %d of %d)%s.", src, best.value - mine.value,
    move_words(T, best.move), mine.place, #ranked, made)
end

local function auction_why(T, g, seat, text)
  local v, moves, rules = g:view(seat), g:moves(true), g:rules()
  local lines = {}
  local value, s = text:match("^(%d+)([cdhs]?)$")
  local cs = text:match("^capot%s*([cdhs]?)$")
  if value then
    local vd = M.call_verdict(v, moves, rules, text)
    lines[1] = string.format("Your hand, by the AIs' evaluation: %s%s.", vd.words,
      vd.flag and string.format(": %s is %s above the %d it covers", value, plural(vd.over // 10, "step"), vd.base)
      or "")
  elseif cs then
    local vd = M.call_verdict(v, moves, rules, text)
    lines[1] = "Capot promises all eight tricks (250, P14, P42): your hand should take " .. vd.words .. "."
  end
  local call, why = bid.advise(v, moves, rules)
  if call == text then
    lines[#lines + 1] = "It is the advice's call too (the expert AI's)."
  elseif value and s ~= "" and call:match("^%d+" .. s .. "$") then
    -- (the evaluation said already)
    lines[#lines + 1] = string.format("The advice would be %s: the highest bid in that suit that your hand covers "
      .. "with %d kept in hand.", move_words(T, call), bid.OPTS.margin)
  else
    lines[#lines + 1] = string.format("The advice would be %s: %s.", move_words(T, call), why)
  end
  return lines
end

--- 'why MOVE' at a Pilotta table: the shared check, then for a legal
-- call the hand's count and for a legal card what it does and how the
-- search rates it. base: the shared 'why'.
function M.why(T, rest, base)
  local seat = T:human_to_move()
  if rest == "" or not seat then return base(T, rest) end
  local g = T.g
  local r = T.gm.resolve(g, rest)
  if not r.move then return base(T, rest) end
  local info = legal(g)[r.move]
  if not info then return base(T, rest) end
  if is_card(info) then
    local f = M.facts(g, r.move)
    T:print(string.format("Legal: %s: %s (%s).", move_words(T, r.move), f.rule_words, f.rule))
    T:print(cap(table.concat(M.effect(T, f, seat), "; ")) .. ".")
    local mg = margin_words(T, g:view(seat), seat)
    if mg then T:print(cap(mg) .. ".") end
    T:print(rating_line(T, g, seat, r.move))
    return
  end
  base(T, rest)
  if info.kind == "bid" or info.kind == "pass" or info.kind == "contra" or info.kind == "recontra" then
    for _, l in ipairs(auction_why(T, g, seat, r.move)) do T:print(l) end
  end
end

-- ---------------------------------------------------------------------
-- The coach

-- Why the better lead is better: the trumps it draws, the points yours
-- leads into a suit where a higher card is still out.
local function lead_clauses(pf, bf, add)
  if not pf.lead then return end
  if bf.trump and not pf.trump and (bf.trumps_out or 0) > 0 then
    add(string.format("leading a trump draws the %s still out before they can cut your side's cards",
      plural(bf.trumps_out, "trump")))
  end
  if pf.trump and not bf.trump then
    add(string.format("yours leads away a trump (the %s)", RANK_NAME[pf.rank]))
  end
  if not pf.trump and pf.points >= 10 and (pf.higher_out or 0) > 0 then
    add(string.format("yours leads %s into a suit where %s still out",
      plural(pf.points, "point"), pf.higher_out == 1 and "a higher card is" or (pf.higher_out .. " higher cards are")))
  end
end

local function clause_list(T, pf, bf, v)
  local out = {}
  local function add(s) if s and #out < 3 then out[#out + 1] = s end end
  local me = pf.seat
  if bf.kept_wins and not pf.kept_wins then
    add(string.format("it keeps your %s, the highest trump left, for the last trick and its 10 (P31)",
      card(T, bf.kept)))
  end
  lead_clauses(pf, bf, add)
  if bf.wins and not pf.wins and not pf.partner_wins then
    add(string.format("%s would have won the trick%s (%s so far)", card(T, bf.card),
      bf.complete and "" or " as it stands", plural(bf.trick_points, "point")))
  end
  if bf.partner_wins and bf.complete and bf.points >= 10 and bf.points >= pf.points + 5 and not bf.trump then
    add(string.format("your partner's trick could have had your %s (%s)", card(T, bf.card),
      plural(bf.points, "point")))
  end
  if pf.trump and not bf.trump and not pf.lead then
    add(string.format("yours gives away a trump (the %s)%s", RANK_NAME[pf.rank],
      (pf.partner_was or pf.partner_wins) and " on a trick your partner was winning" or ""))
  elseif pf.trump and bf.trump and pf.points >= bf.points + 10 then
    add(string.format("yours spends the %s of trumps (%s) where the %s would do", RANK_NAME[pf.rank],
      plural(pf.points, "point"), RANK_NAME[bf.rank]))
  end
  if not pf.trump and not pf.wins and not pf.lead and pf.higher_out == 0 then
    add(string.format("yours spends your %s, the best %s left, on a trick it does not win itself: it could have "
      .. "won one of its own later", card(T, pf.card), SUIT_NAME[pf.suit]))
  end
  if not pf.wins and not pf.partner_wins and pf.complete and pf.points >= 10 then
    add(string.format("yours gives %s to %s", plural(pf.points, "point"), T.names[pf.winner]))
  end
  if pf.nobelote then add("you did not say the belote: its 20 are lost (P39)") end
  local mg = margin_words(T, v, me)
  -- (the contract's chances, when the two cards change them)
  if mg and pf.made and bf.made and math.abs(bf.made - pf.made) >= 0.05 then
    add(string.format("%s: the search makes it go your side's way in %s of its deals with it, %s with yours",
      mg, percent(bf.made or 0), percent(pf.made or 0)))
  end
  if #out == 0 then add("the search expects more from it over the rest of the round, though this trick alone "
    .. "does not show why") end
  return out
end

local function sureness(gap, th, exact)
  if exact then return "Certain" end
  if gap >= 3 * th.gap then return "Very sure" end
  if gap >= 2 * th.gap then return "Sure" end
  return "Fairly sure"
end

--- How the search judges `played` against its best: {best, mine, gap,
-- flag, exact}, or nil when the move is not in the ranking.
function M.verdict(ranked, exact, played, th)
  th = th or M.threshold
  local mine
  for _, x in ipairs(ranked) do if x.move == played then mine = x end end
  if not mine then return nil end
  local best = ranked[1]
  local gap = best.value - mine.value
  local flag = mine ~= best and gap >= (exact and th.exact_gap or th.gap)
  return { best = best, mine = mine, gap = gap, flag = flag, exact = exact }
end

local function card_line(T, g, seat, played, opts)
  local info = legal(g)[played]
  if g:phase() ~= "play" or not is_card(info) then return nil end
  local sh = pending(g, "show")
  if sh then
    return string.format("Coach: you played without showing your declaration first: it no longer counts (P38). "
      .. "Type %s before your card in the second trick.", move_words(T, sh.text))
  end
  local cards = 0
  for _, m in pairs(legal(g)) do if is_card(m) then cards = cards + 1 end end
  if cards < 2 then return nil end
  local ranked, r = M.rank(g, seat, opts)
  if not ranked then return opts.verbose and ("Coach: no opinion (" .. tostring(r) .. ").") or nil end
  if r.few then
    -- (a gap over a handful of deals is mostly the deals drawn)
    return opts.verbose and string.format("Coach: no opinion (the search solved only %s in its time: too few to "
      .. "judge a card).", plural(r.deals, "deal")) or nil
  end
  local v = M.verdict(ranked, r.exact, played)
  if not v then return nil end
  if not v.flag then
    if not opts.verbose then return nil end
    if v.mine == v.best then return "Coach: good card: the search's choice too." end
    return string.format("Coach: fine. The search slightly prefers %s (about %.1f game points), too little to "
      .. "call a mistake.", move_words(T, v.best.move), math.max(v.gap, 0))
  end
  local pf, bf = M.facts(g, played), M.facts(g, v.best.move)
  pf.made, bf.made = v.mine.made, v.best.made
  local why = clause_list(T, pf, bf, g:view(seat))
  return string.format("Coach: %s was better than %s: %s. %s: %s rates it about %.1f game points better.",
    move_words(T, v.best.move), move_words(T, played), table.concat(why, "; "), sureness(v.gap, M.threshold, v.exact),
    search_source(r), v.gap)
end

--- How the advice judges call `played` by the seat of view v (moves:
-- g:moves(true), rules: g:rules()): nil flag means nothing to say.
-- A bid: {over, base, keep, words}, `over` how far it is above `base`,
-- the highest bid the evaluation covers (the advice's bid in that suit),
-- `keep` what it leaves of the hand's worth (the advice keeps 20); flag
-- "over" when `over` is th.over or more. A capot: {sure, words}, flag
-- "capot" without eight sure tricks. A contra: {short, words}, how far
-- under their need from tricks the hand leaves the bidders; flag
-- "contra" when that is under th.contra (a capot: no sure trick). A
-- recontra: {above, words}, flag "recontra" when the side should fall
-- short of its own contract. A pass: {missed, call, why}, flag "missed"
-- when the advice's call is th.missed points or more clear.
function M.call_verdict(v, moves, rules, played, th)
  th = th or M.threshold
  local value, s = played:match("^(%d+)([cdhs]?)$")
  if value then
    local cover, words = bid.cover(v, moves, rules, s ~= "" and s or nil)
    local base = math.floor(cover / 10) * 10
    local over = tonumber(value) - base
    return { over = over, base = base, keep = cover + bid.OPTS.margin - tonumber(value), words = words,
      flag = over >= th.over and "over" or nil }
  end
  local cs = played:match("^capot%s*([cdhs]?)$")
  if cs then
    local sure, words = bid.sure_tricks(v, rules, cs ~= "" and cs or nil)
    return { sure = sure, words = words, flag = sure < bid.CAPOT and "capot" or nil }
  end
  if played == "contra" then
    local k = bid.contra_case(v, moves, rules)
    if not k then return {} end
    local weak = (k.capot and k.short == 0) or (not k.capot and k.short < th.contra)
    return { short = k.short, words = k.words, capot = k.capot, flag = weak and "contra" or nil }
  end
  if played == "recontra" then
    local k = bid.recontra_case(v, moves, rules)
    if not k then return {} end
    return { above = k.above, words = k.words, flag = k.above < th.recontra and "recontra" or nil }
  end
  if played ~= "pass" then return {} end
  local call, why, clear = bid.advise(v, moves, rules)
  if call == "pass" then return {} end
  return { call = call, why = why, missed = clear, flag = clear >= th.missed and "missed" or nil }
end

-- The coach's words on a bid above the advice's: above the hand's whole
-- worth, or eating most of what the advice keeps in hand.
local function over_line(T, played, vd)
  local value = played:match("^%d+")
  local head = string.format("Coach: %s is %s above the %d your hand covers, by the AIs' evaluation: %s",
    move_words(T, played), plural(vd.over // 10, "step"), vd.base, vd.words)
  local tail = string.format(" If nobody helps, your side must still make %s (P42).", value)
  if vd.keep < 0.5 then
    return string.format("%s; %s is %d above the whole of that worth.%s", head, value, math.floor(-vd.keep + 0.5),
      tail)
  end
  return string.format("%s; %s keeps only %d of the %d the advice keeps in hand for what it cannot see.%s",
    head, value, math.floor(vd.keep + 0.5), bid.OPTS.margin, tail)
end

local function call_line(T, g, seat, played, opts)
  local phase = g:phase()
  if phase ~= "auction" and phase ~= "contra" then return nil end
  local vd = M.call_verdict(g:view(seat), g:moves(true), g:rules(), played)
  if vd.flag == "over" then
    return over_line(T, played, vd)
  elseif vd.flag == "capot" then
    return string.format("Coach: %s promises all eight tricks (250, P14, P42), and your hand should take %s.",
      move_words(T, played), vd.words)
  elseif vd.flag == "contra" then
    return string.format("Coach: a contra your hand does not back: %s; the advice says contra only when they "
      .. "should fall %d short (P16). If they make their contract, they score it doubled (P45).", vd.words,
      bid.OPTS.contra)
  elseif vd.flag == "recontra" then
    return string.format("Coach: a recontra your side should not make good: %s, %d under the bid. If the "
      .. "contract fails, the other side scores it four times over (P17, P45).", vd.words,
      math.floor(-vd.above + 0.5))
  elseif vd.flag == "missed" then
    local word = (vd.call == "contra" or vd.call == "recontra") and vd.call
      or ((g:view(seat).contract or {}).team == seat % 2 and "raise" or "bid")
    return string.format("Coach: a missed %s: %s was open, and %s.", word, move_words(T, vd.call), vd.why)
  end
  if opts.verbose then return "Coach: the call fits the AIs' evaluation of your hand." end
  return nil
end

--- What the coach says about `played` by the seat to move in g (before
-- it is played; g is not changed), or nil for nothing.
function M.coach_line(T, g, played, opts)
  opts = opts or {}
  local seat = g:turn()
  if not seat then return nil end
  local m = g:parse(played)
  played = m and m.text or played
  return card_line(T, g, seat, played, opts) or call_line(T, g, seat, played, opts)
end

-- ---------------------------------------------------------------------
-- explain N

-- Is the hand `e.seat` held at log entry n no secret to the asker? Only
-- if it is the asker's own, or every card of it has been played since.
function M.hand_public(T, n, before, me)
  local e = T.log[n]
  if me ~= nil and e.seat == me then return true end
  local left = before:view(e.seat).hand_count[e.seat]
  for i = n, #T.log do
    local x = T.log[i]
    if x.round == e.round and x.seat == e.seat and x.event and x.event.kind == "play" then left = left - 1 end
  end
  return left <= 0
end

local function call_lines(T, e, me)
  local ev = e.event or {}
  local k = ev.kind
  if k == "bid" then
    local side = (me ~= nil and team_of(me) == team_of(e.seat)) and "your side" or T:side_name(team_of(e.seat))
    return { string.format("  It made %s the highest bid, for %s (P14).", move_words(T, e.move), side) }
  elseif k == "contra" then
    return { "  It doubled the contract (x2) and closed the bidding (P16)." }
  elseif k == "recontra" then
    return { "  It redoubled the contract (x4) and ended the auction (P17, P18)." }
  elseif k == "pass" then
    return { string.format("  %s passed (P12, P15).", cap(who(T, e.seat, me))) }
  elseif k == "announce" then
    return { "  A declaration announced in the first trick: its cards stay private until shown (P35, P50)." }
  elseif k == "show" then
    return { "  The announced cards were shown, so the declaration counts (P38)." }
  end
  return {}
end

local function card_lines(T, before, e, me)
  local f = M.facts(before, e.move, me == nil and false or me)
  if not f then return {} end
  local lines = { string.format("  %s (%s).", cap(f.rule_words), f.rule) }
  f.trumps_kept = nil
  local parts = M.effect(T, f, me)
  lines[#lines + 1] = "  " .. cap(table.concat(parts, "; ")) .. "."
  local after = before:clone()
  if after:play(e.move) then
    local mg = margin_words(T, after:view(me or e.seat), me)
    if mg then lines[#lines + 1] = "  After it, " .. mg .. "." end
  end
  return lines
end

local function alternatives(T, before, e, me)
  local ph = before:phase()
  if ph ~= "play" then
    local call, why = bid.advise(before:view(e.seat), before:moves(true), before:rules())
    if e.seat ~= me then why = why:gsub("your hand", "the hand"):gsub("your ", "its ") end
    return { string.format("The advice (the expert AI's call, from %s hand): it would have called %s: %s.",
      e.seat == me and "your" or T.names[e.seat] .. "'s", move_words(T, call), why) }
  end
  if not is_card(legal(before)[e.move]) then return {} end
  local ranked, r = M.rank(before, e.seat, { seed = e.hist })
  if not ranked then return { "  (No alternatives: " .. tostring(r) .. ".)" } end
  local lines = { string.format("Alternatives (%s, from %s seat; the round's expected game-point margin for %s, "
    .. "and its trick points):",
    r.exact and "exact" or (plural(r.deals or 0, "sampled deal") .. (r.few and ": a rough guess" or "")),
    whose(T, e.seat, me),
    e.seat == me and "your side" or T:side_name(team_of(e.seat))) }
  local shown = false
  for i = 1, math.min(3, #ranked) do
    local x = ranked[i]
    local mark = x.move == e.move and "   <- the card played" or ""
    shown = shown or mark ~= ""
    local text = move_words(T, x.move)
    text = text .. string.rep(" ", math.max(1, 16 - screen.visible_width(text)))
    local pts = x.points and string.format("  %3d trick points", math.floor(x.points + 0.5)) or ""
    lines[#lines + 1] = string.format("  %d. %s%+6.1f%s%s", i, text, x.value, pts, mark)
  end
  if not shown then
    for i, x in ipairs(ranked) do
      if x.move == e.move then
        lines[#lines + 1] = string.format("  The card played ranks %d of %d: %+.1f.", i, #ranked, x.value)
      end
    end
  end
  return lines
end

--- The lines 'explain N' prints for log entry n, or nil and a message.
-- rebuild(g, e): the game just before entry e (lua/teach/coach.lua's).
function M.explain_lines(T, n, rebuild)
  local e = T.log[n]
  local before, err = rebuild(T.g, e)
  if not before then return nil, string.format("Cannot explain move %d: %s.", n, err) end
  local me = T:is_human(T.viewer) and T.viewer or nil
  local lines = { string.format("Move %d (round %d): %s", n, e.round, e.text) }
  local part = (e.event and e.event.kind == "play") and card_lines(T, before, e, me) or call_lines(T, e, me)
  for _, l in ipairs(part) do lines[#lines + 1] = l end
  if not M.hand_public(T, n, before, me) then
    lines[#lines + 1] = string.format("%s other choices are not shown: they would give away that hand (P50). "
      .. "Ask again once its cards have all been played.", cap(whose(T, e.seat, me)))
  elseif #before:moves() < 2 then
    lines[#lines + 1] = "It was the only legal action."
  else
    for _, l in ipairs(alternatives(T, before, e, me)) do lines[#lines + 1] = l end
  end
  return lines
end

--- What `help coach` says of this game's coach, beside the shared lines.
M.help_more = {
  "In Pilotta's auction: a bid two steps above what your hand covers, a contra or",
  "recontra it does not back, a missed call.",
}

return M
