-- Advice from the engine's search, in words: the table's `hint`, and the
-- coach. The search sees only the adviser's seat (dl_view), so a hint
-- never reveals a hidden card.
local core = require "diloti.core"
-- (the engine's answers: src/diloti/lua/lcapture.c)
local native = core.natives("diloti")
local help = require "diloti.games.diloti.ai_helpers"
local driver = require "diloti.driver"
local screen = require "diloti.table.screen"

local M = {}

M.ITERATIONS = 25000 -- the expert's budget (lua/games/diloti/ai/expert.lua)
-- ... and a time limit besides: a crowded table's playouts are long, and
-- a hint that took minutes would be no hint (issue 24).
M.SECONDS = 2

-- The search squashes a round's point margin into a reward in (0, 1)
-- with a logistic of this scale (src/diloti/search.c); the inverse turns a
-- reward back into points. An exact search's values are points already.
local SCALE = 5

function M.points(value, exact)
  if exact then return value end
  local v = math.min(math.max(value, 1e-4), 1 - 1e-4)
  return SCALE * math.log(v / (1 - v))
end

local function legal_set(g)
  local set = {}
  for _, m in ipairs(g:moves(true)) do set[m.text] = m end
  return set
end

--- The search's ranking of the legal moves for seat: a list of
-- {move, value, visits, info} best first, or nil and a reason.
function M.rank(g, seat, opts)
  opts = opts or {}
  local legal = legal_set(g)
  local r, err = g:search { seat = seat, iterations = opts.iterations or M.ITERATIONS, seed = opts.seed or 1,
    time = opts.time or M.SECONDS }
  if not r then return nil, err end
  local out = {}
  for _, m in ipairs(r.moves) do
    -- A house rule may forbid a move the search knows nothing of; on a
    -- crowded table the search may rank a move the list leaves out.
    local info = legal[m.move] or g:parse(m.move)
    if info then
      out[#out + 1] = { move = m.move, value = m.value, visits = m.visits, info = info }
    end
  end
  if #out == 0 then return nil, "the search found no allowed move" end
  return out, r
end

local ACES = { "an ace", "two aces", "three aces", "four aces" }

local function named_points(cards)
  local named, aces = {}, 0
  for _, c in ipairs(cards) do
    if c == "10d" then named[#named + 1] = "the 10 of diamonds"
    elseif c == "2c" then named[#named + 1] = "the 2 of clubs"
    elseif c:sub(1, 1) == "A" then aces = aces + 1 end
  end
  -- (counted, not listed: "an ace, an ace" read as a slip)
  if aces > 0 then named[#named + 1] = ACES[aces] end
  return named
end

-- What the move does right now, in a few words.
local function effect(st, g, info)
  local clone = g:clone()
  local ev = driver.move_event(assert(clone:play(info.text, true)), g:rules())
  local parts = {}
  if ev.captured then
    parts[#parts + 1] = string.format("it takes %d cards", #ev.captured)
    local pts = named_points(ev.captured)
    if #pts > 0 then parts[#parts + 1] = "with " .. table.concat(pts, ", ") end
    if ev.xeri then parts[#parts + 1] = "and sweeps the table for a xeri (D21)" end
  elseif info.kind == "lay" then
    parts[#parts + 1] = "laying " .. screen.card(st, info.card) .. " gives the least away"
  elseif info.kind == "plain" or info.kind == "raise" then
    parts[#parts + 1] = string.format("it builds a %d you can take later with a card you hold (D14)", info.value)
  elseif info.kind == "group" then
    parts[#parts + 1] = string.format("it gathers a group of %ds for you to take later (D17)", info.value)
  end
  return table.concat(parts, " "), clone
end

-- The next player's best sweep of the table a move leaves, if any.
local function leaves_xeri(g_after, rules)
  local v = g_after:view(g_after:turn() or 0)
  if #v.table.loose + #v.table.declarations == 0 then return nil end
  for _, rank in ipairs(help.ranks) do
    local cap = native.best_capture(rank, v.table, rules)
    if cap and cap.sweep then return rank end
  end
end

--- A hint for the seat to move: {move, sentence, ranked} or nil, reason.
function M.hint(st, g, opts)
  local seat = g:turn()
  if not seat then return nil, "nobody is to move" end
  local ranked, r = M.rank(g, seat, opts)
  if not ranked then return nil, r end
  local best = ranked[1]
  local what, after = effect(st, g, best.info)
  local s = string.format("%s: %s", best.move, what ~= "" and what or "the search's choice")
  -- (said of the hinted move, before another is named; and only where a
  -- sweep scores: Kontsina has no xeri, K2)
  local rules = g:rules()
  local rank = rules.xeri and after:phase() == "play" and leaves_xeri(after, rules)
  if rank then s = s .. string.format(", though it leaves a table a %s would sweep", rank) end
  if #ranked > 1 then
    local gap = M.points(best.value, r.exact) - M.points(ranked[2].value, r.exact)
    if gap < 0.05 then
      s = s .. string.format("; %s is about as good", ranked[2].move)
    else
      s = s .. string.format("; the search rates it about %.1f points above %s", gap, ranked[2].move)
    end
  end
  return { move = best.move, sentence = s .. ".", ranked = ranked }
end

M.leaves_xeri = leaves_xeri
M.effect = effect

return M
