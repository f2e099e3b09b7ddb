-- The coach and `explain`, at the table (issue 6): the commands (coach,
-- hint, explain, and the game's words in why), the observer of every
-- move and the taking back that `explain` needs. What the coach says is
-- the game's: the package's `coach` part (lua/registry.lua) answers
-- hint(T, seat), why(T, rest, base) (optional), explain_lines(T, n,
-- rebuild) and coach_line(T, g, move, opts). A game whose table module
-- says `coach = false` has none.
local registry = require "diloti.registry"

local M = {}

-- The coach module of the game at the table, or nil.
local function game_coach(T)
  if not (T.gm and T.gm.coach) then return nil end
  return registry.part(T.gm.name, "coach")
end

-- ---------------------------------------------------------------------
-- The observer

local function state(T)
  T.coach = T.coach or { on = false, verbose = false }
  return T.coach
end

local observer = { name = "coach" }

function observer.before_move(T, seat, move, g)
  local st = state(T)
  st.pending = nil
  local gc = st.on and T:is_human(seat) and game_coach(T)
  if not gc then return end
  local line = gc.coach_line(T, g, move, { verbose = st.verbose })
  if line then st.pending = { seat = seat, line = line } end
end

function observer.after_move(T, seat)
  local st = state(T)
  local p = st.pending
  st.pending = nil
  if not p or p.seat ~= seat or not p.line then return end
  if T.humans > 1 then
    -- People sharing a keyboard: the next one must not read this hand's
    -- advice, so it is shown now and the mover passes on with Enter.
    T:print(p.line)
    T.read("(press Enter)")
  else
    T.recent[#T.recent + 1] = p.line
  end
end

M.observer = observer

-- ---------------------------------------------------------------------
-- explain

-- The game just before log entry e, or nil and why.
function M.rebuild(g, e)
  local h = g:history()
  if not e.hist or not h[e.hist] or h[e.hist].move ~= e.move then
    return nil, "the game no longer matches the log there (it was changed from Lua or loaded)"
  end
  local c = g:clone()
  for _ = 1, #h - e.hist + 1 do
    if not c:undo() then return nil, "the game cannot be taken back that far" end
  end
  if c:turn() ~= e.seat or not c:check(e.move) then return nil, "the game no longer matches the log there" end
  return c
end

-- A game without a coach says so.
local function no_coach(T, what)
  if game_coach(T) then return false end
  T:complain(string.format("The %s has nothing to say about %s yet.", what, T.gm.title))
  return true
end

local function explain(T, rest)
  if no_coach(T, "'explain' command") then return end
  if #T.log == 0 then return T:complain("Nothing to explain yet: no move has been played.") end
  local n = #T.log
  if rest ~= "" then n = math.tointeger(tonumber(rest)) end
  if not n then
    return T:complain(string.format("explain: '%s' is not a move number. Type 'explain' for the last move, "
      .. "or 'explain N' with N from 'log' (1-%d).", rest, #T.log))
  end
  if n < 1 or n > #T.log then
    return T:complain(string.format("explain: there is no move %d; the log holds moves 1-%d.", n, #T.log))
  end
  local lines, err = game_coach(T).explain_lines(T, n, M.rebuild)
  if not lines then return T:complain(err) end
  for _, l in ipairs(lines) do T:print(l) end
end

-- ---------------------------------------------------------------------
-- Commands

local function coach_cmd(T, rest)
  if no_coach(T, "coach") then return end
  local st = state(T)
  local w = rest:lower()
  if w == "" then
    return T:printf("The coach is %s%s. Type 'coach on', 'coach off' or 'coach verbose'.", st.on and "on" or "off",
      st.on and st.verbose and " (verbose)" or "")
  end
  if w == "on" then
    st.on, st.verbose = true, false
    T:print("Coach on: after each of your moves it speaks up when the expert search clearly prefers another.")
  elseif w == "verbose" then
    st.on, st.verbose = true, true
    T:print("Coach on, verbose: it also says when a move was fine.")
  elseif w == "off" then
    st.on, st.verbose = false, false
    T:print("Coach off.")
  else
    T:complain(string.format("coach: '%s' is not a choice; type 'coach on', 'coach off' or 'coach verbose'.", rest))
  end
end

local COACH = {
  name = "coach", usage = "coach [on|off|verbose]",
  help = "comments on your moves when the expert AI clearly prefers another",
  -- (more: written when installed, with each game's own words: its coach's help_more lines)
  examples = { "coach on", "coach verbose", "coach off" },
  run = coach_cmd,
}

local EXPLAIN = {
  name = "explain", usage = "explain [N]",
  help = "what move N of the log did (default: the last), what it changed, and the alternatives",
  more = "  The alternatives are shown for your own moves, and for others' once their hand has been played out.",
  examples = { "explain", "explain 12" },
  run = explain,
}

local HINT = {
  name = "hint", usage = "hint",
  help = "what the expert AI would play, and why",
  run = function(T)
    local seat = T:human_to_move()
    if not seat then return T:complain("It is not your turn.") end
    if no_coach(T, "'hint' command") then return end
    return game_coach(T).hint(T, seat)
  end,
}

-- 'why MOVE': the session's own check (the one its set holds when the
-- coach is installed), and for a game with a coach module of its own,
-- that module's words on the move too.
local function why_of(base)
  local why = {}
  for k, v in pairs(base) do why[k] = v end
  local base_run = base.run
  why.run = function(T, rest)
    local gc = game_coach(T)
    if gc and gc.why then return gc.why(T, rest, base_run) end
    return base_run(T, rest)
  end
  return why
end

-- 'help coach': each game's coach says its own lines (asked when shown,
-- so that no game's coach is loaded before it is needed).
COACH.more = function()
  local more = { "  on: speaks only after a clear mistake, saying why and how sure it is." }
  for _, pkg in ipairs(registry.list()) do
    local c = pkg.parts.coach and registry.part(pkg, "coach")
    for _, l in ipairs(c and c.help_more or {}) do more[#more + 1] = "  " .. l end
  end
  more[#more + 1] = "  verbose: also says when a move was fine. off: silent."
  return table.concat(more, "\n")
end

--- Puts the coach at a table being built: its commands (hint, coach,
-- explain, and the game's words in why) in that session's set, and its
-- observer of every move.
function M.install(T)
  local base = T.commands.find("why")
  if base then T.commands.add(why_of(base)) end
  T.commands.add(HINT)
  T.commands.add(COACH)
  T.commands.add(EXPLAIN)
  T:observe(observer)
end

return M
