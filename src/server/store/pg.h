/*
** pg.h -- inside the store only: the store on PostgreSQL (issue 36).
**
** pg_tables.c opens the connection (store_open with a "postgresql://" or
** "postgres://" URI) and keeps the schema; pg_players.c, pg_chat.c and
** pg_ratings.c run their statements on it through the helpers below
** (pg.c); the reads rows_*.c assemble read it through pg.c's store_rows.
** A handle is one connection and holds all its state, so a pool can open
** several and use each from one thread at a time.  Nothing
** outside src/server/store/ includes this header.
**
** Every pg_X below is store.h's store_X, same signature, same contract
** (store.c dispatches to it).  The answers' free functions
** (store_table_free, store_player_rows_free, store_chat_lines_free,
** store_profile_free) have no pg_ version: they free plain memory, the
** same for both backends (store.c).
*/
#ifndef TF_SERVER_STORE_PG_H
#define TF_SERVER_STORE_PG_H

#include "backend.h"

#include <libpq-fe.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

PGconn *store_pg(store *db);  /* the connection of a PostgreSQL store */
/* Runs sql with $1, $2, ... bound by types, one letter each as sqlite.h's store_sql_prepare:
** 'i' int64_t, 'd' double, 't' const char * (NULL binds NULL), 'h' const uint8_t * of
** STORE_HASH_LEN bytes (bytea), 'n' NULL (no argument).  The result (COMMAND_OK or
** TUPLES_OK; PQclear it), or NULL with err = "storage: <context>: <PostgreSQL's reason>". */
PGresult *store_pg_exec(store *db, char *err, size_t errsize, const char *context,
                        const char *sql, const char *types, ...);
PGresult *store_pg_vexec(store *db, char *err, size_t errsize, const char *context,
                         const char *sql, const char *types, va_list ap);
/* store_query on PostgreSQL (backend.h): the answer of store_pg_vexec, read row by row. */
int pg_rows_vopen(store *db, store_rows *rows, const char *context, char *err, size_t errsize,
                  const char *sql, const char *types, va_list ap);
int store_pg_begin(store *db, char *err, size_t errsize);   /* 0 or -1 */
int store_pg_commit(store *db, char *err, size_t errsize);  /* 0 or -1 */
void store_pg_rollback(store *db);                          /* when a transaction is open */
int64_t store_pg_int(const PGresult *r, int row, int col);  /* NULL: 0 */
double store_pg_double(const PGresult *r, int row, int col);
void store_pg_text(const PGresult *r, int row, int col, char *out, size_t size); /* NULL: "" */
int store_pg_hash(const PGresult *r, int row, int col, uint8_t out[STORE_HASH_LEN]); /* 0/-1 */

/* More that the store's files on PostgreSQL share (pg.c). */

/* The SQLSTATE of the latest failed store_pg_exec on db ("23505": a unique
** key taken), "" when it did not fail in PostgreSQL. */
const char *store_pg_sqlstate(store *db);
/* 'h' given NULL binds NULL too (no token). */
/* A read-only transaction on one snapshot (REPEATABLE READ): 0 or -1;
** ended by store_pg_commit or store_pg_rollback. */
int store_pg_begin_read(store *db, char *err, size_t errsize);
/* Runs sql, several statements without parameters (the schema): 0 or -1. */
int store_pg_script(store *db, char *err, size_t errsize, const char *context,
                    const char *sql);
/* A new handle on the database of the libpq URI, named app (unless the URI
** names itself) for pg_stat_activity; serving: a server's handle, which
** holds the serving lock while it lives; durable: commits wait for their
** flush even where the database turned synchronous_commit off.  0, or -1
** with err (naming PostgreSQL and its reason: refused, no such database). */
int store_pg_connect(const char *uri, const char *app, int serving, int durable, store **out,
                     char *err, size_t errsize);
void store_pg_close(store *db); /* NULL is fine */
/* store_in_doubt and store_set_name on PostgreSQL (store.h). */
int store_pg_in_doubt(store *db);
int store_pg_set_name(store *db, const char *name, char *err, size_t errsize);
/* uri as it may be shown (a log, an error): its password replaced by ***. */
void store_pg_shown(const char *uri, char *out, size_t size);

/* The advisory locks of the store, in the two-key form (pg_locks shows
** them as classid, objid, objsubid 2): the key is "tafl" in ASCII.
** SERVING: shared, held by every server's session (pg_held_elsewhere);
** SCHEMA: taken for the transaction that creates or upgrades the schema,
** so that two servers starting at once do it once. */
#define STORE_PG_LOCK_KEY "1952540268"
#define STORE_PG_LOCK_SERVING "1"
#define STORE_PG_LOCK_SCHEMA "2"

/* pg_tables.c */
int pg_open(const char *path, int durable, store **out, char *err, size_t errsize);
void pg_close(store *db);
int pg_open_existing(const char *path, store **out, char *err, size_t errsize);
int pg_held_elsewhere(store *db);
int pg_create(store *db, const store_table *t, char *err, size_t errsize);
int pg_append(store *db, const char *id, int from, int n, const char *const *texts,
              const int *seats, int64_t seq, int over, const store_clocks *clocks, char *err,
              size_t errsize);
int pg_truncate(store *db, const char *id, int keep, int64_t seq, char *err, size_t errsize);
int pg_set_seat(store *db, const char *id, int seat, const store_seat *s, int64_t seq, int over,
                char *err, size_t errsize);
int pg_end(store *db, const char *id, int64_t seq, const char *reason, char *err,
           size_t errsize);
int pg_delete(store *db, const char *id, char *err, size_t errsize);
int pg_find_change(store *db, const char *id, int64_t seq, int seat, const char *text,
                   char *err, size_t errsize);
int pg_load(store *db, const char *id, store_table *out, char *err, size_t errsize);
int pg_list(store *db, int unfinished, char (*ids)[STORE_ID_LEN + 1], int cap, char *err,
            size_t errsize);
int pg_list_lobby(store *db, int finished, int cap, store_table *out, char *err,
                  size_t errsize);
int pg_set_rematch(store *db, const char *id, const char *next, char *err, size_t errsize);
int pg_set_clocks(store *db, const char *id, int nseats, const int64_t *ms, int64_t turn_since,
                  char *err, size_t errsize);
int pg_time_out(store *db, const char *id, int seat, int64_t seq, char *err, size_t errsize);
int pg_player_seats(store *db, int64_t player, int cap, store_player_seat *out, char *err,
                    size_t errsize);

/* pg_players.c */
extern const rows_players_sql pg_players_sql; /* what rows_players.c reads */
int pg_player_add(store *db, const char *name, const char *key, const char *kind,
                  const char *password, int64_t now, int64_t *id, char *err, size_t errsize);
int pg_guest_make_account(store *db, int64_t guest_id, const char *name, const char *key,
                          const char *password, int64_t now, char *err, size_t errsize);
int pg_guest_rename(store *db, int64_t id, const char *name, const char *key, char *err,
                    size_t errsize);
int pg_player_set_password(store *db, int64_t id, const char *password, int end_logins,
                           char *err, size_t errsize);
int pg_player_set_disabled(store *db, int64_t id, int disabled, char *err, size_t errsize);
int pg_guests_delete(store *db, int64_t before, int max, char *err, size_t errsize);
int pg_login_add(store *db, const uint8_t hash[STORE_HASH_LEN], int64_t player, int64_t now,
                 char *err, size_t errsize);
int pg_login_used(store *db, const uint8_t hash[STORE_HASH_LEN], int64_t player, int64_t now,
                  char *err, size_t errsize);
int pg_login_delete(store *db, const uint8_t hash[STORE_HASH_LEN], char *err, size_t errsize);
int pg_logins_delete(store *db, int64_t player, const uint8_t *keep, char *err, size_t errsize);
int pg_logins_expire(store *db, int64_t before, char *err, size_t errsize);
int pg_logins_read(store *db, store_login_state *logins, int n, char *err, size_t errsize);
int pg_attempt_give(store *db, const char *kind, const char *key, double cap,
                    int64_t window_ms, int64_t now, int all, char *err, size_t errsize);
int pg_attempt_note(store *db, const char *kind, const char *key, int64_t now, int64_t until,
                    char *err, size_t errsize);
int pg_attempts_expire(store *db, int64_t now, char *err, size_t errsize);

/* pg_chat.c */
extern const rows_chat_sql pg_chat_sql; /* what rows_chat.c reads */
int pg_chat_add(store *db, const char *table_id, const store_chat_line *line, char *err,
                size_t errsize);

/* pg_ratings.c */
extern const rows_ratings_sql pg_ratings_sql; /* what rows_ratings.c reads */
int pg_results_record(store *db, const char *table_id, const char *game, int n,
                      store_result *results, store_rate_fn rate, void *arg, char *err,
                      size_t errsize);
int pg_results_void(store *db, int64_t player, const char *game, store_rerate_fn rerate,
                    void *arg, store_voided_table **tables, char *err, size_t errsize);

#endif
