#include "sandbox.h"

#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    lua_Alloc f; /* the allocator underneath, or NULL for realloc/free */
    void *ud;
    long long used;  /* bytes allocated through us, relative */
    long long limit; /* 0 = no cap */
    int tripped;
} Alloc;

static Alloc host_alloc;

static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    Alloc *a = ud;
    size_t old = ptr ? osize : 0;
    if (nsize > old && a->limit && a->used + (long long)(nsize - old) > a->limit) {
        a->tripped = 1;
        return NULL;
    }
    void *p;
    if (a->f) {
        p = a->f(a->ud, ptr, osize, nsize);
    } else if (nsize == 0) {
        free(ptr);
        p = NULL;
    } else {
        p = realloc(ptr, nsize);
    }
    if (nsize == 0 || p) a->used += (long long)nsize - (long long)old;
    return p;
}

static int panic(lua_State *L)
{
    const char *msg = lua_tostring(L, -1);
    lua_writestringerror("diloti: unprotected Lua error: %s\n", msg ? msg : "?");
    return 0;
}

lua_State *dl_sandbox_newstate(void)
{
    memset(&host_alloc, 0, sizeof host_alloc);
    lua_State *L = lua_newstate(capped_alloc, &host_alloc);
    if (L) lua_atpanic(L, panic);
    return L;
}

/* When the state closes, put the original allocator back before the
 * module (and this code) is unloaded: finalizers run in reverse order of
 * creation, so this one runs before package's CLIBS closes the library. */
static int restore_alloc(lua_State *L)
{
    void *ud;
    if (lua_getallocf(L, &ud) == capped_alloc && ud != &host_alloc) {
        Alloc *a = ud;
        lua_setallocf(L, a->f, a->ud);
        free(a);
    }
    return 0;
}

void dl_sandbox_install(lua_State *L)
{
    void *ud;
    lua_Alloc f = lua_getallocf(L, &ud);
    if (f == capped_alloc) return;
    Alloc *a = calloc(1, sizeof *a);
    if (!a) return;
    a->f = f;
    a->ud = ud;
    lua_newuserdatauv(L, 1, 0);
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, restore_alloc);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, "diloti.sandbox.alloc");
    lua_setallocf(L, capped_alloc, a);
}

static Alloc *alloc_of(lua_State *L)
{
    void *ud;
    return lua_getallocf(L, &ud) == capped_alloc ? ud : NULL;
}

/* ---- the instruction budget ---- */

static struct {
    long left;
    int tripped;
} budget;

static void count_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    budget.left -= 1000;
    if (budget.left <= 0) {
        budget.tripped = 1;
        luaL_error(L, "instruction budget exceeded");
    }
}

static int traceback(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) msg = luaL_tolstring(L, 1, NULL);
    luaL_traceback(L, L, msg, 1);
    return 1;
}

int dl_sandbox_pcall(lua_State *L, int nargs, int nresults, long limit, size_t memory)
{
    Alloc *a = alloc_of(L);
    long long saved_limit = a ? a->limit : 0;
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, traceback);
    lua_insert(L, base);
    budget.left = limit;
    budget.tripped = 0;
    if (a) {
        a->tripped = 0;
        a->limit = a->used + (long long)memory;
    }
    lua_sethook(L, count_hook, LUA_MASKCOUNT, 1000);
    int st = lua_pcall(L, nargs, nresults, base);
    lua_sethook(L, NULL, 0, 0);
    int mem = a && a->tripped;
    if (a) a->limit = saved_limit;
    lua_remove(L, base);
    if (st != LUA_OK) {
        if (budget.tripped) {
            lua_pop(L, 1);
            lua_pushfstring(L, "instruction budget exceeded (%d million instructions)",
                            (int)(limit / 1000000));
        } else if (mem || st == LUA_ERRMEM) {
            lua_pop(L, 1);
            lua_pushfstring(L, "memory cap exceeded (%d MiB)", (int)(memory >> 20));
            lua_gc(L, LUA_GCCOLLECT);
        }
    }
    return st;
}

/* ---- environments ---- */

static const char *const BASE[] = {"assert", "error", "ipairs", "next", "pairs", "pcall",
                                   "select", "tonumber", "tostring", "type", "xpcall",
                                   "rawequal", "rawget", "rawlen", "setmetatable", NULL};
static const char *const LIBS[] = {"string", "table", "math", "utf8", NULL};

void dl_sandbox_env(lua_State *L)
{
    lua_newtable(L);
    lua_pushglobaltable(L);
    for (int i = 0; BASE[i]; i++) {
        lua_getfield(L, -1, BASE[i]);
        lua_setfield(L, -3, BASE[i]);
    }
    for (int i = 0; LIBS[i]; i++) {
        lua_newtable(L);
        if (lua_getfield(L, -2, LIBS[i]) == LUA_TTABLE) {
            lua_pushnil(L);
            while (lua_next(L, -2)) {
                lua_pushvalue(L, -2);
                lua_insert(L, -2);
                lua_settable(L, -5);
            }
        }
        lua_pop(L, 1);
        if (strcmp(LIBS[i], "string") == 0) {
            lua_pushnil(L);
            lua_setfield(L, -2, "dump"); /* bytecode out means bytecode in */
        }
        lua_setfield(L, -3, LIBS[i]);
    }
    lua_pop(L, 1);
    lua_pushliteral(L, LUA_VERSION);
    lua_setfield(L, -2, "_VERSION");
    lua_pushvalue(L, -1);
    lua_setfield(L, -2, "_G");
}

int dl_sandbox_load(lua_State *L, const char *src, size_t len, const char *chunkname)
{
    int st = luaL_loadbufferx(L, src, len, chunkname, "t");
    if (st != LUA_OK) {
        lua_remove(L, -2); /* the environment */
        return st;
    }
    lua_insert(L, -2);
    if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
    return LUA_OK;
}

/* ---- Lua side ---- */

static int l_env(lua_State *L)
{
    dl_sandbox_env(L);
    return 1;
}

static int l_load(lua_State *L)
{
    size_t len;
    const char *src = luaL_checklstring(L, 1, &len);
    const char *name = luaL_optstring(L, 2, "=sandbox");
    if (lua_isnoneornil(L, 3))
        dl_sandbox_env(L);
    else {
        luaL_checktype(L, 3, LUA_TTABLE);
        lua_pushvalue(L, 3);
    }
    if (dl_sandbox_load(L, src, len, name) != LUA_OK) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    return 1;
}

/* call(fn, ...) -> true, results... | false, message. Optional limits in
 * a table as the first argument: call({budget=, memory=}, fn, ...). */
static int l_call(lua_State *L)
{
    long lim = DL_SANDBOX_BUDGET;
    size_t mem = DL_SANDBOX_MEMORY;
    int first = 1;
    if (lua_istable(L, 1)) {
        lua_getfield(L, 1, "budget");
        if (lua_isinteger(L, -1)) lim = (long)lua_tointeger(L, -1);
        lua_getfield(L, 1, "memory");
        if (lua_isinteger(L, -1)) mem = (size_t)lua_tointeger(L, -1);
        lua_pop(L, 2);
        first = 2;
    }
    luaL_checktype(L, first, LUA_TFUNCTION);
    int nargs = lua_gettop(L) - first;
    int st = dl_sandbox_pcall(L, nargs, LUA_MULTRET, lim, mem);
    if (st != LUA_OK) {
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
        return 2;
    }
    int nres = lua_gettop(L) - first + 1;
    lua_pushboolean(L, 1);
    lua_insert(L, first);
    return nres + 1;
}

int dl_sandbox_lib(lua_State *L)
{
    static const luaL_Reg fns[] = {{"env", l_env}, {"load", l_load}, {"call", l_call}, {NULL, NULL}};
    dl_sandbox_install(L);
    luaL_newlib(L, fns);
    return 1;
}
