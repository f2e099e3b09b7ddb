/* diloti.wsclient: a blocking WebSocket client over libwebsockets, for
 * `diloti join` and the server's tests.
 *
 *   local c, err = wsclient.connect("ws://127.0.0.1:8080/ws", { timeout = 5 })
 *   c:send(text)          -> true | nil, "closed", reason | nil, "timeout"
 *   c:recv(seconds)       -> text | nil, "timeout" | nil, "closed", reason
 *   c:close(), c:fd()
 *
 * Each client has an lws_context of its own and is serviced only inside
 * its own calls, in the calling thread: several clients in one state, and
 * states in several threads, never share anything but lws's log level.
 * The lws callbacks never touch Lua; they fill the client's queues, which
 * the Lua functions read after servicing. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <lauxlib.h>
#include <libwebsockets.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net.h"

#define CL_MT "diloti.wsclient"
#define CL_URL_MAX 2048
#define CL_HOST_MAX 256
#define CL_ORIGIN_MAX 1024
#define CL_SOURCE_MAX 45 /* INET6_ADDRSTRLEN - 1 */
#define CL_PROTO_MAX 128
#define CL_MAX_DEFAULT 1048576.0
#define CL_MAX_LIMIT 1073741824.0
/* lws_write takes an int's worth: sends are capped well below that. */
#define CL_SEND_LIMIT ((size_t)64 << 20)
#define CL_TIMEOUT_LIMIT 86400.0
/* How long close() waits for the server to answer the close frame. */
#define CL_CLOSE_WAIT 1.0

enum { CL_CONNECTING, CL_OPEN, CL_CLOSED };

typedef struct cl_Msg {
    struct cl_Msg *next;
    size_t len;
    unsigned char *data; /* outgoing: LWS_PRE bytes of room first */
} cl_Msg;

typedef struct {
    cl_Msg *head, *tail;
} cl_Queue;

typedef struct {
    struct lws_context *ctx;
    struct lws *wsi;
    int state;
    int closing; /* close() asked for a close frame */
    char reason[256];
    size_t max;
    double timeout;
    unsigned char *rx; /* the message being reassembled */
    size_t rx_len, rx_cap;
    cl_Queue in, out;
    lws_sorted_usec_list_t sul;
    struct lws_protocols protocols[2];
    char proto[CL_PROTO_MAX + 1];
    char origin[CL_ORIGIN_MAX + 1];
    char source[CL_SOURCE_MAX + 1];
    char address[CL_HOST_MAX + 1];
    char host[CL_HOST_MAX + 16];
    char path[CL_URL_MAX + 2];
    int port, tls;
} Client;

/* ---- small helpers ---- */

static double cl_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void cl_queue_push(cl_Queue *q, cl_Msg *m)
{
    m->next = NULL;
    if (q->tail) q->tail->next = m;
    else q->head = m;
    q->tail = m;
}

static cl_Msg *cl_queue_pop(cl_Queue *q)
{
    cl_Msg *m = q->head;
    if (m) {
        q->head = m->next;
        if (!q->head) q->tail = NULL;
    }
    return m;
}

static void cl_queue_free(cl_Queue *q)
{
    for (cl_Msg *m; (m = cl_queue_pop(q));) {
        free(m->data);
        free(m);
    }
}

/* The first reason a connection ended is the one kept. */
static void cl_set_closed(Client *c, const char *fmt, ...)
{
    if (c->state != CL_CLOSED && !c->reason[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->reason, sizeof c->reason, fmt, ap);
        va_end(ap);
    }
    c->state = CL_CLOSED;
}

/* A close frame's status and words, for the reason recv reports. */
static void cl_peer_close(Client *c, const unsigned char *in, size_t len)
{
    if (c->reason[0]) return;
    if (len < 2) {
        snprintf(c->reason, sizeof c->reason, "the server closed the connection");
        return;
    }
    unsigned code = (unsigned)in[0] << 8 | in[1];
    size_t n = len - 2;
    if (n > 120) n = 120;
    char words[121];
    for (size_t i = 0; i < n; i++) /* only printable ASCII reaches the message */
        words[i] = in[2 + i] >= 0x20 && in[2 + i] < 0x7f ? (char)in[2 + i] : '?';
    words[n] = '\0';
    snprintf(c->reason, sizeof c->reason, "the server closed the connection (%u%s%s)", code,
             n ? ": " : "", words);
}

/* ---- the lws side: never touches Lua ---- */

static int cl_receive(Client *c, struct lws *wsi, const void *in, size_t len)
{
    if (len > c->max - c->rx_len) {
        cl_set_closed(c, "a message from the server is larger than the limit of %zu bytes (o.max)",
                      c->max);
        lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, (unsigned char *)"too large", 9);
        return -1;
    }
    if (c->rx_len + len > c->rx_cap || !c->rx) {
        size_t cap = c->rx_cap ? c->rx_cap : 256;
        while (cap < c->rx_len + len) cap = cap > c->max / 2 ? c->max : cap * 2;
        unsigned char *p = realloc(c->rx, cap ? cap : 1);
        if (!p) {
            cl_set_closed(c, "out of memory receiving a message");
            return -1;
        }
        c->rx = p, c->rx_cap = cap;
    }
    if (len) memcpy(c->rx + c->rx_len, in, len);
    c->rx_len += len;
    if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi)) return 0;
    cl_Msg *m = malloc(sizeof *m);
    if (!m) {
        cl_set_closed(c, "out of memory receiving a message");
        return -1;
    }
    /* the buffer moves to the message: no copy */
    m->data = c->rx, m->len = c->rx_len;
    c->rx = NULL, c->rx_len = c->rx_cap = 0;
    cl_queue_push(&c->in, m);
    return 0;
}

static int cl_writeable(Client *c, struct lws *wsi)
{
    cl_Msg *m = c->out.head;
    if (m) {
        int n = lws_write(wsi, m->data + LWS_PRE, m->len, LWS_WRITE_TEXT);
        if (n < 0 || (size_t)n < m->len) {
            cl_set_closed(c, "the connection failed while sending");
            return -1;
        }
        free(cl_queue_pop(&c->out)->data);
        free(m);
    }
    if (c->out.head) {
        lws_callback_on_writable(wsi);
    } else if (c->closing) {
        lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, (unsigned char *)"bye", 3);
        return -1;
    }
    return 0;
}

static int cl_callback(struct lws *wsi, enum lws_callback_reasons why, void *user, void *in,
                       size_t len)
{
    (void)user;
    Client *c = lws_context_user(lws_get_context(wsi));
    if (!c) return 0;
    switch (why) {
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        if (in && !strcmp(in, "read failed")) /* lws's words when the server hangs up on the upgrade */
            cl_set_closed(c, "cannot connect to %s: the server closed the connection during the handshake "
                             "(a wrong path, origin or subprotocol?)", c->host);
        else cl_set_closed(c, "cannot connect to %s: %s", c->host, in ? (const char *)in : "connection failed");
        c->wsi = NULL;
        break;
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        c->state = CL_OPEN;
        if (c->out.head || c->closing) lws_callback_on_writable(wsi);
        break;
    case LWS_CALLBACK_CLIENT_RECEIVE:
        return cl_receive(c, wsi, in, len);
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        return cl_writeable(c, wsi);
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        cl_peer_close(c, in, len);
        break;
    case LWS_CALLBACK_CLIENT_CLOSED:
        cl_set_closed(c, "%s", c->closing ? "closed by this client" : "the connection was lost");
        c->wsi = NULL;
        break;
    case LWS_CALLBACK_WSI_DESTROY:
        if (wsi == c->wsi) {
            cl_set_closed(c, "the connection was lost");
            c->wsi = NULL;
        }
        break;
    default:
        break;
    }
    return 0;
}

/* A scheduled wake-up: lws sleeps until its next timer, so each bounded
 * wait schedules one at its deadline. Nothing to do when it fires. */
static void cl_wake(lws_sorted_usec_list_t *sul)
{
    (void)sul;
}

typedef int (*cl_Done)(const Client *c);

/* Services the context until done(c), the connection is gone, or the
 * deadline (monotonic seconds; HUGE_VAL: none) has passed. */
static void cl_service(Client *c, cl_Done done, double deadline)
{
    while (c->ctx && !done(c)) {
        double now = cl_now();
        if (now >= deadline) break;
        if (deadline != HUGE_VAL) {
            double wait = (deadline - now) * 1e6 + 1000;
            if (wait > 3600e6) wait = 3600e6; /* (a far deadline: wake now and then, never overflow) */
            lws_sul_schedule(c->ctx, 0, &c->sul, cl_wake, (lws_usec_t)wait);
        }
        if (lws_service(c->ctx, 0) < 0) {
            cl_set_closed(c, "the connection was lost");
            break;
        }
    }
    if (c->ctx) lws_sul_cancel(&c->sul);
}

static int cl_not_connecting(const Client *c)
{
    return c->state != CL_CONNECTING;
}

static int cl_has_message(const Client *c)
{
    return c->in.head || c->state == CL_CLOSED;
}

static int cl_flushed(const Client *c)
{
    return !c->out.head || c->state == CL_CLOSED;
}

static int cl_gone(const Client *c)
{
    return c->state == CL_CLOSED;
}

/* Ends the context (its sockets and pipes); its destruction may still
 * call back, with c valid. */
static void cl_end_context(Client *c)
{
    if (c->ctx) {
        struct lws_context *ctx = c->ctx;
        lws_sul_cancel(&c->sul);
        lws_context_destroy(ctx);
        c->ctx = NULL;
    }
    c->wsi = NULL;
}

/* Frees everything. Safe to call twice. */
static void cl_destroy(Client *c)
{
    cl_end_context(c);
    if (c->state != CL_CLOSED) cl_set_closed(c, "closed by this client");
    cl_queue_free(&c->in);
    cl_queue_free(&c->out);
    free(c->rx);
    c->rx = NULL, c->rx_len = c->rx_cap = 0;
}

/* ---- arguments ---- */

static int cl_hostchar(int ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '.' || ch == '-' || ch == '_';
}

static int cl_v6char(int ch)
{
    return (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F') || (ch >= '0' && ch <= '9') ||
           ch == ':' || ch == '.';
}

static int cl_prefix(const char *s, const char *p)
{
    for (; *p; s++, p++)
        if ((*s | 0x20) != *p) return 0;
    return 1;
}

/* Fills c's address, host header, port, path and tls from url; returns
 * what is wrong with it, or NULL. */
static const char *cl_parse_url(Client *c, const char *url, size_t n)
{
    if (n > CL_URL_MAX) return "the URL is too long (at most 2048 bytes)";
    if (strlen(url) != n) return "the URL holds a NUL byte";
    const char *p;
    if (cl_prefix(url, "ws://")) p = url + 5, c->tls = 0;
    else if (cl_prefix(url, "wss://")) p = url + 6, c->tls = 1;
    else if (cl_prefix(url, "http://") || cl_prefix(url, "https://"))
        return "the URL must be a WebSocket one: ws://HOST:PORT/PATH (or wss://), not http(s)://";
    else return "the URL must start with ws:// or wss:// (ws://HOST:PORT/PATH)";
#if !defined(LWS_WITH_TLS)
    if (c->tls) return "wss is not supported by this build (libwebsockets without TLS)";
#endif
    const char *h = p, *he;
    if (*p == '[') {
        h = ++p;
        while (cl_v6char((unsigned char)*p)) p++;
        if (*p != ']') return "the URL's host: an IPv6 address in [] holds a bad character or no ]";
        he = p++;
    } else {
        while (cl_hostchar((unsigned char)*p)) p++;
        he = p;
        if (*p == '@') return "the URL holds a user name (NAME@HOST): not supported";
    }
    size_t hl = (size_t)(he - h);
    if (!hl) return "the URL has no host (ws://HOST:PORT/PATH)";
    if (hl > CL_HOST_MAX - 1) return "the URL's host is too long (at most 255 bytes)";
    long port = c->tls ? 443 : 80;
    int explicit_port = 0;
    if (*p == ':') {
        p++;
        port = 0;
        int digits = 0;
        for (; *p >= '0' && *p <= '9' && digits < 6; p++, digits++) port = port * 10 + (*p - '0');
        if (!digits || digits > 5 || port < 1 || port > 65535)
            return "the URL's port must be a number from 1 to 65535";
        explicit_port = 1;
    }
    if (*p && *p != '/' && *p != '?') return "the URL's host holds a bad character (ws://HOST:PORT/PATH)";
    for (const char *q = p; *q; q++) {
        if (*q == '#') return "a WebSocket URL has no fragment (the part after #)";
        if ((unsigned char)*q <= 0x20 || (unsigned char)*q >= 0x7f)
            return "the URL's path holds a space, a control character or a non-ASCII byte";
    }
    memcpy(c->address, h, hl);
    c->address[hl] = '\0';
    int bracket = h != url && h[-1] == '[';
    if (explicit_port)
        snprintf(c->host, sizeof c->host, "%s%s%s:%ld", bracket ? "[" : "", c->address,
                 bracket ? "]" : "", port);
    else snprintf(c->host, sizeof c->host, "%s%s%s", bracket ? "[" : "", c->address, bracket ? "]" : "");
    snprintf(c->path, sizeof c->path, "%s%s", *p == '/' ? "" : "/", p);
    c->port = (int)port;
    return NULL;
}

static int cl_tchar(int ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           (ch && strchr("!#$%&'*+-.^_`|~", ch));
}

/* A string option: its text, checked by ok for each byte; NULL when absent. */
static const char *cl_opt_string(lua_State *L, const char *key, size_t maxlen, int (*ok)(int),
                                 const char *what)
{
    int t = lua_getfield(L, 2, key);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return NULL;
    }
    if (t != LUA_TSTRING) luaL_error(L, "wsclient.connect: o.%s must be a string (%s), got %s", key, what, luaL_typename(L, -1));
    size_t n;
    const char *s = lua_tolstring(L, -1, &n);
    if (n == 0 || n > maxlen) luaL_error(L, "wsclient.connect: o.%s must be 1 to %d bytes long", key, (int)maxlen);
    for (size_t i = 0; i < n; i++)
        if (!ok((unsigned char)s[i])) luaL_error(L, "wsclient.connect: o.%s holds a bad character (%s)", key, what);
    lua_pop(L, 1); /* still referenced by the options table */
    return s;
}

/* An IP address's characters (IPv4 dotted, IPv6 hex and colons). */
static int cl_ip_char(int ch)
{
    return isxdigit(ch) || ch == '.' || ch == ':';
}

static int cl_origin_char(int ch)
{
    return ch > 0x20 && ch < 0x7f;
}

static double cl_opt_number(lua_State *L, const char *key, double def, double lo, double hi)
{
    int t = lua_getfield(L, 2, key);
    double v = def;
    if (t != LUA_TNIL) {
        if (t != LUA_TNUMBER) luaL_error(L, "wsclient.connect: o.%s must be a number, got %s", key, luaL_typename(L, -1));
        v = lua_tonumber(L, -1);
        if (!(v >= lo && v <= hi)) {
            char range[64]; /* lua_pushfstring has no %g */
            snprintf(range, sizeof range, "%g to %g", lo, hi);
            luaL_error(L, "wsclient.connect: o.%s must be from %s", key, range);
        }
    }
    lua_pop(L, 1);
    return v;
}

static void cl_check_keys(lua_State *L)
{
    static const char *const known[] = {"protocol", "origin", "timeout", "max", "source", NULL};
    lua_pushnil(L);
    while (lua_next(L, 2)) {
        lua_pop(L, 1);
        int ok = 0;
        if (lua_type(L, -1) == LUA_TSTRING)
            for (int i = 0; known[i]; i++) ok |= !strcmp(lua_tostring(L, -1), known[i]);
        if (!ok)
            luaL_error(L, "wsclient.connect: unknown option %s (known: protocol, origin, timeout, max, source)",
                       lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, -1));
    }
}

/* ---- the Lua side ---- */

static pthread_once_t cl_log_once = PTHREAD_ONCE_INIT;

/* lws logs nothing: its lines could carry what a client sends. */
static void cl_log_off(void)
{
    lws_set_log_level(0, NULL);
}

static Client *cl_check(lua_State *L)
{
    return luaL_checkudata(L, 1, CL_MT);
}

static int cl_fail(lua_State *L, const char *msg)
{
    lua_pushnil(L);
    lua_pushstring(L, msg);
    return 2;
}

static int cl_connect(lua_State *L)
{
    size_t n;
    const char *url = luaL_checklstring(L, 1, &n);
    if (lua_isnoneornil(L, 2)) {
        lua_settop(L, 1);
        lua_newtable(L);
    }
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    cl_check_keys(L);
    const char *proto = cl_opt_string(L, "protocol", CL_PROTO_MAX, cl_tchar, "a token such as diloti.v1");
    const char *origin = cl_opt_string(L, "origin", CL_ORIGIN_MAX, cl_origin_char, "printable ASCII, no spaces");
    const char *source = cl_opt_string(L, "source", CL_SOURCE_MAX, cl_ip_char, "an IP address of this machine");
    double timeout = cl_opt_number(L, "timeout", 5, 0.001, CL_TIMEOUT_LIMIT);
    double max = cl_opt_number(L, "max", CL_MAX_DEFAULT, 1, CL_MAX_LIMIT);
    if (max != floor(max)) luaL_error(L, "wsclient.connect: o.max must be a whole number of bytes");

    Client *c = lua_newuserdatauv(L, sizeof *c, 0);
    memset(c, 0, sizeof *c);
    c->state = CL_CLOSED; /* until a context exists, __gc has nothing to do */
    luaL_setmetatable(L, CL_MT);
    const char *bad = cl_parse_url(c, url, n);
    if (bad) return cl_fail(L, bad);
    snprintf(c->proto, sizeof c->proto, "%s", proto ? proto : "diloti.v1");
    if (origin) snprintf(c->origin, sizeof c->origin, "%s", origin);
    if (source) snprintf(c->source, sizeof c->source, "%s", source);
    c->timeout = timeout;
    c->max = (size_t)max;
    c->protocols[0].name = c->proto;
    c->protocols[0].callback = cl_callback;

    pthread_once(&cl_log_once, cl_log_off);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = c->protocols;
    info.gid = -1, info.uid = -1;
    info.user = c;
    info.count_threads = 1;
    info.fd_limit_per_thread = 16; /* not the process's whole fd limit: a dozen clients stay small */
    info.timeout_secs = (unsigned)ceil(timeout) + 1;
    info.connect_timeout_secs = (unsigned)ceil(timeout) + 1;
    info.options = LWS_SERVER_OPTION_JUST_USE_RAW_ORIGIN; /* o.origin as it is, not "http://" .. it */
    if (c->tls) info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
    c->state = CL_CONNECTING;
    c->reason[0] = '\0';
    c->ctx = lws_create_context(&info);
    if (!c->ctx) {
        c->state = CL_CLOSED;
        return cl_fail(L, "wsclient.connect: cannot create a libwebsockets context (out of memory or file descriptors?)");
    }

    struct lws_client_connect_info ci;
    memset(&ci, 0, sizeof ci);
    ci.context = c->ctx;
    ci.address = c->address;
    ci.port = c->port;
    ci.path = c->path;
    ci.host = c->host;
    ci.origin = c->origin[0] ? c->origin : NULL;
    ci.iface = c->source[0] ? c->source : NULL; /* the local address to connect from */
    ci.protocol = c->proto;
    ci.local_protocol_name = c->proto;
    ci.ssl_connection = c->tls ? LCCSCF_USE_SSL : 0;
    ci.pwsi = &c->wsi;
    double deadline = cl_now() + timeout;
    if (!lws_client_connect_via_info(&ci)) cl_set_closed(c, "cannot connect to %s: an unknown host, or none to be reached", c->host);
    else cl_service(c, cl_not_connecting, deadline);
    if (c->state == CL_OPEN) return 1;
    char msg[sizeof c->reason + sizeof c->host + 96];
    if (c->state == CL_CONNECTING)
        snprintf(msg, sizeof msg, "cannot connect to %s: no answer within %g s (o.timeout)", c->host, timeout);
    else snprintf(msg, sizeof msg, "%s", c->reason);
    cl_destroy(c);
    return cl_fail(L, msg);
}

static int cl_closed_result(lua_State *L, const Client *c)
{
    lua_pushnil(L);
    lua_pushliteral(L, "closed");
    lua_pushstring(L, c->reason[0] ? c->reason : "closed");
    return 3;
}

static int cl_send(lua_State *L)
{
    Client *c = cl_check(L);
    size_t n;
    const char *text = luaL_checklstring(L, 2, &n);
    if (n > CL_SEND_LIMIT) luaL_argerror(L, 2, "the message is larger than 64 MiB");
    if (c->state != CL_OPEN || c->closing || !c->ctx) return cl_closed_result(L, c);
    cl_Msg *m = malloc(sizeof *m);
    unsigned char *data = malloc(LWS_PRE + n + 1);
    if (!m || !data) {
        free(m);
        free(data);
        return luaL_error(L, "wsclient send: out of memory");
    }
    memcpy(data + LWS_PRE, text, n);
    m->data = data, m->len = n;
    cl_queue_push(&c->out, m);
    if (c->wsi) lws_callback_on_writable(c->wsi);
    cl_service(c, cl_flushed, cl_now() + c->timeout);
    if (c->state == CL_CLOSED) {
        cl_end_context(c); /* its descriptors go back at once, not at gc */
        return cl_closed_result(L, c);
    }
    if (c->out.head) {
        lua_pushnil(L);
        lua_pushliteral(L, "timeout");
        return 2;
    }
    lua_pushboolean(L, 1);
    return 1;
}

static int cl_recv(lua_State *L)
{
    Client *c = cl_check(L);
    double wait = HUGE_VAL;
    if (!lua_isnoneornil(L, 2)) {
        wait = luaL_checknumber(L, 2);
        if (!(wait >= 0)) luaL_argerror(L, 2, "the timeout must be a number of seconds, at least 0");
    }
    if (!c->in.head && c->state == CL_OPEN) {
        double deadline = wait == HUGE_VAL ? HUGE_VAL : cl_now() + wait;
        /* a timeout of 0 still looks once at what has arrived */
        if (wait == 0 && c->ctx) lws_service(c->ctx, -1);
        cl_service(c, cl_has_message, deadline);
    }
    if (c->state == CL_CLOSED) cl_end_context(c); /* (what arrived stays queued) */
    cl_Msg *m = cl_queue_pop(&c->in);
    if (m) {
        lua_pushlstring(L, (const char *)(m->data ? m->data : (unsigned char *)""), m->len);
        free(m->data);
        free(m);
        return 1;
    }
    if (c->state != CL_OPEN) return cl_closed_result(L, c);
    lua_pushnil(L);
    lua_pushliteral(L, "timeout");
    return 2;
}

static int cl_close(lua_State *L)
{
    Client *c = cl_check(L);
    if (c->ctx && c->state == CL_OPEN && c->wsi) {
        /* what was sent goes out first, then a close frame; the server's
         * answer is awaited briefly */
        double wait = c->timeout < CL_CLOSE_WAIT ? c->timeout : CL_CLOSE_WAIT;
        c->closing = 1;
        lws_callback_on_writable(c->wsi);
        cl_service(c, cl_gone, cl_now() + wait);
    }
    c->closing = 1;
    cl_destroy(c);
    lua_pushboolean(L, 1);
    return 1;
}

/* __gc: no waiting, the context just goes. */
static int cl_gc(lua_State *L)
{
    Client *c = luaL_checkudata(L, 1, CL_MT);
    c->closing = 1;
    cl_destroy(c);
    return 0;
}

static int cl_fd(lua_State *L)
{
    Client *c = cl_check(L);
    if (!c->wsi || c->state != CL_OPEN) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushinteger(L, (lua_Integer)lws_get_socket_fd(c->wsi));
    return 1;
}

static int cl_tostring(lua_State *L)
{
    Client *c = cl_check(L);
    lua_pushfstring(L, "wsclient (%s, %s)", c->host[0] ? c->host : "no host",
                    c->state == CL_OPEN ? "open" : c->state == CL_CONNECTING ? "connecting" : "closed");
    return 1;
}

static const luaL_Reg cl_methods[] = {
    {"send", cl_send}, {"recv", cl_recv}, {"close", cl_close}, {"fd", cl_fd}, {NULL, NULL},
};

int luaopen_diloti_wsclient(lua_State *L)
{
    if (luaL_newmetatable(L, CL_MT)) {
        luaL_newlib(L, cl_methods);
        lua_setfield(L, -2, "__index");
        lua_pushcfunction(L, cl_gc);
        lua_setfield(L, -2, "__gc");
        lua_pushcfunction(L, cl_close);
        lua_setfield(L, -2, "__close");
        lua_pushcfunction(L, cl_tostring);
        lua_setfield(L, -2, "__tostring");
    }
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushcfunction(L, cl_connect);
    lua_setfield(L, -2, "connect");
#if defined(LWS_WITH_TLS)
    lua_pushboolean(L, 1);
#else
    lua_pushboolean(L, 0);
#endif
    lua_setfield(L, -2, "tls"); /* can wss:// URLs be used? */
    return 1;
}
