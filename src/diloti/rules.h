/* The rules configuration. Diloti (D1-D24), Kontsina (K1-K8) and every
 * variant of RULES.md are values of this one struct; the Lua rules scripts
 * only set these fields (and add hooks on top). */
#ifndef DL_RULES_H
#define DL_RULES_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    DL_CAPTURE_MANY, /* D11: several disjoint parts at once */
    DL_CAPTURE_ONE   /* K2: exactly one combination */
} dl_CaptureModel;

typedef enum {
    DL_REDEAL_NONE,        /* K1 */
    DL_REDEAL_FACE_TRIPLE, /* D5: 3 or 4 face cards of one rank */
    DL_REDEAL_ANY_TRIPLE   /* V-redeal-any-triple: 3 or 4 of any rank */
} dl_Redeal;

typedef enum {
    DL_MATCH_POINTS, /* D24, K5 variant: first to the target points */
    DL_MATCH_ROUNDS  /* K5: most rounds won after `target` rounds */
} dl_MatchFormat;

typedef struct {
    int cards;        /* for the most cards (none on a tie) */
    int ace;          /* per ace */
    int ten_diamonds; /* the good 10 */
    int two_clubs;    /* the good 2 */
    int clubs;        /* for the most clubs (none on a tie) */
    int xeri;         /* per xeri */
} dl_Points;

typedef struct {
    int players;        /* 2, 3 or 4 */
    bool teams;         /* D7/K8: seats 0+2 and 1+3 pool their captures */
    int hand_size;      /* cards per player per deal */
    int table_cards;    /* face up on the table at the first deal */
    int deals;          /* per round; players*hand_size*deals+table = 52 */
    bool declarations;  /* D14-D19 allowed (Diloti) or not (Kontsina) */
    dl_CaptureModel capture;
    bool face_lay_blocked; /* D10: no face card laid onto its rank */
    dl_Redeal redeal;
    bool three_face_cards; /* V-three-face-cards, C2 */
    bool face_card_claim;  /* V-face-card-claim */
    bool claim_any_deal;   /* ... option any_deal */
    int claim_faces;       /* face cards that entitle a claim (5) */
    bool dealer_peeks;     /* V-dealer-peeks */
    bool forced_capture;   /* V-forced-capture, C1 */
    bool liberal_group;    /* V-liberal-group, C3 */
    bool liberal_raise;    /* V-liberal-raise, C4 */
    bool liberal_capture;  /* V-liberal-capture, C5 */
    bool soy;              /* V-soy */
    bool xeri;             /* D21 at all (Kontsina has none) */
    bool xeri_first_card;  /* V-xeri-first-card */
    bool xeri_last_card;   /* D21 default true; V-no-xeri-last-card */
    bool clockwise;        /* V-seed001: display direction only */
    dl_Points points;
    dl_MatchFormat match;
    int target; /* points (61) or rounds */
} dl_Rules;

/* D1-D24 defaults: two players, 61 points. */
void dl_rules_diloti(dl_Rules *r);
/* K1-K6 defaults: two players, a match of `target` rounds (default 3). */
void dl_rules_kontsina(dl_Rules *r);
/* Adjusts deals (and teams off) for a new player count, keeping the rest. */
void dl_rules_set_players(dl_Rules *r, int players, bool teams);
/* Returns NULL if consistent, or a message naming what is wrong. */
const char *dl_rules_check(const dl_Rules *r);
/* Side of a seat: with teams seats 0,2 -> 0 and 1,3 -> 1, else the seat. */
static inline int dl_side(const dl_Rules *r, int seat)
{
    return r->teams ? seat & 1 : seat;
}
static inline int dl_nsides(const dl_Rules *r)
{
    return r->teams ? 2 : r->players;
}

#endif
