/* A move's legality decided from the move alone, without listing the
 * position's moves (issue 24: a crowded table has millions). The
 * generator (moves.h, above this file) and this check must agree on every
 * move; the cross-check tests hold them to it. */
#ifndef DL_LEGAL_H
#define DL_LEGAL_H

#include <stdbool.h>

#include "state.h"

typedef enum {
    DL_CHECK_LEGAL,
    DL_CHECK_ILLEGAL,
    DL_CHECK_COSTLY, /* the items named are too many ways to split to decide */
    DL_CHECK_OOM
} dl_CheckResult;

/* The most splits of a move's items one check tries. The counts a move on
 * a crowded table can reach are far fewer (a few thousand), so only a
 * position made to be hostile meets it. */
#define DL_SPLIT_BUDGET 200000

dl_CheckResult dl_check_move(const dl_State *s, const dl_Move *m);
/* Is m legal here? Decided from the move itself, never by listing. */
bool dl_is_legal(const dl_State *s, const dl_Move *m);
/* How many moves are legal here, found without listing them. exact is
 * false when the count used up its budget of checks (or a check its own):
 * count is then only what was counted so far, a lower bound. */
typedef struct {
    uint64_t count;
    bool exact;
} dl_MoveCount;
dl_MoveCount dl_count_moves(const dl_State *s, long budget);

/* Could card capture anything here (C1's "can capture")? */
bool dl_can_capture(const dl_State *s, int card);

#endif
