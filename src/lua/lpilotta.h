/* The Pilotta game handle for Lua (see lpilotta.c): the same methods as
 * Diloti's (lgame.c), over src/pilotta/. */
#ifndef DL_LPILOTTA_H
#define DL_LPILOTTA_H

#include <lua.h>

/* Registers the handle's metatable; pushes the constructor new{...}. */
int pl_lua_opengame(lua_State *L);
/* core.pilotta_rules(): the base game's rules table. */
int pl_lua_rules(lua_State *L);
/* core.pilotta_check_rules(t) -> true | nil, message */
int pl_lua_check_rules(lua_State *L);
/* Calls of Pilotta handles' methods and of new{...} so far. */
lua_Integer pl_lua_calls(void);

#endif
