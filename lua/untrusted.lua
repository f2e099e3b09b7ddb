-- Values that sandboxed scripts (variants, AIs, lessons) hand back to the
-- host. They are copied with raw access only: a script's table may carry
-- metamethods, which must never run outside its sandbox.
local core = require "diloti.core"
local textfile = require "diloti.textfile"

local M = {}

--- Runs a script's main chunk: src loaded as text into env under the name
-- "@file", then run in the sandbox under `limits` (as core.sandbox.call
-- takes them), its messages naming `label`. Returns true and what the
-- chunk returned, or false and the error's first line led by the file.
function M.run_main(src, file, env, limits, label)
  local fn, err = core.sandbox.load(src, "@" .. file, env)
  if not fn then return false, textfile.with_file(err, file) end
  core.sandbox.label(label)
  local ok, v = core.sandbox.call(limits, fn)
  core.sandbox.label("")
  if not ok then return false, textfile.with_file(v, file) end
  return true, v
end

--- A raw copy of t: keys that are strings or numbers (and booleans with
-- opts.booleans), tables below max_depth levels dropped.
function M.rawcopy(t, max_depth, booleans)
  local function copy(v, depth)
    if type(v) ~= "table" then return v end
    if depth > max_depth then return nil end
    local c, k, x = {}, next(v)
    while k ~= nil do
      local kt = type(k)
      if kt == "string" or kt == "number" or (booleans and kt == "boolean") then c[k] = copy(x, depth + 1) end
      k, x = next(v, k)
    end
    return c
  end
  return copy(t, 0)
end

-- Lower bounds of what Lua 5.4 objects take on a 64-bit machine, so that
-- an estimate over the cap means the memory really is held: a table's
-- header, an array slot, a hash node (the hash part has a power of two of
-- them, and holds at least every key that is not an integer), a string's
-- header, a closure's header and an upvalue's slot in it.
local TABLE, SLOT, NODE, STRING, CLOSURE, UPVALUE = 56, 16, 24, 24, 32, 8

--- Bytes reachable from roots (a script's environment and functions:
-- memory of no one else), and whether that passed `cap`; the walk stops
-- there (each step adds at least SLOT bytes, so it is bounded by cap / SLOT
-- steps). Raw access only: no metamethod, so no script code, runs here.
-- Used to tell what a script keeps between calls from what the rest of
-- the process holds. Only functions whose chunk is `source` (the
-- script's, "@file") are entered: a host function the script was handed
-- (its math.random, a ctx helper it kept) reaches the host's own state,
-- which is not the script's memory.
function M.held(roots, cap, source)
  local getupvalue, getmetatable, getinfo = debug.getupvalue, debug.getmetatable, debug.getinfo
  local seen, stack, n, total = {}, {}, 0, 0
  local function push(x)
    local t = type(x)
    if (t == "table" or t == "function" or t == "string") and not seen[x] then
      seen[x] = true
      n = n + 1
      stack[n] = x
    end
  end
  for _, r in ipairs(roots) do push(r) end
  while n > 0 do
    local x = stack[n]
    stack[n] = nil
    n = n - 1
    local t = type(x)
    if t == "string" then
      total = total + STRING + #x
    elseif t == "table" then
      total = total + TABLE
      push(getmetatable(x))
      local keyed = 0
      for k, v in next, x do
        if math.type(k) == "integer" then total = total + SLOT else keyed = keyed + 1 end
        if total + keyed * NODE > cap then return total + keyed * NODE, true end
        push(k)
        push(v)
      end
      local nodes = 1
      while nodes < keyed do nodes = nodes * 2 end
      if keyed > 0 then total = total + nodes * NODE end
    elseif getinfo(x, "S").source ~= source then
      total = total + CLOSURE
    else
      total = total + CLOSURE
      local i = 1
      while true do
        local name, v = getupvalue(x, i)
        if name == nil then break end
        total = total + UPVALUE
        push(v)
        i = i + 1
      end
    end
    if total > cap then return total, true end
  end
  return total, false
end

-- What one script keeps between calls, measured with held() from its own
-- roots. The walk is made only when the whole process has allocated
-- enough since the last one for the script to have passed the cap (the
-- script may keep what others allocated: its arguments, what another
-- script handed on), and at least an eighth of the cap apart, so that a
-- script legitimately holding nearly the cap is not walked on every call.
local Keeper = {}
Keeper.__index = Keeper

--- untrusted.keeper(cap, file): the account of the script loaded from
-- file, holding nothing yet.
function M.keeper(cap, file)
  return setmetatable({ cap = cap, source = "@" .. file, held = 0, since = core.sandbox.allocated() }, Keeper)
end

--- keeper:exceeded(roots): the bytes the script's roots reach when that
-- is over the cap, else nil (also when no walk was due).
function Keeper:exceeded(roots)
  if core.sandbox.allocated() - self.since <= math.max(self.cap - self.held, self.cap // 8) then return nil end
  local bytes, over = core.sandbox.unmetered(M.held, roots, self.cap, self.source)
  self.held, self.since = bytes, core.sandbox.allocated()
  return over and bytes or nil
end

return M
