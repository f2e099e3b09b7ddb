/* A second, plain implementation of Pilotta's legal set, written from
 * PILOTTA.md apart from src/pilotta/: slow and simple on purpose (rank
 * orders as strings, declarations found by trying every subset of the
 * hand, the auction read back from the call log). The cross-check
 * compares it with pl_legal on random reachable positions. */
#ifndef PL_PLAIN_H
#define PL_PLAIN_H

#include "pilotta/action.h"

/* Fills out with the legal actions by the plain reading; returns the count. */
int plain_legal(const pl_State *s, pl_ActionList *out);

#endif
