#include "pilotta/plconfigs.h"

#include <stdlib.h>

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

long pl_env_count(const char *name, long dflt)
{
    const char *e = getenv(name);
    long n = e ? atol(e) : dflt;
    return n > 0 ? n : dflt;
}
