#include "deal.h"

#include <string.h>

static void shuffle(dl_State *s, int from, int to)
{
    /* Fisher-Yates over pack[from..to). */
    for (int i = to - 1; i > from; i--) {
        int j = from + (int)dl_rng_below(&s->rng, (uint32_t)(i - from + 1));
        uint8_t t = s->pack[i];
        s->pack[i] = s->pack[j];
        s->pack[j] = t;
    }
}

bool dl_table_needs_redeal(const dl_Rules *r, dl_Set table)
{
    if (r->redeal == DL_REDEAL_NONE) return false;
    /* Cards per rank, one nibble each, counted all at once (13 population
     * counts are library calls in a portable build, once per deal). */
    dl_Set c = table - ((table >> 1) & 0x5555555555555ULL);
    c = (c & 0x3333333333333ULL) + ((c >> 2) & 0x3333333333333ULL);
    const dl_Set three = (c + 0x5555555555555ULL) & 0x8888888888888ULL; /* 3 or 4 */
    const dl_Set four = c & 0x4444444444444ULL;
    /* D5: three or four face cards of a rank; V-three-face-cards: exactly
     * three stay (C2); V-redeal-any-triple: any rank. */
    if ((r->three_face_cards ? four : three) & DL_FACES) return true;
    return r->redeal == DL_REDEAL_ANY_TRIPLE && (three & DL_NUMERALS);
}

static void start_deal(dl_State *s)
{
    const int n = s->rules.players;
    s->phase = DL_PHASE_PLAY;
    s->turn = (uint8_t)dl_first_player(s);
    s->claim_pending = 0;
    if (!s->rules.face_card_claim || (s->deal > 1 && !s->rules.claim_any_deal))
        return;
    for (int i = 0; i < n; i++)
        if (dl_count(s->hand[i] & DL_FACES) >= s->rules.claim_faces)
            s->claim_pending |= (uint8_t)(1u << i);
    if (!s->claim_pending) return;
    s->phase = DL_PHASE_CLAIM;
    for (int k = 0; k < n; k++) {
        int seat = (dl_first_player(s) + k) % n;
        if (s->claim_pending & (1u << seat)) {
            s->turn = (uint8_t)seat;
            break;
        }
    }
}

void dl_deal_hands(dl_State *s)
{
    const int n = s->rules.players;
    int left = s->pack_len - s->pack_pos;
    int k = left / n < s->rules.hand_size ? left / n : s->rules.hand_size;
    /* D6/D7: in play order, starting with the first player. */
    for (int i = 0, seat = dl_first_player(s); i < n; i++, seat = seat + 1 == n ? 0 : seat + 1)
        for (int j = 0; j < k; j++) s->hand[seat] |= DL_BIT(s->pack[s->pack_pos++]);
    start_deal(s);
}

static void deal_table(dl_State *s)
{
    const int t = s->rules.table_cards;
    for (;;) {
        dl_Set table = 0;
        for (int i = 0; i < t; i++) table |= DL_BIT(s->pack[s->pack_pos + i]);
        s->pack_pos = (uint8_t)(s->pack_pos + t);
        if (!dl_table_needs_redeal(&s->rules, table)) {
            s->loose = table;
            return;
        }
        /* D5: back into the undealt pack and shuffle; the bottom card stays
         * put so the dealer's peek (V-dealer-peeks) remains true. */
        s->pack_pos = (uint8_t)(s->pack_pos - t);
        shuffle(s, s->pack_pos, s->pack_len - 1);
    }
}

void dl_deal_round(dl_State *s)
{
    const int n = s->rules.players;
    memset(s->hand, 0, sizeof s->hand);
    memset(s->pile, 0, sizeof s->pile);
    memset(s->xeri, 0, sizeof s->xeri);
    s->loose = 0;
    s->ndecl = 0;
    s->ply = 0;
    s->deal = 1;
    s->last_capturer = -1;
    for (int i = 0; i < DL_NCARDS; i++) s->pack[i] = (uint8_t)i;
    s->pack_pos = 0;
    s->pack_len = DL_NCARDS;
    shuffle(s, 0, DL_NCARDS);
    s->peeked = s->rules.dealer_peeks;
    /* D5/D7: hands first (in play order), then the table. */
    int k = s->rules.hand_size;
    for (int i = 0, seat = dl_first_player(s); i < n; i++, seat = seat + 1 == n ? 0 : seat + 1)
        for (int j = 0; j < k; j++) s->hand[seat] |= DL_BIT(s->pack[s->pack_pos++]);
    deal_table(s);
    start_deal(s);
}

int dl_peeked_card(const dl_State *s)
{
    if (!s->peeked || s->pack_pos >= s->pack_len) return -1;
    return s->pack[s->pack_len - 1];
}

const char *dl_new_match(dl_State *s, const dl_Rules *r, uint64_t seed,
                         int dealer)
{
    const char *e = dl_rules_check(r);
    if (e) return e;
    if (dealer >= r->players) return "the dealer must be a seat of the game";
    dl_state_blank(s, r);
    dl_rng_seed(&s->rng, seed);
    s->dealer = (uint8_t)(dealer >= 0 ? dealer
                                      : (int)dl_rng_below(&s->rng, (uint32_t)r->players));
    dl_deal_round(s);
    return NULL;
}
