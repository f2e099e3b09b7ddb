/* What one seat may know (hidden hands and pack, RULES.md): its own hand,
 * the table, everything played and captured in the open, how many cards
 * the others hold and the pack has, and with V-dealer-peeks the dealer's
 * bottom card. Built by copying only those fields, so nothing else leaks. */
#ifndef DL_VIEW_H
#define DL_VIEW_H

#include "state.h"

typedef struct {
    dl_Rules rules;
    int seat;
    int phase;   /* DL_PHASE_CLAIM only when this seat has a claim to decide */
    int turn;    /* others' private claim decisions show as the first player */
    int dealer, deal, round, ply, last_capturer;
    dl_Set hand; /* this seat's cards */
    dl_Set loose;
    dl_Decl decl[DL_MAX_DECLS];
    int ndecl;
    uint8_t comp[DL_NCARDS];
    int hand_count[DL_MAX_PLAYERS];
    int pack_count;
    dl_Set pile[DL_MAX_PLAYERS]; /* captured in the open, per side */
    int xeri[DL_MAX_PLAYERS], score[DL_MAX_PLAYERS], rounds_won[DL_MAX_PLAYERS];
    int known_bottom; /* V-dealer-peeks: the card the dealer saw, else -1 */
    dl_Set unseen;    /* cards this seat cannot place: others' hands, pack */
} dl_View;

void dl_view(const dl_State *s, int seat, dl_View *v);
/* The view's public position as a state: table, piles, scores, turn and
 * this seat's hand; the other hands and the pack left empty. */
void dl_view_state(const dl_View *v, dl_State *s);

#endif
