/*
** sqlite_chat.c -- the chat's lines in the SQLite file (store.h, "chat").
**
** The `chat` table (sqlite_tables.c creates it): one row per line, keyed by
** (table id, n), n counting a table's lines from 1.  Each call is one
** statement in its own implicit transaction, prepared when called (a line
** is said far less often than a move is made), on the connection of the
** tables (store_sqlite).  A line's kind is not a column: it is read back
** from the speaker's row in `players`.
*/
#include "sqlite.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

/* "storage: <doing> at table <id>: <reason>" into err; -1 to return. */
static int chat_fail(char *err, size_t errsize, const char *doing, const char *table_id,
                     const char *reason) {
    char context[96];
    snprintf(context, sizeof context, "%s at table %.16s", doing, table_id ? table_id : "(null)");
    return store_sql_fail(err, errsize, context, reason);
}

int lite_chat_count(store *db, const char *table_id, int seat, int64_t *next_n, int64_t *said,
                     char *err, size_t errsize) {
    const char *doing = "counting the chat";
    sqlite3 *sql = store_sqlite(db);
    if (!sql) return chat_fail(err, errsize, doing, table_id, "no database");
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(sql, "SELECT coalesce(max(n), 0),"
                                     " coalesce(sum((seat >= 0) = (?2 >= 0)), 0)"
                                     " FROM chat WHERE table_id = ?1",
                                -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 2, seat);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *next_n = sqlite3_column_int64(st, 0) + 1;
        *said = sqlite3_column_int64(st, 1);
        rc = SQLITE_OK;
    }
    if (rc != SQLITE_OK) chat_fail(err, errsize, doing, table_id, sqlite3_errmsg(sql));
    sqlite3_finalize(st);
    return rc == SQLITE_OK ? 0 : -1;
}

int lite_chat_add(store *db, const char *table_id, const store_chat_line *line, char *err,
                   size_t errsize) {
    const char *doing = "storing a chat line";
    sqlite3 *sql = store_sqlite(db);
    if (!sql) return chat_fail(err, errsize, doing, table_id, "no database");
    if (!line || !line->name || !line->text)
        return chat_fail(err, errsize, doing, table_id, "no line, name or text given");
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(sql, "INSERT INTO chat (table_id, n, player, name, seat, at, text)"
                                     " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 2, line->n);
    if (rc == SQLITE_OK)
        rc = line->player ? sqlite3_bind_int64(st, 3, line->player) : sqlite3_bind_null(st, 3);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 4, line->name, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 5, line->seat);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 6, line->at);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 7, line->text, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
    if (rc != SQLITE_OK) chat_fail(err, errsize, doing, table_id, sqlite3_errmsg(sql));
    sqlite3_finalize(st);
    return rc == SQLITE_OK ? 0 : -1;
}

/* A text column's copy ("" for NULL); NULL when memory runs out. */
static char *column_copy(sqlite3_stmt *st, int column) {
    const unsigned char *text = sqlite3_column_text(st, column);
    size_t len = text ? (size_t)sqlite3_column_bytes(st, column) : 0;
    char *copy = malloc(len + 1);
    if (copy) {
        if (len) memcpy(copy, text, len);
        copy[len] = 0;
    }
    return copy;
}

/* The query gives the latest lines first: they are put in out from the
** end, then moved to its start, so that out is oldest first. */
int lite_chat_read(store *db, const char *table_id, int spectators_too, int cap,
                    store_chat_line *out, char *err, size_t errsize) {
    const char *doing = "reading the chat";
    sqlite3 *sql = store_sqlite(db);
    if (!sql) return chat_fail(err, errsize, doing, table_id, "no database");
    if (cap < 0 || (cap > 0 && !out))
        return chat_fail(err, errsize, doing, table_id, "no room for the lines");
    if (cap == 0) return 0;
    memset(out, 0, sizeof *out * (size_t)cap);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(sql, "SELECT c.n, c.name, p.kind, c.seat, c.at, c.text FROM chat c"
                                     " LEFT JOIN players p ON p.id = c.player"
                                     " WHERE c.table_id = ?1 AND (?2 OR c.seat >= 0)"
                                     " ORDER BY c.n DESC LIMIT ?3", -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 2, spectators_too ? 1 : 0);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 3, cap);
    int n = 0;
    const char *reason = NULL;
    while (rc == SQLITE_OK && n < cap && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        store_chat_line *l = &out[cap - 1 - n];
        l->n = sqlite3_column_int64(st, 0);
        const unsigned char *kind = sqlite3_column_text(st, 2);
        snprintf(l->kind, sizeof l->kind, "%s", kind ? (const char *)kind : "");
        l->seat = sqlite3_column_int(st, 3);
        l->at = sqlite3_column_int64(st, 4);
        l->name = column_copy(st, 1);
        l->text = column_copy(st, 5);
        n++;
        if (!l->name || !l->text) reason = "out of memory";
    }
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
        reason = sqlite3_errmsg(sql);
    if (reason) {
        chat_fail(err, errsize, doing, table_id, reason);
        store_chat_lines_free(out + cap - n, n);
        n = -1;
    } else if (n < cap) {
        memmove(out, out + cap - n, sizeof *out * (size_t)n);
        memset(out + n, 0, sizeof *out * (size_t)(cap - n));
    }
    sqlite3_finalize(st);
    return n;
}
