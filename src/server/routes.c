/*
** routes.c -- the HTTP side of tafel serve: the page's files and the
** routes /t/<id> (the page), /t/<id>/record, /api/games and /api/tables.
*/
#include "http.h"
#include "tables.h"

#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- HTTP routes ------------------------------------------------------ */



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
    h->commit = 0;
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
    if (h->commit > syncer_synced()) { /* --durable: not before the sync; look again soon */
        lws_set_timer_usecs(wsi, 2000);
        return 0;
    }
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
        if (!list || respond(wsi, h, HTTP_STATUS_OK, "application/json", list)) return -1;
        h->commit = syncer_committed(); /* tables, as the sockets are told of them */
        return 0;
    }
    char id[STORE_ID_LEN + 2], rest[16];
    int n = sscanf(uri, "/t/%17[0-9a-f]%15s", id, rest);
    if (n < 1 || strlen(id) != STORE_ID_LEN || (n == 2 && strcmp(rest, "/record")))
        return respond_text(wsi, h, HTTP_STATUS_NOT_FOUND, "no such page");
    table *t = tables_find(id);
    if (!t) return respond_text(wsi, h, HTTP_STATUS_NOT_FOUND, "no such table");
    if (n == 1) { /* the page; it reads the table and token from the address */
        char path[1024];
        snprintf(path, sizeof path, "%s/index.html", server_opt->web_dir);
        int rc = lws_serve_http_file(wsi, path, "text/html", NULL, 0);
        return rc < 0 || (rc > 0 && lws_http_transaction_completed(wsi)) ? -1 : 0;
    }
    if (!t->over)
        return respond_text(wsi, h, HTTP_STATUS_FORBIDDEN,
                            "the game is not over: its record holds every hidden card");
    char *json = record_json(t);
    if (!json || respond(wsi, h, HTTP_STATUS_OK, "application/json", json)) return -1;
    h->commit = syncer_committed(); /* the last move, as the sockets are told of it */
    return 0;
}

int routes_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user,
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
    case LWS_CALLBACK_TIMER: /* write_body waits for a sync */
        lws_callback_on_writable(wsi);
        break;
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

