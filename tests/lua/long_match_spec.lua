-- A match a house rule keeps going (the match hook answers false) or
-- scores big in: the totals and the round number keep counting, and a
-- position written then reads back the same.
local diloti = require "diloti"

local function play_round(g)
  while g:turn() do assert(g:play(1)) end
end

describe("a long Diloti match", function()
  it("keeps totals past 32767 when a score hook gives 9999 a round", function()
    local hooks = {
      score = function(b)
        b[0].total = 9999
        return b
      end,
      match = function() return false end,
    }
    local g = assert(diloti.new { rules = {}, seed = 3, hooks = hooks })
    for _ = 1, 5 do
      play_round(g)
      assert(g:next_round())
    end
    local v = g:view(0)
    assert.equals(6, v.round)
    assert.equals(49995, v.score[0])
    local back = assert(diloti.new { rules = {}, position = g:position() }):view(0)
    assert.equals(49995, back.score[0])
  end)

  it("refuses a round that would take a total past 10,000,000, keeping the standard points", function()
    local hooks = {
      score = function(b)
        b[0].total = 9999
        return b
      end,
      match = function() return false end,
    }
    -- a round one move from its end, with team 0 just under the limit
    local g = assert(diloti.new { rules = {}, seed = 3 })
    while #g:view(0).hand + #g:view(1).hand > 1 or g:view(0).pack_count > 0 do assert(g:play(1)) end
    local pos = g:position():gsub("score=%-?%d+ %-?%d+", "score=9999990 0")
    g = assert(diloti.new { rules = {}, position = pos, hooks = hooks })
    local e, warn = g:play(1)
    assert.is_table(e)
    local v = g:view(0)
    assert.is_true(v.score[0] <= 10000000 + 30) -- the standard points only
    assert.matches("would pass 10000000", tostring(e.warning or warn))
  end)
end)

describe("hooks given to diloti.new", function()
  it("are refused with a rules spec (its house rules bring their own), never dropped", function()
    local hooks = { match = function() return false end }
    for _, spec in ipairs { false, "diloti", "pilotta" } do
      local g, why = diloti.new { rules = spec or nil, seed = 1, hooks = hooks }
      assert.is_nil(g)
      assert.matches("hooks come with a rules table", why)
    end
    assert.is_not_nil(diloti.new { rules = {}, seed = 1, hooks = hooks })
    assert.is_not_nil(diloti.new { rules = { game = "pilotta" }, seed = 1, hooks = hooks })
  end)
end)
