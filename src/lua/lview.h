/* States, views and explanations as fresh read-only Lua tables. */
#ifndef DL_LVIEW_H
#define DL_LVIEW_H

#include <lua.h>

#include "moves.h"

/* seat >= 0: what that seat may know (dl_view); -1: everything. */
void dl_lua_pushstate(lua_State *L, const dl_State *s, int seat);
/* A sentence saying what a legal move does. */
void dl_lua_pushexplain(lua_State *L, const dl_State *s, const dl_Move *m);
/* Makes the table at the top (and every table inside it) read-only:
 * replaces it with a proxy whose writes raise an error. */
void dl_lua_readonly(lua_State *L);

#endif
