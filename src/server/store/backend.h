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

typedef enum store_backend { STORE_SQLITE, STORE_POSTGRES } store_backend;

struct store {
    store_backend backend;
    /* SQLite (sqlite_tables.c) */
    struct sqlite3 *db;
    struct sqlite3_stmt **stmt; /* its statements, prepared once at open */
    int syncer;                 /* --durable: syncer.c syncs the log of this connection */
    /* PostgreSQL (pg_tables.c) */
    struct pg_conn *pg;
};

#endif
