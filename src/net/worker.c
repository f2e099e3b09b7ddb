/* Rooms in threads of their own (worker.h). A room's Lua state is made,
 * used and closed in its thread; the only things shared with the loop
 * are the inbox (under the room's mutex) and the outbox (under its own). */
#define _POSIX_C_SOURCE 200809L
#include "worker.h"
#include "net.h"

#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lua/hoststate.h"

#define CHAN "diloti.net.chan"

void dl_outbox_init(dl_Outbox *o, void (*wake)(void *), void *arg)
{
    pthread_mutex_init(&o->mu, NULL);
    o->head = o->tail = NULL;
    o->wake = wake;
    o->wake_arg = arg;
}

dl_Out *dl_outbox_take(dl_Outbox *o)
{
    pthread_mutex_lock(&o->mu);
    dl_Out *all = o->head;
    o->head = o->tail = NULL;
    pthread_mutex_unlock(&o->mu);
    return all;
}

int dl_outbox_put(dl_Outbox *o, int kind, long long conn, dl_Room *room, const char *text, size_t len)
{
    dl_Out *m = malloc(sizeof *m + len + 1);
    if (!m) return -1;
    m->next = NULL;
    m->kind = kind;
    m->conn = conn;
    m->room = room;
    m->len = len;
    if (len) memcpy(m->text, text, len);
    m->text[len] = '\0';
    pthread_mutex_lock(&o->mu);
    if (o->tail) o->tail->next = m;
    else o->head = m;
    o->tail = m;
    pthread_mutex_unlock(&o->mu);
    if (o->wake) o->wake(o->wake_arg);
    return 0;
}

static char *dup_bytes(const char *s, size_t len)
{
    char *d = malloc(len + 1);
    if (!d) return NULL;
    if (len) memcpy(d, s, len);
    d[len] = '\0';
    return d;
}

dl_Room *dl_room_new(const char *key, const char *module, const char *arg, size_t arg_len, dl_Outbox *out,
                     void (*open_host)(lua_State *L))
{
    dl_Room *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    snprintf(r->key, sizeof r->key, "%s", key);
    r->module = dup_bytes(module, strlen(module));
    r->arg = dup_bytes(arg, arg_len);
    r->arg_len = arg_len;
    r->out = out;
    r->open_host = open_host;
    pthread_mutex_init(&r->mu, NULL);
    /* (timed waits on the monotonic clock: a clock set back does not
     * stall a room) */
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&r->cv, &ca);
    pthread_condattr_destroy(&ca);
    if (!r->module || !r->arg) {
        dl_room_free(r);
        return NULL;
    }
    return r;
}

/* Whether a message of len bytes from conn would pass the inbox's
 * bounds (under r->mu). */
static int inbox_room(const dl_Room *r, long long conn, size_t len)
{
    size_t cost = sizeof(dl_Event) + len;
    if (r->nqueued >= DL_INBOX_EVENTS || r->queued + cost > DL_INBOX_BYTES) return 0;
    size_t mine = cost;
    for (const dl_Event *e = r->head; e; e = e->next)
        if (e->conn == conn && e->kind == DL_EV_MESSAGE) mine += sizeof(dl_Event) + e->len;
    return mine <= DL_INBOX_CONN_BYTES;
}

int dl_room_post(dl_Room *r, int kind, long long conn, const char *text, size_t len)
{
    dl_Event *e = malloc(sizeof *e + len + 1);
    if (!e) return -1;
    e->next = NULL;
    e->kind = kind;
    e->conn = conn;
    e->len = len;
    if (len) memcpy(e->text, text, len);
    e->text[len] = '\0';
    pthread_mutex_lock(&r->mu);
    if (r->done) {
        pthread_mutex_unlock(&r->mu);
        free(e);
        return -1;
    }
    if (kind == DL_EV_MESSAGE && !inbox_room(r, conn, len)) {
        pthread_mutex_unlock(&r->mu);
        free(e);
        return DL_POST_FULL;
    }
    if (r->tail) r->tail->next = e;
    else r->head = e;
    r->tail = e;
    r->queued += sizeof(dl_Event) + len;
    r->nqueued++;
    pthread_cond_signal(&r->cv);
    pthread_mutex_unlock(&r->mu);
    return 0;
}

void dl_room_free(dl_Room *r)
{
    if (r->started) pthread_join(r->thread, NULL);
    for (dl_Event *e = r->head, *n; e; e = n) {
        n = e->next;
        free(e);
    }
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->cv);
    free(r->module);
    free(r->arg);
    free(r);
}

/* ---- the room's side: chan ---- */

static dl_Room *check_chan(lua_State *L)
{
    return *(dl_Room **)luaL_checkudata(L, 1, CHAN);
}

static const char *const KINDS[] = {"open", "message", "close", "stop"};

/* Takes the oldest event, waiting until deadline (NULL: for ever). */
static dl_Event *wait_event(dl_Room *r, const struct timespec *deadline)
{
    pthread_mutex_lock(&r->mu);
    while (!r->head) {
        int st = deadline ? pthread_cond_timedwait(&r->cv, &r->mu, deadline) : pthread_cond_wait(&r->cv, &r->mu);
        if (st != 0 && !r->head) break;
    }
    dl_Event *e = r->head;
    if (e) {
        r->head = e->next;
        if (!r->head) r->tail = NULL;
        r->queued -= sizeof(dl_Event) + e->len;
        r->nqueued--;
    }
    pthread_mutex_unlock(&r->mu);
    return e;
}

/* chan:next([timeout]) -> "open"|"message"|"close"|"stop", conn, text;
 * or "timeout" when nothing came in timeout seconds. */
static int chan_next(lua_State *L)
{
    dl_Room *r = check_chan(L);
    lua_Number t = luaL_optnumber(L, 2, -1);
    struct timespec dl, *deadline = NULL;
    if (t >= 0) {
        if (t > 86400) t = 86400;
        clock_gettime(CLOCK_MONOTONIC, &dl);
        long long ns = (long long)(t * 1e9) + dl.tv_nsec;
        dl.tv_sec += (time_t)(ns / 1000000000LL);
        dl.tv_nsec = (long)(ns % 1000000000LL);
        deadline = &dl;
    }
    dl_Event *e = wait_event(r, deadline);
    if (!e) {
        lua_pushliteral(L, "timeout");
        return 1;
    }
    lua_pushstring(L, KINDS[e->kind]);
    lua_pushinteger(L, (lua_Integer)e->conn);
    lua_pushlstring(L, e->text, e->len);
    free(e);
    return 3;
}

static int chan_send(lua_State *L)
{
    dl_Room *r = check_chan(L);
    lua_Integer conn = luaL_checkinteger(L, 2);
    size_t len;
    const char *text = luaL_checklstring(L, 3, &len);
    if (dl_outbox_put(r->out, DL_OUT_SEND, (long long)conn, r, text, len) != 0) return luaL_error(L, "out of memory");
    lua_pushboolean(L, 1);
    return 1;
}

/* chan:close(conn[, reason]): the connection is closed after what was
 * sent to it before. */
static int chan_close(lua_State *L)
{
    dl_Room *r = check_chan(L);
    lua_Integer conn = luaL_checkinteger(L, 2);
    size_t len = 0;
    const char *why = luaL_optlstring(L, 3, "", &len);
    if (len > 120) len = 120; /* a WebSocket close reason is short */
    if (dl_outbox_put(r->out, DL_OUT_CLOSE, (long long)conn, r, why, len) != 0) return luaL_error(L, "out of memory");
    lua_pushboolean(L, 1);
    return 1;
}

/* chan:cpu() -> the seconds of CPU this room has used: its thread's, and
 * its scripts' calls run in threads of their own (think.c). */
static int chan_cpu(lua_State *L)
{
    check_chan(L);
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    lua_pushnumber(L, (lua_Number)ts.tv_sec + (lua_Number)ts.tv_nsec / 1e9 + dl_net_think_cpu());
    return 1;
}

static int chan_key(lua_State *L)
{
    lua_pushstring(L, check_chan(L)->key);
    return 1;
}

static int traceback(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) msg = luaL_tolstring(L, 1, NULL);
    luaL_traceback(L, L, msg, 1);
    return 1;
}

static int room_pmain(lua_State *L)
{
    dl_Room *r = lua_touserdata(L, 1);
    r->open_host(L);
    static const luaL_Reg methods[] = {{"next", chan_next}, {"send", chan_send}, {"close", chan_close},
                                       {"cpu", chan_cpu},   {"key", chan_key},   {NULL, NULL}};
    luaL_newmetatable(L, CHAN);
    luaL_newlib(L, methods);
    lua_setfield(L, -2, "__index");
    lua_pushliteral(L, "locked");
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
    lua_getglobal(L, "require");
    lua_pushstring(L, r->module);
    lua_call(L, 1, 1);
    lua_getfield(L, -1, "run");
    dl_Room **u = lua_newuserdatauv(L, sizeof(dl_Room *), 0);
    *u = r;
    luaL_setmetatable(L, CHAN);
    lua_pushlstring(L, r->arg, r->arg_len);
    lua_call(L, 2, 0);
    return 0;
}

static void *room_main(void *p)
{
    dl_Room *r = p;
    lua_State *L = dl_host_newstate();
    if (!L) {
        fprintf(stderr, "diloti serve: room %.8s: out of memory\n", r->key);
    } else {
        lua_pushcfunction(L, traceback);
        lua_pushcfunction(L, room_pmain);
        lua_pushlightuserdata(L, r);
        if (lua_pcall(L, 1, 0, 1) != LUA_OK)
            fprintf(stderr, "diloti serve: room %.8s stopped: %s\n", r->key, lua_tostring(L, -1));
        dl_host_close(L);
    }
    pthread_mutex_lock(&r->mu);
    r->done = 1;
    pthread_mutex_unlock(&r->mu);
    dl_outbox_put(r->out, DL_OUT_DONE, 0, r, NULL, 0);
    return NULL;
}

int dl_room_start(dl_Room *r)
{
    if (pthread_create(&r->thread, NULL, room_main, r) != 0) return -1;
    r->started = 1;
    return 0;
}
