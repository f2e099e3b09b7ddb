-- The table's commands. Each entry: name, aliases, usage, help (one
-- line), examples, optionally listed(session) (false: 'help' leaves it
-- out of its list at that session's game), and run(session, rest) where
-- rest is the text after the command word.
--
-- This module defines the generic commands (M.list, M.by_name: every
-- game's, read by all, changed by none). A session's commands are its own
-- set (M.new_set), made when the session is made: the generic commands,
-- the game's own (its module's `commands`) and what the extensions and
-- the user's file ($XDG_CONFIG_HOME/diloti/table.lua) add to that set
-- alone (docs/table.md). Nothing registers itself at require.
local diloti = require "diloti"
local room = require "diloti.room"
local ai = require "diloti.ai.player"
local ai_cli = require "diloti.ai.cli"
local record = require "diloti.match.record"
local rulebook = require "diloti.table.rulebook"
local screen = require "diloti.table.screen"
local games = require "diloti.table.games"

local M = { list = {}, by_name = {} }

local function check_entry(c)
  assert(type(c) == "table" and type(c.name) == "string" and type(c.run) == "function",
    "commands.add needs a table with a name and a run function")
  c.help = c.help or ""
  c.usage = c.usage or c.name -- (help lists and explains every command)
  assert(c.listed == nil or type(c.listed) == "function", "a command's listed must be a function")
  return c
end

-- Puts a command in a list and its names (aliases too) in by_name; one
-- of the same name is replaced where it stands.
local function put(list, by_name, c)
  local at
  for i, x in ipairs(list) do if x.name == c.name then at = i break end end
  if at then list[at] = c else list[#list + 1] = c end
  by_name[c.name] = c
  for _, a in ipairs(c.aliases or {}) do by_name[a] = c end
end

-- The generic commands, defined once below.
local function generic(c)
  put(M.list, M.by_name, check_entry(c))
  return c
end

--- A generic command by its name or alias.
function M.find(word)
  if not word then return nil end
  return M.by_name[word:lower()]
end

-- Edit distance with adjacent swaps ("hnit" is one step from "hint").
local function distance(a, b)
  local d = {}
  for i = 0, #a do d[i] = { [0] = i } end
  for j = 0, #b do d[0][j] = j end
  for i = 1, #a do
    for j = 1, #b do
      local cost = a:byte(i) == b:byte(j) and 0 or 1
      local v = math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if i > 1 and j > 1 and a:byte(i) == b:byte(j - 1) and a:byte(i - 1) == b:byte(j) then
        v = math.min(v, d[i - 2][j - 2] + 1)
      end
      d[i][j] = v
    end
  end
  return d[#a][#b]
end

-- The command a mistyped word most likely meant (its name), or nil: one
-- a word of up to five letters is a step away from, two steps for longer
-- words, or the only command the word begins.
local function nearest(by_name, word)
  word = word:lower()
  if #word > 20 then return nil end
  local best, best_d, prefixed = nil, math.huge, {}
  for name, c in pairs(by_name) do
    if #name >= 2 then
      local d = distance(word, name)
      if d < best_d or (d == best_d and best and c.name < best) then best, best_d = c.name, d end
      if #word >= 3 and name:sub(1, #word) == word then prefixed[c.name] = true end
    end
  end
  if best_d <= (#word <= 5 and 1 or 2) then return best end
  local only = next(prefixed)
  if only and next(prefixed, only) == nil then return only end
  return nil
end

--- The generic command a mistyped word most likely meant, or nil.
function M.nearest(word) return nearest(M.by_name, word) end

--- A session's own command set: the generic commands, then the game's
-- own (use_game), then those added (add: the extensions', the user's),
-- each replacing one of the same name where it stands. A word the
-- game's moves begin with is never a command of the set. Its functions
-- are called with a dot (set.add{...}, as a user's table.lua does) or a
-- colon alike: add(c) -> c, find(word), nearest(word), use_game(gm);
-- list and by_name are what they were after the last change.
function M.new_set()
  local set = { list = {}, by_name = {} }
  local gm, added = nil, {}
  local function rebuild()
    local list, by_name = {}, {}
    for _, c in ipairs(M.list) do put(list, by_name, c) end
    for _, c in ipairs(gm and gm.commands or {}) do put(list, by_name, check_entry(c)) end
    for _, c in ipairs(added) do put(list, by_name, c) end
    local words = gm and gm.move_word or {}
    for name in pairs(by_name) do if words[name] then by_name[name] = nil end end
    for i = #list, 1, -1 do if words[list[i].name] then table.remove(list, i) end end
    set.list, set.by_name = list, by_name
  end
  -- (set.f(x) and set:f(x) alike)
  local function arg(a, b) if a == set then return b end return a end
  function set.add(a, b)
    local c = check_entry(arg(a, b))
    for i, x in ipairs(added) do if x.name == c.name then table.remove(added, i) break end end
    added[#added + 1] = c
    rebuild()
    return c
  end
  function set.find(a, b)
    local word = arg(a, b)
    if type(word) ~= "string" then return nil end
    return set.by_name[word:lower()]
  end
  function set.nearest(a, b) return nearest(set.by_name, arg(a, b)) end
  function set.use_game(a, b)
    gm = arg(a, b)
    rebuild()
  end
  rebuild()
  return set
end

local function words(s)
  local out = {}
  for w in s:gmatch("%S+") do out[#out + 1] = w end
  return out
end

-- ---------------------------------------------------------------------

generic {
  name = "help", aliases = { "?", "h" }, usage = "help [COMMAND]",
  help = "what you can type here",
  run = function(T, rest)
    if rest ~= "" then
      local c = T.commands.find(rest)
      if not c then return T:complain("no command '" .. rest .. "'; type 'help' for the list") end
      T:print(c.usage .. "\n  " .. c.help)
      -- (more and examples may be asked of the registry when shown)
      local more, examples = c.more, c.examples
      if type(more) == "function" then more = more(T) end
      if type(examples) == "function" then examples = examples(T) end
      if more then T:print(more) end
      for _, e in ipairs(examples or {}) do T:print("  e.g. " .. e) end
      return
    end
    T:print("Type a move when it is your turn:")
    T:print(screen.deflist(T.style, T.gm.help_moves))
    -- (each game says how its refusals cite its rules: its table part's refusal_help)
    T:print(screen.fit(T.style, T.gm.refusal_help or "A refused move says why, naming the rule it breaks."))
    T:print("Commands:")
    local rows = {}
    -- (a user's command may bring text with controls: cleaned before it
    -- is measured, so that the columns are those shown)
    for _, c in ipairs(T.commands.list) do
      if not c.listed or c.listed(T) then
        rows[#rows + 1] = { screen.safe(T.style, c.usage), screen.safe(T.style, c.help) }
      end
    end
    T:print(screen.deflist(T.style, rows))
    T:print(screen.fit(T.style, "Lua, with the game as 'g': '=EXPR' prints a value (e.g. =#g:moves()), "
      .. "'lua CODE' runs a chunk, 'lua' alone switches to Lua mode (a line holding only '.' comes back "
      .. "to the table)."))
  end,
}

-- A computer is to act (Ctrl-C stopped it): its legal moves, and the
-- engine's answer to a move checked for it ("you do not hold 7c"), would
-- show its cards to the people at the table (a hand is its seat's own).
local function computers_turn(T)
  local seat = T.g:turn()
  return seat ~= nil and T.humans > 0 and not T:is_human(seat)
end

local NOT_YOURS = "It is not your turn: %s is to act (type 'go' to let it carry on)."

generic {
  name = "moves", aliases = { "m" }, usage = "moves",
  help = "the legal moves, numbered (type a number to play one)",
  run = function(T)
    if computers_turn(T) then return T:complain(NOT_YOURS:format(T.names[T.g:turn()])) end
    local list, cut = T.g:moves()
    if #list == 0 then return T:print("No moves: the " .. T.g:phase():gsub("-", " ") .. ".") end
    T:print(T.gm.moves(T.style, list))
    if cut then
      local n, exact = T.g:count()
      T:print(screen.fit(T.style, string.format("(%s%d legal moves in all: %s.)", exact and "" or "more than ",
        n, cut)))
    end
  end,
}

generic {
  -- (no alias 'show': a game's move word is never a command's)
  name = "board", aliases = { "b" }, usage = "board",
  help = "draw the table again",
  run = function(T) T:show() end,
}

generic {
  name = "go", aliases = { "continue" }, usage = "go",
  help = "let the computer players carry on after Ctrl-C",
  run = function(T)
    T.paused = false
    T:advance()
    T:show()
  end,
}

local function check(T, rest)
  if rest == "" then return T:complain("Which move? e.g. 'why 8h x 3c 5s'") end
  if not T.g:turn() then return T:complain("Nobody is to move: the " .. T.g:phase():gsub("-", " ") .. ".") end
  if computers_turn(T) then return T:complain(NOT_YOURS:format(T.names[T.g:turn()])) end
  local r = T.gm.resolve(T.g, rest)
  if r.candidates then
    T:print("That fits several legal moves:")
    for _, m in ipairs(r.candidates) do
      local _, what = T.g:check(m)
      T:printf("  %-24s %s", m, T:words(what))
    end
  elseif r.error then
    T:print("Not allowed: " .. T:words(rulebook.rule_first(r.error)))
  else
    local _, what = T.g:check(r.move)
    T:print("Legal: " .. T:words(r.move .. ": " .. what))
  end
end

generic {
  name = "why", aliases = { "check" }, usage = "why MOVE",
  help = "is this move allowed, and what would it do (nothing is played)",
  examples = { "why 7h lay", "check Jc lay" },
  run = check,
}

-- With several people at the keyboard, undo belongs to the asker: find
-- the asker's own last move, with nothing another person played after it.
-- Returns how many moves to take back and the asker's move, or nil and
-- why not.
local function undo_depth(T, asker)
  local hist = T.g:history()
  for i = #hist, 1, -1 do
    local h = hist[i]
    if h.kind ~= "next-round" and T:is_human(h.seat) then
      if h.seat == asker then return #hist - i + 1, h end
      return nil, string.format("%s has played since your last move, and undo takes back only your own "
        .. "moves (%s can undo theirs on their turn).", T.names[h.seat], T.names[h.seat])
    end
  end
  return nil, "Nothing of yours to undo."
end

--- May this seat take its last move back now?
function M.can_undo(T, seat)
  return T.practice and seat ~= nil and undo_depth(T, seat) ~= nil
end

--- Takes back moves: a person's last move and the computer's answers;
-- with several people at the keyboard, only the asker's own last move,
-- when nobody else has played since. asker: the seat asking (by default
-- the person to move).
function M.undo(T, asker)
  if not T.practice then return T:complain("No undo in this game (it was started with practice=off).") end
  local g = T.g
  local hist = g:history()
  local undone, mine = 0, nil
  if T.humans > 1 then
    local n, last = undo_depth(T, asker or T:human_to_move() or T.viewer)
    if not n then return T:complain(last) end
    for _ = 1, n do
      if not T.room:undo() then break end
      undone = undone + 1
    end
    mine = last
  else
    -- Back to the last time a person was to move, before their move.
    repeat
      local last = hist[#hist - undone]
      if not last then break end
      if not T.room:undo() then break end
      undone = undone + 1
    until last.kind ~= "next-round" and T:is_human(last.seat)
  end
  if undone == 0 then return T:complain("Nothing to undo.") end
  for _ = 1, undone do if #T.log > 0 then table.remove(T.log) end end
  if mine then
    T.recent = { string.format("Undone: your move %s%s.", mine.move,
      undone > 1 and string.format(" and the %d after it", undone - 1) or "") }
  else
    T.recent = { string.format("Undone: %d move%s.", undone, undone == 1 and "" or "s") }
  end
  T.paused = false
  T:show()
end

generic {
  name = "undo", aliases = { "u" }, usage = "undo",
  help = "take back your last move and the computer's answers (practice games)",
  more = "  With several people at the keyboard, only your own last move: type 'undo' when asked to pass\n"
    .. "  the keyboard, before the next person has played.",
  run = function(T) M.undo(T) end,
}

generic {
  name = "score", usage = "score",
  help = "the match score, and what each side has earned so far this round",
  run = function(T)
    local v = T.g:view(T.viewer)
    T:printf("Match: %s (target %d)", T:score_line(v), T:rules().target or 0)
    T:print(T.gm.round_so_far(T.style, v, T.names, { rules = T:rules(), history = T.g:history() }))
  end,
}

generic {
  name = "log", usage = "log [N]",
  help = "the game so far, in words (the last N moves)",
  run = function(T, rest)
    local n = tonumber(rest) or #T.log
    if #T.log == 0 then return T:print("No moves yet.") end
    local round
    for i = math.max(1, #T.log - n + 1), #T.log do
      local e = T.log[i]
      if e.round ~= round then
        T:printf("Round %d", e.round)
        round = e.round
      end
      T:printf("%4d. %s", i, e.text)
    end
  end,
}

-- `rules reload`: the house-rule folders read again, and what changed
-- since the last look. (`new` and `rules` notice changed folders by
-- themselves; this says what changed, and what was refused.)
local function reload_rules(T)
  local changes, cat = diloti.variants.reload(T.rules_dirs)
  local said = {}
  for _, k in ipairs{ { "added", "new" }, { "changed", "changed" }, { "removed", "removed" } } do
    local l = changes[k[1]]
    if #l > 0 then said[#said + 1] = k[2] .. ": " .. table.concat(l, ", ") end
  end
  T:print("House rules read again: " .. (#said > 0 and table.concat(said, "; ") or "nothing changed") .. ".")
  for _, e in ipairs(cat.errors) do T:print("  refused: " .. e.message) end
  if #said > 0 then T:print("They apply from the next 'new'; this game keeps the rules it began with.") end
end

generic {
  name = "rules", usage = "rules [VARIANT|ID|reload]",
  help = "the variants, one explained, a rule by its id (rules D19), or 'rules reload'",
  more = function()
    return "  A rule id is what a refusal cites: " .. rulebook.ids_help()
      .. "; in any case. All of them: " .. rulebook.DOC .. "\n"
      .. "  'rules reload' reads the house-rule folders again: what was added, changed,\n"
      .. "  removed or refused since the last look ('new' looks again by itself too)."
  end,
  examples = { "rules", "rules soy", "rules D19", "rules v-soy", "rules reload" },
  run = function(T, rest)
    if rest == "reload" then return reload_rules(T) end
    if rulebook.is_id(rest) then
      local e = rulebook.find(rest)
      if not e then return T:complain(rulebook.unknown(rest)) end
      for _, l in ipairs(rulebook.lines(e)) do T:print(l) end
      return
    end
    local cat = diloti.variants.catalogue(T.rules_dirs)
    -- (each game lists its own house rules, by the names its specs
    -- write after the base)
    local mine, short = {}, {}
    for _, n in ipairs(cat.names) do
      local v = cat.found[n]
      if diloti.variants.game_of(v) == T.gm.name then
        local sn = diloti.variants.short_name(v)
        mine[#mine + 1], short[sn] = sn, n
      end
    end
    local base = T.gm.name
    if rest == "" and #mine == 0 then
      T:printf("Playing: %s (the game has no house rules).", T.opts.rules or T.gm.name)
      if T.gm.rules_help then T:print(screen.fit(T.style, T.gm.rules_help)) end
      return
    end
    if rest == "" then
      T:printf("Playing: %s. Variants you can add with 'new rules=%s+NAME':", T.opts.rules or T.gm.name,
        base)
      local rows = {}
      for i, n in ipairs(mine) do rows[i] = { n, screen.safe(T.style, cat.found[short[n]].description) } end
      T:print(screen.deflist(T.style, rows))
      if T.gm.rules_help then T:print(screen.fit(T.style, T.gm.rules_help)) end
      return
    end
    local v = cat.found[short[rest] or rest]
    if not v then
      return T:complain("No variant '" .. rest .. "'. Known: " .. table.concat(mine, ", ")
        .. (T.gm.rule_id_example and (". A rule id such as " .. T.gm.rule_id_example .. " shows that rule.") or "."))
    end
    T:print(v.name .. (v.rule and ("  (" .. v.rule .. ")") or "") .. ": " .. v.description)
    if v.help then T:print(v.help) end
    if v.rule and rulebook.find(v.rule) then T:print("The rule itself: 'rules " .. v.rule .. "'.") end
  end,
}

local NEW_KEYS = {
  game = "string", players = "number", ai = "string", partner = "string", humans = "number", rules = "string",
  seed = "number", target = "number", practice = "boolean", dealer = "number",
}

local SWITCH = { on = true, yes = true, ["true"] = true, off = false, no = false, ["false"] = false }

-- One key=value of 'new' into o; nil and a message when it is wrong.
local function new_option(o, k, v)
  local seat = k:match("^seat(%d)$")
  if seat then
    o.seats = o.seats or {}
    o.seats[tonumber(seat)] = v
    return true
  end
  local t = NEW_KEYS[k]
  if not t then return nil, string.format("unknown option '%s'; options: %s", k, M.new_keys()) end
  if t == "number" then
    o[k] = math.tointeger(tonumber(v))
    if not o[k] then return nil, string.format("%s=%s: a whole number is needed", k, v) end
  elseif t == "boolean" then
    if SWITCH[v] == nil then return nil, string.format("%s=%s: on or off", k, v) end
    o[k] = SWITCH[v]
  else
    o[k] = v
  end
  return true
end

--- Parses 'new' options: "4", "greedy", "players=4 ai=greedy seed=7
-- practice=off seat1=expert".
function M.parse_new(rest)
  local o = {}
  for _, w in ipairs(words(rest)) do
    local k, v = w:match("^([%w_]+)=(.*)$")
    if not k and tonumber(w) then k, v = "players", w end
    if not k and ((ai.catalogue())[w] or ai.is_level(w)) then k, v = "ai", w end
    if not k then return nil, string.format("'%s' is not an option: write key=value (%s)", w, M.new_keys()) end
    local ok, err = new_option(o, k, v)
    if not ok then return nil, err end
  end
  return o
end

function M.new_keys()
  local ks = {}
  for k in pairs(NEW_KEYS) do ks[#ks + 1] = k end
  ks[#ks + 1] = "seatN"
  table.sort(ks)
  return table.concat(ks, ", ")
end

generic {
  name = "new", aliases = { "n" }, usage = "new [OPTIONS]",
  help = "a new game (e.g. 'new 4', 'new ai=greedy', 'new rules=SPEC', 'new game=NAME')",
  more = function()
    return "  options: game=" .. table.concat(games.names(), "|")
      .. " players=N ai=NAME (opponents) partner=NAME humans=N rules=SPEC\n"
      .. "           seed=N target=N dealer=N practice=on|off seatN=NAME|human (one seat)\n"
      .. "  With 4 players you sit with an AI partner opposite; humans=2 or more share the keyboard.\n"
      .. "  Options not given are kept from the current game (seed and dealer are new)."
  end,
  examples = function()
    local out = { "new", "new 4", "new ai=master target=121" }
    for _, name in ipairs(games.names()) do
      for _, e in ipairs(games.get(name).new_examples or {}) do out[#out + 1] = e end
    end
    return out
  end,
  run = function(T, rest)
    local o, err = M.parse_new(rest)
    if not o then return T:complain(err) end
    -- (another game brings its own rules, and AIs that play it)
    local other_game = o.game and o.game ~= T.opts.game or o.rules and games.name_of(nil, o.rules) ~= T.opts.game
    for _, k in ipairs { "players", "ai", "partner", "humans", "rules", "target", "practice", "seats", "game" } do
      local kept = not (other_game and (k == "rules" or k == "ai" or k == "partner" or k == "seats" or k == "game"
        or k == "target" or k == "players"))
      if o[k] == nil and kept then o[k] = T.opts[k] end
    end
    if o.rules and o.rules ~= T.opts.rules and o.players == T.opts.players and not rest:match("players=") then
      o.players = nil -- a new base game brings its own number of players
    end
    if not T:may_discard("start a new game") then return end
    local ok, nerr = T:new_game(o)
    if not ok then return T:complain("No new game: " .. nerr) end
    T:print("New game: " .. T:describe_game() .. ".")
    T:advance()
    T:show()
  end,
}

generic {
  name = "ai", usage = "ai [NAME]",
  help = "the computer players, or one explained",
  run = function(T, rest)
    local game = T.gm.name
    local found, names = ai.catalogue(T.ai_dirs, game)
    if rest == "" then
      local rows = ai_cli.list_rows(found, names, ai.game_of{ game = game })
      for _, r in ipairs(rows) do r[2] = screen.safe(T.style, r[2]) end
      T:print(screen.deflist(T.style, rows))
      T:print("Play against one with 'new ai=NAME'.")
      return
    end
    local info = found[ai.real_name(rest, ai.game_of{ game = game })]
    if not info then return T:complain("No AI '" .. rest .. "'. Known: " .. table.concat(names, ", ")) end
    T:print(info.name .. ": " .. info.description)
    if info.help then T:print(info.help) end
  end,
}

-- ---------------------------------------------------------------------
-- Saving, loading, replaying

-- What a record says of the game besides its moves: the room's (its
-- seats, each AI by its name) and whether undo was allowed.
local function meta_of(T)
  return T.room:meta { practice = T.practice and "on" or "off" }
end
M.meta_of = meta_of

local function path_arg(T, rest, what)
  if rest == "" then
    T:complain(string.format("Which file? e.g. '%s mygame.dlt'", what))
    return nil
  end
  return (rest:gsub("^~/", (T.getenv("HOME") or "~") .. "/"))
end

generic {
  name = "save", usage = "save FILE",
  help = "save the game (rules, seed, every move) to a readable file",
  run = function(T, rest)
    local path = path_arg(T, rest, "save")
    if not path then return end
    local ok, err = T.room:save(path, { practice = T.practice and "on" or "off" })
    if not ok then return T:complain("Not saved: " .. err) end
    T.saved = true
    T:print("Saved to " .. path .. ".")
  end,
}

local specs_of = room.specs_of

generic {
  name = "load", usage = "load FILE",
  help = "go on with a saved game",
  run = function(T, rest)
    local path = path_arg(T, rest, "load")
    if not path then return end
    local g, rec = record.load(path, { rules_dirs = T.rules_dirs })
    if not g then return T:complain("Not loaded (your game is unchanged): " .. rec) end
    if not T:may_discard("load " .. screen.safe(nil, path)) then return end
    -- (the room seats the loaded game itself)
    local opts = room.options_of(g, rec)
    opts.practice = not (rec.extra and rec.extra.practice == "off")
    local ok, err = T:new_game(opts)
    if not ok then return T:complain("Not loaded (your game is unchanged): " .. err) end
    T.saved = true
    T:print(string.format("Loaded %s: %d moves.", path, #rec.moves))
    T:advance()
    T:show()
  end,
}

-- All hands face up, for replays.
local function replay_show(T, st, names, gm)
  local g = st:game()
  local at, total = st:at(), st:total()
  local seat = g:turn() or 0
  T:print(gm.board(T.style, g:view(seat), { names = names, rules = g:rules() }))
  T:print("Hands:\n" .. gm.open_hands(T.style, g, names))
  if at > 0 then T:printf("Move %d of %d was: %s", at, total, st:move(at)) end
  T:printf("[%d/%d] Enter or 'n': next; 'b': back; 'goto N'; 'q': leave the replay.", at, total)
end

generic {
  name = "replay", usage = "replay FILE",
  help = "step through a saved game with every hand shown",
  run = function(T, rest)
    local path = path_arg(T, rest, "replay")
    if not path then return end
    local st, err = record.replay(path, { rules_dirs = T.rules_dirs })
    if not st then return T:complain("Cannot replay: " .. err) end
    -- The recorded game's players, not the ones at the table now.
    local players = st:game():rules().players
    local names = T.seat_names(specs_of(st:record(), players), players)
    local rec = st:record()
    local gm = games.get(games.name_of(rec.game, rec.rules) or games.default_name())
    replay_show(T, st, names, gm)
    while true do
      local line = T.read("replay> ")
      if line == nil or line == false then break end
      local w, arg = line:match("^%s*(%S*)%s*(.-)%s*$")
      if w == "q" or w == "quit" then break
      elseif w == "" or w == "n" or w == "next" then
        if not st:step() then T:print("(the end)") end
      elseif w == "b" or w == "back" then
        if not st:back() then T:print("(the start)") end
      elseif w == "goto" and tonumber(arg) then
        local ok, gerr = st:seek(math.tointeger(tonumber(arg)) or -1)
        if not ok then T:complain(gerr or "no such move") end
      else
        T:print("In a replay: Enter or 'n' (next), 'b' (back), 'goto N', 'q' (leave).")
      end
      replay_show(T, st, names, gm)
    end
    T:print("Back at your game.")
  end,
}

generic {
  name = "quit", aliases = { "exit", "q" }, usage = "quit",
  help = "leave the table (offers to save an unfinished game)",
  run = function(T) T:leave() end,
}

generic {
  name = "lua", usage = "lua [CODE]",
  help = "run Lua with the game as g ('=EXPR' prints a value); alone: Lua mode until '.'",
  examples = { "=g:view(0).pack_count", "lua for _, m in ipairs(g:moves()) do print(m) end", "lua" },
  run = function(T, rest)
    if rest ~= "" then return T:run_lua(rest) end
    T.lua_mode = true
    T:print("Lua mode: each line runs as Lua, with the game as g. A line holding only '.' comes back.")
  end,
}

generic {
  name = "declare", usage = "declare VALUE",
  help = "make the declaration of that value, when only one is legal (G8 for a group)",
  examples = { "declare 8", "declare G8" },
  -- (a game without declarations by value leaves it out of the list;
  -- typed there, it says what that game does instead)
  listed = function(T) return T.gm.declare ~= nil end,
  run = function(T, rest)
    if not T.gm.declare then
      return T:complain(string.format("%s has no 'declare': %s", T.gm.title, T.gm.declare_instead or ""))
    end
    if not T:human_to_move() then return T:complain("It is not your turn.") end
    local r = T.gm.declare(T.g, rest)
    if r.move then return T:try_move(r.move, true) end
    if r.candidates then
      T:print("Several declarations make that; type one of them (or its number in 'moves'):")
      for _, m in ipairs(r.candidates) do T:print("  " .. m) end
      return
    end
    T:complain("Refused: " .. r.error)
  end,
}

generic {
  name = "play", aliases = { "p" }, usage = "play MOVE",
  help = "play a move (the same as typing the move itself)",
  examples = { "play 8h x 3c 5s", "play 4" },
  run = function(T, rest)
    if rest == "" then return T:complain("Which move? e.g. 'play 8h x 3c 5s', or a number from 'moves'") end
    T:try_move(rest, true)
  end,
}

return M
