#include "pilotta/deal.h"

#include <string.h>

/* P9: which seat, counted from the eldest, gets the card at each place
 * of the pack: packets of 3 round the table, then of 2, then of 3. */
static const uint8_t PACKET_SEAT[PL_NCARDS] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0, 0, 1, 1,
                                               2, 2, 3, 3, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};

/* Clears the round (auction and play), keeping the match. */
static void new_round_fields(pl_State *s)
{
    memset(s->hand, 0, sizeof s->hand);
    s->phase = PL_PHASE_AUCTION;
    s->turn = (uint8_t)pl_eldest(s);
    s->ncalls = 0;
    s->bid = 0;
    s->bid_suit = -1;
    s->bidder = -1;
    s->mult = 1;
    s->contra_by = -1;
    s->passes = 0;
    s->passed = 0;
    s->nplayed = 0;
    memset(s->leader, 0, sizeof s->leader);
    memset(s->trick_won, 0, sizeof s->trick_won);
    memset(s->trick_points, 0, sizeof s->trick_points);
    s->ndecl = 0;
    s->standing = PL_STANDING_NOT_YET;
    s->belote = -1;
}

/* A new round with these hands, by seat counted from the eldest. */
static void deal_hands(pl_State *s, const pl_Set from_eldest[4])
{
    new_round_fields(s);
    for (int k = 0; k < 4; k++) s->hand[(pl_eldest(s) + k) & 3] = from_eldest[k];
}

void pl_deal_pack(pl_State *s, const uint8_t pack[PL_NCARDS])
{
    pl_Set h[4] = {0, 0, 0, 0};
    for (int i = 0; i < PL_NCARDS; i++) h[PACKET_SEAT[i]] |= PL_BIT(pack[i]);
    deal_hands(s, h);
}

void pl_cut(uint8_t pack[PL_NCARDS], int k)
{
    uint8_t t[PL_NCARDS];
    if (k < 1 || k >= PL_NCARDS) return;
    memcpy(t, pack + k, (size_t)(PL_NCARDS - k));
    memcpy(t + PL_NCARDS - k, pack, (size_t)k);
    memcpy(pack, t, PL_NCARDS);
}

void pl_deal_round(pl_State *s)
{
    uint8_t pack[PL_NCARDS];
    for (int i = 0; i < PL_NCARDS; i++) pack[i] = (uint8_t)i;
    pl_Set h[4] = {0, 0, 0, 0};
    /* Fisher-Yates from the bottom: the card swapped into place i stays
     * there, so it is dealt at once (pl_deal_pack's order, one pass). */
    for (int i = PL_NCARDS - 1; i > 0; i--) {
        int j = (int)dl_rng_below(&s->rng, (uint32_t)(i + 1));
        h[PACKET_SEAT[i]] |= PL_BIT(pack[j]);
        pack[j] = pack[i];
    }
    h[PACKET_SEAT[0]] |= PL_BIT(pack[0]);
    deal_hands(s, h);
}

const char *pl_new_match(pl_State *s, const pl_Rules *r, uint64_t seed, int dealer)
{
    const char *bad = pl_rules_check(r);
    if (bad) return bad;
    if (dealer > 3) return "P1: four players, seats 0 to 3: no such dealer";
    pl_state_blank(s, r);
    dl_rng_seed(&s->rng, seed);
    s->dealer = (uint8_t)(dealer < 0 ? (int)dl_rng_below(&s->rng, 4) : dealer);
    pl_deal_round(s);
    return NULL;
}

bool pl_next_round(pl_State *s)
{
    if (s->phase != PL_PHASE_ROUND_OVER) return false;
    s->dealer = (uint8_t)((s->dealer + (s->rules.deal_left ? 3 : 1)) & 3);
    if (s->round < INT32_MAX) s->round++; /* a match of thrown-in rounds never ends (P19) */
    pl_deal_round(s);
    return true;
}
