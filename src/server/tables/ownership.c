/*
** ownership.c -- which tables this node plays (ownership.h).
**
** The store decides who owns a table (a lease per node, an owner and an
** epoch per table, every write fenced); this file is what the tables do
** with it:
**
**   - the lease is renewed every fifth of --lease, by a job of the pool;
**   - every fifth of --lease the tables whose owner's lease ran out are
**     claimed in a batch and loaded, their bots and clocks resumed (a
**     real-time clock resumes with what it had at the last change: the
**     outage is not charged), so a dead node's games go on with no client;
**   - a table its clients reach elsewhere (a proxy routes by table id) is
**     asked for by that node: handed over when idle, its sockets closed
**     with 4000 so that they reconnect there (tables_give);
**   - a node that comes back asks, a few seconds after its start (when the
**     proxies see it again), for its tables: those whose home it is are
**     handed back (tables_give_home), and it loads what it is given at once
**     (tables_adopt);
**   - at a clean stop the lease ends at once.
**
** A join of a table not in memory claims and reads it on the pool too
** (tables_find_later), so that many clients coming back after a node died
** do not hold the loop one claim at a time.
**
** A table handed on is not handed on again for a few seconds after it came
** (OWNERSHIP_STAY_MS): clients of one table that reach two nodes (no proxy,
** or one changing its mind) move it at most that often.  Everything that
** waits on the database runs on the pool, but the claim of a /t/ID page.
*/
#include "ownership.h"

#include "commits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define OWNERSHIP_STAY_MS 3000    /* a table is not handed on sooner after it came */
#define OWNERSHIP_HOME_AFTER_MS 5000 /* the proxies' checks see a node again (docs) */
#define OWNERSHIP_BATCH 32        /* tables claimed by one sweep */

static store *db;
static const tables_events *told;
static char node[STORE_NODE_MAX + 1];
static int acting;
static int lease_seconds;
static int64_t started_ms;
static int home_said;
static int64_t lease_next_ms, sweep_next_ms;
static int64_t renewed_ms; /* when the lease was last renewed (a sweep needs it live) */
static int lease_in_flight, sweep_in_flight;

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Between renewals and between sweeps: a fifth of the lease, at least a
** second (a tick). */
static int64_t every_ms(void) { return lease_seconds >= 5 ? lease_seconds * 200 : 1000; }

int ownership_start(store *loop_db, const char *db_path, const char *name, int lease,
                    const tables_events *events, char *err, size_t errsize) {
    db = loop_db;
    told = events;
    acting = 0;
    home_said = 0;
    lease_in_flight = sweep_in_flight = 0;
    if (!name || !store_path_is_postgres(db_path)) return 0;
    snprintf(node, sizeof node, "%s", name);
    lease_seconds = lease;
    char why[512];
    if (store_act_as(db, node, why, sizeof why) ||
        store_lease_renew(db, node, lease_seconds, why, sizeof why)) {
        snprintf(err, errsize, "node %s: %s", node, why);
        return -1;
    }
    acting = 1;
    started_ms = renewed_ms = now_ms();
    lease_next_ms = sweep_next_ms = started_ms + every_ms();
    return 0;
}

void ownership_stop(void) {
    if (!acting) return;
    char why[512];
    /* a lease that ends now: the others' next sweep takes the tables */
    if (store_lease_renew(db, node, 0.001, why, sizeof why))
        fprintf(stderr, "tafel serve: node %s: the lease did not end at the stop (%s); the "
                        "other nodes take its tables when it runs out\n", node, why);
    acting = 0;
}

int ownership_acting(void) { return acting; }

const char *ownership_node(void) { return acting ? node : NULL; }

int ownership_claim(const char *id, int for_client, char *home, size_t homesize) {
    if (homesize) home[0] = 0;
    if (!acting) return 1;
    store_claim_answer a;
    char why[512];
    int rc = store_claim(db, id, &a, why, sizeof why);
    if (rc < 0) fprintf(stderr, "tafel serve: table %s: not claimed: %s\n", id, why);
    if (rc == 1) snprintf(home, homesize, "%s", a.home);
    if (rc == 0 && for_client && told->ask) told->ask(id, a.owner); /* its clients come here */
    return rc;
}

void ownership_arrived(table *t, const char *home) {
    snprintf(t->home, sizeof t->home, "%s", home ? home : "");
    t->arrived_ms = now_ms();
}

/* ---- the lease ----------------------------------------------------------- */

static int lease_write(store *conn, store_job *job, char *err, size_t errsize) {
    (void)job;
    return store_lease_renew(conn, node, lease_seconds, err, errsize);
}

static int lease_failing; /* a failure is said once, and the renewal after it */

static void lease_done(store_job *job) {
    if (job->rc && !lease_failing)
        fprintf(stderr, "tafel serve: node %s: the lease was not renewed: %s (tried every "
                        "%lld ms; said again when it is)\n", node, job->err,
                (long long)every_ms());
    if (!job->rc && lease_failing) {
        fprintf(stderr, "tafel serve: node %s: the lease is renewed again\n", node);
        /* PostgreSQL was away (or this node): every node's lease may have
        ** run out meanwhile, and each renews at its next tick; a sweep now
        ** would take live nodes' tables, so the next waits a lease */
        sweep_next_ms = now_ms() + (int64_t)lease_seconds * 1000;
    }
    lease_failing = job->rc != 0;
    if (!job->rc) renewed_ms = now_ms();
    lease_in_flight = 0;
    free(job);
}

/* ---- taking tables: a dead node's, and those handed to this one ---------- */

/* A batch of tables claimed on the pool's thread and read there; loaded
** into memory on the loop (adopt_done). */
typedef struct adopt_job {
    store_job job;
    char id[STORE_ID_LEN + 1]; /* one table given to this node; "" a sweep */
    char owner[STORE_NODE_MAX + 1]; /* one table: the live node that has it, when refused */
    char give_to[STORE_NODE_MAX + 1]; /* loaded to be handed on at once to that node */
    int n;
    store_claimed claimed[OWNERSHIP_BATCH];
    store_table loaded[OWNERSHIP_BATCH];
    int found[OWNERSHIP_BATCH]; /* store_load's answer */
} adopt_job;

static int adopt_write(store *conn, store_job *job, char *err, size_t errsize) {
    adopt_job *a = (adopt_job *)job;
    if (a->id[0]) {
        store_claim_answer answer;
        int rc = store_claim(conn, a->id, &answer, err, errsize);
        if (rc == 0) snprintf(a->owner, sizeof a->owner, "%s", answer.owner);
        if (rc <= 0) return rc < 0 ? -1 : 0; /* another live node has it again: its own */
        store_claimed *c = &a->claimed[0];
        memcpy(c->id, a->id, sizeof c->id);
        c->epoch = answer.epoch;
        c->seq = answer.seq;
        snprintf(c->home, sizeof c->home, "%s", answer.home);
        a->n = 1;
    } else {
        a->n = store_claim_orphans(conn, OWNERSHIP_BATCH, a->claimed, err, errsize);
        if (a->n < 0) {
            a->n = 0;
            return -1;
        }
    }
    char why[256];
    for (int i = 0; i < a->n; i++) {
        a->found[i] = store_load(conn, a->claimed[i].id, &a->loaded[i], why, sizeof why);
        if (a->found[i] < 0)
            fprintf(stderr, "tafel serve: table %s: claimed, not read (%s); the next sweep "
                            "takes it\n", a->claimed[i].id, why);
    }
    return 0;
}

/* One table claimed and read: into memory, or in place of a stale copy. */
static void adopt_one(const store_claimed *c, const store_table *st) {
    table *had = (table *)tables_loaded(c->id);
    if (had && had->seq == st->seq) { /* this node's already, as stored */
        ownership_arrived(had, c->home);
        return;
    }
    if (had) tables_drop_moved(had); /* a copy from before it was lost: its sockets rejoin */
    char why[512];
    table *t = tables_build(st, why, sizeof why);
    if (!t) {
        fprintf(stderr, "tafel serve: table %s: claimed, not loaded: %s\n", c->id, why);
        return;
    }
    ownership_arrived(t, c->home);
    /* a dead node's, taken with no client here: handed on at once to the
    ** node its clients reach (given or claimed by a join: after a while) */
    if (c->from[0]) t->arrived_ms = 0;
    tables_add(t);
    if (c->from[0])
        fprintf(stderr, "tafel serve: table %s: taken over from node %s (its lease ran out), "
                        "at change %lld\n", t->id, c->from, (long long)t->seq);
    if (!t->over) tables_advance(t);
}

static void give(table *t, const char *to, int force);

static int sweep_failing; /* said once until a sweep succeeds again */

static void adopt_done(store_job *job) {
    adopt_job *a = (adopt_job *)job;
    if (!a->id[0]) sweep_in_flight = 0;
    if (job->rc && (a->id[0] || !sweep_failing))
        fprintf(stderr, "tafel serve: node %s: %s%s\n", node, job->err,
                a->id[0] ? "" : " (said once until a sweep succeeds)");
    if (!a->id[0]) sweep_failing = job->rc != 0;
    for (int i = 0; i < a->n; i++) {
        if (a->found[i] == 1 && acting) adopt_one(&a->claimed[i], &a->loaded[i]);
        if (a->found[i] == 1) store_table_free(&a->loaded[i]);
    }
    table *t = a->give_to[0] && a->n == 1 ? (table *)tables_loaded(a->id) : NULL;
    if (t) {
        t->arrived_ms = 0; /* it came only to be handed on */
        give(t, a->give_to, 1);
    }
    /* a full batch: more may wait, at the next tick */
    if (!a->id[0] && a->n == OWNERSHIP_BATCH) sweep_next_ms = 0;
    free(a);
}

static void adopt_submit(const char *id, const char *give_to) {
    adopt_job *a = calloc(1, sizeof *a);
    if (!a) {
        fprintf(stderr, "tafel serve: node %s: out of memory for a claim\n", node);
        return;
    }
    if (id) snprintf(a->id, sizeof a->id, "%s", id);
    if (give_to) snprintf(a->give_to, sizeof a->give_to, "%s", give_to);
    if (!id) sweep_in_flight = 1; /* cleared when it is done (adopt_done) */
    a->job.run = adopt_write;
    a->job.done = adopt_done;
    /* a given table in its own lane (nothing of it is here to wait for); a
    ** sweep in one of its own, so that a long one (a batch of tables to
    ** read) never holds the lease's renewal back */
    commits_submit_job(id ? a->id : "orphans", &a->job);
}

void tables_adopt(const char *id) {
    if (acting && strlen(id) == STORE_ID_LEN) adopt_submit(id, NULL);
}

/* A join's claim and read, on the pool; the join goes on when done. */
typedef struct fetch_job {
    adopt_job a;
    int claimed; /* 1 claimed, 0 a live other node owns it, -1 no such table, -2 a failure */
    void (*fn)(table *t, int elsewhere, void *ctx);
    void *ctx;
} fetch_job;

static int fetch_write(store *conn, store_job *job, char *err, size_t errsize) {
    fetch_job *f = (fetch_job *)job;
    int rc = adopt_write(conn, job, err, errsize);
    f->claimed = rc >= 0 ? (f->a.n == 1 ? 1 : 0) : strstr(err, "no such table") ? -1 : -2;
    /* claimed, but not read: as a failure, tried again */
    if (f->claimed == 1 && f->a.found[0] != 1) f->claimed = -2;
    return rc;
}

static void fetch_done(store_job *job) {
    fetch_job *f = (fetch_job *)job;
    adopt_job *a = &f->a;
    if (job->rc) fprintf(stderr, "tafel serve: table %s: not claimed: %s\n", a->id, job->err);
    table *t = NULL;
    if (f->claimed == 1 && a->found[0] == 1 && acting) {
        adopt_one(&a->claimed[0], &a->loaded[0]);
        t = (table *)tables_loaded(a->id);
    }
    if (a->n == 1 && a->found[0] == 1) store_table_free(&a->loaded[0]);
    if (f->claimed == 0 && told->ask) told->ask(a->id, a->owner);
    /* a failure (PostgreSQL away, this node's lease lapsed) is passing: the
    ** client is sent on as for a table being taken over, and tries again */
    f->fn(t, f->claimed == 0 || f->claimed == -2, f->ctx);
    free(f);
}

void tables_find_later(const char *id, void (*fn)(table *t, int elsewhere, void *ctx),
                       void *ctx) {
    /* no table has an id of other characters: no claim to try ("../../etc/passwd") */
    if (strlen(id) != STORE_ID_LEN || strspn(id, "0123456789abcdef") != STORE_ID_LEN) {
        fn(NULL, 0, ctx);
        return;
    }
    if (!acting || tables_loaded(id)) {
        int elsewhere = 0;
        table *t = tables_find_here(id, &elsewhere);
        fn(t, elsewhere, ctx);
        return;
    }
    fetch_job *f = calloc(1, sizeof *f);
    if (!f) {
        fn(NULL, 0, ctx);
        return;
    }
    snprintf(f->a.id, sizeof f->a.id, "%s", id);
    f->fn = fn;
    f->ctx = ctx;
    f->a.job.run = fetch_write;
    f->a.job.done = fetch_done;
    commits_submit_job(f->a.id, &f->a.job); /* after anything of it in flight */
}

/* ---- handing a table on ------------------------------------------------- */

/* The hand-over, a change of the table in its lane (after whatever it is
** committing): written, it answers STORE_MOVED, so the table is dropped as
** any table another node took (its sockets closed with 4000, what waited
** told it went), and the node it went to is told to load it. */
typedef struct give_commit {
    commit c;
    char to[STORE_NODE_MAX + 1];
    int handed;
} give_commit;

static int give_write(store *conn, commit *c, char *err, size_t errsize) {
    give_commit *g = (give_commit *)c;
    int rc = store_hand_over(conn, c->id, g->to, err, errsize);
    if (rc) return rc;
    g->handed = 1;
    snprintf(err, errsize, "handed over to node %s", g->to);
    return STORE_MOVED;
}

static void give_apply(commit *c) { (void)c; /* never: the write answers STORE_MOVED */ }

static void give_release(commit *c) {
    give_commit *g = (give_commit *)c;
    if (g->handed && told->given) told->given(c->id, g->to);
    if (!g->handed) {
        c->t->giving = 0;
        if (c->job.rc != STORE_MOVED)
            fprintf(stderr, "tafel serve: table %s: not handed over to node %s: %s\n", c->id,
                    g->to, c->job.err);
    }
    free(g);
}

static const commit_kind give_kind = {give_write, give_apply, give_release};

static void give_run(table *t, void *ctx) {
    give_commit *g = ctx;
    if (!t) { /* it went meanwhile */
        free(g);
        return;
    }
    table_commit(t, &g->c, &give_kind, NULL);
}

static void give(table *t, const char *to, int force) {
    if (!acting || t->giving || !store_node_name_ok(to) || !strcmp(to, node)) return;
    if (!force && now_ms() - t->arrived_ms < OWNERSHIP_STAY_MS) return; /* asked again later */
    give_commit *g = calloc(1, sizeof *g);
    if (!g) return;
    snprintf(g->to, sizeof g->to, "%s", to);
    t->giving = 1;
    if (table_defer(t, give_run, g)) {
        t->giving = 0;
        free(g);
    }
}

void tables_give(const char *id, const char *to) {
    table *t = (table *)tables_loaded(id);
    if (t) give(t, to, 0);
    /* the store says this node has it, and it is not here (a claim whose
    ** answer was lost): claimed again and read, then handed on */
    else if (acting && strlen(id) == STORE_ID_LEN && store_node_name_ok(to) && strcmp(to, node))
        adopt_submit(id, to);
}

void tables_give_home(const char *home) {
    /* with no pool threads a hand-over is done, and t freed, within give */
    for (table *t = tables_first(), *next; t; t = next) {
        next = t->next;
        if (!strcmp(t->home, home)) give(t, home, 1);
    }
}

/* ---- the tick ------------------------------------------------------------- */

void ownership_tick(void) {
    if (!acting) return;
    int64_t now = now_ms();
    if (!lease_in_flight && now >= lease_next_ms) {
        store_job *j = calloc(1, sizeof *j);
        if (j) { /* else tried again at the next tick */
            lease_next_ms = now + every_ms();
            lease_in_flight = 1;
            j->run = lease_write;
            j->done = lease_done;
            commits_submit_job("lease", j); /* a key no table has: a lane of its own */
        }
    }
    /* only while the lease is surely live (renewed within three quarters
    ** of it): a sweep claims nothing for a node whose lease ran out */
    if (!sweep_in_flight && now >= sweep_next_ms &&
        now - renewed_ms < (int64_t)lease_seconds * 750) {
        sweep_next_ms = now + every_ms();
        adopt_submit(NULL, NULL);
    }
    if (!home_said && now - started_ms >= OWNERSHIP_HOME_AFTER_MS) {
        home_said = 1;
        if (told->home) told->home(node);
    }
}
