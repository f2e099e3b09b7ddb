-- Pilotta lesson: playing trumps, beating the trumps in the trick, and
-- the partner who is winning.
return {
  game = "pilotta",
  id = "04-trumping",
  title = "Trumping and overtrumping",
  rules = { "P24", "P25", "P27", "PV-partner-exempt" },
  intro = [[Trumps come with two duties: a player who cannot follow a plain suit
must trump, and whoever plays a trump must beat the trumps already in the
trick if he can.]],
  steps = {
    {
      text = [[When a trump is led, you follow with a trump, and it must be higher than
every trump already in the trick if you have such a card. Spades are
trumps and seat 3 led the 10s. Your Ace and Nine beat it; your Queen
does not.]],
      position = "dealer=2; calls=80s, pass, pass, pass; hands=Qs As 9s Kh 7c 8c 7d 8d / ?8 / ?8 / ?7; tricks=10s",
      ask = "Beat the Ten with your Ace, and keep the Nine.",
      accept = { "As" },
      wrong_moves = {
        ["9s"] = "P24: the Nine is allowed too, but it is your second-best trump (and 14 points): "
          .. "the Ace does the job.",
      },
      hint = "Try the Qs first, if you like: it is refused.",
      wrong = "P24: a trump higher than the 10s is required; the Ace is one.",
    },
    {
      text = [[The same holds when you trump a plain suit: if the trick already holds a
trump, yours must beat it if you can. Hearts are trumps; seat 1 led the
King of diamonds and seat 2 trumped with the 10h. You have no diamond.]],
      position = "dealer=0; calls=80h, pass, pass, pass; hands=?8 / ?7 / ?7 / 9h Qh 7h As 7c 8c 7s 8s; "
        .. "tricks=Kd 10h",
      ask = "Play your card.",
      accept = { "9h" },
      hint = "Which of your trumps ranks above the Ten?",
      wrong = "P25: you cannot follow, so you trump, and the Nine is the one trump you hold above the 10h.",
    },
    {
      text = [[Your partner winning the trick changes nothing: you still trump, and
still beat his trump if you can. Hearts are trumps; seat 1 led the 7s, your
partner (seat 2) trumped with the 10h, seat 3 followed. You have no spade.]],
      position = "dealer=0; calls=80h, pass, pass, pass; hands=Ah 7h Kd 7c 8c Jc 7d 8d / ?7 / ?7 / ?7; "
        .. "tricks=7s 10h 8s",
      ask = "Play your card.",
      accept = { "Ah" },
      hint = "The partner's trump is there to be beaten, like anyone's.",
      wrong = "P27: there is no exemption for a partner who is winning: you must overtrump his 10h with the Ace.",
    },
    {
      text = [[Some tables play the French house rule where a player whose partner is
winning may play any card instead of trumping (PV-partner-exempt). It is
not the rule here unless the table turns it on: 'rules' at the table shows
the house rules in force. This table plays it.]],
      position = "dealer=0; calls=80h, pass, pass, pass; hands=Ah 7h Kd 7c 8c Jc 7d 8d / ?7 / ?7 / ?7; "
        .. "tricks=7s 10h 8s",
      spec = "pilotta+partner-exempt",
      ask = "Under this house rule, keep your trumps: give your partner the King of diamonds.",
      accept = { "Kd" },
      hint = "Your partner's 10h is winning: you are free.",
      wrong = "PV-partner-exempt: with the partner winning you may play any card; the Kd adds 4 points to his trick.",
    },
  },
}
