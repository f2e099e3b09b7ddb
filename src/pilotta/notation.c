#include "pilotta/notation.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "pilotta/play.h"
#include "text.h"

static const char *const USUITS[4] = {"\u2663", "\u2666", "\u2665", "\u2660"};

static void add_suit(dl_Text *t, int suit, bool unicode)
{
    if (unicode) {
        dl_text_str(t, USUITS[suit]);
    } else {
        const char c = pl_suit_char(suit);
        dl_text_put(t, &c, 1);
    }
}

static void add_cards(dl_Text *t, pl_Set cards, bool unicode)
{
    char buf[160];
    pl_set_str(cards, buf, sizeof buf, unicode);
    dl_text_put(t, " ", 1);
    dl_text_str(t, buf);
}

int pl_call_str(const pl_Action *a, char *buf, size_t cap, bool unicode)
{
    dl_Text t = dl_text(buf, cap);
    switch (a->kind) {
    case PL_PASS: dl_text_str(&t, "pass"); break;
    case PL_CONTRA: dl_text_str(&t, "contra"); break;
    case PL_RECONTRA: dl_text_str(&t, "recontra"); break;
    case PL_TRUMP:
        dl_text_str(&t, "trump ");
        add_suit(&t, a->suit & 3, unicode);
        break;
    default:
        if (a->value == PL_CAPOT) dl_text_str(&t, a->suit >= 0 ? "capot " : "capot");
        else dl_text_int(&t, (long)a->value * 10);
        if (a->suit >= 0) add_suit(&t, a->suit & 3, unicode);
    }
    return (int)t.n;
}

static pl_Set own_announced(const pl_State *s)
{
    pl_Set cards = 0;
    for (int i = 0; i < s->ndecl; i++)
        if (s->decl[i].seat == s->turn) cards |= s->decl[i].cards;
    return cards;
}

int pl_action_text(const pl_Action *a, pl_Set shown, bool pending, char *buf, size_t cap, bool unicode)
{
    dl_Text t = dl_text(buf, cap);
    char c[8];
    switch (a->kind) {
    case PL_ANNOUNCE:
        dl_text_str(&t, "announce");
        add_cards(&t, a->cards, unicode);
        break;
    case PL_SHOW:
        dl_text_str(&t, "show");
        if (shown) add_cards(&t, shown, unicode);
        break;
    case PL_PLAY:
        pl_card_str(a->card & 31, c, unicode);
        dl_text_str(&t, c);
        if (pending) dl_text_str(&t, a->belote ? " belote" : " nobelote");
        break;
    default: return pl_call_str(a, buf, cap, unicode);
    }
    return (int)t.n;
}

pl_Set pl_action_shown(const pl_State *s, const pl_Action *a)
{
    return a->kind == PL_SHOW ? own_announced(s) : 0;
}

bool pl_action_pending(const pl_State *s, const pl_Action *a)
{
    return a->kind == PL_PLAY && pl_belote_pending(s, a->card & 31);
}

int pl_action_str(const pl_State *s, const pl_Action *a, char *buf, size_t cap, bool unicode)
{
    return pl_action_text(a, pl_action_shown(s, a), pl_action_pending(s, a), buf, cap, unicode);
}

/* ---- parsing ---- */

typedef struct {
    const char *p;
    char *err;
    size_t cap;
} Parser;

static const char *fail(Parser *ps, const char *fmt, const char *what)
{
    snprintf(ps->err, ps->cap, fmt, what);
    return ps->err;
}

static void skip(Parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == ',') ps->p++;
}

/* Matches a whole word (case-insensitive) and moves past it. */
static bool word(Parser *ps, const char *w)
{
    size_t n = strlen(w);
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)ps->p[i]) != w[i]) return false;
    if (isalnum((unsigned char)ps->p[n])) return false;
    ps->p += n;
    skip(ps);
    return true;
}

static const char *parse_cards(Parser *ps, pl_Set *out)
{
    *out = 0;
    while (*ps->p) {
        int len, c = pl_card_parse(ps->p, &len);
        if (c < 0) return fail(ps, "not a card at '%.12s' (cards are 7 8 9 10 J Q K A with c d h s)", ps->p);
        if (*out & PL_BIT(c)) return fail(ps, "a card named twice at '%.12s'", ps->p);
        *out |= PL_BIT(c);
        ps->p += len;
        if (*ps->p && *ps->p != ' ' && *ps->p != ',' && *ps->p != '\t')
            return fail(ps, "expected a space after the card at '%.12s'", ps->p);
        skip(ps);
    }
    return NULL;
}

/* Words players bring from Belote's no-trump and all-trump contracts. */
static bool no_trump_word(const char *p)
{
    static const char *const words[] = {"no-trumps", "no-trump", "no trumps", "no trump", "notrumps",
                                        "notrump", "nt", "sa", "sans", "all-trumps", "all-trump",
                                        "all trumps", "all trump", "all", "at", "ta", "tout"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        size_t n = strlen(words[i]), k = 0;
        while (k < n && tolower((unsigned char)p[k]) == words[i][k]) k++;
        if (k == n && !isalnum((unsigned char)p[n])) return true;
    }
    return false;
}

static const char *parse_suit_word(Parser *ps, int8_t *suit, bool required)
{
    int len;
    if (no_trump_word(ps->p))
        return fail(ps, "P7: every contract has a trump suit (no no-trump or all-trump bids): name c, d, h or s, "
                        "not '%.12s'", ps->p);
    if (!*ps->p) {
        if (required) return fail(ps, "%s: a suit is missing (c, d, h or s)", "P12");
        *suit = -1;
        return NULL;
    }
    int su = pl_suit_parse(ps->p, &len);
    if (su < 0 || isalnum((unsigned char)ps->p[len])) return fail(ps, "not a suit at '%.12s' (c, d, h or s)", ps->p);
    *suit = (int8_t)su;
    ps->p += len;
    skip(ps);
    return NULL;
}

/* "90h", "9h" (PC7), "90", "capot s". */
static const char *parse_bid(Parser *ps, const pl_State *s, pl_Action *a)
{
    a->kind = PL_BID;
    if (word(ps, "capot")) {
        a->value = PL_CAPOT;
        return parse_suit_word(ps, &a->suit, !s->rules.suit_after_auction);
    }
    long v = 0;
    int digits = 0;
    while (isdigit((unsigned char)*ps->p) && digits < 6) v = v * 10 + (*ps->p++ - '0'), digits++;
    if (!digits) return fail(ps, "not a call at '%.12s' (pass, 90h, capot s, contra, recontra)", ps->p);
    if (v >= 8 && v <= 24) v *= 10; /* PC7: tens */
    skip(ps); /* "90 h" as well as "90h" */
    if (v % 10 || v < 80 || v > 240)
        return fail(ps, "P14: bids go in tens from 80 (80, 90, ... 160, or capot): not '%.12s'", ps->p - digits);
    a->value = (uint8_t)(v / 10);
    return parse_suit_word(ps, &a->suit, !s->rules.suit_after_auction);
}

static const char *parse_play(Parser *ps, const pl_State *s, pl_Action *a)
{
    int len, c = pl_card_parse(ps->p, &len);
    if (c < 0) return fail(ps, "not an action at '%.12s' (a card, announce, show)", ps->p);
    ps->p += len;
    if (*ps->p && *ps->p != ' ' && *ps->p != '\t') return fail(ps, "unexpected text after the card: '%.12s'", ps->p);
    skip(ps);
    a->kind = PL_PLAY;
    a->card = (uint8_t)c;
    a->belote = 1; /* P39: on by default */
    if (word(ps, "belote")) a->belote = 1;
    else if (word(ps, "nobelote") || (word(ps, "no") && word(ps, "belote"))) a->belote = 0;
    if (!pl_belote_pending(s, c)) a->belote = 0;
    return NULL;
}

const char *pl_action_parse(const pl_State *s, const char *text, pl_Action *a, char *err, size_t cap)
{
    Parser ps = {text, err, cap};
    pl_Action x = {0, PL_PASS, 0, -1, 0, 0};
    const char *bad = NULL;
    skip(&ps);
    const bool play = s->phase >= PL_PHASE_PLAY;
    if (word(&ps, "pass")) x.kind = PL_PASS;
    else if (word(&ps, "contra")) x.kind = PL_CONTRA;
    else if (word(&ps, "recontra")) x.kind = PL_RECONTRA;
    else if (word(&ps, "trump") || word(&ps, "trumps")) {
        x.kind = PL_TRUMP;
        bad = parse_suit_word(&ps, &x.suit, true);
    } else if (word(&ps, "announce")) {
        x.kind = PL_ANNOUNCE;
        bad = parse_cards(&ps, &x.cards);
        if (!bad && !x.cards) bad = fail(&ps, "%s: announce names the declaration's cards", "P35");
    } else if (word(&ps, "show")) {
        x.kind = PL_SHOW;
        pl_Set cards;
        bad = parse_cards(&ps, &cards);
        if (!bad && cards && cards != own_announced(s))
            bad = fail(&ps, "%s: show names exactly the cards you announced (or none)", "P38");
    } else if (play) bad = parse_play(&ps, s, &x);
    else bad = parse_bid(&ps, s, &x);
    if (!bad && *ps.p) bad = fail(&ps, "unexpected text at '%.12s'", ps.p);
    if (bad) return bad;
    *a = x;
    return NULL;
}
