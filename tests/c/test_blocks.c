/* A box's kept blocks (src/lua/blocks.c): what lua_Alloc promises (the
 * contents kept, as far as both sizes go; a shrink never fails), blocks
 * reused within their class, and no more kept than the bound. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/lua/blocks.h"

static void fill(unsigned char *p, size_t n, unsigned char seed)
{
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(seed + i);
}

static void assert_filled(const unsigned char *p, size_t n, unsigned char seed)
{
    for (size_t i = 0; i < n; i++) assert_int_equal(p[i], (unsigned char)(seed + i));
}

/* Every pair of sizes around the classes' edges and past the largest:
 * what fits in both sizes survives the move. */
static void test_contents_survive_every_resize(void **state)
{
    (void)state;
    static const size_t SIZES[] = {1, 15, 16, 17, 24, 25, 40, 41, 100, 255, 264, 265, 300, 1000, 5000};
    const size_t n = sizeof SIZES / sizeof SIZES[0];
    dl_Blocks k;
    memset(&k, 0, sizeof k);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            unsigned char *p = dl_blocks_realloc(&k, NULL, 0, SIZES[i]);
            assert_non_null(p);
            fill(p, SIZES[i], (unsigned char)(i * 7 + j));
            unsigned char *q = dl_blocks_realloc(&k, p, SIZES[i], SIZES[j]);
            assert_non_null(q);
            assert_filled(q, SIZES[i] < SIZES[j] ? SIZES[i] : SIZES[j], (unsigned char)(i * 7 + j));
            assert_null(dl_blocks_realloc(&k, q, SIZES[j], 0));
        }
    dl_blocks_drop(&k);
    assert_int_equal(k.held, 0);
}

/* A block freed is the next one given in its class; a resize within its
 * class keeps the block where it is. */
/* (ASan builds keep no block: blocks.c) */
#ifdef __SANITIZE_ADDRESS__
#define NEEDS_KEPT_BLOCKS() skip()
#else
#define NEEDS_KEPT_BLOCKS() ((void)0)
#endif

static void test_blocks_are_reused_in_their_class(void **state)
{
    (void)state;
    NEEDS_KEPT_BLOCKS();
    dl_Blocks k;
    memset(&k, 0, sizeof k);
    void *a = dl_blocks_realloc(&k, NULL, 0, 44);
    assert_ptr_equal(dl_blocks_realloc(&k, a, 44, 56), a);
    dl_blocks_realloc(&k, a, 56, 0);
    assert_int_equal(k.held, 56);
    assert_ptr_equal(dl_blocks_realloc(&k, NULL, 0, 41), a);
    assert_int_equal(k.held, 0);
    dl_blocks_realloc(&k, a, 41, 0);
    dl_blocks_drop(&k);
}

/* However many are freed, no more than 32 KiB is kept, and dropping
 * frees all of it (the sanitizer build finds a leak otherwise). */
static void test_what_is_kept_is_bounded(void **state)
{
    (void)state;
    enum { N = 4000 };
    static void *p[N];
    dl_Blocks k;
    memset(&k, 0, sizeof k);
    for (int i = 0; i < N; i++) p[i] = dl_blocks_realloc(&k, NULL, 0, 16 + (size_t)(i % 248));
    for (int i = 0; i < N; i++) {
        dl_blocks_realloc(&k, p[i], 16 + (size_t)(i % 248), 0);
        assert_true(k.held <= 32u << 10);
    }
#ifndef __SANITIZE_ADDRESS__
    assert_true(k.held > 30u << 10);
#endif
    dl_blocks_drop(&k);
    assert_int_equal(k.held, 0);
    for (int c = 0; c < DL_BLOCK_CLASSES; c++) assert_null(k.head[c]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contents_survive_every_resize),
        cmocka_unit_test(test_blocks_are_reused_in_their_class),
        cmocka_unit_test(test_what_is_kept_is_bounded),
    };
    return cmocka_run_group_tests_name("blocks", tests, NULL, NULL);
}
