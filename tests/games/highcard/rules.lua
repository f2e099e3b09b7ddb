-- Highcard's rules part: base rules, their check and new game handles.
-- The handle is a plain Lua object with the methods the host calls on a
-- game handle (docs/architecture.md, "The game handle"); rule ids H1-H6
-- are listed in init.lua.
local M = {}

local RANKS = { "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A" }
local VALUE, DECK = {}, {}
for i, r in ipairs(RANKS) do
  DECK[i] = r .. "h"
  VALUE[r .. "h"] = i
end
local HAND, TRICKS, NEXT = 3, 3, "next-round"

local function copy(t)
  if type(t) ~= "table" then return t end
  local c = {}
  for k, v in pairs(t) do c[k] = copy(v) end
  return c
end

--- The base rules of a base name (only "highcard").
function M.base(name)
  if name ~= nil and name ~= "highcard" then return nil, "no base rules '" .. tostring(name) .. "'" end
  return { game = "highcard", players = 2, teams = false, hand_size = HAND, target = 5 }
end

local KNOWN = { game = "string", players = "number", teams = "boolean", hand_size = "number", target = "number" }

--- true, or nil and what is wrong with a rules table.
function M.check(r)
  if type(r) ~= "table" then return nil, "rules should be a table" end
  for k, v in pairs(r) do
    if not KNOWN[k] then return nil, "no rule '" .. tostring(k) .. "' in highcard" end
    if type(v) ~= KNOWN[k] then return nil, k .. " should be a " .. KNOWN[k] end
  end
  if r.game ~= "highcard" then return nil, "these rules are not highcard's" end
  if r.players ~= 2 or r.teams then return nil, "H1: highcard is for two players" end
  if r.hand_size ~= HAND then return nil, "H2: hands are of three cards" end
  if math.type(r.target) ~= "integer" or r.target < 1 or r.target > 1000 then
    return nil, "H6: the target is a whole number from 1 to 1000"
  end
  return true
end

--- Rules for a number of players (H1: two, never in teams), or nil, why.
function M.set_players(r, players, teams)
  if players ~= 2 or teams then return nil, "H1: highcard is for two players" end
  return r
end

-- A spec "highcard[+target=N]" or a rules table -> rules, or nil, why.
local function rules_of(spec)
  local r = M.base()
  if type(spec) == "table" then
    for k, v in pairs(spec) do r[k] = v end
  elseif spec ~= nil then
    local base, rest = tostring(spec):match("^(%w+)(.*)$")
    if base ~= "highcard" then return nil, "no game rules '" .. tostring(spec) .. "' in highcard" end
    for k, v in rest:gmatch("%+([%w_]+)=(%-?%d+)") do
      if k ~= "target" then return nil, "no house rule '" .. k .. "' in highcard" end
      r.target = math.tointeger(tonumber(v))
    end
    if rest:gsub("%+target=%-?%d+", "") ~= "" then return nil, "highcard has no house rules: '" .. spec .. "'" end
  end
  local ok, why = M.check(r)
  if not ok then return nil, why end
  return r
end

-- A 64-bit linear congruential generator (Knuth's MMIX constants).
local function rand(s, n)
  s.rng = s.rng * 6364136223846793005 + 1442695040888963407
  return ((s.rng >> 33) % n) + 1
end

-- H2: deals a round (the dealer's opponent first).
local function deal(s)
  local deck = copy(DECK)
  for i = #deck, 2, -1 do
    local j = rand(s, i)
    deck[i], deck[j] = deck[j], deck[i]
  end
  local first = 1 - s.dealer
  s.hands = { [0] = {}, [1] = {} }
  for i = 1, 2 * HAND do
    local seat = (i <= HAND) and first or s.dealer
    s.hands[seat][#s.hands[seat] + 1] = deck[i]
  end
  for seat = 0, 1 do table.sort(s.hands[seat], function(a, b) return VALUE[a] < VALUE[b] end) end
  s.pack = { table.unpack(deck, 2 * HAND + 1) }
  s.trick, s.last_trick, s.tricks = {}, nil, { [0] = 0, [1] = 0 }
  s.leader, s.turn, s.phase, s.ply = first, first, "play", 0
end

local Game = {}
Game.__index = Game

--- A new game: opts rules (spec or table), seed, dealer, target, players.
function M.new(opts)
  opts = opts or {}
  if opts.position ~= nil then return nil, "highcard games cannot start from a position" end
  local r, why = rules_of(opts.rules)
  if not r then return nil, why end
  if opts.players ~= nil or opts.teams then
    local ok, pwhy = M.set_players(r, opts.players or 2, opts.teams)
    if not ok then return nil, pwhy end
  end
  if opts.target ~= nil then r.target = opts.target end
  local ok, cwhy = M.check(r)
  if not ok then return nil, cwhy end
  local dealer = opts.dealer or 1
  if dealer ~= 0 and dealer ~= 1 then return nil, "H2: the dealer is seat 0 or 1" end
  local seed = math.tointeger(opts.seed) or os.time()
  local s = { rules = r, rng = seed, dealer = dealer, round = 1, score = { [0] = 0, [1] = 0 },
    rounds_won = { [0] = 0, [1] = 0 }, history = {} }
  deal(s)
  return setmetatable({ s = s, back = {} }, Game)
end

function Game.game() return "highcard" end
function Game:rules() return copy(self.s.rules) end
function Game:turn() return self.s.phase == "play" and self.s.turn or nil end
function Game:phase() return self.s.phase end
function Game:where() local s = self.s return s.phase, self:turn(), s.round, 1, s.ply end
function Game.close() end
function Game.search() return nil, "highcard has no search" end

function Game:moves(structured)
  local s, out = self.s, {}
  if s.phase ~= "play" then return out end
  for i, c in ipairs(s.hands[s.turn]) do
    out[i] = structured and { text = c, index = i, kind = "play", seat = s.turn, card = c, value = VALUE[c] } or c
  end
  return out
end

function Game:count() return #self:moves(), true end

local NOT_A_MOVE = "not a move: expected a card like 7h, 10h or Ah, its number in moves() or a table with text (H1)"

--- The canonical move, or nil and why (the rule id first).
function Game:parse(move)
  local s = self.s
  if type(move) == "table" then
    move = move.text
    if type(move) ~= "string" then return nil, "not a move: a move table's text should be the move's text" end
  end
  if s.phase == "round-over" then return nil, "H5: the round is over (next_round deals the next)" end
  if s.phase == "match-over" then return nil, "H6: the match is over" end
  local list = self:moves(true)
  if math.type(move) == "integer" then
    if list[move] then return list[move] end
    return nil, string.format("no move number %d here (there are %d moves)", move, #list)
  end
  if type(move) ~= "string" then return nil, NOT_A_MOVE end
  local rank = move:match("^%s*(%w-)[hH]%s*$")
  local card = rank and rank:upper() .. "h"
  if not card or not VALUE[card] then return nil, NOT_A_MOVE end
  for _, m in ipairs(list) do
    if m.card == card then return m end
  end
  return nil, string.format("H4: you do not hold %s", card)
end

function Game:check(move)
  local m, why = self:parse(move)
  if not m then return false, why end
  return true, string.format("play %s (H4)", m.text)
end

-- H4, H5, H6: the trick, the round and the match after a card.
local function settle(s, effect)
  if #s.trick < 2 then
    s.turn = 1 - s.turn
    return
  end
  local a, b = s.trick[1], s.trick[2]
  local w = VALUE[a.card] > VALUE[b.card] and a.seat or b.seat
  s.tricks[w] = s.tricks[w] + 1
  effect.trick_over = { winner = w, side = w, number = s.tricks[0] + s.tricks[1] }
  s.last_trick, s.trick, s.leader, s.turn = s.trick, {}, w, w
  if s.tricks[0] + s.tricks[1] < TRICKS then return end
  local b0 = { [0] = { tricks = s.tricks[0], total = s.tricks[0] },
    [1] = { tricks = s.tricks[1], total = s.tricks[1] } }
  b0.winner = s.tricks[0] > s.tricks[1] and 0 or 1
  s.last, s.phase, s.turn = b0, "round-over", nil
  for seat = 0, 1 do s.score[seat] = s.score[seat] + s.tricks[seat] end
  s.rounds_won[b0.winner] = s.rounds_won[b0.winner] + 1
  local t, hi = s.rules.target, math.max(s.score[0], s.score[1])
  if hi >= t and s.score[0] ~= s.score[1] then
    s.phase, s.winner = "match-over", s.score[0] > s.score[1] and 0 or 1
  end
  effect.round_over, effect.match_over = true, s.phase == "match-over"
  s.history[#s.history].breakdown = copy(b0)
  s.history[#s.history].round_over = true
end

--- Plays a move: its effect, or nil and why (the game untouched).
function Game:play(move, with_table)
  local m, why = self:parse(move)
  if not m then return nil, why end
  local s = self.s
  self.back[#self.back + 1] = copy(s)
  local hand = s.hands[m.seat]
  table.remove(hand, m.index)
  local effect = { text = m.text, index = m.index, kind = "play", seat = m.seat, side = m.seat, round = s.round,
    deal = 1, ply = s.ply, card = m.card, value = m.value, trick = s.tricks[0] + s.tricks[1] + 1,
    table = with_table and copy(s.trick) or nil, xeri = false, dealt = false, redealt = false,
    round_over = false, match_over = false }
  s.trick[#s.trick + 1] = { seat = m.seat, card = m.card }
  s.ply = s.ply + 1
  s.history[#s.history + 1] = { seat = m.seat, move = m.text, kind = "play", round = s.round, deal = 1,
    ply = effect.ply, round_over = false }
  effect.number = #s.history
  settle(s, effect)
  return effect
end

function Game:undo()
  if #self.back == 0 then return nil, "nothing to undo" end
  self.s = table.remove(self.back)
  return true
end

function Game:clone()
  return setmetatable({ s = copy(self.s), back = copy(self.back) }, Game)
end

function Game:next_round()
  local s = self.s
  if s.phase ~= "round-over" then
    return nil, s.phase == "match-over" and "H6: the match is over" or "H5: the round is not over yet"
  end
  self.back[#self.back + 1] = copy(s)
  s.history[#s.history + 1] = { kind = NEXT, move = "next round", round = s.round, deal = 1, round_over = false }
  s.round, s.dealer = s.round + 1, 1 - s.dealer
  deal(s)
  return true
end

local function view_of(s, seat)
  local v = { game = "highcard", seat = seat, players = 2, sides = 2, teams = false, phase = s.phase,
    turn = s.phase == "play" and s.turn or nil, round = s.round, deal = 1, ply = s.ply, dealer = s.dealer,
    leader = s.leader, hand_count = { [0] = #s.hands[0], [1] = #s.hands[1] }, pack_count = #s.pack,
    trick = copy(s.trick), last_trick = copy(s.last_trick), tricks_won = copy(s.tricks), score = copy(s.score),
    rounds_won = copy(s.rounds_won), target = s.rules.target, last = copy(s.last), winner = s.winner }
  if seat ~= nil then v.hand = copy(s.hands[seat]) end
  return v
end

--- What a seat (0 or 1) may know; nil or "spectator": no hand at all.
function Game:view(seat)
  if seat == "spectator" then seat = nil end
  if seat ~= nil and seat ~= 0 and seat ~= 1 then error("view: no seat " .. tostring(seat) .. " (0 or 1)", 2) end
  return view_of(self.s, seat)
end

function Game:state()
  local v = view_of(self.s, nil)
  v.hands, v.pack = copy(self.s.hands), copy(self.s.pack)
  return v
end

--- What `viewer` (a seat, nil for a spectator) may see of an effect: the
-- mover all of it; the others not its number in the mover's list.
function Game.public(_, effect, viewer)
  local t = copy(effect)
  if viewer == nil or viewer ~= effect.seat then t.index = nil end
  return t
end

function Game:result()
  local s = self.s
  local r = s.last
  if s.phase == "play" then
    r = { [0] = { tricks = s.tricks[0], total = s.tricks[0] }, [1] = { tricks = s.tricks[1], total = s.tricks[1] } }
  end
  return { round = copy(r) or {}, score = copy(s.score), rounds_won = copy(s.rounds_won), rounds = s.round,
    over = s.phase == "match-over", winner = s.winner }
end

function Game:history()
  return copy(self.s.history)
end

--- The whole state as text; hide = true hides both hands and the pack, a
-- seat number every hand but that seat's.
function Game:position(hide)
  local s = self.s
  local function hand(seat)
    if hide == true or (hide ~= nil and hide ~= seat) then return "?" .. #s.hands[seat] end
    return #s.hands[seat] > 0 and table.concat(s.hands[seat], " ") or "-"
  end
  local trick = {}
  for _, t in ipairs(s.trick) do trick[#trick + 1] = t.seat .. ":" .. t.card end
  return string.format("dealer=%d; round=%d; ply=%d; turn=%s; phase=%s; score=%d %d; tricks=%d %d; trick=%s; "
    .. "hands=%s / %s; pack=%s", s.dealer, s.round, s.ply, tostring(self:turn() or "-"), s.phase, s.score[0],
    s.score[1], s.tricks[0], s.tricks[1], #trick > 0 and table.concat(trick, " ") or "-", hand(0), hand(1),
    hide and ("?" .. #s.pack) or table.concat(s.pack, " "))
end

M.RANKS, M.VALUE = RANKS, VALUE
return M
