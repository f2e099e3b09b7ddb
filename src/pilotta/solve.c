#define _POSIX_C_SOURCE 199309L
#include "pilotta/solve.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef DL_CHECK
#include <stdio.h>
#endif

#include "pilotta/auction.h"
#include "pilotta/decl.h"
#include "pilotta/play.h"
#include "pilotta/score.h"

/* Values inside the search are relative and seen from team 0 (seats 0
 * and 2), which maximises while team 1 minimises: team 1's own value falls
 * as team 0's rises (pl_solve_other), sweeps included.
 *
 * A node's value is what team 0's final value will exceed the card points
 * it has already taken: the points of the tricks still to come (the one on
 * the table included), plus 88 when team 0 sweeps (250 instead of 162) or
 * minus 1 when it is swept (-1 instead of 0). At a trick start that is a
 * function of the four hands, the leader and which teams have won a trick,
 * which is what the table is keyed on. */
#define SWEEP_EXTRA (PL_SOLVE_SWEEP - 162)
#define INF 10000

/* An entry: the four hands at a trick start in 12 bytes, as the cards
 * left and two planes of their seat numbers (every card left is in one
 * hand), and the value's bounds in a byte each (a value is -1..250, so
 * value + 1; the bounds of no knowledge are -1 and 250 themselves). 16
 * bytes: four to a cache line. */
typedef struct {
    uint32_t left, odd, high; /* seats 1|3, seats 2|3 */
    uint8_t meta; /* 0x80 | flags << 2 | leader; 0 when empty */
    uint8_t move; /* best card found, 0xFF none */
    uint8_t lo, hi;
} Entry;
#define VMIN PL_SOLVE_SWEPT
#define VMAX PL_SOLVE_SWEEP

struct pl_Solver {
    Entry *tt;
    uint32_t mask;
    long nodes;
    pl_State w;  /* the position searched, changed and restored in place */
    int trump;
    int flags;   /* bit t: team t has won a trick */
    pl_Set gone; /* cards of completed tricks */
    /* the trick on the table, kept as cards are played and taken back so
     * that a node never walks played[] again */
    int tn;       /* its cards */
    int tpts;     /* their points */
    pl_Set tset;  /* the cards */
    int led;      /* the suit led */
    int wcard, wseat; /* the card winning it so far and its seat */
    int rest;     /* points of the cards not in completed tricks */
    bool must_head, partner_exempt;
    uint8_t cpts[PL_NCARDS];  /* card points under the trumps */
    pl_Set zero;              /* the cards without points */
    uint8_t top[256];         /* the strongest rank of a byte of trumps */
    /* the lead that last refuted a position, by trick and leader (the
     * killer heuristic): a lead good in one such position is often good
     * in its siblings, which the table cannot tell */
    int8_t killer[8][4];
    uint8_t spts[2][256];     /* points of one suit's byte: [trump?][cards] */
    pl_Rules rules; /* of the table's entries: a change of legality clears it */
    int table_trump;
    double deadline; /* monotonic seconds, 0: none */
    bool stopped;    /* the deadline passed: values are meaningless */
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void pl_solver_deadline(pl_Solver *sv, double seconds)
{
    sv->deadline = seconds > 0 ? now_s() + seconds : 0;
    sv->stopped = false;
}

bool pl_solver_stopped(const pl_Solver *sv) { return sv->stopped; }

pl_Solver *pl_solver_new(int bits)
{
    if (bits == 0) bits = 17;
    if (bits < 10) bits = 10;
    if (bits > 24) bits = 24;
    pl_Solver *sv = calloc(1, sizeof *sv);
    if (!sv) return NULL;
    sv->tt = calloc((size_t)1 << bits, sizeof *sv->tt);
    if (!sv->tt) {
        free(sv);
        return NULL;
    }
    sv->mask = ((uint32_t)1 << bits) - 1;
    memset(sv->killer, -1, sizeof sv->killer);
    sv->table_trump = -1;
    for (int t = 0; t < 2; t++)
        for (int b = 0; b < 256; b++) {
            int sum = 0;
            for (int r = 0; r < 8; r++)
                if (b >> r & 1) sum += t ? pl_trump_points[r] : pl_plain_points[r];
            sv->spts[t][b] = (uint8_t)sum;
        }
    for (int b = 1; b < 256; b++)
        for (int r = 0; r < 8; r++)
            if (b >> r & 1 && pl_trump_strength[r] > pl_trump_strength[sv->top[b]]) sv->top[b] = (uint8_t)r;
    return sv;
}

void pl_solver_free(pl_Solver *sv)
{
    if (!sv) return;
    free(sv->tt);
    free(sv);
}

long pl_solver_nodes(const pl_Solver *sv) { return sv->nodes; }

int pl_solve_other(int value)
{
    if (value == PL_SOLVE_SWEPT) return PL_SOLVE_SWEEP;
    if (value == PL_SOLVE_SWEEP) return PL_SOLVE_SWEPT;
    return 162 - value;
}

/* Card points of a set under the solver's trumps (P6), a byte a suit. */
static int set_points(const pl_Solver *sv, pl_Set s)
{
    const int t = sv->trump;
    return sv->spts[t == 0][s & 0xFF] + sv->spts[t == 1][(s >> 8) & 0xFF] + sv->spts[t == 2][(s >> 16) & 0xFF] +
           sv->spts[t == 3][s >> 24];
}

/* ---- the table ---------------------------------------------------------- */

typedef struct {
    uint32_t left, odd, high;
} Key;

static Key key_of(const pl_State *w)
{
    const pl_Set h3 = w->hand[3];
    return (Key){w->hand[0] | w->hand[1] | w->hand[2] | h3, w->hand[1] | h3, w->hand[2] | h3};
}

static uint32_t key_hash(Key k, int meta)
{
    uint64_t h = ((uint64_t)k.left << 32 | k.odd) * 0x9E3779B97F4A7C15u;
    h ^= ((uint64_t)k.high << 8 | (uint64_t)meta) * 0xC2B2AE3D27D4EB4Fu;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9u;
    return (uint32_t)(h ^ (h >> 32));
}

static Entry *probe(pl_Solver *sv, Key k, int meta, bool *hit)
{
    Entry *e = &sv->tt[key_hash(k, meta) & sv->mask];
    *hit = e->meta == meta && e->left == k.left && e->odd == k.odd && e->high == k.high;
    return e;
}

/* ---- moves -------------------------------------------------------------- */

static int strength(int card, int trump)
{
    const uint8_t *st = pl_suit(card) == trump ? pl_trump_strength : pl_plain_strength;
    return st[pl_rank(card)];
}

#ifdef DL_CHECK
/* collapse's rule over the whole trick order of every suit: test builds
 * check the short way against it. */
static pl_Set collapse_all(const pl_Solver *sv, pl_Set legal, pl_Set hand)
{
    const int trump = sv->trump;
    pl_Set keep = legal;
    for (int su = 0; su < 4; su++) {
        pl_Set in = legal & pl_suit_mask(su);
        if (pl_count(in) < 2) continue;
        /* cards of the suit from the strongest down */
        /* ranks from the strongest down (P5) */
        static const int8_t PLAIN[8] = {PL_RA, PL_R10, PL_RK, PL_RQ, PL_RJ, PL_R9, PL_R8, PL_R7};
        static const int8_t TRUMP[8] = {PL_RJ, PL_R9, PL_RA, PL_R10, PL_RK, PL_RQ, PL_R8, PL_R7};
        const int8_t *order = su == trump ? TRUMP : PLAIN;
        int prev = -1;
        for (int i = 0; i < 8; i++) {
            int c = pl_card(order[i], su);
            if (sv->gone & PL_BIT(c)) continue;
            if (!(hand & PL_BIT(c))) {
                prev = -1; /* an outside card splits the sequence */
                continue;
            }
            if (prev >= 0 && (in & PL_BIT(c)) && (in & PL_BIT(prev)) &&
                pl_points(c, trump) == pl_points(prev, trump))
                keep &= ~PL_BIT(c);
            else
                prev = c;
        }
    }
    return keep;
}
#endif

/* Drops cards that are one move with a kept card: the same suit, the same
 * points, and between them in the trick order only cards of the same hand
 * or of completed tricks. Either wins and loses the same tricks and gives
 * the same points, so one of them stands for both. Only cards without
 * points are ever equal (P6: the others' points differ within a suit),
 * and they are the lowest of their suit (7 8 9, of trumps 7 8), ranked by
 * rank: so only they lie between two of them. */
static pl_Set collapse(const pl_Solver *sv, pl_Set legal, pl_Set hand)
{
    const pl_Set zero = legal & sv->zero;
    if (!(zero & (zero - 1))) return legal;
    pl_Set keep = legal;
    for (int su = 0; su < 4; su++) {
        const pl_Set in = zero & pl_suit_mask(su);
        if (!(in & (in - 1))) continue;
        int prev = -1;
        for (int c = su * 8 + 2; c >= su * 8; c--) {
            if (!(sv->zero & PL_BIT(c)) || (sv->gone & PL_BIT(c))) continue;
            if (!(hand & PL_BIT(c))) prev = -1; /* an outside card splits the sequence */
            else if (prev >= 0 && (in & PL_BIT(c)) && (in & PL_BIT(prev))) keep &= ~PL_BIT(c);
            else prev = c;
        }
    }
#ifdef DL_CHECK
    if (keep != collapse_all(sv, legal, hand)) {
        fprintf(stderr, "collapse %08x, by the whole order %08x\n", (unsigned)keep, (unsigned)collapse_all(sv, legal, hand));
        abort();
    }
#endif
    return keep;
}

/* Does card c beat the card now winning the trick? */
static bool beats(int c, int best, int trump)
{
    if (pl_suit(c) == pl_suit(best)) return pl_beating(PL_BIT(c), best, trump) != 0;
    return pl_suit(c) == trump;
}

/* The moves in the order to try them: the table's move, a leader's
 * killer, then by a guess (a leader's master cards, a follower's sure
 * winner or else cheapest winner, points for a partner's trick, else the
 * cheapest discard). */
static int order_moves(const pl_Solver *sv, pl_Set moves, int first, int out[8])
{
    const pl_State *w = &sv->w;
    const int trump = sv->trump, n = sv->tn, bseat = sv->wseat, best = sv->wcard;
    bool partner = n && bseat == ((w->turn + 2) & 3), last = n == 3;
    if (partner && n == 2) {
        /* the partner's card is safe when the last seat cannot beat it:
         * then this is the last card that counts, points on it */
        const pl_Set h4 = w->hand[(w->turn + 1) & 3];
        const pl_Set follow = h4 & pl_suit_mask(sv->led);
        bool safe;
        if (follow) safe = pl_suit(best) != sv->led || pl_beating(follow, best, trump) == 0;
        else safe = pl_suit(best) == trump ? pl_beating(h4, best, trump) == 0 : (h4 & pl_suit_mask(trump)) == 0;
        last = safe;
    }
    const pl_Set outside = ~(sv->gone | w->hand[w->turn] | sv->tset);
    int key[8], k = 0;
    for (pl_Set m = moves; m && k < 8; m &= m - 1) {
        int c = pl_first(m), pts = sv->cpts[c], st = strength(c, trump), v;
        if (c == first) v = 1000;
        else if (n == 0 && c == sv->killer[pl_trick_index(w)][w->turn]) v = 900;
        else if (n == 0) {
            bool master = pl_beating(outside, c, trump) == 0;
            /* else a low card, a trump last */
            v = master ? 300 + pts - (pl_suit(c) == trump ? 30 : 0) : 20 - st - (pl_suit(c) == trump ? 10 : 0);
        } else if (!partner && beats(c, best, trump))
            /* a winner nothing left can beat with the most points, else
             * the cheapest winner */
            v = last || !pl_beating(outside, c, trump) ? 600 + pts : 500 - st;
        else if (partner)
            v = last ? 400 + pts : 100 - st;
        else
            v = 50 - 2 * pts - st;
        int j = k++;
        while (j > 0 && key[j - 1] < v) key[j] = key[j - 1], out[j] = out[j - 1], j--;
        key[j] = v, out[j] = c;
    }
    return k;
}

/* ---- the legal cards ------------------------------------------------------ */

/* pl_legal_cards (P22-P28, PV-must-head, PV-partner-exempt) from the
 * trick kept in the solver: the same sets, without walking the trick.
 * Test builds compare the two at every node. */
static pl_Set legal(const pl_Solver *sv)
{
    const pl_State *w = &sv->w;
    const pl_Set hand = w->hand[w->turn];
    if (sv->tn == 0) return hand;
    const int trump = sv->trump, best = sv->wcard;
    const pl_Set follow = hand & pl_suit_mask(sv->led), trumps = hand & pl_suit_mask(trump);
    pl_Set out;
    if (follow) {
        out = follow;
        if (sv->led == trump || (sv->must_head && pl_suit(best) != trump)) {
            const pl_Set above = pl_beating(follow, best, trump);
            if (above) out = above;
        }
    } else if (!trumps || (sv->partner_exempt && sv->wseat == ((w->turn + 2) & 3)))
        out = hand;
    else {
        out = trumps;
        if (pl_suit(best) == trump) {
            const pl_Set above = pl_beating(trumps, best, trump);
            if (above) out = above;
        }
    }
#ifdef DL_CHECK
    if (out != pl_legal_cards(w)) {
        fprintf(stderr, "solver's legal set %08x, the engine's %08x\n", (unsigned)out, (unsigned)pl_legal_cards(w));
        abort();
    }
#endif
    return out;
}

/* ---- the search --------------------------------------------------------- */

static int search(pl_Solver *sv, int alpha, int beta);

/* The value of a completed trick's rest: its winner's team takes pts. */
static int after_trick(pl_Solver *sv, int win, int pts, int alpha, int beta)
{
    const pl_State *w = &sv->w;
    const int k = pl_trick_index(w) - 1, team = pl_team(win);
    const int flags = sv->flags;
    int v;
    sv->flags |= 1 << team;
    if (k == 7) {
        /* P32: one team took all eight */
        v = team == 0 ? pts + 10 : 0;
        if (sv->flags == 1) v += SWEEP_EXTRA;
        if (sv->flags == 2) v = PL_SOLVE_SWEPT;
    } else if (team == 0)
        v = pts + search(sv, alpha - pts, beta - pts);
    else
        v = search(sv, alpha, beta);
    sv->flags = flags;
    return v;
}

/* The value of playing c at this node: the card played, the rest
 * searched, and all of it taken back. */
static int child(pl_Solver *sv, int c, int alpha, int beta)
{
    pl_State *w = &sv->w;
    c &= 31; /* a card: the analyzer cannot see that moves are never empty */
    const int seat = w->turn, owcard = sv->wcard, owseat = sv->wseat, oled = sv->led;
    const pl_Set bit = PL_BIT(c);
    w->hand[seat] &= ~bit;
    w->played[w->nplayed++] = (uint8_t)c;
    /* the clock is read now and then: it costs more than a node */
    if ((++sv->nodes & 0x3FFF) == 0 && sv->deadline > 0 && now_s() > sv->deadline) sv->stopped = true;
    if (sv->tn == 0) sv->led = pl_suit(c), sv->wcard = c, sv->wseat = seat;
    else if (beats(c, sv->wcard, sv->trump)) sv->wcard = c, sv->wseat = seat;
    sv->tset |= bit;
    sv->tpts += sv->cpts[c];
    int v;
    if (++sv->tn < 4) {
        w->turn = (uint8_t)((seat + 1) & 3);
        v = search(sv, alpha, beta);
    } else {
        const int k = pl_trick_index(w) - 1, win = sv->wseat, tpts = sv->tpts;
        const pl_Set tset = sv->tset;
        if (k < 7) w->leader[k + 1] = (uint8_t)win;
        w->turn = (uint8_t)win;
        sv->gone |= tset, sv->rest -= tpts;
        sv->tn = 0, sv->tset = 0, sv->tpts = 0;
        v = after_trick(sv, win, tpts, alpha, beta);
        sv->gone &= ~tset, sv->rest += tpts;
        sv->tn = 4, sv->tset = tset, sv->tpts = tpts;
    }
    sv->tn--;
    sv->tset &= ~bit;
    sv->tpts -= sv->cpts[c];
    sv->wcard = owcard, sv->wseat = owseat, sv->led = oled;
    w->nplayed--;
    w->hand[seat] |= bit;
    w->turn = (uint8_t)seat;
    return v;
}

/* A team's trumps above every trump of the other team: whenever one is
 * played, the trick goes to the highest trump in it, which is one of
 * them, so the team takes their points and at least one trick. */
static int sure_trumps(const pl_Solver *sv, unsigned mine, unsigned theirs)
{
    return theirs ? (int)(mine & pl_trump_above[sv->top[theirs]]) : (int)mine;
}

/* What the rest can still bring team 0 at a trick start: [lo, hi]. */
static void bounds(const pl_Solver *sv, int *lo, int *hi)
{
    const pl_State *w = &sv->w;
    const int sh = 8 * sv->trump;
    const unsigned t0 = ((w->hand[0] | w->hand[2]) >> sh) & 0xFF, t1 = ((w->hand[1] | w->hand[3]) >> sh) & 0xFF;
    const int sure0 = sure_trumps(sv, t0, t1), sure1 = sure_trumps(sv, t1, t0);
    *lo = sure0 ? sv->spts[1][sure0] : sv->flags & 1 ? 0 : PL_SOLVE_SWEPT;
    *hi = sv->rest + 10 + (sv->flags & 2 || sure1 ? 0 : SWEEP_EXTRA) - sv->spts[1][sure1];
}

/* The last trick: one card a hand, so each seat's only legal card (a
 * legal set is never empty); no search needed. */
static int last_trick(pl_Solver *sv)
{
    const pl_State *w = &sv->w;
    const int lead = w->turn;
    int best = pl_first(w->hand[lead]), bseat = lead;
    for (int i = 1; i < 4; i++) {
        const int seat = (lead + i) & 3, c = pl_first(w->hand[seat]);
        if (beats(c, best, sv->trump)) best = c, bseat = seat;
    }
    const int team = pl_team(bseat), flags = sv->flags | 1 << team;
    sv->nodes += 4;
    /* the four cards are all that is left: sv->rest is their points */
    if (flags == 1) return sv->rest + 10 + SWEEP_EXTRA;
    if (flags == 2) return PL_SOLVE_SWEPT;
    return team == 0 ? sv->rest + 10 : 0;
}

static int search(pl_Solver *sv, int alpha, int beta)
{
    if (sv->stopped) return 0;
    pl_State *w = &sv->w;
    const bool start = sv->tn == 0;
    if (start && w->nplayed == 28) return last_trick(sv);
    Entry *e = NULL;
    Key key = {0, 0, 0};
    bool hit = false;
    /* the entry's bounds as found: its slot may hold another position by
     * the time the children are searched */
    int elo = -INF, ehi = INF;
    int first = -1;
    if (start) {
        bounds(sv, &elo, &ehi);
        if (elo >= beta) return elo;
        if (ehi <= alpha) return ehi;
        const int meta = 0x80 | sv->flags << 2 | w->turn;
        key = key_of(w);
        e = probe(sv, key, meta, &hit);
        if (hit) {
            if (e->lo + VMIN > elo) elo = e->lo + VMIN;
            if (e->hi + VMIN < ehi) ehi = e->hi + VMIN;
            first = e->move == 0xFF ? -1 : e->move;
        }
        if (elo >= beta) return elo;
        if (ehi <= alpha) return ehi;
        if (elo == ehi) return elo;
        if (elo > alpha) alpha = elo;
        if (ehi < beta) beta = ehi;
    }
    const pl_Set moves = collapse(sv, legal(sv), w->hand[w->turn]);
    int list[8] = {0};
    /* a forced card needs no order */
    int n = 1;
    if (moves & (moves - 1)) n = order_moves(sv, moves, first, list);
    else list[0] = pl_first(moves);
    const bool max = pl_team(w->turn) == 0;
    const int sa = alpha, sb = beta;
    int best = max ? -INF : INF, bestc = -1;
    for (int i = 0; i < n; i++) {
        /* the first card with the whole window, the others with a null
         * window around the best so far, searched again if they beat it */
        int v;
        if (i == 0) v = child(sv, list[i], alpha, beta);
        else if (max) {
            v = child(sv, list[i], alpha, alpha + 1);
            if (v > alpha && v < beta) v = child(sv, list[i], v, beta);
        } else {
            v = child(sv, list[i], beta - 1, beta);
            if (v < beta && v > alpha) v = child(sv, list[i], alpha, v);
        }
        if (max ? v > best : v < best) best = v, bestc = list[i];
        if (max && v > alpha) alpha = v;
        if (!max && v < beta) beta = v;
        if (alpha >= beta) {
            if (start) sv->killer[pl_trick_index(w)][w->turn] = (int8_t)list[i];
            break;
        }
    }
    if (start && !sv->stopped) {
        /* fail-soft: best bounds the value from the side it failed on */
        int lo = elo, hi = ehi;
        if (best <= sa) hi = best < hi ? best : hi;
        else if (best >= sb) lo = best > lo ? best : lo;
        else lo = hi = best;
        e->left = key.left, e->odd = key.odd, e->high = key.high;
        e->meta = (uint8_t)(0x80 | sv->flags << 2 | w->turn);
        /* the bounds of the values there are (bounds() gives no wider) */
        e->lo = (uint8_t)((lo < VMIN ? VMIN : lo) - VMIN), e->hi = (uint8_t)((hi > VMAX ? VMAX : hi) - VMIN);
        e->move = (uint8_t)bestc;
    }
    return best;
}

/* Readies the solver for s; clears the table when the trumps or rules
 * differ from those its entries were found under. */
static void load(pl_Solver *sv, const pl_State *s)
{
    sv->w = *s;
    sv->trump = s->bid_suit;
    sv->flags = (s->trick_won[0] ? 1 : 0) | (s->trick_won[1] ? 2 : 0);
    sv->gone = 0;
    for (int k = 0; k < pl_trick_index(s); k++)
        for (int i = 4 * k; i < 4 * k + 4; i++) sv->gone |= PL_BIT(s->played[i]);
    sv->zero = 0;
    for (int c = 0; c < PL_NCARDS; c++) {
        sv->cpts[c] = (uint8_t)pl_points(c, sv->trump);
        if (!sv->cpts[c]) sv->zero |= PL_BIT(c);
    }
    sv->tn = pl_trick_count(s);
    sv->tset = pl_trick_set(s);
    sv->tpts = set_points(sv, sv->tset);
    sv->led = sv->tn ? pl_suit(s->played[s->nplayed - sv->tn]) : -1;
    sv->wcard = pl_best_card(s);
    sv->wseat = sv->tn ? pl_trick_winner(s, pl_trick_index(s)) : -1;
    sv->rest = set_points(sv, ~sv->gone);
    sv->must_head = s->rules.must_head;
    sv->partner_exempt = s->rules.partner_exempt;
    /* the house rules that change what may be played mid-round */
    const bool same = sv->rules.partner_exempt == s->rules.partner_exempt && sv->rules.must_head == s->rules.must_head;
    if (sv->table_trump != s->bid_suit || !same) {
        memset(sv->tt, 0, ((size_t)sv->mask + 1) * sizeof *sv->tt);
        sv->rules = s->rules;
        sv->table_trump = s->bid_suit;
    }
}

/* Team 0's final value from a relative one. */
static int final0(const pl_State *s, int rel)
{
    if (rel == PL_SOLVE_SWEPT && s->trick_won[0] == 0) return PL_SOLVE_SWEPT;
    int v = s->trick_points[0] + rel;
    return v > 162 ? PL_SOLVE_SWEEP : v;
}

static int for_team(int v0, int team) { return team == 0 ? v0 : pl_solve_other(v0); }

static bool playable(const pl_State *s)
{
    return s->phase == PL_PHASE_PLAY && s->bid_suit >= 0 && s->nplayed < PL_NCARDS;
}

int pl_solve_after(pl_Solver *sv, const pl_State *s, int card)
{
    if (!playable(s) || card < 0 || card >= PL_NCARDS || !(pl_legal_cards(s) & PL_BIT(card))) return -2;
    load(sv, s);
    const int team = pl_team(s->turn);
    return for_team(final0(s, child(sv, card, -INF, INF)), team);
}

int pl_solve(pl_Solver *sv, const pl_State *s, pl_SolveResult *out)
{
    if (!playable(s)) return -2;
    const long n0 = sv->nodes;
    load(sv, s);
    const int team = pl_team(s->turn);
    if (!out) return for_team(final0(s, search(sv, -INF, INF)), team);
    out->team = team;
    out->nmoves = 0;
    /* equal cards have one value: each searched once */
    const pl_Set all = pl_legal_cards(s), kept = collapse(sv, all, s->hand[s->turn]);
    int value[PL_NCARDS] = {0};
    for (pl_Set m = kept; m; m &= m - 1) {
        const int c = pl_first(m);
        value[c] = for_team(final0(s, child(sv, c, -INF, INF)), team);
    }
    for (pl_Set m = all; m; m &= m - 1) {
        const int c = pl_first(m);
        /* a card dropped is equal to the nearest kept one above it in its
         * suit (collapse drops only the lower of two) */
        int k = c;
        while (!(kept & PL_BIT(k)) && k < PL_NCARDS - 1) k++;
        pl_SolveMove mv = {c, value[k]};
        int j = out->nmoves++;
        while (j > 0 && out->moves[j - 1].value < mv.value) out->moves[j] = out->moves[j - 1], j--;
        out->moves[j] = mv;
    }
    out->value = out->moves[0].value;
    out->nodes = sv->nodes - n0;
    return out->value;
}

/* ---- the round's score -------------------------------------------------- */

/* P36-P38: the standing team's announcements, each one counted unless its
 * seat already let the moment to show pass. */
static void declarations(const pl_State *s, int out[2])
{
    out[0] = out[1] = 0;
    const int st = s->standing == PL_STANDING_NOT_YET ? pl_standing(s) : s->standing;
    if (st != 0 && st != 1) return;
    for (int i = 0; i < s->ndecl; i++)
        if (pl_team(s->decl[i].seat) == st && !pl_decl_lost(s, i)) out[st] += s->decl[i].value;
}

/* P39: said, or still to be said by a seat holding both. */
static int belote_seat(const pl_State *s)
{
    if (s->belote >= 0) return s->belote;
    const pl_Set kq = PL_BIT(pl_card(PL_RK, s->bid_suit)) | PL_BIT(pl_card(PL_RQ, s->bid_suit));
    for (int i = 0; i < 4; i++)
        if ((s->hand[i] & kq) == kq) return i;
    return -1;
}

void pl_solve_score(const pl_State *s, int team, int value, pl_RoundScore *o)
{
    *o = (pl_RoundScore){0};
    const int v0 = for_team(value, team);
    o->bidders = pl_team(s->bidder);
    o->value = pl_contract_value(s);
    o->mult = s->mult;
    if (v0 == PL_SOLVE_SWEPT) o->trick_points[1] = 250, o->tricks[1] = 8;
    else if (v0 == PL_SOLVE_SWEEP) o->trick_points[0] = 250, o->tricks[0] = 8;
    else o->trick_points[0] = v0, o->trick_points[1] = 162 - v0, o->tricks[0] = o->tricks[1] = 4;
    declarations(s, o->decl);
    const int b = belote_seat(s);
    if (b >= 0) o->belote[pl_team(b)] = 20;
    pl_score_breakdown(&s->rules, o, s->bid == PL_CAPOT);
}
