/* A whole Pilotta position as one line of text (docs/notation.md):
 *
 *   dealer=3; round=1; score=0 0; calls=80c, 90d, pass, pass, 110c, pass,
 *   pass, pass; hands=7h 10c ... / ?7 / ... / ...; tricks=9c 8s Jc Qc / Ac;
 *   decls=0:7c 8c 9c 10c shown, 3:9h 10h Jh; belote=3
 *
 * Fields are separated by ';', in any order; hands is required. Calls
 * are replayed through the rules (so only a legal auction is accepted);
 * tricks list the cards played, in order, a '/' after every four, and
 * who played each follows from the leads. Hands hold what is left; "?N"
 * stands for N cards not written, filled from the seed. A snapshot: the
 * play is not checked card by card (records replay actions for that). */
#ifndef PL_POSITION_H
#define PL_POSITION_H

#include <stddef.h>

#include "pilotta/state.h"

#define PL_POSITION_MAX 1024

/* The canonical text; the hands of the seats in the mask hide (bit s for
 * seat s) are written "?N". Returns the length. */
int pl_position_str(const pl_State *s, char *buf, size_t cap, unsigned hide);
/* Parses text under rules r into *out (untouched on error); cards left
 * unplaced by "?N" are dealt with seed. NULL, or err with what is wrong. */
const char *pl_position_parse(pl_State *out, const pl_Rules *r, const char *text, uint64_t seed,
                              char *err, size_t cap);

#endif
