/* Refusing an action (P51): the first rule it breaks, in plain words, and
 * applying an action not yet checked. Above the legal set (action.h),
 * which decides; refuse.c only explains. */
#ifndef PL_REFUSE_H
#define PL_REFUSE_H

#include <stddef.h>

#include "pilotta/action.h"

/* Why a is refused ("P23: ..."), or NULL when it is legal. */
const char *pl_refusal(const pl_State *s, const pl_Action *a, char *buf, size_t cap);
/* Applies a if legal and returns NULL; otherwise leaves s untouched and
 * returns err holding "P24: ..." (rule id, colon, why). */
const char *pl_apply(pl_State *s, const pl_Action *a, char *err, size_t cap);

#endif
