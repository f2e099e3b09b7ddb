#define _POSIX_C_SOURCE 199309L
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "apply.h"
#include "score.h"

void dl_search_defaults(dl_SearchParams *p)
{
    memset(p, 0, sizeof *p);
    p->iterations = 2000;
    p->seed = 1;
    p->exploration = 0.7;
    p->epsilon = 0.15;
    p->exact_cards = 8;
    for (int i = 0; i < DL_W_COUNT; i++) p->w[i] = 1.0;
    p->w[DL_W_COUNT] = 0.0;
    p->pool = 500;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- determinization ---- */

/* Deals the cards in `rest` at random: seat i's hand gets what it lacks
 * beyond given[i], the pack the remainder (a known bottom card stays at
 * the bottom). */
static void deal_rest(const dl_View *v, dl_Rng *rng, dl_State *s, dl_Set rest, const int *given)
{
    uint8_t u[DL_NCARDS] = {0};
    int n = 0, k = 0;
    for (dl_Set x = rest; x; x &= x - 1) u[n++] = (uint8_t)dl_first(x);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)dl_rng_below(rng, (uint32_t)i + 1);
        uint8_t t = u[i];
        u[i] = u[j];
        u[j] = t;
    }
    for (int i = 0; i < v->rules.players; i++)
        if (i != v->seat)
            for (int j = given[i]; j < v->hand_count[i] && k < n; j++) s->hand[i] |= DL_BIT(u[k++]);
    int np = v->pack_count;
    for (int i = 0; i < np; i++) {
        bool bottom = i == np - 1 && v->known_bottom >= 0;
        s->pack[i] = bottom ? (uint8_t)v->known_bottom : (k < n ? u[k++] : 0);
    }
    s->pack_pos = 0;
    s->pack_len = (uint8_t)np;
    dl_rng_seed(&s->rng, dl_rng_next(rng));
}

void dl_determinize(const dl_View *v, dl_Rng *rng, dl_State *s)
{
    dl_view_state(v, s);
    /* Public inference (D19): an owner holds a card of the declaration's
     * value, so each other owner gets one first. */
    dl_Set unseen = v->unseen;
    int given[DL_MAX_PLAYERS] = {0};
    for (int i = 0; i < v->ndecl; i++) {
        int o = v->decl[i].owner;
        dl_Set c = unseen & dl_value_mask(v->decl[i].value);
        if (o == v->seat || !c || given[o] >= v->hand_count[o]) continue;
        int pick = (int)dl_rng_below(rng, (uint32_t)dl_count(c));
        while (pick--) c &= c - 1;
        s->hand[o] |= DL_BIT(dl_first(c));
        unseen &= ~DL_BIT(dl_first(c));
        given[o]++;
    }
    deal_rest(v, rng, s, unseen, given);
}

/* A seed from public facts of the view only (what the seat holds and
 * sees, how many cards each place holds): never from the state. */
static uint64_t view_seed(const dl_View *v)
{
    uint64_t h = dl_mix(0x5ea1edULL, (uint64_t)v->seat);
    h = dl_mix(h, (uint64_t)v->round);
    h = dl_mix(h, (uint64_t)(v->deal << 8 | v->ply));
    h = dl_mix(h, v->hand);
    h = dl_mix(h, v->loose);
    h = dl_mix(h, v->unseen);
    h = dl_mix(h, (uint64_t)v->pack_count);
    for (int i = 0; i < DL_MAX_PLAYERS; i++) h = dl_mix(h, (uint64_t)v->hand_count[i]);
    return h;
}

void dl_sealed_state(const dl_State *s, int seat, dl_State *out)
{
    dl_View v;
    dl_view(s, seat, &v);
    dl_Rng rng;
    dl_rng_seed(&rng, view_seed(&v));
    dl_determinize(&v, &rng, out);
}

/* ---- deals weighted by the play seen (infer.h) ---- */

typedef struct {
    dl_Set (*hand)[DL_MAX_PLAYERS]; /* the guesses at the hidden hands */
    double *cum;                    /* their cumulative weights (the
                                       log-weights while it is built) */
    int n;                          /* 0: no pool, deal uniformly */
    double ess;                     /* effective sample size of the weights */
} Pool;

static void pool_free(Pool *pl)
{
    free(pl->hand);
    free(pl->cum);
    memset(pl, 0, sizeof *pl);
}

/* Weighs p->pool uniform guesses by the play seen. Leaves the pool empty
 * (uniform deals) when there is nothing to read, no guess explains the
 * play, or memory ran out. */
static void pool_build(Pool *pl, const dl_View *v, const dl_SearchParams *p)
{
    memset(pl, 0, sizeof *pl);
    if (p->infer <= 0 || p->nseen <= 0 || p->pool <= 0) return;
    if (v->rules.players == 2 && v->pack_count == 0) return; /* nothing hidden */
    size_t n = (size_t)p->pool;
    pl->hand = malloc(n * sizeof *pl->hand);
    pl->cum = malloc(n * sizeof *pl->cum);
    dl_MoveList l;
    dl_movelist_init(&l);
    dl_Rng rng;
    dl_rng_seed(&rng, p->seed ^ 0x5eed1f3e7a11ULL);
    double top = -INFINITY;
    for (size_t i = 0; pl->hand && pl->cum && i < n; i++) {
        dl_State s;
        dl_determinize(v, &rng, &s);
        memcpy(pl->hand[i], s.hand, sizeof pl->hand[i]);
        pl->cum[i] = dl_infer_logweight(p->seen, p->nseen, s.hand, p->infer, &l);
        if (pl->cum[i] > top) top = pl->cum[i];
    }
    dl_movelist_free(&l);
    if (!pl->hand || !pl->cum || top == -INFINITY) {
        pool_free(pl);
        return;
    }
    double sum = 0;
    double sq = 0;
    for (size_t i = 0; i < n; i++) {
        double w = exp(pl->cum[i] - top);
        pl->cum[i] = sum += w;
        sq += w * w;
    }
    pl->n = (int)n;
    pl->ess = sum * sum / sq;
}

/* A deal from the pool: a guess drawn by weight, the pack shuffled anew. */
static void pool_deal(const Pool *pl, const dl_View *v, dl_Rng *rng, dl_State *s)
{
    double r = (double)(dl_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0) * pl->cum[pl->n - 1];
    int lo = 0, hi = pl->n - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (pl->cum[mid] > r) hi = mid;
        else lo = mid + 1;
    }
    dl_view_state(v, s);
    int given[DL_MAX_PLAYERS] = {0};
    dl_Set held = 0;
    for (int i = 0; i < v->rules.players; i++)
        if (i != v->seat) {
            s->hand[i] = pl->hand[lo][i];
            held |= s->hand[i];
            given[i] = v->hand_count[i];
        }
    deal_rest(v, rng, s, v->unseen & ~held, given);
}

static void deal(const Pool *pl, const dl_View *v, dl_Rng *rng, dl_State *s)
{
    if (pl && pl->n) pool_deal(pl, v, rng, s);
    else dl_determinize(v, rng, s);
}

/* ---- evaluation ---- */

static double side_value(const dl_RoundScore *r, int i, const double *w)
{
    return w[DL_W_CARDS] * r->pts_cards[i] + w[DL_W_CLUBS] * r->pts_clubs[i] +
           w[DL_W_ACES] * r->pts_aces[i] + w[DL_W_TEN_D] * r->pts_ten_diamonds[i] +
           w[DL_W_TWO_C] * r->pts_two_clubs[i] + w[DL_W_XERI] * r->pts_xeri[i] +
           w[DL_W_COUNT] * r->cards[i];
}

/* The finished round from each side's point of view: its value minus the
 * best other side's. */
static void round_diffs(const dl_State *s, const double *w, double *diff)
{
    const int n = dl_nsides(&s->rules);
    double val[DL_MAX_PLAYERS];
    for (int i = 0; i < n; i++) val[i] = side_value(&s->last, i, w);
    for (int i = 0; i < n; i++) {
        double best = -1e9;
        for (int j = 0; j < n; j++)
            if (j != i && val[j] > best) best = val[j];
        diff[i] = val[i] - best;
    }
}

static bool live(const dl_State *s)
{
    return s->phase == DL_PHASE_PLAY || s->phase == DL_PHASE_CLAIM;
}

/* ---- the playout policy ---- */

/* Cards in a set, without a library call (a builtin popcount is one on a
 * plain x86-64 build): the policy counts every capture it weighs. */
static inline int cards_in(dl_Set x)
{
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

static double move_score(const dl_State *s, const dl_Move *m)
{
    switch (m->kind) {
    case DL_CAPTURE: {
        dl_Set taken = dl_move_taken(s, m);
        double sc = 10 + cards_in(taken) + 3 * dl_card_points(taken);
        if (s->ply > 0 && dl_move_sweeps(s, m)) sc += 30;
        return sc;
    }
    case DL_LAY: {
        /* Laying onto an empty table offers a sweep; point cards are costly. */
        double sc = -3.0 * dl_card_points(DL_BIT(m->card));
        if (!s->loose && !s->ndecl) sc -= 6;
        return sc - (dl_is_face(m->card) ? 0 : 0.1 * dl_value(m->card));
        }
    default:
        return 4 + 0.3 * m->value;
    }
}

size_t dl_policy_pick(const dl_State *s, const dl_MoveList *l, dl_Rng *rng, double epsilon)
{
    if (l->n == 1) return 0;
    if (epsilon > 0 && (double)(dl_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0) < epsilon)
        return dl_rng_below(rng, (uint32_t)l->n);
    size_t best = 0;
    double bs = -1e9;
    for (size_t i = 0; i < l->n; i++) {
        double sc = move_score(s, &l->m[i]);
        if (sc > bs) bs = sc, best = i;
    }
    return best;
}

/* ---- the tree ---- */

typedef struct {
    dl_Move move;
    int parent, child, sibling;
    int mover; /* seat that played move */
    long visits, avail;
    double reward; /* summed, from the mover's side */
} Node;

/* A deal's legal moves found by value: which children of a node are
 * legal in this deal, and which moves are still untried. Without it each
 * step down the tree compares every child with every move, which is most
 * of a crowded search's time. Open addressing; a slot is in use when its
 * stamp is the list's, so nothing is cleared between lists. */
typedef struct {
    uint32_t *stamp;
    int *at;          /* the move's index in the list */
    size_t mask;      /* slots - 1 (a power of two) */
    int shift;        /* 64 - log2(slots) */
    uint32_t now;
    bool *known;      /* per move of the list: a child plays it */
    size_t knowncap;
} Index;

typedef struct {
    Node *n;
    int count, cap;
    const dl_SearchParams *p;
    const Pool *pool;
    dl_Rng rng;
    dl_MoveList l;
    Index ix;
} Tree;

/* The top bits of a product depend on every bit of the move (the low
 * bits would not see its card, and the copies of a move for cards of one
 * rank differ only there). */
static size_t move_slot(const dl_Move *m, int shift)
{
    uint64_t x = m->take ^ ((uint64_t)m->kind << 56 | (uint64_t)m->card << 48 |
                            (uint64_t)m->value << 40);
    return (size_t)((x * 0x9E3779B97F4A7C15ULL) >> shift);
}

static void index_free(Index *ix)
{
    free(ix->stamp);
    free(ix->at);
    free(ix->known);
    memset(ix, 0, sizeof *ix);
}

/* Indexes l; false (the plain comparisons decide) when memory ran out or
 * the list holds a move twice. */
static bool index_build(Index *ix, const dl_MoveList *l)
{
    size_t slots = 64;
    int shift = 58;
    while (slots < 2 * l->n) slots *= 2, shift--;
    if (slots > ix->mask + 1 || !ix->stamp) {
        uint32_t *st = calloc(slots, sizeof *st);
        int *at = malloc(slots * sizeof *at);
        if (!st || !at) {
            free(st);
            free(at);
            return false;
        }
        free(ix->stamp);
        free(ix->at);
        ix->stamp = st;
        ix->at = at;
        ix->mask = slots - 1;
        ix->shift = shift;
        ix->now = 0;
    }
    if (l->n > ix->knowncap) {
        bool *k = realloc(ix->known, l->n * sizeof *k);
        if (!k) return false;
        ix->known = k;
        ix->knowncap = l->n;
    }
    if (++ix->now == 0) {
        memset(ix->stamp, 0, (ix->mask + 1) * sizeof *ix->stamp);
        ix->now = 1;
    }
    for (size_t i = 0; i < l->n; i++) {
        size_t h = move_slot(&l->m[i], ix->shift);
        for (; ix->stamp[h] == ix->now; h = (h + 1) & ix->mask)
            if (dl_move_eq(&l->m[ix->at[h]], &l->m[i])) return false;
        ix->stamp[h] = ix->now;
        ix->at[h] = (int)i;
        ix->known[i] = false;
    }
    return true;
}

/* The index of m in the indexed list l, or -1. */
static long index_find(const Index *ix, const dl_MoveList *l, const dl_Move *m)
{
    for (size_t h = move_slot(m, ix->shift); ix->stamp[h] == ix->now; h = (h + 1) & ix->mask)
        if (dl_move_eq(&l->m[ix->at[h]], m)) return ix->at[h];
    return -1;
}

static int add_node(Tree *t, int parent, const dl_Move *m, int mover)
{
    if (t->count == t->cap) {
        int cap = t->cap ? t->cap * 2 : 1024;
        Node *n = realloc(t->n, (size_t)cap * sizeof *n);
        if (!n) return -1;
        t->n = n;
        t->cap = cap;
    }
    Node *x = &t->n[t->count];
    memset(x, 0, sizeof *x);
    if (m) x->move = *m;
    x->parent = parent;
    x->child = x->sibling = -1;
    x->mover = mover;
    if (parent >= 0) {
        x->sibling = t->n[parent].child;
        t->n[parent].child = t->count;
    }
    return t->count++;
}

static bool listed(const dl_MoveList *l, const dl_Move *m)
{
    for (size_t i = 0; i < l->n; i++)
        if (dl_move_eq(&l->m[i], m)) return true;
    return false;
}

/* One SO-ISMCTS iteration on a fresh determinization. */
static int iterate(Tree *t, const dl_View *v)
{
    dl_State s;
    deal(t->pool, v, &t->rng, &s);
    int node = 0;
    bool expanded = false;
    while (live(&s) && !expanded) {
        if (dl_legal_moves_share(&s, &t->l, DL_SEARCH_SHARE) <= 0) return -1;
        /* Children legal in this deal gain an availability. */
        const bool indexed = index_build(&t->ix, &t->l);
        int best = -1;
        double bv = -1e300;
        for (int c = t->n[node].child; c >= 0; c = t->n[c].sibling) {
            if (indexed) {
                long at = index_find(&t->ix, &t->l, &t->n[c].move);
                if (at < 0) continue;
                t->ix.known[at] = true;
            } else if (!listed(&t->l, &t->n[c].move)) {
                continue;
            }
            Node *x = &t->n[c];
            x->avail++;
            double ucb = x->reward / (double)x->visits +
                         t->p->exploration * sqrt(log((double)x->avail) / (double)x->visits);
            if (ucb > bv) bv = ucb, best = c;
        }
        /* Untried moves come first (in a random order). */
        size_t untried = 0, pick = 0;
        for (size_t i = 0; i < t->l.n; i++) {
            bool known = indexed && t->ix.known[i];
            for (int c = t->n[node].child; !indexed && c >= 0 && !known; c = t->n[c].sibling)
                known = dl_move_eq(&t->n[c].move, &t->l.m[i]);
            if (!known && dl_rng_below(&t->rng, (uint32_t)++untried) == 0) pick = i;
        }
        int mover = s.turn;
        if (untried) {
            dl_Move m = t->l.m[pick];
            int c = add_node(t, node, &m, mover);
            if (c < 0) return -1;
            t->n[c].avail = 1;
            dl_apply(&s, &m, NULL);
            node = c;
            expanded = true;
        } else {
            dl_apply(&s, &t->n[best].move, NULL);
            node = best;
        }
    }
    while (live(&s)) {
        if (dl_legal_moves_share(&s, &t->l, DL_SEARCH_SHARE) <= 0) return -1;
        dl_apply(&s, &t->l.m[dl_policy_pick(&s, &t->l, &t->rng, t->p->epsilon)], NULL);
    }
    double diff[DL_MAX_PLAYERS];
    round_diffs(&s, t->p->w, diff);
    for (; node > 0; node = t->n[node].parent) {
        Node *x = &t->n[node];
        x->visits++;
        x->reward += 1.0 / (1.0 + exp(-diff[dl_side(&v->rules, x->mover)] / 5.0));
    }
    t->n[0].visits++;
    return 0;
}

static int cmp_moves(const void *a, const void *b)
{
    const dl_SearchMove *x = a, *y = b;
    if (x->visits != y->visits) return x->visits < y->visits ? 1 : -1;
    return (x->value < y->value) - (x->value > y->value);
}

static int mcts(const dl_View *v, const dl_SearchParams *p, const Pool *pool, dl_SearchResult *out)
{
    Tree t;
    memset(&t, 0, sizeof t);
    t.p = p;
    t.pool = pool;
    dl_rng_seed(&t.rng, p->seed);
    dl_movelist_init(&t.l);
    int rc = 0;
    if (add_node(&t, -1, NULL, -1) < 0) rc = -1;
    double start = now_s();
    long it = 0;
    while (rc == 0) {
        if (p->iterations > 0 && it >= p->iterations) break;
        if (p->seconds > 0 && (it & 15) == 0 && now_s() - start >= p->seconds) break;
        if (p->iterations <= 0 && p->seconds <= 0 && it >= 1000) break;
        rc = iterate(&t, v);
        it++;
    }
    if (rc == 0) {
        out->iterations = it;
        out->nmoves = 0;
        for (int c = t.n[0].child; c >= 0 && out->nmoves < DL_SEARCH_MAX_ROOT; c = t.n[c].sibling) {
            dl_SearchMove *sm = &out->moves[out->nmoves++];
            sm->move = t.n[c].move;
            sm->visits = t.n[c].visits;
            sm->value = t.n[c].visits ? t.n[c].reward / (double)t.n[c].visits : 0;
        }
        qsort(out->moves, (size_t)out->nmoves, sizeof *out->moves, cmp_moves);
        if (out->nmoves == 0) rc = -1;
    }
    if (rc == 0) {
        out->best = out->moves[0].move;
        out->value = out->moves[0].value;
    }
    free(t.n);
    dl_movelist_free(&t.l);
    index_free(&t.ix);
    return rc;
}

/* ---- exact search of a fully known last deal ---- */

typedef struct {
    const dl_SearchParams *p;
    int side; /* the searching side */
    long nodes, max_nodes;
    double deadline; /* 0: none */
    bool aborted;    /* over the node or time limit: the MCTS decides */
    dl_MoveList *lists; /* one per ply */
} Exact;

/* The root side's point difference at the end of the round. */
static double alphabeta(Exact *e, const dl_State *s, int depth, double alpha, double beta)
{
    if (++e->nodes > e->max_nodes ||
        ((e->nodes & 4095) == 0 && e->deadline > 0 && now_s() > e->deadline))
        e->aborted = true;
    if (e->aborted) return 0;
    if (!live(s)) {
        double diff[DL_MAX_PLAYERS];
        round_diffs(s, e->p->w, diff);
        return diff[e->side];
    }
    dl_MoveList *l = &e->lists[depth];
    if (dl_legal_moves_share(s, l, DL_SEARCH_SHARE) <= 0) return 0;
    bool maxing = dl_side(&s->rules, s->turn) == e->side;
    /* Try the policy's favourite first: better cut-offs. */
    dl_Rng none;
    dl_rng_seed(&none, 0);
    size_t first = dl_policy_pick(s, l, &none, 0);
    double best = maxing ? -1e9 : 1e9;
    for (size_t k = 0; k < l->n; k++) {
        size_t i = k == 0 ? first : (k <= first ? k - 1 : k);
        dl_State c = *s;
        dl_apply(&c, &l->m[i], NULL);
        double v = alphabeta(e, &c, depth + 1, alpha, beta);
        l = &e->lists[depth]; /* stable, but reload after recursion for clarity */
        if (maxing) {
            if (v > best) best = v;
            if (best > alpha) alpha = best;
        } else {
            if (v < best) best = v;
            if (best < beta) beta = best;
        }
        if (alpha >= beta) break;
    }
    return best;
}

/* Every root move's exact value in one fully known deal; false when the
 * node or time limit cut the search short. */
static bool solve_deal(Exact *e, const dl_State *s, const dl_MoveList *root, double *values)
{
    for (size_t i = 0; i < root->n && !e->aborted; i++) {
        dl_State c = *s;
        dl_apply(&c, &root->m[i], NULL);
        values[i] = alphabeta(e, &c, 1, -1e9, 1e9);
    }
    return !e->aborted;
}

static void sort_by_value(dl_SearchResult *out)
{
    /* Best value first; equal values keep the generator's order. */
    for (int i = 1; i < out->nmoves; i++)
        for (int j = i; j > 0 && out->moves[j].value > out->moves[j - 1].value; j--) {
            dl_SearchMove t = out->moves[j];
            out->moves[j] = out->moves[j - 1];
            out->moves[j - 1] = t;
        }
    out->best = out->moves[0].move;
    out->value = out->moves[0].value;
}

/* Solves `deals` deals consistent with the view exactly (one when nothing
 * is hidden) and scores each root move by its mean over them: the exact
 * point difference for a single known deal, else the mean of the same
 * squashed difference the tree search uses, so values stay comparable.
 * Returns 1 when a limit cut it short, or the root has more moves than a
 * result holds (the tree search decides then). */
static int solve(const dl_View *v, const dl_SearchParams *p, const Pool *pool, int deals,
                 dl_SearchResult *out)
{
    dl_Rng rng;
    dl_rng_seed(&rng, p->seed);
    dl_MoveList lists[DL_NCARDS + 2];
    for (int i = 0; i < DL_NCARDS + 2; i++) dl_movelist_init(&lists[i]);
    /* Bounded: one C call must not run for long (a script waits on it). */
    Exact e = {p, dl_side(&v->rules, v->seat), 0, 4000000,
               p->seconds > 0 ? now_s() + p->seconds : 0, false, lists};
    dl_MoveList root;
    dl_movelist_init(&root);
    double sum[DL_SEARCH_MAX_ROOT] = {0}, val[DL_SEARCH_MAX_ROOT];
    int rc = 0;
    for (int d = 0; d < deals && rc == 0; d++) {
        dl_State s;
        deal(pool, v, &rng, &s);
        /* The root moves use only the seat's hand and the table, so every
         * deal lists the same ones in the same order. */
        if (dl_legal_moves_share(&s, &root, DL_SEARCH_SHARE) <= 0) rc = -1;
        else if (root.n > DL_SEARCH_MAX_ROOT || !solve_deal(&e, &s, &root, val)) rc = 1;
        for (size_t i = 0; rc == 0 && i < root.n; i++)
            sum[i] += deals == 1 ? val[i] : 1.0 / (1.0 + exp(-val[i] / 5.0));
    }
    out->nmoves = 0;
    for (size_t i = 0; rc == 0 && i < root.n; i++) {
        dl_SearchMove *sm = &out->moves[out->nmoves++];
        sm->move = root.m[i];
        sm->visits = deals;
        sm->value = sum[i] / deals;
    }
    for (int i = 0; i < DL_NCARDS + 2; i++) dl_movelist_free(&lists[i]);
    dl_movelist_free(&root);
    if (rc != 0 || out->nmoves == 0) return rc ? rc : -1;
    sort_by_value(out);
    out->iterations = e.nodes;
    out->exact = deals == 1;
    out->deals = deals == 1 ? 0 : deals;
    return 0;
}

int dl_search(const dl_View *v, const dl_SearchParams *p, dl_SearchResult *out)
{
    memset(out, 0, sizeof *out);
    if (v->turn != v->seat || (v->phase != DL_PHASE_PLAY && v->phase != DL_PHASE_CLAIM)) return -1;
    int in_hands = 0;
    for (int i = 0; i < v->rules.players; i++) in_hands += v->hand_count[i];
    /* Two players and an empty pack: the other hand is exactly the unseen
     * cards, so the rest of the round is a game of perfect information.
     * With more players the unseen cards still split among several hands:
     * solving sampled deals exactly (perfect-information sampling) is then
     * an option, as the tree search's playouts play the end badly. */
    int deals = v->rules.players == 2 ? 1 : p->deals;
    Pool pool;
    pool_build(&pool, v, p);
    int rc = 1;
    if (deals > 0 && v->pack_count == 0 && v->phase == DL_PHASE_PLAY && in_hands <= p->exact_cards) {
        rc = solve(v, p, &pool, deals, out);
        if (rc > 0) memset(out, 0, sizeof *out); /* too big to finish: the tree search decides */
    }
    if (rc > 0) rc = mcts(v, p, &pool, out);
    if (pool.n) {
        out->seen = p->nseen;
        out->guesses = pool.ess;
    }
    pool_free(&pool);
    return rc;
}
