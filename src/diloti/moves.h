/* Moves and legal move generation (D9-D20, K2, the variants).
 *
 * A move is identified by its kind, the card played, the declared value and
 * the set of table items it takes or joins (D11: a capture is the set of
 * cards it takes, however they split into parts; declarations likewise).
 * Items are bits of one 64-bit set: bits 0..51 loose cards, bit 52+i the
 * declaration in slot i of the state. */
#ifndef DL_MOVES_H
#define DL_MOVES_H

#include <stddef.h>

#include "state.h"

typedef enum {
    DL_LAY,     /* D10 */
    DL_CAPTURE, /* D11-D13, K2 */
    DL_PLAIN,   /* D15 */
    DL_RAISE,   /* D16 (C4 with loose cards) */
    DL_GROUP,   /* D17 */
    DL_CLAIM,   /* V-face-card-claim: claim the redeal */
    DL_KEEP     /* V-face-card-claim: keep the cards */
} dl_MoveKind;

#define DL_DECL_SHIFT 52
#define DL_DECL_BIT(i) ((uint64_t)1 << (DL_DECL_SHIFT + (i)))
#define DL_DECL_ITEMS ((uint64_t)0xF << DL_DECL_SHIFT)

typedef struct {
    uint64_t take; /* items taken or joined */
    uint8_t kind;  /* dl_MoveKind */
    uint8_t card;  /* card played (unused for claim/keep) */
    uint8_t value; /* declared value for plain/raise/group, else 0 */
} dl_Move;

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

static inline bool dl_move_eq(const dl_Move *a, const dl_Move *b)
{
    return a->kind == b->kind && a->card == b->card &&
           a->value == b->value && a->take == b->take;
}

/* Fills l with the legal moves (cleared first), in a fixed order: every
 * one of them unless l->cut. Returns the count listed, or -1 if memory
 * ran out. Outside DL_PHASE_CLAIM/PLAY: 0. */
long dl_legal_moves(const dl_State *s, dl_MoveList *l);
/* The same with one share for every batch, made in one pass: for the
 * search, whose playouts list a position per ply and need no more than a
 * few of a crowded batch's moves (DL_SEARCH_SHARE). */
long dl_legal_moves_share(const dl_State *s, dl_MoveList *l, long share);
#define DL_SEARCH_SHARE 64
/* Is m legal here? Decided from the move itself (legal.c), never by
 * listing: see legal.h for the answer that tells "too costly" apart. */
bool dl_is_legal(const dl_State *s, const dl_Move *m);
/* Why m is refused: "D10: ..." (rule id, colon, plain words), or NULL if
 * it is legal. The text lives in buf (cap >= 160 recommended). */
const char *dl_refusal(const dl_State *s, const dl_Move *m, char *buf,
                       size_t cap);

#endif
