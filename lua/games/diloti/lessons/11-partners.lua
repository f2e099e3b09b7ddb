-- Lesson: four players in two partnerships.
return {
  id = "11-partners",
  title = "Four players: partnerships",
  rules = { "D7", "D8", "C9" },
  players = 4,
  intro = [[With four players you sit opposite your partner: seats 0 and 2 are one
side, seats 1 and 3 the other. You play in turn 0, 1, 2, 3, and what
either partner captures goes to the side's one pile.]],
  steps = {
    {
      text = [[Your partner, seat 2, owns a plain 4. You may not raise a partner's
declaration, but you may capture it: here your 4 collects it before
seat 1 can raise it with their 5.]],
      position = "dealer=3; hands=4d 5h 9c / 5d 9d / 4h 4c / 2h 6h; table=8c Kd P4@2(Ac+3s)",
      ask = "Protect your side's cards.",
      accept = { "4d x P4@2" },
      hint = "'5h + P4@2 = 9' is refused; try your 4.",
      wrong = "C9: your partner's declaration may be captured, never raised: take it with your 4.",
    },
    {
      text = [[Seen from seat 1: seat 2's plain 4 belongs to an opponent, so seat 1
may raise it. Now you are seat 1, holding a 5 and a 9.]],
      position = "dealer=3; turn=1; hands=5h 9c / 5d 9d / 4h 4c / 2h 6h; table=8c Kd P4@2(Ac+3s)",
      ask = "Raise the opponents' declaration.",
      accept = { "5d + P4@2 = 9" },
      hint = "4 + 5 = 9.",
      wrong = "D16: seat 2 is an opponent of yours: raise their 4 to 9 with your 5d.",
    },
    {
      text = [[Partners pool everything: one capture pile per side, one score per
side.]],
      ask = "Your partner made a xeri and you took the 10d. How is it scored?",
      choices = { "12 points for your side", "10 for your partner, 2 for you", "nothing until one of you wins" },
      answer = 1,
      wrong = "D8: captures and points belong to the side, not to one player.",
    },
    {
      text = [[The deal also passes around the table: after a round the player who
played first deals next.]],
      ask = "With four players, who plays the first card?",
      choices = { "the dealer", "the player to the dealer's right", "the dealer's partner" },
      answer = 2,
      wrong = "D7: the player to the dealer's right is dealt first and plays first.",
    },
  },
}
