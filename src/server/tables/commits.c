/*
** commits.c -- the tables' changes committed off the loop, one at a time
** per table (commits.h).
**
** Owns the pool of the tables' store connections and what waits for a
** busy table: a FIFO per table (table->wait_head), of requests that run
** when it is idle again.  A commit done applies its change before its
** requester is answered and before the next request runs, so a request
** always sees the changes asked before it.  run_waiting runs once per
** table at a time: a change done at once (no threads) inside a request it
** runs returns to it, which goes on with the next.
*/
#include "commits.h"
#include "club.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static store_pool *pool;
static commits_hooks hooks;
static int closing;  /* commits_stop: a commit done now applies nothing, answers nobody */
static int creating; /* new tables being stored: they count against --max-tables */

/* The club's lanes (tables_later with a key that is no table's id): its
** reads and writes (logins, accounts, profiles) wait there for the
** database, never in a table's lane, so a slow one holds no table's change
** back.  Threads of their own when the tables' pool has threads. */
#define CLUB_LANES 2
#define CLUB_POOL_NAME "tafel serve club"
static store_pool *club_pool;

int commits_start(store *db, const char *path, int n, void (*wake)(void),
                  const commits_hooks *given, char *err, size_t errsize) {
    hooks = *given;
    if (store_pool_start(db, path, n, wake, &pool, err, errsize)) return -1;
    if (store_pool_start_named(db, path, n > 0 ? CLUB_LANES : 0, CLUB_POOL_NAME, wake,
                               &club_pool, err, errsize)) {
        store_pool_stop(pool);
        pool = NULL;
        return -1;
    }
    return 0;
}

void commits_stop(void) {
    closing = 1;
    store_pool_stop(club_pool);
    club_pool = NULL;
    store_pool_stop(pool);
    pool = NULL;
    closing = 0;
    creating = 0;
}

int commits_creating(void) { return creating; }

typedef struct table_waiter {
    void (*fn)(table *t, void *ctx);
    void *ctx;
    struct table_waiter *next;
} table_waiter;

static void commit_done(store_job *job);

static int commit_run(store *db, store_job *job, char *err, size_t errsize) {
    commit *c = (commit *)job;
    return c->kind->write(db, c, err, errsize);
}

void table_commit(table *t, commit *c, const commit_kind *kind, const table_reply *reply) {
    c->kind = kind;
    c->t = t;
    memcpy(c->id, t->id, sizeof c->id);
    c->reply = reply ? *reply : (table_reply){0};
    c->job.run = commit_run;
    c->job.done = commit_done;
    t->busy = 1;
    if (c->fresh) creating++;
    store_pool_submit(pool, c->id, &c->job);
}

int table_busy(const table *t) { return t->busy; }

void commits_submit_job(const char *key, store_job *job) { store_pool_submit(pool, key, job); }

/* ---- club calls off the loop (tables_later) ---------------------------- */

typedef struct later_job {
    store_job job; /* first: a job is its later_job */
    tables_later_run run;
    tables_later_done done;
    void *ctx;
} later_job;

static int later_run(store *db, store_job *job, char *err, size_t errsize) {
    later_job *l = (later_job *)job;
    club_lend(db);
    int rc = l->run(db, l->ctx, err, errsize);
    club_lend(NULL);
    return rc;
}

static void later_done(store_job *job) {
    later_job *l = (later_job *)job;
    /* at the stop the sockets that asked are gone: told so, they touch nothing */
    l->done(l->ctx, closing ? TABLE_UNANSWERED : job->rc, job->err);
    free(l);
}

static int is_table_id(const char *key) {
    return strlen(key) == STORE_ID_LEN && strspn(key, "0123456789abcdef") == STORE_ID_LEN;
}

void tables_later(const char *key, tables_later_run run, tables_later_done done, void *ctx) {
    later_job *l = calloc(1, sizeof *l);
    if (!l || !pool || !club_pool) {
        free(l);
        done(ctx, -1, l ? "the store is closed" : "out of memory");
        return;
    }
    *l = (later_job){.job = {.run = later_run, .done = later_done}, .run = run, .done = done,
                     .ctx = ctx};
    store_pool_submit(is_table_id(key) ? pool : club_pool, key, &l->job);
}

int tables_later_waits(void) { return store_pool_threads(pool) > 0; }

int table_defer(table *t, void (*fn)(table *t, void *ctx), void *ctx) {
    if (!t->busy && !t->wait_head) {
        fn(t, ctx);
        return 0;
    }
    table_waiter *w = malloc(sizeof *w);
    if (!w) return -1;
    *w = (table_waiter){.fn = fn, .ctx = ctx};
    if (t->wait_tail) t->wait_tail->next = w;
    else t->wait_head = w;
    t->wait_tail = w;
    return 0;
}

/* What waited for t runs, in order, while t stays idle.  Once: a change
** done at once (no threads) comes back here from within, and returns. */
static void run_waiting(table *t) {
    if (t->draining) return;
    t->draining = 1;
    while (!t->busy && t->wait_head) {
        table_waiter *w = t->wait_head;
        t->wait_head = w->next;
        if (!t->wait_head) t->wait_tail = NULL;
        void (*fn)(table *, void *) = w->fn;
        void *ctx = w->ctx;
        free(w);
        fn(t, ctx);
    }
    t->draining = 0;
}

void table_drop_waiting(table *t) {
    while (t->wait_head) {
        table_waiter *w = t->wait_head;
        t->wait_head = w->next;
        w->fn(NULL, w->ctx);
        free(w);
    }
    t->wait_tail = NULL;
}

static void commit_done(store_job *job) {
    commit *c = (commit *)job;
    table *t = c->t;
    table_reply reply = c->reply;
    int fresh = c->fresh, doubt = !closing && job->rc && job->in_doubt;
    /* another node claimed the table: nothing was written, and its
    ** requester is not answered (the client is sent on, and sends again) */
    int moved = !closing && !doubt && job->rc == STORE_MOVED && !fresh;
    int rc = closing || doubt || moved ? TABLE_UNANSWERED : job->rc ? -1 : 0;
    char id[STORE_ID_LEN + 1], why[STORE_JOB_ERR_MAX];
    memcpy(id, c->id, sizeof id);
    snprintf(why, sizeof why, "%s", job->err);
    t->busy = 0;
    if (fresh) creating--;
    if (rc == 0) {
        c->applied = 1;
        c->kind->apply(c);
    }
    c->kind->release(c); /* a new table not made goes with it */
    if (fresh && rc) t = NULL;
    if (doubt && t) hooks.reread(t);
    if (doubt && fresh) hooks.reread_new(id); /* stored or not: as the store says */
    if (doubt)
        fprintf(stderr, "tafel serve: table %s: a change in doubt, not acknowledged: %s\n", id,
                why);
    if (moved)
        fprintf(stderr, "tafel serve: table %s: another node's now, dropped: %s\n", id, why);
    if (reply.done) reply.done(t, reply.ctx, rc, rc < 0 ? "storage" : NULL, why);
    if (moved) {
        hooks.moved(t); /* t is freed */
        return;
    }
    if (t && !closing) {
        run_waiting(t);
        hooks.idle(t);
    }
}

void tables_commits_done(void) {
    store_pool_finish(pool);
    store_pool_finish(club_pool);
}


/* ---- what is not a change ------------------------------------------------ */

/* The clocks after a change that did not store them: a job in the
** table's lane, after that change, that leaves the table idle (nothing to
** apply: clocks.c applied them). */
typedef struct clocks_job {
    store_job job;
    char id[STORE_ID_LEN + 1];
    store_clocks clocks;
} clocks_job;

static int clocks_write(store *db, store_job *job, char *err, size_t errsize) {
    clocks_job *k = (clocks_job *)job;
    return store_set_clocks(db, k->id, k->clocks.nseats, k->clocks.ms, k->clocks.turn_since, err,
                            errsize);
}

static void clocks_done(store_job *job) {
    clocks_job *k = (clocks_job *)job;
    if (job->rc)
        fprintf(stderr, "tafel serve: table %s: the clocks were not stored: %s\n", k->id,
                job->err);
    free(k);
}

void table_store_clocks(const table *t, const store_clocks *clocks) {
    clocks_job *k = calloc(1, sizeof *k);
    if (!k) {
        fprintf(stderr, "tafel serve: table %s: the clocks were not stored: out of memory\n",
                t->id);
        return;
    }
    memcpy(k->id, t->id, sizeof k->id);
    k->clocks = *clocks;
    k->job.run = clocks_write;
    k->job.done = clocks_done;
    store_pool_submit(pool, k->id, &k->job);
}

/* What a change nobody asked for tells when it failed (a log line; stuck:
** tables_tick tries again).  Its context: what was not stored, malloc'd. */
typedef struct unasked {
    int stuck;
    char what[300];
} unasked;

static void unasked_done(table *t, void *ctx, int rc, const char *code, const char *msg) {
    unasked *u = ctx;
    (void)code;
    if (rc < 0 && t) {
        fprintf(stderr, "tafel serve: table %s: %s: %s\n", t->id, u->what, msg);
        if (u->stuck) t->stuck = 1;
    }
    free(u);
}

table_reply *unasked_reply(table_reply *r, int stuck, const char *fmt, ...) {
    unasked *u = calloc(1, sizeof *u);
    if (!u) return NULL;
    u->stuck = stuck;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(u->what, sizeof u->what, fmt, ap);
    va_end(ap);
    *r = (table_reply){.done = unasked_done, .ctx = u};
    return r;
}

void unasked_drop(table_reply *r) {
    if (r) free(r->ctx);
}

