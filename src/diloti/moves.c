/* Legal move generation. The table's small-sum subsets are listed once per
 * position, bucketed by sum; every capture, declaration and group is then
 * built from those buckets. Unions of disjoint parts can be reached through
 * several partitions, so each batch is de-duplicated (D11: a move is the set
 * of items it takes). */
#include "moves.h"

#include "legal.h"

#include <stdlib.h>
#include <string.h>

void dl_movelist_init(dl_MoveList *l) { memset(l, 0, sizeof *l); }

static void free_scratch(void *p);

void dl_movelist_free(dl_MoveList *l)
{
    free(l->m);
    free_scratch(l->scratch);
    memset(l, 0, sizeof *l);
}

bool dl_movelist_push(dl_MoveList *l, const dl_Move *m)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        dl_Move *p = realloc(l->m, cap * sizeof *p);
        if (!p) return false;
        l->m = p;
        l->cap = cap;
    }
    l->m[l->n++] = *m;
    return true;
}

/* Subsets of the table with a sum of 1..10, one bucket per sum. */
typedef struct {
    uint64_t *b[11];
    int n[11], cap[11];
    int total;     /* subsets in all buckets */
    unsigned sums; /* bit s: bucket s is not empty */
    uint64_t *flat; /* loose subsets only: the one block b[] points into */
} Subsets;

typedef struct {
    uint64_t bit;
    int val;
} Atom;

typedef struct {
    const dl_State *s;
    dl_MoveList *out;
    int seat, own;       /* own: slot of the mover's declaration or -1 */
    dl_Set hand;
    unsigned handvals;   /* bit v: the mover holds a card of value v */
    unsigned singles;    /* bit v: ... exactly one card of value v */
    Subsets loose;       /* loose numerals only (D3, D15) */
    Subsets lib;         /* plus plain declarations as single cards (C3, C5) */
    bool use_lib;
    bool lib_capture, lib_group; /* use_lib with C5, with C3: per position */
    bool oom;
    bool full;           /* the batch being made has its share of moves */
    size_t batch_from, batch_end; /* where the batch being made starts and must stop */
    bool merge;          /* the batch may repeat a take (deduped as it goes) */
    int merges;          /* times it was */
    long work;           /* steps the batch may still take */
    long batch_cap;      /* moves a batch may make (issue 24) */
    bool overlap;        /* the parts of the batch are not pairwise disjoint */
    unsigned declvals;   /* bit v: a declaration of value v is on the table */
    unsigned raisable;   /* bit v: another side's plain declaration of value v */
    unsigned raisers;    /* bit i: declaration i is one of those */
    const uint64_t *part; /* the parts of one batch (collect_parts) */
    int npart;
    uint64_t *partbuf;   /* parts copied when declarations join a bucket */
    int partcap;
    /* Per position, for loose buckets whose sets overlap: every distinct
     * union of pairwise disjoint sets of bucket v, ascending, at
     * ub[uoff[v]..uoff[v]+un[v]) once bit v of u_known is set. */
    uint64_t *ub, *utmp;
    int ucap, utmpcap, ulen;
    int uoff[11], un[11];
    unsigned u_known;
    uint64_t *comp;      /* the played card's possible components */
    int compcap;
} Gen;

static void free_scratch(void *p)
{
    Gen *g = p;
    if (!g) return;
    for (int i = 0; i < 11; i++) {
        free(g->lib.b[i]);
    }
    free(g->loose.flat);
    free(g->partbuf);
    free(g->ub);
    free(g->utmp);
    free(g->comp);
    free(g);
}

static bool grow(uint64_t **buf, int *cap, int need)
{
    if (need <= *cap) return true;
    int c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    uint64_t *p = realloc(*buf, (size_t)c * sizeof *p);
    if (!p) return false;
    *buf = p;
    *cap = c;
    return true;
}

static inline bool bucket_push(Subsets *ss, int t, uint64_t x);

/* Depth-first over atoms sorted by value, so a sum past 10 ends the loop. */
static bool dfs(Subsets *ss, const Atom *a, int na, int from, int sum, uint64_t set, int limit)
{
    for (int i = from; i < na; i++) {
        int t = sum + a[i].val;
        if (t > limit) break;
        uint64_t x = set | a[i].bit;
        if (!bucket_push(ss, t, x)) return false;
        if (i + 1 < na && t + a[i + 1].val <= limit && !dfs(ss, a, na, i + 1, t, x, limit))
            return false;
    }
    return true;
}

static inline bool bucket_push(Subsets *ss, int t, uint64_t x)
{
    if (ss->n[t] == ss->cap[t] && !grow(&ss->b[t], &ss->cap[t], ss->n[t] + 1)) return false;
    ss->b[t][ss->n[t]++] = x;
    ss->sums |= 1u << t;
    return true;
}

static void subsets_reset(Subsets *ss)
{
    memset(ss->n, 0, sizeof ss->n);
    ss->sums = 0;
    ss->total = -1; /* counted on demand */
}

/* How many sets of numerals of the whole deck (four of each value) sum to
 * t: no table can fill bucket t with more, so buckets of these sizes,
 * allocated once, need no capacity checks. 4051 in all. */
static const int bucket_max[11] = {1, 4, 10, 24, 51, 100, 190, 344, 601, 1024, 1702};

/* Loose numerals only, straight on the card set: card order is value
 * order, and a mask keeps only cards that still fit under the limit. The
 * walk is depth-first, a card before its extensions: that order of the
 * subsets fixes the order of the moves. Returns false only when memory ran
 * out. */
static bool loose_subsets(Subsets *ss, dl_Set cards, int limit)
{
    subsets_reset(ss);
    cards &= ((dl_Set)1 << (4 * limit)) - 1;
    if (!cards) return true;
    if (!ss->flat) {
        int total = 0;
        for (int t = 0; t <= 10; t++) total += bucket_max[t];
        if (!(ss->flat = malloc((size_t)total * sizeof *ss->flat))) return false;
        for (int t = 0, off = 0; t <= 10; off += bucket_max[t], t++) {
            ss->b[t] = ss->flat + off;
            ss->cap[t] = bucket_max[t];
        }
    }
    /* Cards of value 1..n: the ones that still fit under a remaining n. */
    static const dl_Set fits[11] = {
        0, 0xFULL, 0xFFULL, 0xFFFULL, 0xFFFFULL, 0xFFFFFULL, 0xFFFFFFULL, 0xFFFFFFFULL,
        0xFFFFFFFFULL, 0xFFFFFFFFFULL, 0xFFFFFFFFFFULL};
    uint64_t *const *b = ss->b;
    unsigned sums = 0;
    /* The frame being walked stays in registers: the cards still to try and
     * the subset so far. Parents wait on a stack, one per depth (at most 7
     * cards sum to 10 or less). */
    dl_Set r = cards, set = 0, st_r[11], st_set[11];
    int sum = 0, d = 0, st_sum[11];
    for (;;) {
        while (r) {
            int c = dl_first(r);
            r &= r - 1;
            int t = sum + (c >> 2) + 1;
            dl_Set x = set | DL_BIT(c);
            b[t][ss->n[t]++] = x;
            sums |= 1u << t;
            dl_Set fit = r & fits[limit - t];
            if (fit) {
                st_r[d] = r;
                st_set[d] = set;
                st_sum[d] = sum;
                d++;
                r = fit;
                set = x;
                sum = t;
            }
        }
        if (!d) break;
        d--;
        r = st_r[d];
        set = st_set[d];
        sum = st_sum[d];
    }
    ss->sums = sums;
    return true;
}

static bool atom_less(const Atom *x, const Atom *y)
{
    return x->val != y->val ? x->val < y->val : x->bit < y->bit;
}

static bool build_subsets(Subsets *ss, Atom *a, int na, int limit)
{
    /* Loose cards arrive in value order already; declarations do not. */
    for (int i = 1; i < na; i++) {
        Atom t = a[i];
        int j = i;
        for (; j > 0 && atom_less(&t, &a[j - 1]); j--) a[j] = a[j - 1];
        a[j] = t;
    }
    subsets_reset(ss);
    return dfs(ss, a, na, 0, 0, 0, limit);
}

static int loose_atoms(const dl_State *s, Atom *a)
{
    int n = 0;
    for (dl_Set l = s->loose & DL_NUMERALS; l; l &= l - 1)
        a[n++] = (Atom){DL_BIT(dl_first(l)), dl_value(dl_first(l))};
    return n;
}

static int lib_atoms(const dl_State *s, Atom *a)
{
    int n = loose_atoms(s, a);
    for (int i = 0; i < s->ndecl; i++)
        if (s->decl[i].kind == DL_DECL_PLAIN)
            a[n++] = (Atom){DL_DECL_BIT(i), s->decl[i].value};
    return n;
}

/* Starts a batch: one card's captures, or its declarations or groups of
 * one value. A batch makes at most batch_cap moves, so a crowded table
 * costs a bounded list and bounded work; one that stops early marks the
 * list cut. */
static inline void batch(Gen *g)
{
    g->full = false;
    g->merge = false;
    g->merges = 0;
    g->batch_from = g->out->n;
    g->batch_end = g->out->n + (size_t)g->batch_cap;
    g->work = 256 * g->batch_cap;
}

/* One step of a batch's search, emitting or not: false once the batch has
 * used its share (the list is then cut). */
static inline bool spend(Gen *g)
{
    if (g->work-- > 0) return true;
    g->full = g->out->cut = true;
    return false;
}

static void dedupe(Gen *g, size_t from);

/* A batch that may repeat takes (several partitions of one set) is its
 * share of distinct moves: its repeats are dropped when it fills, and it
 * goes on while that freed a quarter of its room. */
static bool room(Gen *g)
{
    if (!g->merge || g->merges++ >= 4) return false;
    dedupe(g, g->batch_from);
    return !g->oom && g->out->n + (size_t)g->batch_cap / 4 <= g->batch_end;
}

static inline void emit(Gen *g, int kind, int card, int value, uint64_t take)
{
    dl_MoveList *l = g->out;
    if (l->n >= g->batch_end && (g->full || !room(g))) {
        g->full = true;
        l->cut = true;
        return;
    }
    if (l->n == l->cap) {
        dl_Move m = {take, (uint8_t)kind, (uint8_t)card, (uint8_t)value};
        if (!dl_movelist_push(l, &m)) g->oom = true;
        return;
    }
    /* Field by field: a struct built on the stack and copied whole stalls
     * store forwarding, and this is the hottest store of the generator. */
    dl_Move *d = &l->m[l->n++];
    d->take = take;
    d->kind = (uint8_t)kind;
    d->card = (uint8_t)card;
    d->value = (uint8_t)value;
}

/* Sorts k[0..n) ascending; tmp has room for n. Insertion sort on short
 * runs, then bottom-up merges: no comparison callback. */
static void sort_keys(uint64_t *k, uint64_t *tmp, int n)
{
    enum { RUN = 16 };
    for (int lo = 0; lo < n; lo += RUN) {
        int hi = lo + RUN < n ? lo + RUN : n;
        for (int i = lo + 1; i < hi; i++) {
            uint64_t t = k[i];
            int j = i;
            for (; j > lo && k[j - 1] > t; j--) k[j] = k[j - 1];
            k[j] = t;
        }
    }
    uint64_t *src = k, *dst = tmp;
    for (int w = RUN; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int i = lo, j = mid, o = lo;
            while (i < mid && j < hi) dst[o++] = src[j] < src[i] ? src[j++] : src[i++];
            while (i < mid) dst[o++] = src[i++];
            while (j < hi) dst[o++] = src[j++];
        }
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != k) memcpy(k, src, (size_t)n * sizeof *k);
}

/* Removes repeated takes among out->m[from..], leaving them in ascending
 * order of take. */
static void dedupe(Gen *g, size_t from)
{
    dl_MoveList *out = g->out;
    size_t n = out->n - from;
    if (n < 2) return;
    dl_Move *m = out->m + from;
    if (n == 2) {
        /* A quarter of the batches to dedupe: one comparison the predictor
         * cannot learn, made a select. The first of equal takes stays. */
        const dl_Move a = m[0], b = m[1];
        const bool swap = b.take < a.take;
        m[0] = swap ? b : a;
        m[1] = swap ? a : b;
        out->n = from + 1 + (a.take != b.take);
        return;
    }
    if (n > 64 && n <= INT32_MAX / 2) {
        /* A batch is one kind, card and value (the captures of a card, or
         * its groups of one value), so only the takes need sorting. */
        if (!grow(&g->utmp, &g->utmpcap, (int)(2 * n))) {
            g->oom = true;
            return;
        }
        uint64_t *k = g->utmp;
        for (size_t i = 0; i < n; i++) k[i] = m[i].take;
        sort_keys(k, k + n, (int)n);
        const dl_Move first = m[0];
        size_t u = 0;
        for (size_t i = 0; i < n; i++) {
            if (i && k[i] == k[i - 1]) continue;
            m[u] = first;
            m[u++].take = k[i];
        }
        out->n = from + u;
        return;
    }
    for (size_t i = 1; i < n; i++) {
        dl_Move t = m[i];
        size_t j = i;
        while (j > 0 && m[j - 1].take > t.take) {
            m[j] = m[j - 1];
            j--;
        }
        m[j] = t;
    }
    size_t k = 1;
    for (size_t i = 1; i < n; i++)
        if (m[i].take != m[k - 1].take) m[k++] = m[i];
    out->n = from + k;
}

/* Do two of these parts share an item? */
static bool parts_overlap(const uint64_t *p, int n)
{
    uint64_t seen = 0, shared = 0;
    for (int i = 0; i < n; i++) {
        shared |= seen & p[i];
        seen |= p[i];
    }
    return shared != 0;
}

/* The whole declarations of value v among the parts, after the bucket's
 * own. */
static void add_decl_parts(Gen *g, const Subsets *ss, int v, bool lib, bool plains,
                           bool soy_ok)
{
    const dl_State *s = g->s;
    uint64_t *part;
    if (ss->cap[v] - ss->n[v] >= DL_MAX_DECLS) {
        /* Past the end of the bucket itself: the bucket keeps its count,
         * so nobody else sees these, and nothing is copied. */
        part = ss->b[v];
    } else {
        if (!grow(&g->partbuf, &g->partcap, ss->n[v] + DL_MAX_DECLS)) {
            g->oom = true;
            g->npart = 0;
            return;
        }
        part = g->partbuf;
        if (ss->n[v]) memcpy(part, ss->b[v], (size_t)ss->n[v] * sizeof *part);
    }
    g->part = part;
    for (int i = 0; i < s->ndecl; i++) {
        const dl_Decl *d = &s->decl[i];
        if (d->value != v) continue;
        if (d->kind == DL_DECL_PLAIN && (lib || !plains)) continue;
        if (d->kind == DL_DECL_GROUP && !soy_ok && dl_count(d->cards) == 2) continue;
        part[g->npart++] = DL_DECL_BIT(i);
    }
}

/* Parts a numeral of value v could take or group: combinations (D3, with
 * plain declarations as cards when lib) and whole declarations of value v
 * (D11, D17, D18). Groups that are a soy are left out when !soy_ok.
 * Declarations are items of their own, so they never add an overlap. */
static inline void collect_parts(Gen *g, int v, bool lib, bool plains, bool soy_ok)
{
    const Subsets *ss = lib ? &g->lib : &g->loose;
    g->part = ss->b[v];
    g->npart = ss->n[v];
    g->overlap = g->npart > 1 && parts_overlap(g->part, g->npart);
    if (g->declvals & (1u << v)) add_decl_parts(g, ss, v, lib, plains, soy_ok);
}

typedef struct {
    int card;
    bool forced; /* V-forced-capture: only maximal unions */
} CapCtx;

static bool keeps_obligation(const Gen *g, int card, uint64_t take);

/* Every non-empty union of pairwise disjoint parts, each exactly once, in
 * Gray-code order (one part toggled per step), joined to base. */
static void gray_unions(Gen *g, const uint64_t *p, int n, int kind, int card, int value,
                        uint64_t base)
{
    uint64_t take = 0;
    const uint64_t own = g->own >= 0 ? DL_DECL_BIT(g->own) : 0;
    /* Steps that emit nothing (D19) are bounded too: a batch's work, not
     * only its output, has a share. */
    const uint64_t steps = n >= 63 ? UINT64_MAX : (uint64_t)1 << n;
    for (uint64_t i = 1; i < steps && !g->oom && !g->full && spend(g); i++) {
        take ^= p[__builtin_ctzll(i)];
        if (kind == DL_CAPTURE) {
            if (own && !keeps_obligation(g, card, take)) continue;
        } else if (own && !((take | base) & own)) {
            continue; /* D19: a group must include the mover's declaration */
        }
        emit(g, kind, card, value, take | base);
    }
}

static bool holds_value(dl_Set hand, int v) { return (hand & dl_value_mask(v)) != 0; }

/* D19: an owner keeps a card of the declaration's value unless the move
 * takes (captures or groups) that declaration. */
static bool keeps_obligation(const Gen *g, int card, uint64_t take)
{
    if (g->own < 0 || (take & DL_DECL_BIT(g->own))) return true;
    return holds_value(g->hand & ~DL_BIT(card), g->s->decl[g->own].value);
}

static bool maximal(const Gen *g, uint64_t take)
{
    for (int j = 0; j < g->npart; j++)
        if (!(g->part[j] & take)) return false;
    return true;
}

static void emit_capture(Gen *g, uint64_t take, void *vctx)
{
    const CapCtx *c = vctx;
    if (c->forced && !maximal(g, take)) return;
    if (!keeps_obligation(g, c->card, take)) return;
    emit(g, DL_CAPTURE, c->card, 0, take);
}

/* Every non-empty union of pairwise disjoint parts of the batch (none
 * meeting used), each family once, depth-first: a union, then its
 * extensions by later parts. As captures (forced: maximal ones only) or as
 * groups of value with base joined; one call, no recursion, no callback. */
static void unions(Gen *g, int kind, int card, int value, uint64_t base, uint64_t used,
                   bool forced)
{
    const uint64_t *p = g->part;
    const int n = g->npart;
    /* Parts are pairwise disjoint along a path, so it is at most 56 deep. */
    int st_j[DL_DECL_SHIFT + DL_MAX_DECLS + 1];
    uint64_t st_acc[DL_DECL_SHIFT + DL_MAX_DECLS + 1], st_used[DL_DECL_SHIFT + DL_MAX_DECLS + 1];
    const uint64_t own = g->own >= 0 ? DL_DECL_BIT(g->own) : 0;
    uint64_t acc = 0;
    int j = 0, d = 0;
    for (;;) {
        for (; j < n; j++) {
            if (!spend(g)) return;
            if (p[j] & used) continue;
            uint64_t take = acc | p[j];
            if (kind == DL_CAPTURE) {
                if ((!forced || maximal(g, take)) && keeps_obligation(g, card, take))
                    emit(g, DL_CAPTURE, card, 0, take);
            } else if (!own || ((take | base) & own)) { /* D19 */
                emit(g, DL_GROUP, card, value, take | base);
            }
            if (g->oom || g->full) return;
            st_j[d] = j + 1;
            st_acc[d] = acc;
            st_used[d] = used;
            d++;
            acc = take;
            used |= p[j];
        }
        if (!d) return;
        d--;
        j = st_j[d];
        acc = st_acc[d];
        used = st_used[d];
    }
}

/* The distinct unions of pairwise disjoint sets of loose bucket v (whose
 * sets overlap), ascending: what unions() and dedupe() make of it, as
 * takes. Worked out once per position, then shared by the captures of
 * every card of value v and the groups of value v of every card. NULL if
 * memory ran out. */
static const uint64_t *loose_unions(Gen *g, int v, int *count)
{
    if (!(g->u_known & (1u << v))) {
        const uint64_t *p = g->loose.b[v];
        const int n = g->loose.n[v], off = g->ulen;
        int st_j[DL_DECL_SHIFT + 1], j = 0, d = 0, len = off;
        uint64_t st_acc[DL_DECL_SHIFT + 1], acc = 0;
        /* Shared by many batches, so it has a share of its own: a crowded
         * table's unions run to millions. It always reaches the end of
         * the first path (n steps, at most 22 unions on it), a maximal
         * union: under V-forced-capture (C1) that may be the card's only
         * kind of move (D20). */
        long work = 64 * g->batch_cap + n, most = 2 * g->batch_cap;
        for (;;) {
            for (; j < n; j++) {
                if (work-- <= 0 || len - off >= most) {
                    g->out->cut = true;
                    d = 0;
                    break;
                }
                if (p[j] & acc) continue;
                if (len == g->ucap && !grow(&g->ub, &g->ucap, len + 1)) {
                    g->oom = true;
                    return NULL;
                }
                g->ub[len++] = acc | p[j];
                st_j[d] = j + 1;
                st_acc[d] = acc;
                d++;
                acc |= p[j];
            }
            if (!d) break;
            d--;
            j = st_j[d];
            acc = st_acc[d];
        }
        int m = len - off;
        if (!grow(&g->utmp, &g->utmpcap, m)) {
            g->oom = true;
            return NULL;
        }
        uint64_t *u = g->ub + off;
        int k = m ? 1 : 0;
        if (m == 2) {
            /* Half the buckets: two sets that meet, so two unions; a
             * select rather than a comparison the predictor cannot learn. */
            const uint64_t a = u[0], b = u[1];
            u[0] = a < b ? a : b;
            u[1] = a < b ? b : a;
            k += a != b;
        } else {
            sort_keys(u, g->utmp, m);
            for (int i = 1; i < m; i++)
                if (u[i] != u[k - 1]) u[k++] = u[i];
        }
        g->uoff[v] = off;
        g->un[v] = k;
        g->ulen = off + k;
        g->u_known |= 1u << v;
    }
    *count = g->un[v];
    return g->ub + g->uoff[v];
}

/* A capture batch cut at its share still lists the sweep of the whole
 * table when it is legal: the xeri is the one capture nobody may miss. */
static void keep_sweep(Gen *g, int card)
{
    const dl_State *s = g->s;
    const dl_Move sweep = {s->loose | ((uint64_t)((1u << s->ndecl) - 1) << DL_DECL_SHIFT), DL_CAPTURE,
                           (uint8_t)card, 0};
    if ((s->loose & DL_FACES) || dl_check_move(s, &sweep) != DL_CHECK_LEGAL) return;
    dl_MoveList *l = g->out;
    for (size_t i = g->batch_from; i < l->n; i++)
        if (l->m[i].take == sweep.take) return;
    if (!dl_movelist_push(l, &sweep)) g->oom = true;
}

/* D11/K2 for a numeral card; returns whether it has any capture at all. */
static bool gen_numeral_captures(Gen *g, int card)
{
    const dl_Rules *r = &g->s->rules;
    int v = dl_value(card);
    const bool lib = g->lib_capture;
    if (!(((lib ? g->lib.sums : g->loose.sums) | g->declvals) & (1u << v))) return false;
    collect_parts(g, v, lib, true, true);
    if (g->npart == 0) return false;
    batch(g);
    /* C1: a Kontsina capture takes one combination anyway, so there the
     * variant only means "must capture"; maximality is Diloti's. */
    CapCtx c = {card, r->forced_capture && r->capture == DL_CAPTURE_MANY};
    size_t from = g->out->n;
    if (r->capture == DL_CAPTURE_ONE) {
        for (int j = 0; j < g->npart; j++) emit_capture(g, g->part[j], &c);
        return true;
    }
    if (g->overlap && !lib && !(g->declvals & (1u << v))) {
        int nu;
        const uint64_t *u = loose_unions(g, v, &nu);
        for (int i = 0; u && i < nu; i++)
            if ((!c.forced || maximal(g, u[i])) && keeps_obligation(g, card, u[i]))
                emit(g, DL_CAPTURE, card, 0, u[i]);
    } else if (g->overlap) {
        g->merge = true;
        unions(g, DL_CAPTURE, card, 0, 0, 0, c.forced);
        dedupe(g, from);
    } else if (r->forced_capture) {
        /* Disjoint parts: the only maximal capture takes them all. */
        uint64_t all = 0;
        for (int j = 0; j < g->npart; j++) all |= g->part[j];
        emit_capture(g, all, &c);
    } else if (g->npart == 1) { /* the common case: one part, maximal anyway */
        if (keeps_obligation(g, card, g->part[0])) emit(g, DL_CAPTURE, card, 0, g->part[0]);
    } else {
        gray_unions(g, g->part, g->npart, DL_CAPTURE, card, 0, 0);
    }
    if (g->full) keep_sweep(g, card);
    return true;
}

/* D10, D12, K2, C2 for a face card. */
static void gen_face(Gen *g, int card)
{
    const dl_Rules *r = &g->s->rules;
    dl_Set same = g->s->loose & dl_rank_mask(dl_rank(card));
    batch(g);
    if (same && r->three_face_cards && r->capture == DL_CAPTURE_MANY &&
        dl_count(same) == 3) {
        if (keeps_obligation(g, card, same)) emit(g, DL_CAPTURE, card, 0, same);
    } else {
        for (dl_Set f = same; f; f &= f - 1)
            if (keeps_obligation(g, card, DL_BIT(dl_first(f))))
                emit(g, DL_CAPTURE, card, 0, DL_BIT(dl_first(f)));
    }
    if (g->own >= 0) return;                         /* D19 */
    if (same && (r->face_lay_blocked || r->forced_capture)) return; /* D10, C1 */
    emit(g, DL_LAY, card, 0, 0);
}

/* Values held after playing card (D14). */
static inline unsigned rest_values(const Gen *g, int card)
{
    return g->handvals & ~(g->singles & (1u << dl_value(card)));
}

/* D15, and D16 with C4. The mover owns nothing here (D19). */
static void gen_plain_and_raise(Gen *g, int card, unsigned rest)
{
    const dl_State *s = g->s;
    const int w = dl_value(card);
    /* v = w + sum for every non-empty bucket whose value is held. */
    for (unsigned vs = rest & (g->loose.sums << w) & 0x7FE; vs; vs &= vs - 1) {
        int v = dl_first(vs), sum = v - w;
        batch(g);
        for (int i = 0; i < g->loose.n[sum] && !g->full; i++)
            emit(g, DL_PLAIN, card, v, g->loose.b[sum][i]);
    }
    for (unsigned ds = g->raisers; ds; ds &= ds - 1) {
        const int d = dl_first(ds);
        const int v = s->decl[d].value + w;
        const bool held = v <= 10 && (rest & (1u << v));
        if (!held && !s->rules.liberal_raise) continue; /* an empty batch */
        batch(g);
        if (held) emit(g, DL_RAISE, card, v, DL_DECL_BIT(d));
        if (!s->rules.liberal_raise) continue;
        for (unsigned vs = rest & (g->loose.sums << v) & 0x7FE; vs; vs &= vs - 1) {
            int t = dl_first(vs), sum = t - v;
            for (int i = 0; i < g->loose.n[sum] && !g->full; i++)
                emit(g, DL_RAISE, card, t, DL_DECL_BIT(d) | g->loose.b[sum][i]);
        }
    }
}

/* The components the played card can open (D17, C4, C7, C8): table items
 * joined with it, 0 meaning the card alone. */
static int card_components(Gen *g, int card, int v)
{
    const dl_State *s = g->s;
    const dl_Rules *r = &s->rules;
    const int w = dl_value(card);
    const Subsets *ss = g->lib_group ? &g->lib : &g->loose;
    /* Upper bound: one per subset, and per declaration one, plus (liberal
     * raises only) one per loose subset. */
    int per_decl = 1;
    if (r->liberal_raise) {
        if (g->loose.total < 0) {
            g->loose.total = 0;
            for (unsigned k = g->loose.sums; k; k &= k - 1) g->loose.total += g->loose.n[dl_first(k)];
        }
        per_decl += g->loose.total;
    }
    int cap = 1 + (w < v ? ss->n[v - w] : 0) + s->ndecl * per_decl;
    if (!grow(&g->comp, &g->compcap, cap)) {
        g->oom = true;
        return 0;
    }
    uint64_t *comp = g->comp;
    int n = 0;
    if (w == v) comp[n++] = 0;
    if (w < v)
        for (int i = 0; i < ss->n[v - w]; i++) comp[n++] = ss->b[v - w][i];
    for (unsigned ds = g->raisers; ds; ds &= ds - 1) {
        const int d = dl_first(ds);
        const int need = v - w - s->decl[d].value;
        if (need == 0) comp[n++] = DL_DECL_BIT(d);
        if (need <= 0 || !r->liberal_raise) continue;
        for (int i = 0; i < g->loose.n[need]; i++) comp[n++] = DL_DECL_BIT(d) | g->loose.b[need][i];
    }
    return n;
}

/* Groups of value v from loose cards alone (no declaration on the table,
 * the common case): the card alone or with a subset of sum v - w, plus one
 * or more further subsets of sum v. */
static void plain_groups(Gen *g, int card, int v)
{
    const Subsets *ss = &g->loose;
    const int w = dl_value(card), np = ss->n[v];
    const uint64_t *P = ss->b[v];
    const int nx = w == v ? 1 : ss->n[v - w];
    uint64_t seen = 0, shared = 0;
    for (int j = 0; j < np; j++) {
        shared |= seen & P[j];
        seen |= P[j];
    }
    if (shared) {
        /* Each x plus the unions it leaves free. One x alone gives distinct
         * takes in ascending order already: x is disjoint from them, so
         * joining it adds the same number to each. */
        size_t from = g->out->n;
        int nu;
        const uint64_t *u = loose_unions(g, v, &nu);
        g->merge = nx > 1;
        for (int k = 0; u && k < nx && !g->full; k++) {
            uint64_t x = w == v ? 0 : ss->b[v - w][k];
            for (int i = 0; i < nu && !g->full && spend(g); i++)
                if (!(u[i] & x)) emit(g, DL_GROUP, card, v, x | u[i]);
        }
        if (nx > 1) dedupe(g, from);
        return;
    }
    /* Pairwise disjoint sets of cards: at most 40 of them. */
    uint64_t free_parts[DL_NCARDS];
    for (int k = 0; k < nx && !g->full; k++) {
        uint64_t x = w == v ? 0 : ss->b[v - w][k];
        int nf = 0;
        for (int j = 0; j < np; j++)
            if (!(P[j] & x)) free_parts[nf++] = P[j];
        if (nf == 1) { /* the common case */
            emit(g, DL_GROUP, card, v, x | free_parts[0]);
        } else if (nf > 1) {
            /* gray_unions() without the D19 test: nobody owns anything. */
            uint64_t take = x;
            const uint64_t steps = nf >= 63 ? UINT64_MAX : (uint64_t)1 << nf;
            for (uint64_t i = 1; i < steps && !g->full; i++) {
                take ^= free_parts[__builtin_ctzll(i)];
                emit(g, DL_GROUP, card, v, take);
            }
        }
    }
}

static void gen_groups(Gen *g, int card, unsigned rest)
{
    const dl_Rules *r = &g->s->rules;
    const bool lib = g->lib_group;
    const Subsets *ss = lib ? &g->lib : &g->loose;
    const int w = dl_value(card);
    /* D14: a value still held, with parts of that value on the table, and
     * (C8) the card alone, or something of the missing value to join. */
    unsigned vs = rest & (ss->sums | g->declvals) & (0x7FEu << (w - 1) & 0x7FE);
    if (!g->s->ndecl) {
        vs &= (ss->sums << w) | (1u << w);
        for (; vs; vs &= vs - 1) {
            batch(g);
            plain_groups(g, card, dl_first(vs));
        }
        return;
    }
    /* A group of value v needs a component with the card (see
     * card_components()): the card alone, a part of value v - w, or another
     * side's plain declaration of v - w, which liberal raises may top up.
     * Any other v would make an empty batch, so it is not looked at. */
    if (!r->liberal_raise) vs &= (1u << w) | (ss->sums << w) | (g->raisable << w);
    for (; vs; vs &= vs - 1) {
        int v = dl_first(vs);
        collect_parts(g, v, lib, true, !r->soy);
        if (g->npart == 0) continue;
        int nc = card_components(g, card, v);
        size_t from = g->out->n;
        batch(g);
        /* Different card components can meet in one take only when parts
         * overlap, or when declarations double as cards (liberal rules). */
        g->merge = g->overlap || g->use_lib;
        for (int k = 0; k < nc && !g->full; k++) {
            if (g->overlap) {
                unions(g, DL_GROUP, card, v, g->comp[k], g->comp[k], false);
                continue;
            }
            /* Pairwise disjoint parts: a handful in real play (gray_unions refuses more than 24). */
            uint64_t free_parts[64];
            int nf = 0;
            for (int j = 0; j < g->npart && nf < 64; j++)
                if (!(g->part[j] & g->comp[k])) free_parts[nf++] = g->part[j];
            if (nf > 1) {
                gray_unions(g, free_parts, nf, DL_GROUP, card, v, g->comp[k]);
            } else if (nf && !g->oom && spend(g)) { /* the common case, gray_unions() of one */
                const uint64_t take = free_parts[0] | g->comp[k];
                if (g->own < 0 || (take & DL_DECL_BIT(g->own))) emit(g, DL_GROUP, card, v, take);
            }
        }
        if (g->merge) dedupe(g, from);
    }
}

static void gen_numeral(Gen *g, int card)
{
    const dl_Rules *r = &g->s->rules;
    bool can_capture = gen_numeral_captures(g, card);
    if (can_capture && r->forced_capture) return; /* C1 */
    batch(g);
    if (g->own < 0) emit(g, DL_LAY, card, 0, 0); /* D19 */
    if (!r->declarations) return;
    unsigned rest = rest_values(g, card);
    if (g->own < 0) gen_plain_and_raise(g, card, rest);
    gen_groups(g, card, rest);
}

/* Appends out->m[from..to) again, played with card instead. */
static void copy_moves(Gen *g, size_t from, size_t to, int card)
{
    dl_MoveList *l = g->out;
    size_t k = to - from;
    if (!k) return; /* l->m may still be NULL: no arithmetic on it */
    if (l->n + k > l->cap) {
        size_t cap = l->cap ? l->cap : 64;
        while (cap < l->n + k) cap *= 2;
        dl_Move *p = realloc(l->m, cap * sizeof *p);
        if (!p) {
            g->oom = true;
            return;
        }
        l->m = p;
        l->cap = cap;
    }
    dl_Move *d = l->m + l->n;
    const dl_Move *m = l->m + from;
    for (size_t i = 0; i < k; i++) {
        d[i] = m[i];
        d[i].card = (uint8_t)card;
    }
    l->n += k;
}

static void gen_claim(Gen *g)
{
    batch(g);
    emit(g, DL_CLAIM, 0, 0, 0);
    emit(g, DL_KEEP, 0, 0, 0);
}

/* ---- a table without declarations: the fast path ----
 *
 * Seven positions in ten have no declaration on the table (random play,
 * two players), and then the mover owns none, D19 asks nothing and the
 * liberal variants change nothing. The path below makes exactly the list
 * the batches above make, in the same order, with the list kept in locals
 * rather than behind Gen. It gives up (and the batches make the list
 * again) wherever a batch would fill or run out of work, so a cut list is
 * always the batches' own. */
typedef struct {
    Gen *g;
    dl_Move *m;   /* the list's moves: a local copy, moved only by growing */
    size_t n, cap;
    size_t end;   /* where the batch being made must stop */
    long work;    /* steps the batch may still take */
} Fast;

static inline void fast_batch(Fast *f)
{
    f->end = f->n + (size_t)f->g->batch_cap;
    f->work = 256 * f->g->batch_cap;
}

/* Room for n moves past the list's end; NULL if memory ran out. */
static dl_Move *grow_moves(dl_MoveList *l, size_t n)
{
    size_t cap = l->cap ? l->cap : 64;
    while (cap < n) cap *= 2;
    dl_Move *p = realloc(l->m, cap * sizeof *p);
    if (!p) return NULL;
    l->m = p;
    l->cap = cap;
    return p;
}

/* False when the batch is full (the batches decide) or memory ran out. */
static inline bool fast_emit(Fast *f, int kind, int card, int value, uint64_t take)
{
    if (f->n == f->end) return false;
    if (f->n == f->cap) {
        if (!(f->m = grow_moves(f->g->out, f->n + 1))) return false;
        f->cap = f->g->out->cap;
    }
    dl_Move *d = &f->m[f->n++];
    d->take = take;
    d->kind = (uint8_t)kind;
    d->card = (uint8_t)card;
    d->value = (uint8_t)value;
    return true;
}

/* loose_unions() and dedupe() work on the list itself. */
static inline void fast_sync(Fast *f) { f->g->out->n = f->n; }
static inline void fast_resync(Fast *f)
{
    f->m = f->g->out->m;
    f->n = f->g->out->n;
    f->cap = f->g->out->cap;
}

static const uint64_t *fast_unions(Fast *f, int v, int *count)
{
    fast_sync(f);
    const uint64_t *u = loose_unions(f->g, v, count);
    return u && !f->g->out->cut ? u : NULL;
}

/* Every non-empty union of pairwise disjoint parts joined to base, in
 * Gray-code order (gray_unions() with nothing owned). */
static bool fast_gray(Fast *f, const uint64_t *p, int n, int kind, int card, int value,
                      uint64_t base)
{
    if (n >= 32) return false; /* far past any batch's share */
    uint64_t take = base;
    for (uint64_t i = 1; i < (uint64_t)1 << n; i++) {
        take ^= p[__builtin_ctzll(i)];
        if (!fast_emit(f, kind, card, value, take)) return false;
    }
    return true;
}

/* gen_numeral_captures() without declarations. */
static bool fast_captures(Fast *f, int card, int v)
{
    const Gen *g = f->g;
    const dl_Rules *r = &g->s->rules;
    const uint64_t *part = g->loose.b[v];
    const int np = g->loose.n[v];
    fast_batch(f);
    if (r->capture == DL_CAPTURE_ONE) {
        for (int j = 0; j < np; j++)
            if (!fast_emit(f, DL_CAPTURE, card, 0, part[j])) return false;
        return true;
    }
    const bool forced = r->forced_capture;
    if (np > 1 && parts_overlap(part, np)) {
        int nu;
        const uint64_t *u = fast_unions(f, v, &nu);
        if (!u) return false;
        fast_resync(f);
        for (int i = 0; i < nu; i++) {
            bool keep = true;
            for (int j = 0; forced && keep && j < np; j++) keep = (part[j] & u[i]) != 0;
            if (keep && !fast_emit(f, DL_CAPTURE, card, 0, u[i])) return false;
        }
        return true;
    }
    if (forced || np == 1) {
        /* Disjoint parts: the only maximal capture takes them all. */
        uint64_t all = 0;
        for (int j = 0; j < np; j++) all |= part[j];
        return fast_emit(f, DL_CAPTURE, card, 0, all);
    }
    return fast_gray(f, part, np, DL_CAPTURE, card, 0, 0);
}

/* plain_groups(), in a batch of its own. */
static bool fast_groups(Fast *f, int card, int v)
{
    Gen *g = f->g;
    const Subsets *ss = &g->loose;
    const int w = dl_value(card), np = ss->n[v];
    const uint64_t *P = ss->b[v];
    const int nx = w == v ? 1 : ss->n[v - w];
    fast_batch(f);
    if (np > 1 && parts_overlap(P, np)) {
        size_t from = f->n;
        int nu;
        const uint64_t *u = fast_unions(f, v, &nu);
        if (!u) return false;
        fast_resync(f);
        for (int k = 0; k < nx; k++) {
            uint64_t x = w == v ? 0 : ss->b[v - w][k];
            if (f->work < nu) return false; /* the batches' work share */
            f->work -= nu;
            for (int i = 0; i < nu; i++)
                if (!(u[i] & x) && !fast_emit(f, DL_GROUP, card, v, x | u[i])) return false;
        }
        if (nx > 1) {
            fast_sync(f);
            dedupe(g, from);
            if (g->oom) return false;
            fast_resync(f);
        }
        return true;
    }
    uint64_t free_parts[DL_NCARDS];
    for (int k = 0; k < nx; k++) {
        uint64_t x = w == v ? 0 : ss->b[v - w][k];
        int nf = 0;
        for (int j = 0; j < np; j++)
            if (!(P[j] & x)) free_parts[nf++] = P[j];
        if (nf && !fast_gray(f, free_parts, nf, DL_GROUP, card, v, x)) return false;
    }
    return true;
}

/* gen_numeral() with nothing declared: captures, the lay, plain
 * declarations (D15) and groups (D17). */
static bool fast_numeral(Fast *f, int card)
{
    const Gen *g = f->g;
    const dl_Rules *r = &g->s->rules;
    const int w = dl_value(card);
    const unsigned sums = g->loose.sums;
    const bool can_capture = (sums >> w) & 1;
    if (can_capture && !fast_captures(f, card, w)) return false;
    if (can_capture && r->forced_capture) return true; /* C1 */
    fast_batch(f);
    if (!fast_emit(f, DL_LAY, card, 0, 0)) return false;
    if (!r->declarations) return true;
    const unsigned rest = rest_values(g, card);
    for (unsigned vs = rest & (sums << w) & 0x7FE; vs; vs &= vs - 1) {
        const int v = dl_first(vs), sum = v - w;
        fast_batch(f);
        for (int i = 0; i < g->loose.n[sum]; i++)
            if (!fast_emit(f, DL_PLAIN, card, v, g->loose.b[sum][i])) return false;
    }
    unsigned vs = rest & sums & (0x7FEu << (w - 1) & 0x7FE);
    for (vs &= (sums << w) | (1u << w); vs; vs &= vs - 1)
        if (!fast_groups(f, card, dl_first(vs))) return false;
    return true;
}

/* gen_face() with nothing owned. */
static bool fast_face(Fast *f, int card)
{
    const dl_State *s = f->g->s;
    const dl_Rules *r = &s->rules;
    const dl_Set same = s->loose & dl_rank_mask(dl_rank(card));
    fast_batch(f);
    if (same && r->three_face_cards && r->capture == DL_CAPTURE_MANY && dl_count(same) == 3) {
        if (!fast_emit(f, DL_CAPTURE, card, 0, same)) return false;
    } else {
        for (dl_Set x = same; x; x &= x - 1)
            if (!fast_emit(f, DL_CAPTURE, card, 0, DL_BIT(dl_first(x)))) return false;
    }
    if (same && (r->face_lay_blocked || r->forced_capture)) return true; /* D10, C1 */
    return fast_emit(f, DL_LAY, card, 0, 0);
}

/* The list of a position without declarations, or false: the batches
 * must make it (the list is then left for them to clear). */
static bool fast_plain(Gen *g)
{
    dl_MoveList *l = g->out;
    Fast f = {g, l->m, l->n, l->cap, 0, 0};
    size_t prev_from = 0, prev_to = 0;
    int prev_rank = -1;
    for (dl_Set h = g->hand; h; h &= h - 1) {
        const int card = dl_first(h);
        const size_t from = f.n;
        if (dl_rank(card) == prev_rank) {
            /* Same rank, same moves (see generate()). */
            const size_t k = prev_to - prev_from;
            if (f.n + k > f.cap) {
                if (!(f.m = grow_moves(l, f.n + k))) return false;
                f.cap = l->cap;
            }
            for (size_t i = 0; i < k; i++) {
                f.m[f.n + i] = f.m[prev_from + i];
                f.m[f.n + i].card = (uint8_t)card;
            }
            f.n += k;
        } else if (!(dl_is_face(card) ? fast_face(&f, card) : fast_numeral(&f, card))) {
            return false;
        }
        prev_from = from;
        prev_to = f.n;
        prev_rank = dl_rank(card);
    }
    l->n = f.n;
    return true;
}

/* Per byte of a hand (two values, a nibble of four suits each): bit 0 (1)
 * the low (high) value is held, bit 2 (3) exactly one card of it is. */
#define HV_NZ(n) ((n) != 0)
#define HV_ONE(n) ((n) != 0 && ((n) & ((n) - 1)) == 0)
#define HV_E(b) (HV_NZ((b) & 15) | HV_NZ((b) >> 4) << 1 | HV_ONE((b) & 15) << 2 | HV_ONE((b) >> 4) << 3)
#define HV_4(b) HV_E(b), HV_E((b) + 1), HV_E((b) + 2), HV_E((b) + 3)
#define HV_16(b) HV_4(b), HV_4((b) + 4), HV_4((b) + 8), HV_4((b) + 12)
#define HV_64(b) HV_16(b), HV_16((b) + 16), HV_16((b) + 32), HV_16((b) + 48)
static const uint8_t held_pairs[256] = {HV_64(0), HV_64(64), HV_64(128), HV_64(192)};

/* handvals and singles of a hand, five table reads rather than a loop
 * whose length, a card a turn, the predictor cannot learn. */
static void hand_values(Gen *g, dl_Set hand)
{
    const unsigned t0 = held_pairs[hand & 0xFF], t1 = held_pairs[(hand >> 8) & 0xFF],
                   t2 = held_pairs[(hand >> 16) & 0xFF], t3 = held_pairs[(hand >> 24) & 0xFF],
                   t4 = held_pairs[(hand >> 32) & 0xFF];
    const unsigned held = (t0 & 3) | (t1 & 3) << 2 | (t2 & 3) << 4 | (t3 & 3) << 6 | (t4 & 3) << 8,
                   single = t0 >> 2 | (t1 >> 2) << 2 | (t2 >> 2) << 4 | (t3 >> 2) << 6 | (t4 >> 2) << 8;
    g->handvals = held << 1;
    g->singles = single << 1;
}

static long generate(const dl_State *s, dl_MoveList *l, long batch_cap)
{
    l->n = 0;
    l->cut = false;
    l->share = batch_cap;
    if (!l->scratch && !(l->scratch = calloc(1, sizeof(Gen)))) return -1;
    Gen *g = l->scratch;
    g->s = s;
    g->out = l;
    g->oom = false;
    g->batch_cap = batch_cap;
    if (s->phase == DL_PHASE_CLAIM) {
        gen_claim(g);
        return g->oom ? -1 : (long)l->n;
    }
    if (s->phase != DL_PHASE_PLAY) return 0;
    g->seat = s->turn;
    g->hand = s->hand[s->turn];
    g->own = dl_owned_decl(s, s->turn);
    g->declvals = g->raisable = g->raisers = 0;
    for (int i = 0; i < s->ndecl; i++) {
        const dl_Decl *d = &s->decl[i];
        g->declvals |= 1u << d->value;
        if (d->kind == DL_DECL_PLAIN && dl_side(&s->rules, d->owner) != dl_side(&s->rules, s->turn)) {
            g->raisable |= 1u << d->value;
            g->raisers |= 1u << i;
        }
    }
    hand_values(g, g->hand);
    /* Every sum a move can use is at most a value the mover holds: a
     * capture's, a declaration's (D14) or a group's. */
    int limit = g->handvals ? 31 - __builtin_clz(g->handvals) : 0;
    if (!loose_subsets(&g->loose, s->loose & DL_NUMERALS, limit)) return -1;
    g->u_known = 0;
    g->ulen = 0;
    const dl_Rules *r = &s->rules;
    g->use_lib = (r->liberal_group || r->liberal_capture) && s->ndecl > 0;
    g->lib_capture = g->use_lib && r->liberal_capture;
    g->lib_group = g->use_lib && r->liberal_group;
    if (g->use_lib) {
        Atom a[64];
        int na = lib_atoms(s, a);
        if (!build_subsets(&g->lib, a, na, limit)) return -1;
    }
    if (!s->ndecl) {
        if (fast_plain(g)) return (long)l->n;
        /* The batches start again from scratch, unions included. */
        l->n = 0;
        l->cut = false;
        g->u_known = 0;
        g->ulen = 0;
        g->oom = false;
    }
    /* Every rule above looks at the played card's rank only, never at its
     * suit: a card of the same rank as the one before it in the hand (they
     * are adjacent in card order) has the same moves, which are copied. */
    size_t prev_from = 0, prev_to = 0;
    int prev_rank = -1;
    for (dl_Set h = g->hand; h && !g->oom; h &= h - 1) {
        int card = dl_first(h);
        size_t from = l->n;
        if (dl_rank(card) == prev_rank)
            copy_moves(g, prev_from, prev_to, card);
        else if (dl_is_face(card))
            gen_face(g, card);
        else
            gen_numeral(g, card);
        prev_from = from;
        prev_to = l->n;
        prev_rank = dl_rank(card);
    }
    return g->oom ? -1 : (long)l->n;
}

/* Each batch first gets a share of DL_BATCH_MAX; a list that still runs
 * past DL_LIST_MAX (many cards, each with many crowded batches) is made
 * again with smaller shares, so every card keeps some of its moves. */
long dl_legal_moves_share(const dl_State *s, dl_MoveList *l, long share)
{
    return generate(s, l, share < DL_BATCH_MIN ? DL_BATCH_MIN : share);
}

long dl_legal_moves(const dl_State *s, dl_MoveList *l)
{
    for (long cap = DL_BATCH_MAX;; cap /= 4) {
        long n = generate(s, l, cap);
        if (n <= DL_LIST_MAX || cap <= DL_BATCH_MIN) return n;
    }
}

