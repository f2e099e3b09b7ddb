#include "pilotta/decl.h"

#include <stdio.h>

/* P33: four of a rank; 7s and 8s score nothing. */
static const uint8_t FOUR_VALUE[8] = {0, 0, 150, 100, 200, 100, 100, 100};
/* P36c: fours of 100 rank Aces > Tens > Kings > Queens. */
static const uint8_t FOUR_ORDER[8] = {0, 0, 0, 3, 0, 1, 2, 4};

static int run_value(int len) { return len >= 5 ? 100 : len == 4 ? 50 : 20; }

static bool consecutive(unsigned m)
{
    unsigned low = m & -m;
    return m && ((m + low) & m) == 0;
}

bool pl_decl_classify(pl_Set cards, pl_Decl *d)
{
    int n = pl_count(cards);
    d->cards = cards; /* (pl_decl_describe names the cards it holds) */
    if (n == 4 && cards == pl_rank_mask(pl_rank(pl_first(cards)))) {
        d->kind = PL_FOUR;
        d->value = FOUR_VALUE[pl_rank(pl_first(cards))];
        return d->value > 0;
    }
    int suit = cards ? pl_suit(pl_first(cards)) : 0;
    if (n < 3 || (cards & ~pl_suit_mask(suit))) return false;
    if (!consecutive((cards >> (suit * 8)) & 0xFF)) return false;
    d->kind = PL_RUN;
    d->value = (uint8_t)run_value(n);
    return true;
}

int pl_runs(pl_Set set, pl_Set out[4])
{
    /* The cards in a run of 3+: from each start, it and the next two (a
     * start is at most the sixth rank, so they stay in its suit). Each
     * maximal run is one block of them: the lowest block is what adding
     * its lowest bit carries through, cut at its suit (the carry may run
     * on into the next suit's run). */
    const pl_Set starts = pl_run_starts(set);
    pl_Set in_runs = starts | starts << 1 | starts << 2;
    int n = 0;
    while (in_runs) {
        const pl_Set low = in_runs & -in_runs;
        const pl_Set run = in_runs & ~(in_runs + low) & pl_suit_mask(pl_suit(pl_first(low)));
        out[n++] = run;
        in_runs &= ~run;
    }
    return n;
}

/* pl_announce_options for a hand that may declare. Not inline: its
 * registers would be saved and restored at every call, for the most
 * hands too, which return at once. */
static __attribute__((noinline)) int list_options(const pl_State *s, int seat, pl_Set out[8])
{
    const pl_Set hand = s->hand[seat];
    const unsigned fours = pl_fours(hand);
    pl_Set used = 0, fours_used = 0, runs_used = 0;
    for (int i = 0; i < s->ndecl; i++) {
        const pl_Decl *d = &s->decl[i];
        if (d->seat != seat) continue;
        used |= d->cards;
        if (d->kind == PL_FOUR) fours_used |= d->cards;
        else runs_used |= d->cards;
    }
    const bool overlap = s->rules.decl_overlap;
    int n = 0;
    for (unsigned ranks = fours; ranks; ranks &= ranks - 1) {
        const pl_Set f = pl_rank_mask(pl_first(ranks));
        if (overlap ? !(f & fours_used) : !(f & used)) out[n++] = f;
    }
    pl_Set runs[4];
    /* P34: a run is whole in what the used fours leave; PV-decl-overlap:
     * in the whole hand. */
    int k = pl_runs(overlap ? hand : hand & ~fours_used, runs);
    for (int i = 0; i < k; i++)
        if (overlap ? !(runs[i] & runs_used) : !(runs[i] & used)) out[n++] = runs[i];
    return n;
}

int pl_announce_options(const pl_State *s, int seat, pl_Set out[8])
{
    /* Most hands hold nothing to declare: no need to look at what the
     * seat has announced. (A run of what the fours leave is a run of the
     * hand too.) */
    return pl_may_declare(s->hand[seat]) ? list_options(s, seat, out) : 0;
}

static int runs_total(pl_Set set)
{
    pl_Set runs[4];
    int k = pl_runs(set, runs), sum = 0;
    for (int i = 0; i < k; i++) sum += run_value(pl_count(runs[i]));
    return sum;
}

int pl_best_declarations(pl_Set hand, const pl_Rules *r)
{
    unsigned fours = pl_fours(hand);
    int best = 0;
    /* Every choice of the fours to use; the runs are what the rest holds. */
    for (unsigned pick = fours;; pick = (pick - 1) & fours) {
        int sum = 0;
        pl_Set rest = hand;
        for (int k = PL_R9; k <= PL_RA; k++)
            if (pick >> k & 1) sum += FOUR_VALUE[k], rest &= ~pl_rank_mask(k);
        sum += runs_total(r->decl_overlap ? hand : rest);
        if (sum > best) best = sum;
        if (!pick) break;
    }
    return best;
}

static int top_rank(pl_Set cards) { return pl_rank(31 - __builtin_clz(cards)); }

int pl_decl_cmp(const pl_Decl *a, const pl_Decl *b, int trump, const pl_Rules *r)
{
    if (a->value != b->value) return a->value - b->value;
    if (a->kind != b->kind) {
        if (a->value == 100 && r->decl_100_tie) return 0; /* PV-decl-100-tie */
        return a->kind == PL_FOUR ? 1 : -1;               /* P36b */
    }
    if (a->kind == PL_FOUR)
        return FOUR_ORDER[pl_rank(pl_first(a->cards))] - FOUR_ORDER[pl_rank(pl_first(b->cards))];
    int d = pl_count(a->cards) - pl_count(b->cards); /* P36d: longer */
    if (d) return d;
    d = top_rank(a->cards) - top_rank(b->cards); /* then the higher top */
    if (d) return d;
    return (pl_suit(pl_first(a->cards)) == trump) - (pl_suit(pl_first(b->cards)) == trump);
}

int pl_standing(const pl_State *s)
{
    const pl_Decl *best[2] = {NULL, NULL};
    for (int i = 0; i < s->ndecl; i++) {
        const pl_Decl *d = &s->decl[i];
        int t = pl_team(d->seat);
        if (!best[t] || pl_decl_cmp(d, best[t], s->bid_suit, &s->rules) > 0) best[t] = d;
    }
    if (!best[0] && !best[1]) return PL_STANDING_NONE;
    if (!best[1]) return 0;
    if (!best[0]) return 1;
    int c = pl_decl_cmp(best[0], best[1], s->bid_suit, &s->rules);
    return c > 0 ? 0 : c < 0 ? 1 : PL_STANDING_EQUAL;
}

void pl_counted_declarations(const pl_State *s, int out[2])
{
    out[0] = out[1] = 0;
    if (s->standing != 0 && s->standing != 1) return;
    for (int i = 0; i < s->ndecl; i++) {
        const pl_Decl *d = &s->decl[i];
        if (pl_team(d->seat) == s->standing && d->shown) out[s->standing] += d->value;
    }
}

/* Has seat played its card of the second trick? */
static bool played_second(const pl_State *s, int seat)
{
    for (int i = 4; i < s->nplayed && i < 8; i++)
        if (pl_player_of(s, i) == seat) return true;
    return false;
}

bool pl_decl_lost(const pl_State *s, int i)
{
    const pl_Decl *d = &s->decl[i];
    return pl_team(d->seat) == s->standing && !d->shown && played_second(s, d->seat);
}

static const char *const RANK_PLURAL[8] = {"Sevens", "Eights", "Nines", "Tens",
                                           "Jacks",  "Queens", "Kings", "Aces"};

int pl_decl_describe(const pl_Decl *d, char *buf, size_t cap)
{
    if (d->kind == PL_FOUR)
        return snprintf(buf, cap, "four %s, %d", RANK_PLURAL[pl_rank(pl_first(d->cards))], d->value);
    return snprintf(buf, cap, "run of %d, %d", pl_count(d->cards), d->value);
}
