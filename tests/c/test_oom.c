/* Allocation failures in the game constructors: every way of failing
 * writes its message (issue 24, finding 4: when listing the legal moves
 * failed, dl_game_from_position returned NULL with its error buffer
 * untouched, and the binding printed 300 bytes of the stack).
 *
 * This binary is linked with --wrap=malloc,calloc,realloc (Makefile):
 * the core's allocations go through the wrappers below, which fail the
 * n-th one on request. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);

static long fail_at = -1; /* the allocation to refuse, counted from 0; -1: none */
static long seen;

static bool refuse(void) { return fail_at >= 0 && seen++ == fail_at; }

void *__wrap_malloc(size_t n) { return refuse() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t k, size_t n) { return refuse() ? NULL : __real_calloc(k, n); }
void *__wrap_realloc(void *p, size_t n) { return refuse() ? NULL : __real_realloc(p, n); }

/* A message: written, ended within the buffer, not the filler. */
static void assert_message(const char *err, size_t cap)
{
    assert_non_null(memchr(err, '\0', cap));
    assert_true(strlen(err) > 0);
    assert_null(strchr(err, '#'));
}

/* Fails each allocation of the constructor in turn, until one call
 * needs fewer than that. */
static void every_allocation_fails_cleanly(const char *position)
{
    dl_Rules r = diloti_rules();
    int failures = 0;
    for (long k = 0;; k++) {
        char err[300];
        memset(err, '#', sizeof err); /* no NUL: an unwritten buffer shows */
        seen = 0;
        fail_at = k;
        dl_Game *g = dl_game_from_position(&r, position, 1, err, sizeof err);
        fail_at = -1;
        if (g) {
            dl_game_free(g);
            if (seen <= k) break; /* no allocation was refused: all tried */
            continue;             /* (one that may fail and be retried) */
        }
        assert_message(err, sizeof err);
        failures++;
    }
    assert_true(failures > 0);
}

static void test_from_position_oom_writes_error(void **state)
{
    (void)state;
    every_allocation_fails_cleanly("hands=8h 2d / 9c; table=8c 6d 5s 3h 2c");
    /* declarations on the table: more of the generator's buffers */
    every_allocation_fails_cleanly("hands=10h 9h 8h 7h 6h / 10s 9s 8s 7s 6s; "
                                   "table=Ac 2c 3c 4c 5c 6c 7c 8c 9c Ad 2d 3d 4d 5d; pack=-");
}

static void test_new_oom_writes_error(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    for (long k = 0;; k++) {
        const char *err = NULL;
        seen = 0;
        fail_at = k;
        dl_Game *g = dl_game_new(&r, 1, -1, &err);
        fail_at = -1;
        if (g) {
            dl_game_free(g);
            if (seen <= k) break;
            continue;
        }
        assert_non_null(err);
        assert_true(strlen(err) > 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_from_position_oom_writes_error),
        cmocka_unit_test(test_new_oom_writes_error),
    };
    return cmocka_run_group_tests_name("out of memory", tests, NULL, NULL);
}
