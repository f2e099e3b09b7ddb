#define _POSIX_C_SOURCE 199309L
/* `make bench`, Pilotta's solver and search: the double-dummy solver on
 * fresh deals from trick 1 (the auction settled at random, so the trumps
 * vary), then the PIMC search choosing every card of whole rounds at the
 * budgets the expert and master AIs use. Each figure is the median of
 * three runs; times are CPU seconds of this process (the machine is
 * shared), with wall time beside the search's. */
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

int main(int argc, char **argv)
{
    const int deals = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 200;
    const int rounds = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 3;
    if (deals <= 0 || rounds <= 0) {
        fprintf(stderr, "usage: pilotta-search-bench [deals [rounds]]\n");
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
