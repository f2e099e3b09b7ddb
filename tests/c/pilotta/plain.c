#include "pilotta/plain.h"

#include <string.h>

/* Ranks as letters in the pack's rank order: 7 8 9 T J Q K A. */
static const char RANKS[] = "789TJQKA";
static const char PLAIN_ORDER[] = "ATKQJ987"; /* P5, high to low */
static const char TRUMP_ORDER[] = "J9ATKQ87";

static int rank_of(int card) { return card % 8; }
static int suit_of(int card) { return card / 8; }
static bool holds(pl_Set set, int card) { return (set >> card) & 1; }

/* Position in an order string: smaller is higher. */
static int place(const char *order, int card) { return (int)(strchr(order, RANKS[rank_of(card)]) - order); }

static bool beats(int a, int b, int trump)
{
    if (suit_of(a) == suit_of(b))
        return place(suit_of(a) == trump ? TRUMP_ORDER : PLAIN_ORDER, a) <
               place(suit_of(a) == trump ? TRUMP_ORDER : PLAIN_ORDER, b);
    return suit_of(a) == trump;
}

static void add(pl_ActionList *out, int kind, int value, int suit, int card, int belote, pl_Set cards)
{
    pl_Action *a = &out->a[out->n++];
    memset(a, 0, sizeof *a);
    a->kind = (uint8_t)kind, a->value = (uint8_t)value, a->suit = (int8_t)suit;
    a->card = (uint8_t)card, a->belote = (uint8_t)belote, a->cards = cards;
}

/* The auction from the log alone: who called what. */
typedef struct {
    int high, high_seat, contra, recontra, passed[4];
} Auction;

static Auction read_log(const pl_State *s)
{
    Auction a = {0, -1, 0, 0, {0, 0, 0, 0}};
    int seat = (s->dealer + 1) % 4;
    for (int i = 0; i < s->ncalls; i++, seat = (seat + 1) % 4) {
        pl_Action c = pl_call_decode(s->calls[i]);
        if (c.kind == PL_BID) a.high = c.value, a.high_seat = seat;
        if (c.kind == PL_PASS) a.passed[seat] = 1;
        if (c.kind == PL_CONTRA) a.contra = 1;
        if (c.kind == PL_RECONTRA) a.recontra = 1;
    }
    return a;
}

static void auction(const pl_State *s, pl_ActionList *out)
{
    const pl_Rules *r = &s->rules;
    const int seat = s->turn;
    if (s->phase == PL_PHASE_TRUMP) {
        for (int suit = 0; suit < 4; suit++) add(out, PL_TRUMP, 0, suit, 0, 0, 0);
        return;
    }
    add(out, PL_PASS, 0, -1, 0, 0, 0);
    if (s->phase == PL_PHASE_CONTRA) {
        /* The window: defenders may contra, then the bidders recontra. */
        if (s->mult == 1) add(out, PL_CONTRA, 0, -1, 0, 0, 0);
        else add(out, PL_RECONTRA, 0, -1, 0, 0, 0);
        return;
    }
    Auction a = read_log(s);
    const bool may_bid = !a.contra && !(r->pass_final && a.passed[seat]);
    for (int v = 80; may_bid && v <= 250; v += 10) {
        if (v > (r->high_bids ? 240 : 160) && v != 250) continue;
        if (v / 10 <= a.high) continue;
        if (r->suit_after_auction) add(out, PL_BID, v / 10, -1, 0, 0, 0);
        else
            for (int suit = 0; suit < 4; suit++) add(out, PL_BID, v / 10, suit, 0, 0, 0);
    }
    const bool bidders = a.high_seat >= 0 && a.high_seat % 2 == seat % 2;
    if (a.high_seat >= 0 && !bidders && !a.contra && !r->contra_after_auction) add(out, PL_CONTRA, 0, -1, 0, 0, 0);
    if (a.contra && !a.recontra && bidders) add(out, PL_RECONTRA, 0, -1, 0, 0, 0);
}

/* ---- declarations by brute force ---- */

static bool is_four(pl_Set set)
{
    if (__builtin_popcount(set) != 4) return false;
    int r = rank_of(__builtin_ctz(set));
    for (int c = 0; c < 32; c++)
        if (holds(set, c) && rank_of(c) != r) return false;
    return RANKS[r] != '7' && RANKS[r] != '8';
}

static bool is_run(pl_Set set)
{
    int n = __builtin_popcount(set);
    if (n < 3) return false;
    int lo = __builtin_ctz(set);
    for (int i = 0; i < n; i++)
        if (!holds(set, lo + i) || suit_of(lo + i) != suit_of(lo)) return false;
    return true;
}

/* A run that no card of `within` extends at either end. */
static bool whole_run(pl_Set run, pl_Set within)
{
    int lo = __builtin_ctz(run), hi = 31 - __builtin_clz(run);
    if (rank_of(lo) > 0 && holds(within, lo - 1)) return false;
    if (rank_of(hi) < 7 && holds(within, hi + 1)) return false;
    return true;
}

static void announcements(const pl_State *s, pl_ActionList *out)
{
    const int seat = s->turn;
    const pl_Set hand = s->hand[seat];
    pl_Set mine = 0, fours = 0, runs = 0;
    for (int i = 0; i < s->ndecl; i++) {
        if (s->decl[i].seat != seat) continue;
        mine |= s->decl[i].cards;
        if (is_four(s->decl[i].cards)) fours |= s->decl[i].cards;
        else runs |= s->decl[i].cards;
    }
    /* Every subset of the hand, as 8 bits over its cards. */
    int cards[8], n = 0;
    for (int c = 0; c < 32; c++)
        if (holds(hand, c)) cards[n++] = c;
    pl_Set found[64];
    int nfound = 0;
    for (int m = 1; m < (1 << n); m++) {
        pl_Set set = 0;
        for (int i = 0; i < n; i++)
            if (m >> i & 1) set |= (pl_Set)1 << cards[i];
        if (is_four(set)) {
            bool ok = s->rules.decl_overlap ? !(set & fours) : !(set & mine);
            if (ok) found[nfound++] = set;
        } else if (is_run(set)) {
            pl_Set rest = s->rules.decl_overlap ? hand : hand & ~fours;
            bool ok = (set & ~rest) == 0 && whole_run(set, rest) &&
                      (s->rules.decl_overlap ? !(set & runs) : !(set & mine));
            if (ok) found[nfound++] = set;
        }
    }
    for (int i = 0; i < nfound; i++) add(out, PL_ANNOUNCE, 0, -1, 0, 0, found[i]);
}

/* ---- P36 by the words of the rule ---- */

static int decl_value(pl_Set d)
{
    if (is_four(d)) {
        char r = RANKS[rank_of(__builtin_ctz(d))];
        return r == 'J' ? 200 : r == '9' ? 150 : 100;
    }
    int n = __builtin_popcount(d);
    return n >= 5 ? 100 : n == 4 ? 50 : 20;
}

static int compare(pl_Set a, pl_Set b, int trump, const pl_Rules *r)
{
    int va = decl_value(a), vb = decl_value(b);
    if (va != vb) return va > vb ? 1 : -1;
    if (is_four(a) != is_four(b)) return va == 100 && r->decl_100_tie ? 0 : is_four(a) ? 1 : -1;
    if (is_four(a)) {
        const char *order = "QKTA"; /* low to high among the fours of 100 */
        return (int)(strchr(order, RANKS[rank_of(__builtin_ctz(a))]) - strchr(order, RANKS[rank_of(__builtin_ctz(b))]));
    }
    int la = __builtin_popcount(a), lb = __builtin_popcount(b);
    if (la != lb) return la > lb ? 1 : -1;
    int ta = rank_of(31 - __builtin_clz(a)), tb = rank_of(31 - __builtin_clz(b));
    if (ta != tb) return ta > tb ? 1 : -1;
    return (suit_of(__builtin_ctz(a)) == trump) - (suit_of(__builtin_ctz(b)) == trump);
}

static int standing(const pl_State *s)
{
    int best[2] = {-1, -1};
    for (int i = 0; i < s->ndecl; i++) {
        int t = s->decl[i].seat % 2;
        if (best[t] < 0 || compare(s->decl[i].cards, s->decl[best[t]].cards, s->bid_suit, &s->rules) > 0) best[t] = i;
    }
    if (best[0] < 0 && best[1] < 0) return -1;
    if (best[1] < 0) return 0;
    if (best[0] < 0) return 1;
    int c = compare(s->decl[best[0]].cards, s->decl[best[1]].cards, s->bid_suit, &s->rules);
    return c > 0 ? 0 : c < 0 ? 1 : -1;
}

/* ---- the cards, by P28's procedure ---- */

static void cards(const pl_State *s, pl_ActionList *out)
{
    const int seat = s->turn, trump = s->bid_suit, in_trick = s->nplayed % 4, first = s->nplayed - in_trick;
    const pl_Set hand = s->hand[seat];
    pl_Set legal = hand;
    if (in_trick) {
        int led = suit_of(s->played[first]), best = first;
        for (int i = first + 1; i < s->nplayed; i++)
            if (beats(s->played[i], s->played[best], trump)) best = i;
        int best_card = s->played[best];
        /* Who played the best card: count back from the seat to play. */
        int best_seat = (seat - (s->nplayed - best) + 8) % 4;
        pl_Set follow = 0, trumps = 0;
        for (int c = 0; c < 32; c++) {
            if (holds(hand, c) && suit_of(c) == led) follow |= (pl_Set)1 << c;
            if (holds(hand, c) && suit_of(c) == trump) trumps |= (pl_Set)1 << c;
        }
        pl_Set pool = 0;
        bool must_beat = false;
        if (follow) {
            pool = follow;
            must_beat = led == trump || (s->rules.must_head && suit_of(best_card) != trump);
        } else if (trumps && !(s->rules.partner_exempt && led != trump && best_seat == (seat + 2) % 4)) {
            pool = trumps;
            must_beat = suit_of(best_card) == trump;
        } else {
            pool = hand;
        }
        legal = pool;
        if (must_beat) {
            pl_Set over = 0;
            for (int c = 0; c < 32; c++)
                if (holds(pool, c) && beats(c, best_card, trump)) over |= (pl_Set)1 << c;
            if (over) legal = over;
        }
    }
    const int king = trump * 8 + 6, queen = trump * 8 + 5;
    for (int c = 0; c < 32; c++) {
        if (!holds(legal, c)) continue;
        bool first_of_pair = (c == king || c == queen) && holds(hand, king) && holds(hand, queen);
        if (first_of_pair) add(out, PL_PLAY, 0, -1, c, 1, 0);
        add(out, PL_PLAY, 0, -1, c, 0, 0);
    }
}

static bool may_show(const pl_State *s)
{
    if (s->nplayed / 4 != 1) return false;
    int st = standing(s);
    if (st != s->turn % 2) return false;
    for (int i = 0; i < s->ndecl; i++)
        if (s->decl[i].seat == s->turn && !s->decl[i].shown) return true;
    return false;
}

int plain_legal(const pl_State *s, pl_ActionList *out)
{
    out->n = 0;
    if (s->phase == PL_PHASE_AUCTION || s->phase == PL_PHASE_TRUMP || s->phase == PL_PHASE_CONTRA)
        auction(s, out);
    if (s->phase == PL_PHASE_PLAY) {
        if (s->nplayed < 4) announcements(s, out);
        if (may_show(s)) add(out, PL_SHOW, 0, -1, 0, 0, 0);
        cards(s, out);
    }
    return out->n;
}
