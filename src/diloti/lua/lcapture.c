/* best_capture and points (lcapture.h). A card's best capture is not
 * worked out here: a position is set up with the table given and a seat
 * holding a card of the rank, and the engine's own move generator lists
 * its captures, so that an AI's answers follow every rule and variant the
 * game is played by, and no second copy of the rules can drift from it.
 *
 * Scripts call these with anything at all, so every argument is read as
 * hostile: tables raw only (a script's table may carry metamethods), one
 * level per field (a cycle is never followed), lists longer than the
 * deck refused before they are read, every number range-checked before
 * it is narrowed, and the position checked (dl_check_state) before the
 * generator sees it. The generator lists every capture, which on a
 * table no game would reach can mean millions; crowded() refuses those
 * first, since no hook can stop C code once it runs. */
#include "lcapture.h"

#include <lauxlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "boxint.h"
#include "gameops.h"
#include "lrules.h"
#include "diloti/moves.h"

/* A rules table holds some 30 fields with short names; more, or longer
 * names, are nonsense (and dl_lua_torules would echo a long name). */
#define MAX_RULE_FIELDS 64
#define MAX_KEY 32
/* The longest spelling of a card: "10", a suit symbol and the variation
 * selector after it (3 + 3 bytes). */
#define MAX_CARD_TEXT 8
/* The generator lists every set of pairwise disjoint parts a card could
 * take, about 0.2 us each on the development machine (a table of 15
 * small numerals: 163,152 sets in 31 ms for a 10). The crowded bench table
 * of the Makefile needs 4,579 for a 9; past this many the call would
 * take over ~10 ms, and is refused. */
#define MAX_WAYS 50000.0
/* Counting those sets keeps one number per state (cards left of each
 * value): past this many states the table holds some 25 small numerals,
 * and the sets run to many millions anyway. */
#define MAX_STATES 20000L

#define WHY 200

static const char *const RANK_NAMES[13] = {"A", "2", "3", "4", "5", "6", "7",
                                           "8", "9", "10", "J", "Q", "K"};

static bool fail(char *why, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, WHY, fmt, ap);
    va_end(ap);
    return false;
}

/* Is the value at idx exactly this string (a NUL inside it included)? */
static bool is_word(lua_State *L, int idx, const char *word)
{
    size_t n;
    const char *s = lua_type(L, idx) == LUA_TSTRING ? lua_tolstring(L, idx, &n) : NULL;
    return s && n == strlen(word) && memcmp(s, word, n) == 0;
}

/* Pushes t[k], read raw; t is an absolute index. */
static int raw_field(lua_State *L, int t, const char *k)
{
    lua_pushstring(L, k);
    return lua_rawget(L, t);
}

/* The card a Lua value spells ("7h", "10♦", "Q♠️"), or -1. */
static int card_at(lua_State *L, int idx)
{
    if (lua_type(L, idx) != LUA_TSTRING) return -1;
    size_t n;
    const char *s = lua_tolstring(L, idx, &n);
    if (n > MAX_CARD_TEXT) return -1;
    int len, c = dl_card_parse(s, &len); /* (Lua strings end in a NUL) */
    return c >= 0 && (size_t)len == n ? c : -1;
}

/* The list at idx (at most a deck's worth, read raw) into *out, each card
 * once in *seen; `twice` says where a repeated card is. */
static bool read_cards(lua_State *L, int idx, const char *name, const char *twice, dl_Set *out,
                       dl_Set *seen, char *why)
{
    if (lua_type(L, idx) != LUA_TTABLE) return fail(why, "%s is not a list of cards", name);
    lua_Unsigned n = lua_rawlen(L, idx);
    if (n > DL_NCARDS) return fail(why, "%s: more than %d cards", name, DL_NCARDS);
    for (int i = 1; i <= (int)n; i++) {
        lua_rawgeti(L, idx, i);
        int c = card_at(L, -1);
        lua_pop(L, 1);
        if (c < 0) return fail(why, "%s: entry %d is not a card", name, i);
        if (*seen & DL_BIT(c)) {
            char b[8];
            dl_card_str(c, b, false);
            return fail(why, "%s is %s twice", b, twice);
        }
        *seen |= DL_BIT(c);
        *out |= DL_BIT(c);
    }
    return true;
}

/* t[k] as a whole number in lo..hi: floats, NaN and huge values fail
 * before anything is narrowed. */
static bool int_field(lua_State *L, int t, const char *k, int lo, int hi, int *out)
{
    int ok = 0;
    lua_Integer v = 0;
    if (raw_field(L, t, k) == LUA_TNUMBER) v = lua_tointegerx(L, -1, &ok);
    lua_pop(L, 1);
    if (!ok || v < lo || v > hi) return false;
    *out = (int)v;
    return true;
}

/* A group's components: lists of its cards, each card in exactly one;
 * their sums are dl_check_state's to check. A plain declaration may leave
 * them out (its one component is all its cards). */
static bool read_components(lua_State *L, int d, int i, dl_State *s, char *why)
{
    dl_Decl *dc = &s->decl[i];
    int t = raw_field(L, d, "components");
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        if (dc->kind == DL_DECL_GROUP) return fail(why, "declaration %d: a group needs its components", i + 1);
        dc->ncomp = 1;
        return true;
    }
    const int cs = lua_gettop(L);
    if (t != LUA_TTABLE) return fail(why, "declaration %d: components is not a list", i + 1);
    lua_Unsigned n = lua_rawlen(L, cs);
    if (n > DL_NCARDS) return fail(why, "declaration %d: more than %d components", i + 1, DL_NCARDS);
    dl_Set seen = 0;
    for (int k = 0; k < (int)n; k++) {
        char name[64];
        snprintf(name, sizeof name, "declaration %d, component %d", i + 1, k + 1);
        dl_Set part = 0;
        lua_rawgeti(L, cs, k + 1);
        bool ok = read_cards(L, lua_gettop(L), name, "in its components", &part, &seen, why);
        lua_pop(L, 1);
        if (!ok) return false;
        if (part & ~dc->cards) return fail(why, "%s holds a card the declaration does not", name);
        for (dl_Set x = part; x; x &= x - 1) s->comp[dl_first(x)] = (uint8_t)k;
    }
    lua_pop(L, 1);
    if (seen != dc->cards) return fail(why, "declaration %d: its components miss some of its cards", i + 1);
    dc->ncomp = (uint8_t)n;
    return true;
}

/* One declaration, as lview.c pushes it: kind, value, owner, cards and
 * components. */
static bool read_decl(lua_State *L, int d, int i, dl_State *s, dl_Set *seen, char *why)
{
    if (lua_type(L, d) != LUA_TTABLE) return fail(why, "declaration %d is not a table", i + 1);
    dl_Decl *dc = &s->decl[i];
    raw_field(L, d, "kind");
    bool plain = is_word(L, -1, "plain"), group = is_word(L, -1, "group");
    lua_pop(L, 1);
    if (!plain && !group) return fail(why, "declaration %d: kind must be \"plain\" or \"group\"", i + 1);
    dc->kind = plain ? DL_DECL_PLAIN : DL_DECL_GROUP;
    int v, owner;
    if (!int_field(L, d, "value", 1, 10, &v))
        return fail(why, "declaration %d: value must be a whole number from 1 to 10", i + 1);
    if (!int_field(L, d, "owner", 0, s->rules.players - 1, &owner))
        return fail(why, "declaration %d: owner must be a seat from 0 to %d", i + 1, s->rules.players - 1);
    dc->value = (uint8_t)v;
    dc->owner = (uint8_t)owner;
    char name[32];
    snprintf(name, sizeof name, "declaration %d's cards", i + 1);
    raw_field(L, d, "cards");
    bool ok = read_cards(L, lua_gettop(L), name, "on the table", &dc->cards, seen, why);
    lua_pop(L, 1);
    return ok && read_components(L, d, i, s, why);
}

/* A view's table onto s: loose cards and declarations, each card once. */
static bool read_table(lua_State *L, int t, dl_State *s, char *why)
{
    dl_Set seen = 0;
    int top = lua_gettop(L);
    if (raw_field(L, t, "loose") != LUA_TNIL &&
        !read_cards(L, top + 1, "loose", "on the table", &s->loose, &seen, why))
        return false;
    lua_settop(L, top);
    int ty = raw_field(L, t, "declarations");
    if (ty == LUA_TNIL) {
        lua_settop(L, top);
        return true;
    }
    if (ty != LUA_TTABLE) return fail(why, "declarations is not a list");
    lua_Unsigned n = lua_rawlen(L, top + 1);
    if (n > DL_MAX_DECLS) return fail(why, "more than %d declarations (D19: one per player)", DL_MAX_DECLS);
    for (int i = 0; i < (int)n; i++) {
        lua_rawgeti(L, top + 1, i + 1);
        bool ok = read_decl(L, top + 2, i, s, &seen, why);
        lua_settop(L, top + 1);
        if (!ok) return false;
        s->ndecl = (uint8_t)(i + 1);
    }
    lua_settop(L, top);
    return true;
}

/* ---- rules ---- */

/* The keys of a rules table, before dl_lua_torules reads it: a handful of
 * short strings (its messages name the key it refuses). */
static void check_keys(lua_State *L, int t, const char *what)
{
    int n = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING || lua_rawlen(L, -1) > MAX_KEY)
            luaL_error(L, "%s: field names must be short strings", what);
        if (++n > MAX_RULE_FIELDS) luaL_error(L, "%s: more than %d fields", what, MAX_RULE_FIELDS);
    }
}

/* The rules at idx into *r: Diloti's when absent, else the fields given
 * over the base game their capture model names (as diloti.rules does).
 * Raises on a field of the wrong name or type; returns what makes the
 * rules impossible (dl_rules_check), or NULL. */
static const char *read_rules(lua_State *L, int idx, const char *fname, dl_Rules *r)
{
    int t = lua_type(L, idx);
    if (t == LUA_TNONE || t == LUA_TNIL) {
        dl_rules_diloti(r);
        return NULL;
    }
    if (t != LUA_TTABLE) luaL_error(L, "%s: the rules must be a table (as g:rules() gives)", fname);
    idx = lua_absindex(L, idx);
    check_keys(L, idx, "rules");
    if (raw_field(L, idx, "points") == LUA_TTABLE) check_keys(L, lua_gettop(L), "rules.points");
    lua_pop(L, 1);
    raw_field(L, idx, "capture");
    bool one = is_word(L, -1, "one");
    lua_pop(L, 1);
    if (one)
        dl_rules_kontsina(r);
    else
        dl_rules_diloti(r);
    dl_lua_torules(L, idx, r); /* (reads with lua_next: raw) */
    return dl_rules_check(r);
}

/* ---- what to play ---- */

/* The rank (0..12) `what` names, and in *card the card itself when it is
 * one (else -1). Raises on anything else. */
static int read_what(lua_State *L, int idx, int *card)
{
    *card = -1;
    int t = lua_type(L, idx);
    if (t == LUA_TNUMBER) {
        int ok;
        lua_Integer v = lua_tointegerx(L, idx, &ok);
        if (ok && v >= 1 && v <= 10) return (int)v - 1;
    } else if (t == LUA_TSTRING) {
        int c = card_at(L, idx);
        if (c >= 0) {
            *card = c;
            return dl_rank(c);
        }
        for (int r = 0; r < 13; r++)
            if (is_word(L, idx, RANK_NAMES[r])) return r;
    }
    return luaL_error(L, "best_capture: a card, a value 1-10 or a rank expected");
}

/* The card to play: the one given unless it is on the table, else a suit
 * of its rank that is not; -1 when all four are there. */
static int pick_card(dl_Set on_table, int rank, int card)
{
    if (card >= 0 && !(on_table & DL_BIT(card))) return card;
    for (int suit = 0; suit < 4; suit++)
        if (!(on_table & DL_BIT(dl_card(rank, suit)))) return dl_card(rank, suit);
    return -1;
}

/* ---- the guard: how many captures the generator would list ---- */

/* A numeral of value v captures any set of pairwise disjoint parts: sets
 * of items summing to v (loose numerals, and under V-liberal-capture
 * plain declarations as single cards: "atoms") and the declarations of
 * value v. The generator walks every such set, so their number is its
 * work. Atoms of one value are alike for counting, so the count depends
 * only on how many of each value are left: one number per state. */
typedef struct {
    int v;
    int left[11];   /* atoms left of each value 1..v-1 */
    long stride[11];
    double *memo;   /* sets + 1 (the empty one) per state; < 0: unknown */
} Ways;

static double sets_of(Ways *w);

/* The sets in which an atom already taken out is in a part with others:
 * those others, of values from `from` up, summing to need, times the
 * sets of what is left. */
static double parts_with(Ways *w, int from, int need)
{
    if (need == 0) return sets_of(w);
    double n = 0;
    for (int u = from; u <= need; u++) {
        const int have = w->left[u];
        double choose = 1; /* ways to pick m of the `have` atoms of value u */
        for (int m = 1; m <= have && m * u <= need; m++) {
            choose = choose * (have - m + 1) / m;
            w->left[u] -= m;
            n += choose * parts_with(w, u + 1, need - m * u);
            w->left[u] += m;
        }
    }
    return n;
}

static double sets_of(Ways *w)
{
    long at = 0;
    int low = 0;
    for (int u = 1; u < w->v; u++) {
        at += w->left[u] * w->stride[u];
        if (!low && w->left[u]) low = u;
    }
    if (!low) return 1;
    if (w->memo[at] >= 0) return w->memo[at];
    /* One atom of the lowest value left: in no part, or in a part with
     * others of its value or higher (a lower one would be left first). */
    w->left[low]--;
    double n = sets_of(w) + parts_with(w, low, w->v - low);
    w->left[low]++;
    /* A subset's sets are sets of the whole table too: once one count is
     * past the limit, so is the total; capped, the sums stay finite. */
    if (n > 2 * MAX_WAYS) n = 2 * MAX_WAYS;
    w->memo[at] = n;
    return n;
}

/* NULL, or why the captures of a numeral of value v cannot be listed in
 * a few ms. Kontsina takes one part at a time (at most a few thousand). */
static const char *crowded(lua_State *L, const dl_State *s, int v)
{
    if (s->rules.capture == DL_CAPTURE_ONE) return NULL;
    const bool lib = s->rules.liberal_capture && s->ndecl > 0; /* as moves.c */
    Ways w;
    memset(&w, 0, sizeof w);
    w.v = v;
    double alone = 1; /* parts of one item: each taken or not */
    for (dl_Set l = s->loose & DL_NUMERALS; l; l &= l - 1) {
        int x = dl_value(dl_first(l));
        if (x < v) w.left[x]++;
        if (x == v) alone *= 2;
    }
    for (int i = 0; i < s->ndecl; i++) {
        const dl_Decl *d = &s->decl[i];
        if (lib && d->kind == DL_DECL_PLAIN && d->value < v) w.left[d->value]++;
        if (d->value == v) alone *= 2;
    }
    long states = 1;
    for (int u = 1; u < v; u++) {
        w.stride[u] = states;
        states *= w.left[u] + 1;
        if (states > MAX_STATES) return "the table is too crowded to work out its captures";
    }
    w.memo = lua_newuserdatauv(L, (size_t)states * sizeof *w.memo, 0); /* (the box counts it) */
    for (long i = 0; i < states; i++) w.memo[i] = -1;
    double sets = sets_of(&w) * alone - 1;
    lua_pop(L, 1);
    return sets > MAX_WAYS ? "the table is too crowded to work out its captures" : NULL;
}

/* ---- the best capture ---- */

typedef struct {
    bool found;
    uint64_t take;
    dl_Set cards;
    int count, points, clubs;
} Best;

/* The cards a take holds: loose ones and the declarations' own. */
static dl_Set cards_of(const dl_State *s, uint64_t take)
{
    dl_Set c = take & DL_DECK;
    for (int i = 0; i < s->ndecl; i++)
        if (take & DL_DECL_BIT(i)) c |= s->decl[i].cards;
    return c;
}

/* What cards score by themselves under the rules (D23, K4): not the
 * majorities. Each value is within +-100000 (dl_lua_torules). */
static int points_of(const dl_Rules *r, dl_Set cards)
{
    const dl_Points *p = &r->points;
    int n = dl_count(cards & dl_rank_mask(0)) * p->ace;
    if (cards & DL_BIT(DL_CARD_10D)) n += p->ten_diamonds;
    if (cards & DL_BIT(DL_CARD_2C)) n += p->two_clubs;
    return n;
}

/* The best of the card's legal captures: most cards, then most points,
 * then most clubs when clubs score, then the generator's first. Returns
 * false when the generator ran out of memory. Calls nothing of Lua's
 * while the list is held, so no error can leak it. */
static bool best_move(const dl_State *s, int card, Best *b)
{
    const bool clubs_score = s->rules.points.clubs > 0;
    dl_MoveList l;
    dl_movelist_init(&l);
    long n = dl_legal_moves(s, &l);
    for (long i = 0; i < n; i++) {
        const dl_Move *m = &l.m[i];
        if (m->kind != DL_CAPTURE || m->card != card) continue;
        dl_Set c = cards_of(s, m->take);
        int count = dl_count(c), points = points_of(&s->rules, c);
        int clubs = clubs_score ? dl_count(c & DL_CLUB_SUIT) : 0;
        if (b->found && (count < b->count || (count == b->count && (points < b->points ||
                         (points == b->points && clubs <= b->clubs)))))
            continue;
        *b = (Best){true, m->take, c, count, points, clubs};
    }
    dl_movelist_free(&l);
    return n >= 0;
}

/* The seat that plays the card: one owning no declaration, so that no
 * obligation of its own (D19) hides a capture. When every seat owns one,
 * the generator is shown that seat's declaration as the next seat's: no
 * rule of capturing looks at who owns what is taken. */
static void seat_mover(dl_State *s, int card)
{
    unsigned owners = 0;
    for (int i = 0; i < s->ndecl; i++) owners |= 1u << s->decl[i].owner;
    int mover = 0;
    while (mover < s->rules.players && (owners & (1u << mover))) mover++;
    if (mover == s->rules.players) {
        mover = 0;
        for (int i = 0; i < s->ndecl; i++)
            if (s->decl[i].owner == 0) s->decl[i].owner = 1;
    }
    s->hand[0] = 0;
    s->hand[mover] = DL_BIT(card);
    s->turn = (uint8_t)mover;
    s->phase = DL_PHASE_PLAY;
}

static void push_cards(lua_State *L, dl_Set cards)
{
    char b[8];
    int n = 0;
    lua_createtable(L, dl_count(cards), 0);
    for (; cards; cards &= cards - 1) {
        dl_card_str(dl_first(cards), b, false);
        lua_pushstring(L, b);
        lua_rawseti(L, -2, ++n);
    }
}

int dl_capture_best(lua_State *L)
{
    dl_box_tick_any(L); /* accounted like every library call of a box */
    int given;
    const int rank = read_what(L, 1, &given);
    if (lua_type(L, 2) != LUA_TTABLE) return luaL_error(L, "best_capture: a table expected (as view.table)");
    dl_Rules r;
    const char *bad = read_rules(L, 3, "best_capture", &r);
    if (bad) {
        char why[WHY];
        snprintf(why, sizeof why, "rules: %s", bad);
        return dl_lua_nil_why(L, why);
    }
    dl_State s;
    dl_state_blank(&s, &r);
    char why[WHY];
    if (!read_table(L, 2, &s, why)) return dl_lua_nil_why(L, why);
    const dl_Set on_table = dl_table_cards(&s);
    const int card = pick_card(on_table, rank, given);
    if (card < 0) {
        lua_pushnil(L);
        return 1;
    }
    /* Every card placed (the rest in the pack) and checked as the engine
     * checks its own states; not yet whose turn it is (seat_mover). */
    s.hand[0] = DL_BIT(card);
    for (dl_Set rest = DL_DECK & ~(on_table | DL_BIT(card)); rest; rest &= rest - 1)
        s.pack[s.pack_len++] = (uint8_t)dl_first(rest);
    s.phase = DL_PHASE_ROUND_OVER;
    const char *e = dl_check_state(&s);
    if (e) return dl_lua_nil_why(L, e);
    seat_mover(&s, card);
    if (!dl_is_face(card) && (e = crowded(L, &s, dl_value(card)))) return dl_lua_nil_why(L, e);
    Best b = {false, 0, 0, 0, 0, 0};
    if (!best_move(&s, card, &b)) return luaL_error(L, "best_capture: out of memory");
    if (!b.found) {
        lua_pushnil(L);
        return 1;
    }
    const uint64_t all_decls = (DL_DECL_BIT(s.ndecl) - 1) & DL_DECL_ITEMS;
    lua_createtable(L, 0, 4);
    push_cards(L, b.cards);
    lua_setfield(L, -2, "cards");
    lua_pushinteger(L, b.count);
    lua_setfield(L, -2, "count");
    lua_pushinteger(L, b.points);
    lua_setfield(L, -2, "points");
    lua_pushboolean(L, (b.take & DL_DECK) == s.loose && (b.take & DL_DECL_ITEMS) == all_decls);
    lua_setfield(L, -2, "sweep");
    return 1;
}

int dl_capture_points(lua_State *L)
{
    dl_box_tick_any(L);
    if (lua_type(L, 1) != LUA_TTABLE) return luaL_error(L, "points: a list of cards expected");
    dl_Rules r;
    const char *bad = read_rules(L, 2, "points", &r);
    char why[WHY];
    if (bad) {
        snprintf(why, sizeof why, "rules: %s", bad);
        return dl_lua_nil_why(L, why);
    }
    dl_Set cards = 0, seen = 0;
    if (!read_cards(L, 1, "cards", "in the list", &cards, &seen, why)) return dl_lua_nil_why(L, why);
    lua_pushinteger(L, points_of(&r, cards));
    return 1;
}
