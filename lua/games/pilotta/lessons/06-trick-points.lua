-- Pilotta lesson: what a trick is worth, and the last one.
return {
  game = "pilotta",
  id = "06-trick-points",
  title = "Trick points and the last trick",
  rules = { "P29", "P30", "P31" },
  intro = [[Each team counts the card points in the tricks it won. The last trick
is worth 10 more, so card points and the last trick make 162.]],
  steps = {
    {
      text = [[The seventh trick. Hearts are trumps and they are all gone; only
diamonds are left. Seat 0 led the King, and his partner (seat 2) played the
9d. You hold the Ace and the Queen. Whoever wins this trick leads to the
last one, where seat 2's 10d and your partner's Jack are still out.]],
      position = "dealer=3; calls=80h, pass, pass, pass; hands=7d / Jd / 10d / Ad Qd; tricks=Jh 7h Ah Kh / "
        .. "9h Qh 10h 8h / As 7s 10s Js / Ks 8s Qs 9s / Ac 7c Jc 10c / Kc 8c Qc 9c / Kd 8d 9d",
      ask = "Keep the Ace for the last trick: let this one go.",
      accept = { "Qd" },
      wrong_moves = {
        Ad = "P31: the Ace wins this trick (15 points), but then you lead the Queen to the last one, and seat 2's "
          .. "10d takes it with 23 points and the 10 for the last trick.",
      },
      hint = "Count both tricks, with the 10 for the last one.",
      wrong = "P31: the last trick brings 10 more: keep the Ace to win it.",
    },
    {
      text = [[Seat 0 won the seventh trick and leads the last one.]],
      continue = true,
      before = { "7d", "Jd", "10d" },
      ask = "Win the last trick.",
      accept = { "Ad" },
      wrong = "P29: the Ace is the highest diamond, and no trump is left: it wins.",
    },
    {
      text = [[The last trick is yours, and the round is over: the board shows what
each side won.]],
      continue = true,
      ask = "Your side has 33 points. How many of them are card points, in the cards of the last trick?",
      number = 23,
      hint = "7d 0, Jd 2, 10d 10, Ad 11.",
      wrong = "P31: 0 + 2 + 10 + 11 = 23 card points; the other 10 are the last trick's own.",
    },
    {
      text = [[The other side took the first seven tricks.]],
      ask = "How many trick points did they take, if your side has 33?",
      number = 129,
      hint = "All the tricks together make 162.",
      wrong = "P30: the two sides' trick points add up to 162 (152 in cards and 10 for the last trick): "
        .. "162 - 33 = 129.",
    },
  },
}
