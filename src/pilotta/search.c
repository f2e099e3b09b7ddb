#define _POSIX_C_SOURCE 199309L
#include "pilotta/search.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pilotta/auction.h"
#include "pilotta/decl.h"
#include "pilotta/infer.h"
#include "pilotta/play.h"
#include "pilotta/solve.h"

#define TRIES 40 /* candidate deals for one sample (placements, weights) */

typedef struct {
    int seat, len, decl; /* an announced run whose cards are not shown */
} Run;

struct pl_Sampler {
    pl_State base; /* the view as a state: only the seat's own hand */
    int seat;
    int others[3];
    int size[4];    /* cards each seat holds now */
    pl_Set unseen;
    pl_Set fixed[4];  /* must hold */
    pl_Set forbid[4]; /* cannot hold */
    pl_Set own_four[4]; /* the cards of each seat's announced fours */
    Run runs[PL_MAX_DECLS];
    int nruns;
    /* the count of deals by classes of cards with the same allowed seats,
     * for the fixed and forbidden sets it was made for */
    double ways[9][9][9][9];
    pl_Set dp_fixed[4], dp_forbid[4];
    bool dp_ok;
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void pl_search_defaults(pl_SearchParams *p)
{
    *p = (pl_SearchParams){.deals = 24, .seconds = 0, .seed = 1, .infer = false, .table_bits = 16};
}

/* ---- the view as a state -------------------------------------------------- */

static void state_from_view(const pl_View *v, pl_State *s)
{
    memset(s, 0, sizeof *s);
    s->rules = v->rules;
    s->phase = (uint8_t)v->phase;
    s->dealer = (uint8_t)v->dealer;
    s->turn = (uint8_t)v->turn;
    s->round = (int16_t)v->round;
    s->hand[v->seat] = v->hand;
    memcpy(s->calls, v->calls, (size_t)v->ncalls);
    s->ncalls = (uint8_t)v->ncalls;
    s->bid = (uint8_t)v->bid;
    s->bid_suit = (int8_t)v->bid_suit;
    s->bidder = (int8_t)v->bidder;
    s->mult = (uint8_t)v->mult;
    s->contra_by = (int8_t)v->contra_by;
    memcpy(s->played, v->played, (size_t)v->nplayed);
    s->nplayed = (uint8_t)v->nplayed;
    memcpy(s->leader, v->leader, sizeof s->leader);
    for (int t = 0; t < 2; t++) {
        s->trick_won[t] = (uint8_t)v->trick_won[t];
        s->trick_points[t] = (int16_t)v->trick_points[t];
        s->score[t] = v->score[t];
    }
    s->ndecl = (uint8_t)v->ndecl;
    for (int i = 0; i < v->ndecl; i++) {
        const pl_PublicDecl *d = &v->decl[i];
        s->decl[i] = (pl_Decl){d->cards, (uint8_t)d->seat, (uint8_t)d->kind, (uint8_t)d->value, (uint8_t)d->shown};
        if (!d->cards && d->kind == PL_FOUR) s->decl[i].cards = pl_rank_mask(d->rank);
    }
    s->standing = (int8_t)v->standing;
    s->belote = (int8_t)v->belote;
    s->winner = (int8_t)v->winner;
    s->last = v->last;
}

/* ---- what the view tells ---------------------------------------------------- */

/* Every card a seat played must have been legal for it: an unseen card
 * that, added to what the seat is known to have held then, would have
 * made that card illegal is not in its hand (pl_legal_cards decides, so
 * the house rules' obligations are read as the engine applies them). */
static void forbid_by_plays(pl_Sampler *sm)
{
    const pl_State *b = &sm->base;
    for (int i = 0; i < b->nplayed; i++) {
        const int x = pl_player_of(b, i), c = b->played[i];
        if (x == sm->seat || (i & 3) == 0) continue; /* a lead is free (P22) */
        pl_State t = *b;
        t.nplayed = (uint8_t)i;
        t.turn = (uint8_t)x;
        pl_Set held = PL_BIT(c) | sm->fixed[x];
        for (int j = i + 1; j < b->nplayed; j++)
            if (pl_player_of(b, j) == x) held |= PL_BIT(b->played[j]);
        for (pl_Set y = sm->unseen & ~sm->forbid[x] & ~held; y; y &= y - 1) {
            t.hand[x] = held | (y & -y);
            if (!(pl_legal_cards(&t) & PL_BIT(c))) sm->forbid[x] |= y & -y;
        }
    }
}

/* Shown cards, fours, a said belote: cards that stay with their seat. */
static void fix_known(pl_Sampler *sm, const pl_View *v)
{
    for (int i = 0; i < v->ndecl; i++) {
        const pl_PublicDecl *d = &v->decl[i];
        if (d->seat == sm->seat) continue;
        if (d->kind == PL_FOUR) {
            sm->own_four[d->seat] |= pl_rank_mask(d->rank);
            sm->fixed[d->seat] |= pl_rank_mask(d->rank) & sm->unseen;
        } else if (d->cards)
            sm->fixed[d->seat] |= d->cards & sm->unseen;
        else if (sm->nruns < PL_MAX_DECLS)
            sm->runs[sm->nruns++] = (Run){d->seat, d->length, i};
    }
    /* P34: a shown run is whole, so the cards beside it were not its seat's
     * (unless a four of that seat took them out) */
    for (int i = 0; i < v->ndecl; i++) {
        const pl_PublicDecl *d = &v->decl[i];
        if (d->seat == sm->seat || d->kind != PL_RUN || !d->cards) continue;
        const pl_Set beside = ((d->cards << 1) | (d->cards >> 1)) & pl_suit_mask(pl_suit(pl_first(d->cards)));
        const pl_Set four = v->rules.decl_overlap ? 0 : sm->own_four[d->seat];
        sm->forbid[d->seat] |= beside & ~d->cards & ~four & sm->unseen;
    }
    if (v->belote >= 0 && v->belote != sm->seat && v->bid_suit >= 0) {
        const pl_Set kq = PL_BIT(pl_card(PL_RK, v->bid_suit)) | PL_BIT(pl_card(PL_RQ, v->bid_suit));
        sm->fixed[v->belote] |= kq & sm->unseen;
    }
    /* a card two seats must hold is a contradiction: trust neither */
    for (int a = 0; a < 4; a++)
        for (int b = a + 1; b < 4; b++) {
            pl_Set both = sm->fixed[a] & sm->fixed[b];
            sm->fixed[a] &= ~both, sm->fixed[b] &= ~both;
        }
}

pl_Sampler *pl_sampler_new(const pl_View *v)
{
    pl_Sampler *sm = calloc(1, sizeof *sm);
    if (!sm) return NULL;
    state_from_view(v, &sm->base);
    sm->seat = v->seat;
    for (int i = 0, k = 0; i < 4; i++) {
        sm->size[i] = v->hand_count[i];
        if (i != v->seat) sm->others[k++] = i;
    }
    sm->unseen = v->unseen;
    fix_known(sm, v);
    forbid_by_plays(sm);
    for (int i = 0; i < 4; i++) sm->forbid[i] &= ~sm->fixed[i];
    return sm;
}

void pl_sampler_free(pl_Sampler *sm) { free(sm); }
pl_Set pl_sampler_forbidden(const pl_Sampler *sm, int seat) { return sm->forbid[seat & 3]; }
pl_Set pl_sampler_fixed(const pl_Sampler *sm, int seat) { return sm->fixed[seat & 3]; }

/* ---- uniform deals by classes ------------------------------------------------ */

static const double FACT[25] = {
    1.0, 1.0, 2.0, 6.0, 24.0, 120.0, 720.0, 5040.0, 40320.0, 362880.0, 3628800.0, 39916800.0,
    479001600.0, 6227020800.0, 87178291200.0, 1307674368000.0, 20922789888000.0,
    355687428096000.0, 6402373705728000.0, 121645100408832000.0, 2432902008176640000.0,
    51090942171709440000.0, 1124000727777607680000.0, 25852016738884976640000.0,
    620448401733239439360000.0};

/* The free cards (unseen, not fixed) by the set of other seats (bits 0..2
 * of sm->others) allowed to hold them. False when one has no seat. */
static bool classes(const pl_Sampler *sm, const pl_Set fixed[4], const pl_Set forbid[4], pl_Set cls[8])
{
    pl_Set all_fixed = fixed[0] | fixed[1] | fixed[2] | fixed[3];
    memset(cls, 0, 8 * sizeof *cls);
    for (pl_Set f = sm->unseen & ~all_fixed; f; f &= f - 1) {
        pl_Set bit = f & -f;
        int m = 0;
        for (int k = 0; k < 3; k++)
            if (!(forbid[sm->others[k]] & bit)) m |= 1 << k;
        if (!m) return false;
        cls[m] |= bit;
    }
    return true;
}

/* ways[k][a][b][c]: deals of classes k..7 into room a, b, c. */
static void count_ways(pl_Sampler *sm, const pl_Set cls[8])
{
    memset(sm->ways, 0, sizeof sm->ways);
    sm->ways[8][0][0][0] = 1;
    for (int k = 7; k >= 1; k--) {
        const int n = pl_count(cls[k]);
        for (int a = 0; a <= 8; a++)
            for (int b = 0; b <= 8; b++)
                for (int c = 0; c <= 8; c++) {
                    double sum = 0;
                    for (int x = 0; x <= n && x <= a; x++) {
                        if (x && !(k & 1)) break;
                        for (int y = 0; x + y <= n && y <= b; y++) {
                            if (y && !(k & 2)) break;
                            int z = n - x - y;
                            if (z > c || (z && !(k & 4))) continue;
                            double w = sm->ways[k + 1][a - x][b - y][c - z];
                            if (w > 0) sum += FACT[n] / (FACT[x] * FACT[y] * FACT[z]) * w;
                        }
                    }
                    sm->ways[k][a][b][c] = sum;
                }
    }
}

static bool ready_ways(pl_Sampler *sm, const pl_Set fixed[4], const pl_Set forbid[4], pl_Set cls[8])
{
    if (!classes(sm, fixed, forbid, cls)) return false;
    if (!sm->dp_ok || memcmp(sm->dp_fixed, fixed, sizeof sm->dp_fixed) != 0 ||
        memcmp(sm->dp_forbid, forbid, sizeof sm->dp_forbid) != 0) {
        count_ways(sm, cls);
        memcpy(sm->dp_fixed, fixed, sizeof sm->dp_fixed);
        memcpy(sm->dp_forbid, forbid, sizeof sm->dp_forbid);
        sm->dp_ok = true;
    }
    return true;
}

static bool room(const pl_Sampler *sm, const pl_Set fixed[4], int cap[3])
{
    for (int k = 0; k < 3; k++) {
        cap[k] = sm->size[sm->others[k]] - pl_count(fixed[sm->others[k]]);
        if (cap[k] < 0 || cap[k] > 8) return false;
    }
    return true;
}

static double uniform01(dl_Rng *rng) { return (double)(dl_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0); }

/* Deals the free cards uniformly among the deals the classes allow. */
static bool deal_rest(pl_Sampler *sm, const pl_Set fixed[4], const pl_Set forbid[4], dl_Rng *rng, pl_Set hand[4])
{
    pl_Set cls[8];
    int cap[3];
    if (!room(sm, fixed, cap) || !ready_ways(sm, fixed, forbid, cls)) return false;
    if (sm->ways[1][cap[0]][cap[1]][cap[2]] <= 0) return false;
    for (int i = 0; i < 4; i++) hand[i] = fixed[i];
    hand[sm->seat] = sm->base.hand[sm->seat];
    for (int k = 1; k <= 7; k++) {
        const int n = pl_count(cls[k]);
        /* the split of the class among the three seats, by its share of deals */
        int sx[81], sy[81], ns = 0;
        double sw[81], total = 0;
        for (int x = 0; x <= n && x <= cap[0]; x++) {
            if (x && !(k & 1)) break;
            for (int y = 0; x + y <= n && y <= cap[1]; y++) {
                if (y && !(k & 2)) break;
                int z = n - x - y;
                if (z > cap[2] || (z && !(k & 4))) continue;
                double w = sm->ways[k + 1][cap[0] - x][cap[1] - y][cap[2] - z];
                if (w <= 0) continue;
                w *= FACT[n] / (FACT[x] * FACT[y] * FACT[z]);
                sx[ns] = x, sy[ns] = y, sw[ns++] = w, total += w;
            }
        }
        if (!ns) return false;
        double u = uniform01(rng) * total;
        int pick = 0;
        while (pick < ns - 1 && (u -= sw[pick]) >= 0) pick++;
        const int px = sx[pick], py = sy[pick];
        /* the class's cards in a random order, split x, y, z */
        uint8_t cards[32] = {0};
        int m = 0;
        for (pl_Set c = cls[k]; c; c &= c - 1) cards[m++] = (uint8_t)pl_first(c);
        for (int i = m - 1; i > 0; i--) {
            int j = (int)dl_rng_below(rng, (uint32_t)(i + 1));
            uint8_t t = cards[i];
            cards[i] = cards[j], cards[j] = t;
        }
        const int split[3] = {px, py, n - px - py};
        for (int s = 0, i = 0; s < 3; s++)
            for (int j = 0; j < split[s]; j++) hand[sm->others[s]] |= PL_BIT(cards[i++]);
        for (int s = 0; s < 3; s++) cap[s] -= split[s];
    }
    return true;
}

double pl_sampler_count(const pl_Sampler *sm)
{
    pl_Sampler *w = (pl_Sampler *)sm; /* the cache only */
    pl_Set cls[8];
    int cap[3];
    if (!room(w, w->fixed, cap) || !ready_ways(w, w->fixed, w->forbid, cls)) return 0;
    return w->ways[1][cap[0]][cap[1]][cap[2]];
}

/* ---- announced runs ---------------------------------------------------------- */

/* Places seat x's run of len cards: a suit and a start where each card was
 * played by x or may be dealt to it, and the cards just outside it were
 * not x's (P34: an announced run is a whole run; a four's cards may sit
 * beside it unless PV-decl-overlap). The run's unplayed cards join
 * fixed[x]; its unseen neighbours are forbidden to x. */
static pl_Set place_run(const pl_Sampler *sm, const Run *r, pl_Set fixed[4], pl_Set forbid[4], dl_Rng *rng)
{
    const int x = r->seat;
    const pl_Set mine = pl_played_by(&sm->base, x), others = fixed[0] | fixed[1] | fixed[2] | fixed[3];
    const pl_Set beside_ok = sm->base.rules.decl_overlap ? 0 : sm->own_four[x];
    pl_Set cand[32];
    int n = 0;
    for (int su = 0; su < 4; su++)
        for (int r0 = 0; r0 + r->len <= 8; r0++) {
            pl_Set run = (pl_Set)((1u << r->len) - 1) << (su * 8 + r0);
            bool ok = true;
            for (pl_Set c = run; c && ok; c &= c - 1) {
                pl_Set b = c & -c;
                bool held = (mine & b) || (fixed[x] & b);
                bool open = (sm->unseen & b) && !(forbid[x] & b) && !(others & b);
                ok = (held || open) && !(beside_ok & b);
            }
            for (int e = -1; e <= 1 && ok; e += 2) {
                int rank = e < 0 ? r0 - 1 : r0 + r->len;
                if (rank < 0 || rank > 7) continue;
                pl_Set b = PL_BIT(pl_card(rank, su));
                if ((mine | fixed[x]) & b & ~beside_ok) ok = false;
            }
            if (ok && n < 32) cand[n++] = run;
        }
    if (!n) return 0;
    const pl_Set run = cand[dl_rng_below(rng, (uint32_t)n)];
    fixed[x] |= run & sm->unseen;
    const int su = pl_suit(pl_first(run)), lo = pl_rank(pl_first(run)), hi = lo + r->len;
    if (lo > 0) forbid[x] |= PL_BIT(pl_card(lo - 1, su)) & sm->unseen & ~beside_ok;
    if (hi < 8) forbid[x] |= PL_BIT(pl_card(hi, su)) & sm->unseen & ~beside_ok;
    forbid[x] &= ~fixed[x];
    return run;
}

/* ---- a sample ------------------------------------------------------------------ */

static void to_state(const pl_Sampler *sm, const pl_Set hand[4], const pl_Set runs[PL_MAX_DECLS], pl_State *out)
{
    *out = sm->base;
    for (int i = 0; i < 4; i++) out->hand[i] = hand[i];
    /* a run not placed (the fallback) still needs cards of its length */
    for (int i = 0; i < sm->nruns; i++)
        out->decl[sm->runs[i].decl].cards = runs[i] ? runs[i] : (pl_Set)((1u << sm->runs[i].len) - 1);
}

/* One candidate: runs placed, the rest dealt; false when it failed. */
static bool candidate(pl_Sampler *sm, dl_Rng *rng, bool use_forbid, pl_State *out)
{
    pl_Set fixed[4], forbid[4], runs[PL_MAX_DECLS] = {0}, hand[4];
    memcpy(fixed, sm->fixed, sizeof fixed);
    for (int i = 0; i < 4; i++) forbid[i] = use_forbid ? sm->forbid[i] : 0;
    for (int i = 0; i < sm->nruns; i++) {
        runs[i] = place_run(sm, &sm->runs[i], fixed, forbid, rng);
        if (!runs[i]) return false;
    }
    if (!deal_rest(sm, fixed, forbid, rng, hand)) return false;
    to_state(sm, hand, runs, out);
    /* P36's outcome, when known, must come out the same */
    if (sm->base.standing >= 0 && pl_standing(out) != sm->base.standing) return false;
    return true;
}

bool pl_sample(pl_Sampler *sm, dl_Rng *rng, bool infer, pl_State *out)
{
    /* With infer, TRIES candidates and one kept in proportion to its
     * weight (sampling-importance-resampling): the calls reweigh the
     * uniform deals without ever emptying them. */
    bool have = false;
    double total = 0;
    for (int i = 0; i < TRIES; i++) {
        pl_State s;
        if (!candidate(sm, rng, true, &s)) continue;
        if (!infer) {
            *out = s;
            return true;
        }
        const double w = pl_auction_weight(&s, sm->seat);
        total += w;
        if (!have || uniform01(rng) * total < w) *out = s;
        have = true;
    }
    if (have) return true;
    /* No consistent deal (a view no real game gives): without the reading
     * of the plays, then with the hand sizes alone. */
    for (int i = 0; i < TRIES; i++)
        if (candidate(sm, rng, false, out)) return false;
    pl_Set none[4] = {0}, hand[4], runs[PL_MAX_DECLS] = {0};
    if (!deal_rest(sm, none, none, rng, hand)) {
        /* sizes that do not add up: whatever is unseen, in turn */
        for (int i = 0; i < 4; i++) hand[i] = 0;
        hand[sm->seat] = sm->base.hand[sm->seat];
        int k = 0;
        for (pl_Set u = sm->unseen; u; u &= u - 1, k++) hand[sm->others[k % 3]] |= u & -u;
    }
    to_state(sm, hand, runs, out);
    return false;
}

/* ---- the world of a view -------------------------------------------------------- */

/* A seed from the view alone (pl_view clears it first: every byte is the
 * view's). */
static uint64_t view_seed(const pl_View *v)
{
    const unsigned char *b = (const unsigned char *)v;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < sizeof *v; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

bool pl_sealed_state(const pl_State *s, int seat, pl_State *out)
{
    pl_View v;
    pl_view(s, seat, &v);
    pl_Sampler *sm = pl_sampler_new(&v);
    if (!sm) return false;
    dl_Rng rng;
    dl_rng_seed(&rng, view_seed(&v));
    pl_sample(sm, &rng, false, out);
    pl_sampler_free(sm);
    /* the auction's counters: public (the calls tell them), not in a view */
    out->passes = s->passes;
    out->passed = s->passed;
    /* the deals after this round come from the view too */
    dl_rng_seed(&out->rng, dl_rng_next(&rng));
    return true;
}

/* ---- the search ------------------------------------------------------------------ */

typedef struct {
    double value, points, made;
} Sum;

/* Sorts best first: value, then points, then pack order. */
static void rank_moves(pl_SearchResult *out)
{
    for (int i = 1; i < out->nmoves; i++) {
        pl_SearchMove m = out->moves[i];
        int j = i;
        while (j > 0 && (out->moves[j - 1].value < m.value ||
                         (out->moves[j - 1].value == m.value && out->moves[j - 1].points < m.points)))
            out->moves[j] = out->moves[j - 1], j--;
        out->moves[j] = m;
    }
}

/* One deal: every root card solved in one call (equal cards searched
 * once); false when the clock stopped it. */
static bool solve_deal(pl_Solver *sv, const pl_State *s, int team, Sum *sum, const pl_SearchResult *out)
{
    Sum got[8];
    pl_SolveResult res;
    pl_solve(sv, s, &res);
    if (pl_solver_stopped(sv)) return false;
    for (int i = 0; i < out->nmoves; i++) {
        int v = -2;
        for (int k = 0; k < res.nmoves; k++)
            if (res.moves[k].card == out->moves[i].card) v = res.moves[k].value;
        pl_RoundScore o;
        pl_solve_score(s, team, v, &o);
        got[i].value = o.game[team] - o.game[1 - team];
        got[i].points = v < 0 ? 0 : v;
        got[i].made = o.made == (o.bidders == team);
    }
    for (int i = 0; i < out->nmoves; i++)
        sum[i].value += got[i].value, sum[i].points += got[i].points, sum[i].made += got[i].made;
    return true;
}

int pl_search(const pl_View *v, const pl_SearchParams *p, pl_SearchResult *out)
{
    memset(out, 0, sizeof *out);
    out->best = -1;
    if (v->phase != PL_PHASE_PLAY || v->turn != v->seat || v->nplayed >= PL_NCARDS || v->bid_suit < 0) return -1;
    pl_Sampler *sm = pl_sampler_new(v);
    pl_Solver *sv = pl_solver_new(p->table_bits ? p->table_bits : 16);
    if (!sm || !sv) {
        pl_sampler_free(sm);
        pl_solver_free(sv);
        return -2;
    }
    const int team = pl_team(v->seat);
    for (pl_Set m = pl_legal_cards(&sm->base); m; m &= m - 1)
        out->moves[out->nmoves++].card = pl_first(m);
    out->exact = sm->nruns == 0 && pl_sampler_count(sm) <= 1.0;
    Sum sum[8] = {{0}};
    dl_Rng rng;
    dl_rng_seed(&rng, p->seed);
    const double start = now_s();
    const int want = out->exact ? 1 : p->deals > 0 ? p->deals : 1;
    for (int d = 0; d < want; d++) {
        double left = p->seconds > 0 ? p->seconds - (now_s() - start) : 0;
        if (p->seconds > 0 && left <= 0) break;
        pl_State s;
        pl_sample(sm, &rng, p->infer, &s);
        pl_solver_deadline(sv, left);
        if (!solve_deal(sv, &s, team, sum, out)) break;
        out->deals++;
    }
    out->nodes = pl_solver_nodes(sv);
    out->exact = out->exact && out->deals > 0; /* a deal the clock stopped says nothing */
    for (int i = 0; i < out->nmoves && out->deals; i++) {
        out->moves[i].value = sum[i].value / out->deals;
        out->moves[i].points = sum[i].points / out->deals;
        out->moves[i].made = sum[i].made / out->deals;
    }
    rank_moves(out);
    out->best = out->moves[0].card;
    out->value = out->moves[0].value;
    pl_sampler_free(sm);
    pl_solver_free(sv);
    return 0;
}
