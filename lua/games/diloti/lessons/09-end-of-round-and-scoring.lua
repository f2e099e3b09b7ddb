-- Lesson: how a round ends, how it is scored, how a match ends.
return {
  id = "09-end-of-round-and-scoring",
  title = "The end of a round, scoring and the match",
  rules = { "D22", "D23", "D24" },
  intro = [[A round ends when the pack and every hand are empty. Then the points
are counted, and they add up from round to round.]],
  steps = {
    {
      text = [[Last cards of the round. Whatever is left on the table at the end
goes to the side that captured last (in a round where nobody captured
at all, they count for nobody). Capture now, and the K and the 9 that
will remain are yours too.]],
      position = "hands=7h / 9c; table=5s 2d Kc; deal=4; ply=46; pack=-",
      ask = "Make the last capture of the round.",
      accept = { "7h x 2d 5s" },
      hint = "5 + 2 = 7.",
      wrong = "D22: laying gives up the last capture; take 5+2 and the leftovers come to you.",
      after = "Seat 1 can only lay the 9; the K and the 9 then go to you as the last capturer.",
    },
    {
      text = [[Scoring, per side and per round: 4 points for most cards (nobody gets
them at 26 each), 1 for each ace, 2 for the 10 of diamonds, 1 for the 2
of clubs, and 10 for each xeri.]],
      ask = "You took 28 cards, two aces and the 2c. The other side took the 10d, the other two aces "
        .. "and made one xeri. How many points do you score?",
      choices = { "7", "8", "11" },
      answer = 1,
      wrong = "D23: 4 for most cards, 2 for two aces, 1 for the 2c: 7 (the 10d and the xeri are theirs).",
    },
    {
      text = [[Without xeris and without a 26-26 tie the two sides always share the
same total.]],
      ask = "How many points are shared in a round with no xeri and no tie on cards?",
      choices = { "10", "11", "13" },
      answer = 2,
      wrong = "D23: 4 (cards) + 4 (aces) + 2 (10d) + 1 (2c) = 11.",
    },
    {
      text = [[The match is played to 61 points. It ends after a round in which a
side has reached the target; then the higher total wins.]],
      ask = "After a round the score is 70 to 65. Who wins?",
      choices = { "the side with 70", "nobody yet: play on", "the side that reached 61 first" },
      answer = 1,
      wrong = "D24: the match ends once a side is at 61 or more, and the higher total, 70, wins.",
    },
    {
      text = [[And if the totals are equal?]],
      ask = "After a round both sides have 64. What happens?",
      choices = { "the dealer's side wins", "another round is played", "the match is a draw" },
      answer = 2,
      wrong = "D24: a tie on points decides nothing: another round is played.",
    },
  },
}
