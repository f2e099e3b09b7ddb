/* Rules as a Lua table: the same fields as dl_Rules, by name. */
#ifndef DL_LRULES_H
#define DL_LRULES_H

#include <lua.h>

#include "diloti/rules.h"

/* Reads the table at idx over r (fields not given keep r's values).
 * Raises a Lua error naming the field on an unknown name or a bad type. */
void dl_lua_torules(lua_State *L, int idx, dl_Rules *r);
/* Pushes a fresh table with every field of r. */
void dl_lua_pushrules(lua_State *L, const dl_Rules *r);

#endif
