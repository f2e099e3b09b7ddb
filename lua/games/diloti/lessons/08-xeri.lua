-- Lesson: sweeping the table, and not letting the other side sweep it.
return {
  id = "08-xeri",
  title = "Xeri: sweeping the table, and avoiding giving one",
  rules = { "D21" },
  examples = { 12 },
  intro = [[A capture that leaves the table completely empty, every loose card and
every declaration gone, is a xeri: 10 points, nearly as much as all
the rest of a round. Making one is good; leaving a table the next
player can sweep is bad.]],
  steps = {
    {
      text = [[Your 9 takes the 4 and the 5, which is everything on the table.]],
      position = "hands=9h 4c / 8c 2s; table=4d 5s",
      ask = "Make a xeri.",
      accept = { "9h x 4d 5s" },
      hint = "4 + 5.",
      wrong = "D21: that leaves a card behind; 9h takes 4d+5s and empties the table.",
    },
    {
      text = [[Now think of the reply. On a table of 3, 5 and 7, taking 3 and 7 with
your 10 leaves a lone 5: any 5 sweeps it. Taking just the 3 leaves 5
and 7, and no single card is worth 12, so no sweep is possible.]],
      position = "hands=3h 10c / 9c 2s 6d; table=3s 5c 7d",
      ask = "Capture, without leaving a table that one card can sweep.",
      accept = { "3h x 3s" },
      wrong_moves = {
        ["10c x 3s 7d"] = "D21: that leaves a lone 5, and a single 5 would sweep it for a xeri.",
      },
      hint = "Which capture leaves two cards that no one card can take together?",
      wrong = "D21: the step asks for a capture; take the 3 with your 3 and leave 5 and 7.",
    },
    {
      text = [[The very first card of a round never makes a xeri, even when it
clears the table. Here it is the first card (ply 0).]],
      position = "ply=0; hands=10h 2c 3c 4h 5h 6h / 9c 2s 7d 8d Jh Jd; table=Ac 2d 3s 4s",
      ask = "Clear the table with your 10.",
      accept = { "10h x Ac 2d 3s 4s" },
      hint = "A + 2 + 3 + 4 = 10.",
      wrong = "D21: your 10 takes all four cards (1+2+3+4); it is no xeri, being the round's first card.",
      after = "Four cards, but no xeri: the round's first card never scores one.",
    },
    {
      text = [[The last card of a deal, even the last card of the round, does make a
xeri if it empties the table. Seat 0 has just taken the jack; your
10 is the last card of the round.]],
      position = "hands=Jc / 10h; table=10s Jd; deal=4; ply=46; pack=-",
      before = { "Jc x Jd" },
      ask = "Play your last card.",
      accept = { "10h x 10s" },
      hint = "Take the 10.",
      wrong = "D21: the 10 takes the 10 and empties the table: a xeri, last card or not.",
    },
    {
      text = [[At the end of a round the cards still on the table go to whoever
captured last (lesson 9).]],
      ask = "Is that end-of-round collection a xeri?",
      choices = { "yes, the table ends up empty", "no, it never counts as one" },
      answer = 2,
      wrong = "D21: only a capture made with a card can be a xeri; the final collection is not.",
    },
  },
}
