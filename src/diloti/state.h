/* The game state: a plain struct with no pointers, so copying it is a
 * clone. Dealing, the round and match bookkeeping live in game.c; this file
 * owns the layout, set-up and the invariant checker, and the move that
 * changes a state (its legality is legal.h's, the lists moves.h's). */
#ifndef DL_STATE_H
#define DL_STATE_H

#include <stdint.h>

#include "cards.h"
#include "rng.h"
#include "rules.h"

#define DL_MAX_PLAYERS 4
/* D19: every declaration has an owner, and a player owns at most one. */
#define DL_MAX_DECLS DL_MAX_PLAYERS

typedef enum { DL_DECL_PLAIN, DL_DECL_GROUP } dl_DeclKind;

/* D2: a declaration. Its components are recorded per card in
 * dl_State.comp (component index within the declaration). */
typedef struct {
    dl_Set cards;
    uint8_t value; /* 1..10 */
    uint8_t kind;  /* dl_DeclKind */
    uint8_t owner; /* seat */
    uint8_t ncomp; /* 1 for plain, >= 2 for a group */
} dl_Decl;

typedef enum {
    DL_PHASE_CLAIM,      /* V-face-card-claim: entitled seats decide */
    DL_PHASE_PLAY,       /* a player is to play a card */
    DL_PHASE_ROUND_OVER, /* round scored; dl_next_round() deals the next */
    DL_PHASE_MATCH_OVER
} dl_Phase;

/* D23/K4: one round's score breakdown, per side. */
typedef struct {
    int cards[DL_MAX_PLAYERS];  /* number of cards captured */
    int clubs[DL_MAX_PLAYERS];  /* number of clubs captured */
    int aces[DL_MAX_PLAYERS];   /* number of aces captured */
    int xeris[DL_MAX_PLAYERS];
    int pts_cards[DL_MAX_PLAYERS];
    int pts_clubs[DL_MAX_PLAYERS];
    int pts_aces[DL_MAX_PLAYERS];
    int pts_ten_diamonds[DL_MAX_PLAYERS];
    int pts_two_clubs[DL_MAX_PLAYERS];
    int pts_xeri[DL_MAX_PLAYERS];
    int total[DL_MAX_PLAYERS];
    int winner; /* side with the most points this round, -1 on a tie */
} dl_RoundScore;

typedef struct {
    dl_Rules rules;
    dl_Set hand[DL_MAX_PLAYERS];
    dl_Set loose;                /* loose cards on the table */
    dl_Decl decl[DL_MAX_DECLS];  /* declarations on the table */
    uint8_t ndecl;
    uint8_t comp[DL_NCARDS];     /* component of a declared card */
    dl_Set pile[DL_MAX_PLAYERS]; /* capture piles, per side (D8) */
    uint8_t xeri[DL_MAX_PLAYERS];     /* per side, this round */
    uint8_t pack[DL_NCARDS];     /* undealt cards pack[pack_pos..pack_len) */
    uint8_t pack_pos, pack_len;  /* pack[pack_len-1] is the bottom card */
    uint8_t phase;               /* dl_Phase */
    uint8_t dealer, turn;
    uint8_t deal;                /* 1-based deal number in the round */
    uint8_t ply;                 /* cards played this round */
    int8_t last_capturer;        /* seat, -1 if nobody captured yet */
    uint8_t claim_pending;       /* seats yet to decide a claim (bits) */
    uint8_t peeked;              /* V-dealer-peeks: bottom card seen */
    int32_t round;               /* 1-based */
    int32_t score[DL_MAX_PLAYERS];      /* match totals per side, within DL_SCORE_MAX */
    int32_t rounds_won[DL_MAX_PLAYERS]; /* per side */
    int8_t winner;               /* side that won the match, -1 */
    dl_RoundScore last;          /* the last finished round */
    dl_Rng rng;
} dl_State;

/* How far a match total may go either way: a house rule that plays on
 * (its match hook) or scores big cannot take it further (the binding
 * refuses such a round's points), so the totals never overflow. */
#define DL_SCORE_MAX 10000000
/* The most rounds a position may claim (a round past it still counts,
 * up to INT32_MAX). */
#define DL_ROUND_MAX 1000000000

/* An empty table with no cards anywhere (all 52 unplaced): for set-ups. */
void dl_state_blank(dl_State *s, const dl_Rules *r);
/* Seat that plays first in every deal (D4, D7). */
static inline int dl_first_player(const dl_State *s)
{
    return (s->dealer + 1) % s->rules.players;
}
/* Index of the declaration owned by seat, or -1. */
static inline int dl_owned_decl(const dl_State *s, int seat)
{
    for (int i = 0; i < s->ndecl; i++)
        if (s->decl[i].owner == seat) return i;
    return -1;
}
/* All the cards on the table (loose and declared). */
dl_Set dl_table_cards(const dl_State *s);
/* Cards still in the undealt pack. */
dl_Set dl_pack_set(const dl_State *s);

/* Invariants: 52 cards each in exactly one place, declarations well formed
 * (values, components, owners, at most one per player), none left when all
 * hands are empty, the turn on a seat that can move. Returns NULL when all
 * hold, otherwise a description of the first broken one. */
const char *dl_check_state(const dl_State *s);

/* ---- moves ----
 *
 * A move is identified by its kind, the card played, the declared value and
 * the set of table items it takes or joins (D11: a capture is the set of
 * cards it takes, however they split into parts; declarations likewise).
 * Items are bits of one 64-bit set: bits 0..51 loose cards, bit 52+i the
 * declaration in slot i of the state. */
typedef enum {
    DL_LAY,     /* D10 */
    DL_CAPTURE, /* D11-D13, K2 */
    DL_PLAIN,   /* D15 */
    DL_RAISE,   /* D16 (C4 with loose cards) */
    DL_GROUP,   /* D17 */
    DL_CLAIM,   /* V-face-card-claim: claim the redeal */
    DL_KEEP     /* V-face-card-claim: keep the cards */
} dl_MoveKind;

#define DL_DECL_SHIFT 52
#define DL_DECL_BIT(i) ((uint64_t)1 << (DL_DECL_SHIFT + (i)))
#define DL_DECL_ITEMS ((uint64_t)0xF << DL_DECL_SHIFT)

typedef struct {
    uint64_t take; /* items taken or joined */
    uint8_t kind;  /* dl_MoveKind */
    uint8_t card;  /* card played (unused for claim/keep) */
    uint8_t value; /* declared value for plain/raise/group, else 0 */
} dl_Move;

static inline bool dl_move_eq(const dl_Move *a, const dl_Move *b)
{
    return a->kind == b->kind && a->card == b->card &&
           a->value == b->value && a->take == b->take;
}

#endif
