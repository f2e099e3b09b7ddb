-- The base game: Pilotta (P1-P51 of PILOTTA.md), the Cypriot trick-taking
-- game of the Belote family. Its house rules are the other files of this folder.
return {
  name = "pilotta",
  game = "pilotta",
  base = true,
  description = "Pilotta: four players in two partnerships, auction from 80, trumps, declarations, to 351",
  rules = {},
  help = [[A 32-card pack, eight cards each. The auction names a contract (80 to 160 or capot)
and its trump suit; contra doubles it, recontra doubles again. You must follow suit, trump
when you cannot, and overtrump when you can. Runs and fours are announced in the first
trick and shown in the second; the King and Queen of trumps score the belote. The score
sheet is kept in tens and the match goes to 351.]],
}
