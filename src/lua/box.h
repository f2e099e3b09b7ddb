/* Boxes: every untrusted script (an AI, a house rule, a lesson) runs in a
 * lua_State of its own, with its own allocator, instruction budget and
 * clock. Only plain data crosses between the host and a box, copied by C
 * with limits on depth, size and key types; a function the script hands
 * back becomes a host "stub" that calls into the box again, and a host
 * function handed in (ctx.simulate) becomes a box "service" that works for
 * that one call only. See docs/security.md. */
#ifndef DL_BOX_H
#define DL_BOX_H

#include <lua.h>
#include <stdint.h>

#include "boxlib.h" /* (dl_box_random) */

/* Default memory cap of a box: everything its state holds. */
#define DL_BOX_MEMORY (64u << 20)
/* What all boxes of one pool together may hold, whatever their number: a
 * pool is a room's (core.box.pool), or the host state's when none is
 * given. Pools share nothing. */
#define DL_BOX_TOTAL (512u << 20)
/* The longest string a script may make: comparing two strings costs up to
 * ~10 ns a byte inside one VM instruction (strcoll per NUL). */
#define DL_BOX_MAX_STRING (1u << 20)
/* The longest error text of a script the host passes on: it reaches a
 * player's screen, a match report and a room's other players. */
#define DL_BOX_MAX_ERROR 4096u

/* Pushes the core.box table (new, pool, of, memory, total, and the
 * natives a host hands in: rng, time_left; a game's natives are
 * core.natives(name)). */
int dl_box_open(lua_State *H);
/* Stops whatever script runs now with "interrupted" (Ctrl-C); safe to
 * call from a signal handler. */
void dl_box_interrupt(void);

/* Runs a box's call: lua_pcall(S, nargs, nres, msgh) by default. A host
 * may run it elsewhere (diloti serve runs the scripts' calls in a thread
 * of lower priority, so that a person's move in another room comes
 * first), as long as it returns lua_pcall's answer once the call is done. */
typedef int (*dl_BoxRunner)(lua_State *S, int nargs, int nres, int msgh);
void dl_box_set_runner(dl_BoxRunner run);

/* A value the host makes in the box itself as it crosses in, instead of
 * making it in the host and copying it (a house rule's list of moves):
 * build pushes one value onto S, allocating in S under the box's limits,
 * and returns at most how many values it made, counted against the
 * crossing's limits as copied ones are. ctx (size bytes) is copied into
 * the value. In the host it is an opaque userdata; dl_box_built_end
 * makes it cross no more (afterwards it is refused like any userdata). */
typedef size_t (*dl_BoxBuild)(lua_State *S, const void *ctx);
void dl_box_push_built(lua_State *H, dl_BoxBuild build, const void *ctx, size_t size);
void dl_box_built_end(lua_State *H, int idx);

/* A table made in a box whose fields are made when read (the moves a
 * house rule's hook is given, the game's own code): its metatable, which
 * scripts cannot reach, holds under &dl_box_lazy_key a userdata that
 * begins with a dl_BoxLazy, and under the table itself the table's
 * number. Going out it is copied whole: to_host pushes onto H the table
 * the number stands for and returns at most how many values it made;
 * what a script set in the table is copied over it. */
typedef struct {
    size_t (*to_host)(lua_State *H, const void *self, lua_Integer i);
} dl_BoxLazy;
extern const char dl_box_lazy_key;

#endif
