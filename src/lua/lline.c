/* diloti.line: line editing for the table (libedit's readline interface),
 * with history, tab completion answered by a Lua function, and Ctrl-C.
 *
 * Ctrl-C has two meanings. At the prompt it drops the line being typed.
 * While Lua runs (a long computation typed at the table, an AI thinking)
 * it stops that computation, as lua.c does: the signal handler installs a
 * hook that raises "interrupted" at the next Lua instruction. The flag it
 * sets stays up until the table asks (line.interrupted()), so code that
 * swallowed the error still learns about it.
 *
 * While the computer thinks (an AI's move, the coach's or a hint's
 * search) line.busy(true) arms a timer: if the wait passes a third of a
 * second, "Thinking" and a dot every quarter second appear on the
 * terminal, written by the SIGALRM handler itself, since the search runs
 * in C where no Lua hook comes; line.busy(false) stops the timer and
 * erases what it wrote, before the table writes anything. Nothing when
 * the output is not a terminal. Ctrl-C is untouched.
 *
 * Only the host program links this (libedit); the diloti.so module that a
 * plain lua5.4 loads does without it. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <lauxlib.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <unistd.h>
#include <wchar.h>

#include <editline/readline.h>

#include "box.h"
#include "lline.h"

#define HISTORY_MAX 1000
#define COMPLETER "diloti.line.completer"

static volatile sig_atomic_t interrupted;
static lua_State *main_state;
static lua_State *completion_state; /* the state inside line.read, for completion */

static void stop_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    lua_sethook(L, NULL, 0, 0);
    luaL_error(L, "interrupted");
}

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
    dl_box_interrupt(); /* a script running now stops too: its state has a hook of its own */
    /* lua_sethook is safe to call from a signal handler (lua.c does it). */
    if (main_state) lua_sethook(main_state, stop_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

/* No SA_RESTART: a read() waiting at the prompt returns EINTR, so that
 * Ctrl-C drops the line at once instead of after the next key. */
static void catch_sigint(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

static int getc_interruptible(FILE *f)
{
    unsigned char c;
    for (;;) {
        ssize_t n = read(fileno(f), &c, 1);
        if (n == 1) return c;
        if (n == 0) return EOF;
        if (errno != EINTR || interrupted) return EOF;
    }
}

/* What libedit's readline gets from rl_getc_function becomes one
 * character of its line as it is: so a character is read whole here and
 * returned as its code (in the user's character set: setlocale in
 * main.c), or 7♥ would reach the line as three bytes taken for three
 * characters. */
static int getwc_interruptible(FILE *f)
{
    char buf[MB_LEN_MAX] = {0};
    mbstate_t st;
    memset(&st, 0, sizeof st);
    for (size_t n = 0; n < sizeof buf;) {
        int c = getc_interruptible(f);
        if (c == EOF) return EOF;
        buf[n++] = (char)c;
        wchar_t w;
        size_t r = mbrtowc(&w, buf, n, &st);
        if (r == (size_t)-2) {
            memset(&st, 0, sizeof st); /* incomplete: read on, decode afresh */
            continue;
        }
        if (r == (size_t)-1) return (unsigned char)buf[0]; /* not in the charset: the byte */
        return (int)w;
    }
    return (unsigned char)buf[0];
}

/* ---- the thinking line ---- */

#define BUSY_WORD "Thinking"
#define BUSY_MAX 40 /* the line stops growing here (within any terminal's width) */

static volatile sig_atomic_t busy_armed, busy_shown;

static void on_alarm(int sig)
{
    (void)sig;
    if (!busy_armed || busy_shown >= BUSY_MAX) return;
    int saved = errno; /* (write may set it under the code the signal interrupted) */
    if (busy_shown == 0) busy_shown = (sig_atomic_t)(write(STDOUT_FILENO, BUSY_WORD " ", sizeof BUSY_WORD) > 0
                                                        ? (int)sizeof BUSY_WORD : 0);
    if (write(STDOUT_FILENO, ".", 1) == 1) busy_shown++;
    errno = saved;
}

static void set_timer(double first, double every)
{
    struct itimerval t;
    memset(&t, 0, sizeof t);
    t.it_value.tv_sec = (time_t)first;
    t.it_value.tv_usec = (suseconds_t)((first - (double)(time_t)first) * 1e6);
    t.it_interval.tv_usec = (suseconds_t)(every * 1e6);
    setitimer(ITIMER_REAL, &t, NULL);
}

/* SA_RESTART: a read or write the timer interrupts goes on as if nothing
 * had happened. */
static void catch_alarm(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
}

/* busy(true[, delay]) -> whether the line may show (the output is a
 * terminal): after `delay` seconds (default 0.3; 0: at once) the line
 * appears. Already armed: nothing changes. busy(false) -> whether a line
 * was shown (and is now erased). */
static int l_busy(lua_State *L)
{
    if (lua_toboolean(L, 1)) {
        if (!isatty(STDOUT_FILENO)) {
            lua_pushboolean(L, 0);
            return 1;
        }
        if (!busy_armed) {
            double delay = luaL_optnumber(L, 2, 0.3);
            if (!(delay >= 0 && delay <= 60)) return luaL_error(L, "busy: the delay is 0 to 60 seconds");
            fflush(stdout); /* (what the table wrote comes first) */
            busy_shown = 0;
            busy_armed = 1;
            if (delay < 1e-6) on_alarm(SIGALRM);
            set_timer(delay < 1e-6 ? 0.25 : delay, 0.25);
        }
        lua_pushboolean(L, 1);
        return 1;
    }
    busy_armed = 0; /* (first: a tick from now on writes nothing) */
    set_timer(0, 0);
    const int shown = busy_shown;
    if (shown > 0) {
        char blank[BUSY_MAX + 16];
        memset(blank, ' ', sizeof blank);
        blank[0] = '\r';
        blank[shown + 1] = '\r';
        if (write(STDOUT_FILENO, blank, (size_t)shown + 2) < 0) {
            /* (nothing to do: the next line is written over it anyway) */
        }
    }
    busy_shown = 0;
    lua_pushboolean(L, shown > 0);
    return 1;
}

/* ---- completion ---- */

static char **matches;
static size_t nmatches, next_match;

static void free_matches(void)
{
    for (size_t i = next_match; i < nmatches; i++) free(matches[i]);
    free(matches);
    matches = NULL;
    nmatches = next_match = 0;
}

static char *next_candidate(const char *text, int state)
{
    (void)text;
    (void)state;
    if (next_match < nmatches) return matches[next_match++];
    return NULL;
}

/* -0, +0: asks the Lua completer for the candidates of the word at
 * [start, end) of the line; errors in the completer complete nothing. */
static void collect(lua_State *L, const char *word, int start)
{
    lua_getfield(L, LUA_REGISTRYINDEX, COMPLETER);
    if (!lua_isfunction(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    lua_pushstring(L, word);
    lua_pushstring(L, rl_line_buffer ? rl_line_buffer : "");
    lua_pushinteger(L, start + 1);
    if (lua_pcall(L, 3, 1, 0) != LUA_OK || !lua_istable(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    lua_Integer n = luaL_len(L, -1);
    matches = calloc((size_t)n + 1, sizeof *matches);
    for (lua_Integer i = 1; matches && i <= n; i++) {
        lua_rawgeti(L, -1, i);
        const char *s = lua_tostring(L, -1);
        if (s) {
            char *copy = strdup(s);
            if (copy) matches[nmatches++] = copy;
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

static char **complete(const char *word, int start, int end)
{
    (void)end;
    rl_attempted_completion_over = 1; /* never fall back to file names */
    free_matches();
    if (!completion_state) return NULL;
    collect(completion_state, word, start);
    if (nmatches == 0) {
        free_matches();
        return NULL;
    }
    return rl_completion_matches(word, next_candidate);
}

/* ---- the functions ---- */

static int is_terminal(void)
{
    return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
}

/* -0, +1: a line from stdin without editing (pipes, files). */
static int read_plain(lua_State *L, const char *prompt)
{
    fputs(prompt, stdout);
    fflush(stdout);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    int c, any = 0;
    while ((c = getc_interruptible(stdin)) != EOF && c != '\n') {
        luaL_addchar(&b, (char)c);
        any = 1;
    }
    luaL_pushresult(&b);
    if (c == EOF && !any) {
        lua_pop(L, 1);
        if (interrupted) lua_pushboolean(L, 0);
        else lua_pushnil(L);
    }
    return 1;
}

/* Ctrl-C at the prompt only drops the line: the hook the signal handler
 * set must not fire when this function returns to Lua. */
static void disarm(lua_State *L)
{
    lua_sethook(L, NULL, 0, 0);
    if (main_state && main_state != L) lua_sethook(main_state, NULL, 0, 0);
}

/* read(prompt) -> line | nil (end of input) | false (Ctrl-C at the prompt) */
static int l_read(lua_State *L)
{
    const char *prompt = luaL_optstring(L, 1, "> ");
    interrupted = 0;
    disarm(L);
    if (!is_terminal()) {
        int n = read_plain(L, prompt);
        disarm(L);
        return n;
    }
    completion_state = L;
    char *s = readline(prompt);
    completion_state = NULL;
    disarm(L);
    free_matches();
    if (interrupted) {
        free(s);
        fputc('\n', stdout);
        lua_pushboolean(L, 0);
    } else if (!s) {
        lua_pushnil(L);
    } else {
        lua_pushstring(L, s);
        free(s);
    }
    return 1;
}

/* history_add(line): lines worth recalling (not blank, not a repeat) */
static int l_history_add(lua_State *L)
{
    const char *s = luaL_checkstring(L, 1);
    if (!*s) return 0;
    HIST_ENTRY *last = history_length > 0 ? history_get(history_base + history_length - 1) : NULL;
    if (!last || !last->line || strcmp(last->line, s) != 0) add_history(s);
    return 0;
}

/* history_load(path) / history_save(path) -> true | nil, message */
static int history_result(lua_State *L, int err, const char *what, const char *path)
{
    if (err == 0) {
        lua_pushboolean(L, 1);
        return 1;
    }
    lua_pushnil(L);
    lua_pushfstring(L, "cannot %s history %s: %s", what, path, strerror(err > 0 ? err : errno));
    return 2;
}

static int l_history_load(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    return history_result(L, read_history(path), "read", path);
}

static int l_history_save(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    return history_result(L, write_history(path), "write", path);
}

/* completer(fn): fn(word, line, start) -> list of candidates for word */
static int l_completer(lua_State *L)
{
    if (!lua_isnoneornil(L, 1)) luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_settop(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, COMPLETER);
    return 0;
}

/* interrupted() -> whether Ctrl-C was pressed since the last call */
static int l_interrupted(lua_State *L)
{
    lua_pushboolean(L, interrupted != 0);
    interrupted = 0;
    lua_sethook(L, NULL, 0, 0);
    return 1;
}

static int l_isatty(lua_State *L)
{
    lua_pushboolean(L, is_terminal());
    return 1;
}

/* width() -> the columns of the terminal the output goes to, or nil when
 * it goes elsewhere (or the terminal does not say). Asked afresh on each
 * call, so that a resized window is followed. */
static int l_width(lua_State *L)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) lua_pushinteger(L, ws.ws_col);
    else lua_pushnil(L);
    return 1;
}

int luaopen_diloti_line(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"read", l_read},
        {"history_add", l_history_add},
        {"history_load", l_history_load},
        {"history_save", l_history_save},
        {"completer", l_completer},
        {"interrupted", l_interrupted},
        {"isatty", l_isatty},
        {"width", l_width},
        {"busy", l_busy},
        {NULL, NULL},
    };
    main_state = L;
    rl_readline_name = "diloti";
    rl_attempted_completion_function = complete;
    rl_getc_function = getwc_interruptible;
    rl_basic_word_break_characters = " \t\n,;=+";
    stifle_history(HISTORY_MAX);
    catch_sigint();
    catch_alarm();
    luaL_newlib(L, fns);
    return 1;
}
