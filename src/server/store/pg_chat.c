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
** `players`.  What the lines read are made of is rows_chat.c's (pg_chat_sql
** here).  Owns no state.
*/
#include "backend.h"
#include "owner.h"
#include "pg.h"

#include <stdio.h>

/* What rows_chat.c reads, in PostgreSQL's words. */
const rows_chat_sql pg_chat_sql = {
    .count = "SELECT coalesce(max(n), 0), count(*) FILTER (WHERE (seat >= 0) = ($2 >= 0))"
             " FROM chat WHERE table_id = $1",
    .read = "SELECT c.n, c.name, p.kind, c.seat, c.at, c.text FROM chat c"
            " LEFT JOIN players p ON p.id = c.player"
            " WHERE c.table_id = $1 AND ($2 <> 0 OR c.seat >= 0) ORDER BY c.n DESC LIMIT $3",
};

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

