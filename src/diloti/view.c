#include "view.h"

#include <string.h>

#include "deal.h"

void dl_view(const dl_State *s, int seat, dl_View *v)
{
    const int n = s->rules.players;
    memset(v, 0, sizeof *v);
    v->rules = s->rules;
    v->seat = seat;
    v->phase = s->phase;
    v->turn = s->turn;
    if (s->phase == DL_PHASE_CLAIM && s->turn != seat) {
        /* Whether another seat may claim is its private knowledge. */
        v->phase = DL_PHASE_PLAY;
        v->turn = dl_first_player(s);
    }
    v->dealer = s->dealer;
    v->deal = s->deal;
    v->round = s->round;
    v->ply = s->ply;
    v->last_capturer = s->last_capturer;
    v->hand = s->hand[seat];
    v->loose = s->loose;
    v->ndecl = s->ndecl;
    memcpy(v->decl, s->decl, sizeof v->decl);
    dl_Set declared = 0;
    for (int i = 0; i < s->ndecl; i++) declared |= s->decl[i].cards;
    for (dl_Set c = declared; c; c &= c - 1) v->comp[dl_first(c)] = s->comp[dl_first(c)];
    for (int i = 0; i < n; i++) v->hand_count[i] = dl_count(s->hand[i]);
    v->pack_count = s->pack_len - s->pack_pos;
    for (int i = 0; i < dl_nsides(&s->rules); i++) {
        v->pile[i] = s->pile[i];
        v->xeri[i] = s->xeri[i];
        v->score[i] = s->score[i];
        v->rounds_won[i] = s->rounds_won[i];
    }
    v->known_bottom = seat == s->dealer ? dl_peeked_card(s) : -1;
    dl_Set known = v->hand | dl_table_cards(s);
    for (int i = 0; i < DL_MAX_PLAYERS; i++) known |= s->pile[i];
    if (v->known_bottom >= 0) known |= DL_BIT(v->known_bottom);
    v->unseen = DL_DECK & ~known;
}

void dl_view_state(const dl_View *v, dl_State *s)
{
    dl_state_blank(s, &v->rules);
    s->dealer = (uint8_t)v->dealer;
    s->turn = (uint8_t)v->turn;
    s->deal = (uint8_t)v->deal;
    s->round = v->round;
    s->ply = (uint8_t)v->ply;
    s->last_capturer = (int8_t)v->last_capturer;
    s->phase = (uint8_t)v->phase;
    if (v->phase == DL_PHASE_CLAIM) s->claim_pending = (uint8_t)(1u << v->seat);
    s->loose = v->loose;
    s->ndecl = (uint8_t)v->ndecl;
    memcpy(s->decl, v->decl, sizeof s->decl);
    memcpy(s->comp, v->comp, sizeof s->comp);
    for (int i = 0; i < dl_nsides(&v->rules); i++) {
        s->pile[i] = v->pile[i];
        s->xeri[i] = (uint8_t)v->xeri[i];
        s->score[i] = v->score[i];
        s->rounds_won[i] = v->rounds_won[i];
    }
    s->hand[v->seat] = v->hand;
    s->peeked = v->rules.dealer_peeks;
}
