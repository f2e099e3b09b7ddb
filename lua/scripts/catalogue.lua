-- The one catalogue of scripts: AIs, house rules (rules variants) and
-- lessons are all found the same way. First the program's own (compiled
-- in), then the user's folder under $XDG_CONFIG_HOME/diloti, then each
-- folder given on the command line (--ai-dir, --rules-dir, --lessons-dir);
-- a later script with the same name replaces an earlier one. One
-- convention for every kind: a game's built-in scripts are in the folder
-- its package names (lua/registry.lua: lua/games/NAME/ai/, lessons/,
-- rules-variants/NAME/), and a user's folder has a subfolder per game
-- (NAME/), read after the folder's own scripts (whose `game` field says
-- which game); the loader is told the game of the folder. Every file
-- is read through textfile.read with the scripts' size limit, and every
-- script that cannot be read or loaded is listed with its file and why.
-- What loading a script means is the caller's (each kind checks its own
-- fields and runs the script in a box of its own).
local core = require "diloti.core"
local textfile = require "diloti.scripts.textfile"
local registry = require "diloti.registry"

local M = {}

--- The kinds of script: the name of the user's folder (the program's own
-- are in the folder each game's package names for the kind).
M.KINDS = {
  ai = { folder = "ai" },
  variants = { folder = "rules-variants" },
  lessons = { folder = "lessons" },
}

-- The games' names: a kind's subfolders.
local function subfolders() return registry.names() end

-- An XDG base folder with our own folder inside, or nil without HOME.
local function xdg(getenv, var, fallback)
  getenv = getenv or os.getenv
  local d = getenv(var)
  if not d or d == "" then
    local home = getenv("HOME")
    if not home or home == "" then return nil end
    d = home .. fallback
  end
  return d .. "/diloti"
end

--- $XDG_CONFIG_HOME/diloti (or ~/.config/diloti): the user's scripts and
-- table.lua. getenv works like os.getenv (tests pass their own).
function M.config_dir(getenv) return xdg(getenv, "XDG_CONFIG_HOME", "/.config") end

--- $XDG_STATE_HOME/diloti (or ~/.local/state/diloti): line history and
-- lesson progress.
function M.state_dir(getenv) return xdg(getenv, "XDG_STATE_HOME", "/.local/state") end

--- The user's folder for a kind of script, or nil.
function M.user_dir(kind, getenv)
  local d = M.config_dir(getenv)
  return d and (d .. "/" .. M.KINDS[kind].folder) or nil
end

-- How deep a file lies (its count of '/').
local function depth(file)
  return select(2, file:gsub("/", ""))
end

--- The program's own scripts of a kind: a list of files, game by game
-- (the registry's order), each game's sorted, {file = source} and
-- {file = the game's name}.
function M.builtin(kind)
  local files, sources, games = {}, {}, {}
  for _, pkg in ipairs(registry.list()) do
    local dir = pkg.scripts[kind]
    if dir then
      local mine = {}
      for file, src in pairs(core.embedded(dir)) do
        -- (only the folder's own files: a game's folder has no subfolders)
        if file:match("%.lua$") and depth(file) == depth(dir) then
          mine[#mine + 1] = file
          sources[file], games[file] = src, pkg.name
        end
      end
      table.sort(mine)
      for _, f in ipairs(mine) do files[#files + 1] = f end
    end
  end
  return files, sources, games
end

-- A folder and then its subfolders: the folders to read, each with its
-- subfolder name (nil for the folder itself).
local function with_subfolders(dir)
  local list = { { dir } }
  for _, sub in ipairs(subfolders()) do list[#list + 1] = { dir .. "/" .. sub, sub } end
  return list
end

--- What reading the folders' scripts of a kind may cost in all, on top
-- of each main chunk's own limits: the seconds their main chunks run
-- (wall clock), and the bytes kept of them (sources and the text of what
-- each returned). A script read after the budget is spent is refused
-- (the program's own scripts are not counted). The last one read may
-- overrun it by one main chunk's limits.
M.BUDGET = { seconds = 10, bytes = 64 * 1024 * 1024 }

-- The bytes of text in an entry: its strings, and those of its tables a
-- few levels down (lists of names, a lesson's steps).
local function text_bytes(v, level)
  if type(v) == "string" then return #v end
  if type(v) ~= "table" or level > 4 then return 0 end
  local n = 0
  for k, x in pairs(v) do n = n + text_bytes(k, level + 1) + text_bytes(x, level + 1) end
  return n
end

--- Every script of a kind. load(src, file, builtin, sub) -> entry, name (or
-- nil, message naming the file); sub: the game subfolder it came from. opts: dirs (more folders), getenv,
-- builtin_only, budget (M.BUDGET's fields). Returns {name = entry}, the sorted names and a list of
-- {file, message} for what was refused (a folder given that cannot be
-- read included; the user's folder may be missing).
function M.scan(kind, load, opts)
  opts = opts or {}
  local found, errors = {}, {}
  local budget = opts.budget or M.BUDGET
  local seconds, bytes = 0, 0
  local function add(src, file, builtin, sub)
    if not builtin and (seconds > budget.seconds or bytes > budget.bytes) then
      local what = seconds > budget.seconds
        and string.format("ran their main chunks for more than %g s", budget.seconds)
        or string.format("hold more than %d MiB", budget.bytes // (1024 * 1024))
      errors[#errors + 1] = { file = file, message = string.format("%s: not loaded: the scripts read before it %s "
        .. "together (the budget of a listing)", file, what) }
      return
    end
    local t0 = core.clock()
    local entry, name = load(src, file, builtin, sub)
    if not builtin then
      seconds = seconds + (core.clock() - t0)
      bytes = bytes + #src + text_bytes(entry, 0)
    end
    if entry then
      found[name] = entry
    else
      errors[#errors + 1] = { file = file, message = name }
    end
  end
  local files, embedded, games = M.builtin(kind)
  for _, file in ipairs(files) do add(embedded[file], file, true, games[file]) end
  -- (a game subfolder may be missing; the folder itself, when given, may not)
  local function folder(d, must)
    for k, f in ipairs(with_subfolders(d)) do
      local ok = textfile.each_script(f[1], function(src, path) add(src, path, false, f[2]) end, errors)
      if k == 1 and not ok and must then
        errors[#errors + 1] = { file = d, message = d .. ": cannot read the folder" }
      end
    end
  end
  if not opts.builtin_only then
    local ud = M.user_dir(kind, opts.getenv)
    if ud then folder(ud, false) end
    for _, d in ipairs(opts.dirs or {}) do folder(d, true) end
  end
  local names = {}
  for n in pairs(found) do names[#names + 1] = n end
  table.sort(names)
  return found, names, errors
end

local cache = {}

-- What the folders of a kind hold now, as one string: each folder, and
-- each of its scripts with the file's stamp (size, times, inode), and the
-- text of a file changed in the last seconds (two edits of the same size
-- within one tick of the file clock have the same times). It changes
-- when a script is added, edited, replaced or removed, and costs a
-- listing and a stat a file, and a read of a file just saved.
local function stamp(kind, dirs)
  local list, parts = {}, {}
  local function add(d) for _, f in ipairs(with_subfolders(d)) do list[#list + 1] = f[1] end end
  local ud = M.user_dir(kind)
  if ud then add(ud) end
  for _, d in ipairs(dirs or {}) do add(d) end
  for _, d in ipairs(list) do
    local names = core.listdir(d)
    parts[#parts + 1] = d .. (names and "" or "\0-")
    for _, n in ipairs(names or {}) do
      if n:match("%.lua$") then
        local path = d .. "/" .. n
        local st, recent = core.stamp(path)
        parts[#parts + 1] = n .. "\0" .. (st or "-") .. "\0" .. (recent and (textfile.read(path) or "-") or "")
      end
    end
  end
  return table.concat(parts, "\n")
end

-- st: the folders' stamp, taken before they are read (a script changed
-- while they are read is read again next time).
local function rescan(kind, load, dirs, st)
  local sources = {}
  local found, names, errors = M.scan(kind, function(src, file, builtin, sub)
    local entry, name = load(src, file, builtin, sub)
    if entry then sources[name] = src end
    return entry, name
  end, { dirs = dirs })
  return { found = found, names = names, errors = errors, sources = sources, stamp = st }
end

--- As scan, kept per kind and list of folders, and read again when a
-- folder's scripts change (added, edited or removed: see stamp).
function M.cached(kind, load, dirs)
  local key = kind .. "\0" .. table.concat(dirs or {}, "\0")
  local c, st = cache[key], stamp(kind, dirs)
  if not c or c.stamp ~= st then
    local fresh = rescan(kind, load, dirs, st)
    -- what was known before stays the baseline of changes() until taken
    fresh.baseline = c and c.baseline or fresh.sources
    c = fresh
    cache[key] = c
  end
  return c.found, c.names, c.errors
end

--- Reads the folders again now (as cached, whatever their stamps say)
-- and tells what changed since the last reload, or since the catalogue
-- was first read: {added = {name...}, changed = {...}, removed = {...}},
-- each sorted, then found, names, errors as cached.
function M.reload(kind, load, dirs)
  local key = kind .. "\0" .. table.concat(dirs or {}, "\0")
  local old = cache[key]
  local c = rescan(kind, load, dirs, stamp(kind, dirs))
  local before = old and old.baseline or c.sources
  local changes = { added = {}, changed = {}, removed = {} }
  for name, src in pairs(c.sources) do
    if before[name] == nil then
      changes.added[#changes.added + 1] = name
    elseif before[name] ~= src then
      changes.changed[#changes.changed + 1] = name
    end
  end
  for name in pairs(before) do
    if c.sources[name] == nil then changes.removed[#changes.removed + 1] = name end
  end
  for _, l in pairs(changes) do table.sort(l) end
  c.baseline = c.sources
  cache[key] = c
  return changes, c.found, c.names, c.errors
end

--- Forgets what cached() kept.
function M.refresh() cache = {} end

--- The refusal of a script named `name`, if one was refused.
function M.refusal(errors, name)
  for _, e in ipairs(errors) do
    if e.file:match("([^/]+)%.lua$") == name then return e.message end
  end
  return nil
end

return M
