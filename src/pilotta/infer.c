/* The auction model behind pl_auction_weight.
 *
 * It reads each call as a bidder who bids by the estimate (estimate.h)
 * would make it, keeping MARGIN trick points in hand: the shipped AIs bid
 * so (lua/ai/pl_helpers.lua's M.bid). An opening or an overcall says that
 * its suit is the bidder's best and worth about the bid plus the margin
 * (not a step more: such a bidder calls as high as its hand allows); a
 * raise over the partner says the hand is better than an average one by
 * the raise; a pass where the seat could have bid says no suit covers the
 * lowest bid open (a forced one says nothing); a contra
 * says the doubler's hand would take many tricks with those trumps. Each
 * test is soft (a logistic SOFT trick points wide) and never below FLOOR,
 * so a bidder who reckons otherwise (a person, another AI) makes a deal
 * less likely, never impossible. */
#include "pilotta/infer.h"

#include <math.h>

#include "pilotta/auction.h"
#include "pilotta/estimate.h"

#define MARGIN 20.0
#define SOFT 10.0
#define FLOOR 0.05
#define CAPOT_NEED 150.0 /* trick points: a capot bidder counts eight sure tricks */

/* The chance the model gives to x >= need (a little under it is possible). */
static double at_least(double x, double need) { return FLOOR + (1 - FLOOR) / (1 + exp((need - x) / SOFT)); }
static double below(double x, double limit) { return at_least(limit, x); }

typedef struct {
    double est[4][4], tricks[4][4]; /* by seat and trump suit */
    double best[4];                 /* each seat's best estimate */
} Reading;

static void read_hands(const pl_State *s, Reading *rd)
{
    for (int x = 0; x < 4; x++) {
        const pl_Set dealt = pl_dealt(s, x);
        rd->best[x] = -1e9;
        for (int su = 0; su < 4; su++) {
            rd->tricks[x][su] = pl_estimate_tricks(dealt, su);
            rd->est[x][su] = pl_estimate(dealt, su, &s->rules);
            if (rd->est[x][su] > rd->best[x]) rd->best[x] = rd->est[x][su];
        }
    }
}

/* su is x's best suit: each other suit is at most as good. */
static double best_suit(const Reading *rd, int x, int su)
{
    double w = 1;
    for (int o = 0; o < 4; o++)
        if (o != su) w *= below(rd->est[x][o], rd->est[x][su]);
    return w;
}

/* One call a of seat x, with t the auction before it. */
static double call_weight(const Reading *rd, const pl_State *t, int x, const pl_Action *a)
{
    const bool partners_bid = t->bidder >= 0 && pl_team(t->bidder) == pl_team(x);
    const double cur = t->bid * 10.0;
    switch (a->kind) {
    case PL_BID: {
        const double v = a->value * 10.0;
        if (a->value >= PL_CAPOT) { /* every trick: declarations do not help */
            double most = 0;
            for (int su = 0; su < 4; su++)
                if ((a->suit < 0 || su == a->suit) && rd->tricks[x][su] > most) most = rd->tricks[x][su];
            return at_least(most, CAPOT_NEED);
        }
        if (a->suit < 0) return at_least(rd->best[x], v + MARGIN);
        const double e = rd->est[x][a->suit];
        if (partners_bid) return at_least(e, PL_ESTIMATE_AVERAGE + v - cur);
        double w = at_least(e, v + MARGIN) * best_suit(rd, x, a->suit);
        if (a->value < PL_CAPOT - 1) w *= below(e, v + 10 + MARGIN);
        return w;
    }
    case PL_PASS: {
        /* only a pass that could have been a bid says the hand covers none:
         * not one forced by a contra (P16, P18) or by PV-pass-final, nor one
         * in the contra window of PV-contra-after-auction */
        if (partners_bid || !pl_may_bid(t)) return 1;
        const double open = cur < 80 ? 80 : cur + 10;
        return open < PL_CAPOT * 10 ? below(rd->best[x], open + MARGIN) : 1;
    }
    case PL_CONTRA: {
        if (t->bid_suit < 0 || t->bid >= PL_CAPOT) return 1;
        const double claim = cur < 100 ? cur : 100;
        return at_least(rd->tricks[x][t->bid_suit], 162 + 50 - claim);
    }
    case PL_TRUMP:
        return a->suit >= 0 ? best_suit(rd, x, a->suit) : 1;
    default:
        return 1;
    }
}

double pl_auction_weight(const pl_State *s, int seat)
{
    Reading rd;
    read_hands(s, &rd);
    pl_State t;
    pl_state_blank(&t, &s->rules);
    t.dealer = s->dealer;
    t.turn = (uint8_t)pl_eldest(&t);
    double w = 1;
    for (int i = 0; i < s->ncalls && t.phase <= PL_PHASE_CONTRA; i++) {
        const pl_Action a = pl_call_decode(s->calls[i]);
        if (t.turn != seat) w *= call_weight(&rd, &t, t.turn, &a);
        pl_auction_apply(&t, &a);
    }
    return w;
}
