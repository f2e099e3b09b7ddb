/* diloti serve's runner for the boxes' calls (box.h, dl_box_set_runner):
 * each call of an AI (or a house rule) runs in a thread of its own at a
 * lower priority (nice +10), while the room's thread waits for it. When
 * the machine is busy with AIs thinking, a room whose person just moved
 * is served first: CFS weighs a nice-10 thread about a tenth of a normal
 * one, and wakes the normal one ahead of them. The box's state is used by
 * one thread at a time: the room's waits, untouched, until the call ends
 * (its services, called back from the box, run on the room's state then,
 * which nothing else touches meanwhile). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lua/box.h"
#include "net.h"

#define NICE 10

typedef struct {
    lua_State *S;
    int nargs, nres, msgh, status;
    double cpu; /* seconds the call used */
} Job;

/* The CPU its calls used, for each thread that made calls (a room's):
 * the room counts its scripts' CPU against its budget with it. */
static pthread_key_t spent_key;
static pthread_once_t spent_once = PTHREAD_ONCE_INIT;

static void make_key(void)
{
    pthread_key_create(&spent_key, free);
}

static void add_spent(double s)
{
    pthread_once(&spent_once, make_key);
    double *d = pthread_getspecific(spent_key);
    if (!d) {
        d = calloc(1, sizeof(double));
        if (!d || pthread_setspecific(spent_key, d) != 0) {
            free(d);
            return;
        }
    }
    *d += s;
}

double dl_net_think_cpu(void)
{
    pthread_once(&spent_once, make_key);
    const double *d = pthread_getspecific(spent_key);
    return d ? *d : 0;
}

static void *run_job(void *p)
{
    Job *j = p;
    /* (raising one's own nice value needs no privilege) */
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), NICE);
    j->status = lua_pcall(j->S, j->nargs, j->nres, j->msgh);
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    j->cpu = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
    return NULL;
}

static int run_below(lua_State *S, int nargs, int nres, int msgh)
{
    Job j = {S, nargs, nres, msgh, LUA_OK, 0};
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setstacksize(&a, 8u << 20);
    int made = pthread_create(&t, &a, run_job, &j);
    pthread_attr_destroy(&a);
    if (made != 0) return lua_pcall(S, nargs, nres, msgh); /* (no thread: here, at the room's priority) */
    pthread_join(t, NULL);
    add_spent(j.cpu);
    return j.status;
}

void dl_net_think_below(void)
{
    dl_box_set_runner(run_below);
}
