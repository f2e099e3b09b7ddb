/* Reading the other hands from the play, for the search (optional).
 *
 * Every card is played face up, so what a seat did earlier in this deal
 * says something about the hand it held then: its move had to be legal
 * with that hand (a declaration needs a card of its value, D14, D19), and
 * players seldom pass up an immediate gain such as the 10 of diamonds or a
 * xeri. A guess at the hidden hands is weighted by how well it explains
 * the moves seen: zero when one of them was impossible with the hand the
 * guess implies, else exp(-forgone / temperature) per move, where forgone
 * is the best immediate gain the mover had minus what its move gained. */
#ifndef DL_INFER_H
#define DL_INFER_H

#include "game.h"
#include "moves.h"
#include "view.h"

typedef struct {
    dl_View before; /* the searching seat's view just before the move */
    int who;        /* the seat that moved (never the searching seat) */
    dl_Move move;   /* a card played: lay, capture or declaration */
} dl_Seen;

/* The moves the other seats made so far in this deal, oldest first, each
 * with the view `seat` had just before it (nothing hidden from it): at
 * most DL_NCARDS, as each plays a card. Returns how many. */
int dl_seen_moves(const dl_Game *g, int seat, dl_Seen out[DL_NCARDS]);

/* The cards a capture takes, the card played included; 0 for other moves. */
dl_Set dl_move_taken(const dl_State *s, const dl_Move *m);
/* Does the capture m leave the table empty? (D21 decides if it scores.) */
bool dl_move_sweeps(const dl_State *s, const dl_Move *m);
/* What the cards in c score by the standard points of D23: aces 1, the
 * 10 of diamonds 2, the 2 of clubs 1. */
int dl_card_points(dl_Set c);
/* What a move gains at once, in points: the scoring cards it takes, a
 * small share per card of the 4 points for most cards, 10 for a xeri. */
double dl_move_gain(const dl_State *s, const dl_Move *m);

/* The log-weight of a guess: hands[i] is what seat i holds now in the
 * guess; seen are this deal's moves by the other seats, oldest first.
 * -INFINITY when a seen move was not legal with the implied hand. */
double dl_infer_logweight(const dl_Seen *seen, int nseen, const dl_Set *hands, double temp,
                          dl_MoveList *scratch);

#endif
