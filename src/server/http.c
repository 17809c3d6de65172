/*
** http.c -- the libwebsockets side: one port for HTTP and the WebSocket.
**
** Written against libwebsockets 4.1 (Debian bookworm) and its pitfalls
** (docs: ../shared/notes/stack-research.md §1.4): only lws_cancel_service
** is called from other threads; one lws_write per WRITEABLE callback, with
** LWS_PRE bytes before the data, the rest queued; a message arrives in
** pieces and is assembled up to SERVER_MAX_MESSAGE; a numeric IPv4 bind
** address disables IPv6, or 4.1 would listen on every interface.
**
** HTTP: the files of web/ (a mount), and the routes /t/<id> (the page),
** /t/<id>/record and /api/tables (a callback mount).
*/
#include "http.h"
#include "tables.h"

#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct outmsg {
    struct outmsg *next;
    size_t len;
    unsigned char data[]; /* LWS_PRE bytes of headroom, then the text */
};

static struct lws_context *context;
static uint64_t last_session_id;

void http_wake(void) {
    if (context) lws_cancel_service(context);
}

/* ---- WebSocket -------------------------------------------------------- */

void session_send(session *s, const char *text, size_t len) {
    if (s->closing) return;
    if (s->queued >= SERVER_MAX_QUEUE) { /* a socket that does not read: let it go */
        s->closing = 1;
        lws_callback_on_writable(s->wsi);
        return;
    }
    struct outmsg *m = malloc(sizeof *m + LWS_PRE + len);
    if (!m) return;
    m->next = NULL;
    m->len = len;
    memcpy(m->data + LWS_PRE, text, len);
    if (s->tail) s->tail->next = m;
    else s->head = m;
    s->tail = m;
    s->queued++;
    lws_callback_on_writable(s->wsi);
}

static void drop_queue(session *s) {
    while (s->head) {
        struct outmsg *next = s->head->next;
        free(s->head);
        s->head = next;
    }
    s->tail = NULL;
    s->queued = 0;
    free(s->rx);
    s->rx = NULL;
}

/* Assembles a message from its pieces; a too big one is read to its end
** and refused, a huge one closes the socket (-1). */
static int receive(session *s, struct lws *wsi, const void *in, size_t len) {
    size_t total = s->rx_len + len;
    if (total > SERVER_CLOSE_MESSAGE) return -1;
    if (total > SERVER_MAX_MESSAGE) s->rx_too_big = 1;
    if (!s->rx_too_big) {
        if (!s->rx && !(s->rx = malloc(SERVER_MAX_MESSAGE))) return -1;
        memcpy(s->rx + s->rx_len, in, len);
    }
    s->rx_len = total;
    if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi)) return 0;
    if (s->rx_too_big) protocol_too_big(s);
    else protocol_receive(s, s->rx, s->rx_len);
    free(s->rx); /* most sockets are quiet between messages: no buffer kept */
    s->rx = NULL;
    s->rx_len = 0;
    s->rx_too_big = 0;
    tables_sweep();
    return 0;
}

static int callback_tafel(struct lws *wsi, enum lws_callback_reasons reason, void *user,
                          void *in, size_t len) {
    session *s = user;
    switch (reason) {
    case LWS_CALLBACK_ESTABLISHED:
        memset(s, 0, sizeof *s);
        s->wsi = wsi;
        s->id = ++last_session_id;
        s->seat = -1;
        break;
    case LWS_CALLBACK_RECEIVE:
        return receive(s, wsi, in, len);
    case LWS_CALLBACK_SERVER_WRITEABLE: {
        if (s->closing) return -1;
        struct outmsg *m = s->head;
        if (!m) break;
        s->head = m->next;
        if (!s->head) s->tail = NULL;
        s->queued--;
        int n = lws_write(wsi, m->data + LWS_PRE, m->len, LWS_WRITE_TEXT);
        int short_write = n < (int)m->len;
        free(m);
        if (short_write) return -1;
        if (s->head) lws_callback_on_writable(wsi);
        break;
    }
    case LWS_CALLBACK_CLOSED:
        protocol_closed(s);
        drop_queue(s);
        tables_sweep();
        break;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        for (bot_job *job; (job = botpool_take_done());) {
            tables_bot_done(job);
            bot_job_free(job);
        }
        tables_sweep();
        break;
    default:
        break;
    }
    return 0;
}

/* ---- HTTP routes ------------------------------------------------------ */

typedef struct http_session {
    char *body;
    size_t len, sent;
} http_session;

static const char *web_dir;

/* Starts a response with a body (malloc'd, taken over); WRITEABLE sends it. */
static int respond(struct lws *wsi, http_session *h, unsigned status, const char *type,
                   char *body) {
    unsigned char buf[LWS_PRE + 1024], *start = buf + LWS_PRE, *p = start,
                                      *end = buf + sizeof buf - 1;
    size_t len = body ? strlen(body) : 0;
    if (lws_add_http_common_headers(wsi, status, type, len, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
                                    (const unsigned char *)"no-store", 8, &p, end) ||
        lws_finalize_write_http_header(wsi, start, &p, end)) {
        free(body);
        return -1;
    }
    h->body = body;
    h->len = len;
    h->sent = 0;
    lws_callback_on_writable(wsi);
    return 0;
}

static int respond_text(struct lws *wsi, http_session *h, unsigned status, const char *text) {
    size_t n = strlen(text) + 2;
    char *body = malloc(n);
    if (!body) return -1;
    snprintf(body, n, "%s\n", text);
    return respond(wsi, h, status, "text/plain; charset=utf-8", body);
}

static int write_body(struct lws *wsi, http_session *h) {
    if (!h->body) return 0;
    enum { CHUNK = 16384 };
    static unsigned char buf[LWS_PRE + CHUNK];
    size_t n = h->len - h->sent < CHUNK ? h->len - h->sent : CHUNK;
    int final = h->sent + n == h->len;
    memcpy(buf + LWS_PRE, h->body + h->sent, n);
    if (lws_write(wsi, buf + LWS_PRE, n, final ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) < (int)n)
        return -1;
    h->sent += n;
    if (!final) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    free(h->body);
    h->body = NULL;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* The record of a finished table, in the format tafel replay reads. */
static char *record_json(const table *t) {
    tafel_record *r = tafel_record_new(t->game_string, t->seed);
    if (!r) return NULL;
    for (int i = 0; i < t->players; i++)
        if (tafel_record_set_player(r, i, t->seats[i].spec)) {
            tafel_record_free(r);
            return NULL;
        }
    for (int i = 0; i < t->nactions; i++)
        if (tafel_record_push_text(r, t->texts[i])) {
            tafel_record_free(r);
            return NULL;
        }
    /* a record names one forfeit: the first (with two players, the only one) */
    for (int i = 0; i < t->players; i++)
        if (t->seats[i].forfeit[0]) {
            if (tafel_record_set_forfeit(r, i, t->seats[i].forfeit)) {
                tafel_record_free(r);
                return NULL;
            }
            break;
        }
    char *json = tafel_record_to_json(r);
    tafel_record_free(r);
    return json;
}

static int route(struct lws *wsi, http_session *h, const char *uri) {
    if (!strcmp(uri, "/api/games")) {
        char *games = protocol_games();
        return games ? respond(wsi, h, HTTP_STATUS_OK, "application/json", games) : -1;
    }
    if (!strcmp(uri, "/api/tables")) {
        char *list = lobby_tables_json();
        return list ? respond(wsi, h, HTTP_STATUS_OK, "application/json", list) : -1;
    }
    char id[STORE_ID_LEN + 2], rest[16];
    int n = sscanf(uri, "/t/%17[0-9a-f]%15s", id, rest);
    if (n < 1 || strlen(id) != STORE_ID_LEN || (n == 2 && strcmp(rest, "/record")))
        return respond_text(wsi, h, HTTP_STATUS_NOT_FOUND, "no such page");
    table *t = tables_find(id);
    if (!t) return respond_text(wsi, h, HTTP_STATUS_NOT_FOUND, "no such table");
    if (n == 1) { /* the page; it reads the table and token from the address */
        char path[1024];
        snprintf(path, sizeof path, "%s/index.html", web_dir);
        int rc = lws_serve_http_file(wsi, path, "text/html", NULL, 0);
        return rc < 0 || (rc > 0 && lws_http_transaction_completed(wsi)) ? -1 : 0;
    }
    if (!t->over)
        return respond_text(wsi, h, HTTP_STATUS_FORBIDDEN,
                            "the game is not over: its record holds every hidden card");
    char *json = record_json(t);
    return json ? respond(wsi, h, HTTP_STATUS_OK, "application/json", json) : -1;
}

static int callback_http(struct lws *wsi, enum lws_callback_reasons reason, void *user,
                         void *in, size_t len) {
    http_session *h = user;
    switch (reason) {
    case LWS_CALLBACK_HTTP: {
        char uri[256];
        memset(h, 0, sizeof *h);
        if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) <= 0)
            return respond_text(wsi, h, HTTP_STATUS_METHOD_NOT_ALLOWED, "GET only");
        return route(wsi, h, uri);
    }
    case LWS_CALLBACK_HTTP_WRITEABLE:
        tables_sweep(); /* a finished table loaded for its record */
        return write_body(wsi, h);
    case LWS_CALLBACK_CLOSED_HTTP:
        if (h) {
            free(h->body);
            h->body = NULL;
        }
        break;
    default:
        break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}

/* ---- the context ------------------------------------------------------ */

static const struct lws_protocols protocols[] = {
    {"http", callback_http, sizeof(http_session), 0, 0, NULL, 0},
    {"tafel", callback_tafel, sizeof(session), 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static const struct lws_protocol_vhost_options mime_types[] = {
    {&mime_types[1], NULL, ".mjs", "text/javascript"},
    {&mime_types[2], NULL, ".js", "text/javascript"},
    {&mime_types[3], NULL, ".svg", "image/svg+xml"},
    {&mime_types[4], NULL, ".json", "application/json"},
    {NULL, NULL, ".wasm", "application/wasm"},
};

static struct lws_http_mount mounts[3];

static int is_ipv4(const char *address) {
    int a, b, c, d;
    char end;
    return sscanf(address, "%d.%d.%d.%d%c", &a, &b, &c, &d, &end) == 4;
}

int http_start(const server_options *opt, int *port_out) {
    web_dir = opt->web_dir;
    lws_set_log_level(LLL_ERR, NULL);
    memset(mounts, 0, sizeof mounts);
    mounts[0] = (struct lws_http_mount){.mount_next = &mounts[1], .mountpoint = "/t",
                                        .origin = "http", .origin_protocol = LWSMPRO_CALLBACK,
                                        .mountpoint_len = 2};
    mounts[1] = (struct lws_http_mount){.mount_next = &mounts[2], .mountpoint = "/api",
                                        .origin = "http", .origin_protocol = LWSMPRO_CALLBACK,
                                        .mountpoint_len = 4};
    mounts[2] = (struct lws_http_mount){.mountpoint = "/", .origin = opt->web_dir,
                                        .def = "index.html", .origin_protocol = LWSMPRO_FILE,
                                        .mountpoint_len = 1, .extra_mimetypes = mime_types};
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = opt->port;
    info.iface = opt->bind;
    info.protocols = protocols;
    info.mounts = &mounts[0];
    info.options = LWS_SERVER_OPTION_VALIDATE_UTF8 | LWS_SERVER_OPTION_EXPLICIT_VHOSTS;
    if (is_ipv4(opt->bind)) info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    info.vhost_name = "tafel";
    context = lws_create_context(&info);
    if (!context) return -1;
    struct lws_vhost *vhost = lws_create_vhost(context, &info);
    if (!vhost) {
        lws_context_destroy(context);
        context = NULL;
        return -1;
    }
    *port_out = lws_get_vhost_listen_port(vhost);
    return 0;
}

int http_service(void) { return lws_service(context, 0); }

void http_stop(void) {
    if (context) lws_context_destroy(context);
    context = NULL;
}
