return {
  name = "face-card-claim",
  rule = "V-face-card-claim",
  description = "A player dealt 5 or 6 face cards in the first deal may claim a redeal of the round",
  rules = { face_card_claim = true },
}
