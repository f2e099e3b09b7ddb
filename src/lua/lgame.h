/* The diloti game handle for Lua (see lgame.c). */
#ifndef DL_LGAME_H
#define DL_LGAME_H

#include <lua.h>

#include "diloti/game.h"

/* Registers the Game metatable; pushes the constructor new{...}. */
int dl_lua_opengame(lua_State *L);
/* Calls of game methods and of new{...} so far (core.calls()). */
lua_Integer dl_lua_calls(void);

#endif
