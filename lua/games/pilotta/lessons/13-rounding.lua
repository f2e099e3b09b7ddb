-- Pilotta lesson: game points, in tens.
return {
  game = "pilotta",
  id = "13-rounding",
  title = "Game points: the score in tens",
  rules = { "P46" },
  intro = [[The score sheet is kept in tens: each team's points for the round are
divided by 10 and rounded, and those game points are what the match counts.]],
  steps = {
    {
      text = [[A remainder of 6, 7, 8 or 9 rounds up; 0 to 5 rounds down. Only trick
points leave a remainder: everything else is counted in tens.]],
      ask = "A team scores 262 points in a round. How many game points is that?",
      number = 26,
      wrong = "P46: 262 is 26 tens and 2, and 2 rounds down: 26.",
    },
    {
      text = [[Five still rounds down.]],
      ask = "Seats 0 and 2 score 165, seats 1 and 3 score 77. How many game points do seats 0 and 2 get?",
      number = 16,
      wrong = "P46: a remainder of 5 rounds down: 16 (and the 77 of seats 1 and 3 rounds up to 8).",
    },
    {
      text = [[When both remainders are 6, both teams cannot round up: only the bidding
team does. The side of seats 0 and 2 bid 80 and made it with 86 trick points against 76:
166 against 76.]],
      ask = "How many game points does the side of seats 1 and 3, the defenders, get?",
      number = 7,
      wrong = "P46: both remainders are 6, so only the bidders round up (17); the defenders' 76 rounds down to 7.",
    },
    {
      text = [[Play the last card of a round, then count in tens. Seat 1 bid 80 in
hearts; your side, seat 0 and seat 2, won the first seven tricks.]],
      position = "dealer=3; calls=pass, 80h, pass, pass, pass; hands=7d / Jd / 10d / Ad; tricks=Jh 7h Ah Kh / "
        .. "9h Qh 10h 8h / As 7s 10s Js / Ks 8s Qs 9s / Ac 7c Jc 10c / Kc 8c Qc 9c / Kd 8d 9d Qd",
      ask = "Lead your last card.",
      accept = { "7d" },
      wrong = "P46: it is your only card: 7d.",
    },
    {
      text = [[The others now play to your 7d, and seat 3 wins the last trick: the
other side ends with 33 trick points, your side with 129, and their
contract fails. Your side scores 162 + 80 = 242 points: 24 game points,
as the score line shows.]],
      continue = true,
      before = { "Jd", "10d", "Ad" },
      ask = "Had your side bid the 80 and made it with these 129 trick points, how many game points "
        .. "would it score?",
      number = 21,
      hint = "129 + 80, then in tens.",
      wrong = "P46: 129 + 80 = 209: 20 tens and 9, and 9 rounds up: 21.",
    },
  },
}
