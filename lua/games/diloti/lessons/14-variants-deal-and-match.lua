-- Lesson: house rules for the deal, xeri and the match.
return {
  id = "14-variants-deal-and-match",
  title = "House rules for the deal, xeri and the match",
  rules = { "V-face-card-claim", "V-redeal-any-triple", "V-dealer-peeks", "V-xeri-first-card",
    "V-no-xeri-last-card", "V-target=N", "V-seed001" },
  intro = [[The last group of house rules: how the cards are dealt, when a xeri
counts, and how long a match lasts.]],
  steps = {
    {
      text = [[Face-card claim: a player dealt 5 or 6 face cards may, before the
first card of the deal is played, claim a new deal of the whole round.
You hold five face cards.]],
      spec = "diloti+face-card-claim",
      position = "ply=0; claim=0; hands=Jc Jd Qc Qs Kh 2c / 9c 7d 3c 4h 5h 6h; table=8c 6d 5s 3h",
      ask = "Ask for the round to be dealt again.",
      notation = { move = "claim", says = "claim asks for a new deal; keep plays the cards you hold" },
      accept = { "claim" },
      hint = "Type 'claim' (or 'keep' to play these cards).",
      wrong = "V-face-card-claim: keeping is your right too, but this step asks you to claim.",
    },
    {
      text = [[Xeri on the first card: with this house rule even the round's first
card scores a xeri when it clears the table.]],
      spec = "diloti+xeri-first-card",
      position = "ply=0; hands=10h 2c 3c 4h 5h 6h / 9c 2s 7d 8d Jh Jd; table=Ac 2d 3s 4s",
      ask = "Sweep the table.",
      accept = { "10h x Ac 2d 3s 4s" },
      hint = "A + 2 + 3 + 4.",
      wrong = "V-xeri-first-card: your 10 takes all four cards, and here that is a xeri.",
      after = "Under this house rule that is a xeri, first card or not.",
    },
    {
      text = [[No xeri on the last card: the reverse exception, for the round's
very last card.]],
      ask = "Under no-xeri-last-card, the dealer's last card empties the table. Is it a xeri?",
      choices = { "yes", "no" },
      answer = 2,
      wrong = "V-no-xeri-last-card: the round's very last card never scores a xeri under this rule.",
    },
    {
      text = [[Any triple: the table is dealt again when 3 or 4 of its cards share
any rank, not just a face rank.]],
      ask = "Under redeal-any-triple the table is dealt 7, 7, 7, K. What happens?",
      choices = { "play goes on", "the table is dealt again" },
      answer = 2,
      wrong = "V-redeal-any-triple: three cards of any rank on the table call for a new table.",
    },
    {
      text = [[Dealer peeks: before dealing, the dealer looks at the bottom card of
the pack, the one the dealer will get in the last deal.]],
      ask = "Under dealer-peeks, who knows the bottom card of the pack?",
      choices = { "everyone", "the dealer only", "nobody" },
      answer = 2,
      wrong = "V-dealer-peeks: only the dealer sees it, and keeps it in mind all round.",
    },
    {
      text = [[The target: 61 by default, 121 for a long game
('--rules diloti+target=121').]],
      ask = "With target=121, when can the match end?",
      choices = { "after a round in which a side has 121 or more", "as soon as a side has 61" },
      answer = 1,
      wrong = "V-target=N: the target replaces 61; the match ends after a round that reaches it.",
    },
    {
      text = [[The seed001 preset: play passes to the dealer's left, the table is
dealt again on any triple, and partners still may not raise each
other's declarations.]],
      ask = "Which of these does the seed001 preset include?",
      choices = { "forced capture", "a new table on any triple", "xeri on the first card" },
      answer = 2,
      wrong = "V-seed001: it brings redeal-any-triple, and play passing to the dealer's left.",
    },
  },
}
