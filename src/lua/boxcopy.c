/* What crosses between the host and a box: nil, booleans, numbers,
 * strings and tables of them, read raw (no metamethod of either side
 * runs) and copied into the other state, with limits on depth, count and
 * size. Metatables never cross. Functions cross only as handles: a
 * script's function becomes a host stub, a host function a box service
 * valid for one call, and a stub going back into its own box is its
 * function again. */
#include <lauxlib.h>
#include <stdbool.h>
#include <string.h>

#include "box.h"
#include "boxint.h"
#include "boxmoves.h"
#include "gameops.h"
#include "ltext.h"

#define MAX_BYTES ((size_t)64 << 20) /* string bytes in one crossing */
#define MEMO_AFTER 16                 /* tables copied out before the memo */

static int key_ok(int t)
{
    return t == LUA_TSTRING || t == LUA_TNUMBER || t == LUA_TBOOLEAN;
}

/* The box remembers that a crossing limit stopped the call: a house
 * rule's moves hook then loses only that call (lua/scripts/variants.lua). */
static void count(lua_State *L, Crossing *c, size_t bytes)
{
    if (++c->items > DL_BOX_MAX_ITEMS) {
        c->b->crossed = 1;
        luaL_error(L, "too many values to pass between a script and the host (more than %d)",
                   DL_BOX_MAX_ITEMS);
    }
    c->bytes += bytes;
    if (c->bytes > MAX_BYTES) {
        c->b->crossed = 1;
        luaL_error(L, "too much text to pass between a script and the host (more than %d MiB)",
                   (int)(MAX_BYTES >> 20));
    }
}

static void copy_number(lua_State *to, lua_State *from, int idx)
{
    if (lua_isinteger(from, idx))
        lua_pushinteger(to, lua_tointeger(from, idx));
    else
        lua_pushnumber(to, lua_tonumber(from, idx));
}

lua_CFunction dl_box_native(lua_CFunction f)
{
    if (!f) return NULL;
    if (f == dl_box_native_rng) return dl_box_random_s;
    if (f == dl_box_native_time_left) return dl_box_time_left_s;
    if (f == dl_box_native_moves) return dl_box_moves_s;
    /* A game's natives read only their arguments: the same function on
     * both sides. */
    if (dl_is_native(f)) return f;
    return NULL;
}

/* A host function going in: a box native, the box's own function back,
 * or a service of this call. */
static void function_in(lua_State *S, lua_State *H, int idx, Crossing *c)
{
    lua_CFunction f = lua_tocfunction(H, idx), native = dl_box_native(f);
    if (native) {
        lua_pushcfunction(S, native);
        return;
    }
    if (f == dl_box_stub) {
        lua_getupvalue(H, idx, 1);
        Box *owner = lua_touserdata(H, -1);
        lua_pop(H, 1);
        if (owner != c->b) luaL_error(S, "a function of another script cannot be passed in");
        lua_getupvalue(H, idx, 2);
        lua_Integer id = lua_tointeger(H, -1);
        lua_pop(H, 1);
        lua_rawgeti(S, LUA_REGISTRYINDEX, c->b->funcs);
        lua_rawgeti(S, -1, id);
        lua_remove(S, -2);
        return;
    }
    lua_Integer id = 0;
    if (c->map) {
        lua_pushvalue(H, idx);
        lua_rawget(H, c->map);
        id = lua_tointeger(H, -1);
        lua_pop(H, 1);
    }
    if (!id) luaL_error(S, "a function cannot be passed to a script here");
    lua_pushinteger(S, id);
    lua_pushinteger(S, (lua_Integer)c->b->gen);
    lua_pushcclosure(S, dl_box_service, 2);
}

/* The entries of the table at idx past its sequence of len, counted up
 * to a bound: the copy is made at its size at once, not grown by
 * rehashing as a record's fields arrive one by one. */
static int hash_size(lua_State *L, int idx, lua_Unsigned len)
{
    int n = 0;
    /* A list's entries are walked from its last: t[len] is there (len is
     * a border), and what follows it in next's order is what the
     * sequence leaves out, or a few of its own keys (a hint may be
     * over). */
    if (len)
        lua_pushinteger(L, (lua_Integer)len);
    else
        lua_pushnil(L);
    while (n < 256 && lua_next(L, idx)) {
        lua_pop(L, 1);
        n++;
    }
    if (n == 256) lua_pop(L, 1); /* (the key it stopped at) */
    return n;
}

/* ---- built values (box.h) ---- */

/* The metatable of built values, kept in the registry under this key's
 * address: found without a name looked up (a C string's lookup costs
 * more than the rest of checking one, and a moves hook's list is one
 * built value a position). */
static const char BUILT = 0;

typedef struct {
    dl_BoxBuild build; /* NULL once ended */
} Built;

/* The context follows the head at an offset as aligned as Lua's own
 * blocks (a userdata's memory is), whatever the context holds. */
#define CTX_AT ((sizeof(Built) + 15) / 16 * 16)
#define CTX(u) ((const void *)((const char *)(u) + CTX_AT))

void dl_box_push_built(lua_State *H, dl_BoxBuild build, const void *ctx, size_t size)
{
    Built *u = lua_newuserdatauv(H, CTX_AT + size, 0);
    u->build = build;
    memcpy((char *)u + CTX_AT, ctx, size);
    if (lua_rawgetp(H, LUA_REGISTRYINDEX, &BUILT) != LUA_TTABLE) {
        lua_pop(H, 1);
        lua_createtable(H, 0, 1);
        lua_pushboolean(H, 0);
        lua_setfield(H, -2, "__metatable");
        lua_pushvalue(H, -1);
        lua_rawsetp(H, LUA_REGISTRYINDEX, &BUILT);
    }
    lua_setmetatable(H, -2);
}

/* The built value at idx, or NULL for any other value (H has room for
 * two more). */
static Built *built_at(lua_State *H, int idx)
{
    if (lua_type(H, idx) != LUA_TUSERDATA || !lua_getmetatable(H, idx)) return NULL;
    lua_rawgetp(H, LUA_REGISTRYINDEX, &BUILT);
    Built *u = lua_rawequal(H, -1, -2) ? lua_touserdata(H, idx) : NULL;
    lua_pop(H, 2);
    return u;
}

void dl_box_built_end(lua_State *H, int idx)
{
    Built *u = built_at(H, idx);
    if (u) u->build = NULL;
}

/* A built value going in: made in S, its values counted. */
static void built_in(lua_State *S, lua_State *H, int idx, Crossing *c)
{
    if (!lua_checkstack(H, 4)) luaL_error(S, "host stack overflow");
    const Built *u = built_at(H, idx);
    if (!u || !u->build) {
        luaL_error(S, "a userdata cannot be passed to a script");
        return;
    }
    luaL_checkstack(S, 8, "value nested too deep");
    const size_t n = u->build(S, CTX(u));
    if (n > (size_t)(DL_BOX_MAX_ITEMS - c->items)) {
        c->b->crossed = 1;
        luaL_error(S, "too many values to pass between a script and the host (more than %d)", DL_BOX_MAX_ITEMS);
    }
    c->items += (int)n;
}

void dl_box_copy_in(lua_State *S, lua_State *H, int idx, int depth, Crossing *c)
{
    idx = lua_absindex(H, idx);
    switch (lua_type(H, idx)) {
    case LUA_TNIL: count(S, c, 0); lua_pushnil(S); return;
    case LUA_TBOOLEAN: count(S, c, 0); lua_pushboolean(S, lua_toboolean(H, idx)); return;
    case LUA_TNUMBER: count(S, c, 0); copy_number(S, H, idx); return;
    case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(H, idx, &n);
        count(S, c, n);
        lua_pushlstring(S, s, n);
        return;
    }
    case LUA_TFUNCTION: count(S, c, 0); function_in(S, H, idx, c); return;
    case LUA_TUSERDATA: count(S, c, 0); built_in(S, H, idx, c); return;
    case LUA_TTABLE: break;
    default: luaL_error(S, "a %s cannot be passed to a script", luaL_typename(H, idx)); return;
    }
    count(S, c, 0);
    if (depth >= DL_BOX_MAX_DEPTH) {
        c->b->crossed = 1;
        luaL_error(S, "a value nested deeper than %d levels cannot be passed to a script", DL_BOX_MAX_DEPTH);
    }
    if (!lua_checkstack(H, 4)) luaL_error(S, "host stack overflow");
    luaL_checkstack(S, 4, "value nested too deep");
    lua_Unsigned len = lua_rawlen(H, idx);
    lua_createtable(S, len < 1024 ? (int)len : 1024, hash_size(H, idx, len));
    lua_pushnil(H);
    while (lua_next(H, idx)) {
        /* An integer key (a list's) is set by index: the same entry as
         * the generic copy of the key and rawset, at half the cost. */
        if (lua_isinteger(H, -2)) {
            const lua_Integer k = lua_tointeger(H, -2);
            count(S, c, 0);
            dl_box_copy_in(S, H, -1, depth + 1, c);
            lua_rawseti(S, -2, k);
            lua_pop(H, 1);
            continue;
        }
        if (!key_ok(lua_type(H, -2)))
            luaL_error(S, "a table key of type %s cannot be passed to a script", luaL_typename(H, -2));
        dl_box_copy_in(S, H, -2, depth + 1, c);
        dl_box_copy_in(S, H, -1, depth + 1, c);
        lua_rawset(S, -3);
        lua_pop(H, 1);
    }
}

/* A script's function going out: a stub when the crossing allows it. */
static void function_out(lua_State *H, lua_State *S, int idx, Crossing *c)
{
    lua_Integer id = 0;
    if (c->box_ud) {
        lua_rawgeti(S, LUA_REGISTRYINDEX, c->b->funcs);
        lua_pushvalue(S, idx);
        lua_rawget(S, -2);
        id = lua_tointeger(S, -1);
        lua_pop(S, 2);
    }
    if (!id) luaL_error(H, "a script returned a function where only data is allowed");
    lua_pushvalue(H, c->box_ud);
    lua_pushinteger(H, id);
    lua_pushcclosure(H, dl_box_stub, 2);
}

const char dl_box_lazy_key = 0;

/* Pushes onto H what the lazy table at from's idx stands for (box.h), or
 * returns false for any other table. Reads from without allocating. */
static bool lazy_copy(lua_State *H, lua_State *from, int idx, Crossing *c)
{
    if (!lua_getmetatable(from, idx)) return false;
    const dl_BoxLazy *z = NULL;
    if (lua_rawgetp(from, -1, &dl_box_lazy_key) == LUA_TUSERDATA) z = lua_touserdata(from, -1);
    lua_pushvalue(from, idx);
    lua_rawget(from, -3);
    const lua_Integer i = lua_tointeger(from, -1);
    lua_pop(from, 3);
    if (!z) return false;
    for (size_t n = z->to_host(H, z, i); n > 1; n--) count(H, c, 0);
    return true;
}

/* Pushes onto H an empty table the size of from's table at idx (or a
 * lazy table's own), the copy of it going out, counted and held to the
 * depth limit. */
static void new_copy(lua_State *H, lua_State *from, int idx, int depth, Crossing *c)
{
    count(H, c, 0);
    if (depth >= DL_BOX_MAX_DEPTH) {
        c->b->crossed = 1;
        luaL_error(H, "a script returned a value nested deeper than %d levels (a table inside itself?)",
                   DL_BOX_MAX_DEPTH);
    }
    luaL_checkstack(H, 6, "value nested too deep");
    if (lazy_copy(H, from, idx, c)) return;
    const lua_Unsigned len = lua_rawlen(from, idx);
    lua_createtable(H, len < 1024 ? (int)len : 1024, hash_size(from, idx, len));
}

/* A host copy at idx copied again within H, counted and limited as the
 * script's table it stands for. */
static void copy_again(lua_State *H, int idx, int depth, Crossing *c)
{
    idx = lua_absindex(H, idx);
    if (lua_type(H, idx) != LUA_TTABLE) {
        size_t n = 0;
        if (lua_type(H, idx) == LUA_TSTRING) lua_tolstring(H, idx, &n);
        count(H, c, n);
        lua_pushvalue(H, idx); /* (its strings are cleaned, its functions stubs) */
        return;
    }
    new_copy(H, H, idx, depth, c);
    lua_pushnil(H);
    while (lua_next(H, idx)) {
        copy_again(H, -2, depth + 1, c);
        copy_again(H, -2, depth + 1, c);
        lua_rawset(H, -5);
        lua_pop(H, 1);
    }
}

void dl_box_copy_out(lua_State *H, lua_State *S, int idx, int depth, Crossing *c)
{
    idx = lua_absindex(S, idx);
    switch (lua_type(S, idx)) {
    case LUA_TNIL: count(H, c, 0); lua_pushnil(H); return;
    case LUA_TBOOLEAN: count(H, c, 0); lua_pushboolean(H, lua_toboolean(S, idx)); return;
    case LUA_TNUMBER: count(H, c, 0); copy_number(H, S, idx); return;
    case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(S, idx, &n);
        /* Counted as the host will hold it: cleaning may triple it. */
        count(H, c, dl_clean_needed(s, n) ? dl_clean_len(s, n) : n);
        dl_clean_push(H, s, n);
        return;
    }
    case LUA_TFUNCTION: count(H, c, 0); function_out(H, S, idx, c); return;
    case LUA_TTABLE: break;
    default: luaL_error(H, "a script returned a %s, which cannot be passed on", luaL_typename(S, idx)); return;
    }
    /* A table met again is copied from its first copy: walking the
     * script's table would cost its empty slots each time (one sparse
     * table in a million places kept the host copying for hours), and
     * a copy is dense. Each place still gets its own copy, counted. The
     * first few tables are walked as they come: most answers have no
     * more, and would pay for the memo. */
    const void *p = lua_topointer(S, idx);
    if (c->memo && ++c->tables > MEMO_AFTER) {
        if (lua_type(H, c->memo) != LUA_TTABLE) {
            lua_newtable(H);
            lua_replace(H, c->memo);
        }
        if (lua_rawgetp(H, c->memo, p) == LUA_TTABLE) {
            copy_again(H, -1, depth, c);
            lua_remove(H, -2);
            return;
        }
        lua_pop(H, 1);
    }
    new_copy(H, S, idx, depth, c);
    lua_pushnil(S);
    while (lua_next(S, idx)) {
        if (!key_ok(lua_type(S, -2)))
            luaL_error(H, "a script returned a table with a key of type %s", luaL_typename(S, -2));
        dl_box_copy_out(H, S, -2, depth + 1, c);
        dl_box_copy_out(H, S, -1, depth + 1, c);
        lua_rawset(H, -3);
        lua_pop(S, 1);
    }
    /* (only once whole: a table inside itself still meets the depth limit) */
    if (c->memo && lua_type(H, c->memo) == LUA_TTABLE) {
        lua_pushvalue(H, -1);
        lua_rawsetp(H, c->memo, p);
    }
}

void dl_box_register(lua_State *S, int idx, int fidx, int depth, Box *b)
{
    idx = lua_absindex(S, idx);
    int t = lua_type(S, idx);
    /* Each table is walked once (fidx + 1 holds those seen), and the walk
     * is counted: tables sharing subtables must not make it exponential. */
    if (++b->walked > DL_BOX_MAX_ITEMS)
        luaL_error(S, "a script returned more than %d values", DL_BOX_MAX_ITEMS);
    if (t == LUA_TFUNCTION) {
        lua_pushvalue(S, idx);
        if (lua_rawget(S, fidx) == LUA_TNIL) {
            lua_pushvalue(S, idx);
            lua_rawseti(S, fidx, ++b->nfuncs);
            lua_pushvalue(S, idx);
            lua_pushinteger(S, b->nfuncs);
            lua_rawset(S, fidx);
        }
        lua_pop(S, 1);
        return;
    }
    if (t != LUA_TTABLE || depth >= DL_BOX_MAX_DEPTH) return;
    luaL_checkstack(S, 4, "value nested too deep");
    lua_pushvalue(S, idx);
    if (lua_rawget(S, fidx + 1) != LUA_TNIL) {
        lua_pop(S, 1);
        return;
    }
    lua_pop(S, 1);
    lua_pushvalue(S, idx);
    lua_pushboolean(S, 1);
    lua_rawset(S, fidx + 1);
    lua_pushnil(S);
    while (lua_next(S, idx)) {
        dl_box_register(S, -1, fidx, depth + 1, b);
        lua_pop(S, 1);
    }
}
