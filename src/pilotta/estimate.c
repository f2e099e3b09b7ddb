#include "pilotta/estimate.h"

#include "pilotta/decl.h"

/* The calibration's weights, in its order (tools/calibrate_bid.lua,
 * docs/ladder/pilotta-calibration.txt): one, tJ, t9, tA, t10, tKQ, tlow,
 * tlong, sA, s10, s10A, sK, short. Kept equal to lua/ai/pl_helpers.lua's
 * M.WEIGHTS by tests/lua/pilotta_estimate_spec.lua. */
enum { F_ONE, F_TJ, F_T9, F_TA, F_T10, F_TKQ, F_TLOW, F_TLONG, F_SA, F_S10, F_S10A, F_SK, F_SHORT, F_N };
static const double WEIGHTS[F_N] = {
    34.11, 38.28, 19.27, 11.86, 9.46, 6.80, 4.66, 8.29, 19.12, 4.91, -2.23, 0.77, 5.04,
};
/* How often a team's best declaration of 20 or 50 stands (M.STANDS);
 * 100 and more always do. */
#define STANDS_20 0.601
#define STANDS_50 0.888

static int has(pl_Set hand, int rank, int suit) { return (hand >> pl_card(rank, suit)) & 1; }

double pl_estimate_tricks(pl_Set hand, int trumps)
{
    const int n = pl_count(hand & pl_suit_mask(trumps));
    double f[F_N] = {0};
    f[F_ONE] = 1;
    f[F_TJ] = has(hand, PL_RJ, trumps);
    f[F_T9] = has(hand, PL_R9, trumps);
    f[F_TA] = has(hand, PL_RA, trumps);
    f[F_T10] = has(hand, PL_R10, trumps);
    f[F_TKQ] = has(hand, PL_RK, trumps) + has(hand, PL_RQ, trumps);
    f[F_TLOW] = has(hand, PL_R7, trumps) + has(hand, PL_R8, trumps);
    f[F_TLONG] = n > 3 ? n - 3 : 0;
    for (int s = 0; s < 4; s++) {
        if (s == trumps) continue;
        const int a = has(hand, PL_RA, s), ten = has(hand, PL_R10, s), len = pl_count(hand & pl_suit_mask(s));
        f[F_SA] += a;
        f[F_S10] += ten;
        f[F_S10A] += a & ten;
        f[F_SK] += has(hand, PL_RK, s);
        if (n >= 2 && len < 2) f[F_SHORT] += 2 - len;
    }
    double v = 0;
    for (int i = 0; i < F_N; i++) v += WEIGHTS[i] * f[i];
    return v;
}

static int run_value(int len) { return len >= 5 ? 100 : len == 4 ? 50 : 20; }
static const int FOUR_VALUE[8] = {0, 0, 150, 100, 200, 100, 100, 100};

/* P34's best choice of declarations, as pl_helpers picks it (the fours
 * used, the runs in the rest; on equal totals the first in the order:
 * no four, the higher four, the other, both): its total and its best one's value. */
static int declarations(pl_Set hand, bool overlap, int *top)
{
    static const int BY_VALUE[6] = {PL_RJ, PL_R9, PL_RA, PL_R10, PL_RK, PL_RQ};
    int four[2], nf = 0, best = -1;
    const unsigned fours = pl_fours(hand);
    for (int i = 0; i < 6 && nf < 2; i++)
        if (fours >> BY_VALUE[i] & 1) four[nf++] = BY_VALUE[i];
    *top = 0;
    for (int mask = 0; mask < 1 << nf; mask++) {
        pl_Set rest = hand;
        int total = 0, hi = 0;
        for (int i = 0; i < nf; i++)
            if (mask >> i & 1) {
                total += FOUR_VALUE[four[i]];
                if (FOUR_VALUE[four[i]] > hi) hi = FOUR_VALUE[four[i]];
                if (!overlap) rest &= ~pl_rank_mask(four[i]);
            }
        pl_Set runs[4];
        const int k = pl_runs(rest, runs);
        for (int i = 0; i < k; i++) {
            const int v = run_value(pl_count(runs[i]));
            total += v;
            if (v > hi) hi = v;
        }
        if (total > best) best = total, *top = hi;
    }
    return best;
}

double pl_estimate(pl_Set hand, int trumps, const pl_Rules *r)
{
    int top;
    const int total = declarations(hand, r->decl_overlap, &top);
    const double stands = top >= 100 ? 1 : top == 50 ? STANDS_50 : top == 20 ? STANDS_20 : 0;
    const bool belote = has(hand, PL_RK, trumps) && has(hand, PL_RQ, trumps);
    return pl_estimate_tricks(hand, trumps) + total * stands + (belote ? 20 : 0);
}
