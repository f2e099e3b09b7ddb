-- Pilotta lesson: adding up rounds, and the end of the match.
return {
  game = "pilotta",
  id = "15-match",
  title = "The match",
  rules = { "P48", "P49" },
  intro = [[Game points add up from round to round. A match is long: 351 game
points by default.]],
  steps = {
    {
      text = [[Each round's game points are added to the sheet; a round everybody
passed adds nothing.]],
      ask = "The side of seats 0 and 2 has 120. The next round is thrown in (four passes). What is its total?",
      number = 120,
      wrong = "P48: a thrown-in round scores nothing: 120.",
    },
    {
      text = [[After a round in which either team reaches the target, the higher total
wins.]],
      ask = "Totals 360 to 355 after a round, target 351. Who wins?",
      choices = { "seats 0 and 2, with 360", "nobody yet: play on", "the team that reached 351 first" },
      answer = 1,
      wrong = "P49: both are past 351, and the higher total, 360, wins.",
    },
    {
      text = [[And if the totals are equal?]],
      ask = "Totals 355 to 355 after a round. What happens?",
      choices = { "the bidding team wins", "another round is played", "the match is drawn" },
      answer = 2,
      wrong = "P49: equal totals decide nothing: another round is played.",
    },
    {
      text = [[The last trick of a round that can end the match. Your side has 340
game points, the other side 330; the match is played to 351. Seat 1 bid
80 in hearts, and your side won the first seven tricks.]],
      position = "dealer=3; round=12; score=340 330; calls=pass, 80h, pass, pass, pass; hands=7d / Jd / 10d / Ad; "
        .. "tricks=Jh 7h Ah Kh / 9h Qh 10h 8h / As 7s 10s Js / Ks 8s Qs 9s / Ac 7c Jc 10c / Kc 8c Qc 9c / Kd 8d 9d Qd",
      ask = "Lead your last card.",
      accept = { "7d" },
      wrong = "P49: it is your only card: 7d.",
    },
    {
      text = [[The others now play to your 7d; seat 1's contract fails, and your side
scores 24 game points and passes the target.]],
      continue = true,
      before = { "Jd", "10d", "Ad" },
      ask = "Had the other side scored 36 game points in this round instead of none, who would have won?",
      choices = { "your side: it reached 351 first", "the other side, 366 to 364", "nobody: another round" },
      answer = 2,
      wrong = "P49: once a team reaches the target, the higher total wins, whoever got there first: 366.",
    },
    {
      text = [[A table can play a shorter match: 151, 251 or 301 game points are usual
choices ('diloti play --game pilotta --target 151').]],
      ask = "Totals 340 and 300 before a round worth 26 and 8. Target 351. What then?",
      choices = { "seats 0 and 2 win with 366", "play on", "seats 1 and 3 win" },
      answer = 1,
      wrong = "P49: 340 + 26 = 366 reaches 351, and 366 beats 308.",
    },
  },
}
