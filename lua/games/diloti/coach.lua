-- Diloti's coach, hint and `explain` at the table (issue 6); the commands,
-- the observer and the taking back are lua/teach/coach.lua's, which asks
-- this module (the package's `coach` part) for the words.
--
-- The coach watches the people's moves. Before each one it asks the
-- engine's search (the expert's budget) for a ranking from the mover's
-- seat only, so it knows nothing the mover does not. After the move it
-- speaks only when the search clearly prefers another move, and then says
-- why in terms of the position: the xeri left, the points given away or
-- missed, the declaration not taken, the obligation taken on.
--
-- `explain N` retells a move of the log: what it did, what it changed
-- for each side, and (only when that seat's hand is no secret to the
-- person asking) the moves it could have played instead.
local core = require "diloti.core"
-- (the engine's answers: src/diloti/lua/lcapture.c)
local native = core.natives("diloti")
local help = require "diloti.games.diloti.ai_helpers"
local driver = require "diloti.driver"
local advice = require "diloti.games.diloti.advice"
local screen = require "diloti.table.screen"

local M = {}

-- The search budget; the tests lower it so that the spec runs in seconds.
M.iterations = advice.ITERATIONS

-- A move is a clear mistake when the search's best is rated at least
-- `gap` points above it and it drew at most `share` of the playouts; in a
-- known last deal (exact search) `exact_gap` points are enough. Chosen
-- with tools/coach_noise.lua: over 800 positions of seeded expert games
-- (seeds 1-11 and 101-111) it flags 0.6% of the expert's own moves
-- (judged with another search seed), 13.8% of random moves and 8.5% of
-- greedy's. The gap does the work; the share only guards against a
-- move the search liked but rated low by chance.
M.threshold = { gap = 1.0, share = 0.10, exact_gap = 2 }

--- A search value in points (the mover's expected round margin).
function M.points(value, exact)
  return advice.points(value, exact)
end

-- ---------------------------------------------------------------------
-- Words

local RANK_WORD = { A = "an ace", J = "a jack", Q = "a queen", K = "a king", ["8"] = "an 8" }

local function a_rank(rank)
  return RANK_WORD[rank] or ("a " .. rank)
end

-- "for certain", "with a chance of about 24%"
local function percent(p)
  if p >= 0.995 then return "for certain" end
  return string.format("with a chance of about %d%%", math.floor(p * 100 + 0.5))
end

local function plural(n, one, many)
  return string.format("%d %s", n, n == 1 and one or (many or one .. "s"))
end

local function card_list(st, cards)
  local out = {}
  for i, c in ipairs(cards) do out[i] = screen.card(st, c) end
  if #out <= 1 then return out[1] or "" end
  return table.concat(out, ", ", 1, #out - 1) .. " and " .. out[#out]
end

local function decl_words(d)
  return string.format("%s %d", d.kind == "group" and "group of" or "plain", d.value) ..
    (d.kind == "group" and "s" or "")
end

local function whose(T, owner, you)
  if owner == you then return "your" end
  return T.names[owner] .. "'s"
end

-- "you"/"your" open a sentence capitalised; seat names stay as the table
-- writes them.
local function cap(s)
  return (s:gsub("^you", "You"))
end

local function subject(T, seat, you)
  if seat == you then return "you" end
  return T.names[seat]
end

-- ---------------------------------------------------------------------
-- What a move does, from public information and one seat's view

local function side_of(rules, seat)
  if rules.teams then return seat % 2 end
  return seat
end

local function point_cards(cards, rules)
  local out = {}
  for _, c in ipairs(cards) do
    if native.points({ c }, rules) > 0 then out[#out + 1] = c end
  end
  return out
end

local function find_decl(tbl, ref)
  for _, d in ipairs(tbl.declarations) do
    if d.ref == ref then return d end
  end
end

-- The declarations a move takes off the table or joins.
local function decls_taken(info, tbl)
  local out = {}
  for _, item in ipairs(info.takes or {}) do
    local d = find_decl(tbl, item)
    if d then out[#out + 1] = d end
  end
  return out
end

-- The worst the next player could do with the table left: the likeliest
-- sweep, and the point cards within reach weighted by the chance that
-- they hold the rank. `viewer` is whose knowledge the chances use.
local function threats(after, rules, viewer, mover)
  if after:phase() ~= "play" then return {} end
  local nxt = after:turn()
  if not nxt or side_of(rules, nxt) == side_of(rules, mover) then return {} end
  local v = after:view(viewer)
  local out = { next = nxt }
  for _, rank in ipairs(help.ranks) do
    local take = native.best_capture(rank, v.table, rules)
    if take then
      local p = help.chance(v, rules, rank, nxt)
      if p > 0 and take.sweep and rules.xeri and (not out.sweep or p > out.sweep.chance) then
        out.sweep = { rank = rank, chance = p }
      end
      local pts = point_cards(take.cards, rules)
      if p > 0 and #pts > 0 and (not out.exposed or p * take.points > out.exposed.expect) then
        out.exposed = { rank = rank, chance = p, cards = pts, points = take.points, expect = p * take.points }
      end
    end
  end
  return out
end

--- The facts of one legal move from game g (not changed): what it
-- captures, the xeri, the declarations taken or made, and the threats
-- it leaves. Chances are from `viewer`'s view (default: the mover; false:
-- no threats at all).
function M.facts(g, text, viewer)
  local seat = g:turn()
  local rules = g:rules()
  -- (one move looked up, never the whole list: a crowded table lists
  -- thousands, and the coach asks for the facts of several moves)
  local info = g:parse(text)
  if not info then return nil end
  local before = g:view(seat)
  local after = g:clone()
  local ev = driver.move_event(assert(after:play(text, true)), rules)
  local captured = ev.captured or {}
  local from_table = {}
  for _, c in ipairs(captured) do
    if c ~= info.card then from_table[#from_table + 1] = c end
  end
  local f = {
    seat = seat, info = info, event = ev, after = after, rules = rules,
    captured = captured, table_points = point_cards(from_table, rules),
    xeri = ev.xeri, took = info.kind == "capture" and decls_taken(info, before.table) or {},
    joined = info.kind ~= "capture" and decls_taken(info, before.table) or {},
    -- viewer false: nobody's knowledge may be used (only computers play)
    threats = viewer ~= false and threats(after, rules, viewer or seat, seat) or {},
  }
  if info.kind == "plain" or info.kind == "raise" or info.kind == "group" then
    for _, d in ipairs(after:view(seat).table.declarations) do
      if d.owner == seat then f.made = d end
    end
  end
  return f
end

-- ---------------------------------------------------------------------
-- Why the better move is better: short clauses, most telling first

local function only_in(a, b)
  local seen, out = {}, {}
  for _, x in ipairs(b) do seen[x] = true end
  for _, x in ipairs(a) do
    if not seen[x] then out[#out + 1] = x end
  end
  return out
end

local function refs(list)
  local out = {}
  for i, d in ipairs(list) do out[i] = d.ref end
  return out
end

local function opponents_decls(list, seat, rules)
  local out = {}
  for _, d in ipairs(list) do
    if side_of(rules, d.owner) ~= side_of(rules, seat) then out[#out + 1] = d.ref end
  end
  return out
end

-- D19 in a few words; `they` for someone else's declaration.
local function obligation(d, they)
  local who = they and "they" or "you"
  return string.format("until it is taken %s may only capture or build a group with it, and %s must keep %s (D19)",
    who, who, a_rank(help.ranks[d.value]))
end

local function xeri_clauses(T, pf, bf, add)
  local xp = pf.rules.points.xeri or 10
  if bf.xeri and not pf.xeri then
    add(string.format("it sweeps the table for a xeri (%d points)", xp))
  end
  local ps, bs = pf.threats.sweep, bf.threats.sweep
  if ps and (not bs or bs.chance + 0.15 < ps.chance) then
    add(string.format("yours leaves a table %s sweeps for a xeri, and %s holds one %s", a_rank(ps.rank),
      T.names[pf.threats.next], percent(ps.chance)))
  end
end

-- The chance that the next player can take the declaration a move makes.
local function made_risk(f)
  local nxt = f.threats.next
  if not f.made or not nxt then return 0 end
  return help.chance(f.after:view(f.seat), f.rules, f.made.value, nxt)
end

local function decl_clauses(T, pf, bf, add)
  local seat = pf.seat
  local missed = only_in(opponents_decls(bf.took, seat, pf.rules), opponents_decls(pf.took, seat, pf.rules))
  for _, d in ipairs(bf.took) do
    if d.ref == missed[1] then
      add(string.format("it takes %s %s (%s) before %s collects it", whose(T, d.owner, seat), decl_words(d),
        plural(#d.cards, "card"), T.names[d.owner]))
    end
  end
  local pr, br = made_risk(pf), made_risk(bf)
  if pf.made and (not bf.made or pr > br + 0.15) then
    local risk = pr > 0 and string.format("; %s takes it with any %d, and holds one %s", T.names[pf.threats.next],
      pf.made.value, percent(pr)) or ""
    add(string.format("your %s ties you down: %s%s", decl_words(pf.made), obligation(pf.made), risk))
  elseif bf.made and not pf.made then
    add(string.format("it builds a %s you can take later with the %d you keep (D14)", decl_words(bf.made),
      bf.made.value))
  end
end

local function points_clauses(T, pf, bf, add)
  local st = T.style
  local missed = only_in(bf.table_points, pf.table_points)
  if #missed > 0 then
    local pts = native.points(missed, pf.rules)
    add(string.format("it takes %s (%s)", card_list(st, missed), plural(pts, "point")))
  end
  local pe, be = pf.threats.exposed, bf.threats.exposed
  if pe and pe.expect - (be and be.expect or 0) >= 0.5 then
    add(string.format("yours leaves %s to %s, and %s holds one %s", card_list(st, pe.cards), a_rank(pe.rank),
      T.names[pf.threats.next], percent(pe.chance)))
  end
end

--- Up to two clauses saying why bf's move beats pf's.
function M.reasons(T, pf, bf)
  local out = {}
  local function add(s)
    if #out < 2 then out[#out + 1] = s end
  end
  xeri_clauses(T, pf, bf, add)
  decl_clauses(T, pf, bf, add)
  points_clauses(T, pf, bf, add)
  -- A declaration taken already says the cards; say them once.
  if #bf.captured >= #pf.captured + 2 and #only_in(refs(bf.took), refs(pf.took)) == 0 then
    add(string.format("it takes %s to your %d", plural(#bf.captured, "card"), #pf.captured))
  end
  if #out == 0 then
    add("the search expects it to do better over the rest of the round, though no single card here says why")
  end
  return out
end

-- ---------------------------------------------------------------------
-- The verdict

--- How the search's ranking judges a played move: {best, mine, gap
-- (points), share (of the playouts), flag, exact}; nil if the move is not
-- in the ranking (a house rule's move the search does not know).
function M.verdict(ranked, exact, played, th)
  th = th or M.threshold
  local best, mine, total = ranked[1], nil, 0
  for _, r in ipairs(ranked) do
    total = total + r.visits
    if r.move == played then mine = r end
  end
  if not mine then return nil end
  local gap = M.points(best.value, exact) - M.points(mine.value, exact)
  local share = exact and (mine == best and 1 or 0) or mine.visits / math.max(total, 1)
  local flag
  if exact then
    flag = mine ~= best and gap >= th.exact_gap
  else
    flag = mine ~= best and gap >= th.gap and share <= th.share
  end
  return { best = best, mine = mine, gap = gap, share = share, flag = flag, exact = exact }
end

local function sureness(v, th)
  if v.exact then
    return "Certain", string.format("with every card left known, the exact search counts %s more for it",
      plural(math.floor(v.gap + 0.5), "point"))
  end
  local word = "Fairly sure"
  if v.gap >= 3 * th.gap and v.share <= th.share / 4 then word = "Very sure"
  elseif v.gap >= 2 * th.gap then word = "Sure" end
  local share = v.share < 0.01 and "under 1%" or string.format("%d%%", math.floor(v.share * 100 + 0.5))
  return word, string.format("the search rates it about %.1f points better and gave your move %s of its playouts",
    v.gap, share)
end

local function canonical(g, move)
  local m = g:parse(move)
  return m and m.text
end

--- The coach's judgement of `move` by the seat to move in g (g is not
-- changed): {verdict, line} where line is what the coach says, or nil
-- and a reason. opts: iterations, seed, verbose.
function M.judge(T, g, move, opts)
  opts = opts or {}
  local seat = g:turn()
  local played = canonical(g, move)
  if not played then return nil, "not a legal move" end
  local ranked, r = advice.rank(g, seat, { iterations = opts.iterations or M.iterations, seed = opts.seed })
  if not ranked then return nil, r end
  local v = M.verdict(ranked, r.exact, played)
  if not v then return nil, "the search does not know that move" end
  local st = T.style
  if not v.flag then
    if not opts.verbose then return { verdict = v } end
    if v.mine == v.best then return { verdict = v, line = "Coach: good move: the search's choice too." } end
    return { verdict = v, line = string.format("Coach: fine. The search slightly prefers %s (about %.1f points), "
      .. "too little to call a mistake.", screen.styled_move(st, v.best.move), math.max(v.gap, 0)) }
  end
  local pf, bf = M.facts(g, played), M.facts(g, v.best.move)
  local why = M.reasons(T, pf, bf)
  local word, detail = sureness(v, M.threshold)
  local line = string.format("Coach: %s was better than %s: %s. %s: %s.", screen.styled_move(st, v.best.move),
    screen.styled_move(st, played), table.concat(why, "; "), word, detail)
  return { verdict = v, line = line }
end

-- ---------------------------------------------------------------------
-- explain

-- Who asks: the person at the table (nil when only computers play).
local function asker(T)
  if T:is_human(T.viewer) then return T.viewer end
end

-- Is the hand `seat` held at log entry n no secret to the asker? Only
-- if it is the asker's own, or every card of it has since been played.
function M.hand_public(T, n, before)
  local e = T.log[n]
  local me = asker(T)
  if me ~= nil and e.seat == me then return true end
  -- A redeal decision weighs a whole hand that a claim then takes back.
  if e.move == "claim" or e.move == "keep" then return false end
  local v = before:view(e.seat)
  if v.known_bottom then return false end
  local left = v.hand_counts[e.seat]
  for i = n, #T.log do
    local x = T.log[i]
    local played_card = x.move ~= "claim" and x.move ~= "keep"
    if played_card and x.round == e.round and x.deal == e.deal and x.seat == e.seat then left = left - 1 end
  end
  return left <= 0
end

local function side_lines(T, f, me)
  local rules, st = f.rules, T.style
  local view = f.after:view(me or f.seat)
  local mover_side = side_of(rules, f.seat)
  local lines = {}
  for side = 0, view.sides - 1 do
    local now = {}
    if side == mover_side and #f.captured > 0 then
      local pts = point_cards(f.captured, rules)
      now[#now + 1] = "+" .. plural(#f.captured, "card")
      if #pts > 0 then
        now[#now + 1] = string.format("%s (%s)", card_list(st, pts), plural(native.points(pts, rules), "point"))
      end
    end
    if side == mover_side and f.xeri then now[#now + 1] = string.format("a xeri (%d points)", rules.points.xeri) end
    local pile = view.captured[side] or {}
    lines[#lines + 1] = string.format("  %s: %s; this round: %s, %s in them%s.", T:side_name(side),
      #now > 0 and table.concat(now, ", ") or "nothing taken", plural(#pile, "card"),
      plural(native.points(pile, rules), "point"),
      (view.xeri[side] or 0) > 0 and (", " .. plural(view.xeri[side], "xeri")) or "")
  end
  return lines
end

local function decl_lines(T, f, me)
  local lines = {}
  for _, d in ipairs(f.took) do
    local freed = ""
    if d.owner ~= f.seat then
      freed = d.owner == me and "; you are free of it (D19)"
        or string.format("; %s is free of it (D19)", T.names[d.owner])
    end
    lines[#lines + 1] = string.format("  It took %s %s (%s) off the table%s.", whose(T, d.owner, me), decl_words(d),
      plural(#d.cards, "card"), freed)
  end
  for _, d in ipairs(f.joined) do
    if d.owner ~= f.seat then
      lines[#lines + 1] = string.format("  %s %s is no longer %s.", cap(whose(T, d.owner, me)),
        decl_words(d), d.owner == me and "yours" or "theirs")
    end
  end
  if f.made then
    local who = subject(T, f.seat, me)
    local ob = obligation(f.made, who ~= "you")
    lines[#lines + 1] = string.format("  %s now own%s a %s (%s): %s.", cap(who),
      who == "you" and "" or "s", decl_words(f.made), plural(#f.made.cards, "card"), ob)
  end
  return lines
end

-- What the next player could sweep; nothing where sweeps score nothing.
local function sweep_part(T, f, me)
  local t = f.threats
  if not f.rules.xeri then return nil end
  local you = t.next == me
  local who = subject(T, t.next, me)
  if not t.sweep then
    return you and "you held nothing that sweeps the table" or
      string.format("no card %s might hold sweeps the table", who)
  end
  local held = you and " (you held one)" or
    (me and string.format(" (they hold one %s, from what you could see)", percent(t.sweep.chance)) or "")
  return string.format("%s could sweep the table with %s%s", who, a_rank(t.sweep.rank), held)
end

local function next_line(T, f, me)
  local t = f.threats
  if not t.next then
    if f.event.round_over then return "  That was the round's last card." end
    return nil
  end
  local parts = { sweep_part(T, f, me) }
  if t.exposed then
    parts[#parts + 1] = string.format("%s lies within reach of %s", card_list(T.style, t.exposed.cards),
      a_rank(t.exposed.rank))
  end
  if #parts == 0 then return nil end
  return "  Next, " .. table.concat(parts, "; ") .. "."
end

local function alternatives(T, before, e)
  local ranked, r = advice.rank(before, e.seat, { iterations = M.iterations, seed = e.hist })
  if not ranked then return { "  (No alternatives: " .. tostring(r) .. ".)" } end
  local lines = { string.format("Alternatives (the search from %s seat, %s; the round's expected point margin for %s):",
    whose(T, e.seat, asker(T)), r.exact and "exact" or (M.iterations .. " playouts"),
    e.seat == asker(T) and "you" or T.names[e.seat]) }
  local shown = false
  for i = 1, math.min(3, #ranked) do
    local m = ranked[i]
    local mark = m.move == e.move and "   <- the move played" or ""
    shown = shown or mark ~= ""
    local text = screen.styled_move(T.style, m.move)
    text = text .. string.rep(" ", math.max(1, 28 - screen.visible_width(text)))
    lines[#lines + 1] = string.format("  %d. %s%+6.1f%s", i, text, M.points(m.value, r.exact), mark)
  end
  if not shown then
    for i, m in ipairs(ranked) do
      if m.move == e.move then
        lines[#lines + 1] = string.format("  The move played ranks %d of %d: %+.1f.", i, #ranked,
          M.points(m.value, r.exact))
      end
    end
  end
  return lines
end

--- The lines `explain` prints for log entry n, or nil and a message.
function M.explain_lines(T, n, rebuild)
  local e = T.log[n]
  local before, err = rebuild(T.g, e)
  if not before then return nil, string.format("Cannot explain move %d: %s.", n, err) end
  local me = asker(T)
  local viewer = me
  if viewer == nil then viewer = false end
  local f = M.facts(before, e.move, viewer)
  local lines = { string.format("Move %d (round %d, deal %d): %s", n, e.round, e.deal, e.text) }
  for _, l in ipairs(side_lines(T, f, me)) do lines[#lines + 1] = l end
  for _, l in ipairs(decl_lines(T, f, me)) do lines[#lines + 1] = l end
  lines[#lines + 1] = next_line(T, f, me)
  if not M.hand_public(T, n, before) then
    lines[#lines + 1] = string.format("%s other choices are not shown: they would give away that hand. "
      .. "Ask again once its cards have all been played.", cap(whose(T, e.seat, me)))
  elseif #before:moves() < 2 then
    lines[#lines + 1] = "It was the only legal move."
  else
    for _, l in ipairs(alternatives(T, before, e)) do lines[#lines + 1] = l end
  end
  return lines
end

--- The line the coach says after move `move` of game g (about to be
-- played), or nil. opts: verbose.
function M.coach_line(T, g, move, opts)
  if g:phase() ~= "play" or #g:moves() < 2 then return nil end
  local j, err = M.judge(T, g, move, { seed = #g:history() + 1, verbose = opts.verbose })
  if not j then
    return opts.verbose and ("Coach: no opinion (" .. tostring(err) .. ").") or nil
  end
  return j.line
end

--- 'hint': what the expert would play at `seat`, and why.
function M.hint(T)
  local h, err = advice.hint(T.style, T.g, { seed = #T.g:history() + 1 })
  if not h then return T:complain("No hint: " .. tostring(err)) end
  T:print("Hint: " .. h.sentence)
end

return M
