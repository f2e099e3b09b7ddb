/* What a card of a rank would capture from a table, and what a list of
 * cards scores, worked out by the engine under the rules given (variants
 * included): the facts an AI plans with (ctx.best_capture, ctx.points).
 * They are Diloti's box natives (core.natives("diloti"), ops.c): handed
 * to a box, the same C functions run in the script's own state, touching
 * nothing but their arguments. Every argument is treated as hostile. */
#ifndef DL_LCAPTURE_H
#define DL_LCAPTURE_H

#include <lua.h>

/* best_capture(what, tbl [, rules]) -> {cards = list, count = n,
 * points = p, sweep = bool} | nil | nil, reason.
 * what: a card ("7h", "10♦"), a value 1..10 or a rank ("A" .. "K");
 * tbl: a view's table {loose = cards, declarations = {...}}; rules: as
 * g:rules() gives (Diloti's when absent). nil alone: a card of that rank
 * takes nothing (or all four are on the table). Raises on arguments of
 * the wrong type. */
int dl_capture_best(lua_State *L);
/* points(cards [, rules]) -> the points the cards score by themselves
 * (aces, the 10 of diamonds, the 2 of clubs) | nil, reason. */
int dl_capture_points(lua_State *L);

#endif
