/* What the calls say of the hidden hands, for the search's `infer`. */
#ifndef PL_INFER_H
#define PL_INFER_H

#include "pilotta/state.h"

/* The likelihood, in (0, 1], of the other seats' calls given a full deal
 * (s->hand as dealt plus what was played), for a bidder who bids by the
 * estimate (estimate.h). The calls of `seat` itself are not read. */
double pl_auction_weight(const pl_State *s, int seat);

#endif
