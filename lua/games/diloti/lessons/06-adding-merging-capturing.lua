-- Lesson: growing groups, merging them, and taking them.
return {
  id = "06-adding-merging-capturing",
  title = "Adding to groups, merging them, capturing them",
  rules = { "D17", "D18", "C6", "C7" },
  examples = { 9, 10, 13 },
  intro = [[A declaration keeps growing: you may add parts to your own, take an
opponent's into a group of yours, or merge two groups. In the end a
single card of the value takes it all.]],
  steps = {
    {
      text = [[You own a plain 6 and hold two more 6s. Add one of them: the plain 6
becomes a group of two 6s, still yours.]],
      position = "hands=6h 6d Kc / 9c 2d; table=Jh P6@0(2c+4s)",
      ask = "Add a 6 to your declaration.",
      notation = {
        move = "6h + P6@0 = G6", says = "your own declaration is named like any other: you are seat 0, so it is P6@0",
        also = { "6h + P6 = G6", "6h on P6" },
      },
      accept = { "6h + P6@0 = G6", "6d + P6@0 = G6" },
      hint = "Type '6h + P6@0 = G6'.",
      wrong = "D17: taking your own pile is allowed, but this step asks you to add a 6 to it as a group.",
    },
    {
      text = [[You own a plain 7. Seat 1 has just declared a plain 5. Your 2 raises
their 5 to 7, and in the same move it joins your own 7 in a group of
7s. Raising their pile on its own is not allowed for you (you already
own a declaration), but inside a group that includes yours it is.]],
      position = "turn=1; hands=2h 7d Kc / 4d 5h Qs 10s; table=Ac P7@0(3c+4s)",
      before = { "4d + Ac = 5" },
      ask = "Raise their 5 into a group with your 7.",
      accept = { "2h + P5@1 P7@0 = G7" },
      hint = "Name both declarations: '2h + P5@1 P7@0 = G7'.",
      wrong = "C7: your 2h raises their plain 5 to 7 inside a group with your plain 7: take both.",
    },
    {
      text = [[Groups merge. Seat 1 owns a group of 5s; with your 5 you may make a new
group that swallows theirs (and the loose 2+3 too, if you like). The
whole merged group is yours.]],
      position = "hands=5h 5d / 9c 5c; table=3s 2h G5@1(5s,Ac+4c)",
      ask = "Take seat 1's group into a group of yours.",
      notation = { move = "5h + G5@1 = G5", says = "G5@1 is seat 1's group of 5s", also = { "5h + G5 = G5" } },
      accept = function(m)
        if m.kind ~= "group" then return false end
        for _, t in ipairs(m.takes) do if t == "G5@1" then return true end end
        return false
      end,
      hint = "Name their group in your move: '5h + G5@1 = G5'.",
      wrong = "D17: capturing it is allowed too, but this step asks you to merge their group into one of yours.",
    },
    {
      text = [[A group is taken only by a card of its value. A 10 cannot take a
group of 9s, not even with an ace beside it; your 9 can.]],
      position = "hands=10c 9d / 9c 4h; table=Ah G9@1(9s,4c+5c)",
      ask = "Capture seat 1's group.",
      notation = {
        move = "9d x G9@1", says = "a declaration is captured like a card: name it, or all of its cards",
        also = { "9d x G9", "9d x 9s 4c 5c" },
      },
      accept = { "9d x G9@1" },
      hint = "Which of your cards has the group's value?",
      wrong = "D18: only a 9 takes a group of 9s: play your 9d on it.",
    },
    {
      text = [[When you take a group you may take any other parts of its value with
it: here 4+5 is another 9, and with it the table is empty.]],
      position = "hands=10c 9d / 9c 2h 7s; table=4h 5h G9@1(9s,4c+5c)",
      ask = "Take everything.",
      accept = { "9d x 4h 5h G9@1" },
      wrong_moves = {
        ["9d x G9@1"] = "D18: the group is yours, but 4+5 is worth 9 too: take it with the group and sweep the table.",
      },
      hint = "The group and 4+5.",
      wrong = "D18: one 9 takes the group of 9s and the loose 4+5 at once.",
    },
    {
      text = [[When your own declaration goes into a group, your duty follows it:
you must keep a card of the group's value. That matters under the
liberal-group house rule (lesson 13), where a plain 5 of yours may
stand as a 5 inside a part of a group of 7s.]],
      ask = "Under liberal group, your plain 5 goes into a group of 7s. What must you still hold afterwards?",
      choices = { "a 5", "a 7", "nothing in particular" },
      answer = 2,
      wrong = "C6: your declaration is now the group of 7s, so you need a 7 in hand to take it.",
    },
    {
      text = [[A group can never be raised: its value is fixed once it is made.]],
      ask = "Seat 1 owns a group of 4s. May you raise it to 9 with a 5?",
      choices = { "yes, as with a plain declaration", "no, a group is never raised" },
      answer = 2,
      wrong = "D18: groups are never raised; a 4 may take it, or you may add a part worth 4.",
    },
  },
}
