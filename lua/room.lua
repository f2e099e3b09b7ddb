-- A room: one game and the seats around it, apart from any terminal.
--
-- A room holds the game handle, what sits at each seat (a person, an AI,
-- a lesson's learner), the driver (lua/driver.lua) that asks the AIs for
-- their moves, the record of the game (saved and loaded with
-- lua/match/record.lua) and the event streams of its viewers. It does no
-- input or output at all: it answers with values and sends events. A
-- front end (the terminal table, lua/table/repl.lua, or a test) reads the
-- people's moves, hands them to the room and draws what the events and
-- views say. Rooms share nothing: several live in one process, each with
-- its own game, AIs and streams.
--
-- Viewers: a seat number, or nil for a spectator. A viewer that
-- subscribes hears every event cut to what it may see (the mover gets the
-- whole effect; the others its public part; a spectator what every seat
-- sees in public). A trusted listener (the terminal table of one
-- keyboard, which draws for whichever person sits at it) hears the whole
-- events with room:listen.
local diloti = require "diloti"
local core = require "diloti.core"
local ai = require "diloti.ai.player"
local driver = require "diloti.driver"
local variants = require "diloti.scripts.variants"
local record = require "diloti.match.record"

local M = {}

local Room = {}
Room.__index = Room
M.Room = Room

-- What may sit at a seat: people and lesson learners move from outside
-- the room, AIs are asked by the driver.
local OUTSIDE = { human = true, lesson = true }

-- ---------------------------------------------------------------------
-- Seats

--- The seats for options (see room.new): seat 0 is a person; with four
-- players seat 2 is the person's partner (an AI unless humans = 2 or
-- more). o.seats[seat] ("human" or an AI name) overrides both.
-- default_ai is the game's choice when the options name no AI.
function M.seat_specs(o, default_ai)
  local specs = {}
  local humans = o.humans or 1
  local order = o.players == 4 and { 0, 2, 1, 3 } or { 0, 1, 2, 3 }
  for i = 1, o.players do
    local seat = order[i]
    local chosen = o.seats and o.seats[seat]
    if chosen == "human" or (not chosen and i <= humans) then
      specs[seat] = { kind = "human" }
    else
      local name = chosen or (o.players == 4 and seat % 2 == 0 and o.partner) or o.ai or default_ai
      specs[seat] = { kind = "ai", name = ai.real_name(name, o.game) }
    end
  end
  return specs
end

local function check_spec(seat, s)
  if type(s) ~= "table" or not (OUTSIDE[s.kind] or (s.kind == "ai" and type(s.name) == "string")) then
    return nil, string.format("seat %d: expected {kind = 'human'}, {kind = 'lesson'} or {kind = 'ai', name = NAME}",
      seat)
  end
  return true
end

local function check_specs(specs, players_n)
  for seat = 0, players_n - 1 do
    local ok, err = check_spec(seat, specs[seat])
    if not ok then return nil, err end
  end
  for seat in pairs(specs) do
    if math.type(seat) ~= "integer" or seat < 0 or seat >= players_n then
      return nil, string.format("there is no seat %s with %d players", tostring(seat), players_n)
    end
  end
  return true
end

local function make_players(specs, o, game)
  local players = {}
  local make = o.player or ai.player
  for seat, spec in pairs(specs) do
    if spec.kind == "ai" then
      local p, err = make(spec.name, { seed = o.seed + seat, dirs = o.ai_dirs, game = game, pool = o.pool })
      if not p then return nil, err end
      players[seat] = p
    end
  end
  return players
end

--- room.new(o) -> room, or nil and a message. o: the game (game, rules,
-- players, seed, dealer, target, position, rules_dirs; or handle, a game
-- handle to seat, as a loaded record gives), the seats (specs: seat ->
-- {kind = "human" | "lesson" | "ai", name}; or humans, ai, partner and
-- seats, seat -> "human" or an AI name, as the table's 'new' takes them),
-- ai_dirs, default_ai (the AI when none is named; "normal"), player
-- (name, opts) -> AI player (ai.player), match (go on after a round; true
-- unless false), interrupted() -> bool (asked after an AI chose, before
-- its move is played), pool (what its boxes hold together: a
-- core.box.pool; by default one of its own). Every other field is kept in room.opts (a front
-- end's own options: practice, ...; the game's as given, with players,
-- seed and game filled in).
function M.new(o)
  o = o or {}
  local seed = o.seed or 0
  if math.type(seed) ~= "integer" then return nil, "room: the seed must be a whole number" end
  -- What the room's boxes (its AIs, its house rules) hold together: its
  -- own count, so that one room's scripts never starve another's.
  local pool = o.pool or core.box.pool()
  local g = o.handle
  if not g then
    local err
    g, err = diloti.new {
      game = o.game, rules = o.rules or o.game, players = o.players, seed = seed, dealer = o.dealer,
      target = o.target, position = o.position, rules_dirs = o.rules_dirs, pool = pool,
    }
    if not g then return nil, err end
  end
  local players_n = g:rules().players
  local opts = {}
  for k, v in pairs(o) do opts[k] = v end
  for _, k in ipairs { "handle", "player", "interrupted", "specs", "default_ai", "rules_dirs", "ai_dirs", "match",
    "pool" } do
    opts[k] = nil
  end
  opts.players, opts.seed, opts.game = players_n, seed, o.game or g:game()
  if (opts.humans or 1) > players_n then return nil, string.format("at most %d people can play", players_n) end
  for seat in pairs(opts.seats or {}) do
    if type(seat) ~= "number" or seat >= players_n then
      return nil, string.format("there is no seat %s with %d players", tostring(seat), players_n)
    end
  end
  local specs = o.specs or M.seat_specs(opts, o.default_ai or "normal")
  local ok, serr = check_specs(specs, players_n)
  if not ok then return nil, serr end
  -- (the room's own: rooms given the same table stay apart)
  local own = {}
  for seat, s in pairs(specs) do own[seat] = { kind = s.kind, name = s.name } end
  specs = own
  local players, perr = make_players(specs, { player = o.player, seed = seed, ai_dirs = o.ai_dirs, pool = pool },
    g:game())
  if not players then return nil, perr end
  return setmetatable({
    g = g, opts = opts, pool = pool, specs = specs, players = players, players_n = players_n,
    match = o.match ~= false, interrupted = o.interrupted, rules_dirs = o.rules_dirs, ai_dirs = o.ai_dirs,
    player = o.player,
    listeners = {}, viewers = {},
  }, Room)
end

--- Seats spec ({kind = "human" | "lesson" | "ai", name}) at seat, the
-- game untouched: true, or nil and why (the seats as they were). An AI
-- seated during a round knows what its view tells it, not the events
-- before it sat down.
function Room:seat(seat, spec)
  if math.type(seat) ~= "integer" or seat < 0 or seat >= self.players_n then
    return nil, string.format("there is no seat %s with %d players", tostring(seat), self.players_n)
  end
  local ok, err = check_spec(seat, spec)
  if not ok then return nil, err end
  local p
  if spec.kind == "ai" then
    local made, perr = make_players({ [seat] = spec },
      { player = self.player, seed = self.opts.seed, ai_dirs = self.ai_dirs, pool = self.pool }, self.g:game())
    if not made then return nil, perr end
    p = made[seat]
  end
  self.specs[seat], self.players[seat] = { kind = spec.kind, name = spec.name }, p
  self._reseated = true
  return true
end

--- Is this seat's move typed from outside (a person's, a learner's)?
function Room:is_outside(seat)
  local s = seat ~= nil and self.specs[seat]
  return s and OUTSIDE[s.kind] or false
end

function Room:is_human(seat)
  local s = seat ~= nil and self.specs[seat]
  return s and s.kind == "human" or false
end

--- The seat a person (or learner) must move for now, or nil.
function Room:outside_to_move()
  local seat = self.g:turn()
  if self:is_outside(seat) then return seat end
end

-- ---------------------------------------------------------------------
-- What each viewer may see

local function copy(t)
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  return c
end

--- The part of a move event that viewer (a seat, or nil for a
-- spectator) may see, or nil when it may see none of it. The mover gets
-- the whole event.
function Room:public(e, viewer)
  if viewer ~= nil and viewer == e.seat then return copy(e) end
  local p = self.g:public(e, viewer)
  if p == nil then return nil end
  p.type, p.move = "move", p.text
  return p
end

--- An event as viewer may hear it, or nil when it hears nothing of it.
function Room:cut(e, viewer)
  if e.type == "move" then return self:public(e, viewer) end
  -- (an AI's failing hook: its message may quote what the AI knows, its
  -- own hand: only its seat hears the words)
  if e.type == "warning" and e.source == "ai" and e.seat ~= viewer then
    return { type = "warning", source = "ai", seat = e.seat,
      message = string.format("the AI at seat %d had a problem", e.seat or -1) }
  end
  -- (a house rule's failure names its file: not the folder it lies in)
  if e.type == "warning" and e.source == "rules" and type(e.message) == "string" then
    local c = copy(e)
    c.message = variants.without_folders(e.message)
    return c
  end
  return e
end

--- What viewer (a seat, or nil for a spectator) may know now: g:view.
function Room:view(viewer)
  return self.g:view(viewer)
end

-- ---------------------------------------------------------------------
-- Events

-- Every event of the driver, to the trusted listeners whole and to each
-- viewer cut.
local function emit(self, e, d)
  for _, fn in ipairs(self.listeners) do fn(e, self, d) end
  for _, sub in ipairs(self.viewers) do
    local c = self:cut(e, sub.viewer)
    if c ~= nil then sub.fn(c, self) end
  end
end

--- A trusted listener: fn(event, room, driver) hears every event whole
-- (driver.last_info holds an AI's note for its move). Returns a function
-- that stops it.
function Room:listen(fn)
  local l = self.listeners
  l[#l + 1] = fn
  return function()
    for i, f in ipairs(l) do if f == fn then table.remove(l, i) return end end
  end
end

--- A viewer's stream: fn(event, room) hears every event cut to what
-- viewer (a seat, or nil for a spectator) may see. Returns a function
-- that stops it.
function Room:subscribe(viewer, fn)
  if viewer ~= nil and (math.type(viewer) ~= "integer" or viewer < 0 or viewer >= self.players_n) then
    error(string.format("room: no seat %s to view from (a seat 0-%d, or nil for a spectator)",
      tostring(viewer), self.players_n - 1), 2)
  end
  local sub = { viewer = viewer, fn = fn }
  local v = self.viewers
  v[#v + 1] = sub
  return function()
    for i, s in ipairs(v) do if s == sub then table.remove(v, i) return end end
  end
end

-- ---------------------------------------------------------------------
-- Playing

--- The game loop of the game in the room (made again when the handle
-- changes: a record loaded, Lua that put the game back).
function Room:driver()
  local d = self._driver
  local reseated = d and d.game == self.g and self._reseated
  if not d or d.game ~= self.g or reseated then
    self._reseated = nil
    local seats = {}
    for seat, p in pairs(self.players) do seats[seat] = p end
    d = driver.new(self.g, seats, {
      match = self.match,
      interrupted = self.interrupted and function() return self.interrupted() end,
      listeners = { function(e, from) emit(self, e, from) end },
    })
    self._driver = d
    -- (a seat that changed hands mid-round: the round is not announced
    -- again)
    if not reseated then d:start() end
  end
  return d
end

--- Puts another handle of the same game in the room (a loaded record,
-- the game as it was before some Lua changed it).
function Room:set_game(g)
  self.g = g
end

--- Plays a move from outside: a person's (or learner's) at seat, or with
-- seat nil whoever is to move (a trusted caller: the table's own Lua).
-- Returns the move event, or nil and why (the engine's refusal led by
-- its rule id, another seat's turn, an AI's seat) with the game
-- untouched. info: an AI's answer (note, warning) to carry.
function Room:play(seat, move, info)
  local d = self:driver()
  if seat ~= nil then
    local turn = self.g:turn()
    if math.type(seat) ~= "integer" or not self.specs[seat] then
      return nil, string.format("there is no seat %s", tostring(seat))
    end
    if turn ~= seat then
      return nil, turn and string.format("it is seat %d's turn, not seat %d's", turn, seat)
        or "nobody is to move: the " .. self.g:phase():gsub("-", " ")
    end
    if not self:is_outside(seat) then
      return nil, string.format("seat %d is played by the computer", seat)
    end
  end
  local t = type(move)
  if not (t == "string" or math.type(move) == "integer" or (t == "table" and type(move.text) == "string")) then
    return nil, "a move is its text, its number in the list of moves, or a table with its text"
  end
  return d:play(move, info)
end

--- One step of the loop: deals the next round after one ended, or lets
-- the AI to move play. As driver:step: the event, or nil and why it
-- stopped ("over", "wait" and the seat, "interrupted" and the seat,
-- "refused", the reason and the seat).
function Room:step()
  return self:driver():step()
end

--- Lets the AIs play until a person is to move (or the match, or the
-- round without match, is over): what stopped it, as step's.
function Room:advance()
  local d = self:driver()
  while true do
    local e, why, more, seat = d:step()
    if not e then return why, more, seat end
  end
end

--- Takes back one step of the game (a move, or the deal of a round);
-- true, or false when there is none.
function Room:undo()
  return self.g:undo() and true or false
end

-- ---------------------------------------------------------------------
-- The record

--- What a record says of this room besides the moves. A record names
-- each AI by its name, never by the file it was loaded from (a record is
-- a file others load: it must not name files to run); an AI loaded from
-- a path is saved under the name its script gives, with a comment saying
-- it must be installed under that name. extra: more `extra` fields.
function Room:meta(extra)
  local seats, comments = {}, {}
  for seat = 0, self.players_n - 1 do
    local s = self.specs[seat]
    if OUTSIDE[s.kind] then
      seats[seat] = "human"
    else
      local p = self.players[seat]
      local name = (p and p.name) or s.name
      seats[seat] = "ai " .. name
      if name ~= s.name then
        comments[#comments + 1] = string.format("seat %d: the AI '%s' was loaded from a file; install it as "
          .. "%s.lua in your AI folder (e.g. ~/.config/diloti/ai) to load or replay this game", seat, name, name)
      end
    end
  end
  local o = self.opts
  local x = {}
  for k, v in pairs(extra or {}) do x[k] = v end
  return {
    game = o.game, rules = o.rules or o.game, players = self.players_n, seed = o.seed, dealer = o.dealer,
    target = o.target, position = o.position, seats = seats, extra = x, comments = comments,
  }
end

--- Saves the game's record to path: true, or nil and a message.
function Room:save(path, extra)
  local meta = self:meta(extra)
  meta.rules_dirs = self.rules_dirs
  return record.save(path, self.g, meta)
end

--- The seats a record names: "human", or "ai NAME" (a default for a
-- seat it leaves out: a person at seat 0, cautious elsewhere).
function M.specs_of(rec, players)
  local specs = {}
  for seat = 0, players - 1 do
    local s = rec.seats and rec.seats[seat] or (seat == 0 and "human" or "ai cautious")
    local name = record.seat_ai(s)
    specs[seat] = name and { kind = "ai", name = name } or { kind = "human" }
  end
  return specs
end

--- The options of a room for a loaded record and its game handle.
function M.options_of(g, rec)
  return {
    handle = g, game = rec.game, rules = rec.rules, players = rec.players, seed = rec.seed, dealer = rec.dealer,
    target = rec.target, position = rec.position, specs = M.specs_of(rec, g:rules().players),
  }
end

--- A room from a record (a path, or the text with opts.text): the room
-- and the record, or nil and a message. opts: rules_dirs, pool, and
-- room.new's ai_dirs, player, match, interrupted.
function M.load(src, opts)
  opts = opts or {}
  -- (the record's house rules load into the room's pool)
  local pool = opts.pool or core.box.pool()
  local g, rec = record.load(src, { rules_dirs = opts.rules_dirs, text = opts.text, pool = pool })
  if not g then return nil, rec end
  local o = M.options_of(g, rec)
  o.pool = pool
  for _, k in ipairs { "rules_dirs", "ai_dirs", "player", "match", "interrupted" } do o[k] = opts[k] end
  local r, err = M.new(o)
  if not r then return nil, err end
  return r, rec
end

return M
