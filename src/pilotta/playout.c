#include "pilotta/playout.h"

bool pl_random_action(pl_State *s, dl_Rng *rng)
{
    pl_ActionList l;
    int n = pl_legal(s, &l);
    if (n == 0) return false;
    pl_apply_legal(s, &l.a[dl_rng_below(rng, (uint32_t)n)]);
    return true;
}

int pl_random_round(pl_State *s, dl_Rng *rng)
{
    int n = 0;
    while (pl_random_action(s, rng)) n++;
    return n;
}
