/* A room's thread: its own Lua state, an inbox of what its clients sent,
 * and a way to answer them through the server's outbox. The server's
 * event loop never waits for a room: it posts to the inbox and goes on;
 * the room's thread posts its frames to the outbox and wakes the loop. */
#ifndef DL_NET_WORKER_H
#define DL_NET_WORKER_H

#include <lua.h>
#include <pthread.h>
#include <stddef.h>

/* What a room hears (dl_Event.kind) and what it says (dl_Out.kind). */
enum { DL_EV_OPEN, DL_EV_MESSAGE, DL_EV_CLOSE, DL_EV_STOP };
enum { DL_OUT_SEND, DL_OUT_CLOSE, DL_OUT_DONE };

typedef struct dl_Event {
    struct dl_Event *next;
    int kind;
    long long conn;
    size_t len;
    char text[];
} dl_Event;

typedef struct dl_Out {
    struct dl_Out *next;
    int kind;
    long long conn;
    struct dl_Room *room; /* DL_OUT_DONE: the room whose thread ended */
    size_t len;
    char text[];
} dl_Out;

/* The outbox every room writes to and the loop drains; wake() tells the
 * loop there is something (lws_cancel_service). */
typedef struct dl_Outbox {
    pthread_mutex_t mu;
    dl_Out *head, *tail;
    void (*wake)(void *);
    void *wake_arg;
} dl_Outbox;

typedef struct dl_Room {
    struct dl_Room *next; /* the server's list (main thread only) */
    char key[72];
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    dl_Event *head, *tail;
    int done;     /* its thread has ended (set under mu) */
    int started;
    dl_Outbox *out;
    char *module; /* the Lua module whose run(chan, arg) is the room */
    char *arg;
    size_t arg_len;
    void (*open_host)(lua_State *L); /* opens the host's libraries in the room's state */
} dl_Room;

void dl_outbox_init(dl_Outbox *o, void (*wake)(void *), void *arg);
/* Takes the whole outbox (oldest first); the caller frees each with free(). */
dl_Out *dl_outbox_take(dl_Outbox *o);
int dl_outbox_put(dl_Outbox *o, int kind, long long conn, dl_Room *room, const char *text, size_t len);

/* A new room (not started): NULL when out of memory. */
dl_Room *dl_room_new(const char *key, const char *module, const char *arg, size_t arg_len, dl_Outbox *out,
                     void (*open_host)(lua_State *L));
int dl_room_start(dl_Room *r);
/* Posts an event: 0, or -1 when the room has ended or memory ran out. */
int dl_room_post(dl_Room *r, int kind, long long conn, const char *text, size_t len);
/* Waits for the thread (after DL_OUT_DONE) and frees the room. */
void dl_room_free(dl_Room *r);

#endif
