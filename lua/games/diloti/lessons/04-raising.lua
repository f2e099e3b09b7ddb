-- Lesson: taking over an opponent's plain declaration by adding a card.
return {
  id = "04-raising",
  title = "Raising an opponent's declaration",
  rules = { "D16" },
  examples = { 4 },
  intro = [[An opponent's plain declaration is not safe from you: you may add one
card from your hand to it, raising its value, and it becomes yours.]],
  steps = {
    {
      text = [[Seat 1 declared 4. You hold a 5 and a 9: put the 5 on their pile,
it is now a plain 9 and yours, backed by your 9.]],
      position = "hands=5h 9c / 4s 7d; table=P4@1(Ac+3s)",
      ask = "Raise seat 1's declaration.",
      notation = {
        move = "5h + P4@1 = 9",
        says = "P4@1 is seat 1's plain declaration of 4: P for plain (G for a group), its value, @ and its "
          .. "owner's seat; a shorter name does when it fits only one declaration",
        also = { "5h + @1 = 9", "5h + P4 = 9", "5h + Ac 3s = 9", "5h on P4" },
      },
      accept = { "5h + P4@1 = 9" },
      hint = "Type '5h + P4@1 = 9' (or '5h + @1 = 9').",
      wrong = "D16: raise the plain 4 with your 5h to 9: you hold the 9c to take it later.",
    },
    {
      text = [[Seat 1 raised a declaration of yours to 8, so it is theirs now. You
may raise it back: your 2 makes it 10, and you hold the 10.]],
      position = "hands=2c 10d / 8s 5c; table=7h P8@1(2d+4c+2h)",
      ask = "Win the declaration back.",
      accept = { "2c + P8@1 = 10" },
      hint = "8 + 2 = 10.",
      wrong = "D16: their plain 8 plus your 2c is 10, and your 10d backs it: raise it.",
    },
    {
      text = [[A raise adds only the card from your hand, never loose cards too (a
house rule changes that, lesson 13), and the new value is at most 10.
You never raise your own declaration, nor your partner's.]],
      ask = "You own a plain 6. May you raise it to 9 with a 3?",
      choices = { "yes, if I hold a 9", "no, only someone else's declaration can be raised" },
      answer = 2,
      wrong = "D16: raising is for an opponent's declaration; to grow your own, add to it as a group (lesson 6).",
    },
  },
}
