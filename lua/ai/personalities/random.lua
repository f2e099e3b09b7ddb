-- Plays any legal move at random: the baseline every other AI should beat.
return {
  name = "random",
  description = "Plays a legal move at random (seeded): the baseline to beat",
  help = [[Every decision picks one of the legal moves with equal chance,
declarations and claims included. Its generator follows the player's seed,
so the same seed replays the same game.]],
  choose = function(_, moves, ctx)
    return moves[ctx.rng(#moves)]
  end,
}
