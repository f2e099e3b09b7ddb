-- AI players. An AI is a Lua script returning a table:
--   name, description       required; name matches the file name
--   choose(view, moves, ctx) -> a move (its text, its number in moves, or
--                            a moves_info entry) [, a note for the user]
--   on_event(event, ctx)     optional: every public move, round starts
--   on_round_end(result, ctx) optional: the scores of a finished round
--   help, author             optional text
--
-- Scripts come from the program (lua/ai/, compiled in), then from the
-- user's folder ($XDG_CONFIG_HOME/diloti/ai) and any --ai-dir; a later
-- script of the same name replaces an earlier one. Every player is a
-- fresh load of its script into a Lua state of its own (a box: no
-- io/os/debug/load, text only, plain data in and out), so two players
-- never share state and no player reaches the host, and every call into
-- it runs under an instruction budget, a memory cap and a time limit. A
-- call that fails loses that decision only: a fallback move is played and
-- the caller is told why; a script stopped by a limit is loaded afresh.
-- See docs/ai.md and docs/security.md.
local core = require "diloti.core"
local variants = require "diloti.variants"
local textfile = require "diloti.textfile"
local untrusted = require "diloti.untrusted"

local M = {}

--- What an AI's name is made of (a record names AIs this way too).
M.NAME = "^[%w][%w%-_]*$"

M.defaults = {
  time = 5,                -- seconds per decision (master searches ~1 s)
  budget = 50000000,       -- VM instructions per decision
  memory = 32 * 1024 * 1024, -- bytes the script's state may hold
}
local LOAD = { budget = 2000000, time = 2 }
local HOOK_FAILURES = 3    -- a hook that fails this often in a row is turned off
local KEYS = {
  name = "string", description = "string", help = "string", author = "string",
  choose = "function", on_event = "function", on_round_end = "function",
}
local HOOKS = { "on_event", "on_round_end" }

-- ---- small helpers --------------------------------------------------

local first_line, with_file = textfile.first_line, textfile.with_file

-- A short, printable excerpt of something a script returned.
local function excerpt(s)
  s = s:gsub("%s", " ")
  if #s > 40 then s = s:sub(1, 37) .. "..." end
  return core.clean(s) -- (a cut character included)
end

-- A deep copy of the driver's own tables.
local function copy(t)
  if type(t) ~= "table" then return t end
  local c = {}
  for k, v in pairs(t) do c[k] = copy(v) end
  return c
end

local function user_dir()
  local d = variants.user_dir()
  return d and (d .. "/ai") or nil
end
M.user_dir = user_dir

local help = require "diloti.aihelp"
help.bind{ best_capture = core.best_capture, points = core.points }
M.ranks, M.value, M.rank, M.points = help.ranks, help.value, help.rank, help.points
M.best_capture, M.chance = help.best_capture, help.chance

-- ---- a seeded generator (splitmix64) ----------------------------------

local function mix(h, x)
  h = h ~ x
  h = h * 0x9E3779B97F4A7C15
  h = (h ~ (h >> 30)) * 0xBF58476D1CE4E5B9
  h = (h ~ (h >> 27)) * 0x94D049BB133111EB
  return h ~ (h >> 31)
end

--- rng(seed) -> a function like math.random: rng() a float in [0, 1),
-- rng(n) an integer in 1..n, rng(m, n) in m..n. Same seed, same numbers.
local function new_rng(seed)
  local s = seed
  return function(m, n)
    s = s + 0x9E3779B97F4A7C15
    local z = s
    z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ~ (z >> 27)) * 0x94D049BB133111EB
    z = z ~ (z >> 31)
    if m == nil then return (z >> 11) * (1.0 / 9007199254740992.0) end
    local lo, hi
    if n == nil then lo, hi = 1, math.tointeger(m) else lo, hi = math.tointeger(m), math.tointeger(n) end
    if not lo or not hi then error("rng: integer arguments expected", 2) end
    if lo > hi then error("rng: interval is empty", 2) end
    local range = hi - lo + 1
    if range <= 0 then return z end -- the whole integer range
    return lo + (z >> 1) % range
  end
end
M.rng = new_rng

-- ---- loading scripts ----------------------------------------------------

local function check(t, file)
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
  return s
end

-- Loads a script into a box of its own, after the ctx helpers
-- (lua/aihelp.lua). Returns the checked table (its functions are stubs
-- calling into the box), the box and the helpers; or nil, message naming
-- the file. opts: memory, budget, time (each later call), seed; facts
-- (a listing: no helpers, the script will not be called).
local helpers_src
local function load_script(src, file, opts)
  opts = opts or {}
  helpers_src = helpers_src or core.embedded("lua/")["lua/aihelp.lua"]
  local box, t, helpers = untrusted.load(src, file, {
    label = "its main chunk", memory = opts.memory or M.defaults.memory, load = LOAD, seed = opts.seed,
    budget = opts.budget or M.defaults.budget, time = opts.time or M.defaults.time,
    prelude = not opts.facts and helpers_src or nil, prelude_name = "=ai helpers",
  })
  if not box then return nil, t end
  -- The box's own copies of the engine's answers (no crossing per call).
  if helpers then helpers.bind{ best_capture = core.box.best_capture, points = core.box.points } end
  local s, why = check(t, file)
  if not s then
    box:close()
    return nil, file .. ": " .. why
  end
  return s, box, helpers
end

local read = textfile.read

local SOURCES = setmetatable({}, { __mode = "k" })

-- Facts about a loaded script, for lists and for players.
local function info_of(s, file, builtin)
  local hooks = {}
  for _, h in ipairs(HOOKS) do if s[h] then hooks[#hooks + 1] = h end end
  return {
    name = s.name, description = s.description, help = s.help, author = s.author,
    file = file, builtin = builtin, hooks = hooks,
  }
end

--- Every AI: returns {name = info}, a sorted list of names, and a list
-- of {file, message} for scripts that were refused. info: name,
-- description, help, author, file, builtin, hooks.
function M.load_all(dirs)
  local found, errors = {}, {}
  local function add(src, file, builtin)
    local s, box_or_err = load_script(src, file, { facts = true })
    if s then
      box_or_err:close() -- (a listing keeps only the facts)
      local info = info_of(s, file, builtin)
      SOURCES[info] = src
      found[s.name] = info
    else
      errors[#errors + 1] = { file = file, message = box_or_err }
    end
  end
  local embedded = core.embedded("lua/ai/")
  local files = {}
  for file in pairs(embedded) do
    if file:match("%.lua$") then files[#files + 1] = file end
  end
  table.sort(files)
  for _, file in ipairs(files) do add(embedded[file], file, true) end
  local all = {}
  local ud = user_dir()
  if ud then all[#all + 1] = ud end
  for _, d in ipairs(dirs or {}) do all[#all + 1] = d end
  for i, d in ipairs(all) do
    local listed = textfile.each_script(d, function(src, path) add(src, path, false) end, errors)
    if not listed and i > (ud and 1 or 0) then
      errors[#errors + 1] = { file = d, message = d .. ": cannot read the folder" }
    end
  end
  local names = {}
  for n in pairs(found) do names[#names + 1] = n end
  table.sort(names)
  return found, names, errors
end

local cache = {}

--- ai.catalogue(dirs) -> {name = info}, sorted names, errors (cached per
-- list of folders; ai.refresh() forgets).
function M.catalogue(dirs)
  local key = table.concat(dirs or {}, "\0")
  local c = cache[key]
  if not c then
    local found, names, errors = M.load_all(dirs)
    c = { found = found, names = names, errors = errors }
    cache[key] = c
  end
  return c.found, c.names, c.errors
end

function M.refresh() cache = {} end

-- ---- the context a decision sees ---------------------------------------

local function side_of(rules, seat)
  local sides = rules.teams and 2 or rules.players
  return seat % sides
end

local function decl_cards(tbl)
  local by = {}
  for _, d in ipairs(tbl.declarations) do by[d.ref] = d.cards end
  return by
end

-- The cards a move takes from a table (loose cards and declarations' cards).
local function taken_cards(info, tbl)
  local out = {}
  if not info.takes then return out end
  local decls = decl_cards(tbl)
  for _, item in ipairs(info.takes) do
    local cards = decls[item]
    if cards then
      for _, c in ipairs(cards) do out[#out + 1] = c end
    else
      out[#out + 1] = item
    end
  end
  return out
end

local function card_set(list)
  local s = {}
  for _, c in ipairs(list) do s[c] = true end
  return s
end

-- What a move would do, from the mover's side, with public consequences
-- only: nothing the move would reveal later (new hands, a redeal) is
-- returned.
local function simulate(game, seat, view, infos, index, text)
  local i = index[text]
  -- The clone's history is C memory the collector does not see: freed
  -- here, not when the collector gets round to it (issue 13, finding 6).
  local c <close> = game:clone()
  local ok, why = c:play(text)
  if not ok then return nil, why end
  local canon = text
  if not i then
    local h = c:history()
    canon = h[#h].move
    i = index[canon]
    if not i then return nil, "not a legal move here" end
  end
  local info = infos[i]
  local res = { move = canon, kind = info.kind, card = info.card, value = info.value }
  if info.kind == "claim" or info.kind == "keep" then
    res.redeal = info.kind == "claim"
    return res
  end
  local rules = game:rules()
  local side = side_of(rules, seat)
  local after = c:view(seat)
  local phase = c:phase()
  res.round_over = phase == "round-over" or phase == "match-over"
  res.dealt = after.deal ~= view.deal
  res.xeri = after.xeri[side] > view.xeri[side]
  local captured = {}
  if info.kind == "capture" then
    captured = taken_cards(info, view.table)
    captured[#captured + 1] = info.card
    table.sort(captured)
    res.captured = captured
  end
  -- The table afterwards may only hold what was there and the card played.
  local allowed = card_set({ info.card })
  for _, l in ipairs(view.table.loose) do allowed[l] = true end
  for _, d in ipairs(view.table.declarations) do for _, x in ipairs(d.cards) do allowed[x] = true end end
  local t = copy(after.table)
  local fine = true
  for _, l in ipairs(t.loose) do fine = fine and allowed[l] == true end
  for _, d in ipairs(t.declarations) do for _, x in ipairs(d.cards) do fine = fine and allowed[x] == true end end
  res.table = fine and t or nil
  if res.round_over then
    local mine = card_set(captured)
    for s = 0, (rules.teams and 2 or rules.players) - 1 do
      local before = card_set(view.captured[s])
      local swept = {}
      for _, x in ipairs(after.captured[s]) do
        if not before[x] and not mine[x] and allowed[x] then swept[#swept + 1] = x end
      end
      if #swept > 0 then res.sweep = { side = s, cards = swept } end
    end
  end
  return res
end

local SEARCH_NUM = { exploration = true, epsilon = true, infer = true }
local WEIGHTS = { "cards", "clubs", "aces", "ten_diamonds", "two_clubs", "xeri", "count" }
-- The exact endgame search stops at a node limit and at the time limit
-- given below, then leaves the move to the tree search; past these sizes
-- it would mostly hit them.
local MAX_EXACT = 16
local MAX_DEALS = 1000

-- An integer option of ctx.search, at least lo when lo is given; nil when
-- absent. The error points at the AI's ctx.search call.
local function whole_option(o, k, lo, what)
  local v = rawget(o, k)
  if v == nil then return nil end
  v = math.tointeger(v)
  if not v or (lo and v < lo) then error("ctx.search: " .. k .. " must be " .. what, 0) end
  return v
end

local function search(p, game, seat, o)
  if not game.search then return nil, "this engine has no search" end
  if o ~= nil and type(o) ~= "table" then error("ctx.search: a table of options expected", 0) end
  o = o or {}
  local args = { seat = seat }
  local n = whole_option(o, "iterations", 0, "a whole number")
  if n then args.iterations = math.min(n, 100000000) end
  for k in pairs(SEARCH_NUM) do
    local v = rawget(o, k)
    if v ~= nil then
      if type(v) ~= "number" then error("ctx.search: " .. k .. " must be a number", 0) end
      args[k] = v
    end
  end
  local exact = whole_option(o, "exact", nil, "a whole number of cards")
  if exact then args.exact = math.max(0, math.min(exact, MAX_EXACT)) end
  local pool = whole_option(o, "pool", 1, "a whole number of deals")
  if pool then args.pool = math.min(pool, 100000) end
  local deals = whole_option(o, "deals", 0, "a whole number")
  if deals then args.deals = math.min(deals, MAX_DEALS) end
  local seed = whole_option(o, "seed", nil, "an integer")
  if seed then
    args.seed = seed & 0x1FFFFFFFFFFFFF
  else
    args.seed = p._box:random(0, 0x7FFFFFFF)
  end
  local w = rawget(o, "weights")
  if w ~= nil then
    if type(w) ~= "table" then error("ctx.search: weights must be a table", 0) end
    args.weights = {}
    for _, k in ipairs(WEIGHTS) do
      local v = rawget(w, k)
      if k == "aces" and v == nil then v = rawget(w, "ace") end
      if v ~= nil then
        if type(v) ~= "number" then error("ctx.search: weights." .. k .. " must be a number", 0) end
        args.weights[k] = v
      end
    end
  end
  -- The search runs in C, where no hook can stop it: it always gets a
  -- time limit inside what is left of the decision.
  local left = p._box:time_left() or p.time
  local want = rawget(o, "time")
  if want ~= nil and type(want) ~= "number" then error("ctx.search: time must be a number of seconds", 0) end
  local cap = left * 0.9 - 0.02
  if cap <= 0.001 then return nil, "no time left to search" end
  args.time = math.min(want and want > 0 and want or cap, cap)
  -- Neither given: the engine's own default count, not the whole decision.
  if not args.iterations and not (want and want > 0) then args.iterations = 2000 end
  -- The search's tree is C memory held for this one call: it stays within
  -- the AI's memory cap (a node a playout, under 160 bytes a node with the
  -- tree's growth).
  local most = math.max(1000, p.memory // 160)
  args.iterations = math.min(args.iterations or most, most)
  local ok, r, err = pcall(game.search, game, args)
  if not ok then return nil, first_line(r) end
  if not r then return nil, err end
  p._search = { iterations = r.iterations, value = r.value, exact = r.exact, deals = r.deals }
  return r
end

-- What choose() gets as ctx, as plain data and the host functions the
-- script may call during this one decision (simulate, search); the box
-- adds the helpers of lua/aihelp.lua inside.
local function decision_data(p, game, seat, view, infos, index)
  local data = p:_static_ctx(seat)
  data.unseen = view.unseen
  data.moves_info = infos
  data.rng = core.box.rng
  data.time_left = core.box.time_left
  data.simulate = function(move)
    local text = type(move) == "table" and rawget(move, "text") or move
    if type(text) ~= "string" then error("ctx.simulate: a move (text or moves_info entry) expected", 0) end
    if #text > 200 then return nil, "not a move" end
    return simulate(game, seat, view, infos, index, text)
  end
  data.search = function(o) return search(p, game, seat, o) end
  return data
end

-- ---- players ---------------------------------------------------------------

local Player = {}
Player.__index = Player

local function decision_seed(seed, ...)
  local h = mix(0x2545F4914F6CDD1D, seed)
  for i = 1, select("#", ...) do h = mix(h, select(i, ...) or 0) end
  return h
end

-- What every call's ctx holds (no game needed); the box adds the helpers.
function Player:_static_ctx(seat)
  local rules = self._rules
  local ctx = { seat = seat, players = rules and rules.players, teams = rules and rules.teams, rules = rules }
  if rules and seat then
    ctx.sides = rules.teams and 2 or rules.players
    ctx.side = side_of(rules, seat)
    if rules.teams then ctx.partner = (seat + 2) % rules.players end
  end
  return ctx
end

function Player:_adopt(script, box, helpers)
  self.script, self._box, self._helpers = script, box, helpers
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
  local label = string.format("AI '%s'%s (%s)", self.name, seat and (" at seat " .. seat) or "", what)
  local live, dead = self:_live()
  if not live then return false, dead end
  local fn = self.script[what]
  if not fn then return true end -- (a reloaded script without that hook)
  local box = self._box
  box:limits{ label = label }
  if seed then box:seed(seed) end
  local res = table.pack(pcall(self._helpers[via], fn, ...))
  if not res[1] and box:broken() then
    box:close()
    self.script, self._box, self._helpers = nil, nil, nil
    self._off, self._failures = {}, {}
    res[2] = res[2] .. "; the script will be loaded afresh"
  end
  return table.unpack(res, 1, res.n)
end

-- The returned move as legal move text, or nil and what is wrong with it.
local function resolve(game, mv, texts, index)
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
  if index[mv] then return mv end
  local ok, legal, why = pcall(game.check, game, mv)
  if not ok or not legal then
    return nil, string.format("returned '%s', which is not a legal move (%s)", excerpt(mv),
      first_line(ok and why or legal))
  end
  local c <close> = game:clone()
  assert(c:play(mv))
  local h = c:history()
  local canon = h[#h].move
  if index[canon] then return canon end
  return nil, string.format("returned '%s', which is not among the legal moves", excerpt(mv))
end

--- The move played for an AI that failed: keep the deal (claims), else
-- the capture taking the most, else laying the card that gives the least
-- away. Deterministic and always legal.
function M.fallback(infos, rules)
  for _, m in ipairs(infos) do
    if m.kind == "keep" then return m.text end
  end
  local best, best_score
  for _, m in ipairs(infos) do
    local score
    if m.kind == "capture" then
      score = 100 + #m.takes
    elseif m.kind == "lay" then
      score = -(M.points({ m.card }, rules) * 10 + (M.value(m.card) or 0))
    else
      score = -50
    end
    if not best or score > best_score then best, best_score = m.text, score end
  end
  return best or (infos[1] and infos[1].text)
end

--- player:choose(game, seat) -> move text, info. info.seconds, and when
-- the AI failed, info.fallback = true and info.warning (why, and what was
-- played instead). info.note: the AI's own comment, if it gave one;
-- info.search: iterations/value/exact of its last ctx.search.
function Player:choose(game, seat)
  local turn = game:turn()
  if turn == nil then error("player:choose: nobody is to move (" .. game:phase() .. ")", 2) end
  seat = seat or turn
  if seat ~= turn then error(string.format("player:choose: seat %d is not to move (seat %d is)", seat, turn), 2) end
  local t0 = os.clock()
  self._rules = game:rules()
  local infos = game:moves(true)
  if #infos == 0 then error("player:choose: no legal move (D20 engine error)", 2) end
  local texts, index = {}, {}
  for i, m in ipairs(infos) do
    texts[i] = m.text
    index[m.text] = i
  end
  local view = game:view(seat)
  local seed = decision_seed(self.seed, seat, view.round, view.deal, view.ply, view.phase == "claim" and 1 or 0)
  self._search = nil
  local data = decision_data(self, game, seat, view, infos, index)
  local ok, mv, note = self:_call("choose", "decide", seat, seed, data, view, texts)
  local info = {}
  local text, why
  if ok then
    text, why = resolve(game, mv, texts, index)
  else
    why = with_file(mv, self.file)
  end
  if not text then
    text = M.fallback(infos, self._rules)
    info.fallback = true
    info.warning = string.format("AI '%s' (seat %d) lost this decision: %s; played %s instead",
      self.name, seat, why, text)
  end
  if ok and type(note) == "string" then info.note = core.clean((note:sub(1, 200):gsub("[\n\t]", " "))) end
  info.search = self._search
  info.seconds = os.clock() - t0
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
-- decision).
function M.player(spec, opts)
  opts = opts or {}
  if type(spec) ~= "string" or spec == "" then return nil, "ai.player: an AI name or a file path expected" end
  local src, file, err
  if spec:find("/", 1, true) or spec:match("%.lua$") then
    file = spec
    src, err = read(spec, textfile.MAX_SCRIPT)
    if not src then return nil, spec .. ": " .. err end
  else
    local found, names, errors = M.catalogue(opts.dirs)
    local info = found[spec]
    if not info then
      for _, e in ipairs(errors) do
        if e.file:match("([^/]+)%.lua$") == spec then
          return nil, string.format("AI '%s' was refused when loading: %s", spec, e.message)
        end
      end
      return nil, string.format("unknown AI '%s'; valid names: %s", spec, table.concat(names, ", "))
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
    _off = {}, _failures = {},
  }, Player)
  -- math.random follows the player's seed, never the process's.
  local how = { memory = memory, budget = budget, time = p.time, seed = decision_seed(seed, -1) }
  local script, box, helpers = load_script(src, file, how)
  if not script then return nil, box end
  p:_adopt(script, box, helpers)
  p._reload = function() return load_script(src, file, how) end
  p.name, p.description, p.help = script.name, script.description, script.help
  return p
end

-- ---- playing ---------------------------------------------------------------

local function move_event(game, seat, text, infos, before, after, rules)
  local info
  for _, m in ipairs(infos) do
    if m.text == text then info = m; break end
  end
  local e = {
    type = "move", seat = seat, side = side_of(rules, seat), move = text, kind = info and info.kind,
    round = before.round, deal = before.deal, ply = before.ply, table = copy(before.table),
  }
  if info and info.card then
    e.card, e.value, e.takes = info.card, info.value, copy(info.takes)
    if info.kind == "capture" then
      local captured = taken_cards(info, before.table)
      captured[#captured + 1] = info.card
      table.sort(captured)
      e.captured = captured
    end
    e.xeri = after.xeri[e.side] > before.xeri[e.side]
    e.dealt = after.deal ~= before.deal
  end
  local phase = game:phase()
  e.round_over = phase == "round-over" or phase == "match-over"
  return e
end

--- ai.move_event(game, seat, text, infos, before, after, rules): the
-- public event of a move just played (docs/ai.md §5), for the table too.
M.move_event = move_event

local function round_start_event(game)
  local v = game:view(0)
  return { type = "round_start", round = v.round, dealer = v.dealer, deal = v.deal, ply = v.ply }
end

--- ai.play(game, players, opts) -> the game's result, plus warnings (a
-- list of messages). players[seat] for seats 0..n-1 (the same player may
-- sit at several seats). Plays until the round ends, or with opts.match
-- until the match ends. opts.on_move(seat, move, info) after each move;
-- opts.on_warning(seat, message) when a hook fails.
function M.play(game, players, opts)
  opts = opts or {}
  local rules = game:rules()
  local n = rules.players
  local order, seat_of = {}, {}
  for s = 0, n - 1 do
    local p = players[s]
    if type(p) ~= "table" or type(p.choose) ~= "function" then
      error(string.format("ai.play: no player for seat %d", s), 2)
    end
    if not seat_of[p] then
      seat_of[p] = s
      order[#order + 1] = p
      p.seat = s
      p._rules = rules
    end
  end
  local warnings = {}
  local function warn(seat, msg)
    warnings[#warnings + 1] = msg
    if opts.on_warning then opts.on_warning(seat, msg) end
  end
  local function broadcast(event, only)
    for _, p in ipairs(order) do
      if (not only or only == p) and p.notify then
        local ok, msg = p:notify(event)
        if not ok then warn(seat_of[p], msg) end
      end
    end
  end
  local function round_end()
    for _, p in ipairs(order) do
      if p.round_end then
        local ok, msg = p:round_end(game:result())
        if not ok then warn(seat_of[p], msg) end
      end
    end
  end
  local phase = game:phase()
  if phase == "play" or phase == "claim" then broadcast(round_start_event(game)) end
  while true do
    phase = game:phase()
    if phase == "match-over" then break end
    if phase == "round-over" then
      if not opts.match then break end
      assert(game:next_round())
      broadcast(round_start_event(game))
    else
      local seat = game:turn()
      local p = players[seat]
      local infos = game:moves(true)
      local before = game:view(seat)
      local move, info = p:choose(game, seat)
      if info.warning then warnings[#warnings + 1] = info.warning end
      local ok, why = game:play(move)
      if not ok then error(string.format("ai.play: the engine refused '%s' (%s)", move, why)) end
      if why then warn(seat, why) end -- a house rule's score hook failed
      if opts.on_move then opts.on_move(seat, move, info) end
      local event = move_event(game, seat, move, infos, before, game:view(seat), rules)
      -- Keeping a deal is private (V-face-card-claim): only the keeper hears it.
      broadcast(event, event.kind == "keep" and p or nil)
      if event.kind == "claim" then broadcast(round_start_event(game)) end
      if event.round_over then round_end() end
    end
  end
  local r = game:result()
  r.warnings = warnings
  return r
end

-- ---- the command line -----------------------------------------------------

local function errors_to_stderr(errors)
  for _, e in ipairs(errors) do io.stderr:write("diloti: AI refused: ", e.message, "\n") end
end

--- `diloti ai`: every AI with its one-line description. a.ai_dir: more
-- folders. Returns an exit code.
function M.cli_list(a)
  local found, names, errors = M.catalogue(a and a.ai_dir)
  -- Descriptions, file names and refusals come from strangers' scripts
  -- and folders: printed with their terminal controls shown (core.clean).
  local clean = core.clean
  local shown = {}
  for k, e in ipairs(errors) do shown[k] = { file = e.file, message = clean(e.message) } end
  errors_to_stderr(shown)
  for _, n in ipairs(names) do
    local i = found[n]
    print(clean(string.format("%-10s %s%s", n, i.description, i.builtin and "" or ("  [" .. i.file .. "]"))))
  end
  print(clean("\n'diloti ai NAME' explains one; your own AIs go in " .. (user_dir() or "$XDG_CONFIG_HOME/diloti/ai")
    .. " (see docs/ai.md)."))
  return 0
end

--- `diloti ai NAME`: one AI explained. Returns an exit code.
function M.cli_show(a)
  local name = a and a.name
  local found, names, errors = M.catalogue(a and a.ai_dir)
  local i = found[name]
  -- (as cli_list: what a script or a folder supplied is cleaned)
  local clean = core.clean
  local function say(text) print(clean(text)) end
  if not i then
    for _, e in ipairs(errors) do
      if e.file:match("([^/]+)%.lua$") == name then
        io.stderr:write(clean("diloti: AI '" .. name .. "' was refused when loading: " .. e.message), "\n")
        return 1
      end
    end
    io.stderr:write(clean(string.format("diloti: unknown AI '%s'; valid names: %s", tostring(name),
      table.concat(names, ", "))), "\n")
    return 1
  end
  say(i.name .. (i.author and ("  by " .. i.author) or ""))
  say(i.description)
  if i.help then say("\n" .. i.help) end
  if #i.hooks > 0 then say("\nfollows the game with: " .. table.concat(i.hooks, ", ")) end
  say("from: " .. i.file)
  return 0
end

return M
