-- Pilotta lesson: the 32 cards, the two orders and what each card is worth.
return {
  game = "pilotta",
  id = "02-pack-orders-points",
  title = "The pack, the two orders and card points",
  rules = { "P4", "P5", "P6", "P7", "P29", "PC1" },
  intro = [[Each round has a trump suit, chosen in the auction. The trump suit
ranks its cards in a different order from the three plain suits, and its
Jack and Nine are worth far more.]],
  steps = {
    {
      text = [[The pack: 7, 8, 9, 10, Jack, Queen, King and Ace in each of the four
suits, 32 cards. There is always a trump suit: no round is played without
trumps, or with every suit trumps.]],
      ask = "Which of these cards is in the pack?",
      choices = { "the 6 of hearts", "the 2 of clubs", "the 7 of spades" },
      answer = 3,
      wrong = "P4: the pack starts at the sevens: 7 8 9 10 J Q K A in each suit.",
    },
    {
      text = [[In a plain suit the order is the familiar one: A, 10, K, Q, J, 9, 8, 7
(the Ten ranks just below the Ace). In the trump suit the Jack is the
highest card and the Nine the second: J, 9, A, 10, K, Q, 8, 7.
Here hearts are trumps. Seat 1 led the Ace of spades and you have no
spade, so you must play a trump (lesson 4): any of yours beats the Ace.]],
      position = "dealer=0; calls=80h, pass, pass, pass; hands=?8 / ?7 / 9h Ah Kh 8c Qc 7d 8d Jd / ?8; tricks=As",
      ask = "Play your highest trump.",
      accept = { "9h" },
      wrong_moves = {
        Ah = "P5: the Ace is the highest plain card, but in trumps the Nine ranks above it: only the Jack is higher.",
        Kh = "P5: the King is below the Nine, the Ace and the Ten of trumps.",
      },
      hint = "In trumps the order is J, 9, A, 10, K, Q, 8, 7.",
      wrong = "P5: in the trump suit the Nine is second only to the Jack: it is your highest trump.",
    },
    {
      text = [[A trick is won by the highest trump in it; without a trump, by the
highest card of the suit that was led. A card of another plain suit never
wins, however high.]],
      ask = "Hearts are trumps. Spades are led: Ks, then As, 7h, 10s. Which card wins?",
      choices = { "As, the highest spade", "7h, a trump", "10s" },
      answer = 2,
      wrong = "P29: any trump beats every plain card, even the lowest trump against an Ace.",
    },
    {
      text = [[Card points. Trumps: Jack 20, Nine 14, Ace 11, Ten 10, King 4, Queen 3,
Eight and Seven 0. Plain suits: Ace 11, Ten 10, King 4, Queen 3, Jack 2,
Nine, Eight and Seven 0. The trump suit is worth 62, each plain suit 30:
152 in the pack.]],
      ask = "Hearts are trumps. How many card points are in a trick of Jh, 9s, As and 10d?",
      number = 41,
      hint = "20 for the Jack of trumps, nothing for a plain Nine.",
      wrong = "P6: Jh 20 (a trump), 9s 0 (a plain Nine), As 11, 10d 10: 41.",
    },
    {
      text = [["Higher" always means higher in the order of the suit: in trumps the
Nine beats the Ace and the Ten, the Queen is below the King.]],
      ask = "Spades are trumps. Which trump is higher?",
      choices = { "the Ace of spades", "the Nine of spades", "they are equal" },
      answer = 2,
      wrong = "PC1: in the trump order J, 9, A, 10, K, Q, 8, 7 the Nine comes before the Ace.",
    },
  },
}
