/* Fast random play for benchmarks, soaks and (next) the search's
 * playouts: uniform over the legal set, no allocation, no checks. */
#ifndef PL_PLAYOUT_H
#define PL_PLAYOUT_H

#include "pilotta/action.h"

/* Plays one uniformly random legal action; false when none is left. */
bool pl_random_action(pl_State *s, dl_Rng *rng);
/* Plays random actions until the round (or match) is over; returns the
 * number of actions played. */
int pl_random_round(pl_State *s, dl_Rng *rng);

#endif
