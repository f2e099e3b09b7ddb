#include "cards.h"

#include <string.h>

static const char SUITS[] = "cdhs";
static const char *const USUITS[4] = {"\u2663", "\u2666", "\u2665", "\u2660"};
/* White (outline) suit symbols, also accepted on input. */
static const char *const WSUITS[4] = {"\u2667", "\u2662", "\u2661", "\u2664"};

int dl_set_sum(dl_Set s)
{
    int sum = 0;
    s &= DL_NUMERALS;
    while (s) {
        sum += dl_value(dl_first(s));
        s &= s - 1;
    }
    return sum;
}

int dl_card_str(int card, char *buf, bool unicode)
{
    int n = dl_card_ascii(card, buf);
    if (unicode) {
        /* (the rank as in ASCII, the suit its symbol instead of a letter) */
        const char *u = USUITS[dl_suit(card)];
        const size_t m = strlen(u);
        memcpy(buf + n - 1, u, m);
        n += (int)m - 1;
    }
    buf[n] = '\0';
    return n;
}

static int parse_rank(const char *s, int *len)
{
    switch (s[0]) {
    case 'A': case 'a': *len = 1; return 0;
    case 'T': case 't': *len = 1; return 9;
    case 'J': case 'j': *len = 1; return DL_RANK_J;
    case 'Q': case 'q': *len = 1; return DL_RANK_Q;
    case 'K': case 'k': *len = 1; return DL_RANK_K;
    case '1':
        if (s[1] == '0') { *len = 2; return 9; }
        *len = 1;
        return 0;
    default:
        if (s[0] >= '2' && s[0] <= '9') { *len = 1; return s[0] - '1'; }
        return -1;
    }
}

int dl_suit_parse(const char *s, int *len)
{
    const char *p = strchr(SUITS, s[0] | 0x20);
    if (s[0] != '\0' && p && (s[0] | 0x20) == *p && *p) {
        *len = 1;
        return (int)(p - SUITS);
    }
    for (int i = 0; i < 4; i++) {
        size_t n = strlen(USUITS[i]);
        if (strncmp(s, USUITS[i], n) == 0 || strncmp(s, WSUITS[i], n) == 0) {
            *len = (int)n;
            /* Skip a variation selector (U+FE0F) some keyboards add. */
            if (strncmp(s + n, "\xEF\xB8\x8F", 3) == 0) *len += 3;
            return i;
        }
    }
    return -1;
}

int dl_card_parse(const char *s, int *len)
{
    int rl, sl;
    int rank = parse_rank(s, &rl);
    if (rank < 0) return -1;
    int suit = dl_suit_parse(s + rl, &sl);
    if (suit < 0) return -1;
    *len = rl + sl;
    return dl_card(rank, suit);
}

int dl_set_str(dl_Set s, char *buf, size_t cap, bool unicode)
{
    return dl_cards_join(s, dl_card_str, buf, cap, unicode);
}

int dl_cards_join(uint64_t s, int (*name)(int card, char *buf, bool unicode), char *buf, size_t cap,
                  bool unicode)
{
    size_t n = 0;
    if (cap == 0) return 0;
    buf[0] = '\0';
    while (s) {
        char c[8];
        int l = name(dl_first(s), c, unicode);
        s &= s - 1;
        if (n + (size_t)l + 2 > cap) break;
        memcpy(buf + n, c, (size_t)l);
        n += (size_t)l;
        if (s) buf[n++] = ' ';
        buf[n] = '\0';
    }
    return (int)n;
}
