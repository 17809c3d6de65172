/*
** test_store_pool.c -- the store's pool of connections (src/server/store/pool.h):
** one table's changes commit in the order they were submitted while many
** tables commit at once; every job's done is called exactly once, on the
** loop's thread (here the test's), also for the jobs still queued when the
** pool stops; with no threads a job runs and is done before submit returns.
** On SQLite always; on PostgreSQL too when TAFEL_TEST_PG_URI names an empty
** database (scripts/test-server.sh --pg sets it).
*/
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pool.h"
#include "store.h"

#define TABLES 20
#define CHANGES 30

static pthread_mutex_t woken_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t woken = PTHREAD_COND_INITIALIZER;
static int wakes;
static pthread_t loop_thread;

static void wake(void) {
    pthread_mutex_lock(&woken_lock);
    wakes++;
    pthread_cond_signal(&woken);
    pthread_mutex_unlock(&woken_lock);
}

/* The loop: finishes jobs as the pool wakes it, until none is pending. */
static void run_loop(store_pool *p) {
    while (store_pool_pending(p) > 0) {
        pthread_mutex_lock(&woken_lock);
        while (wakes == 0) pthread_cond_wait(&woken, &woken_lock);
        wakes = 0;
        pthread_mutex_unlock(&woken_lock);
        store_pool_finish(p);
    }
}

typedef struct append_job {
    store_job job;
    char id[STORE_ID_LEN + 1];
    int at;       /* the action's position: the change from seq at to at + 1 */
    int done;     /* how often done was called */
    int fail;     /* run fails without touching the store */
    int on_loop;  /* done ran on the loop's thread */
} append_job;

static int append_run(store *db, store_job *job, char *err, size_t errsize) {
    append_job *a = (append_job *)job;
    if (a->fail) {
        snprintf(err, errsize, "storage: refused on purpose (%s)", a->id);
        return -1;
    }
    char text[32];
    snprintf(text, sizeof text, "a%d", a->at);
    const char *texts[1] = {text};
    int seats[1] = {0};
    return store_append(db, a->id, a->at, 1, texts, seats, a->at + 1, 0, NULL, err, errsize);
}

static void append_done(store_job *job) {
    append_job *a = (append_job *)job;
    a->done++;
    a->on_loop = pthread_equal(pthread_self(), loop_thread);
}

static void table_id(int i, char out[STORE_ID_LEN + 1]) {
    snprintf(out, STORE_ID_LEN + 1, "%016x", 0xabc000 + i);
}

static void create_tables(store *db) {
    for (int i = 0; i < TABLES; i++) {
        store_table t;
        memset(&t, 0, sizeof t);
        table_id(i, t.id);
        t.game = "cardcassonne";
        t.seed = (uint64_t)i;
        t.nseats = 2;
        for (int s = 0; s < 2; s++) {
            snprintf(t.seats[s].spec, sizeof t.seats[s].spec, "human");
            t.seats[s].clock_ms = -1;
        }
        t.created = t.updated = 1700000000;
        char err[512];
        int rc = store_create(db, &t, err, sizeof err);
        if (rc) fprintf(stderr, "%s\n", err);
        assert_int_equal(rc, 0);
    }
}

/* Every table holds a0 .. a{CHANGES-1} in order, at seq CHANGES. */
static void check_tables(store *db) {
    for (int i = 0; i < TABLES; i++) {
        char id[STORE_ID_LEN + 1];
        table_id(i, id);
        store_table t;
        char err[512];
        assert_int_equal(store_load(db, id, &t, err, sizeof err), 1);
        assert_int_equal(t.nactions, CHANGES);
        assert_int_equal(t.seq, CHANGES);
        for (int k = 0; k < CHANGES; k++) {
            char want[32];
            snprintf(want, sizeof want, "a%d", k);
            assert_string_equal(t.actions[k], want);
        }
        store_table_free(&t);
    }
}

/* Every table's changes, interleaved, submitted at once; with no threads
** each is done before submit returns.  The jobs: free them. */
static append_job *submit_all(store_pool *p, int threads) {
    append_job *jobs = calloc(TABLES * CHANGES, sizeof *jobs);
    assert_non_null(jobs);
    for (int k = 0; k < CHANGES; k++)
        for (int i = 0; i < TABLES; i++) {
            append_job *a = &jobs[k * TABLES + i];
            a->job.run = append_run;
            a->job.done = append_done;
            table_id(i, a->id);
            a->at = k;
            store_pool_submit(p, a->id, &a->job);
            if (threads == 0) assert_int_equal(a->done, 1);
        }
    return jobs;
}

/* The changes of all tables, interleaved, submitted at once: each table's
** are in order on disk, and each job was done once, on the loop. */
static void changes_in_order(const char *path, int threads) {
    loop_thread = pthread_self();
    store *db = NULL;
    char err[512];
    int rc = store_open(path, 0, &db, err, sizeof err);
    if (rc) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    create_tables(db);
    store_pool *p = NULL;
    rc = store_pool_start(db, path, threads, wake, &p, err, sizeof err);
    if (rc) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    append_job *jobs = submit_all(p, threads);
    run_loop(p);
    assert_int_equal(store_pool_pending(p), 0);
    for (int j = 0; j < TABLES * CHANGES; j++) {
        if (jobs[j].job.rc) fprintf(stderr, "job %d: %s\n", j, jobs[j].job.err);
        assert_int_equal(jobs[j].job.rc, 0);
        assert_int_equal(jobs[j].done, 1);
        assert_true(jobs[j].on_loop);
    }
    store_pool_stop(p);
    check_tables(db);
    free(jobs);
    store_close(db);
}

static char dir[256];

static void sqlite_path(char *out, size_t size, const char *name) {
    snprintf(out, size, "%s/%s", dir, name);
}

static void inline_on_sqlite(void **state) {
    (void)state;
    char path[300];
    sqlite_path(path, sizeof path, "inline.db");
    changes_in_order(path, 0);
}

static void threads_on_sqlite(void **state) {
    (void)state;
    char path[300];
    sqlite_path(path, sizeof path, "threads.db");
    changes_in_order(path, 4);
}

/* A failing job reports its error, and its done is called once like any. */
static void failures_reported(void **state) {
    (void)state;
    loop_thread = pthread_self();
    char path[300], err[512];
    sqlite_path(path, sizeof path, "fail.db");
    store *db = NULL;
    assert_int_equal(store_open(path, 0, &db, err, sizeof err), 0);
    store_pool *p = NULL;
    assert_int_equal(store_pool_start(db, path, 2, wake, &p, err, sizeof err), 0);
    append_job bad = {.job = {.run = append_run, .done = append_done}, .fail = 1};
    append_job missing = {.job = {.run = append_run, .done = append_done}};
    snprintf(bad.id, sizeof bad.id, "00000000000000aa");
    snprintf(missing.id, sizeof missing.id, "00000000000000bb"); /* no such table */
    store_pool_submit(p, bad.id, &bad.job);
    store_pool_submit(p, missing.id, &missing.job);
    run_loop(p);
    assert_int_equal(bad.done, 1);
    assert_int_equal(bad.job.rc, -1);
    assert_non_null(strstr(bad.job.err, "refused on purpose (00000000000000aa)"));
    assert_int_equal(missing.done, 1);
    assert_int_equal(missing.job.rc, -1);
    assert_true(missing.job.err[0] != 0);
    store_pool_stop(p);
    store_close(db);
}

/* Stopping runs what is queued and calls every done, on the caller. */
static void stop_finishes_queued(void **state) {
    (void)state;
    loop_thread = pthread_self();
    char path[300], err[512];
    sqlite_path(path, sizeof path, "stop.db");
    store *db = NULL;
    assert_int_equal(store_open(path, 0, &db, err, sizeof err), 0);
    create_tables(db);
    store_pool *p = NULL;
    assert_int_equal(store_pool_start(db, path, 3, NULL, &p, err, sizeof err), 0);
    append_job *jobs = submit_all(p, 3);
    store_pool_stop(p); /* at once: most jobs are still queued */
    for (int j = 0; j < TABLES * CHANGES; j++) {
        assert_int_equal(jobs[j].done, 1);
        assert_int_equal(jobs[j].job.rc, 0);
        assert_true(jobs[j].on_loop);
    }
    check_tables(db);
    free(jobs);
    store_close(db);
}

/* A pool of more threads than it may have is refused, with the reason. */
static void bad_sizes_refused(void **state) {
    (void)state;
    store_pool *p = (store_pool *)1;
    char err[512];
    assert_int_equal(store_pool_start(NULL, "x.db", STORE_POOL_MAX + 1, NULL, &p, err,
                                      sizeof err), -1);
    assert_null(p);
    assert_non_null(strstr(err, "0 to"));
    char path[300];
    sqlite_path(path, sizeof path, "nodir/none/x.db"); /* a connection that cannot open */
    assert_int_equal(store_pool_start(NULL, path, 2, NULL, &p, err, sizeof err), -1);
    assert_null(p);
    assert_non_null(strstr(err, "the pool's connection 1 of 2"));
}

static void threads_on_postgresql(void **state) {
    (void)state;
    const char *uri = getenv("TAFEL_TEST_PG_URI");
    if (!uri || !uri[0]) skip();
    changes_in_order(uri, 8);
}

int main(void) {
    snprintf(dir, sizeof dir, "%s/tafel-pool-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(inline_on_sqlite),      cmocka_unit_test(threads_on_sqlite),
        cmocka_unit_test(failures_reported),     cmocka_unit_test(stop_finishes_queued),
        cmocka_unit_test(bad_sizes_refused),     cmocka_unit_test(threads_on_postgresql),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd)) failed = failed ? failed : 1;
    return failed;
}
