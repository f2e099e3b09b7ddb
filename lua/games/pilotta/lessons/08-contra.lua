-- Pilotta lesson: doubling and redoubling.
return {
  game = "pilotta",
  id = "08-contra",
  title = "Contra and recontra",
  rules = { "P16", "P17", "P18", "P20" },
  intro = [[A defender who thinks the contract will fail can double it (contra);
the bidding team can answer by doubling again (recontra).]],
  steps = {
    {
      text = [[Seat 1 bid 90 in diamonds. You (seat 2) hold the top diamonds: you doubt
the contract will be made. Contra is open to a player whose team does not
hold the highest bid, once a bid stands.]],
      position = "dealer=0; calls=90d; hands=?8 / ?8 / Jd 9d Ad 10d As Ac 7h 8h / ?8",
      ask = "Double the contract: say contra.",
      accept = { "contra" },
      hint = "Type contra.",
      wrong = "P16: contra doubles what the contract is worth, and you are a defender: say contra.",
    },
    {
      text = [[After a contra nobody may bid any more. Your partner (seat 1) bid 90 in
diamonds and seat 2 said contra. You are sure of the contract.]],
      position = "dealer=0; calls=90d, contra; hands=?8 / ?8 / ?8 / Kd Qd 7d Ah 10h Kh As 10s",
      ask = "Redouble: say recontra. (Try 100d first, if you like.)",
      accept = { "recontra" },
      hint = "Type recontra.",
      wrong = "P17: after a contra, a player of the bidding team may say recontra, once.",
      after = "A recontra ends the auction at once: 90 diamonds, worth four times as much.",
    },
    {
      text = [[After a contra the others each speak once more: the bidding team may
pass or recontra, the defenders only pass. Seat 1 bid 90d, seat 2 said
contra and seat 3 passed.]],
      position = "dealer=0; calls=90d, contra, pass; hands=Jh 9h Ah 7c 8c 7s 8s 9s / ?8 / ?8 / ?8",
      ask = "Your call. (Try recontra, if you like.)",
      accept = { "pass" },
      hint = "You are a defender, like seat 2.",
      wrong = "P18: after a contra, a defender can only pass.",
    },
    {
      text = [[The contract carries a multiplier: 1, 2 after a contra, 4 after a
recontra.]],
      ask = "Calls: 90d, contra, recontra. By how much is the contract multiplied?",
      number = 4,
      wrong = "P20: a contra doubles (2), a recontra doubles again (4).",
    },
  },
}
