-- The one catalogue of scripts: AIs, house rules (rules variants) and
-- lessons are all found the same way. First the program's own (compiled
-- in), then the user's folder under $XDG_CONFIG_HOME/diloti, then each
-- folder given on the command line (--ai-dir, --rules-dir, --lessons-dir);
-- a later script with the same name replaces an earlier one. Every file
-- is read through textfile.read with the scripts' size limit, and every
-- script that cannot be read or loaded is listed with its file and why.
-- What loading a script means is the caller's (each kind checks its own
-- fields and runs the script in a box of its own).
local core = require "diloti.core"
local textfile = require "diloti.scripts.textfile"

local M = {}

--- The kinds of script: where the program's own live and the name of
-- the user's folder.
M.KINDS = {
  ai = { builtin = "lua/ai/personalities/", folder = "ai" },
  variants = { builtin = "rules-variants/", folder = "rules-variants" },
  lessons = { builtin = "lua/teach/lessons/", folder = "lessons" },
}

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

--- The program's own scripts of a kind: a sorted list of files and
-- {file = source}.
function M.builtin(kind)
  local embedded = core.embedded(M.KINDS[kind].builtin)
  local files = {}
  for file in pairs(embedded) do
    if file:match("%.lua$") then files[#files + 1] = file end
  end
  table.sort(files)
  return files, embedded
end

--- Every script of a kind. load(src, file, builtin) -> entry, name (or
-- nil, message naming the file). opts: dirs (more folders), getenv,
-- builtin_only. Returns {name = entry}, the sorted names and a list of
-- {file, message} for what was refused (a folder given that cannot be
-- read included; the user's folder may be missing).
function M.scan(kind, load, opts)
  opts = opts or {}
  local found, errors = {}, {}
  local function add(src, file, builtin)
    local entry, name = load(src, file, builtin)
    if entry then
      found[name] = entry
    else
      errors[#errors + 1] = { file = file, message = name }
    end
  end
  local files, embedded = M.builtin(kind)
  for _, file in ipairs(files) do add(embedded[file], file, true) end
  if not opts.builtin_only then
    local ud = M.user_dir(kind, opts.getenv)
    if ud then textfile.each_script(ud, function(src, path) add(src, path, false) end, errors) end
    for _, d in ipairs(opts.dirs or {}) do
      if not textfile.each_script(d, function(src, path) add(src, path, false) end, errors) then
        errors[#errors + 1] = { file = d, message = d .. ": cannot read the folder" }
      end
    end
  end
  local names = {}
  for n in pairs(found) do names[#names + 1] = n end
  table.sort(names)
  return found, names, errors
end

local cache = {}

--- As scan, kept per kind and list of folders until refresh().
function M.cached(kind, load, dirs)
  local key = kind .. "\0" .. table.concat(dirs or {}, "\0")
  local c = cache[key]
  if not c then
    local found, names, errors = M.scan(kind, load, { dirs = dirs })
    c = { found = found, names = names, errors = errors }
    cache[key] = c
  end
  return c.found, c.names, c.errors
end

--- Forgets what cached() kept (after a script was added or changed).
function M.refresh() cache = {} end

--- The refusal of a script named `name`, if one was refused.
function M.refusal(errors, name)
  for _, e in ipairs(errors) do
    if e.file:match("([^/]+)%.lua$") == name then return e.message end
  end
  return nil
end

return M
