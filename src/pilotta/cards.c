#include "pilotta/cards.h"

#include "../cards.h"

/* Index: rank 7 8 9 10 J Q K A. */
#define BY_RANK(n)                                                                                         \
    {PL_STRENGTH(n, 0), PL_STRENGTH(n, 1), PL_STRENGTH(n, 2), PL_STRENGTH(n, 3),                          \
     PL_STRENGTH(n, 4), PL_STRENGTH(n, 5), PL_STRENGTH(n, 6), PL_STRENGTH(n, 7)}
const uint8_t pl_plain_strength[8] = BY_RANK(PL_PLAIN_STRENGTHS); /* 0 1 2 6 3 4 5 7 */
const uint8_t pl_trump_strength[8] = BY_RANK(PL_TRUMP_STRENGTHS); /* 0 1 6 4 7 2 3 5 */
const uint8_t pl_plain_points[8] = {0, 0, 0, 10, 2, 3, 4, 11};
const uint8_t pl_trump_points[8] = {0, 0, 14, 10, 20, 3, 4, 11};
/* Filled from the strengths: bit r set when rank r beats the index. */
const uint8_t pl_plain_above[8] = {0xFE, 0xFC, 0xF8, 0x80, 0xE8, 0xC8, 0x88, 0x00};
const uint8_t pl_trump_above[8] = {0xFE, 0xFC, 0x10, 0x94, 0x00, 0xDC, 0x9C, 0x14};

/* Diloti's card numbers for the ranks 7..A (rank * 4 + suit there). */
static const int DL_RANK[8] = {6, 7, 8, 9, 10, 11, 12, 0};

int pl_set_points(pl_Set s, int trump)
{
    int sum = 0;
    for (; s; s &= s - 1) sum += pl_points(pl_first(s), trump);
    return sum;
}

int pl_card_str(int card, char *buf, bool unicode)
{
    return dl_card_str(dl_card(DL_RANK[pl_rank(card)], pl_suit(card)), buf, unicode);
}

int pl_card_parse(const char *s, int *len)
{
    int c = dl_card_parse(s, len);
    if (c < 0) return -1;
    for (int r = 0; r < 8; r++)
        if (DL_RANK[r] == dl_rank(c)) return pl_card(r, dl_suit(c));
    return -1; /* 2..6: not in the 32-card pack (P4) */
}

int pl_set_str(pl_Set s, char *buf, size_t cap, bool unicode)
{
    return dl_cards_join(s, pl_card_str, buf, cap, unicode);
}

int pl_suit_parse(const char *s, int *len) { return dl_suit_parse(s, len); }

char pl_suit_char(int suit) { return "cdhs"[suit & 3]; }
