/* diloti.line: line editing, history, completion and Ctrl-C for the
 * table. Linked into the host program only (it needs libedit). */
#ifndef DL_LLINE_H
#define DL_LLINE_H

#include <lua.h>

int luaopen_diloti_line(lua_State *L);

#endif
