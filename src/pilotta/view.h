/* What one seat may know (P50): its own hand, every call, the contract,
 * every card played and who won each trick, each announcement's kind and
 * value (the cards only once shown, or its own), the outcome of P36, the
 * belote once said, the scores. Built field by field from the state, so
 * nothing else can leak into it. */
#ifndef PL_VIEW_H
#define PL_VIEW_H

#include "pilotta/state.h"

typedef struct {
    int seat, kind, value;
    int length;   /* a run's length */
    int rank;     /* a four's rank */
    pl_Set cards; /* shown, or this seat's own; else 0 */
    int shown;
    int lost;     /* P38: not shown when its seat played in trick 2 */
} pl_PublicDecl;

typedef struct {
    pl_Rules rules;
    int seat, phase, turn, dealer, round;
    pl_Set hand;
    int hand_count[4];
    uint8_t calls[PL_MAX_CALLS];
    int ncalls;
    int bid, bid_suit, bidder, mult, contra_by;
    uint8_t played[PL_NCARDS];
    int nplayed;
    uint8_t leader[8];
    int trick_won[2], trick_points[2];
    pl_PublicDecl decl[PL_MAX_DECLS];
    int ndecl;
    int standing, belote;
    int score[2], winner;
    pl_RoundScore last;
    pl_Set unseen; /* cards this seat cannot place: the others' hands */
} pl_View;

/* Fills v (cleared first, so two views compare with memcmp). */
void pl_view(const pl_State *s, int seat, pl_View *v);

#endif
