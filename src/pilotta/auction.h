/* The auction (P12-P20) and its house rules: PV-suit-after-auction,
 * PV-pass-final, PV-high-bids, PV-contra-after-auction. */
#ifndef PL_AUCTION_H
#define PL_AUCTION_H

#include "pilotta/action.h"

/* Appends the legal calls of the phase (auction, trump choice, contra
 * window) to out. */
void pl_auction_legal(const pl_State *s, pl_ActionList *out);
/* Applies a legal call. */
void pl_auction_apply(pl_State *s, const pl_Action *a);
/* May the seat to call bid now at all (P16, PV-pass-final)? */
bool pl_may_bid(const pl_State *s);
/* Team holding the highest bid, -1 when none stands. */
static inline int pl_bidding_team(const pl_State *s) { return s->bidder < 0 ? -1 : pl_team(s->bidder); }
/* Contract value V in points (P20: capot 250). */
static inline int pl_contract_value(const pl_State *s) { return s->bid == PL_CAPOT ? 250 : s->bid * 10; }

#endif
