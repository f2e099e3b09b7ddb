-- Lesson: Kontsina, the simpler cousin.
return {
  id = "15-kontsina",
  title = "Kontsina",
  rules = { "K1", "K2", "K3", "K4", "K5", "K6", "K7", "K8" },
  spec = "kontsina",
  intro = [[Kontsina is the plain fishing game Diloti grew from: no declarations,
no xeri, one catch per card. Play it with 'diloti --rules kontsina'.]],
  steps = {
    {
      text = [[In Kontsina a card takes one combination only: a card of its own
rank, or numeral cards adding up to its value, never several at once.
Your 8 may take the 8 or the 5+3, not both.]],
      position = "hands=8h 2d Kc Qs / 9c 7d 3c 4h; table=8c 6d 5s 3h",
      ask = "Capture with your 8.",
      accept = { "8h x 8c", "8h x 3h 5s" },
      hint = "One combination: '8h x 8c' or '8h x 3h 5s'.",
      wrong = "K2: the step asks for a capture with the 8: the 8c, or 5+3.",
    },
    {
      text = [[Face cards take their own rank here too, but one may be laid even
with its rank on the table. There are no declarations at all.]],
      position = "hands=Kc 5d 2h 9h / 9c 7d 3c 4h; table=Kd 4s 6c 3d",
      ask = "Lay your king beside the other king.",
      accept = { "Kc lay" },
      hint = "'Kc lay' is allowed in Kontsina.",
      wrong = "K2: in Kontsina a K may be laid next to a K; this step asks you to lay it.",
    },
    {
      text = [[Two players get 4 cards each, and the first deal also puts 4 on the
table; then 4 more each whenever the hands are empty. The non-dealer
plays first, and the deal alternates.]],
      ask = "How many deals make a two-player round of Kontsina?",
      choices = { "4", "6", "8" },
      answer = 2,
      wrong = "K1: 8 + 4 cards first, then five more deals of 8: 6 deals.",
    },
    {
      text = [[Who starts? The same as in Diloti.]],
      ask = "Who plays first in a deal of Kontsina?",
      choices = { "the dealer", "the non-dealer" },
      answer = 2,
      wrong = "K6: the non-dealer plays first, and the deal alternates between rounds.",
    },
    {
      text = [[At the end, leftover table cards go to the last capturer. Then: 2
points for most cards, 1 for most clubs, 1 for the 2 of clubs and 1
for the 10 of diamonds. The one with more points wins the round.]],
      ask = "How many points are there in a Kontsina round when the cards are not split evenly?",
      choices = { "5", "11", "3" },
      answer = 1,
      wrong = "K4: 2 (cards) + 1 (clubs) + 1 (2c) + 1 (10d) = 5.",
    },
    {
      text = [[What happens to the cards still on the table after the last card?]],
      ask = "The round is over and a 4 and a Q are still on the table. Where do they go?",
      choices = { "to the last player who captured", "to the dealer", "nowhere: they do not count" },
      answer = 1,
      wrong = "K3: they go to whoever captured last.",
    },
    {
      text = [[A match is a set number of rounds, and whoever wins the most rounds
wins the match (a house rule counts points to 21 instead).]],
      ask = "How is a Kontsina match won?",
      choices = { "by winning the most rounds", "by reaching 61 points" },
      answer = 1,
      wrong = "K5: rounds won decide, not points (unless the points house rule is on).",
    },
    {
      text = [[Three can play: turns go round 0, 1, 2, 4 deals a round. You are
seat 0 and your 5 takes the ace and the 4.]],
      players = 3,
      position = "hands=5h 9c / 4d 2s / 7c 3c; table=4c Ac",
      ask = "Capture with your 5.",
      accept = { "5h x Ac 4c" },
      hint = "A + 4 = 5.",
      wrong = "K7: the rules are the same with three players: the 5 takes A+4.",
    },
    {
      text = [[Four can play too: 3 deals a round, and optionally as two partnerships
of opposite seats sharing their captures.]],
      ask = "With four players, how many deals make a round of Kontsina?",
      choices = { "2", "3", "6" },
      answer = 2,
      wrong = "K8: 20 cards at the start, then two deals of 16: 3 deals.",
    },
  },
}
