-- Pilotta lesson: the trump you must play even when it cannot win, and
-- the free discard.
return {
  game = "pilotta",
  id = "05-undertrumping",
  title = "Undertrumping, and the free discard",
  rules = { "P25", "P26" },
  intro = [[The duty to trump does not end when you cannot win: without the suit
led, a player with trumps plays one, even a losing one.]],
  steps = {
    {
      text = [[Hearts are trumps. Seat 1 led the King of diamonds and seat 2 trumped
with the Jack, the highest trump of all. You hold no diamond and cannot beat
the Jack, but you still have to play a trump.]],
      position = "dealer=0; calls=80h, pass, pass, pass; hands=?8 / ?7 / ?7 / 9h 7h As Ks 7c 8c 7s 8s; "
        .. "tricks=Kd Jh",
      ask = "Give the cheapest trump: the trick is lost anyway.",
      accept = { "7h" },
      wrong_moves = {
        ["9h"] = "P25: the Nine is allowed, but it cannot beat the Jack: it would hand 14 points to the other side.",
      },
      hint = "Your spades are refused here: try one.",
      wrong = "P25: a trump you must play, and the 7h gives away nothing.",
    },
    {
      text = [[With neither the suit led nor a trump, a player may play any card. Hearts
are trumps; seat 1 led the King of diamonds and you have no diamond and no
heart. Your partner, seat 0, plays after seat 3.]],
      position = "dealer=0; calls=80h, pass, pass, pass; hands=?8 / ?7 / 7c 8c Ac 10s 7s Ks 8s Qs / ?8; "
        .. "tricks=Kd",
      ask = "Throw away a card worth nothing: the 7 of clubs.",
      accept = { "7c" },
      hint = "Any card is legal here.",
      wrong = "P26: any card is allowed, but this trick is probably lost: give a card worth nothing, the 7c.",
    },
  },
}
