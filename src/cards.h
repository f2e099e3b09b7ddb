/* Cards and card sets (D1).
 *
 * A card is a small integer 0..51: rank * 4 + suit, ranks A,2..10,J,Q,K as
 * 0..12 and suits clubs, diamonds, hearts, spades as 0..3. The four cards of
 * a rank are one nibble of a 64-bit set, so "holds a card of value v" is a
 * single AND with dl_value_mask(v). */
#ifndef DL_CARDS_H
#define DL_CARDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t dl_Set;

enum { DL_CLUBS, DL_DIAMONDS, DL_HEARTS, DL_SPADES };
enum { DL_RANK_J = 10, DL_RANK_Q = 11, DL_RANK_K = 12 };

#define DL_NCARDS 52
#define DL_BIT(c) ((dl_Set)1 << (c))
#define DL_DECK ((((dl_Set)1) << 52) - 1)
#define DL_NUMERALS ((((dl_Set)1) << 40) - 1)
#define DL_FACES (DL_DECK & ~DL_NUMERALS)
#define DL_CLUB_SUIT ((dl_Set)0x1111111111111ULL)

static inline int dl_card(int rank, int suit) { return rank * 4 + suit; }
static inline int dl_rank(int c) { return c >> 2; }
static inline int dl_suit(int c) { return c & 3; }
/* Numeral value 1..10 (A = 1); face cards have none (0). */
static inline int dl_value(int c) { return c < 40 ? (c >> 2) + 1 : 0; }
static inline bool dl_is_face(int c) { return c >= 40; }
static inline dl_Set dl_rank_mask(int rank) { return (dl_Set)0xF << (rank * 4); }
static inline dl_Set dl_value_mask(int v) { return (dl_Set)0xF << ((v - 1) * 4); }
static inline int dl_count(dl_Set s) { return __builtin_popcountll(s); }
static inline int dl_first(dl_Set s) { return __builtin_ctzll(s); }

/* Sum of the values of the numeral cards in s. */
int dl_set_sum(dl_Set s);

#define DL_CARD_10D 37 /* dl_card(9, DL_DIAMONDS) */
#define DL_CARD_2C 4   /* dl_card(1, DL_CLUBS) */

/* Writes "7h", "10d", "Kc" (ascii) or "7♥" (unicode) and returns its
 * length; buf needs 8 bytes. */
int dl_card_str(int card, char *buf, bool unicode);
/* The card's ASCII name ("10h", "As") at buf, not terminated; returns its
 * length. Inline: a list of moves names thousands of cards. */
static inline int dl_card_ascii(int card, char *buf)
{
    const int r = dl_rank(card);
    int n = 0;
    buf[n++] = "A234567891JQK"[r];
    if (r == 9) buf[n++] = '0';
    buf[n++] = "cdhs"[dl_suit(card)];
    return n;
}
/* Parses one card at s: rank A/1, 2..10, T, J, Q, K (any case), suit c/d/h/s
 * or ♣♦♥♠ (also ♧♢♡♤). Returns the card and stores the bytes read in *len,
 * or returns -1. */
int dl_card_parse(const char *s, int *len);
/* One suit letter c/d/h/s (any case) or symbol at s: the suit 0..3 and
 * the bytes read in *len, or -1. */
int dl_suit_parse(const char *s, int *len);
/* Cards of a set, lowest first, separated by single spaces. Returns the
 * length written (truncated to cap-1). */
int dl_set_str(dl_Set s, char *buf, size_t cap, bool unicode);
/* The same for any game's pack: the cards of s (bit i = card i, lowest
 * first) as name() writes them, space-separated; cut at a card boundary. */
int dl_cards_join(uint64_t s, int (*name)(int card, char *buf, bool unicode), char *buf, size_t cap,
                  bool unicode);

#endif
