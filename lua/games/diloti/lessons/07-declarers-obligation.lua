-- Lesson: what an owner of a declaration may and may not do.
return {
  id = "07-declarers-obligation",
  title = "The declarer's obligation",
  rules = { "D19", "D20" },
  examples = { 11, 12 },
  intro = [[Owning a declaration ties your hands. Until someone else captures,
raises or adds to it, you may only capture (your own pile or anything
else) or build a group that includes your declaration. No laying, no
other plain declaration, no raise. And you must keep a card of its
value, unless your move takes it.]],
  steps = {
    {
      text = [[You own a plain 8 and hold a 2 and an 8. Laying the 2 is refused;
your only move is to collect your pile.]],
      position = "hands=2c 8d / 9c 4h 7s; table=5s 9h Jd P8@0(3c+5c)",
      ask = "Play the only move you have.",
      accept = { "8d x P8@0" },
      hint = "Try '2c lay' and read why it is refused.",
      wrong = "D19: the owner of a declaration may only capture, or add to it as a group.",
    },
    {
      text = [[With more cards you have more choice, within the same limits. Here
the 6 on the table and your 2 make another 8, and 4+4 another.]],
      position = "hands=4d 8d 2c / 9c 3h; table=4s 6h P8@0(3c+5c)",
      ask = "Keep building: turn your plain 8 into a group of 8s.",
      accept = function(m)
        if m.kind ~= "group" then return false end
        for _, t in ipairs(m.takes) do if t == "P8@0" then return true end end
        return false
      end,
      hint = "'2c + 6h P8@0 = G8' or '4d + 4s P8@0 = G8'.",
      wrong = "D19: that is allowed, but this step asks you to grow your declaration into a group of 8s.",
    },
    {
      text = [[The long example. The table holds 2, 3, 4, 8. Your ace with the 3
and the 4 makes 8, and with the loose 8 that is a group of 8s.]],
      position = "hands=Ac 2s 7d 8h 8s Kd / 4h 6c Ah 9c 10s Kh; table=2c 3d 4s 8c",
      ask = "Declare a group of 8s.",
      accept = { "Ac + 3d 4s 8c = G8" },
      hint = "A + 3 + 4 = 8, and the 8c.",
      wrong = "D17: the ace with the 3 and the 4 is a part worth 8, and the 8c another: group them.",
    },
    {
      text = [[Seat 1 answers by putting a 4 on the 2: a plain 6. Your 2 raises it to
8, and since you own a group of 8s, the raised pile goes into your
group as a third part.]],
      continue = true,
      before = { "4h + 2c = 6" },
      ask = "Raise their 6 into your group.",
      accept = { "2s + G8@0 P6@1 = G8" },
      hint = "Name your group and their plain 6.",
      wrong = "C7: raising seat 1's 6 with your 2s makes 8: add it to your group of 8s.",
    },
    {
      text = [[Seat 1 lays an ace. With your 7 it makes one more 8.]],
      continue = true,
      before = { "Ah lay" },
      ask = "Add the 7 and the ace to your group.",
      accept = { "7d + Ah G8@0 = G8" },
      hint = "7 + A = 8.",
      wrong = "D19: you may not lay while you own the group; add the 7 and the ace to it.",
    },
    {
      text = [[Seat 1 lays a 9. You hold two 8s: add one to the group, and the other
will take it all.]],
      continue = true,
      before = { "9c lay" },
      ask = "Add an 8 to your group.",
      accept = { "8h + G8@0 = G8", "8s + G8@0 = G8" },
      hint = "'8h + G8@0 = G8'.",
      wrong = "D19: add one 8 to your group and keep the other to take it.",
    },
    {
      text = [[Seat 1 lays a 10. Your king may not be laid (you own the group), so
there is exactly one move left, the one you planned: take the group.]],
      continue = true,
      before = { "10s lay" },
      ask = "Collect your group.",
      accept = function(m) return m.kind == "capture" end,
      hint = "Your last 8 takes the group.",
      wrong = "D19: you own the group: capture it.",
      after = "Ten cards in one catch.",
    },
    {
      text = [[Because the owner may always take their own declaration, a player
who owns one always has a legal move, and the rules make sure every
player to move has at least one.]],
      ask = "You own a plain 9 and hold a 9 and a Q. Could you be stuck with no legal move?",
      choices = { "no: taking my own 9 is always allowed", "yes, then I pass my turn" },
      answer = 1,
      wrong = "D20: there is always a legal move; a declarer can always capture their own pile.",
    },
  },
}
