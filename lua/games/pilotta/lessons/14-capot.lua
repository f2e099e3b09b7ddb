-- Pilotta lesson: winning every trick, with or without a capot bid.
return {
  game = "pilotta",
  id = "14-capot",
  title = "Capot: all eight tricks",
  rules = { "P32", "P42", "PC9" },
  intro = [[A team that wins all eight tricks sweeps: it scores 250 trick points
instead of its card points and the last trick, and the other team none.]],
  steps = {
    {
      text = [[A sweep counts whether or not anyone bid capot. Seat 2 bid 110 in
diamonds; seats 0 and 2 took every trick, and seat 0's run of three
(20) stood.]],
      ask = "How many points does the side of seats 0 and 2 score?",
      number = 380,
      hint = "250 for the sweep, the run, and the contract's value.",
      wrong = "P32: 250 for the sweep + 20 + 110 = 380; the side of seats 1 and 3 scores nothing.",
    },
    {
      text = [[A capot bid is made only by winning all eight tricks, whatever the points.
You hold the eight spades; seat 0 bid 160 in hearts.]],
      position = "dealer=3; calls=160h; hands=?8 / Js 9s As 10s Ks Qs 8s 7s / ?8 / ?8",
      ask = "Bid capot in spades.",
      accept = { "capot s" },
      wrong = "P42: with every trump in your hand no trick can be lost: bid capot s.",
    },
    {
      text = [[Seat 3 bid capot in hearts; the side of seats 0 and 2 won one trick
worth 15, the side of seats 1 and 3 the rest, 147.]],
      ask = "Is the capot made?",
      choices = { "yes: 147 is a big score", "no: a capot needs all eight tricks" },
      answer = 2,
      wrong = "P42: only a sweep makes a capot; the side of seats 0 and 2 scores 162 + 250 = 412.",
    },
    {
      text = [[A sweep by the defenders always fails the contract, even if the bidders'
declarations alone reach its value. Seats 0 and 2 bid 80 in hearts with
four Jacks (200) standing, and seats 1 and 3 won all eight tricks.]],
      ask = "How many points does the side of seats 1 and 3 score?",
      number = 530,
      wrong = "PC9: the contract fails: the side of seats 1 and 3 takes 250 for the sweep, the 200 of the Jacks and "
        .. "the 80: 530.",
    },
  },
}
