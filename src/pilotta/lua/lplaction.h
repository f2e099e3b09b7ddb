/* Pilotta's actions as Lua values: the table g:moves(true) lists for an
 * action, and the moves hook's list, whose tables a house rule's box
 * reads field by field (made when read). */
#ifndef DL_LPLACTION_H
#define DL_LPLACTION_H

#include <lua.h>

#include "pilotta/state.h"

/* Fills the fresh table on top with the action's fields (index 0: none;
 * text NULL: written from s). */
void pl_lua_setaction(lua_State *L, const pl_State *s, const pl_Action *a, lua_Integer index, const char *text);
void pl_lua_pushaction(lua_State *L, const pl_State *s, const pl_Action *a, lua_Integer index);
/* The first n actions of a as a list of pl_lua_pushaction's tables
 * without index. */
void pl_lua_pushlist(lua_State *L, const pl_State *s, const pl_Action *a, lua_Integer n);
/* The same list of tables, each empty but for what a script sets in it:
 * a field is made when read (box.h, dl_BoxLazy), from a copy of s and a
 * kept in the list. For a box's own state only. */
void pl_lua_pushlazylist(lua_State *L, const pl_State *s, const pl_Action *a, lua_Integer n);

#endif
