/* The brute-force move generator: see bruteforce.h.
 *
 * Shape: for each card in hand, for each subset T of the table items that
 * card could ever touch, ask one "judge" per move kind whether (card, kind,
 * value, T) is legal. The judges are written rule by rule from RULES.md and
 * name the rule they apply. Splitting a set into parts (D11) or components
 * (D17) is a plain recursion: take the lowest item, try every part that
 * contains it, recurse on the rest (results remembered per position, so a
 * crowded table cannot make it blow up).
 *
 * Items: a numeral card only ever takes or joins loose numeral cards and
 * declarations (D2, D3: face cards are in no combination and no
 * declaration), so its subsets range over those; a face card only ever
 * takes loose face cards (D12, K2), so its subsets range over those. The
 * enumerator skips subsets whose value sum cannot work (a capture's parts
 * each sum to v, a group's components each sum to its value); that is a
 * consequence of the rules, not a rule, and the judges check everything
 * again. */
#include "bruteforce.h"

#include <stdlib.h>
#include <string.h>

#define NMASK (1u << BF_MAX_ITEMS)

typedef struct {
    int n;
    int val[BF_MAX_ITEMS];  /* value of a loose card or of a declaration */
    int slot[BF_MAX_ITEMS]; /* declaration slot, or -1 for a loose card */
    int card[BF_MAX_ITEMS]; /* the loose card, or -1 for a declaration */
} Items;

typedef struct {
    const dl_State *s;
    const dl_Rules *r;
    int me;       /* seat to move */
    int own;      /* slot of the mover's declaration (D19), or -1 */
    int own_item; /* its index among the numeral items, or -1 */
    Items num;    /* loose numeral cards and declarations */
    Items face;   /* loose face cards */
} Ctx;

/* Per-position tables over subsets of the numeral items. */
static uint16_t g_sum[NMASK]; /* sum of item values */
static uint8_t g_max[NMASK];  /* largest item value */
/* Memo of split(): [what][v][mask], valid when stamp == g_gen. */
enum { SPLIT_CAPTURE, SPLIT_GROUP };
static uint32_t g_memo_stamp[2][11][NMASK];
static uint8_t g_memo_val[2][11][NMASK];
static uint32_t g_gen;

static int popcount(unsigned m) { return __builtin_popcount(m); }
static int lowest(unsigned m) { return __builtin_ctz(m); }

/* ---- facts about items ------------------------------------------------ */

static bool is_loose(const Ctx *x, int i) { return x->num.slot[i] < 0; }

static const dl_Decl *decl_of(const Ctx *x, int i)
{
    return &x->s->decl[x->num.slot[i]];
}

static bool is_plain(const Ctx *x, int i)
{
    return !is_loose(x, i) && decl_of(x, i)->kind == DL_DECL_PLAIN;
}

/* D16, C9: owned by the other side (never one's own, never a partner's). */
static bool is_opponents(const Ctx *x, int i)
{
    return dl_side(x->r, decl_of(x, i)->owner) != dl_side(x->r, x->me);
}

/* V-soy: a group of exactly two single equal numeral cards. */
static bool is_soy(const Ctx *x, int i)
{
    const dl_Decl *d = decl_of(x, i);
    return d->kind == DL_DECL_GROUP && d->ncomp == 2 && dl_count(d->cards) == 2;
}

static uint64_t take_of(const Items *it, unsigned mask)
{
    uint64_t t = 0;
    for (int i = 0; i < it->n; i++) {
        if (!(mask >> i & 1)) continue;
        t |= it->slot[i] < 0 ? DL_BIT(it->card[i]) : DL_DECL_BIT(it->slot[i]);
    }
    return t;
}

static int sum_of(const Ctx *x, unsigned mask)
{
    int s = 0;
    for (int i = 0; i < x->num.n; i++)
        if (mask >> i & 1) s += x->num.val[i];
    return s;
}

static unsigned decl_items(const Ctx *x)
{
    unsigned m = 0;
    for (int i = 0; i < x->num.n; i++)
        if (!is_loose(x, i)) m |= 1u << i;
    return m;
}

/* D14, D19: after playing c the mover still holds a card of value v. */
static bool holds_after(const Ctx *x, int c, int v)
{
    return (x->s->hand[x->me] & ~DL_BIT(c) & dl_value_mask(v)) != 0;
}

/* ---- parts and components --------------------------------------------- */

/* A part of value v (D11) or a further group component of value v (D17):
 * - one item of value v: a loose numeral card of value v (D3) or a
 *   declaration of value v (D11: plain or group; D17: a plain declaration
 *   or an existing group);
 * - two or more loose numeral cards summing to v (D3), where a plain
 *   declaration may count as a single card of its value when
 *   plain_as_card (C5 for captures, C3 for groups); a group never does. */
static bool part_ok(const Ctx *x, unsigned part, int v, bool plain_as_card)
{
    if (popcount(part) == 1) return x->num.val[lowest(part)] == v;
    int sum = 0;
    for (int i = 0; i < x->num.n; i++) {
        if (!(part >> i & 1)) continue;
        if (!is_loose(x, i) && !(plain_as_card && is_plain(x, i))) return false;
        sum += x->num.val[i];
    }
    return sum == v;
}

static bool split(const Ctx *x, unsigned mask, int v, int what);

/* Grows a part containing `part` from items >= next of mask; once it sums
 * to v, checks it and splits the rest. */
static bool grow(const Ctx *x, unsigned mask, int v, int what, unsigned part,
                 int sum, int next)
{
    if (sum == v) {
        bool plain_as_card = what == SPLIT_CAPTURE ? x->r->liberal_capture
                                                   : x->r->liberal_group;
        return part_ok(x, part, v, plain_as_card) &&
               split(x, mask & ~part, v, what);
    }
    for (int j = next; j < x->num.n; j++)
        if ((mask >> j & 1) && sum + x->num.val[j] <= v &&
            grow(x, mask, v, what, part | 1u << j, sum + x->num.val[j], j + 1))
            return true;
    return false;
}

/* Can mask be split into disjoint parts (SPLIT_CAPTURE: D11) or group
 * components (SPLIT_GROUP: D17), each of value v? The empty set can. */
static bool split(const Ctx *x, unsigned mask, int v, int what)
{
    if (!mask) return true;
    if (g_memo_stamp[what][v][mask] == g_gen) return g_memo_val[what][v][mask];
    int i = lowest(mask);
    bool ok = grow(x, mask, v, what, 1u << i, x->num.val[i], i + 1);
    g_memo_stamp[what][v][mask] = g_gen;
    g_memo_val[what][v][mask] = ok;
    return ok;
}

/* Is there any capture part of value v among the items of mask? (C1) */
static bool some_part(const Ctx *x, unsigned mask, int v, unsigned part,
                      int sum, int next)
{
    if (part && sum == v) return part_ok(x, part, v, x->r->liberal_capture);
    for (int j = next; j < x->num.n; j++)
        if ((mask >> j & 1) && sum + x->num.val[j] <= v &&
            some_part(x, mask, v, part | 1u << j, sum + x->num.val[j], j + 1))
            return true;
    return false;
}

/* D17: the played card's component, c joined with the items A, of value g:
 * - c alone, value(c) == g (C8: only then may it stand alone);
 * - c with loose numeral cards summing to g;
 * - c raising a plain declaration it may raise (D16: an opponent's; C7,
 *   C9), with loose numeral cards as well under V-liberal-raise (C4);
 * - under V-liberal-group, c with loose numeral cards and anyone's plain
 *   declarations, each standing as a single card (C3). */
static bool played_comp_ok(const Ctx *x, int c, unsigned A, int g)
{
    int vc = dl_value(c);
    if (!A) return vc == g;
    if (vc + sum_of(x, A) != g) return false;
    unsigned decls = A & decl_items(x);
    if (!decls) return true;
    if (popcount(decls) == 1) {
        int d = lowest(decls);
        if (is_plain(x, d) && is_opponents(x, d) &&
            (decls == A || x->r->liberal_raise))
            return true;
    }
    if (x->r->liberal_group) {
        for (int i = 0; i < x->num.n; i++)
            if ((decls >> i & 1) && !is_plain(x, i)) return false;
        return true;
    }
    return false;
}

/* Chooses the played card's component A among T (grown like a part), then
 * asks that the rest be one or more further components (D17, C8). */
static bool group_from(const Ctx *x, int c, unsigned T, int g, unsigned A,
                       int sum, int next)
{
    int need = g - dl_value(c);
    if (sum == need) {
        unsigned rest = T & ~A;
        return rest && played_comp_ok(x, c, A, g) &&
               split(x, rest, g, SPLIT_GROUP);
    }
    for (int j = next; j < x->num.n; j++)
        if ((T >> j & 1) && sum + x->num.val[j] <= need &&
            group_from(x, c, T, g, A | 1u << j, sum + x->num.val[j], j + 1))
            return true;
    return false;
}

/* ---- the judges --------------------------------------------------------- */

/* D19: the mover owns a declaration that the move does not capture; then
 * they must still hold a card of its value afterwards. */
static bool obligation_kept_by_capture(const Ctx *x, int c, unsigned T)
{
    if (x->own < 0) return true;
    if (x->own_item >= 0 && (T >> x->own_item & 1)) return true;
    return holds_after(x, c, x->s->decl[x->own].value);
}

/* Capture with a numeral card; T over the numeral items. No C1 here. */
static bool capture_ok(const Ctx *x, int c, unsigned T)
{
    int v = dl_value(c);
    if (!T) return false;
    if (x->r->capture == DL_CAPTURE_ONE) {
        /* K2: exactly one combination of loose cards: one card of the
         * same rank (same value, for a numeral) or two or more numeral
         * cards summing to v. */
        if (T & decl_items(x)) return false;
        return part_ok(x, T, v, false);
    }
    /* D11 (D18 for groups, C5): disjoint parts, each of value v. */
    if (!split(x, T, v, SPLIT_CAPTURE)) return false;
    return obligation_kept_by_capture(x, c, T);
}

/* Capture with a face card; T over the loose face cards. */
static bool face_capture_ok(const Ctx *x, int c, unsigned T)
{
    dl_Set same = x->s->loose & dl_rank_mask(dl_rank(c));
    dl_Set taken = take_of(&x->face, T);
    if (!T) return false;
    /* C2: the fourth card's only capture is all three. V-three-face-cards
     * is "an exception to D12", Diloti's face-card capture; Kontsina's K2
     * ("only one combination") is read as not affected. */
    if (x->r->three_face_cards && x->r->capture == DL_CAPTURE_MANY &&
        dl_count(same) == 3)
        return taken == same;
    /* D12, K2: exactly one loose card of the same rank. */
    if (dl_count(taken) != 1 || !(taken & same)) return false;
    if (x->own >= 0 && !holds_after(x, c, x->s->decl[x->own].value))
        return false; /* D19 (a face card never is of that value) */
    return true;
}

/* C1: after capturing T with numeral card c, no part the same card could
 * also have taken is left untouched. Kontsina and face cards take one part
 * anyway: there the variant only means "must capture". */
static bool capture_is_maximal(const Ctx *x, int c, unsigned T)
{
    if (dl_is_face(c) || x->r->capture == DL_CAPTURE_ONE) return true;
    unsigned all = x->num.n ? (unsigned)((1ul << x->num.n) - 1) : 0;
    return !some_part(x, all & ~T, dl_value(c), 0, 0, 0);
}

/* D10 (K2), D19, C1. */
static bool lay_ok(const Ctx *x, int c, bool has_capture)
{
    if (x->own >= 0) return false;                         /* D19 */
    if (dl_is_face(c) && x->r->face_lay_blocked &&
        (x->s->loose & dl_rank_mask(dl_rank(c))))
        return false;                                      /* D10 */
    if (x->r->forced_capture && has_capture) return false; /* C1 */
    return true;
}

/* D15 with D14, D19, C1. */
static bool plain_ok(const Ctx *x, int c, unsigned T, int value,
                     bool has_capture)
{
    if (!x->r->declarations || dl_is_face(c)) return false;
    if (!T || (T & decl_items(x))) return false; /* loose numerals only */
    int v = dl_value(c) + sum_of(x, T);
    if (v > 10 || value != v) return false;
    if (!holds_after(x, c, v)) return false;              /* D14 */
    if (x->own >= 0) return false;                        /* D19 */
    if (x->r->forced_capture && has_capture) return false; /* C1 */
    return true;
}

/* D16 (C4 with loose cards) with D14, D19, C1, C9. */
static bool raise_ok(const Ctx *x, int c, unsigned T, int value,
                     bool has_capture)
{
    if (!x->r->declarations || dl_is_face(c)) return false;
    unsigned decls = T & decl_items(x);
    if (popcount(decls) != 1) return false;
    int d = lowest(decls);
    if (!is_plain(x, d) || !is_opponents(x, d)) return false;  /* D16, C9 */
    if (T != decls && !x->r->liberal_raise) return false;      /* D16, C4 */
    int v = dl_value(c) + sum_of(x, T);
    if (v > 10 || value != v) return false;
    if (!holds_after(x, c, v)) return false;                   /* D14 */
    if (x->own >= 0) return false;                             /* D19 */
    if (x->r->forced_capture && has_capture) return false;     /* C1 */
    return true;
}

/* D17 with D14, D19 (C3, C6, C7), V-soy, C1. */
static bool group_ok(const Ctx *x, int c, unsigned T, int g, bool has_capture)
{
    if (!x->r->declarations || dl_is_face(c)) return false;
    if (!T || g < 1 || g > 10) return false;
    if (!holds_after(x, c, g)) return false;                   /* D14, C6 */
    if (x->own >= 0 && !(x->own_item >= 0 && (T >> x->own_item & 1)))
        return false;                                          /* D19 */
    if (x->r->soy)
        for (int i = 0; i < x->num.n; i++)
            if ((T >> i & 1) && !is_loose(x, i) && is_soy(x, i))
                return false;                                  /* V-soy */
    if (x->r->forced_capture && has_capture) return false;     /* C1 */
    return group_from(x, c, T, g, 0, 0, 0);
}

/* ---- the enumerator ----------------------------------------------------- */

static void setup(Ctx *x, const dl_State *s)
{
    memset(x, 0, sizeof *x);
    x->s = s;
    x->r = &s->rules;
    x->me = s->turn;
    x->own = dl_owned_decl(s, x->me);
    x->own_item = -1;
    for (int c = 0; c < DL_NCARDS; c++) {
        if (!(s->loose & DL_BIT(c))) continue;
        Items *it = dl_is_face(c) ? &x->face : &x->num;
        if (it->n >= BF_MAX_ITEMS) { x->num.n = BF_MAX_ITEMS + 1; return; }
        it->val[it->n] = dl_value(c);
        it->slot[it->n] = -1;
        it->card[it->n] = c;
        it->n++;
    }
    for (int i = 0; i < s->ndecl; i++) {
        if (x->num.n >= BF_MAX_ITEMS) { x->num.n = BF_MAX_ITEMS + 1; return; }
        if (i == x->own) x->own_item = x->num.n;
        x->num.val[x->num.n] = s->decl[i].value;
        x->num.slot[x->num.n] = i;
        x->num.card[x->num.n] = -1;
        x->num.n++;
    }
    g_sum[0] = 0;
    g_max[0] = 0;
    for (unsigned m = 1; m < 1u << x->num.n; m++) {
        unsigned rest = m & (m - 1);
        int v = x->num.val[lowest(m)];
        g_sum[m] = (uint16_t)(g_sum[rest] + v);
        g_max[m] = (uint8_t)(g_max[rest] > v ? g_max[rest] : v);
    }
    if (++g_gen == 0) { /* wrapped: forget every stamp */
        memset(g_memo_stamp, 0, sizeof g_memo_stamp);
        g_gen = 1;
    }
}

typedef struct {
    dl_Move *out;
    long n, cap;
} Out;

static void push(Out *o, int kind, int card, int value, uint64_t take)
{
    if (o->n < o->cap)
        o->out[o->n] = (dl_Move){take, (uint8_t)kind, (uint8_t)card,
                                 (uint8_t)value};
    o->n++;
}

static void face_card_moves(const Ctx *x, int c, Out *o)
{
    bool has_capture = false;
    for (unsigned T = 1; T < 1u << x->face.n; T++)
        if (face_capture_ok(x, c, T)) {
            has_capture = true;
            push(o, DL_CAPTURE, c, 0, take_of(&x->face, T));
        }
    if (lay_ok(x, c, has_capture)) push(o, DL_LAY, c, 0, 0);
}

static void numeral_card_moves(const Ctx *x, int c, Out *o)
{
    static unsigned captures[NMASK];
    const int v = dl_value(c);
    const unsigned nmask = 1u << x->num.n, decls = decl_items(x);
    long ncap = 0;
    for (unsigned T = 1; T < nmask; T++) {
        /* parts sum to v each: every item <= v, total a multiple of v */
        if (g_max[T] > v || g_sum[T] % v) continue;
        if (capture_ok(x, c, T)) captures[ncap++] = T;
    }
    bool has_capture = ncap > 0;
    for (long i = 0; i < ncap; i++)
        if (!x->r->forced_capture || capture_is_maximal(x, c, captures[i]))
            push(o, DL_CAPTURE, c, 0, take_of(&x->num, captures[i]));
    if (x->r->forced_capture && has_capture) return; /* C1: nothing else */
    if (lay_ok(x, c, has_capture)) push(o, DL_LAY, c, 0, 0);
    if (!x->r->declarations) return;
    /* Shortcuts the judges would also take: D14 wants a card of the
     * declared value left in hand; D19 wants an owner's declaration in
     * every declaration move (groups only). */
    unsigned held = 0;
    for (int g = 1; g <= 10; g++)
        if (holds_after(x, c, g)) held |= 1u << g;
    for (unsigned T = 1; T < nmask; T++) {
        if (x->own >= 0 && !(x->own_item >= 0 && (T >> x->own_item & 1)))
            continue;
        int sum = g_sum[T], total = sum + v;
        if (total <= 10 && (held >> total & 1)) {
            unsigned d = T & decls;
            if (!d && plain_ok(x, c, T, total, has_capture))
                push(o, DL_PLAIN, c, total, take_of(&x->num, T));
            if (d && !(d & (d - 1)) && raise_ok(x, c, T, total, has_capture))
                push(o, DL_RAISE, c, total, take_of(&x->num, T));
        }
        /* components sum to g each: g >= every item and the played card,
         * the total is a multiple of g, at least two components */
        int lo = g_max[T] > v ? g_max[T] : v;
        for (int g = lo; g <= 10; g++)
            if ((held >> g & 1) && total % g == 0 && total >= 2 * g &&
                group_ok(x, c, T, g, has_capture))
                push(o, DL_GROUP, c, g, take_of(&x->num, T));
    }
}

long bf_legal_moves(const dl_State *s, dl_Move *out, long cap)
{
    Ctx x;
    Out o = {out, 0, cap};
    if (s->phase != DL_PHASE_PLAY) return 0;
    setup(&x, s);
    if (x.num.n > BF_MAX_ITEMS || x.face.n > BF_MAX_ITEMS) return -1;
    for (int c = 0; c < DL_NCARDS; c++) {
        if (!(s->hand[x.me] & DL_BIT(c))) continue;
        if (dl_is_face(c))
            face_card_moves(&x, c, &o);
        else
            numeral_card_moves(&x, c, &o);
    }
    return o.n <= cap ? o.n : -1;
}

int bf_move_cmp(const void *pa, const void *pb)
{
    const dl_Move *a = pa, *b = pb;
    if (a->card != b->card) return a->card < b->card ? -1 : 1;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    if (a->value != b->value) return a->value < b->value ? -1 : 1;
    if (a->take != b->take) return a->take < b->take ? -1 : 1;
    return 0;
}
