/* House-rule configurations the Pilotta sweeps run under, and a random
 * policy that gives the auction some passes (uniform choice over ~70
 * bids would jump to capot at once). */
#ifndef PL_CONFIGS_H
#define PL_CONFIGS_H

#include "pilotta/action.h"

typedef struct {
    const char *name;
    const char *variants; /* for plrules() */
} PlConfig;

/* The base game and each house rule that changes the legal set. */
extern const PlConfig pl_legality_configs[];
extern const int pl_nlegality_configs;

/* Picks an action: in the auction, pass half the time; else uniform. */
const pl_Action *pl_pick(const pl_ActionList *l, const pl_State *s, dl_Rng *rng);
/* A new match dealt with `seed` and its auction played by pl_pick to the
 * play phase; false when the round was thrown in. */
bool pl_to_play(pl_State *s, const pl_Rules *r, uint64_t seed, dl_Rng *rng);
/* Env var as a count, with a default. */
long pl_env_count(const char *name, long dflt);

#endif
