/* The diloti program: a Lua 5.4 host. Everything the user sees is Lua
 * (lua/cli.lua and friends, compiled in); this file only starts the
 * interpreter and runs that script under one protected call. */
#include <lauxlib.h>
#include <lualib.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>

#include "lua/hoststate.h"
#include "lua/lline.h"
#include "lua/ltext.h"
#include "net/net.h"

int luaopen_diloti(lua_State *L);

static int traceback(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) msg = luaL_tolstring(L, 1, NULL);
    luaL_traceback(L, L, msg, 1);
    /* The message may quote a script, a lesson or a record: printed with
     * its terminal controls shown, never obeyed (ltext.c). */
    size_t n;
    const char *tb = lua_tolstring(L, -1, &n);
    dl_clean_push(L, tb, n);
    return 1;
}

/* -0, +1: runs diloti.cli.main(args) and pushes its exit code. */
static int pmain(lua_State *L)
{
    int argc = (int)lua_tointeger(L, 1);
    char **argv = lua_touserdata(L, 2);
    luaL_openlibs(L);
    luaL_requiref(L, "diloti", luaopen_diloti, 0);
    /* Line editing is the host's own: require "diloti.line" finds it. */
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(L, luaopen_diloti_line);
    lua_setfield(L, -2, "diloti.line");
    lua_pop(L, 1);
    dl_net_preload(L);
    lua_getglobal(L, "require");
    lua_pushliteral(L, "diloti.cli");
    lua_call(L, 1, 1);
    lua_getfield(L, -1, "main");
    lua_createtable(L, argc, 1);
    for (int i = 1; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i);
    }
    lua_pushstring(L, argv[0]);
    lua_rawseti(L, -2, 0);
    lua_call(L, 1, 1);
    return 1;
}

int main(int argc, char **argv)
{
    /* The user's character set, for multibyte input at the table (7♥):
     * LC_CTYPE only, so that numbers and Lua's string order (strcoll)
     * stay the same everywhere. */
    setlocale(LC_CTYPE, "");
    lua_State *L = dl_host_newstate();
    if (!L) {
        fprintf(stderr, "diloti: cannot create the Lua state (out of memory)\n");
        return 1;
    }
    lua_pushcfunction(L, traceback);
    lua_pushcfunction(L, pmain);
    lua_pushinteger(L, argc);
    lua_pushlightuserdata(L, argv);
    int st = lua_pcall(L, 2, 1, 1);
    int code = 0;
    if (st != LUA_OK) {
        fprintf(stderr, "diloti: %s\n", lua_tostring(L, -1));
        code = 1;
    } else if (lua_isinteger(L, -1)) {
        code = (int)lua_tointeger(L, -1);
    }
    dl_host_close(L);
    return code;
}
