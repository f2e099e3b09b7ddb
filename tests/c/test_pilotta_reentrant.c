/* Many rooms in one process: the position parsers keep nothing between
 * calls (no static buffer, no strtok), so two threads parsing different
 * positions at once each get exactly what one thread alone gets. On a
 * parser with a static work area the threads clear each other's fields
 * and the answers differ (or a parse fails). */
#define _POSIX_C_SOURCE 200112L
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "pilotta/plconfigs.h"
#include "pilotta/pltest.h"
#include "diloti/game.h"

#define NPOS 12
#define ROUNDS 4000

/* both threads start at once */
static pthread_barrier_t start;

typedef struct {
    const pl_Rules *r;
    char text[NPOS][PL_POSITION_MAX];
    char want[NPOS][PL_POSITION_MAX];
    int first;      /* the position this thread starts from */
    int wrong;      /* answers that differ from the single-thread ones */
    char why[512];  /* the first of them */
} Job;

/* Positions met in play: auction, announcements, tricks, a finished round. */
static void collect(const pl_Rules *r, Job *job)
{
    pl_State s;
    pl_ActionList l;
    dl_Rng rng;
    dl_rng_seed(&rng, 5);
    assert_null(pl_new_match(&s, r, 5, -1));
    int n = 0;
    for (int i = 0; n < NPOS && i < 4000; i++) {
        if (pl_legal(&s, &l) == 0) {
            pl_next_round(&s);
            continue;
        }
        if (i % 7 == 3) pl_position_str(&s, job->text[n++], PL_POSITION_MAX, (unsigned)(i & 0xF));
        pl_apply_legal(&s, &l.a[dl_rng_below(&rng, (uint32_t)l.n)]);
    }
    assert_int_equal(n, NPOS);
}

static int parse_print(const pl_Rules *r, const char *text, char *out, char *err, size_t cap)
{
    pl_State s;
    if (pl_position_parse(&s, r, text, 3, err, cap)) return -1;
    pl_position_str(&s, out, PL_POSITION_MAX, 0);
    return 0;
}

static void *run(void *arg)
{
    Job *job = arg;
    pthread_barrier_wait(&start);
    char got[PL_POSITION_MAX], err[256];
    for (int k = 0; k < ROUNDS * NPOS; k++) {
        int i = (job->first + k) % NPOS;
        if (parse_print(job->r, job->text[i], got, err, sizeof err) != 0 || strcmp(got, job->want[i]) != 0) {
            if (!job->wrong++)
                snprintf(job->why, sizeof job->why, "'%.200s' gave '%.200s'", job->text[i],
                         err[0] ? err : got);
        }
        err[0] = '\0';
    }
    return NULL;
}

static void test_pilotta_position_parse_is_reentrant(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    static Job jobs[2];
    collect(&r, &jobs[0]);
    for (int i = 0; i < NPOS; i++) {
        char err[256];
        if (parse_print(&r, jobs[0].text[i], jobs[0].want[i], err, sizeof err))
            fail_msg("'%s': %s", jobs[0].text[i], err);
    }
    jobs[1] = jobs[0];
    jobs[0].r = jobs[1].r = &r;
    jobs[1].first = NPOS / 2;
    pthread_t t[2];
    pthread_barrier_init(&start, NULL, 2);
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&t[i], NULL, run, &jobs[i]), 0);
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_join(t[i], NULL), 0);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < 2; i++)
        if (jobs[i].wrong) fail_msg("thread %d: %d of %d parses wrong; first: %s", i, jobs[i].wrong, ROUNDS * NPOS, jobs[i].why);
}

/* Diloti's parser, the same way. */
typedef struct {
    const dl_Rules *r;
    char text[NPOS][DL_POSITION_MAX];
    char want[NPOS][DL_POSITION_MAX];
    int first, wrong;
} DJob;

static void *drun(void *arg)
{
    DJob *job = arg;
    pthread_barrier_wait(&start);
    for (int k = 0; k < ROUNDS * NPOS; k++) {
        int i = (job->first + k) % NPOS;
        dl_State s;
        char err[256], got[DL_POSITION_MAX];
        if (dl_position_parse(&s, job->r, job->text[i], 3, err, sizeof err)) {
            job->wrong++;
            continue;
        }
        dl_position_str(&s, got, sizeof got, false);
        if (strcmp(got, job->want[i]) != 0) job->wrong++;
    }
    return NULL;
}

static void test_diloti_position_parse_is_reentrant(void **state)
{
    (void)state;
    static DJob jobs[2];
    dl_Rules r;
    dl_rules_diloti(&r);
    const char *why = NULL;
    dl_Game *g = dl_game_new(&r, 7, 0, &why);
    assert_non_null(g);
    dl_Rng rng;
    dl_rng_seed(&rng, 7);
    int n = 0;
    for (int i = 0; n < NPOS && i < 2000; i++) {
        const dl_MoveList *l = dl_game_moves(g);
        if (!l || l->n == 0) {
            if (g->s.phase == DL_PHASE_MATCH_OVER) break;
            dl_game_next_round(g);
            continue;
        }
        if (i % 5 == 2) dl_position_str(&g->s, jobs[0].text[n++], DL_POSITION_MAX, false);
        assert_null(dl_game_play(g, &l->m[dl_rng_below(&rng, (uint32_t)l->n)], NULL, 0));
    }
    dl_game_free(g);
    assert_int_equal(n, NPOS);
    for (int i = 0; i < NPOS; i++) {
        dl_State s;
        char err[256];
        if (dl_position_parse(&s, &r, jobs[0].text[i], 3, err, sizeof err)) fail_msg("'%s': %s", jobs[0].text[i], err);
        dl_position_str(&s, jobs[0].want[i], DL_POSITION_MAX, false);
    }
    jobs[1] = jobs[0];
    jobs[0].r = jobs[1].r = &r;
    jobs[1].first = NPOS / 2;
    pthread_t t[2];
    pthread_barrier_init(&start, NULL, 2);
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&t[i], NULL, drun, &jobs[i]), 0);
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_join(t[i], NULL), 0);
    pthread_barrier_destroy(&start);
    assert_int_equal(jobs[0].wrong, 0);
    assert_int_equal(jobs[1].wrong, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pilotta_position_parse_is_reentrant),
        cmocka_unit_test(test_diloti_position_parse_is_reentrant),
    };
    return cmocka_run_group_tests_name("position parsers are re-entrant", tests, NULL, NULL);
}
