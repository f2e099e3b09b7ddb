/* Shuffling and dealing (D4-D7, K1, K7, K8, V-redeal-any-triple,
 * V-three-face-cards, V-face-card-claim, V-dealer-peeks). */
#ifndef DL_DEAL_H
#define DL_DEAL_H

#include "state.h"

/* A new match: the first dealer chosen by the caller, or at random from
 * the seed when dealer < 0 (D4); the first round is dealt. Returns NULL or
 * what is wrong with the rules. */
const char *dl_new_match(dl_State *s, const dl_Rules *r, uint64_t seed,
                         int dealer);
/* Shuffles all 52 cards and deals a fresh round by s->dealer: hands, then
 * the table (with the redeal rule), then the claim phase if any. */
void dl_deal_round(dl_State *s);
/* Deals the next hands from the pack (D6) and starts that deal. */
void dl_deal_hands(dl_State *s);
/* Would these table cards be dealt again under the rules (D5)? */
bool dl_table_needs_redeal(const dl_Rules *r, dl_Set table);
/* The card the dealer saw at the bottom of the pack (V-dealer-peeks), or
 * -1 when there is none to know. */
int dl_peeked_card(const dl_State *s);

#endif
