-- `make bench`: the crowded table of issue 24 (twenty loose cards A-5,
-- 1,621,901 legal moves). Each step's time, median of 5, and the peak
-- memory of the whole run: load the position, check a typed capture,
-- count the moves, list them (bounded), load a record of it at the table.
local diloti = require "diloti"
local record = require "diloti.match.record"
local core = require "diloti.core"

local LOOSE = "Ac 2c 3c 4c 5c Ad 2d 3d 4d 5d Ah 2h 3h 4h 5h As 2s 3s 4s 5s"
local POS = "hands=10h 9h 8h 7h 6h / 10s 9s 8s 7s 6s; table=" .. LOOSE .. "; pack=-"
local SWEEP = "10h x " .. LOOSE

local function median(f)
  local t = {}
  for i = 1, 5 do
    local t0 = core.clock()
    f()
    t[i] = (core.clock() - t0) * 1000
  end
  table.sort(t)
  return t[3]
end

local g = assert(diloti.new{ position = POS })
local n, listed, cut
local steps = {
  { "load the position", function() assert(diloti.new{ position = POS }) end },
  { "check a typed capture", function() assert(g:check(SWEEP)) end },
  { "count the legal moves", function() n = g:count() end },
  { "list the moves", function()
      local fresh = assert(diloti.new{ position = POS })
      local l
      l, cut = fresh:moves()
      listed = #l
    end },
  { "load a saved record of it", function()
      local text = "diloti-record 1\nposition: " .. POS .. "\nseat 0: human\nseat 1: human\nmoves\n1 s0: "
        .. SWEEP .. "\nend 1\n"
      assert(record.load(text))
    end },
}
for _, s in ipairs(steps) do
  io.write(string.format("crowded table: %-26s median %8.3f ms of 5\n", s[1], median(s[2])))
end
local f = io.open("/proc/self/status")
local hwm = f and f:read("a"):match("VmHWM:%s*(%d+)")
if f then f:close() end
io.write(string.format("crowded table: %d legal moves counted, %d listed (%s); peak %.0f MiB\n", n, listed,
  cut and "cut" or "whole", (tonumber(hwm) or 0) / 1024))
