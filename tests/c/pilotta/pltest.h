/* Helpers for the Pilotta suites: rules by house-rule names, positions
 * from text, actions by notation, the legal set as text. Each fails the
 * running cmocka test with a readable message on misuse. */
#ifndef PL_TEST_H
#define PL_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
/* cmocka needs these first */
#include <cmocka.h>

#include "pilotta/check.h"
#include "pilotta/refuse.h"
#include "pilotta/deal.h"
#include "pilotta/decl.h"
#include "pilotta/notation.h"
#include "pilotta/play.h"
#include "pilotta/position.h"
#include "pilotta/score.h"
#include "pilotta/view.h"

/* The base rules with the named house rules on ("PV-partner-exempt
 * PV-must-head", "" for none; also "PV-round-7", "PV-round-5",
 * "PV-raw-points", "PV-target=151"). */
pl_Rules plrules(const char *variants);
/* A position (seed 1 for hidden cards); fails the test on error. */
pl_State plpos(const pl_Rules *r, const char *text);
/* Parses and applies; fails the test when refused. */
void plplay(pl_State *s, const char *action);
/* Plays a list of actions separated by ','. */
void plplays(pl_State *s, const char *actions);
/* The refusal ("P24: ..."), "" when legal, "parse: ..." when it does not
 * parse. Static buffer. */
const char *plrefusal(const pl_State *s, const char *action);
/* Asserts the action is refused citing rule_id ("P24"). */
void assert_pl_refused(const pl_State *s, const char *action, const char *rule_id);
/* The legal set as canonical texts sorted and joined by " | " (static). */
const char *pllegal(const pl_State *s);
/* The legal cards as text, in pack order ("As 7s"). Static buffer. */
const char *plcards(const pl_State *s);
/* A set from text ("Jc Jd Jh"). */
pl_Set plset(const char *cards);

#endif

#ifndef PL_TEST_BARE
#define PL_TEST_BARE
/* A bare play-phase state for the legal-set examples: trumps, the
 * leader, the cards of the trick so far and the hand of the seat to play
 * (other hands empty; enough for pl_legal_cards and refusals). */
pl_State plbare(const pl_Rules *r, int trump, int leader, const char *trick, const char *hand);
/* A breakdown's inputs for pl_score_breakdown. */
pl_RoundScore plround(int bidders, int value, int mult, int tpA, int tpB, int tricksA, int dA, int dB,
                      int bA, int bB);
#endif
