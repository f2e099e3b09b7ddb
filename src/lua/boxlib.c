/* What a script may call: the safe parts of base, string, table, math and
 * utf8, and nothing else (no io, os, debug, load, require, coroutine,
 * collectgarbage, getmetatable, rawset, print, string.dump). Every
 * function is wrapped so that it first looks at the call's clock: the
 * count hook cannot fire inside C, and a loop of costly calls would
 * otherwise outrun the time limit many times over. The functions that
 * could run long inside one call refuse the inputs that would. */
#include <lauxlib.h>
#include <lualib.h>
#include <stdint.h>
#include <string.h>

#include "boxlib.h"
#include "rng.h"

/* Past these, one call would run for more than ~50 ms. */
#define MAX_MOVE (1 << 20)  /* elements table.move copies */
#define MAX_SHIFT (1 << 20) /* elements table.insert/remove shift */
#define MAX_SORT 100000     /* elements table.sort orders */
/* A table with a metatable may send each access down a chain of up to
 * 2,000 __index tables (~40 us) inside the same C call. */
#define MAX_META 1000

static const char *const GLOBALS[] = {"assert", "error",  "ipairs",   "next",     "pairs",
                                      "pcall",  "select", "tonumber", "tostring", "type",
                                      "xpcall", "rawequal", "rawget", "rawlen",   "setmetatable",
                                      "string", "table",  "math",     "utf8",     "_G",
                                      "_VERSION", NULL};

/* The key of a box's env in its registry (dl_box_tick_any). */
static const char ENV_KEY = 'e';

static void tick(lua_State *S)
{
    dl_box_env(S)->tick(S);
}

/* A guard's upvalue is the library's own function (a light C function:
 * nothing of it is kept outside the state). */
static int call_real(lua_State *S)
{
    return lua_tocfunction(S, lua_upvalueindex(1))(S);
}

static int guard(lua_State *S)
{
    tick(S);
    return call_real(S);
}

void dl_box_tick_any(lua_State *L)
{
    int is_box = lua_rawgetp(L, LUA_REGISTRYINDEX, &ENV_KEY) == LUA_TLIGHTUSERDATA;
    lua_pop(L, 1);
    if (is_box) tick(L);
}

/* Calls the function this closure wraps (upvalue 1) with its arguments:
 * the first result. */
static int call_wrapped(lua_State *S)
{
    lua_pushvalue(S, lua_upvalueindex(1));
    lua_insert(S, 1);
    lua_call(S, lua_gettop(S) - 1, 1);
    return 1;
}

/* The script's message handler (upvalue 1), skipped once a limit has
 * tripped: a limit's error is raised in the count hook, where Lua runs
 * no hook, and a handler runs where its error was raised, so one that
 * looped there could never be stopped. The limit's message goes on. */
static int handle(lua_State *S)
{
    if (dl_box_env(S)->tripped(S)) return 1;
    return call_wrapped(S);
}

static int g_xpcall(lua_State *S)
{
    tick(S);
    luaL_checktype(S, 2, LUA_TFUNCTION);
    lua_pushvalue(S, 2);
    lua_pushcclosure(S, handle, 1);
    lua_replace(S, 2);
    return call_real(S);
}

/* string.rep("", huge) loops in C without allocating anything. */
static int g_rep(lua_State *S)
{
    size_t l, lsep = 0;
    tick(S);
    luaL_checklstring(S, 1, &l);
    lua_Integer n = luaL_checkinteger(S, 2);
    luaL_optlstring(S, 3, "", &lsep);
    if (n > 0 && l + lsep == 0) {
        lua_pushliteral(S, "");
        return 1;
    }
    /* (a result too long is refused by the real one, unbuilt) */
    if (n > 0 && (lua_Unsigned)n <= SIZE_MAX / (l + lsep)) dl_box_env(S)->room(S, (size_t)n * (l + lsep));
    return call_real(S);
}

/* string.upper, lower and reverse build their result in a buffer as
 * long as their string, whose growth Lua does not retry after a
 * collection: room is made for it first (box.c; gsub: lpattern.c). */
static int g_sized(lua_State *S)
{
    tick(S);
    if (lua_type(S, 1) == LUA_TSTRING) dl_box_env(S)->room(S, lua_rawlen(S, 1));
    return call_real(S);
}

/* tostring without addresses: a table is "table", a function "function". */
static void push_safe_string(lua_State *S, int i)
{
    if (luaL_getmetafield(S, i, "__tostring") != LUA_TNIL) {
        lua_pop(S, 1);
        luaL_tolstring(S, i, NULL);
        return;
    }
    switch (lua_type(S, i)) {
    case LUA_TTABLE:
    case LUA_TFUNCTION:
    case LUA_TUSERDATA:
    case LUA_TLIGHTUSERDATA:
    case LUA_TTHREAD: lua_pushstring(S, luaL_typename(S, i)); break;
    default: luaL_tolstring(S, i, NULL); break;
    }
}

static int g_tostring(lua_State *S)
{
    tick(S);
    luaL_checkany(S, 1);
    push_safe_string(S, 1);
    return 1;
}

/* string.format without %p, and %s of a table without its address. */
static int g_format(lua_State *S)
{
    size_t n;
    tick(S);
    const char *f = luaL_checklstring(S, 1, &n);
    int arg = 1, top = lua_gettop(S);
    for (size_t i = 0; i < n; i++) {
        if (f[i] != '%') continue;
        if (++i < n && f[i] == '%') continue;
        while (i < n && f[i] && strchr("-+ #0123456789.", f[i])) i++;
        if (i >= n) break;
        arg++;
        if (f[i] == 'p') return luaL_error(S, "string.format: '%%p' is not available to scripts");
        if (f[i] == 's' && arg <= top && lua_type(S, arg) != LUA_TSTRING && lua_type(S, arg) != LUA_TNUMBER) {
            push_safe_string(S, arg);
            lua_replace(S, arg);
        }
    }
    return call_real(S);
}

/* Elements first..last (unsigned: last - first may not fit an integer)
 * of the table at idx: refused past max, or past MAX_META when the table
 * has a metatable. */
static void span_check(lua_State *S, int idx, lua_Integer first, lua_Integer last, lua_Unsigned max,
                       const char *fname)
{
    if (last < first) return;
    lua_Unsigned n = (lua_Unsigned)last - (lua_Unsigned)first;
    if (n >= max) luaL_error(S, "%s: more than %d elements at once", fname, (int)max);
    if (n >= MAX_META && lua_getmetatable(S, idx))
        luaL_error(S, "%s: more than %d elements of a table with a metatable", fname, MAX_META);
}

static int g_move(lua_State *S)
{
    tick(S);
    lua_Integer f = luaL_checkinteger(S, 2), e = luaL_checkinteger(S, 3);
    span_check(S, 1, f, e, MAX_MOVE, "table.move");
    if (!lua_isnoneornil(S, 5)) span_check(S, 5, f, e, MAX_MOVE, "table.move");
    return call_real(S);
}

/* The default order, one comparison at a time under the clock: two
 * strings full of NULs may take ~10 ms to compare. */
static int less_ticking(lua_State *S)
{
    tick(S);
    lua_pushboolean(S, lua_compare(S, 1, 2, LUA_OPLT));
    return 1;
}

/* A comparator that is a C function, under the clock: sort calls it from
 * C, so no count hook comes between the calls, and the library functions
 * run unguarded (wrap_all) may cost a string's length (math.tointeger
 * converts one, rawequal compares two): a sort of references to a
 * megabyte of spaces by math.tointeger ran for minutes. */
static int compare_ticking(lua_State *S)
{
    tick(S);
    return call_wrapped(S);
}

static int g_sort(lua_State *S)
{
    tick(S);
    luaL_checktype(S, 1, LUA_TTABLE);
    span_check(S, 1, 1, luaL_len(S, 1), MAX_SORT, "table.sort");
    if (lua_isnoneornil(S, 2)) {
        lua_settop(S, 1);
        lua_pushcfunction(S, less_ticking);
    } else if (lua_iscfunction(S, 2)) {
        lua_settop(S, 2);
        lua_pushcclosure(S, compare_ticking, 1);
    }
    return call_real(S);
}

/* unpack(t, i, j) and concat(t, sep, i, j): the elements i..j, the
 * arguments from `at` on (the defaults as Lua's). */
static void range_check(lua_State *S, int at, const char *fname)
{
    if (lua_type(S, 1) != LUA_TTABLE) return;
    lua_Integer i = luaL_optinteger(S, at, 1);
    lua_Integer j = lua_isnoneornil(S, at + 1) ? luaL_len(S, 1) : luaL_checkinteger(S, at + 1);
    span_check(S, 1, i, j, (lua_Unsigned)1 << 62, fname);
}

static int g_unpack(lua_State *S)
{
    tick(S);
    range_check(S, 2, "table.unpack");
    return call_real(S);
}

static int g_concat(lua_State *S)
{
    tick(S);
    range_check(S, 3, "table.concat");
    return call_real(S);
}

/* insert at a position and remove shift every element after it; the
 * length may come from a __len that lies. */
static int g_insert(lua_State *S)
{
    tick(S);
    if (lua_gettop(S) == 3) {
        luaL_checktype(S, 1, LUA_TTABLE);
        lua_Integer n = luaL_len(S, 1), pos = luaL_checkinteger(S, 2);
        span_check(S, 1, pos, n, MAX_SHIFT, "table.insert");
    }
    return call_real(S);
}

static int g_remove(lua_State *S)
{
    tick(S);
    luaL_checktype(S, 1, LUA_TTABLE);
    lua_Integer n = luaL_len(S, 1), pos = luaL_optinteger(S, 2, n);
    span_check(S, 1, pos, n, MAX_SHIFT, "table.remove");
    return call_real(S);
}

/* setmetatable without __gc: a finalizer would run later, outside any
 * call's limits (at the latest when the state closes). The field is read
 * raw, as Lua itself does. */
static int g_setmetatable(lua_State *S)
{
    tick(S);
    luaL_checktype(S, 1, LUA_TTABLE);
    if (lua_istable(S, 2)) {
        lua_pushliteral(S, "__gc");
        if (lua_rawget(S, 2) != LUA_TNIL) return luaL_error(S, "setmetatable: __gc metamethods are not allowed");
        lua_pop(S, 1);
    }
    return call_real(S);
}

static int g_randomseed(lua_State *S)
{
    (void)S; /* the host seeds each call: the same seed, the same game */
    return 0;
}

/* The core's splitmix64 (rng.h): rng() in [0, 1), rng(n) in 1..n,
 * rng(m, n) in m..n. */
int dl_box_random(lua_State *L, uint64_t *state, int first)
{
    uint64_t z = dl_splitmix_next(state);
    if (lua_isnoneornil(L, first)) {
        lua_pushnumber(L, (double)(z >> 11) * (1.0 / 9007199254740992.0));
        return 1;
    }
    int ok1, ok2 = 1;
    lua_Integer lo = 1, hi;
    if (lua_isnoneornil(L, first + 1)) {
        hi = lua_tointegerx(L, first, &ok1);
    } else {
        lo = lua_tointegerx(L, first, &ok1);
        hi = lua_tointegerx(L, first + 1, &ok2);
    }
    if (!ok1 || !ok2) return luaL_error(L, "rng: integer arguments expected");
    if (lo > hi) return luaL_error(L, "rng: interval is empty");
    uint64_t range = (uint64_t)hi - (uint64_t)lo + 1u;
    if (range - 1u >= (uint64_t)INT64_MAX) { /* (0 when it wrapped) */
        lua_pushinteger(L, (lua_Integer)z); /* the whole integer range */
        return 1;
    }
    uint64_t r = (uint64_t)lo + (z >> 1) % range;
    lua_pushinteger(L, (lua_Integer)r);
    return 1;
}

int dl_box_random_s(lua_State *S)
{
    tick(S);
    return dl_box_random(S, &dl_box_env(S)->rng, 1);
}

/* Every C function of the table at the top, behind the guard (or its own
 * wrapper when it has one; an entry without a function stays as it is:
 * one that answers in constant time, where the count hook between the
 * calls that reach it bounds a loop of them as well as the clock would;
 * or in time of a string's length, once the hook comes every few
 * instructions for a long string. C calls a script's function in a loop
 * of its own only in table.sort, which puts a C comparator under the
 * clock, and string.gsub, whose captures cost their own length at most). */
static void wrap_all(lua_State *S, const luaL_Reg *own)
{
    lua_pushnil(S);
    while (lua_next(S, -2)) {
        lua_pop(S, 1);
        if (lua_type(S, -1) != LUA_TSTRING) continue;
        const char *k = lua_tostring(S, -1);
        lua_CFunction w = guard;
        for (const luaL_Reg *r = own; r && r->name; r++)
            if (strcmp(r->name, k) == 0) w = r->func;
        if (!w) continue;
        lua_pushvalue(S, -1);
        lua_rawget(S, -3);
        lua_CFunction f = lua_tocfunction(S, -1);
        /* a closure would read its own upvalues through the guard's */
        int plain = f && !lua_getupvalue(S, -1, 1);
        if (f && !plain) lua_pop(S, 1);
        lua_pop(S, 1);
        if (plain) {
            lua_pushvalue(S, -1);
            lua_pushcfunction(S, f);
            lua_pushcclosure(S, w, 1);
            lua_rawset(S, -4);
        }
    }
}

static void open_lib(lua_State *S, const char *name, lua_CFunction open, const luaL_Reg *own)
{
    luaL_requiref(S, name, open, 1);
    wrap_all(S, own);
    lua_pop(S, 1);
}

void dl_box_openlibs(lua_State *S)
{
    static const luaL_Reg base_own[] = {{"tostring", g_tostring}, {"setmetatable", g_setmetatable},
                                        {"xpcall", g_xpcall},
                                        {"type", NULL},         {"rawget", NULL},
                                        {"rawlen", NULL},       {"rawequal", NULL},
                                        {NULL, NULL}};
    static const luaL_Reg math_own[] = {{"type", NULL}, {"tointeger", NULL}, {"floor", NULL}, {"ceil", NULL},
                                        {"abs", NULL},  {NULL, NULL}};
    static const luaL_Reg string_own[] = {{"rep", g_rep},       {"format", g_format}, {"upper", g_sized},
                                          {"lower", g_sized},   {"reverse", g_sized},
                                          {NULL, NULL}};
    static const luaL_Reg table_own[] = {{"move", g_move},     {"sort", g_sort},     {"insert", g_insert},
                                         {"remove", g_remove}, {"unpack", g_unpack}, {"concat", g_concat},
                                         {NULL, NULL}};
    lua_pushlightuserdata(S, dl_box_env(S));
    lua_rawsetp(S, LUA_REGISTRYINDEX, &ENV_KEY);
    luaL_requiref(S, LUA_GNAME, luaopen_base, 1);
    lua_pop(S, 1);
    luaL_requiref(S, LUA_STRLIBNAME, luaopen_string, 1);
    lua_pushnil(S);
    lua_setfield(S, -2, "dump"); /* bytecode out means bytecode in */
    dl_pattern_open(S, lua_gettop(S), &dl_box_env(S)->pattern);
    lua_pop(S, 1);
    open_lib(S, LUA_STRLIBNAME, luaopen_string, string_own);
    open_lib(S, LUA_TABLIBNAME, luaopen_table, table_own);
    open_lib(S, LUA_MATHLIBNAME, luaopen_math, math_own);
    open_lib(S, LUA_UTF8LIBNAME, luaopen_utf8, NULL);
    lua_getglobal(S, LUA_MATHLIBNAME);
    lua_pushcfunction(S, dl_box_random_s);
    lua_setfield(S, -2, "random");
    lua_pushcfunction(S, g_randomseed);
    lua_setfield(S, -2, "randomseed");
    lua_pop(S, 1);
    /* The globals: the allow-list, nothing more. */
    lua_pushglobaltable(S);
    lua_newtable(S);
    for (int i = 0; GLOBALS[i]; i++) {
        lua_getfield(S, -2, GLOBALS[i]);
        lua_setfield(S, -2, GLOBALS[i]);
    }
    lua_pushnil(S);
    while (lua_next(S, -3)) {
        lua_pop(S, 1);
        lua_pushvalue(S, -1);
        lua_pushnil(S);
        lua_rawset(S, -5);
    }
    lua_pushnil(S);
    while (lua_next(S, -2)) {
        lua_pushvalue(S, -2);
        lua_insert(S, -2);
        lua_rawset(S, -5);
    }
    lua_pop(S, 1);
    wrap_all(S, base_own);
    lua_pop(S, 1);
}
