/*
** ownership.h -- the tables layer's own: which tables this node plays when
** several nodes share a PostgreSQL database (ownership.c; store.h,
** "several nodes"; docs/server.md, "Who owns a table").
**
** Only a server started with --node on PostgreSQL acts for a node; for
** every other one (SQLite, or no --node) ownership_acting is 0, a claim
** always succeeds and the rest does nothing.
*/
#ifndef TF_SERVER_OWNERSHIP_H
#define TF_SERVER_OWNERSHIP_H

#include "tables.h"

/* After the store is open, before the pool starts: the loop's connection
** acts for node and renews its lease once (the pool's connections then act
** for it too, and the first claims find it alive).  node NULL or not on
** PostgreSQL: nothing.  0, or -1 with err. */
int ownership_start(store *db, const char *db_path, const char *node, int lease_seconds,
                    const tables_events *told, char *err, size_t errsize);
/* The server stops, after the last commits: the lease ends now, so the
** other nodes take this node's tables at their next sweep, not a lease
** later. */
void ownership_stop(void);
int ownership_acting(void);
/* The node's name (NULL when it acts for none). */
const char *ownership_node(void);

/* Claims id for this node before it is loaded (a blocking call: at start,
** and for a /t/ID page of a table not in memory).  1 claimed (or not
** acting), with its home into home; 0 a live other node owns it (and, for a
** client, is asked for it); -1 not (logged). */
int ownership_claim(const char *id, int for_client, char *home, size_t homesize);
/* t has come to this node now (made, claimed, handed over): its home, and
** the time a request to hand it on again is refused until. */
void ownership_arrived(table *t, const char *home);

/* Once a second (tables_tick): the lease renewed, the tables of nodes
** whose lease ran out claimed, and, once, a while after the start, the
** other nodes asked for this node's tables (told.home). */
void ownership_tick(void);

/* ---- tables.c's, for ownership.c -------------------------------------- */

/* A table from its stored form (NULL, why in msg, when it does not replay). */
table *tables_build(const store_table *st, char *msg, size_t size);
/* Listed and in the map; it counts against --max-tables once listed. */
void tables_add(table *t);
/* Its bots, the opening deal: what it waits for, asked again. */
void tables_advance(table *t);
/* Dropped as moved: its sockets told (4000), its bots and clocks off, freed. */
void tables_drop_moved(table *t);
/* The tables in memory, newest first (t->next). */
table *tables_first(void);

#endif
