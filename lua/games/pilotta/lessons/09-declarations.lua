-- Pilotta lesson: runs and fours, and announcing them.
return {
  game = "pilotta",
  id = "09-declarations",
  title = "Declarations: runs and fours, and announcing them",
  rules = { "P33", "P34", "P35", "P40", "P50" },
  intro = [[Some hands hold a declaration: a run of cards in one suit, or all four
cards of a rank. Announced in the first trick, it may score.]],
  steps = {
    {
      text = [[A run is three or more cards of one suit in a row, in the order 7 8 9 10
J Q K A (the same for trumps and plain suits): three cards are worth 20,
four 50, five or more 100. A four is all four cards of a rank: Jacks 200,
Nines 150, Aces, Tens, Kings or Queens 100; four Eights or Sevens nothing.]],
      ask = "What is a run of 7h 8h 9h 10h Jh worth?",
      number = 100,
      wrong = "P33: five cards in a row are worth 100 (three 20, four 50).",
    },
    {
      text = [[You announce at your own turn in the first trick, before your card: the
action names the cards, the others hear only the kind and the value.
Clubs are trumps and you lead; you hold 7c 8c 9c 10c.]],
      position = "dealer=3; calls=80c, pass, pass, pass; hands=7c 8c 9c 10c 7h 8h Ks As / ?8 / ?8 / ?8",
      ask = "Announce your run of four before you lead.",
      notation = { move = "announce 7c 8c 9c 10c", says = "announce, then the cards, in any order" },
      accept = { "announce 7c 8c 9c 10c" },
      wrong_moves = {
        As = "P35: you may announce only in the first trick, before your card: "
          .. "lead now and the run counts for nothing.",
      },
      hint = "Try announcing just 7c 8c 9c: part of a run is refused.",
      wrong = "P35: a declaration not announced counts for nothing: announce all four cards first.",
    },
    {
      text = [[Once you have announced, you play your card as usual.]],
      continue = true,
      ask = "Lead the Ace of spades.",
      accept = { "As" },
      wrong = "P40: after announcing, play: this step asks for the Ace of spades.",
    },
    {
      text = [[The other players do not see your cards.]],
      ask = "What did the others learn from your announcement?",
      choices = { "your four clubs", "that you have a run of four, worth 50", "nothing at all" },
      answer = 2,
      wrong = "P50: an announcement is public by its kind and value only; the cards stay hidden until shown.",
    },
    {
      text = [[A card serves in one declaration only, and a run is never split. You
hold the four Jacks and the run 9h 10h Jh Qh Kh: the Jack of hearts cannot
be in both, and without it the hearts make no run. Choose the better one.
Spades are trumps and you lead.]],
      position = "dealer=3; calls=80s, pass, pass, pass; hands=Jc Jd Jh Js 9h 10h Qh Kh / ?8 / ?8 / ?8",
      ask = "Announce your best declaration.",
      accept = { "announce Jc Jd Jh Js" },
      wrong_moves = {
        ["announce 9h 10h Jh Qh Kh"] = "P34: the run is worth 100, the four Jacks 200, "
          .. "and the Jh cannot serve in both.",
      },
      hint = "Four Jacks are worth 200.",
      wrong = "P34: four Jacks (200) beat the run (100), and one card cannot count in both.",
    },
  },
}
