#include "state.h"

#include <string.h>

void dl_state_blank(dl_State *s, const dl_Rules *r)
{
    memset(s, 0, sizeof *s);
    s->rules = *r;
    s->phase = DL_PHASE_PLAY;
    s->deal = 1;
    s->round = 1;
    s->last_capturer = -1;
    s->winner = -1;
    s->last.winner = -1;
}

dl_Set dl_table_cards(const dl_State *s)
{
    dl_Set t = s->loose;
    for (int i = 0; i < s->ndecl; i++) t |= s->decl[i].cards;
    return t;
}

dl_Set dl_pack_set(const dl_State *s)
{
    dl_Set p = 0;
    for (int i = s->pack_pos; i < s->pack_len; i++) p |= DL_BIT(s->pack[i]);
    return p;
}

static const char *check_places(const dl_State *s)
{
    dl_Set seen = 0;
    int n = 0;
    const int players = s->rules.players, sides = dl_nsides(&s->rules);
    for (int i = 0; i < players; i++) {
        if (seen & s->hand[i]) return "a card is in a hand and elsewhere";
        seen |= s->hand[i];
        n += dl_count(s->hand[i]);
    }
    for (int i = players; i < DL_MAX_PLAYERS; i++)
        if (s->hand[i]) return "a seat that does not play holds cards";
    for (int i = 0; i < sides; i++) {
        if (seen & s->pile[i]) return "a captured card is also elsewhere";
        seen |= s->pile[i];
        n += dl_count(s->pile[i]);
    }
    if (seen & s->loose) return "a loose table card is also elsewhere";
    seen |= s->loose;
    n += dl_count(s->loose);
    for (int i = 0; i < s->ndecl; i++) {
        if (seen & s->decl[i].cards) return "a declared card is also elsewhere";
        seen |= s->decl[i].cards;
        n += dl_count(s->decl[i].cards);
    }
    if (s->pack_pos > s->pack_len || s->pack_len > DL_NCARDS)
        return "pack bounds are broken";
    for (int i = s->pack_pos; i < s->pack_len; i++) {
        if (s->pack[i] >= DL_NCARDS) return "pack holds a non-card";
        if (seen & DL_BIT(s->pack[i])) return "a pack card is also elsewhere";
        seen |= DL_BIT(s->pack[i]);
        n++;
    }
    if (n != DL_NCARDS || seen != DL_DECK) return "52 cards are not all there";
    return NULL;
}

static const char *check_decl(const dl_State *s, const dl_Decl *d)
{
    if (d->value < 1 || d->value > 10) return "a declaration's value is not 1..10";
    if (d->cards & DL_FACES) return "D2: a face card is inside a declaration";
    if (d->owner >= s->rules.players) return "a declaration's owner is no seat";
    if (d->kind == DL_DECL_PLAIN) {
        if (d->ncomp != 1) return "a plain declaration has components";
        if (dl_set_sum(d->cards) != d->value)
            return "a plain declaration's cards do not sum to its value";
        if (dl_count(d->cards) < 2) return "a plain declaration has one card";
        return NULL;
    }
    if (d->kind != DL_DECL_GROUP) return "a declaration has an unknown kind";
    if (d->ncomp < 2) return "D17: a group has fewer than two components";
    int sum[24] = {0};
    if (d->ncomp > 24) return "a group has too many components";
    for (dl_Set c = d->cards; c; c &= c - 1) {
        int card = dl_first(c);
        if (s->comp[card] >= d->ncomp) return "a card's component is out of range";
        sum[s->comp[card]] += dl_value(card);
    }
    for (int i = 0; i < d->ncomp; i++)
        if (sum[i] != d->value)
            return "D17: a group component does not sum to the group's value";
    return NULL;
}

static const char *check_decls(const dl_State *s)
{
    unsigned owners = 0;
    if (s->ndecl > DL_MAX_DECLS) return "too many declarations";
    if (s->ndecl && !s->rules.declarations)
        return "K2: a declaration in a game without declarations";
    for (int i = 0; i < s->ndecl; i++) {
        const dl_Decl *d = &s->decl[i];
        const char *e = check_decl(s, d);
        if (e) return e;
        if (owners & (1u << d->owner))
            return "D19: a player owns two declarations";
        owners |= 1u << d->owner;
        if (s->phase == DL_PHASE_PLAY &&
            !(s->hand[d->owner] & dl_value_mask(d->value)))
            return "D19: an owner holds no card of the declaration's value";
    }
    return NULL;
}

const char *dl_check_state(const dl_State *s)
{
    const char *e = check_places(s);
    if (e) return e;
    if (s->pile[0] & ~DL_DECK) return "a pile holds a non-card";
    e = check_decls(s);
    if (e) return e;
    dl_Set inhand = 0;
    for (int i = 0; i < s->rules.players; i++) inhand |= s->hand[i];
    if (!inhand && s->ndecl) return "D19: a declaration is left with all hands empty";
    if (s->phase == DL_PHASE_PLAY) {
        if (s->turn >= s->rules.players) return "the turn is on no seat";
        if (!s->hand[s->turn]) return "the player to move has no cards";
    }
    if (s->phase == DL_PHASE_CLAIM &&
        !(s->claim_pending & (1u << s->turn)))
        return "the turn is on a seat with no claim to decide";
    for (int i = 0; i < DL_MAX_PLAYERS; i++)
        if (s->xeri[i] && !s->rules.xeri) return "a xeri in a game without xeri";
    return NULL;
}
