-- Lesson: building a pile worth a value, to take it later.
return {
  id = "03-plain-declarations",
  title = "Plain declarations",
  rules = { "D2", "D14", "D15" },
  examples = { 2, 3 },
  intro = [[Instead of capturing now, you may build: play a card onto loose cards
and announce their total. The pile is a declaration; it stays on the
table, it is yours, and you mean to take it next time with a card of
that value.]],
  steps = {
    {
      text = [[You hold a 3 and an 8; a 5 lies on the table. Put the 3 on the 5 and
declare 8: later your 8 takes the whole pile. A declaration is only
allowed if, after playing, you still hold a card of its value.]],
      position = "hands=3h 8d / 9c; table=5s",
      ask = "Declare 8.",
      notation = {
        move = "3h + 5s = 8", says = "your card, +, the loose cards it goes on, = and the total",
        also = { "3h on 5s" },
      },
      accept = { "3h + 5s = 8" },
      hint = "Type '3h + 5s = 8'.",
      wrong = "D15: the step asks you to declare: your 3h on the 5s makes a plain 8, and you keep the 8d to take it.",
    },
    {
      text = [[A declaration may join several loose cards: 6 + A + 3 make 10, and
you keep your 10 to collect them.]],
      position = "hands=6h 10d / 9c 2d; table=Ac 3s",
      ask = "Declare 10.",
      accept = { "6h + Ac 3s = 10" },
      hint = "Your 6h with the ace and the 3.",
      wrong = "D15: join the 6h with the Ac and the 3s and declare 10; your 10d will take it later.",
    },
    {
      text = [[Here the 3 on the 5 would make 8, but you hold no other 8, so that
declaration is refused. You do hold a 7, and 3 + 4 make 7.]],
      position = "hands=3h 7d / 9c; table=5s 4c",
      ask = "Make the declaration you are allowed to make.",
      accept = { "3h + 4c = 7" },
      hint = "Which total can you back with a card still in your hand?",
      wrong = "D14: declare a value you still hold after the card is played: 3 + 4 = 7, backed by the 7d.",
    },
    {
      text = [[Declarations hold numeral cards only, at most 10 in value, and the
cards inside one cannot be taken out one by one.]],
      ask = "Could you declare 10 by playing a K onto a 10?",
      choices = { "yes, the K counts as 0", "no, face cards never go into a declaration" },
      answer = 2,
      wrong = "D2: J, Q and K are never part of any declaration.",
    },
  },
}
