#include <lauxlib.h>

#include "net.h"

void dl_net_preload(lua_State *L)
{
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(L, luaopen_diloti_net);
    lua_setfield(L, -2, "diloti.net");
    lua_pushcfunction(L, luaopen_diloti_store);
    lua_setfield(L, -2, "diloti.store");
    lua_pushcfunction(L, luaopen_diloti_wsclient);
    lua_setfield(L, -2, "diloti.wsclient");
    lua_pop(L, 1);
}
