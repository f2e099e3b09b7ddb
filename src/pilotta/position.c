#include "pilotta/position.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pilotta/check.h"
#include "pilotta/refuse.h"
#include "pilotta/decl.h"
#include "pilotta/deal.h"
#include "pilotta/notation.h"
#include "pilotta/play.h"
#include "pilotta/score.h"
#include "text.h"

/* ---- printing ---- */

static void add_set(dl_Text *t, pl_Set cards)
{
    char b[160];
    pl_set_str(cards, b, sizeof b, false);
    dl_text_add(t, "%s", cards ? b : "-");
}

static void add_calls(dl_Text *t, const pl_State *s)
{
    dl_text_add(t, "; calls=");
    for (int i = 0; i < s->ncalls; i++) {
        char b[24];
        pl_Action a = pl_call_decode(s->calls[i]);
        pl_call_str(&a, b, sizeof b, false);
        dl_text_add(t, "%s%s", i ? ", " : "", b);
    }
}

static void add_tricks(dl_Text *t, const pl_State *s)
{
    dl_text_add(t, "; tricks=");
    for (int i = 0; i < s->nplayed; i++) {
        char c[8];
        pl_card_str(s->played[i], c, false);
        dl_text_add(t, "%s%s", i == 0 ? "" : (i & 3) ? " " : " / ", c);
    }
}

/* A rank as a card is written without its suit: "J", "10". */
static void add_rank(dl_Text *t, int rank)
{
    char c[8];
    pl_card_str(pl_card(rank, 0), c, false);
    c[strlen(c) - 1] = '\0';
    dl_text_add(t, "%s", c);
}

/* A hidden seat's announcement not yet shown is written as the other
 * players heard it (P50): its kind with a run's length or a four's rank,
 * never its cards. The standing team (P36) is public, and may hang on
 * cards so hidden: it is written then. */
static void add_decls(dl_Text *t, const pl_State *s, unsigned hide)
{
    bool blind = false;
    dl_text_add(t, "; decls=");
    for (int i = 0; i < s->ndecl; i++) {
        const pl_Decl *d = &s->decl[i];
        dl_text_add(t, "%s%d:", i ? ", " : "", d->seat);
        if (!d->shown && (hide >> d->seat & 1)) {
            blind = true;
            if (d->kind == PL_RUN) {
                dl_text_add(t, "run %d", pl_count(d->cards));
            } else {
                dl_text_add(t, "four ");
                add_rank(t, pl_rank(pl_first(d->cards)));
            }
            continue;
        }
        add_set(t, d->cards);
        if (d->shown) dl_text_add(t, " shown");
    }
    if (blind && s->standing >= 0) {
        static const char *const STANDING[] = {"0", "1", "equal", "none"};
        dl_text_add(t, "; standing=%s", STANDING[s->standing]);
    }
}

int pl_position_str(const pl_State *s, char *buf, size_t cap, unsigned hide)
{
    dl_Text t = dl_text(buf, cap);
    dl_text_add(&t, "dealer=%d; round=%d; score=%d %d", s->dealer, s->round, s->score[0], s->score[1]);
    if (s->ncalls) add_calls(&t, s);
    dl_text_add(&t, "; hands=");
    for (int seat = 0; seat < 4; seat++) {
        if (seat) dl_text_add(&t, " / ");
        if ((hide >> seat & 1) && s->hand[seat]) dl_text_add(&t, "?%d", pl_count(s->hand[seat]));
        else add_set(&t, s->hand[seat]);
    }
    if (s->nplayed) add_tricks(&t, s);
    if (s->ndecl) add_decls(&t, s, hide);
    if (s->belote >= 0) dl_text_add(&t, "; belote=%d", s->belote);
    return (int)t.n;
}

/* ---- parsing ---- */

enum { F_DEALER, F_ROUND, F_SCORE, F_CALLS, F_HANDS, F_TRICKS, F_DECLS, F_BELOTE, F_STANDING, NFIELDS };
static const char *const FIELDS[NFIELDS] = {"dealer", "round", "score", "calls",   "hands",
                                            "tricks", "decls", "belote", "standing"};

typedef struct {
    char *err;
    size_t cap;
    char text[PL_POSITION_MAX]; /* a copy of the position, cut into fields */
    char *val[NFIELDS];         /* each field's value, inside text */
    bool has[NFIELDS];
    pl_Set known[4];
    int hidden[4];
    /* announcements written without their cards ("run 4", "four J"):
     * a run's length or a four's rank, the cards chosen by choose_blind */
    bool blind[PL_MAX_DECLS];
    int8_t length[PL_MAX_DECLS], rank[PL_MAX_DECLS];
} Parse;

static const char *fail(Parse *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err, p->cap, fmt, ap);
    va_end(ap);
    return p->err;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

/* strtok without its hidden state (a parse may run in any number of
 * rooms, or threads, at once): the next token of *rest, or NULL. */
static char *token(char **rest, const char *delims)
{
    char *s = *rest + strspn(*rest, delims);
    if (!*s) {
        *rest = s;
        return NULL;
    }
    char *e = s + strcspn(s, delims);
    if (*e) *e++ = '\0';
    *rest = e;
    return s;
}

static const char *split_fields(Parse *p, const char *text)
{
    if (strlen(text) >= PL_POSITION_MAX) return fail(p, "position too long (over %d bytes)", PL_POSITION_MAX - 1);
    memcpy(p->text, text, strlen(text) + 1);
    char *rest = p->text, *f;
    while ((f = token(&rest, ";"))) {
        char *eq = strchr(f, '=');
        if (!eq) {
            if (*trim(f)) return fail(p, "field '%.20s' has no '='", trim(f));
            continue;
        }
        *eq = '\0';
        const char *key = trim(f);
        int k = 0;
        while (k < NFIELDS && strcmp(key, FIELDS[k]) != 0) k++;
        if (k == NFIELDS) return fail(p, "unknown field '%.20s' (dealer, round, score, calls, hands, tricks, decls, belote, standing)", key);
        if (p->has[k]) return fail(p, "field '%s' given twice", key);
        p->has[k] = true;
        p->val[k] = trim(eq + 1);
    }
    if (!p->has[F_HANDS]) return fail(p, "the hands field is required");
    return NULL;
}

static const char *parse_int(Parse *p, const char *s, long lo, long hi, const char *what, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *trim(end) || v < lo || v > hi) return fail(p, "%s must be a number from %ld to %ld", what, lo, hi);
    *out = v;
    return NULL;
}

static const char *parse_header(Parse *p, pl_State *s)
{
    long v = 0;
    const char *bad;
    if (p->has[F_DEALER]) {
        if ((bad = parse_int(p, p->val[F_DEALER], 0, 3, "dealer (P1: seats 0 to 3)", &v))) return bad;
        s->dealer = (uint8_t)v;
    }
    if (p->has[F_ROUND]) {
        if ((bad = parse_int(p, p->val[F_ROUND], 1, 1000000000, "round", &v))) return bad;
        s->round = (int32_t)v;
    }
    if (p->has[F_SCORE]) {
        char *a = p->val[F_SCORE], *sp = strchr(a, ' ');
        if (!sp) return fail(p, "score needs two numbers, team A's and team B's");
        *sp = '\0';
        if ((bad = parse_int(p, a, 0, 1000000, "score", &v))) return bad;
        s->score[0] = (int32_t)v;
        if ((bad = parse_int(p, sp + 1, 0, 1000000, "score", &v))) return bad;
        s->score[1] = (int32_t)v;
    }
    return NULL;
}

/* The auction, replayed through the rules on a dummy deal. */
static const char *replay_calls(Parse *p, pl_State *s)
{
    uint8_t pack[PL_NCARDS];
    for (int i = 0; i < PL_NCARDS; i++) pack[i] = (uint8_t)i;
    pl_deal_pack(s, pack);
    if (!p->has[F_CALLS] || !*p->val[F_CALLS]) return NULL;
    char *rest = p->val[F_CALLS], *c;
    while ((c = token(&rest, ","))) {
        pl_Action a;
        char why[200];
        c = trim(c);
        if (s->phase > PL_PHASE_CONTRA) return fail(p, "call '%.20s' after the auction ended (P18)", c);
        if (pl_action_parse(s, c, &a, why, sizeof why)) return fail(p, "calls: %s", why);
        if (pl_apply(s, &a, why, sizeof why)) return fail(p, "calls: '%.20s': %s", c, why);
    }
    return NULL;
}

static const char *parse_hand(Parse *p, int seat, char *text)
{
    char *w;
    while ((w = token(&text, " "))) {
        int len, c;
        if (strcmp(w, "-") == 0) continue;
        if (w[0] == '?') {
            long v = 0;
            if (parse_int(p, w + 1, 0, 8, "a hidden count ?N", &v)) return p->err;
            p->hidden[seat] += (int)v;
            continue;
        }
        c = pl_card_parse(w, &len);
        if (c < 0 || w[len]) return fail(p, "hands: '%.12s' is not a card of the 32-card pack (P4)", w);
        for (int i = 0; i < 4; i++)
            if (p->known[i] & PL_BIT(c)) return fail(p, "hands: %.12s is written twice", w);
        p->known[seat] |= PL_BIT(c);
    }
    return NULL;
}

static const char *parse_hands(Parse *p)
{
    char *text = p->val[F_HANDS], *seat[4];
    int n = 0;
    for (char *q = text;; q++) {
        if (n == 4) return fail(p, "hands: four hands separated by '/' (P1), not more");
        seat[n++] = q;
        q = strchr(q, '/');
        if (!q) break;
        *q = '\0';
    }
    if (n != 4) return fail(p, "hands: four hands separated by '/' (P1)");
    for (int i = 0; i < 4; i++)
        if (parse_hand(p, i, seat[i])) return p->err;
    return NULL;
}

/* "run N" or "four R": an announcement as the others heard it (P50),
 * announcement k. Its kind and value are set now, its cards once the
 * tricks say what its seat played (choose_blind). */
static const char *parse_blind(Parse *p, pl_Decl *x, int k, const char *what)
{
    if (x->shown) return fail(p, "decls: a shown announcement names its cards (P38)");
    pl_Decl model = *x;
    int len = 0;
    if (what[0] == 'r') {
        char *end;
        long n = strtol(what + 4, &end, 10);
        if (end == what + 4 || *trim(end) || n < 3 || n > 8)
            return fail(p, "decls: '%.20s': a run is of 3 to 8 cards (P33)", what);
        p->length[k] = (int8_t)n;
        /* (the same kind and value as any run of that length) */
        if (!pl_decl_classify((pl_Set)((1u << n) - 1), &model)) return fail(p, "decls: bad run");
    } else {
        const char *r = what + 5;
        while (*r == ' ') r++;
        /* a rank is written as a card without its suit: read it with one */
        int c = -1;
        if (strlen(r) >= 1 && strlen(r) <= 2) {
            char card[8];
            snprintf(card, sizeof card, "%sc", r);
            c = pl_card_parse(card, &len);
            if (c >= 0 && card[len] != '\0') c = -1;
        }
        if (c < 0) return fail(p, "decls: '%.20s': a four names its rank, as four J (P33)", what);
        if (!pl_decl_classify(pl_rank_mask(pl_rank(c)), &model))
            return fail(p, "decls: '%.20s' is not a declaration (P33: fours of 7s and 8s count nothing)", what);
        p->rank[k] = (int8_t)pl_rank(c);
    }
    x->kind = model.kind;
    x->value = model.value;
    x->cards = 0;
    p->blind[k] = true;
    return NULL;
}

static const char *parse_decls(Parse *p, pl_State *s)
{
    if (!p->has[F_DECLS] || !*p->val[F_DECLS]) return NULL;
    if (s->phase != PL_PHASE_PLAY) return fail(p, "decls: announcements come in the play (P35)");
    char *rest = p->val[F_DECLS], *d;
    while ((d = token(&rest, ","))) {
        d = trim(d);
        if (s->ndecl == PL_MAX_DECLS) return fail(p, "decls: too many");
        if (d[0] < '0' || d[0] > '3' || d[1] != ':') return fail(p, "decls: write seat:cards, as 0:7c 8c 9c");
        pl_Decl *x = &s->decl[s->ndecl];
        *x = (pl_Decl){0, (uint8_t)(d[0] - '0'), 0, 0, 0};
        size_t n = strlen(d);
        if (n > 6 && strcmp(d + n - 6, " shown") == 0) x->shown = 1, d[n - 6] = '\0';
        const char *what = trim(d + 2);
        if (strncmp(what, "run ", 4) == 0 || strncmp(what, "four ", 5) == 0) {
            if (parse_blind(p, x, s->ndecl, what)) return p->err;
            s->ndecl++;
            continue;
        }
        int len;
        for (const char *q = d + 2; *q;) {
            while (*q == ' ') q++;
            if (!*q) break;
            int c = pl_card_parse(q, &len);
            if (c < 0) return fail(p, "decls: '%.12s' is not a card", q);
            x->cards |= PL_BIT(c);
            q += len;
        }
        if (!pl_decl_classify(x->cards, x)) return fail(p, "decls: '%.20s' is not a declaration (P33)", d + 2);
        s->ndecl++;
    }
    return NULL;
}

/* The cards played, through the trick rules, on empty hands: the leads
 * say who played what. */
static const char *replay_tricks(Parse *p, pl_State *s)
{
    if (!p->has[F_TRICKS] || !*p->val[F_TRICKS]) return NULL;
    if (s->phase != PL_PHASE_PLAY) return fail(p, "tricks: no card is played before the auction ends (P18)");
    pl_Set seen = 0;
    bool slash = false; /* a trick is complete: a '/' must come next */
    for (const char *q = p->val[F_TRICKS]; *q;) {
        int len, c;
        if (*q == ' ') {
            q++;
            continue;
        }
        if (*q == '/') {
            if (!slash) return fail(p, "tricks: a '/' comes after every fourth card, nowhere else");
            slash = false;
            q++;
            continue;
        }
        if (slash) return fail(p, "tricks: a '/' must follow every fourth card");
        if ((c = pl_card_parse(q, &len)) < 0) return fail(p, "tricks: '%.12s' is not a card", q);
        if (seen & PL_BIT(c)) return fail(p, "tricks: %.12s is played twice", q);
        if (s->phase != PL_PHASE_PLAY) return fail(p, "tricks: more than eight tricks");
        seen |= PL_BIT(c);
        pl_Action a = {0, PL_PLAY, 0, -1, (uint8_t)c, 0};
        pl_play_apply(s, &a);
        slash = pl_trick_count(s) == 0 && s->phase == PL_PHASE_PLAY;
        q += len;
    }
    return NULL;
}

/* Hands: the written cards, announced ones not yet played, then "?N"
 * filled from the seed. */
static const char *place_cards(Parse *p, pl_State *s, uint64_t seed)
{
    pl_Set played = 0, placed = 0;
    for (int i = 0; i < s->nplayed; i++) played |= PL_BIT(s->played[i]);
    for (int seat = 0; seat < 4; seat++) {
        if (p->known[seat] & played) return fail(p, "hands: seat %d holds a card already played", seat);
        s->hand[seat] = p->known[seat];
    }
    for (int i = 0; i < s->ndecl; i++) {
        const pl_Decl *d = &s->decl[i];
        pl_Set missing = d->cards & ~played & ~s->hand[d->seat];
        if (!missing) continue;
        for (int k = 0; k < 4; k++)
            if (s->hand[k] & missing) return fail(p, "decls: seat %d announced a card seat %d holds (P35)", d->seat, k);
        if (p->hidden[d->seat] < pl_count(missing)) return fail(p, "decls: seat %d announced cards it does not hold (P35)", d->seat);
        s->hand[d->seat] |= missing;
        p->hidden[d->seat] -= pl_count(missing);
    }
    for (int seat = 0; seat < 4; seat++) {
        int want = 8 - pl_count(pl_played_by(s, seat));
        if (pl_count(s->hand[seat]) + p->hidden[seat] != want)
            return fail(p, "hands: seat %d must hold %d cards (8 dealt, P11, less those played)", seat, want);
        placed |= s->hand[seat];
    }
    uint8_t rest[PL_NCARDS];
    int n = 0;
    for (int c = 0; c < PL_NCARDS; c++)
        if (!((placed | played) & PL_BIT(c))) rest[n++] = (uint8_t)c;
    dl_Rng rng;
    dl_rng_seed(&rng, seed);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)dl_rng_below(&rng, (uint32_t)(i + 1));
        uint8_t t = rest[i];
        rest[i] = rest[j], rest[j] = t;
    }
    for (int seat = 0, k = 0; seat < 4; seat++)
        for (int i = 0; i < p->hidden[seat]; i++) s->hand[seat] |= PL_BIT(rest[k++]);
    return NULL;
}

static const char *check_decls(Parse *p, const pl_State *s)
{
    for (int i = 0; i < s->ndecl; i++) {
        const pl_Decl *a = &s->decl[i];
        for (int j = 0; j < i; j++) {
            const pl_Decl *b = &s->decl[j];
            if (a->seat != b->seat) continue;
            if ((a->cards & b->cards) && (!s->rules.decl_overlap || a->kind == b->kind))
                return fail(p, "decls: seat %d announced a card twice (P34, P35)", a->seat);
            if (a->shown != b->shown) return fail(p, "decls: a player shows all his announcements at once (P38)");
        }
        if (a->shown && (s->nplayed < 4 || s->standing != pl_team(a->seat)))
            return fail(p, "decls: only the standing team shows, in the second trick (P38)");
    }
    return NULL;
}

/* The sets an announcement written without its cards may stand for:
 * every run of its length in each suit, or the four of its rank. */
static int blind_candidates(const Parse *p, int k, pl_Set out[32])
{
    if (!p->length[k]) {
        out[0] = pl_rank_mask(p->rank[k]);
        return 1;
    }
    int n = 0, len = p->length[k];
    for (int suit = 0; suit < 4; suit++)
        for (int lo = 0; lo + len <= 8; lo++) out[n++] = (pl_Set)(((1u << len) - 1) << lo) << (suit * 8);
    return n;
}

/* Cards for the announcements written without theirs, drawn with rng:
 * each set is cards its seat played or may hold among those not written
 * anywhere else, within its hidden count, and no card serves two
 * announcements. Returns false when a draw found no fit. */
static bool choose_blind(const Parse *p, pl_State *s, const pl_State *played, dl_Rng *rng)
{
    pl_Set taken[4] = {0}, all_played = 0;
    int room[4];
    for (int i = 0; i < played->nplayed; i++) all_played |= PL_BIT(played->played[i]);
    for (int q = 0; q < 4; q++) room[q] = p->hidden[q];
    for (int i = 0; i < s->ndecl; i++) {
        if (p->blind[i]) continue;
        const pl_Decl *d = &s->decl[i];
        room[d->seat] -= pl_count(d->cards & ~all_played & ~p->known[d->seat] & ~taken[d->seat]);
        taken[d->seat] |= d->cards;
    }
    for (int i = 0; i < s->ndecl; i++) {
        if (!p->blind[i]) continue;
        const int q = s->decl[i].seat;
        pl_Set other = 0, fits[32], cand[32];
        for (int k = 0; k < 4; k++)
            if (k != q) other |= p->known[k] | taken[k] | pl_played_by(played, k);
        int n = 0, m = blind_candidates(p, i, cand);
        for (int j = 0; j < m; j++) {
            const pl_Set c = cand[j];
            if ((c & other) || (c & taken[q])) continue;
            if (pl_count(c & ~all_played & ~p->known[q]) > room[q]) continue;
            fits[n++] = c;
        }
        if (n == 0) return false;
        const pl_Set c = fits[dl_rng_below(rng, (uint32_t)n)];
        s->decl[i].cards = c;
        room[q] -= pl_count(c & ~all_played & ~p->known[q]);
        taken[q] |= c;
    }
    return true;
}

static int parse_standing(const char *v)
{
    static const char *const NAMES[] = {"0", "1", "equal", "none"};
    for (int i = 0; i < 4; i++)
        if (strcmp(v, NAMES[i]) == 0) return i;
    return -2;
}

/* The tricks replayed, with cards drawn for the announcements written
 * without theirs until the standing team is the one written (P36: a
 * run's top card and suit may decide it). */
static const char *replay_with_blind(Parse *p, pl_State *s, uint64_t seed)
{
    bool any = false;
    for (int i = 0; i < s->ndecl; i++) any |= p->blind[i];
    const int want = p->has[F_STANDING] ? parse_standing(p->val[F_STANDING]) : 0;
    if (want < 0) return fail(p, "standing must be 0, 1, equal or none (P36)");
    if (!any) {
        if (replay_tricks(p, s)) return p->err;
        if (p->has[F_STANDING] && s->standing != want)
            return fail(p, "standing: the announcements say otherwise (P36)");
        return NULL;
    }
    /* Who played what, first: without the announcements yet to get
     * cards (the standing would compare cards they do not have). */
    pl_State first = *s;
    first.ndecl = 0;
    if (replay_tricks(p, &first)) return p->err;
    dl_Rng rng;
    dl_rng_seed(&rng, seed ^ 0x9E3779B97F4A7C15ull);
    const pl_State start = *s;
    for (int tries = 0; tries < 1000; tries++) {
        *s = start;
        if (!choose_blind(p, s, &first, &rng)) continue;
        if (replay_tricks(p, s)) return p->err;
        if (!p->has[F_STANDING] || s->standing == want) return NULL;
    }
    return fail(p, "decls: no cards fit the announcements written by kind%s (P35, P36)",
                p->has[F_STANDING] ? " and the standing" : "");
}

static const char *parse_belote(Parse *p, pl_State *s)
{
    long v = 0;
    if (!p->has[F_BELOTE]) return NULL;
    if (parse_int(p, p->val[F_BELOTE], 0, 3, "belote (a seat)", &v)) return p->err;
    int trump = s->bid_suit;
    pl_Set kq = trump < 0 ? 0 : PL_BIT(pl_card(PL_RK, trump)) | PL_BIT(pl_card(PL_RQ, trump));
    if (!kq || (pl_played_by(s, (int)v) & kq) == 0)
        return fail(p, "belote: seat %ld has not played its King or Queen of trumps (P39)", v);
    s->belote = (int8_t)v;
    return NULL;
}

/* Scores a finished round again (the score field already holds it). */
static void settle(pl_State *s, const int32_t score[2])
{
    if (s->phase != PL_PHASE_ROUND_OVER && s->phase != PL_PHASE_MATCH_OVER) return;
    if (!s->last.thrown_in) pl_score_round(s, &s->last);
    s->score[0] = score[0], s->score[1] = score[1];
    s->last.game[0] = s->last.game[1] = 0; /* already in the score */
    pl_add_to_match(s);
    if (!s->last.thrown_in) pl_score_round(s, &s->last);
}

const char *pl_position_parse(pl_State *out, const pl_Rules *r, const char *text, uint64_t seed,
                              char *err, size_t cap)
{
    Parse p; /* the caller's: nothing kept between calls */
    memset(&p, 0, sizeof p);
    p.err = err, p.cap = cap;
    pl_State s;
    const char *bad = pl_rules_check(r);
    if (bad) return fail(&p, "%s", bad);
    pl_state_blank(&s, r);
    if (split_fields(&p, text) || parse_header(&p, &s) || replay_calls(&p, &s) || parse_hands(&p) ||
        parse_decls(&p, &s))
        return err;
    const int32_t score[2] = {s.score[0], s.score[1]};
    for (int i = 0; i < 4; i++) s.hand[i] = 0;
    /* The belote seat must be known before the last trick scores the round. */
    if (p.has[F_BELOTE]) {
        long v = 0;
        if (parse_int(&p, p.val[F_BELOTE], 0, 3, "belote (a seat)", &v)) return err;
        s.belote = (int8_t)v;
    }
    if (replay_with_blind(&p, &s, seed) || place_cards(&p, &s, seed) || check_decls(&p, &s)) return err;
    s.belote = -1;
    if (parse_belote(&p, &s)) return err;
    settle(&s, score);
    dl_rng_seed(&s.rng, seed);
    const char *broken = pl_check_state(&s);
    if (broken) return fail(&p, "inconsistent position: %s", broken);
    *out = s;
    return NULL;
}
