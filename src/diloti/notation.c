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
    dl_text_str(t, d->kind == DL_DECL_GROUP ? " G" : " P");
    dl_text_int(t, d->value);
    dl_text_put(t, "@", 1);
    dl_text_int(t, d->owner);
}

/* A card's name at buf (dl_card_str's), its length returned; the ASCII
 * one inline: a list of moves names thousands of cards. */
static int card_name(int card, char *buf, bool unicode)
{
    return unicode ? dl_card_str(card, buf, true) : dl_card_ascii(card, buf);
}

/* Items: loose cards lowest first, then declarations in owner order. */
static void add_items(dl_Text *t, const dl_State *s, uint64_t take, bool unicode)
{
    char cs[DL_NCARDS * 8 + 1]; /* (a space and at most 6 bytes a card, and the end) */
    size_t n = 0;
    for (dl_Set l = take & DL_DECK; l; l &= l - 1) {
        cs[n++] = ' ';
        n += (size_t)card_name(dl_first(l), cs + n, unicode);
    }
    dl_text_put(t, cs, n);
    if (!(take & DL_DECL_ITEMS)) return;
    for (int seat = 0; seat < DL_MAX_PLAYERS; seat++)
        for (int i = 0; i < s->ndecl; i++)
            if ((take & DL_DECL_BIT(i)) && s->decl[i].owner == seat) add_ref(t, &s->decl[i]);
}

int dl_move_str(const dl_State *s, const dl_Move *m, char *buf, size_t cap, bool unicode)
{
    dl_Text t = dl_text(buf, cap);
    if (m->kind == DL_CLAIM || m->kind == DL_KEEP) {
        dl_text_str(&t, m->kind == DL_CLAIM ? "claim" : "keep");
        return (int)t.n;
    }
    char cs[8];
    dl_text_put(&t, cs, (size_t)card_name(m->card, cs, unicode));
    switch (m->kind) {
    case DL_LAY: dl_text_put(&t, " lay", 4); break;
    case DL_CAPTURE:
        dl_text_put(&t, " x", 2);
        add_items(&t, s, m->take, unicode);
        break;
    default:
        dl_text_put(&t, " +", 2);
        add_items(&t, s, m->take, unicode);
        dl_text_str(&t, m->kind == DL_GROUP ? " = G" : " = ");
        dl_text_int(&t, m->value);
        break;
    }
    return (int)t.n;
}

/* ---- parsing ---- */

static const char *vfail(char *err, size_t cap, const char *text, const char *at,
                         const char *fmt, va_list ap)
{
    int n = snprintf(err, cap, "at %d: ", (int)(at - text) + 1);
    if (n < 0) n = 0;
    if ((size_t)n < cap) vsnprintf(err + n, cap - (size_t)n, fmt, ap);
    return err;
}

static const char *fail(char *err, size_t cap, const char *text, const char *at,
                        const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(err, cap, text, at, fmt, ap);
    va_end(ap);
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

/* The items of a move as they are read: what is taken so far, and the
 * cards of declarations named one by one until all of a declaration's
 * cards are there (then it counts as named). */
typedef struct {
    const dl_State *s;
    const char *text;
    char *err;
    size_t cap;
    bool declaring;                  /* a '+' move: its value follows '=' */
    uint64_t take;
    dl_Set named;                    /* declared cards named so far */
    const char *first[DL_MAX_DECLS]; /* where a declaration's first card was */
} Items;

static bool ends_item(char c)
{
    return c == '\0' || isspace((unsigned char)c) || c == '=' || c == '+' || c == ',';
}

static const char *fail_at(const Items *it, const char *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(it->err, it->cap, it->text, at, fmt, ap);
    va_end(ap);
    return it->err;
}

static void add_ref_name(dl_Text *t, const dl_Decl *d)
{
    dl_text_add(t, "%c%d@%d", d->kind == DL_DECL_GROUP ? 'G' : 'P', d->value, d->owner);
}

/* "9s, P9@0 or P9@1": the items of a set in canonical order. */
static void add_choices(dl_Text *t, const dl_State *s, uint64_t set)
{
    int n = dl_count(set & DL_DECK), k = 0;
    for (int i = 0; i < s->ndecl; i++) n += (set & DL_DECL_BIT(i)) != 0;
    for (dl_Set l = set & DL_DECK; l; l &= l - 1, k++) {
        char cs[8];
        dl_card_str(dl_first(l), cs, false);
        dl_text_add(t, "%s%s", k == 0 ? "" : k == n - 1 ? " or " : ", ", cs);
    }
    for (int seat = 0; seat < DL_MAX_PLAYERS; seat++)
        for (int i = 0; i < s->ndecl; i++)
            if ((set & DL_DECL_BIT(i)) && s->decl[i].owner == seat) {
                dl_text_add(t, "%s", k == 0 ? "" : k == n - 1 ? " or " : ", ");
                add_ref_name(t, &s->decl[i]);
                k++;
            }
}

/* One item named by what it is worth: exactly one of `found` must exist. */
static const char *one_of(const Items *it, const char *start, const char *end, uint64_t found,
                          const char *none, uint64_t *bit)
{
    if (!found) return fail_at(it, start, "%s", none);
    if (found & (found - 1)) {
        char list[200];
        dl_Text t = dl_text(list, sizeof list);
        add_choices(&t, it->s, found);
        return fail_at(it, start, "%.*s could be %s: name one", (int)(end - start), start, list);
    }
    *bit = found;
    return NULL;
}

/* The declarations of a kind (-1: any) and value. */
static uint64_t decls_worth(const dl_State *s, int kind, int value)
{
    uint64_t found = 0;
    for (int i = 0; i < s->ndecl; i++)
        if (s->decl[i].value == value && (kind < 0 || s->decl[i].kind == kind))
            found |= DL_DECL_BIT(i);
    return found;
}

/* A declaration reference: [P|G][value]@seat, or P|G value alone where
 * only one declaration has that kind and value. */
static const char *parse_ref(Items *it, const char **pp, uint64_t *bit)
{
    const dl_State *s = it->s;
    const char *p = *pp, *start = p;
    int kind = -1, value = 0, seat;
    if (*p == 'P' || *p == 'p') kind = DL_DECL_PLAIN, p++;
    else if (*p == 'G' || *p == 'g') kind = DL_DECL_GROUP, p++;
    bool has_value = isdigit((unsigned char)*p);
    while (isdigit((unsigned char)*p) && value < 100) value = value * 10 + (*p++ - '0');
    if (has_value && (value < 1 || value > 10))
        return fail_at(it, start, "a declaration's value is 1 to 10");
    if (kind >= 0 && has_value && ends_item(*p)) {
        char none[80];
        snprintf(none, sizeof none, kind == DL_DECL_GROUP ? "no group of %ds on the table"
                                                           : "no plain declaration of %d on "
                                                             "the table", value);
        *pp = p;
        return one_of(it, start, p, decls_worth(s, kind, value), none, bit);
    }
    if (*p != '@' || !isdigit((unsigned char)p[1]))
        return fail_at(it, start, "expected a declaration like P6@1, P6 or @1");
    seat = p[1] - '0';
    p += 2;
    int slot = dl_owned_decl(s, seat);
    if (slot < 0) return fail_at(it, start, "seat %d owns no declaration on the table", seat);
    const dl_Decl *d = &s->decl[slot];
    if ((kind >= 0 && kind != d->kind) || (value && value != d->value))
        return fail_at(it, start, "seat %d's declaration is %c%d, not %.*s", seat,
                       d->kind == DL_DECL_GROUP ? 'G' : 'P', d->value, (int)(p - start), start);
    *bit = DL_DECL_BIT(slot);
    *pp = p;
    return NULL;
}

/* A bare value: the one loose card or declaration worth it. In a '+'
 * move, a value at the very end after other items is most likely the
 * '= value' left out ("3h + 5s 8"). */
static const char *parse_worth(Items *it, const char **pp, uint64_t *bit)
{
    const char *p = *pp, *start = p;
    int v = 0;
    for (; isdigit((unsigned char)*p); p++)
        if (v <= 10) v = v * 10 + (*p - '0');
    if (it->declaring && (it->take || it->named) && *skip(p) == '\0')
        return fail_at(it, start, "a declaration ends with '= value': did you mean '= %.*s'?",
                       (int)(p - start), start);
    uint64_t found = 0;
    if (v >= 1 && v <= 10) found = (it->s->loose & dl_value_mask(v)) | decls_worth(it->s, -1, v);
    char none[80];
    snprintf(none, sizeof none, "nothing on the table is worth %.*s", (int)(p - start), start);
    *pp = p;
    return one_of(it, start, p, found, none, bit);
}

static const char *name_item(Items *it, const char *at, uint64_t bit)
{
    for (int i = 0; i < it->s->ndecl; i++)
        if ((bit & DL_DECL_BIT(i)) && (it->named & it->s->decl[i].cards))
            return fail_at(it, at, "an item is named twice");
    if (it->take & bit) return fail_at(it, at, "an item is named twice");
    it->take |= bit;
    return NULL;
}

/* A card: loose, or one of a declaration's cards (all of them together
 * name the declaration). */
static const char *name_card(Items *it, const char *at, int card)
{
    const dl_State *s = it->s;
    if (s->loose & DL_BIT(card)) return name_item(it, at, DL_BIT(card));
    for (int i = 0; i < s->ndecl; i++) {
        const dl_Decl *d = &s->decl[i];
        if (!(d->cards & DL_BIT(card))) continue;
        if ((it->take & DL_DECL_BIT(i)) || (it->named & DL_BIT(card)))
            return fail_at(it, at, "an item is named twice");
        it->named |= DL_BIT(card);
        if (!it->first[i]) it->first[i] = at;
        if ((it->named & d->cards) == d->cards) it->take |= DL_DECL_BIT(i);
        return NULL;
    }
    char cs[8];
    dl_card_str(card, cs, false);
    return fail_at(it, at, "%s is not a loose card on the table", cs);
}

/* A declaration some, not all, of whose cards were named. */
static const char *unfinished(const Items *it)
{
    const dl_State *s = it->s;
    for (int i = 0; i < s->ndecl; i++) {
        if (!it->first[i] || (it->take & DL_DECL_BIT(i))) continue;
        char whole[200], ref[16], cs[8];
        int len;
        dl_decl_str(s, i, whole, sizeof whole, false);
        dl_Text t = dl_text(ref, sizeof ref);
        add_ref_name(&t, &s->decl[i]);
        dl_card_str(dl_card_parse(it->first[i], &len), cs, false);
        return fail_at(it, it->first[i], "%s is part of %s: name every card of it, or the "
                       "declaration as %s", cs, whole, ref);
    }
    return NULL;
}

/* Table items up to '=' or the end. */
static const char *parse_items(Items *it, const char **pp)
{
    const char *p = skip(*pp);
    bool fresh = true; /* after a separator: a value may start here */
    while (*p && *p != '=') {
        const char *start = p, *e;
        int len, card = dl_card_parse(p, &len);
        uint64_t bit = 0;
        if (card >= 0 && ends_item(p[len])) {
            p += len;
            e = name_card(it, start, card);
        } else if (*p == 'P' || *p == 'p' || *p == 'G' || *p == 'g' || *p == '@' ||
                   (fresh && isdigit((unsigned char)*p) && *(p + strspn(p, "0123456789")) == '@')) {
            e = parse_ref(it, &p, &bit);
            if (!e) e = name_item(it, start, bit);
        } else if (fresh && isdigit((unsigned char)*p) && ends_item(p[strspn(p, "0123456789")])) {
            e = parse_worth(it, &p, &bit);
            if (!e) e = name_item(it, start, bit);
        } else {
            return fail_at(it, p, "expected a card (7h, 10d, K\u2663) or a declaration "
                           "(P6@1), found '%.*s'", excerpt(p), p);
        }
        if (e) return e;
        const char *q = p;
        p = skip(p);
        while (*p == '+' || *p == ',') p = skip(p + 1);
        fresh = p != q || !*p;
    }
    *pp = p;
    return unfinished(it);
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
    /* The rule of the move being typed: a plain declaration's, a raise's
     * (it names a declaration and no G), or any declaration's. */
    const char *id = group ? "D2" : (m->take & DL_DECL_ITEMS) ? "D16" : "D15";
    if (v < 1 || v > 10)
        return fail(err, cap, text, start, "%s: a declared value is 1 to 10, not %.*s", id,
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
        Items it = {s, text, err, cap, false, 0, 0, {NULL}};
        const char *e = parse_items(&it, &p);
        if (e) return e;
        m->take = it.take;
        if (*p == '=') return fail(err, cap, text, p, "a capture declares no value");
        if (!m->take) return fail(err, cap, text, p, "D11: name what the capture takes");
        return NULL;
    }
    if (*p == '+') {
        p++;
        Items it = {s, text, err, cap, true, 0, 0, {NULL}};
        const char *e = parse_items(&it, &p);
        if (e) return e;
        m->take = it.take;
        if (*p != '=') return fail(err, cap, text, p, "a declaration ends with '= value'");
        return parse_value(text, &p, m, err, cap);
    }
    if (!*p)
        return fail(err, cap, text, p, "say what the card does: 'lay', 'x' (capture) or "
                    "'+ ... = value' (declare)");
    return fail(err, cap, text, p, "expected 'lay', 'x' or '+', found '%.*s'",
                excerpt(p), p);
}
