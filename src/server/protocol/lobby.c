/*
** lobby.c -- the tables a page lists to join, watch or replay (the `lobby`
** message and GET /api/tables, docs/protocol.md).
**
** The list is read from the database, not from the tables in memory: a
** finished table is freed from memory once its last socket leaves
** (tables_sweep) and is not rebuilt after a restart, yet it stays listed,
** for its replay.  The playing tables come first, newest first; then the
** finished ones, the latest to end first, which keep at least
** LOBBY_FINISHED_MIN of the SERVER_LOBBY_MAX places when there are that many
** (a server full of abandoned tables still shows its recent games).  Each
** table says when it last changed (`updated`), so a page can mark one that
** nobody has moved at for days.  Whether a seat is taken is the one live
** fact: read from the table in memory, where a socket sits at it.
**
** The list is built once per change (tables_generation, or a change another
** node made: lobby_stale): a page that asks again and again reads the
** database only when something it shows changed.  After another node's
** change the list is read again by a job (tables_later), one at a time.
*/
#include "protocol.h"
#include "tables.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOBBY_FINISHED_MIN 25

static cJSON *seats_json(const store_table *st, const table *live) {
    cJSON *seats = cJSON_CreateArray();
    for (int i = 0; i < st->nseats; i++) {
        table_seat seat;
        if (live && i < live->players) seat = live->seats[i];
        else table_seat_from_store(&seat, &st->seats[i]);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "kind", table_seat_kind(&seat));
        if (seat.bot) cJSON_AddStringToObject(o, "bot", seat.spec);
        if (seat.forfeit[0]) cJSON_AddStringToObject(o, "forfeit", seat.forfeit);
        protocol_seat_player(o, &seat);
        cJSON_AddBoolToObject(o, "taken", seat.connected > 0);
        cJSON_AddNumberToObject(o, "sockets", seat.connected);
        cJSON_AddItemToArray(seats, o);
    }
    return seats;
}

/* One listed table.  A table in memory is what clients were told; the
** stored one matches it, as every change is committed before it is applied. */
static cJSON *table_json(const store_table *st) {
    const table *live = tables_loaded(st->id);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "table", st->id);
    cJSON_AddStringToObject(o, "game", st->game);
    cJSON_AddStringToObject(o, "status", st->over ? "over" : "playing");
    if (st->end_reason[0]) cJSON_AddStringToObject(o, "reason", st->end_reason);
    cJSON_AddNumberToObject(o, "seq", (double)st->seq);
    cJSON_AddNumberToObject(o, "created", (double)st->created);
    cJSON_AddNumberToObject(o, "updated", (double)st->updated);
    cJSON_AddItemToObject(o, "seats", seats_json(st, live));
    return o;
}

/* What the lobby lists, as read from the store: the playing tables, then
** the finished ones (a failed read leaves its part empty, its error kept:
** the lobby is a convenience, the tables go on). */
typedef struct lobby_rows {
    store_table *rows[2];
    int n[2];
    char err[2][512];
} lobby_rows;

/* Reads the rows (on any thread: the store given is the caller's). */
static int rows_read(store *db, void *ctx, char *err, size_t errsize) {
    lobby_rows *r = ctx;
    (void)err, (void)errsize;
    for (int finished = 0; finished < 2; finished++) {
        int room = SERVER_LOBBY_MAX - (r->n[0] > 0 ? r->n[0] : 0);
        int cap = !finished ? SERVER_LOBBY_MAX : room > LOBBY_FINISHED_MIN ? room
                                                                            : LOBBY_FINISHED_MIN;
        r->rows[finished] = malloc(sizeof *r->rows[finished] * (size_t)cap);
        r->n[finished] = r->rows[finished]
                             ? store_list_lobby(db, finished, cap, r->rows[finished],
                                                r->err[finished], sizeof r->err[finished])
                             : -1;
        if (!r->rows[finished])
            snprintf(r->err[finished], sizeof r->err[finished], "out of memory");
        if (r->n[finished] < 0) r->n[finished] = -1;
    }
    return 0;
}

/* Frees the rows; the JSON of their list (built: NULL, only freed). */
static char *rows_json(lobby_rows *r, int build) {
    cJSON *list = build ? cJSON_CreateArray() : NULL;
    int listed[2] = {0, 0};
    for (int part = 0; part < 2; part++) {
        if (r->n[part] < 0 && build) fprintf(stderr, "tafel serve: lobby: %s\n", r->err[part]);
        for (int i = 0; i < r->n[part]; i++) {
            if (list) cJSON_AddItemToArray(list, table_json(&r->rows[part][i]));
            store_table_free(&r->rows[part][i]);
        }
        listed[part] = r->n[part] < 0 ? 0 : r->n[part];
        free(r->rows[part]);
    }
    /* the finished tables' places come from the oldest playing ones */
    int excess = listed[0] + listed[1] - SERVER_LOBBY_MAX;
    for (int k = 0; list && k < excess; k++) cJSON_DeleteItemFromArray(list, listed[0] - excess);
    char *text = list ? cJSON_PrintUnformatted(list) : NULL;
    cJSON_Delete(list);
    return text;
}

/* The cache: the list and the lobby message around it, for a generation
** of this node's tables and of the others' (lobby_stale). */
static char *cached_list, *cached_message;
static uint64_t cached_generation, elsewhere, cached_elsewhere;
static int rereading; /* a job reads the list again (another node changed it) */

void lobby_stale(void) { elsewhere++; }

/* The cache holds list (taken), as of those generations: 0, or -1 out of
** memory (the cache as it was). */
static int keep(char *list, uint64_t generation, uint64_t others) {
    char *message = list ? malloc(strlen(list) + 32) : NULL;
    if (!message) {
        free(list);
        return -1;
    }
    sprintf(message, "{\"type\":\"lobby\",\"tables\":%s}", list);
    free(cached_list);
    free(cached_message);
    cached_list = list;
    cached_message = message;
    cached_generation = generation;
    cached_elsewhere = others;
    return 0;
}

/* Who waits for the list: answered once it holds every change of this
** node's tables made before they asked (generation). */
typedef struct lobby_waiter {
    uint64_t generation;
    void (*done)(const char *list, const char *message, void *ctx);
    void *ctx;
    struct lobby_waiter *next;
} lobby_waiter;
static lobby_waiter *waiting;

/* A re-read off the loop: its rows, and the generations it was asked at. */
typedef struct reread {
    lobby_rows rows;
    uint64_t generation, elsewhere;
} reread;

static void reread_start(void);

/* The waiters the cache answers now are told (list NULL: the server
** stops, or the list could not be kept). */
static void answer_waiting(int stopping) {
    lobby_waiter **link = &waiting;
    while (*link) {
        lobby_waiter *w = *link;
        if (!stopping && w->generation > cached_generation) {
            link = &w->next;
            continue;
        }
        *link = w->next;
        w->done(stopping ? NULL : cached_list, stopping ? NULL : cached_message, w->ctx);
        free(w);
    }
}

static void reread_done(void *ctx, int rc, const char *err) {
    reread *r = ctx;
    (void)err;
    rereading = 0;
    int stopping = rc == TABLE_UNANSWERED;
    char *list = rows_json(&r->rows, !stopping);
    if (!stopping) keep(list, r->generation, r->elsewhere);
    else free(list);
    answer_waiting(stopping);
    /* a change made or heard while it read: one more */
    if (!stopping && (waiting || r->elsewhere != elsewhere)) reread_start();
    free(r);
}

static void reread_start(void) {
    reread *r = calloc(1, sizeof *r);
    if (!r) { /* the next request tries again */
        answer_waiting(1);
        return;
    }
    r->generation = tables_generation();
    r->elsewhere = elsewhere;
    rereading = 1;
    tables_later("lobby", rows_read, reread_done, r);
}

/* Reads the list on the loop when it is out of date (SQLite, where that
** takes microseconds). */
static int refresh(void) {
    uint64_t now = tables_generation();
    if (cached_list && cached_generation == now && cached_elsewhere == elsewhere) return 0;
    lobby_rows rows = {0};
    rows_read(tables_store(), &rows, NULL, 0);
    return keep(rows_json(&rows, 1), now, elsewhere);
}

int lobby_at_hand(void) {
    return !tables_later_waits() || (cached_list && cached_generation == tables_generation());
}

void lobby_later(void (*done)(const char *list, const char *message, void *ctx), void *ctx) {
    if (!tables_later_waits()) {
        int failed = refresh();
        done(failed ? NULL : cached_list, failed ? NULL : cached_message, ctx);
        return;
    }
    uint64_t now = tables_generation();
    if (cached_list && cached_generation == now) {
        /* only another node's change since (or none): the list it has, a
        ** moment old, as another node's changes always reach it a moment
        ** late; read again meanwhile */
        if (cached_elsewhere != elsewhere && !rereading) reread_start();
        done(cached_list, cached_message, ctx);
        return;
    }
    lobby_waiter *w = malloc(sizeof *w);
    if (!w) {
        done(NULL, NULL, ctx);
        return;
    }
    *w = (lobby_waiter){.generation = now, .done = done, .ctx = ctx, .next = waiting};
    waiting = w;
    if (!rereading) reread_start();
}
