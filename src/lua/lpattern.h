/* string.find, match, gmatch and gsub with Lua 5.4's exact semantics, but
 * with a bound on the work one call may do. Lua's own versions backtrack
 * inside a single C call, where no count hook can reach them: a script
 * could spend minutes in ("a"):rep(1e5):find(".-b"). These count their
 * steps instead and raise "string.NAME: pattern too costly (more than N
 * steps)" once a call goes over the budget. */
#ifndef DL_LPATTERN_H
#define DL_LPATTERN_H

#include <lua.h>

/* Steps one call may take (one gmatch iteration is one call). Chosen so
 * that the costliest kind of step still stops a call within about 50 ms
 * on the development machine: tools/pattern_bench.lua measured 550 to
 * 575 million steps a second for the slowest kinds (backtracking), so
 * a refused call costs at most about 35 ms there, and the stock library
 * would need about 16 ms for the biggest gsub allowed (a million
 * one-byte replacements, some 12 million steps). */
#define DL_PATTERN_STEPS 20000000L

/* The limits of one table of these functions: each box has its own, so
 * nothing one room or box sets reaches another's. */
typedef struct dl_PatternLimits {
    long steps; /* steps one call may take (>= 1) */
    /* Called at the start of each call, every DL_PATTERN_TICK steps and at
     * each gmatch iteration, when set: an owner with a clock of its own (a
     * script's time limit) looks at it there, since a call can take tens
     * of ms. It may raise. */
    void (*tick)(lua_State *L);
    /* When set, called before gsub builds its result with the most bytes
     * its buffer will hold (twice its subject's, a replacement aside): a
     * box collects first when they would pass its cap, as Lua does for
     * its own objects but not for a buffer's growth. */
    void (*room)(lua_State *L, size_t bytes);
} dl_PatternLimits;
#define DL_PATTERN_TICK 1000000L

/* Sets find, match, gmatch and gsub in the table at stack index idx,
 * bounded by *lim, which must outlive them (a box keeps its own limits
 * in its struct); the functions read lim at every call. */
void dl_pattern_open(lua_State *L, int idx, const dl_PatternLimits *lim);
/* The host's own table (core.pattern: tests and tools), with limits of
 * its own that dl_pattern_set_steps sets (steps >= 1; tests use small
 * ones) and dl_pattern_steps tells. No box reads them. */
void dl_pattern_register(lua_State *L, int idx);
void dl_pattern_set_steps(long steps);
long dl_pattern_steps(void);

#endif
