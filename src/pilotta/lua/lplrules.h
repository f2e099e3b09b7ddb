/* Pilotta's rules as a Lua table: a field per house rule by name, the
 * rounding and the target, and game = "pilotta" (what tells the host
 * which game a rules table is for). */
#ifndef DL_LPLRULES_H
#define DL_LPLRULES_H

#include <lua.h>

#include "pilotta/rules.h"

/* Reads the table at idx over r; raises naming the field on an unknown
 * name or a bad type. */
void pl_lua_torules(lua_State *L, int idx, pl_Rules *r);
void pl_lua_pushrules(lua_State *L, const pl_Rules *r);
/* Is the table at idx a Pilotta rules table (game = "pilotta")? */
int pl_lua_isrules(lua_State *L, int idx);

#endif
