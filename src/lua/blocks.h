/* Small blocks a box's allocator keeps for reuse. A position's moves, a
 * move's table, its strings: a script's call makes and drops hundreds of
 * blocks of a few sizes, and its collector frees them in bursts, past
 * what malloc's own per-thread cache holds. Blocks up to 264 bytes are
 * kept by size class (16 bytes apart), at most BLOCKS_HELD bytes in all:
 * what a box's count says it holds does not include them. */
#ifndef DL_BLOCKS_H
#define DL_BLOCKS_H

#include <stddef.h>

#define DL_BLOCK_CLASSES 16

typedef struct {
    void *head[DL_BLOCK_CLASSES];
    size_t held; /* bytes kept */
} dl_Blocks;

/* lua_Alloc's contract (ptr, osize, nsize; osize when ptr is NULL is
 * ignored); never fails when shrinking. */
void *dl_blocks_realloc(dl_Blocks *k, void *ptr, size_t osize, size_t nsize);
/* Frees what is kept (the state is closed: nothing is in use). */
void dl_blocks_drop(dl_Blocks *k);

#endif
