/*
** chat.c -- the chat at a table: checked, stored (store_sqlite: the
** `chat` table, on the loop, each line its own statement), and told.
**
** A line is 1..CHAT_TEXT_MAX bytes of UTF-8 after trimming spaces at both
** ends, one line (no control character at all: no newline, no tab), plain
** text (the page shows it with textContent: markup stays text).  Who says
** it: the socket's player (an account or a guest), or, for a socket
** without a login that sits at a seat (an API client), nobody by name: the
** line carries its seat and the page names the seat by its colour.  A
** spectator without a login may not speak.  Each person (a player, on all
** their sockets; a socket without a login alone) may say CHAT_BURST lines
** in CHAT_BURST_MS (besides the messages' own rate), and a table keeps at
** most CHAT_TABLE_MAX lines of its players and as many of its spectators,
** counted apart: spectators cannot fill the players' chat.
**
** The persons' rates live in a fixed array (open addressing, as the quota
** of new tables in tables.c): a slot whose latest line is older than
** CHAT_BURST_MS is as good as free.  When every slot near a player's is
** held, that player's socket keeps its own rate, as before.
*/
#include "chat.h"

#include "players.h"
#include "tables.h"

#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE_SLOTS 1024
#define RATE_PROBES 16

typedef struct chat_rate {
    int64_t player;
    int64_t at[CHAT_BURST]; /* when the latest lines were said (unix ms), a ring */
    int i;                  /* the ring's oldest */
} chat_rate;

static chat_rate rates[RATE_SLOTS];

/* The ring that s's lines count in: its player's, else its own. */
static chat_rate *rate_of(session *s, int64_t now, chat_rate *own) {
    if (s->who.id) {
        size_t home = (size_t)((uint64_t)s->who.id * 0x9E3779B97F4A7C15u >> 32) % RATE_SLOTS;
        chat_rate *free_slot = NULL;
        for (int k = 0; k < RATE_PROBES; k++) {
            chat_rate *r = &rates[(home + (size_t)k) % RATE_SLOTS];
            if (r->player == s->who.id) return r;
            int newest = (r->i + CHAT_BURST - 1) % CHAT_BURST;
            if (!free_slot && (!r->player || now - r->at[newest] >= CHAT_BURST_MS)) free_slot = r;
        }
        if (free_slot) {
            memset(free_slot, 0, sizeof *free_slot);
            free_slot->player = s->who.id;
            return free_slot;
        }
    }
    memcpy(own->at, s->chat_at, sizeof own->at);
    own->i = s->chat_i;
    return own;
}

static const char *kind_text(player_kind k) {
    return k == PLAYER_ACCOUNT ? "account" : k == PLAYER_GUEST ? "guest" : NULL;
}

static cJSON *line_json(int64_t n, const char *name, const char *kind, int seat, int64_t at,
                        const char *text) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "n", (double)n);
    cJSON_AddStringToObject(o, "name", name);
    if (kind) cJSON_AddStringToObject(o, "player", kind);
    else cJSON_AddNullToObject(o, "player");
    cJSON_AddItemToObject(o, "seat", seat >= 0 ? cJSON_CreateNumber(seat) : cJSON_CreateNull());
    cJSON_AddNumberToObject(o, "at", (double)at);
    cJSON_AddStringToObject(o, "text", text);
    return o;
}

static char *message_of(cJSON *lines) {
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddStringToObject(msg, "type", "chat");
    cJSON_AddItemToObject(msg, "lines", lines);
    char *text = cJSON_PrintUnformatted(msg);
    cJSON_Delete(msg);
    return text;
}

void chat_say(session *s, const char *text) {
    table *t = s->table;
    if (!t) {
        protocol_send_error(s, "not_seated", "chat: join a table first");
        return;
    }
    if (s->seat < 0 && !s->who.id) {
        protocol_send_error(s, "no_identity", "chat: a spectator needs a name to speak (log in "
                                              "or play as a guest)");
        return;
    }
    size_t len = strlen(text);
    while (len && (*text == ' ')) text++, len--;
    while (len && text[len - 1] == ' ') len--;
    if (len < 1 || len > CHAT_TEXT_MAX) {
        protocol_send_error(s, "bad_chat", "a chat line has 1 to %d bytes (spaces at its ends "
                                           "trimmed), not %zu", CHAT_TEXT_MAX, len);
        return;
    }
    if (!players_plain_text(text, len)) {
        protocol_send_error(s, "bad_chat", "a chat line is one line of text (UTF-8) without "
                                           "control characters");
        return;
    }
    int64_t now = clocks_now_ms();
    chat_rate own, *rate = rate_of(s, now, &own);
    if (rate->at[rate->i] && now - rate->at[rate->i] < CHAT_BURST_MS) {
        protocol_send_error(s, "chat_too_fast", "at most %d chat lines in %d seconds: wait a "
                                                "moment", CHAT_BURST, CHAT_BURST_MS / 1000);
        return;
    }
    sqlite3 *db = store_sqlite(tables_store());
    sqlite3_stmt *st = NULL;
    int64_t n = 0, said = 0; /* the table's lines of the speaker's side: players or spectators */
    if (db && sqlite3_prepare_v2(db, "SELECT coalesce(max(n), 0),"
                                     " coalesce(sum((seat >= 0) = (?2 >= 0)), 0)"
                                     " FROM chat WHERE table_id = ?1",
                                 -1, &st, NULL) == SQLITE_OK &&
        sqlite3_bind_text(st, 1, t->id, -1, SQLITE_STATIC) == SQLITE_OK &&
        sqlite3_bind_int(st, 2, s->seat) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        n = sqlite3_column_int64(st, 0) + 1;
        said = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    if (!n) {
        protocol_send_error(s, "storage", "the chat could not be read: %s",
                            db ? sqlite3_errmsg(db) : "no database");
        return;
    }
    if (said >= CHAT_TABLE_MAX) {
        protocol_send_error(s, "chat_full", "this table's chat has %d lines of its %s, their most",
                            CHAT_TABLE_MAX, s->seat >= 0 ? "players" : "spectators");
        return;
    }
    const char *name = s->who.id ? s->who.name : "";
    int rc = sqlite3_prepare_v2(db, "INSERT INTO chat (table_id, n, player, name, seat, at, text)"
                                    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 1, t->id, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 2, n);
    if (rc == SQLITE_OK)
        rc = s->who.id ? sqlite3_bind_int64(st, 3, s->who.id) : sqlite3_bind_null(st, 3);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 4, name, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 5, s->seat);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 6, now);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 7, text, (int)len, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
    if (rc != SQLITE_OK) {
        protocol_send_error(s, "storage", "the line was not stored: %s", sqlite3_errmsg(db));
        sqlite3_finalize(st);
        return;
    }
    sqlite3_finalize(st);
    rate->at[rate->i] = now;
    rate->i = (rate->i + 1) % CHAT_BURST;
    if (rate == &own) {
        memcpy(s->chat_at, own.at, sizeof s->chat_at);
        s->chat_i = own.i;
    }

    char *copy = malloc(len + 1);
    if (!copy) return;
    memcpy(copy, text, len);
    copy[len] = 0;
    cJSON *lines = cJSON_CreateArray();
    cJSON_AddItemToArray(lines, line_json(n, name, kind_text(s->who.kind), s->seat, now, copy));
    free(copy);
    char *out = message_of(lines);
    if (!out) return;
    size_t outlen = strlen(out);
    int spectators_only = s->seat < 0;
    for (int i = 0; i < t->nsockets; i++)
        if (!spectators_only || t->sockets[i]->seat < 0) session_send(t->sockets[i], out, outlen);
    free(out);
}

void chat_joined(session *s) {
    table *t = s->table;
    sqlite3 *db = store_sqlite(tables_store());
    sqlite3_stmt *st = NULL;
    if (!t || !db ||
        sqlite3_prepare_v2(db, "SELECT c.n, c.name, p.kind, c.seat, c.at, c.text FROM chat c"
                               " LEFT JOIN players p ON p.id = c.player"
                               " WHERE c.table_id = ?1 AND (?2 OR c.seat >= 0)"
                               " ORDER BY c.n DESC LIMIT ?3", -1, &st, NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        return;
    }
    cJSON *lines = cJSON_CreateArray();
    int rc = sqlite3_bind_text(st, 1, t->id, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 2, s->seat < 0);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 3, CHAT_HISTORY);
    while (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        const char *kind = (const char *)sqlite3_column_text(st, 2);
        if (kind && strcmp(kind, "account") && strcmp(kind, "guest")) kind = NULL;
        cJSON *o = line_json(sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1),
                             kind, sqlite3_column_int(st, 3), sqlite3_column_int64(st, 4),
                             (const char *)sqlite3_column_text(st, 5));
        cJSON_InsertItemInArray(lines, 0, o); /* oldest first */
    }
    sqlite3_finalize(st);
    if (!cJSON_GetArraySize(lines)) { /* nothing to read: no message (clients that never
                                       ** chat see no new message at all) */
        cJSON_Delete(lines);
        return;
    }
    char *out = message_of(lines);
    if (out) session_send(s, out, strlen(out));
    free(out);
}
