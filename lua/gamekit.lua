-- The game kit: a game written in Lua gives a small definition (how to
-- deal, its moves, what a move does, when a round is over and its score)
-- and gets its rules part (base, check, set_players, seat, custom_base,
-- new) and game handles with the methods and answers of the C handles
-- (docs/architecture.md, "The game handle" and "Writing a game in Lua").
-- What every game would otherwise repeat lives here: the move argument
-- (text, number or table) and its refusals, the effect and the history,
-- undo and clone (copies of the whole state: a game made with the kit is
-- small), rounds, scores and the match, views, public parts, positions.
-- It names no game and requires nothing.
local M = {}

local type, pairs, ipairs, tostring, error, pcall = type, pairs, ipairs, tostring, error, pcall
local format, concat = string.format, table.concat

local function copy(t)
  if type(t) ~= "table" then return t end
  local c = {}
  for k, v in pairs(t) do c[k] = copy(v) end
  return c
end
M.copy = copy

--- A shuffled copy of a list, drawn with rand(n) (1..n, as a deal gets).
function M.shuffle(list, rand)
  local out = copy(list)
  for i = #out, 2, -1 do
    local j = rand(i)
    out[i], out[j] = out[j], out[i]
  end
  return out
end

-- The deal's random source: a 64-bit linear congruential generator
-- (Knuth's MMIX constants) whose state lives in the game's state, so
-- undo, clone and replays deal the same cards.
local function rand_of(st)
  return function(n)
    st.rng = st.rng * 6364136223846793005 + 1442695040888963407
    return ((st.rng >> 33) % n) + 1
  end
end

local WORDS = {
  round_over = "the round is over (next_round deals the next)",
  match_over = "the match is over",
  round_on = "the round is not over yet",
}

-- ---------------------------------------------------------------------
-- Plain values as text (positions): sorted keys, so equal states read
-- the same.

local function before(a, b)
  if type(a) ~= type(b) then return type(a) < type(b) end
  if type(a) == "number" or type(a) == "string" then return a < b end
  return tostring(a) < tostring(b)
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, before)
  return keys
end

local function by_seat(keys)
  for i, k in ipairs(keys) do
    if math.type(k) ~= "integer" or k ~= i - 1 then return false end
  end
  return true
end

local function text_of(v)
  if type(v) ~= "table" then return tostring(v) end
  local keys = sorted_keys(v)
  if #keys == 0 then return "-" end
  -- (a list, or a table by seat from 0, reads as its items)
  local out, list = {}, #v == #keys or by_seat(keys)
  for i, k in ipairs(keys) do
    out[i] = list and text_of(v[k]) or (tostring(k) .. "=" .. text_of(v[k]))
  end
  return list and concat(out, " ") or ("{" .. concat(out, " ") .. "}")
end

-- ---------------------------------------------------------------------
-- The handle. Its state is private (a weak table keyed by the handle):
-- { def, st = {rules, rng, round, dealer, ply, phase, winner, score,
-- rounds_won, last, g = the game's own state}, history, back = {{st, n}}
-- (for undo: a copy of st before each change and the history's length),
-- list = the moves kept until the state changes }.

local H = setmetatable({}, { __mode = "k" })
local Methods = {}

local function get(self)
  local h = H[self]
  if not h then error("the game has been freed", 0) end
  return h
end

local function players(h) return h.st.rules.players end
local function sides(h) return h.st.rules.teams and players(h) // 2 or players(h) end
local function side_of(h, seat) return h.st.rules.teams and seat % sides(h) or seat end

-- A seat argument: a seat of the game, or nil (nil or "spectator") when
-- none is allowed; anything else is an error, as in the C handles.
local function seat_arg(h, seat, none, what)
  if none and (seat == nil or seat == "spectator") then return nil end
  if math.type(seat) ~= "integer" or seat < 0 or seat >= players(h) then
    error(format("bad argument #1 to '%s' (a seat from 0 to %d%s)", what, players(h) - 1,
      none and ", or nil for a spectator" or ""), 3)
  end
  return seat
end

local function turn(h)
  return h.st.phase == "play" and h.st.g.turn or nil
end

local function phase(h)
  return h.st.phase == "play" and h.st.g.phase or h.st.phase
end

-- The moves allowed here, kept until the state changes: the game's
-- list, numbered and given the seat.
local function listed(h)
  if h.list then return h.list end
  local list = {}
  if h.st.phase == "play" then
    for i, m in ipairs(h.def.moves(h.st.g, h.st.rules)) do
      if type(m) ~= "table" or type(m.text) ~= "string" or type(m.kind) ~= "string" then
        error(format("%s: move %d of the list should be a table with text and kind", h.def.name, i), 0)
      end
      m = copy(m)
      m.index, m.seat = i, h.st.g.turn
      list[i] = m
    end
  end
  h.list = list
  return list
end

local function refuse(why) return nil, why end

local function numbered(list, x)
  local n = #list
  local i = math.tointeger(x)
  local many = format("(there %s %d move%s)", n == 1 and "is" or "are", n, n == 1 and "" or "s")
  if not i then
    local far = x - x == 0 and (x >= 2.0 ^ 63 or -x > 2.0 ^ 63)
    if far then return refuse(format("no move number %.14g here %s", x, many)) end
    return refuse(format("not a move: %.14g is not a whole number", x))
  end
  if i < 1 or i > n then return refuse(format("no move number %d here %s", i, many)) end
  return list[i]
end

-- The move an argument names among those allowed here, or nil and the
-- reason play would give (the game's words for a move it does not allow).
local function find(h, move)
  local def, text = h.def, nil
  if type(move) == "string" then
    text = move
  elseif type(move) == "table" then
    text = move.text
    if type(text) ~= "string" then return refuse("not a move: a move table needs its text (a string)") end
  elseif type(move) ~= "number" then
    return refuse("not a move: a move is its text, its number in the list or a table with its text")
  end
  if h.st.phase == "round-over" then return refuse(def.messages.round_over) end
  if h.st.phase == "match-over" then return refuse(def.messages.match_over) end
  local list = listed(h)
  if not text then return numbered(list, move) end
  for _, m in ipairs(list) do
    if m.text == text then return m end
  end
  local canon, why
  if def.read then
    canon, why = def.read(text)
  else
    canon = text:match("^%s*(.-)%s*$")
    why = canon == "" and "an empty line" or nil
  end
  if type(canon) ~= "string" then return refuse("not a move: " .. tostring(why or format("'%s'", text))) end
  for _, m in ipairs(list) do
    if m.text == canon then return m end
  end
  return refuse(def.refuse and def.refuse(h.st.g, canon, h.st.rules) or format("'%s' is not allowed here", canon))
end

-- Changes the state by fn(st), kept for undo; if the game's code fails
-- halfway, the state is put back as it was and the error goes on.
local function change(h, fn)
  local saved, n = copy(h.st), #h.history
  h.list = nil
  local ok, a, b = pcall(fn, h.st)
  if not ok then
    h.st = saved
    for i = #h.history, n + 1, -1 do h.history[i] = nil end
    error(a, 0)
  end
  h.back[#h.back + 1] = { st = saved, n = n }
  return a, b
end

-- The match's winner after a round: the first side at the target, alone
-- at the top (a tie plays on); a game may decide otherwise (def.winner).
local function match_winner(h)
  local st = h.st
  if h.def.winner then return h.def.winner(copy(st.score), copy(st.rules)) end
  local best, top, tie = nil, nil, false
  for side = 0, sides(h) - 1 do
    local s = st.score[side]
    if top == nil or s > top then
      best, top, tie = side, s, false
    elseif s == top then
      tie = true
    end
  end
  if st.rules.target and top >= st.rules.target and not tie then return best end
end

-- The round is over: its score is added, and the match may be over.
local function settle(h, entry, effect)
  local st, b = h.st, h.def.score(h.st.g, h.st.rules)
  st.last = copy(b)
  for side = 0, sides(h) - 1 do st.score[side] = st.score[side] + b[side].total end
  if b.winner ~= nil then st.rounds_won[b.winner] = st.rounds_won[b.winner] + 1 end
  entry.breakdown, entry.round_over = copy(b), true
  st.phase, effect.round_over = "round-over", true
  local w = match_winner(h)
  if w ~= nil then st.phase, st.winner = "match-over", w end
  effect.match_over = st.phase == "match-over"
end

function Methods:play(move, with_table)
  local h = get(self)
  local m, why = find(h, move)
  if not m then return nil, why end
  return change(h, function(st)
    local g, def = st.g, h.def
    local effect = copy(m)
    effect.side, effect.round, effect.deal, effect.ply = side_of(h, m.seat), st.round, g.deal or 1, st.ply
    effect.xeri, effect.dealt, effect.redealt, effect.round_over, effect.match_over = false, false, false, false, false
    if with_table and def.table then effect.table = copy(def.table(g, st.rules)) end
    for k, v in pairs(def.apply(g, copy(m), st.rules) or {}) do effect[k] = copy(v) end
    local entry = { seat = m.seat, move = m.text, kind = m.kind, round = st.round, deal = effect.deal, ply = st.ply,
      round_over = false }
    h.history[#h.history + 1] = entry
    effect.number, st.ply = #h.history, st.ply + 1
    if def.over(g, st.rules) then settle(h, entry, effect) end
    return effect
  end)
end

function Methods:parse(move)
  local m, why = find(get(self), move)
  if not m then return nil, why end
  return copy(m)
end

function Methods:check(move)
  local h = get(self)
  local m, why = find(h, move)
  if not m then return false, why end
  return true, h.def.explain and h.def.explain(h.st.g, copy(m)) or m.text
end

function Methods:moves(structured)
  local out = {}
  for i, m in ipairs(listed(get(self))) do out[i] = structured and copy(m) or m.text end
  return out
end

function Methods:count(budget)
  local h = get(self)
  local b = budget ~= nil and math.tointeger(budget)
  if budget ~= nil and (not b or b < 1 or b > 100000000) then
    error("bad argument #1 to 'count' (a budget of 1 to 100000000 checks)", 2)
  end
  return #listed(h), true
end

function Methods:undo()
  local h = get(self)
  local b = table.remove(h.back)
  if not b then return false end
  h.st, h.list = copy(b.st), nil -- (the kept copy stays untouched: clones share it)
  for i = #h.history, b.n + 1, -1 do h.history[i] = nil end
  return true
end

function Methods:next_round()
  local h = get(self)
  local st = h.st
  if st.phase == "play" then return nil, h.def.messages.round_on end
  if st.phase == "match-over" then return nil, h.def.messages.match_over end
  return change(h, function(s)
    h.history[#h.history + 1] = { kind = "next-round", move = "next round", round = s.round, deal = s.g.deal or 1,
      round_over = false }
    s.round, s.dealer, s.ply, s.phase = s.round + 1, (s.dealer + 1) % players(h), 0, "play"
    s.g = h.def.deal(copy(s.rules), s.dealer, rand_of(s), s.round)
    return { round = s.round, dealer = s.dealer, deal = s.g.deal or 1 }
  end)
end

local function wrap(h)
  local g = setmetatable({}, h.def.meta)
  H[g] = h
  return g
end

function Methods:clone()
  local h = get(self)
  -- (history entries and kept states never change once written, so the
  -- clone shares them; only the state under way is copied)
  return wrap { def = h.def, st = copy(h.st), history = table.move(h.history, 1, #h.history, 1, {}),
    back = table.move(h.back, 1, #h.back, 1, {}) }
end

function Methods:close() H[self] = nil end

function Methods:turn() return turn(get(self)) end
function Methods:phase() return phase(get(self)) end

function Methods:where()
  local h = get(self)
  return phase(h), turn(h), h.st.round, h.st.g.deal or 1, h.st.ply
end

-- What every view says besides the game's own fields.
local function common(h, v, seat)
  local st = h.st
  v.game, v.seat, v.players, v.sides, v.teams = h.def.name, seat, players(h), sides(h), st.rules.teams
  v.phase, v.turn, v.round, v.deal, v.ply, v.dealer = phase(h), turn(h), st.round, st.g.deal or 1, st.ply, st.dealer
  v.score, v.rounds_won, v.target = copy(st.score), copy(st.rounds_won), st.rules.target
  v.last, v.winner = copy(st.last), st.winner
  return v
end

-- The game's fields as a seat sees them by default: everything but the
-- hands (its own only, and how many cards each holds) and the pack (how
-- many cards are left in it).
local function fields(g, seat, all)
  local v = {}
  for k, x in pairs(g) do
    if k ~= "turn" and k ~= "phase" and (all or (k ~= "hands" and k ~= "pack")) then v[k] = copy(x) end
  end
  if type(g.hands) == "table" then
    v.hand_count = {}
    for s, hand in pairs(g.hands) do v.hand_count[s] = #hand end
    if seat ~= nil then v.hand = copy(g.hands[seat]) end
  end
  if type(g.pack) == "table" then v.pack_count = #g.pack end
  return v
end

function Methods:view(seat)
  local h = get(self)
  seat = seat_arg(h, seat, true, "view")
  local v = h.def.view and h.def.view(copy(h.st.g), seat, copy(h.st.rules)) or fields(h.st.g, seat, false)
  return common(h, v, seat)
end

function Methods:state()
  local h = get(self)
  return common(h, fields(h.st.g, nil, true), nil)
end

function Methods:public(effect, viewer)
  local h = get(self)
  if type(effect) ~= "table" then
    error(format("bad argument #1 to 'public' (table expected, got %s)", type(effect)), 2)
  end
  viewer = seat_arg(h, viewer, true, "public")
  if viewer ~= nil and effect.seat == viewer then return copy(effect) end
  local t = copy(effect)
  t.index = nil
  if h.def.public then t = h.def.public(t, viewer) end
  return t
end

function Methods:history(seat)
  local h = get(self)
  -- (nil: the whole history, for the trusted; "spectator": every seat's
  -- entries cut, as a seat's are for the others)
  local spectator = seat == "spectator"
  seat = seat_arg(h, seat, true, "history")
  local out = copy(h.history)
  if (seat == nil and not spectator) or not h.def.public then return out end
  for i, e in ipairs(out) do
    if e.seat ~= nil and (spectator or e.seat ~= seat) then
      out[i] = h.def.public(e, seat) or { seat = e.seat, kind = e.kind, round = e.round, deal = e.deal, ply = e.ply,
        move = "?", round_over = e.round_over, breakdown = e.breakdown }
    end
  end
  return out
end

function Methods:rules() return copy(get(self).st.rules) end

function Methods:result()
  local h = get(self)
  local st = h.st
  return { round = copy(h.def.score(st.g, st.rules)), score = copy(st.score), rounds_won = copy(st.rounds_won),
    rounds = st.round, over = st.phase == "match-over", winner = st.winner }
end

--- The whole state as text: hide = true hides every hand and the pack,
-- a seat number every hand but that seat's and the pack.
function Methods:position(hide)
  local h = get(self)
  if hide ~= nil and type(hide) ~= "boolean" then seat_arg(h, hide, false, "position") end
  local st, g = h.st, h.st.g
  local out = { format("dealer=%d; round=%d; ply=%d; turn=%s; phase=%s; score=%s", st.dealer, st.round, st.ply,
    tostring(turn(h) or "-"), phase(h), text_of(st.score)) }
  for _, k in ipairs(sorted_keys(g)) do
    if k ~= "turn" and k ~= "phase" and k ~= "hands" and k ~= "pack" then
      out[#out + 1] = tostring(k) .. "=" .. text_of(g[k])
    end
  end
  if type(g.hands) == "table" then
    local hands = {}
    for seat = 0, players(h) - 1 do
      local hand = g.hands[seat] or {}
      local shown = hide == nil or hide == false or hide == seat
      hands[#hands + 1] = shown and text_of(hand) or ("?" .. #hand)
    end
    out[#out + 1] = "hands=" .. concat(hands, " / ")
  end
  if type(g.pack) == "table" then
    out[#out + 1] = "pack=" .. ((hide ~= nil and hide ~= false) and ("?" .. #g.pack) or text_of(g.pack))
  end
  return concat(out, "; ")
end

function Methods:game() return get(self).def.name end

function Methods:search(...)
  local h = get(self)
  if h.def.search then return h.def.search(self, ...) end
  return nil, h.def.name .. " has no search"
end

function Methods:sealed()
  return nil, get(self).def.name .. " has no sealed world (its AIs see the game itself)"
end
Methods.simulate = Methods.sealed

-- ---------------------------------------------------------------------
-- A new game and the rules part.

local NEEDED = { "deal", "moves", "apply", "over", "score" }
local OPTIONAL = { "read", "refuse", "check", "view", "public", "table", "explain", "winner", "search" }

local function checked(def)
  if type(def) ~= "table" then error("gamekit: a game is defined by a table", 3) end
  if type(def.name) ~= "string" or not def.name:match("^[%w_%-]+$") then
    error("gamekit: the game needs a name (letters, digits, - and _)", 3)
  end
  if type(def.rules) ~= "table" or math.type(def.rules.players) ~= "integer" then
    error("gamekit: " .. def.name .. " needs its base rules, players among them", 3)
  end
  for _, k in ipairs(NEEDED) do
    if type(def[k]) ~= "function" then error(format("gamekit: %s needs %s (a function)", def.name, k), 3) end
  end
  for _, k in ipairs(OPTIONAL) do
    if def[k] ~= nil and type(def[k]) ~= "function" then
      error(format("gamekit: %s's %s should be a function", def.name, k), 3)
    end
  end
  local d = copy(def)
  for k, v in pairs(def) do
    if type(v) == "function" then d[k] = v end
  end
  d.rules.game, d.rules.teams = d.name, d.rules.teams or false
  d.bases = d.bases or { d.name }
  d.messages = d.messages or {}
  for k, v in pairs(WORDS) do d.messages[k] = d.messages[k] or v end
  d.messages.players = d.messages.players or format("%s is for %d players", d.name, d.rules.players)
  d.meta = {
    __index = Methods, __metatable = false,
    __close = function(g) H[g] = nil end,
    __tostring = function(g)
      local h = H[g]
      return h and format("%s game (round %d, %s)", d.name, h.st.round, phase(h)) or (d.name .. " game (freed)")
    end,
  }
  return d
end

local function is_base(def, name)
  for _, b in ipairs(def.bases) do
    if b == name then return true end
  end
  return false
end

--- Makes the rules part of a game from its definition (see
-- docs/architecture.md, "Writing a game in Lua").
function M.game(definition)
  local def = checked(definition)
  local P, name = {}, def.name
  local KIND = {}
  for k, v in pairs(def.rules) do KIND[k] = type(v) end

  --- The base rules of a base name (nil: the first base).
  function P.base(base)
    if base ~= nil and not is_base(def, base) then return nil, format("no base rules '%s'", tostring(base)) end
    return copy(def.rules)
  end

  --- true, or nil and what is wrong with a rules table.
  function P.check(r)
    if type(r) ~= "table" then return nil, "rules should be a table" end
    for k, v in pairs(r) do
      if not KIND[k] then return nil, format("no rule '%s' in %s", tostring(k), name) end
      if type(v) ~= KIND[k] then return nil, format("%s should be a %s", k, KIND[k]) end
      if math.type(def.rules[k]) == "integer" and math.type(v) ~= "integer" then
        return nil, k .. " should be a whole number"
      end
    end
    if r.game ~= name then return nil, format("these rules are not %s's", name) end
    for k in pairs(KIND) do
      if r[k] == nil then return nil, format("the rules lack '%s'", k) end
    end
    if r.players ~= def.rules.players or r.teams ~= def.rules.teams then return nil, def.messages.players end
    local why = def.check and def.check(copy(r))
    if why then return nil, why end
    return true
  end

  --- Rules for a number of players (and teams), or nil and why.
  function P.set_players(r, n, teams)
    local c = copy(r)
    c.players, c.teams = n, teams or false
    local ok, why = P.check(c)
    if not ok then return nil, why end
    return c
  end

  --- The rules for opts.players and opts.teams (the front door's new{}),
  -- or nil and why: the rules as given when neither is set.
  function P.seat(r, opts)
    if opts.players == nil and opts.teams == nil then return r end
    return P.set_players(r, opts.players or r.players, opts.teams)
  end

  --- The base a rules table given whole (not a spec) starts from.
  function P.custom_base() return P.base() end

  -- A spec "BASE[+key=N...]" (N whole, key a number of the base rules)
  -- or a rules table over the base rules -> rules, or nil and why.
  local function rules_of(spec)
    local r = P.base()
    if type(spec) == "table" then
      for k, v in pairs(spec) do r[k] = copy(v) end
    elseif type(spec) == "string" then
      local base, rest = spec:match("^([%w_%-]+)(.*)$")
      if not base or not is_base(def, base) then return nil, format("no game rules '%s' in %s", spec, name) end
      for k, v in rest:gmatch("%+([%w_]+)=(%-?%d+)") do
        if math.type(def.rules[k]) ~= "integer" then return nil, format("no house rule '%s' in %s", k, name) end
        r[k] = math.tointeger(tonumber(v))
      end
      if rest:gsub("%+[%w_]+=%-?%d+", "") ~= "" then
        return nil, format("%s has no house rules: '%s'", name, spec)
      end
    elseif spec ~= nil then
      return nil, "rules should be a spec (text) or a rules table"
    end
    return r
  end

  --- A new game: opts rules (spec or table), players, teams, target,
  -- dealer, seed. The answer is a game handle, or nil and why.
  function P.new(opts)
    opts = opts or {}
    if type(opts) ~= "table" then return nil, "the options should be a table" end
    if opts.position ~= nil then return nil, name .. " games cannot start from a position" end
    if opts.hooks ~= nil and (type(opts.hooks) ~= "table" or next(opts.hooks) ~= nil) then
      return nil, name .. " has no house rules (no hooks)"
    end
    local r, why = rules_of(opts.rules)
    if not r then return nil, why end
    if opts.players ~= nil or opts.teams ~= nil then
      r.players, r.teams = opts.players or r.players, opts.teams or false
    end
    if opts.target ~= nil then r.target = opts.target end
    local ok, cwhy = P.check(r)
    if not ok then return nil, cwhy end
    local dealer = opts.dealer
    if dealer == nil then dealer = def.dealer or r.players - 1 end
    if math.type(dealer) ~= "integer" or dealer < 0 or dealer >= r.players then
      return nil, def.messages.dealer or format("the dealer is a seat from 0 to %d", r.players - 1)
    end
    local seed = opts.seed
    if seed == nil then seed = os.time() end
    seed = math.tointeger(seed)
    if not seed then return nil, "the seed should be a whole number" end
    local st = { rules = r, rng = seed, round = 1, dealer = dealer, ply = 0, phase = "play", score = {},
      rounds_won = {} }
    local h = { def = def, st = st, history = {}, back = {} }
    for side = 0, sides(h) - 1 do st.score[side], st.rounds_won[side] = 0, 0 end
    st.g = def.deal(copy(r), dealer, rand_of(st), 1)
    return wrap(h)
  end

  P.definition = definition
  return P
end

return M
