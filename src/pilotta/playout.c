#include "pilotta/playout.h"

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
        int v = c->lo + k / c->suits;
        a->kind = PL_BID;
        a->value = (uint8_t)(v > pl_max_bid(&s->rules) ? PL_CAPOT : v);
        a->suit = (int8_t)(c->suits == 1 ? -1 : k % c->suits);
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
} Plays;

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
    p->ncards = pl_count(p->cards) + pl_count(p->pending);
}

/* The k-th card (from 0, lowest first) of a set of at most 8 (a hand's):
 * the k lowest cleared in a fixed number of steps, each one past k a
 * no-op. No branch depends on k, which is random: the exit of a loop of
 * k steps was mispredicted at almost every play. */
static inline int nth_card(pl_Set x, int k)
{
    for (int i = 0; i < 7; i++) x &= x - (pl_Set)(i < k);
    return pl_first(x);
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
        a->card = (uint8_t)nth_card(p->cards, k);
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

bool pl_random_action(pl_State *s, dl_Rng *rng)
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

int pl_random_round(pl_State *s, dl_Rng *rng)
{
    int n = 0;
    while (pl_random_action(s, rng)) n++;
    return n;
}
