/* A Lua 5.4 pattern matcher that counts its work (see lpattern.h).
 *
 * The behaviour to reproduce is the reference manual's (§6.4.1) plus what
 * the stock library does where the manual is silent, checked against it
 * by tests/lua/pattern_spec.lua: errors in a pattern are raised only when
 * the matcher reaches the faulty item, so "x[" fails quietly on a subject
 * without an x; the bytes just past the subject's and the pattern's ends
 * read as '\0' (Lua strings carry that terminator), which is what %f sees
 * at the end of the subject; and nesting is limited to 200 matcher calls,
 * counted where the stock matcher recurses, so the same patterns are
 * "too complex". The matcher is therefore a backtracking interpreter that
 * walks the pattern text as it goes, like the stock one: compiling the
 * pattern first would report errors the stock library never reaches. */
#include "lpattern.h"

#include <ctype.h>
#include <lauxlib.h>
#include <string.h>

/* Lua's limits, which scripts can observe: more captures are "too many
 * captures", deeper nesting is "pattern too complex". */
#define MAX_CAPTURES 32
#define MAX_DEPTH 200

/* Bytes that memchr, memcmp or memcpy get through in about the time of
 * one step: they are charged at this rate, not one step each, or long
 * legitimate searches and replacements would run out of budget early. */
#define BULK_BYTES 16

/* The buffer work of one replacement in gsub, and a call of the
 * replacement function or a lookup in the replacement table (which may
 * run a metamethod), in steps: measured, these cost about as much as
 * that many matcher steps. A million replacements must not pass for a
 * few million steps. */
#define REPLACE_STEPS 8
#define CALL_STEPS 24
#define META_LOOKUP_STEPS 50000

/* A capture's length while it is still open, or marking a position
 * capture "()". */
#define CAP_OPEN (-1)
#define CAP_POSITION (-2)

typedef struct {
    lua_State *L;
    const dl_PatternLimits *lim; /* the budget and clock of the table's owner */
    const char *subject, *subject_end;
    const char *pattern_end;
    const char *fname; /* for the budget error: "find", "gsub", ... */
    long budget;       /* the budget this call started with */
    long left;         /* steps left in this call */
    long tick_at;      /* when left falls below it: lim->tick */
    int depth;         /* nested matcher calls still allowed */
    int ncap;
    struct {
        const char *at;
        ptrdiff_t len; /* or CAP_OPEN, CAP_POSITION */
    } cap[MAX_CAPTURES];
} Matcher;

/* The host's own table (core.pattern, for tests and tools): never a
 * box's, whose limits are its own (dl_pattern_open). */
static dl_PatternLimits host_limits = {DL_PATTERN_STEPS, NULL, NULL};

void dl_pattern_set_steps(long steps)
{
    host_limits.steps = steps > 0 ? steps : 1;
}

long dl_pattern_steps(void)
{
    return host_limits.steps;
}

static void over_budget(const Matcher *m)
{
    luaL_error(m->L, "string.%s: pattern too costly (more than %I steps)", m->fname,
               (lua_Integer)m->budget);
}

/* luaL_error does not return. The returns written after it below are
 * for the static analyzers, which cannot know that. */

/* Every DL_PATTERN_TICK steps, and past the budget. */
static void checkpoint(Matcher *m)
{
    if (m->left < 0) over_budget(m);
    m->tick_at = m->left > DL_PATTERN_TICK ? m->left - DL_PATTERN_TICK : 0;
    if (m->lim->tick) m->lim->tick(m->L);
}

/* Called on every unit of work, so it must stay this small. */
static inline void charge(Matcher *m, long steps)
{
    m->left -= steps;
    if (m->left < m->tick_at) checkpoint(m);
}

static inline void charge_bulk(Matcher *m, size_t bytes)
{
    charge(m, (long)(bytes / BULK_BYTES) + 1);
}

/* The whole budget again, for a call or one gmatch iteration. */
static void full_budget(Matcher *m)
{
    const long steps = m->lim->steps;
    m->budget = steps;
    m->left = steps;
    m->tick_at = steps > DL_PATTERN_TICK ? steps - DL_PATTERN_TICK : 0;
}

/* The limits of the function called (its upvalue), after a look at the
 * owner's clock: a loop of cheap calls must not outrun a time limit. */
static const dl_PatternLimits *entry(lua_State *L)
{
    const dl_PatternLimits *lim = lua_touserdata(L, lua_upvalueindex(1));
    if (lim->tick) lim->tick(L);
    return lim;
}

static void begin(Matcher *m, lua_State *L, const dl_PatternLimits *lim, const char *s, size_t ls,
                  const char *p, size_t lp, const char *fname)
{
    m->L = L;
    m->lim = lim;
    m->subject = s;
    m->subject_end = s + ls;
    m->pattern_end = p + lp;
    m->fname = fname;
    full_budget(m);
    m->depth = MAX_DEPTH;
    m->ncap = 0;
}

/* Before each attempt at a new subject position: captures and nesting
 * start afresh, the step count goes on. */
static void restart(Matcher *m)
{
    m->ncap = 0;
    m->depth = MAX_DEPTH;
}

/* %a, %d, ... with c the class letter; any other c stands for itself.
 * The <ctype.h> tests follow the current locale, as Lua's do. */
static int in_class(int ch, int c)
{
    int yes;
    switch (tolower(c)) {
    case 'a': yes = isalpha(ch); break;
    case 'c': yes = iscntrl(ch); break;
    case 'd': yes = isdigit(ch); break;
    case 'g': yes = isgraph(ch); break;
    case 'l': yes = islower(ch); break;
    case 'p': yes = ispunct(ch); break;
    case 's': yes = isspace(ch); break;
    case 'u': yes = isupper(ch); break;
    case 'w': yes = isalnum(ch); break;
    case 'x': yes = isxdigit(ch); break;
    case 'z': yes = ch == 0; break; /* deprecated in 5.2, still there */
    default: return c == ch;
    }
    /* an upper-case class letter is the complement */
    return isupper(c) ? !yes : yes != 0;
}

/* Where the item at p ends: past "%x", past a whole "[...]", or past one
 * character. The first member of a set is taken whatever it is, so "[]]"
 * and "[^]]" hold a ']'; "%]" inside a set does not close it. */
static const char *item_end(Matcher *m, const char *p)
{
    const char *q;
    if (*p == '%') {
        if (p + 1 == m->pattern_end) {
            luaL_error(m->L, "malformed pattern (ends with '%%')");
            return p + 1;
        }
        return p + 2;
    }
    if (*p != '[') return p + 1;
    q = p + 1;
    if (*q == '^') q++;
    for (;;) {
        if (q == m->pattern_end) {
            luaL_error(m->L, "malformed pattern (missing ']')");
            return q;
        }
        q += (*q == '%' && q + 1 < m->pattern_end) ? 2 : 1;
        /* *q may be the terminator: never ']', so the loop reaches the
         * end check above */
        if (*q == ']') break;
    }
    charge(m, (long)(q - p));
    return q + 1;
}

/* Whether ch is in the set from open ('[') to close (its ']'). */
static int in_set(Matcher *m, int ch, const char *open, const char *close)
{
    const unsigned char *q = (const unsigned char *)open + 1;
    const unsigned char *end = (const unsigned char *)close;
    int member = 1;
    if (*q == '^') {
        member = 0;
        q++;
    }
    charge(m, (long)(end - q));
    for (; q < end; q++) {
        if (*q == '%') {
            q++;
            if (in_class(ch, *q)) return member;
        } else if (q[1] == '-' && q + 2 < end) {
            if (q[0] <= ch && ch <= q[2]) return member;
            q += 2;
        } else if (*q == ch) {
            return member;
        }
    }
    return !member;
}

/* Whether the single item p..ep matches the subject byte at s. */
static int item_matches(Matcher *m, const char *s, const char *p, const char *ep)
{
    int ch;
    charge(m, 1);
    if (s >= m->subject_end) return 0;
    ch = (unsigned char)*s;
    switch (*p) {
    case '.': return 1;
    case '%': return in_class(ch, (unsigned char)p[1]);
    case '[': return in_set(m, ch, p, ep - 1);
    default: return (unsigned char)*p == ch;
    }
}

/* %bxy at s, with p at x: where the balanced run ends, or NULL. */
static const char *balanced(Matcher *m, const char *s, const char *p)
{
    const char *t;
    int depth = 1;
    if (p + 1 >= m->pattern_end) {
        luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
        return NULL;
    }
    if (s >= m->subject_end || *s != p[0]) return NULL;
    for (t = s + 1; t < m->subject_end; t++) {
        /* the closer is tested first, so %bxx closes at the next x */
        if (*t == p[1]) {
            if (--depth == 0) {
                charge(m, (long)(t - s));
                return t + 1;
            }
        } else if (*t == p[0]) {
            depth++;
        }
    }
    charge(m, (long)(t - s));
    return NULL;
}

/* %1 to %9 (digit, as a character) at s. %0, a capture not yet opened or
 * one still open is an error; a position capture never matches. */
static const char *backref(Matcher *m, const char *s, int digit)
{
    int i = digit - '1';
    ptrdiff_t len;
    if (i < 0 || i >= m->ncap || m->cap[i].len == CAP_OPEN) {
        luaL_error(m->L, "invalid capture index %%%d", i + 1);
        return NULL;
    }
    len = m->cap[i].len;
    if (len < 0 || m->subject_end - s < len) return NULL;
    charge_bulk(m, (size_t)len);
    return memcmp(m->cap[i].at, s, (size_t)len) == 0 ? s + len : NULL;
}

static const char *match(Matcher *m, const char *s, const char *p);

static const char *open_capture(Matcher *m, const char *s, const char *p, ptrdiff_t kind)
{
    const char *r;
    int i = m->ncap;
    if (i >= MAX_CAPTURES) {
        luaL_error(m->L, "too many captures");
        return NULL;
    }
    m->cap[i].at = s;
    m->cap[i].len = kind;
    m->ncap = i + 1;
    r = match(m, s, p);
    if (!r) m->ncap = i;
    return r;
}

static const char *close_capture(Matcher *m, const char *s, const char *p)
{
    const char *r;
    int i = m->ncap - 1;
    while (i >= 0 && m->cap[i].len != CAP_OPEN) i--;
    if (i < 0) {
        luaL_error(m->L, "invalid pattern capture");
        return NULL;
    }
    m->cap[i].len = s - m->cap[i].at;
    r = match(m, s, p);
    if (!r) m->cap[i].len = CAP_OPEN;
    return r;
}

/* item* (and item+ after its first match): as many as possible, then
 * give them back one at a time until the rest of the pattern matches. */
static const char *greedy(Matcher *m, const char *s, const char *p, const char *ep)
{
    size_t n = 0;
    while (item_matches(m, s + n, p, ep)) n++;
    for (;;) {
        const char *r = match(m, s + n, ep + 1);
        if (r || n == 0) return r;
        n--;
    }
}

/* item-: as few as possible, one more each time the rest fails. */
static const char *lazy(Matcher *m, const char *s, const char *p, const char *ep)
{
    for (;;) {
        const char *r = match(m, s, ep + 1);
        if (r) return r;
        if (!item_matches(m, s, p, ep)) return NULL;
        s++;
    }
}

/* Matches pattern p (up to pattern_end) at s: the end of the match, or
 * NULL. Tail positions loop instead of recursing; the calls that nest
 * are the ones Lua's matcher nests, so that MAX_DEPTH means the same. */
static const char *match(Matcher *m, const char *s, const char *p)
{
    const char *ep;
    if (m->depth-- == 0) {
        luaL_error(m->L, "pattern too complex");
        return NULL;
    }
    for (;;) {
        charge(m, 1);
        if (p == m->pattern_end) break;
        if (*p == '(') {
            if (p[1] == ')')
                s = open_capture(m, s, p + 2, CAP_POSITION);
            else
                s = open_capture(m, s, p + 1, CAP_OPEN);
            break;
        }
        if (*p == ')') {
            s = close_capture(m, s, p + 1);
            break;
        }
        if (*p == '$' && p + 1 == m->pattern_end) {
            if (s != m->subject_end) s = NULL;
            break;
        }
        if (*p == '%' && p[1] == 'b') {
            s = balanced(m, s, p + 2);
            if (!s) break;
            p += 4;
            continue;
        }
        if (*p == '%' && p[1] == 'f') {
            int before, here;
            p += 2;
            if (*p != '[') {
                luaL_error(m->L, "missing '[' after '%%f' in pattern");
                s = NULL;
                break;
            }
            ep = item_end(m, p);
            before = s == m->subject ? 0 : (unsigned char)s[-1];
            here = (unsigned char)*s; /* the terminator at the end */
            if (in_set(m, before, p, ep - 1) || !in_set(m, here, p, ep - 1)) {
                s = NULL;
                break;
            }
            p = ep;
            continue;
        }
        if (*p == '%' && p[1] >= '0' && p[1] <= '9') {
            s = backref(m, s, p[1]);
            if (!s) break;
            p += 2;
            continue;
        }
        /* a single item, perhaps with a quantifier after it */
        ep = item_end(m, p);
        if (!item_matches(m, s, p, ep)) {
            if (*ep == '*' || *ep == '?' || *ep == '-') {
                p = ep + 1;
                continue;
            }
            s = NULL;
            break;
        }
        if (*ep == '?') {
            const char *r = match(m, s + 1, ep + 1);
            if (r) {
                s = r;
                break;
            }
            p = ep + 1;
            continue;
        }
        if (*ep == '*' || *ep == '+') {
            s = greedy(m, *ep == '+' ? s + 1 : s, p, ep);
            break;
        }
        if (*ep == '-') {
            s = lazy(m, s, p, ep);
            break;
        }
        s++;
        p = ep;
    }
    m->depth++;
    return s;
}

/* ---- plain search: find with plain=true or without specials ---- */

/* The maximal suffix of x[0..n) for byte order (reverse: the opposite
 * order), as in Crochemore and Perrin's Two-Way algorithm: returns the
 * index just before it (-1 for the whole string) and sets *period to
 * that suffix's period. */
static ptrdiff_t max_suffix(const unsigned char *x, ptrdiff_t n, int reverse, ptrdiff_t *period)
{
    ptrdiff_t before = -1, j = 0, k = 1, per = 1;
    while (j + k < n) {
        unsigned a = x[j + k], b = x[before + k];
        if (a == b) {
            if (k == per) {
                j += per;
                k = 1;
            } else {
                k++;
            }
        } else if (reverse ? a > b : a < b) {
            j += k;
            k = 1;
            per = j - before;
        } else {
            before = j;
            j = before + 1;
            k = per = 1;
        }
    }
    *period = per;
    return before;
}

/* Two-Way: linear in the subject and constant in memory whatever the
 * needle (1 <= nn <= nh). */
static const char *two_way(Matcher *m, const char *hay, size_t nh, const char *needle, size_t nn)
{
    const unsigned char *y = (const unsigned char *)hay;
    const unsigned char *x = (const unsigned char *)needle;
    ptrdiff_t n = (ptrdiff_t)nh, k = (ptrdiff_t)nn;
    ptrdiff_t cut, per, cut2, per2, j = 0, memory = -1;
    int periodic;
    charge(m, 2 * (long)k);
    cut = max_suffix(x, k, 0, &per);
    cut2 = max_suffix(x, k, 1, &per2);
    if (cut2 > cut) {
        cut = cut2;
        per = per2;
    }
    /* x = u v with |u| = cut + 1: if u recurs one period into v, the
     * needle is periodic and a match lets the next try keep the part it
     * already knows to match */
    charge_bulk(m, (size_t)(cut + 1));
    periodic = memcmp(x, x + per, (size_t)(cut + 1)) == 0;
    if (!periodic) per = (cut + 1 > k - cut - 1 ? cut + 1 : k - cut - 1) + 1;
    while (j <= n - k) {
        ptrdiff_t i = (cut > memory ? cut : memory) + 1;
        if (memory < 0) {
            /* until x[cut + 1] matches, each try would shift by one:
             * let memchr find the next place where it does */
            const unsigned char *at = y + j + i;
            const unsigned char *hit = memchr(at, x[i], (size_t)(n - k - j + 1));
            if (!hit) {
                charge_bulk(m, (size_t)(n - k - j + 1));
                return NULL;
            }
            charge_bulk(m, (size_t)(hit - at));
            j += hit - at;
        }
        while (i < k && x[i] == y[i + j]) i++;
        charge(m, (long)(i - cut));
        if (i < k) {
            j += i - cut;
            memory = -1;
            continue;
        }
        i = cut;
        while (i > memory && x[i] == y[i + j]) i--;
        charge(m, (long)(cut - i) + 1);
        if (i <= memory) return hay + j;
        j += per;
        memory = periodic ? k - per - 1 : -1;
    }
    return NULL;
}

/* The stock library's way first, memchr for the needle's first byte and
 * a comparison at each hit, because it is the fastest on ordinary text;
 * but it is O(n k) on a^k b in a^n, which the budget would have to
 * refuse, so once the comparisons cost more than a few bytes for each
 * byte passed, the rest of the subject goes to Two-Way. */
static const char *plain_find(Matcher *m, const char *hay, size_t nh, const char *needle, size_t nn)
{
    size_t j = 0, compared = 0;
    if (nn == 0) return hay;
    if (nn > nh) return NULL;
    while (j <= nh - nn) {
        const char *hit = memchr(hay + j, needle[0], nh - nn - j + 1);
        size_t i = 1;
        if (!hit) {
            charge_bulk(m, nh - nn - j + 1);
            return NULL;
        }
        charge_bulk(m, (size_t)(hit - hay) - j);
        j = (size_t)(hit - hay);
        while (i < nn && needle[i] == hay[j + i]) i++;
        charge(m, (long)i);
        if (i == nn) return hit;
        compared += i;
        j++;
        if (compared > 4 * j + 64) return nh - j < nn ? NULL : two_way(m, hay + j, nh - j, needle, nn);
    }
    return NULL;
}

/* Whether find may search for p literally: none of Lua's special
 * characters. ']' and ')' are not among them, so find("a)", "a)") is a
 * plain search while match("a)", "a)") is a malformed pattern. */
static int no_specials(const char *p, size_t lp)
{
    size_t i;
    for (i = 0; i < lp; i++) {
        switch (p[i]) {
        case '^': case '$': case '*': case '+': case '?':
        case '.': case '(': case '[': case '%': case '-':
            return 0;
        default: break;
        }
    }
    return 1;
}

/* ---- results ---- */

/* Capture i, or the whole match s..e when the pattern has none and i is
 * 0 (find passes s = NULL: it reports only real captures). */
static void push_capture(Matcher *m, int i, const char *s, const char *e)
{
    if (i >= m->ncap) {
        if (i != 0) {
            luaL_error(m->L, "invalid capture index %%%d", i + 1);
            return;
        }
        lua_pushlstring(m->L, s, (size_t)(e - s));
        return;
    }
    if (m->cap[i].len == CAP_OPEN) {
        luaL_error(m->L, "unfinished capture");
        return;
    }
    if (m->cap[i].len == CAP_POSITION)
        lua_pushinteger(m->L, (lua_Integer)(m->cap[i].at - m->subject) + 1);
    else
        lua_pushlstring(m->L, m->cap[i].at, (size_t)m->cap[i].len);
}

static int push_captures(Matcher *m, const char *s, const char *e)
{
    int i, n = (m->ncap == 0 && s) ? 1 : m->ncap;
    luaL_checkstack(m->L, n, "too many captures");
    for (i = 0; i < n; i++) push_capture(m, i, s, e);
    return n;
}

/* Lua's reading of a start position: 0-based, clamped below; past the
 * end it stays past the end for the caller to refuse. */
static size_t start_index(lua_Integer pos, size_t len)
{
    if (pos > 0) return (size_t)pos - 1;
    if (pos == 0 || pos < -(lua_Integer)len) return 0;
    return (size_t)((lua_Integer)len + pos);
}

static int find_or_match(lua_State *L, int find)
{
    const dl_PatternLimits *lim = entry(L);
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = start_index(luaL_optinteger(L, 3, 1), ls);
    const char *at;
    int anchored;
    Matcher m;
    if (init > ls) {
        luaL_pushfail(L);
        return 1;
    }
    begin(&m, L, lim, s, ls, p, lp, find ? "find" : "match");
    if (find && (lua_toboolean(L, 4) || no_specials(p, lp))) {
        const char *hit;
        charge_bulk(&m, lp);
        hit = plain_find(&m, s + init, ls - init, p, lp);
        if (!hit) {
            luaL_pushfail(L);
            return 1;
        }
        lua_pushinteger(L, (lua_Integer)(hit - s) + 1);
        lua_pushinteger(L, (lua_Integer)(hit - s) + (lua_Integer)lp);
        return 2;
    }
    anchored = *p == '^';
    for (at = s + init;; at++) {
        const char *e;
        restart(&m);
        e = match(&m, at, p + anchored);
        if (e) {
            if (!find) return push_captures(&m, at, e);
            lua_pushinteger(L, (lua_Integer)(at - s) + 1);
            lua_pushinteger(L, (lua_Integer)(e - s));
            return 2 + push_captures(&m, NULL, NULL);
        }
        if (anchored || at >= m.subject_end) break;
    }
    luaL_pushfail(L);
    return 1;
}

static int l_find(lua_State *L)
{
    return find_or_match(L, 1);
}

static int l_match(lua_State *L)
{
    return find_or_match(L, 0);
}

/* ---- gmatch ---- */

typedef struct {
    Matcher m;
    const char *next;      /* where the next search starts */
    const char *last;      /* end of the last match: no empty match there */
    const char *pattern;
} Iterator;

/* Upvalues: the subject, the pattern (kept alive for the pointers in the
 * iterator), the iterator. Each call has its own budget. */
static int gmatch_step(lua_State *L)
{
    Iterator *it = (Iterator *)lua_touserdata(L, lua_upvalueindex(3));
    const char *at;
    it->m.L = L; /* the loop may run in another coroutine */
    full_budget(&it->m);
    if (it->m.lim->tick) it->m.lim->tick(L); /* (the iterator is called from a loop) */
    if (!it->next) return 0;
    for (at = it->next; at <= it->m.subject_end; at++) {
        const char *e;
        restart(&it->m);
        e = match(&it->m, at, it->pattern);
        if (e && e != it->last) {
            it->next = it->last = e;
            return push_captures(&it->m, at, e);
        }
    }
    it->next = NULL; /* done: later calls answer at once */
    return 0;
}

/* No anchor here: a leading '^' is an ordinary character, as in Lua. */
static int l_gmatch(lua_State *L)
{
    const dl_PatternLimits *lim = entry(L);
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = start_index(luaL_optinteger(L, 3, 1), ls);
    Iterator *it;
    lua_settop(L, 2);
    it = (Iterator *)lua_newuserdatauv(L, sizeof *it, 0);
    if (init > ls) init = ls + 1; /* nothing to find, and no overflow */
    begin(&it->m, L, lim, s, ls, p, lp, "gmatch");
    it->next = s + init;
    it->last = NULL;
    it->pattern = p;
    lua_pushcclosure(L, gmatch_step, 3);
    return 1;
}

/* ---- gsub ---- */

/* A string replacement: %0 to %9 and %% expanded. */
static void add_string(Matcher *m, luaL_Buffer *b, const char *s, const char *e)
{
    size_t l;
    const char *r = lua_tolstring(m->L, 3, &l);
    const char *r_end = r + l;
    for (;;) {
        const char *pct = memchr(r, '%', (size_t)(r_end - r));
        if (!pct) break;
        luaL_addlstring(b, r, (size_t)(pct - r));
        charge_bulk(m, (size_t)(pct - r));
        /* a '%' at the very end sees the terminator: an invalid use */
        if (pct[1] == '%') {
            luaL_addchar(b, '%');
        } else if (pct[1] == '0') {
            luaL_addlstring(b, s, (size_t)(e - s));
            charge_bulk(m, (size_t)(e - s));
        } else if (isdigit((unsigned char)pct[1])) {
            push_capture(m, pct[1] - '1', s, e);
            charge_bulk(m, lua_rawlen(m->L, -1));
            luaL_addvalue(b); /* a position capture goes in as a number */
        } else {
            luaL_error(m->L, "invalid use of '%%' in replacement string");
            return;
        }
        r = pct + 2;
    }
    luaL_addlstring(b, r, (size_t)(r_end - r));
    charge_bulk(m, (size_t)(r_end - r));
}

/* Adds the replacement of the match s..e; returns whether it differs
 * from the match (false and nil keep the match as it was). */
static int add_value(Matcher *m, luaL_Buffer *b, const char *s, const char *e, int kind)
{
    lua_State *L = m->L;
    charge(m, kind == LUA_TFUNCTION || kind == LUA_TTABLE ? CALL_STEPS : REPLACE_STEPS);
    /* A table with a metatable may send each lookup down a chain of up
     * to 2,000 __index tables, inside this one C call. */
    if (kind == LUA_TTABLE && lua_getmetatable(L, 3)) {
        lua_pop(L, 1);
        charge(m, META_LOOKUP_STEPS);
    }
    if (kind == LUA_TFUNCTION) {
        int n;
        lua_pushvalue(L, 3);
        n = push_captures(m, s, e);
        lua_call(L, n, 1);
    } else if (kind == LUA_TTABLE) {
        push_capture(m, 0, s, e);
        lua_gettable(L, 3); /* metamethods apply, as in Lua */
    } else {
        add_string(m, b, s, e);
        return 1;
    }
    if (!lua_toboolean(L, -1)) {
        lua_pop(L, 1);
        luaL_addlstring(b, s, (size_t)(e - s));
        charge_bulk(m, (size_t)(e - s));
        return 0;
    }
    if (!lua_isstring(L, -1))
        return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    charge_bulk(m, lua_rawlen(L, -1));
    luaL_addvalue(b);
    return 1;
}

static int l_gsub(lua_State *L)
{
    const dl_PatternLimits *lim = entry(L);
    size_t ls, lp;
    const char *src = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    int kind = lua_type(L, 3);
    lua_Integer max = luaL_optinteger(L, 4, (lua_Integer)ls + 1);
    int anchored = *p == '^', changed = 0;
    lua_Integer n = 0;
    const char *last = NULL;
    Matcher m;
    luaL_Buffer b;
    luaL_argexpected(L,
                     kind == LUA_TNUMBER || kind == LUA_TSTRING || kind == LUA_TFUNCTION ||
                         kind == LUA_TTABLE,
                     3, "string/function/table");
    if (lim->room) lim->room(L, 2 * ls);
    luaL_buffinit(L, &b);
    begin(&m, L, lim, src, ls, p, lp, "gsub");
    p += anchored;
    while (n < max) {
        const char *e;
        restart(&m);
        e = match(&m, src, p);
        if (e && e != last) {
            n++;
            changed |= add_value(&m, &b, src, e, kind);
            src = last = e;
        } else if (src < m.subject_end) {
            luaL_addchar(&b, *src++);
        } else {
            break;
        }
        if (anchored) break;
    }
    if (!changed) {
        lua_pushvalue(L, 1); /* the very same string: nothing to build */
    } else {
        luaL_addlstring(&b, src, (size_t)(m.subject_end - src));
        luaL_pushresult(&b);
    }
    lua_pushinteger(L, n);
    return 2;
}

void dl_pattern_open(lua_State *L, int idx, const dl_PatternLimits *lim)
{
    static const luaL_Reg fns[] = {{"find", l_find},
                                   {"match", l_match},
                                   {"gmatch", l_gmatch},
                                   {"gsub", l_gsub},
                                   {NULL, NULL}};
    const luaL_Reg *f;
    idx = lua_absindex(L, idx);
    for (f = fns; f->name; f++) {
        lua_pushlightuserdata(L, (void *)lim); /* (read only: see entry) */
        lua_pushcclosure(L, f->func, 1);
        lua_setfield(L, idx, f->name);
    }
}

void dl_pattern_register(lua_State *L, int idx)
{
    dl_pattern_open(L, idx, &host_limits);
}
