/*
** pg_chat.c -- the chat's lines in PostgreSQL (store.h, "chat"): the
** PostgreSQL twin of sqlite_chat.c, the same calls with the same answers.
**
** The `chat` table (pg_tables.c creates it): one row per line, keyed by
** (table id, n), n counting a table's lines from 1.  Each call is one
** statement in its own implicit transaction on the store's connection
** (store_pg_exec), so a number taken already -- two sockets of one table
** saying a line at once -- is refused by the key, as on SQLite.  A line's
** kind is not a column: it is read back from the speaker's row in
** `players`.  Owns no state.
*/
#include "backend.h"
#include "owner.h"
#include "pg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "<doing> at table <id>": the context store_pg_exec names in err. */
static void chat_context(char *out, size_t size, const char *doing, const char *table_id) {
    snprintf(out, size, "%s at table %.16s", doing, table_id ? table_id : "(null)");
}

/* "storage: <doing> at table <id>: <reason>" into err; -1 to return. */
static int chat_fail(char *err, size_t errsize, const char *doing, const char *table_id,
                     const char *reason) {
    char context[96];
    chat_context(context, sizeof context, doing, table_id);
    if (err && errsize > 0) snprintf(err, errsize, "storage: %s: %s", context, reason);
    return -1;
}

int pg_chat_count(store *db, const char *table_id, int seat, int64_t *next_n, int64_t *said,
                  char *err, size_t errsize) {
    char context[96];
    chat_context(context, sizeof context, "counting the chat", table_id);
    PGresult *r = store_pg_exec(db, err, errsize, context,
                                "SELECT coalesce(max(n), 0),"
                                " count(*) FILTER (WHERE (seat >= 0) = ($2 >= 0))"
                                " FROM chat WHERE table_id = $1",
                                "ti", table_id, (int64_t)seat);
    if (!r) return -1;
    *next_n = store_pg_int(r, 0, 0) + 1;
    *said = store_pg_int(r, 0, 1);
    PQclear(r);
    return 0;
}

int pg_chat_add(store *db, const char *table_id, const store_chat_line *line, char *err,
                size_t errsize) {
    const char *doing = "storing a chat line";
    if (!line || !line->name || !line->text)
        return chat_fail(err, errsize, doing, table_id, "no line, name or text given");
    char context[96];
    chat_context(context, sizeof context, doing, table_id);
    /* a node's handle: the line and its table's fence in one transaction */
    int fenced = db && db->owner ? store_pg_begin(db, err, errsize) : 0;
    if (!fenced && db && db->owner) fenced = pg_fence_lock(db, table_id, 1, context, err, errsize);
    PGresult *r = fenced ? NULL
                         : store_pg_exec(db, err, errsize, context,
                                         "INSERT INTO chat (table_id, n, player, name, seat, at,"
                                         " text) VALUES ($1, $2, nullif($3, 0), $4, $5, $6, $7)",
                                         "tiitiit", table_id, line->n, line->player, line->name,
                                         (int64_t)line->seat, line->at, line->text);
    PQclear(r);
    if (!db || !db->owner) return r ? 0 : -1;
    if (!r) {
        store_pg_rollback(db);
        return fenced == STORE_MOVED ? STORE_MOVED : -1;
    }
    return store_pg_commit(db, err, errsize);
}

/* A text column's copy ("" for NULL); NULL when memory runs out. */
static char *column_copy(const PGresult *r, int row, int col) {
    const char *text = PQgetisnull(r, row, col) ? "" : PQgetvalue(r, row, col);
    size_t len = strlen(text);
    char *copy = malloc(len + 1);
    if (copy) memcpy(copy, text, len + 1);
    return copy;
}

/* The query gives the latest lines first: they are put in out from the
** end of the n found, so that out is oldest first. */
int pg_chat_read(store *db, const char *table_id, int spectators_too, int cap,
                 store_chat_line *out, char *err, size_t errsize) {
    const char *doing = "reading the chat";
    if (cap < 0 || (cap > 0 && !out))
        return chat_fail(err, errsize, doing, table_id, "no room for the lines");
    if (cap == 0) return 0;
    memset(out, 0, sizeof *out * (size_t)cap);
    char context[96];
    chat_context(context, sizeof context, doing, table_id);
    PGresult *r = store_pg_exec(db, err, errsize, context,
                                "SELECT c.n, c.name, p.kind, c.seat, c.at, c.text FROM chat c"
                                " LEFT JOIN players p ON p.id = c.player"
                                " WHERE c.table_id = $1 AND ($2 <> 0 OR c.seat >= 0)"
                                " ORDER BY c.n DESC LIMIT $3",
                                "tii", table_id, (int64_t)(spectators_too ? 1 : 0),
                                (int64_t)cap);
    if (!r) return -1;
    int n = PQntuples(r);
    if (n > cap) n = cap;
    int ok = 1;
    for (int i = 0; i < n; i++) {
        store_chat_line *l = &out[n - 1 - i];
        l->n = store_pg_int(r, i, 0);
        store_pg_text(r, i, 2, l->kind, sizeof l->kind);
        l->seat = (int)store_pg_int(r, i, 3);
        l->at = store_pg_int(r, i, 4);
        l->name = column_copy(r, i, 1);
        l->text = column_copy(r, i, 5);
        if (!l->name || !l->text) ok = 0;
    }
    PQclear(r);
    if (!ok) {
        store_chat_lines_free(out, n);
        return chat_fail(err, errsize, doing, table_id, "out of memory");
    }
    return n;
}
