/* A second, deliberately plain legal-move generator, written straight from
 * RULES.md (D9-D19, K2, C1-C9 and the move variants) without looking at the
 * engine's generator. It tries every subset of the table items for every
 * card in hand and keeps a candidate only if it passes the rules as written.
 * It exists to cross-check dl_legal_moves() (tests/c/test_crosscheck.c).
 *
 * Slow on purpose: it is exponential in the number of numeral cards and
 * declarations on the table and refuses tables with more than BF_MAX_ITEMS
 * of them. */
#ifndef DL_BRUTEFORCE_H
#define DL_BRUTEFORCE_H

#include "diloti/moves.h"

#define BF_MAX_ITEMS 16

/* Writes every legal move of the player to move in s into out (at most cap,
 * in no particular order, each once). Returns the count, or -1 if out is
 * too small or the table has too many items. Only DL_PHASE_PLAY. */
long bf_legal_moves(const dl_State *s, dl_Move *out, long cap);

/* Order used to compare move lists: card, kind, value, take. */
int bf_move_cmp(const void *a, const void *b);

#endif
