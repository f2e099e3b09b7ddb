/* Helpers shared by the cmocka suites: set up a position from a string,
 * ask whether a move (in notation) is legal, play it, read a refusal. Each
 * helper fails the running test with a readable message on misuse. */
#ifndef DL_TESTUTIL_H
#define DL_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
/* cmocka needs these first */
#include <cmocka.h>

#include "diloti/apply.h"
#include "diloti/deal.h"
#include "diloti/game.h"
#include "diloti/notation.h"
#include "diloti/position.h"
#include "diloti/score.h"
#include "diloti/view.h"

/* Rules presets. */
dl_Rules diloti_rules(void);
dl_Rules kontsina_rules(void);
dl_Rules diloti4_rules(void); /* 4 players, teams */

/* Parses a position (seed 1 for unplaced cards); fails the test on error. */
dl_State pos(const dl_Rules *r, const char *text);
/* Is the move string legal in s? (parse errors count as not legal) */
bool legal(const dl_State *s, const char *move);
/* The refusal text for an illegal move ("D19: ..."); "" if legal or the
 * parse error prefixed "parse: " if it does not parse. Static buffer. */
const char *refusal(const dl_State *s, const char *move);
/* Asserts the refusal starts with the rule id, e.g. "D10:". */
void assert_refused(const dl_State *s, const char *move, const char *rule_id);
/* Plays a legal move (fails the test otherwise); returns its effect. */
dl_Effect play(dl_State *s, const char *move);
/* Number of legal moves. */
long nmoves(const dl_State *s);
/* All legal moves as canonical strings joined by " | " (static buffer). */
const char *moves_str(const dl_State *s);

#endif
