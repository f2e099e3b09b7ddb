/* Pilotta's 32-card pack (P4-P6).
 *
 * A card is suit * 8 + rank, ranks 7 8 9 10 J Q K A as 0..7 (the run order
 * of P33) and suits clubs, diamonds, hearts, spades as 0..3 (Diloti's
 * order, so the card parser and printer of src/cards.c serve both games).
 * A hand is a 32-bit set; one suit is one byte of it. */
#ifndef PL_CARDS_H
#define PL_CARDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint32_t pl_Set;

enum { PL_R7, PL_R8, PL_R9, PL_R10, PL_RJ, PL_RQ, PL_RK, PL_RA };
enum { PL_CLUBS, PL_DIAMONDS, PL_HEARTS, PL_SPADES };

#define PL_NCARDS 32
#define PL_DECK ((pl_Set)0xFFFFFFFFu)
#define PL_BIT(c) ((pl_Set)1 << (c))

static inline int pl_card(int rank, int suit) { return suit * 8 + rank; }
static inline int pl_rank(int c) { return c & 7; }
static inline int pl_suit(int c) { return c >> 3; }
static inline pl_Set pl_suit_mask(int suit) { return (pl_Set)0xFF << (suit * 8); }
static inline pl_Set pl_rank_mask(int rank) { return (pl_Set)0x01010101u << rank; }
/* Bit counting by halves: a portable build has no popcount instruction,
 * and the library call is slower than this. */
static inline int pl_count(pl_Set s)
{
    s = s - ((s >> 1) & 0x55555555u);
    s = (s & 0x33333333u) + ((s >> 2) & 0x33333333u);
    return (int)((((s + (s >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
static inline int pl_first(pl_Set s) { return __builtin_ctz(s); }

/* P5: strength for winning a trick (higher wins), by rank. */
extern const uint8_t pl_plain_strength[8];
extern const uint8_t pl_trump_strength[8];
/* The same, a nibble a rank (rank 7 lowest), so that tables of them can
 * be filled at compile time (cards.c's above, play.c's by trick). */
#define PL_PLAIN_STRENGTHS 0x75436210u
#define PL_TRUMP_STRENGTHS 0x53274610u
#define PL_STRENGTH(nibbles, rank) (((nibbles) >> 4 * (rank)) & 15u)
/* P6: card points, by rank. */
extern const uint8_t pl_plain_points[8];
extern const uint8_t pl_trump_points[8];
/* Ranks (as an 8-bit mask) that beat a rank in the plain or trump order. */
extern const uint8_t pl_plain_above[8];
extern const uint8_t pl_trump_above[8];

static inline int pl_points(int c, int trump)
{
    /* The table chosen, not the lookup: a select rather than a branch on
     * the suit (random in playouts, so often mispredicted). */
    return (pl_suit(c) == trump ? pl_trump_points : pl_plain_points)[pl_rank(c)];
}
/* Card points of a set (P6, P30). */
int pl_set_points(pl_Set s, int trump);
/* The cards of s that beat card c in c's suit (P5, PC1). */
static inline pl_Set pl_beating(pl_Set s, int c, int trump)
{
    int suit = pl_suit(c);
    const uint8_t *above = suit == trump ? pl_trump_above : pl_plain_above;
    return s & ((pl_Set)above[pl_rank(c)] << (suit * 8));
}

/* "7h", "10d", "Jc" (ascii) or "J♣" (unicode); buf needs 8 bytes. */
int pl_card_str(int card, char *buf, bool unicode);
/* One card at s (the ranks 7..A of src/cards.c's syntax, suit letter or
 * symbol). Returns the card and the bytes read in *len, or -1. */
int pl_card_parse(const char *s, int *len);
/* Cards of a set in pack order (clubs 7 first), space separated. */
int pl_set_str(pl_Set s, char *buf, size_t cap, bool unicode);
/* A suit letter 'c','d','h','s' (or its symbol); -1 otherwise. */
int pl_suit_parse(const char *s, int *len);
char pl_suit_char(int suit);

#endif
