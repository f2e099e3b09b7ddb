-- Pilotta lesson: calls, bids, capot and how the auction ends.
return {
  game = "pilotta",
  id = "07-auction",
  title = "The auction: bids, capot, passes and the contract",
  rules = { "P12", "P13", "P14", "P15", "P18", "P19", "P20", "PC7" },
  intro = [[Before the play, the players bid for the right to choose trumps. The
highest bid becomes the contract: the points its team promises to make.]],
  steps = {
    {
      text = [[A call is a pass, a bid, capot, contra or recontra. A bid is a value
from 80 to 160 in tens, with the suit that would be trumps. You are the
eldest hand, with the Jack, Nine and Ace of spades.]],
      position = "dealer=3; hands=Js 9s As 10s Ah Kh 7c 8d / ?8 / ?8 / ?8",
      ask = "Bid 90 in spades.",
      notation = { move = "90s", says = "the value, then the suit: c, d, h or s", also = { "90\u{2660}" } },
      accept = { "90s" },
      hint = "Type 90s (or 9 alone, a bid in tens, PC7, and then the suit from the list it shows).",
      wrong = "P12: a bid is a value and a suit; this step asks for 90 in spades, 90s.",
    },
    {
      text = [[Each bid must be higher than the one before; the suit is free. Seat 0
bid 80 in hearts, seat 1 90 in clubs. You hold strong diamonds.]],
      position = "dealer=3; calls=80h, 90c; hands=?8 / ?8 / Jd 9d Ad 10d Kd 7s 8s 7h / ?8",
      ask = "Outbid seat 1 with 100 in diamonds. (Try 90d first, if you like.)",
      accept = { "100d" },
      hint = "Only 100 or more beats 90, whatever the suit.",
      wrong = "P14: 100d is the lowest bid above 90, and diamonds are your suit.",
    },
    {
      text = [[A pass does not shut you out: you may still bid at a later turn. You
passed first; seat 1 bid 80 in hearts and the other two passed. The
auction is not over yet (three passes must follow the last bid), and it is
your turn.]],
      position = "dealer=3; calls=pass, 80h, pass, pass; hands=Jc 9c Ac 10c Kc 7d 8d 7s / ?8 / ?8 / ?8",
      ask = "Come back in: bid 90 in clubs.",
      accept = { "90c" },
      hint = "90c.",
      wrong = "P15: after a pass you may still bid: 90c outbids the 80h.",
    },
    {
      text = [[Capot is a promise to win all eight tricks. It counts as 250: above
every bid, and nothing is above it. It also names a suit. Seat 0 bid 160
in hearts; your hand is made of spades.]],
      position = "dealer=3; calls=160h; hands=?8 / Js 9s As 10s Ks Qs 8s 7s / ?8 / ?8",
      ask = "Bid capot in spades.",
      notation = { move = "capot s" },
      accept = { "capot s" },
      hint = "Type capot s.",
      wrong = "P14: capot (250) is the only bid above 160; with eight spades you can win every trick.",
    },
    {
      text = [[The auction ends when three passes in a row follow the last bid (or a
contra). The highest bid is the contract: its suit is trumps, its value the
points its team must make.]],
      ask = "Calls: 80c, 90d, pass, pass, 110c, pass, pass, pass. What is the contract?",
      choices = { "90 in diamonds", "110 in clubs", "none: the auction goes on" },
      answer = 2,
      wrong = "P18: three passes after 110c end the auction, and 110c is the highest bid (P20).",
    },
    {
      text = [[If all four players pass without a bid, nobody plays.]],
      ask = "All four players pass. What happens?",
      choices = { "the dealer must bid 80", "the cards are thrown in and the next dealer deals",
        "the eldest hand plays 80 in any suit" },
      answer = 2,
      wrong = "P19: four passes throw the cards in; nobody scores, and the deal moves on.",
    },
  },
}
