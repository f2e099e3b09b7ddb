/* Limits for untrusted Lua (rule-variant hooks, AI scripts): a memory cap
 * through the allocator, an instruction budget through a count hook that
 * keeps firing once tripped (so a script's own pcall cannot swallow it),
 * and environments built from an allow-list. Scripts load as text only. */
#ifndef DL_SANDBOX_H
#define DL_SANDBOX_H

#include <lua.h>
#include <stddef.h>

/* As dl_sandbox_pcall, with a wall-clock limit too (seconds > 0), for
 * per-decision time limits: "time limit exceeded" when it runs out. */
int dl_sandbox_pcall_timed(lua_State *L, int nargs, int nresults, long limit, size_t memory,
                           double seconds);
/* Seconds left in the running sandboxed call's time limit, or -1. */
double dl_sandbox_time_left(void);
/* Defaults for one sandboxed call. */
#define DL_SANDBOX_BUDGET 10000000L       /* VM instructions */
#define DL_SANDBOX_MEMORY (64u << 20)     /* bytes allocated on top */

/* A new state whose allocator can enforce the cap (for the host). */
lua_State *dl_sandbox_newstate(void);
/* Makes an existing state's allocator able to enforce the cap (for the
 * module loaded into a plain lua5.4); harmless if already done. */
void dl_sandbox_install(lua_State *L);
/* Calls the function below nargs arguments like lua_pcall, under the
 * budget and the cap, with a traceback on error. On error the message at
 * the top says what broke: "instruction budget exceeded", "memory cap
 * exceeded" or the script's own error. Returns a lua_pcall status. */
int dl_sandbox_pcall(lua_State *L, int nargs, int nresults, long limit, size_t memory);
/* Pushes a fresh environment: safe base functions and private copies of
 * string, table, math and utf8. No io, os, debug, load, require, dofile,
 * collectgarbage, getmetatable, rawset, coroutine or string.dump; no __gc
 * metamethods; string.rep, the pattern functions and table.move refuse
 * the inputs that would run for minutes inside one C call. */
void dl_sandbox_env(lua_State *L);
/* Loads text (never bytecode) as a function whose _ENV is the table at
 * the top of the stack (popped). Pushes the function, or an error message
 * and returns non-zero. */
int dl_sandbox_load(lua_State *L, const char *src, size_t len, const char *chunkname);
/* Names whose code runs (a variant, an AI) in budget and memory messages;
 * "" for none. */
void dl_sandbox_label(const char *label);
/* The Lua functions sandbox.env(), sandbox.load(src, name, env) and
 * sandbox.call([{budget=, memory=, time=}], fn, ...) -> ok, results or
 * false, message; sandbox.time_left(); sandbox.label(name);
 * sandbox.allocated() (bytes ever allocated); sandbox.unmetered(fn, ...)
 * (host code only: no budget, no cap); sandbox.memory (the default cap). */
int dl_sandbox_lib(lua_State *L);

#endif
