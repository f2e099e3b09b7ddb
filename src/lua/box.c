/* A box: one untrusted script's own lua_State, its exact memory count, and
 * the limits of every call into it. The host never runs a script's code
 * in its own state and a script never holds anything of the host's: see
 * boxcopy.c for what crosses, boxlib.c for what a script may call. */
#define _POSIX_C_SOURCE 199309L
#include "box.h"

#include <lauxlib.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "boxint.h"
#include "boxmoves.h"
#include "ltext.h"

#define BOX "diloti.Box"
#define POOL "diloti.BoxPool"
/* How often the hook looks at the budget and the clock, in instructions.
 * Most cost a few ns; but once a script holds long strings, one compare
 * or concatenation of them may cost ms, and the hook comes more often. */
#define HOOK_EVERY 1000
#define HOOK_EVERY_BIG 8
#define BIG_STRING (64u << 10)
#define LOAD_BUDGET 2000000L
#define LOAD_SECONDS 2.0

/* Ctrl-C: the one signal of the process, for whatever script runs now. */
static volatile sig_atomic_t interrupt_flag;
/* The registry key of a host state's own pool (boxes given no pool). */
static const char HOST_POOL = 'p';

static void hook(lua_State *S, lua_Debug *ar);

static int hook_every(const Box *b)
{
    return b->big ? HOOK_EVERY_BIG : HOOK_EVERY;
}

void dl_box_interrupt(void)
{
    interrupt_flag = 1;
}

double dl_box_now(void)
{
    struct timespec t;
    /* The coarse clock costs a few ns and ticks every few ms: ample for
     * limits of 50 ms and more, and read on every library call. */
#ifdef CLOCK_MONOTONIC_COARSE
    clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
#else
    clock_gettime(CLOCK_MONOTONIC, &t);
#endif
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- memory: the allocator's own count is the cap ---- */

/* A new object's size comes with its type in osize (lua_Alloc): a long
 * string is refused, and makes the hook come more often. */
static int string_check(Box *b, size_t nsize)
{
    if (nsize > DL_BOX_MAX_STRING + 64) {
        b->mem_tripped = 3;
        return 0;
    }
    if (nsize > BIG_STRING && !b->big) {
        b->big = 1;
        /* (lua_sethook only sets fields: safe here, as in a signal handler) */
        if (b->S && b->busy && !b->tripped) lua_sethook(b->S, hook, LUA_MASKCOUNT, HOOK_EVERY_BIG);
    }
    return 1;
}

static void *box_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    Box *b = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        dl_blocks_realloc(&b->blocks, ptr, osize, 0);
        b->used -= (long long)old;
        b->pool->used -= (long long)old;
        return NULL;
    }
    if (!ptr && osize == LUA_TSTRING && !string_check(b, nsize)) return NULL;
    if (nsize > old) {
        long long more = (long long)(nsize - old);
        if (b->cap && b->used + more > b->cap) {
            b->mem_tripped = 1;
            return NULL; /* Lua collects and tries once more, then raises */
        }
        if (b->pool->used + more > b->pool->total) {
            b->mem_tripped = 2;
            return NULL;
        }
    }
    void *p = dl_blocks_realloc(&b->blocks, ptr, old, nsize);
    if (p) {
        b->used += (long long)nsize - (long long)old;
        b->pool->used += (long long)nsize - (long long)old;
    }
    return p;
}

/* Collects before a library function grows a buffer by bytes past the
 * box's cap or its pool's total (dl_BoxEnv.room): Lua collects and tries
 * again when one of its own objects does not fit, not when a buffer's
 * growth fails, so garbage left about would stop such a call well
 * within the cap (attack31 finding 2, attack33 finding 1). The
 * collection runs inside the call and counts against its time; it comes
 * only where Lua's own would (a string is at most 1 MiB). */
static void room(lua_State *S, size_t bytes)
{
    Box *b = dl_box_of(S);
    const long long more = bytes > (size_t)LLONG_MAX / 2 ? LLONG_MAX / 2 : (long long)bytes;
    if ((b->cap && b->used + more > b->cap) || b->pool->used + more > b->pool->total) lua_gc(S, LUA_GCCOLLECT);
}

/* ---- limits ---- */

static int tripped(lua_State *S)
{
    return dl_box_of(S)->tripped != TRIP_NONE;
}

int dl_box_trip(lua_State *S, Box *b, int kind, int level)
{
    static const char *const WHAT[] = {"", "instruction budget exceeded", "time limit exceeded",
                                       "interrupted"};
    if (!b->tripped) {
        char where[200] = "";
        lua_Debug ar;
        if (lua_getstack(S, level, &ar) && lua_getinfo(S, "Sl", &ar) && ar.currentline > 0)
            snprintf(where, sizeof where, "%s:%d: ", ar.short_src, ar.currentline);
        char limit[64] = "";
        if (kind == TRIP_BUDGET) snprintf(limit, sizeof limit, " (%ld instructions)", b->cur_budget);
        if (kind == TRIP_TIME) snprintf(limit, sizeof limit, " (%.0f ms)", b->cur_seconds * 1000);
        snprintf(b->trip, sizeof b->trip, "%s%s%s%s%s", where, WHAT[kind], b->label[0] ? " in " : "",
                 b->label, limit);
        b->tripped = kind;
        /* From now on every instruction raises again, so that the script's
         * own pcall cannot catch the error and carry on. */
        lua_sethook(S, hook, LUA_MASKCOUNT, 1);
    }
    lua_pushstring(S, b->trip);
    return lua_error(S);
}

static void hook(lua_State *S, lua_Debug *ar)
{
    (void)ar;
    Box *b = dl_box_of(S);
    if (!b->tripped) {
        int kind = TRIP_NONE;
        b->left -= hook_every(b);
        if (b->left <= 0)
            kind = TRIP_BUDGET;
        else if (interrupt_flag)
            kind = TRIP_INTERRUPT;
        else if (b->deadline > 0 && dl_box_now() > b->deadline)
            kind = TRIP_TIME;
        if (kind == TRIP_NONE) return;
        dl_box_trip(S, b, kind, 0);
    }
    lua_pushstring(S, b->trip);
    lua_error(S);
}

void dl_box_tick(lua_State *S)
{
    Box *b = dl_box_of(S);
    if (b->tripped) {
        lua_pushstring(S, b->trip);
        lua_error(S);
    }
    if (interrupt_flag) dl_box_trip(S, b, TRIP_INTERRUPT, 1);
    if (b->deadline > 0 && dl_box_now() > b->deadline) dl_box_trip(S, b, TRIP_TIME, 1);
}

int dl_box_time_left_s(lua_State *S)
{
    Box *b = dl_box_of(S);
    if (b->deadline <= 0) {
        lua_pushnil(S);
    } else {
        double left = b->deadline - dl_box_now();
        lua_pushnumber(S, left > 0 ? left : 0);
    }
    return 1;
}

/* ---- one call into a box ---- */

typedef struct {
    Box *b;
    lua_State *H;
    int id;                 /* the box function to call, or 0: load src */
    const char *src, *chunk;
    size_t len;
    int first, nargs; /* the arguments on H's stack */
    int map;          /* H index of the host functions' ids, or 0 */
    int want_funcs;   /* results may hold functions (a main chunk's) */
} Call;

/* The message handler inside a box: only a string leaves it. */
static int msgh(lua_State *S)
{
    if (lua_type(S, 1) == LUA_TSTRING) return 1;
    if (lua_type(S, 1) == LUA_TNUMBER) {
        luaL_tolstring(S, 1, NULL);
        return 1;
    }
    if (luaL_callmeta(S, 1, "__tostring") && lua_type(S, -1) == LUA_TSTRING) return 1;
    lua_pushfstring(S, "(error object is a %s value)", luaL_typename(S, 1));
    return 1;
}

/* Runs in S, protected: the function, the arguments, the call. */
static int enter(lua_State *S)
{
    Call *c = lua_touserdata(S, 1);
    lua_settop(S, 0);
    if (c->id) {
        lua_rawgeti(S, LUA_REGISTRYINDEX, c->b->funcs);
        lua_rawgeti(S, -1, c->id);
        lua_remove(S, -2);
    } else if (luaL_loadbufferx(S, c->src, c->len, c->chunk, "t") != LUA_OK) {
        return lua_error(S);
    }
    Crossing x = {0, 0, c->b, c->map, 0, 0, 0};
    luaL_checkstack(S, c->nargs + 8, "too many arguments");
    for (int i = 0; i < c->nargs; i++) dl_box_copy_in(S, c->H, c->first + i, 0, &x);
    lua_call(S, c->nargs, LUA_MULTRET);
    int n = lua_gettop(S);
    if (c->want_funcs) {
        lua_rawgeti(S, LUA_REGISTRYINDEX, c->b->funcs);
        lua_newtable(S); /* the tables walked */
        c->b->walked = 0;
        for (int i = 1; i <= n; i++) dl_box_register(S, i, n + 1, 0, c->b);
        lua_settop(S, n);
    }
    /* Room for copying the results out without allocating in S then. */
    luaL_checkstack(S, 2 * DL_BOX_MAX_DEPTH + 8, "results nested too deep");
    return n;
}

/* Whether the function at idx crosses without a service: a stub (its
 * box's own function) or a native (the box's own copy). */
static int crosses_as_is(lua_State *H, int idx)
{
    lua_CFunction f = lua_tocfunction(H, idx);
    return f == dl_box_stub || dl_box_native(f);
}

/* Every host function among the arguments gets an id, before the box
 * runs: the copy into S must not allocate in H. map (function -> id) is
 * what the copy reads, list (id -> function) what the services call.
 * The id is counted in b->nserv before either table is set, so that
 * forget_services finds whatever a failed collect left. */
static void collect_function(lua_State *H, int idx, int map, int list, Box *b)
{
    if (crosses_as_is(H, idx)) return;
    lua_pushvalue(H, idx);
    if (lua_rawget(H, map) == LUA_TNIL) {
        const int id = ++b->nserv;
        lua_pushvalue(H, idx);
        lua_rawseti(H, list, id);
        lua_pushvalue(H, idx);
        lua_pushinteger(H, id);
        lua_rawset(H, map);
    }
    lua_pop(H, 1);
}

static void collect(lua_State *H, int idx, int depth, int map, int list, Box *b)
{
    idx = lua_absindex(H, idx);
    int t = lua_type(H, idx);
    if (t == LUA_TFUNCTION) {
        collect_function(H, idx, map, list, b);
        return;
    }
    if (t != LUA_TTABLE || depth >= DL_BOX_MAX_DEPTH) return;
    luaL_checkstack(H, 4, "arguments nested too deep");
    lua_pushnil(H);
    while (lua_next(H, idx)) {
        /* (only a table or a function may be or hold one) */
        t = lua_type(H, -1);
        if (t == LUA_TTABLE || t == LUA_TFUNCTION) collect(H, -1, depth + 1, map, list, b);
        lua_pop(H, 1);
    }
}

/* The box's two tables of its calls' host functions onto H's stack,
 * emptied: made once (H registry), and emptied after each call, or
 * before the next one when a call stopped while collecting. (Made anew
 * for every call, they cost a small call more than its crossing.) */
static void push_services(lua_State *H, Box *b)
{
    if (b->services == LUA_NOREF) {
        lua_newtable(H);
        b->services = luaL_ref(H, LUA_REGISTRYINDEX);
        lua_newtable(H);
        b->service_ids = luaL_ref(H, LUA_REGISTRYINDEX);
    }
    lua_rawgeti(H, LUA_REGISTRYINDEX, b->service_ids);
    lua_rawgeti(H, LUA_REGISTRYINDEX, b->services);
}

/* Forgets the host functions of the last call (map, list: their H
 * indices), so that no stale id names a function and the box holds none
 * of them between calls. */
static void forget_services(lua_State *H, Box *b, int map, int list)
{
    for (int id = 1; id <= b->nserv; id++) {
        if (lua_rawgeti(H, list, id) != LUA_TNIL) {
            lua_pushnil(H);
            lua_rawset(H, map);
        } else {
            lua_pop(H, 1);
        }
        lua_pushnil(H);
        lua_rawseti(H, list, id);
    }
    b->nserv = 0;
}

/* Whether an argument may hold a host function (a table, or a function
 * that is neither a stub nor a native): a call without one needs no map. */
static int may_hold_services(lua_State *H, const Call *c)
{
    for (int i = 0; i < c->nargs; i++) {
        const int t = lua_type(H, c->first + i);
        if (t == LUA_TTABLE) return 1;
        if (t == LUA_TFUNCTION && !crosses_as_is(H, c->first + i)) return 1;
    }
    return 0;
}

static void set_limits(Box *b, long budget, double seconds)
{
    b->cur_budget = budget;
    b->cur_seconds = seconds;
    b->left = budget > 0 ? budget : 1;
    b->deadline = seconds > 0 ? dl_box_now() + seconds : 0;
    b->tripped = TRIP_NONE;
    b->crossed = 0;
    b->mem_tripped = 0;
    b->trip[0] = '\0';
    interrupt_flag = 0;
}

/* Where text s (len bytes) may be cut at or before at: a character's
 * start, 3 bytes back at most (bytes that are not UTF-8 may all look
 * like a character's middle). */
static size_t char_start(const char *s, size_t at, size_t len)
{
    for (int i = 0; i < 3 && at < len && ((unsigned char)s[at] & 0xC0) == 0x80; i++) at--;
    return at;
}

/* A script's error text, made safe and cut to DL_BOX_MAX_ERROR bytes as
 * shown (cleaning writes up to 3 bytes a byte), at a character's end,
 * saying how long it was. */
static void push_error_text(lua_State *H, const char *m, size_t n)
{
    const size_t k = char_start(m, n < DL_BOX_MAX_ERROR ? n : DL_BOX_MAX_ERROR, n);
    dl_clean_push(H, m, k);
    size_t len;
    const char *c = lua_tolstring(H, -1, &len);
    if (k == n && len <= DL_BOX_MAX_ERROR) return;
    lua_pushlstring(H, c, char_start(c, len < DL_BOX_MAX_ERROR ? len : DL_BOX_MAX_ERROR, len));
    lua_pushfstring(H, " ... (cut: %I bytes in all)", (LUAI_UACINT)n);
    lua_concat(H, 2);
    lua_remove(H, -2);
}

/* Pushes the message of a failed call onto H. */
static void push_failure(lua_State *H, Box *b, int st)
{
    if (b->tripped) {
        dl_clean_push(H, b->trip, strlen(b->trip));
        return;
    }
    if (st != LUA_ERRMEM) {
        size_t n = 0;
        const char *m = lua_tolstring(b->S, -1, &n);
        if (m)
            push_error_text(H, m, n);
        else
            lua_pushliteral(H, "(no error message)");
        return;
    }
    const char *in = b->label[0] ? " in " : "";
    if (b->mem_tripped == 3)
        lua_pushfstring(H, "string longer than %d KiB refused%s%s", (int)(DL_BOX_MAX_STRING >> 10), in, b->label);
    else if (b->mem_tripped == 2 && b->pool->total % (1 << 20) == 0)
        lua_pushfstring(H, "memory cap exceeded%s%s (all scripts together may hold %d MiB)", in, b->label,
                        (int)(b->pool->total >> 20));
    else if (b->mem_tripped == 2)
        lua_pushfstring(H, "memory cap exceeded%s%s (all scripts together may hold %d KiB)", in, b->label,
                        (int)(b->pool->total >> 10));
    else if (b->cap % (1 << 20) == 0)
        lua_pushfstring(H, "memory cap exceeded%s%s (%d MiB)", in, b->label, (int)(b->cap >> 20));
    else
        lua_pushfstring(H, "memory cap exceeded%s%s (%d KiB)", in, b->label, (int)(b->cap >> 10));
}

typedef struct {
    Box *b;
    int n, want_funcs;
} Out;

/* Runs in H, protected: the results out of S (argument 2 is the box, for
 * the stubs). A result over the crossing's limits fails the call like
 * any error of the script's. */
static int copy_results(lua_State *H)
{
    Out *o = lua_touserdata(H, 1);
    luaL_checkstack(H, o->n + 8, "too many results");
    lua_pushnil(H); /* (the memo, when it is made) */
    Crossing x = {0, 0, o->b, 0, o->want_funcs ? 2 : 0, lua_gettop(H), 0};
    for (int i = 0; i < o->n; i++) dl_box_copy_out(H, o->b->S, i + 2, 0, &x);
    return o->n;
}

/* A few results that are nil, booleans or numbers alone (a moves
 * hook's usual answer) cannot break a crossing's limits: copied onto H
 * at once, without copy_results' protected call. Returns their count,
 * or -1 for results that take the whole crossing. */
static int scalars_out(lua_State *H, Box *b)
{
    lua_State *S = b->S;
    const int n = lua_gettop(S) - 1;
    if (n > 8 || !lua_checkstack(H, n + 1)) return -1;
    for (int i = 2; i <= n + 1; i++) {
        const int t = lua_type(S, i);
        if (t != LUA_TNIL && t != LUA_TBOOLEAN && t != LUA_TNUMBER) return -1;
    }
    Crossing x = {0, 0, b, 0, 0, 0, 0};
    for (int i = 2; i <= n + 1; i++) dl_box_copy_out(H, S, i, 0, &x);
    lua_settop(S, 0);
    return n;
}

static int run_here(lua_State *S, int nargs, int nres, int msgh)
{
    return lua_pcall(S, nargs, nres, msgh);
}

/* Set once by a host before its boxes run (box.h). */
static dl_BoxRunner runner = run_here;

void dl_box_set_runner(dl_BoxRunner run)
{
    runner = run ? run : run_here;
}

/* Calls into the box; on success the results are on H's stack and their
 * count is returned, on failure the message is pushed and -1 returned. */
static int invoke(Call *c, long budget, double seconds, int box_ud)
{
    Box *b = c->b;
    lua_State *H = c->H, *S = b->S;
    if (!S) luaL_error(H, "%s: the script was closed", b->label[0] ? b->label : "box");
    if (b->busy) luaL_error(H, "%s: called again while it runs", b->label[0] ? b->label : "box");
    int map = 0;
    if (may_hold_services(H, c)) {
        push_services(H, b);
        map = lua_gettop(H) - 1;
        forget_services(H, b, map, map + 1);
        for (int i = 0; i < c->nargs; i++) collect(H, c->first + i, 0, map, map + 1, b);
        if (b->nserv == 0) {
            lua_pop(H, 2);
            map = 0;
        }
    }
    c->map = map;
    int htop = lua_gettop(H);
    lua_settop(S, 0);
    lua_pushcfunction(S, msgh);
    lua_pushcfunction(S, enter);
    lua_pushlightuserdata(S, c);
    set_limits(b, budget, seconds);
    b->busy = 1;
    b->H = H;
    b->gen++;
    lua_sethook(S, hook, LUA_MASKCOUNT, hook_every(b));
    int st = runner(S, 1, LUA_MULTRET, 1);
    if (st == LUA_OK && b->tripped) st = LUA_ERRRUN; /* (caught and carried on) */
    lua_sethook(S, NULL, 0, 0);
    b->busy = 0;
    b->H = NULL;
    b->gen++;
    b->deadline = 0;
    lua_settop(H, htop);
    if (map) {
        forget_services(H, b, map, map + 1);
        lua_pop(H, 2);
    }
    if (st != LUA_OK) {
        b->broken = b->tripped != TRIP_NONE || st == LUA_ERRMEM;
        push_failure(H, b, st);
        lua_settop(S, 0);
        return -1;
    }
    b->broken = 0;
    const int n = scalars_out(H, b);
    if (n >= 0) return n;
    Out o = {b, lua_gettop(S) - 1, c->want_funcs};
    lua_pushcfunction(H, copy_results);
    lua_pushlightuserdata(H, &o);
    if (box_ud) lua_pushvalue(H, box_ud); else lua_pushnil(H);
    int top = lua_gettop(H) - 3;
    st = lua_pcall(H, 2, LUA_MULTRET, 0);
    lua_settop(S, 0);
    if (st != LUA_OK) {
        if (b->label[0]) {
            lua_pushfstring(H, "%s (%s)", lua_tostring(H, -1), b->label);
            lua_remove(H, -2);
        }
        return -1;
    }
    return lua_gettop(H) - top;
}

/* ---- stubs: the host's handles on a box's functions ---- */

int dl_box_stub(lua_State *H)
{
    Box *b = lua_touserdata(H, lua_upvalueindex(1));
    Call c = {b, H, (int)lua_tointeger(H, lua_upvalueindex(2)), NULL, NULL, 0, 1, lua_gettop(H), 0, 0};
    int n = invoke(&c, b->budget, b->seconds, 0);
    if (n < 0) return lua_error(H);
    return n;
}

/* ---- services: host functions a script may call during one call ---- */

typedef struct {
    Box *b;
    lua_State *S;
    int id, nargs;
} Svc;

/* Runs in H, protected: the host function on plain copies. */
static int service_host(lua_State *H)
{
    Svc *v = lua_touserdata(H, 1);
    lua_pushnil(H); /* (the memo, when it is made) */
    Crossing x = {0, 0, v->b, 0, 0, 2, 0};
    lua_rawgeti(H, LUA_REGISTRYINDEX, v->b->services);
    lua_rawgeti(H, -1, v->id);
    lua_remove(H, -2);
    luaL_checkstack(H, v->nargs + 8, "too many arguments");
    for (int i = 1; i <= v->nargs; i++) dl_box_copy_out(H, v->S, i, 0, &x);
    lua_call(H, v->nargs, LUA_MULTRET);
    return lua_gettop(H) - 2;
}

int dl_box_service(lua_State *S)
{
    Box *b = dl_box_of(S);
    dl_box_tick(S);
    if (!b->H || (unsigned)lua_tointeger(S, lua_upvalueindex(2)) != b->gen)
        return luaL_error(S, "a ctx service (simulate, search, or the view and ctx fields first read now) works only during the call it was given to");
    lua_State *H = b->H;
    Svc v = {b, S, (int)lua_tointeger(S, lua_upvalueindex(1)), lua_gettop(S)};
    /* Room to read the arguments from H's side without growing S then. */
    luaL_checkstack(S, 2 * DL_BOX_MAX_DEPTH + 8, "arguments nested too deep");
    int htop = lua_gettop(H);
    if (!lua_checkstack(H, 8)) return luaL_error(S, "host stack overflow");
    lua_pushcfunction(H, service_host);
    lua_pushlightuserdata(H, &v);
    int st = lua_pcall(H, 1, LUA_MULTRET, 0);
    if (st != LUA_OK) {
        size_t n = 0;
        const char *m = lua_tolstring(H, -1, &n);
        if (m)
            lua_pushlstring(S, m, n);
        else
            lua_pushliteral(S, "a ctx function failed");
        lua_settop(H, htop);
        return lua_error(S);
    }
    int n = lua_gettop(H) - htop;
    luaL_checkstack(S, n + 8, "too many results");
    Crossing x = {0, 0, b, 0, 0, 0, 0};
    for (int i = 1; i <= n; i++) dl_box_copy_in(S, H, htop + i, 0, &x);
    lua_settop(H, htop);
    return n;
}

/* The natives: handed in by the host, they become the box's own. */
int dl_box_native_rng(lua_State *H)
{
    return luaL_error(H, "core.box.rng works only inside a script");
}

int dl_box_native_time_left(lua_State *H)
{
    lua_pushnil(H);
    return 1;
}

/* ---- the box userdata ---- */

static Box *check_box(lua_State *H, int idx)
{
    Box *b = luaL_checkudata(H, idx, BOX);
    return b;
}

static Box *open_box(lua_State *H, int idx)
{
    Box *b = check_box(H, idx);
    if (!b->S) luaL_error(H, "%s: the script was closed", b->label[0] ? b->label : "box");
    return b;
}

static int setup(lua_State *S)
{
    /* (the collector's own proportions: a box that keeps more garbage
     * about counts it against the pool every box shares, and is stopped
     * at its cap sooner; tests/lua/attack31_spec.lua) */
    lua_gc(S, LUA_GCGEN, 0, 0);
    dl_box_openlibs(S);
    lua_newtable(S);
    dl_box_of(S)->funcs = luaL_ref(S, LUA_REGISTRYINDEX);
    return 0;
}

static lua_Integer opt_int(lua_State *H, int t, const char *k, lua_Integer def, lua_Integer lo)
{
    lua_Integer v = def;
    if (lua_getfield(H, t, k) != LUA_TNIL) {
        int ok;
        v = lua_tointegerx(H, -1, &ok);
        if (!ok || v < lo) luaL_error(H, "box: %s must be a whole number of at least %d", k, (int)lo);
    }
    lua_pop(H, 1);
    return v;
}

static double opt_seconds(lua_State *H, int t, const char *k, double def)
{
    double v = def;
    if (lua_getfield(H, t, k) != LUA_TNIL) {
        if (!lua_isnumber(H, -1) || lua_tonumber(H, -1) < 0 || lua_tonumber(H, -1) > 86400)
            luaL_error(H, "box: %s must be a number of seconds", k);
        v = lua_tonumber(H, -1);
    }
    lua_pop(H, 1);
    return v;
}

static void read_limits(lua_State *H, int t, Box *b)
{
    b->budget = (long)opt_int(H, t, "budget", b->budget, 1);
    b->seconds = opt_seconds(H, t, "time", b->seconds);
    b->cap = opt_int(H, t, "memory", b->cap, 1 << 16);
    b->env.pattern.steps = (long)opt_int(H, t, "pattern_steps", b->env.pattern.steps, 1);
    if (lua_getfield(H, t, "label") == LUA_TSTRING) snprintf(b->label, sizeof b->label, "%s", lua_tostring(H, -1));
    lua_pop(H, 1);
}

/* ---- pools: what the boxes of a room hold together ---- */

static BoxPool *new_pool(lua_State *H, long long total)
{
    BoxPool *p = lua_newuserdatauv(H, sizeof *p, 0);
    p->used = 0;
    p->total = total;
    luaL_setmetatable(H, POOL);
    return p;
}

/* core.box.pool([{total = bytes}]) -> a pool of its own */
static int l_pool(lua_State *H)
{
    lua_Integer total = DL_BOX_TOTAL;
    if (!lua_isnoneornil(H, 1)) {
        luaL_checktype(H, 1, LUA_TTABLE);
        total = opt_int(H, 1, "total", total, 1 << 20);
        /* (the messages count it in MiB or KiB, as an int) */
        if (total > ((lua_Integer)1 << 40)) return luaL_error(H, "box: total must be at most 1 TiB");
    }
    new_pool(H, (long long)total);
    return 1;
}

/* pool:memory() -> bytes its boxes hold now, its total */
static int p_memory(lua_State *H)
{
    BoxPool *p = luaL_checkudata(H, 1, POOL);
    lua_pushinteger(H, (lua_Integer)p->used);
    lua_pushinteger(H, (lua_Integer)p->total);
    return 2;
}

/* Pushes the pool of the box being made: opts.pool, or the host state's
 * own (made when its first box is). */
static BoxPool *pool_for(lua_State *H, int opts)
{
    if (lua_getfield(H, opts, "pool") != LUA_TNIL) {
        BoxPool *p = luaL_testudata(H, -1, POOL);
        if (!p) luaL_error(H, "box: pool must be a pool (core.box.pool)");
        return p;
    }
    lua_pop(H, 1);
    if (lua_rawgetp(H, LUA_REGISTRYINDEX, &HOST_POOL) == LUA_TUSERDATA) return lua_touserdata(H, -1);
    lua_pop(H, 1);
    BoxPool *p = new_pool(H, DL_BOX_TOTAL);
    lua_pushvalue(H, -1);
    lua_rawsetp(H, LUA_REGISTRYINDEX, &HOST_POOL);
    return p;
}

/* Closes the script's state (if open) and frees the blocks it kept. */
static void close_state(Box *b)
{
    if (b->S) lua_close(b->S);
    b->S = NULL;
    dl_blocks_drop(&b->blocks);
}

/* core.box.new{label =, memory = bytes, budget = instructions, time = s,
 * pattern_steps = n, pool = a pool} */
static int l_new(lua_State *H)
{
    if (lua_isnoneornil(H, 1)) lua_newtable(H);
    luaL_checktype(H, 1, LUA_TTABLE);
    BoxPool *pool = pool_for(H, 1);
    Box *b = lua_newuserdatauv(H, sizeof *b, 1);
    memset(b, 0, sizeof *b);
    lua_rotate(H, -2, 1);
    lua_setiuservalue(H, -2, 1); /* the pool lives as long as the box */
    b->pool = pool;
    b->env.tick = dl_box_tick;
    b->env.room = room;
    b->env.tripped = tripped;
    b->env.pattern.steps = DL_PATTERN_STEPS;
    b->env.pattern.tick = dl_box_tick;
    b->env.pattern.room = room;
    b->budget = 10000000L;
    b->seconds = 1.0;
    b->cap = DL_BOX_MEMORY;
    b->funcs = LUA_NOREF;
    b->services = LUA_NOREF;
    b->service_ids = LUA_NOREF;
    luaL_setmetatable(H, BOX);
    read_limits(H, 1, b);
    long long cap = b->cap;
    b->cap = 0; /* the libraries themselves are not the script's doing */
    b->S = lua_newstate(box_alloc, b);
    if (!b->S) return luaL_error(H, "box: out of memory");
    dl_box_set_env(b->S, &b->env);
    lua_pushcfunction(b->S, setup);
    if (lua_pcall(b->S, 0, 0, 0) != LUA_OK) {
        close_state(b);
        return luaL_error(H, "box: cannot set up a script's state (out of memory)");
    }
    b->cap = cap;
    return 1;
}

/* box:run(src, chunkname [, {budget =, time =}]) -> true, values... | false, message.
 * Text only; what the chunk returns comes back with its functions as stubs. */
static int b_run(lua_State *H)
{
    Box *b = open_box(H, 1);
    size_t len;
    const char *src = luaL_checklstring(H, 2, &len);
    const char *chunk = luaL_optstring(H, 3, "=script");
    long budget = LOAD_BUDGET;
    double seconds = LOAD_SECONDS;
    if (!lua_isnoneornil(H, 4)) {
        luaL_checktype(H, 4, LUA_TTABLE);
        budget = (long)opt_int(H, 4, "budget", budget, 1);
        seconds = opt_seconds(H, 4, "time", seconds);
    }
    /* (what follows the limits is handed to the chunk as its ...) */
    if (lua_gettop(H) < 4) lua_settop(H, 4);
    Call c = {b, H, 0, src, chunk, len, 5, lua_gettop(H) - 4, 0, 1};
    int n = invoke(&c, budget, seconds, 1);
    if (n < 0) {
        lua_pushboolean(H, 0);
        lua_insert(H, -2);
        return 2;
    }
    lua_pushboolean(H, 1);
    lua_insert(H, -n - 1);
    return n + 1;
}

static int b_limits(lua_State *H)
{
    Box *b = check_box(H, 1);
    luaL_checktype(H, 2, LUA_TTABLE);
    read_limits(H, 2, b);
    return 0;
}

static int b_seed(lua_State *H)
{
    check_box(H, 1)->env.rng = (uint64_t)luaL_checkinteger(H, 2);
    return 0;
}

/* box:random(m, n): a draw from the script's own generator. */
static int b_random(lua_State *H)
{
    Box *b = check_box(H, 1);
    return dl_box_random(H, &b->env.rng, 2);
}

static int b_time_left(lua_State *H)
{
    Box *b = check_box(H, 1);
    if (!b->busy || b->deadline <= 0) {
        lua_pushnil(H);
    } else {
        double left = b->deadline - dl_box_now();
        lua_pushnumber(H, left > 0 ? left : 0);
    }
    return 1;
}

/* box:memory() -> bytes held now, the cap */
static int b_memory(lua_State *H)
{
    Box *b = check_box(H, 1);
    lua_pushinteger(H, (lua_Integer)b->used);
    lua_pushinteger(H, (lua_Integer)b->cap);
    return 2;
}

static int b_broken(lua_State *H)
{
    lua_pushboolean(H, check_box(H, 1)->broken);
    return 1;
}

/* Whether the last call failed at a crossing limit (too many values, too
 * much text, nested too deep), in or out. */
static int b_crossed(lua_State *H)
{
    lua_pushboolean(H, check_box(H, 1)->crossed);
    return 1;
}

static int b_close(lua_State *H)
{
    Box *b = check_box(H, 1);
    if (b->busy) return luaL_error(H, "box: cannot close a running script");
    close_state(b);
    return 0;
}

static int b_gc(lua_State *H)
{
    Box *b = check_box(H, 1);
    if (!b->busy) close_state(b);
    b->S = NULL;
    luaL_unref(H, LUA_REGISTRYINDEX, b->services);
    luaL_unref(H, LUA_REGISTRYINDEX, b->service_ids);
    b->services = b->service_ids = LUA_NOREF;
    return 0;
}

static int b_tostring(lua_State *H)
{
    Box *b = check_box(H, 1);
    lua_pushfstring(H, "box (%s)", b->label[0] ? b->label : "script");
    return 1;
}

/* core.box.of(f) -> the box a stub calls into, or nil */
static int l_of(lua_State *H)
{
    if (lua_tocfunction(H, 1) != dl_box_stub) return 0;
    lua_getupvalue(H, 1, 1);
    return 1;
}

/* core.box.params(f) -> how many parameters the script's function behind
 * stub f declares, and whether it takes more (...); nil for anything else
 * or a box that is closed or running. Read from the function's prototype:
 * nothing of the script runs. A moves hook that names no state is not
 * handed one (lua/scripts/variants.lua). */
static int l_params(lua_State *H)
{
    if (lua_tocfunction(H, 1) != dl_box_stub) return 0;
    lua_getupvalue(H, 1, 1);
    const Box *b = lua_touserdata(H, -1);
    lua_getupvalue(H, 1, 2);
    const lua_Integer id = lua_tointeger(H, -1);
    if (!b || !b->S || b->busy || id <= 0 || !lua_checkstack(b->S, 3)) return 0;
    lua_State *S = b->S;
    lua_rawgeti(S, LUA_REGISTRYINDEX, b->funcs);
    const int t = lua_rawgeti(S, -1, id);
    lua_remove(S, -2);
    if (t != LUA_TFUNCTION) {
        lua_pop(S, 1);
        return 0;
    }
    lua_Debug ar;
    lua_getinfo(S, ">u", &ar); /* (pops the function) */
    lua_pushinteger(H, ar.nparams);
    lua_pushboolean(H, ar.isvararg);
    return 2;
}

int dl_box_open(lua_State *H)
{
    static const luaL_Reg methods[] = {
        {"run", b_run},       {"limits", b_limits}, {"seed", b_seed},     {"random", b_random},
        {"time_left", b_time_left}, {"memory", b_memory}, {"broken", b_broken}, {"crossed", b_crossed},
        {"close", b_close},
        {NULL, NULL}};
    static const luaL_Reg meta[] = {{"__gc", b_gc}, {"__tostring", b_tostring}, {NULL, NULL}};
    static const luaL_Reg fns[] = {{"new", l_new},
                                   {"of", l_of},
                                   {"params", l_params},
                                   {"rng", dl_box_native_rng},
                                   {"time_left", dl_box_native_time_left},
                                   {"moves", dl_box_native_moves},
                                   {NULL, NULL}};
    if (luaL_newmetatable(H, BOX)) {
        luaL_setfuncs(H, meta, 0);
        luaL_newlib(H, methods);
        lua_setfield(H, -2, "__index");
        lua_pushboolean(H, 0);
        lua_setfield(H, -2, "__metatable");
    }
    lua_pop(H, 1);
    if (luaL_newmetatable(H, POOL)) {
        lua_createtable(H, 0, 1);
        lua_pushcfunction(H, p_memory);
        lua_setfield(H, -2, "memory");
        lua_setfield(H, -2, "__index");
        lua_pushboolean(H, 0);
        lua_setfield(H, -2, "__metatable");
    }
    lua_pop(H, 1);
    luaL_newlib(H, fns);
    lua_pushcfunction(H, l_pool);
    lua_setfield(H, -2, "pool");
    lua_pushinteger(H, (lua_Integer)DL_BOX_MEMORY);
    lua_setfield(H, -2, "memory");
    lua_pushinteger(H, (lua_Integer)DL_BOX_TOTAL);
    lua_setfield(H, -2, "total");
    return 1;
}
