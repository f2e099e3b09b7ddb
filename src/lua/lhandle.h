/* What the game handles for Lua (lgame.c for Diloti, lpilotta.c for
 * Pilotta) do the same way: their user values (hooks, what is known of
 * the position, the names of the points score hooks add), the shaping of
 * a house rule's errors, the reading of a move argument, registration.
 * What a game does differently stays in its own file. */
#ifndef DL_LHANDLE_H
#define DL_LHANDLE_H

#include <lauxlib.h>
#include <lua.h>
#include <stddef.h>
#include <stdbool.h>

/* Pushes hooks[name] (a function) or returns false with nothing pushed. */
bool dl_lua_get_hook(lua_State *L, int idx, const char *name);
bool dl_lua_has_hook(lua_State *L, int idx, const char *name);

/* Sets the user values of the new handle on top: 1 {hooks = ...} shared
 * with the handle at `from` (0: none, a fresh table), 3 a copy of its
 * labels. The 2nd (what is known of the position) starts empty. */
void dl_lua_init_values(lua_State *L, int from);
/* Puts the constructor's hooks (its table argument at arg) in the handle
 * on top. */
void dl_lua_set_hooks(lua_State *L, int arg);

/* Pushes the label of a finished round, or nil. */
void dl_lua_push_label(lua_State *L, int gi, int round);
/* Sets (or with nil on top, clears) the label of a round; pops it. */
void dl_lua_set_label(lua_State *L, int gi, int round);

/* Raises a house rule's failure, without a position. */
int dl_lua_hook_error(lua_State *L, const char *fmt, ...);
/* Does an error already name its house rule? */
bool dl_lua_names_rule(const char *msg);
/* Replaces a failed score or match hook's error on top with its warning
 * and returns it. */
const char *dl_lua_hook_warning(lua_State *L, const char *hook, const char *fallback);

/* Pushes nil, why; returns false. Inline so that the analyzer (make lint)
 * sees a refused move is never read. */
static inline bool dl_lua_refuse(lua_State *L, const char *why)
{
    lua_pushnil(L);
    lua_pushstring(L, why);
    return false;
}

/* The whole number on top of the stack for a rules field, within
 * [lo, hi]; a whole float counts. Otherwise raises "where: ..." quoting
 * the number as the script wrote it. */
lua_Integer dl_lua_rule_int(lua_State *L, const char *where, lua_Integer lo, lua_Integer hi);

/* Pushes nil, why; returns 2 (a method's answer when it refuses). */
static inline int dl_lua_nil_why(lua_State *L, const char *why)
{
    lua_pushnil(L);
    lua_pushstring(L, why);
    return 2;
}

/* t[k] = v for the table on top. */
static inline void dl_lua_set_int(lua_State *L, const char *k, lua_Integer v)
{
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

/* ---- what is known of the position (the second user value) ---- */

/* Pushes the table kept about this position, fresh when the state has
 * changed since (*cached is the version it was made for). */
void dl_lua_push_cache(lua_State *L, int gi, unsigned *cached, unsigned version);
/* Pushes cache[key], made by fill (which pushes it) when not kept yet. */
typedef void (*dl_LuaFill)(lua_State *L, int gi, void *u);
void dl_lua_push_kept(lua_State *L, int gi, unsigned *cached, unsigned version, const char *key,
                      dl_LuaFill fill, void *u);

/* ---- the moves hook ---- */

/* Calls the moves hook with the hook, the list and the state on the
 * stack; leaves the list it returned, its reasons (a table) and a warning
 * (a string when a house rule lost its call at a crossing limit, or nil).
 * Raises for a failure or a list that is not a table. */
void dl_lua_call_moves_hook(lua_State *L);
/* With the verdict on top (popped): pushes its warning and returns its
 * index, cleared from the verdict so that it is reported once; or 0,
 * pushing nothing. */
int dl_lua_take_moves_warning(lua_State *L);
/* The warning a move's answer carries: the moves hook's (at index first,
 * 0 for none) and then (on top of the stack when not NULL), joined; on
 * top of the stack when there is one. */
const char *dl_lua_join_warnings(lua_State *L, int first, const char *then);
/* With the verdict on top (popped): true and *index the move's number in
 * g:moves() if the house rules allow the move (text canon), or pushes
 * nil, their reason and returns false. */
bool dl_lua_verdict_allows(lua_State *L, const char *canon, lua_Integer *index);

/* With the verdict on top (popped): how many moves the house rules
 * allow, the length of g:moves(). */
lua_Integer dl_lua_allowed_count(lua_State *L);

/* ---- the move argument ---- */

/* The move argument at idx as text: a string, or a table's text field
 * (with numbers, a number there counts as its text). Raises otherwise. */
const char *dl_lua_move_text(lua_State *L, int idx, bool numbers);
/* A move's number at arg among n: true with *i, or pushes nil and why. */
bool dl_lua_move_number(lua_State *L, int arg, lua_Integer n, lua_Integer *i);

/* ---- the round's end: score and match hooks ---- */

/* Pushes the hook's label (field label of the table at idx) as plain text
 * of at most max bytes, nil for none or only blanks, and returns NULL; or
 * pushes and returns what is wrong with it. */
const char *dl_lua_read_label(lua_State *L, int idx, size_t max);
/* The warning for a score hook's bad breakdown (at t, the problem bad on
 * top of it): left at t, the stack cut there. */
const char *dl_lua_bad_breakdown(lua_State *L, int t, const char *bad);
/* Calls the match hook (hook and state on the stack, popped): its
 * warning if it failed, else NULL and *decision the side it names the
 * winner (0 to sides - 1), -1 for a match that goes on, -2 for no say. */
const char *dl_lua_call_match_hook(lua_State *L, int sides, int *decision);

/* ---- methods' answers ---- */

/* g:check's answer to a move it cannot find: false, reason in place of
 * find's nil, reason. Returns 2. */
int dl_lua_check_refused(lua_State *L);
/* g:play's answer once the effect (at effect) is built and the round's
 * hooks have run: match_over, and warn (a failed hook's warning on top,
 * or NULL) as a second result and effect.warning. */
int dl_lua_play_answer(lua_State *L, int effect, bool match_over, const char *warn);
/* g:next_round's answer: {round, dealer, deal}. Returns 1. */
int dl_lua_push_round(lua_State *L, lua_Integer round, lua_Integer dealer, lua_Integer deal);

/* Registers a handle's metatable under name, locked, with its methods,
 * __tostring and gc (also __close). */
void dl_lua_handle_type(lua_State *L, const char *name, const luaL_Reg *methods,
                        lua_CFunction tostring, lua_CFunction gc);

#endif
