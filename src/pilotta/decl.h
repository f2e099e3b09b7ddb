/* Declarations (P33-P38): runs and fours, the choice when they share a
 * card, what may be announced, comparing the teams' best. */
#ifndef PL_DECL_H
#define PL_DECL_H

#include "pilotta/state.h"

/* P33: what a set of cards is as one declaration: fills kind and value
 * and returns true, or false when it is neither a run of 3+ in one suit
 * nor a four of a rank worth something. */
bool pl_decl_classify(pl_Set cards, pl_Decl *d);
/* The maximal runs (3+) of a set, by suit, low first; returns how many. */
int pl_runs(pl_Set set, pl_Set out[4]);
/* The fours worth points (not 7s or 8s: P33) in a set, as a set of ranks: a
 * rank's bit survives the four suit bytes ANDed together only when all
 * four cards of it are in the set. */
static inline unsigned pl_fours(pl_Set set) { return (set & set >> 8 & set >> 16 & set >> 24) & 0xFCu; }
/* Where three ranks in a row start, within each suit's byte: a set has a
 * run of 3+ exactly where this is not empty. */
static inline pl_Set pl_run_starts(pl_Set set) { return set & (set >> 1) & (set >> 2) & 0x3F3F3F3Fu; }
/* P33: could a set hold a declaration (a run of 3+, a four worth
 * points)? Most hands cannot: inline, for the playouts' test first. */
static inline bool pl_may_declare(pl_Set set) { return (pl_run_starts(set) | pl_fours(set)) != 0; }
/* P33-P35: the declarations seat could announce now, given what it has
 * announced (P34's choice, or PV-decl-overlap); returns how many. */
int pl_announce_options(const pl_State *s, int seat, pl_Set out[8]);
/* P34 (PE16): the best total a hand could announce. */
int pl_best_declarations(pl_Set hand, const pl_Rules *r);
/* P36: >0 when a beats b, <0 when b wins, 0 when equal. */
int pl_decl_cmp(const pl_Decl *a, const pl_Decl *b, int trump, const pl_Rules *r);
/* P36-P37: the standing team (0, 1), PL_STANDING_EQUAL or _NONE. */
int pl_standing(const pl_State *s);
/* P37-P38: what each team's declarations count, given the shows. */
void pl_counted_declarations(const pl_State *s, int out[2]);
/* P38: announcement i of the standing team, not shown, whose seat has
 * played its card of the second trick: lost, whatever happens next. */
bool pl_decl_lost(const pl_State *s, int i);
/* "run of 4, 50", "four Nines, 150": the public words (P50). */
int pl_decl_describe(const pl_Decl *d, char *buf, size_t cap);

#endif
