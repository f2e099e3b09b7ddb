#include "pilotta/play.h"

#include "pilotta/decl.h"
#include "pilotta/score.h"

void pl_start_play(pl_State *s)
{
    s->phase = PL_PHASE_PLAY;
    s->leader[0] = (uint8_t)(s->rules.declarer_leads ? s->bidder : pl_eldest(s));
    s->turn = s->leader[0];
}

/* How strongly a card holds a trick whose first card is of suit led
 * (P29): any trump above any card of the led suit, which is above the
 * rest (they never win). One number a card, so the winner is a maximum
 * and needs no pairwise comparison of suits. By trump (+1: none) and led
 * suit, for each card: one load a card, filled by the compiler (rows past
 * the fourth trump: none, for a bid_suit out of range). */
#define HOLD(trump, led, c)                                                                                \
    ((((c) >> 3 == (trump)) << 4 | ((c) >> 3 == (led)) << 3) +                                             \
     PL_STRENGTH((c) >> 3 == (trump) ? PL_TRUMP_STRENGTHS : PL_PLAIN_STRENGTHS, (c) & 7u))
#define HOLD8(t, l, c)                                                                                     \
    HOLD(t, l, c), HOLD(t, l, (c) + 1u), HOLD(t, l, (c) + 2u), HOLD(t, l, (c) + 3u), HOLD(t, l, (c) + 4u),  \
        HOLD(t, l, (c) + 5u), HOLD(t, l, (c) + 6u), HOLD(t, l, (c) + 7u)
#define HOLD_LED(t, l) {HOLD8(t, l, 0u), HOLD8(t, l, 8u), HOLD8(t, l, 16u), HOLD8(t, l, 24u)}
#define HOLD_TRUMP(t) {HOLD_LED(t, 0u), HOLD_LED(t, 1u), HOLD_LED(t, 2u), HOLD_LED(t, 3u)}
static const uint8_t TRICK_RANK[8][4][PL_NCARDS] = {HOLD_TRUMP(4u), HOLD_TRUMP(0u), HOLD_TRUMP(1u), HOLD_TRUMP(2u),
                                                    HOLD_TRUMP(3u), HOLD_TRUMP(4u), HOLD_TRUMP(4u), HOLD_TRUMP(4u)};

/* Card i of a trick's first n as its rank times 4 plus i, 0 past n. */
static inline int held(const uint8_t *rank, const uint8_t *t, int i, int n)
{
    return ((int)rank[t[i] & 31] << 2 | i) & -(i < n);
}

/* Index in played[] of the card winning trick k among its first n cards
 * (1 to 4): the maximum of held() names it (two cards never share a rank
 * that can win: a led card ranks above every card of a third suit, and
 * a card past n counts 0). Straight-line: no branch on n or on the
 * cards, both random in playouts. (played[] has 4 places from 4 * k;
 * those past n are read, masked, and not used.) */
static inline int winning_index(const pl_State *s, int k, int n)
{
    const int first = 4 * k;
    const uint8_t *t = s->played + first, *rank = TRICK_RANK[(s->bid_suit + 1) & 7][pl_suit(t[0] & 31)];
    int top = rank[t[0] & 31] << 2, v;
    v = held(rank, t, 1, n), top = v > top ? v : top;
    v = held(rank, t, 2, n), top = v > top ? v : top;
    v = held(rank, t, 3, n), top = v > top ? v : top;
    return first + (top & 3);
}

int pl_best_card(const pl_State *s)
{
    int n = pl_trick_count(s);
    return n ? s->played[winning_index(s, pl_trick_index(s), n)] : -1;
}

int pl_trick_winner(const pl_State *s, int trick)
{
    int n = s->nplayed - 4 * trick;
    if (n <= 0) return -1;
    return pl_player_of(s, winning_index(s, trick, n > 4 ? 4 : n));
}

/* a when c, else b: a select, not a branch. */
static inline pl_Set pick(bool c, pl_Set a, pl_Set b) { return b ^ ((a ^ b) & (pl_Set)-(pl_Set)c); }

static pl_Set by_best(const pl_State *s, pl_Set hand, pl_Set follow, pl_Set trumps, int led);

pl_Set pl_legal_cards(const pl_State *s)
{
    const pl_Set hand = s->hand[s->turn];
    const int n = pl_trick_count(s), trump = s->bid_suit;
    if (n == 0) return hand; /* P22 */
    const int led = pl_suit(s->played[s->nplayed - n]);
    const pl_Set follow = hand & pl_suit_mask(led), trumps = hand & pl_suit_mask(trump);
    /* The common cases, where the card now winning does not matter: P23,
     * P28 (follow), P26 (any card). In random play they are half and a
     * quarter of the plays, at random: the answer is picked, not branched
     * to (a branch on it was mispredicted at a good part of the plays). */
    const bool has_follow = follow != 0;
    const bool no_follow = !has_follow, has_trumps = trumps != 0;
    const bool needs_best = (has_follow & ((led == trump) | s->rules.must_head)) | (no_follow & has_trumps);
    if (!needs_best) return pick(has_follow, follow, hand);
    return by_best(s, hand, follow, trumps, led);
}

/* pl_legal_cards where the card now winning matters (P24, P25, P27,
 * PV-must-head). Not inline: its registers would be saved and restored
 * at every play, the common ones too. */
static __attribute__((noinline)) pl_Set by_best(const pl_State *s, pl_Set hand, pl_Set follow, pl_Set trumps, int led)
{
    const int n = pl_trick_count(s), trump = s->bid_suit;
    const int bi = winning_index(s, pl_trick_index(s), n), best = s->played[bi];
    if (follow) {
        /* P24 over a trump lead; PV-must-head in a plain suit nobody trumped. */
        if (led == trump || (s->rules.must_head && pl_suit(best) != trump)) {
            pl_Set above = pl_beating(follow, best, trump);
            return above ? above : follow;
        }
        return follow; /* P23, P28 */
    }
    /* trumps, no follow */
    if (s->rules.partner_exempt && pl_player_of(s, bi) == ((s->turn + 2) & 3))
        return hand; /* PV-partner-exempt (P27 otherwise) */
    if (pl_suit(best) == trump) {
        pl_Set above = pl_beating(trumps, best, trump);
        return above ? above : trumps; /* P25: over, else under */
    }
    return trumps; /* P25 */
}

/* pl_belote_pending, inline for pl_play_apply: a call there had it save
 * a register at every card. */
static inline bool belote_pending(const pl_State *s, int card)
{
    const int trump = s->bid_suit;
    if (s->phase != PL_PHASE_PLAY || trump < 0 || pl_suit(card) != trump) return false;
    const pl_Set kq = PL_BIT(pl_card(PL_RK, trump)) | PL_BIT(pl_card(PL_RQ, trump));
    return (kq & PL_BIT(card)) && (s->hand[s->turn] & kq) == kq;
}

bool pl_belote_pending(const pl_State *s, int card) { return belote_pending(s, card); }

bool pl_may_show(const pl_State *s)
{
    if (pl_trick_index(s) != 1 || s->standing != pl_team(s->turn)) return false;
    for (int i = 0; i < s->ndecl; i++)
        if (s->decl[i].seat == s->turn && !s->decl[i].shown) return true;
    return false;
}

void pl_play_legal(const pl_State *s, pl_ActionList *out)
{
    if (pl_trick_index(s) == 0) {
        pl_Set opts[8];
        int k = pl_announce_options(s, s->turn, opts);
        for (int i = 0; i < k; i++) out->a[out->n++] = (pl_Action){opts[i], PL_ANNOUNCE, 0, -1, 0, 0};
    }
    if (pl_may_show(s)) out->a[out->n++] = (pl_Action){0, PL_SHOW, 0, -1, 0, 0};
    for (pl_Set c = pl_legal_cards(s); c; c &= c - 1) {
        int card = pl_first(c);
        if (pl_belote_pending(s, card))
            out->a[out->n++] = (pl_Action){0, PL_PLAY, 0, -1, (uint8_t)card, 1};
        out->a[out->n++] = (pl_Action){0, PL_PLAY, 0, -1, (uint8_t)card, 0};
    }
}

/* (Not inline: as end_trick.) */
static __attribute__((noinline)) void announce(pl_State *s, pl_Set cards)
{
    pl_Decl *d = &s->decl[s->ndecl++];
    pl_decl_classify(cards, d);
    d->cards = cards;
    d->seat = s->turn;
    d->shown = 0;
}

static void show(pl_State *s)
{
    for (int i = 0; i < s->ndecl; i++)
        if (s->decl[i].seat == s->turn) s->decl[i].shown = 1;
}

/* A trick is complete: its winner takes it and leads the next (P29-P31).
 * Not inline: pl_play_apply would save and restore its registers at every
 * card, not only at the fourth. */
static __attribute__((noinline)) void end_trick(pl_State *s)
{
    /* (All four cards are down: winning_index with n known, its masks folded.) */
    const int k = pl_trick_index(s) - 1, w = pl_player_of(s, winning_index(s, k, 4));
    int points = 0;
    for (int i = 4 * k; i < 4 * k + 4; i++) points += pl_points(s->played[i], s->bid_suit);
    s->trick_won[pl_team(w)]++;
    s->trick_points[pl_team(w)] += (int16_t)points;
    if (k == 0) s->standing = (int8_t)pl_standing(s); /* P36 */
    if (k == 7) {
        s->trick_points[pl_team(w)] += 10; /* P31 */
        pl_finish_round(s);
        return;
    }
    s->leader[k + 1] = (uint8_t)w;
    s->turn = (uint8_t)w;
}

void pl_play_apply(pl_State *s, const pl_Action *a)
{
    if (a->kind == PL_ANNOUNCE) {
        announce(s, a->cards);
        return;
    }
    if (a->kind == PL_SHOW) {
        show(s);
        return;
    }
    if (a->belote && belote_pending(s, a->card)) s->belote = (int8_t)s->turn; /* P39 */
    s->hand[s->turn] &= ~PL_BIT(a->card);
    s->played[s->nplayed++] = a->card;
    if (pl_trick_count(s) == 0) end_trick(s);
    else s->turn = (uint8_t)((s->turn + 1) & 3);
}
