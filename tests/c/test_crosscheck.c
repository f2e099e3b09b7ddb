/* Cross-check of the engine's move generator (dl_legal_moves) against the
 * plain brute-force generator of bruteforce.c, written independently from
 * RULES.md, on random positions built field by field: default Diloti,
 * four players with teams, Kontsina, and every variant that changes move
 * generation. For each position the engine's list must hold no duplicates
 * and equal the brute-force list as a set; dl_refusal() must accept every
 * legal move and refuse a sample of illegal candidates with a rule id.
 *
 * DL_CROSSCHECK_N sets the number of positions per configuration (default
 * 100000), DL_CROSSCHECK_SEED the base seed. */
/* clock_gettime: the wall clock, read without a system call (clock() costs
 * one, which was a tenth of this test's time) */
#define _POSIX_C_SOURCE 199309L
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bruteforce.h"
#include "diloti/legal.h"

#define MAX_MOVES (1L << 17)
#define MAX_REPORTS 4 /* failing positions printed in full per test */
#define FULL_REFUSALS 3 /* legal moves passed to dl_refusal per position */
#define REFUSED_SAMPLE 4 /* illegal candidates passed to dl_refusal */
#define DIRECT_SAMPLE 24 /* candidates, legal or not, passed to dl_check_move */

/* ---- a small deterministic RNG (splitmix64) ------------------------------ */

typedef struct {
    uint64_t s;
} Rng;

static uint64_t rnext(Rng *g)
{
    uint64_t z = (g->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int rint_(Rng *g, int n) { return n <= 1 ? 0 : (int)(rnext(g) % (uint64_t)n); }
static bool chance(Rng *g, int pct) { return rint_(g, 100) < pct; }

/* A random card of set, or -1. */
static int pick(Rng *g, dl_Set set)
{
    int n = dl_count(set);
    if (!n) return -1;
    for (int k = rint_(g, n); k > 0; k--) set &= set - 1;
    return dl_first(set);
}

/* ---- random positions ---------------------------------------------------- */

typedef struct {
    dl_State s;
    dl_Set avail; /* cards not placed yet */
    Rng *g;
} Gen;

static int draw(Gen *G, dl_Set among)
{
    int c = pick(G->g, G->avail & among);
    if (c >= 0) G->avail &= ~DL_BIT(c);
    return c;
}

/* Splits v into k >= 1 positive parts at random cut points. */
static int compose(Rng *g, int v, int k, int *parts)
{
    unsigned cuts = 0; /* bit i: a cut after i, 1 <= i < v */
    if (k > v) k = v;
    while (__builtin_popcount(cuts) < k - 1) cuts |= 1u << (1 + rint_(g, v - 1));
    int n = 0, prev = 0;
    for (int i = 1; i < v; i++)
        if (cuts >> i & 1) { parts[n++] = i - prev; prev = i; }
    parts[n++] = v - prev;
    return n;
}

/* A declaration owned by seat, the owner given a card of its value (D19).
 * Returns false (nothing changed) if the cards ran out. */
static bool add_decl(Gen *G, int owner, bool group)
{
    Gen saved = *G;
    Rng *g = G->g;
    int v = group ? 1 + rint_(g, 10) : 2 + rint_(g, 9);
    dl_Decl d = {0, (uint8_t)v, (uint8_t)(group ? DL_DECL_GROUP : DL_DECL_PLAIN),
                 (uint8_t)owner, 1};
    int keep = draw(G, dl_value_mask(v));
    if (keep < 0) goto fail;
    G->s.hand[owner] |= DL_BIT(keep);
    int ncomp = group ? (chance(g, 60) ? 2 : 3 + rint_(g, 2)) : 1;
    for (int ci = 0; ci < ncomp; ci++) {
        int parts[10], k;
        if (!group)
            k = 2 + rint_(g, (v < 4 ? v : 4) - 1);
        else
            k = chance(g, 50) ? 1 : 1 + rint_(g, v < 3 ? v : 3);
        k = compose(g, v, k, parts);
        for (int i = 0; i < k; i++) {
            int c = draw(G, dl_value_mask(parts[i]));
            if (c < 0) goto fail;
            d.cards |= DL_BIT(c);
            G->s.comp[c] = (uint8_t)ci;
        }
    }
    d.ncomp = (uint8_t)ncomp;
    G->s.decl[G->s.ndecl++] = d;
    return true;
fail:
    *G = saved;
    return false;
}

static dl_State random_state(const dl_Rules *r, Rng *g)
{
    Gen G;
    G.g = g;
    G.avail = DL_DECK;
    dl_state_blank(&G.s, r);
    dl_State *s = &G.s;
    const int players = r->players;
    const int me = rint_(g, players);
    s->turn = (uint8_t)me;
    s->dealer = (uint8_t)rint_(g, players);
    s->deal = (uint8_t)(1 + rint_(g, r->deals));
    s->ply = (uint8_t)(1 + rint_(g, 40));
    s->last_capturer = (int8_t)(rint_(g, players + 1) - 1);

    /* table size: loose cards plus declarations. The brute force is
     * exponential in the numeral cards and declarations, so crowded tables
     * (12-16 items) mostly hold 8-12 of those and face cards for the rest;
     * one position in a hundred has 13-16 of them. */
    static const int crowded_numeral[] = {8, 8, 8, 8, 9, 9, 9, 9, 9, 10, 10,
                                          10, 10, 10, 11, 11, 11, 11, 12, 12};
    static const int heavy[] = {13, 13, 13, 13, 13, 13, 13, 13, 13, 13,
                                14, 14, 14, 14, 14, 14, 15, 15, 15, 16};
    int roll = rint_(g, 100), items, faces = -1; /* -1: as they come */
    if (roll < 12) items = rint_(g, 4);
    else if (roll < 40) items = 4 + rint_(g, 5);
    else if (roll < 70) items = 9 + rint_(g, 3);
    else if (roll < 99) {
        items = 12 + rint_(g, 5);
        faces = items - crowded_numeral[rint_(g, 20)];
    } else {
        items = heavy[rint_(g, 20)];
        faces = 0;
    }

    /* V-three-face-cards set-up: three of a face rank loose, the fourth
     * in the mover's hand (also tried without the variant: D12) */
    if (chance(g, 8)) {
        int rank = DL_RANK_J + rint_(g, 3), c;
        for (int i = 0; i < 3; i++) {
            c = draw(&G, dl_rank_mask(rank));
            s->loose |= DL_BIT(c);
        }
        c = draw(&G, dl_rank_mask(rank));
        s->hand[me] |= DL_BIT(c);
    }

    /* declarations of random owners, sometimes the mover's */
    if (r->declarations) {
        int want = 0;
        roll = rint_(g, 100);
        if (roll >= 30) want = 1;
        if (roll >= 60) want = 2;
        if (roll >= 85) want = 2 + rint_(g, players - 1);
        int seats[DL_MAX_PLAYERS];
        for (int i = 0; i < players; i++) seats[i] = i;
        for (int i = players - 1; i > 0; i--) {
            int j = rint_(g, i + 1), t = seats[i];
            seats[i] = seats[j];
            seats[j] = t;
        }
        for (int i = 0; i < want && i < players; i++)
            for (int tries = 0; tries < 4; tries++)
                if (add_decl(&G, seats[i], chance(g, 50))) break;
    }

    /* loose cards up to the table size; numerals often small, which
     * makes combinations */
    while (dl_count(s->loose) + s->ndecl < items) {
        bool face = faces >= 0 ? dl_count(s->loose & DL_FACES) < faces
                               : chance(g, 23);
        int c = face ? draw(&G, DL_FACES)
                     : draw(&G, chance(g, 40) ? ((dl_Set)1 << 24) - 1 : DL_NUMERALS);
        if (c < 0) c = draw(&G, DL_DECK);
        if (c < 0) break;
        s->loose |= DL_BIT(c);
    }

    /* hands: the mover 1..hand_size cards, often matching something on
     * the table; the others 0..hand_size (owners keep their card) */
    for (int p = 0; p < players; p++) {
        int size = (p == me ? 1 : 0) + rint_(g, r->hand_size + (p == me ? 0 : 1));
        while (dl_count(s->hand[p]) < size) {
            int c = -1;
            if (p == me && chance(g, 35)) {
                int v = 0;
                if (s->ndecl && chance(g, 50))
                    v = s->decl[rint_(g, s->ndecl)].value;
                else if (s->loose & DL_NUMERALS)
                    v = dl_value(pick(g, s->loose & DL_NUMERALS));
                if (v) c = draw(&G, dl_value_mask(v));
            }
            if (c < 0) c = draw(&G, DL_DECK);
            if (c < 0) break;
            s->hand[p] |= DL_BIT(c);
        }
    }

    /* the rest: some captured, the others in the pack in random order */
    uint8_t rest[DL_NCARDS];
    int nrest = 0;
    while (G.avail) rest[nrest++] = (uint8_t)draw(&G, DL_DECK);
    int npile = rint_(g, nrest + 1);
    for (int i = 0; i < npile; i++)
        s->pile[rint_(g, dl_nsides(r))] |= DL_BIT(rest[i]);
    for (int i = npile; i < nrest; i++) s->pack[s->pack_len++] = rest[i];
    s->pack_pos = 0;
    return G.s;
}

/* ---- checks -------------------------------------------------------------- */

static bool is_rule_id_prefix(const char *why)
{
    static const char *variants[] = {
        "redeal-any-triple", "three-face-cards", "face-card-claim",
        "dealer-peeks", "forced-capture", "liberal-group", "liberal-raise",
        "liberal-capture", "soy", "no-xeri-last-card", "xeri-first-card",
        "target", "seed001"};
    if (!why) return false;
    if (strncmp(why, "V-", 2) == 0) {
        for (size_t i = 0; i < sizeof variants / sizeof *variants; i++) {
            size_t n = strlen(variants[i]);
            if (strncmp(why + 2, variants[i], n) == 0 && why[2 + n] == ':')
                return true;
        }
        return false;
    }
    int max = why[0] == 'D' ? 24 : why[0] == 'K' ? 8 : why[0] == 'C' ? 9 : 0;
    if (!max) return false;
    char *end;
    long id = strtol(why + 1, &end, 10);
    return end > why + 1 && end <= why + 3 && id >= 1 && id <= max && *end == ':';
}

static const char *kind_name(int k)
{
    static const char *names[] = {"lay", "capture", "plain", "raise", "group",
                                  "claim", "keep"};
    return k >= 0 && k <= DL_KEEP ? names[k] : "?";
}

static void print_move(const dl_State *s, const char *tag, const dl_Move *m)
{
    char buf[400];
    dl_move_str(s, m, buf, sizeof buf, false);
    printf("    %s %-40s [%s card=%d value=%d take=%#llx]\n", tag, buf,
           kind_name(m->kind), m->card, m->value, (unsigned long long)m->take);
}

static void print_position(const dl_State *s)
{
    char buf[DL_POSITION_MAX];
    dl_position_str(s, buf, sizeof buf, false);
    printf("  position: %s\n", buf);
}

static bool in_list(const dl_Move *list, long n, const dl_Move *m)
{
    return bsearch(m, list, (size_t)n, sizeof *m, bf_move_cmp) != NULL;
}

typedef struct {
    long positions, crowded, with_decls, mover_owns, moves, refusals_checked, direct_checked, cut, counted;
    long bad_positions;
    double t_engine, t_bf, t_refusal; /* seconds */
    int lines; /* detail lines printed for the current bad position */
} Stats;

/* Notes a failure in this position; the first MAX_REPORTS bad positions
 * are printed (position string, then up to 40 lines). Returns whether the
 * caller should print its details too. */
static bool report(Stats *st, bool *bad, const dl_State *s, const char *what)
{
    if (!*bad) {
        *bad = true;
        st->bad_positions++;
        st->lines = 0;
        if (st->bad_positions <= MAX_REPORTS) {
            printf("MISMATCH #%ld:\n", st->bad_positions);
            print_position(s);
        }
    }
    if (st->bad_positions > MAX_REPORTS || st->lines++ >= 40) return false;
    printf("  %s\n", what);
    return true;
}

/* A candidate near the legal ones: a random card, kind and subset of the
 * table, with the value that kind would declare. */
static dl_Move random_candidate(const dl_State *s, Rng *g)
{
    dl_Move m = {0, 0, 0, 0};
    m.card = (uint8_t)pick(g, s->hand[s->turn]);
    m.kind = (uint8_t)rint_(g, DL_GROUP + 1);
    int pct = 10 + rint_(g, 40), total = dl_value(m.card);
    if (m.kind != DL_LAY) {
        for (dl_Set c = s->loose; c; c &= c - 1)
            if (chance(g, pct)) {
                m.take |= DL_BIT(dl_first(c));
                total += dl_value(dl_first(c));
            }
        for (int i = 0; i < s->ndecl; i++)
            if (chance(g, pct)) {
                m.take |= DL_DECL_BIT(i);
                total += s->decl[i].value;
            }
    }
    if (m.kind == DL_PLAIN || m.kind == DL_RAISE)
        m.value = (uint8_t)(total > 200 ? 200 : total);
    if (m.kind == DL_GROUP) {
        int divs[10], n = 0;
        for (int v = 1; v <= 10; v++)
            if (total % v == 0 && total >= 2 * v) divs[n++] = v;
        m.value = (uint8_t)(n && chance(g, 80) ? divs[rint_(g, n)] : 1 + rint_(g, 10));
    }
    return m;
}

/* A legal move changed a little: one table item more or less, another
 * value or another kind. */
static dl_Move mutate(const dl_State *s, const dl_Move *legal_move, Rng *g)
{
    dl_Move m = *legal_move;
    switch (rint_(g, 4)) {
    case 0: {
        int nitems = dl_count(s->loose) + s->ndecl;
        if (!nitems) break;
        int k = rint_(g, nitems);
        for (dl_Set c = s->loose; c; c &= c - 1)
            if (k-- == 0) m.take ^= DL_BIT(dl_first(c));
        for (int i = 0; i < s->ndecl; i++)
            if (k-- == 0) m.take ^= DL_DECL_BIT(i);
        break;
    }
    case 1:
        if (m.kind >= DL_PLAIN) m.value = (uint8_t)(m.value + (chance(g, 50) ? 1 : -1));
        break;
    case 2:
        m.kind = (uint8_t)rint_(g, DL_GROUP + 1);
        if (m.kind <= DL_CAPTURE) m.value = 0;
        break;
    default:
        m.card = (uint8_t)pick(g, s->hand[s->turn]);
        break;
    }
    if (m.kind == DL_LAY) m.take = 0;
    return m;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void check_position(const dl_State *s, dl_MoveList *l, dl_Move *bf,
                           Rng *g, Stats *st)
{
    char why_buf[400], line[600];
    bool bad = false;
    const char *broken = dl_check_state(s);
    st->positions++;
    if (dl_count(s->loose) + s->ndecl >= 12) st->crowded++;
    if (s->ndecl) st->with_decls++;
    if (dl_owned_decl(s, s->turn) >= 0) st->mover_owns++;
    if (broken) {
        snprintf(line, sizeof line, "generator made a broken state: %s", broken);
        report(st, &bad, s, line);
        return;
    }

    double t0 = now();
    long ne = dl_legal_moves(s, l);
    double t1 = now();
    long nb = bf_legal_moves(s, bf, MAX_MOVES);
    double t2 = now();
    st->t_engine += t1 - t0;
    st->t_bf += t2 - t1;
    if (ne < 0 || nb < 0) {
        snprintf(line, sizeof line, "a generator failed: engine %ld, brute force %ld",
                 ne, nb);
        report(st, &bad, s, line);
        return;
    }
    st->moves += nb;
    if (nb == 0) /* D19, D20: every position to move has a legal move */
        report(st, &bad, s, "no legal move at all by RULES.md (D20)");
    qsort(l->m, l->n, sizeof *l->m, bf_move_cmp);
    qsort(bf, (size_t)nb, sizeof *bf, bf_move_cmp);

    /* the engine's list holds no duplicates (D11: one move per item set) */
    for (size_t i = 1; i < l->n; i++)
        if (bf_move_cmp(&l->m[i - 1], &l->m[i]) == 0 &&
            report(st, &bad, s, "engine lists a move twice:"))
            print_move(s, "dup  ", &l->m[i]);

    /* equal as sets; a list cut at its bound (moves.h) holds a part of
     * the legal moves, each one legal, and says so */
    if (l->cut) st->cut++;
    if ((long)l->n < nb && !l->cut && report(st, &bad, s, "the engine lists fewer moves but says "
                                                           "nothing was cut"))
        printf("    listed %zu, legal %ld\n", l->n, nb);
    for (long i = 0; i < nb && !l->cut; i++)
        if (!in_list(l->m, (long)l->n, &bf[i]) &&
            report(st, &bad, s, "legal by RULES.md, missing from the engine:"))
            print_move(s, "miss ", &bf[i]);
    for (size_t i = 0; i < l->n; i++)
        if (!in_list(bf, nb, &l->m[i]) &&
            report(st, &bad, s, "listed by the engine, illegal by RULES.md:"))
            print_move(s, "extra", &l->m[i]);

    /* the count made without listing is the number of legal moves, on
     * every other position (it costs a few checks per shape of move) */
    if (st->positions % 2 == 0) {
        dl_MoveCount c = dl_count_moves(s, 1000000);
        st->counted++;
        if ((!c.exact || c.count != (uint64_t)nb) &&
            report(st, &bad, s, "dl_count_moves disagrees with the brute force:"))
            printf("    counted %llu (%s), legal %ld\n", (unsigned long long)c.count,
                   c.exact ? "exact" : "a lower bound", nb);
    }

    /* the direct check (legal.c) agrees with the list on every legal move
     * and on candidates near them and far from them */
    for (long i = 0; i < nb; i++)
        if (dl_check_move(s, &bf[i]) != DL_CHECK_LEGAL &&
            report(st, &bad, s, "legal by RULES.md, refused by dl_check_move:"))
            print_move(s, "legal", &bf[i]);
    for (int k = 0; k < DIRECT_SAMPLE; k++) {
        dl_Move m = nb && k % 2 ? mutate(s, &bf[rint_(g, (int)nb)], g) : random_candidate(s, g);
        bool listed = in_list(bf, nb, &m);
        dl_CheckResult c = dl_check_move(s, &m);
        st->direct_checked++;
        if ((c == DL_CHECK_LEGAL) != listed &&
            report(st, &bad, s, listed ? "dl_check_move refuses a legal candidate:"
                                       : "dl_check_move accepts an illegal candidate:"))
            print_move(s, "cand ", &m);
    }

    /* dl_refusal costs about a full move generation per call, so it is
     * asked on every position with few moves and every 4th of the rest:
     * all legal moves up to FULL_REFUSALS of them (else that many at
     * random), and REFUSED_SAMPLE illegal candidates. */
    if (nb > 16 && st->positions % 4) return;
    t0 = now();
    for (long k = 0; k < nb && k < FULL_REFUSALS; k++) {
        long i = nb <= FULL_REFUSALS ? k : rint_(g, (int)nb);
        const char *why = dl_refusal(s, &bf[i], why_buf, sizeof why_buf);
        st->refusals_checked++;
        if (why) {
            snprintf(line, sizeof line, "dl_refusal refuses a legal move: %s", why);
            if (report(st, &bad, s, line)) print_move(s, "legal", &bf[i]);
        }
    }

    /* ... and refuses illegal candidates, naming a rule */
    for (int k = 0; k < REFUSED_SAMPLE; k++) {
        dl_Move m = nb && k % 2 ? mutate(s, &bf[rint_(g, (int)nb)], g)
                                : random_candidate(s, g);
        if (in_list(bf, nb, &m)) continue;
        const char *why = dl_refusal(s, &m, why_buf, sizeof why_buf);
        st->refusals_checked++;
        if (!is_rule_id_prefix(why)) {
            snprintf(line, sizeof line,
                     "dl_refusal should refuse with a rule id, got: %s",
                     why ? why : "NULL (accepted)");
            if (report(st, &bad, s, line)) print_move(s, "cand ", &m);
        }
    }
    st->t_refusal += now() - t0;
}

static long positions_per_config(void)
{
    const char *e = getenv("DL_CROSSCHECK_N");
    long n = e ? atol(e) : 100000;
    return n > 0 ? n : 100000;
}

static void crosscheck(const char *name, const dl_Rules *r, uint64_t seed)
{
    const long n = positions_per_config();
    const char *e = getenv("DL_CROSSCHECK_SEED");
    Rng g = {seed ^ (e ? strtoull(e, NULL, 0) : 0)};
    dl_MoveList l;
    dl_Move *bf = malloc(sizeof *bf * MAX_MOVES);
    Stats st = {0};
    double t0 = now();
    assert_non_null(bf);
    assert_null(dl_rules_check(r));
    dl_movelist_init(&l);
    for (long i = 0; i < n; i++) {
        dl_State s = random_state(r, &g);
        check_position(&s, &l, bf, &g, &st);
    }
    dl_movelist_free(&l);
    free(bf);
    printf("  %-22s %ld positions (%ld with 12+ items, %ld with declarations, "
           "%ld mover owns one, %ld lists cut), %.1f moves each, %ld refusals and %ld direct checks, "
           "%ld counts, "
           "%.1f s (engine %.1f, brute force %.1f, refusals %.1f)\n",
           name, st.positions, st.crowded, st.with_decls, st.mover_owns, st.cut,
           (double)st.moves / (double)st.positions, st.refusals_checked, st.direct_checked, st.counted,
           now() - t0, st.t_engine, st.t_bf, st.t_refusal);
    if (st.bad_positions)
        fail_msg("%s: %ld of %ld positions disagree with RULES.md (first %d "
                 "printed above)",
                 name, st.bad_positions, st.positions, MAX_REPORTS);
}

/* ---- the brute force itself on RULES.md's worked examples ----------------
 * The cross-check is only as good as its oracle, so the oracle is pinned to
 * the examples first (independently of the engine's generator; only the
 * position and move parsers are shared). */

static dl_Move g_list[MAX_MOVES];

static dl_Move parse_move(const dl_State *s, const char *move)
{
    dl_Move m;
    char err[300];
    if (dl_move_parse(s, move, &m, err, sizeof err))
        fail_msg("move '%s' does not parse: %s", move, err);
    return m;
}

static long bf_all(const dl_State *s)
{
    long n = bf_legal_moves(s, g_list, MAX_MOVES);
    assert_true(n >= 0);
    return n;
}

/* Is the move legal by the brute force? */
static bool bf_has(const dl_State *s, const char *move)
{
    dl_Move m = parse_move(s, move);
    long n = bf_all(s);
    for (long i = 0; i < n; i++)
        if (dl_move_eq(&g_list[i], &m)) return true;
    return false;
}

/* Number of brute-force moves of this kind with this card. */
static long bf_count(const dl_State *s, const char *card, int kind)
{
    int len, c = dl_card_parse(card, &len);
    long n = bf_all(s), k = 0;
    for (long i = 0; i < n; i++)
        if (g_list[i].card == c && g_list[i].kind == kind) k++;
    return k;
}

/* Examples 1-13 of RULES.md and the declarer's obligation (D9-D19). */
static void test_D11_D19_bruteforce_worked_examples(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s;
    /* 1 (D11): several parts at once; a set that is no sum of parts is no
     * capture */
    s = pos(&r, "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c");
    assert_true(bf_has(&s, "8h x 8c 6d 5s 3h 2c"));
    assert_true(bf_has(&s, "8h x 5s 3h"));
    assert_true(bf_has(&s, "8h x 8c 5s 3h"));
    assert_false(bf_has(&s, "8h x 6d 5s"));
    /* 2 (D15, D14) */
    s = pos(&r, "hands=3h 8c / 9c; table=5s");
    assert_true(bf_has(&s, "3h + 5s = 8"));
    s = pos(&r, "hands=3h 9d / 9c; table=5s");
    assert_false(bf_has(&s, "3h + 5s = 8"));
    /* 3 */
    s = pos(&r, "hands=6h 10c / 9c; table=Ac 3d");
    assert_true(bf_has(&s, "6h + Ac 3d = 10"));
    /* 4 (D16) */
    s = pos(&r, "hands=5h 9c / 4c; table=P4@1(Ac+3d)");
    assert_true(bf_has(&s, "5h + P4@1 = 9"));
    s = pos(&r, "hands=5h 10c / 4c; table=P4@1(Ac+3d)");
    assert_false(bf_has(&s, "5h + P4@1 = 9"));
    /* 5, 6, 7 (D17) */
    s = pos(&r, "hands=5h 5c / 9c; table=5s");
    assert_true(bf_has(&s, "5h + 5s = G5"));
    s = pos(&r, "hands=6h 6c / 9c; table=6s 4d 2c");
    assert_true(bf_has(&s, "6h + 2c 4d 6s = G6"));
    s = pos(&r, "hands=6h 8c / 9c; table=8s 2c");
    assert_true(bf_has(&s, "6h + 2c 8s = G8"));
    assert_false(bf_has(&s, "6h + 2c = G8")); /* C8: one component */
    /* 8: raise an opponent's plain 8 with an ace, grouped with a 9 */
    s = pos(&r, "hands=Ah 9c / 8d; table=9s P8@1(5c+3c)");
    assert_true(bf_has(&s, "Ah + 9s P8@1 = G9"));
    /* 9 (C7): the owner of a plain 7 raises the other's 5 into a group
     * with their own 7, but may not raise it plainly (D19) */
    s = pos(&r, "hands=2h 7h / 5s; table=P7@0(4c+3c) P5@1(Ac+4d)");
    assert_true(bf_has(&s, "2h + P7@0 P5@1 = G7"));
    assert_false(bf_has(&s, "2h + P5@1 = 7"));
    assert_false(bf_has(&s, "2h lay"));
    /* 10: add a 6 to one's own plain 6 */
    s = pos(&r, "hands=6h 6c / 9c; table=P6@0(4c+2c)");
    assert_true(bf_has(&s, "6h + P6@0 = G6"));
    /* 11: the long sequence, step by step */
    s = pos(&r, "hands=Ah 8c 8d / 9c; table=2c 3d 4h 8s");
    assert_true(bf_has(&s, "Ah + 3d 4h 8s = G8"));
    s = pos(&r, "hands=2d 7h 8c 8d / 6s; table=G8@0(Ah+3d+4h,8s) P6@1(2c+4d)");
    assert_true(bf_has(&s, "2d + G8@0 P6@1 = G8"));
    s = pos(&r, "hands=7h 8c 8d / 9c; table=Ac G8@0(Ah+3d+4h,8s,2c+2d+4d)");
    assert_true(bf_has(&s, "7h + Ac G8@0 = G8"));
    assert_false(bf_has(&s, "7h lay"));
    s = pos(&r, "hands=8c 8d / 9c; table=G8@0(Ah+3d+4h,8s,2c+2d+4d,Ac+7h)");
    assert_true(bf_has(&s, "8c + G8@0 = G8"));
    assert_true(bf_has(&s, "8c x G8@0"));
    /* 12: a declarer may not lay; a J may not be laid onto a J (D10) */
    s = pos(&r, "hands=2h 8h / 9c; table=5s 9s Jd P8@0(5c+3c)");
    assert_false(bf_has(&s, "2h lay"));
    assert_true(bf_has(&s, "8h x P8@0"));
    s = pos(&r, "hands=Jh / Qc; table=10c Js");
    assert_false(bf_has(&s, "Jh lay"));
    assert_true(bf_has(&s, "Jh x Js"));
    assert_int_equal(bf_all(&s), 1);
    /* 13 (D18) */
    s = pos(&r, "hands=10h 9h / 9s; table=Ac 4c 5c 9d G9@1(9c,4d+5d)");
    assert_false(bf_has(&s, "10h x Ac G9@1"));
    assert_true(bf_has(&s, "9h x 9d G9@1"));
    assert_true(bf_has(&s, "9h x 4c 5c G9@1"));
    assert_false(bf_has(&s, "9h + 9d G9@1 = G9")); /* holds no other 9 */
    /* D12: a face card takes exactly one of its rank */
    s = pos(&r, "hands=Kh 2c / 9c; table=Kc Ks");
    assert_true(bf_has(&s, "Kh x Kc"));
    assert_false(bf_has(&s, "Kh x Kc Ks"));
    /* D19: an owner keeps a card of the value unless capturing the
     * declaration */
    s = pos(&r, "hands=8h 2d / 9c; table=8s P8@0(5c+3c)");
    assert_false(bf_has(&s, "8h x 8s"));
    assert_true(bf_has(&s, "8h x 8s P8@0"));
    assert_false(bf_has(&s, "2d + 8s P8@0 = G8")); /* D14: no other 8 */
    /* D16, C9: never a partner's plain declaration */
    dl_Rules r4 = diloti4_rules();
    s = pos(&r4, "hands=2h 7h / 5c / 5s / 9d; table=P5@2(Ac+4d) P5@1(Ad+4h)");
    assert_true(bf_has(&s, "2h + P5@1 = 7"));
    assert_false(bf_has(&s, "2h + P5@2 = 7"));
}

/* Example 14 and the variants' examples (C1-C5, V-soy). */
static void test_C1_C5_bruteforce_variant_examples(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s;
    /* 14, C1: maximal, not maximum */
    r.forced_capture = true;
    s = pos(&r, "hands=9h 2d / 7c; table=Ac 3d 4h 5s 9c");
    assert_true(bf_has(&s, "9h x Ac 3d 5s 9c"));
    assert_true(bf_has(&s, "9h x 4h 5s 9c"));
    assert_int_equal(bf_count(&s, "9h", DL_CAPTURE), 2);
    assert_int_equal(bf_count(&s, "9h", DL_LAY), 0);
    s = pos(&r, "hands=6h 2d / 7c; table=Ac 5d 2c 4h 3s 3d");
    assert_true(bf_has(&s, "6h x Ac 2c 3s"));
    assert_false(bf_has(&s, "6h x Ac 5d"));
    /* C2: the fourth queen takes all three */
    r = diloti_rules();
    r.three_face_cards = true;
    s = pos(&r, "hands=Qh 2d / 7c; table=Qc Qd Qs");
    assert_true(bf_has(&s, "Qh x Qc Qd Qs"));
    assert_false(bf_has(&s, "Qh x Qc"));
    /* a: an opponent's plain 7 with an ace as a component of 8s (C3) */
    r = diloti_rules();
    s = pos(&r, "hands=8h 8c / 7s; table=Ad P7@1(4c+3c)");
    assert_false(bf_has(&s, "8h + Ad P7@1 = G8"));
    r.liberal_group = true;
    s = pos(&r, "hands=8h 8c / 7s; table=Ad P7@1(4c+3c)");
    assert_true(bf_has(&s, "8h + Ad P7@1 = G8"));
    /* b: 3 + plain 5 + 2 added to one's own group of 10s (C3) */
    s = pos(&r, "hands=3h 10h / 5s; table=2c G10@0(10c,4d+6d) P5@1(Ac+4c)");
    assert_true(bf_has(&s, "3h + 2c G10@0 P5@1 = G10"));
    /* c: raising with a loose card as well (C4) */
    r = diloti_rules();
    s = pos(&r, "hands=Ah 10h / 6s; table=3c P6@1(4c+2c)");
    assert_false(bf_has(&s, "Ah + 3c P6@1 = 10"));
    r.liberal_raise = true;
    s = pos(&r, "hands=Ah 10h / 6s; table=3c P6@1(4c+2c)");
    assert_true(bf_has(&s, "Ah + 3c P6@1 = 10"));
    /* d, e: plain declarations inside a capture's combination (C5) */
    r = diloti_rules();
    s = pos(&r, "hands=6h 2d / 5s; table=Ac P5@1(2c+3c)");
    assert_false(bf_has(&s, "6h x Ac P5@1"));
    r.liberal_capture = true;
    s = pos(&r, "hands=6h 2d / 5s; table=Ac P5@1(2c+3c)");
    assert_true(bf_has(&s, "6h x Ac P5@1"));
    s = pos(&r, "hands=9h 9d / 7s; table=2c P9@0(4c+5c) P7@1(3c+4d)");
    assert_true(bf_has(&s, "9h x 2c P9@0 P7@1"));
    /* ... a group never does (C5) */
    s = pos(&r, "hands=10h 2d / 9s; table=Ac G9@1(9c,4d+5d)");
    assert_false(bf_has(&s, "10h x Ac G9@1"));
    /* V-soy: nothing added to a soy */
    r = diloti_rules();
    s = pos(&r, "hands=5h 5d / 5s; table=5c G5@1(2c+3c,Ac+4c)");
    assert_true(bf_has(&s, "5h + 5c G5@1 = G5"));
    s = pos(&r, "hands=5h 5d / 9s; table=4d Ad G5@0(5c,5s)");
    assert_true(bf_has(&s, "5h + Ad 4d G5@0 = G5"));
    r.soy = true;
    s = pos(&r, "hands=5h 5d / 9s; table=4d Ad G5@0(5c,5s)");
    assert_false(bf_has(&s, "5h + Ad 4d G5@0 = G5"));
    assert_true(bf_has(&s, "5h x Ad 4d G5@0"));
    s = pos(&r, "hands=5h 5d / 5s; table=5c G5@1(2c+3c,Ac+4c)");
    assert_true(bf_has(&s, "5h + 5c G5@1 = G5"));
    /* K2: exactly one combination, face cards laid freely */
    r = kontsina_rules();
    s = pos(&r, "hands=8h Kh / 9c; table=8c 6d 5s 3h 2c Kc");
    assert_true(bf_has(&s, "8h x 8c"));
    assert_true(bf_has(&s, "8h x 5s 3h"));
    assert_false(bf_has(&s, "8h x 8c 5s 3h"));
    assert_true(bf_has(&s, "Kh lay"));
    assert_true(bf_has(&s, "Kh x Kc"));
}

/* ---- the configurations -------------------------------------------------- */

/* D9-D19 under the default rules, two players. */
static void test_D11_D17_D19_crosscheck_default(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    crosscheck("diloti", &r, 0xD110);
}

/* D7, D16, C9: four players, partners' declarations never raised. */
static void test_D16_C9_crosscheck_4p_teams(void **state)
{
    (void)state;
    dl_Rules r = diloti4_rules();
    crosscheck("diloti 4p teams", &r, 0x4444);
}

/* K2: one combination, face cards laid freely, no declarations. */
static void test_K2_crosscheck_kontsina(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    crosscheck("kontsina", &r, 0x4B4B);
}

static void test_C3_crosscheck_liberal_group(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    r.liberal_group = true;
    crosscheck("V-liberal-group", &r, 0xC3);
}

static void test_C4_crosscheck_liberal_raise(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    r.liberal_raise = true;
    crosscheck("V-liberal-raise", &r, 0xC4);
}

static void test_C5_crosscheck_liberal_capture(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    r.liberal_capture = true;
    crosscheck("V-liberal-capture", &r, 0xC5);
}

static void test_Vsoy_crosscheck_soy(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    r.soy = true;
    crosscheck("V-soy", &r, 0x50E);
}

static void test_C1_crosscheck_forced_capture(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    r.forced_capture = true;
    crosscheck("V-forced-capture", &r, 0xC1);
}

static void test_C2_crosscheck_three_face_cards(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    r.three_face_cards = true;
    crosscheck("V-three-face-cards", &r, 0xC2);
}

static void test_C3_C4_C5_crosscheck_all_liberal(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    r.liberal_group = r.liberal_raise = r.liberal_capture = true;
    crosscheck("all liberal", &r, 0xA11);
}

/* Everything that changes move generation at once, four players in
 * partnerships (C1 with C5: a plain declaration inside a part left over). */
static void test_C1_C5_crosscheck_all_variants_4p(void **state)
{
    (void)state;
    dl_Rules r = diloti4_rules();
    r.liberal_group = r.liberal_raise = r.liberal_capture = true;
    r.soy = r.forced_capture = r.three_face_cards = true;
    crosscheck("all variants 4p teams", &r, 0xA114);
}

/* K2 with C1 (in Kontsina the variant only means "must capture") and
 * V-three-face-cards (an exception to D12, so not to K2: read as not
 * changing Kontsina's one-card face captures). */
static void test_K2_C1_crosscheck_kontsina_variants(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    r.forced_capture = r.three_face_cards = true;
    crosscheck("kontsina variants", &r, 0x4B4C);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_D11_D19_bruteforce_worked_examples),
        cmocka_unit_test(test_C1_C5_bruteforce_variant_examples),
        cmocka_unit_test(test_D11_D17_D19_crosscheck_default),
        cmocka_unit_test(test_D16_C9_crosscheck_4p_teams),
        cmocka_unit_test(test_K2_crosscheck_kontsina),
        cmocka_unit_test(test_C3_crosscheck_liberal_group),
        cmocka_unit_test(test_C4_crosscheck_liberal_raise),
        cmocka_unit_test(test_C5_crosscheck_liberal_capture),
        cmocka_unit_test(test_Vsoy_crosscheck_soy),
        cmocka_unit_test(test_C1_crosscheck_forced_capture),
        cmocka_unit_test(test_C2_crosscheck_three_face_cards),
        cmocka_unit_test(test_C3_C4_C5_crosscheck_all_liberal),
        cmocka_unit_test(test_C1_C5_crosscheck_all_variants_4p),
        cmocka_unit_test(test_K2_C1_crosscheck_kontsina_variants),
    };
    return cmocka_run_group_tests_name("crosscheck", tests, NULL, NULL);
}
