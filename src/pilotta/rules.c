#include "pilotta/rules.h"

#include <stddef.h>

void pl_rules_default(pl_Rules *r)
{
    *r = (pl_Rules){0};
    r->rounding = PL_ROUND_6;
    r->target = 351;
}

const char *pl_rules_check(const pl_Rules *r)
{
    if (r->rounding < PL_ROUND_6 || r->rounding > PL_ROUND_RAW)
        return "P46: unknown rounding (P46, PV-round-7, PV-round-5 or PV-raw-points)";
    if (r->target < 1 || r->target > 10000)
        return "PV-target=N: the target must be between 1 and 10000 game points";
    return NULL;
}

const char *pl_players_check(int players)
{
    return players == 4 ? NULL : "P1: Pilotta is played by exactly four players in two partnerships";
}

#define FIELD(f) \
    static bool *f##_field(pl_Rules *r) { return &r->f; }
FIELD(deal_left)
FIELD(suit_after_auction)
FIELD(pass_final)
FIELD(high_bids)
FIELD(contra_after_auction)
FIELD(declarer_leads)
FIELD(partner_exempt)
FIELD(must_head)
FIELD(decl_overlap)
FIELD(decl_100_tie)
FIELD(no_contract_bonus)
FIELD(fail_keeps_declarations)
FIELD(belote_transfers)
FIELD(double_all)
FIELD(swept_keeps_declarations)

const pl_Variant pl_variants[] = {
    {"PV-deal-left", deal_left_field},
    {"PV-suit-after-auction", suit_after_auction_field},
    {"PV-pass-final", pass_final_field},
    {"PV-high-bids", high_bids_field},
    {"PV-contra-after-auction", contra_after_auction_field},
    {"PV-declarer-leads", declarer_leads_field},
    {"PV-partner-exempt", partner_exempt_field},
    {"PV-must-head", must_head_field},
    {"PV-decl-overlap", decl_overlap_field},
    {"PV-decl-100-tie", decl_100_tie_field},
    {"PV-no-contract-bonus", no_contract_bonus_field},
    {"PV-fail-keeps-declarations", fail_keeps_declarations_field},
    {"PV-belote-transfers", belote_transfers_field},
    {"PV-double-all", double_all_field},
    {"PV-swept-keeps-declarations", swept_keeps_declarations_field},
};
const int pl_nvariants = (int)(sizeof pl_variants / sizeof *pl_variants);
