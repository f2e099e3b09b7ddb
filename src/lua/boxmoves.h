/* A house rule's moves hook, called inside its box by C rather than by
 * the prelude's Lua (issue 29): the prelude's loops, counted instruction
 * by instruction, were a fifth of what a hooked position cost. */
#ifndef DL_BOXMOVES_H
#define DL_BOXMOVES_H

#include <lua.h>

/* core.box.moves in the host: it only stands for the box's own. */
int dl_box_native_moves(lua_State *H);

/* In the box: moves(f, list, ...) calls f(list, ...) and returns nil,
 * what it kept, its second result. What it kept is true when f kept
 * every move of list in its place (f may answer list itself or a new
 * table, and may change list in place); else each move of list stands
 * as its place in list as it was before the call (a hole as false), and
 * anything else as it is; a list longer than list is returned as it is
 * (the host refuses it unread). */
int dl_box_moves_s(lua_State *S);

#endif
