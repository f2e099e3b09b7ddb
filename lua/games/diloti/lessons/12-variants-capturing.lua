-- Lesson: house rules that change capturing.
return {
  id = "12-variants-capturing",
  title = "House rules for capturing",
  rules = { "V-forced-capture", "C1", "V-three-face-cards", "C2", "V-liberal-capture", "C5" },
  examples = { 14 },
  intro = [[Tables differ. These house rules change what a capture must or may
take; the program plays any of them with --rules, e.g.
'diloti --rules diloti+forced-capture'.]],
  steps = {
    {
      text = [[Forced capture: a card that can capture must capture, and it may not
leave behind any part the same card could also have taken. With 9 on
A, 3, 4, 5, 9 you may take A+3+5 with the 9, or 4+5 with the 9, but
not A+3+5 alone: the 9 would be left.]],
      spec = "diloti+forced-capture",
      position = "hands=9c 2d / 3h; table=Ac 3s 4d 5h 9s",
      ask = "Capture with the 9 as forced capture demands.",
      accept = { "9c x Ac 3s 5h 9s", "9c x 4d 5h 9s" },
      hint = "Whichever split you choose, the loose 9 goes too.",
      wrong = "V-forced-capture: this step asks for the 9's capture, taking everything it can alongside.",
    },
    {
      text = [[The capture need only be maximal, not the largest. A 6 on A 5 2 4 3 3
may take A+2+3 alone: the 5, 4 and 3 left behind hold no other 6.]],
      spec = "diloti+forced-capture",
      position = "hands=6h 10c / 9c 2s; table=Ac 5d 2h 4c 3s 3d",
      ask = "Take exactly the ace, the 2 and a 3 with your 6.",
      accept = { "6h x Ac 2h 3s", "6h x Ac 2h 3d" },
      hint = "'6h x Ac 2h 3s'.",
      wrong = "C1: that capture is allowed too; the step asks for A+2+3 alone, which is also allowed.",
    },
    {
      text = [[Three face cards: with this house rule three queens may stay on the
table at the deal, and the fourth queen takes all three at once (and
only all three).]],
      spec = "diloti+three-face-cards",
      position = "hands=Qh 5c / 9c 2s; table=Qc Qd Qs 4h",
      ask = "Play your queen.",
      accept = { "Qh x Qc Qd Qs" },
      hint = "Taking one queen is refused; take the three.",
      wrong = "C2: the fourth queen takes the three queens on the table.",
    },
    {
      text = [[Liberal capture: a plain declaration may count as a single card of
its value inside a sum. Seat 1's plain 5 and the loose 4 make 9.]],
      spec = "diloti+liberal-capture",
      position = "hands=9h 3c / 5c 2s; table=4d P5@1(2d+3h)",
      ask = "Take the 4 and seat 1's declaration with your 9.",
      accept = { "9h x 4d P5@1" },
      hint = "4 + 5.",
      wrong = "V-liberal-capture: the plain 5 counts as a 5 here: 4 + 5 = 9.",
    },
    {
      text = [[Under liberal capture any plain declaration counts this way, yours,
your partner's or an opponent's; a group never does.]],
      ask = "Under liberal capture, may a group of 4s and a loose 5 be taken by a 9?",
      choices = { "yes", "no, a group never counts as a card" },
      answer = 2,
      wrong = "C5: only plain declarations count as one card; a group of 4s is taken by a 4 alone.",
    },
  },
}
