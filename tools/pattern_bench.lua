-- The step-bounded patterns (src/lua/lpattern.c) against the clock:
--   build/diloti run tools/pattern_bench.lua
--   (or LUA_CPATH="build/?.so;;" lua5.4 tools/pattern_bench.lua)
-- 1. Steps per second for each kind of costly pattern: a call is given a
--    large budget it is sure to exceed, and the time until it is refused
--    gives the rate. The slowest kind decides DL_PATTERN_STEPS: a refused
--    call should cost at most about 50 ms.
-- 2. How long each of those calls takes to be refused under the default
--    budget (the worst case a script can make us wait, per call).
-- 3. Heavy but legitimate uses, timed against the stock string library.
-- Every figure is the median of RUNS runs.
require "diloti"
local P = require("diloti.core").pattern

local RUNS = 5
local CALIBRATE = 50000000 -- steps: large enough to time well
local clock = os.clock

local function median(t)
  table.sort(t)
  return t[(#t + 1) // 2]
end

--- Seconds (median) for fn to run, or to fail when must_fail.
local function timed(fn, must_fail)
  local ts = {}
  for i = 1, RUNS do
    local t0 = clock()
    local ok, err = pcall(fn)
    ts[i] = clock() - t0
    if must_fail and (ok or not tostring(err):find("pattern too costly", 1, true)) then
      error("expected a refusal, got: " .. tostring(err):sub(1, 100))
    elseif not must_fail and not ok then
      error(err)
    end
  end
  return median(ts)
end

local a1e5 = ("a"):rep(1e5)
local a5e4 = ("a"):rep(5e4)
-- every 1000th byte completes the right half of the needle: the search
-- compares about one byte per subject byte (memchr cannot skip)
local near_misses = (("a"):rep(999) .. "b"):rep(1e5)
local x8e6 = ("x"):rep(8e6)
local costly = {
  { "lazy .-b on 100 kB", function() return P.find(a1e5, ".-b") end },
  { "greedy a*a*...b (exponential)", function() return P.find(("a"):rep(60), ("a*"):rep(12) .. "b") end },
  { "captures (a-)(a-)b", function() return P.find(a1e5, "(a-)(a-)b") end },
  { "back-reference (a+)%1b", function() return P.find(a5e4, "(a+)%1b") end },
  { "%b() on 100 kB of '('", function() return P.find(("("):rep(1e5), "%b()") end },
  { "1000-byte set [b...b] on 100 kB", function() return P.find(a1e5, "[" .. ("b"):rep(1000) .. "]") end },
  { "%f[%w] frontier x 1000 set", function() return P.find(a1e5, "%f[" .. ("b"):rep(1000) .. "]") end },
  { "gsub .-b, 100 kB", function() return P.gsub(a1e5, ".-b", "") end },
  { "gmatch .-b, 100 kB", function() for _ in P.gmatch(a1e5, ".-b") do end end },
  { "plain find, 100 MB, near misses", function() return P.find(near_misses, ("a"):rep(1000) .. "b", 1, true) end },
  { "gsub x -> y, 8 MB", function() return P.gsub(x8e6, "x", "y") end },
  { "gsub with a function, 4 MB", function() return P.gsub(x8e6, "x", function() end) end },
  { "gsub with a table, 4 MB", function() return P.gsub(x8e6, "x", {}) end },
}

local default = P.set_steps(CALIBRATE)
print(string.format("default budget: %d steps (DL_PATTERN_STEPS)", default))
print(string.format("\n1. steps per second, budget %d, median of %d", CALIBRATE, RUNS))
local slowest = math.huge
for _, c in ipairs(costly) do
  local rate = CALIBRATE / timed(c[2], true)
  slowest = math.min(slowest, rate)
  print(string.format("  %-36s %6.1f M steps/s", c[1], rate / 1e6))
end
print(string.format("  slowest: %.1f M steps/s -> 50 ms is %.1f M steps", slowest / 1e6, slowest * 0.05 / 1e6))

P.set_steps(default)
print(string.format("\n2. time until refusal under the default budget (%d steps)", default))
local worst = 0
for _, c in ipairs(costly) do
  local t = timed(c[2], true)
  worst = math.max(worst, t)
  print(string.format("  %-36s %6.1f ms", c[1], t * 1000))
end
print(string.format("  worst: %.1f ms", worst * 1000))

print("\n3. legitimate heavy uses: bounded / stock")
local x1e6 = ("x"):rep(1e6)
local padded = "  " .. ("word "):rep(2000) .. "  "
local haystack = ("abcdefghij"):rep(1e5) .. "needle"
local text = ("the quick brown fox jumps over the lazy dog "):rep(25000)
local heavy = {
  { "('x'):rep(1e6):gsub('x', 'y')", function(lib) return lib.gsub(x1e6, "x", "y") end },
  { "match('^%s*(.-)%s*$') on 10 kB", function(lib) return lib.match(padded, "^%s*(.-)%s*$") end },
  { "find('needle', 1, true) on 1 MB", function(lib) return lib.find(haystack, "needle", 1, true) end },
  { "find('needle') on 1 MB", function(lib) return lib.find(haystack, "needle") end },
  { "gmatch('%a+') on 1.1 MB", function(lib)
    local n = 0
    for _ in lib.gmatch(text, "%a+") do n = n + 1 end
    return n
  end },
  { "gsub('%w+', table) on 1.1 MB", function(lib) return lib.gsub(text, "%w+", { fox = "cat" }) end },
  { "gsub('(%w+) (%w+)', '%2 %1') on 1.1 MB", function(lib) return lib.gsub(text, "(%w+) (%w+)", "%2 %1") end },
}
for _, c in ipairs(heavy) do
  local ours = timed(function() return c[2](P) end)
  local stock = timed(function() return c[2](string) end)
  assert(select(2, pcall(c[2], P)) == select(2, pcall(c[2], string)), "results differ: " .. c[1])
  print(string.format("  %-40s %7.2f ms / %7.2f ms (x%.2f)", c[1], ours * 1000, stock * 1000, ours / stock))
end
