#include "notation.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

int dl_decl_str(const dl_State *s, int slot, char *buf, size_t cap, bool unicode)
{
    const dl_Decl *d = &s->decl[slot];
    dl_Text t = dl_text(buf, cap);
    dl_text_add(&t, "%c%d@%d(", d->kind == DL_DECL_GROUP ? 'G' : 'P', d->value, d->owner);
    for (int c = 0; c < d->ncomp; c++) {
        if (c) dl_text_add(&t, ",");
        bool first = true;
        for (dl_Set x = d->cards; x; x &= x - 1) {
            int card = dl_first(x);
            if (d->kind == DL_DECL_GROUP && s->comp[card] != c) continue;
            char cs[8];
            dl_card_str(card, cs, unicode);
            dl_text_add(&t, "%s%s", first ? "" : "+", cs);
            first = false;
        }
    }
    dl_text_add(&t, ")");
    return (int)t.n;
}

static void add_ref(dl_Text *t, const dl_Decl *d)
{
    dl_text_add(t, " %c%d@%d", d->kind == DL_DECL_GROUP ? 'G' : 'P', d->value, d->owner);
}

/* Items: loose cards lowest first, then declarations in owner order. */
static void add_items(dl_Text *t, const dl_State *s, uint64_t take, bool unicode)
{
    for (dl_Set l = take & DL_DECK; l; l &= l - 1) {
        char cs[8];
        dl_card_str(dl_first(l), cs, unicode);
        dl_text_add(t, " %s", cs);
    }
    for (int seat = 0; seat < DL_MAX_PLAYERS; seat++)
        for (int i = 0; i < s->ndecl; i++)
            if ((take & DL_DECL_BIT(i)) && s->decl[i].owner == seat) add_ref(t, &s->decl[i]);
}

int dl_move_str(const dl_State *s, const dl_Move *m, char *buf, size_t cap, bool unicode)
{
    dl_Text t = dl_text(buf, cap);
    if (m->kind == DL_CLAIM || m->kind == DL_KEEP) {
        dl_text_add(&t, m->kind == DL_CLAIM ? "claim" : "keep");
        return (int)t.n;
    }
    char cs[8];
    dl_card_str(m->card, cs, unicode);
    dl_text_add(&t, "%s", cs);
    switch (m->kind) {
    case DL_LAY: dl_text_add(&t, " lay"); break;
    case DL_CAPTURE:
        dl_text_add(&t, " x");
        add_items(&t, s, m->take, unicode);
        break;
    default:
        dl_text_add(&t, " +");
        add_items(&t, s, m->take, unicode);
        dl_text_add(&t, " = %s%d", m->kind == DL_GROUP ? "G" : "", m->value);
        break;
    }
    return (int)t.n;
}

/* ---- parsing ---- */

static const char *fail(char *err, size_t cap, const char *text, const char *at,
                        const char *fmt, ...)
{
    int n = snprintf(err, cap, "at %d: ", (int)(at - text) + 1);
    if (n < 0) n = 0;
    if ((size_t)n < cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + n, cap - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return err;
}

/* Bytes of the first few characters of p, never splitting a UTF-8
 * sequence, for quoting input in messages. */
static int excerpt(const char *p)
{
    int n = 0, chars = 0;
    while (p[n] && chars < 8) {
        n++;
        while ((p[n] & 0xC0) == 0x80) n++;
        chars++;
    }
    return n;
}

static const char *skip(const char *p)
{
    while (isspace((unsigned char)*p)) p++;
    return p;
}

/* A declaration reference: [P|G][value]@seat. Returns its slot or -1. */
static const char *parse_ref(const dl_State *s, const char *text, const char **pp,
                             int *slot, char *err, size_t cap)
{
    const char *p = *pp, *start = p;
    int kind = -1, value = 0, seat;
    if (*p == 'P' || *p == 'p') kind = DL_DECL_PLAIN, p++;
    else if (*p == 'G' || *p == 'g') kind = DL_DECL_GROUP, p++;
    bool has_value = isdigit((unsigned char)*p);
    while (isdigit((unsigned char)*p) && value < 100) value = value * 10 + (*p++ - '0');
    if (has_value && (value < 1 || value > 10))
        return fail(err, cap, text, start, "a declaration's value is 1 to 10");
    if (*p != '@' || !isdigit((unsigned char)p[1]))
        return fail(err, cap, text, start, "expected a declaration like P6@1 or @1");
    seat = p[1] - '0';
    p += 2;
    *slot = dl_owned_decl(s, seat);
    if (*slot < 0)
        return fail(err, cap, text, start, "seat %d owns no declaration on the table", seat);
    const dl_Decl *d = &s->decl[*slot];
    if ((kind >= 0 && kind != d->kind) || (value && value != d->value))
        return fail(err, cap, text, start, "seat %d's declaration is %c%d, not %.*s", seat,
                    d->kind == DL_DECL_GROUP ? 'G' : 'P', d->value, (int)(p - start), start);
    *pp = p;
    return NULL;
}

/* Table items up to '=' or the end. */
static const char *parse_items(const dl_State *s, const char *text, const char **pp,
                               uint64_t *take, char *err, size_t cap)
{
    const char *p = skip(*pp);
    while (*p && *p != '=') {
        const char *start = p;
        int len, card = dl_card_parse(p, &len);
        uint64_t bit;
        if (card >= 0 && (p[len] == '\0' || isspace((unsigned char)p[len]) ||
                          p[len] == '=' || p[len] == '+' || p[len] == ',')) {
            char cs[8];
            dl_card_str(card, cs, false);
            if (!(s->loose & DL_BIT(card)))
                return fail(err, cap, text, p, "%s is not a loose card on the table", cs);
            bit = DL_BIT(card);
            p += len;
        } else if (*p == 'P' || *p == 'p' || *p == 'G' || *p == 'g' || *p == '@') {
            int slot = 0;
            const char *e = parse_ref(s, text, &p, &slot, err, cap);
            if (e) return e;
            bit = DL_DECL_BIT(slot);
        } else {
            return fail(err, cap, text, p, "expected a card (7h, 10d, K\u2663) or a declaration "
                        "(P6@1), found '%.*s'", excerpt(p), p);
        }
        if (*take & bit) return fail(err, cap, text, start, "an item is named twice");
        *take |= bit;
        p = skip(p);
        while (*p == '+' || *p == ',') p = skip(p + 1);
    }
    *pp = p;
    return NULL;
}

static const char *parse_value(const char *text, const char **pp, dl_Move *m,
                               char *err, size_t cap)
{
    const char *p = skip(*pp + 1), *start = p;
    bool group = false;
    if (*p == 'G' || *p == 'g') group = true, p++;
    int v = 0;
    if (!isdigit((unsigned char)*p))
        return fail(err, cap, text, start, "expected the declared value after '=', like 8 or G8");
    const char *digits = p;
    /* Past 10 the value is wrong anyway: stop adding before int overflows. */
    for (; isdigit((unsigned char)*p); p++)
        if (v <= 10) v = v * 10 + (*p - '0');
    if (v < 1 || v > 10)
        return fail(err, cap, text, start, "D15: a declared value is 1 to 10, not %.*s",
                    (int)(p - digits), digits);
    p = skip(p);
    if (*p) return fail(err, cap, text, p, "unexpected '%.*s' after the value", excerpt(p), p);
    m->value = (uint8_t)v;
    if (group)
        m->kind = DL_GROUP;
    else
        m->kind = (m->take & DL_DECL_ITEMS) ? DL_RAISE : DL_PLAIN;
    *pp = p;
    return NULL;
}

static bool word(const char *p, const char *w)
{
    size_t n = strlen(w);
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)p[i]) != w[i]) return false;
    return p[n] == '\0' || isspace((unsigned char)p[n]);
}

const char *dl_move_parse(const dl_State *s, const char *text, dl_Move *m, char *err,
                          size_t cap)
{
    const char *p = skip(text);
    memset(m, 0, sizeof *m);
    if (word(p, "claim") || word(p, "keep")) {
        m->kind = word(p, "claim") ? DL_CLAIM : DL_KEEP;
        p = skip(p + (m->kind == DL_CLAIM ? 5 : 4));
        if (*p) return fail(err, cap, text, p, "nothing may follow '%s'",
                            m->kind == DL_CLAIM ? "claim" : "keep");
        return NULL;
    }
    int len, card = dl_card_parse(p, &len);
    if (card < 0)
        return fail(err, cap, text, p, *p ? "expected the card you play, like 7h, 10d or K\u2663"
                                           : "empty move");
    m->card = (uint8_t)card;
    p = skip(p + len);
    if (word(p, "lay") || (*p == '-' && *skip(p + 1) == '\0')) {
        m->kind = DL_LAY;
        p = skip(p + (*p == '-' ? 1 : 3));
        if (*p) return fail(err, cap, text, p, "nothing may follow 'lay'");
        return NULL;
    }
    if (*p == 'x' || *p == 'X') {
        m->kind = DL_CAPTURE;
        p++;
        const char *e = parse_items(s, text, &p, &m->take, err, cap);
        if (e) return e;
        if (*p == '=') return fail(err, cap, text, p, "a capture declares no value");
        if (!m->take) return fail(err, cap, text, p, "D11: name what the capture takes");
        return NULL;
    }
    if (*p == '+') {
        p++;
        const char *e = parse_items(s, text, &p, &m->take, err, cap);
        if (e) return e;
        if (*p != '=') return fail(err, cap, text, p, "a declaration ends with '= value'");
        return parse_value(text, &p, m, err, cap);
    }
    if (!*p)
        return fail(err, cap, text, p, "say what the card does: 'lay', 'x' (capture) or "
                    "'+ ... = value' (declare)");
    return fail(err, cap, text, p, "expected 'lay', 'x' or '+', found '%.*s'",
                excerpt(p), p);
}
