/*
** backend.h -- inside the store only: what a store handle is, for both
** backends (store.c chooses one at open and dispatches every call to it).
**
** One handle is one connection: SQLite's (sqlite_tables.c opens it, with its
** cached statements) or PostgreSQL's (pg_tables.c).  A handle keeps all its
** state here and nothing lives in globals, so that several handles (a pool
** of connections, each used by one thread at a time) can run side by side.
** Only the backend that opened a handle reads its fields.
*/
#ifndef TF_SERVER_STORE_BACKEND_H
#define TF_SERVER_STORE_BACKEND_H

#include "store.h"

struct sqlite3;
struct sqlite3_stmt;
struct pg_conn; /* libpq's PGconn */
struct store_owner; /* owner.h */

typedef enum store_backend { STORE_SQLITE, STORE_POSTGRES } store_backend;

struct store {
    store_backend backend;
    struct store_owner *owner; /* the node it acts for and its epochs (owner.c), NULL none */
    /* SQLite (sqlite_tables.c) */
    struct sqlite3 *db;
    struct sqlite3_stmt **stmt; /* its statements, prepared once at open */
    int syncer;                 /* --durable: syncer.c syncs the log of this connection */
    /* PostgreSQL (pg.c, pg_tables.c) */
    struct pg_conn *pg;
    int pg_tx;          /* a transaction is open (store_pg_begin): never reconnect in one */
    int pg_again;       /* the next statement may be sent twice (pg_owner.c's claims and
                        ** leases: one more claim or renewal changes nothing) */
    int pg_serving;     /* a server's handle: holds the serving lock (pg_held_elsewhere) */
    int pg_durable;     /* --durable: synchronous_commit never off in its sessions */
    char pg_state[6];   /* the SQLSTATE of the latest failure, "" none */
    int pg_in_doubt;    /* the latest COMMIT lost its connection before its answer */
    char pg_name[64];   /* application_name set after each connect (store_set_name), "" */
};

/* ---- checks.c: what both backends check and how they fail ---- */

/* Writes "storage: <context>: <reason>" to err; returns -1 for the caller
** to return.  snprintf keeps err NUL-terminated and within errsize. */
int store_fail(char *err, size_t errsize, const char *context, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The context of a message about one table: "<doing> table <id>", the id
** cut to 24 printable characters (a caller's id can be anything). */
void store_context(char *out, size_t size, const char *doing, const char *id);
/* 1 when id is exactly STORE_ID_LEN hex digits. */
int store_id_ok(const char *id);
/* A spec must fit store_seat.spec with its NUL, so that load gives back
** exactly what was stored. */
int store_spec_ok(const char *spec);
/* The checks every call on a table starts with (a store, a valid id); 0 or -1. */
int store_check_call(store *s, const char *id, const char *context, char *err,
                     size_t errsize);
/* store_create's input (store.h); 0 or -1. */
int store_check_new_table(store *s, const store_table *t, const char *context, char *err,
                          size_t errsize);
/* store_append's input, before the transaction; 0 or -1. */
int store_check_append(int from, int n, const char *const *texts, const int *seats,
                       const char *context, char *err, size_t errsize);
/* store_append's input against the table as stored (nseats seats,
** nactions actions), inside the transaction; 0 or -1. */
int store_check_append_fits(int from, int n, const int *seats, const store_clocks *clocks,
                            int nseats, int nactions, const char *context, char *err,
                            size_t errsize);

/* ---- rows.c: an answer read a row at a time, whichever backend ran it ---- */

/* What a profile, a leaderboard, a player's row or a chat line is made of
** is the same on both backends; only the SQL and the reading of a column
** differ.  So the assembly is written once (rows_ratings.c, rows_players.c,
** rows_chat.c) over this reader, and each backend gives its SQL texts and
** one implementation of the reader: pg.c over a PGresult, sqlite.c over a
** statement it steps.  A column read of a NULL gives 0 or "". */
typedef struct store_rows store_rows;
typedef struct store_rows_methods {
    int (*next)(store_rows *rows, char *err, size_t errsize); /* 1 a row, 0 no more, -1 */
    int (*null)(const store_rows *rows, int col);
    int64_t (*int64)(const store_rows *rows, int col); /* a PostgreSQL boolean: 0 or 1 */
    double (*real)(const store_rows *rows, int col);
    const char *(*text)(const store_rows *rows, int col); /* NULL for NULL; till next */
    void (*close)(store_rows *rows);
} store_rows_methods;

struct store_rows {
    const store_rows_methods *methods;
    const char *context; /* what err names when a row cannot be read */
    void *answer;        /* the backend's: a PGresult or a sqlite3_stmt */
    struct sqlite3 *db;  /* SQLite: the connection, for its reason */
    int row, nrows;      /* PostgreSQL: the current row, how many there are */
};

/* Runs sql with its parameters bound by types (one letter each, as
** pg.h's store_pg_exec and sqlite.h's store_sql_prepare take them) on
** db's backend: rows, holding the answer, to read with store_rows_next and
** free with store_rows_close (or to hand to store_rows_first or _all); NULL
** with err when it failed. */
store_rows *store_query(store *db, store_rows *rows, const char *context, char *err,
                        size_t errsize, const char *sql, const char *types, ...);
int store_rows_next(store_rows *rows, char *err, size_t errsize); /* 1, 0 past the last, -1 */
void store_rows_close(store_rows *rows);
int store_col_null(const store_rows *rows, int col);
int64_t store_col_int(const store_rows *rows, int col);
double store_col_double(const store_rows *rows, int col);
const char *store_col_value(const store_rows *rows, int col); /* NULL for NULL; till next */
void store_col_text(const store_rows *rows, int col, char *out, size_t size); /* cut to size */
char *store_col_copy(const store_rows *rows, int col); /* malloc'd, "" for NULL; NULL no memory */
/* The first row read into item by row(), rows closed (NULL: the query
** failed, err written): 1, 0 no row, -1 with err. */
int store_rows_first(store_rows *rows, void (*row)(const store_rows *, void *), void *item,
                     char *err, size_t errsize);
/* Every row into the array *items of size-byte elements, each zeroed, then
** filled by row(); rows closed (NULL: the query failed, err written).  How
** many, or -1 with err (*items NULL). */
int store_rows_all(store_rows *rows, void **items, size_t size,
                   void (*row)(const store_rows *, void *), char *err, size_t errsize);

/* ---- rows_ratings.c: ratings, the leaderboard, profiles, results voided ---- */

/* The SQL each backend runs for them, with the columns named here. */
typedef struct rows_ratings_sql {
    const char *rating;      /* $1 player, $2 game: rating, rd, volatility */
    const char *leaderboard; /* $1 game, $2 cap: name, kind, rating, rd, games */
    const char *since;       /* $1 player: created */
    const char *games;       /* $1 player: game, played, won, lost */
    const char *ratings;     /* $1 player: game, rating, rd, games */
    const char *history;     /* $1 player, $2 game, $3 cap: at, rating, rd, table id,
                             ** newest first */
    const char *results;     /* $1 player, $2 cap, $3 viewer: store_profile_result's 13 columns */
    const char *opponents;   /* $1 table, $2 seat: name, kind, place */
    const char *rerate_players; /* $1 game: player, name, rating */
    const char *rerate_results; /* $1 game: seat, table id, player, place */
    const char *voided;         /* $1 game or NULL, $2 player: table id, game, at */
} rows_ratings_sql;

/* store_rating_read, with the context err names. */
int rows_rating_read(store *db, const rows_ratings_sql *sql, int64_t player, const char *game,
                     store_rating *out, const char *context, char *err, size_t errsize);
int rows_leaderboard_read(store *db, const rows_ratings_sql *sql, const char *game, int cap,
                          store_standing **out, char *err, size_t errsize);
int rows_profile_read(store *db, const rows_ratings_sql *sql, int64_t player, int64_t viewer,
                      int history_cap, int results_cap, store_profile *out, char *err,
                      size_t errsize);
/* The tables whose results voiding would void, oldest first: how many, or -1. */
int rows_voided_read(store *db, const rows_ratings_sql *sql, int64_t player, const char *game,
                     store_voided_table **tables, char *err, size_t errsize);
/* Rates game again inside the caller's transaction: its players and rated
** results read whole, rerate run on them, write stores what it reckoned. */
int rows_rerate_game(store *db, const rows_ratings_sql *sql, const char *game,
                     store_rerate_fn rerate, void *arg,
                     int (*write)(store *, const store_rerate_game *, char *, size_t),
                     char *err, size_t errsize);

/* ---- rows_players.c: players, accounts, logins and attempts as read ---- */

typedef struct rows_players_sql {
    const char *by_key;  /* $1 name key: id, kind, name, disabled */
    const char *get;     /* $1 id: the same */
    const char *account; /* $1 name key: the same, then password */
    const char *login;   /* $1 token hash: the same, then used */
    const char *list;    /* the same, then created, seen, games */
    /* $1 kind, $2 key, $3 cap, $4 window (ms), $5 now, cap and window reals: */
    const char *attempt_take;  /* a token taken where there is one: the tokens left */
    const char *attempt_level; /* the bucket's tokens (no row: full) */
    const char *attempt_noted; /* $1 kind, $2 key, $3 now: a row while a success is noted */
} rows_players_sql;

int rows_player_by_key(store *db, const rows_players_sql *sql, const char *key,
                       store_player *out, char *err, size_t errsize);
int rows_player_get(store *db, const rows_players_sql *sql, int64_t id, store_player *out,
                    char *err, size_t errsize);
int rows_account_by_key(store *db, const rows_players_sql *sql, const char *key,
                        store_player *out, char *password, size_t password_size, char *err,
                        size_t errsize);
int rows_login_find(store *db, const rows_players_sql *sql, const uint8_t hash[STORE_HASH_LEN],
                    store_player *out, int64_t *used, char *err, size_t errsize);
int rows_players_list(store *db, const rows_players_sql *sql, store_player_row **out,
                      char *err, size_t errsize);
int rows_attempt_take(store *db, const rows_players_sql *sql, const char *kind, const char *key,
                      double cap, int64_t window_ms, int64_t now, int take, double *tokens,
                      char *err, size_t errsize);
int rows_attempt_noted(store *db, const rows_players_sql *sql, const char *kind, const char *key,
                       int64_t now, char *err, size_t errsize);

/* ---- rows_chat.c: the chat as read ---- */

typedef struct rows_chat_sql {
    const char *count; /* $1 table, $2 seat: the highest n (0 none), lines said by its side */
    const char *read;  /* $1 table, $2 spectators too, $3 cap: n, name, kind, seat, at,
                       ** text; latest first */
} rows_chat_sql;

int rows_chat_count(store *db, const rows_chat_sql *sql, const char *table_id, int seat,
                    int64_t *next_n, int64_t *said, char *err, size_t errsize);
int rows_chat_read(store *db, const rows_chat_sql *sql, const char *table_id,
                   int spectators_too, int cap, store_chat_line *out, char *err,
                   size_t errsize);

#endif
