/* A game with its history: every move is recorded with the state before
 * it, so any number of moves can be undone, and a public event log can be
 * shown to each seat. The hot paths (search, playouts) use dl_State
 * directly; this is the handle the host and the Lua binding hold. */
#ifndef DL_GAME_H
#define DL_GAME_H

#include <stddef.h>

#include "apply.h"
#include "position.h"

typedef struct {
    dl_State before;  /* for undo */
    dl_Move move;
    dl_Effect effect;
    bool next_round;  /* a dl_game_next_round() step, not a move */
    char text[120];   /* the move in notation, as it was played */
} dl_Record;

typedef struct {
    dl_State s;
    dl_Record *rec;
    size_t nrec, cap;
    dl_MoveList legal; /* legal moves of s, once listed */
    bool listed;       /* legal is s's (dl_game_moves lists on demand) */
} dl_Game;

/* NULL on failure with *err set (rules inconsistent, out of memory). */
dl_Game *dl_game_new(const dl_Rules *r, uint64_t seed, int dealer, const char **err);
/* From a position string; err receives the parse error. */
dl_Game *dl_game_from_position(const dl_Rules *r, const char *pos, uint64_t seed,
                               char *err, size_t cap);
dl_Game *dl_game_clone(const dl_Game *src);
void dl_game_free(dl_Game *g);

/* The legal moves now (owned by g, valid until the next change), listed
 * on the first call after a change: bounded, see moves.h (legal->cut).
 * NULL if memory ran out. */
const dl_MoveList *dl_game_moves(dl_Game *g);
/* Why m may not be played now ("D19: ..."), in err; NULL if it is legal.
 * Decided from the move itself, never by listing the moves. */
const char *dl_game_refusal(const dl_Game *g, const dl_Move *m, char *err, size_t cap);
/* Plays m if legal: returns NULL, or the refusal ("D19: ...") in err and
 * leaves the game untouched. */
const char *dl_game_play(dl_Game *g, const dl_Move *m, char *err, size_t cap);
/* Parses and plays a move string. */
const char *dl_game_play_str(dl_Game *g, const char *text, char *err, size_t cap);
/* Deals the next round after DL_PHASE_ROUND_OVER; false otherwise. */
bool dl_game_next_round(dl_Game *g);
/* Takes back the last move or deal step; false when there is none. */
bool dl_game_undo(dl_Game *g);
/* Records visible to seat (another seat's private keep decisions hidden). */
bool dl_record_public(const dl_Record *r, int seat);

#endif
