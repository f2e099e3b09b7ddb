return {
  name = "forced-capture",
  rule = "V-forced-capture",
  description = "A card that can capture must capture, leaving nothing the same card could take",
  rules = { forced_capture = true },
}
