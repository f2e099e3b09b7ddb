-- The games this program plays, each a package of its own folder
-- (lua/games/NAME/, module diloti.games.NAME): a plain descriptor that
-- names the package's parts (rules, board, coach, ai, record, ...) as
-- modules required only when asked, and its script folders. Generic
-- modules ask the registry and never name a game (docs/architecture.md,
-- "Games as packages").
--
-- No work at require: the descriptors are found the first time a function
-- is called: every embedded module diloti.games.NAME, then the folders of
-- DILOTI_GAMES_PATH (colon-separated) and of add_dir (trusted code, like
-- the table's rc file: each DIR/NAME/init.lua is a descriptor and its
-- parts are files of DIR/NAME/).
local M = {}

local packages -- name -> descriptor, once found
local order    -- the names, the default first then by name

local REQUIRED = { { "name", "string" }, { "title", "string" }, { "bases", "table" }, { "parts", "table" } }

-- A descriptor as checked, or nil and why (naming where it came from).
local function check(d, where)
  if type(d) ~= "table" then return nil, where .. ": a game's descriptor must be a table" end
  for _, f in ipairs(REQUIRED) do
    local k, t = f[1], f[2]
    if type(d[k]) ~= t then return nil, string.format("%s: field '%s' must be a %s", where, k, t) end
  end
  if not d.name:match("^[%a][%w_]*$") then
    return nil, string.format("%s: the game's name '%s' must be a word", where, d.name)
  end
  d.scripts = d.scripts or {}
  return d
end

local function sort_order()
  order = {}
  for name in pairs(packages) do order[#order + 1] = name end
  table.sort(order, function(a, b)
    local da, db = packages[a].default == true, packages[b].default == true
    if da ~= db then return da end
    return a < b
  end)
end

local function adopt(d)
  packages[d.name] = d
  sort_order()
end

-- A folder's packages: DIR/NAME/init.lua each, its parts DIR/NAME/PART.lua
-- loaded through package.preload under the names the descriptor gives.
local function read_dir(dir)
  local core = require "diloti.core"
  local names = core.listdir(dir)
  if not names then return nil, dir .. ": cannot read the folder" end
  table.sort(names)
  for _, name in ipairs(names) do
    local path = dir .. "/" .. name .. "/init.lua"
    local chunk = loadfile(path)
    if chunk then
      local d, why = check(chunk(), path)
      if not d then return nil, why end
      for _, module in pairs(d.parts) do
        local file = module:match("([%w_]+)$")
        local part = dir .. "/" .. name .. "/" .. file .. ".lua"
        package.preload[module] = package.preload[module] or function() return dofile(part) end
      end
      d.dir = dir .. "/" .. name
      adopt(d)
    end
  end
  return true
end

local function found()
  if packages then return packages end
  packages, order = {}, {}
  local names, prefix = {}, "diloti.games."
  for module in pairs(package.preload) do
    local name = module:match("^diloti%.games%.([%w_]+)$")
    if name then names[#names + 1] = name end
  end
  table.sort(names)
  for _, name in ipairs(names) do
    local d = assert(check(require(prefix .. name), prefix .. name))
    packages[d.name] = d
  end
  sort_order()
  for dir in (os.getenv("DILOTI_GAMES_PATH") or ""):gmatch("[^:]+") do assert(read_dir(dir)) end
  return packages
end

--- The packages: the default first, then by name.
function M.list()
  found()
  local out = {}
  for i, name in ipairs(order) do out[i] = packages[name] end
  return out
end

--- The names of the games, as list() orders them.
function M.names()
  found()
  return { table.unpack(order) }
end

--- For the name of another game's base rules: how to play
-- it, as words to end a "no game" message with; "" for any other name.
function M.base_hint(name)
  local owner = M.of_base(name)
  if not owner then return "" end
  return string.format(" ('%s' is played as %s's rules: --rules %s)", name, owner.name, name:lower())
end

--- The package of a game's name, or nil and a message naming the games
-- (and, for the name of another game's base rules, how to play it).
function M.get(name)
  found()
  local d = type(name) == "string" and packages[name:lower()] or nil
  if d then return d end
  return nil, string.format("no game '%s': games are %s%s", tostring(name), table.concat(order, ", "),
    M.base_hint(name))
end

--- The default game's package.
function M.default()
  found()
  for _, name in ipairs(order) do
    if packages[name].default then return packages[name] end
  end
  return packages[order[1]]
end

--- The package owning a base rules name, or nil.
function M.of_base(base)
  found()
  if type(base) ~= "string" then return nil end
  base = base:lower()
  for _, name in ipairs(order) do
    for _, b in ipairs(packages[name].bases) do
      if b == base then return packages[name] end
    end
  end
  return nil
end

--- The package of a rules table (its `game` field; the default without one).
function M.of_rules(rules)
  found()
  local game = type(rules) == "table" and rules.game
  return game and (packages[game] or M.of_base(game)) or M.default()
end

--- The package of a game handle.
function M.of(g)
  return M.get(g:game()) or M.default()
end

--- A part of a package (a name or the package): the module, required now,
-- or nil when the game has no such part (or there is no such game).
function M.part(pkg, part)
  if type(pkg) ~= "table" then pkg = M.get(pkg) end
  local module = pkg and pkg.parts[part]
  return module and require(module) or nil
end

--- Reads extra packages from a folder (see the head of this file).
-- Returns true, or nil and why.
function M.add_dir(dir)
  found()
  return read_dir(dir)
end

return M
