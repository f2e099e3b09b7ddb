#include "pilotta/view.h"

#include <string.h>

#include "pilotta/decl.h"

static void public_decl(const pl_Decl *d, int seat, pl_PublicDecl *out)
{
    out->seat = d->seat;
    out->kind = d->kind;
    out->value = d->value;
    out->shown = d->shown;
    if (d->kind == PL_RUN) out->length = pl_count(d->cards);
    else out->rank = pl_rank(pl_first(d->cards));
    out->cards = d->shown || d->seat == seat ? d->cards : 0;
}

void pl_view(const pl_State *s, int seat, pl_View *v)
{
    memset(v, 0, sizeof *v);
    v->rules = s->rules;
    v->seat = seat;
    v->phase = s->phase;
    v->turn = s->turn;
    v->dealer = s->dealer;
    v->round = s->round;
    v->hand = s->hand[seat];
    for (int i = 0; i < 4; i++) {
        v->hand_count[i] = pl_count(s->hand[i]);
        if (i != seat) v->unseen |= s->hand[i];
    }
    memcpy(v->calls, s->calls, s->ncalls);
    v->ncalls = s->ncalls;
    v->bid = s->bid, v->bid_suit = s->bid_suit, v->bidder = s->bidder;
    v->mult = s->mult, v->contra_by = s->contra_by;
    memcpy(v->played, s->played, s->nplayed);
    v->nplayed = s->nplayed;
    memcpy(v->leader, s->leader, sizeof v->leader); /* from public trick winners */
    for (int t = 0; t < 2; t++) {
        v->trick_won[t] = s->trick_won[t];
        v->trick_points[t] = s->trick_points[t];
        v->score[t] = s->score[t];
    }
    for (int i = 0; i < s->ndecl; i++) {
        public_decl(&s->decl[i], seat, &v->decl[i]);
        v->decl[i].lost = pl_decl_lost(s, i);
    }
    v->ndecl = s->ndecl;
    v->standing = s->standing;
    v->belote = s->belote;
    v->winner = s->winner;
    v->last = s->last;
}
