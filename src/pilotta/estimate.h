/* What a hand is worth in the auction: the same evaluation the shipped
 * AIs bid with (lua/ai/pl_helpers.lua, docs/ai.md §11), here for the
 * search's reading of the calls (infer.c). The weights are the
 * calibration's (tools/calibrate_bid.lua); a spec checks that the two
 * copies agree (tests/lua/pilotta_estimate_spec.lua). */
#ifndef PL_ESTIMATE_H
#define PL_ESTIMATE_H

#include "pilotta/rules.h"
#include "pilotta/cards.h"

/* The team's trick points expected with this hand and `trumps`, an
 * average partner (P30-P32; out of 162, a sweep 250). */
double pl_estimate_tricks(pl_Set hand, int trumps);
/* The trick points, plus the declarations the hand holds times how often
 * such a best one stands (P33-P37), plus the belote (P39). */
double pl_estimate(pl_Set hand, int trumps, const pl_Rules *r);

/* What an average hand brings its team (the mean of the calibration). */
#define PL_ESTIMATE_AVERAGE 83

#endif
