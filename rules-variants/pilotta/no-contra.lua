-- A house rule written as a hook, not a field: no field of Pilotta's rules
-- forbids contra, so the moves hook takes contra and recontra out of the
-- list and says why when someone tries one.
local WHY = "house rule no-contra: contra and recontra are not played at this table"

return {
  name = "no-contra",
  game = "pilotta",
  description = "Nobody may say contra or recontra: every contract counts once",
  hooks = {
    moves = function(moves)
      local kept, why
      for i = 1, #moves do
        local m = moves[i]
        local kind = m.kind
        if kind == "contra" or kind == "recontra" then
          -- (the first one found: the moves before it are kept)
          if not kept then kept, why = table.move(moves, 1, i - 1, 1, {}), {} end
          why[m.text] = WHY
        elseif kept then
          kept[#kept + 1] = m
        end
      end
      -- Most positions offer neither: the list itself, untouched, is
      -- the cheapest answer there is.
      return kept or moves, why
    end,
  },
}
