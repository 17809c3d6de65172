/*
** test_store_owner.c -- who owns a table (src/server/store/store.h, "several
** nodes"): leases judged by the database's clock, claims, hand-overs, batch
** claims of a dead node's tables, and every write of a table fenced on its
** owner and epoch, on the loop's handle and on the pool's threads alike.
**
** The three scenarios of shared/notes/cluster/fence.sh are here with the
** store's own calls: a claim racing a dead owner's change in flight waits
** for it and counts it; the old owner's next change writes nothing and
** says the table moved; a live owner's table is not claimable.  A change
** is kept in flight by a trigger that sleeps (the test's own SQL, on a
** connection of its own): the store has no test hooks.
**
** On PostgreSQL when TAFEL_TEST_PG (a libpq conninfo of a throwaway
** cluster: scripts/test-server.sh --pg) or TAFEL_TEST_PG_URI is set: each
** test on a new database, dropped at the end.  On SQLite always: one node,
** always alive, nothing fenced.
*/
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <libpq-fe.h>

#include "pg_databases.h"
#include "pool.h"
#include "store.h"

#define T1 "00000000000000a1"
#define T2 "00000000000000a2"
#define T3 "00000000000000a3"
#define ORPHANS 40

/* ---- helpers ------------------------------------------------------------- */

/* A call that must answer want, failing the test with the store's message. */
#define IS(want, call)                                                        \
    do {                                                                      \
        char is_err_[512] = "";                                               \
        char *err = is_err_;                                                  \
        size_t errsize = sizeof is_err_;                                      \
        int is_rc_ = (call);                                                  \
        if (is_rc_ != (want))                                                 \
            fail_msg("%s answered %d, not %d: %s", #call, is_rc_, (want), is_err_); \
        (void)err;                                                            \
        (void)errsize;                                                        \
    } while (0)
#define OK(call) IS(0, call)

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts)) {
    }
}

static void says(const char *err, const char *want) {
    if (!strstr(err, want)) fail_msg("message '%s' does not say '%s'", err, want);
}

static char dir[256];           /* SQLite files */

/* The test's own connection to the database at uri, for what the store
** does not do (expiring a lease at once, a trigger that sleeps). */
static PGconn *raw(const char *uri) {
    PGconn *c = PQconnectdb(uri);
    if (PQstatus(c) != CONNECTION_OK) fail_msg("%s: %s", uri, PQerrorMessage(c));
    return c;
}

static void raw_exec(PGconn *c, const char *sql) {
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK)
        fail_msg("%s: %s", sql, PQerrorMessage(c));
    PQclear(r);
}

/* The first column of the first row of sql, as text ("" for none). */
static void raw_value(PGconn *c, const char *sql, char *out, size_t size) {
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) fail_msg("%s: %s", sql, PQerrorMessage(c));
    snprintf(out, size, "%s", PQntuples(r) ? PQgetvalue(r, 0, 0) : "");
    PQclear(r);
}

/* Node's lease has run out, at the database's clock. */
static void expire(PGconn *c, const char *node) {
    char sql[160];
    snprintf(sql, sizeof sql, "UPDATE nodes SET lease_until = clock_timestamp() - interval '1 s'"
                              " WHERE node = '%s'", node);
    raw_exec(c, sql);
}

static store *open_at(const char *path, const char *node) {
    store *db = NULL;
    char err[512] = "";
    if (store_open(path, 0, &db, err, sizeof err)) fail_msg("open %s: %s", path, err);
    if (node && store_act_as(db, node, err, sizeof err)) fail_msg("act as %s: %s", node, err);
    return db;
}

/* A node's handle with a lease of seconds, reachable at "addr-<node>". */
static store *node_at(const char *path, const char *node, double seconds) {
    store *db = open_at(path, node);
    char addr[96];
    snprintf(addr, sizeof addr, "addr-%s", node);
    OK(store_lease_renew(db, addr, seconds, err, errsize));
    return db;
}

static void create(store *db, const char *id, int over) {
    store_table t;
    memset(&t, 0, sizeof t);
    snprintf(t.id, sizeof t.id, "%s", id);
    t.game = "carcassonne(players=2)";
    t.seed = 7;
    t.nseats = 2;
    t.created = 1000;
    snprintf(t.seats[0].spec, sizeof t.seats[0].spec, "human");
    snprintf(t.seats[1].spec, sizeof t.seats[1].spec, "greedy");
    t.seats[0].clock_ms = t.seats[1].clock_ms = -1;
    OK(store_create(db, &t, err, errsize));
    if (over) OK(store_end(db, id, 1, "abandoned", err, errsize));
}

static int64_t seq_of(store *db, const char *id, int *nactions) {
    store_table t;
    char err[512];
    if (store_load(db, id, &t, err, sizeof err) != 1) fail_msg("load %s: %s", id, err);
    int64_t seq = t.seq;
    if (nactions) *nactions = t.nactions;
    store_table_free(&t);
    return seq;
}

/* Appends one action to id at position from (seq from + 1): the store's answer. */
static int move(store *db, const char *id, int from, const char *text, char *err,
                size_t errsize) {
    const char *texts[1] = {text};
    const int seats[1] = {0};
    return store_append(db, id, from, 1, texts, seats, from + 1, 0, NULL, err, errsize);
}

/* ---- SQLite: one node, always alive ------------------------------------ */

static void on_sqlite_one_node_is_always_alive_and_nothing_is_fenced(void **state) {
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/one.db", dir);
    store *admin = open_at(path, NULL);
    create(admin, T1, 0); /* made by a handle acting for nobody */
    assert_null(store_acting_for(admin));
    store *a = node_at(path, "n0", 10);
    assert_string_equal(store_acting_for(a), "n0");
    store_lease leases[4];
    IS(1, store_leases_read(a, leases, 4, err, errsize));
    assert_string_equal(leases[0].node, "n0");
    assert_true(leases[0].alive);
    IS(0, store_leases_read(admin, leases, 4, err, errsize));

    /* writes are not fenced: a table never claimed is written as today */
    OK(move(a, T1, 0, "a0", err, errsize));
    assert_int_equal(store_held_epoch(a, T1), 0);
    store_claim_answer c;
    IS(1, store_claim(a, T1, &c, err, errsize));
    assert_int_equal(c.epoch, 1);
    assert_int_equal(c.seq, 1);
    assert_int_equal(store_held_epoch(a, T1), 1);
    store_claimed orphans[4];
    IS(0, store_claim_orphans(a, 4, orphans, err, errsize));
    char why[256] = "";
    IS(-1, store_hand_over(a, T1, "n1", why, sizeof why));
    says(why, "a SQLite file has one node (n0), not n1");
    OK(store_hand_over(a, T1, NULL, err, errsize));
    assert_int_equal(store_held_epoch(a, T1), 0);
    OK(move(a, T1, 1, "a1", err, errsize));
    IS(-1, store_claim(a, T3, &c, why, sizeof why));
    says(why, "no such table");
    IS(-1, store_claim(admin, T1, &c, why, sizeof why));
    says(why, "acts for no node");
    store_close(a);
    store_close(admin);
}

static void node_names_are_checked(void **state) {
    (void)state;
    assert_true(store_node_name_ok("n0"));
    assert_true(store_node_name_ok("host-1.example.org:8080"));
    assert_true(store_node_name_ok("a_b"));
    char long_name[66];
    memset(long_name, 'a', 65);
    long_name[65] = 0;
    assert_false(store_node_name_ok(long_name));
    long_name[64] = 0;
    assert_true(store_node_name_ok(long_name));
    assert_false(store_node_name_ok(""));
    assert_false(store_node_name_ok(NULL));
    assert_false(store_node_name_ok("a b"));
    assert_false(store_node_name_ok("n'0"));
    assert_false(store_node_name_ok("n\xc3\xa9"));
    store *db = open_at(":memory:", NULL);
    char why[256] = "";
    IS(-1, store_act_as(db, "a b", why, sizeof why));
    says(why, "'a b' is no node name");
    assert_null(store_acting_for(db));
    store_close(db);
}

/* ---- PostgreSQL --------------------------------------------------------- */

#define NEEDS_PG(uri)                           \
    char uri[512];                              \
    if (!pg_conninfo) skip();                   \
    pg_new_database("tafel_o", uri, sizeof uri)

typedef struct slow_move {
    store *db;
    const char *id;
    int from;
    int rc;
    char err[512];
} slow_move;

static void *slow_move_run(void *arg) {
    slow_move *m = arg;
    m->rc = move(m->db, m->id, m->from, "slow", m->err, sizeof m->err);
    return NULL;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* fence.sh 1 and 2: A's change is in flight when A's lease runs out and B
** claims; the claim waits for it and counts it; A's next change writes
** nothing and says the table moved; B's goes on. */
static void a_claim_waits_for_a_change_in_flight_and_fences_the_old_owner(void **state) {
    (void)state;
    NEEDS_PG(uri);
    store *a = node_at(uri, "A", 60), *b = node_at(uri, "B", 60);
    create(a, T1, 0);
    assert_int_equal(store_held_epoch(a, T1), 1);
    OK(move(a, T1, 0, "A move 0", err, errsize));
    PGconn *c = raw(uri);
    raw_exec(c, "CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS"
                " $$ BEGIN PERFORM pg_sleep(1.5); RETURN NEW; END $$;"
                "CREATE TRIGGER slow BEFORE INSERT ON actions FOR EACH ROW"
                " WHEN (NEW.text = 'slow') EXECUTE FUNCTION slow()");
    slow_move m = {.db = a, .id = T1, .from = 1};
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, slow_move_run, &m), 0);
    sleep_ms(400); /* A's change holds the row now */
    expire(c, "A");
    double start = now_s();
    store_claim_answer claim;
    IS(1, store_claim(b, T1, &claim, err, errsize));
    double waited = now_s() - start;
    pthread_join(thread, NULL);
    if (m.rc) fail_msg("A's change in flight: %s", m.err);
    assert_true(waited > 0.6); /* it waited for A's commit */
    assert_int_equal(claim.epoch, 2);
    assert_int_equal(claim.seq, 2); /* A's change in flight is counted */

    char why[512] = "";
    IS(STORE_MOVED, move(a, T1, 2, "A move 2", why, sizeof why));
    says(why, "the table moved: node B owns it at epoch 2 (node A held epoch 1)");
    assert_int_equal(store_held_epoch(a, T1), 0); /* A forgot it */
    int n = 0;
    assert_int_equal(seq_of(b, T1, &n), 2);
    assert_int_equal(n, 2);
    OK(move(b, T1, 2, "B move 2", err, errsize));
    /* A again, not holding it now: refused without a word to the database */
    IS(STORE_MOVED, move(a, T1, 3, "A move 3", why, sizeof why));
    says(why, "node A has not claimed it");
    assert_int_equal(seq_of(b, T1, &n), 3);
    PQfinish(c);
    store_close(a);
    store_close(b);
}

/* fence.sh 3, and A reclaiming its own table. */
static void a_live_owners_table_is_not_claimable(void **state) {
    (void)state;
    NEEDS_PG(uri);
    store *a = node_at(uri, "A", 60), *b = node_at(uri, "B", 60);
    create(a, T1, 0);
    store_claim_answer claim;
    IS(0, store_claim(b, T1, &claim, err, errsize));
    assert_string_equal(claim.owner, "A");
    assert_string_equal(claim.addr, "addr-A");
    assert_int_equal(store_held_epoch(b, T1), 0);
    char why[512] = "";
    IS(STORE_MOVED, move(b, T1, 0, "B move 0", why, sizeof why));
    OK(move(a, T1, 0, "A move 0", err, errsize));
    IS(1, store_claim(a, T1, &claim, err, errsize)); /* its own: the next epoch */
    assert_int_equal(claim.epoch, 2);
    assert_int_equal(claim.seq, 1);
    OK(move(a, T1, 1, "A move 1", err, errsize));
    IS(-1, store_claim(b, T3, &claim, why, sizeof why));
    says(why, "no such table");
    /* a node that never renewed claims nothing */
    store *z = open_at(uri, "Z");
    IS(-1, store_claim(z, T1, &claim, why, sizeof why));
    says(why, "node Z holds no live lease");
    /* a handle acting for nobody (tafel admin) writes as today */
    store *admin = open_at(uri, NULL);
    OK(move(admin, T1, 2, "admin", err, errsize));
    assert_int_equal(seq_of(admin, T1, NULL), 3);
    store_close(admin);
    store_close(z);
    store_close(a);
    store_close(b);
}

static void leases_run_out_by_the_databases_clock(void **state) {
    (void)state;
    NEEDS_PG(uri);
    store *a = node_at(uri, "A", 1), *b = node_at(uri, "B", 60);
    create(a, T1, 0);
    store_lease leases[4];
    IS(2, store_leases_read(b, leases, 4, err, errsize));
    assert_string_equal(leases[0].node, "A");
    assert_string_equal(leases[0].addr, "addr-A");
    assert_true(leases[0].alive);
    assert_true(leases[0].left_ms > 0 && leases[0].left_ms <= 1000);
    assert_true(leases[1].alive && leases[1].left_ms > 50000);
    store_claim_answer claim;
    IS(0, store_claim(b, T1, &claim, err, errsize));
    sleep_ms(1300);
    IS(2, store_leases_read(b, leases, 4, err, errsize));
    assert_false(leases[0].alive);
    assert_true(leases[0].left_ms < 0);
    IS(1, store_claim(b, T1, &claim, err, errsize));
    /* A comes back: renewing makes it alive, but its table stays B's */
    OK(store_lease_renew(a, "addr-A2", 60, err, errsize));
    IS(2, store_leases_read(b, leases, 4, err, errsize));
    assert_true(leases[0].alive);
    assert_string_equal(leases[0].addr, "addr-A2");
    char why[512] = "";
    IS(STORE_MOVED, move(a, T1, 0, "A move 0", why, sizeof why));
    IS(0, store_claim(a, T1, &claim, err, errsize));
    assert_string_equal(claim.owner, "B");
    IS(-1, store_lease_renew(a, "x", 0, why, sizeof why));
    says(why, "a lease of 0 s");
    store_close(a);
    store_close(b);
}

/* The pool's threads write on connections of their own: fenced by the
** epoch the loop's handle claimed. */
typedef struct move_job {
    store_job job;
    const char *id;
    int from;
} move_job;

static int move_job_run(store *db, store_job *job, char *err, size_t errsize) {
    move_job *m = (move_job *)job;
    return move(db, m->id, m->from, "pool", err, errsize);
}

static void move_job_done(store_job *job) { (void)job; }

/* Runs one job on the pool and waits for its done: its rc. */
static int on_pool(store_pool *p, const char *id, int from, char *err, size_t errsize) {
    move_job m = {.job = {.run = move_job_run, .done = move_job_done}, .id = id, .from = from};
    store_pool_submit(p, id, &m.job);
    while (store_pool_pending(p) > 0) { /* the loop, polling: no wake needed */
        sleep_ms(2);
        store_pool_finish(p);
    }
    snprintf(err, errsize, "%s", m.job.err);
    return m.job.rc;
}

static void a_pool_thread_is_fenced_by_the_loops_claim(void **state) {
    (void)state;
    NEEDS_PG(uri);
    store *loop = node_at(uri, "A", 60), *b = node_at(uri, "B", 60);
    create(b, T1, 0); /* B's table */
    store_pool *p = NULL;
    OK(store_pool_start(loop, uri, 2, NULL, &p, err, errsize));
    char why[512] = "";
    IS(STORE_MOVED, on_pool(p, T1, 0, why, sizeof why)); /* not A's */
    says(why, "node A has not claimed it");
    PGconn *c = raw(uri);
    expire(c, "B");
    store_claim_answer claim;
    IS(1, store_claim(loop, T1, &claim, err, errsize)); /* on the loop's handle */
    IS(0, on_pool(p, T1, 0, why, sizeof why));         /* a thread's handle sees it */
    IS(0, on_pool(p, T1, 1, why, sizeof why));
    OK(store_lease_renew(b, "addr-B", 60, err, errsize));
    expire(c, "A");
    IS(1, store_claim(b, T1, &claim, err, errsize));
    IS(STORE_MOVED, on_pool(p, T1, 2, why, sizeof why));
    says(why, "the table moved: node B owns it at epoch 3 (node A held epoch 2)");
    assert_int_equal(store_held_epoch(loop, T1), 0); /* forgotten by every handle of A */
    assert_int_equal(seq_of(b, T1, NULL), 2);
    store_pool_stop(p);
    PQfinish(c);
    store_close(loop);
    store_close(b);
}

typedef struct claimer {
    const char *uri, *node;
    int n;
    char ids[ORPHANS][STORE_ID_LEN + 1];
    char from[ORPHANS][STORE_NODE_MAX + 1];
    int failed;
    char err[512];
} claimer;

static void *claimer_run(void *arg) {
    claimer *c = arg;
    store *db = NULL;
    if (store_open(c->uri, 0, &db, c->err, sizeof c->err) ||
        store_act_as(db, c->node, c->err, sizeof c->err) ||
        store_lease_renew(db, "here", 60, c->err, sizeof c->err)) {
        c->failed = 1;
        store_close(db);
        return NULL;
    }
    for (;;) { /* small batches, so that the two claimers overlap */
        store_claimed batch[3];
        int n = store_claim_orphans(db, 3, batch, c->err, sizeof c->err);
        if (n < 0) c->failed = 1;
        if (n <= 0) break;
        for (int i = 0; i < n && c->n < ORPHANS; i++) {
            snprintf(c->ids[c->n], sizeof c->ids[c->n], "%s", batch[i].id);
            snprintf(c->from[c->n], sizeof c->from[c->n], "%s", batch[i].from);
            if (batch[i].epoch < 2 && strcmp(batch[i].from, "") != 0) c->failed = 2;
            if (store_held_epoch(db, batch[i].id) != batch[i].epoch) c->failed = 3;
            c->n++;
        }
    }
    store_close(db);
    return NULL;
}

static void batch_claims_take_a_dead_nodes_unfinished_tables_once(void **state) {
    (void)state;
    NEEDS_PG(uri);
    store *a = node_at(uri, "A", 60), *d = node_at(uri, "D", 60);
    char id[STORE_ID_LEN + 1];
    for (int i = 0; i < ORPHANS - 2; i++) {
        snprintf(id, sizeof id, "%016x", 0xb000 + i);
        create(a, id, 0);
    }
    create(a, "000000000000f1f1", 1); /* finished: nobody needs to own it */
    create(d, "000000000000d0d0", 0); /* a live node's */
    store *admin = open_at(uri, NULL);
    create(admin, "000000000000e0e0", 0); /* nobody's */
    create(admin, "000000000000e0e1", 0);
    PGconn *c = raw(uri);
    expire(c, "A");
    claimer one = {.uri = uri, .node = "B"}, two = {.uri = uri, .node = "C"};
    pthread_t t1, t2;
    assert_int_equal(pthread_create(&t1, NULL, claimer_run, &one), 0);
    assert_int_equal(pthread_create(&t2, NULL, claimer_run, &two), 0);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    if (one.failed || two.failed) fail_msg("claimers: %d %s / %d %s", one.failed, one.err,
                                           two.failed, two.err);
    assert_int_equal(one.n + two.n, ORPHANS); /* A's 38 and nobody's 2, each once */
    print_message("batch claims: B took %d, C took %d\n", one.n, two.n);
    char got[64];
    raw_value(c, "SELECT count(DISTINCT id) FROM tables WHERE owner IN ('B', 'C')"
                 " AND owner_epoch = CASE WHEN id LIKE '000000000000e0e%' THEN 1 ELSE 2 END",
              got, sizeof got);
    assert_string_equal(got, "40");
    for (int i = 0; i < one.n; i++)
        for (int j = 0; j < two.n; j++)
            if (!strcmp(one.ids[i], two.ids[j])) fail_msg("%s claimed twice", one.ids[i]);
    int nobody = 0;
    for (int i = 0; i < one.n; i++) nobody += !one.from[i][0];
    for (int i = 0; i < two.n; i++) nobody += !two.from[i][0];
    assert_int_equal(nobody, 2);
    /* a dead node's tables keep it as their home; nobody's take their claimer */
    raw_value(c, "SELECT count(*) FROM tables WHERE owner IN ('B', 'C') AND home = 'A'", got,
              sizeof got);
    assert_string_equal(got, "38");
    raw_value(c, "SELECT count(*) FROM tables WHERE id LIKE '000000000000e0e%' AND home = owner",
              got, sizeof got);
    assert_string_equal(got, "2");
    raw_value(c, "SELECT owner || ' ' || owner_epoch FROM tables WHERE id = '000000000000f1f1'",
              got, sizeof got);
    assert_string_equal(got, "A 1");
    raw_value(c, "SELECT owner FROM tables WHERE id = '000000000000d0d0'", got, sizeof got);
    assert_string_equal(got, "D");
    store_claimed none[4];
    IS(0, store_claim_orphans(d, 4, none, err, errsize)); /* nothing left */
    expire(c, "D");
    char why[512] = "";
    IS(-1, store_claim_orphans(d, 4, none, why, sizeof why));
    says(why, "node D holds no live lease");
    PQfinish(c);
    store_close(admin);
    store_close(a);
    store_close(d);
}

static void a_table_is_handed_over_or_released_by_its_owner_only(void **state) {
    (void)state;
    NEEDS_PG(uri);
    store *a = node_at(uri, "A", 60), *b = node_at(uri, "B", 60), *c = node_at(uri, "C", 60);
    create(a, T1, 0);
    create(a, T2, 0);
    char why[512] = "";
    IS(STORE_MOVED, store_hand_over(b, T1, "C", why, sizeof why)); /* not B's */
    says(why, "node B has not claimed it");
    IS(-1, store_hand_over(a, T1, "never", why, sizeof why));
    says(why, "node never has never renewed a lease");
    assert_int_equal(store_held_epoch(a, T1), 1); /* nothing changed */
    OK(store_hand_over(a, T1, "B", err, errsize));
    assert_int_equal(store_held_epoch(a, T1), 0);
    IS(STORE_MOVED, move(a, T1, 0, "A move 0", why, sizeof why));
    store_claim_answer claim;
    IS(0, store_claim(c, T1, &claim, err, errsize)); /* B's now, and B is alive */
    assert_string_equal(claim.owner, "B");
    IS(1, store_claim(b, T1, &claim, err, errsize)); /* B takes it up */
    assert_int_equal(claim.epoch, 3);
    assert_string_equal(claim.home, "B"); /* handed to B: B's clients reach it there */
    OK(move(b, T1, 0, "B move 0", err, errsize));

    /* a release: the next claim takes it at once, A alive or not */
    OK(store_hand_over(a, T2, NULL, err, errsize));
    IS(STORE_MOVED, move(a, T2, 0, "A move 0", why, sizeof why));
    IS(STORE_MOVED, store_hand_over(a, T2, "C", why, sizeof why));
    IS(1, store_claim(c, T2, &claim, err, errsize));
    assert_int_equal(claim.epoch, 3);
    assert_string_equal(claim.home, "A"); /* released: A's home still */
    OK(move(c, T2, 0, "C move 0", err, errsize));
    PGconn *raw_c = raw(uri);
    char got[64];
    raw_value(raw_c, "SELECT coalesce(owner, '-') || ' ' || owner_epoch || ' ' || seq"
                     " FROM tables WHERE id = '" T2 "'", got, sizeof got);
    assert_string_equal(got, "C 3 1");

    /* while its home is dead a table handed on keeps that home (the proxy
    ** sends its clients elsewhere for a while only); once the home lives,
    ** a hand-over moves the home with it */
    create(a, T3, 0);
    expire(raw_c, "A");
    IS(1, store_claim(b, T3, &claim, err, errsize));
    assert_string_equal(claim.home, "A");
    OK(store_hand_over(b, T3, "C", err, errsize));
    IS(1, store_claim(c, T3, &claim, err, errsize));
    assert_string_equal(claim.home, "A");
    OK(store_lease_renew(a, "addr-A", 60, err, errsize));
    OK(store_hand_over(c, T3, "B", err, errsize));
    IS(1, store_claim(b, T3, &claim, err, errsize));
    assert_string_equal(claim.home, "B");
    PQfinish(raw_c);
    store_close(a);
    store_close(b);
    store_close(c);
}

/* Every write of a table, by a node that lost it: refused, nothing written. */
typedef int (*write_fn)(store *db, const char *id, char *err, size_t errsize);

static int w_append(store *db, const char *id, char *err, size_t errsize) {
    return move(db, id, 1, "late", err, errsize);
}
static int w_truncate(store *db, const char *id, char *err, size_t errsize) {
    return store_truncate(db, id, 0, 2, err, errsize);
}
static int w_set_seat(store *db, const char *id, char *err, size_t errsize) {
    store_seat s = {.spec = "random", .clock_ms = -1};
    return store_set_seat(db, id, 1, &s, 2, 0, err, errsize);
}
static int w_end(store *db, const char *id, char *err, size_t errsize) {
    return store_end(db, id, 2, "abandoned", err, errsize);
}
static int w_set_rematch(store *db, const char *id, char *err, size_t errsize) {
    return store_set_rematch(db, id, T3, err, errsize);
}
static int w_set_clocks(store *db, const char *id, char *err, size_t errsize) {
    const int64_t ms[2] = {5000, 6000};
    return store_set_clocks(db, id, 2, ms, 123, err, errsize);
}
static int w_time_out(store *db, const char *id, char *err, size_t errsize) {
    return store_time_out(db, id, 1, 2, err, errsize);
}
static int w_delete(store *db, const char *id, char *err, size_t errsize) {
    return store_delete(db, id, err, errsize);
}
static int w_chat(store *db, const char *id, char *err, size_t errsize) {
    store_chat_line line = {.n = 1, .name = "ann", .seat = 0, .at = 5, .text = "late"};
    return store_chat_add(db, id, &line, err, errsize);
}
static int64_t players[2]; /* every_write_of_a_table_is_refused_after_a_takeover's */

static int w_results(store *db, const char *id, char *err, size_t errsize) {
    store_result r[2] = {{.seat = 0, .player = players[0], .place = 1},
                         {.seat = 1, .player = players[1], .place = 2}};
    return store_results_record(db, id, "carcassonne", 2, r, NULL, NULL, err, errsize);
}

static const struct {
    const char *name;
    write_fn write;
} WRITES[] = {
    {"store_append", w_append},         {"store_truncate", w_truncate},
    {"store_set_seat", w_set_seat},     {"store_end", w_end},
    {"store_set_rematch", w_set_rematch}, {"store_set_clocks", w_set_clocks},
    {"store_time_out", w_time_out},     {"store_delete", w_delete},
    {"store_chat_add", w_chat},         {"store_results_record", w_results},
};
#define NWRITES (int)(sizeof WRITES / sizeof WRITES[0])

/* Everything a write could change, as one text. */
static void snapshot(PGconn *c, const char *id, char *out, size_t size) {
    char sql[1024];
    snprintf(sql, sizeof sql,
             "SELECT coalesce((SELECT row(t.*)::text FROM tables t WHERE id = '%s'), '-')"
             " || coalesce((SELECT string_agg(row(s.*)::text, ';' ORDER BY seat) FROM seats s"
             "  WHERE table_id = '%s'), '-')"
             " || coalesce((SELECT string_agg(row(a.*)::text, ';' ORDER BY position)"
             "  FROM actions a WHERE table_id = '%s'), '-')"
             " || (SELECT count(*) FROM chat WHERE table_id = '%s')"
             " || (SELECT count(*) FROM results WHERE table_id = '%s')", id, id, id, id, id);
    raw_value(c, sql, out, size);
}

static void every_write_of_a_table_is_refused_after_a_takeover(void **state) {
    (void)state;
    NEEDS_PG(uri);
    store *a = node_at(uri, "A", 60), *b = node_at(uri, "B", 60);
    PGconn *c = raw(uri);
    create(a, T3, 0); /* the rematch the rematch write names */
    IS(1, store_player_add(a, "ann", "ann", "account", "x", 1, &players[0], err, errsize));
    IS(1, store_player_add(a, "bob", "bob", "account", "x", 1, &players[1], err, errsize));
    for (int i = 0; i < NWRITES; i++) {
        char id[STORE_ID_LEN + 1];
        snprintf(id, sizeof id, "%016x", 0xc000 + i);
        OK(store_lease_renew(a, "addr-A", 60, err, errsize));
        create(a, id, 0);
        OK(move(a, id, 0, "A move 0", err, errsize));
        /* the write works while A owns the table (then on a fresh table) */
        char before[4096], after[4096], why[512] = "";
        snapshot(c, id, before, sizeof before);
        int rc = WRITES[i].write(a, id, why, sizeof why);
        if (rc < 0 || (rc > 0 && strcmp(WRITES[i].name, "store_results_record")))
            fail_msg("%s by the owner: %d %s", WRITES[i].name, rc, why);
        snapshot(c, id, after, sizeof after);
        if (!strcmp(before, after)) fail_msg("%s by the owner changed nothing", WRITES[i].name);
        snprintf(id, sizeof id, "%016x", 0xd000 + i);
        create(a, id, 0);
        OK(move(a, id, 0, "A move 0", err, errsize));
        expire(c, "A");
        store_claim_answer claim;
        IS(1, store_claim(b, id, &claim, err, errsize));
        snapshot(c, id, before, sizeof before);
        rc = WRITES[i].write(a, id, why, sizeof why);
        if (rc != STORE_MOVED) fail_msg("%s after B took over: %d, not STORE_MOVED: %s",
                                        WRITES[i].name, rc, why);
        says(why, "the table moved: node B owns it at epoch 2");
        snapshot(c, id, after, sizeof after);
        if (strcmp(before, after))
            fail_msg("%s after B took over wrote:\n%s\n%s", WRITES[i].name, before, after);
    }
    PQfinish(c);
    store_close(a);
    store_close(b);
}

int main(void) {
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/tafel-owner-XXXXXX", tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) return 1;
    const char *pg = getenv("TAFEL_TEST_PG");
    if (!pg || !pg[0]) pg = getenv("TAFEL_TEST_PG_URI");
    pg_conninfo = pg && pg[0] ? pg : NULL;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(on_sqlite_one_node_is_always_alive_and_nothing_is_fenced),
        cmocka_unit_test(node_names_are_checked),
        cmocka_unit_test(a_claim_waits_for_a_change_in_flight_and_fences_the_old_owner),
        cmocka_unit_test(a_live_owners_table_is_not_claimable),
        cmocka_unit_test(leases_run_out_by_the_databases_clock),
        cmocka_unit_test(a_pool_thread_is_fenced_by_the_loops_claim),
        cmocka_unit_test(batch_claims_take_a_dead_nodes_unfinished_tables_once),
        cmocka_unit_test(a_table_is_handed_over_or_released_by_its_owner_only),
        cmocka_unit_test(every_write_of_a_table_is_refused_after_a_takeover),
    };
    int failed = cmocka_run_group_tests_name("store: who owns a table", tests, NULL, NULL);
    if (pg_conninfo) pg_drop_databases("tafel_o");
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd)) failed = failed ? failed : 1;
    return failed;
}
