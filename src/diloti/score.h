/* Scoring a round (D23, K4) and the match (D24, K5). */
#ifndef DL_SCORE_H
#define DL_SCORE_H

#include "state.h"

/* The breakdown of the round as it stands (capture piles and xeris). */
void dl_score_round(const dl_State *s, dl_RoundScore *out);
/* Ends the round: D22 sweep, scores it into s->last, adds it to the match
 * and moves to DL_PHASE_ROUND_OVER or DL_PHASE_MATCH_OVER. */
void dl_finish_round(dl_State *s);
/* Replaces the finished round's breakdown (a house-rule hook adjusted it)
 * and decides the match again. Only in ROUND_OVER/MATCH_OVER. */
void dl_adjust_round(dl_State *s, const dl_RoundScore *r);
/* Starts the next round: the deal passes on (D4, D7, K6). */
void dl_next_round(dl_State *s);

#endif
