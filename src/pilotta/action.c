#include "pilotta/action.h"

#include <stdio.h>
#include <stdlib.h>

#include "pilotta/check.h"

pl_Action pl_normalize(const pl_State *s, const pl_Action *a)
{
    pl_Action n = {0, a->kind, 0, -1, 0, 0};
    switch (a->kind) {
    case PL_BID: n.value = a->value, n.suit = a->suit; break;
    case PL_TRUMP: n.suit = a->suit; break;
    case PL_ANNOUNCE: n.cards = a->cards; break;
    case PL_PLAY:
        n.card = a->card;
        n.belote = (uint8_t)(a->belote && a->card < PL_NCARDS && pl_belote_pending(s, a->card));
        break;
    default: break;
    }
    return n;
}

int pl_legal(const pl_State *s, pl_ActionList *out)
{
    out->n = 0;
    if (s->phase <= PL_PHASE_CONTRA) pl_auction_legal(s, out);
    else if (s->phase == PL_PHASE_PLAY) pl_play_legal(s, out);
    return out->n;
}

bool pl_is_legal(const pl_State *s, const pl_Action *a)
{
    pl_ActionList l;
    pl_Action n = pl_normalize(s, a);
    pl_legal(s, &l);
    for (int i = 0; i < l.n; i++)
        if (pl_action_eq(&l.a[i], &n)) return true;
    return false;
}

void pl_apply_legal(pl_State *s, const pl_Action *a)
{
    if (s->phase <= PL_PHASE_CONTRA) pl_auction_apply(s, a);
    else pl_play_apply(s, a);
#ifdef DL_CHECK
    /* Test builds: every transition must keep the invariants. */
    const char *broken = pl_check_state(s);
    if (broken) {
        fprintf(stderr, "pl_check_state after an action: %s\n", broken);
        abort();
    }
#endif
}
