/* diloti.net: the loop of `diloti serve` (libwebsockets), its connections
 * and its rooms (each a thread with a Lua state of its own: worker.c).
 *
 * The loop runs in the main Lua state. A connection that has not joined
 * a room is the lobby's: its messages go to the Lua handler given to
 * srv:run (hello, create). Once the lobby binds it to a room, what it
 * sends goes to that room's inbox and the loop goes on at once; what the
 * room says comes back through the outbox. Nothing here reads a message:
 * it counts bytes, connections and addresses, and checks the origin. */
#define _POSIX_C_SOURCE 200809L
#include <lauxlib.h>
#include <libwebsockets.h>
#include <lualib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net.h"
#include "worker.h"

int luaopen_diloti(lua_State *L);

#define SERVER "diloti.net.server"
#define MAX_ORIGINS 16
#define SLOT_BITS 20

typedef struct Frame {
    struct Frame *next;
    size_t len;
    unsigned char buf[]; /* LWS_PRE bytes, then the text */
} Frame;

typedef struct Conn {
    long long id;
    struct lws *wsi;
    dl_Room *room;
    char *rx;
    size_t rx_len;
    int rx_bad; /* the message being received is refused: drop its rest */
    Frame *head, *tail;
    size_t queued;
    int closing;
    char why[124];
    char addr[64];
} Conn;

typedef struct Addr {
    struct Addr *next;
    char addr[64];
    int n;
} Addr;

typedef struct Server {
    struct lws_context *ctx;
    lua_State *L; /* the main state, inside srv:run */
    int handler;  /* registry ref of the lobby's handler */
    Conn **slots;
    int max_conns, nconns;
    unsigned long long gen;
    dl_Room *rooms;
    int nrooms;
    dl_Outbox out;
    size_t max_message, max_queue;
    int per_address;
    Addr *addrs;
    char *origins[MAX_ORIGINS];
    int norigins;
    char *static_dir;
    struct lws_http_mount mounts[4];
    int port;
} Server;

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
    (void)sig;
    stop_flag = 1;
}

/* ---- connections ---- */

static Conn *find_conn(Server *s, long long id)
{
    if (id <= 0) return NULL;
    Conn *c = s->slots[id & ((1 << SLOT_BITS) - 1)];
    return c && c->id == id ? c : NULL;
}

static int take_slot(Server *s, Conn *c)
{
    for (int i = 1; i < s->max_conns; i++) {
        if (!s->slots[i]) {
            s->slots[i] = c;
            c->id = (long long)(++s->gen << SLOT_BITS) | i;
            s->nconns++;
            return 0;
        }
    }
    return -1;
}

static Addr *addr_of(Server *s, const char *a, int make)
{
    for (Addr *x = s->addrs; x; x = x->next)
        if (strcmp(x->addr, a) == 0) return x;
    if (!make) return NULL;
    Addr *x = calloc(1, sizeof *x);
    if (!x) return NULL;
    snprintf(x->addr, sizeof x->addr, "%s", a);
    x->next = s->addrs;
    s->addrs = x;
    return x;
}

static void addr_release(Server *s, const char *a)
{
    for (Addr **p = &s->addrs; *p; p = &(*p)->next) {
        if (strcmp((*p)->addr, a) == 0) {
            if (--(*p)->n <= 0) {
                Addr *dead = *p;
                *p = dead->next;
                free(dead);
            }
            return;
        }
    }
}

static void queue_frame(Server *s, Conn *c, const char *text, size_t len)
{
    if (c->closing) return;
    if (c->queued + len > s->max_queue) {
        /* a client that reads nothing is not kept in memory */
        c->closing = 1;
        snprintf(c->why, sizeof c->why, "too much unread: the client does not keep up");
        lws_callback_on_writable(c->wsi);
        return;
    }
    Frame *f = malloc(sizeof *f + LWS_PRE + len);
    if (!f) return;
    f->next = NULL;
    f->len = len;
    memcpy(f->buf + LWS_PRE, text, len);
    if (c->tail) c->tail->next = f;
    else c->head = f;
    c->tail = f;
    c->queued += len;
    lws_callback_on_writable(c->wsi);
}

static void close_conn(Conn *c, const char *why)
{
    if (c->closing) return;
    c->closing = 1;
    snprintf(c->why, sizeof c->why, "%s", why);
    lws_callback_on_writable(c->wsi);
}

/* ---- the lobby: the Lua handler, in the main state ---- */

static void call_handler(Server *s, const char *kind, long long conn, const char *text, size_t len)
{
    lua_State *L = s->L;
    if (!L || s->handler == LUA_NOREF) return;
    int top = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->handler);
    lua_pushstring(L, kind);
    lua_pushinteger(L, (lua_Integer)conn);
    if (text) lua_pushlstring(L, text, len);
    else lua_pushnil(L);
    if (lua_pcall(L, 3, 0, 0) != LUA_OK)
        fprintf(stderr, "diloti serve: the lobby failed: %s\n", lua_tostring(L, -1));
    lua_settop(L, top);
}

/* ---- the outbox: what rooms said ---- */

static void unlink_room(Server *s, dl_Room *r)
{
    for (dl_Room **p = &s->rooms; *p; p = &(*p)->next) {
        if (*p == r) {
            *p = r->next;
            s->nrooms--;
            break;
        }
    }
    for (int i = 1; i < s->max_conns; i++) {
        Conn *c = s->slots[i];
        if (c && c->room == r) {
            c->room = NULL;
            close_conn(c, "the room has closed");
        }
    }
    dl_room_free(r);
}

static void drain_outbox(Server *s)
{
    dl_Out *m = dl_outbox_take(&s->out);
    while (m) {
        dl_Out *next = m->next;
        if (m->kind == DL_OUT_DONE) {
            unlink_room(s, m->room);
        } else {
            Conn *c = find_conn(s, m->conn);
            if (c && m->kind == DL_OUT_SEND) queue_frame(s, c, m->text, m->len);
            else if (c) close_conn(c, m->text);
        }
        free(m);
        m = next;
    }
}

static void wake_loop(void *arg)
{
    Server *s = arg;
    if (s->ctx) lws_cancel_service(s->ctx);
}

/* ---- the WebSocket protocol ---- */

static int header(struct lws *wsi, enum lws_token_indexes h, char *buf, int len)
{
    buf[0] = '\0';
    if (lws_hdr_total_length(wsi, h) >= len) return -1;
    return lws_hdr_copy(wsi, buf, len, h) < 0 ? -1 : 0;
}

/* Whether a browser page may open a connection: no Origin (not a
 * browser), or one of the server's own origins. A page elsewhere (or a
 * name rebound to this machine) is refused. */
static int origin_ok(Server *s, struct lws *wsi)
{
    char o[256];
    if (lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) <= 0) return 1;
    if (header(wsi, WSI_TOKEN_ORIGIN, o, sizeof o) != 0) return 0;
    for (int i = 0; i < s->norigins; i++)
        if (strcmp(o, s->origins[i]) == 0) return 1;
    return 0;
}

static int filter(Server *s, struct lws *wsi)
{
    char uri[64];
    if (header(wsi, WSI_TOKEN_GET_URI, uri, sizeof uri) != 0 || strcmp(uri, "/ws") != 0) return 1;
    if (!origin_ok(s, wsi)) return 1;
    if (s->nconns >= s->max_conns - 1) return 1;
    char a[64];
    lws_get_peer_simple(wsi, a, sizeof a);
    Addr *x = addr_of(s, a, 0);
    return x && x->n >= s->per_address;
}

static void established(Server *s, struct lws *wsi, Conn *c)
{
    memset(c, 0, sizeof *c);
    c->wsi = wsi;
    lws_get_peer_simple(wsi, c->addr, sizeof c->addr);
    if (take_slot(s, c) != 0) {
        close_conn(c, "the server is full");
        return;
    }
    Addr *x = addr_of(s, c->addr, 1);
    if (x) x->n++;
    call_handler(s, "open", c->id, c->addr, strlen(c->addr));
}

static void closed(Server *s, Conn *c)
{
    if (c->id == 0) return;
    if (c->room) dl_room_post(c->room, DL_EV_CLOSE, c->id, "", 0);
    else call_handler(s, "close", c->id, NULL, 0);
    s->slots[c->id & ((1 << SLOT_BITS) - 1)] = NULL;
    s->nconns--;
    addr_release(s, c->addr);
    for (Frame *f = c->head, *n; f; f = n) {
        n = f->next;
        free(f);
    }
    free(c->rx);
    c->id = 0;
}

static void message(Server *s, Conn *c)
{
    const char *text = c->rx ? c->rx : "";
    if (c->room) {
        int st = dl_room_post(c->room, DL_EV_MESSAGE, c->id, text, c->rx_len);
        if (st != 0) close_conn(c, st == DL_POST_FULL ? "too many messages: the room is busy" : "the room has closed");
    } else {
        call_handler(s, "message", c->id, text, c->rx_len);
    }
}

static void receive(Server *s, struct lws *wsi, Conn *c, const char *in, size_t len)
{
    if (c->closing) return;
    if (lws_frame_is_binary(wsi)) {
        close_conn(c, "messages are JSON text, not binary");
        return;
    }
    if (!c->rx_bad && c->rx_len + len > s->max_message) {
        c->rx_bad = 1;
        char why[160];
        snprintf(why, sizeof why, "{\"v\":1,\"type\":\"error\",\"seq\":0,\"code\":\"too-large\","
                                  "\"message\":\"a message is at most %zu bytes\"}", s->max_message);
        queue_frame(s, c, why, strlen(why));
    }
    if (!c->rx_bad && len) {
        char *grown = realloc(c->rx, c->rx_len + len + 1);
        if (!grown) {
            close_conn(c, "out of memory");
            return;
        }
        c->rx = grown;
        memcpy(c->rx + c->rx_len, in, len);
        c->rx_len += len;
        c->rx[c->rx_len] = '\0';
    }
    if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi) > 0) return;
    if (!c->rx_bad) message(s, c);
    c->rx_len = 0;
    c->rx_bad = 0;
}

static int writeable(struct lws *wsi, Conn *c)
{
    Frame *f = c->head;
    if (f) {
        c->head = f->next;
        if (!c->head) c->tail = NULL;
        c->queued -= f->len;
        int n = lws_write(wsi, f->buf + LWS_PRE, f->len, LWS_WRITE_TEXT);
        free(f);
        if (n < 0) return -1;
        if (c->head || c->closing) lws_callback_on_writable(wsi);
        return 0;
    }
    if (c->closing) {
        lws_close_reason(wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION, (unsigned char *)c->why, strlen(c->why));
        return -1;
    }
    return 0;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
    Server *s = lws_context_user(lws_get_context(wsi));
    Conn *c = user;
    switch (reason) {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        drain_outbox(s);
        return 0;
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        return filter(s, wsi);
    case LWS_CALLBACK_ESTABLISHED:
        established(s, wsi, c);
        return 0;
    case LWS_CALLBACK_RECEIVE:
        receive(s, wsi, c, in, len);
        return 0;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return writeable(wsi, c);
    case LWS_CALLBACK_CLOSED:
        closed(s, c);
        return 0;
    default:
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
}

/* ---- the Lua API: net.listen(o) -> srv ---- */

static Server *check_server(lua_State *L)
{
    Server *s = luaL_checkudata(L, 1, SERVER);
    if (!s->ctx) luaL_error(L, "the server is closed");
    return s;
}

static void open_host(lua_State *L)
{
    luaL_openlibs(L);
    luaL_requiref(L, "diloti", luaopen_diloti, 0);
    lua_pop(L, 1);
    dl_net_preload(L);
}

static int opt_int(lua_State *L, const char *k, int def, int lo, int hi)
{
    lua_getfield(L, 1, k);
    lua_Integer v = luaL_optinteger(L, -1, def);
    lua_pop(L, 1);
    if (v < lo || v > hi) return luaL_error(L, "net.listen: %s must be %d to %d", k, lo, hi);
    return (int)v;
}

static void set_origins(lua_State *L, Server *s, int idx)
{
    for (int i = 0; i < s->norigins; i++) free(s->origins[i]);
    s->norigins = 0;
    lua_pushvalue(L, idx);
    if (lua_istable(L, -1)) {
        for (int i = 1; i <= MAX_ORIGINS; i++) {
            char *o = lua_rawgeti(L, -1, i) == LUA_TSTRING ? strdup(lua_tostring(L, -1)) : NULL;
            if (o) s->origins[s->norigins++] = o;
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
}

/* The pages: the lobby at /, the table at /play and /watch (the room and
 * token ride after '#', which a browser never sends), the rules reference
 * at /rules. Each mount serves the same folder, so a page's relative
 * links (js/..., css/...) resolve under any of them. */
static void set_mounts(Server *s)
{
    static const char *const points[] = {"/", "/play", "/watch", "/rules"};
    static const char *const pages[] = {"index.html", "table.html", "table.html", "rules.html"};
    for (int i = 0; i < 4; i++) {
        struct lws_http_mount *m = &s->mounts[i];
        memset(m, 0, sizeof *m);
        m->mount_next = i < 3 ? &s->mounts[i + 1] : NULL;
        m->mountpoint = points[i];
        m->mountpoint_len = (unsigned char)strlen(points[i]);
        m->origin = s->static_dir;
        m->def = pages[i];
        m->origin_protocol = LWSMPRO_FILE;
    }
}

static const struct lws_protocols PROTOCOLS[] = {
    {"http", callback, sizeof(Conn), 0, 0, NULL, 0},
    {"diloti.v1", callback, sizeof(Conn), 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static int l_listen(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_getfield(L, 1, "host");
    const char *host = luaL_optstring(L, -1, "127.0.0.1");
    lua_getfield(L, 1, "static");
    const char *dir = luaL_checkstring(L, -1);
    Server *s = lua_newuserdatauv(L, sizeof *s, 0);
    memset(s, 0, sizeof *s);
    s->handler = LUA_NOREF;
    luaL_setmetatable(L, SERVER);
    s->port = opt_int(L, "port", 8080, 0, 65535);
    s->max_message = (size_t)opt_int(L, "max_message", 65536, 256, 1 << 24);
    s->max_queue = (size_t)opt_int(L, "max_queue", 8 << 20, 4096, 1 << 30);
    s->per_address = opt_int(L, "per_address", 32, 1, 1 << 20);
    s->max_conns = opt_int(L, "max_conns", 4096, 2, (1 << SLOT_BITS) - 1) + 1;
    lua_getfield(L, 1, "origins");
    set_origins(L, s, -1);
    lua_pop(L, 1);
    s->slots = calloc((size_t)s->max_conns, sizeof(Conn *));
    s->static_dir = strdup(dir);
    if (!s->slots || !s->static_dir) return luaL_error(L, "out of memory");
    dl_outbox_init(&s->out, wake_loop, s);
    set_mounts(s);
    lws_set_log_level(LLL_ERR, NULL);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = s->port;
    info.iface = host;
    info.protocols = PROTOCOLS;
    info.mounts = &s->mounts[0];
    info.user = s;
    info.gid = (gid_t)-1;
    info.uid = (uid_t)-1;
    info.options = LWS_SERVER_OPTION_VALIDATE_UTF8 | LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE;
    info.timeout_secs = 20;
    /* (the AIs of every room think below the rooms themselves) */
    dl_net_think_below();
    s->ctx = lws_create_context(&info);
    if (!s->ctx) {
        lua_pushnil(L);
        lua_pushfstring(L, "cannot listen on %s port %d (in use, or not an address of this machine)", host, s->port);
        return 2;
    }
    struct lws_vhost *vh = lws_get_vhost_by_name(s->ctx, "default");
    if (vh) s->port = lws_get_vhost_listen_port(vh);
    return 1;
}

/* srv:run(handler): serves until srv:stop() or SIGINT/SIGTERM.
 * handler(kind, conn, x): "open" (x: the address), "message" (x: the
 * text), "close", for connections in no room. */
static int l_run(lua_State *L)
{
    Server *s = check_server(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    s->handler = luaL_ref(L, LUA_REGISTRYINDEX);
    s->L = L;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    stop_flag = 0;
    while (!stop_flag)
        if (lws_service(s->ctx, 250) < 0) break;
    s->L = NULL;
    luaL_unref(L, LUA_REGISTRYINDEX, s->handler);
    s->handler = LUA_NOREF;
    return 0;
}

/* srv:allow(origins): the origins whose pages may connect, from now on. */
static int l_allow(lua_State *L)
{
    Server *s = check_server(L);
    luaL_checktype(L, 2, LUA_TTABLE);
    set_origins(L, s, 2);
    return 0;
}

static int l_stop(lua_State *L)
{
    check_server(L);
    stop_flag = 1;
    return 0;
}

static int l_send(lua_State *L)
{
    Server *s = check_server(L);
    Conn *c = find_conn(s, luaL_checkinteger(L, 2));
    size_t len;
    const char *text = luaL_checklstring(L, 3, &len);
    if (c) queue_frame(s, c, text, len);
    lua_pushboolean(L, c != NULL);
    return 1;
}

static int l_close(lua_State *L)
{
    Server *s = check_server(L);
    Conn *c = find_conn(s, luaL_checkinteger(L, 2));
    const char *why = luaL_optstring(L, 3, "");
    if (c) close_conn(c, why);
    lua_pushboolean(L, c != NULL);
    return 1;
}

static dl_Room *find_room(Server *s, const char *key)
{
    for (dl_Room *r = s->rooms; r; r = r->next)
        if (strcmp(r->key, key) == 0) return r;
    return NULL;
}

/* srv:bind(conn, key, text): the connection is the room's from now on,
 * and text its first message. false when there is no such room. */
static int l_bind(lua_State *L)
{
    Server *s = check_server(L);
    Conn *c = find_conn(s, luaL_checkinteger(L, 2));
    const char *key = luaL_checkstring(L, 3);
    size_t len;
    const char *text = luaL_checklstring(L, 4, &len);
    dl_Room *r = find_room(s, key);
    int opened = c && !c->room && r && dl_room_post(r, DL_EV_OPEN, c->id, c->addr, strlen(c->addr)) == 0;
    int ok = opened && dl_room_post(r, DL_EV_MESSAGE, c->id, text, len) == 0;
    /* (a room that heard the open but not the message, its inbox full,
     * must not keep the connection for ever) */
    if (opened && !ok) dl_room_post(r, DL_EV_CLOSE, c->id, "", 0);
    if (ok) c->room = r;
    lua_pushboolean(L, ok);
    return 1;
}

/* srv:spawn(key, module, arg): a room in a thread of its own, running
 * require(module).run(chan, arg) in a new Lua state. */
static int l_spawn(lua_State *L)
{
    Server *s = check_server(L);
    const char *key = luaL_checkstring(L, 2);
    const char *module = luaL_checkstring(L, 3);
    size_t len;
    const char *arg = luaL_checklstring(L, 4, &len);
    if (strlen(key) >= sizeof s->rooms->key) return luaL_argerror(L, 2, "a room's key is at most 71 bytes");
    if (find_room(s, key)) {
        lua_pushnil(L);
        lua_pushliteral(L, "a room with this key exists");
        return 2;
    }
    dl_Room *r = dl_room_new(key, module, arg, len, &s->out, open_host);
    if (!r || dl_room_start(r) != 0) {
        if (r) dl_room_free(r);
        lua_pushnil(L);
        lua_pushliteral(L, "cannot start the room's thread");
        return 2;
    }
    r->next = s->rooms;
    s->rooms = r;
    s->nrooms++;
    lua_pushboolean(L, 1);
    return 1;
}

static int l_info(lua_State *L)
{
    Server *s = check_server(L);
    lua_createtable(L, 0, 3);
    lua_pushinteger(L, s->port);
    lua_setfield(L, -2, "port");
    lua_pushinteger(L, s->nrooms);
    lua_setfield(L, -2, "rooms");
    lua_pushinteger(L, s->nconns);
    lua_setfield(L, -2, "connections");
    return 1;
}

/* Tells every room to stop and waits for their threads. */
static void stop_rooms(Server *s)
{
    for (int i = 1; i < s->max_conns; i++)
        if (s->slots[i]) s->slots[i]->room = NULL;
    for (dl_Room *r = s->rooms; r; r = r->next) dl_room_post(r, DL_EV_STOP, 0, "", 0);
    while (s->rooms) {
        dl_Room *r = s->rooms;
        s->rooms = r->next;
        dl_room_free(r);
    }
    s->nrooms = 0;
    for (dl_Out *m = dl_outbox_take(&s->out), *n; m; m = n) {
        n = m->next;
        free(m);
    }
}

static int l_gc(lua_State *L)
{
    Server *s = luaL_checkudata(L, 1, SERVER);
    if (!s->ctx) return 0;
    stop_rooms(s);
    lws_context_destroy(s->ctx);
    s->ctx = NULL;
    for (int i = 0; i < s->norigins; i++) free(s->origins[i]);
    while (s->addrs) {
        Addr *a = s->addrs;
        s->addrs = a->next;
        free(a);
    }
    free(s->slots);
    free(s->static_dir);
    return 0;
}

int luaopen_diloti_net(lua_State *L)
{
    static const luaL_Reg methods[] = {{"run", l_run},     {"stop", l_stop},   {"send", l_send},
                                       {"close", l_close}, {"bind", l_bind},   {"spawn", l_spawn},
                                       {"info", l_info},   {"close_all", l_gc}, {"allow", l_allow},
                                       {NULL, NULL}};
    if (luaL_newmetatable(L, SERVER)) {
        luaL_newlib(L, methods);
        lua_setfield(L, -2, "__index");
        lua_pushcfunction(L, l_gc);
        lua_setfield(L, -2, "__gc");
        lua_pushliteral(L, "locked");
        lua_setfield(L, -2, "__metatable");
    }
    lua_pop(L, 1);
    static const luaL_Reg fns[] = {{"listen", l_listen}, {NULL, NULL}};
    luaL_newlib(L, fns);
    return 1;
}
