#include "pilotta/playout.h"

#include <limits.h>

#include "pilotta/auction.h"
#include "pilotta/decl.h"
#include "pilotta/play.h"

/* The auction's list is pass, the bids (value, then suit), contra,
 * recontra (pl_auction_legal); counted here without writing it. */
typedef struct {
    int lo, values, suits, contra, recontra;
} Calls;

static Calls calls(const pl_State *s)
{
    Calls c = {0, 0, 0, 0, 0};
    if (s->phase != PL_PHASE_AUCTION) return c;
    const int team = pl_team(s->turn), bidders = pl_bidding_team(s), hi = pl_max_bid(&s->rules);
    if (pl_may_bid(s)) {
        c.lo = s->bid < 8 ? 8 : s->bid + 1;
        c.values = (c.lo <= hi ? hi - c.lo + 1 : 0) + 1; /* and capot */
        if (s->bid == PL_CAPOT) c.values = 0;
        c.suits = s->rules.suit_after_auction ? 1 : 4;
    }
    c.contra = s->bid && s->mult == 1 && team != bidders && !s->rules.contra_after_auction;
    c.recontra = s->mult == 2 && team == bidders;
    return c;
}

static int calls_count(const Calls *c) { return 1 + c->values * c->suits + c->contra + c->recontra; }

/* The k-th call into *a; c is calls(s) (the caller has it already). The
 * hot path fills an action in place: a small struct returned by value is
 * packed into registers through the stack, byte by byte, and read back
 * whole, which stalls (a store-to-load forwarding failure). */
static void call_nth(const pl_State *s, const Calls *c, int k, pl_Action *a)
{
    *a = (pl_Action){0, PL_PASS, 0, -1, 0, 0};
    if (s->phase == PL_PHASE_TRUMP) {
        a->kind = PL_TRUMP, a->suit = (int8_t)k;
        return;
    }
    if (s->phase == PL_PHASE_CONTRA) {
        if (k == 1) a->kind = s->mult == 1 ? PL_CONTRA : PL_RECONTRA;
        return;
    }
    if (k-- == 0) return;
    if (c->suits && k < c->values * c->suits) {
        /* (suits is 4 or 1: a shift, not a division, which is slow) */
        const int v = c->lo + (c->suits == 4 ? k >> 2 : k);
        a->kind = PL_BID;
        a->value = (uint8_t)(v > pl_max_bid(&s->rules) ? PL_CAPOT : v);
        a->suit = (int8_t)(c->suits == 4 ? k & 3 : -1);
        return;
    }
    k -= c->values * c->suits;
    a->kind = c->contra && k == 0 ? PL_CONTRA : PL_RECONTRA;
}

/* The play's list: announcements, show, then the cards (P39's flagged
 * form first). */
typedef struct {
    pl_Set opts[8];
    int nopts, show, ncards;
    pl_Set cards, pending;
    uint32_t running; /* byte i: how many of cards lie in bytes 0..i */
} Plays;

/* Byte i of the result: how many cards of s lie in bytes (suits) 0..i.
 * The top byte is the count; nth_card finds a card's suit from the rest. */
static inline uint32_t running_counts(pl_Set s)
{
    s = s - ((s >> 1) & 0x55555555u);
    s = (s & 0x33333333u) + ((s >> 2) & 0x33333333u);
    return ((s + (s >> 4)) & 0x0F0F0F0Fu) * 0x01010101u;
}

static inline void plays(const pl_State *s, Plays *p)
{
    p->nopts = pl_trick_index(s) == 0 ? pl_announce_options(s, s->turn, p->opts) : 0;
    p->show = pl_trick_index(s) == 1 && pl_may_show(s); /* (P38: only then) */
    p->cards = pl_legal_cards(s);
    p->pending = 0;
    if (s->bid_suit >= 0) {
        const pl_Set kq = PL_BIT(pl_card(PL_RK, s->bid_suit)) | PL_BIT(pl_card(PL_RQ, s->bid_suit));
        if ((s->hand[s->turn] & kq) == kq) p->pending = p->cards & kq;
    }
    p->running = running_counts(p->cards);
    /* pending is at most the two cards K and Q */
    p->ncards = (int)(p->running >> 24) + (p->pending != 0) + ((p->pending & (p->pending - 1)) != 0);
}

/* Where the set bits of a byte are, low first, 3 bits each: the k-th
 * (from 0) of byte b is NTH[b] >> 3k & 7. Filled by the compiler: bit i
 * of b, when set, goes to the place given by the count of the bits of b
 * below it (bit 0 is at place 0 when set, and adds 0). */
#define POP8(b) (((b) & 1u) + ((b) >> 1 & 1u) + ((b) >> 2 & 1u) + ((b) >> 3 & 1u) + \
                 ((b) >> 4 & 1u) + ((b) >> 5 & 1u) + ((b) >> 6 & 1u) + ((b) >> 7 & 1u))
#define PLACE(b, i) (((b) >> (i) & 1u) * ((uint32_t)(i) << (3 * POP8((b) & ((1u << (i)) - 1u)))))
#define NTH1(b) (PLACE(b, 1) | PLACE(b, 2) | PLACE(b, 3) | PLACE(b, 4) | PLACE(b, 5) | PLACE(b, 6) | PLACE(b, 7))
#define NTH4(b) NTH1(b), NTH1((b) + 1u), NTH1((b) + 2u), NTH1((b) + 3u)
#define NTH16(b) NTH4(b), NTH4((b) + 4u), NTH4((b) + 8u), NTH4((b) + 12u)
#define NTH64(b) NTH16(b), NTH16((b) + 16u), NTH16((b) + 32u), NTH16((b) + 48u)
static const uint32_t NTH[256] = {NTH64(0u), NTH64(64u), NTH64(128u), NTH64(192u)};

/* The k-th card (from 0, lowest first) of cards, k < the count; running
 * is running_counts(cards). The suits whose running count is at most k
 * lie below the card: their high bits, in a subtraction byte by byte
 * (each byte is at most 32, so none borrows from the next), are counted
 * by a multiplication. No branch depends on k, which is random. */
static inline int nth_card(pl_Set cards, uint32_t running, int k)
{
    const uint32_t below = (((uint32_t)k * 0x01010101u | 0x80808080u) - running) & 0x80808080u;
    const int shift = (int)(((below >> 7) * 0x01010101u) >> 24) * 8;
    const int before = (int)((running << 8) >> shift & 0xFFu); /* the cards of the suits below */
    return shift + (int)(NTH[(cards >> shift) & 0xFFu] >> (3 * (k - before)) & 7u);
}

/* The k-th play into *a (as call_nth). */
static inline void play_nth(const Plays *p, int k, pl_Action *a)
{
    *a = (pl_Action){0, PL_PLAY, 0, -1, 0, 0};
    if (k < p->nopts) {
        a->kind = PL_ANNOUNCE, a->cards = p->opts[k];
        return;
    }
    k -= p->nopts;
    if (p->show && k-- == 0) {
        a->kind = PL_SHOW;
        return;
    }
    if (!p->pending) {
        a->card = (uint8_t)nth_card(p->cards, p->running, k);
        return;
    }
    for (pl_Set c = p->cards;; c &= c - 1) {
        int card = pl_first(c), twice = (p->pending >> card & 1) != 0;
        if (k <= twice) {
            a->card = (uint8_t)card;
            a->belote = (uint8_t)(twice && k == 0);
            return;
        }
        k -= 1 + twice;
    }
}

int pl_legal_count(const pl_State *s)
{
    if (s->phase == PL_PHASE_TRUMP) return 4;
    if (s->phase == PL_PHASE_CONTRA) return 2;
    if (s->phase == PL_PHASE_AUCTION) {
        const Calls c = calls(s);
        return calls_count(&c);
    }
    if (s->phase != PL_PHASE_PLAY) return 0;
    Plays p;
    plays(s, &p);
    return p.nopts + p.show + p.ncards;
}

pl_Action pl_legal_nth(const pl_State *s, int k)
{
    pl_Action a;
    if (s->phase != PL_PHASE_PLAY) {
        const Calls c = calls(s);
        call_nth(s, &c, k, &a);
        return a;
    }
    Plays p;
    plays(s, &p);
    play_nth(&p, k, &a);
    return a;
}

/* One random action; false when none is left. */
static inline bool random_action(pl_State *s, dl_Rng *rng)
{
    pl_Action a;
    if (s->phase == PL_PHASE_PLAY) {
        Plays p;
        plays(s, &p);
        play_nth(&p, (int)dl_rng_below(rng, (uint32_t)(p.nopts + p.show + p.ncards)), &a);
    } else {
        const Calls c = calls(s);
        const int n = s->phase == PL_PHASE_AUCTION ? calls_count(&c) : pl_legal_count(s);
        if (n == 0) return false;
        call_nth(s, &c, (int)dl_rng_below(rng, (uint32_t)n), &a);
    }
    pl_apply_legal(s, &a);
    return true;
}

/* Up to max random actions; returns how many were played. The one caller
 * of random_action, so that it is inline here and a round saves and
 * restores the registers once, not at every action. */
static int random_actions(pl_State *s, dl_Rng *rng, int max)
{
    int n = 0;
    while (n < max && random_action(s, rng)) n++;
    return n;
}

bool pl_random_action(pl_State *s, dl_Rng *rng) { return random_actions(s, rng, 1) == 1; }

int pl_random_round(pl_State *s, dl_Rng *rng) { return random_actions(s, rng, INT_MAX); }
