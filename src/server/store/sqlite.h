/*
** sqlite.h -- inside the store only: the SQLite connection its files share.
**
** store.h is the store's interface and names no SQLite type, so that a
** PostgreSQL store can stand behind it (issue 36).  The store's files on
** SQLite (store_tables.c opens the connection; store_players.c,
** store_chat.c and store_ratings.c run their own statements on it) reach
** it here.  Nothing outside src/server/store/ includes this header.
*/
#ifndef TF_SERVER_STORE_SQLITE_H
#define TF_SERVER_STORE_SQLITE_H

#include "store.h"

#include <sqlite3.h>
#include <stdarg.h>
#include <stddef.h>

/* The connection of db: on the loop only, never inside another's change. */
sqlite3 *store_sqlite(store *db);

/* What the store's files on SQLite share (sqlite.c). */

/* Writes "storage: <context>: <reason>" to err; returns -1. */
int store_sql_fail(char *err, size_t errsize, const char *context, const char *reason);
/* sql prepared, its parameters bound by types, one letter each: 'i' an
** int64_t, 'd' a double, 't' text (NULL binds NULL), 'h' a token hash
** (STORE_HASH_LEN bytes), 'n' NULL (no argument).  NULL when that failed
** (the reason stays in sqlite3_errmsg). */
sqlite3_stmt *store_sql_prepare(sqlite3 *db, const char *sql, const char *types, ...);
sqlite3_stmt *store_sql_vprepare(sqlite3 *db, const char *sql, const char *types, va_list ap);
/* A text column into out ("" for NULL), cut to size. */
void store_sql_text(sqlite3_stmt *st, int col, char *out, size_t size);
/* ROLLBACK while a transaction is open (SQLite rolls back by itself after
** some failures). */
void store_sql_rollback(sqlite3 *db);

#endif
