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

#endif
