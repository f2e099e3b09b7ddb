/* Pilotta's solver and search for the game handle (ops.c):
 * g:solve() and g:search{...}. */
#ifndef DL_LPLSEARCH_H
#define DL_LPLSEARCH_H

#include <lua.h>

#include "pilotta/state.h"

/* g:solve(): the double-dummy value of the play from s (all hands known). */
int pl_lua_solve(lua_State *L, const pl_State *s);
/* g:search{seat, deals, time, seed, infer, memory}, options at index arg:
 * PIMC from the seat's view (pl_view) only. */
int pl_lua_search(lua_State *L, const pl_State *s, int arg);

#endif
