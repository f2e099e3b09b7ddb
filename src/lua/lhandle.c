/* The part of a game handle that does not depend on the game (see
 * lhandle.h): both handles keep their house rules and what they know in
 * the same user values, so one copy of that plumbing serves both. */
#include "lhandle.h"

#include <math.h>

#include <lauxlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ltext.h"

bool dl_lua_get_hook(lua_State *L, int idx, const char *name)
{
    lua_getiuservalue(L, idx, 1);
    if (lua_getfield(L, -1, "hooks") != LUA_TTABLE) {
        lua_pop(L, 2);
        return false;
    }
    if (lua_getfield(L, -1, name) != LUA_TFUNCTION) {
        lua_pop(L, 3);
        return false;
    }
    lua_replace(L, -3);
    lua_pop(L, 1);
    return true;
}

bool dl_lua_has_hook(lua_State *L, int idx, const char *name)
{
    if (!dl_lua_get_hook(L, idx, name)) return false;
    lua_pop(L, 1);
    return true;
}

/* A clone shares its original's hooks but owns its labels: a round it
 * scores must not rename one of the original's. */
void dl_lua_init_values(lua_State *L, int from)
{
    if (from) lua_getiuservalue(L, from, 1);
    else lua_newtable(L);
    lua_setiuservalue(L, -2, 1);
    lua_newtable(L);
    if (from && lua_getiuservalue(L, from, 3) == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, -5);
        }
    }
    if (from) lua_pop(L, 1);
    lua_setiuservalue(L, -2, 3);
}

void dl_lua_set_hooks(lua_State *L, int arg)
{
    lua_getiuservalue(L, -1, 1);
    if (lua_getfield(L, arg, "hooks") == LUA_TTABLE) lua_setfield(L, -2, "hooks");
    else lua_pop(L, 1);
    lua_pop(L, 1);
}

void dl_lua_push_label(lua_State *L, int gi, int round)
{
    if (lua_getiuservalue(L, gi, 3) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_pushnil(L);
        return;
    }
    lua_rawgeti(L, -1, round);
    lua_remove(L, -2);
}

void dl_lua_set_label(lua_State *L, int gi, int round)
{
    lua_getiuservalue(L, gi, 3);
    lua_insert(L, -2);
    lua_rawseti(L, -2, round);
    lua_pop(L, 1);
}

/* Raised without a position: where the host happened to ask for the
 * moves says nothing to the rule's author. */
int dl_lua_hook_error(lua_State *L, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    lua_pushvfstring(L, fmt, ap);
    va_end(ap);
    return lua_error(L);
}

/* A variant's hooks (lua/scripts/variants.lua) say which rule, file, hook
 * and line failed: such a message is passed on as it is. */
bool dl_lua_names_rule(const char *msg)
{
    return msg && strncmp(msg, "house rule '", 12) == 0;
}

const char *dl_lua_hook_warning(lua_State *L, const char *hook, const char *fallback)
{
    const char *msg = lua_tostring(L, -1);
    const char *warn = dl_lua_names_rule(msg)
        ? lua_pushfstring(L, "%s; standard %s used for this round", msg, fallback)
        : lua_pushfstring(L, "house rule (%s hook) failed, standard %s used: %s", hook, fallback,
                          msg ? msg : "(an error that is not text)");
    lua_remove(L, -2);
    return warn;
}

/* ---- what is known of the position ---- */

/* Kept until the state changes, so that the moves hook runs once per
 * position and checking a move costs a lookup, not a rebuilt list. */
void dl_lua_push_cache(lua_State *L, int gi, unsigned *cached, unsigned version)
{
    if (*cached != version) {
        lua_createtable(L, 0, 2);
        lua_pushvalue(L, -1);
        lua_setiuservalue(L, gi, 2);
        *cached = version;
        return;
    }
    lua_getiuservalue(L, gi, 2);
}

void dl_lua_push_kept(lua_State *L, int gi, unsigned *cached, unsigned version, const char *key,
                      dl_LuaFill fill, void *u)
{
    dl_lua_push_cache(L, gi, cached, version);
    if (lua_getfield(L, -1, key) == LUA_TTABLE) {
        lua_remove(L, -2);
        return;
    }
    lua_pop(L, 1);
    fill(L, gi, u);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, key);
    lua_remove(L, -2);
}

/* ---- the moves hook ---- */

void dl_lua_call_moves_hook(lua_State *L)
{
    if (lua_pcall(L, 2, 3, 0) != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        if (dl_lua_names_rule(msg)) lua_error(L);
        dl_lua_hook_error(L, "house rule (moves hook) failed: %s",
                          msg ? msg : "(an error that is not text)");
    }
    /* (a warning: a house rule lost its call, lua/scripts/variants.lua) */
    if (lua_type(L, -1) != LUA_TSTRING) {
        lua_pop(L, 1);
        lua_pushnil(L);
    }
    if (!lua_istable(L, -3))
        dl_lua_hook_error(L, "house rule (moves hook) must return a list of moves");
    if (!lua_istable(L, -2)) {
        lua_newtable(L);
        lua_replace(L, -3);
    }
}

int dl_lua_take_moves_warning(lua_State *L)
{
    lua_getfield(L, -1, "warning");
    if (lua_type(L, -1) != LUA_TSTRING) {
        lua_pop(L, 2);
        return 0;
    }
    lua_pushnil(L);
    lua_setfield(L, -3, "warning");
    lua_remove(L, -2);
    return lua_gettop(L);
}

const char *dl_lua_join_warnings(lua_State *L, int first, const char *then)
{
    if (!first) return then;
    if (then) {
        /* (then is on top: replaced, so that the answer ends effect, warning) */
        const char *both = lua_pushfstring(L, "%s; %s", lua_tostring(L, first), then);
        lua_remove(L, -2);
        return both;
    }
    lua_pushvalue(L, first);
    return lua_tostring(L, -1);
}

bool dl_lua_verdict_allows(lua_State *L, const char *canon, lua_Integer *index)
{
    lua_getfield(L, -1, "pos");
    if (lua_getfield(L, -1, canon) == LUA_TNUMBER) {
        *index = lua_tointeger(L, -1);
        lua_pop(L, 3);
        return true;
    }
    lua_pop(L, 2);
    lua_getfield(L, -1, "reasons");
    lua_getfield(L, -1, canon);
    /* (the string lives on in the kept verdict) */
    const char *r = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    lua_pop(L, 3);
    return dl_lua_refuse(L, r ? r : "house rule: this move is not allowed");
}

lua_Integer dl_lua_allowed_count(lua_State *L)
{
    lua_getfield(L, -1, "order");
    const lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    lua_pop(L, 2);
    return n;
}

/* ---- the move argument ---- */

const char *dl_lua_move_text(lua_State *L, int idx, bool numbers)
{
    if (lua_istable(L, idx)) {
        lua_getfield(L, idx, "text");
        const char *t = numbers || lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        if (!t) luaL_argerror(L, idx, "a move table needs a 'text' field");
        lua_replace(L, idx);
        return t;
    }
    luaL_argexpected(L, lua_type(L, idx) == LUA_TSTRING, idx, "move string, table or number");
    return lua_tostring(L, idx);
}

lua_Integer dl_lua_rule_int(lua_State *L, const char *where, lua_Integer lo, lua_Integer hi)
{
    if (lua_type(L, -1) != LUA_TNUMBER) /* lua_tointegerx would take "4" */
        luaL_error(L, "%s: expected a whole number, got %s", where, luaL_typename(L, -1));
    int whole;
    lua_Integer v = lua_tointegerx(L, -1, &whole);
    if (whole) {
        if (v < lo || v > hi) luaL_error(L, "%s: %I is out of range", where, v);
        return v;
    }
    /* %g by hand, not luaL_tolstring: a number's metatable is anybody's. */
    const double x = (double)lua_tonumber(L, -1);
    char num[40];
    snprintf(num, sizeof num, "%.14g", x);
    if (x - x == 0 && x == floor(x)) luaL_error(L, "%s: %s is out of range", where, num);
    return luaL_error(L, "%s: %s is not a whole number", where, num);
}

bool dl_lua_move_number(lua_State *L, int arg, lua_Integer n, lua_Integer *i)
{
    int whole;
    *i = lua_tointegerx(L, arg, &whole);
    if (!whole) {
        /* Floats pass when they hold an integer; past the integers' range
         * a finite float is a whole number too, just out of range. (%g by
         * hand, not luaL_tolstring: a number's metatable is anybody's.) */
        const double x = (double)lua_tonumber(L, arg), two63 = 9223372036854775808.0;
        const bool far = x - x == 0 && (x >= two63 || -x > two63);
        char msg[160];
        if (far)
            snprintf(msg, sizeof msg, "no move number %.14g here (there %s %lld move%s)", x,
                     n == 1 ? "is" : "are", (long long)n, n == 1 ? "" : "s");
        else
            snprintf(msg, sizeof msg, "not a move: %.14g is not a whole number", x);
        return dl_lua_refuse(L, msg);
    }
    if (*i < 1 || *i > n) {
        lua_pushnil(L);
        lua_pushfstring(L, "no move number %I here (there %s %I move%s)", *i, n == 1 ? "is" : "are", n,
                        n == 1 ? "" : "s");
        return false;
    }
    return true;
}

/* ---- the round's end ---- */

/* A label is shown in results and records: plain text, cut short, so a
 * hook cannot put control characters or a page of text there. */
const char *dl_lua_read_label(lua_State *L, int idx, size_t max)
{
    lua_pushliteral(L, "label");
    lua_rawget(L, idx);
    if (lua_isnil(L, -1)) return NULL;
    if (lua_type(L, -1) != LUA_TSTRING) {
        lua_pop(L, 1);
        return lua_pushstring(L, "its label must be text (the name of the points the hook adds)");
    }
    size_t n;
    const char *t = lua_tolstring(L, -1, &n);
    dl_plain_push(L, t, n, max);
    lua_remove(L, -2);
    if (lua_rawlen(L, -1) == 0) {
        lua_pop(L, 1);
        lua_pushnil(L);
    }
    return NULL;
}

const char *dl_lua_bad_breakdown(lua_State *L, int t, const char *bad)
{
    const char *warn = lua_pushfstring(L, "house rule (score hook) returned a bad breakdown, "
                                          "standard scoring used: %s", bad);
    lua_replace(L, t);
    lua_settop(L, t);
    return warn;
}

/* Anything but a side's number or false leaves the standard rules to
 * decide, so a hook that only sometimes has a say returns nil. */
const char *dl_lua_call_match_hook(lua_State *L, int sides, int *decision)
{
    *decision = -2;
    if (lua_pcall(L, 1, 1, 0) != LUA_OK) return dl_lua_hook_warning(L, "match", "match end");
    if (lua_isinteger(L, -1)) {
        lua_Integer w = lua_tointeger(L, -1);
        if (w >= 0 && w < sides) *decision = (int)w;
    } else if (lua_isboolean(L, -1) && !lua_toboolean(L, -1)) {
        *decision = -1;
    }
    lua_pop(L, 1);
    return NULL;
}

/* ---- methods' answers ---- */

int dl_lua_check_refused(lua_State *L)
{
    lua_pushboolean(L, 0);
    lua_replace(L, -3);
    return 2;
}

/* The effect is a table, so the old `if g:play(m)` still reads it as
 * success; a warning comes second so that such a caller may ignore it. */
int dl_lua_play_answer(lua_State *L, int effect, bool match_over, const char *warn)
{
    lua_pushboolean(L, match_over);
    lua_setfield(L, effect, "match_over");
    if (!warn) return 1;
    lua_pushvalue(L, -1);
    lua_setfield(L, effect, "warning");
    return 2;
}

int dl_lua_push_round(lua_State *L, lua_Integer round, lua_Integer dealer, lua_Integer deal)
{
    lua_createtable(L, 0, 3);
    lua_pushinteger(L, round);
    lua_setfield(L, -2, "round");
    lua_pushinteger(L, dealer);
    lua_setfield(L, -2, "dealer");
    lua_pushinteger(L, deal);
    lua_setfield(L, -2, "deal");
    return 1;
}

/* ---- registration ---- */

/* Locked (__metatable false): a script cannot swap a handle's methods
 * for its own or reach the metatable of another game's handles. */
void dl_lua_handle_type(lua_State *L, const char *name, const luaL_Reg *methods,
                        lua_CFunction tostring, lua_CFunction gc)
{
    if (luaL_newmetatable(L, name)) {
        lua_pushcfunction(L, tostring);
        lua_setfield(L, -2, "__tostring");
        lua_pushcfunction(L, gc);
        lua_setfield(L, -2, "__gc");
        lua_pushcfunction(L, gc);
        lua_setfield(L, -2, "__close");
        luaL_checkversion(L);
        lua_newtable(L);
        luaL_setfuncs(L, methods, 0);
        lua_setfield(L, -2, "__index");
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
    }
    lua_pop(L, 1);
}
