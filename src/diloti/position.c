#include "position.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "notation.h"
#include "text.h"

static const char *const PHASES[] = {"claim", "play", "round-over", "match-over"};

static void add_list(dl_Text *t, const dl_Set *sets, int n)
{
    for (int i = 0; i < n; i++) {
        char b[200];
        if (i) dl_text_add(t, " / ");
        if (!sets[i]) {
            dl_text_add(t, "-");
            continue;
        }
        dl_set_str(sets[i], b, sizeof b, false);
        dl_text_add(t, "%s", b);
    }
}

static void add_ints(dl_Text *t, const char *key, const int *v, int n)
{
    dl_text_add(t, "; %s=", key);
    for (int i = 0; i < n; i++) dl_text_add(t, "%s%d", i ? " " : "", v[i]);
}

int dl_position_str(const dl_State *s, char *buf, size_t cap, bool hide_pack)
{
    const int n = s->rules.players, sides = dl_nsides(&s->rules);
    dl_Text t = dl_text(buf, cap);
    dl_text_add(&t, "dealer=%d; turn=%d; round=%d; deal=%d; ply=%d", s->dealer, s->turn,
                s->round, s->deal, s->ply);
    if (s->phase != DL_PHASE_PLAY && s->phase != DL_PHASE_CLAIM)
        dl_text_add(&t, "; phase=%s", PHASES[s->phase]);
    dl_text_add(&t, "; hands=");
    add_list(&t, s->hand, n);
    dl_text_add(&t, "; table=");
    char b[200];
    dl_set_str(s->loose, b, sizeof b, false);
    dl_text_add(&t, "%s", b);
    for (int seat = 0; seat < n; seat++) {
        int i = dl_owned_decl(s, seat);
        if (i < 0) continue;
        dl_decl_str(s, i, b, sizeof b, false);
        dl_text_add(&t, "%s%s", (s->loose || t.buf[t.n - 1] != '=') ? " " : "", b);
    }
    if (!s->loose && !s->ndecl) dl_text_add(&t, "-");
    dl_text_add(&t, "; piles=");
    add_list(&t, s->pile, sides);
    int x[DL_MAX_PLAYERS], sc[DL_MAX_PLAYERS], won[DL_MAX_PLAYERS];
    for (int i = 0; i < sides; i++) x[i] = s->xeri[i], sc[i] = s->score[i], won[i] = s->rounds_won[i];
    add_ints(&t, "xeri", x, sides);
    add_ints(&t, "score", sc, sides);
    add_ints(&t, "won", won, sides);
    if (s->winner >= 0) dl_text_add(&t, "; winner=%d", s->winner);
    if (s->last_capturer >= 0)
        dl_text_add(&t, "; last=%d", s->last_capturer);
    else
        dl_text_add(&t, "; last=-");
    if (s->phase == DL_PHASE_CLAIM) {
        dl_text_add(&t, "; claim=");
        for (int i = 0, k = 0; i < n; i++)
            if (s->claim_pending & (1u << i)) dl_text_add(&t, "%s%d", k++ ? " " : "", i);
    }
    dl_text_add(&t, "; pack=");
    if (hide_pack && s->pack_pos < s->pack_len)
        dl_text_add(&t, "?%d", s->pack_len - s->pack_pos);
    else if (s->pack_pos == s->pack_len)
        dl_text_add(&t, "-");
    for (int i = s->pack_pos; i < s->pack_len && !hide_pack; i++) {
        char cs[8];
        dl_card_str(s->pack[i], cs, false);
        dl_text_add(&t, "%s%s", i > s->pack_pos ? " " : "", cs);
    }
    return (int)t.n;
}

/* ---- parsing ---- */

typedef struct {
    const char *text;
    char *err;
    size_t cap;
    dl_State *s;
    dl_Set used;
    int unknown[2 * DL_MAX_PLAYERS]; /* ?N per hand, then per pile */
    int pack_unknown;                /* -1: the rest; else ?N */
    bool pack_given;
    uint8_t pack[DL_NCARDS];
    int npack;
} Parse;

static const char *failp(Parse *p, const char *at, const char *fmt, ...)
{
    int n = snprintf(p->err, p->cap, "position, at %d: ", (int)(at - p->text) + 1);
    if (n < 0) n = 0;
    if ((size_t)n < p->cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->err + n, p->cap - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return p->err;
}

/* For problems of the position as a whole, which have no one place. */
static const char *failw(Parse *p, const char *fmt, ...)
{
    int n = snprintf(p->err, p->cap, "position: ");
    if (n < 0) n = 0;
    if ((size_t)n < p->cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->err + n, p->cap - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return p->err;
}

static const char *skipws(const char *q, const char *end)
{
    while (q < end && isspace((unsigned char)*q)) q++;
    return q;
}

static const char *take_card(Parse *p, const char **q, const char *end, int *card)
{
    int len;
    *card = dl_card_parse(*q, &len);
    if (*card < 0 || *q + len > end)
        return failp(p, *q, "'%.*s' is not a card (like 7h, 10d, Kc or 7\u2665)",
                     (int)strcspn(*q, " ;/+,()"), *q);
    char cs[8];
    dl_card_str(*card, cs, false);
    if (p->used & DL_BIT(*card)) return failp(p, *q, "%s is placed twice", cs);
    p->used |= DL_BIT(*card);
    *q += len;
    return NULL;
}

static const char *parse_int(Parse *p, const char **q, const char *end, int lo, int hi, int *v)
{
    const char *start = *q;
    bool neg = **q == '-';
    if (neg) (*q)++;
    if (*q >= end || !isdigit((unsigned char)**q))
        return failp(p, start, "expected a number");
    long x = 0;
    while (*q < end && isdigit((unsigned char)**q) && x < 100000000000L) x = x * 10 + (*(*q)++ - '0');
    if (neg) x = -x;
    if (x < lo || x > hi) return failp(p, start, "%ld is out of range %d..%d", x, lo, hi);
    *v = (int)x;
    return NULL;
}

/* A list of cards and ?N tokens up to end or '/'. */
static const char *parse_cards(Parse *p, const char **q, const char *end, dl_Set *set, int *unk)
{
    *q = skipws(*q, end);
    if (*q < end && **q == '-' && (skipws(*q + 1, end) == end || *skipws(*q + 1, end) == '/')) {
        *q = skipws(*q + 1, end);
        return NULL;
    }
    while (*q < end && **q != '/') {
        if (**q == '?') {
            int k;
            (*q)++;
            const char *e = parse_int(p, q, end, 0, DL_NCARDS, &k);
            if (e) return e;
            if (!unk) return failp(p, *q, "'?N' is not allowed here");
            *unk += k;
        } else {
            int card;
            const char *e = take_card(p, q, end, &card);
            if (e) return e;
            *set |= DL_BIT(card);
        }
        *q = skipws(*q, end);
    }
    return NULL;
}

static const char *parse_lists(Parse *p, const char *q, const char *end, dl_Set *sets, int n,
                               int *unk, const char *what)
{
    for (int i = 0; i < n; i++) {
        const char *e = parse_cards(p, &q, end, &sets[i], unk ? &unk[i] : NULL);
        if (e) return e;
        if (i + 1 < n) {
            if (q >= end || *q != '/')
                return failp(p, q, "%s needs %d lists separated by '/'", what, n);
            q++;
        }
    }
    q = skipws(q, end);
    if (q < end) return failp(p, q, "%s has more than %d lists", what, n);
    return NULL;
}

static const char *parse_decl(Parse *p, const char **q, const char *end)
{
    dl_State *s = p->s;
    const char *start = *q;
    int kind = (**q == 'G' || **q == 'g') ? DL_DECL_GROUP : DL_DECL_PLAIN, value, owner;
    (*q)++;
    const char *e = parse_int(p, q, end, 1, 10, &value);
    if (e) return e;
    if (*q >= end || **q != '@') return failp(p, *q, "expected '@owner' after the value");
    (*q)++;
    if ((e = parse_int(p, q, end, 0, s->rules.players - 1, &owner))) return e;
    if (dl_owned_decl(s, owner) >= 0)
        return failp(p, start, "D19: seat %d owns two declarations", owner);
    if (s->ndecl >= DL_MAX_DECLS) return failp(p, start, "too many declarations");
    if (*q >= end || **q != '(') return failp(p, *q, "expected '(' and the declared cards");
    (*q)++;
    dl_Decl d = {0, (uint8_t)value, (uint8_t)kind, (uint8_t)owner, 1};
    int sum = 0;
    for (;;) {
        *q = skipws(*q, end);
        if (*q >= end) return failp(p, start, "unclosed '('");
        if (**q == ')') break;
        if (**q == '+') { (*q)++; continue; }
        if (**q == ',') {
            if (kind != DL_DECL_GROUP) return failp(p, *q, "only a group has components (',')");
            if (sum != value)
                return failp(p, *q, "D17: a component sums to %d, not %d", sum, value);
            d.ncomp++;
            sum = 0;
            (*q)++;
            continue;
        }
        int card;
        const char *at = *q;
        if ((e = take_card(p, q, end, &card))) return e;
        if (dl_is_face(card)) return failp(p, at, "D2: face cards are never declared");
        d.cards |= DL_BIT(card);
        s->comp[card] = (uint8_t)(d.ncomp - 1);
        sum += dl_value(card);
    }
    (*q)++;
    if (sum != value)
        return failp(p, start, kind == DL_DECL_GROUP ? "D17: a component sums to %d, not %d"
                                                     : "D15: the cards sum to %d, not %d", sum, value);
    if (kind == DL_DECL_GROUP && d.ncomp < 2)
        return failp(p, start, "D17: a group needs at least two components (',')");
    if (kind == DL_DECL_PLAIN && dl_count(d.cards) < 2)
        return failp(p, start, "D15: a plain declaration holds at least two cards");
    s->decl[s->ndecl++] = d;
    return NULL;
}

static const char *parse_table(Parse *p, const char *q, const char *end)
{
    q = skipws(q, end);
    if (q < end && *q == '-' && skipws(q + 1, end) == end) return NULL;
    while (q < end) {
        if (*q == 'P' || *q == 'p' || *q == 'G' || *q == 'g') {
            const char *e = parse_decl(p, &q, end);
            if (e) return e;
        } else {
            int card;
            const char *e = take_card(p, &q, end, &card);
            if (e) return e;
            p->s->loose |= DL_BIT(card);
        }
        q = skipws(q, end);
    }
    return NULL;
}

static const char *parse_small_ints(Parse *p, const char *q, const char *end, int n, int lo,
                                    int hi, int *out, const char *what)
{
    for (int i = 0; i < n; i++) {
        q = skipws(q, end);
        if (q < end && *q == '/') q = skipws(q + 1, end);
        const char *e = parse_int(p, &q, end, lo, hi, &out[i]);
        if (e) return e;
    }
    q = skipws(q, end);
    if (q < end) return failp(p, q, "%s takes %d numbers", what, n);
    return NULL;
}

static const char *parse_pack(Parse *p, const char *q, const char *end)
{
    q = skipws(q, end);
    p->pack_given = true;
    if (q < end && *q == '?') {
        q++;
        q = skipws(q, end);
        if (q == end) return NULL; /* all the rest */
        int k = 0; /* parse_int sets it unless it fails */
        const char *e = parse_int(p, &q, end, 0, DL_NCARDS, &k);
        if (e) return e;
        p->pack_unknown = k;
        if (skipws(q, end) < end) return failp(p, q, "pack=?N takes nothing more");
        return NULL;
    }
    p->pack_unknown = 0;
    if (q < end && *q == '-' && skipws(q + 1, end) == end) return NULL;
    while (q < end) {
        int card;
        const char *e = take_card(p, &q, end, &card);
        if (e) return e;
        p->pack[p->npack++] = (uint8_t)card;
        q = skipws(q, end);
    }
    return NULL;
}

static const char *parse_field(Parse *p, const char *key, size_t klen, const char *q,
                               const char *end, unsigned *seen)
{
    static const char *const KEYS[] = {"dealer", "turn", "round", "deal", "ply", "phase",
                                       "hands", "table", "piles", "xeri", "score", "won",
                                       "last", "claim", "pack", "winner"};
    dl_State *s = p->s;
    const int n = s->rules.players, sides = dl_nsides(&s->rules);
    int k = -1, v, arr[DL_MAX_PLAYERS];
    for (int i = 0; i < (int)(sizeof KEYS / sizeof *KEYS); i++)
        if (strlen(KEYS[i]) == klen && strncmp(KEYS[i], key, klen) == 0) k = i;
    if (k < 0) return failp(p, key, "unknown field '%.*s'", (int)klen, key);
    if (*seen & (1u << k)) return failp(p, key, "field '%s' given twice", KEYS[k]);
    *seen |= 1u << k;
    const char *e = NULL;
    switch (k) {
    case 0: case 1: case 2: case 3: case 4: case 15:
        q = skipws(q, end);
        break;
    default: break;
    }
    switch (k) {
    case 0: case 1:
        if (!(e = parse_int(p, &q, end, 0, n - 1, &v))) {
            if (k == 0) s->dealer = (uint8_t)v; else s->turn = (uint8_t)v;
        }
        break;
    case 2: if (!(e = parse_int(p, &q, end, 1, DL_ROUND_MAX, &v))) s->round = (int32_t)v; break;
    case 3: if (!(e = parse_int(p, &q, end, 1, 13, &v))) s->deal = (uint8_t)v; break;
    case 4: if (!(e = parse_int(p, &q, end, 0, 52, &v))) s->ply = (uint8_t)v; break;
    case 5: {
        q = skipws(q, end);
        size_t len = (size_t)(end - q);
        while (len && isspace((unsigned char)q[len - 1])) len--;
        for (v = 0; v < 4; v++)
            if (strlen(PHASES[v]) == len && strncmp(PHASES[v], q, len) == 0) break;
        if (v == 4) return failp(p, q, "phase is play, claim, round-over or match-over");
        s->phase = (uint8_t)v;
        return NULL;
    }
    case 6: return parse_lists(p, q, end, s->hand, n, p->unknown, "hands");
    case 7: return parse_table(p, q, end);
    case 8: return parse_lists(p, q, end, s->pile, sides, p->unknown + DL_MAX_PLAYERS, "piles");
    case 9: case 10: case 11:
        e = parse_small_ints(p, q, end, sides, k == 10 ? -DL_SCORE_MAX : 0,
                             k == 9 ? 9999 : k == 10 ? DL_SCORE_MAX : DL_ROUND_MAX, arr, KEYS[k]);
        for (int i = 0; !e && i < sides; i++) {
            if (k == 9) s->xeri[i] = (uint8_t)(arr[i] > 255 ? 255 : arr[i]);
            else if (k == 10) s->score[i] = arr[i];
            else s->rounds_won[i] = arr[i];
        }
        return e;
    case 12:
        q = skipws(q, end);
        if (q < end && *q == '-') { s->last_capturer = -1; q++; break; }
        if (!(e = parse_int(p, &q, end, 0, n - 1, &v))) s->last_capturer = (int8_t)v;
        break;
    case 13:
        for (q = skipws(q, end); q < end && !e; q = skipws(q, end)) {
            if (*q == '-') { q++; continue; }
            if (!(e = parse_int(p, &q, end, 0, n - 1, &v))) s->claim_pending |= (uint8_t)(1u << v);
        }
        if (!e && s->claim_pending) s->phase = DL_PHASE_CLAIM;
        return e;
    case 15:
        if (!(e = parse_int(p, &q, end, 0, sides - 1, &v))) s->winner = (int8_t)v;
        break;
    default: return parse_pack(p, q, end);
    }
    if (e) return e;
    q = skipws(q, end);
    if (q < end) return failp(p, q, "unexpected '%.*s'", (int)(end - q), q);
    return NULL;
}

/* Places the ?N cards and the unspecified pack, in a seeded order. */
static const char *fill_unknown(Parse *p, uint64_t seed)
{
    dl_State *s = p->s;
    const int n = s->rules.players, sides = dl_nsides(&s->rules);
    uint8_t free_cards[DL_NCARDS];
    int nfree = 0, k = 0;
    for (int c = 0; c < DL_NCARDS; c++)
        if (!(p->used & DL_BIT(c))) free_cards[nfree++] = (uint8_t)c;
    dl_rng_seed(&s->rng, seed);
    for (int i = nfree - 1; i > 0; i--) {
        int j = (int)dl_rng_below(&s->rng, (uint32_t)(i + 1));
        uint8_t t = free_cards[i];
        free_cards[i] = free_cards[j];
        free_cards[j] = t;
    }
    int want = 0;
    for (int i = 0; i < 2 * DL_MAX_PLAYERS; i++) want += p->unknown[i];
    if (p->pack_unknown > 0) want += p->pack_unknown;
    if (want > nfree)
        return failw(p, "the '?' cards ask for %d unplaced cards, only %d are left",
                     want, nfree);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < p->unknown[i]; j++) s->hand[i] |= DL_BIT(free_cards[k++]);
    for (int i = 0; i < sides; i++)
        for (int j = 0; j < p->unknown[DL_MAX_PLAYERS + i]; j++)
            s->pile[i] |= DL_BIT(free_cards[k++]);
    for (int i = 0; i < p->npack; i++) s->pack[i] = p->pack[i];
    int np = p->npack;
    int extra = p->pack_unknown < 0 ? nfree - k : p->pack_unknown;
    if (p->pack_unknown < 0) extra -= extra % n; /* the rest deals evenly */
    for (int j = 0; j < extra; j++) s->pack[np++] = free_cards[k++];
    /* Cards that would make the last deal uneven count as captured. */
    for (int side = 0; k < nfree; side = (side + 1) % sides) s->pile[side] |= DL_BIT(free_cards[k++]);
    s->pack_pos = 0;
    s->pack_len = (uint8_t)np;
    if (np % n)
        return failw(p, "the pack holds %d cards, which cannot be dealt evenly to %d "
                     "players", np, n);
    return NULL;
}

const char *dl_position_parse(dl_State *out, const dl_Rules *r, const char *text, uint64_t seed,
                              char *err, size_t cap)
{
    dl_State tmp;
    dl_State *s = &tmp;
    Parse p;
    memset(&p, 0, sizeof p);
    p.text = text;
    p.err = err;
    p.cap = cap;
    p.s = s;
    p.pack_unknown = -1;
    const char *e = dl_rules_check(r);
    if (e) {
        snprintf(err, cap, "rules: %s", e);
        return err;
    }
    dl_state_blank(s, r);
    s->dealer = (uint8_t)(r->players - 1);
    s->ply = 1;
    s->peeked = r->dealer_peeks;
    unsigned seen = 0;
    bool turn_given = false;
    for (const char *q = text; *q;) {
        const char *end = strchr(q, ';');
        if (!end) end = q + strlen(q);
        const char *k = skipws(q, end), *eq = memchr(k, '=', (size_t)(end - k));
        if (k < end) {
            if (!eq) return failp(&p, k, "expected 'field=value'");
            size_t klen = (size_t)(eq - k);
            while (klen && isspace((unsigned char)k[klen - 1])) klen--;
            if ((e = parse_field(&p, k, klen, eq + 1, end, &seen))) return e;
            turn_given |= klen == 4 && strncmp(k, "turn", 4) == 0;
        }
        q = *end ? end + 1 : end;
    }
    if (!(seen & (1u << 6))) return failw(&p, "a position needs 'hands='");
    if (!turn_given) s->turn = (uint8_t)dl_first_player(s);
    if ((e = fill_unknown(&p, seed))) return e;
    for (int seat = 0; seat < r->players && s->claim_pending; seat++) {
        int faces = dl_count(s->hand[seat] & DL_FACES);
        if (!(s->claim_pending & (1u << seat))) continue;
        if (!r->face_card_claim)
            return failw(&p, "claim=: these rules have no face-card claims (V-face-card-claim)");
        if (faces < r->claim_faces)
            return failw(&p, "claim=: seat %d holds %d face cards, fewer than the %d a claim "
                         "needs (V-face-card-claim)", seat, faces, r->claim_faces);
    }
    if (s->phase == DL_PHASE_CLAIM && !turn_given) {
        /* The first claimant in play order decides first. */
        for (int k = 0; k < r->players; k++) {
            int seat = (dl_first_player(s) + k) % r->players;
            if (s->claim_pending & (1u << seat)) {
                s->turn = (uint8_t)seat;
                break;
            }
        }
    }
    if (s->phase == DL_PHASE_CLAIM && !(s->claim_pending & (1u << s->turn)))
        return failw(&p, "the turn must be on a seat in 'claim='");
    if ((e = dl_check_state(s))) {
        snprintf(err, cap, "position: %s", e);
        return err;
    }
    *out = *s;
    return NULL;
}
