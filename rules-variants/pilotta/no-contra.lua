-- A house rule written as a hook, not a field: no field of Pilotta's rules
-- forbids contra, so the moves hook takes contra and recontra out of the
-- list and says why when someone tries one.
return {
  name = "no-contra",
  game = "pilotta",
  description = "Nobody may say contra or recontra: every contract counts once",
  hooks = {
    moves = function(moves)
      local kept, why = {}, {}
      for _, m in ipairs(moves) do
        if m.kind == "contra" or m.kind == "recontra" then
          why[m.text] = "house rule no-contra: contra and recontra are not played at this table"
        else
          kept[#kept + 1] = m
        end
      end
      return kept, why
    end,
  },
}
