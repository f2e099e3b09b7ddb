-- Pilotta lesson: the first lead, following suit, and refused cards.
return {
  game = "pilotta",
  id = "03-following-suit",
  title = "Leading and following suit",
  rules = { "P21", "P22", "P23", "P28", "P51", "PC3" },
  intro = [[Eight tricks are played. The first one is led by the eldest hand, and
each trick's winner leads to the next.]],
  steps = {
    {
      text = [[Seat 1 holds the contract (90 in spades), but the first lead is yours:
you are the eldest hand. The leader may play any card he likes.]],
      position = "dealer=3; calls=pass, 90s, pass, pass, pass; hands=Ah 10h 7c 8c Kd 9d 7s Qs / ?8 / ?8 / ?8",
      ask = "Lead the Ace of hearts.",
      accept = { "Ah" },
      hint = "Type Ah.",
      wrong = "P22: any card may be led; this step asks for the Ace of hearts, the highest heart.",
      after = "Whoever wins this trick leads to the next one.",
    },
    {
      text = [[A player who holds a card of the suit led must play one. Any card of
that suit will do: there is no duty to beat the card that is winning.
Hearts are trumps; your partner, seat 0, led the 10s and is winning the
trick so far (the Jack is below the Ten in a plain suit).]],
      position = "dealer=3; calls=80h, pass, pass, pass; hands=?7 / ?7 / As 7s Jh 9h 8c Kd 7d 8d / ?8; tricks=10s Js",
      ask = "Follow suit without taking the trick from your partner: keep your Ace.",
      accept = { "7s" },
      wrong_moves = {
        As = "P28: the Ace is allowed, but you need not beat anything: your partner is winning, so keep the Ace.",
      },
      hint = "Which spades do you hold? Try a heart too, and see why it is refused.",
      wrong = "P28: any spade is allowed, and the 7 keeps your Ace for later.",
    },
    {
      text = [[Following the suit comes first, even when the trick is already trumped:
someone who can follow never has to trump. Hearts are trumps; seat 1
trumped your partner's 8 of diamonds with the 7h. You hold the Ace of
diamonds and two trumps.]],
      position = "dealer=3; calls=80h, pass, pass, pass; hands=?7 / ?7 / Ad 9h Jh Kc 7c 8c 7s 8s / ?8; tricks=8d 7h",
      ask = "Play your card. (Try the 9h first, if you like.)",
      accept = { "Ad" },
      hint = "You have a diamond.",
      wrong = "PC3: you hold a diamond, so you must play it; the trick stays seat 1's all the same.",
      after = "The Ace follows suit and loses: seat 1's trump still wins the trick.",
    },
    {
      text = [[At the table, a card or a call the rules forbid is simply refused: the
message names the rule it breaks and why, and nothing changes.]],
      ask = "You play a heart while holding a card of the suit led. What happens?",
      choices = { "the heart is played and you lose a point", "it is refused, with the rule's id, "
        .. "and you play again", "your partner must play a heart too" },
      answer = 2,
      wrong = "P51: an illegal action is refused with its rule id (here P23) and the state is left as it was.",
    },
  },
}
