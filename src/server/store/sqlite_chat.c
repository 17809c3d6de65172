/*
** sqlite_chat.c -- the chat's lines in the SQLite file (store.h, "chat").
**
** The `chat` table (sqlite_tables.c creates it): one row per line, keyed by
** (table id, n), n counting a table's lines from 1.  Each call is one
** statement in its own implicit transaction, prepared when called (a line
** is said far less often than a move is made), on the connection of the
** tables (store_sqlite).  A line's kind is not a column: it is read back
** from the speaker's row in `players`.  What the lines read are made of
** is rows_chat.c's (lite_chat_sql here).
*/
#include "sqlite.h"

#include <stdio.h>

#include <sqlite3.h>

/* What rows_chat.c reads, in SQLite's words. */
const rows_chat_sql lite_chat_sql = {
    .count = "SELECT coalesce(max(n), 0), coalesce(sum((seat >= 0) = (?2 >= 0)), 0)"
             " FROM chat WHERE table_id = ?1",
    .read = "SELECT c.n, c.name, p.kind, c.seat, c.at, c.text FROM chat c"
            " LEFT JOIN players p ON p.id = c.player"
            " WHERE c.table_id = ?1 AND (?2 OR c.seat >= 0) ORDER BY c.n DESC LIMIT ?3",
};

/* "storage: <doing> at table <id>: <reason>" into err; -1 to return. */
static int chat_fail(char *err, size_t errsize, const char *doing, const char *table_id,
                     const char *reason) {
    char context[96];
    snprintf(context, sizeof context, "%s at table %.16s", doing, table_id ? table_id : "(null)");
    return store_sql_fail(err, errsize, context, reason);
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

