/* The invariants of a Pilotta state, checked after every transition in
 * test builds (DL_CHECK) and on every position read. */
#ifndef PL_CHECK_H
#define PL_CHECK_H

#include "pilotta/state.h"

/* Invariants (32 cards each in one place, tricks of four in turn order,
 * points and tricks totals, the auction fields, P47 after a round). NULL
 * when they hold, else the first broken one. */
const char *pl_check_state(const pl_State *s);

#endif
