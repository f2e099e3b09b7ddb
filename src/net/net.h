/* The network and storage layer of `diloti serve`: Lua modules over
 * libwebsockets (the server and a client) and SQLite (the rooms' store).
 * Generic: nothing here names a game. The host program preloads them;
 * a plain lua5.4 finds them in diloti.so (luaopen_diloti_NAME). */
#ifndef DL_NET_H
#define DL_NET_H

#include <lua.h>

int luaopen_diloti_net(lua_State *L);      /* server.c: diloti serve's loop and rooms' threads */
int luaopen_diloti_store(lua_State *L);    /* store.c: SQLite, for the rooms' records */
int luaopen_diloti_wsclient(lua_State *L); /* client.c: a WebSocket client, for join and the tests */

/* package.preload for the three, in a state the host makes. */
void dl_net_preload(lua_State *L);

#endif
