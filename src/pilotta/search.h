/* Pilotta's search for the hidden hands: perfect-information Monte Carlo
 * (PIMC). Given one seat's view (pl_View, never a pl_State), it deals the
 * unseen cards again and again in ways consistent with what the seat
 * knows, solves every deal double-dummy (solve.h) after each card the seat
 * may play, and ranks the cards by the mean of the round's game-point
 * margin (own team minus the other).
 *
 * What a deal respects (pl_sample_*):
 * - the hand sizes, the seat's own hand and every card played;
 * - every play seen: a card a seat played must have been legal for it by
 *   the engine's own pl_legal_cards, so any unseen card that would have
 *   made it illegal is not in that hand (a failure to follow, to trump,
 *   to overtrump, or under PV-must-head to beat: each house rule's
 *   legality holds by construction);
 * - shown declarations (their unplayed cards stay with the seat), fours
 *   announced (all four cards), runs announced (a whole run of the
 *   announced length in some suit, held at the first trick, and no longer
 *   one), the outcome of P36 when it is known;
 * - a said belote: the seat held the King and Queen of trumps.
 * Within those, deals are drawn uniformly (an exact count by classes of
 * cards with the same allowed seats); a hidden run first takes one of its
 * possible places, each as likely, which is near uniform but not exact. With `infer`, one deal of
 * 40 such candidates is kept in proportion to how well it explains the
 * other seats' calls (pl_auction_weight, infer.h).
 *
 * Runs with no time limit are deterministic under the seed. */
#ifndef PL_SEARCH_H
#define PL_SEARCH_H

#include <stdbool.h>

#include "pilotta/infer.h"
#include "pilotta/view.h"

typedef struct {
    int deals;       /* deals to solve (default 24) */
    double seconds;  /* stop after this long; 0: deals only */
    uint64_t seed;
    bool infer;      /* weight deals by the auction */
    int table_bits;  /* the solver's table: 2^bits entries of 16 bytes; 0: 16 */
} pl_SearchParams;

typedef struct {
    int card;
    double value;  /* mean game-point margin for the seat's team */
    double points; /* mean trick points for the seat's team (a sweep against it: 0) */
    double made;   /* share of deals where the contract's outcome favours the team */
} pl_SearchMove;

typedef struct {
    int best;   /* card; with no deal solved in time, only a legal card (deals 0) */
    double value;
    int deals;  /* deals solved */
    long nodes;
    bool exact; /* nothing hidden, and that one deal was solved */
    int nmoves;
    pl_SearchMove moves[8]; /* every legal card, best first */
} pl_SearchResult;

void pl_search_defaults(pl_SearchParams *p);
/* Returns 0; -1 when it is not the seat's turn to play a card; -2 when
 * memory ran out. */
int pl_search(const pl_View *v, const pl_SearchParams *p, pl_SearchResult *out);

/* ---- the sampler (for the search and its tests) ---- */

typedef struct pl_Sampler pl_Sampler;
/* What the view tells about the hidden hands; NULL when out of memory. */
pl_Sampler *pl_sampler_new(const pl_View *v);
void pl_sampler_free(pl_Sampler *sm);
/* A full play-phase state consistent with the view: the unseen cards
 * dealt, the others' announcements given cards. With infer, weighted by
 * the auction (see above). Returns false only when no deal is
 * consistent (then the constraints are dropped one by one: the state is
 * still a legal deal of the unseen cards with the right hand sizes). */
bool pl_sample(pl_Sampler *sm, dl_Rng *rng, bool infer, pl_State *out);
/* Cards a seat cannot hold / must hold, as the sampler reads the view. */
pl_Set pl_sampler_forbidden(const pl_Sampler *sm, int seat);
pl_Set pl_sampler_fixed(const pl_Sampler *sm, int seat);
/* How many deals are consistent (runs placed as the sampler would), as a
 * double; 1 when nothing is hidden. */
double pl_sampler_count(const pl_Sampler *sm);

/* The world of one seat's view (docs/security.md, "Sealed services"):
 * the seat's hand and all that is public as they are, the other hands
 * (and the cards of announcements not shown) drawn by pl_sample with a
 * seed made of the view alone. Two states that differ only in what the
 * seat cannot see give the same world, so work done on it for a script
 * (ctx.simulate) costs the same in both. False when memory ran out. */
bool pl_sealed_state(const pl_State *s, int seat, pl_State *out);

#endif
