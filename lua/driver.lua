-- The one game loop. A driver holds a game and what sits at each seat: an
-- AI player (anything with choose(game, seat) -> move, info), or nothing
-- for a seat whose moves come from outside (a person at the table, a
-- learner in a lesson). It asks each seat for its move, plays it and sends
-- one stream of events to its listeners: the screen, the coach, records
-- and the AIs' own on_event/on_round_end hooks all hear the same events.
--
-- Events (docs/architecture.md):
--   {type = "round_start", round, dealer, deal, ply, redeal = bool,
--    new_round = bool (dealt by the driver after a round ended)}
--   {type = "move", seat, side, move, round_over, round, deal, ply, table
--    (before the move), redealt, and the game's own fields of its effect}
--    (the AI's answer for that move, note and warning, is driver.last_info)
--   {type = "round_over", result}      (game:result() of the round)
--   {type = "match_over", result}
--   {type = "warning", seat, message, source}  (source "ai": an AI's hook
--    failed, at that seat; "rules": a house rule's hook, no seat)
local M = {}

local Driver = {}
Driver.__index = Driver
M.Driver = Driver

--- The public event of the move a game just played: its effect (g:play's
-- answer, which holds the table before the move) is the event, with its
-- type and the move's text under `move` too.
function M.move_event(effect)
  effect.type, effect.move = "move", effect.text
  return effect
end

local function round_start_event(game, redeal)
  local v = game:view(nil)
  return { type = "round_start", round = v.round, dealer = v.dealer, deal = v.deal, ply = v.ply,
    redeal = redeal or nil }
end

-- driver.new with the game's rules (driver.play has asked for them).
local function new_driver(game, seats, opts, rules)
  opts = opts or {}
  local self = setmetatable({
    game = game, seats = seats or {}, match = opts.match,
    listeners = opts.listeners or {}, interrupted = opts.interrupted,
    players = {}, warnings = {},
  }, Driver)
  local seen = {}
  for s = 0, rules.players - 1 do
    local p = self.seats[s]
    if p then
      if type(p) ~= "table" or type(p.choose) ~= "function" then
        error(string.format("driver: the player at seat %d has no choose()", s), 2)
      end
      if not seen[p] then
        seen[p] = true
        self.players[#self.players + 1] = { player = p, seat = s }
        p.seat, p._rules, p._game = s, rules, game
      end
    end
  end
  return self
end

--- driver.new(game, seats, opts): seats[s] for s = 0..n-1 (an AI player,
-- or false/nil for a seat played from outside; the same player may sit
-- at several seats). opts: match (go on after a round), listeners (a
-- list of functions(event, driver)), interrupted() -> bool (asked after an
-- AI chose and before its move is played).
function M.new(game, seats, opts)
  -- (a tail call: an error names new's caller)
  return new_driver(game, seats, opts, game:rules())
end

function Driver:listen(fn)
  self.listeners[#self.listeners + 1] = fn
end

function Driver:warn(seat, message, source)
  self.warnings[#self.warnings + 1] = message
  self:emit({ type = "warning", seat = seat, message = message, source = source or "ai" })
end

-- Whether a player is told of moves and round starts (an AI with an
-- on_event hook that is not turned off).
local function hears_moves(p)
  if not p.notify then return false end
  return not (p.listens and not p:listens())
end

-- The AIs hear moves and round starts (another seat's private keep
-- excepted: V-face-card-claim; another seat's announced cards too) and
-- each finished round's result.
function Driver:tell_players(e)
  for _, entry in ipairs(self.players) do
    local p, ok, msg = entry.player, true, nil
    if e.type == "round_over" then
      if p.round_end then ok, msg = p:round_end(e.result) end
    elseif (e.type == "move" or e.type == "round_start") and hears_moves(p) then
      if e.type == "move" and self.seats[e.seat] ~= p then
        -- (the game cuts what another seat hears: g:public)
        local public = self.game:public(e, entry.seat)
        if public then
          public.type, public.move = "move", public.text
          ok, msg = p:notify(public)
        end
      else
        ok, msg = p:notify(e)
      end
    end
    if not ok then self:warn(entry.seat, msg) end
  end
end

-- Whether an AI at the table hears the moves (its on_event hook).
function Driver:_ai_listens()
  -- (asked before every move: a numeric loop, without ipairs' call per
  -- player)
  local players = self.players
  for i = 1, #players do
    if hears_moves(players[i].player) then return true end
  end
  return false
end

-- (quiet: no AI hears moves, as play just found; the players are not
-- asked again about a move)
function Driver:emit(e, quiet)
  if e.type ~= "warning" and not (quiet and e.type == "move") then self:tell_players(e) end
  -- (ipairs' order and end, without its call per listener: every move
  -- is emitted)
  local listeners, i = self.listeners, 1
  local fn = listeners[1]
  while fn do
    fn(e, self)
    i = i + 1
    fn = listeners[i]
  end
end

--- Announces the round under way (to call once, when play begins).
function Driver:start()
  local phase = self.game:phase()
  -- (a round under way, whatever its phase; not a finished round or
  -- match)
  if phase ~= "round-over" and phase ~= "match-over" then self:emit(round_start_event(self.game)) end
end

--- Plays a move for the seat to move (from an AI or from outside): the
-- move event (and round/match over) on success, or nil and the engine's
-- refusal (led by its rule id), the game untouched. info: the AI's
-- answer (note, warning) to carry in the event.
function Driver:play(move, info)
  local g = self.game
  -- (with the table it was played on, for whoever hears the event; when
  -- nobody does, only what the loop itself reads: g:play's brief effect)
  local listening = self:_ai_listens()
  local effect, why = g:play(move, not self.unheard or listening or "brief")
  if not effect then return nil, why end
  local e = M.move_event(effect)
  -- An AI's answer (its note, a warning) is for the caller and the people
  -- watching, not for the other AIs (partners could signal through it):
  -- listeners find it in driver.last_info, the event does not carry it.
  self.last_info = info
  if info and info.warning then self.warnings[#self.warnings + 1] = info.warning end
  -- a house rule's score or match hook failed: the rule's, not a player's
  if why then self:warn(nil, why, "rules") end
  self:emit(e, not listening)
  -- (a move that dealt the round again starts it anew: a claim, V-face-card-claim)
  if e.redealt then self:emit(round_start_event(g, true)) end
  if e.round_over then
    local r = g:result()
    self:emit({ type = "round_over", result = r })
    if r.over then self:emit({ type = "match_over", result = r }) end
  end
  return e
end

--- One step: deals the next round when one is over (with opts.match),
-- or lets the AI to move play. Returns the event, or nil and why it
-- stopped: "over" (the match, or the round without opts.match), "wait"
-- (a seat played from outside is to move; its seat follows),
-- "interrupted" (the AI's move was not played), "refused" (the engine
-- refused an AI's move: an engine error; the reason follows).
function Driver:step()
  local g = self.game
  local seat = g:turn()
  local phase = not seat and g:phase()
  if phase == "match-over" then return nil, "over" end
  if phase == "round-over" then
    if not self.match then return nil, "over" end
    assert(g:next_round())
    local e = round_start_event(g)
    e.new_round = true
    self:emit(e)
    return e
  end
  local p = self.seats[seat]
  if not p then return nil, "wait", seat end
  local move, info = p:choose(g, seat)
  if self.interrupted and self.interrupted() then return nil, "interrupted", seat end
  local e, why = self:play(move, info)
  if not e then return nil, "refused", string.format("the engine refused '%s' (%s)", move, why), seat end
  return e
end

--- Steps until something stops it (see step): returns that reason.
function Driver:run()
  while true do
    local e, why, more = self:step()
    if not e then return why, more end
  end
end

--- driver.play(game, players, opts) -> the game's result with .warnings:
-- AIs at every seat, until the round ends (or with opts.match the match).
-- opts.on_move(seat, move, info) after each move; opts.on_warning(seat,
-- message, source) for each warning (source "rules" for a house rule's,
-- with no seat); opts.listeners as for new().
function M.play(game, players, opts)
  opts = opts or {}
  local rules = game:rules()
  for s = 0, rules.players - 1 do
    local p = players[s]
    if type(p) ~= "table" or type(p.choose) ~= "function" then
      error(string.format("driver.play: no player for seat %d", s), 2)
    end
  end
  -- (the rules asked once: each asking makes them anew)
  local d = new_driver(game, players, { match = opts.match, listeners = opts.listeners }, rules)
  -- (only the AIs hear the whole move events: on_move is told less)
  d.unheard = opts.listeners == nil
  d:listen(function(e)
    if e.type == "move" and opts.on_move then
      opts.on_move(e.seat, e.move, d.last_info or {})
    elseif e.type == "warning" and opts.on_warning then
      opts.on_warning(e.seat, e.message, e.source)
    end
  end)
  d:start()
  local why, more = d:run()
  if why == "refused" then error("driver.play: " .. more) end
  local r = game:result()
  r.warnings = d.warnings
  return r
end

return M
