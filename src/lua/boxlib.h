/* What a script may call (boxlib.c): the allow-list of the standard
 * library, each function under its box's clock. It sits below the box
 * itself (box.c), which tells it of the box through a dl_BoxEnv kept in
 * the state's extra space: the library calls the box's clock through
 * env->tick and never names box.c. */
#ifndef DL_BOXLIB_H
#define DL_BOXLIB_H

#include <lua.h>
#include <stdint.h>

#include "lpattern.h"

typedef struct dl_BoxEnv {
    /* Raises if the running call is over its time or was interrupted
     * (box.c): every library function calls it first, so a loop of
     * costly calls stops too. */
    void (*tick)(lua_State *S);
    /* Makes room for a buffer about to grow by bytes (box.c): collects
     * first when they would not fit, as Lua does for its own objects. */
    void (*room)(lua_State *S, size_t bytes);
    /* Has a limit stopped the running call (box.c)? Its error then goes
     * on past the script's message handlers (xpcall). */
    int (*tripped)(lua_State *S);
    uint64_t rng;             /* the script's math.random, seeded by the host */
    dl_PatternLimits pattern; /* the box's own pattern budget (tick: tick) */
} dl_BoxEnv;

/* The env of a box's state, set by its owner before dl_box_openlibs. */
static inline dl_BoxEnv *dl_box_env(lua_State *S)
{
    return *(dl_BoxEnv **)lua_getextraspace(S);
}
static inline void dl_box_set_env(lua_State *S, dl_BoxEnv *env)
{
    *(dl_BoxEnv **)lua_getextraspace(S) = env;
}

/* Builds S's globals from the allow-list (run protected, in S). */
void dl_box_openlibs(lua_State *S);
/* One draw of the core's splitmix64 from *state, as math.random takes its
 * arguments from index first on: a float, 1..n or m..n. */
int dl_box_random(lua_State *L, uint64_t *state, int first);
/* The script's seeded generator (math.random, core.box.rng inside). */
int dl_box_random_s(lua_State *S);
/* The box's clock when L is a box's state, nothing in the host: for the
 * natives (C functions that run in the host and in boxes alike). */
void dl_box_tick_any(lua_State *L);

#endif
