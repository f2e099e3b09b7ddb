/* Actions (the struct is in state.h): the legal set of every phase, the
 * auction's and the play's together, and applying a trusted action.
 * Refusing, and applying an action not yet checked, are refuse.h's. */
#ifndef PL_ACTION_H
#define PL_ACTION_H

#include <stdbool.h>
#include <stddef.h>

#include "pilotta/auction.h"
#include "pilotta/play.h"

/* The action with its unused fields cleared and a belote flag that means
 * nothing here (P39: not the first of K and Q) turned off. */
pl_Action pl_normalize(const pl_State *s, const pl_Action *a);

/* The exact legal set, in a fixed order; returns the count (0 when the
 * round or match is over). */
int pl_legal(const pl_State *s, pl_ActionList *out);
bool pl_is_legal(const pl_State *s, const pl_Action *a);
/* Applies a trusted legal action (the playout path: no check). */
void pl_apply_legal(pl_State *s, const pl_Action *a);

#endif
