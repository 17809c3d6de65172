/*
** botpool.c -- the worker threads that run bots, off the event loop.
**
** A job carries a copy of the state (states are plain memory), the bot's
** spec and a seed; a worker makes the bot (or, for an external program,
** hands the job to extseats.c), lets it choose, and puts the
** job on the done list, then wakes the loop (lws_cancel_service, the one
** libwebsockets call that is safe from another thread).  The loop applies
** the answer if the table has not moved on.  Workers run at a lower
** priority, so that a long search never slows the sockets.
*/
#define _GNU_SOURCE /* gettid */
#include "server.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define MAX_WORKERS 64

typedef struct job_list {
    bot_job **items;
    int head, count, cap;
} job_list;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static job_list todo, done;
static pthread_t threads[MAX_WORKERS];
static int nthreads, stopping;
static void (*wake_loop)(void);

static int list_push(job_list *l, bot_job *job) {
    if (l->count == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        bot_job **items = malloc(sizeof *items * (size_t)cap);
        if (!items) return -1;
        for (int i = 0; i < l->count; i++) items[i] = l->items[(l->head + i) % l->cap];
        free(l->items);
        l->items = items;
        l->head = 0;
        l->cap = cap;
    }
    l->items[(l->head + l->count++) % l->cap] = job;
    return 0;
}

static bot_job *list_pop(job_list *l) {
    if (!l->count) return NULL;
    bot_job *job = l->items[l->head];
    l->head = (l->head + 1) % l->cap;
    l->count--;
    return job;
}

static void run(bot_job *job) {
    if (job->ext) { /* an external program: stateful, see extseats.c */
        extseats_run(job);
        return;
    }
    tafel_game *game = NULL;
    tafel_bot *bot = NULL;
    tafel_error err;
    if (tafel_game_load(job->game, &game, &err) ||
        tafel_bot_new(job->spec, game, job->seed, &bot, &err) ||
        (job->hint ? tafel_bot_analyse(bot, job->state, job->moves, 5, &job->nmoves, &err)
                   : tafel_bot_choose(bot, job->state, &job->action, &err))) {
        job->failed = 1;
        snprintf(job->error, sizeof job->error, "%s", err.message);
    }
    tafel_bot_free(bot);
    tafel_game_free(game);
}

static void *worker(void *unused) {
    (void)unused;
    setpriority(PRIO_PROCESS, (id_t)gettid(), 10); /* best effort: sockets first */
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!stopping && !todo.count) pthread_cond_wait(&work, &lock);
        if (stopping) break;
        bot_job *job = list_pop(&todo);
        pthread_mutex_unlock(&lock);
        run(job);
        pthread_mutex_lock(&lock);
        if (list_push(&done, job)) bot_job_free(job); /* out of memory: asked again later */
        pthread_mutex_unlock(&lock);
        wake_loop();
        pthread_mutex_lock(&lock);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

int botpool_start(int workers, void (*wake)(void)) {
    wake_loop = wake;
    if (workers > MAX_WORKERS) workers = MAX_WORKERS;
    for (nthreads = 0; nthreads < workers; nthreads++)
        if (pthread_create(&threads[nthreads], NULL, worker, NULL)) return -1;
    return 0;
}

void botpool_stop(void) {
    pthread_mutex_lock(&lock);
    stopping = 1;
    pthread_cond_broadcast(&work);
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < nthreads; i++) pthread_join(threads[i], NULL);
    nthreads = 0;
    for (bot_job *j; (j = list_pop(&todo));) bot_job_free(j);
    for (bot_job *j; (j = list_pop(&done));) bot_job_free(j);
    free(todo.items);
    free(done.items);
    memset(&todo, 0, sizeof todo);
    memset(&done, 0, sizeof done);
    stopping = 0;
}

void botpool_submit(bot_job *job) {
    pthread_mutex_lock(&lock);
    int failed = list_push(&todo, job);
    if (!failed) pthread_cond_signal(&work);
    pthread_mutex_unlock(&lock);
    if (failed) bot_job_free(job);
}

bot_job *botpool_take_done(void) {
    pthread_mutex_lock(&lock);
    bot_job *job = list_pop(&done);
    pthread_mutex_unlock(&lock);
    return job;
}

void botpool_cancel(const char *table_id, int64_t seq) {
    (void)table_id;
    (void)seq;
}

void botpool_cancel_session(uint64_t session_id) { (void)session_id; }

int botpool_hint_pending(const char *table_id, int seat) {
    (void)table_id;
    (void)seat;
    return 0;
}
