-- Shared helpers for the Lua specs (not a spec itself: busted only runs
-- files ending in _spec.lua). Each spec file finds it through its own
-- folder, so the suite runs from any directory that holds build/.
local M = {}

M.bin = os.getenv("DILOTI_BIN") or "build/diloti"
M.lua = os.getenv("DILOTI_LUA") or "lua5.4"

-- A folder that does not exist, so that the user's own variants never
-- leak into a CLI run.
M.no_config = "/tmp/diloti-spec-no-config-" .. tostring(os.time())

--- Quotes one word for /bin/sh.
function M.q(s)
  return "'" .. (tostring(s):gsub("'", [['\'']])) .. "'"
end

function M.read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

function M.write(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
  return path
end

-- Every folder tmpdir made, removed when this Lua state closes (busted's
-- exit closes it) if its spec did not remove it first.
local made = {}
M._made_gc = setmetatable({}, { __gc = function()
  for _, d in ipairs(made) do M.rmdir(d) end
end })

--- A fresh empty folder under /tmp.
function M.tmpdir()
  local p = assert(io.popen("mktemp -d /tmp/diloti-spec.XXXXXX"))
  local d = p:read("l")
  p:close()
  assert(d and d:match("^/tmp/diloti%-spec%."), "mktemp failed")
  made[#made + 1] = d
  return d
end

-- A name for a scratch file of this process, in a folder of its own made
-- by tmpdir on first use (never os.tmpname's, which would put it straight
-- in /tmp beside everybody's files).
local scratch, scratch_n = nil, 0
function M.scratch()
  scratch = scratch or M.tmpdir()
  scratch_n = scratch_n + 1
  return string.format("%s/f%d", scratch, scratch_n)
end

--- Removes a folder made by tmpdir (and nothing else).
function M.rmdir(d)
  if d and d:match("^/tmp/diloti%-spec%.[%w]+$") then os.execute("rm -rf " .. M.q(d)) end
end

--- Runs the diloti program with a list of arguments. Returns stdout,
-- stderr and the exit code. A run that hangs is killed after 30 s
-- (exit code 124).
function M.cli(args, env)
  local errf = M.scratch()
  local parts = { "XDG_CONFIG_HOME=" .. M.q(M.no_config) }
  for k, v in pairs(env or {}) do parts[#parts + 1] = k .. "=" .. M.q(v) end
  parts[#parts + 1] = "timeout 30"
  parts[#parts + 1] = M.q(M.bin)
  for _, a in ipairs(args) do parts[#parts + 1] = M.q(a) end
  local cmd = table.concat(parts, " ") .. " 2>" .. M.q(errf) .. " </dev/null"
  local p = assert(io.popen(cmd, "r"))
  local out = p:read("a")
  local _, _, code = p:close()
  local err = M.read(errf)
  os.remove(errf)
  return out, err, code
end

--- Starts a Lua script in a child lua5.4 that loads the module from the
-- same place as this process, killed after `seconds`. It runs while the
-- caller does other things; wait() returns its output (stdout and
-- stderr) and exit code, 124 when it had to be killed.
function M.spawn(code, seconds)
  local file = M.write(M.scratch(), code)
  local cmd = string.format("LUA_CPATH=%s timeout %d %s %s 2>&1", M.q(package.cpath), seconds or 10,
    M.q(M.lua), M.q(file))
  local p = assert(io.popen(cmd, "r"))
  local done, out, status
  return {
    wait = function()
      if not done then
        out = p:read("a")
        local _, _, c = p:close()
        status = c
        os.remove(file)
        done = true
      end
      return out, status
    end,
  }
end

--- The lines of a text, without empty ones.
function M.lines(s)
  local t = {}
  for l in s:gmatch("[^\n]+") do t[#t + 1] = l end
  return t
end

--- A sorted copy of a list (to compare move lists as sets).
function M.sorted(list)
  local t = {}
  for i, v in ipairs(list) do t[i] = v end
  table.sort(t)
  return t
end

--- A position string's fields as a table: fields(p).table, .piles, ...
function M.fields(pos)
  local t = {}
  for field in (pos .. ";"):gmatch("([^;]*);") do
    local k, v = field:match("^%s*([%w_]+)%s*=%s*(.-)%s*$")
    if k then t[k] = v end
  end
  return t
end

--- A position string without its pack (whose order depends on the seed).
function M.without_pack(pos)
  return (pos:gsub(";%s*pack=[^;]*", ""):gsub("%s+$", ""))
end

--- Does a list hold a value?
function M.has(list, value)
  for _, v in ipairs(list) do
    if v == value then return true end
  end
  return false
end

--- Escapes a literal for use as a Lua pattern.
function M.lit(s)
  return (s:gsub("[%^%$%(%)%%%.%[%]%*%+%-%?]", "%%%0"))
end

--- A Lua table constructor {name = true, ...} for a list of names.
function M.set_literal(list)
  local parts = {}
  for _, n in ipairs(list) do parts[#parts + 1] = string.format("[%q] = true", n) end
  return "{ " .. table.concat(parts, ", ") .. " }"
end

-- Source text defining walk(roots, forbidden), run inside a box: every
-- value reachable from the roots through table keys and values (raw),
-- the types met, and the paths of any forbidden key.
M.WALK = [[
local function walk(roots, forbidden)
  local seen, types, found, stack = {}, {}, {}, {}
  for name, v in next, roots do stack[#stack + 1] = { v, name } end
  while #stack > 0 do
    local item = table.remove(stack)
    local v, path = item[1], item[2]
    local t = type(v)
    types[t] = (types[t] or 0) + 1
    if t == "table" and not seen[v] then
      seen[v] = true
      for k, x in next, v do
        if forbidden[k] then found[#found + 1] = path .. "." .. tostring(k) end
        stack[#stack + 1] = { k, path .. "[key]" }
        stack[#stack + 1] = { x, path .. "." .. tostring(k) }
      end
    end
  end
  table.sort(found)
  return { types = types, found = table.concat(found, " ") }
end
]]

-- ---- the lessons (learn_spec, pilotta_learn_spec) ----

--- A lesson runner reading `lines` (nil after the last one); returns it
-- and a function giving all output so far. o: lessons, game,
-- progress_path (none), getenv (no variables).
function M.lesson_runner(lines, o)
  local learn, screen = require "diloti.teach.learn", require "diloti.table.screen"
  local out, i = {}, 0
  local r = learn.runner {
    write = function(s) out[#out + 1] = s end,
    read = function(prompt)
      out[#out + 1] = prompt
      i = i + 1
      return lines[i]
    end,
    style = screen.style {}, getenv = o.getenv or function() return nil end,
    progress_path = o.progress_path or false, lessons = o.lessons, game = o.game,
  }
  return r, function() return table.concat(out) end
end

--- The table each step of a lesson starts from (a clone), and the
-- canonical answers, following the lesson's own chain of first answers.
function M.lesson_walk(lesson)
  local steps = {}
  assert(require("diloti.teach.learn").walk(lesson, function(i, step, g, said, answers)
    steps[i] = { step = step, g = g and g:clone(), said = said, answers = answers }
  end))
  return steps
end

--- A legal move of g that is none of `answers` (nil when there is none).
function M.legal_wrong(g, answers)
  local ok = {}
  for _, a in ipairs(answers) do ok[a] = true end
  for _, m in ipairs(g:moves()) do
    if not ok[m] then return m end
  end
end

--- Output is wrapped to the width: compare with runs of spaces joined.
function M.flat(s) return (s:gsub("%s+", " ")) end

-- ---- what a viewer may not know (as conformance_spec judges views): the
-- wire's tests (protocol_spec, server_spec) check every frame with these.

local function shown_cards(v, set)
  if type(v) ~= "table" then return set end
  if v.shown == true and type(v.cards) == "table" then
    for _, c in ipairs(v.cards) do set[c] = true end
  end
  for _, x in pairs(v) do shown_cards(x, set) end
  return set
end

-- The cards viewer (a seat, or nil) may not see now: every other hand
-- and the pack, from g:state(), less the cards shown to all.
function M.hidden(g, viewer)
  local s, set = g:state(), {}
  local open = shown_cards(s, {})
  for seat, hand in pairs(s.hands or {}) do
    if seat ~= viewer then
      for _, c in ipairs(hand) do set[c] = not open[c] and seat or nil end
    end
  end
  for _, c in ipairs(type(s.pack) == "table" and s.pack or {}) do set[c] = "pack" end
  return set
end

-- `unseen` lists cards a viewer has not seen (no holder), `known_...`
-- cards the rules show it: the game's own word on what it knows.
local function skipped(k)
  return k == "unseen" or (type(k) == "string" and k:find("^known_") ~= nil)
end

function M.leaks(v, set, path, found)
  found = found or {}
  if type(v) == "string" then
    for w in v:gmatch("[%w]+") do
      if set[w] then found[#found + 1] = string.format("%s (%s, held by %s)", path, w, tostring(set[w])) end
    end
  elseif type(v) == "table" then
    for k, x in pairs(v) do
      if not skipped(k) then M.leaks(x, set, path .. "." .. tostring(k), found) end
    end
  end
  return #found > 0 and table.concat(found, "; ") or nil
end

--- A counter as a host's random source: distinct tokens, the same every run.
function M.counting_random()
  local n = 0
  return function(k)
    n = n + 1
    return string.rep(string.char(n % 256), k)
  end
end

return M
