-- A number in a rules table is read whole or refused with the number the
-- script wrote: a whole float counts as the integer it holds, a number
-- past the range is quoted as it is (not as what a cast made of it).
local diloti = require "diloti"

local function refused(game, field, v)
  local rules = { [field] = v }
  if game == "pilotta" then rules.game = "pilotta" end
  local g, why = diloti.new { game = game, rules = rules }
  assert.is_nil(g)
  return why
end

describe("numbers in a rules table", function()
  for _, game in ipairs { "diloti", "pilotta" } do
    local field = "target"
    it(game .. ": a whole float is the integer it holds", function()
      local rules = { [field] = 151.0 }
      if game == "pilotta" then rules.game = "pilotta" end
      assert.is_not_nil(diloti.new { game = game, rules = rules })
    end)
    it(game .. ": a number past the range is quoted as written", function()
      assert.matches("9223372036854775807 is out of range", refused(game, field, math.maxinteger))
      assert.matches("%-9223372036854775808 is out of range", refused(game, field, math.mininteger))
      assert.matches("4294967300 is out of range", refused(game, field, 2 ^ 32 + 4))
      assert.matches("1e%+300 is out of range", refused(game, field, 1e300))
    end)
    it(game .. ": a fraction, NaN or a string is not a whole number", function()
      assert.matches("4%.5 is not a whole number", refused(game, field, 4.5))
      assert.matches("not a whole number", refused(game, field, 0 / 0))
      assert.matches("expected a whole number, got string", refused(game, field, "4"))
    end)
  end
end)
