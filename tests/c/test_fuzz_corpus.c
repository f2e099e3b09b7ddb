/* Replays the fuzzing corpora and the crash regressions (tests/fuzz/corpus/
 * TARGET and tests/fuzz/regress/TARGET) through the fuzz targets, built
 * with the normal compiler: no clang or libFuzzer needed. One test per
 * target; a broken property fails it naming the input file.
 * DL_FUZZ_DIR replaces tests/fuzz; DL_FUZZ_MAX caps the inputs per folder
 * (for slow runs such as valgrind). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testutil.h"

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

/* Each target under its own name. */
#define LLVMFuzzerTestOneInput fuzz_position_input
#include "../fuzz/fuzz_position.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_move_input
#include "../fuzz/fuzz_move.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_play_input
#include "../fuzz/fuzz_play.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_record_input
#include "../fuzz/fuzz_record.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_message_input
#include "../fuzz/fuzz_message.c"
#undef LLVMFuzzerTestOneInput

typedef int (*Target)(const uint8_t *data, size_t size);

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every file of dir through t; returns how many (-1: no folder). */
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
            char **p = realloc(names, cap * sizeof *p);
            assert_non_null(p);
            names = p;
        }
        size_t len = strlen(e->d_name) + 1;
        names[n] = malloc(len);
        assert_non_null(names[n]);
        memcpy(names[n++], e->d_name, len);
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
        size_t got = fread(buf, 1, size, f);
        fclose(f);
        assert_int_equal(got, size);
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
    printf("  fuzz %-8s %ld corpus inputs, %ld regressions: all properties held\n", target, corpus,
           regress < 0 ? 0 : regress);
}

static void test_fuzz_position_corpus(void **state)
{
    (void)state;
    replay("position", fuzz_position_input);
    dl_movelist_free(&pos_list);
    pos_ready = false;
}

static void test_fuzz_move_corpus(void **state)
{
    (void)state;
    replay("move", fuzz_move_input);
    for (int i = 0; mv_ready && i < MV_NCASES; i++) dl_movelist_free(&mv_list[i]);
    mv_ready = false;
}

static void test_fuzz_play_corpus(void **state)
{
    (void)state;
    replay("play", fuzz_play_input);
}

static void test_fuzz_record_corpus(void **state)
{
    (void)state;
    replay("record", fuzz_record_input);
    fuzz_record_close();
}

static void test_fuzz_message_corpus(void **state)
{
    (void)state;
    replay("message", fuzz_message_input);
    fuzz_message_close();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fuzz_position_corpus),
        cmocka_unit_test(test_fuzz_move_corpus),
        cmocka_unit_test(test_fuzz_play_corpus),
        cmocka_unit_test(test_fuzz_record_corpus),
        cmocka_unit_test(test_fuzz_message_corpus),
    };
    return cmocka_run_group_tests_name("fuzz corpora", tests, NULL, NULL);
}
