/* Pilotta's actions as Lua values (lplaction.h). Each field's value is
 * said once, in push_value: the whole tables and the fields a house
 * rule's box reads one by one are made alike. */
#include "pilotta/lua/lplaction.h"

#include <lauxlib.h>
#include <string.h>

#include "box.h"
#include "pilotta/decl.h"
#include "pilotta/lua/lplview.h"
#include "pilotta/notation.h"

/* The fields of an action's table. For a whole list their keys come from
 * a table kept in the registry (push_keys): setting a field by a key
 * already made skips looking its text up, which is most of what a field
 * costs. */
enum { K_TEXT, K_INDEX, K_KIND, K_SEAT, K_VALUE, K_CAPOT, K_SUIT, K_CARDS, K_CARD, K_BELOTE, K_N };
static const char *const KEY[K_N] = {"text", "index", "kind", "seat", "value",
                                     "capot", "suit", "cards", "card", "belote"};

/* In the table of keys, after the fields' keys: the kinds' names, then
 * META's. */
#define KIND_NAME(kind) (K_N + (kind) + 1)
#define META_KEY(j) (K_N + PL_PLAY + 2 + (j))

/* Pushes key k: from the table of keys at stack index keys, or by name
 * (keys 0). */
static void key(lua_State *L, int keys, int k)
{
    if (keys) lua_rawgeti(L, keys, k + 1);
    else lua_pushstring(L, KEY[k]);
}

/* An action and what its fields read of its position: the state itself,
 * or (a lazy list's, which keeps no state) the few things read. */
typedef struct {
    const pl_Action *a;
    const pl_State *s; /* or NULL: turn, shown and pending say it */
    int turn;
    pl_Set shown;
    bool pending;
} Act;

static Act act_in(const pl_State *s, const pl_Action *a)
{
    const Act x = {a, s, s->turn, 0, false};
    return x;
}

static void push_text(lua_State *L, const Act *x)
{
    char buf[160];
    const int n = x->s ? pl_action_str(x->s, x->a, buf, sizeof buf, false)
                       : pl_action_text(x->a, x->shown, x->pending, buf, sizeof buf, false);
    lua_pushlstring(L, buf, (size_t)n);
}

/* Pushes field k of the action, or nil when an action of its kind has
 * none (index: its callers' own). */
static void push_value(lua_State *L, const Act *x, int k)
{
    const pl_Action *a = x->a;
    pl_Decl d;
    char c;
    switch (k) {
    case K_TEXT: push_text(L, x); return;
    case K_KIND: lua_pushstring(L, pl_lua_kinds[a->kind]); return;
    case K_SEAT: lua_pushinteger(L, x->turn); return;
    case K_VALUE:
        if (a->kind == PL_BID) {
            lua_pushinteger(L, a->value == PL_CAPOT ? 250 : a->value * 10);
            return;
        }
        if (a->kind == PL_ANNOUNCE && pl_decl_classify(a->cards, &d)) {
            lua_pushinteger(L, d.value);
            return;
        }
        break;
    case K_CAPOT:
        if (a->kind != PL_BID) break;
        lua_pushboolean(L, a->value == PL_CAPOT);
        return;
    case K_SUIT:
        if ((a->kind != PL_BID && a->kind != PL_TRUMP) || a->suit < 0) break;
        c = pl_suit_char(a->suit);
        lua_pushlstring(L, &c, 1);
        return;
    case K_CARDS:
        if (a->kind != PL_ANNOUNCE) break;
        pl_lua_pushcards(L, a->cards);
        return;
    case K_CARD:
        if (a->kind != PL_PLAY) break;
        pl_lua_pushcard(L, a->card);
        return;
    case K_BELOTE:
        if (a->kind != PL_PLAY) break;
        lua_pushboolean(L, a->belote);
        return;
    default: break;
    }
    lua_pushnil(L);
}

/* Sets field k (when the action has it) on the table on top. A played
 * card's name is the text itself when that is the name alone (no belote
 * said): one string, made once. */
static void set_field(lua_State *L, const Act *x, int keys, int k)
{
    key(L, keys, k);
    if (k == K_CARD && keys) {
        key(L, keys, K_TEXT);
        lua_rawget(L, -3);
        if (lua_rawlen(L, -1) <= 3) {
            lua_rawset(L, -3);
            return;
        }
        lua_pop(L, 1);
    }
    push_value(L, x, k);
    lua_rawset(L, -3);
}

/* The fields after text, index, kind and seat, by the action's kind. */
static const signed char KIND_FIELDS[][3] = {
    [PL_BID] = {K_VALUE, K_CAPOT, K_SUIT},
    [PL_TRUMP] = {K_SUIT, -1, -1},
    [PL_ANNOUNCE] = {K_CARDS, K_VALUE, -1},
    [PL_PLAY] = {K_CARD, K_BELOTE, -1},
    [PL_PASS] = {-1, -1, -1},
    [PL_CONTRA] = {-1, -1, -1},
    [PL_RECONTRA] = {-1, -1, -1},
    [PL_SHOW] = {-1, -1, -1},
};

/* Fills the fresh table on top (fields are set raw). keys: see key(). */
static void set_action(lua_State *L, const Act *x, lua_Integer index, const char *text, int keys)
{
    const pl_Action *a = x->a;
    key(L, keys, K_TEXT);
    if (text) lua_pushstring(L, text);
    else push_text(L, x);
    lua_rawset(L, -3);
    if (index) {
        key(L, keys, K_INDEX);
        lua_pushinteger(L, index);
        lua_rawset(L, -3);
    }
    key(L, keys, K_KIND);
    if (keys) lua_rawgeti(L, keys, KIND_NAME(a->kind));
    else lua_pushstring(L, pl_lua_kinds[a->kind]);
    lua_rawset(L, -3);
    key(L, keys, K_SEAT);
    lua_pushinteger(L, x->turn);
    lua_rawset(L, -3);
    for (int f = 0; f < 3 && KIND_FIELDS[a->kind][f] >= 0; f++) set_field(L, x, keys, KIND_FIELDS[a->kind][f]);
}

void pl_lua_setaction(lua_State *L, const pl_State *s, const pl_Action *a, lua_Integer index, const char *text)
{
    const Act x = act_in(s, a);
    set_action(L, &x, index, text, 0);
}

void pl_lua_pushaction(lua_State *L, const pl_State *s, const pl_Action *a, lua_Integer index)
{
    lua_createtable(L, 0, 8);
    pl_lua_setaction(L, s, a, index, NULL);
}

/* The registry's table of the fields' keys, the kinds' names and a lazy
 * list's metatable's keys, made once in each Lua state that is handed a
 * list. */
static const char KEYS = 0;
static const char *const META[] = {"__index", "__newindex", "__pairs"};

static int push_keys(lua_State *L)
{
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &KEYS) == LUA_TTABLE) return lua_gettop(L);
    lua_pop(L, 1);
    lua_createtable(L, META_KEY(3), 0);
    for (int k = 0; k < K_N; k++) {
        lua_pushstring(L, KEY[k]);
        lua_rawseti(L, -2, k + 1);
    }
    for (int k = 0; k <= PL_PLAY; k++) {
        lua_pushstring(L, pl_lua_kinds[k]);
        lua_rawseti(L, -2, KIND_NAME(k));
    }
    for (int j = 0; j < 3; j++) {
        lua_pushstring(L, META[j]);
        lua_rawseti(L, -2, META_KEY(j));
    }
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &KEYS);
    return lua_gettop(L);
}

void pl_lua_pushlist(lua_State *L, const pl_State *s, const pl_Action *a, lua_Integer n)
{
    luaL_checkstack(L, 8, "out of Lua stack");
    const int keys = push_keys(L);
    lua_createtable(L, (int)n, 0);
    for (lua_Integer i = 0; i < n; i++) {
        const Act x = act_in(s, &a[i]);
        lua_createtable(L, 0, 8);
        set_action(L, &x, 0, NULL, keys);
        lua_rawseti(L, -2, i + 1);
    }
    lua_remove(L, keys);
}

/* ---- the list whose fields are made when read ----
 *
 * A hook mostly reads a field or two of each move (no-contra: the kind):
 * making every field of every move was most of what a hooked position
 * cost. The list's tables share one metatable, which scripts cannot
 * read (a box has no getmetatable): it holds what the moves' fields read
 * of the position (a copy: the game may change while a script keeps a
 * move) under dl_box_lazy_key, and each table's number under the table
 * itself. A move holds no key of its own until the script writes in it,
 * which makes it plain (make_plain). A script may set another metatable
 * on a move, as on any table: a move not yet written in then holds
 * nothing. */

typedef struct {
    dl_BoxLazy head; /* first (box.h) */
    int turn;
    pl_Set shown; /* the cards the seat to act announced (a show's) */
    lua_Integer n;
    pl_Action a[]; /* then n bytes: whether each is a belote's first card */
} Lazy;

#define PENDING(z) ((const unsigned char *)((z)->a + (z)->n))

static Act act_at(const Lazy *z, lua_Integer i)
{
    const pl_Action *a = &z->a[i - 1];
    const Act x = {a, NULL, z->turn, a->kind == PL_SHOW ? z->shown : 0, PENDING(z)[i - 1] != 0};
    return x;
}

/* The position and number (1..n) of the lazy move at idx, or NULL. */
static const Lazy *lazy_at(lua_State *L, int idx, lua_Integer *i)
{
    const Lazy *z = NULL;
    if (!lua_getmetatable(L, idx)) return NULL;
    if (lua_rawgetp(L, -1, &dl_box_lazy_key) == LUA_TUSERDATA) z = lua_touserdata(L, -1);
    lua_pushvalue(L, idx);
    lua_rawget(L, -3);
    *i = lua_tointeger(L, -1);
    lua_pop(L, 3);
    return z && *i >= 1 && *i <= z->n ? z : NULL;
}

/* (by length too: "text\0" is no field) */
static int field_of(const char *k, size_t len)
{
    for (int f = 0; f < K_N; f++)
        if (k[0] == KEY[f][0] && strlen(KEY[f]) == len && memcmp(k, KEY[f], len) == 0) return f;
    return -1;
}

typedef struct {
    const Lazy *z;
    lua_Integer i;
} Plain;

/* Sets every field of the move (1) in it: the position at 2, the keys
 * at 3. Run protected: at the box's cap it may fail half way. */
static int fill_plain(lua_State *L)
{
    const Plain *p = lua_touserdata(L, 2);
    const Act x = act_at(p->z, p->i);
    lua_settop(L, 3);
    lua_pushvalue(L, 1);
    set_action(L, &x, 0, NULL, 3);
    return 0;
}

/* Makes the lazy move at idx (number i of z) a plain table: its fields
 * set in it, the engine's metatable taken off. A move a script writes in
 * (each first write to a lazy move comes here: it holds no key of its
 * own), or whose cards it reads (a table: the same one at every read
 * after), is a plain one from then on. All or nothing: a move the cap
 * stops half way is left lazy and empty, and the error goes on
 * (attack33 finding 2). keys: the table of keys' index. */
static void make_plain(lua_State *L, int idx, const Lazy *z, lua_Integer i, int keys)
{
    idx = lua_absindex(L, idx);
    Plain p = {z, i};
    lua_pushcfunction(L, fill_plain);
    lua_pushvalue(L, idx);
    lua_pushlightuserdata(L, &p);
    lua_pushvalue(L, keys);
    if (lua_pcall(L, 3, 0, 0) != LUA_OK) {
        /* (taking a field out makes nothing) */
        for (int f = 0; f < K_N; f++) {
            lua_rawgeti(L, keys, f + 1);
            if (lua_rawget(L, idx) != LUA_TNIL) {
                lua_pop(L, 1);
                lua_rawgeti(L, keys, f + 1);
                lua_pushnil(L);
                lua_rawset(L, idx);
            } else {
                lua_pop(L, 1);
            }
        }
        lua_error(L);
    }
    lua_pushnil(L);
    lua_setmetatable(L, idx);
}

/* __index(move, k) and __newindex(move, k, v), one closure of the
 * position: its metatable, copy and the table of keys are its upvalues
 * (nothing looked up a read). A field read is made then, not kept: a
 * hook that reads it twice pays twice, one that never reads it nothing. */
static int lazy_access(lua_State *L)
{
    const Lazy *z = lua_touserdata(L, lua_upvalueindex(2));
    const int keys = lua_upvalueindex(3);
    const bool write = lua_gettop(L) >= 3;
    lua_pushvalue(L, 1);
    lua_rawget(L, lua_upvalueindex(1));
    const lua_Integer i = lua_tointeger(L, -1);
    lua_pop(L, 1);
    const bool ours = i >= 1 && i <= z->n;
    if (write) {
        if (ours) make_plain(L, 1, z, i, keys);
        lua_settop(L, 3);
        lua_rawset(L, 1);
        return 0;
    }
    size_t len = 0;
    const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tolstring(L, 2, &len) : NULL;
    const int f = k && ours ? field_of(k, len) : -1;
    if (f < 0 || f == K_INDEX) return 0;
    const Act x = act_at(z, i);
    if (f == K_KIND) {
        lua_rawgeti(L, keys, KIND_NAME(x.a->kind));
    } else if (f == K_CARDS) {
        make_plain(L, 1, z, i, keys);
        lua_settop(L, 2);
        lua_rawget(L, 1);
    } else {
        push_value(L, &x, f);
    }
    return 1;
}

/* pairs(move) walks a copy of its fields (a lazy move holds no key of
 * its own: the first write makes it plain). */
static int lazy_next(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    if (lua_next(L, 1)) return 2;
    lua_pushnil(L);
    return 1;
}

static int lazy_pairs(lua_State *L)
{
    lua_Integer i = 0;
    const Lazy *z = lazy_at(L, 1, &i);
    luaL_checkstack(L, 6, "out of Lua stack");
    lua_pushcfunction(L, lazy_next);
    lua_createtable(L, 0, 8);
    if (z) {
        const Act x = act_at(z, i);
        set_action(L, &x, 0, NULL, 0);
    }
    lua_pushnil(L);
    return 3;
}

/* The move going out of the box: the whole table it stands for. */
static size_t lazy_to_host(lua_State *H, const void *self, lua_Integer i)
{
    const Lazy *z = self;
    lua_createtable(H, 0, 8);
    if (i < 1 || i > z->n) return 1;
    const Act x = act_at(z, i);
    set_action(H, &x, 0, NULL, 0);
    /* (at most: seven fields, their values and a declaration's cards) */
    return 1 + 14 + 8;
}

/* Pushes the position's copy: what the moves' fields read. */
static void push_lazy(lua_State *L, const pl_State *s, const pl_Action *a, lua_Integer n)
{
    Lazy *z = lua_newuserdatauv(L, sizeof(Lazy) + (size_t)n * (sizeof *a + 1), 0);
    z->head.to_host = lazy_to_host;
    z->turn = s->turn;
    z->shown = 0;
    z->n = n;
    if (n) memcpy(z->a, a, (size_t)n * sizeof *a);
    unsigned char *pending = (unsigned char *)(z->a + n);
    for (lua_Integer i = 0; i < n; i++) {
        pending[i] = pl_action_pending(s, &a[i]);
        if (a[i].kind == PL_SHOW) z->shown = pl_action_shown(s, &a[i]);
    }
}

void pl_lua_pushlazylist(lua_State *L, const pl_State *s, const pl_Action *a, lua_Integer n)
{
    luaL_checkstack(L, 8, "out of Lua stack");
    const int keys = push_keys(L);
    lua_createtable(L, (int)n, 0);
    lua_createtable(L, 0, (int)n + 4);
    const int mt = lua_gettop(L);
    push_lazy(L, s, a, n);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, mt, &dl_box_lazy_key);
    lua_pushvalue(L, mt);
    lua_rotate(L, -2, 1); /* (the copy on top) */
    lua_pushvalue(L, keys);
    lua_pushcclosure(L, lazy_access, 3);
    for (int j = 0; j < 2; j++) {
        lua_rawgeti(L, keys, META_KEY(j));
        lua_pushvalue(L, -2);
        lua_rawset(L, mt);
    }
    lua_pop(L, 1);
    lua_rawgeti(L, keys, META_KEY(2));
    lua_pushcfunction(L, lazy_pairs);
    lua_rawset(L, mt);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_createtable(L, 0, 0);
        lua_pushvalue(L, -2);
        lua_setmetatable(L, -2);
        lua_pushvalue(L, -1);
        lua_pushinteger(L, i);
        lua_rawset(L, -4);
        lua_rawseti(L, -3, i);
    }
    lua_pop(L, 1);
    lua_remove(L, keys);
}
