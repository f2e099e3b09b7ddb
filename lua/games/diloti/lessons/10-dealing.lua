-- Lesson: how the cards are dealt.
return {
  id = "10-dealing",
  title = "Dealing",
  rules = { "D4", "D5", "D6", "D7" },
  intro = [[The program deals for you, but knowing the deal tells you what can
still come: which cards are out, and when the hands are refilled.]],
  steps = {
    {
      text = [[The first dealer is chosen by chance (or by the players). The player
who did not deal plays first, in every deal of the round, and the
deal passes to the other player for the next round.]],
      ask = "With two players, who plays the first card of a deal?",
      choices = { "the dealer", "the one who did not deal", "whoever holds the lowest card" },
      answer = 2,
      wrong = "D4: the non-dealer always leads.",
    },
    {
      text = [[At the start of a round each player gets 6 cards, the non-dealer
first, and then 4 cards go face up on the table.]],
      ask = "How many cards are on the table when the first card of a round is played?",
      choices = { "none", "4", "6" },
      answer = 2,
      wrong = "D5: the deal puts 4 cards face up on the table.",
    },
    {
      text = [[If 3 or 4 of the 4 table cards are face cards of one rank (three
queens, say), those table cards go back into the pack, the pack is
shuffled, and 4 new table cards are dealt, as often as needed.]],
      ask = "The table is dealt Q, Q, Q and 5. What happens?",
      choices = { "play goes on", "the table cards go back, the pack is shuffled, 4 new ones are dealt",
        "the whole round is dealt again" },
      answer = 2,
      wrong = "D5: three face cards of one rank on the table cause a new table deal (not a new round).",
    },
    {
      text = [[When both hands are empty and cards are left, each player gets 6 more;
nothing more goes to the table. So two players see 4 deals a round.]],
      ask = "How many deals make a two-player round?",
      choices = { "2", "4", "6" },
      answer = 2,
      wrong = "D6: 16 cards at the start, then three more deals of 12: 52 cards in 4 deals.",
    },
    {
      text = [[With four players, seats 0 and 2 play against 1 and 3. The player to
the dealer's right is dealt first and plays first; the dealer plays
last. Everyone gets 6, the table 4, then 6 more each once the hands
are empty.]],
      ask = "How many deals make a four-player round?",
      choices = { "2", "3", "4" },
      answer = 1,
      wrong = "D7: 28 cards at the start, then 24 more: 2 deals.",
    },
  },
}
