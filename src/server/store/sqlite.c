/*
** sqlite.c -- what the store's files on SQLite share: errors, statements
** bound by a format, text columns, rollback (sqlite.h).
*/
#include "sqlite.h"

#include <stdint.h>
#include <stdio.h>

int store_sql_fail(char *err, size_t errsize, const char *context, const char *reason) {
    if (err && errsize > 0) snprintf(err, errsize, "storage: %s: %s", context, reason);
    return -1;
}

sqlite3_stmt *store_sql_vprepare(sqlite3 *db, const char *sql, const char *types, va_list ap) {
    sqlite3_stmt *st = NULL;
    if (!db || sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        return NULL;
    }
    int rc = SQLITE_OK;
    for (int i = 0; types[i] && rc == SQLITE_OK; i++) {
        switch (types[i]) {
        case 'i': rc = sqlite3_bind_int64(st, i + 1, va_arg(ap, int64_t)); break;
        case 'd': rc = sqlite3_bind_double(st, i + 1, va_arg(ap, double)); break;
        case 't': {
            const char *text = va_arg(ap, const char *);
            rc = text ? sqlite3_bind_text(st, i + 1, text, -1, SQLITE_TRANSIENT)
                      : sqlite3_bind_null(st, i + 1);
            break;
        }
        case 'h':
            rc = sqlite3_bind_blob(st, i + 1, va_arg(ap, const void *), STORE_HASH_LEN,
                                   SQLITE_TRANSIENT);
            break;
        default: rc = sqlite3_bind_null(st, i + 1); break;
        }
    }
    if (rc != SQLITE_OK) {
        sqlite3_finalize(st);
        return NULL;
    }
    return st;
}

sqlite3_stmt *store_sql_prepare(sqlite3 *db, const char *sql, const char *types, ...) {
    va_list ap;
    va_start(ap, types);
    sqlite3_stmt *st = store_sql_vprepare(db, sql, types, ap);
    va_end(ap);
    return st;
}

void store_sql_text(sqlite3_stmt *st, int col, char *out, size_t size) {
    const unsigned char *text = sqlite3_column_text(st, col);
    snprintf(out, size, "%s", text ? (const char *)text : "");
}

void store_sql_rollback(sqlite3 *db) {
    if (db && !sqlite3_get_autocommit(db)) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
}

/* ---- an answer's rows (backend.h, store_rows) ------------------------ */

static int lite_rows_next(store_rows *rows, char *err, size_t errsize) {
    int rc = sqlite3_step(rows->answer);
    if (rc == SQLITE_ROW) return 1;
    if (rc == SQLITE_DONE) return 0;
    return store_sql_fail(err, errsize, rows->context, sqlite3_errmsg(rows->db));
}

static int lite_rows_null(const store_rows *rows, int col) {
    return sqlite3_column_type(rows->answer, col) == SQLITE_NULL;
}

static int64_t lite_rows_int(const store_rows *rows, int col) {
    return sqlite3_column_int64(rows->answer, col);
}

static double lite_rows_double(const store_rows *rows, int col) {
    return sqlite3_column_double(rows->answer, col);
}

static const char *lite_rows_text(const store_rows *rows, int col) {
    return (const char *)sqlite3_column_text(rows->answer, col);
}

static void lite_rows_close(store_rows *rows) { sqlite3_finalize(rows->answer); }

static const store_rows_methods lite_rows_methods = {
    lite_rows_next, lite_rows_null, lite_rows_int, lite_rows_double, lite_rows_text,
    lite_rows_close,
};

int lite_rows_vopen(store *db, store_rows *rows, const char *context, char *err,
                    size_t errsize, const char *sql, const char *types, va_list ap) {
    sqlite3 *conn = store_sqlite(db);
    if (!conn) return store_sql_fail(err, errsize, context, "no database");
    sqlite3_stmt *st = store_sql_vprepare(conn, sql, types, ap);
    if (!st) return store_sql_fail(err, errsize, context, sqlite3_errmsg(conn));
    *rows = (store_rows){.methods = &lite_rows_methods, .context = context, .answer = st,
                         .db = conn};
    return 0;
}
