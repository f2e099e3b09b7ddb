/* Move-count regression ("perft"): for fixed seeds, the number of legal
 * moves at every ply of a deterministic playout, and leaf counts of an
 * exhaustive search to a small depth from fixed positions. The numbers
 * live in tests/golden/perft.txt; `make golden` rewrites it after a
 * deliberate rules change (review the diff!). The playout picks moves from
 * the list sorted canonically, so only the set of moves matters, not the
 * order the generator emits them in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "configs.h"
#include "testutil.h"

#define GOLDEN "tests/golden/perft.txt"
/* test_move_order_is_fixed's signature. */
#define MOVE_ORDER_SIGNATURE 0xf1ede0c6652b6837ULL

static int cmp_move(const void *a, const void *b)
{
    const dl_Move *x = a, *y = b;
    if (x->kind != y->kind) return x->kind - y->kind;
    if (x->card != y->card) return x->card - y->card;
    if (x->value != y->value) return x->value - y->value;
    return x->take < y->take ? -1 : x->take > y->take;
}

static void add(char **buf, size_t *n, size_t *cap, const char *fmt, long v, const char *s)
{
    char tmp[256];
    int k = s ? snprintf(tmp, sizeof tmp, fmt, s, v) : snprintf(tmp, sizeof tmp, fmt, v);
    if (*n + (size_t)k + 1 > *cap) {
        *cap = (*cap + (size_t)k + 1) * 2;
        *buf = realloc(*buf, *cap);
        assert_non_null(*buf);
    }
    memcpy(*buf + *n, tmp, (size_t)k + 1);
    *n += (size_t)k;
}

static void playout(const dl_Rules *r, uint64_t seed, char **buf, size_t *n, size_t *cap)
{
    dl_State s;
    dl_MoveList l;
    dl_Rng pick;
    dl_movelist_init(&l);
    dl_rng_seed(&pick, seed * 7919);
    assert_null(dl_new_match(&s, r, seed, 0));
    add(buf, n, cap, " seed %ld:", (long)seed, NULL);
    while (s.phase == DL_PHASE_PLAY || s.phase == DL_PHASE_CLAIM) {
        long k = dl_legal_moves(&s, &l);
        assert_true(k > 0);
        qsort(l.m, l.n, sizeof *l.m, cmp_move);
        add(buf, n, cap, " %ld", k, NULL);
        dl_apply(&s, &l.m[dl_rng_below(&pick, (uint32_t)k)], NULL);
    }
    add(buf, n, cap, "\n", 0, NULL);
    dl_movelist_free(&l);
}

static long perft(const dl_State *s, int depth)
{
    if (depth == 0 || (s->phase != DL_PHASE_PLAY && s->phase != DL_PHASE_CLAIM)) return 1;
    dl_MoveList l;
    dl_movelist_init(&l);
    long k = dl_legal_moves(s, &l), leaves = 0;
    assert_true(k > 0);
    for (long i = 0; i < k; i++) {
        dl_State c = *s;
        dl_apply(&c, &l.m[i], NULL);
        leaves += perft(&c, depth - 1);
    }
    dl_movelist_free(&l);
    return leaves;
}

/* Positions for the leaf counts: crowded tables, declarations, groups. */
static const char *const POSITIONS[] = {
    "hands=8h 2d 6c 3s Ah 5d / 9c 4d 7h 2h 10c 8s; table=8c 6d 5s 3h 2c",
    "hands=Ah 6s 4h 9d 2s 8d / 2h 7c 8h 4c 3c 10d; table=2d 3d 4s 8c",
    "hands=8h 2s 9d 5c 4h / 7c 8d Ac 6h 3c 9s; table=Ah 3s 4d 2c 7s 5h 6d Ks Jd; "
    "pack=?",
    "turn=1; hands=8h 2s 9d 7d / 7c 8d 5h Ac 6h; table=3s Jh P7@0(4d+3d) 9c 2h; pack=?",
    "hands=As 6h 9d 10s 5c 3h / 7c 8d 2h 4s 9s Qd; table=G9@1(4d+5d,9c) Ah 8c 2c 4c",
    /* a soy, and three queens for V-three-face-cards */
    "hands=Qs 5d 9s 3h Ac / 4h 2c 8d 6s Ah; table=Qd Qc Qh G4@1(4d,4c) 2d 3d",
};

/* Leaf counts only where move generation differs. */
static bool leaf_config(const TestConfig *c)
{
    return !(c->rules.capture == DL_CAPTURE_ONE || strstr(c->name, "redeal") ||
             strstr(c->name, "claim") || strstr(c->name, "peeks") || strstr(c->name, "xeri") ||
             strstr(c->name, "seed001"));
}

static void collect(char **buf, size_t *n, size_t *cap)
{
    TestConfig cfg[32];
    int nc = test_configs(cfg, 32);
    for (int i = 0; i < nc; i++) {
        for (int players = 2; players <= 4; players += 2) {
            dl_Rules r = cfg[i].rules;
            dl_rules_set_players(&r, players, players == 4);
            add(buf, n, cap, "%s, %ld players\n", players, cfg[i].name);
            for (uint64_t seed = 1; seed <= 3; seed++) playout(&r, seed, buf, n, cap);
        }
    }
    for (int i = 0; i < nc; i++) {
        dl_Rules r = cfg[i].rules;
        if (!leaf_config(&cfg[i])) continue;
        for (size_t p = 0; p < sizeof POSITIONS / sizeof *POSITIONS; p++) {
            dl_State s = pos(&r, POSITIONS[p]);
            add(buf, n, cap, "perft %s", 0, cfg[i].name);
            add(buf, n, cap, " position %ld:", (long)p + 1, NULL);
            for (int d = 1; d <= 4; d++) add(buf, n, cap, " %ld", perft(&s, d), NULL);
            add(buf, n, cap, "\n", 0, NULL);
        }
    }
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)len + 1);
    if (b && fread(b, 1, (size_t)len, f) != (size_t)len) len = 0;
    if (b) b[len] = '\0';
    fclose(f);
    return b;
}

static void test_D11_D17_move_counts_match_golden(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    add(&buf, &n, &cap, "%s", 0, "# generated by tests/c/test_perft.c; `make golden` rewrites\n");
    collect(&buf, &n, &cap);
    if (getenv("DL_GOLDEN_WRITE")) {
        FILE *f = fopen(GOLDEN, "wb");
        assert_non_null(f);
        fputs(buf, f);
        fclose(f);
        printf("  wrote %s\n", GOLDEN);
    }
    char *want = read_file(GOLDEN);
    if (!want) fail_msg("cannot read %s (run tests from the top directory)", GOLDEN);
    if (strcmp(want, buf) != 0) {
        /* Show the first differing line. */
        const char *a = want, *b = buf;
        int line = 1;
        while (*a && *a == *b) {
            if (*a == '\n') line++;
            a++, b++;
        }
        fail_msg("move counts differ from %s at line %d:\n  golden: %.160s\n  now:    %.160s",
                 GOLDEN, line, a, b);
    }
    free(want);
    free(buf);
}

/* The order of the list is fixed too (issue 29): the search and the bench
 * pick moves by their index, so a generator made faster must list the
 * same moves in the same order, or the AIs play differently. A signature
 * of every list, in order, along unsorted random playouts of every
 * configuration and at the crowded positions above, whole and with the
 * smallest and the search's shares; a deliberate change of the order
 * rewrites the number. */
static uint64_t list_mix(uint64_t h, const dl_MoveList *l, long k)
{
    h = (h ^ (uint64_t)k ^ (uint64_t)l->cut << 40) * 0x100000001b3ULL;
    for (long i = 0; i < k; i++) {
        const dl_Move *m = &l->m[i];
        h = (h ^ m->take) * 0x100000001b3ULL;
        h = (h ^ (m->kind | (uint64_t)m->card << 8 | (uint64_t)m->value << 16)) * 0x100000001b3ULL;
    }
    return h;
}

static uint64_t lists_mix(uint64_t h, const dl_State *s, dl_MoveList *l)
{
    h = list_mix(h, l, dl_legal_moves_share(s, l, DL_BATCH_MIN));
    h = list_mix(h, l, dl_legal_moves_share(s, l, DL_SEARCH_SHARE));
    return list_mix(h, l, dl_legal_moves(s, l));
}

static void test_move_order_is_fixed(void **state)
{
    (void)state;
    TestConfig cfg[32];
    int nc = test_configs(cfg, 32);
    uint64_t h = 0xcbf29ce484222325ULL;
    dl_MoveList l;
    dl_movelist_init(&l);
    for (int i = 0; i < nc; i++) {
        for (int players = 2; players <= 4; players += 2) {
            dl_Rules r = cfg[i].rules;
            dl_rules_set_players(&r, players, players == 4);
            for (uint64_t seed = 1; seed <= 3; seed++) {
                dl_State s;
                dl_Rng pick;
                dl_rng_seed(&pick, seed * 7919);
                assert_null(dl_new_match(&s, &r, seed, 0));
                while (s.phase == DL_PHASE_PLAY || s.phase == DL_PHASE_CLAIM) {
                    h = lists_mix(h, &s, &l);
                    long k = dl_legal_moves(&s, &l);
                    assert_true(k > 0);
                    dl_apply(&s, &l.m[dl_rng_below(&pick, (uint32_t)k)], NULL);
                }
            }
        }
        for (size_t p = 0; leaf_config(&cfg[i]) && p < sizeof POSITIONS / sizeof *POSITIONS; p++) {
            dl_State s = pos(&cfg[i].rules, POSITIONS[p]);
            h = lists_mix(h, &s, &l);
        }
    }
    dl_movelist_free(&l);
    printf("  move order signature %016llx\n", (unsigned long long)h);
    assert_true(h == MOVE_ORDER_SIGNATURE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_D11_D17_move_counts_match_golden),
        cmocka_unit_test(test_move_order_is_fixed),
    };
    return cmocka_run_group_tests_name("perft", tests, NULL, NULL);
}
