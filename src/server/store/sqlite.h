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

/* The connection of db: on the loop only, never inside another's change. */
sqlite3 *store_sqlite(store *db);

#endif
