-- Lesson: J, Q and K, and putting a card down without capturing.
return {
  id = "02-face-cards-and-laying",
  title = "Face cards, and laying a card",
  rules = { "D9", "D10", "D12" },
  examples = { 12 },
  intro = [[Every turn is exactly one card: you capture with it, declare with it,
or simply lay it face up on the table. Face cards play by rules of
their own.]],
  steps = {
    {
      text = [[A J, Q or K has no value, so it takes only a loose card of the very
same rank: a queen takes a queen, and nothing else.]],
      position = "hands=Qh 5c / 9c 2s; table=Qd Ks 3c 2d",
      ask = "Capture with your queen.",
      accept = { "Qh x Qd" },
      hint = "There is one other queen on the table.",
      wrong = "D12: that move is allowed, but this step is about the queen: it takes the Qd.",
    },
    {
      text = [[Even when two kings lie on the table, a king takes only one of them.
You choose which.]],
      position = "hands=Kh 4c / 9c 2s; table=Kc Kd 7s",
      ask = "Take a king with your king.",
      accept = { "Kh x Kc", "Kh x Kd" },
      hint = "Name just one king: 'Kh x Kc'.",
      wrong = "D12: your king takes one of the two kings on the table; play it.",
    },
    {
      text = [[When you cannot or will not capture, you lay the card: it becomes a
loose card on the table for anyone to fish. Nothing in this hand can
catch anything, so you lay.]],
      position = "hands=9h 4c / 8c 2s; table=6d Jc 2h",
      ask = "Lay a card.",
      notation = { move = "9h lay", says = "the card, then lay", also = { "9h -" } },
      accept = { "9h lay", "4c lay" },
      hint = "Type '9h lay' (or '9h -').",
      wrong = "D10: laying is the move here: put one card face up on the table.",
    },
    {
      text = [[One thing you may not lay: a face card while a loose card of its rank
is on the table. With the Jd lying there, your Jc must take it
instead of joining it.]],
      position = "hands=Jc / 10h; table=10s Jd; deal=4; ply=46; pack=-",
      ask = "Play your jack.",
      accept = { "Jc x Jd" },
      hint = "Laying is refused (D10); capture.",
      wrong = "D10: a jack may not be laid on a table holding a jack: capture it.",
    },
  },
}
