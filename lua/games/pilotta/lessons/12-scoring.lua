-- Pilotta lesson: scoring a round, made or failed, with or without contra.
return {
  game = "pilotta",
  id = "12-scoring",
  title = "Scoring: a made contract and a failed one",
  rules = { "P41", "P42", "P43", "P44", "P45", "P47" },
  intro = [[At the end of a round each team has its trick points (T), its counted
declarations (D) and its belote (B). The contract decides who gets what.]],
  steps = {
    {
      text = [[A contract is made when its team's T + D + B reaches its value (exactly
is enough) and it won at least one trick. Declarations and the belote
count towards it. The side of seats 0 and 2 bid 110 in clubs and took
102 trick points; seat 0's run of four (50) stood.]],
      ask = "Is the contract made?",
      choices = { "yes: 102 + 50 is at least 110", "no: 102 is less than 110" },
      answer = 1,
      wrong = "P42: declarations count towards the contract: 152 is at least 110.",
    },
    {
      text = [[Made: the bidding team scores T + D + B plus the contract's value, and
the defenders keep their own T + D + B. In that round the side of seats
1 and 3 took 60 trick points and had the belote.]],
      ask = "How many points does the side of seats 0 and 2 score (102 trick points, the 50, the 110 of the contract)?",
      number = 262,
      wrong = "P43: 102 + 50 + 110 = 262; the side of seats 1 and 3 scores its own 60 + 20 = 80.",
    },
    {
      text = [[Failed: the other side takes all. The defenders score both teams' trick
points and declarations, the contract's value and their own belote; the
bidding team keeps only its own belote.
This round is nearly over. Your partner, seat 1, bid 80 in hearts, and the
other side won the first six tricks. Play the last two well.]],
      position = "dealer=3; calls=pass, 80h, pass, pass, pass; hands=7d / Jd / 10d / Ad Qd; tricks=Jh 7h Ah Kh / "
        .. "9h Qh 10h 8h / As 7s 10s Js / Ks 8s Qs 9s / Ac 7c Jc 10c / Kc 8c Qc 9c / Kd 8d 9d",
      ask = "Keep your Ace for the last trick.",
      accept = { "Qd" },
      wrong_moves = {
        Ad = "P31: the Ace wins this trick, but then seat 2's 10d takes the last trick and its 10.",
      },
      wrong = "P31: the Queen lets this trick go, and the Ace wins the last one, with its 10 points more.",
    },
    {
      text = [[Seat 0 leads the last trick.]],
      continue = true,
      before = { "7d", "Jd", "10d" },
      ask = "Win the last trick.",
      accept = { "Ad" },
      wrong = "P29: your Ace is the highest diamond left.",
    },
    {
      text = [[Your side took 33 trick points against 129: far short of 80. (The
board's score line counts the round in game points already, its points
in tens, as lesson 13 explains: the question is about the points.)]],
      continue = true,
      ask = "How many points (not game points) does the other side score for the round?",
      number = 242,
      hint = "All 162 trick points, and the contract's value.",
      wrong = "P44: the defenders take both sides' trick points (162) and the 80 of the contract: 242; "
        .. "your side scores nothing.",
    },
    {
      text = [[Under contra (or recontra) the side that wins the contract, made or not,
scores both teams' trick points and declarations plus the contract's value
times the multiplier (2 or 4), and its own belote; the other side only its
belote. Seats 0 and 2 bid 80, seats 1 and 3 said contra, and seats 0
and 2 made it with 97 trick points against 65.]],
      ask = "How many points does the side of seats 0 and 2 score?",
      number = 322,
      wrong = "P45: 162 trick points and 2 x 80 = 160: 322; the side of seats 1 and 3 scores nothing.",
    },
    {
      text = [[The points of a round always add up: both sides' trick points (162, or
250 after a sweep), the declarations, the belotes and the contract's value
(times its multiplier). After a failed contract the bidding team scores
only its belote.]],
      ask = "Seats 0 and 2 bid 100, no contra, and failed; nobody declared; seat 2 had the belote. How many "
        .. "points do seats 0 and 2 score?",
      number = 20,
      wrong = "P47: after a failed contract the bidders keep only their belote: 20.",
    },
  },
}
