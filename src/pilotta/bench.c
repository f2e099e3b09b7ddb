#define _POSIX_C_SOURCE 199309L
/* `make bench`, Pilotta: random whole rounds (auction included) through
 * the C core, the full legal set generated at every step. Prints the
 * median of 5 runs and a signature (total actions played) that changes
 * only with the rules or the generator. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pilotta/deal.h"
#include "pilotta/playout.h"

/* CPU time of this process: the machine is shared (other builds, other
 * tests), and wall time would measure them too. Wall time is shown
 * beside it. */
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

int main(int argc, char **argv)
{
    const int rounds = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 400000;
    if (rounds <= 0) {
        fprintf(stderr, "usage: pilotta-bench [rounds]\n");
        return 2;
    }
    pl_Rules r;
    pl_rules_default(&r);
    r.target = 10000; /* long matches: the loop measures rounds */
    double rate[5], wall[5];
    long long actions = 0, scored = 0;
    for (int run = 0; run < 5; run++) {
        pl_State s;
        dl_Rng pick;
        dl_rng_seed(&pick, 42);
        pl_new_match(&s, &r, 42, 0);
        actions = scored = 0;
        double t0 = now(CLOCK_PROCESS_CPUTIME_ID), w0 = now(CLOCK_MONOTONIC);
        for (int i = 0; i < rounds; i++) {
            actions += pl_random_round(&s, &pick);
            scored += !s.last.thrown_in;
            if (s.phase == PL_PHASE_MATCH_OVER) pl_new_match(&s, &r, (uint64_t)i, 0);
            else pl_next_round(&s);
        }
        rate[run] = rounds / (now(CLOCK_PROCESS_CPUTIME_ID) - t0);
        wall[run] = rounds / (now(CLOCK_MONOTONIC) - w0);
    }
    qsort(rate, 5, sizeof *rate, by_value);
    qsort(wall, 5, sizeof *wall, by_value);
    printf("pilotta random rounds, C core: %10.0f rounds per CPU second (median of 5; min %.0f, max %.0f; "
           "wall clock %.0f)  %.1f actions/round, %.1f%% thrown in, signature %lld\n",
           rate[2], rate[0], rate[4], wall[2], (double)actions / rounds,
           100.0 * (double)(rounds - scored) / rounds, actions);
    return 0;
}
