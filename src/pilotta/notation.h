/* Pilotta's action notation (docs/notation.md, "Pilotta"):
 *
 *   pass  90h  capot s  contra  recontra     calls (P12); 9h = 90h (PC7)
 *   trump h                                  PV-suit-after-auction
 *   announce 7c 8c 9c 10c                    P35
 *   show 7c 8c 9c 10c                        P38 (the cards may be left out)
 *   Jh   Qc belote   Qc nobelote             plays; the flag is on by default
 *
 * Suits may be letters or the symbols ♣♦♥♠. Bids are numbers alone under
 * PV-suit-after-auction ("90", "capot"). */
#ifndef PL_NOTATION_H
#define PL_NOTATION_H

#include <stddef.h>

#include "pilotta/action.h"

/* The canonical text of a in state s (before it is played). */
int pl_action_str(const pl_State *s, const pl_Action *a, char *buf, size_t cap, bool unicode);
/* The same text from what it reads of the state: the cards the seat to
 * act announced (a show names them) and whether a played card is the
 * first of the belote pair (P39: the flag is then written). */
int pl_action_text(const pl_Action *a, pl_Set shown, bool pending, char *buf, size_t cap, bool unicode);
pl_Set pl_action_shown(const pl_State *s, const pl_Action *a);
bool pl_action_pending(const pl_State *s, const pl_Action *a);
/* Parses text as an action in state s: NULL and *a filled, or err
 * holding what is wrong. The action may still be refused by the rules. */
const char *pl_action_parse(const pl_State *s, const char *text, pl_Action *a, char *err, size_t cap);
/* A call as text without a state ("80h", "capot", "pass", "trump s"). */
int pl_call_str(const pl_Action *a, char *buf, size_t cap, bool unicode);

#endif
