/* Legal move generation (D9-D20, K2, the variants): the bounded lists.
 * The move itself is state.h's; deciding one move alone is legal.h's,
 * below this file (the generator asks it whether the sweep is legal). */
#ifndef DL_MOVES_H
#define DL_MOVES_H

#include <stddef.h>

#include "legal.h"

/* A growable list; it also keeps the generator's scratch buffers, so a list
 * reused across positions allocates nothing once warm. */
typedef struct {
    dl_Move *m;
    size_t n, cap;
    bool cut;   /* more moves are legal than the list holds (see below) */
    long share; /* the most moves a batch could make in this list */
    void *scratch;
} dl_MoveList;

/* The list is bounded (issue 24): a crowded table has millions of legal
 * moves. The generator works in batches, one card's captures or its
 * declarations or groups of one value; each batch makes at most
 * DL_BATCH_MAX moves (fewer when the whole list would pass DL_LIST_MAX,
 * down to DL_BATCH_MIN) and a bounded amount of work, and a batch with
 * any legal move lists at least one. A batch that stopped early sets
 * cut: its other moves are still legal, decided by dl_is_legal(). */
#define DL_BATCH_MAX 4096
#define DL_BATCH_MIN 16
#define DL_LIST_MAX 5000

void dl_movelist_init(dl_MoveList *l);
void dl_movelist_free(dl_MoveList *l);
/* Appends; returns false (list unchanged) if memory ran out. */
bool dl_movelist_push(dl_MoveList *l, const dl_Move *m);


/* Fills l with the legal moves (cleared first), in a fixed order: every
 * one of them unless l->cut. Returns the count listed, or -1 if memory
 * ran out. Outside DL_PHASE_CLAIM/PLAY: 0. */
long dl_legal_moves(const dl_State *s, dl_MoveList *l);
/* The same with one share for every batch, made in one pass: for the
 * search, whose playouts list a position per ply and need no more than a
 * few of a crowded batch's moves (DL_SEARCH_SHARE). */
long dl_legal_moves_share(const dl_State *s, dl_MoveList *l, long share);
#define DL_SEARCH_SHARE 64
/* Why m is refused: "D10: ..." (rule id, colon, plain words), or NULL if
 * it is legal. The text lives in buf (cap >= 160 recommended). */
const char *dl_refusal(const dl_State *s, const dl_Move *m, char *buf,
                       size_t cap);

#endif
