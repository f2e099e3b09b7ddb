/* A host's own Lua state (the program's, a room's thread's) whose small
 * freed blocks are kept for reuse (blocks.h): a move, a view, a crossing
 * into a box make and drop many of a few sizes. Otherwise as
 * luaL_newstate's: a panic prints and aborts, warnings are off. */
#ifndef DL_HOSTSTATE_H
#define DL_HOSTSTATE_H

#include <lua.h>

/* NULL when out of memory. */
lua_State *dl_host_newstate(void);
/* Closes it and frees its kept blocks. */
void dl_host_close(lua_State *L);

#endif
