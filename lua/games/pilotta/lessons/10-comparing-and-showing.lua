-- Pilotta lesson: whose declarations count, and showing them.
return {
  game = "pilotta",
  id = "10-comparing-and-showing",
  title = "Declarations: comparing and showing",
  rules = { "P36", "P37", "P38" },
  intro = [[Only one team's declarations count: the team with the best single
declaration scores all of its own, the other team none.]],
  steps = {
    {
      text = [[Once the first trick is complete, each team's best declaration is
compared: the higher value wins; at 100 a four beats a run; among fours of
100, Aces beat Tens, Tens Kings, Kings Queens; between runs of equal value,
the longer, then the higher top card, then the one in trumps.]],
      ask = "Hearts are trumps. Seat 0 announced 8c 9c 10c; seat 1 Qs Ks As; seat 3 7d 8d 9d. Who scores?",
      choices = { "seats 0 and 2", "seats 1 and 3", "nobody: the runs are equal" },
      answer = 2,
      wrong = "P36: three-card runs are all worth 20; the Ace-high run of seat 1 beats the Ten-high one.",
    },
    {
      text = [[The winning team scores every declaration its two players announced.]],
      ask = "In that deal, how many declaration points does the side of seats 1 and 3 score?",
      number = 40,
      wrong = "P37: the best of seats 1 and 3 stands, so both their runs count: 20 + 20.",
    },
    {
      text = [[If the two best declarations are equal, neither team scores any.]],
      ask = "Clubs are trumps. Seat 0 announced Js Qs Ks, seat 3 Jh Qh Kh. Who scores?",
      choices = { "seats 0 and 2", "seats 1 and 3", "nobody" },
      answer = 3,
      wrong = "P36: same length, same top card, and neither run is in trumps: they are equal, and equal "
        .. "declarations cancel (P37).",
    },
    {
      text = [[A player of the standing team who announced must show his cards at his
own turn in the second trick, before his card. Forget, and his
declarations are lost. Your run of four clubs (50) beat the other side's
runs of three (20): show it now.]],
      position = "dealer=3; calls=80c, 90d, pass, pass, 110c, pass, pass, pass; hands=7h 10c 7s 7c 8h 8c 9d / "
        .. "Qd As 10d Kh 9s Kd Ad / 10s Ks Qs Qh Jd 7d / Ah Jh Js 9h 8d 10h; tricks=9c 8s Jc Qc / Ac Kc; "
        .. "decls=0:7c 8c 9c 10c, 1:Qd Kd Ad, 3:9h 10h Jh; belote=3",
      ask = "Show your declaration.",
      notation = { move = "show", also = { "show 7c 8c 9c 10c" } },
      accept = { "show" },
      wrong_moves = {
        ["10c"] = "P38: playing your card before showing loses your run: show first.",
      },
      hint = "Type show.",
      wrong = "P38: show first, then play; a card played before showing loses the declaration.",
    },
    {
      text = [[Now play your card. Your partner's Ace of clubs (trumps) is winning, and
seat 1 cannot beat it: only the Jack and the Nine could, and both are out.]],
      continue = true,
      ask = "Give your partner's trick the most points you can.",
      accept = { "10c" },
      wrong = "P30: the 10c adds 10 points to your partner's trick; the 7c and 8c add nothing.",
    },
  },
}
