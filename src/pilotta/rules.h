/* Pilotta's rules configuration: the base game of PILOTTA.md (P1-P51) and
 * a field for every house rule PV-... (defaults off), plus the target. */
#ifndef PL_RULES_H
#define PL_RULES_H

#include <stdbool.h>

typedef enum {
    PL_ROUND_6, /* P46: 6-9 up, 6/6 only the bidders */
    PL_ROUND_7, /* PV-round-7 */
    PL_ROUND_5, /* PV-round-5 */
    PL_ROUND_RAW /* PV-raw-points: no division by 10 */
} pl_Rounding;

typedef struct {
    bool deal_left;              /* PV-deal-left */
    bool suit_after_auction;     /* PV-suit-after-auction */
    bool pass_final;             /* PV-pass-final */
    bool high_bids;              /* PV-high-bids */
    bool contra_after_auction;   /* PV-contra-after-auction */
    bool declarer_leads;         /* PV-declarer-leads */
    bool partner_exempt;         /* PV-partner-exempt */
    bool must_head;              /* PV-must-head */
    bool decl_overlap;           /* PV-decl-overlap */
    bool decl_100_tie;           /* PV-decl-100-tie */
    bool no_contract_bonus;      /* PV-no-contract-bonus */
    bool fail_keeps_declarations;  /* PV-fail-keeps-declarations */
    bool belote_transfers;       /* PV-belote-transfers */
    bool double_all;             /* PV-double-all */
    bool swept_keeps_declarations; /* PV-swept-keeps-declarations */
    int rounding;                /* pl_Rounding: P46, PV-round-7, -5, raw */
    int target;                  /* P49, PV-target=N, in game points */
} pl_Rules;

/* The base game: no house rule, target 351. */
void pl_rules_default(pl_Rules *r);
/* NULL when usable, else what is wrong (with the rule id). */
const char *pl_rules_check(const pl_Rules *r);
/* P1: Pilotta is for exactly four players; NULL for 4, else why not. */
const char *pl_players_check(int players);
/* Highest numeric bid in tens (P14: 16; PV-high-bids: 24). Capot is 25. */
static inline int pl_max_bid(const pl_Rules *r) { return r->high_bids ? 24 : 16; }

/* Every house rule by name, for tests and tools: sets or clears it.
 * Returns false for an unknown name. target=N and the roundings are not
 * in this list (they take values). */
typedef struct {
    const char *name; /* "PV-partner-exempt" */
    bool *(*field)(pl_Rules *r);
} pl_Variant;
extern const pl_Variant pl_variants[];
extern const int pl_nvariants;

#endif
