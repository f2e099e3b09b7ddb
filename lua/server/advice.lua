-- hint and why for a seat of an online room, from its game's coach (the
-- package's `coach` part, the one the terminal table asks).
--
-- The coach at the table reads the game itself; here it reads a world
-- made from the seat's own knowledge: g:sealed(seat), the position the
-- engine's simulate plays on, with every hidden card placed at random
-- among the cards the seat cannot see. Whatever the coach says then
-- depends on nothing the seat may not know, whichever game it is.
-- What it would print is collected as lines for the `advice` frame.
local diloti = require "diloti"
local registry = require "diloti.registry"
local screen = require "diloti.table.screen"
local games = require "diloti.table.games"

local M = {}

local PLAIN = screen.style { unicode = false, colour = false, width = 78 }

local function table_part(g)
  local pkg = registry.of(g)
  return registry.part(pkg, "coach"), registry.part(pkg, "table")
end

-- A stand-in for the table the coach talks to: what it prints are lines;
-- it speaks the game's words (its table part's, as at the terminal).
local function sink(g, seat, names)
  local T = { g = g, style = PLAIN, names = names, lines = {}, log = {}, gm = select(2, table_part(g)) }
  function T.print(self, s) self.lines[#self.lines + 1] = tostring(s) end
  function T.printf(self, fmt, ...) self:print(string.format(fmt, ...)) end
  function T.complain(self, s) self.err = tostring(s) end
  -- (the game's own words, as at the terminal: "you bid", not "seat 0 bids")
  function T.words(self, s) return games.words(self.gm, PLAIN, s, self.names, seat) end
  function T.human_to_move() return seat end
  function T.is_human(_, s) return s == seat end
  -- (what the coaches also ask the table: a game of teams names them)
  function T.rules(self) return self.g:rules() end
  function T.side_name(self, side)
    local v = self.g:view(seat)
    return screen.side_name(self.names, side, v.players, v.sides or 2)
  end
  return T
end

-- The seat's world as a game of its own, or nil and why.
local function world_of(g, seat)
  if math.type(seat) ~= "integer" or g:turn() ~= seat then
    return nil, "advice is for the seat to move: it is not your turn"
  end
  local pos, why = g:sealed(seat)
  if not pos then return nil, why end
  -- (with the room's house rules: a move their moves hook takes away is
  -- neither hinted nor called legal)
  return diloti.new { rules = g:rules(), position = pos, hooks = g:hooks() }
end


-- The seat's own moves in the game's history: {index, move} each.
local function own_moves(g, seat)
  local out = {}
  for i, h in ipairs(g:history()) do
    if h.seat == seat and h.kind ~= "next-round" and h.move then out[#out + 1] = { index = i, move = h.move } end
  end
  return out
end

-- explain: the coach's word on the seat's own move n moves back (1: its
-- last), judged in the world the seat knew when it played it.
local function explain(room, seat, msg, names)
  local mine = own_moves(room.g, seat)
  local n = msg.n or 1
  if n < 1 then n = 1 end
  local pick = mine[#mine - n + 1]
  if not pick then
    return nil, #mine == 0 and "you have played no move yet" or string.format("you have played %d moves", #mine)
  end
  local past = room.g:clone()
  while #past:history() >= pick.index do
    if not past:undo() then return nil, "that move can no longer be taken back to be judged" end
  end
  local w, why = world_of(past, seat)
  if not w then return nil, why end
  local coach = table_part(w)
  if not (coach and coach.coach_line) then return nil, "this game's coach judges no moves" end
  local T = sink(w, seat, names or {})
  local line = coach.coach_line(T, w, pick.move, { verbose = true })
  if not line then return nil, "the coach has nothing to say of that move (it was the only one, or not a card)" end
  return { string.format("Your move %s:", pick.move), line }
end

--- M.advise(kind, room, seat, msg, names) -> lines, or nil and why: the
-- advisor of lua/server/protocol.lua (kind "hint", "why" or "explain").
function M.advise(kind, room, seat, msg, names)
  if kind == "explain" then return explain(room, seat, msg, names) end
  local w, why = world_of(room.g, seat)
  if not w then return nil, why end
  local coach = table_part(w)
  local T = sink(w, seat, names or {})
  if kind == "hint" then
    if not (coach and coach.hint) then return nil, "this game's coach gives no hints" end
    coach.hint(T, seat)
  else
    local text = msg.move
    if text == nil then return nil, "why needs a move: {type = 'why', move = ...}" end
    if math.type(text) == "integer" then text = w:moves()[text] end
    if type(text) ~= "string" then return nil, "there is no such move in the list" end
    local ok, what = w:check(text)
    if not ok then
      T:print("Not allowed: " .. T:words(what))
    else
      T:print("Legal: " .. text .. ": " .. T:words(what))
    end
  end
  if T.err and #T.lines == 0 then return nil, T.err end
  return T.lines
end

return M
