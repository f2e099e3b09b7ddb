/* The double-dummy solver: the exact value of Pilotta's card play from a
 * position whose four hands are all known, both sides playing perfectly.
 *
 * A value is the trick points (P30-P32) one team ends the round with:
 * card points plus the last trick, 250 for a sweep, and PL_SOLVE_SWEPT
 * (-1) for a team that wins no trick. The -1 keeps the order of the
 * round's outcome: a swept team loses its declarations and its contract
 * (P42, P43), which is worse than 0 points with a trick. Declarations and
 * the belote do not change the play's value (they are fixed before it or
 * by whoever holds King and Queen); they enter only pl_solve_game.
 *
 * Alpha-beta on the engine's legal sets (pl_legal_cards' rules, kept
 * incrementally and checked against it in test builds, so the house rules
 * that change legality hold), with a transposition table keyed at trick
 * starts on the four hands, the leader and which teams have won a trick,
 * bounds at trick starts from the trumps no opponent can beat, and move
 * ordering (the table's move, a killer lead, winners, equal cards as one
 * move, at the root too). The table has a fixed size set when the solver
 * is made. */
#ifndef PL_SOLVE_H
#define PL_SOLVE_H

#include <stdbool.h>

#include "pilotta/state.h"

#define PL_SOLVE_SWEPT (-1)
#define PL_SOLVE_SWEEP 250

typedef struct pl_Solver pl_Solver;

/* A solver with a table of 2^bits entries (16 bytes each; bits is held
 * to 10..24, 0 for the default 2^17). NULL when memory runs out. */
pl_Solver *pl_solver_new(int bits);
void pl_solver_free(pl_Solver *sv);
/* Stops the searches that run past this many seconds from now (0: no
 * limit); a stopped search's values mean nothing and are not kept. */
void pl_solver_deadline(pl_Solver *sv, double seconds);
bool pl_solver_stopped(const pl_Solver *sv);
/* Positions searched (cards played) since the solver was made. */
long pl_solver_nodes(const pl_Solver *sv);

typedef struct {
    int card;  /* 0..31 */
    int value; /* for the team of the seat to move, as above */
} pl_SolveMove;

typedef struct {
    int team;   /* the team of the seat to move */
    int value;  /* its value under best play */
    long nodes; /* positions searched by this call */
    int nmoves;
    pl_SolveMove moves[8]; /* every legal card, best first (ties in pack order) */
} pl_SolveResult;

/* Value of a play-phase state (hands all known, the round not over) for
 * the team of the seat to move; with out, every legal card's value too.
 * Returns the value, or -2 when the state is not in the play phase. */
int pl_solve(pl_Solver *sv, const pl_State *s, pl_SolveResult *out);
/* The value for the team of the seat to move after that seat plays card
 * now; -2 when card is not legal or the state not in the play. */
int pl_solve_after(pl_Solver *sv, const pl_State *s, int card);
/* A value for one team as the other team's value. */
int pl_solve_other(int value);

/* The round's breakdown (P41-P46) when team ends the play with value
 * (as above) from state s: the declarations announced so far settled by
 * P36-P38 as if every standing announcer shows when due (one who already
 * played his second card without showing has lost his), and the belote to
 * the holder of trump King and Queen as if said (one already played
 * without it is lost). out->game is the game points per team, out->made
 * the contract's outcome. */
void pl_solve_score(const pl_State *s, int team, int value, pl_RoundScore *out);

#endif
