-- AI players. An AI is a Lua script returning a table:
--   name, description       required; name matches the file name
--   choose(view, moves, ctx) -> a move (its text, its number in moves, or
--                            a moves_info entry) [, a note for the user]
--   on_event(event, ctx)     optional: every public move, round starts
--   on_round_end(result, ctx) optional: the scores of a finished round
--   help, author             optional text
--   strength                 optional: a line on how strong it is (`diloti ai`)
--   game                     optional: the game it plays (a package's name;
--                            the default game when left out), or "any"
--
-- Scripts come from the program (lua/games/NAME/ai/, compiled in), then
-- from the user's folder ($XDG_CONFIG_HOME/diloti/ai) and any --ai-dir,
-- each folder's own scripts before those of its game subfolders (NAME/).
-- Names are per game: one game's `cautious` is not another's. In
-- a game, a name stands for the last script read of that name that plays
-- the game (its own or "any"), so a later folder replaces an earlier
-- one's script for the games it plays. Every player is a
-- fresh load of its script into a Lua state of its own (a box: no
-- io/os/debug/load, text only, plain data in and out), so two players
-- never share state and no player reaches the host, and every call into
-- it runs under an instruction budget, a memory cap and a time limit. A
-- call that fails loses that decision only: a fallback move is played and
-- the caller is told why; a script stopped by a limit is loaded afresh.
-- See docs/ai.md and docs/security.md.
local core = require "diloti.core"
local catalogue = require "diloti.scripts.catalogue"
local textfile = require "diloti.scripts.textfile"
local untrusted = require "diloti.scripts.untrusted"
local context = require "diloti.ai.ctx"
local registry = require "diloti.registry"

local M = {}

--- What an AI's name is made of (a record names AIs this way too).
M.NAME = "^[%w][%w%-_]*$"

-- The ai part of a game's package (the default game's for nil or an
-- unknown name).
local function game_ai(game)
  return registry.part(game and registry.get(game) or registry.default(), "ai") or {}
end

-- Per game, from each package's ai part (when first read):
-- LADDERS: the shipped AIs from the weakest to the strongest, as measured
-- (docs/ai.md §10 and §11); LEVELS: levels of play for people, the AI
-- each stands for. LADDER: the default game's ladder.
local function per_game(field)
  local out = {}
  for _, pkg in ipairs(registry.list()) do out[pkg.name] = (registry.part(pkg, "ai") or {})[field] end
  return out
end
setmetatable(M, { __index = function(_, k)
  if k == "LADDERS" then return per_game("LADDER") end
  if k == "LEVELS" then return per_game("LEVELS") end
  if k == "LADDER" then return game_ai(nil).LADDER end
  if k == "GAMES" then return registry.names() end
end })
M.LEVEL_ORDER = { "easy", "normal", "hard", "expert" }

--- The AI a name or a level stands for in a game (nil: the default game).
-- (a game whose AIs are all players of its ai part may have no levels)
function M.real_name(name, game)
  local levels = game_ai(game).LEVELS
  return levels and levels[name] or name
end

--- Whether a word is a level of play.
function M.is_level(word)
  local levels = game_ai(nil).LEVELS
  return levels ~= nil and levels[word] ~= nil
end

M.defaults = {
  time = 5,                -- seconds per decision (master searches ~1 s)
  budget = 50000000,       -- VM instructions per decision
  memory = 32 * 1024 * 1024, -- bytes the script's state may hold
}
local LOAD = { budget = 2000000, time = 2 }
local HOOK_FAILURES = 3    -- a hook that fails this often in a row is turned off
local KEYS = {
  name = "string", description = "string", help = "string", author = "string", game = "string",
  strength = "string",
  choose = "function", on_event = "function", on_round_end = "function",
}
local HOOKS = { "on_event", "on_round_end" }

-- The games an AI may name in its `game` field (M.GAMES, the registry's
-- names); "any" plays them all (it must then read only what every game's
-- view and moves share).
local function game_ok(game)
  local pkg = registry.get(game)
  return game == "any" or (pkg ~= nil and pkg.name == game)
end

--- The game a rules table belongs to (a base's name is its game's).
M.game_of = context.game_of

--- Whether an AI whose script names `game` (nil: the default game) plays `want`.
function M.plays(game, want)
  local default = registry.default().name
  game = game or default
  return game == "any" or game == (want or default)
end

-- ---- small helpers --------------------------------------------------

local first_line, with_file = textfile.first_line, textfile.with_file

-- A short, printable excerpt of something a script returned.
local function excerpt(s)
  s = s:gsub("%s", " ")
  if #s > 40 then s = s:sub(1, 37) .. "..." end
  return core.clean(s) -- (a cut character included)
end


--- The user's AI folder ($XDG_CONFIG_HOME/diloti/ai), or nil.
function M.user_dir() return catalogue.user_dir("ai") end

-- ---- loading scripts ----------------------------------------------------

local function check(t, file, sub)
  if type(t) ~= "table" then return nil, "the script must return a table" end
  local s = {}
  local k, v = next(t)
  while k ~= nil do
    if type(k) == "string" then
      local want = KEYS[k]
      if want then
        if type(v) ~= want then return nil, string.format("field '%s' must be a %s", k, want) end
        s[k] = v
      elseif k:match("^on_") then
        return nil, string.format("unknown hook '%s' (on_event, on_round_end)", k)
      end
    end
    k, v = next(t, k)
  end
  if not s.name or not s.name:match(M.NAME) then
    return nil, "needs a name made of letters, digits, '-' and '_'"
  end
  local stem = file:match("([^/]+)%.lua$")
  if stem and stem ~= s.name then
    return nil, string.format("name '%s' does not match the file name '%s.lua'", s.name, stem)
  end
  if not s.description or s.description == "" or s.description:find("\n") then
    return nil, "needs a one-line description"
  end
  if not s.choose then return nil, "needs a choose(view, moves, ctx) function" end
  if s.game and not game_ok(s.game) then
    local names = {}
    for i, n in ipairs(registry.names()) do names[i] = "'" .. n .. "'" end
    return nil, string.format("field 'game' must be %s or 'any', not '%s' (no such game)",
      table.concat(names, ", "), excerpt(s.game))
  end
  -- (a game's subfolder holds that game's AIs, or those of any game: the
  -- field may be left out)
  if sub and s.game ~= "any" and (s.game or sub) ~= sub then
    return nil, string.format("it plays %s, but lies in the folder of %s's AIs ('%s/')", s.game, sub, sub)
  end
  return s
end

-- The text run in each AI's box before its script: every game's helpers
-- (each package's ai_box file: lua/registry.lua), each run as a function
-- of its own, then the generic driver over them (lua/ai/box_helpers.lua),
-- whose answer (decide, notify, bind) the box answers with. (No require
-- in a box: the files are joined into one text.)
local function box_helpers()
  local out = { "local GAMES = {}\n" }
  for _, pkg in ipairs(registry.list()) do
    local b = pkg.ai_box
    if b then
      local dir = b.file:match("^(.*/)") or ""
      local text = pkg.dir and textfile.read(pkg.dir .. "/" .. b.file:match("([^/]+)$"), textfile.MAX_SCRIPT)
        or core.embedded(dir)[b.file]
      if not text then error(string.format("game %s: no ai_box file %s", pkg.name, b.file)) end
      out[#out + 1] = string.format("GAMES[#GAMES + 1] = { name = %q, helpers = (function()\n%s\nend)() }\n",
        pkg.name, text)
    end
  end
  local driver = core.embedded("lua/ai/")["lua/ai/box_helpers.lua"]
  out[#out + 1] = string.format("return (function()\n%s\nend)().new(GAMES, %q)\n", driver, registry.default().name)
  return table.concat(out)
end

-- The box natives of each game ({name = core.natives(name)}): the box's
-- own copies of the engine's answers that its helpers call.
local all_natives
local function natives()
  if not all_natives then
    all_natives = {}
    for _, name in ipairs(core.games()) do all_natives[name] = core.natives(name) end
  end
  return all_natives
end

-- Loads a script into a box of its own, after the ctx helpers
-- (box_helpers). Returns the checked table (its functions are stubs
-- calling into the box), the box and the helpers; or nil, message naming
-- the file. opts: memory, budget, time (each later call), seed; facts
-- (a listing: no helpers, the script will not be called).
local helpers_src
local function load_script(src, file, opts, sub)
  opts = opts or {}
  if not helpers_src then helpers_src = box_helpers() end
  local box, t, helpers = untrusted.load(src, file, {
    label = "its main chunk", memory = opts.memory or M.defaults.memory, load = LOAD, seed = opts.seed,
    budget = opts.budget or M.defaults.budget, time = opts.time or M.defaults.time,
    prelude = not opts.facts and helpers_src or nil, prelude_name = "=ai helpers", pool = opts.pool,
  })
  if not box then return nil, t end
  -- The box's own copies of the engine's answers (no crossing per call).
  if helpers then helpers.bind(natives(), context.box_natives()) end
  local s, why = check(t, file, sub)
  if not s then
    box:close()
    return nil, file .. ": " .. untrusted.said(why)
  end
  s.game = s.game or sub
  s.description = untrusted.line(s.description)
  for _, k in ipairs { "author", "strength" } do
    if s[k] then s[k] = untrusted.line(s[k]) end
  end
  if s.help then s.help = untrusted.help(s.help) end
  return s, box, helpers
end

local read = textfile.read

local SOURCES = setmetatable({}, { __mode = "k" })

-- Facts about a loaded script, for lists and for players. seq: the order
-- scripts were read in (a later one replaces an earlier in its games).
local seq = 0
local function info_of(s, file, builtin)
  local hooks = {}
  for _, h in ipairs(HOOKS) do if s[h] then hooks[#hooks + 1] = h end end
  seq = seq + 1
  return {
    name = s.name, description = s.description, help = s.help, author = s.author, strength = s.strength,
    file = file, builtin = builtin, hooks = hooks, game = s.game or registry.default().name, seq = seq,
  }
end

-- One script of the catalogue: its facts (the box is closed: a listing
-- keeps only these and the source), under the key game:name.
local function list_one(src, file, builtin, sub)
  local s, box_or_err = load_script(src, file, { facts = true }, sub)
  if not s then return nil, box_or_err end
  box_or_err:close()
  local info = info_of(s, file, builtin)
  SOURCES[info] = src
  return info, info.game .. ":" .. s.name
end

-- The catalogue of one game from every script read ({game:name = info}):
-- {name = info} and the sorted names. game nil: every name, as the
-- default game's catalogue has it, else as the first other game's that has it.
local VIEWS = setmetatable({}, { __mode = "k" })
local function view_of(raw, game)
  local kept = VIEWS[raw]
  if not kept then
    kept = {}
    VIEWS[raw] = kept
  end
  local key = game or ""
  if kept[key] then return kept[key].found, kept[key].names end
  local found = {}
  if game then
    for _, info in pairs(raw) do
      local had = found[info.name]
      if M.plays(info.game, game) and (not had or info.seq > had.seq) then found[info.name] = info end
    end
  else
    local games = registry.names()
    for k = #games, 1, -1 do
      for name, info in pairs(view_of(raw, games[k])) do found[name] = info end
    end
  end
  local names = {}
  for n in pairs(found) do names[#names + 1] = n end
  table.sort(names)
  kept[key] = { found = found, names = names }
  return found, names
end

--- Every AI of a game (nil: every name; see view_of): returns
-- {name = info}, a sorted list of names, and a list of {file, message}
-- for scripts that were refused. info: name, description, help, author,
-- file, builtin, hooks, game.
function M.load_all(dirs, game)
  game = game and M.game_of{ game = game }
  local raw, _, errors = catalogue.scan("ai", list_one, { dirs = dirs })
  local found, names = view_of(raw, game)
  return found, names, errors
end

--- ai.catalogue(dirs, game) -> as load_all (kept per list of folders;
-- ai.refresh() forgets).
function M.catalogue(dirs, game)
  game = game and M.game_of{ game = game }
  local raw, _, errors = catalogue.cached("ai", list_one, dirs)
  local found, names = view_of(raw, game)
  return found, names, errors
end

--- ai.catalogues(dirs) -> views, errors: the folders read once, and
-- views(game) each game's catalogue from that one reading (as
-- M.catalogue's found and names). A command that lists several games
-- reads each script's main chunk once (a catalogue read again may find a
-- file's stamp changed in between, and read every script again).
function M.catalogues(dirs)
  local raw, _, errors = catalogue.cached("ai", list_one, dirs)
  return function(game) return view_of(raw, game and M.game_of{ game = game }) end, errors
end

M.refresh = catalogue.refresh

-- ---- players ---------------------------------------------------------------

local Player = {}
Player.__index = Player

-- A decision's seed, from the player's seed and where the game stands.
local decision_seed = core.hash

-- What every call's ctx holds (no game needed); the box adds the helpers.
function Player:_static_ctx(seat)
  local ctx = context.static(self._rules, seat)
  ctx.rules = self._rules
  return ctx
end

function Player:_adopt(script, box, helpers)
  self.script, self._box, self._helpers = script, box, helpers
  self._label = nil -- (a new box has none yet)
end

-- True once the player has a script: a script stopped by a limit is
-- loaded again (its main chunk may still fail).
function Player:_live()
  if self.script then return true end
  local script, box, helpers = self._reload()
  if not script then return false, "restarting it failed: " .. box end
  self:_adopt(script, box, helpers)
  return true
end

-- Calls the script's function `what` in its box through the helper
-- `via` (decide or notify): true and what it returned, or false and why.
-- A script a limit stopped may be halfway through changing its own
-- state: it is dropped, and loaded afresh for the next call.
function Player:_call(what, via, seat, seed, ...)
  local labels = self._labels[what]
  if not labels then
    labels = {}
    self._labels[what] = labels
  end
  local label = labels[seat or -1]
  if not label then
    label = string.format("AI '%s'%s (%s)", self.name, seat and (" at seat " .. seat) or "", what)
    labels[seat or -1] = label
  end
  local live, dead = self:_live()
  if not live then return false, dead end
  local fn = self.script[what]
  if not fn then return true end -- (a reloaded script without that hook)
  local box = self._box
  -- (the box keeps its label between calls: set only when it changes)
  if self._label ~= label then
    box:limits{ label = label }
    self._label = label
  end
  if seed then box:seed(seed) end
  -- (a choose answers a move and a note; a hook answers nothing. A front
  -- end that counts what a script costs sets player.meter, a clock: every
  -- call, moves and hooks alike, adds to player.spent)
  local t0 = self.meter and self.meter()
  local ok, a, b = pcall(self._helpers[via], fn, ...)
  if t0 then self.spent = (self.spent or 0) + self.meter() - t0 end
  if not ok and box:broken() then
    box:close()
    -- (its hooks' failures still count: a hook that always hits a limit
    -- is turned off like any other that keeps failing)
    self.script, self._box, self._helpers = nil, nil, nil
    a = a .. "; the script will be loaded afresh"
  end
  return ok, a, b
end

-- Calls the script's choose for seat (a live player): the box keeps the
-- seat's static ctx fields, sent to it only when they change (new rules)
-- or when it has not had them (a new box, or a call that failed).
function Player:_decide(game, seat, seed, texts)
  local fields, host = context.decision(self, game, seat)
  local sent = self._sent
  if not sent or sent.box ~= self._box then
    sent = { box = self._box }
    self._sent = sent
  end
  local new = sent[seat] ~= fields and fields or nil
  local ok, mv, note = self:_call("choose", "decide", seat, seed, seat, texts, host, new)
  sent[seat] = ok and fields or nil
  return ok, mv, note
end

-- The returned move as legal move text, or nil and what is wrong with it.
local function resolve(game, mv, texts)
  local t = type(mv)
  if t == "table" then
    local tx = rawget(mv, "text")
    if type(tx) ~= "string" then return nil, "returned a table that is not a move (no text)" end
    mv, t = tx, "string"
  end
  if math.type(mv) == "integer" then
    if mv >= 1 and mv <= #texts then return texts[mv] end
    return nil, string.format("returned move number %d, but there are %d moves", mv, #texts)
  end
  if t ~= "string" then
    return nil, t == "nil" and "returned no move" or ("returned a " .. t .. ", not a move")
  end
  if #mv > 200 then return nil, "returned a string that is not a move" end
  for i = 1, #texts do if texts[i] == mv then return mv end end
  local ok, m, why = pcall(game.parse, game, mv)
  if not ok or not m then
    return nil, string.format("returned '%s', which is not a legal move (%s)", excerpt(mv),
      first_line(ok and why or m))
  end
  return m.text
end

--- The move played for an AI that failed: the game's own choice (its
-- package's ai part), deterministic and always legal.
-- (a game whose ai part has none: the first legal move)
function M.fallback(infos, rules)
  local part = registry.part(registry.of_rules(rules), "ai")
  if part and part.fallback then return part.fallback(infos, rules) end
  local m = infos and infos[1]
  return type(m) == "table" and m.text or m
end

--- player:choose(game, seat) -> move text, info. info.seconds, and when
-- the AI failed, info.fallback = true and info.warning (why, and what was
-- played instead). info.note: the AI's own comment, if it gave one;
-- info.search: iterations/value/exact of its last ctx.search.
function Player:choose(game, seat)
  local t0 = core.clock()
  local phase, turn, round, deal, ply = game:where()
  if turn == nil then error("player:choose: nobody is to move (" .. phase .. ")", 2) end
  seat = seat or turn
  if seat ~= turn then
    error(string.format("player:choose: seat %d is not to move (%s)", seat,
      turn and ("seat " .. turn .. " is") or phase), 2)
  end
  -- (the rules are asked once per game: they cannot change during one)
  if self._game ~= game then self._game, self._rules = game, game:rules() end
  if self._playing_rules ~= self._rules then
    self._playing_rules, self._playing = self._rules, M.game_of(self._rules)
    self._plays = M.plays(self.game, self._playing)
  end
  local texts = game:moves()
  if #texts == 0 then error(string.format("player:choose: seat %d has no move to make now", seat), 2) end
  local seed = decision_seed(self.seed, seat, round, deal, ply, phase == "claim" and 1 or 0)
  self._search = nil
  local ok, mv, note
  local playing = self._playing
  if self._plays then
    local live, dead = self:_live()
    if live then
      ok, mv, note = self:_decide(game, seat, seed, texts)
    else
      ok, mv = false, dead
    end
  else
    -- (its choose would read a view it does not know: never called)
    ok, mv = false, string.format("it plays %s, not %s", self.game, playing)
  end
  local info = {}
  local text, why
  if ok then
    text, why = resolve(game, mv, texts)
  else
    why = with_file(mv, self.file)
  end
  if not text then
    text = M.fallback(game:moves(true), self._rules)
    info.fallback = true
    info.warning = string.format("AI '%s' (seat %d) lost this decision: %s; played %s instead",
      self.name, seat, why, text)
  end
  if ok and type(note) == "string" then info.note = core.clean((note:sub(1, 200):gsub("[\n\t]", " "))) end
  info.search = self._search
  info.seconds = core.clock() - t0
  return text, info
end

-- Runs a hook; errors are returned, never raised. A hook that keeps
-- failing is turned off.
function Player:_hook(name, arg)
  if self._off[name] or (self.script and not self.script[name]) then return true end
  local seat = self.seat
  local ok, err = self:_call(name, "notify", seat, nil, self:_static_ctx(seat), arg)
  if ok then
    self._failures[name] = 0
    return true
  end
  local n = (self._failures[name] or 0) + 1
  self._failures[name] = n
  local msg = string.format("AI '%s'%s: %s failed: %s", self.name, seat and (" (seat " .. seat .. ")") or "",
    name, with_file(err, self.file))
  if n >= HOOK_FAILURES then
    self._off[name] = true
    msg = msg .. string.format(" (%s turned off after %d failures)", name, n)
  end
  return false, msg
end

--- player:listens(): whether the script hears events (it has an
-- on_event hook, not turned off): the driver asks the game what the
-- seat may hear of a move only for a player that listens.
function Player:listens()
  return not self._off.on_event and not (self.script and not self.script.on_event)
end

--- player:notify(event): forwards a public event to the script's
-- on_event. Returns true, or false and a warning.
function Player:notify(event)
  return self:_hook("on_event", event)
end

--- player:round_end(result): forwards a finished round's result to the
-- script's on_round_end. Returns true, or false and a warning.
function Player:round_end(result)
  return self:_hook("on_round_end", result)
end

local function positive(v, what)
  if v == nil then return true end
  if type(v) ~= "number" or v <= 0 then return nil, what .. " must be a positive number" end
  return true
end

--- ai.player(name or path, opts) -> player | nil, message.
-- opts: seed (integer, default 0), dirs (more AI folders), time (seconds
-- per decision), budget (instructions per decision), memory (bytes per
-- decision), game (the game it will play: a name or a level is that
-- game's, and an AI that plays another game is refused; without it a
-- name is the default game's, else another game's), pool (the
-- core.box.pool its box counts in: its room's; the host's when absent).
function M.player(spec, opts)
  opts = opts or {}
  if type(spec) ~= "string" or spec == "" then return nil, "ai.player: an AI name or a file path expected" end
  local want = opts.game and M.game_of{ game = opts.game }
  spec = M.real_name(spec, want)
  local src, file, err, info
  local path = spec:find("/", 1, true) or spec:match("%.lua$")
  -- A game's own players written in Lua (its ai part's player(name,
  -- opts), trusted code of the game like its rules): asked first; a name
  -- it does not know may still be a script's.
  local own = not path and game_ai(want).player
  local mine, own_why
  if own then
    mine, own_why = own(spec, opts)
    if mine then return mine end
  end
  if path then
    file = spec
    src, err = read(spec, textfile.MAX_SCRIPT)
    if not src then return nil, spec .. ": " .. err end
  else
    local found, names, errors = M.catalogue(opts.dirs, want)
    info = found[spec]
    if not info then
      local refused = catalogue.refusal(errors, spec)
      if refused then return nil, string.format("AI '%s' was refused when loading: %s", spec, refused) end
      local other = want and M.catalogue(opts.dirs)[spec]
      if other then
        return nil, string.format("AI '%s' plays %s, not %s (see 'diloti ai')", spec, other.game, want)
      end
      if own_why then return nil, own_why end
      return nil, string.format("unknown AI '%s'; valid names%s: %s", spec, want and (" in " .. want) or "",
        table.concat(names, ", "))
    end
    src, file = SOURCES[info], info.file
  end
  for _, k in ipairs{ "time", "budget", "memory" } do
    local ok, why = positive(opts[k], k)
    if not ok then return nil, "ai.player: " .. why end
  end
  local seed = opts.seed or 0
  if math.type(seed) ~= "integer" then return nil, "ai.player: seed must be an integer" end
  local budget = math.tointeger(opts.budget or M.defaults.budget)
  local memory = math.tointeger(opts.memory or M.defaults.memory)
  if not budget or not memory then return nil, "ai.player: budget and memory must be whole numbers" end
  local p = setmetatable({
    seed = seed, file = file,
    time = opts.time or M.defaults.time, budget = budget, memory = memory,
    _off = {}, _failures = {}, _labels = {},
  }, Player)
  -- math.random follows the player's seed, never the process's.
  -- (pool: the room's, core.box.pool; its reloads stay in it)
  local how = { memory = memory, budget = budget, time = p.time, seed = decision_seed(seed, -1), pool = opts.pool }
  -- (a script of a game's subfolder may leave its game out: the folder says it)
  local sub = info and info.game ~= "any" and info.game or nil
  local script, box, helpers = load_script(src, file, how, sub)
  if not script then return nil, box end
  p.game = script.game or registry.default().name
  if want and not M.plays(p.game, want) then
    box:close()
    return nil, string.format("AI '%s' plays %s, not %s (see 'diloti ai')", script.name, p.game, want)
  end
  p:_adopt(script, box, helpers)
  p._reload = function() return load_script(src, file, how, sub) end
  p.name, p.description, p.help = script.name, script.description, script.help
  return p
end

return M
