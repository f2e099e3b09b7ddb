-- The hand evaluation lives twice: in lua/games/pilotta/ai_helpers.lua, where the
-- AIs bid with it, and in src/pilotta/estimate.c, where the search reads
-- the calls with it (infer.c). Both copies come from one calibration
-- (tools/calibrate_bid.lua); this spec fails as soon as one is changed
-- without the other. (tests/c/test_pilotta_estimate.c checks the C sums
-- against M.evaluate's on hands with declarations and belotes.)
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
require "support"
require "diloti"
local PL = require "diloti.games.pilotta.ai_helpers"

local function read(path)
  local f = assert(io.open(here .. "../../" .. path, "r"))
  local s = f:read("a")
  f:close()
  return s
end

local c = read("src/pilotta/estimate.c")

describe("the search's estimate (src/pilotta/estimate.c)", function()
  it("has the calibration's weights, in the order of PL.FEATURES", function()
    local body = assert(c:match("WEIGHTS%[F_N%] = {(.-)}"), "no WEIGHTS table")
    local got = {}
    for x in body:gmatch("%-?%d+%.?%d*") do got[#got + 1] = tonumber(x) end
    assert.equals(#PL.FEATURES, #got)
    for i, name in ipairs(PL.FEATURES) do
      assert.near(PL.WEIGHTS[name], got[i], 1e-9, name)
    end
  end)

  it("names the features in the same order", function()
    local names = assert(c:match("enum { (F_ONE.-), F_N }"))
    local i = 0
    for n in names:gmatch("F_(%w+)") do
      i = i + 1
      assert.equals(PL.FEATURES[i]:upper(), n)
    end
    assert.equals(#PL.FEATURES, i)
  end)

  it("has the calibration's chances that a declaration stands", function()
    assert.near(PL.STANDS[20], tonumber(c:match("#define STANDS_20 ([%d.]+)")), 1e-9)
    assert.near(PL.STANDS[50], tonumber(c:match("#define STANDS_50 ([%d.]+)")), 1e-9)
    assert.equals(1, PL.STANDS[100])
    assert.equals(1, PL.STANDS[150])
    assert.equals(1, PL.STANDS[200])
    assert.equals(PL.AVERAGE, tonumber(read("src/pilotta/estimate.h"):match("#define PL_ESTIMATE_AVERAGE (%d+)")))
  end)
end)
