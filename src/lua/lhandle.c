/* The part of a game handle that does not depend on the game (see
 * lhandle.h): both handles keep their house rules and what they know in
 * the same user values, so one copy of that plumbing serves both. */
#include "lhandle.h"

#include <lauxlib.h>
#include <stdarg.h>
#include <string.h>

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

bool dl_lua_refuse(lua_State *L, const char *why)
{
    lua_pushnil(L);
    lua_pushstring(L, why);
    return false;
}
