/* The auction (P12-P20) and its house rules: PV-suit-after-auction,
 * PV-pass-final, PV-high-bids, PV-contra-after-auction. */
#ifndef PL_AUCTION_H
#define PL_AUCTION_H

#include "pilotta/state.h"

/* Appends the legal calls of the phase (auction, trump choice, contra
 * window) to out. */
void pl_auction_legal(const pl_State *s, pl_ActionList *out);
/* Applies a legal call. */
void pl_auction_apply(pl_State *s, const pl_Action *a);
/* May the seat to call bid now at all (P16, PV-pass-final)? Inline: the
 * playouts ask at every call. */
static inline bool pl_may_bid(const pl_State *s)
{
    if (s->phase != PL_PHASE_AUCTION || s->mult > 1) return false; /* P16 */
    return !(s->rules.pass_final && (s->passed >> s->turn & 1)); /* PV-pass-final */
}
/* The byte code of a call in pl_State.calls and back. */
uint8_t pl_call_code(const pl_Action *a);
pl_Action pl_call_decode(uint8_t code);

#endif
