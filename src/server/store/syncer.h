/*
** syncer.h -- the store's --durable thread (syncer.c), as the layers above
** see it: the counters that hold a reply until its commit is on the disk,
** and the wake-up it calls (a callback given at start-up: the store
** includes no header of a layer above it).
*/
#ifndef TF_SERVER_SYNCER_H
#define TF_SERVER_SYNCER_H

#include <stddef.h>
#include <stdint.h>

/* syncer.c: --durable without syncing on the loop.  A change is committed
** on the loop (no sync); a writer thread syncs the log, many commits at
** once, and wakes the loop.  Every message queued after a commit waits
** until that commit is synced (sockets.c holds it), so nobody is told of a
** change a power cut could lose.  Without --durable both counters are 0. */
uint64_t syncer_committed(void); /* commits so far */
uint64_t syncer_synced(void);    /* commits on the disk */
/* Starts the writer thread for the database file db_file (a name from
** sqlite3_db_filename, in WAL mode, its log already there): its own
** descriptor of the -wal file and its own connection for checkpoints.
** 0, or -1 with err set. */
int syncer_start(const char *db_file, char *err, size_t errsize);
/* What the thread calls after each sync, from its own thread (the
** server's loop is woken by it: http_wake); given before the store opens.
** NULL: nobody is told. */
void syncer_on_synced(void (*synced)(void));
/* A commit's frames are in the log, which holds frames pages now (the
** loop's WAL hook, sqlite_tables.c); nothing when the syncer does not run. */
void syncer_commit(int frames);
/* The last sync, a TRUNCATE checkpoint, the thread gone; once the loop has
** stopped (it wakes the loop no more).  Again: nothing. */
void syncer_stop(void);

#endif
