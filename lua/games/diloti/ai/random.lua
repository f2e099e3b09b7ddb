-- Plays any legal move at random: the baseline every other AI should beat.
return {
  name = "random",
  description = "Plays a legal move at random (seeded): the baseline to beat",
  game = "any",
  help = [[Every decision picks one of the legal moves with equal chance,
declarations, claims, calls and announcements included. Its generator
follows the player's seed, so the same seed replays the same game. It plays
every game: it reads nothing but the list of moves.]],
  choose = function(_, moves, ctx)
    return moves[ctx.rng(#moves)]
  end,
}
