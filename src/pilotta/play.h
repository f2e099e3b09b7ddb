/* The play of the cards (P21-P32, P39-P40): the legal cards of P28's
 * procedure with PV-partner-exempt and PV-must-head, tricks, the belote,
 * announcements and shows, and the end of the round. */
#ifndef PL_PLAY_H
#define PL_PLAY_H

#include "pilotta/state.h"

/* P21 (PV-declarer-leads): the first trick's leader; the play begins. */
void pl_start_play(pl_State *s);
/* P23-P28: the cards the seat to play may play now. */
pl_Set pl_legal_cards(const pl_State *s);
/* Seat whose card wins the current (or just completed) trick so far, -1
 * when it is empty (P29). */
int pl_trick_winner(const pl_State *s, int trick);
/* The card now winning the current trick (P29), -1 when it is empty. */
int pl_best_card(const pl_State *s);
/* Appends the legal play-phase actions (announce, show, cards) to out. */
void pl_play_legal(const pl_State *s, pl_ActionList *out);
/* Applies a legal play-phase action. */
void pl_play_apply(pl_State *s, const pl_Action *a);
/* Does playing card c now with the flag count as belote (P39)? */
bool pl_belote_pending(const pl_State *s, int card);
/* P38: may the seat to play show now? */
bool pl_may_show(const pl_State *s);

#endif
