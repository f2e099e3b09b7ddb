#include "pilotta/plconfigs.h"

#include <stdlib.h>

#include "pilotta/deal.h"

const PlConfig pl_legality_configs[] = {
    {"base", ""},
    {"PV-suit-after-auction", "PV-suit-after-auction"},
    {"PV-pass-final", "PV-pass-final"},
    {"PV-high-bids", "PV-high-bids"},
    {"PV-contra-after-auction", "PV-contra-after-auction"},
    {"PV-declarer-leads", "PV-declarer-leads"},
    {"PV-partner-exempt", "PV-partner-exempt"},
    {"PV-must-head", "PV-must-head"},
    {"PV-decl-overlap", "PV-decl-overlap"},
    {"PV-decl-100-tie", "PV-decl-100-tie"},
    {"all legality rules", "PV-suit-after-auction PV-pass-final PV-high-bids PV-contra-after-auction "
                           "PV-declarer-leads PV-partner-exempt PV-must-head PV-decl-overlap PV-decl-100-tie"},
};
const int pl_nlegality_configs = (int)(sizeof pl_legality_configs / sizeof *pl_legality_configs);

const pl_Action *pl_pick(const pl_ActionList *l, const pl_State *s, dl_Rng *rng)
{
    if (s->phase == PL_PHASE_AUCTION && l->a[0].kind == PL_PASS && dl_rng_below(rng, 2)) return &l->a[0];
    return &l->a[dl_rng_below(rng, (uint32_t)l->n)];
}

bool pl_to_play(pl_State *s, const pl_Rules *r, uint64_t seed, dl_Rng *rng)
{
    pl_new_match(s, r, seed, -1);
    pl_ActionList l;
    while (s->phase != PL_PHASE_PLAY) {
        if (s->phase >= PL_PHASE_ROUND_OVER) return false;
        pl_legal(s, &l);
        pl_apply_legal(s, pl_pick(&l, s, rng));
    }
    return true;
}

long pl_env_count(const char *name, long dflt)
{
    const char *e = getenv(name);
    long n = e ? atol(e) : dflt;
    return n > 0 ? n : dflt;
}
