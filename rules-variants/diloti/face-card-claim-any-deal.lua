return {
  name = "face-card-claim-any-deal",
  rule = "V-face-card-claim",
  description = "As face-card-claim, on any deal: a claim cancels the round, captures and all",
  conflicts = { "face-card-claim" },
  rules = { face_card_claim = true, claim_any_deal = true },
}
