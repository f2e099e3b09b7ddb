/* Whether one move is legal, decided from the move itself (issue 24).
 *
 * The generator (moves.c) lists every way to play; on a crowded table that
 * is millions of moves, so a typed move is never judged by looking it up in
 * a list. Here the items a move names are split into the parts the rules
 * ask for (D11, D17) by a search over counts of values: only values matter
 * to a split (D3), so four 2s are one count, not sixteen subsets, and a
 * split already found impossible is remembered. The search has a budget;
 * past it the answer is DL_CHECK_COSTLY, never a wrong yes or no. */
#include "legal.h"

#include <stdlib.h>
#include <string.h>

/* ---- counts of values and their splits ---- */

/* Items of value v, 1..10, four bits each at bit 4(v-1): at most four loose
 * cards and four declarations share a value, so a count fits. */
typedef uint64_t Counts;

/* (a value outside 1..10, a face card's 0 among them, counts none) */
static const unsigned NO_VALUE = 64u;
static inline unsigned shift_of(int v) { return v >= 1 && v <= 10 ? 4u * (unsigned)(v - 1) : NO_VALUE; }

static inline int cnt(Counts k, int v)
{
    const unsigned sh = shift_of(v);
    return sh < NO_VALUE ? (int)(k >> sh) & 0xF : 0;
}
static inline Counts one(int v) { return (unsigned)(v - 1) < 10u ? (Counts)1 << (4u * (unsigned)(v - 1)) : 0; }

static int counts_sum(Counts k)
{
    int sum = 0;
    for (int v = 1; v <= 10; v++) sum += v * cnt(k, v);
    return sum;
}

static int counts_top(Counts k)
{
    for (int v = 10; v >= 1; v--)
        if (cnt(k, v)) return v;
    return 0;
}

static Counts counts_of(dl_Set cards)
{
    Counts k = 0;
    for (dl_Set c = cards & DL_NUMERALS; c; c &= c - 1) k += one(dl_value(dl_first(c)));
    return k;
}

/* Counts known not to split into parts of a value, an open-addressed set
 * of key + 1 (the key: the counts, and the value above bit 40). */
typedef struct {
    uint64_t *slot;
    size_t cap, used;
    long budget; /* splits still allowed to be tried */
    bool costly; /* the budget ran out */
    bool oom;
} Memo;

static void memo_free(Memo *m) { free(m->slot); }

static size_t memo_pos(const Memo *m, uint64_t key)
{
    uint64_t h = (key + 1) * 0x9E3779B97F4A7C15ULL;
    size_t i = (size_t)(h >> 20) & (m->cap - 1);
    while (m->slot[i] && m->slot[i] != key + 1) i = (i + 1) & (m->cap - 1);
    return i;
}

static bool memo_has(const Memo *m, uint64_t key)
{
    return m->cap && m->slot[memo_pos(m, key)] == key + 1;
}

static void memo_add(Memo *m, uint64_t key)
{
    if (2 * (m->used + 1) > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 256;
        uint64_t *old = m->slot;
        size_t oldcap = m->cap;
        m->slot = calloc(cap, sizeof *m->slot);
        if (!m->slot) {
            m->slot = old;
            m->oom = true;
            return;
        }
        m->cap = cap;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i]) m->slot[memo_pos(m, old[i] - 1)] = old[i];
        free(old);
    }
    m->slot[memo_pos(m, key)] = key + 1;
    m->used++;
}

static bool splits(Memo *m, Counts k, int v);

/* Completes a part of value v that needs `need` more from values at most
 * top, each multiset once (values taken in non-increasing order), then
 * asks whether what is left splits too. */
static bool complete(Memo *m, Counts k, int v, int need, int top)
{
    if (need == 0) return splits(m, k, v);
    for (int x = need < top ? need : top; x >= 1; x--)
        if (cnt(k, x) && complete(m, k - one(x), v, need - x, x)) return true;
    return false;
}

/* Do the counts split into parts each summing to v? The largest value
 * left must be in some part: every way to complete that part is tried. */
static bool splits(Memo *m, Counts k, int v)
{
    if (!k) return true;
    const uint64_t key = k | (uint64_t)v << 40;
    if (m->costly || m->oom || memo_has(m, key)) return false;
    if (--m->budget < 0) {
        m->costly = true;
        return false;
    }
    int top = counts_top(k);
    if (top <= v && complete(m, k - one(top), v, v - top, top)) return true;
    memo_add(m, key);
    return false;
}

/* Does some sub-multiset of k sum to exactly t? (A part of value t.) */
static bool has_sum(Counts k, int t)
{
    unsigned reach = 1; /* bit s: a sum of s can be made */
    for (int v = 1; v <= 10 && v <= t; v++)
        for (int i = 0; i < cnt(k, v); i++) reach |= reach << v;
    return t >= 1 && t <= 31 && (reach >> t & 1);
}

/* ---- the mover and the move ---- */

/* A split's search budget: the counts of a crowded table reachable from
 * one move are far fewer (a few thousand), so only a hostile position
 * meets it. */

typedef struct {
    const dl_State *s;
    const dl_Move *m;
    int seat, own, w;  /* w: the played card's value, 0 for a face card */
    dl_Set after;      /* the hand once the card is played */
    Memo *memo;        /* shared by the checks of one count */
} Ctx;

static bool holds(dl_Set hand, int v) { return v >= 1 && v <= 10 && (hand & dl_value_mask(v)); }

static unsigned decls_in(uint64_t take) { return (unsigned)(take >> DL_DECL_SHIFT) & 0xF; }

/* Plain declarations count as cards of their value for this kind of move
 * (V-liberal-capture C5, V-liberal-group C3). */
static bool lib_for(const dl_State *s, bool group)
{
    return s->ndecl > 0 && (group ? s->rules.liberal_group : s->rules.liberal_capture);
}

/* D19: an owner keeps a card of the declaration's value unless the move
 * takes that declaration. */
static bool keeps_obligation(const Ctx *c)
{
    if (c->own < 0 || (c->m->take & DL_DECL_BIT(c->own))) return true;
    return holds(c->after, c->s->decl[c->own].value);
}

/* Is a whole declaration a part of value v by itself (D11, D17, D18)?
 * With lib, plain ones are cards instead; soys may not join a group. */
static bool whole_part(const dl_State *s, int i, int v, bool lib, bool soy_ok)
{
    const dl_Decl *d = &s->decl[i];
    if (d->value != v) return false;
    if (d->kind == DL_DECL_PLAIN) return !lib;
    return soy_ok || dl_count(d->cards) != 2;
}

/* Could the played numeral take anything at all (C1)? Any part of its
 * value among the table's items. */
static bool numeral_can_capture(const dl_State *s, int v)
{
    const bool lib = lib_for(s, false);
    Counts k = counts_of(s->loose);
    for (int i = 0; i < s->ndecl; i++) {
        if (whole_part(s, i, v, lib, true)) return true;
        if (lib && s->decl[i].kind == DL_DECL_PLAIN) k += one(s->decl[i].value);
    }
    return has_sum(k, v);
}

static bool can_capture(const dl_State *s, int card)
{
    if (dl_is_face(card)) return (s->loose & dl_rank_mask(dl_rank(card))) != 0;
    return numeral_can_capture(s, dl_value(card));
}

/* The items of take as counts: loose numerals and the declarations that
 * count as cards; false if an item can be neither a card of value at most
 * v nor (whole) a part of value v. *whole: parts that are whole
 * declarations. */
static bool gather(const dl_State *s, uint64_t take, int v, bool lib, bool soy_ok, Counts *k,
                   int *whole)
{
    *k = counts_of(take & DL_DECK);
    *whole = 0;
    if (take & DL_FACES) return false; /* D2, D11: face cards have no value */
    for (unsigned d = decls_in(take); d; d &= d - 1) {
        int i = dl_first(d);
        if (lib && s->decl[i].kind == DL_DECL_PLAIN) {
            if (s->decl[i].value > v) return false;
            *k += one(s->decl[i].value);
        } else if (whole_part(s, i, v, lib, soy_ok)) {
            (*whole)++;
        } else {
            return false;
        }
    }
    return counts_top(*k) <= v;
}

/* V-forced-capture (C1): nothing is left that the card could also take. */
static bool maximal(const Ctx *c, int v, bool lib)
{
    const dl_State *s = c->s;
    Counts left = counts_of(s->loose & ~c->m->take);
    for (int i = 0; i < s->ndecl; i++) {
        if (c->m->take & DL_DECL_BIT(i)) continue;
        if (whole_part(s, i, v, lib, true)) return false;
        if (lib && s->decl[i].kind == DL_DECL_PLAIN) left += one(s->decl[i].value);
    }
    return !has_sum(left, v);
}

static dl_CheckResult yes_no(const Ctx *c, bool ok)
{
    if (c->memo->oom) return DL_CHECK_OOM;
    if (ok) return DL_CHECK_LEGAL;
    return c->memo->costly ? DL_CHECK_COSTLY : DL_CHECK_ILLEGAL;
}

/* D11-D13, K2, C1, C5 for a numeral. */
static dl_CheckResult numeral_capture(Ctx *c)
{
    const dl_State *s = c->s;
    const int v = c->w;
    const bool lib = lib_for(s, false);
    Counts k;
    int whole;
    if (c->m->value || !gather(s, c->m->take, v, lib, true, &k, &whole)) return DL_CHECK_ILLEGAL;
    if (s->rules.capture == DL_CAPTURE_ONE) { /* K2: one combination, maximal or not (C1) */
        bool one_part = (whole == 1 && !k) || (whole == 0 && k && counts_sum(k) == v);
        return one_part && keeps_obligation(c) ? DL_CHECK_LEGAL : DL_CHECK_ILLEGAL;
    }
    if (counts_sum(k) % v) return DL_CHECK_ILLEGAL;
    if (!keeps_obligation(c)) return DL_CHECK_ILLEGAL;
    if (s->rules.forced_capture && !maximal(c, v, lib)) return DL_CHECK_ILLEGAL;
    return yes_no(c, splits(c->memo, k, v));
}

/* D10, D12, C2 for a face card. */
static dl_CheckResult face_capture(const Ctx *c)
{
    const dl_State *s = c->s;
    const dl_Set same = s->loose & dl_rank_mask(dl_rank(c->m->card));
    const dl_Set take = c->m->take;
    if (c->m->value || !take || (take & ~same)) return DL_CHECK_ILLEGAL;
    bool three = s->rules.three_face_cards && s->rules.capture == DL_CAPTURE_MANY &&
                 dl_count(same) == 3;
    bool shape = three ? take == same : dl_count(take) == 1;
    return shape && keeps_obligation(c) ? DL_CHECK_LEGAL : DL_CHECK_ILLEGAL;
}

static bool may_lay(const Ctx *c)
{
    const dl_State *s = c->s;
    const int card = c->m->card;
    if (c->m->take || c->m->value || c->own >= 0) return false; /* D19 */
    if (dl_is_face(card)) {
        bool same = (s->loose & dl_rank_mask(dl_rank(card))) != 0;
        return !(same && (s->rules.face_lay_blocked || s->rules.forced_capture)); /* D10, C1 */
    }
    return !(s->rules.forced_capture && can_capture(s, card)); /* C1 */
}

/* Values held once the card is played (D14). */
static bool keeps_value(const Ctx *c, int v) { return holds(c->after, v); }

/* D15: the card and one or more loose numerals into a plain declaration. */
static bool plain_ok(const Ctx *c)
{
    const dl_Set take = c->m->take;
    if (c->own >= 0 || !take || (take & ~DL_NUMERALS)) return false;
    return c->w + dl_set_sum(take) == c->m->value && c->m->value <= 10 &&
           keeps_value(c, c->m->value);
}

/* D16 (with C4): the card, and loose numerals under V-liberal-raise, onto
 * one opponent's plain declaration. */
static bool raise_ok(const Ctx *c)
{
    const dl_State *s = c->s;
    const unsigned d = decls_in(c->m->take);
    const dl_Set loose = c->m->take & DL_DECK;
    if (c->own >= 0 || dl_count(d) != 1) return false;
    const dl_Decl *dc = &s->decl[dl_first(d)];
    if (dc->kind != DL_DECL_PLAIN || dl_side(&s->rules, dc->owner) == dl_side(&s->rules, c->seat))
        return false;
    if (loose && (!s->rules.liberal_raise || (loose & ~DL_NUMERALS))) return false;
    int v = dc->value + c->w + dl_set_sum(loose);
    return v == c->m->value && v <= 10 && keeps_value(c, v);
}

/* Takes `need` out of k in every way, from the values in `from` (a part
 * of k; non-increasing values, each multiset once), and asks whether the
 * rest splits into parts of v with at least one part left (C8). */
static bool rest_after(Memo *m, Counts k, Counts from, int v, int need, int top, int whole)
{
    if (need == 0) return (k || whole) && splits(m, k, v);
    for (int x = need < top ? need : top; x >= 1; x--)
        if (cnt(from, x) && rest_after(m, k - one(x), from - one(x), v, need - x, x, whole))
            return true;
    return false;
}

/* D17 with C3, C4, C7, C8: the played card opens one component (alone,
 * with items of the missing value, or raising an opponent's plain
 * declaration); the rest of the move's items split into parts of the
 * group's value. */
static dl_CheckResult group(Ctx *c)
{
    const dl_State *s = c->s;
    const int v = c->m->value, w = c->w;
    const bool lib = lib_for(s, true);
    const bool soy_ok = !s->rules.soy;
    if (v < w || v > 10 || !keeps_value(c, v)) return DL_CHECK_ILLEGAL;
    if (c->own >= 0 && !(c->m->take & DL_DECL_BIT(c->own))) return DL_CHECK_ILLEGAL; /* D19 */
    if (c->m->take & DL_FACES) return DL_CHECK_ILLEGAL;
    /* The card's component raising one opponent's plain declaration: that
     * declaration leaves the counts (or the whole parts). */
    for (unsigned d = decls_in(c->m->take); d; d &= d - 1) {
        int i = dl_first(d);
        const dl_Decl *dc = &s->decl[i];
        if (dc->kind != DL_DECL_PLAIN || dl_side(&s->rules, dc->owner) == dl_side(&s->rules, c->seat))
            continue;
        int need = v - w - dc->value;
        if (need < 0 || (need > 0 && !s->rules.liberal_raise)) continue;
        const uint64_t rest = c->m->take & ~DL_DECL_BIT(i);
        Counts k;
        int whole;
        if (!gather(s, rest, v, lib, soy_ok, &k, &whole)) continue;
        /* The loose part of the raise is loose cards only (C4). */
        if (rest_after(c->memo, k, counts_of(rest & DL_DECK), v, need, need, whole))
            return DL_CHECK_LEGAL;
    }
    Counts k;
    int whole;
    if (!gather(s, c->m->take, v, lib, soy_ok, &k, &whole)) return yes_no(c, false);
    return yes_no(c, rest_after(c->memo, k, k, v, v - w, v - w, whole));
}

static dl_CheckResult check(const dl_State *s, const dl_Move *m, Memo *memo)
{
    if (s->phase == DL_PHASE_CLAIM)
        return (m->kind == DL_CLAIM || m->kind == DL_KEEP) && !m->card && !m->take && !m->value
            ? DL_CHECK_LEGAL : DL_CHECK_ILLEGAL;
    if (s->phase != DL_PHASE_PLAY || m->kind > DL_GROUP || m->card >= DL_NCARDS) return DL_CHECK_ILLEGAL;
    const dl_Set hand = s->hand[s->turn];
    if (!(hand & DL_BIT(m->card))) return DL_CHECK_ILLEGAL;
    if ((m->take & ~(DL_DECK | DL_DECL_ITEMS)) || (m->take & DL_DECK & ~s->loose) ||
        (decls_in(m->take) >> s->ndecl))
        return DL_CHECK_ILLEGAL;
    Ctx c = {s, m, s->turn, dl_owned_decl(s, s->turn), dl_value(m->card), hand & ~DL_BIT(m->card),
             memo};
    dl_CheckResult r = DL_CHECK_ILLEGAL;
    switch (m->kind) {
    case DL_LAY: r = may_lay(&c) ? DL_CHECK_LEGAL : DL_CHECK_ILLEGAL; break;
    case DL_CAPTURE:
        if (!m->take) break;
        r = dl_is_face(m->card) ? face_capture(&c) : numeral_capture(&c);
        break;
    default:
        /* D2, D14-D17, C1: numerals only, Diloti only, and a card that
         * must capture may not declare. */
        if (dl_is_face(m->card) || !s->rules.declarations ||
            (s->rules.forced_capture && can_capture(s, m->card)))
            break;
        if (m->kind == DL_PLAIN) r = plain_ok(&c) ? DL_CHECK_LEGAL : DL_CHECK_ILLEGAL;
        else if (m->kind == DL_RAISE) r = raise_ok(&c) ? DL_CHECK_LEGAL : DL_CHECK_ILLEGAL;
        else r = group(&c);
        break;
    }
    return r;
}

dl_CheckResult dl_check_move(const dl_State *s, const dl_Move *m)
{
    Memo memo = {NULL, 0, 0, DL_SPLIT_BUDGET, false, false};
    dl_CheckResult r = check(s, m, &memo);
    memo_free(&memo);
    return r;
}

bool dl_can_capture(const dl_State *s, int card) { return card < DL_NCARDS && can_capture(s, card); }

bool dl_is_legal(const dl_State *s, const dl_Move *m) { return dl_check_move(s, m) == DL_CHECK_LEGAL; }

/* ---- counting the legal moves without listing them ----
 *
 * A move's legality depends on the values of the loose cards it takes,
 * never on their suits (D3, D11): so the moves of one card, kind and
 * value are counted by value counts, each checked once on a take that
 * stands for all of them (the first cards of each value) and weighed by
 * the number of takes with those counts (a product of binomials). */

typedef struct {
    const dl_State *s;
    Memo memo;
    dl_Set byval[11]; /* the loose numerals of each value */
    dl_Move m;        /* the move being counted: kind, card, value */
    long checks;      /* checks still allowed */
    bool exact;
    uint64_t total;
} Counter;

static const uint64_t BINOM[5][5] = {{1}, {1, 1}, {1, 2, 1}, {1, 3, 3, 1}, {1, 4, 6, 4, 1}};

static dl_Set first_cards(dl_Set cards, int n)
{
    dl_Set r = 0;
    for (; n > 0 && cards; n--, cards &= cards - 1) r |= cards & (~cards + 1);
    return r;
}

/* Checks c->m with take | every allowed set of declarations. */
static void count_leaf(Counter *c, dl_Set take, uint64_t weight, unsigned decls)
{
    for (unsigned d = decls;; d = (d - 1) & decls) {
        uint64_t t = take | (uint64_t)d * DL_DECL_BIT(0);
        if (t || c->m.kind == DL_LAY) {
            if (c->checks-- <= 0) {
                c->exact = false;
                return;
            }
            dl_Move m = c->m;
            m.take = t;
            dl_CheckResult r = check(c->s, &m, &c->memo);
            if (r == DL_CHECK_LEGAL) c->total += weight;
            else if (r != DL_CHECK_ILLEGAL) c->exact = false;
        }
        if (!d) break;
    }
}

/* Every choice of how many loose cards of each value from v up to top
 * (sum at most room), then the declarations. */
static void count_takes(Counter *c, int v, int top, int room, dl_Set take, uint64_t weight,
                        unsigned decls)
{
    if (c->checks <= 0) {
        c->exact = false;
        return;
    }
    if (v > top) {
        count_leaf(c, take, weight, decls);
        return;
    }
    int n = dl_count(c->byval[v]);
    for (int k = 0; k <= n && k * v <= room; k++)
        count_takes(c, v + 1, top, room - k * v, take | first_cards(c->byval[v], k),
                    weight * BINOM[n][k], decls);
}

static void count_kind(Counter *c, int kind, int value, int top, int room, unsigned decls)
{
    c->m.kind = (uint8_t)kind;
    c->m.value = (uint8_t)value;
    count_takes(c, 1, top, room, 0, 1, decls);
}

/* The moves of one card, each shape counted once. */
static void count_card(Counter *c, int card)
{
    const dl_State *s = c->s;
    const unsigned all = (1u << s->ndecl) - 1;
    c->m = (dl_Move){0, DL_LAY, (uint8_t)card, 0};
    count_leaf(c, 0, 1, 0);
    if (dl_is_face(card)) {
        c->m.kind = DL_CAPTURE;
        dl_Set same = s->loose & dl_rank_mask(dl_rank(card));
        for (dl_Set sub = same; sub; sub = (sub - 1) & same) count_leaf(c, sub, 1, 0);
        return;
    }
    const int w = dl_value(card);
    count_kind(c, DL_CAPTURE, 0, w, s->rules.capture == DL_CAPTURE_ONE ? w : 1000, all);
    if (!s->rules.declarations) return;
    for (int v = w + 1; v <= 10; v++) count_kind(c, DL_PLAIN, v, v - w, v - w, 0);
    for (int v = w + 1; v <= 10; v++)
        for (int i = 0; i < s->ndecl; i++)
            count_kind(c, DL_RAISE, v, s->rules.liberal_raise ? v : 0, v, 1u << i);
    for (int v = w; v <= 10; v++) count_kind(c, DL_GROUP, v, v, 1000, all);
}

dl_MoveCount dl_count_moves(const dl_State *s, long budget)
{
    /* (the splits the checks try are shared: they grow with the checks
     * allowed, so a larger budget gives a truer count) */
    Counter c = {s, {NULL, 0, 0, DL_SPLIT_BUDGET + budget, false, false}, {0}, {0, 0, 0, 0}, budget, true, 0};
    if (s->phase == DL_PHASE_CLAIM) return (dl_MoveCount){2, true};
    if (s->phase != DL_PHASE_PLAY) return (dl_MoveCount){0, true};
    for (int v = 1; v <= 10; v++) c.byval[v] = s->loose & dl_value_mask(v);
    /* Cards of one rank have the same moves (only values and ranks
     * matter), so a rank is counted once for all its cards. */
    for (dl_Set h = s->hand[s->turn]; h && c.exact;) {
        int card = dl_first(h);
        dl_Set same = h & dl_rank_mask(dl_rank(card));
        uint64_t before = c.total;
        count_card(&c, card);
        c.total = before + (c.total - before) * (uint64_t)dl_count(same);
        h &= ~same;
    }
    memo_free(&c.memo);
    if (c.memo.oom) c.exact = false;
    return (dl_MoveCount){c.total, c.exact};
}
