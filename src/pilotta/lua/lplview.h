/* Pilotta's views, states and round breakdowns as fresh Lua tables. A
 * view is built from pl_View alone (src/pilotta/view.c), so it can hold
 * nothing P50 keeps from that seat. */
#ifndef DL_LPLVIEW_H
#define DL_LPLVIEW_H

#include <lua.h>

#include "pilotta/view.h"

extern const char *const pl_lua_phases[];
extern const char *const pl_lua_kinds[];

void pl_lua_pushcard(lua_State *L, int card);
/* A list of cards, pack order (clubs 7 first). */
void pl_lua_pushcards(lua_State *L, pl_Set s);
/* What seat may know; ply is the actions played in the round. */
void pl_lua_pushview(lua_State *L, const pl_State *s, int seat, int ply);
/* What a spectator may know: the public view, no hand. */
void pl_lua_pushspectator(lua_State *L, const pl_State *s, int ply);
/* Everything: the public view plus every hand and every announced card. */
void pl_lua_pushstate(lua_State *L, const pl_State *s, int ply);
/* A round's breakdown (P41-P46) per team, 0 and 1. */
void pl_lua_pushbreakdown(lua_State *L, const pl_RoundScore *r);
/* The contract {value, bid, suit, bidder, team, mult, contra_by, capot}
 * or nil before any bid. */
void pl_lua_pushcontract(lua_State *L, int bid, int suit, int bidder, int mult, int contra_by);

#endif
