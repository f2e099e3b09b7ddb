/* Actions: every call, trump choice, announcement, show and card play of
 * P12-P40 in one small struct; the legal set, applying, refusing. */
#ifndef PL_ACTION_H
#define PL_ACTION_H

#include <stdbool.h>
#include <stddef.h>

#include "pilotta/state.h"

typedef enum {
    PL_PASS,     /* P12 */
    PL_BID,      /* P12, P14: value (tens, 25 = capot) and suit */
    PL_CONTRA,   /* P16 */
    PL_RECONTRA, /* P17 */
    PL_TRUMP,    /* PV-suit-after-auction: suit */
    PL_ANNOUNCE, /* P35: cards */
    PL_SHOW,     /* P38 */
    PL_PLAY      /* P21-P29: card, belote flag (P39) */
} pl_Kind;

typedef struct {
    pl_Set cards;  /* PL_ANNOUNCE */
    uint8_t kind;  /* pl_Kind */
    uint8_t value; /* PL_BID: 8..24 tens, PL_CAPOT */
    int8_t suit;   /* PL_BID, PL_TRUMP: 0..3; -1 for a bid without suit */
    uint8_t card;  /* PL_PLAY */
    uint8_t belote; /* PL_PLAY: said with the first of K and Q of trumps */
} pl_Action;

/* An auction turn has at most pass, contra and 18 values x 4 suits. */
#define PL_MAX_ACTIONS 96
typedef struct {
    pl_Action a[PL_MAX_ACTIONS];
    int n;
} pl_ActionList;

static inline bool pl_action_eq(const pl_Action *x, const pl_Action *y)
{
    return x->kind == y->kind && x->value == y->value && x->suit == y->suit &&
           x->card == y->card && x->belote == y->belote && x->cards == y->cards;
}
/* The action with its unused fields cleared and a belote flag that means
 * nothing here (P39: not the first of K and Q) turned off. */
pl_Action pl_normalize(const pl_State *s, const pl_Action *a);
/* Does playing card c now with the flag count as belote (P39)? */
bool pl_belote_pending(const pl_State *s, int card);

/* The exact legal set, in a fixed order; returns the count (0 when the
 * round or match is over). */
int pl_legal(const pl_State *s, pl_ActionList *out);
bool pl_is_legal(const pl_State *s, const pl_Action *a);
/* Applies a if legal and returns NULL; otherwise leaves s untouched and
 * returns err holding "P24: ..." (rule id, colon, why). */
const char *pl_apply(pl_State *s, const pl_Action *a, char *err, size_t cap);
/* Applies a trusted legal action (the playout path: no check). */
void pl_apply_legal(pl_State *s, const pl_Action *a);
/* Why a is refused ("P23: ..."), or NULL when it is legal (refuse.c). */
const char *pl_refusal(const pl_State *s, const pl_Action *a, char *buf, size_t cap);

/* The byte code of a call in pl_State.calls and back. */
uint8_t pl_call_code(const pl_Action *a);
pl_Action pl_call_decode(uint8_t code);

#endif
