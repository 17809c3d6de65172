/*
** sqlite_owner.c -- several nodes on a SQLite file: there is one (store.h,
** "several nodes").  A SQLite file has one writing process, so a node is
** always alive, its claims always succeed at epoch 1 and nothing about
** nodes is stored or fenced; a claim only reads the table's seq.
*/
#include "backend.h"
#include "owner.h"
#include "sqlite.h"

#include <stdio.h>

void lite_database_name(store *db, char *out, size_t size) {
    const char *file = db && db->db ? sqlite3_db_filename(db->db, "main") : NULL;
    snprintf(out, size, "sqlite\x1f%s", file ? file : "");
}

int lite_claim(store *db, const char *id, store_claim_answer *out, char *err, size_t errsize) {
    char context[64];
    store_context(context, sizeof context, "claiming", id);
    sqlite3_stmt *st = store_sql_prepare(store_sqlite(db), "SELECT seq FROM tables WHERE id = ?1",
                                         "t", id);
    if (!st) return store_sql_fail(err, errsize, context, sqlite3_errmsg(store_sqlite(db)));
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) out->seq = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc == SQLITE_DONE) return store_fail(err, errsize, context, "no such table");
    if (rc != SQLITE_ROW)
        return store_sql_fail(err, errsize, context, sqlite3_errmsg(store_sqlite(db)));
    out->epoch = 1;
    if (owner_hold(db->owner, id, 1))
        return store_fail(err, errsize, context, "out of memory (the table is claimed)");
    return 1;
}
