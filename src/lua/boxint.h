/* Shared by box.c (the states and calls) and boxcopy.c (values crossing
 * between states), above boxlib.c (what a script may call). Not for users
 * of boxes: they see box.h and core.box only. */
#ifndef DL_BOXINT_H
#define DL_BOXINT_H

#include <lua.h>
#include <stddef.h>
#include <stdint.h>

#include "blocks.h"
#include "boxlib.h"

/* What one crossing may carry. */
#define DL_BOX_MAX_DEPTH 32
/* (a crowded table's move list, 11,700 moves, is ~320,000 values) */
#define DL_BOX_MAX_ITEMS 1000000

enum { TRIP_NONE, TRIP_BUDGET, TRIP_TIME, TRIP_INTERRUPT };

/* What the boxes of one pool hold together (a room's, or its host's). */
typedef struct BoxPool {
    long long used, total;
} BoxPool;

typedef struct Box {
    dl_BoxEnv env;       /* first: the state's extra space points here */
    BoxPool *pool;       /* kept alive by the box's user value */
    lua_State *S;        /* the script's state; NULL once closed */
    lua_State *H;        /* the host state calling in, during a call */
    long long used, cap; /* bytes S holds, exactly; cap 0 = none */
    dl_Blocks blocks;    /* freed small blocks kept for S (blocks.h) */
    int mem_tripped;     /* an allocation was refused: 1 the cap, 2 the pool's total, 3 a string's length */
    int big;             /* the script has made a long string: see hook_every */
    long budget;         /* VM instructions a call may run */
    double seconds;      /* wall-clock seconds a call may run; 0 = none */
    long cur_budget;     /* the running call's own limits (a main chunk's */
    double cur_seconds;  /* differ from the later calls'), for messages */
    long left;
    double deadline; /* monotonic seconds; 0 = none */
    int tripped;     /* TRIP_*: from then on every instruction raises */
    int busy;
    int broken; /* a limit stopped the last call: reload before trusting it */
    int crossed; /* the running or last call broke a crossing limit (boxcopy.c) */
    int funcs;  /* S registry ref: id -> function and function -> id */
    int nfuncs;
    int walked; /* values dl_box_register has looked at in this call */
    int services;    /* H registry ref: the call's host functions, id -> function */
    int service_ids; /* H registry ref: function -> id */
    int nserv;       /* ids given in this call (or one that stopped) */
    unsigned gen;   /* changes with every call: stale services refuse */
    char label[128];
    char trip[600]; /* the message of the limit that stopped the call */
} Box;

static inline Box *dl_box_of(lua_State *S)
{
    return (Box *)dl_box_env(S);
}
double dl_box_now(void);
/* Raises if the running call is over its time or was interrupted: every
 * library function checks it, so a loop of costly calls stops too. */
void dl_box_tick(lua_State *S);
/* Raises the limit's error from a hook (level 0) or a C function (1). */
int dl_box_trip(lua_State *S, Box *b, int kind, int level);
int dl_box_time_left_s(lua_State *S);

/* ---- crossing ---- */
typedef struct {
    int items;
    size_t bytes;
    Box *b;
    int map;    /* copy in: H index of {host function = service id}, or 0 */
    int box_ud; /* copy out: H index of the box userdata (stubs), or 0 */
    int memo;   /* copy out: H index of a nil, made {S table = its copy} once
                 * the crossing has copied a few tables; or 0 */
    int tables; /* tables copied out so far */
} Crossing;

/* Host value at idx onto S's stack. Runs in S, protected: raises in S
 * only, and allocates nothing in H. */
void dl_box_copy_in(lua_State *S, lua_State *H, int idx, int depth, Crossing *c);
/* S's value at idx onto H's stack, strings cleaned for the terminal.
 * Raises in H only; reads S without allocating (S must have stack room:
 * 2 * DL_BOX_MAX_DEPTH + 8 slots). */
void dl_box_copy_out(lua_State *H, lua_State *S, int idx, int depth, Crossing *c);
/* Gives every function in S's value at idx an id (funcs table at fidx),
 * so that copy_out can turn them into stubs. Runs in S, protected. */
void dl_box_register(lua_State *S, int idx, int fidx, int depth, Box *b);
/* Host closures standing for a box's functions, and the box-side
 * natives the host may hand in (core.box.rng, core.box.time_left). */
int dl_box_stub(lua_State *H);
int dl_box_native_rng(lua_State *H);
int dl_box_native_time_left(lua_State *H);
/* The box's own function a host function stands for when it is handed in
 * (a native: core.box.rng, time_left, a game's natives), or NULL. */
lua_CFunction dl_box_native(lua_CFunction f);
int dl_box_service(lua_State *S);

#endif
