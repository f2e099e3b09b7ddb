#define _POSIX_C_SOURCE 199309L
#include "sandbox.h"

#include <time.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    lua_Alloc f; /* the allocator underneath, or NULL for realloc/free */
    void *ud;
    long long used;  /* bytes allocated through us, relative */
    long long limit; /* 0 = no cap */
    long long allocated; /* bytes ever taken, frees not subtracted: what
                          * anything kept since a moment is at most its
                          * growth since then, whatever was freed meanwhile */
    int tripped;
} Alloc;

static Alloc host_alloc;

static void push_lib_copy(lua_State *L, const char *lib);

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
    if (p && nsize > old) a->allocated += (long long)(nsize - old);
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

static void install_safe_string(lua_State *L)
{
    if (lua_getfield(L, LUA_REGISTRYINDEX, "diloti.sandbox.safestring") == LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    lua_pop(L, 1);
    push_lib_copy(L, "string");
    lua_setfield(L, LUA_REGISTRYINDEX, "diloti.sandbox.safestring");
}

static Alloc *alloc_of(lua_State *L)
{
    void *ud;
    return lua_getallocf(L, &ud) == capped_alloc ? ud : NULL;
}

/* ---- the instruction budget ---- */

/* One budget for the outermost sandboxed call; a nested call (a hook run
 * by a game method the script itself called) spends from the same one. */
static struct {
    long left;
    int tripped;    /* 1: instructions, 2: time */
    int depth;
    double deadline; /* monotonic seconds; 0 = none */
    char label[64]; /* whose code runs: named in the messages */
} budget;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double dl_sandbox_time_left(void)
{
    if (!budget.depth || budget.deadline <= 0) return -1;
    double left = budget.deadline - now_s();
    return left > 0 ? left : 0;
}

static void count_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    if (!budget.tripped) {
        budget.left -= 1000;
        if (budget.left <= 0)
            budget.tripped = 1;
        else if (budget.deadline > 0 && now_s() > budget.deadline)
            budget.tripped = 2;
        if (!budget.tripped) return;
        /* From now on every instruction raises again, so a script's own
         * pcall cannot catch the error and carry on. */
        lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
    }
    luaL_error(L, budget.tripped == 2 ? "time limit exceeded" : "instruction budget exceeded");
}

static int traceback(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) msg = luaL_tolstring(L, 1, NULL);
    luaL_traceback(L, L, msg, 1);
    return 1;
}

/* Scripts reach the string library through every string's metatable too;
 * for the length of a sandboxed call it points at the safe copy. */
static void swap_string_index(lua_State *L, bool to_safe)
{
    lua_pushliteral(L, "");
    if (!lua_getmetatable(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    if (to_safe) {
        lua_getfield(L, -1, "__index");
        lua_setfield(L, LUA_REGISTRYINDEX, "diloti.sandbox.realstring");
        lua_getfield(L, LUA_REGISTRYINDEX, "diloti.sandbox.safestring");
    } else {
        lua_getfield(L, LUA_REGISTRYINDEX, "diloti.sandbox.realstring");
    }
    if (lua_istable(L, -1))
        lua_setfield(L, -2, "__index");
    else
        lua_pop(L, 1);
    lua_pop(L, 2);
}

void dl_sandbox_label(const char *label)
{
    snprintf(budget.label, sizeof budget.label, "%s", label ? label : "");
}

int dl_sandbox_pcall_timed(lua_State *L, int nargs, int nresults, long limit, size_t memory,
                           double seconds)
{
    Alloc *a = alloc_of(L);
    long long saved_limit = a ? a->limit : 0;
    int saved_a_tripped = a ? a->tripped : 0;
    long saved_left = budget.left;
    int outer = budget.depth > 0;
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, traceback);
    lua_insert(L, base);
    double saved_deadline = budget.deadline;
    if (!outer) {
        budget.left = limit;
        budget.tripped = 0;
        budget.deadline = seconds > 0 ? now_s() + seconds : 0;
        swap_string_index(L, true);
    } else {
        if (limit < budget.left) budget.left = limit;
        double d = seconds > 0 ? now_s() + seconds : 0;
        if (d > 0 && (budget.deadline <= 0 || d < budget.deadline)) budget.deadline = d;
    }
    if (a) {
        long long lim = a->used + (long long)memory;
        if (!outer || !a->limit || lim < a->limit) a->limit = lim;
        a->tripped = 0;
    }
    budget.depth++;
    lua_sethook(L, count_hook, LUA_MASKCOUNT, budget.tripped ? 1 : 1000);
    int st = lua_pcall(L, nargs, nresults, base);
    budget.depth--;
    budget.deadline = saved_deadline;
    int mem = a && a->tripped;
    int tripped = budget.tripped;
    if (a) {
        a->limit = saved_limit;
        a->tripped = saved_a_tripped;
    }
    if (outer) {
        /* The outer call goes on spending what is left. */
        if (!tripped && budget.left > saved_left) budget.left = saved_left;
        lua_sethook(L, count_hook, LUA_MASKCOUNT, tripped ? 1 : 1000);
    } else {
        lua_sethook(L, NULL, 0, 0);
        swap_string_index(L, false);
    }
    lua_remove(L, base);
    if (st == LUA_OK && tripped) {
        /* The script swallowed the budget error itself; it still failed.
         * (A caught memory error is fine: nothing past the cap was given.) */
        lua_settop(L, base - 1);
        lua_pushliteral(L, "");
        st = LUA_ERRRUN;
    }
    if (st != LUA_OK && (tripped || mem || st == LUA_ERRMEM)) {
        char where[96] = "";
        if (budget.label[0]) snprintf(where, sizeof where, " in %s", budget.label);
        lua_pop(L, 1);
        if (tripped == 2)
            lua_pushfstring(L, "time limit exceeded%s (%d ms)", where, (int)(seconds * 1000 + 0.5));
        else if (tripped)
            lua_pushfstring(L, "instruction budget exceeded%s (%d instructions)", where,
                            (int)(limit > 2000000000L ? 2000000000L : limit));
        else if (memory % (1u << 20) == 0)
            lua_pushfstring(L, "memory cap exceeded%s (%d MiB)", where, (int)(memory >> 20));
        else
            lua_pushfstring(L, "memory cap exceeded%s (%d KiB)", where, (int)(memory >> 10));
        if (!outer) lua_gc(L, LUA_GCCOLLECT);
    }
    if (!outer) budget.label[0] = '\0';
    return st;
}

int dl_sandbox_pcall(lua_State *L, int nargs, int nresults, long limit, size_t memory)
{
    return dl_sandbox_pcall_timed(L, nargs, nresults, limit, memory, 0);
}

/* ---- environments ---- */

static const char *const BASE[] = {"assert", "error", "ipairs", "next", "pairs", "pcall",
                                   "select", "tonumber", "tostring", "type", "xpcall",
                                   "rawequal", "rawget", "rawlen", NULL};
static const char *const LIBS[] = {"string", "table", "math", "utf8", NULL};

/* setmetatable without __gc: a finalizer would run later, outside any
 * budget. The check reads the field raw, as Lua itself does: an __index
 * on the metatable could otherwise add __gc while being asked for it. */
static int safe_setmetatable(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    if (lua_istable(L, 2)) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL)
            return luaL_error(L, "sandbox: __gc metamethods are not allowed");
    }
    lua_settop(L, 2);
    lua_getglobal(L, "setmetatable");
    lua_insert(L, 1);
    lua_call(L, 2, 1);
    return 1;
}

/* string.rep("", huge) loops in C without allocating: answer it here. */
static int safe_rep(lua_State *L)
{
    size_t l, lsep = 0;
    luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (n > 0 && l + lsep == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/* Lua patterns backtrack: k open quantifiers on n bytes cost up to n^k
 * steps inside one C call, where no hook can stop them. */
static int safe_pattern(lua_State *L)
{
    size_t n, pl;
    luaL_checklstring(L, 1, &n);
    const char *p = luaL_checklstring(L, 2, &pl);
    int q = 0;
    for (size_t i = 0; i < pl; i++) {
        if (p[i] == '%') {
            i++;
            continue;
        }
        if (p[i] == '*' || p[i] == '+' || p[i] == '-' || p[i] == '?') q++;
    }
    double cost = 1;
    for (int i = 0; i < q && cost < 1e12; i++) cost *= (double)n + 1;
    if (q > 1 && cost > 1e9)
        return luaL_error(L, "sandbox: pattern with %d repetitions on %d bytes is too costly", q,
                          (int)n);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

static int safe_move(lua_State *L)
{
    lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3);
    /* unsigned: e - f may not fit a lua_Integer */
    if (e >= f && (lua_Unsigned)e - (lua_Unsigned)f > (1u << 24))
        return luaL_error(L, "sandbox: table.move of more than 16M elements");
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static void wrap(lua_State *L, const char *name, lua_CFunction f)
{
    lua_getfield(L, -1, name);
    lua_pushcclosure(L, f, 1);
    lua_setfield(L, -2, name);
}

/* Pushes a copy of the global library with the sandbox's wrappers. */
static void push_lib_copy(lua_State *L, const char *lib)
{
    lua_newtable(L);
    if (lua_getglobal(L, lib) == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_settable(L, -5);
        }
    }
    lua_pop(L, 1);
    if (strcmp(lib, "string") == 0) {
        lua_pushnil(L);
        lua_setfield(L, -2, "dump"); /* bytecode out means bytecode in */
        wrap(L, "rep", safe_rep);
        wrap(L, "find", safe_pattern);
        wrap(L, "match", safe_pattern);
        wrap(L, "gmatch", safe_pattern);
        wrap(L, "gsub", safe_pattern);
    } else if (strcmp(lib, "table") == 0) {
        wrap(L, "move", safe_move);
    }
}

void dl_sandbox_env(lua_State *L)
{
    lua_newtable(L);
    lua_pushglobaltable(L);
    for (int i = 0; BASE[i]; i++) {
        lua_getfield(L, -1, BASE[i]);
        lua_setfield(L, -3, BASE[i]);
    }
    lua_pop(L, 1);
    lua_pushcfunction(L, safe_setmetatable);
    lua_setfield(L, -2, "setmetatable");
    for (int i = 0; LIBS[i]; i++) {
        push_lib_copy(L, LIBS[i]);
        lua_setfield(L, -2, LIBS[i]);
    }
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
    double secs = 0;
    int first = 1;
    if (lua_istable(L, 1)) {
        lua_getfield(L, 1, "budget");
        if (lua_isinteger(L, -1)) lim = (long)lua_tointeger(L, -1);
        lua_getfield(L, 1, "memory");
        if (lua_isinteger(L, -1)) mem = (size_t)lua_tointeger(L, -1);
        lua_getfield(L, 1, "time");
        if (lua_isnumber(L, -1)) secs = lua_tonumber(L, -1);
        lua_pop(L, 3);
        first = 2;
    }
    luaL_checktype(L, first, LUA_TFUNCTION);
    int nargs = lua_gettop(L) - first;
    int st = dl_sandbox_pcall_timed(L, nargs, LUA_MULTRET, lim, mem, secs);
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

/* time_left() -> seconds left in the current sandboxed call, or nil */
static int l_time_left(lua_State *L)
{
    double t = dl_sandbox_time_left();
    if (t < 0) lua_pushnil(L);
    else lua_pushnumber(L, t);
    return 1;
}

/* allocated() -> bytes ever allocated in this state (only grows) */
static int l_allocated(lua_State *L)
{
    Alloc *a = alloc_of(L);
    if (a)
        lua_pushinteger(L, (lua_Integer)a->allocated);
    else
        lua_pushnumber(L, (lua_Number)lua_gc(L, LUA_GCCOUNT, 0) * 1024);
    return 1;
}

/* unmetered(fn, ...): the host's own bookkeeping inside a sandboxed call
 * (measuring what a script holds) must not spend the script's budget nor
 * fail on its cap. Only for host functions that run no script code. */
static int l_unmetered(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    Alloc *a = alloc_of(L);
    long long limit = a ? a->limit : 0;
    lua_Hook hook = lua_gethook(L);
    int mask = lua_gethookmask(L), count = lua_gethookcount(L);
    if (a) a->limit = 0;
    lua_sethook(L, NULL, 0, 0);
    int st = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
    lua_sethook(L, hook, mask, count);
    if (a) a->limit = limit;
    if (st != LUA_OK) return lua_error(L);
    return lua_gettop(L);
}

static int l_label(lua_State *L)
{
    dl_sandbox_label(luaL_optstring(L, 1, ""));
    return 0;
}

int dl_sandbox_lib(lua_State *L)
{
    static const luaL_Reg fns[] = {{"env", l_env}, {"load", l_load}, {"call", l_call},
                                   {"label", l_label}, {"time_left", l_time_left},
                                   {"allocated", l_allocated}, {"unmetered", l_unmetered},
                                   {NULL, NULL}};
    dl_sandbox_install(L);
    install_safe_string(L);
    luaL_newlib(L, fns);
    lua_pushinteger(L, (lua_Integer)DL_SANDBOX_MEMORY);
    lua_setfield(L, -2, "memory");
    return 1;
}
