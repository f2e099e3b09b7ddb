/* The Pilotta game state: a plain struct without pointers, so a copy is a
 * clone (search and playouts copy it). Everything a position needs is
 * here; what a seat was dealt is its hand plus the cards it played. And
 * the action that changes it: every call, trump choice, announcement,
 * show and card play of P12-P40 in one small struct. Nothing here knows
 * the rules: the files above (auction, decl, play, score) do. */
#ifndef PL_STATE_H
#define PL_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "pilotta/cards.h"
#include "pilotta/rules.h"
#include "rng.h"

/* Auction calls of a round (18 bids, 3 passes after each, contra,
 * recontra and the passes between, the trump choice): 96 is ample. */
#define PL_MAX_CALLS 96
/* Announcements of a round: at most 3 a player (PV-decl-overlap). */
#define PL_MAX_DECLS 16
#define PL_CAPOT 25 /* capot in the bid scale of tens (P14: 250) */

typedef enum {
    PL_PHASE_AUCTION,    /* P12-P18 */
    PL_PHASE_TRUMP,      /* PV-suit-after-auction: the holder names trumps */
    PL_PHASE_CONTRA,     /* PV-contra-after-auction: the contra window */
    PL_PHASE_PLAY,       /* P21-P40 */
    PL_PHASE_ROUND_OVER, /* scored or thrown in; pl_next_round() deals */
    PL_PHASE_MATCH_OVER  /* P49 */
} pl_Phase;

typedef enum { PL_RUN, PL_FOUR } pl_DeclKind;

/* An announced declaration (P33-P35): its cards are private until shown. */
typedef struct {
    pl_Set cards;
    uint8_t seat;
    uint8_t kind;  /* pl_DeclKind */
    uint8_t value; /* 20, 50, 100, 150 or 200 */
    uint8_t shown; /* P38 */
} pl_Decl;

/* One round's score (P41-P46), per team (0 = seats 0 and 2). */
typedef struct {
    int trick_points[2]; /* T */
    int decl[2];         /* D, counted */
    int belote[2];       /* B, said */
    int raw[2];          /* P43-P45 before rounding */
    int game[2];         /* P46: game points this round */
    int tricks[2];
    int value;           /* V (250 for capot) */
    int mult;            /* m */
    int bidders;         /* team, -1 when thrown in */
    int made;            /* 1 made, 0 failed */
    int thrown_in;       /* P19 */
} pl_RoundScore;

typedef struct {
    pl_Rules rules;
    pl_Set hand[4];
    uint8_t phase, dealer, turn;
    int32_t round;
    /* auction */
    uint8_t calls[PL_MAX_CALLS]; /* pl_call_code() of each call, in order */
    uint8_t ncalls;
    uint8_t bid;        /* highest bid in tens (8..24, 25 capot), 0 none */
    int8_t bid_suit;    /* -1 until named (PV-suit-after-auction) */
    int8_t bidder;      /* seat, -1 */
    uint8_t mult;       /* 1, 2 contra, 4 recontra */
    int8_t contra_by;   /* seat, -1 */
    uint8_t passes;     /* passes in a row (in the contra window: steps) */
    uint8_t passed;     /* seats that have passed (PV-pass-final) */
    /* play */
    uint8_t played[PL_NCARDS]; /* cards in play order */
    uint8_t nplayed;
    uint8_t leader[8];  /* leader of each trick */
    uint8_t trick_won[2];  /* tricks per team */
    int16_t trick_points[2]; /* card points per team so far (P30) */
    pl_Decl decl[PL_MAX_DECLS];
    uint8_t ndecl;
    int8_t standing;    /* P36: -1 not yet, 0/1 team, 2 equal, 3 none */
    int8_t belote;      /* seat that said belote, -1 */
    /* match */
    int32_t score[2];
    int8_t winner;      /* P49: team, -1 */
    pl_RoundScore last; /* the last finished round */
    dl_Rng rng;
} pl_State;

enum { PL_STANDING_NOT_YET = -1, PL_STANDING_EQUAL = 2, PL_STANDING_NONE = 3 };

static inline int pl_team(int seat) { return seat & 1; }
/* Team holding the highest bid, -1 when none stands. */
static inline int pl_bidding_team(const pl_State *s) { return s->bidder < 0 ? -1 : pl_team(s->bidder); }
/* Contract value V in points (P20: capot 250). */
static inline int pl_contract_value(const pl_State *s) { return s->bid == PL_CAPOT ? 250 : s->bid * 10; }
static inline int pl_eldest(const pl_State *s) { return (s->dealer + 1) & 3; }
static inline int pl_trick_index(const pl_State *s) { return s->nplayed >> 2; }
static inline int pl_trick_count(const pl_State *s) { return s->nplayed & 3; }
/* Seat that played card number i of the round. */
static inline int pl_player_of(const pl_State *s, int i)
{
    return (s->leader[i >> 2] + (i & 3)) & 3;
}
/* The trump suit once fixed, -1 before. */
static inline int pl_trump(const pl_State *s) { return s->bid_suit; }
/* Cards seat has played this round. */
pl_Set pl_played_by(const pl_State *s, int seat);
/* What seat was dealt: its hand and the cards it played. */
static inline pl_Set pl_dealt(const pl_State *s, int seat)
{
    return s->hand[seat] | pl_played_by(s, seat);
}
/* Cards of the trick being played. */
pl_Set pl_trick_set(const pl_State *s);

/* A state with no cards dealt and nothing played (auction phase). */
void pl_state_blank(pl_State *s, const pl_Rules *r);
/* ---- actions ---- */

typedef enum {
    PL_PASS,     /* P12 */
    PL_BID,      /* P12, P14: value (tens, 25 = capot) and suit */
    PL_CONTRA,   /* P16 */
    PL_RECONTRA, /* P17 */
    PL_TRUMP,    /* PV-suit-after-auction: suit */
    PL_ANNOUNCE, /* P35: cards */
    PL_SHOW,     /* P38 */
    PL_PLAY      /* P21-P29: card, belote flag (P39) */
} pl_Kind;

typedef struct {
    pl_Set cards;  /* PL_ANNOUNCE */
    uint8_t kind;  /* pl_Kind */
    uint8_t value; /* PL_BID: 8..24 tens, PL_CAPOT */
    int8_t suit;   /* PL_BID, PL_TRUMP: 0..3; -1 for a bid without suit */
    uint8_t card;  /* PL_PLAY */
    uint8_t belote; /* PL_PLAY: said with the first of K and Q of trumps */
} pl_Action;

/* An auction turn has at most pass, contra and 18 values x 4 suits. */
#define PL_MAX_ACTIONS 96
typedef struct {
    pl_Action a[PL_MAX_ACTIONS];
    int n;
} pl_ActionList;

static inline bool pl_action_eq(const pl_Action *x, const pl_Action *y)
{
    return x->kind == y->kind && x->value == y->value && x->suit == y->suit &&
           x->card == y->card && x->belote == y->belote && x->cards == y->cards;
}

#endif
