/* Replays the Pilotta fuzzing corpora and crash regressions
 * (tests/fuzz/corpus/pl_TARGET, tests/fuzz/regress/pl_TARGET) through the
 * fuzz targets built with the normal compiler, one test per target.
 * DL_FUZZ_DIR replaces tests/fuzz; DL_FUZZ_MAX caps the inputs a folder. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pilotta/pltest.h"

static char fuzz_current[512];

static void fuzz_fail(const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fail_msg("%s: %s", fuzz_current, msg);
}
#define FUZZ_FAIL fuzz_fail

#define LLVMFuzzerTestOneInput fuzz_pl_position_input
#include "../fuzz/fuzz_pl_position.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_pl_action_input
#include "../fuzz/fuzz_pl_action.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_pl_play_input
#include "../fuzz/fuzz_pl_play.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_pl_search_input
#include "../fuzz/fuzz_pl_search.c"
#undef LLVMFuzzerTestOneInput

typedef int (*Target)(const uint8_t *data, size_t size);

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static long replay_dir(Target t, const char *dir, long max)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            names = realloc(names, cap * sizeof *names);
            assert_non_null(names);
        }
        names[n] = malloc(strlen(e->d_name) + 1);
        assert_non_null(names[n]);
        strcpy(names[n++], e->d_name);
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, by_name);
    long done = 0;
    for (size_t i = 0; i < n; i++) {
        if (max > 0 && done >= max) break;
        snprintf(fuzz_current, sizeof fuzz_current, "%s/%s", dir, names[i]);
        FILE *f = fopen(fuzz_current, "rb");
        struct stat st;
        if (!f || fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
            if (f) fclose(f);
            continue;
        }
        size_t size = (size_t)st.st_size;
        uint8_t *buf = malloc(size ? size : 1);
        assert_non_null(buf);
        assert_int_equal(fread(buf, 1, size, f), size);
        fclose(f);
        t(buf, size);
        free(buf);
        done++;
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    return done;
}

static void replay(const char *target, Target t)
{
    const char *root = getenv("DL_FUZZ_DIR");
    const char *max_env = getenv("DL_FUZZ_MAX");
    long max = max_env ? atol(max_env) : 0;
    char dir[512];
    if (!root) root = "tests/fuzz";
    snprintf(dir, sizeof dir, "%s/corpus/%s", root, target);
    long corpus = replay_dir(t, dir, max);
    if (corpus < 0) fail_msg("no corpus folder %s (run from the top of the tree)", dir);
    snprintf(dir, sizeof dir, "%s/regress/%s", root, target);
    long regress = replay_dir(t, dir, max);
    printf("  fuzz %-12s %ld corpus inputs, %ld regressions: all properties held\n", target, corpus,
           regress < 0 ? 0 : regress);
}

static void test_P51_fuzz_pl_position_corpus(void **state)
{
    (void)state;
    replay("pl_position", fuzz_pl_position_input);
}

static void test_P51_fuzz_pl_action_corpus(void **state)
{
    (void)state;
    replay("pl_action", fuzz_pl_action_input);
}

static void test_P51_fuzz_pl_play_corpus(void **state)
{
    (void)state;
    replay("pl_play", fuzz_pl_play_input);
}

static void test_P50_fuzz_pl_search_corpus(void **state)
{
    (void)state;
    replay("pl_search", fuzz_pl_search_input);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_P51_fuzz_pl_position_corpus),
        cmocka_unit_test(test_P51_fuzz_pl_action_corpus),
        cmocka_unit_test(test_P51_fuzz_pl_play_corpus),
        cmocka_unit_test(test_P50_fuzz_pl_search_corpus),
    };
    return cmocka_run_group_tests_name("pilotta fuzz corpora", tests, NULL, NULL);
}
