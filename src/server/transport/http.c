/*
** http.c -- the event loop of tafel serve: libuv (epoll), owned here, with
** libwebsockets on it for HTTP and the WebSocket (one port).
**
** Written against libwebsockets 4.1 (Debian bookworm) and its pitfalls
** (docs: ../shared/notes/stack-research.md §1.4, stack-turn3.md §1): only
** lws_cancel_service is called from other threads; one lws_write per
** WRITEABLE callback, with LWS_PRE bytes before the data, the rest queued;
** a message arrives in pieces and is assembled up to SERVER_MAX_MESSAGE; a
** numeric IPv4 bind address disables IPv6, or 4.1 would listen on every
** interface.
**
** The loop is libuv's, given to lws as a "foreign" loop (its plugin,
** Debian's libwebsockets-evlib-uv): lws 4.1's libuv plugin does not export
** lws_uv_getloop, so the loop is ours and our handles live beside lws's:
** SIGINT and SIGTERM stop the server (SIGHUP does not), a 1 s timer ticks
** the tables.  The bot threads wake the loop with lws_cancel_service (lws's
** own pipe on the loop; sockets.c drains the finished jobs in
** EVENT_WAIT_CANCELLED).  Stopping follows stack-turn3.md §1.3: the loop
** stops, the bot threads and external programs end (while the context can
** still be woken), the context is destroyed in two calls (the first closes
** every socket's handle, which takes turns of the loop; the second frees),
** then our handles close and the loop closes.
**
** What a client may hold: a WebSocket that answers no ping for twice
** --idle-timeout is closed (lws's retry/idle policy), a connection that sends
** no whole request in 10 s is closed, an idle keep-alive one after 5 s; when
** descriptors run short lws stops accepting (see fd_budget) rather than spin
** on EMFILE; lws's own log lines go out at most once a second each.
**
** HTTP: routes.c answers every request (one callback mount, the files of
** web/ too); WebSocket sessions: sockets.c.  With --cert/--key, TLS (OpenSSL)
** over HTTP/1.1 only: lws 4.1's HTTP/2 lost the end of large responses.
*/
#include "http.h"
#include "protocol.h"
#include "tables.h"

#include <libwebsockets.h>
#include <uv.h>

#include <openssl/pem.h>
#include <openssl/x509.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* HTTP connections: seconds to send a whole request, and to sit idle
** between requests (lws's defaults, stated). */
#define HTTP_REQUEST_SECONDS 10
#define HTTP_KEEPALIVE_SECONDS 5

/* Descriptors kept back from lws for the rest of the server: stdin/out/err,
** the database (its file, WAL and shared memory), libuv's epoll, signal and
** wake-up descriptors, a file of web/ being sent (one per connection sending
** it), and the two pipes of each external bot program. */
#define FD_RESERVE 64

static uv_loop_t loop;
static int loop_open;
static uv_signal_t sig_int, sig_term, sig_hup;
static uv_timer_t ticker;
static int handles_open;
static struct lws_context *context;
static lws_retry_bo_t idle_policy; /* the vhost keeps a pointer: static */

void http_wake(void) {
    if (context) lws_cancel_service(context);
}

/* ---- lws's log: each message at most once a second --------------------- */

/* A message is known by its text without digits ("accept: errno 24" and
** "Socket fd 1021 is too high" repeat with other numbers).  A repeat within
** a second of the last one shown is counted, not written; the count goes
** out with the next one shown, or from the tick once the second is over. */
enum { LOG_SLOTS = 16 };
static struct log_slot {
    uint64_t key;
    int64_t shown_ms; /* when last written */
    long dropped;     /* repeats not written since */
    char text[160];
} log_slots[LOG_SLOTS];
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t log_key(const char *line) {
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (const char *p = line; *p; p++)
        if ((*p < '0' || *p > '9') && *p != '\n') h = (h ^ (unsigned char)*p) * 1099511628211u;
    return h ? h : 1;
}

static void log_dropped(const struct log_slot *s) {
    int n = (int)strlen(s->text);
    fprintf(stderr, "tafel serve: lws: %ld more of \"%.48s%s\" in the last second (not shown)\n",
            s->dropped, s->text, n > 48 ? "..." : "");
}

/* lws's words for running out of descriptors, in an operator's; NULL: a
** line that only repeats the one before it. */
static const char *log_plain(const char *line) {
    if (strstr(line, "fail inserting socket")) return NULL;
    if ((strstr(line, "Socket fd") && strstr(line, "is too high")) || strstr(line, "Too many fds"))
        return "a new connection closed at once: the server holds all the connections its file "
               "descriptors allow (ulimit -n less 64 kept back)";
    if (!strncmp(line, "accept: errno 24", 16) || !strncmp(line, "accept: errno 23", 16))
        return "accept: out of file descriptors (EMFILE): raise ulimit -n";
    return line;
}

static void log_emit(int level, const char *line) {
    if (!(line = log_plain(line))) return;
    uint64_t key = log_key(line);
    int64_t now = now_ms();
    pthread_mutex_lock(&log_lock);
    struct log_slot *s = NULL, *oldest = &log_slots[0];
    for (int i = 0; i < LOG_SLOTS && !s; i++) {
        if (log_slots[i].key == key) s = &log_slots[i];
        else if (log_slots[i].shown_ms < oldest->shown_ms) oldest = &log_slots[i];
    }
    if (s && now - s->shown_ms < 1000) {
        s->dropped++;
        pthread_mutex_unlock(&log_lock);
        return;
    }
    if (!s) {
        s = oldest;
        if (s->key && s->dropped) log_dropped(s);
        s->key = key;
        s->dropped = 0;
    } else if (s->dropped) {
        log_dropped(s);
    }
    s->shown_ms = now;
    s->dropped = 0;
    size_t n = strcspn(line, "\n");
    if (n >= sizeof s->text) n = sizeof s->text - 1;
    memcpy(s->text, line, n);
    s->text[n] = 0;
    fprintf(stderr, "tafel serve: lws %s: %s\n", level == LLL_ERR ? "error" : "warning", s->text);
    pthread_mutex_unlock(&log_lock);
}

/* From the tick: the counts of messages that stopped repeating. */
static void log_flush(void) {
    int64_t now = now_ms();
    pthread_mutex_lock(&log_lock);
    for (int i = 0; i < LOG_SLOTS; i++) {
        struct log_slot *s = &log_slots[i];
        if (s->key && s->dropped && now - s->shown_ms >= 1000) {
            log_dropped(s);
            s->dropped = 0;
            s->shown_ms = now;
        }
    }
    pthread_mutex_unlock(&log_lock);
}

/* ---- the context ------------------------------------------------------ */

static const struct lws_protocols protocols[] = {
    /* tx_packet_size: an answer goes to the socket in one write (routes.c) */
    {"http", routes_callback, sizeof(http_session), 0, 0, NULL, 16 << 20},
    {"tafel", sockets_callback, sizeof(session), 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* Every request goes to routes.c (the files of web/ too: cached, gzip,
** ETags). */
static struct lws_http_mount mounts[1];

static int is_ipv4(const char *address) {
    int a, b, c, d;
    char end;
    return sscanf(address, "%d.%d.%d.%d%c", &a, &b, &c, &d, &end) == 4;
}

/* A certificate and key lws can load: PEM files, the key the certificate's
** (lws 4.1 only says "problem getting cert", and its vhost fails as if the
** port were taken). */
static int check_tls_files(const char *cert, const char *key, char *err, size_t errsize) {
    FILE *f = fopen(cert, "r");
    if (!f) {
        snprintf(err, errsize, "cannot read the certificate %s: %s", cert, strerror(errno));
        return -1;
    }
    X509 *x = PEM_read_X509(f, NULL, NULL, NULL);
    fclose(f);
    if (!x) {
        snprintf(err, errsize, "%s is not a PEM certificate (-----BEGIN CERTIFICATE-----)", cert);
        return -1;
    }
    if (!(f = fopen(key, "r"))) {
        snprintf(err, errsize, "cannot read the private key %s: %s", key, strerror(errno));
        X509_free(x);
        return -1;
    }
    EVP_PKEY *k = PEM_read_PrivateKey(f, NULL, NULL, NULL);
    fclose(f);
    int rc = 0;
    if (!k) {
        snprintf(err, errsize, "%s is not a PEM private key without a passphrase "
                               "(-----BEGIN PRIVATE KEY-----)", key);
        rc = -1;
    } else if (X509_check_private_key(x, k) != 1) {
        snprintf(err, errsize, "the private key %s does not belong to the certificate %s", key,
                 cert);
        rc = -1;
    }
    EVP_PKEY_free(k);
    X509_free(x);
    return rc;
}

/* The descriptors lws may hold: the soft limit less FD_RESERVE.  lws stops
** accepting when it holds all but one of them (its accept modulation), and
** closes at once a new socket whose number is past them ("Socket fd is too
** high": the server's other descriptors take low numbers), so a full server
** refuses or queues new connections instead of failing accept() with EMFILE
** on every turn of the loop (lws 4.1 logged "accept: errno 24" and spun:
** tests/server/loop.test.mjs).  lws 4.1 looks sockets up in a table as
** long as the process limit when fd_limit_per_thread equals it, and by a
** linear search when it is lower (lib/plat/unix/unix-fds.c): so the soft
** limit is lowered to the budget while the context is made, then put back. */
static unsigned fd_budget(struct rlimit *saved, int *lowered) {
    *lowered = 0;
    if (getrlimit(RLIMIT_NOFILE, saved)) return 0; /* lws's default */
    rlim_t limit = saved->rlim_cur;
    if (limit == RLIM_INFINITY || limit > (1u << 20)) limit = 1u << 20;
    rlim_t reserve = limit / 2 < FD_RESERVE ? limit / 2 : FD_RESERVE;
    struct rlimit budget = *saved;
    budget.rlim_cur = limit - reserve;
    if (!setrlimit(RLIMIT_NOFILE, &budget)) *lowered = 1;
    return (unsigned)(limit - reserve);
}

static int stop_asked;
static uv_timer_t away_timer;
static int64_t away_until;

/* The loop stops once every WebSocket has closed (1001), or after
** GOING_AWAY_MS: a client that does not answer its close holds no one up. */
#define GOING_AWAY_MS 1000

static void on_away_tick(uv_timer_t *handle) {
    if (sockets_open() > 0 && (int64_t)uv_now(&loop) < away_until) return;
    uv_timer_stop(handle);
    uv_stop(&loop);
}

static void on_signal(uv_signal_t *handle, int signum) {
    (void)handle;
    if (signum == SIGHUP || stop_asked) return; /* a closed terminal does not stop a server */
    stop_asked = 1;
    protocol_stopping(); /* the sockets closing now tell nobody */
    /* the sockets are told why they close (1001), so that pages say the
    ** server restarts and come back, rather than see a lost connection */
    sockets_going_away();
    lws_callback_on_writable_all_protocol(context, &protocols[1]);
    away_until = (int64_t)uv_now(&loop) + GOING_AWAY_MS;
    if (uv_timer_start(&away_timer, on_away_tick, 20, 20)) uv_stop(&loop);
}

static void on_tick(uv_timer_t *handle) {
    (void)handle;
    tables_tick();
    sockets_tick();
    log_flush();
}

/* A last guard: the sockets close within a few turns of the loop. */
static void on_watchdog(uv_timer_t *handle) {
    (void)handle;
    uv_stop(&loop);
}

/* Destroys the context on the loop (its first call closes every socket's
** handle, which takes turns of the loop; the second frees it and unloads
** lws's libuv plugin, so it must find every handle of lws closed), then
** closes our handles and the loop. */
static void close_loop(void) {
    if (!loop_open) return;
    if (context) lws_context_destroy(context); /* phase 1: closes every socket */
    if (handles_open) {
        uv_close((uv_handle_t *)&sig_int, NULL);
        uv_close((uv_handle_t *)&sig_term, NULL);
        uv_close((uv_handle_t *)&sig_hup, NULL);
        uv_close((uv_handle_t *)&ticker, NULL);
        uv_close((uv_handle_t *)&away_timer, NULL);
        handles_open = 0;
    }
    uv_timer_t watchdog;
    uv_timer_init(&loop, &watchdog);
    uv_update_time(&loop); /* the bot threads' stop took time since the loop ran */
    uv_timer_start(&watchdog, on_watchdog, 1500, 0);
    uv_unref((uv_handle_t *)&watchdog); /* the loop ends when the rest is closed */
    uv_run(&loop, UV_RUN_DEFAULT);
    if (uv_loop_alive(&loop)) {
        /* still closing: freeing the context now would unload code the
        ** loop still calls; the process ends anyway */
        fprintf(stderr, "tafel serve: sockets still closing after 1.5 s; not waiting\n");
        context = NULL;
        loop_open = 0;
        return;
    }
    if (context) lws_context_destroy(context); /* phase 2: frees */
    context = NULL;
    uv_close((uv_handle_t *)&watchdog, NULL);
    uv_run(&loop, UV_RUN_NOWAIT);
    if (uv_loop_close(&loop))
        fprintf(stderr, "tafel serve: the event loop still had handles open at the end\n");
    loop_open = 0;
}

static http_config config; /* http_start's, read by the transport's files */

const http_config *http_options(void) { return &config; }

int http_start(const http_config *given, int *port_out, char *err, size_t errsize) {
    config = *given;
    const http_config *opt = &config;
    lws_set_log_level(LLL_ERR | LLL_WARN, log_emit);
    int tls = opt->cert && opt->key;
    if (tls && check_tls_files(opt->cert, opt->key, err, errsize)) return -1;
    memset(mounts, 0, sizeof mounts);
    mounts[0] = (struct lws_http_mount){.mountpoint = "/", .origin = "http",
                                        .origin_protocol = LWSMPRO_CALLBACK, .mountpoint_len = 1};

    /* A WebSocket that sent nothing valid (a pong counts) for idle_seconds
    ** is pinged, and closed at twice that (lws wants hangup > ping; its
    ** fields are 16-bit). */
    int idle = opt->idle_seconds > 0 ? opt->idle_seconds : 60;
    if (idle > 32767) idle = 32767;
    idle_policy = (lws_retry_bo_t){.secs_since_valid_ping = (uint16_t)idle,
                                   .secs_since_valid_hangup = (uint16_t)(2 * idle)};

    if (uv_loop_init(&loop)) {
        snprintf(err, errsize, "cannot start the event loop (libuv)");
        return -1;
    }
    loop_open = 1;
    void *foreign_loops[1] = {&loop};
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = opt->port;
    info.iface = opt->bind;
    info.protocols = protocols;
    info.mounts = &mounts[0];
    info.options = LWS_SERVER_OPTION_VALIDATE_UTF8 | LWS_SERVER_OPTION_EXPLICIT_VHOSTS |
                   LWS_SERVER_OPTION_LIBUV;
    if (is_ipv4(opt->bind)) info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    info.foreign_loops = foreign_loops;
    info.vhost_name = "tafel";
    info.timeout_secs_ah_idle = HTTP_REQUEST_SECONDS;
    info.keepalive_timeout = HTTP_KEEPALIVE_SECONDS;
    info.retry_and_idle_policy = &idle_policy;
    if (tls) {
        info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
        info.ssl_cert_filepath = opt->cert;
        info.ssl_private_key_filepath = opt->key;
        info.alpn = "http/1.1"; /* HTTP/2 truncated large bodies (stack-turn3.md §3) */
    }
    struct rlimit saved;
    int lowered;
    info.fd_limit_per_thread = fd_budget(&saved, &lowered);
    context = lws_create_context(&info);
    if (lowered) setrlimit(RLIMIT_NOFILE, &saved);
    if (!context) {
        snprintf(err, errsize, "cannot start libwebsockets on libuv (is Debian's "
                               "libwebsockets-evlib-uv installed?)");
        close_loop();
        return -1;
    }
    struct lws_vhost *vhost = lws_create_vhost(context, &info);
    if (!vhost) {
        snprintf(err, errsize, "cannot listen on %s port %d (in use, or not an address of this "
                               "machine?)", opt->bind, opt->port);
        close_loop();
        return -1;
    }
    *port_out = lws_get_vhost_listen_port(vhost);

    uv_signal_init(&loop, &sig_int);
    uv_signal_init(&loop, &sig_term);
    uv_signal_init(&loop, &sig_hup);
    uv_timer_init(&loop, &ticker);
    uv_timer_init(&loop, &away_timer);
    handles_open = 1;
    if (uv_signal_start(&sig_int, on_signal, SIGINT) ||
        uv_signal_start(&sig_term, on_signal, SIGTERM) ||
        uv_signal_start(&sig_hup, on_signal, SIGHUP) ||
        uv_timer_start(&ticker, on_tick, 1000, 1000)) {
        snprintf(err, errsize, "cannot watch for signals");
        close_loop();
        return -1;
    }
    return 0;
}

void http_run(void (*stopping)(void)) {
    uv_run(&loop, UV_RUN_DEFAULT); /* until SIGINT or SIGTERM */
    uv_timer_stop(&ticker);
    if (stopping) stopping(); /* the bot threads may still wake the loop meanwhile */
    close_loop();
}

void http_stop(void) { close_loop(); }
