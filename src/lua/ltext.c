/* Text from strangers made safe for a terminal. AI scripts, house rules,
 * lessons and game records are downloaded; a description holding
 * ESC ] 52 writes the clipboard, ESC [ 2 J clears the screen for a fake
 * prompt, U+202E turns "gnp.exe" into "exe.png". Every such control is
 * shown instead of obeyed: C0 controls (but newline and tab) and DEL in
 * caret notation (^[ for ESC, ^M for CR, ^? for DEL), C1 controls,
 * bidirectional controls and bytes that are not UTF-8 as U+FFFD. Text
 * that is well-formed UTF-8 without those passes unchanged.
 *
 * Why bytes that are not UTF-8 are replaced too: some terminals take a
 * raw 0x9B as CSI, and a lone lead byte can swallow the character after
 * it. Ill-formed sequences follow Unicode's "maximal subpart" practice
 * (Unicode 15, section 3.9, U+FFFD substitution): the longest prefix that
 * could start a valid sequence becomes one U+FFFD, so a truncated
 * character is one U+FFFD and never eats the ASCII byte after it. */
#include "ltext.h"

#define REPLACEMENT "\xEF\xBF\xBD" /* U+FFFD */

/* Printable ASCII, newline and tab: most text is nothing else, so this
 * is the test every byte meets first (one subtraction and a compare for
 * the common case). */
static int plain_byte(unsigned char c)
{
    return (unsigned char)(c - 0x20) < 0x5F || c == '\n' || c == '\t';
}

/* C0 controls (but newline and tab) and DEL: shown in caret notation. */
static int c0_byte(unsigned char c)
{
    return c < 0x20 || c == 0x7F;
}

/* The well-formed UTF-8 sequence at s (n bytes left, s[0] >= 0x80), after
 * Unicode's Table 3-7: its length (2..4) with its code point in *cp, or 0
 * with *bad the length of the maximal subpart to replace (1..3). The
 * second byte's range excludes overlong forms (E0, F0), surrogates (ED)
 * and code points above U+10FFFF (F4). */
static size_t utf8_decode(const unsigned char *s, size_t n, unsigned long *cp, size_t *bad)
{
    unsigned char c = s[0];
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF;
    unsigned long v;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        v = c & 0x1Fu;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        v = c & 0x0Fu;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        v = c & 0x07u;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else {
        *bad = 1; /* a continuation byte, C0, C1 or F5..FF: never a start */
        return 0;
    }
    for (size_t i = 1; i < len; i++) {
        if (i >= n || s[i] < lo || s[i] > hi) {
            *bad = i;
            return 0;
        }
        v = (v << 6) | (s[i] & 0x3Fu);
        lo = 0x80;
        hi = 0xBF;
    }
    *cp = v;
    return len;
}

/* Characters that are valid UTF-8 but control the terminal: the C1
 * controls, and the bidirectional embeddings, overrides, isolates and
 * marks that reorder what is shown (Trojan Source, CVE-2021-42574). */
static int is_control_char(unsigned long cp)
{
    if (cp >= 0x80 && cp <= 0x9F) return 1;
    if (cp == 0x061C || cp == 0x200E || cp == 0x200F) return 1;
    if (cp >= 0x202A && cp <= 0x202E) return 1;
    return cp >= 0x2066 && cp <= 0x2069;
}

/* The length of the character at s when it may be printed as it is, or
 * 0 when it must be replaced (*bad bytes of it). s[0] is a LEAD byte. */
static size_t printable_char(const unsigned char *s, size_t n, size_t *bad)
{
    unsigned long cp = 0;
    size_t len = utf8_decode(s, n, &cp, bad);
    if (len && is_control_char(cp)) {
        *bad = len;
        return 0;
    }
    return len;
}

int dl_clean_needed(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        if (plain_byte(u[i])) {
            i++;
            continue;
        }
        if (c0_byte(u[i])) return 1;
        size_t bad = 0, len = printable_char(u + i, n - i, &bad);
        if (!len) return 1;
        i += len;
    }
    return 0;
}

void dl_clean_add(luaL_Buffer *b, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        /* A run of plain bytes goes in with one copy. */
        size_t run = i;
        while (run < n && plain_byte(u[run])) run++;
        if (run > i) {
            luaL_addlstring(b, s + i, run - i);
            i = run;
            continue;
        }
        unsigned char c = u[i];
        if (c0_byte(c)) {
            /* caret notation: ^@ for NUL ... ^[ for ESC ... ^_; ^? for DEL */
            luaL_addchar(b, '^');
            luaL_addchar(b, (char)(c == 0x7F ? '?' : c + 0x40));
            i++;
            continue;
        }
        size_t bad = 0, len = printable_char(u + i, n - i, &bad);
        if (len) {
            luaL_addlstring(b, s + i, len);
            i += len;
        } else {
            luaL_addlstring(b, REPLACEMENT, sizeof REPLACEMENT - 1);
            i += bad;
        }
    }
}

size_t dl_clean_len(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, out = 0;
    while (i < n) {
        if (plain_byte(u[i])) {
            i++;
            out++;
            continue;
        }
        if (c0_byte(u[i])) {
            i++;
            out += 2;
            continue;
        }
        size_t bad = 0, len = printable_char(u + i, n - i, &bad);
        if (len) {
            i += len;
            out += len;
        } else {
            i += bad;
            out += sizeof REPLACEMENT - 1;
        }
    }
    return out;
}

void dl_clean_push(lua_State *L, const char *s, size_t n)
{
    if (!dl_clean_needed(s, n)) {
        lua_pushlstring(L, s, n);
        return;
    }
    /* Sized at once: a growing buffer would hold up to twice the text. */
    luaL_Buffer b;
    luaL_buffinitsize(L, &b, dl_clean_len(s, n));
    dl_clean_add(&b, s, n);
    luaL_pushresult(&b);
}

/* One line of plain text from a script (a bonus's name, a hook's error):
 * newlines and tabs become spaces, every other control, bidirectional
 * control and byte that is not UTF-8 is dropped, the ends are trimmed,
 * and the text is cut to at most max bytes at a character's end. */
void dl_plain_push(lua_State *L, const char *s, size_t n, size_t max)
{
    const unsigned char *u = (const unsigned char *)s;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    size_t used = 0, kept = 0; /* bytes written; up to the last non-space */
    for (size_t i = 0; i < n;) {
        unsigned char c = u[i];
        size_t len = 1;
        const char *piece = s + i;
        if (c == '\n' || c == '\t' || c == ' ') {
            piece = " ";
            if (used == 0) {
                i++;
                continue;
            }
        } else if (c0_byte(c)) {
            i++;
            continue;
        } else if (c >= 0x80) {
            size_t bad = 0;
            len = printable_char(u + i, n - i, &bad);
            if (!len) {
                i += bad;
                continue;
            }
        }
        if (used + len > max) break;
        luaL_addlstring(&b, piece, len);
        used += len;
        if (*piece != ' ') kept = used;
        i += len;
    }
    luaL_pushresult(&b);
    if (kept < used) {
        /* (trailing spaces: the result is at most max bytes, so short) */
        lua_pushlstring(L, lua_tostring(L, -1), kept);
        lua_remove(L, -2);
    }
}
