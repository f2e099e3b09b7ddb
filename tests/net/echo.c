/* A small WebSocket server for diloti.wsclient's tests (tests/lua/
 * wsclient_spec.lua): it listens on 127.0.0.1, prints "port N" once it
 * does, and answers each text message. Test builds only; not installed.
 *
 *   ws_echo [PORT [SECONDS]]   PORT 0 (the default): any free port;
 *                              it exits by itself after SECONDS (60).
 *
 * Messages: "origin" -> "origin:" and the Origin header it got; "peer"
 * -> "peer:" and the address the connection came from;
 * "big N" -> N bytes of 'x' in one frame; "frag N K" -> N bytes in K
 * fragments; "burst K" -> K messages "m1".."mK"; "close CODE WORDS" ->
 * a close frame; "drop" -> the connection closes without one; "silent"
 * -> nothing. Anything else comes back as it is.
 * It also listens on a second port ("silent N") where the kernel accepts
 * connections that nobody ever answers: a handshake that never ends. */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <libwebsockets.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ECHO_MAX ((size_t)80 << 20)

typedef struct Out {
    struct Out *next;
    unsigned char *buf; /* LWS_PRE bytes first */
    size_t len;
    int flags;
} Out;

typedef struct {
    Out *head, *tail;
    unsigned char *rx;
    size_t rx_len, rx_cap;
    char origin[256];
    int close_code; /* > 0: close once the queue is out; -1: drop */
    char close_words[100];
} Sess;

static void push(Sess *s, const void *data, size_t len, int flags)
{
    Out *o = calloc(1, sizeof *o);
    unsigned char *b = malloc(LWS_PRE + len + 1);
    if (!o || !b) abort();
    if (len) memcpy(b + LWS_PRE, data, len);
    o->buf = b, o->len = len, o->flags = flags;
    if (s->tail) s->tail->next = o;
    else s->head = o;
    s->tail = o;
}

static void push_big(Sess *s, size_t n, size_t parts)
{
    char *x = malloc(n + 1);
    if (!x) abort();
    memset(x, 'x', n);
    if (parts < 1) parts = 1;
    size_t each = n / parts, done = 0;
    for (size_t i = 0; i < parts; i++) {
        size_t len = i + 1 == parts ? n - done : each;
        int flags = lws_write_ws_flags(LWS_WRITE_TEXT, i == 0, i + 1 == parts);
        push(s, x + done, len, flags);
        done += len;
    }
    free(x);
}

static void command(struct lws *wsi, Sess *s, const char *m, size_t len)
{
    unsigned long a = 0, b = 0;
    char words[100] = "";
    int text = lws_write_ws_flags(LWS_WRITE_TEXT, 1, 1);
    if (len == 6 && !memcmp(m, "origin", 6)) {
        char reply[300];
        int n = snprintf(reply, sizeof reply, "origin:%s", s->origin);
        push(s, reply, (size_t)n, text);
    } else if (len == 4 && !memcmp(m, "peer", 4)) {
        char reply[80], ip[64];
        lws_get_peer_simple(wsi, ip, sizeof ip);
        int n = snprintf(reply, sizeof reply, "peer:%s", ip);
        push(s, reply, (size_t)n, text);
    } else if (len < 64 && sscanf(m, "big %lu", &a) == 1 && a <= ECHO_MAX) {
        push_big(s, a, 1);
    } else if (len < 64 && sscanf(m, "frag %lu %lu", &a, &b) == 2 && a <= ECHO_MAX && b <= 1000) {
        push_big(s, a, b);
    } else if (len < 64 && sscanf(m, "burst %lu", &a) == 1 && a <= 10000) {
        for (unsigned long i = 1; i <= a; i++) {
            char one[32];
            int n = snprintf(one, sizeof one, "m%lu", i);
            push(s, one, (size_t)n, text);
        }
    } else if (len < 150 && sscanf(m, "close %lu %99[^\n]", &a, words) >= 1) {
        s->close_code = (int)a;
        snprintf(s->close_words, sizeof s->close_words, "%s", words);
    } else if (len == 4 && !memcmp(m, "drop", 4)) {
        s->close_code = -1;
    } else if (len == 6 && !memcmp(m, "silent", 6)) {
        return;
    } else {
        push(s, m, len, text);
    }
    lws_callback_on_writable(wsi);
}

static int receive(struct lws *wsi, Sess *s, const void *in, size_t len)
{
    if (s->rx_len + len > ECHO_MAX) return -1;
    if (s->rx_len + len + 1 > s->rx_cap) {
        size_t cap = (s->rx_len + len + 1) * 2;
        unsigned char *p = realloc(s->rx, cap);
        if (!p) return -1;
        s->rx = p, s->rx_cap = cap;
    }
    memcpy(s->rx + s->rx_len, in, len);
    s->rx_len += len;
    if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi)) return 0;
    s->rx[s->rx_len] = '\0';
    command(wsi, s, (const char *)s->rx, s->rx_len);
    s->rx_len = 0;
    return 0;
}

static int writeable(struct lws *wsi, Sess *s)
{
    Out *o = s->head;
    if (o) {
        if (lws_write(wsi, o->buf + LWS_PRE, o->len, (enum lws_write_protocol)o->flags) < (int)o->len)
            return -1;
        s->head = o->next;
        if (!s->head) s->tail = NULL;
        free(o->buf);
        free(o);
    }
    if (s->head) {
        lws_callback_on_writable(wsi);
    } else if (s->close_code > 0) {
        lws_close_reason(wsi, (enum lws_close_status)s->close_code, (unsigned char *)s->close_words,
                         strlen(s->close_words));
        return -1;
    } else if (s->close_code < 0) {
        lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_SYNC);
        return -1;
    }
    return 0;
}

static int callback(struct lws *wsi, enum lws_callback_reasons why, void *user, void *in, size_t len)
{
    Sess *s = user;
    switch (why) {
    case LWS_CALLBACK_ESTABLISHED:
        memset(s, 0, sizeof *s);
        if (lws_hdr_copy(wsi, s->origin, sizeof s->origin, WSI_TOKEN_ORIGIN) < 0) s->origin[0] = '\0';
        break;
    case LWS_CALLBACK_RECEIVE:
        return receive(wsi, s, in, len);
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return writeable(wsi, s);
    case LWS_CALLBACK_CLOSED:
        while (s->head) {
            Out *o = s->head;
            s->head = o->next;
            free(o->buf);
            free(o);
        }
        free(s->rx);
        s->rx = NULL;
        break;
    default:
        break;
    }
    return 0;
}

static struct lws_protocols protocols[] = {
    {"diloti.v1", callback, sizeof(Sess), 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static void tick(lws_sorted_usec_list_t *sul)
{
    (void)sul;
}

/* A socket that listens and never accepts: its port, or -1. */
static int silent_port(int *fd)
{
    struct sockaddr_in a;
    socklen_t len = sizeof a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    *fd = socket(AF_INET, SOCK_STREAM, 0);
    if (*fd < 0 || bind(*fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(*fd, 16) != 0 ||
        getsockname(*fd, (struct sockaddr *)&a, &len) != 0)
        return -1;
    return ntohs(a.sin_port);
}

int main(int argc, char **argv)
{
    int port = argc > 1 ? atoi(argv[1]) : 0;
    int seconds = argc > 2 ? atoi(argv[2]) : 60;
    lws_set_log_level(0, NULL);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = port;
    info.iface = "127.0.0.1";
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6; /* 127.0.0.1 only, never every address */
    info.protocols = protocols;
    info.gid = -1, info.uid = -1;
    info.fd_limit_per_thread = 64;
    struct lws_context *ctx = lws_create_context(&info);
    if (!ctx) {
        fprintf(stderr, "ws_echo: cannot listen on 127.0.0.1:%d\n", port);
        return 1;
    }
    int silent_fd;
    printf("silent %d\n", silent_port(&silent_fd));
    printf("port %d\n", lws_get_vhost_listen_port(lws_get_vhost_by_name(ctx, "default")));
    fflush(stdout);
    time_t end = time(NULL) + seconds;
    lws_sorted_usec_list_t sul;
    memset(&sul, 0, sizeof sul);
    while (time(NULL) < end) {
        lws_sul_schedule(ctx, 0, &sul, tick, 200 * LWS_US_PER_MS);
        if (lws_service(ctx, 0) < 0) break;
    }
    lws_context_destroy(ctx);
    if (silent_fd >= 0) close(silent_fd);
    return 0;
}
