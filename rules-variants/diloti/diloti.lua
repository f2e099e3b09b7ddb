-- The base game: Diloti as RULES.md D1-D24 describe it.
return {
  name = "diloti",
  base = true,
  description = "Diloti: captures by rank and sum, declarations, groups and xeri (2 or 4 players)",
  rules = {
    players = 2, teams = false, hand_size = 6, table_cards = 4, deals = 4,
    declarations = true, capture = "many", face_lay_blocked = true,
    redeal = "face-triple", xeri = true, xeri_first_card = false, xeri_last_card = true,
    points = { cards = 4, ace = 1, ten_diamonds = 2, two_clubs = 1, clubs = 0, xeri = 10 },
    match = "points", target = 61,
  },
  help = [[Two players, or four in fixed partnerships. Six cards each and four on the
table; a card captures by rank or by sum, may declare or raise a pile, or form a
group; a capture that empties the table is a xeri worth 10. First to 61.]],
}
