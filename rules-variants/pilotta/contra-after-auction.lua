return {
  name = "contra-after-auction",
  game = "pilotta",
  rule = "PV-contra-after-auction",
  description = "No contra during the auction: the defenders may say it once it has ended",
  rules = { contra_after_auction = true },
}
