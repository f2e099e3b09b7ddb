/* The search AI: single-observer information-set Monte Carlo tree search
 * (SO-ISMCTS, Cowling, Powley & Whitehouse 2012) over deals consistent with
 * one seat's view, with a greedy playout policy, and an exact alpha-beta
 * search once the last deal is fully known (two players, empty pack) or,
 * optionally, over sampled deals when several hands stay hidden.
 *
 * It is given a dl_View, never a dl_State: it cannot read hidden cards.
 * Each iteration deals the unseen cards at random (dl_determinize), or
 * with `infer` from guesses weighted by the others' moves seen this deal
 * (infer.h, themselves given as views), walks
 * the tree among the moves legal in that deal, plays the round out with
 * the policy, and scores the round for every side. Runs with an iteration
 * limit are deterministic under the seed; time limits depend on speed. */
#ifndef DL_SEARCH_H
#define DL_SEARCH_H

#include "infer.h"
#include "moves.h"
#include "view.h"

#define DL_SEARCH_MAX_ROOT 64

/* Evaluation weights on a side's round: points for the most cards, the
 * most clubs, aces, the 10 of diamonds, the 2 of clubs, xeris, and a
 * weight per captured card. A side's value is its weighted sum minus the
 * best other side's. */
enum { DL_W_CARDS, DL_W_CLUBS, DL_W_ACES, DL_W_TEN_D, DL_W_TWO_C, DL_W_XERI, DL_W_COUNT, DL_NW };

typedef struct {
    long iterations;    /* stop after this many; 0: time only */
    double seconds;     /* stop after this long; 0: iterations only */
    uint64_t seed;
    double exploration; /* UCB1 constant */
    double epsilon;     /* playouts: chance of a random move */
    int exact_cards;    /* exact search with at most this many cards in hands; 0: never */
    int deals;          /* 3-4 players, empty pack, exact_cards reached: solve this many
                           sampled deals exactly and average (D22 endgame); 0: never */
    double w[DL_NW];
    /* Reading the others' hands from their play (infer.h): the deals are
     * drawn from `pool` guesses weighted by how well they explain the
     * moves in `seen`, with this temperature in points; 0: uniform. */
    double infer;
    int pool;
    const dl_Seen *seen;
    int nseen;
} dl_SearchParams;

typedef struct {
    dl_Move move;
    long visits;
    double value; /* mean reward in [0,1], or the exact point difference */
} dl_SearchMove;

typedef struct {
    dl_Move best;
    long iterations; /* playouts, or positions searched when exact */
    double value;    /* the best move's value */
    bool exact;
    int deals;       /* sampled deals solved exactly (3-4 players), else 0 */
    int seen;        /* moves read for the others' hands (infer), else 0 */
    double guesses;  /* how many of the pool's guesses the weights leave,
                        as an effective sample size; 0 without a pool */
    int nmoves;
    dl_SearchMove moves[DL_SEARCH_MAX_ROOT]; /* root moves, best first */
} dl_SearchResult;

void dl_search_defaults(dl_SearchParams *p);
/* Returns 0, or -1 when the seat has no move to make in this view or
 * memory ran out. */
int dl_search(const dl_View *v, const dl_SearchParams *p, dl_SearchResult *out);
/* One full state consistent with the view: the unseen cards dealt at
 * random to the other hands and the pack (a known bottom card stays at the
 * bottom). */
void dl_determinize(const dl_View *v, dl_Rng *rng, dl_State *s);
/* The world of one seat's view (docs/security.md, "Sealed services"):
 * the seat's hand, the table and all that is public as they are, the
 * cards it cannot place dealt to the other hands and the pack by
 * dl_determinize with a seed made of the view alone. Two states that
 * differ only in what the seat cannot see give the same world, so any
 * work done on it for a script (ctx.simulate) costs the same in both. */
void dl_sealed_state(const dl_State *s, int seat, dl_State *out);
/* The playout policy: the index of a move in l (greedy on captures and
 * xeris, cautious with lays, random with probability epsilon). */
size_t dl_policy_pick(const dl_State *s, const dl_MoveList *l, dl_Rng *rng, double epsilon);

#endif
