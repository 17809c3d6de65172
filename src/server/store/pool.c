/*
** pool.c -- store connections on threads of their own (pool.h).
**
** One FIFO per thread (a lane), one done list, one mutex for all: the
** lock is held only to link and unlink jobs, never while a job runs.  A
** lane is chosen by the FNV-1a hash of the key, so a table keeps its lane
** for the life of the pool and its jobs finish in order.
*/
#include "pool.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lane {
    pthread_t thread;
    int started;
    store *db;
    store_job *head, *tail;
    pthread_cond_t work;
    store_pool *pool;
} lane;

struct store_pool {
    store *db; /* the loop's, for n = 0 */
    int n;
    lane lanes[STORE_POOL_MAX];
    pthread_mutex_t lock;
    store_job *done_head, *done_tail;
    int pending;  /* submitted, done not yet called (the loop's count) */
    int stopping;
    void (*wake)(void);
};

static void run_job(store *db, store_job *job) {
    job->err[0] = 0;
    job->rc = job->run(db, job, job->err, sizeof job->err);
    if (job->rc && !job->err[0]) snprintf(job->err, sizeof job->err, "storage: failed");
    if (!job->rc) job->err[0] = 0;
    job->in_doubt = job->rc && store_in_doubt(db);
}

static void *lane_main(void *arg) {
    lane *l = arg;
    store_pool *p = l->pool;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!l->head && !p->stopping) pthread_cond_wait(&l->work, &p->lock);
        store_job *job = l->head;
        if (!job) break; /* stopping, and nothing left to run */
        l->head = job->next;
        if (!l->head) l->tail = NULL;
        job->next = NULL;
        pthread_mutex_unlock(&p->lock);
        run_job(l->db, job);
        pthread_mutex_lock(&p->lock);
        if (p->done_tail) p->done_tail->next = job;
        else p->done_head = job;
        p->done_tail = job;
        if (p->wake && !p->stopping) {
            pthread_mutex_unlock(&p->lock);
            p->wake();
            pthread_mutex_lock(&p->lock);
        }
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static void stop_lanes(store_pool *p) {
    pthread_mutex_lock(&p->lock);
    p->stopping = 1;
    for (int i = 0; i < p->n; i++)
        if (p->lanes[i].started) pthread_cond_signal(&p->lanes[i].work);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->n; i++) {
        lane *l = &p->lanes[i];
        if (l->started) pthread_join(l->thread, NULL);
        l->started = 0;
        store_close(l->db);
        l->db = NULL;
        pthread_cond_destroy(&l->work);
    }
}

int store_pool_start(store *db, const char *path, int n, void (*wake)(void), store_pool **out,
                     char *err, size_t errsize) {
    return store_pool_start_named(db, path, n, STORE_POOL_NAME, wake, out, err, errsize);
}

int store_pool_start_named(store *db, const char *path, int n, const char *name,
                           void (*wake)(void), store_pool **out, char *err, size_t errsize) {
    *out = NULL;
    if (n < 0 || n > STORE_POOL_MAX) {
        snprintf(err, errsize, "storage: a pool of %d connections (0 to %d)", n, STORE_POOL_MAX);
        return -1;
    }
    store_pool *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errsize, "storage: out of memory");
        return -1;
    }
    p->db = db;
    p->wake = wake;
    pthread_mutex_init(&p->lock, NULL);
    for (int i = 0; i < n; i++) {
        lane *l = &p->lanes[i];
        l->pool = p;
        pthread_cond_init(&l->work, NULL);
        p->n = i + 1; /* stop_lanes closes what opened so far */
        char why[STORE_JOB_ERR_MAX];
        if (store_open(path, 0, &l->db, why, sizeof why) ||
            store_set_name(l->db, name, why, sizeof why)) {
            snprintf(err, errsize, "%s (the pool's connection %d of %d)", why, i + 1, n);
            store_pool_stop(p);
            return -1;
        }
        /* its writes are the node's, fenced on the epochs the loop's claims
        ** record (store.h, "several nodes") */
        if (store_act_as(l->db, store_acting_for(db), why, sizeof why)) {
            snprintf(err, errsize, "%s (the pool's connection %d of %d)", why, i + 1, n);
            store_pool_stop(p);
            return -1;
        }
        if (pthread_create(&l->thread, NULL, lane_main, l)) {
            snprintf(err, errsize, "storage: no thread for the pool's connection %d", i + 1);
            store_pool_stop(p);
            return -1;
        }
        l->started = 1;
    }
    *out = p;
    return 0;
}

static unsigned lane_of(const char *key, int n) {
    uint32_t h = 2166136261u;
    for (const unsigned char *c = (const unsigned char *)(key ? key : ""); *c; c++)
        h = (h ^ *c) * 16777619u;
    return h % (unsigned)n;
}

int store_pool_threads(const store_pool *p) { return p ? p->n : 0; }

void store_pool_submit(store_pool *p, const char *key, store_job *job) {
    job->next = NULL;
    p->pending++;
    if (p->n == 0 || p->stopping) { /* stopping: a done that submits again, after the lanes */
        run_job(p->db, job);
        p->pending--;
        job->done(job);
        return;
    }
    lane *l = &p->lanes[lane_of(key, p->n)];
    pthread_mutex_lock(&p->lock);
    if (l->tail) l->tail->next = job;
    else l->head = job;
    l->tail = job;
    pthread_cond_signal(&l->work);
    pthread_mutex_unlock(&p->lock);
}

int store_pool_finish(store_pool *p) {
    if (!p) return 0;
    pthread_mutex_lock(&p->lock);
    store_job *job = p->done_head;
    p->done_head = p->done_tail = NULL;
    pthread_mutex_unlock(&p->lock);
    int count = 0;
    while (job) {
        store_job *next = job->next; /* done may free or resubmit it */
        job->next = NULL;
        p->pending--;
        count++;
        job->done(job);
        job = next;
    }
    return count;
}

int store_pool_pending(const store_pool *p) { return p ? p->pending : 0; }

void store_pool_stop(store_pool *p) {
    if (!p) return;
    stop_lanes(p);
    while (store_pool_finish(p) > 0) {
    }
    pthread_mutex_destroy(&p->lock);
    free(p);
}
