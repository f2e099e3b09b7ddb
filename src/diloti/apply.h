/* Playing a move: the state transition of D9-D22 (a capture's xeri, the
 * next deal, the end of the round). Moves are trusted here: check them with
 * dl_is_legal() first. */
#ifndef DL_APPLY_H
#define DL_APPLY_H

#include "moves.h"

/* What a move did, for event logs and displays. */
typedef struct {
    int seat;        /* who moved */
    dl_Set captured; /* cards that went to the capture pile (with the card) */
    bool xeri;       /* D21 */
    bool redealt;    /* a claim redealt the round */
    bool dealt;      /* new hands were dealt after the move */
    bool round_over; /* the round ended after the move */
} dl_Effect;

/* Applies a legal move; e may be NULL. */
void dl_apply(dl_State *s, const dl_Move *m, dl_Effect *e);

#endif
