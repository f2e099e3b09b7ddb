/* Fast random play for benchmarks, soaks and (next) the search's
 * playouts: uniform over the legal set without building it. The k-th
 * action here is the k-th of pl_legal's list, so both agree exactly
 * (test_pilotta_crosscheck checks it). */
#ifndef PL_PLAYOUT_H
#define PL_PLAYOUT_H

#include "pilotta/action.h"

/* How many legal actions there are (pl_legal's count). */
int pl_legal_count(const pl_State *s);
/* The k-th legal action (0 <= k < pl_legal_count), in pl_legal's order. */
pl_Action pl_legal_nth(const pl_State *s, int k);
/* Plays one uniformly random legal action; false when none is left. */
bool pl_random_action(pl_State *s, dl_Rng *rng);
/* Plays random actions until the round (or match) is over; returns the
 * number of actions played. */
int pl_random_round(pl_State *s, dl_Rng *rng);

#endif
