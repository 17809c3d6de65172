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
** database only when something it shows changed.
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

/* Lists up to cap stored tables into list; how many.  A failed read is
** logged and lists none: the lobby is a convenience, the tables go on. */
static int add_tables(cJSON *list, int finished, int cap) {
    if (cap <= 0) return 0;
    store_table *rows = malloc(sizeof *rows * (size_t)cap);
    char err[512];
    int n = rows ? tables_list_stored(finished, cap, rows, err, sizeof err) : -1;
    if (n < 0) fprintf(stderr, "tafel serve: lobby: %s\n", rows ? err : "out of memory");
    for (int i = 0; i < n; i++) {
        cJSON_AddItemToArray(list, table_json(&rows[i]));
        store_table_free(&rows[i]);
    }
    free(rows);
    return n < 0 ? 0 : n;
}

static char *build_tables_json(void) {
    cJSON *list = cJSON_CreateArray();
    int playing = add_tables(list, 0, SERVER_LOBBY_MAX);
    int room = SERVER_LOBBY_MAX - playing;
    int ended = add_tables(list, 1, room > LOBBY_FINISHED_MIN ? room : LOBBY_FINISHED_MIN);
    /* the finished tables' places come from the oldest playing ones */
    int excess = playing + ended - SERVER_LOBBY_MAX;
    for (int k = 0; k < excess; k++) cJSON_DeleteItemFromArray(list, playing - excess);
    char *text = list ? cJSON_PrintUnformatted(list) : NULL;
    cJSON_Delete(list);
    return text;
}

/* The cache: the list and the lobby message around it, for a generation
** of this node's tables and of the others' (lobby_stale). */
static char *cached_list, *cached_message;
static uint64_t cached_generation, elsewhere, cached_elsewhere;

void lobby_stale(void) { elsewhere++; }

static int refresh(void) {
    uint64_t now = tables_generation();
    if (cached_list && cached_generation == now && cached_elsewhere == elsewhere) return 0;
    char *list = build_tables_json();
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
    cached_generation = now;
    cached_elsewhere = elsewhere;
    return 0;
}

char *lobby_tables_json(void) {
    if (refresh()) return NULL;
    size_t n = strlen(cached_list) + 1;
    char *copy = malloc(n);
    if (copy) memcpy(copy, cached_list, n);
    return copy;
}

const char *lobby_message(void) { return refresh() ? NULL : cached_message; }
