/*
** pool.h -- changes committed off the loop: store connections on threads of
** their own (issue 36).
**
** On PostgreSQL a durable commit waits for the log's flush (2-4 ms here);
** one connection never groups commits, and a blocking call on the loop
** caps a node at ~300-450 moves a second (stack-turn4.md §2-3).  So the
** pool runs store calls on n threads, each with its own connection to the
** same database; a job's key (a table id) picks its thread, so one
** table's changes commit in the order they were submitted, while other
** tables' commits group with them in the database.  A finished job goes on
** a done list and the loop is woken; store_pool_finish, on the loop, calls
** each job's done in the order the jobs finished.
**
** With n = 0 (SQLite's default: a commit there takes microseconds and the
** file has one writer) a job runs at once on the loop's own connection and
** its done is called before store_pool_submit returns.  The owner of a job
** keeps it alive until done is called, and done is called exactly once for
** every job submitted.  The pool's connections act for the node the loop's
** connection acts for when the pool starts (store_act_as), so their writes
** are fenced on the epochs the loop's claims record.
*/
#ifndef TF_SERVER_STORE_POOL_H
#define TF_SERVER_STORE_POOL_H

#include "store.h"

#include <stddef.h>

#define STORE_POOL_MAX 64    /* most threads a pool may have */
#define STORE_JOB_ERR_MAX 512
#define STORE_POOL_NAME "tafel serve pool"

typedef struct store_job store_job;
struct store_job {
    /* Given by the submitter.  run is called on a thread of the pool with
    ** that thread's connection (or on the loop, n = 0): store calls only,
    ** nothing of the loop's; it returns 0 or -1 with err set. */
    int (*run)(store *db, store_job *job, char *err, size_t errsize);
    void (*done)(store_job *job); /* on the loop */
    /* Set by the pool before done. */
    int rc;                       /* what run returned */
    int in_doubt;                 /* it failed with its commit in doubt (store_in_doubt) */
    char err[STORE_JOB_ERR_MAX];  /* its error, "" when rc is 0 */
    store_job *next;
};

typedef struct store_pool store_pool;

/* A pool of n threads (0 <= n <= STORE_POOL_MAX), each opening its own
** connection to path (as store_open, never durable: the loop's connection
** runs the syncer); db is the loop's own connection, used when n is 0.
** wake is called from a thread after it finished a job (the server's
** loop wakes and calls store_pool_finish).  The threads' connections are
** named STORE_POOL_NAME (PostgreSQL's application_name), for operators and
** the tests that cut one.  0, or -1 with err set and
** nothing started. */
int store_pool_start(store *db, const char *path, int n, void (*wake)(void), store_pool **out,
                     char *err, size_t errsize);

/* The same, its connections named name rather than STORE_POOL_NAME. */
int store_pool_start_named(store *db, const char *path, int n, const char *name,
                           void (*wake)(void), store_pool **out, char *err, size_t errsize);

/* Queues job on the thread key picks (or runs it now when n is 0). */
void store_pool_submit(store_pool *p, const char *key, store_job *job);

/* On the loop: calls done for every job finished since the last call, in
** the order they finished.  Returns how many. */
int store_pool_finish(store_pool *p);

/* How many threads p has (0: a job runs at once on the loop's connection). */
int store_pool_threads(const store_pool *p);

/* Jobs submitted and not yet given to done. */
int store_pool_pending(const store_pool *p);

/* Runs what is queued, ends the threads and closes their connections,
** then calls done for every finished job (on the calling thread); NULL is
** fine.  The loop's connection stays open. */
void store_pool_stop(store_pool *p);

#endif
