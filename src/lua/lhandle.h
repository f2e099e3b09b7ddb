/* What the game handles for Lua (lgame.c for Diloti, lpilotta.c for
 * Pilotta) do the same way: their user values (hooks, what is known of
 * the position, the names of the points score hooks add), the shaping of
 * a house rule's errors, the reading of a move argument, registration.
 * What a game does differently stays in its own file. */
#ifndef DL_LHANDLE_H
#define DL_LHANDLE_H

#include <lua.h>
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

/* Pushes nil, why; returns false. */
bool dl_lua_refuse(lua_State *L, const char *why);

#endif
