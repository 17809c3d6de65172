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
** Fairness (issues 25 and 35): bot time is shared among clients, not
** tables.  A job's client is whoever asked for it (bot_job.client: the
** account that made the table, else the address it was made from; for a
** hint the asking socket's account, else its address).  Jobs wait in one
** queue per table of each client; the workers serve the clients in turn
** (round robin) and within a client its tables in turn, one job a turn.  A
** client starts a job while it runs fewer than half the workers (at least
** one), or when that leaves another worker idle: a client with six tables
** of the heaviest bots has one turn for another's one, and with two workers
** or more a client that comes finds a worker free, whatever the others ask.
** A spec asking for more than the caps is refused (botbudget.c), and
** every built-in bot thinks at most --bot-ms a move (a hint --hint-ms)
** whatever its spec asks, by the bot's time cap (tafel_bot_set_time_cap).
** A job nobody needs any more (its
** table moved on, its socket left, the server stops) is dropped while it
** waits, or stopped while it runs (tafel_bot_stop): its answer then comes
** at once and the loop drops it as stale.  An external program's turn is
** never cut (it would lose its place in the conversation), except at
** shutdown, when its program is killed (extseats_interrupt).
**
** Locking: one mutex over the clients' queues, the done list and the
** workers' slots.  A worker publishes its bot in its slot before it chooses and
** takes it back, under the mutex, before it frees it: so whoever holds the
** mutex may call tafel_bot_stop on a slot's bot.
*/
#define _GNU_SOURCE /* gettid */
#include "bots.h"

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

/* Things served in turn: the next served is items[turn]; one that joins
** is served last, just before that one. */
typedef struct round {
    void **items;
    int n, cap, turn;
} round;

/* One client's tables with waiting jobs, in turn, and its jobs running.  A
** client stays in the round of clients while it has either. */
typedef struct client_queue {
    char client[sizeof ((bot_job *)0)->client];
    round tables; /* of table_queue, never an empty one */
    int running;
} client_queue;

/* What a worker is doing: the job, and its bot while it chooses. */
typedef struct worker_slot {
    pthread_t thread;
    bot_job *job;    /* NULL: idle */
    client_queue *client; /* the job's, its running count holding it */
    tafel_bot *bot;  /* NULL: none made yet, or already taken back */
    int stop;        /* the job is no longer needed: stop its bot when made */
} worker_slot;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static round clients; /* of client_queue */
static job_list done;
static worker_slot slots[MAX_WORKERS];
static int nthreads, stopping;
static int running; /* jobs running: the clients' running counts summed */
static void (*wake_loop)(void);
/* The time caps of a bot's move and of a hint (--bot-ms, --hint-ms; 0
** none): set before the threads start, read by them only. */
static int cap_bot_ms, cap_hint_ms;

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

/* ---- the rounds of clients and of their tables ------------------------- */

/* item joins the round, last: just before the one whose turn is next. */
static int round_add(round *r, void *item) {
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 16;
        void **items = realloc(r->items, sizeof *items * (size_t)cap);
        if (!items) return -1;
        r->items = items;
        r->cap = cap;
    }
    memmove(&r->items[r->turn + 1], &r->items[r->turn], sizeof *r->items * (size_t)(r->n - r->turn));
    r->items[r->turn++] = item;
    r->n++;
    return 0;
}

/* Item i leaves the round; the turn stays with the one that was next. */
static void round_remove(round *r, int i) {
    memmove(&r->items[i], &r->items[i + 1], sizeof *r->items * (size_t)(r->n - i - 1));
    r->n--;
    if (r->turn > i) r->turn--;
    if (r->turn >= r->n) r->turn = 0;
}

/* Item i was served: the next one's turn. */
static void round_served(round *r, int i) {
    r->turn = r->n ? (i + 1) % r->n : 0;
}

static client_queue *client_at(int i) { return clients.items[i]; }
static table_queue *table_at(const client_queue *c, int i) { return c->tables.items[i]; }

static int find_client(const char *client) {
    for (int i = 0; i < clients.n; i++)
        if (!strcmp(client_at(i)->client, client)) return i;
    return -1;
}

static int find_table(const client_queue *c, const char *table_id) {
    for (int i = 0; i < c->tables.n; i++)
        if (!strcmp(table_at(c, i)->table_id, table_id)) return i;
    return -1;
}

/* The client's queue of table_id, each made (last in its round) when
** missing; NULL when out of memory. */
static table_queue *queue_of(const char *client, const char *table_id) {
    int i = find_client(client);
    client_queue *c = i >= 0 ? client_at(i) : calloc(1, sizeof *c);
    if (!c) return NULL;
    if (i < 0) {
        snprintf(c->client, sizeof c->client, "%s", client);
        if (round_add(&clients, c)) {
            free(c);
            return NULL;
        }
    }
    int k = find_table(c, table_id);
    if (k >= 0) return table_at(c, k);
    table_queue *q = calloc(1, sizeof *q);
    if (q) snprintf(q->table_id, sizeof q->table_id, "%s", table_id);
    if (q && round_add(&c->tables, q)) {
        free(q);
        q = NULL;
    }
    return q;
}

/* A client with no waiting job and none running leaves the round. */
static void drop_client_if_idle(int i) {
    client_queue *c = client_at(i);
    if (c->tables.n || c->running) return;
    free(c->tables.items);
    free(c);
    round_remove(&clients, i);
}

/* The client's table queue k is empty: it leaves the client's round. */
static void drop_table(client_queue *c, int k) {
    free(table_at(c, k)->jobs.items);
    free(table_at(c, k));
    round_remove(&c->tables, k);
}

/* Whether client c may start one more job: while it runs fewer than half
** the workers (at least one), or when another worker would still be left
** idle -- so that with two workers or more a client that comes finds one
** free, however many jobs another has waiting. */
static int may_start(const client_queue *c) {
    int share = nthreads / 2 > 1 ? nthreads / 2 : 1;
    return c->running < share || running + 1 < nthreads;
}

/* The next job: of the next client in the round that has one waiting and
** may start it, from that client's next table; NULL when none may run
** now.  *client: the job's client, its running count raised. */
static bot_job *take_next(client_queue **client) {
    for (int k = 0; k < clients.n; k++) {
        int i = (clients.turn + k) % clients.n;
        client_queue *c = client_at(i);
        if (!c->tables.n || !may_start(c)) continue;
        int t = c->tables.turn % c->tables.n;
        bot_job *job = list_pop(&table_at(c, t)->jobs);
        round_served(&c->tables, t);
        if (!table_at(c, t)->jobs.count) drop_table(c, t);
        round_served(&clients, i);
        c->running++;
        running++;
        *client = c;
        return job;
    }
    return NULL;
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
    int cap = job->hint ? cap_hint_ms : cap_bot_ms;
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
        client_queue *client = NULL;
        while (!stopping && !(job = take_next(&client))) pthread_cond_wait(&work, &lock);
        if (stopping) {
            if (job) bot_job_free(job);
            break;
        }
        slot->job = job;
        slot->client = client;
        slot->bot = NULL;
        slot->stop = 0;
        pthread_mutex_unlock(&lock);
        run(job, slot);
        pthread_mutex_lock(&lock);
        slot->job = NULL;
        slot->client = NULL;
        client->running--;
        running--;
        drop_client_if_idle(find_client(client->client));
        if (list_push(&done, job)) bot_job_free(job); /* out of memory: asked again later */
        pthread_mutex_unlock(&lock);
        wake_loop();
        pthread_mutex_lock(&lock);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

int botpool_start(int workers, int bot_ms, int hint_ms, void (*wake)(void)) {
    wake_loop = wake;
    cap_bot_ms = bot_ms;
    cap_hint_ms = hint_ms;
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
    while (clients.n) {
        client_queue *c = client_at(0);
        while (c->tables.n) {
            for (bot_job *j; (j = list_pop(&table_at(c, 0)->jobs));) bot_job_free(j);
            drop_table(c, 0);
        }
        c->running = 0; /* the workers are gone */
        drop_client_if_idle(0);
    }
    running = 0;
    for (bot_job *j; (j = list_pop(&done));) bot_job_free(j);
    free(clients.items);
    free(done.items);
    memset(&clients, 0, sizeof clients);
    memset(&done, 0, sizeof done);
    memset(slots, 0, sizeof slots);
    stopping = 0;
}

void botpool_submit(bot_job *job) {
    pthread_mutex_lock(&lock);
    table_queue *q = queue_of(job->client, job->table_id);
    int failed = !q || list_push(&q->jobs, job);
    int c = find_client(job->client);
    if (c >= 0 && q && !q->jobs.count) /* never an empty queue */
        drop_table(client_at(c), find_table(client_at(c), job->table_id));
    if (c >= 0) drop_client_if_idle(c);
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
    return !job->ext_end && !job->ext_stop && job->seq < ts->seq &&
           !strcmp(job->table_id, ts->table_id);
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
    for (int i = 0; i < clients.n; i++) {
        client_queue *c = client_at(i);
        for (int k = 0; k < c->tables.n; k++) {
            if (table_id && strcmp(table_at(c, k)->table_id, table_id)) continue;
            list_sift(&table_at(c, k)->jobs, drop, arg, &dropped); /* out of memory: they run */
            if (!table_at(c, k)->jobs.count) drop_table(c, k--);
        }
        if (!c->tables.n && !c->running) drop_client_if_idle(i--);
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
    for (int c = 0; c < clients.n && !pending; c++) {
        int q = find_table(client_at(c), table_id);
        const job_list *jobs = q >= 0 ? &table_at(client_at(c), q)->jobs : NULL;
        for (int i = 0; jobs && i < jobs->count && !pending; i++)
            pending = hint_of(list_at(jobs, i), &ts);
    }
    for (int i = 0; i < nthreads && !pending; i++) pending = hint_of(slots[i].job, &ts);
    /* answered, but not yet sent: the loop sends it soon */
    for (int i = 0; i < done.count && !pending; i++) pending = hint_of(list_at(&done, i), &ts);
    pthread_mutex_unlock(&lock);
    return pending;
}
