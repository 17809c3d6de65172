/*
** commits.h -- the tables' changes committed off the loop, one at a time
** per table (commits.c); the tables layer's own, for tables.c's kinds of
** change (issue 36: "never a blocking call there").
**
** A change is a commit: a job of the store's pool (pool.h) keyed by its
** table's id, holding copies of what it writes (its thread never reads the
** table), and its kind: how it is written, applied and freed.
** table_commit marks the table busy and hands the job to the pool; when
** it is done, on the loop, the change is applied (or, after a commit in
** doubt, the table read again), the requester answered (table_reply), and
** then what waited for the table (table_defer) runs, in order, until one
** of those makes it busy again.  With no threads the commit is done inside
** table_commit, and everything happens in the order it always did.
*/
#ifndef TF_SERVER_COMMITS_H
#define TF_SERVER_COMMITS_H

#include "pool.h"
#include "tables.h"

typedef struct commit commit;

/* What a kind of change does with its commit. */
typedef struct commit_kind {
    int (*write)(store *db, commit *c, char *err, size_t errsize); /* on the pool's thread */
    void (*apply)(commit *c);    /* stored: applied to c->t and told */
    void (*release)(commit *c);  /* frees c and what it holds, applied or not */
} commit_kind;

struct commit {
    store_job job;               /* the pool's: first, so a job is its commit */
    const commit_kind *kind;
    table *t;                    /* the table it changes (a new one: not listed yet) */
    char id[STORE_ID_LEN + 1];   /* t's id: the pool's key */
    table_reply reply;
    int fresh;                   /* t is new: listed when applied, freed when not */
    int applied;
};

/* What tables.c does when a commit is done but not applied. */
typedef struct commits_hooks {
    void (*reread)(table *t);           /* t's change was in doubt: read t again */
    void (*reread_new)(const char *id); /* a new table's was: load it if it is stored */
    void (*idle)(table *t);             /* t is idle again (the sweep may free it) */
    void (*moved)(table *t);            /* a write of t answered STORE_MOVED: drop it */
} commits_hooks;

/* The pool of n threads on the database at path (db: the loop's own
** connection, for n = 0); wake called from a thread when a commit is
** done.  0, or -1 with err. */
int commits_start(store *db, const char *path, int n, void (*wake)(void),
                  const commits_hooks *hooks, char *err, size_t errsize);
/* What is queued still commits; nothing is applied and nobody answered. */
void commits_stop(void);
/* New tables being stored (they count against --max-tables). */
int commits_creating(void);

/* Hands c, a change of kind, to the pool for the idle t. */
void table_commit(table *t, commit *c, const commit_kind *kind, const table_reply *reply);
/* Hands job, which is no table's change, to the pool in the lane of key
** (a key no table id has: "lease"). */
void commits_submit_job(const char *key, store_job *job);
/* The table goes: what waited for it is told so (fn with no table). */
void table_drop_waiting(table *t);

/* A reply for a change nobody asked for: when it fails, a log line "table
** ID: what: why" and, with stuck, tables_tick tries again.  NULL out of
** memory (none). */
table_reply *unasked_reply(table_reply *r, int stuck, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Frees an unasked reply the change never took (it was refused at once). */
void unasked_drop(table_reply *r);

#endif
