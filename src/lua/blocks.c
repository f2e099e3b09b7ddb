/* A box's kept blocks (blocks.h). */
#include "blocks.h"

#include <stdlib.h>
#include <string.h>

/* (enough for the churn of a few positions' moves; none under ASan,
 * which would not see a kept block used after it was freed) */
#ifdef __SANITIZE_ADDRESS__
#define BLOCKS_HELD 0u
#else
#define BLOCKS_HELD (32u << 10)
#endif
/* The classes are malloc's own sizes (a chunk of 16k bytes holds 16k - 8
 * of a caller's: 24, 40, 56, ...): a block asked for rounded up to its
 * class takes the chunk it would have taken anyway. */
#define CLASS_BYTES(c) ((size_t)(c) * 16 + 24)

/* The class of a block of n bytes (1..264), or -1. */
static int class_of(size_t n)
{
    if (!n || n > CLASS_BYTES(DL_BLOCK_CLASSES - 1)) return -1;
    return n <= 24 ? 0 : (int)((n - 24 + 15) >> 4);
}

/* A kept block: the next one of its class in its first bytes. */
typedef struct Kept {
    struct Kept *next;
} Kept;

static void *take(dl_Blocks *k, int c)
{
    Kept *p = k->head[c];
    if (!p) return malloc(CLASS_BYTES(c));
    k->head[c] = p->next;
    k->held -= CLASS_BYTES(c);
    return p;
}

/* Keeps a block of class c (or frees it: a large one, or past the most
 * kept). */
static void give(dl_Blocks *k, void *p, int c)
{
    if (c < 0 || k->held + CLASS_BYTES(c) > BLOCKS_HELD) {
        free(p);
        return;
    }
    Kept *kept = p;
    kept->next = k->head[c];
    k->head[c] = kept;
    k->held += CLASS_BYTES(c);
}

void *dl_blocks_realloc(dl_Blocks *k, void *ptr, size_t osize, size_t nsize)
{
    const int from = ptr ? class_of(osize) : -1, to = class_of(nsize);
    if (nsize == 0) {
        if (ptr) give(k, ptr, from);
        return NULL;
    }
    if (ptr && from == to && to >= 0) return ptr;
    if (ptr && from < 0 && to < 0) return realloc(ptr, nsize);
    void *p = to >= 0 ? take(k, to) : malloc(nsize);
    if (!p) return ptr && nsize <= osize ? ptr : NULL; /* (a larger block still serves) */
    if (ptr) {
        memcpy(p, ptr, osize < nsize ? osize : nsize);
        give(k, ptr, from);
    }
    return p;
}

void dl_blocks_drop(dl_Blocks *k)
{
    for (int c = 0; c < DL_BLOCK_CLASSES; c++)
        while (k->head[c]) {
            Kept *p = k->head[c];
            k->head[c] = p->next;
            free(p);
        }
    k->held = 0;
}
