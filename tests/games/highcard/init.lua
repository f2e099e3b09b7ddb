-- Highcard: a tiny game that exists only for the tests (issue 26). It
-- shows that a game registers through the registry alone (add_dir or
-- DILOTI_GAMES_PATH=tests/games), passes tests/lua/conformance_spec.lua,
-- plays a match, saves and loads a record and sits at the terminal table
-- without any generic file naming it.
--
-- The rules (ids H1-H6, cited by its refusals):
--   H1 two players; one suit of thirteen cards, 2 low to A high.
--   H2 each round the dealer's opponent gets three cards, then the dealer;
--      the seven other cards stay face down, unseen by both.
--   H3 the seat after the dealer leads the first trick; a trick is one
--      card from each seat, the leader first.
--   H4 any card of your hand may be played; the higher card wins the
--      trick, and its winner leads the next.
--   H5 a trick is worth one point; after three tricks the round is over
--      and the deal passes to the other seat.
--   H6 the first seat to reach the target (5 points) after a round wins.
--
-- Its parts are files of this folder, named as modules
-- diloti.games.highcard.PART (the registry maps them to PART.lua).
return {
  name = "highcard", title = "Highcard", default = false,
  bases = { "highcard" },
  parts = {
    rules = "diloti.games.highcard.rules",   -- base rules, check, new handle
    board = "diloti.games.highcard.board",   -- terminal drawing and input
    table = "diloti.games.highcard.board",   -- (one file: the game is tiny)
    ai = "diloti.games.highcard.ai",         -- fallback move, players, levels
    record = "diloti.games.highcard.record", -- round lines
  },
  scripts = {},
}
