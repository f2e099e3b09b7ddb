-- Pilotta lesson: who plays, where they sit, how the cards are dealt.
return {
  game = "pilotta",
  id = "01-players-and-deal",
  title = "Four players, two teams, eight cards each",
  rules = { "P1", "P2", "P3", "P8", "P9", "P10", "P11", "P13" },
  intro = [[Pilotta is a trick-taking game for four, played in two teams of two.
This course teaches its rules one idea at a time; at the table the same
words come back in every refusal, with the rule's id (P1, P24...).]],
  steps = {
    {
      text = [[Partners sit opposite each other. The seats are numbered 0 to 3 in the
order of play: seats 0 and 2 are one team, seats 1 and 3 the other. There
is no game for two or three.]],
      ask = "You sit in seat 1. Who is your partner?",
      choices = { "seat 0, on your left", "seat 2, on your right", "seat 3, opposite you" },
      answer = 3,
      wrong = "P2: partners are two seats apart: seat 1 plays with seat 3 (and 0 with 2).",
    },
    {
      text = [[Everything goes round the same way (anticlockwise): seat 1 acts after
seat 0, seat 2 after seat 1, and so on. The dealer is chosen at random for
the first round; after each round the deal passes to the next seat, the
player on the dealer's right.]],
      ask = "Seat 3 dealt this round. Who deals the next one?",
      choices = { "seat 2", "seat 0", "seat 3 again" },
      answer = 2,
      wrong = "P10: the deal moves on one seat each round: after seat 3 comes seat 0.",
    },
    {
      text = [[The pack has 32 cards. After a shuffle (and an optional cut), the dealer
hands them out in packets of three, two and three, so every player holds
his whole hand before anyone speaks. Nothing is turned up and nothing is
dealt later.]],
      ask = "How many cards does each player hold when the auction starts?",
      number = 8,
      hint = "32 cards, four players.",
      wrong = "P11: 3 + 2 + 3 is 8 cards each, all of them dealt before the auction.",
    },
    {
      text = [[The player on the dealer's right is the eldest hand. He speaks first in
the auction, and the calls then go round the table. Here seat 3 dealt, so
you, in seat 0, are the eldest hand, with four good hearts.]],
      position = "dealer=3; hands=Jh 9h Ah 10h 7c Kd 8s 7s / ?8 / ?8 / ?8",
      ask = "Open the auction with a bid of 80 in hearts.",
      notation = { move = "80h", says = "a bid is its value, then the suit's letter", also = { "80\u{2665}" } },
      accept = { "80h" },
      hint = "Type 80h.",
      wrong = "P13: you speak first, and this step asks you to open with 80 in hearts: 80h.",
      after = "Seat 1 speaks next, then seat 2, then seat 3 (the dealer), and round again.",
    },
    {
      text = [[Who deals first can be settled any way the players like: only the order
matters, not how it was chosen.]],
      ask = "Seat 2 is the dealer. Who is the eldest hand?",
      choices = { "seat 1", "seat 3", "seat 0" },
      answer = 2,
      wrong = "P3: the eldest hand is the seat after the dealer: after seat 2 comes seat 3.",
      after = "The eldest hand is also the one who leads to the first trick (lesson 3).",
    },
  },
}
