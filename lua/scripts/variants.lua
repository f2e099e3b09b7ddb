-- Rules variants: one script per base game and per house rule. Scripts
-- come from the program itself (rules-variants/NAME/ for game NAME,
-- compiled in), then from the user's folder
-- ($XDG_CONFIG_HOME/diloti/rules-variants, and its NAME/ subfolders) and
-- any --rules-dir; a later script of the same name replaces an earlier one.
--
-- Every script runs in a Lua state of its own (a box: no io/os/debug/load,
-- text only, plain data in and out, an instruction budget, a clock and a
-- memory cap: docs/security.md) and returns a table:
--   name, description        required; name matches the file name
--   rule                     the RULES.md id, e.g. "V-soy" (optional)
--   base = true              for a base game (a base its package names)
--   game                     the game it is for (a package's name; the
--                            default game when left out, the folder's game
--                            in a game's folder). A game whose package has
--                            a rules_prefix catalogues its house rules as
--                            PREFIX-NAME; a spec after its base names them
--                            NAME or PREFIX-NAME
--   requires, conflicts      lists of names (a base's name counts too)
--   rules                    a table of rules fields, or
--                            function(rules, arg) changing them
--   arg                      {name = "N", default = 61} for name=N
--   hooks                    {moves = f, score = f, match = f}
--   help                     a longer explanation (optional)
local core = require "diloti.core"
local textfile = require "diloti.scripts.textfile"
local untrusted = require "diloti.scripts.untrusted"
local catalogue = require "diloti.scripts.catalogue"
local registry = require "diloti.registry"

local M = {}

-- The main chunk, and each later call (a hook, the rules function).
local LOAD = { budget = 1000000, time = 2 }
local CALL = { budget = 10000000, time = 1 }
-- Our own text, run in each variant's box before the script: hooks and
-- rules functions may change their first argument in place, and that
-- change has to come back out of the box. A moves or score hook that
-- answers a table has its first argument's copy left behind (filter):
-- a list would otherwise cross back twice.
-- A moves hook's answer leaves the box as numbers: each move of the list
-- it was given stands as its place in that list (copying a number is
-- cheap, and the host knows the move); anything else crosses as it is,
-- to be refused by the host, and a hole as false (a nil would cut the
-- list short where it stands); when it kept every move in its place, as
-- true alone. That call is core.box.moves, C in the box (src/lua/
-- boxmoves.c): the prelude's own loops would be counted and cost more
-- than a plain hook.
local PRELUDE = [==[
local moves = ...
-- (its own type: the script shares its globals and may name its own)
local type = type
return {
  inout = function(f, a, ...) local r1, r2 = f(a, ...) return a, r1, r2 end,
  filter = function(f, a, ...)
    local r1, r2 = f(a, ...)
    if type(r1) == "table" then return nil, r1, r2 end
    return a, r1, r2
  end,
  moves = moves,
}
]==]
local FILTERS = { moves = true, score = true }
local HOOKS = { moves = true, score = true, match = true }
local KEYS = {
  name = "string", description = "string", rule = "string", base = "boolean",
  requires = "table", conflicts = "table", rules = "any", arg = "table",
  hooks = "table", help = "string", game = "string",
}
-- The games a rules spec may be for: each package's base rules (of a
-- base name its package gives, the game's own name by default) and check.
local function game_rules(game)
  local pkg = registry.get(game)
  if not pkg or pkg.name ~= game then return nil end
  local part = registry.part(pkg, "rules")
  return { rules = function(base) return part.base(base or pkg.name) end, check = part.check }
end

--- The games' names (the registry's order).
setmetatable(M, { __index = function(_, k) if k == "GAMES" then return registry.names() end end })

--- The game a catalogue entry belongs to.
local function game_of(v) return v.game or registry.default().name end
M.game_of = game_of

-- The prefix of a game's house rules in the catalogue ("" for none).
local function prefix_of(game)
  local pkg = registry.get(game)
  return pkg and pkg.rules_prefix or ""
end

--- The name a variant is written with in a spec of its game: a house
-- rule without its game's prefix.
function M.short_name(v)
  local prefix = prefix_of(game_of(v))
  if prefix ~= "" and not v.base and v.name:sub(1, #prefix) == prefix then return v.name:sub(#prefix + 1) end
  return v.name
end

--- The names of one game's variants as a spec writes them, sorted.
function M.names_for(cat, game)
  local out = {}
  for _, n in ipairs(cat.names) do
    local v = cat.found[n]
    if game_of(v) == game then out[#out + 1] = M.short_name(v) end
  end
  table.sort(out)
  return out
end

--- The user's own folder ($XDG_CONFIG_HOME/diloti): house rules go in
-- its rules-variants/ folder.
M.user_dir = catalogue.config_dir

local function check(v, file)
  if type(v) ~= "table" then return nil, "the script must return a table" end
  for k, val in pairs(v) do
    local want = KEYS[k]
    if not want then return nil, string.format("unknown field '%s'", tostring(k)) end
    if want ~= "any" and type(val) ~= want then
      return nil, string.format("field '%s' must be a %s", k, want)
    end
  end
  if not v.name or not v.name:match("^[%w][%w%-]*$") then
    return nil, "needs a name made of letters, digits and '-'"
  end
  local stem = file:match("([^/]+)%.lua$")
  if stem and stem ~= v.name then
    return nil, string.format("name '%s' does not match the file name '%s.lua'", v.name, stem)
  end
  if not v.description or v.description:find("\n") then
    return nil, "needs a one-line description"
  end
  if v.game ~= nil and not registry.get(v.game) then
    return nil, string.format("field 'game' must be one of: %s", table.concat(registry.names(), ", "))
  end
  if v.rules ~= nil and type(v.rules) ~= "table" and type(v.rules) ~= "function" then
    return nil, "field 'rules' must be a table or a function"
  end
  for k, f in pairs(v.hooks or {}) do
    if not HOOKS[k] then return nil, string.format("unknown hook '%s' (moves, score, match)", tostring(k)) end
    if type(f) ~= "function" then return nil, string.format("hook '%s' must be a function", k) end
  end
  return v
end

local first_line = textfile.first_line

-- Loads one script into a fresh box: the checked variant (its hooks and
-- rules function are stubs into the box), the box and the prelude; or
-- nil, message (naming the file).
local function load_raw(src, file, pool)
  local box, v, pre = untrusted.load(src, file, {
    label = file, load = LOAD, budget = CALL.budget, time = CALL.time,
    prelude = PRELUDE, prelude_name = "=variant helpers", prelude_args = { core.box.moves }, pool = pool,
  })
  if not box then return nil, v end
  local checked, why = check(v, file)
  if not checked then
    box:close()
    return nil, file .. ": " .. untrusted.said(why)
  end
  checked.file = file
  checked.description = untrusted.line(checked.description)
  if checked.rule then checked.rule = untrusted.line(checked.rule) end
  if checked.help then checked.help = untrusted.help(checked.help) end
  return checked, box, pre
end

local function adopt(acct, v, box, pre)
  local fns = {}
  for k, f in pairs(v.hooks or {}) do fns[k] = f end
  if type(v.rules) == "function" then fns.rules = v.rules end
  acct.fns, acct.box, acct.pre, acct.label = fns, box, pre, nil
end

local function restart(acct)
  local v, box, pre = load_raw(acct.src, acct.file, acct.pool)
  if not v then return nil, box end
  adopt(acct, v, box, pre)
  return true
end

-- What stands for a hook (or the rules function) of a variant: a call
-- into its box that returns the first argument as the script left it,
-- then what the script returned. A script a limit stopped may be
-- halfway through changing its own state: it is loaded afresh from its
-- source before its next call.
-- What a hook answers, from what the box returned: the first argument as
-- the script left it, then what the script returned. A list or breakdown
-- changed in place counts as returned; a rules function answers the
-- changed rules and its error, if any.
local ANSWER = {
  moves = function(after, kept, why) return type(kept) == "table" and kept or after, why end,
  score = function(after, s) return type(s) == "table" and s or after end,
  match = function(_, r) return r end,
  rules = function(after, err) return after, err end,
}

-- A moves hook's answer: the list it was given when it kept every move;
-- its numbers into that list, and true, when it named each move by its
-- number (the prelude's doing, or the script's own); else the list with
-- each number turned into the move of that place, and false. Then its
-- reasons and nil (no warning).
local function moves_named(given, kept, why)
  -- (true: the prelude found every move kept in its place)
  if type(kept) ~= "table" then return given, why, nil, true end
  -- (a list the engine made in the box: the engine reads the numbers)
  if type(given) ~= "table" then return kept, why, nil, nil end
  -- (Both walks end at the answer's first hole, a non-move: its length
  -- may be any border of the table, 2^40 for a thousand entries, and
  -- this runs on the host's thread, after the call's limits.)
  local n = #given
  for i = 1, #kept do
    local m = kept[i]
    if math.type(m) ~= "integer" or m < 1 or m > n then
      local named = {}
      for j = 1, #kept do
        local x = kept[j]
        if x == nil then
          named[j] = false
          break
        end
        named[j] = math.type(x) == "integer" and given[x] or x
      end
      return named, why, nil, false
    end
  end
  return kept, why, nil, true
end

-- The longest part of a failure message that is the script's own: a
-- script may raise a megabyte of text.
local MAX_MESSAGE = 300

--- A hook's failure as one line for the rule's author: the house rule,
-- its file, the hook, and the script's own message with its line
-- ("line 6: ..." rather than the file again), as plain text.
function M.failure(name, file, what, msg)
  msg = tostring(msg)
  if msg:sub(1, #file + 1) == file .. ":" then
    local rest = msg:sub(#file + 2)
    local line, text = rest:match("^(%d+):%s*(.*)$")
    msg = line and ("line " .. line .. ": " .. text) or rest
  end
  return string.format("house rule '%s' (%s), %s: %s", name, file, what, core.plain(msg, MAX_MESSAGE))
end
local failure = M.failure

--- A failure's words without the folders the house rules lie in ("(NAME.lua)"
-- for "(/their/folder/NAME.lua)"): for those who need not know them, a
-- room's players and its creator.
function M.without_folders(msg)
  return (tostring(msg):gsub("(house rule '[^']*' %()([^()]*)(%))", function(a, file, b)
    return a .. file:match("[^/]*$") .. b
  end))
end

-- A moves hook whose list in or answer out broke a crossing limit (too
-- many values, too much text, nested too deep) loses that call only: it
-- answers the list it was given, and a warning third. (A score
-- or match hook's failure, of any kind, already keeps the standard rule
-- for the round: the engine catches it.)
local function guard(acct, k, what)
  local label = "variant '" .. acct.name .. "' (" .. what .. ")"
  local answer = ANSWER[k]
  local call = k == "moves" and "moves" or FILTERS[k] and "filter" or "inout"
  local function fail(msg) error(failure(acct.name, acct.file, what, msg), 0) end
  -- The script's function, its box ready and labelled for this hook.
  local function ready()
    if not acct.fns then
      local ok, err = restart(acct)
      if not ok then fail("could not be loaded again: " .. tostring(err)) end
    end
    local f = acct.fns[k]
    if not f then fail("the script has no " .. what .. " since it was loaded again") end
    -- (the box keeps its label between calls: set when another hook's)
    if acct.label ~= label then
      acct.box:limits{ label = label }
      acct.label = label
    end
    return f
  end
  local function failed(msg, given)
    local box = acct.box
    if k == "moves" and box:crossed() then
      return given, nil, failure(acct.name, acct.file, what, msg) .. "; standard moves used for this position"
    end
    if box:broken() then
      box:close()
      acct.fns, acct.box, acct.pre = nil, nil, nil
      msg = tostring(msg) .. "; it will be loaded afresh"
    end
    fail(msg)
  end
  if k == "moves" then
    -- (called at every position: its own closure, no varargs)
    return function(moves, state)
      local fns = acct.fns
      local f = fns and fns.moves
      if not f or acct.label ~= label then f = ready() end
      local ok, r1, r2, r3 = pcall(acct.pre.moves, f, moves, state)
      if not ok then return failed(r1, moves) end
      -- (true: the prelude found every move kept in its place)
      if r2 == true then return moves, r3, nil, true end
      return moves_named(moves, r2, r3)
    end
  end
  return function(...)
    local f = ready()
    local ok, r1, r2, r3 = pcall(acct.pre[call], f, ...)
    if not ok then return failed(r1, (...)) end
    return answer(r1, r2, r3)
  end
end

-- Whether a guarded moves hook may read the state (false: it takes one
-- parameter, the list).
local state_read = setmetatable({}, { __mode = "k" })

-- Loads one script in a fresh box (in pool, a room's core.box.pool; the
-- host's when nil). Returns the variant or nil, message (naming the file).
function M.load_source(src, file, pool)
  local v, box, pre = load_raw(src, file, pool)
  if not v then return nil, box end
  local acct = { name = v.name, src = src, file = file, pool = pool }
  adopt(acct, v, box, pre)
  for k in pairs(v.hooks or {}) do v.hooks[k] = guard(acct, k, k .. " hook") end
  if v.hooks and v.hooks.moves then
    -- A moves hook that names one parameter never reads the state: the
    -- engine need not make it (core.box.params reads the prototype).
    local n, more = core.box.params(acct.fns.moves)
    state_read[v.hooks.moves] = not (n and n < 2 and not more)
  end
  if type(v.rules) == "function" then v.rules = guard(acct, "rules", "rules function") end
  return v
end

--- All variants: returns {name = variant}, a sorted list of names, and a
-- list of {file, message} for scripts that were refused. A listing keeps
-- each variant's facts and source only: its box is closed (a folder of
-- scripts each holding its cap would add up), and a game loads the
-- variants it uses afresh (M.resolve).
-- One script of the catalogue: its facts and source, the box closed.
local function list_one(src, file, _, sub)
  local v, box = load_raw(src, file)
  if not v then return nil, box end
  box:close()
  -- (a game's folder says the game; a house rule's name takes its prefix)
  if sub then
    if (v.game or sub) ~= sub then
      return nil, string.format("%s: it is for %s, but lies in the folder of %s's house rules ('%s/')",
        file, v.game, sub, sub)
    end
    v.game = sub
  end
  local prefix = prefix_of(game_of(v))
  if not v.base and v.name:sub(1, #prefix) ~= prefix then v.name = prefix .. v.name end
  v.src = src
  return v, v.name
end

function M.load_all(dirs)
  return catalogue.scan("variants", list_one, { dirs = dirs })
end

--- The catalogue as {found, names, errors}, kept per list of folders.
function M.catalogue(dirs)
  local found, names, errors = catalogue.cached("variants", list_one, dirs)
  return { found = found, names = names, errors = errors }
end
local catalogue_of = M.catalogue

--- Reads the folders again: what changed since the last reload (or since
-- they were first read), {added, changed, removed} lists of names, and
-- the catalogue as M.catalogue gives it.
function M.reload(dirs)
  local changes, found, names, errors = catalogue.reload("variants", list_one, dirs)
  return changes, { found = found, names = names, errors = errors }
end

local function list(t) return table.concat(t, ", ") end

-- Each move's text -> its number in the engine's list.
local function move_texts(moves)
  local t = {}
  for i, m in ipairs(moves) do t[m.text] = t[m.text] or i end
  return t
end

-- Chains each kind of hook in the order the variants were named.
local function compose(chosen)
  local hooks, fns = {}, { moves = {}, score = {}, match = {} }
  for _, v in ipairs(chosen) do
    -- (each hook names its variant in budget and memory messages itself)
    for k, f in pairs(v.hooks or {}) do table.insert(fns[k], f) end
  end
  if #fns.moves > 0 then
    local one = #fns.moves == 1 and fns.moves[1]
    hooks.moves = one or function(moves, state)
      -- sel: the engine's numbers of the moves kept so far (nil: all)
      local reasons, warning, texts, all, sel = {}, nil, nil, moves, nil
      for h, f in ipairs(fns.moves) do
        local kept, why, lost, pure = f(moves, state)
        -- (a hook that lost its call: the next one filters the same list)
        if lost then warning = warning and (warning .. "; " .. lost) or lost end
        if type(kept) == "table" and kept ~= moves then
          -- A table or text the script made is looked up by its text
          -- among the engine's moves, so that the next hook is handed
          -- the engine's moves and nothing a script made up. What is not
          -- found ends the chain: the engine refuses it, naming it. A
          -- move an earlier hook dropped is not this hook's to add back.
          local nsel, named, given = {}, h < #fns.moves and {} or nil, nil
          for i = 1, #kept do
            local m, at = kept[i]
            if pure then
              at = sel and sel[m] or m
            else
              texts = texts or move_texts(all)
              at = texts[type(m) == "table" and rawget(m, "text") or m]
              if not at then return { type(m) == "number" and ("move number " .. m) or m }, reasons, warning end
              if sel then
                if not given then
                  given = {}
                  for _, x in ipairs(sel) do given[x] = true end
                end
                if not given[at] then
                  error(string.format("it answered '%s', which an earlier house rule of the chain dropped: "
                    .. "a hook may only drop moves", all[at].text), 0)
                end
              end
            end
            nsel[i] = at
            if named then named[i] = all[at] end
          end
          sel, moves = nsel, named
        end
        if type(why) == "table" then for k, r in pairs(why) do reasons[k] = r end end
      end
      -- (the engine's numbers: all of them, in its order, when every
      -- move stays; the engine reads a list given back as changed)
      if not sel then
        sel = {}
        for i = 1, #all do sel[i] = i end
      end
      return sel, reasons, warning
    end
    -- One hook is given the list the engine makes in its box, and its
    -- answer goes to the engine as it is: numbers into that list, or the
    -- script's own texts or tables, which the engine looks up or refuses;
    -- reasons that are not a table are none. (It is called as it is: a
    -- wrapper would cost a call a position.)
    hooks.moves_built = one and true or nil
    hooks.moves_state = false
    for _, f in ipairs(fns.moves) do
      if state_read[f] ~= false then hooks.moves_state = nil end
    end
  end
  if #fns.score == 1 then
    hooks.score = fns.score[1]
  elseif #fns.score > 1 then
    -- Each names its own points; the row shows every name given.
    hooks.score = function(score, state)
      local names, odd = {}, nil
      for _, f in ipairs(fns.score) do
        score.label = nil
        local s = f(score, state)
        if type(s) == "table" then score = s end
        local l = rawget(score, "label")
        if type(l) == "string" then names[#names + 1] = l elseif l ~= nil then odd = odd or l end
      end
      -- (a name that is not text is refused by the engine, with a warning)
      score.label = odd or (#names > 0 and table.concat(names, " + ")) or nil
      return score
    end
  end
  if #fns.match > 0 then
    hooks.match = function(state)
      for _, f in ipairs(fns.match) do
        local r = f(state)
        if r ~= nil then return r end
      end
      return nil
    end
  end
  return hooks
end

-- The catalogue entry a spec's name stands for in game: a house rule of
-- a game with a prefix is found by its short name too.
local function lookup(cat, game, name)
  local prefix = prefix_of(game)
  if prefix ~= "" then
    local v = cat.found[prefix .. name]
    if v and game_of(v) == game and not v.base then return v end
  end
  return cat.found[name]
end

-- A base of a game that no script of the catalogue describes: its
-- package names it among its bases and its rules part's base(name) gives
-- its rules (a game written in Lua needs no rules-variants folder).
local function package_base(game, name)
  local pkg = registry.get(game)
  if not pkg or pkg.name ~= game then return nil end
  for _, b in ipairs(pkg.bases) do
    if b == name then
      return { name = name, base = true, game = game, description = "the base game " .. name, from_package = true }
    end
  end
  return nil
end

-- The base a spec of game starts from when it names none: its script,
-- else the package's first base.
local function default_base(cat, game)
  local v = cat.found[game]
  if v and v.base and game_of(v) == game then return v end
  local pkg = registry.get(game)
  return v or (pkg and package_base(game, pkg.bases[1]))
end

-- The names a spec of game may use: its scripts' and its package's bases.
local function valid_names(cat, game)
  local out, seen = M.names_for(cat, game), {}
  for _, n in ipairs(out) do seen[n] = true end
  local pkg = registry.get(game)
  for _, b in ipairs(pkg and pkg.name == game and pkg.bases or {}) do
    if not seen[b] then out[#out + 1] = b end
  end
  table.sort(out)
  return out
end

-- The entry of that name in another game, if any.
local function elsewhere(cat, game, name)
  for _, other in ipairs(registry.names()) do
    if other ~= game then
      local v = lookup(cat, other, name)
      if v then return v end
    end
  end
  return nil
end

--- "diloti+forced-capture+target=121" -> {rules, hooks, names} or nil, msg.
-- opts.game: the base to use when the spec names none (the default game);
-- opts.pool: the core.box.pool the house rules' boxes count in (a room's).
local resolve
function M.resolve(spec, opts)
  -- (its refusals quote what scripts chose, names, keys, a rules
  -- function's answer, and what a spec says: one line, room for the
  -- list of valid names)
  local r, why = resolve(spec, opts or {})
  if not r then return nil, untrusted.said(why, 2000) end
  return r
end

function resolve(spec, opts)
  local cat = catalogue_of(opts.rules_dirs)
  local chosen, seen, args = {}, {}, {}
  local first = (spec .. "+"):match("^%s*([^+=%s]*)")
  local fv = cat.found[first]
  local owner = not (fv and fv.base) and registry.of_base(first)
  local game = fv and fv.base and game_of(fv) or owner and owner.name or opts.game or registry.default().name
  local rules_of = game_rules(game)
  if not rules_of then
    return nil, string.format("rules: unknown game '%s'; games: %s", tostring(game), list(registry.names()))
  end
  local prefix = prefix_of(game)
  for part in (spec .. "+"):gmatch("([^+]*)%+") do
    local name, arg = part:match("^%s*([^=%s]+)%s*=?%s*(.-)%s*$")
    if not name then return nil, string.format("rules: empty name in '%s'", spec) end
    local v = lookup(cat, game, name)
    if not v or game_of(v) ~= game then v = package_base(game, name) or v end
    if not v or game_of(v) ~= game then
      local refused = catalogue.refusal(cat.errors, name)
      if refused then
        return nil, string.format("rules: variant '%s' was refused when loading: %s", name, refused)
      end
      local there = v or elsewhere(cat, game, name)
      local other = there and string.format(" (a house rule of %s, not %s)", game_of(there), game) or ""
      return nil, string.format("rules: unknown variant '%s'%s; valid names: %s", name, other,
        list(valid_names(cat, game)))
    end
    if seen[v.name] then return nil, string.format("rules: '%s' is named twice", name) end
    if arg ~= "" and not v.arg then
      return nil, string.format("rules: '%s' takes no value", name)
    end
    seen[v.name] = true
    chosen[#chosen + 1] = v
    args[#chosen] = arg ~= "" and arg or nil
  end
  if not chosen[1].base then
    local base = default_base(cat, game)
    if not base then return nil, string.format("rules: the base game '%s' is missing", game) end
    table.insert(chosen, 1, base)
    table.insert(args, 1, false)
    seen[game] = true
  end
  for i, v in ipairs(chosen) do
    if v.hooks or type(v.rules) == "function" then
      local live, why = M.load_source(v.src, v.file, opts.pool)
      if not live then return nil, string.format("rules: variant '%s' failed to load: %s", v.name, why) end
      chosen[i] = live
    end
  end
  for i = 2, #chosen do
    if chosen[i].base then
      return nil, string.format("rules: '%s' and '%s' are both base games", chosen[1].name, chosen[i].name)
    end
  end
  for _, v in ipairs(chosen) do
    for _, r in ipairs(v.requires or {}) do
      if not seen[r] and not (prefix ~= "" and seen[prefix .. r]) then
        return nil, string.format("rules: '%s' requires '%s'", M.short_name(v), r)
      end
    end
    for _, c in ipairs(v.conflicts or {}) do
      if seen[c] or seen[prefix .. c] and prefix ~= "" then
        return nil, string.format("rules: '%s' conflicts with '%s'", M.short_name(v), c)
      end
    end
  end
  local rules = rules_of.rules(chosen[1].from_package and chosen[1].name or nil)
  local base_game = rules.game
  local check_rules = rules_of.check
  local names, spec_parts = {}, {}
  for i, v in ipairs(chosen) do
    names[#names + 1] = v.name
    local short = M.short_name(v)
    spec_parts[#spec_parts + 1] = args[i] and (short .. "=" .. args[i]) or short
    local arg = args[i] or nil
    if v.arg then
      arg = arg or v.arg.default
      if math.type(v.arg.default) == "integer" then
        arg = math.tointeger(tonumber(arg))
        if not arg then
          return nil, string.format("rules: '%s' takes a whole number (%s=%s)", v.name, v.name,
            v.arg.name or "N")
        end
      end
    end
    if type(v.rules) == "table" then
      for k, val in pairs(v.rules) do
        if k == "points" and type(val) == "table" then
          for pk, pv in pairs(val) do rules.points[pk] = pv end
        else
          rules[k] = val
        end
      end
    elseif type(v.rules) == "function" then
      local ok, work, err = pcall(v.rules, rules, arg)
      if not ok then
        -- (a variant's own rules function names its rule, file and line)
        work = first_line(work)
        if work:match("^house rule '") then return nil, "rules: " .. work end
        return nil, string.format("rules: variant '%s' failed: %s", v.name, work)
      end
      if type(err) == "string" then
        return nil, string.format("rules: %s: %s", v.name, err)
      end
      rules = work
    end
    -- (the game a rules table names picks the engine: a house rule may not
    -- hand one game's rules to the other's engine)
    if rules.game ~= base_game then
      return nil, string.format("rules: variant '%s' sets game to %s: a house rule stays in its game (%s)",
        v.name, tostring(rules.game), game)
    end
    local fine, why = pcall(check_rules, rules)
    if not fine then
      -- (the check's own file and line are the engine's business)
      local said = first_line(why):gsub("^[^:\n]-%.lua:%d+: ", "")
      return nil, string.format("rules: variant '%s' sets %s", v.name, said)
    end
  end
  local ok, err = check_rules(rules)
  if not ok then return nil, "rules: " .. err end
  return { rules = rules, hooks = compose(chosen), names = names, spec = table.concat(spec_parts, "+"),
    game = game }
end

return M
