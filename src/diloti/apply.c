#include "apply.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deal.h"
#include "score.h"

static void remove_decls(dl_State *s, unsigned mask)
{
    if (!mask) return; /* most moves take no declaration */
    int k = 0;
    for (int i = 0; i < s->ndecl; i++)
        if (!(mask & (1u << i))) s->decl[k++] = s->decl[i];
    s->ndecl = (uint8_t)k;
}

static dl_Set decl_cards(const dl_State *s, unsigned mask)
{
    /* The declarations taken, not all of them: most captures take none,
     * and a loop over all of them is one more the predictor cannot learn. */
    dl_Set c = 0;
    for (mask &= (1u << s->ndecl) - 1; mask; mask &= mask - 1) c |= s->decl[dl_first(mask)].cards;
    return c;
}

static void set_comp(dl_State *s, dl_Set cards, int comp)
{
    for (; cards; cards &= cards - 1) s->comp[dl_first(cards)] = (uint8_t)comp;
}

/* Splits atoms (card sets: one numeral card, or one plain declaration)
 * into components summing to v, by backtracking: the first unplaced atom
 * opens a component which is then filled from the later ones. */
static bool fill(const dl_Set *atom, const int *val, int n, int v,
                 int *comp_of, int ncomp, int from, int need);

static bool open_comp(const dl_Set *atom, const int *val, int n, int v,
                      int *comp_of, int ncomp)
{
    for (int i = 0; i < n; i++) {
        if (comp_of[i] >= 0) continue;
        comp_of[i] = ncomp;
        if (fill(atom, val, n, v, comp_of, ncomp, i + 1, v - val[i])) return true;
        comp_of[i] = -1;
        return false;
    }
    return true; /* every atom placed */
}

static bool fill(const dl_Set *atom, const int *val, int n, int v,
                 int *comp_of, int ncomp, int from, int need)
{
    if (need == 0) return open_comp(atom, val, n, v, comp_of, ncomp + 1);
    for (int i = from; i < n; i++) {
        if (comp_of[i] >= 0 || val[i] > need) continue;
        comp_of[i] = ncomp;
        if (fill(atom, val, n, v, comp_of, ncomp, i + 1, need - val[i])) return true;
        comp_of[i] = -1;
    }
    return false;
}

/* D17: one new group from the played card, the loose cards and the taken
 * declarations; components are rebuilt for display and the invariants. */
static void make_group(dl_State *s, const dl_Move *m, int seat)
{
    const int v = m->value;
    unsigned dmask = (unsigned)(m->take >> DL_DECL_SHIFT) & 0xF;
    dl_Set atom[48];
    int val[48], comp_of[48], n = 0, ncomp = 0;
    dl_Set all = DL_BIT(m->card) | (m->take & DL_DECK);
    uint8_t newcomp[DL_NCARDS];

    atom[n] = DL_BIT(m->card);
    val[n++] = dl_value(m->card);
    for (dl_Set l = m->take & DL_DECK; l; l &= l - 1) {
        atom[n] = DL_BIT(dl_first(l));
        val[n++] = dl_value(dl_first(l));
    }
    for (int i = 0; i < s->ndecl; i++) {
        const dl_Decl *d = &s->decl[i];
        if (!(dmask & (1u << i))) continue;
        all |= d->cards;
        if (d->kind == DL_DECL_GROUP) { /* merged: its components carry over */
            for (dl_Set c = d->cards; c; c &= c - 1)
                newcomp[dl_first(c)] = (uint8_t)(ncomp + s->comp[dl_first(c)]);
            ncomp += d->ncomp;
        } else if (d->value == v) {
            for (dl_Set c = d->cards; c; c &= c - 1) newcomp[dl_first(c)] = (uint8_t)ncomp;
            ncomp++;
        } else { /* raised by the card, or a single card (V-liberal-group) */
            atom[n] = d->cards;
            val[n++] = d->value;
        }
    }
    for (int i = 0; i < n; i++) comp_of[i] = -1;
    open_comp(atom, val, n, v, comp_of, ncomp);
    int extra = 0;
    for (int i = 0; i < n; i++) {
        for (dl_Set c = atom[i]; c; c &= c - 1) newcomp[dl_first(c)] = (uint8_t)comp_of[i];
        if (comp_of[i] + 1 > extra) extra = comp_of[i] + 1;
    }
    if (extra > ncomp) ncomp = extra;
    for (dl_Set c = all; c; c &= c - 1) s->comp[dl_first(c)] = newcomp[dl_first(c)];
    remove_decls(s, dmask);
    s->loose &= ~m->take;
    s->decl[s->ndecl++] = (dl_Decl){all, (uint8_t)v, DL_DECL_GROUP, (uint8_t)seat, (uint8_t)ncomp};
}

static bool is_last_card(const dl_State *s)
{
    if (s->pack_pos < s->pack_len) return false;
    for (int i = 0; i < s->rules.players; i++)
        if (s->hand[i]) return false;
    return true;
}

static void capture(dl_State *s, const dl_Move *m, int seat, dl_Effect *e)
{
    unsigned dmask = (unsigned)(m->take >> DL_DECL_SHIFT) & 0xF;
    dl_Set taken = (m->take & DL_DECK) | decl_cards(s, dmask) | DL_BIT(m->card);
    int side = dl_side(&s->rules, seat);
    remove_decls(s, dmask);
    s->loose &= ~m->take;
    s->pile[side] |= taken;
    s->last_capturer = (int8_t)seat;
    e->captured = taken;
    /* D21 and its variants. */
    if (!s->rules.xeri || s->loose || s->ndecl) return;
    if (s->ply == 0 && !s->rules.xeri_first_card) return;
    if (is_last_card(s) && !s->rules.xeri_last_card) return;
    s->xeri[side]++;
    e->xeri = true;
}

static void place(dl_State *s, const dl_Move *m, int seat)
{
    dl_Set joined = (m->take & DL_DECK) | DL_BIT(m->card);
    s->loose &= ~m->take;
    if (m->kind == DL_PLAIN) {
        set_comp(s, joined, 0);
        s->decl[s->ndecl++] = (dl_Decl){joined, m->value, DL_DECL_PLAIN, (uint8_t)seat, 1};
        return;
    }
    int i = dl_first(m->take >> DL_DECL_SHIFT); /* DL_RAISE */
    set_comp(s, joined, 0);
    s->decl[i].cards |= joined;
    s->decl[i].value = m->value;
    s->decl[i].owner = (uint8_t)seat;
}

static void next_turn(dl_State *s, dl_Effect *e)
{
    const int n = s->rules.players;
    /* Wrapping by hand: an integer division per move is a measurable part
     * of a playout. */
    int seat = s->turn < n ? s->turn : s->turn % n;
    for (int k = 1; k <= n; k++) {
        if (++seat == n) seat = 0;
        if (s->hand[seat]) {
            s->turn = (uint8_t)seat;
            return;
        }
    }
    if (s->pack_pos < s->pack_len) {
        s->deal++;
        dl_deal_hands(s);
        e->dealt = true;
        return;
    }
    dl_finish_round(s);
    e->round_over = true;
}

static void decide_claim(dl_State *s, const dl_Move *m, dl_Effect *e)
{
    const int n = s->rules.players;
    if (m->kind == DL_CLAIM) {
        /* V-face-card-claim: the same dealer deals the round again. */
        dl_deal_round(s);
        e->redealt = true;
        return;
    }
    s->claim_pending &= (uint8_t)~(1u << s->turn);
    for (int k = 1; k < n; k++) {
        int seat = (s->turn + k) % n;
        if (seat == dl_first_player(s)) break;
        if (s->claim_pending & (1u << seat)) {
            s->turn = (uint8_t)seat;
            return;
        }
    }
    s->claim_pending = 0;
    s->phase = DL_PHASE_PLAY;
    s->turn = (uint8_t)dl_first_player(s);
}

void dl_apply(dl_State *s, const dl_Move *m, dl_Effect *e)
{
    dl_Effect local;
    if (!e) e = &local;
    memset(e, 0, sizeof *e);
    const int seat = s->turn;
    e->seat = seat;
    if (m->kind == DL_CLAIM || m->kind == DL_KEEP) {
        decide_claim(s, m, e);
        return;
    }
    s->hand[seat] &= ~DL_BIT(m->card);
    switch (m->kind) {
    case DL_LAY: s->loose |= DL_BIT(m->card); break;
    case DL_CAPTURE: capture(s, m, seat, e); break;
    case DL_GROUP: make_group(s, m, seat); break;
    default: place(s, m, seat); break;
    }
    s->ply++;
    next_turn(s, e);
#ifdef DL_CHECK
    /* Test builds: every transition must keep the invariants. */
    const char *broken = dl_check_state(s);
    if (broken) {
        fprintf(stderr, "dl_check_state after a move: %s\n", broken);
        abort();
    }
#endif
}
