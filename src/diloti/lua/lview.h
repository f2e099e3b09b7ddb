/* States, views and explanations as fresh Lua tables: each call makes
 * new ones, so whoever changes a copy changes only that copy. */
#ifndef DL_LVIEW_H
#define DL_LVIEW_H

#include <lua.h>

#include "diloti/moves.h"

/* A list of cards lowest first (the order of every card list here). */
void dl_lua_pushcards(lua_State *L, dl_Set s);
/* One card's name ("7h"). */
void dl_lua_pushcard(lua_State *L, int card);
/* The table as a view shows it: {loose = cards, declarations = {...}}. */
void dl_lua_pushtable(lua_State *L, const dl_State *s);
/* seat >= 0: what that seat may know (dl_view); -1: everything;
 * DL_LUA_SPECTATOR: what every seat sees in public (no hand). */
#define DL_LUA_SPECTATOR (-2)
void dl_lua_pushstate(lua_State *L, const dl_State *s, int seat);
/* A round's breakdown per side (0-based): cards, clubs, aces, xeris, the
 * pts_ fields and total, as g:result().round has it. */
void dl_lua_pushbreakdown(lua_State *L, const dl_RoundScore *r, int sides);
/* A sentence saying what a legal move does. */
void dl_lua_pushexplain(lua_State *L, const dl_State *s, const dl_Move *m);

#endif
