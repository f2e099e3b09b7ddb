/* diloti.wsclient in several threads at once, each with a Lua state of its
 * own and a few clients in it, against the echo server (tests/net/echo.c).
 * Test builds only (build/tests/ws_threads, run by wsclient_spec.lua).
 *
 *   ws_threads PORT [THREADS [ROUNDS]]   exit 0 when every thread's
 *   clients got back exactly what they sent. */
#define _POSIX_C_SOURCE 200809L
#include <lauxlib.h>
#include <lualib.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "net/net.h"

static const char CHUNK[] =
    "local port, id, rounds = ...\n"
    "local ws = require 'diloti.wsclient'\n"
    "local cs = {}\n"
    "for i = 1, 3 do\n"
    "  cs[i] = assert(ws.connect('ws://127.0.0.1:' .. port .. '/ws', { timeout = 10 }))\n"
    "end\n"
    "for r = 1, rounds do\n"
    "  for i, c in ipairs(cs) do assert(c:send(id .. '/' .. i .. '/' .. r)) end\n"
    "  for i, c in ipairs(cs) do\n"
    "    local m, why, reason = c:recv(10)\n"
    "    assert(m == id .. '/' .. i .. '/' .. r, 'got ' .. tostring(m) .. ' ' .. tostring(why) .. ' '\n"
    "      .. tostring(reason))\n"
    "  end\n"
    "end\n"
    "cs[1]:close()\n"
    "cs = nil\n"
    "collectgarbage()\n";

typedef struct {
    int port, id, rounds, ok;
    char err[256];
} Job;

static void *run(void *arg)
{
    Job *j = arg;
    lua_State *L = luaL_newstate();
    if (!L) return NULL;
    luaL_openlibs(L);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(L, luaopen_diloti_wsclient);
    lua_setfield(L, -2, "diloti.wsclient");
    lua_pop(L, 1);
    if (luaL_loadbuffer(L, CHUNK, sizeof CHUNK - 1, "=ws_threads") == LUA_OK) {
        lua_pushinteger(L, j->port);
        lua_pushinteger(L, j->id);
        lua_pushinteger(L, j->rounds);
        j->ok = lua_pcall(L, 3, 0, 0) == LUA_OK;
    }
    if (!j->ok) snprintf(j->err, sizeof j->err, "%s", lua_tostring(L, -1));
    lua_close(L);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: ws_threads PORT [THREADS [ROUNDS]]\n");
        return 2;
    }
    int port = (int)strtol(argv[1], NULL, 10);
    int n = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 4;
    int rounds = argc > 3 ? (int)strtol(argv[3], NULL, 10) : 50;
    if (n < 1 || n > 64) n = 4;
    Job jobs[64] = {{0}};
    pthread_t t[64];
    for (int i = 0; i < n; i++) {
        jobs[i].port = port, jobs[i].id = i + 1, jobs[i].rounds = rounds;
        if (pthread_create(&t[i], NULL, run, &jobs[i]) != 0) return 1;
    }
    int bad = 0;
    for (int i = 0; i < n; i++) {
        pthread_join(t[i], NULL);
        if (!jobs[i].ok) {
            fprintf(stderr, "thread %d: %s\n", i + 1, jobs[i].err);
            bad++;
        }
    }
    printf("%d threads, %d rounds each: %d failed\n", n, rounds, bad);
    return bad != 0;
}
