/*
** routes.c -- the HTTP side of tafel serve: the page's files and the
** routes /t/<id> (the page), /t/<id>/record, /api/games and /api/tables,
** /tafel.wasm (the engine for the page's local tables, from beside the
** program); the checks on each request and on the WebSocket upgrade.  The
** page (HTML) goes out with a Content-Security-Policy (PAGE_CSP).
**
** Every answer is written whole inside LWS_CALLBACK_HTTP (headers, body,
** transaction completed), so nothing of a transaction outlives its
** callback: with pipelined requests lws parses the next request while the
** previous one is still in its hands, and re-binds the per-session data
** (../shared/notes/stack-turn3.md §2.6).  The "http" protocol's
** tx_packet_size lets lws hand the whole answer to the socket in one write;
** what the socket does not take lws keeps and writes later.  lws 4.1 gets
** one case wrong: a request pipelined behind an answer it still holds is
** parsed into that answer's transaction, which then stalls; that
** connection is closed (LWS_CALLBACK_HTTP below; lws's flush timeout, 5 s).
**
** The files of web/ are read once into a small cache keyed by path (an
** edited file, another size or mtime, is read again), with a gzip copy when
** it is smaller, a strong ETag and "Cache-Control: no-cache": the page has
** no build step and no hashed names, so a browser revalidates each file and
** gets 304 with no body when it has not changed.
**
** The account routes (/api/signup, /api/login, ...: routes_players.c) take
** POST with a small JSON body; their answers may wait for a password hash
** (hasher.c) and go out from the timer, as --durable's held answers do.
**
** Refused: a request other than GET or HEAD (405; POST to the account
** routes is the one exception), any HTTP version but
** 1.0 and 1.1, Content-Length twice, Content-Length with
** Transfer-Encoding, a body on GET or HEAD (400, then the connection is
** closed); a path that leaves web/ (404); an upgrade to /ws from another
** origin (403) or from an address with too many sockets open (403), or
** with a Sec-WebSocket-Version other than 13 (426), a key that is not 16
** bytes in base64, the key, version or Origin given twice, a ?t= that is
** no table id or comes twice (400); a Host
** that is not one of the server's names (421: DNS rebinding).
*/
#define _DEFAULT_SOURCE /* realpath, strtok_r */
#include "http.h"
#include "protocol.h"
#include "syncer.h"
#include "players.h"
#include "ratings.h"
#include "tables.h"
#include "turns.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <libwebsockets.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define FILE_MAX (16L << 20) /* a bigger file of web/ is not served */

/* The page's Content-Security-Policy: its own scripts only, no eval, but
** WebAssembly compiled from bytes ('wasm-unsafe-eval': the local tables'
** engine, web/engine/tafel.mjs, when a page compiles it) and module workers
** of its own (web/local/worker.mjs).  Inline style stays allowed: the views
** set style attributes (a seat's colour); the socket is same-origin
** (connect-src 'self' takes ws: and wss: of the page's own host). */
#define PAGE_CSP                                                                      \
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; "   \
    "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; " \
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

/* ---- answers ---------------------------------------------------------- */

#define HTTP_STATUS_MISDIRECTED 421      /* RFC 9110 §15.5.20; lws names it not */
#define HTTP_STATUS_UPGRADE_REQUIRED 426 /* RFC 9110 §15.5.22 */

typedef struct answer {
    unsigned status;
    const char *type;
    const unsigned char *body; /* LWS_PRE bytes of headroom before it */
    size_t len;
    const char *etag;          /* quoted, or NULL */
    const char *cache;         /* Cache-Control */
    int gzip, vary;            /* Content-Encoding: gzip; Vary: Accept-Encoding */
    int close;                 /* Connection: close, and close after it */
    int lws_completes;         /* lws completes the transaction (an upgrade refused) */
    const char *cookie;        /* Set-Cookie, or NULL (routes_players.c) */
    int retry_after;           /* Retry-After seconds, 0: none */
    int ws_version;            /* 426: the WebSocket version to upgrade with */
} answer;

static int is_head(struct lws *wsi) { return lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0; }

static int add_header(struct lws *wsi, const char *name, const char *value, unsigned char **p,
                      unsigned char *end) {
    return lws_add_http_header_by_name(wsi, (const unsigned char *)name,
                                       (const unsigned char *)value, (int)strlen(value), p, end);
}

/* Writes the whole answer now and completes the transaction: 0, or -1 to
** close the connection. */
static int send_answer(struct lws *wsi, const answer *a) {
    unsigned char buf[LWS_PRE + 1536], *start = buf + LWS_PRE, *p = start,
                                      *end = buf + sizeof buf - 1;
    int not_modified = a->status == HTTP_STATUS_NOT_MODIFIED;
    /* lws_add_http_common_headers adds content-length: 0, wrong for a 304
    ** (RFC 9110 §8.6) */
    if (not_modified ? lws_add_http_header_status(wsi, a->status, &p, end)
                     : lws_add_http_common_headers(wsi, a->status, a->type, a->len, &p, end))
        return -1;
    char retry[24];
    snprintf(retry, sizeof retry, "%d", a->retry_after);
    if ((a->etag && add_header(wsi, "etag:", a->etag, &p, end)) ||
        (a->retry_after > 0 && add_header(wsi, "retry-after:", retry, &p, end)) ||
        add_header(wsi, "cache-control:", a->cache ? a->cache : "no-store", &p, end) ||
        (a->gzip && add_header(wsi, "content-encoding:", "gzip", &p, end)) ||
        (a->vary && add_header(wsi, "vary:", "Accept-Encoding", &p, end)) ||
        add_header(wsi, "x-content-type-options:", "nosniff", &p, end) ||
        /* which node answered, behind a proxy (docs/server.md, "Several nodes") */
        (http_options()->node && add_header(wsi, "x-tafel-node:", http_options()->node, &p, end)) ||
        (a->type && !strncmp(a->type, "text/html", 9) &&
         add_header(wsi, "content-security-policy:", PAGE_CSP, &p, end)) ||
        /* RFC 6455 §4.2.2: the version the server speaks; RFC 9110 §15.5.22:
        ** a 426 names the protocol to upgrade to */
        (a->ws_version && (add_header(wsi, "sec-websocket-version:", "13", &p, end) ||
                           add_header(wsi, "upgrade:", "websocket", &p, end))) ||
        (a->close && add_header(wsi, "connection:", a->ws_version ? "upgrade, close" : "close",
                                &p, end)) ||
        (a->cookie && add_header(wsi, "set-cookie:", a->cookie, &p, end)) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    if (!not_modified && a->len && !is_head(wsi) &&
        lws_write(wsi, (unsigned char *)a->body, a->len, LWS_WRITE_HTTP_FINAL) < (int)a->len)
        return -1;
    if (a->close) {
        /* lws closes once what it holds is written */
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
        return 0;
    }
    if (a->lws_completes) return 0;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

int routes_send_json_with(struct lws *wsi, unsigned status, char *text, const char *cookie,
                          int retry_after, int close) {
    if (!text) return -1;
    size_t len = strlen(text);
    unsigned char *buf = malloc(LWS_PRE + len);
    if (!buf) {
        free(text);
        return -1;
    }
    memcpy(buf + LWS_PRE, text, len);
    free(text);
    answer a = {.status = status, .type = "application/json", .body = buf + LWS_PRE, .len = len,
                .cookie = cookie, .retry_after = retry_after, .close = close};
    int rc = send_answer(wsi, &a);
    free(buf);
    return rc;
}

/* Answers with text (a malloc'd body, freed here). */
static int send_json(struct lws *wsi, unsigned status, char *text) {
    return routes_send_json_with(wsi, status, text, NULL, 0, 0);
}

static int send_text_how(struct lws *wsi, unsigned status, const char *text, int close,
                         int lws_completes) {
    unsigned char buf[LWS_PRE + 256];
    int n = snprintf((char *)buf + LWS_PRE, sizeof buf - LWS_PRE, "%s\n", text);
    answer a = {.status = status, .type = "text/plain; charset=utf-8", .body = buf + LWS_PRE,
                .len = (size_t)n, .close = close, .lws_completes = lws_completes,
                .ws_version = status == HTTP_STATUS_UPGRADE_REQUIRED};
    return send_answer(wsi, &a);
}

static int send_text(struct lws *wsi, unsigned status, const char *text) {
    return send_text_how(wsi, status, text, 0, 0);
}

static int send_text_close(struct lws *wsi, unsigned status, const char *text) {
    return send_text_how(wsi, status, text, 1, 0);
}

/* An upgrade refused: 1 tells lws to complete the transaction. */
static int refuse_upgrade(struct lws *wsi, unsigned status, const char *text, int close) {
    return send_text_how(wsi, status, text, close, 1) ? -1 : 1;
}

/* ---- the files of web/ ------------------------------------------------ */

typedef struct cached {
    struct cached *next;
    char *path;              /* the real path of the file */
    off_t size;
    struct timespec mtime;
    unsigned char *data;     /* LWS_PRE headroom, then the file */
    unsigned char *gz;       /* LWS_PRE headroom, then its gzip, or NULL */
    size_t gz_len;
    char etag[24], gz_etag[28];
} cached;

static cached *cache;

static void cached_free(cached *c) {
    free(c->path);
    free(c->data);
    free(c->gz);
    free(c);
}

static const struct {
    const char *ext, *type;
} mime_types[] = {
    {".html", "text/html; charset=utf-8"},
    {".mjs", "text/javascript; charset=utf-8"},
    {".js", "text/javascript; charset=utf-8"},
    {".css", "text/css; charset=utf-8"},
    {".svg", "image/svg+xml"},
    {".json", "application/json"},
    {".png", "image/png"},
    {".wasm", "application/wasm"},
    {".webmanifest", "application/manifest+json"},
    {".md", "text/markdown; charset=utf-8"},
    {".txt", "text/plain; charset=utf-8"},
};

static const char *mime_type(const char *path) {
    const char *dot = strrchr(path, '.');
    if (dot && !strchr(dot, '/'))
        for (size_t i = 0; i < sizeof mime_types / sizeof mime_types[0]; i++)
            if (!strcmp(dot, mime_types[i].ext)) return mime_types[i].type;
    return "application/octet-stream";
}

/* gzip of data, with LWS_PRE headroom; NULL when it saves nothing. */
static unsigned char *gzip_of(const unsigned char *data, size_t len, size_t *out_len) {
    if (len < 256) return NULL; /* headers cost more than it saves */
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return NULL;
    size_t cap = deflateBound(&z, (uLong)len);
    unsigned char *out = malloc(LWS_PRE + cap);
    if (!out) {
        deflateEnd(&z);
        return NULL;
    }
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)len;
    z.next_out = out + LWS_PRE;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, Z_FINISH);
    *out_len = z.total_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END || *out_len >= len) {
        free(out);
        return NULL;
    }
    return out;
}

/* FNV-1a: the ETag is the content's hash, so a file edited back is the same. */
static uint64_t hash_of(const unsigned char *data, size_t len) {
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < len; i++) h = (h ^ data[i]) * 0x100000001b3u;
    return h;
}

/* The cache entry of the regular file at real path, read (again) when it is
** new or changed; NULL when it cannot be read. */
static cached *file_get(const char *real, const struct stat *st) {
    cached **at = &cache;
    for (; *at; at = &(*at)->next)
        if (!strcmp((*at)->path, real)) break;
    cached *c = *at;
    if (c && c->size == st->st_size && c->mtime.tv_sec == st->st_mtim.tv_sec &&
        c->mtime.tv_nsec == st->st_mtim.tv_nsec)
        return c;
    if (c) { /* changed: read it again */
        *at = c->next;
        cached_free(c);
    }
    if (st->st_size > FILE_MAX) return NULL;
    c = calloc(1, sizeof *c);
    int fd = open(real, O_RDONLY | O_CLOEXEC);
    if (!c || fd < 0 || !(c->path = strdup(real)) ||
        !(c->data = malloc(LWS_PRE + (size_t)st->st_size + 1))) {
        if (fd >= 0) close(fd);
        if (c) cached_free(c);
        return NULL;
    }
    size_t got = 0, want = (size_t)st->st_size;
    while (got < want) {
        ssize_t n = read(fd, c->data + LWS_PRE + got, want - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(fd);
    if (got != want) { /* changed while read: next time */
        cached_free(c);
        return NULL;
    }
    c->size = st->st_size;
    c->mtime = st->st_mtim;
    c->gz = gzip_of(c->data + LWS_PRE, want, &c->gz_len);
    uint64_t h = hash_of(c->data + LWS_PRE, want);
    snprintf(c->etag, sizeof c->etag, "\"%016llx\"", (unsigned long long)h);
    snprintf(c->gz_etag, sizeof c->gz_etag, "\"%016llx-gz\"", (unsigned long long)h);
    c->next = cache;
    cache = c;
    return c;
}

/* Whether Accept-Encoding takes gzip (and does not say q=0 for it). */
static int accepts_gzip(struct lws *wsi) {
    char v[512];
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_ACCEPT_ENCODING) <= 0 ||
        lws_hdr_copy(wsi, v, sizeof v, WSI_TOKEN_HTTP_ACCEPT_ENCODING) <= 0)
        return 0;
    for (char *save = NULL, *tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ' || *tok == '\t') tok++;
        size_t n = strcspn(tok, "; \t");
        if (!((n == 4 && !strncasecmp(tok, "gzip", 4)) || (n == 1 && tok[0] == '*'))) continue;
        const char *q = strstr(tok + n, "q=");
        if (q && strtod(q + 2, NULL) <= 0) return 0;
        return 1;
    }
    return 0;
}

/* Whether If-None-Match names etag (or is "*"); weak comparison. */
static int etag_matches(struct lws *wsi, const char *etag) {
    char v[1024];
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH) <= 0 ||
        lws_hdr_copy(wsi, v, sizeof v, WSI_TOKEN_HTTP_IF_NONE_MATCH) <= 0)
        return 0;
    for (char *save = NULL, *tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ' || *tok == '\t') tok++;
        if (!strncmp(tok, "W/", 2)) tok += 2;
        size_t n = strcspn(tok, " \t");
        if ((n == 1 && tok[0] == '*') || (n == strlen(etag) && !strncmp(tok, etag, n))) return 1;
    }
    return 0;
}

/* Serves the regular file at real path (checked by the caller), from the
** cache. */
static int send_real(struct lws *wsi, const char *real, const struct stat *st) {
    cached *c = file_get(real, st);
    if (!c) return send_text(wsi, HTTP_STATUS_NOT_FOUND, "no such file");
    int gz = c->gz && accepts_gzip(wsi);
    answer a = {.status = HTTP_STATUS_OK, .type = mime_type(real),
                .body = gz ? c->gz + LWS_PRE : c->data + LWS_PRE,
                .len = gz ? c->gz_len : (size_t)c->size, .etag = gz ? c->gz_etag : c->etag,
                .cache = "no-cache", .gzip = gz, .vary = c->gz != NULL};
    if (etag_matches(wsi, a.etag)) a.status = HTTP_STATUS_NOT_MODIFIED;
    return send_answer(wsi, &a);
}

/* Serves the file at rel (a path under web/, "/" first); 404 when it is
** not a regular file inside web/ (".." and symbolic links out of it
** included). */
static int send_file(struct lws *wsi, const char *rel) {
    static char root[PATH_MAX];
    static size_t root_len;
    if (!root_len) {
        if (!realpath(http_options()->web_dir, root))
            return send_text(wsi, HTTP_STATUS_NOT_FOUND, "no such file");
        root_len = strlen(root);
    }
    if (rel[0] != '/' || strstr(rel, "..") || strchr(rel, '\\') || strchr(rel, '%') ||
        strlen(rel) > 512)
        return send_text(wsi, HTTP_STATUS_NOT_FOUND, "no such file");
    char path[PATH_MAX], real[PATH_MAX];
    snprintf(path, sizeof path, "%s%s", root, rel);
    struct stat st;
    if (!realpath(path, real) || strncmp(real, root, root_len) || real[root_len] != '/' ||
        stat(real, &st) || !S_ISREG(st.st_mode))
        return send_text(wsi, HTTP_STATUS_NOT_FOUND, "no such file");
    return send_real(wsi, real, &st);
}

/* GET /tafel.wasm: the engine as WebAssembly, from beside the program
** (src/cli/data.c), not from web/: the module is built, web/ is not.  404
** when there is none; the page then offers no local tables. */
static int send_wasm(struct lws *wsi) {
    char real[PATH_MAX];
    struct stat st;
    const char *wasm = http_options()->wasm_file;
    if (!wasm || !realpath(wasm, real) || stat(real, &st) ||
        !S_ISREG(st.st_mode))
        return send_text(wsi, HTTP_STATUS_NOT_FOUND, "no engine module (built without wasm)");
    return send_real(wsi, real, &st);
}

/* ---- routes ----------------------------------------------------------- */

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

/* An answer that tells of changes (the lobby, a record): with --durable it
** waits until the changes before it are synced, as a socket's messages do
** (sockets.c); the timer looks again every 2 ms.  Only these wait, and
** those read off the loop (below): a pipelined request behind a waiting
** answer closes the connection (LWS_CALLBACK_HTTP_DROP_PROTOCOL). */
static int send_synced_json(struct lws *wsi, http_session *h, char *text) {
    uint64_t commit = syncer_committed();
    if (!text || commit <= syncer_synced()) return send_json(wsi, HTTP_STATUS_OK, text);
    h->held = text;
    h->commit = commit;
    lws_set_timer_usecs(wsi, 2000);
    return 0;
}

static int send_held(struct lws *wsi, http_session *h) {
    if (!h->held) return 0;
    if (h->commit > syncer_synced()) {
        lws_set_timer_usecs(wsi, 2000);
        return 0;
    }
    char *text = h->held;
    h->held = NULL;
    return send_json(wsi, HTTP_STATUS_OK, text);
}

/* Whether the request may see table t: anyone an open one; a private one
** its players only, by the login bound to a seat or a seat's token
** (?token=, a seat link), so that it stays private after it ends. */
static int may_see(struct lws *wsi, const table *t) {
    if (!t->private_) return 1;
    player me;
    if (players_of_request(wsi, &me) == 1 && table_seat_of_player(t, me.id) >= 0) return 1;
    char arg[48];
    const char *token = lws_get_urlarg_by_name(wsi, "token=", arg, sizeof arg);
    return token && table_seat_of_token(t, token) >= 0;
}

/* What a /t/ID address answers, decided while the table is at hand (it
** may be freed before a deferred answer goes out). */
typedef struct page_answer {
    enum { TABLE_PAGE, TABLE_TEXT, TABLE_RECORD } kind;
    unsigned status;
    const char *text; /* TABLE_TEXT's */
    char *record;     /* TABLE_RECORD's JSON (malloc'd) */
} page_answer;

static page_answer answer_of_page(struct lws *wsi, table *t, int elsewhere, int record) {
    /* another node's (several nodes): the page, whose join is sent on */
    if (elsewhere && !record) return (page_answer){.kind = TABLE_PAGE};
    /* a stranger is not told that a private table exists */
    if (!t || !may_see(wsi, t))
        return (page_answer){TABLE_TEXT, HTTP_STATUS_NOT_FOUND, "no such table", NULL};
    if (!record) return (page_answer){.kind = TABLE_PAGE}; /* it reads the table from the address */
    if (!t->over)
        return (page_answer){TABLE_TEXT, HTTP_STATUS_FORBIDDEN,
                              "the game is not over: its record holds every hidden card", NULL};
    return (page_answer){.kind = TABLE_RECORD, .record = record_json(t)};
}

static int send_page_answer(struct lws *wsi, http_session *h, page_answer *a) {
    if (a->kind == TABLE_PAGE) return send_file(wsi, "/index.html");
    if (a->kind == TABLE_TEXT) return send_text(wsi, a->status, a->text);
    char *record = a->record;
    a->record = NULL;
    return send_synced_json(wsi, h, record);
}

/* A table's address: its id (16 hex digits) into id, and whether it asks
** for the record (1) or the page (0); -1 when uri is no table's address. */
static int table_address(const char *uri, char id[STORE_ID_LEN + 2]) {
    char rest[16];
    int n = sscanf(uri, "/t/%17[0-9a-f]%15s", id, rest);
    if (n < 1 || strlen(id) != STORE_ID_LEN || (n == 2 && strcmp(rest, "/record"))) return -1;
    return n == 2;
}

/* ---- answers read off the loop ------------------------------------------ */

/* On PostgreSQL a request that needs the store (its login, a profile, the
** leaderboard, a table not in memory) is answered later (issue 36: the
** loop never waits for the database): its reads run on the store's pool
** (tables_later, tables_find_later), then the answer goes out from the
** timer, as a held answer does, with the login read (players_request_known).
** A read in flight owns its deferred; the connection's close only cuts it
** loose (wsi NULL), and whoever holds it then frees it. */
typedef struct deferred {
    struct lws *wsi;  /* NULL: its connection closed */
    int in_flight;    /* a read of it is running: the read's done frees it */
    char uri[600];
    char token[PLAYERS_TOKEN_MAX + 1];
    size_t token_len;
    char game[80];    /* the leaderboard's ?game= */
    int has_game;
    /* what was read */
    int found;        /* players_of_login's answer */
    player who;
    unsigned char hash[32];
    char *json;       /* a profile's or the leaderboard's answer, or its error body */
    unsigned status;
    int table_answered;
    page_answer table;
} deferred;

static int is_ratings_route(const char *uri) {
    return !strncmp(uri, "/api/players/", 13) || !strcmp(uri, "/api/leaderboard");
}

/* Whether uri's answer reads the store (a login among them).  The page's
** files never wait, though the browser sends the cookie with each. */
static int reads_store(const char *uri) {
    return is_ratings_route(uri) || !strncmp(uri, "/t/", 3) || !strcmp(uri, "/api/my-games") ||
           !strcmp(uri, "/api/me") || !strcmp(uri, "/api/tables");
}

/* What an answer read later holds: a copy of the JSON and its status. */
static void keep_json(deferred *d, const char *text, unsigned status) {
    free(d->json);
    d->json = text ? strdup(text) : NULL;
    d->status = d->json ? status : 500;
}

static void deferred_free(deferred *d) {
    free(d->json);
    free(d->table.record);
    free(d);
}

/* A profile's or the leaderboard's answer (JSON, or its error body). */
static char *ratings_answer(const char *uri, const char *game, int64_t viewer,
                            unsigned *status) {
    const char *code = "storage";
    char why[512] = "";
    *status = 500;
    char *text = uri[5] == 'p' ? ratings_player_json(uri + 13, viewer, status, &code, why,
                                                     sizeof why)
                               : ratings_leaderboard_json(game, status, &code, why, sizeof why);
    return *status == 200 ? text : protocol_http_error(code, "%s", why);
}

/* On a thread of the pool: nothing of the loop's. */
static int deferred_read(store *db, void *ctx, char *err, size_t errsize) {
    (void)db, (void)err, (void)errsize;
    deferred *d = ctx;
    d->found = d->token_len ? players_of_login(d->token, d->token_len, &d->who, d->hash) : 0;
    if (is_ratings_route(d->uri))
        d->json = ratings_answer(d->uri, d->has_game ? d->game : NULL,
                                 d->found == 1 ? d->who.id : 0, &d->status);
    return 0;
}

static void deferred_ready(deferred *d) {
    d->in_flight = 0;
    lws_set_timer_usecs(d->wsi, 1); /* routes_callback, LWS_CALLBACK_TIMER */
}

static void table_found(table *t, int elsewhere, void *ctx) {
    deferred *d = ctx;
    if (!d->wsi) {
        deferred_free(d);
        return;
    }
    char id[STORE_ID_LEN + 2];
    int record = table_address(d->uri, id);
    players_request_known(d->wsi, d->found, &d->who, d->hash, d->token_len > 0);
    d->table = answer_of_page(d->wsi, t, elsewhere, record);
    players_request_known(NULL, 0, NULL, NULL, 0);
    d->table_answered = 1;
    deferred_ready(d);
}

static void my_games_read(char *text, unsigned status, void *ctx) {
    deferred *d = ctx;
    if (!d->wsi) {
        free(text);
        deferred_free(d);
        return;
    }
    free(d->json);
    d->json = text;
    d->status = text ? status : 500;
    deferred_ready(d);
}

static void lobby_read(const char *list, const char *message, void *ctx) {
    deferred *d = ctx;
    (void)message;
    if (!d->wsi) {
        deferred_free(d);
        return;
    }
    keep_json(d, list, HTTP_STATUS_OK);
    deferred_ready(d);
}

static void deferred_read_done(void *ctx, int rc, const char *err) {
    deferred *d = ctx;
    if (rc == TABLE_UNANSWERED || !d->wsi) {
        deferred_free(d);
        return;
    }
    if (rc) fprintf(stderr, "tafel serve: %s: not read: %s\n", d->uri, err);
    char id[STORE_ID_LEN + 2];
    if (!strncmp(d->uri, "/t/", 3) && table_address(d->uri, id) >= 0) {
        tables_find_later(id, table_found, d); /* claimed and loaded on the pool */
        return;
    }
    if (!strcmp(d->uri, "/api/my-games")) {
        turns_my_games_later(d->found, &d->who, my_games_read, d);
        return;
    }
    if (!strcmp(d->uri, "/api/tables")) {
        lobby_later(lobby_read, d);
        return;
    }
    deferred_ready(d);
}

/* LWS_CALLBACK_HTTP: 1 when the answer is to come later (d taken), 0 when
** it is to be answered now. */
static int defer(struct lws *wsi, http_session *h, const char *uri) {
    if (!tables_later_waits()) return 0;
    /* the lobby's list at hand answers at once: a pipelined request
    ** behind a waiting answer closes its connection (above) */
    if (!reads_store(uri) || (!strcmp(uri, "/api/tables") && lobby_at_hand())) return 0;
    char token[PLAYERS_TOKEN_MAX + 1];
    size_t token_len = players_request_token(wsi, token, sizeof token);
    if (!token_len && (!strcmp(uri, "/api/me") || !strcmp(uri, "/api/my-games")))
        return 0; /* nobody's: answered without the store */
    deferred *d = calloc(1, sizeof *d);
    if (!d) return 0;
    d->wsi = wsi;
    d->in_flight = 1;
    snprintf(d->uri, sizeof d->uri, "%s", uri);
    memcpy(d->token, token, token_len + 1);
    d->token_len = token_len;
    d->has_game = lws_get_urlarg_by_name(wsi, "game=", d->game, sizeof d->game) != NULL;
    if (d->has_game) memmove(d->game, d->game + 5, strlen(d->game + 5) + 1);
    h->deferred = d;
    if (token_len || is_ratings_route(uri))
        tables_later(token_len ? token : uri, deferred_read, deferred_read_done, d);
    else
        deferred_read_done(d, 0, ""); /* no login to read: the rest only */
    return 1;
}

/* The same, answered at once (no threads: SQLite). */
static void lobby_read_now(const char *list, const char *message, void *ctx) {
    (void)message;
    keep_json(ctx, list, HTTP_STATUS_OK);
}

static void my_games_read_now(char *text, unsigned status, void *ctx) {
    deferred *d = ctx;
    d->json = text;
    d->status = status;
}

static int route(struct lws *wsi, http_session *h, const char *uri, deferred *d) {
    int rc;
    if (players_route_get(wsi, uri, &rc)) return rc;
    if (!strcmp(uri, "/api/games")) return send_json(wsi, HTTP_STATUS_OK, protocol_games());
    if (!strcmp(uri, "/api/tables") || !strcmp(uri, "/api/my-games")) {
        int lobby = !strcmp(uri, "/api/tables");
        deferred now = {0}; /* not deferred: read at once (SQLite) */
        if (!d) {
            d = &now;
            if (lobby) {
                lobby_later(lobby_read_now, d);
            } else {
                d->found = players_of_request(wsi, &d->who);
                turns_my_games_later(d->found, &d->who, my_games_read_now, d);
            }
        }
        char *text = d->json;
        d->json = NULL;
        if (!text) return send_json(wsi, 500, protocol_http_error("storage", "out of memory"));
        if (d->status == HTTP_STATUS_OK && lobby) return send_synced_json(wsi, h, text);
        return send_json(wsi, d->status, text);
    }
    if (!strcmp(uri, "/")) return send_file(wsi, "/index.html");
    if (!strcmp(uri, "/tafel.wasm")) return send_wasm(wsi);
    if (is_ratings_route(uri)) {
        char arg[80];
        player viewer;
        unsigned status;
        char *text = d ? d->json : NULL;
        if (d) d->json = NULL, status = d->status;
        else
            text = ratings_answer(uri, lws_get_urlarg_by_name(wsi, "game=", arg, sizeof arg),
                                  players_of_request(wsi, &viewer) == 1 ? viewer.id : 0,
                                  &status);
        if (status == 200) return send_synced_json(wsi, h, text);
        return send_json(wsi, status, text);
    }
    if (!strncmp(uri, "/p/", 3)) return send_file(wsi, "/index.html"); /* a profile: app.mjs */
    if (strncmp(uri, "/t/", 3)) return send_file(wsi, uri);
    char id[STORE_ID_LEN + 2];
    int record = table_address(uri, id);
    if (record < 0) return send_text(wsi, HTTP_STATUS_NOT_FOUND, "no such page");
    if (d && d->table_answered) return send_page_answer(wsi, h, &d->table);
    int elsewhere;
    table *t = tables_find_here(id, &elsewhere);
    page_answer a = answer_of_page(wsi, t, elsewhere, record);
    return send_page_answer(wsi, h, &a);
}

/* The timer: a deferred answer whose reads are done goes out. */
static int send_deferred(struct lws *wsi, http_session *h) {
    deferred *d = h->deferred;
    if (!d || d->in_flight) return 0;
    h->deferred = NULL;
    players_request_known(wsi, d->found, &d->who, d->hash, d->token_len > 0);
    int rc = route(wsi, h, d->uri, d);
    players_request_known(NULL, 0, NULL, NULL, 0);
    deferred_free(d);
    tables_sweep();
    return rc;
}

/* ---- checks ----------------------------------------------------------- */

/* Whether header h came more than once: lws 4.1 chains each repeat as a
** fragment that starts with a space (so never empty), and lws_hdr_copy
** joins them with commas, which would hide it.  (lws_hdr_copy_fragment
** into a small buffer would not do: it fails on a longer fragment.) */
static int given_twice(struct lws *wsi, enum lws_token_indexes h) {
    return lws_hdr_fragment_length(wsi, h, 1) > 0;
}

/* Why the request is refused (400), or NULL; post: a POST to an account
** route, which may have a body (routes_players.c checks its length). */
static const char *bad_request(struct lws *wsi, int post) {
    char v[32];
    if (lws_hdr_copy(wsi, v, sizeof v, WSI_TOKEN_HTTP) <= 0 ||
        (strcmp(v, "HTTP/1.1") && strcmp(v, "HTTP/1.0")))
        return "HTTP/1.0 and HTTP/1.1 only";
    int cl = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) > 0;
    if (cl && given_twice(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH)) return "Content-Length given twice";
    int te = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0;
    if (cl && te) return "Content-Length together with Transfer-Encoding";
    if (te) return "no request body here (Transfer-Encoding)";
    if (cl) {
        char *end;
        if (lws_hdr_copy(wsi, v, sizeof v, WSI_TOKEN_HTTP_CONTENT_LENGTH) <= 0) return "bad Content-Length";
        unsigned long long n = strtoull(v, &end, 10);
        if (end == v || *end || v[0] == '-' || v[0] == '+') return "bad Content-Length";
        if (n && !post) return "no request body here (GET and HEAD only)";
    }
    return NULL;
}

/* Whether name (a Host header's, without its port) is the server's own:
** an IP literal, localhost, the --bind address or a --host name.  A page
** of another name rebound to this server's address (DNS rebinding) sends
** its own name, and its requests are same-origin to the browser: the Host
** is what tells them apart. */
static int own_name(char *name) {
    size_t n = strlen(name);
    if (n && name[n - 1] == '.') name[--n] = 0; /* "localhost." is localhost */
    struct in_addr a4;
    struct in6_addr a6;
    if (inet_pton(AF_INET, name, &a4) == 1 || inet_pton(AF_INET6, name, &a6) == 1 ||
        !strcasecmp(name, "localhost") || !strcasecmp(name, http_options()->bind))
        return 1;
    for (int i = 0; i < http_options()->nhosts; i++)
        if (!strcasecmp(name, http_options()->hosts[i])) return 1;
    return 0;
}

/* Why the request's Host is refused (421), or NULL: one Host, naming the
** server (own_name), with or without a port.  No Host at all is a client
** that is no browser (HTTP/1.0), which no page can rebind. */
static const char *foreign_host(struct lws *wsi, char *why, size_t size) {
    char host[300], name[300];
    int n = lws_hdr_total_length(wsi, WSI_TOKEN_HOST);
    if (n <= 0) return NULL;
    if (given_twice(wsi, WSI_TOKEN_HOST)) return "Host given twice";
    if (n >= (int)sizeof host || lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) <= 0)
        return "Host too long";
    const char *port = NULL;
    if (host[0] == '[') { /* [v6]:port */
        char *close = strchr(host, ']');
        if (close) {
            snprintf(name, sizeof name, "%.*s", (int)(close - host - 1), host + 1);
            port = close[1] == ':' ? close + 2 : close[1] ? "-" : NULL;
        } else name[0] = 0;
    } else {
        char *colon = strchr(host, ':');
        snprintf(name, sizeof name, "%.*s", colon ? (int)(colon - host) : (int)strlen(host),
                 host);
        if (colon) port = colon + 1;
    }
    if (port && (!*port || strspn(port, "0123456789") != strlen(port))) name[0] = 0;
    if (name[0] && own_name(name)) return NULL;
    snprintf(why, size, "Host '%.80s' is not a name of this server (its address, localhost and "
                        "names given with --host NAME are)", host);
    return why;
}

/* Why a WebSocket upgrade's own headers are refused, or NULL; *status is
** 426 for a version other than 13, else 400.  libwebsockets 4.1 upgrades
** any Sec-WebSocket-Version (8, 0, none at all) and answers the first of
** two keys; what it takes as it is is checked here (RFC 6455 §4.1, §11.3):
** one key of 16 bytes in base64, one version, 13; one Origin, which
** routes_origin_allowed reads. */
static const char *bad_handshake(struct lws *wsi, unsigned *status) {
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char v[8], key[32];
    *status = HTTP_STATUS_BAD_REQUEST;
    if (given_twice(wsi, WSI_TOKEN_VERSION)) return "Sec-WebSocket-Version given twice";
    if (given_twice(wsi, WSI_TOKEN_KEY)) return "Sec-WebSocket-Key given twice";
    if (given_twice(wsi, WSI_TOKEN_ORIGIN)) return "Origin given twice";
    if (lws_hdr_total_length(wsi, WSI_TOKEN_VERSION) != 2 ||
        lws_hdr_copy(wsi, v, sizeof v, WSI_TOKEN_VERSION) != 2 || strcmp(v, "13")) {
        *status = HTTP_STATUS_UPGRADE_REQUIRED;
        return "Sec-WebSocket-Version must be 13 (RFC 6455)";
    }
    if (lws_hdr_total_length(wsi, WSI_TOKEN_KEY) != 24 ||
        lws_hdr_copy(wsi, key, sizeof key, WSI_TOKEN_KEY) != 24 || strspn(key, b64) != 22 ||
        strcmp(key + 22, "=="))
        return "Sec-WebSocket-Key must be 16 bytes in base64 (RFC 6455)";
    return NULL;
}

/* The table a WebSocket upgrade names with ?t=ID, so that a proxy can
** route a table's sockets to the node that owns it (docs/server.md,
** "Several nodes"): 1 with id, 0 when it names none (the lobby's socket),
** -1 with *why when t is no table id's form (16 lowercase hex digits) or
** comes twice.  Whether such a table exists is the protocol's business,
** not the upgrade's.  Other parameters are ignored.  lws has decoded each
** parameter (%xx, + as a space) and split them at & and ;: a fragment may
** hold any byte but NUL, so it is read by its length. */
int routes_upgrade_table(struct lws *wsi, char id[STORE_ID_LEN + 1], const char **why) {
    int total = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_URI_ARGS), found = 0;
    id[0] = 0;
    if (total <= 0) return 0;
    char *arg = malloc((size_t)total + 1); /* no parameter is longer than all of them */
    if (!arg) {
        *why = "out of memory reading the query";
        return -1;
    }
    for (int i = 0;; i++) {
        int n = lws_hdr_copy_fragment(wsi, arg, total + 1, WSI_TOKEN_HTTP_URI_ARGS, i);
        if (n < 0) break;
        if (arg[0] != 't' || (n > 1 && arg[1] != '=')) continue;
        if (found++) {
            *why = "t given twice (one table id: /ws?t=ID)";
            break;
        }
        if (n != 2 + STORE_ID_LEN || strspn(arg + 2, "0123456789abcdef") != STORE_ID_LEN) {
            *why = "t must be a table id, 16 lowercase hex digits (/ws?t=ID)";
            found = 2;
            break;
        }
        memcpy(id, arg + 2, STORE_ID_LEN + 1);
    }
    free(arg);
    if (found > 1) id[0] = 0;
    return found > 1 ? -1 : found;
}

/* Whether the request may open a WebSocket: its Origin (when it has one)
** is the server's own (Origin's host[:port] is the request's Host) or one
** of --allow-origin. */
int routes_origin_allowed(struct lws *wsi) {
    char origin[512], host[300];
    int n = lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN);
    if (n <= 0) return 1; /* not a browser: browsers always send Origin */
    if (n >= (int)sizeof origin || lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) <= 0)
        return 0;
    for (int i = 0; i < http_options()->norigins; i++)
        if (!strcmp(origin, http_options()->origins[i])) return 1;
    const char *rest = !strncmp(origin, "http://", 7)    ? origin + 7
                       : !strncmp(origin, "https://", 8) ? origin + 8
                                                         : NULL;
    if (!rest || lws_hdr_total_length(wsi, WSI_TOKEN_HOST) >= (int)sizeof host ||
        lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) <= 0)
        return 0;
    return !strcasecmp(rest, host);
}

int routes_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len) {
    switch (reason) {
    case LWS_CALLBACK_FILTER_HTTP_CONNECTION: {
        /* non-zero: lws closes the connection (after the answer) */
        /* POST: the account routes only (routes_players.c) */
        char post_uri[64];
        int post = lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0 &&
                   lws_hdr_copy(wsi, post_uri, sizeof post_uri, WSI_TOKEN_POST_URI) > 0 &&
                   players_route_is_post(post_uri);
        if (!lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) && !is_head(wsi) && !post) {
            send_text_close(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED,
                            "GET and HEAD only (POST to the account routes)");
            return 1;
        }
        const char *why = bad_request(wsi, post);
        if (why) {
            send_text_close(wsi, HTTP_STATUS_BAD_REQUEST, why);
            return 1;
        }
        char host_why[200];
        if ((why = foreign_host(wsi, host_why, sizeof host_why))) {
            send_text_close(wsi, HTTP_STATUS_MISDIRECTED, why);
            return 1;
        }
        return 0;
    }
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE: {
        const char *why = bad_request(wsi, 0);
        if (why) return refuse_upgrade(wsi, HTTP_STATUS_BAD_REQUEST, why, 1);
        unsigned status;
        if ((why = bad_handshake(wsi, &status))) return refuse_upgrade(wsi, status, why, 1);
        char host_why[200];
        if ((why = foreign_host(wsi, host_why, sizeof host_why)))
            return refuse_upgrade(wsi, HTTP_STATUS_MISDIRECTED, why, 1);
        if (!routes_origin_allowed(wsi))
            return refuse_upgrade(wsi, HTTP_STATUS_FORBIDDEN, "this origin may not open /ws", 0);
        char table_id[STORE_ID_LEN + 1];
        if (routes_upgrade_table(wsi, table_id, &why) < 0)
            return refuse_upgrade(wsi, HTTP_STATUS_BAD_REQUEST, why, 1);
        char addr[64];
        sockets_client_address(wsi, addr, sizeof addr);
        if (!sockets_address_allowed(addr))
            return refuse_upgrade(wsi, HTTP_STATUS_FORBIDDEN,
                                  "too many sockets open from this address", 0);
        return 0;
    }
    case LWS_CALLBACK_HTTP: {
        char uri[600];
        if (lws_partial_buffered(wsi))
            /* a pipelined request, and lws still holds part of the answer
            ** before: it parsed this one into the same header table, which
            ** the answer before completes; close once that is written */
            return -1;
        http_session *h = user;
        h->held = NULL;
        h->tx = NULL;
        h->deferred = NULL;
        if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_POST_URI) > 0)
            return players_post_begin(wsi, h, uri);
        if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) <= 0 &&
            lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_HEAD_URI) <= 0)
            return send_text(wsi, HTTP_STATUS_NOT_FOUND, "no such page");
        if (!lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) && defer(wsi, h, uri)) return 0;
        int rc = route(wsi, h, uri, NULL);
        tables_sweep(); /* a finished table loaded for its page or record */
        return rc;
    }
    case LWS_CALLBACK_HTTP_BODY:
        return user ? players_post_body(wsi, user, in, len) : -1;
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        return user ? players_post_complete(wsi, user) : -1;
    case LWS_CALLBACK_TIMER:
        if (user && ((http_session *)user)->tx) return players_post_timer(wsi, user);
        if (user && ((http_session *)user)->deferred) return send_deferred(wsi, user);
        return user ? send_held(wsi, user) : 0;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        players_hashes_done();
        break;
    case LWS_CALLBACK_HTTP_DROP_PROTOCOL: /* a pipelined request behind a waiting answer */
    case LWS_CALLBACK_CLOSED_HTTP: {
        http_session *h = user;
        int pending = h && players_post_drop(h);
        if (h && h->held) {
            free(h->held);
            h->held = NULL;
            pending = 1;
        }
        if (h && h->deferred) { /* its read's done frees it, or now */
            deferred *d = h->deferred;
            h->deferred = NULL;
            d->wsi = NULL;
            if (!d->in_flight) deferred_free(d);
            pending = 1;
        }
        if (pending && reason == LWS_CALLBACK_HTTP_DROP_PROTOCOL)
            lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
        break;
    }
    default:
        break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}
