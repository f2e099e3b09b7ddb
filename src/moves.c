/* Legal move generation. The table's small-sum subsets are listed once per
 * position, bucketed by sum; every capture, declaration and group is then
 * built from those buckets. Unions of disjoint parts can be reached through
 * several partitions, so each batch is de-duplicated (D11: a move is the set
 * of items it takes). */
#include "moves.h"

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

/* Subsets of the table with a sum of 1..10, bucketed by sum. */
typedef struct {
    uint64_t *set;
    int start[12]; /* bucket s is set[start[s] .. start[s+1]) */
    int n, cap;
} Subsets;

typedef struct {
    uint64_t *tmp;
    uint8_t *sums;
    int n, cap;
    int counts[12];
    bool oom;
} Collect;

typedef struct {
    const dl_State *s;
    dl_MoveList *out;
    int seat, own;       /* own: slot of the mover's declaration or -1 */
    dl_Set hand;
    Subsets loose;       /* loose numerals only (D3, D15) */
    Subsets lib;         /* plus plain declarations as single cards (C3, C5) */
    bool use_lib;
    bool oom;
    uint64_t *part; /* the parts of one batch (collect_parts) */
    int npart, partcap;
    uint64_t *comp; /* the played card's possible components */
    int compcap;
    Collect col;
} Gen;

static void free_scratch(void *p)
{
    Gen *g = p;
    if (!g) return;
    free(g->loose.set);
    free(g->lib.set);
    free(g->part);
    free(g->comp);
    free(g->col.tmp);
    free(g->col.sums);
    free(g);
}

typedef struct {
    uint64_t bit;
    int val;
} Atom;

static bool sub_push(Subsets *ss, uint64_t set, int sum, int *counts,
                     uint64_t **tmp, int *tmpn, int *tmpcap, uint8_t **sums)
{
    if (*tmpn == *tmpcap) {
        int cap = *tmpcap ? *tmpcap * 2 : 256;
        uint64_t *p = realloc(*tmp, (size_t)cap * sizeof **tmp);
        uint8_t *q = realloc(*sums, (size_t)cap);
        if (p) *tmp = p;
        if (q) *sums = q;
        if (!p || !q) return false;
        *tmpcap = cap;
    }
    (void)ss;
    (*tmp)[*tmpn] = set;
    (*sums)[*tmpn] = (uint8_t)sum;
    (*tmpn)++;
    counts[sum]++;
    return true;
}


static void dfs(const Atom *a, int na, int from, int sum, uint64_t set, Collect *c)
{
    for (int i = from; i < na && !c->oom; i++) {
        int t = sum + a[i].val;
        if (t > 10) break; /* atoms are sorted by value */
        if (!sub_push(NULL, set | a[i].bit, t, c->counts, &c->tmp, &c->n, &c->cap,
                      &c->sums)) {
            c->oom = true;
            return;
        }
        dfs(a, na, i + 1, t, set | a[i].bit, c);
    }
}

static int cmp_atom(const void *x, const void *y)
{
    const Atom *a = x, *b = y;
    return a->val != b->val ? a->val - b->val : (a->bit < b->bit ? -1 : 1);
}

/* Lists the subsets of the atoms with sum <= 10, bucketed by sum. */
static bool build_subsets(Subsets *ss, Collect *cp, Atom *a, int na)
{
    Collect c = *cp;
    qsort(a, (size_t)na, sizeof *a, cmp_atom);
    c.n = 0;
    c.oom = false;
    memset(c.counts, 0, sizeof c.counts);
    dfs(a, na, 0, 0, 0, &c);
    *cp = c;
    if (c.oom) return false;
    if (c.n > ss->cap) {
        uint64_t *p = realloc(ss->set, (size_t)c.n * sizeof *p);
        if (!p) return false;
        ss->set = p;
        ss->cap = c.n;
    }
    int pos[12];
    ss->start[0] = ss->start[1] = 0;
    for (int s = 1; s <= 10; s++) ss->start[s + 1] = ss->start[s] + c.counts[s];
    memcpy(pos, ss->start, sizeof pos);
    for (int i = 0; i < c.n; i++) ss->set[pos[c.sums[i]]++] = c.tmp[i];
    ss->n = c.n;
    return true;
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

static void emit(Gen *g, int kind, int card, int value, uint64_t take)
{
    dl_Move m = {take, (uint8_t)kind, (uint8_t)card, (uint8_t)value};
    if (!dl_movelist_push(g->out, &m)) g->oom = true;
}

static int cmp_take(const void *x, const void *y)
{
    const dl_Move *a = x, *b = y;
    return a->take < b->take ? -1 : a->take > b->take;
}

/* Removes repeated takes among out->m[from..]. */
static void dedupe(dl_MoveList *out, size_t from)
{
    size_t n = out->n - from;
    if (n < 2) return;
    dl_Move *m = out->m + from;
    if (n <= 8) {
        for (size_t i = 1; i < n; i++) {
            dl_Move t = m[i];
            size_t j = i;
            while (j > 0 && m[j - 1].take > t.take) {
                m[j] = m[j - 1];
                j--;
            }
            m[j] = t;
        }
    } else {
        qsort(m, n, sizeof *m, cmp_take);
    }
    size_t k = 1;
    for (size_t i = 1; i < n; i++)
        if (m[i].take != m[k - 1].take) m[k++] = m[i];
    out->n = from + k;
}

/* Parts a numeral of value v could take or group: combinations (D3, with
 * plain declarations as cards when lib) and whole declarations of value v
 * (D11, D17, D18). Groups that are a soy are left out when !soy_ok. */
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

static void collect_parts(Gen *g, int v, bool lib, bool plains, bool soy_ok)
{
    const Subsets *ss = lib ? &g->lib : &g->loose;
    const dl_State *s = g->s;
    g->npart = 0;
    if (!grow(&g->part, &g->partcap, ss->start[v + 1] - ss->start[v] + DL_MAX_DECLS)) {
        g->oom = true;
        return;
    }
    for (int i = ss->start[v]; i < ss->start[v + 1]; i++)
        g->part[g->npart++] = ss->set[i];
    for (int i = 0; i < s->ndecl; i++) {
        const dl_Decl *d = &s->decl[i];
        if (d->value != v) continue;
        if (d->kind == DL_DECL_PLAIN && (lib || !plains)) continue;
        if (d->kind == DL_DECL_GROUP && !soy_ok && dl_count(d->cards) == 2) continue;
        g->part[g->npart++] = DL_DECL_BIT(i);
    }
}

/* Every non-empty union of pairwise disjoint parts (from index i on),
 * joined to base; the callback sees each family once. */
typedef void (*UnionFn)(Gen *g, uint64_t take, void *ctx);

static void unions(Gen *g, int i, uint64_t acc, uint64_t used, UnionFn fn, void *ctx)
{
    for (int j = i; j < g->npart && !g->oom; j++) {
        if (g->part[j] & used) continue;
        fn(g, acc | g->part[j], ctx);
        unions(g, j + 1, acc | g->part[j], used | g->part[j], fn, ctx);
    }
}

typedef struct {
    int card;
    bool forced; /* V-forced-capture: only maximal unions */
} CapCtx;

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

/* D11/K2 for a numeral card; returns whether it has any capture at all. */
static bool gen_numeral_captures(Gen *g, int card)
{
    const dl_Rules *r = &g->s->rules;
    int v = dl_value(card);
    collect_parts(g, v, g->use_lib && r->liberal_capture, true, true);
    if (g->npart == 0) return false;
    CapCtx c = {card, r->forced_capture};
    size_t from = g->out->n;
    if (r->capture == DL_CAPTURE_ONE) {
        for (int j = 0; j < g->npart; j++) emit_capture(g, g->part[j], &c);
        return true;
    }
    unions(g, 0, 0, 0, emit_capture, &c);
    dedupe(g->out, from);
    return true;
}

/* D10, D12, K2, C2 for a face card. */
static void gen_face(Gen *g, int card)
{
    const dl_Rules *r = &g->s->rules;
    dl_Set same = g->s->loose & dl_rank_mask(dl_rank(card));
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

/* D15, and D16 with C4. The mover owns nothing here (D19). */
static void gen_plain_and_raise(Gen *g, int card)
{
    const dl_State *s = g->s;
    const int w = dl_value(card);
    const dl_Set rest = g->hand & ~DL_BIT(card);
    for (int sum = 1; sum + w <= 10; sum++) {
        if (!holds_value(rest, sum + w)) continue; /* D14 */
        for (int i = g->loose.start[sum]; i < g->loose.start[sum + 1]; i++)
            emit(g, DL_PLAIN, card, sum + w, g->loose.set[i]);
    }
    const int side = dl_side(&s->rules, g->seat);
    for (int d = 0; d < s->ndecl; d++) {
        const dl_Decl *dc = &s->decl[d];
        if (dc->kind != DL_DECL_PLAIN || dl_side(&s->rules, dc->owner) == side) continue;
        int v = dc->value + w;
        if (v <= 10 && holds_value(rest, v)) emit(g, DL_RAISE, card, v, DL_DECL_BIT(d));
        if (!s->rules.liberal_raise) continue;
        for (int sum = 1; v + sum <= 10; sum++) {
            if (!holds_value(rest, v + sum)) continue;
            for (int i = g->loose.start[sum]; i < g->loose.start[sum + 1]; i++)
                emit(g, DL_RAISE, card, v + sum, DL_DECL_BIT(d) | g->loose.set[i]);
        }
    }
}

typedef struct {
    int card, value;
    uint64_t base;
} GroupCtx;

static void emit_group(Gen *g, uint64_t take, void *vctx)
{
    const GroupCtx *c = vctx;
    take |= c->base;
    if (g->own >= 0 && !(take & DL_DECL_BIT(g->own))) return; /* D19 */
    emit(g, DL_GROUP, c->card, c->value, take);
}

/* The components the played card can open (D17, C4, C7, C8): table items
 * joined with it, 0 meaning the card alone. */
static int card_components(Gen *g, int card, int v)
{
    const dl_State *s = g->s;
    const dl_Rules *r = &s->rules;
    const int w = dl_value(card), side = dl_side(r, g->seat);
    const Subsets *ss = (g->use_lib && r->liberal_group) ? &g->lib : &g->loose;
    /* Upper bound: one per subset, and per declaration one per subset. */
    int cap = 1 + (w < v ? ss->start[v - w + 1] - ss->start[v - w] : 0) +
              s->ndecl * (1 + g->loose.n);
    if (!grow(&g->comp, &g->compcap, cap)) {
        g->oom = true;
        return 0;
    }
    uint64_t *comp = g->comp;
    int n = 0;
    if (w == v) comp[n++] = 0;
    if (w < v)
        for (int i = ss->start[v - w]; i < ss->start[v - w + 1]; i++) comp[n++] = ss->set[i];
    for (int d = 0; d < s->ndecl; d++) {
        const dl_Decl *dc = &s->decl[d];
        if (dc->kind != DL_DECL_PLAIN || dl_side(r, dc->owner) == side) continue;
        int need = v - w - dc->value;
        if (need == 0) comp[n++] = DL_DECL_BIT(d);
        if (need <= 0 || !r->liberal_raise) continue;
        for (int i = g->loose.start[need]; i < g->loose.start[need + 1]; i++)
            comp[n++] = DL_DECL_BIT(d) | g->loose.set[i];
    }
    return n;
}

static void gen_groups(Gen *g, int card)
{
    const dl_Rules *r = &g->s->rules;
    const dl_Set rest = g->hand & ~DL_BIT(card);
    for (int v = 1; v <= 10; v++) {
        if (!holds_value(rest, v)) continue; /* D14 */
        collect_parts(g, v, g->use_lib && r->liberal_group, true, !r->soy);
        if (g->npart == 0) continue;
        int nc = card_components(g, card, v);
        size_t from = g->out->n;
        for (int k = 0; k < nc; k++) {
            GroupCtx c = {card, v, g->comp[k]};
            unions(g, 0, 0, g->comp[k], emit_group, &c);
        }
        dedupe(g->out, from);
    }
}

static void gen_numeral(Gen *g, int card)
{
    const dl_Rules *r = &g->s->rules;
    bool can_capture = gen_numeral_captures(g, card);
    if (can_capture && r->forced_capture) return; /* C1 */
    if (g->own < 0) emit(g, DL_LAY, card, 0, 0); /* D19 */
    if (!r->declarations) return;
    if (g->own < 0) gen_plain_and_raise(g, card);
    gen_groups(g, card);
}

static void gen_claim(Gen *g)
{
    emit(g, DL_CLAIM, 0, 0, 0);
    emit(g, DL_KEEP, 0, 0, 0);
}

long dl_legal_moves(const dl_State *s, dl_MoveList *l)
{
    l->n = 0;
    if (!l->scratch && !(l->scratch = calloc(1, sizeof(Gen)))) return -1;
    Gen *g = l->scratch;
    g->s = s;
    g->out = l;
    g->oom = false;
    if (s->phase == DL_PHASE_CLAIM) {
        gen_claim(g);
        return g->oom ? -1 : (long)l->n;
    }
    if (s->phase != DL_PHASE_PLAY) return 0;
    Atom a[64];
    g->seat = s->turn;
    g->hand = s->hand[s->turn];
    g->own = dl_owned_decl(s, s->turn);
    int na = loose_atoms(s, a);
    if (!build_subsets(&g->loose, &g->col, a, na)) return -1;
    const dl_Rules *r = &s->rules;
    g->use_lib = (r->liberal_group || r->liberal_capture) && s->ndecl > 0;
    if (g->use_lib) {
        na = lib_atoms(s, a);
        if (!build_subsets(&g->lib, &g->col, a, na)) return -1;
    }
    for (dl_Set h = g->hand; h && !g->oom; h &= h - 1) {
        int card = dl_first(h);
        if (dl_is_face(card))
            gen_face(g, card);
        else
            gen_numeral(g, card);
    }
    return g->oom ? -1 : (long)l->n;
}

bool dl_is_legal(const dl_State *s, const dl_Move *m)
{
    dl_MoveList l;
    bool found = false;
    dl_movelist_init(&l);
    if (dl_legal_moves(s, &l) >= 0)
        for (size_t i = 0; i < l.n && !found; i++) found = dl_move_eq(&l.m[i], m);
    dl_movelist_free(&l);
    return found;
}
