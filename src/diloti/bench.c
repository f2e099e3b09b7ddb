#define _POSIX_C_SOURCE 199309L
/* `make bench`: random full-round playouts with the full legal-move list
 * generated at every ply. Prints the median of 5 runs and a signature (the
 * total number of legal moves seen), which must not change unless the
 * rules or the generator do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "apply.h"
#include "deal.h"
#include "game.h"
#include "search.h"

/* The iteration budgets of lua/ai/personalities/expert.lua and lua/ai/personalities/master.lua, and
 * master's reading of the play with four players (ctx.search's infer). */
#ifndef DL_BENCH_EXPERT
#define DL_BENCH_EXPERT 25000
#endif
#ifndef DL_BENCH_MASTER
#define DL_BENCH_MASTER 75000
#endif
#ifndef DL_BENCH_MASTER_INFER
#define DL_BENCH_MASTER_INFER 2.0
#endif

typedef struct {
    double rounds_per_s;
    long long plies, moves;
} Run;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static Run run(const dl_Rules *r, int rounds, uint64_t seed)
{
    dl_State s;
    dl_MoveList l;
    dl_Rng pick;
    Run out = {0, 0, 0};
    dl_movelist_init(&l);
    dl_rng_seed(&pick, seed);
    dl_new_match(&s, r, seed, 0);
    double t0 = now();
    for (int i = 0; i < rounds; i++) {
        dl_deal_round(&s);
        while (s.phase == DL_PHASE_PLAY || s.phase == DL_PHASE_CLAIM) {
            long n = dl_legal_moves(&s, &l);
            if (n <= 0) {
                fprintf(stderr, "bench: no legal move (engine error)\n");
                exit(1);
            }
            out.moves += n;
            out.plies++;
            dl_apply(&s, &l.m[dl_rng_below(&pick, (uint32_t)n)], NULL);
        }
        s.phase = DL_PHASE_PLAY;
    }
    out.rounds_per_s = rounds / (now() - t0);
    dl_movelist_free(&l);
    return out;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void bench(const char *name, const dl_Rules *r, int rounds)
{
    double v[5];
    Run last = {0, 0, 0};
    for (int i = 0; i < 5; i++) {
        last = run(r, rounds, 12345);
        v[i] = last.rounds_per_s;
    }
    qsort(v, 5, sizeof *v, cmp);
    printf("%-28s %10.0f rounds/s (median of 5; min %.0f, max %.0f)  %.2f moves/ply  "
           "signature %lld\n", name, v[2], v[0], v[4], (double)last.moves / last.plies,
           last.moves);
}

/* A signature of the moves a search chose (issue 29): a faster search must
 * choose exactly the same moves, with the same iterations and the same use
 * of its random generator, so this must not change unless its play does. */
static uint64_t choice_mix(uint64_t h, const dl_Move *m)
{
    const uint64_t f[4] = {m->take, m->kind, m->card, m->value};
    for (int i = 0; i < 4; i++) h = (h ^ f[i]) * 0x100000001b3ULL;
    return h;
}

/* Times per move, sorted before they are read. */
typedef struct {
    double t[400];
    int n;
} Times;

static void times_sort(Times *x) { qsort(x->t, (size_t)x->n, sizeof *x->t, cmp); }
static double pct_ms(const Times *x, int pct) { return x->t[(x->n * pct) / 100] * 1e3; }

/* Search timing over the positions of seeded games (one round each, the
 * search's own moves): iterations per second, and the median and 95th
 * percentile time per move. With infer, each search also reads the other
 * seats' moves of the deal (as master does); that reading is timed too. */
static void bench_search(const char *name, long iterations, int players, double infer)
{
    dl_Rules r;
    dl_rules_diloti(&r);
    dl_rules_set_players(&r, players, players == 4);
    static dl_Seen seen[DL_NCARDS];
    Times x = {.n = 0};
    long its = 0;
    double total = 0;
    uint64_t chosen = 0xcbf29ce484222325ULL;
    for (uint64_t seed = 1; seed <= 4 && x.n < 400; seed++) {
        const char *err = NULL;
        dl_Game *g = dl_game_new(&r, seed, 0, &err);
        if (!g) exit(1);
        while (g->s.phase == DL_PHASE_PLAY && x.n < 400) {
            double t0 = now();
            dl_View v;
            dl_view(&g->s, g->s.turn, &v);
            dl_SearchParams p;
            dl_search_defaults(&p);
            p.iterations = iterations;
            p.seed = seed;
            p.infer = infer;
            if (infer > 0) p.nseen = dl_seen_moves(g, g->s.turn, seen), p.seen = seen;
            dl_SearchResult res;
            if (dl_search(&v, &p, &res) != 0) exit(1);
            double dt = now() - t0;
            if (!res.exact) {
                x.t[x.n++] = dt;
                its += res.iterations;
                total += dt;
            }
            chosen = choice_mix(chosen, &res.best);
            char why[200];
            if (dl_game_play(g, &res.best, why, sizeof why)) exit(1);
        }
        dl_game_free(g);
    }
    times_sort(&x);
    printf("search %-22s %6ld iterations/move: median %.0f ms, 95th percentile %.0f ms, "
           "%.0f iterations/s (%d moves) choices %016llx\n", name, iterations, pct_ms(&x, 50),
           pct_ms(&x, 95), its / total, x.n, (unsigned long long)chosen);
}

/* The sampled exact endgame as counter uses it (four players, empty pack,
 * at most 12 cards in hands, 100 deals): time per move over the ends of
 * seeded rounds played by the policy. */
static void bench_sampled(void)
{
    dl_Rules r;
    dl_rules_diloti(&r);
    dl_rules_set_players(&r, 4, true);
    Times x = {.n = 0};
    long positions = 0;
    uint64_t chosen = 0xcbf29ce484222325ULL;
    dl_MoveList l;
    dl_movelist_init(&l);
    for (uint64_t seed = 1; seed <= 30 && x.n < 400; seed++) {
        dl_State s;
        dl_new_match(&s, &r, seed, 0);
        dl_Rng pick;
        dl_rng_seed(&pick, seed);
        while (s.phase == DL_PHASE_PLAY && x.n < 400) {
            int in_hands = 0;
            for (int i = 0; i < 4; i++) in_hands += dl_count(s.hand[i]);
            if (dl_legal_moves(&s, &l) <= 0) exit(1);
            size_t pickd = dl_policy_pick(&s, &l, &pick, 0.15);
            if (s.pack_pos == s.pack_len && in_hands <= 12 && l.n > 1) {
                dl_View v;
                dl_view(&s, s.turn, &v);
                dl_SearchParams p;
                dl_search_defaults(&p);
                p.iterations = 200;
                p.exact_cards = 12;
                p.deals = 100;
                p.seed = seed;
                dl_SearchResult res;
                double t0 = now();
                if (dl_search(&v, &p, &res) != 0) exit(1);
                chosen = choice_mix(chosen, &res.best);
                if (res.deals > 0) {
                    x.t[x.n++] = now() - t0;
                    positions += res.iterations;
                }
            }
            dl_apply(&s, &l.m[pickd], NULL);
        }
    }
    dl_movelist_free(&l);
    if (x.n == 0) return;
    times_sort(&x);
    printf("sampled endgame (counter), 4 players, 12 cards, 100 deals: median %.1f ms, 95th percentile %.1f ms, "
           "max %.1f ms, %.0f positions a move (%d moves) choices %016llx\n", pct_ms(&x, 50),
           pct_ms(&x, 95), x.t[x.n - 1] * 1e3, (double)positions / x.n, x.n,
           (unsigned long long)chosen);
}

int main(int argc, char **argv)
{
    /* argv[1]: rounds per run; argv[2] = 0: playouts only, no search;
     * argv[1] = "sampled": the sampled endgame alone. */
    if (argc > 1 && strcmp(argv[1], "sampled") == 0) {
        bench_sampled();
        return 0;
    }
    long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 50000;
    if (rounds < 10 || rounds > 100000000) rounds = 50000;
    dl_Rules r;
    dl_rules_diloti(&r);
    bench("diloti, 2 players", &r, (int)rounds);
    dl_rules_set_players(&r, 4, true);
    bench("diloti, 4 players", &r, (int)rounds);
    dl_rules_diloti(&r);
    r.liberal_group = r.liberal_raise = r.liberal_capture = true;
    bench("diloti, liberal variants", &r, (int)rounds / 2);
    r.forced_capture = true;
    bench("diloti, + forced capture", &r, (int)rounds / 2);
    dl_rules_kontsina(&r);
    bench("kontsina, 2 players", &r, (int)rounds);
    if (argc > 2 && strtol(argv[2], NULL, 10) == 0) return 0;
    bench_search("(expert), 2 players", DL_BENCH_EXPERT, 2, 0);
    bench_search("(master), 2 players", DL_BENCH_MASTER, 2, 0);
    bench_search("(expert), 4 players", DL_BENCH_EXPERT, 4, 0);
    bench_search("(master), 4 players", DL_BENCH_MASTER, 4, DL_BENCH_MASTER_INFER);
    bench_sampled();
    return 0;
}
