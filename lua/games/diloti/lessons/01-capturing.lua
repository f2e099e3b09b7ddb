-- Lesson: taking cards from the table, by rank and by sum.
return {
  id = "01-capturing",
  title = "Capturing: by rank, by sum, several parts at once",
  rules = { "D1", "D2", "D3", "D9", "D11", "D13" },
  examples = { 1 },
  intro = [[Diloti is a fishing game: each turn you play one card from your hand,
and with it you try to fish cards off the table. Aces count 1, the
numeral cards count their pips, and J, Q, K count nothing at all.]],
  steps = {
    {
      text = [[The simplest catch: a card takes a loose card of the same value.
Your 7 can take the 7 lying on the table.]],
      position = "hands=7h Kd / 9c 2s; table=7c 4d Jh",
      ask = "Take the seven.",
      notation = { move = "7h x 7c", says = "the card you play, x, then the cards it takes", also = { "7h x" } },
      accept = { "7h x 7c" },
      hint = "Type '7h x 7c', or just '7h x'.",
      wrong = "D11: that move is allowed, but a 7 from your hand takes a 7 from the table: play the 7h on the 7c.",
    },
    {
      text = [[A card also takes loose numeral cards that add up to its value:
4 + 5 make 9, so your 9 takes both of them in one go.]],
      position = "hands=9h Qc / 8d 3s; table=4c 5d 2h",
      ask = "Capture with your nine.",
      accept = { "9h x 4c 5d" },
      hint = "Which two cards on the table add up to 9?",
      wrong = "D3: the 4 and the 5 add up to 9, the value of your 9h; take them with it.",
    },
    {
      text = [[One card may take several parts at once, as long as each part is
worth the card's value on its own. Here an 8 finds an 8, 5+3 and 6+2:
every card on the table. You name the cards; how they split is the
engine's business.]],
      position = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c",
      ask = "Take as many cards as you can with one card.",
      accept = { "8h x 2c 3h 5s 6d 8c" },
      wrong_moves = {
        ["8h x 8c"] = "D11: the 8 alone is a fine catch, but 5+3 and 6+2 are each worth 8 too: take them all.",
        ["8h x 3h 5s"] = "D11: 5+3 is one part worth 8; the 8 and 6+2 are two more you may take with it.",
      },
      hint = "Split the table into groups worth 8 each.",
      wrong = "D11: every part worth 8 may go with the same 8: the 8, 5+3 and 6+2.",
      after = "The table is empty after your capture: that is a xeri, which lesson 8 is about.",
    },
    {
      text = [[After a capture, the cards you took and the card you played go face
down on your own pile. They count for you at the end of the round.]],
      ask = "Your 8h takes the 8c and the 5s+3h. Which cards go to your pile?",
      choices = { "8c, 5s and 3h", "8c, 5s, 3h and the 8h you played", "only the 8c" },
      answer = 2,
      wrong = "D13: the card you played travels with what it caught: all four go to your pile.",
    },
    {
      text = [[Face cards have no value, so they never make part of a sum. A card
on the table that is part of a declaration (lessons 3 to 6) is not loose
and cannot be picked out of it on its own.]],
      ask = "The table holds a 2, a 5 and a Q. Which card of yours takes the 2 and the 5 together?",
      choices = { "a 7", "a Q", "a 10 (2 + 5 + Q)" },
      answer = 1,
      wrong = "D3: only numeral cards add up, and the Q adds nothing: 2 + 5 is 7.",
    },
  },
}
