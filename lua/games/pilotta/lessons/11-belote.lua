-- Pilotta lesson: the King and Queen of trumps.
return {
  game = "pilotta",
  id = "11-belote",
  title = "The belote",
  rules = { "P39", "PC10" },
  intro = [[The King and Queen of trumps in one hand are the belote: 20 points for
the team of whoever holds them, if he says so.]],
  steps = {
    {
      text = [[You say "belote" as you play the first of the two; without the word, the
20 are lost. At the table the word is said for you unless you write
'nobelote'. Hearts are trumps and you lead; you hold the King and the Queen.]],
      position = "dealer=3; calls=80h, pass, pass, pass; hands=Kh Qh 7c 9c Jd 8s 10s Ks / ?8 / ?8 / ?8",
      ask = "Lead the Queen of hearts and say belote.",
      notation = { move = "Qh belote", also = { "Qh" } },
      accept = { "Qh belote" },
      wrong_moves = {
        ["Qh nobelote"] = "P39: without the word the 20 are lost: keep the belote.",
      },
      hint = "Type Qh (the word is on by default) or Qh belote.",
      wrong = "P39: the belote is said with the first of the King and Queen you play: Qh belote.",
      after = "With the King, later, nothing more is needed.",
    },
    {
      text = [[The belote is never cancelled by the other side's declarations, and
stays with its team even when its contract fails or the other side wins
every trick.]],
      ask = "Your side's contract fails. What happens to your belote?",
      choices = { "it goes to the other side", "you keep its 20", "it is lost" },
      answer = 2,
      wrong = "P39: nobody can take the belote away: failed contract, sweep or contra, its 20 stay yours.",
    },
    {
      text = [[The belote is no declaration: the same King and Queen can also count in a
four or a run.]],
      ask = "Hearts are trumps and you hold Kc Kd Kh Ks and Qh. Do the four Kings and the belote both count?",
      choices = { "yes, both", "no: the Kh is in the four", "only the four" },
      answer = 1,
      wrong = "PC10: the belote stands apart from the declarations: four Kings (100) and belote (20).",
    },
  },
}
