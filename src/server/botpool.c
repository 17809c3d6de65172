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
**
** Fairness (issue 25): jobs wait in one queue per table, and the workers
** serve the tables in turn (round robin), one job a turn: a table with many
** jobs never holds the others back.  Every built-in bot thinks at most
** --bot-ms a move (a hint --hint-ms), whatever its spec asks, by the bot's
** time cap (tafel_bot_set_time_cap).  A job nobody needs any more (its
** table moved on, its socket left, the server stops) is dropped while it
** waits, or stopped while it runs (tafel_bot_stop): its answer then comes
** at once and the loop drops it as stale.  An external program's turn is
** never cut (it would lose its place in the conversation), except at
** shutdown, when its program is killed (extseats_interrupt).
**
** Locking: one mutex over the queues, the done list and the workers'
** slots.  A worker publishes its bot in its slot before it chooses and
** takes it back, under the mutex, before it frees it: so whoever holds the
** mutex may call tafel_bot_stop on a slot's bot.
*/
#define _GNU_SOURCE /* gettid */
#include "server.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define MAX_WORKERS 64

typedef struct job_list {
    bot_job **items;
    int head, count, cap;
} job_list;

/* The jobs of one table, in the order they were asked. */
typedef struct table_queue {
    char table_id[17];
    job_list jobs;
} table_queue;

/* What a worker is doing: the job, and its bot while it chooses. */
typedef struct worker_slot {
    pthread_t thread;
    bot_job *job;    /* NULL: idle */
    tafel_bot *bot;  /* NULL: none made yet, or already taken back */
    int stop;        /* the job is no longer needed: stop its bot when made */
} worker_slot;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
/* The tables with waiting jobs (never an empty queue), served from turn. */
static table_queue **queues;
static int nqueues, queues_cap, turn;
static job_list done;
static worker_slot slots[MAX_WORKERS];
static int nthreads, stopping;
static void (*wake_loop)(void);

static int list_push(job_list *l, bot_job *job) {
    if (l->count == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
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

static bot_job *list_at(const job_list *l, int i) {
    return l->items[(l->head + i) % l->cap];
}

/* Moves the jobs of l that drop() says are not needed to out, keeping the
** order of the rest; -1 when out cannot grow (those stay in l). */
static int list_sift(job_list *l, int (*drop)(const bot_job *, const void *),
                     const void *arg, job_list *out) {
    int kept = 0, rc = 0;
    for (int i = 0; i < l->count; i++) {
        bot_job *job = list_at(l, i);
        if (!rc && drop(job, arg) && !(rc = list_push(out, job))) continue;
        l->items[(l->head + kept++) % l->cap] = job;
    }
    l->count = kept;
    return rc;
}

/* ---- the queues of the tables ----------------------------------------- */

static int find_queue(const char *table_id) {
    for (int i = 0; i < nqueues; i++)
        if (!strcmp(queues[i]->table_id, table_id)) return i;
    return -1;
}

/* The queue of table_id, made (last in the round) when it has none. */
static table_queue *queue_of(const char *table_id) {
    int i = find_queue(table_id);
    if (i >= 0) return queues[i];
    if (nqueues == queues_cap) {
        int cap = queues_cap ? 2 * queues_cap : 16;
        table_queue **q = realloc(queues, sizeof *q * (size_t)cap);
        if (!q) return NULL;
        queues = q;
        queues_cap = cap;
    }
    table_queue *q = calloc(1, sizeof *q);
    if (!q) return NULL;
    snprintf(q->table_id, sizeof q->table_id, "%s", table_id);
    /* last in the round: just before the table whose turn is next */
    memmove(&queues[turn + 1], &queues[turn], sizeof *queues * (size_t)(nqueues - turn));
    queues[turn++] = q;
    nqueues++;
    return q;
}

/* Queue i is empty: it leaves the round. */
static void drop_queue(int i) {
    free(queues[i]->jobs.items);
    free(queues[i]);
    memmove(&queues[i], &queues[i + 1], sizeof *queues * (size_t)(nqueues - i - 1));
    nqueues--;
    if (turn > i) turn--;
    if (turn >= nqueues) turn = 0;
}

/* The next job in the round of tables, or NULL. */
static bot_job *take_next(void) {
    if (!nqueues) return NULL;
    int i = turn % nqueues;
    bot_job *job = list_pop(&queues[i]->jobs);
    turn = i + 1;
    if (!queues[i]->jobs.count) drop_queue(i);
    if (turn >= nqueues) turn = 0;
    return job;
}

/* ---- the workers -------------------------------------------------------- */

static void run(bot_job *job, worker_slot *slot) {
    if (job->ext) { /* an external program: stateful, see extseats.c */
        extseats_run(job);
        return;
    }
    tafel_game *game = NULL;
    tafel_bot *bot = NULL;
    tafel_error err;
    int cap = job->hint ? server_opt->limits.hint_ms : server_opt->limits.bot_ms;
    int rc = tafel_game_load(job->game, &game, &err);
    if (!rc) rc = tafel_bot_new(job->spec, game, job->seed, &bot, &err);
    if (!rc) rc = tafel_bot_set_time_cap(bot, cap > 0 ? cap : 0, &err);
    if (!rc) {
        pthread_mutex_lock(&lock);
        slot->bot = bot;
        if (slot->stop) tafel_bot_stop(bot); /* cancelled before the bot was made */
        pthread_mutex_unlock(&lock);
        rc = job->hint ? tafel_bot_analyse(bot, job->state, job->moves, 5, &job->nmoves, &err)
                       : tafel_bot_choose(bot, job->state, &job->action, &err);
        pthread_mutex_lock(&lock);
        slot->bot = NULL;
        pthread_mutex_unlock(&lock);
    }
    if (rc) {
        job->failed = 1;
        snprintf(job->error, sizeof job->error, "%s", err.message);
    }
    tafel_bot_free(bot);
    tafel_game_free(game);
}

static void *worker(void *arg) {
    worker_slot *slot = arg;
    setpriority(PRIO_PROCESS, (id_t)gettid(), 10); /* best effort: sockets first */
    pthread_mutex_lock(&lock);
    for (;;) {
        bot_job *job = NULL;
        while (!stopping && !(job = take_next())) pthread_cond_wait(&work, &lock);
        if (stopping) {
            if (job) bot_job_free(job);
            break;
        }
        slot->job = job;
        slot->bot = NULL;
        slot->stop = 0;
        pthread_mutex_unlock(&lock);
        run(job, slot);
        pthread_mutex_lock(&lock);
        slot->job = NULL;
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
        if (pthread_create(&slots[nthreads].thread, NULL, worker, &slots[nthreads])) return -1;
    return 0;
}

/* Tells the slot's job to stop: its bot now, or as soon as it is made. */
static void stop_slot(worker_slot *slot) {
    slot->stop = 1;
    if (slot->bot) tafel_bot_stop(slot->bot);
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

void botpool_stop(void) {
    double started = now_ms();
    pthread_mutex_lock(&lock);
    stopping = 1;
    int busy = 0;
    for (int i = 0; i < nthreads; i++)
        if (slots[i].job) {
            stop_slot(&slots[i]);
            busy++;
        }
    pthread_cond_broadcast(&work);
    pthread_mutex_unlock(&lock);
    extseats_interrupt(); /* a program's turn ends: the program is killed */
    for (int i = 0; i < nthreads; i++) pthread_join(slots[i].thread, NULL);
    if (busy)
        fprintf(stderr, "tafel serve: the bot threads stopped in %.0f ms (%d busy)\n",
                now_ms() - started, busy);
    nthreads = 0;
    while (nqueues) {
        for (bot_job *j; (j = list_pop(&queues[0]->jobs));) bot_job_free(j);
        drop_queue(0);
    }
    for (bot_job *j; (j = list_pop(&done));) bot_job_free(j);
    free(queues);
    free(done.items);
    queues = NULL;
    nqueues = queues_cap = turn = 0;
    memset(&done, 0, sizeof done);
    memset(slots, 0, sizeof slots);
    stopping = 0;
}

void botpool_submit(bot_job *job) {
    pthread_mutex_lock(&lock);
    table_queue *q = queue_of(job->table_id);
    int failed = !q || list_push(&q->jobs, job);
    if (q && !q->jobs.count) drop_queue(find_queue(job->table_id)); /* never an empty queue */
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

/* ---- cancelling (from the loop) ------------------------------------------ */

typedef struct table_seq {
    const char *table_id;
    int64_t seq;
} table_seq;

/* A job of the table asked before seq: not needed (a program's end is). */
static int stale(const bot_job *job, const void *arg) {
    const table_seq *ts = arg;
    return !job->ext_end && job->seq < ts->seq && !strcmp(job->table_id, ts->table_id);
}

/* A hint for the socket of id *arg. */
static int of_session(const bot_job *job, const void *arg) {
    return job->hint && job->session_id == *(const uint64_t *)arg;
}

/* Drops the waiting jobs drop() names and stops the running ones (not an
** external program's: its turn is never cut).  Dropped jobs are freed
** here, outside the lock (bot_job_free lets go of a program's entry). */
static void cancel(int (*drop)(const bot_job *, const void *), const void *arg,
                   const char *table_id) {
    job_list dropped = {0};
    pthread_mutex_lock(&lock);
    for (int i = 0; i < nqueues; i++) {
        if (table_id && strcmp(queues[i]->table_id, table_id)) continue;
        list_sift(&queues[i]->jobs, drop, arg, &dropped); /* out of memory: they run */
        if (!queues[i]->jobs.count) drop_queue(i--);
    }
    for (int i = 0; i < nthreads; i++)
        if (slots[i].job && !slots[i].job->ext && drop(slots[i].job, arg)) stop_slot(&slots[i]);
    pthread_mutex_unlock(&lock);
    for (bot_job *j; (j = list_pop(&dropped));) bot_job_free(j);
    free(dropped.items);
}

void botpool_cancel(const char *table_id, int64_t seq) {
    table_seq ts = {table_id, seq};
    cancel(stale, &ts, table_id);
}

void botpool_cancel_session(uint64_t session_id) {
    cancel(of_session, &session_id, NULL);
}

typedef struct table_seat {
    const char *table_id;
    int seat;
} table_seat;

static int hint_of(const bot_job *job, const table_seat *ts) {
    return job && job->hint && job->seat == ts->seat && !strcmp(job->table_id, ts->table_id);
}

int botpool_hint_pending(const char *table_id, int seat) {
    table_seat ts = {table_id, seat};
    int pending = 0;
    pthread_mutex_lock(&lock);
    int q = find_queue(table_id);
    for (int i = 0; q >= 0 && i < queues[q]->jobs.count && !pending; i++)
        pending = hint_of(list_at(&queues[q]->jobs, i), &ts);
    for (int i = 0; i < nthreads && !pending; i++) pending = hint_of(slots[i].job, &ts);
    /* answered, but not yet sent: the loop sends it soon */
    for (int i = 0; i < done.count && !pending; i++) pending = hint_of(list_at(&done, i), &ts);
    pthread_mutex_unlock(&lock);
    return pending;
}
