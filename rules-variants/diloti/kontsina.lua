-- The base game: Kontsina (K1-K8), Diloti's simpler cousin.
return {
  name = "kontsina",
  base = true,
  description = "Kontsina: one combination per capture, no declarations, no xeri",
  rules = {
    players = 2, teams = false, hand_size = 4, table_cards = 4, deals = 6,
    declarations = false, capture = "one", face_lay_blocked = false,
    redeal = "none", xeri = false,
    points = { cards = 2, ace = 0, ten_diamonds = 1, two_clubs = 1, clubs = 1, xeri = 0 },
    match = "rounds", target = 3,
  },
  help = [[Four cards each, four on the table. A card takes exactly one combination:
a card of its rank or numeral cards summing to its value. Most cards 2, most clubs 1,
the 2 of clubs 1, the 10 of diamonds 1. The most rounds won out of 3 wins.]],
}
