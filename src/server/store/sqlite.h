/*
** sqlite.h -- inside the store only: the SQLite connection its files share.
**
** store.h is the store's interface and names no SQLite type, so that a
** PostgreSQL store can stand beside it (pg.h; store.c chooses).  The
** store's files on SQLite (sqlite_tables.c opens the connection;
** sqlite_players.c, sqlite_chat.c and sqlite_ratings.c run their own
** statements on it, rows_*.c theirs through sqlite.c's store_rows) reach
** it here.  Nothing outside src/server/store/
** includes this header.
*/
#ifndef TF_SERVER_STORE_SQLITE_H
#define TF_SERVER_STORE_SQLITE_H

#include "backend.h"

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
/* store_query on SQLite (backend.h): the statement prepared, stepped row by row. */
int lite_rows_vopen(store *db, store_rows *rows, const char *context, char *err,
                    size_t errsize, const char *sql, const char *types, va_list ap);
/* A text column into out ("" for NULL), cut to size. */
void store_sql_text(sqlite3_stmt *st, int col, char *out, size_t size);
/* ROLLBACK while a transaction is open (SQLite rolls back by itself after
** some failures). */
void store_sql_rollback(sqlite3 *db);

/* The store's calls on SQLite (store.c dispatches to them): each is its
** store_ namesake of store.h, same signature, same contract. */

/* sqlite_tables.c */
int lite_open(const char *path, int durable, store **out, char *err, size_t errsize);
void lite_close(store *db);
int lite_open_existing(const char *path, store **out, char *err, size_t errsize);
int lite_held_elsewhere(store *db);
int lite_create(store *db, const store_table *t, char *err, size_t errsize);
int lite_append(store *db, const char *id, int from, int n, const char *const *texts,
                const int *seats, int64_t seq, int over, const store_clocks *clocks, char *err,
                size_t errsize);
int lite_truncate(store *db, const char *id, int keep, int64_t seq, char *err, size_t errsize);
int lite_set_seat(store *db, const char *id, int seat, const store_seat *s, int64_t seq,
                  int over, char *err, size_t errsize);
int lite_end(store *db, const char *id, int64_t seq, const char *reason, char *err,
             size_t errsize);
int lite_delete(store *db, const char *id, char *err, size_t errsize);
int lite_find_change(store *db, const char *id, int64_t seq, int seat, const char *text,
                     char *err, size_t errsize);
int lite_load(store *db, const char *id, store_table *out, char *err, size_t errsize);
int lite_list(store *db, int unfinished, char (*ids)[STORE_ID_LEN + 1], int cap, char *err,
              size_t errsize);
int lite_list_lobby(store *db, int finished, int cap, store_table *out, char *err,
                    size_t errsize);
int lite_set_rematch(store *db, const char *id, const char *next, char *err, size_t errsize);
int lite_set_clocks(store *db, const char *id, int nseats, const int64_t *ms,
                    int64_t turn_since, char *err, size_t errsize);
int lite_time_out(store *db, const char *id, int seat, int64_t seq, char *err, size_t errsize);
int lite_player_seats(store *db, int64_t player, int cap, store_player_seat *out, char *err,
                      size_t errsize);

/* sqlite_players.c */
extern const rows_players_sql lite_players_sql; /* what rows_players.c reads */
int lite_player_add(store *db, const char *name, const char *key, const char *kind,
                    const char *password, int64_t now, int64_t *id, char *err, size_t errsize);
int lite_guest_make_account(store *db, int64_t guest_id, const char *name, const char *key,
                            const char *password, int64_t now, char *err, size_t errsize);
int lite_guest_rename(store *db, int64_t id, const char *name, const char *key, char *err,
                      size_t errsize);
int lite_player_set_password(store *db, int64_t id, const char *password, int end_logins,
                             char *err, size_t errsize);
int lite_player_set_disabled(store *db, int64_t id, int disabled, char *err, size_t errsize);
int lite_guests_delete(store *db, int64_t before, int max, char *err, size_t errsize);
int lite_login_add(store *db, const uint8_t hash[STORE_HASH_LEN], int64_t player, int64_t now,
                   char *err, size_t errsize);
int lite_login_used(store *db, const uint8_t hash[STORE_HASH_LEN], int64_t player, int64_t now,
                    char *err, size_t errsize);
int lite_login_delete(store *db, const uint8_t hash[STORE_HASH_LEN], char *err, size_t errsize);
int lite_logins_delete(store *db, int64_t player, const uint8_t *keep, char *err,
                       size_t errsize);
int lite_logins_expire(store *db, int64_t before, char *err, size_t errsize);
int lite_logins_read(store *db, store_login_state *logins, int n, char *err, size_t errsize);
int lite_attempt_give(store *db, const char *kind, const char *key, double cap,
                      int64_t window_ms, int64_t now, int all, char *err, size_t errsize);
int lite_attempt_note(store *db, const char *kind, const char *key, int64_t now, int64_t until,
                      char *err, size_t errsize);
int lite_attempts_expire(store *db, int64_t now, char *err, size_t errsize);

/* sqlite_chat.c */
extern const rows_chat_sql lite_chat_sql; /* what rows_chat.c reads */
int lite_chat_add(store *db, const char *table_id, const store_chat_line *line, char *err,
                  size_t errsize);

/* sqlite_ratings.c */
extern const rows_ratings_sql lite_ratings_sql; /* what rows_ratings.c reads */
int lite_results_record(store *db, const char *table_id, const char *game, int n,
                        store_result *results, store_rate_fn rate, void *arg, char *err,
                        size_t errsize);
int lite_results_void(store *db, int64_t player, const char *game, store_rerate_fn rerate,
                      void *arg, store_voided_table **tables, char *err, size_t errsize);

#endif
