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

/* Runs the boxes' calls (the AIs', the house rules') at a lower priority
 * from now on, for the whole process (think.c). */
void dl_net_think_below(void);
/* The CPU seconds the calling thread's box calls used elsewhere. */
double dl_net_think_cpu(void);

/* package.preload for the three, in a state the host makes. */
void dl_net_preload(lua_State *L);

#endif
