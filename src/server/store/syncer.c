/*
** syncer.c -- --durable without syncing on the event loop (server.h).
**
** With --durable the loop's connection runs WAL with synchronous=NORMAL: a
** commit writes its frames to the -wal file and returns, no fsync.  Each
** commit bumps `committed` (syncer_commit, from sqlite_tables.c's WAL hook, on
** the loop).  One writer thread waits for committed > synced, takes
** target = committed, fdatasyncs the -wal file through its own descriptor
** (one sync covers every frame written before it, so every commit up to
** target: group commit), publishes synced = target and wakes the loop,
** which writes the messages it held for those commits (sockets.c).  A
** message is tagged with `committed` when queued, so nobody is told of a
** change before the change is on the disk (docs/protocol.md, "Order of a
** change").
**
** The log is folded into the database by the thread too: when the WAL has
** grown past SYNCER_CHECKPOINT_FRAMES pages, a PASSIVE checkpoint on the
** thread's own SQLite connection (a connection is never shared between
** threads), which syncs the log, then the database file.  The loop's own
** automatic checkpoint is off (its WAL hook replaces it), so the loop never
** waits for a sync, but for one: after a checkpoint, the first commit that
** starts the log again at its beginning syncs the log's new header
** (SQLite's rule, once per checkpoint).  At stop: a last sync, then a
** TRUNCATE checkpoint; the loop's connection, closed last, removes the -wal
** and -shm files (the clean stop of docs/server.md).
**
** A failed sync cannot be retried safely (after a write-back error Linux
** may report the next fsync as a success though the pages are lost), so
** the thread says so on stderr and stops the server (SIGTERM): what was
** acknowledged is on the disk, what was held is never acknowledged.
**
** Without --durable nothing runs and both counters stay 0: no message ever
** waits.
*/
#include "syncer.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Pages in the log before the thread folds them into the database (the
** number SQLite's own automatic checkpoint uses). */
#define SYNCER_CHECKPOINT_FRAMES 1000

static _Atomic uint64_t committed, synced;
static _Atomic int wal_frames; /* pages in the log after the latest commit */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t more = PTHREAD_COND_INITIALIZER;
static int running;  /* the thread was started (the loop's view) */
static int stopping; /* under lock */
static int sleeping; /* under lock: the thread waits on `more` */
static pthread_t thread;
static int wal_fd = -1;
static sqlite3 *own; /* the thread's connection, for checkpoints */
static char wal_path[1024];

/* The loop's wake-up (http_wake), given by serve.c: the store includes no
** header of a layer above it. */
static void (*on_synced)(void);

void syncer_on_synced(void (*synced)(void)) { on_synced = synced; }

uint64_t syncer_committed(void) { return atomic_load(&committed); }
uint64_t syncer_synced(void) { return atomic_load(&synced); }

void syncer_commit(int frames) {
    if (!running) return;
    atomic_store(&wal_frames, frames);
    atomic_fetch_add(&committed, 1);
    pthread_mutex_lock(&lock);
    if (sleeping) pthread_cond_signal(&more);
    pthread_mutex_unlock(&lock);
}

/* The directory entry of a new file is on the disk only once its directory
** is synced (SQLite does the same for a log it creates). */
static int syncer_sync_directory(const char *file) {
    char dir[sizeof wal_path];
    snprintf(dir, sizeof dir, "%s", file);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = 0;
    else *slash = 0;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

static void syncer_failed(const char *what) {
    fprintf(stderr, "tafel serve: --durable: %s %s: %s; the changes since the last sync are "
                    "not acknowledged, and the server stops\n",
            what, wal_path, strerror(errno));
    kill(getpid(), SIGTERM);
}

/* A PASSIVE checkpoint while the log holds SYNCER_CHECKPOINT_FRAMES pages
** or more and has grown since the previous one: it copies what no reader
** still needs, never waits for the loop, and syncs the database file.  The
** loop's next commit after a checkpoint that copied everything starts the
** log again at its beginning (the file keeps its size; the count drops);
** commits made while one ran are copied by the next. */
static void syncer_checkpoint(int *last_log) {
    int frames = atomic_load(&wal_frames);
    if (frames < SYNCER_CHECKPOINT_FRAMES || frames == *last_log) return;
    int log = 0, copied = 0;
    int rc = sqlite3_wal_checkpoint_v2(own, "main", SQLITE_CHECKPOINT_PASSIVE, &log, &copied);
    if (rc != SQLITE_OK && rc != SQLITE_BUSY)
        fprintf(stderr, "tafel serve: --durable: checkpoint: %s\n", sqlite3_errmsg(own));
    *last_log = log > 0 ? log : frames;
}

static void *syncer_main(void *arg) {
    (void)arg;
    uint64_t done = atomic_load(&synced);
    int last_log = 0, failed = 0;
    for (;;) {
        pthread_mutex_lock(&lock);
        while (!stopping && atomic_load(&committed) == done) {
            sleeping = 1;
            pthread_cond_wait(&more, &lock);
            sleeping = 0;
        }
        int stop = stopping;
        pthread_mutex_unlock(&lock);
        uint64_t target = atomic_load(&committed);
        if (target != done && !failed) {
            /* every frame of the commits up to target was written before
            ** committed reached target: this one sync covers them all */
            if (fdatasync(wal_fd)) {
                failed = 1;
                syncer_failed("syncing");
            } else {
                done = target;
                atomic_store(&synced, target);
                if (on_synced) on_synced();
            }
        }
        if (!failed) syncer_checkpoint(&last_log);
        if (stop) break;
        if (failed) { /* nothing more can be acknowledged: wait for the stop */
            pthread_mutex_lock(&lock);
            while (!stopping) pthread_cond_wait(&more, &lock);
            pthread_mutex_unlock(&lock);
            break;
        }
    }
    return NULL;
}

static int syncer_fail(char *err, size_t errsize, const char *fmt, const char *detail) {
    char what[256];
    snprintf(what, sizeof what, fmt, detail);
    snprintf(err, errsize, "--durable: %s", what);
    if (own) sqlite3_close_v2(own);
    own = NULL;
    if (wal_fd >= 0) close(wal_fd);
    wal_fd = -1;
    return -1;
}

int syncer_start(const char *db_file, char *err, size_t errsize) {
    if (running) { /* one database per server: a second store_open is a mistake */
        snprintf(err, errsize, "--durable: the log of another database is synced already");
        return -1;
    }
    const char *wal = sqlite3_filename_wal(db_file);
    if (!wal || !wal[0]) return syncer_fail(err, errsize, "%s", "the database has no log file");
    snprintf(wal_path, sizeof wal_path, "%s", wal);
    if (sqlite3_open_v2(db_file, &own, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
        sqlite3_exec(own, "PRAGMA busy_timeout=5000; PRAGMA synchronous=NORMAL;", NULL, NULL,
                     NULL) != SQLITE_OK)
        return syncer_fail(err, errsize, "a second connection for checkpoints: %s",
                           own ? sqlite3_errmsg(own) : "out of memory");
    wal_fd = open(wal_path, O_RDONLY | O_CLOEXEC);
    if (wal_fd < 0) return syncer_fail(err, errsize, "opening the log: %s", strerror(errno));
    /* what store_open wrote (schema, upgrades) and the log's name */
    if (fdatasync(wal_fd) || syncer_sync_directory(wal_path))
        return syncer_fail(err, errsize, "syncing the log: %s", strerror(errno));
    atomic_store(&committed, 0);
    atomic_store(&synced, 0);
    atomic_store(&wal_frames, 0);
    stopping = 0;
    if (pthread_create(&thread, NULL, syncer_main, NULL))
        return syncer_fail(err, errsize, "%s", "cannot start the syncing thread");
    running = 1;
    return 0;
}

void syncer_stop(void) {
    if (!running) return;
    pthread_mutex_lock(&lock);
    stopping = 1;
    pthread_cond_signal(&more);
    pthread_mutex_unlock(&lock);
    pthread_join(thread, NULL);
    running = 0;
    /* The log folded into the database (synced), and emptied; the loop's
    ** connection, closed after, removes the files. */
    int rc = sqlite3_wal_checkpoint_v2(own, "main", SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
    if (rc != SQLITE_OK)
        fprintf(stderr, "tafel serve: --durable: the last checkpoint: %s\n",
                sqlite3_errmsg(own));
    sqlite3_close_v2(own);
    own = NULL;
    close(wal_fd);
    wal_fd = -1;
}
