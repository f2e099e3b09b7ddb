#define _POSIX_C_SOURCE 199309L
/* `make bench`, Pilotta's solver and search: the double-dummy solver on
 * fresh deals from trick 1 (the auction settled at random, so the trumps
 * vary), then the PIMC search choosing every card of whole rounds at the
 * budgets the expert and master AIs use. Each figure is the median of
 * three runs; times are CPU seconds of this process (the machine is
 * shared), with wall time beside the search's. `--values N [bits]`
 * prints the solver's values instead (values_run below). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pilotta/deal.h"
#include "pilotta/play.h"
#include "pilotta/playout.h"
#include "pilotta/search.h"
#include "pilotta/solve.h"

#define RUNS 3

static double now(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double pct(double *v, int n, int p)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return v[(n - 1) * p / 100];
}

/* A round dealt from seed with a random auction, in the play phase. */
static void fresh(pl_State *s, const pl_Rules *r, dl_Rng *rng)
{
    do {
        pl_new_match(s, r, dl_rng_next(rng), -1);
        while (s->phase < PL_PHASE_PLAY) pl_random_action(s, rng);
    } while (s->phase != PL_PHASE_PLAY);
}

static void solver_run(int deals, double out[4])
{
    pl_Rules r;
    pl_rules_default(&r);
    dl_Rng rng;
    dl_rng_seed(&rng, 7);
    pl_Solver *sv = pl_solver_new(0);
    double *t = malloc((size_t)deals * sizeof *t), total = 0;
    long nodes = 0;
    for (int i = 0; i < deals; i++) {
        pl_State s;
        fresh(&s, &r, &rng);
        const long n0 = pl_solver_nodes(sv);
        const double t0 = now(CLOCK_PROCESS_CPUTIME_ID);
        pl_solve(sv, &s, NULL);
        t[i] = now(CLOCK_PROCESS_CPUTIME_ID) - t0;
        total += t[i];
        nodes += pl_solver_nodes(sv) - n0;
    }
    out[0] = pct(t, deals, 50) * 1e3;
    out[1] = pct(t, deals, 95) * 1e3;
    out[2] = (double)nodes / total;
    out[3] = (double)nodes / deals;
    free(t);
    pl_solver_free(sv);
}

/* Whole rounds, every card chosen by the search at the budget; per move:
 * median and p95 of CPU and of wall time, and the mean deals solved. */
static void search_run(int rounds, const pl_SearchParams *budget, double out[5])
{
    pl_Rules r;
    pl_rules_default(&r);
    dl_Rng rng;
    dl_rng_seed(&rng, 11);
    const int cap = rounds * 32;
    double *cpu = malloc((size_t)cap * sizeof *cpu), *wall = malloc((size_t)cap * sizeof *wall), deals = 0;
    int n = 0;
    for (int k = 0; k < rounds; k++) {
        pl_State s;
        fresh(&s, &r, &rng);
        while (s.phase == PL_PHASE_PLAY) {
            if (pl_may_show(&s)) pl_play_apply(&s, &(pl_Action){0, PL_SHOW, 0, -1, 0, 0});
            pl_View v;
            pl_view(&s, s.turn, &v);
            pl_SearchParams p = *budget;
            p.seed = (uint64_t)n + 1;
            pl_SearchResult res;
            const double c0 = now(CLOCK_PROCESS_CPUTIME_ID), w0 = now(CLOCK_MONOTONIC);
            pl_search(&v, &p, &res);
            cpu[n] = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
            wall[n] = now(CLOCK_MONOTONIC) - w0;
            deals += res.deals;
            n++;
            const int c = res.best;
            pl_Action a = {0, PL_PLAY, 0, -1, (uint8_t)c, (uint8_t)pl_belote_pending(&s, c)};
            pl_play_apply(&s, &a);
        }
    }
    out[4] = deals / n;
    out[0] = pct(cpu, n, 50) * 1e3;
    out[1] = pct(cpu, n, 95) * 1e3;
    out[2] = pct(wall, n, 50) * 1e3;
    out[3] = pct(wall, n, 95) * 1e3;
    free(cpu);
    free(wall);
}

static double mid(double v[RUNS]) { return pct(v, RUNS, 50); }

/* One line of solver values for s: pl_solve's value and every root card's
 * (pl_solve with out), then each legal card again by pl_solve_after. */
static void print_values(pl_Solver *sv, const pl_State *s, const char *tag)
{
    pl_SolveResult res;
    const int v = pl_solve(sv, s, NULL);
    printf("%s %d %d |", tag, s->nplayed, v);
    pl_solve(sv, s, &res);
    for (int i = 0; i < res.nmoves; i++) printf(" %d:%d", res.moves[i].card, res.moves[i].value);
    printf(" |");
    for (pl_Set m = pl_legal_cards(s); m; m &= m - 1) printf(" %d", pl_solve_after(sv, s, pl_first(m)));
    printf("\n");
}

/* `--values N [bits]`: the solver's values on the bench's N fresh deals and on
 * positions played at random from other fresh deals to every depth,
 * under the house rules that change legality: a record to diff before
 * and after a change to the solver (whose values are exact and must not
 * move). */
static int values_run(int deals, int bits)
{
    pl_Rules r;
    pl_rules_default(&r);
    dl_Rng rng;
    dl_rng_seed(&rng, 7);
    pl_Solver *sv = pl_solver_new(bits);
    for (int i = 0; i < deals; i++) {
        pl_State s;
        fresh(&s, &r, &rng);
        char tag[32];
        snprintf(tag, sizeof tag, "deal %d", i);
        print_values(sv, &s, tag);
    }
    dl_rng_seed(&rng, 13);
    for (int i = 0; i < deals; i++) {
        pl_Rules h = r;
        h.must_head = i & 1;
        h.partner_exempt = (i >> 1) & 1;
        pl_State s;
        fresh(&s, &h, &rng);
        const int cards = 1 + (int)dl_rng_below(&rng, 27);
        while (s.nplayed < cards && s.phase == PL_PHASE_PLAY) {
            const pl_Set legal = pl_legal_cards(&s);
            int k = (int)dl_rng_below(&rng, (uint32_t)pl_count(legal));
            pl_Set m = legal;
            while (k--) m &= m - 1;
            const int c = pl_first(m);
            pl_Action a = {0, PL_PLAY, 0, -1, (uint8_t)c, (uint8_t)pl_belote_pending(&s, c)};
            pl_play_apply(&s, &a);
        }
        char tag[32];
        snprintf(tag, sizeof tag, "mid %d", i);
        print_values(sv, &s, tag);
    }
    printf("nodes %ld\n", pl_solver_nodes(sv));
    pl_solver_free(sv);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "--values") == 0)
        return values_run((int)strtol(argv[2], NULL, 10), argc > 3 ? (int)strtol(argv[3], NULL, 10) : 0);
    const int deals = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 200;
    const int rounds = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 3;
    if (deals <= 0 || rounds <= 0) {
        fprintf(stderr, "usage: pilotta-search-bench [deals [rounds]] | --values N [bits]\n");
        return 2;
    }
    double f[4][RUNS];
    for (int run = 0; run < RUNS; run++) {
        double o[4];
        solver_run(deals, o);
        for (int i = 0; i < 4; i++) f[i][run] = o[i];
    }
    printf("pilotta solver, %d fresh deals from trick 1: median %.1f ms, p95 %.1f ms (CPU), "
           "%.1f M nodes/s, %.0f nodes a deal (median of %d runs)\n",
           deals, mid(f[0]), mid(f[1]), mid(f[2]) / 1e6, mid(f[3]), RUNS);
    static const struct {
        const char *name;
        int deals;
        double seconds;
        bool infer;
    } B[] = {{"expert", 24, 0.2, false}, {"master", 80, 0.8, true}};
    for (int b = 0; b < 2; b++) {
        pl_SearchParams p;
        pl_search_defaults(&p);
        p.deals = B[b].deals, p.seconds = B[b].seconds, p.infer = B[b].infer;
        double g[5][RUNS];
        for (int run = 0; run < RUNS; run++) {
            double o[5];
            search_run(rounds, &p, o);
            for (int i = 0; i < 5; i++) g[i][run] = o[i];
        }
        printf("pilotta search, %s (%d deals, %.2f s%s), %d rounds: per move median %.1f ms, p95 %.1f ms "
               "(CPU; wall %.1f, %.1f), %.1f deals a move (median of %d runs)\n",
               B[b].name, B[b].deals, B[b].seconds, B[b].infer ? ", infer" : "", rounds, mid(g[0]), mid(g[1]),
               mid(g[2]), mid(g[3]), mid(g[4]), RUNS);
    }
    return 0;
}
