/* The moves hook's call inside the box (boxmoves.h). Its loops are
 * bounded by the list the engine made (a few thousand moves at most),
 * and still tick the box's clock. */
#include "boxmoves.h"

#include <lauxlib.h>
#include <stdbool.h>

#include "boxlib.h"

/* The list as it came, kept across calls in the box's registry: no table
 * is made for it each time (what lies past a shorter list is never
 * read). */
static const char GIVEN = 0;

/* How many entries a loop goes through between two looks at the clock. */
#define TICK_EVERY 1024

int dl_box_native_moves(lua_State *H)
{
    return luaL_error(H, "core.box.moves works only inside a house rule's box");
}

static void tick(lua_State *S, lua_Unsigned i)
{
    if (i % TICK_EVERY == 0) dl_box_tick_any(S);
}

/* Pushes the table kept for the list, filled with its n moves. */
static int snapshot(lua_State *S, int list, lua_Unsigned n)
{
    if (lua_rawgetp(S, LUA_REGISTRYINDEX, &GIVEN) != LUA_TTABLE) {
        lua_pop(S, 1);
        lua_createtable(S, n < 64 ? (int)n : 64, 0);
        lua_pushvalue(S, -1);
        lua_rawsetp(S, LUA_REGISTRYINDEX, &GIVEN);
    }
    const int given = lua_gettop(S);
    for (lua_Unsigned i = 1; i <= n; i++) {
        tick(S, i);
        lua_rawgeti(S, list, (lua_Integer)i);
        lua_rawseti(S, given, (lua_Integer)i);
    }
    return given;
}

/* Whether the first n entries of kept are those of given, each the same
 * value. */
static bool same_list(lua_State *S, int kept, int given, lua_Unsigned n)
{
    for (lua_Unsigned i = 1; i <= n; i++) {
        tick(S, i);
        lua_rawgeti(S, kept, (lua_Integer)i);
        lua_rawgeti(S, given, (lua_Integer)i);
        const bool same = lua_rawequal(S, -1, -2);
        lua_pop(S, 2);
        if (!same) return false;
    }
    return true;
}

/* Whether the value on top may be a table key (not nil, not NaN). */
static bool keyable(lua_State *S)
{
    if (lua_isnil(S, -1)) return false;
    if (lua_type(S, -1) == LUA_TNUMBER && !lua_isinteger(S, -1)) {
        const lua_Number x = lua_tonumber(S, -1);
        return x == x;
    }
    return true;
}

/* Pushes kept's first k entries, each move of given as its place there. */
static void numbered(lua_State *S, int kept, int given, lua_Unsigned n, lua_Unsigned k)
{
    lua_createtable(S, 0, (int)n);
    const int at = lua_gettop(S);
    for (lua_Unsigned i = 1; i <= n; i++) {
        tick(S, i);
        lua_rawgeti(S, given, (lua_Integer)i);
        if (keyable(S)) {
            lua_pushinteger(S, (lua_Integer)i);
            lua_rawset(S, at);
        } else {
            lua_pop(S, 1);
        }
    }
    lua_createtable(S, (int)k, 0);
    for (lua_Unsigned i = 1; i <= k; i++) {
        tick(S, i);
        if (lua_rawgeti(S, kept, (lua_Integer)i) == LUA_TNIL) {
            lua_pop(S, 1);
            lua_pushboolean(S, 0);
        }
        lua_pushvalue(S, -1);
        if (lua_rawget(S, at) != LUA_TNIL) lua_remove(S, -2);
        else lua_pop(S, 1);
        lua_rawseti(S, -2, (lua_Integer)i);
    }
    lua_remove(S, at);
}

int dl_box_moves_s(lua_State *S)
{
    luaL_checktype(S, 1, LUA_TFUNCTION);
    luaL_checktype(S, 2, LUA_TTABLE);
    const int nargs = lua_gettop(S);
    const lua_Unsigned n = lua_rawlen(S, 2);
    luaL_checkstack(S, nargs + 8, "too many arguments");
    const int given = snapshot(S, 2, n);
    for (int i = 1; i <= nargs; i++) lua_pushvalue(S, i);
    lua_call(S, nargs - 1, 2);
    const int kept = given + 1;
    if (!lua_istable(S, kept)) {
        lua_pushvalue(S, 2);
        lua_replace(S, kept);
    }
    const lua_Unsigned k = lua_rawlen(S, kept);
    lua_pushnil(S);
    if (k > n)
        lua_pushvalue(S, kept);
    else if (k == n && same_list(S, kept, given, n))
        lua_pushboolean(S, 1);
    else
        numbered(S, kept, given, n, k);
    lua_pushvalue(S, kept + 1);
    return 3;
}
