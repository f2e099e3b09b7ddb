/* Scoring a round (P41-P47 and the scoring house rules) and the match to
 * its target (P48-P49). */
#ifndef PL_SCORE_H
#define PL_SCORE_H

#include "pilotta/state.h"

/* The round's breakdown from a state whose eight tricks are played. */
void pl_score_round(const pl_State *s, pl_RoundScore *out);
/* P42-P46 from a breakdown whose inputs are filled (trick_points with the
 * last trick and a sweep's 250, tricks, decl, belote, value, mult,
 * bidders): sets made, raw and game. capot: the contract is a capot. */
void pl_score_breakdown(const pl_Rules *r, pl_RoundScore *o, int capot);
/* P46 (PV-round-7, PV-round-5, PV-raw-points): game points from the raw
 * totals; bidders is the bidding team. */
void pl_game_points(const pl_Rules *r, const int raw[2], const int tp[2], int bidders, int game[2]);
/* P48-P49: adds the round to the match and ends it when a team reached
 * the target with the higher total. */
void pl_add_to_match(pl_State *s);
/* The round is played out: score it, then round or match over. */
void pl_finish_round(pl_State *s);
/* P49 (PV-raw-points keeps the target in raw points: ten times). */
int pl_target_points(const pl_Rules *r);

#endif
