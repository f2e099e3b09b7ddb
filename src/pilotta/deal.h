/* Dealer and deal (P8-P11, PV-deal-left): a 32-card pack from the seed,
 * dealt in packets of 3, 2 and 3 from the eldest hand round to the dealer. */
#ifndef PL_DEAL_H
#define PL_DEAL_H

#include "pilotta/state.h"

/* A new match (score 0, round 1): the first dealer as given (0..3), or at
 * random from the seed when dealer < 0 (P8). Deals the first round.
 * Returns NULL, or what is wrong with the rules or the dealer (P1). */
const char *pl_new_match(pl_State *s, const pl_Rules *r, uint64_t seed, int dealer);
/* Shuffles the pack with the state's generator and deals a round by
 * s->dealer (P9): the auction starts with the eldest hand. */
void pl_deal_round(pl_State *s);
/* Deals a given pack order, top first (P9); for set-ups and PE1. */
void pl_deal_pack(pl_State *s, const uint8_t pack[PL_NCARDS]);
/* P9's optional cut: k cards (1..31) from the top go to the bottom. */
void pl_cut(uint8_t pack[PL_NCARDS], int k);
/* After a round (scored or thrown in, P19): the next dealer (P10,
 * PV-deal-left) deals. False when the round is not over. */
bool pl_next_round(pl_State *s);

#endif
