/* A Pilotta game with its history: every action and every new round is
 * kept with the state before it, so undo is a copy and a record is the
 * list of texts. The Lua handle (src/lua/handle.c, over
 * src/pilotta/lua/ops.c) wraps one. */
#ifndef PL_GAME_H
#define PL_GAME_H

#include <stdbool.h>
#include <stddef.h>

#include "pilotta/refuse.h"

/* One step of the game: an action, or the deal of the next round. */
typedef struct {
    pl_State before;
    pl_Action action;
    char text[72];     /* canonical, ASCII; "" for a new round */
    int8_t seat;       /* who acted; -1 for a new round */
    uint8_t next_round;
    uint8_t trick_over; /* the action completed a trick */
    uint8_t round_over; /* the action ended the round (scored or thrown in) */
} pl_Record;

typedef struct {
    pl_State s;
    pl_Record *rec;
    size_t nrec, cap;
    size_t round_start; /* first record of the round under way */
    pl_ActionList legal; /* kept until the state changes */
    bool legal_ok;
} pl_Game;

/* A new match (pl_new_match), or NULL with *err set. */
pl_Game *pl_game_new(const pl_Rules *r, uint64_t seed, int dealer, const char **err);
/* A game from a position text (pl_position_parse); NULL with err filled. */
pl_Game *pl_game_from_position(const pl_Rules *r, const char *text, uint64_t seed, char *err, size_t cap);
void pl_game_free(pl_Game *g);
pl_Game *pl_game_clone(const pl_Game *g);
/* The legal actions now (kept until the state changes). */
const pl_ActionList *pl_game_legal(pl_Game *g);
/* Plays a if legal: NULL, or err holding the refusal ("P24: ...").
 * Returns "out of memory" when the history cannot grow. */
const char *pl_game_play(pl_Game *g, const pl_Action *a, char *err, size_t cap);
/* Takes back the last step (an action or a new round); false at the start. */
bool pl_game_undo(pl_Game *g);
/* Deals the next round after one ended; false when none may be dealt
 * (the round is not over, the match is, or out of memory). */
bool pl_game_next_round(pl_Game *g);
/* Actions played in the round under way. */
static inline int pl_game_ply(const pl_Game *g) { return (int)(g->nrec - g->round_start); }

#endif
