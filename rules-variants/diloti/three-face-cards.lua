return {
  name = "three-face-cards",
  rule = "V-three-face-cards",
  description = "Three face cards of a rank stay on the table; the fourth of that rank takes all three",
  requires = { "diloti" },
  rules = { three_face_cards = true },
}
