/*
** test_server_storage.c -- the server's SQLite storage (src/server/store/store.h):
** every field round-trips, a refused or failed call changes nothing, and
** what was committed is there after a close, a reopen, or a kill -9.
**
** Most tests use ":memory:"; those about files work in a directory made
** with mkdtemp and removed at the end.  Failures in the middle of a
** transaction are provoked with triggers added through a second SQLite
** connection, so the store itself needs no test hooks.
**
** With TAFEL_TEST_PG (a libpq conninfo of a throwaway cluster:
** scripts/test-server.sh --pg) the tests on ":memory:" run a second time on
** PostgreSQL, each on a new database, dropped at the end: both backends
** keep one contract.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <libpq-fe.h>
#include <sqlite3.h>

#include "pg_databases.h"
#include "sqlite.h" /* the store's own test: it reaches the connection too */

#define ID_A "3f9c0a5e7d21b604"
#define ID_B "00000000000000b2"
#define ID_C "c0ffee00c0ffee03"
#define ID_D "d00dfeedd00dfee4"
#define ID_MISSING "ffffffffffffffff"

/* ---- helpers ------------------------------------------------------------- */

/* A call that must succeed, failing the test with the store's message. */
#define OK(call)                                                              \
    do {                                                                      \
        char ok_err_[256] = "";                                               \
        char *err = ok_err_;                                                  \
        size_t errsize = sizeof ok_err_;                                      \
        if ((call) != 0) fail_msg("%s failed: %s", #call, ok_err_);           \
        (void)err;                                                            \
        (void)errsize;                                                        \
    } while (0)

/* err must contain want. */
static void says(const char *err, const char *want) {
    if (!strstr(err, want)) fail_msg("message '%s' does not say '%s'", err, want);
}

static store *open_memory(void) {
    store *db = NULL;
    char err[256] = "", path[512] = ":memory:";
    if (pg_conninfo) pg_new_database("tafel_c", path, sizeof path);
    if (store_open(path, 0, &db, err, sizeof err)) fail_msg("open %s: %s", path, err);
    assert_non_null(db);
    return db;
}

/* A table of nseats seats: seat i is "human" with token hash bytes i+1
** when i is even, else the bot "greedy" without a token. */
static store_table table_of(const char *id, int nseats, int64_t created) {
    store_table t;
    memset(&t, 0, sizeof t);
    snprintf(t.id, sizeof t.id, "%s", id);
    t.game = "carcassonne(players=2)";
    t.seed = 42;
    t.nseats = nseats;
    t.created = created;
    for (int i = 0; i < nseats; i++) {
        store_seat *s = &t.seats[i];
        snprintf(s->spec, sizeof s->spec, "%s", i % 2 ? "greedy" : "human");
        s->has_token = i % 2 == 0;
        if (s->has_token) memset(s->token_hash, i + 1, STORE_HASH_LEN);
    }
    return t;
}

/* A table of two seats with its opening change: two chance events. */
static store_table table_opening(const char *id, char *opening[2]) {
    static int chance[] = {-1, -1};
    store_table t = table_of(id, 2, 7);
    t.nactions = 2;
    t.actions = opening;
    t.action_seats = chance;
    t.seq = 1;
    return t;
}

static void create(store *db, const char *id, int nseats, int64_t created) {
    store_table t = table_of(id, nseats, created);
    char err[256] = "";
    if (store_create(db, &t, err, sizeof err)) fail_msg("create %s: %s", id, err);
}

/* Appends n actions of the given texts and seats as change seq. */
static void append(store *db, const char *id, int from, int n, const char *const *texts,
                   const int *seats, int64_t seq, int over) {
    char err[256] = "";
    if (store_append(db, id, from, n, texts, seats, seq, over, NULL, err, sizeof err))
        fail_msg("append to %s: %s", id, err);
}

static store_table load(store *db, const char *id) {
    store_table t;
    char err[256] = "";
    int found = store_load(db, id, &t, err, sizeof err);
    if (found != 1) fail_msg("load %s: %d %s", id, found, err);
    return t;
}

/* The table's actions as "seat:text" joined with '|', for one comparison. */
static void actions_of(const store_table *t, char *out, size_t size) {
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < t->nactions && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%d:%s", i ? "|" : "",
                                 t->action_seats[i], t->actions[i]);
}

/* Loads the table and checks its seq and actions. */
static void expect(store *db, const char *id, int64_t seq, const char *actions) {
    store_table t = load(db, id);
    char got[1024];
    actions_of(&t, got, sizeof got);
    assert_string_equal(got, actions);
    assert_int_equal(t.seq, seq);
    store_table_free(&t);
}

/* A temporary directory for the file tests, and a path inside it.  Made
** by the fixture's setup and removed by its teardown, which cmocka runs
** even when the test fails. */
typedef struct tmpdir {
    char dir[64];
    char db[128];
} tmpdir;

static int tmpdir_setup(void **state) {
    tmpdir *d = calloc(1, sizeof *d);
    if (!d) return -1;
    snprintf(d->dir, sizeof d->dir, "/tmp/tafel-storage-XXXXXX");
    if (!mkdtemp(d->dir)) {
        free(d);
        return -1;
    }
    snprintf(d->db, sizeof d->db, "%s/tafel.db", d->dir);
    *state = d;
    return 0;
}

static int tmpdir_teardown(void **state) {
    tmpdir *d = *state;
    DIR *dir = opendir(d->dir);
    if (!dir) return -1;
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", d->dir, e->d_name);
        unlink(path);
    }
    closedir(dir);
    int rc = rmdir(d->dir);
    free(d);
    return rc;
}

static int file_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

/* SQL run on the file through a connection of its own, not the store's. */
static void raw_exec(const char *path, const char *sql) {
    sqlite3 *raw = NULL;
    assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
    char *msg = NULL;
    if (sqlite3_exec(raw, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("raw '%s': %s", sql, msg ? msg : "?");
    sqlite3_free(msg);
    assert_int_equal(sqlite3_close(raw), SQLITE_OK);
}

/* The first column of the first row of sql, as text. */
static void raw_text(const char *path, const char *sql, char *out, size_t size) {
    sqlite3 *raw = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(raw, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    snprintf(out, size, "%s", (const char *)sqlite3_column_text(st, 0));
    assert_int_equal(sqlite3_finalize(st), SQLITE_OK);
    assert_int_equal(sqlite3_close(raw), SQLITE_OK);
}

static const char *const TEXTS5[] = {"place 0 1 90", "draw K", "follower city N", "draw E",
                                     "pass"};
static const int SEATS5[] = {0, -1, 0, -1, 1};

/* ---- round trips ----------------------------------------------------------- */

static void every_field_of_a_new_table_loads_back(void **state) {
    (void)state;
    store *db = open_memory();
    store_table t = table_of(ID_A, 5, 1700000123);
    t.game = "catan(players=5,expansions=all)";
    t.seed = UINT64_MAX - 6; /* the top bit set: stored as a negative int64 */
    t.seats[3].resigned = 1;
    snprintf(t.seats[4].spec, sizeof t.seats[4].spec, "mcts:ms=500");
    for (int i = 0; i < STORE_HASH_LEN; i++) t.seats[2].token_hash[i] = (uint8_t)(i * 7);
    OK(store_create(db, &t, err, errsize));

    store_table got = load(db, ID_A);
    assert_string_equal(got.id, ID_A);
    assert_string_equal(got.game, t.game);
    assert_true(got.seed == UINT64_MAX - 6);
    assert_int_equal(got.nseats, 5);
    assert_int_equal(got.seq, 0);
    assert_int_equal(got.over, 0);
    assert_int_equal(got.created, 1700000123);
    assert_int_equal(got.updated, 1700000123); /* no change yet */
    assert_int_equal(got.nactions, 0);
    for (int i = 0; i < 5; i++) {
        assert_string_equal(got.seats[i].spec, t.seats[i].spec);
        assert_int_equal(got.seats[i].has_token, t.seats[i].has_token);
        assert_int_equal(got.seats[i].resigned, i == 3);
        if (t.seats[i].has_token)
            assert_memory_equal(got.seats[i].token_hash, t.seats[i].token_hash, STORE_HASH_LEN);
    }
    store_table_free(&got);
    store_table_free(&got); /* freeing twice is harmless: free clears */

    /* The seeds at the sign boundary and zero survive too. */
    const uint64_t seeds[] = {0, (uint64_t)1 << 63, ((uint64_t)1 << 63) - 1, UINT64_MAX};
    const char *ids[] = {ID_B, ID_C, ID_D, "0123456789abcdef"};
    for (int i = 0; i < 4; i++) {
        store_table one = table_of(ids[i], 1, 5);
        one.seed = seeds[i];
        OK(store_create(db, &one, err, errsize));
        got = load(db, ids[i]);
        assert_true(got.seed == seeds[i]);
        assert_int_equal(got.nseats, 1);
        store_table_free(&got);
    }
    store_close(db);
}

/* The opening deal is stored with the table, as its first change. */
static void a_new_table_is_stored_with_its_opening_change(void **state) {
    (void)state;
    store *db = open_memory();
    char *opening[] = {"draw K", "draw E"};
    store_table t = table_opening(ID_A, opening);
    OK(store_create(db, &t, err, errsize));
    expect(db, ID_A, 1, "-1:draw K|-1:draw E");
    char why[256] = "";
    assert_int_equal(store_find_change(db, ID_A, 0, -1, "draw K", why, sizeof why), 1);
    const char *const next[] = {"place 0 1 90"};
    const int seat0[] = {0};
    append(db, ID_A, 2, 1, next, seat0, 2, 0);
    expect(db, ID_A, 2, "-1:draw K|-1:draw E|0:place 0 1 90");
    store_close(db);
}

static void a_missing_table_loads_as_none(void **state) {
    (void)state;
    store *db = open_memory();
    store_table t;
    memset(&t, 0x5a, sizeof t);
    char err[256] = "";
    assert_int_equal(store_load(db, ID_MISSING, &t, err, sizeof err), 0);
    assert_null(t.game);
    assert_null(t.actions);
    assert_int_equal(t.nactions, 0);
    store_table_free(&t);
    store_close(db);
}

static void appended_actions_load_in_order_with_seq_and_over(void **state) {
    (void)state;
    store *db = open_memory();
    create(db, ID_A, 2, 1);
    append(db, ID_A, 0, 2, TEXTS5, SEATS5, 1, 0);
    expect(db, ID_A, 1, "0:place 0 1 90|-1:draw K");
    append(db, ID_A, 2, 3, TEXTS5 + 2, SEATS5 + 2, 2, 1);
    expect(db, ID_A, 2, "0:place 0 1 90|-1:draw K|0:follower city N|-1:draw E|1:pass");
    store_table t = load(db, ID_A);
    assert_int_equal(t.over, 1);
    assert_int_equal(t.nactions, 5);
    store_table_free(&t);
    store_close(db);
}

/* ---- refusals that change nothing -------------------------------------------- */

static void an_append_after_the_wrong_action_is_refused_and_changes_nothing(void **state) {
    (void)state;
    store *db = open_memory();
    create(db, ID_A, 2, 1);
    append(db, ID_A, 0, 2, TEXTS5, SEATS5, 1, 0);
    const char *const one[] = {"pass"};
    const int seat0[] = {0};
    char err[256] = "";

    /* Behind the table (another change came first) and ahead of it. */
    assert_int_equal(store_append(db, ID_A, 1, 1, one, seat0, 2, 0, NULL, err, sizeof err), -1);
    says(err, "storage: appending to table " ID_A ": ");
    says(err, "after action 1, but the table has 2");
    assert_int_equal(store_append(db, ID_A, 3, 1, one, seat0, 2, 1, NULL, err, sizeof err), -1);
    assert_int_equal(store_append(db, ID_A, -1, 1, one, seat0, 2, 1, NULL, err, sizeof err), -1);
    /* No such seat, no actions, no text. */
    const int seat2[] = {2}, seat_low[] = {-2};
    assert_int_equal(store_append(db, ID_A, 2, 1, one, seat2, 2, 1, NULL, err, sizeof err), -1);
    says(err, "no seat 2");
    assert_int_equal(store_append(db, ID_A, 2, 1, one, seat_low, 2, 1, NULL, err, sizeof err), -1);
    assert_int_equal(store_append(db, ID_A, 2, 0, one, seat0, 2, 1, NULL, err, sizeof err), -1);
    assert_int_equal(store_append(db, ID_A, 2, 1, NULL, seat0, 2, 1, NULL, err, sizeof err), -1);
    assert_int_equal(store_append(db, ID_A, 2, 1, one, NULL, 2, 1, NULL, err, sizeof err), -1);
    const char *const null_text[] = {NULL};
    assert_int_equal(store_append(db, ID_A, 2, 1, null_text, seat0, 2, 1,
                                  NULL, err, sizeof err), -1);

    store_table t = load(db, ID_A);
    assert_int_equal(t.seq, 1);
    assert_int_equal(t.over, 0);
    assert_int_equal(t.nactions, 2);
    store_table_free(&t);
    /* The right `from` still works after all those refusals. */
    append(db, ID_A, 2, 1, one, seat0, 2, 0);
    expect(db, ID_A, 2, "0:place 0 1 90|-1:draw K|0:pass");
    store_close(db);
}

static void an_append_to_a_missing_table_is_refused(void **state) {
    (void)state;
    store *db = open_memory();
    create(db, ID_A, 2, 1);
    char err[256] = "";
    assert_int_equal(store_append(db, ID_MISSING, 0, 2, TEXTS5, SEATS5, 1, 0,
                                  NULL, err, sizeof err),
                     -1);
    assert_string_equal(err, "storage: appending to table " ID_MISSING ": no such table");
    char ids[4][STORE_ID_LEN + 1];
    assert_int_equal(store_list(db, 0, ids, 4, err, sizeof err), 1);
    assert_int_equal(store_find_change(db, ID_MISSING, 0, 0, "place 0 1 90", err, sizeof err),
                     0);
    store_close(db);
}

/* ---- undo, seats --------------------------------------------------------------- */

static void truncate_keeps_the_first_actions_and_sets_seq(void **state) {
    (void)state;
    store *db = open_memory();
    create(db, ID_A, 2, 1);
    append(db, ID_A, 0, 5, TEXTS5, SEATS5, 1, 0);
    char err[256] = "";
    assert_int_equal(store_truncate(db, ID_A, 6, 2, err, sizeof err), -1);
    says(err, "keeping 6 actions, but the table has 5");
    assert_int_equal(store_truncate(db, ID_A, -1, 2, err, sizeof err), -1);
    assert_int_equal(store_truncate(db, ID_MISSING, 0, 2, err, sizeof err), -1);
    says(err, "no such table");
    expect(db, ID_A, 1, "0:place 0 1 90|-1:draw K|0:follower city N|-1:draw E|1:pass");

    OK(store_truncate(db, ID_A, 3, 2, err, errsize));
    expect(db, ID_A, 2, "0:place 0 1 90|-1:draw K|0:follower city N");
    OK(store_truncate(db, ID_A, 3, 3, err, errsize)); /* keeping them all */
    expect(db, ID_A, 3, "0:place 0 1 90|-1:draw K|0:follower city N");
    /* Appending continues right after what was kept. */
    append(db, ID_A, 3, 1, TEXTS5 + 4, SEATS5 + 4, 4, 0);
    expect(db, ID_A, 4, "0:place 0 1 90|-1:draw K|0:follower city N|1:pass");
    OK(store_truncate(db, ID_A, 0, 5, err, errsize));
    expect(db, ID_A, 5, "");
    store_close(db);
}

static void set_seat_changes_that_seat_and_the_table_only(void **state) {
    (void)state;
    store *db = open_memory();
    create(db, ID_A, 3, 1);
    store_table before = load(db, ID_A);

    /* Seat 0 hands over to a bot: its token goes, seq and over move. */
    store_seat bot;
    memset(&bot, 0, sizeof bot);
    snprintf(bot.spec, sizeof bot.spec, "hard");
    OK(store_set_seat(db, ID_A, 0, &bot, 7, 0, err, errsize));
    /* Seat 1 gains a token and resigns; the game ends. */
    store_seat resigned;
    memset(&resigned, 0, sizeof resigned);
    snprintf(resigned.spec, sizeof resigned.spec, "human");
    resigned.has_token = 1;
    memset(resigned.token_hash, 0xee, STORE_HASH_LEN);
    resigned.resigned = 1;
    OK(store_set_seat(db, ID_A, 1, &resigned, 8, 1, err, errsize));

    store_table t = load(db, ID_A);
    assert_int_equal(t.seq, 8);
    assert_int_equal(t.over, 1);
    assert_string_equal(t.seats[0].spec, "hard");
    assert_int_equal(t.seats[0].has_token, 0);
    assert_int_equal(t.seats[0].resigned, 0);
    assert_string_equal(t.seats[1].spec, "human");
    assert_int_equal(t.seats[1].has_token, 1);
    assert_memory_equal(t.seats[1].token_hash, resigned.token_hash, STORE_HASH_LEN);
    assert_int_equal(t.seats[1].resigned, 1);
    assert_memory_equal(&t.seats[2], &before.seats[2], sizeof t.seats[2]);
    store_table_free(&t);
    store_table_free(&before);

    char err[256] = "";
    assert_int_equal(store_set_seat(db, ID_A, 3, &bot, 9, 1, err, sizeof err), -1);
    says(err, "storage: setting seat 3 of table " ID_A ": no such seat (the table has 3)");
    assert_int_equal(store_set_seat(db, ID_A, -1, &bot, 9, 1, err, sizeof err), -1);
    assert_int_equal(store_set_seat(db, ID_A, 0, NULL, 9, 1, err, sizeof err), -1);
    assert_int_equal(store_set_seat(db, ID_MISSING, 0, &bot, 9, 1, err, sizeof err), -1);
    store_seat no_spec;
    memset(&no_spec, 0, sizeof no_spec);
    assert_int_equal(store_set_seat(db, ID_A, 0, &no_spec, 9, 1, err, sizeof err), -1);
    t = load(db, ID_A);
    assert_int_equal(t.seq, 8);
    assert_string_equal(t.seats[0].spec, "hard");
    store_table_free(&t);
    store_close(db);
}

/* ---- a resent move ------------------------------------------------------------ */

static void find_change_recognises_the_first_action_of_a_change(void **state) {
    (void)state;
    store *db = open_memory();
    create(db, ID_A, 2, 1);
    /* The client saw seq 0 and sent "place 0 1 90" as seat 0: seq 0 -> 1. */
    append(db, ID_A, 0, 2, TEXTS5, SEATS5, 1, 0);
    /* Then seat 0 at seq 1 (with a chance event), and seat 1 at seq 2. */
    append(db, ID_A, 2, 2, TEXTS5 + 2, SEATS5 + 2, 2, 0);
    append(db, ID_A, 4, 1, TEXTS5 + 4, SEATS5 + 4, 3, 0);
    char err[256] = "";

    assert_int_equal(store_find_change(db, ID_A, 0, 0, "place 0 1 90", err, sizeof err), 1);
    assert_int_equal(store_find_change(db, ID_A, 1, 0, "follower city N", err, sizeof err), 1);
    assert_int_equal(store_find_change(db, ID_A, 2, 1, "pass", err, sizeof err), 1);
    /* Wrong seat, wrong text, a chance event of the change, another seq. */
    assert_int_equal(store_find_change(db, ID_A, 0, 1, "place 0 1 90", err, sizeof err), 0);
    assert_int_equal(store_find_change(db, ID_A, 0, 0, "place 0 1 180", err, sizeof err), 0);
    assert_int_equal(store_find_change(db, ID_A, 0, -1, "draw K", err, sizeof err), 0);
    assert_int_equal(store_find_change(db, ID_A, 1, 0, "place 0 1 90", err, sizeof err), 0);
    assert_int_equal(store_find_change(db, ID_A, 3, 1, "pass", err, sizeof err), 0);
    assert_int_equal(store_find_change(db, ID_A, -1, 0, "place 0 1 90", err, sizeof err), 0);

    /* Undone, the change is gone, and a new change with the same seq is
    ** what is found. */
    OK(store_truncate(db, ID_A, 2, 3, err, errsize));
    assert_int_equal(store_find_change(db, ID_A, 1, 0, "follower city N", err, sizeof err), 0);
    assert_int_equal(store_find_change(db, ID_A, 2, 1, "pass", err, sizeof err), 0);
    const char *const again[] = {"follower road S"};
    const int seat0[] = {0};
    append(db, ID_A, 2, 1, again, seat0, 4, 0);
    assert_int_equal(store_find_change(db, ID_A, 3, 0, "follower road S", err, sizeof err), 1);

    assert_int_equal(store_find_change(db, ID_A, 0, 0, NULL, err, sizeof err), -1);
    assert_int_equal(store_find_change(db, "nothex", 0, 0, "pass", err, sizeof err), -1);
    store_close(db);
}

/* ---- the lobby --------------------------------------------------------------- */

static void list_gives_the_newest_first_and_filters_finished_tables(void **state) {
    (void)state;
    store *db = open_memory();
    create(db, ID_A, 2, 200);
    create(db, ID_B, 2, 50);
    create(db, ID_C, 2, 200); /* the same second as A, created after it */
    create(db, ID_D, 2, 100);
    const char *const one[] = {"resign"};
    const int seat0[] = {0};
    append(db, ID_C, 0, 1, one, seat0, 1, 1); /* C is over */

    char ids[8][STORE_ID_LEN + 1];
    char err[256] = "";
    assert_int_equal(store_list(db, 0, ids, 8, err, sizeof err), 4);
    assert_string_equal(ids[0], ID_C);
    assert_string_equal(ids[1], ID_A);
    assert_string_equal(ids[2], ID_D);
    assert_string_equal(ids[3], ID_B);

    assert_int_equal(store_list(db, 1, ids, 8, err, sizeof err), 3);
    assert_string_equal(ids[0], ID_A);
    assert_string_equal(ids[1], ID_D);
    assert_string_equal(ids[2], ID_B);

    /* At most cap, the newest ones, and nothing written past cap. */
    memset(ids, 'x', sizeof ids);
    assert_int_equal(store_list(db, 0, ids, 2, err, sizeof err), 2);
    assert_string_equal(ids[0], ID_C);
    assert_string_equal(ids[1], ID_A);
    assert_int_equal(ids[2][0], 'x');
    assert_int_equal(store_list(db, 0, ids, 0, err, sizeof err), 0);
    assert_int_equal(store_list(db, 0, NULL, 0, err, sizeof err), 0);
    assert_int_equal(store_list(db, 0, NULL, 3, err, sizeof err), -1);
    assert_int_equal(store_list(db, 0, ids, -1, err, sizeof err), -1);
    store_close(db);

    db = open_memory();
    assert_int_equal(store_list(db, 0, ids, 8, err, sizeof err), 0);
    store_close(db);
}

/* The playing tables newest first; the finished ones latest ended first,
** however old; each with its seats and the time of its latest change. */
static void lobby_lists_playing_tables_newest_first_then_the_latest_ended(void **state) {
    const tmpdir d = *(tmpdir *)*state;
    store *db = NULL;
    OK(store_open(d.db, 0, &db, err, errsize));
    create(db, ID_A, 2, 100);
    create(db, ID_B, 2, 200);
    create(db, ID_C, 3, 300);
    create(db, ID_D, 2, 400);
    const char *const one[] = {"pass"};
    const int seat0[] = {0};
    int64_t before = (int64_t)time(NULL);
    append(db, ID_A, 0, 1, one, seat0, 1, 1);
    append(db, ID_B, 0, 1, one, seat0, 1, 0);
    append(db, ID_C, 0, 1, one, seat0, 1, 1);
    int64_t after = (int64_t)time(NULL);
    /* A ended after C, though made before it */
    raw_exec(d.db, "UPDATE tables SET updated = 5000 WHERE id = '" ID_A "';"
                   "UPDATE tables SET updated = 4000 WHERE id = '" ID_C "'");

    store_table rows[4];
    char err[256] = "";
    assert_int_equal(store_list_lobby(db, 0, 4, rows, err, sizeof err), 2);
    assert_string_equal(rows[0].id, ID_D);
    assert_int_equal(rows[0].updated, 400); /* no change yet: its creation */
    assert_string_equal(rows[1].id, ID_B);
    assert_true(rows[1].updated >= before && rows[1].updated <= after);
    assert_int_equal(rows[1].seq, 1);
    assert_int_equal(rows[1].nseats, 2);
    assert_string_equal(rows[1].seats[1].spec, "greedy");
    assert_int_equal(rows[1].nactions, 0); /* a listing reads no actions */
    assert_string_equal(rows[1].game, "carcassonne(players=2)");
    for (int i = 0; i < 2; i++) store_table_free(&rows[i]);

    assert_int_equal(store_list_lobby(db, 1, 4, rows, err, sizeof err), 2);
    assert_string_equal(rows[0].id, ID_A);
    assert_true(rows[0].over);
    assert_string_equal(rows[1].id, ID_C);
    assert_int_equal(rows[1].nseats, 3);
    for (int i = 0; i < 2; i++) store_table_free(&rows[i]);

    memset(rows, 0, sizeof rows);
    assert_int_equal(store_list_lobby(db, 1, 1, rows, err, sizeof err), 1);
    assert_string_equal(rows[0].id, ID_A);
    assert_null(rows[1].game); /* nothing past cap */
    store_table_free(&rows[0]);
    assert_int_equal(store_list_lobby(db, 1, 0, rows, err, sizeof err), 0);
    assert_int_equal(store_list_lobby(db, 1, 2, NULL, err, sizeof err), -1);
    assert_int_equal(store_list_lobby(db, 1, -1, rows, err, sizeof err), -1);
    assert_int_equal(store_list_lobby(NULL, 1, 2, rows, err, sizeof err), -1);
    store_close(db);
}

/* ---- files ------------------------------------------------------------------------- */

static void a_reopened_file_has_everything_and_its_stamps(void **state) {
    const tmpdir d = *(tmpdir *)*state;
    store *db = NULL;
    OK(store_open(d.db, 0, &db, err, errsize));
    create(db, ID_A, 2, 10);
    create(db, ID_B, 3, 20);
    append(db, ID_A, 0, 5, TEXTS5, SEATS5, 1, 1);
    store_close(db);

    /* The file is in WAL mode, stamped with the schema version. */
    char text[64];
    raw_text(d.db, "PRAGMA journal_mode", text, sizeof text);
    assert_string_equal(text, "wal");
    raw_text(d.db, "PRAGMA user_version", text, sizeof text);
    assert_int_equal(atoi(text), STORE_SCHEMA_VERSION);
    raw_text(d.db, "PRAGMA application_id", text, sizeof text);
    assert_int_not_equal(atoi(text), 0);

    OK(store_open(d.db, 1, &db, err, errsize)); /* durable this time */
    expect(db, ID_A, 1, "0:place 0 1 90|-1:draw K|0:follower city N|-1:draw E|1:pass");
    store_table t = load(db, ID_B);
    assert_int_equal(t.nseats, 3);
    assert_int_equal(t.created, 20);
    store_table_free(&t);
    char ids[4][STORE_ID_LEN + 1];
    char err[256] = "";
    assert_int_equal(store_list(db, 1, ids, 4, err, sizeof err), 1);
    assert_string_equal(ids[0], ID_B);
    /* A second store on the same file sees the first one's commits. */
    store *other = NULL;
    OK(store_open(d.db, 0, &other, err, errsize));
    const char *const one[] = {"pass"};
    const int seat2[] = {2};
    append(other, ID_B, 0, 1, one, seat2, 1, 0);
    expect(db, ID_B, 1, "2:pass");
    store_close(other);
    store_close(db);
}

/* docs/protocol.md: an acknowledged move survives kill -9.  The child
** commits and dies without closing anything; the WAL file it leaves is
** read back on the next open. */
static void a_commit_survives_kill_9(void **state) {
    const tmpdir d = *(tmpdir *)*state;
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        store *db = NULL;
        char err[256];
        store_table t = table_of(ID_A, 2, 1);
        if (store_open(d.db, 0, &db, err, sizeof err) || store_create(db, &t, err, sizeof err) ||
            store_append(db, ID_A, 0, 5, TEXTS5, SEATS5, 1, 0, NULL, err, sizeof err))
            _exit(1);
        raise(SIGKILL);
        _exit(2);
    }
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    char wal[160];
    snprintf(wal, sizeof wal, "%s-wal", d.db);
    assert_true(file_exists(wal));

    store *db = NULL;
    OK(store_open(d.db, 0, &db, err, errsize));
    expect(db, ID_A, 1, "0:place 0 1 90|-1:draw K|0:follower city N|-1:draw E|1:pass");
    store_close(db);
}

static void a_file_of_another_schema_version_is_refused_by_name(void **state) {
    const tmpdir d = *(tmpdir *)*state;
    store *db = NULL;
    OK(store_open(d.db, 0, &db, err, errsize));
    create(db, ID_A, 2, 1);
    store_close(db);
    raw_exec(d.db, "PRAGMA user_version=8");

    char err[512] = "";
    db = (store *)*state; /* any pointer: a failed open must set it to NULL */
    assert_int_equal(store_open(d.db, 0, &db, err, sizeof err), -1);
    assert_null(db);
    says(err, "storage: opening ");
    says(err, d.db);
    says(err, "schema version 8");
    says(err, "version 7");
}

/* The schema of version 2 as tafel wrote it, stamped, with table ID_A
** (created at 1000, 2 seats, one action) and finished table ID_B (created
** at 500); version 1 is the same without seats.forfeit, version 3 has
** tables.updated (each table's creation) and the lobby's indexes. */
static void old_file(const char *path, int version) {
    char sql[3072];
    snprintf(sql, sizeof sql,
             "CREATE TABLE tables (id TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 16),"
             " game TEXT NOT NULL, seed INTEGER NOT NULL, seq INTEGER NOT NULL,"
             " finished INTEGER NOT NULL CHECK (finished IN (0, 1)),"
             " created INTEGER NOT NULL%s) STRICT;"
             "CREATE INDEX tables_by_age ON tables (created);"
             "CREATE TABLE seats (table_id TEXT NOT NULL REFERENCES tables (id),"
             " seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 4), spec TEXT NOT NULL,"
             " token_hash BLOB CHECK (token_hash IS NULL OR length(token_hash) = 32),"
             " resigned INTEGER NOT NULL CHECK (resigned IN (0, 1)),%s"
             " PRIMARY KEY (table_id, seat)) STRICT, WITHOUT ROWID;"
             "CREATE TABLE actions (table_id TEXT NOT NULL REFERENCES tables (id),"
             " position INTEGER NOT NULL CHECK (position >= 0),"
             " seat INTEGER NOT NULL CHECK (seat BETWEEN -1 AND 4), text TEXT NOT NULL,"
             " change_seq INTEGER NOT NULL, PRIMARY KEY (table_id, position))"
             " STRICT, WITHOUT ROWID;"
             "INSERT INTO tables VALUES ('%s', 'carcassonne(players=2)', 42, 1, 0, 1000%s),"
             " ('%s', 'carcassonne(players=2)', 7, 1, 1, 500%s);%s"
             "INSERT INTO seats (table_id, seat, spec, token_hash, resigned) VALUES"
             " ('%s', 0, 'human', NULL, 0), ('%s', 1, 'greedy', NULL, 0),"
             " ('%s', 0, 'human', NULL, 1), ('%s', 1, 'greedy', NULL, 0);"
             "INSERT INTO actions VALUES ('%s', 0, 0, 'pass', 0);"
             "PRAGMA application_id=1952540268; PRAGMA user_version=%d;",
             version >= 3 ? ", updated INTEGER NOT NULL" : "",
             version >= 2 ? " forfeit TEXT," : "", ID_A, version >= 3 ? ", 1000" : "", ID_B,
             version >= 3 ? ", 500" : "",
             version >= 3 ? "CREATE INDEX tables_playing ON tables (finished, created);"
                            "CREATE INDEX tables_ended ON tables (finished, updated);"
                          : "",
             ID_A, ID_A, ID_B, ID_B, ID_A, version);
    raw_exec(path, sql);
}

/* old_file of that version, opened: the store brought it up to date. */
static store *open_old_file(const char *path, int version) {
    old_file(path, version);
    store *db = NULL;
    OK(store_open(path, 0, &db, err, errsize));
    char text[64];
    raw_text(path, "PRAGMA user_version", text, sizeof text);
    assert_int_equal(atoi(text), STORE_SCHEMA_VERSION);
    return db;
}

/* A file of version 3 (no tables.seed_chosen, no tables.end_reason) opens,
** gains both: no seed was chosen, nothing ended early; a table then ends
** as abandoned, and a new one keeps its chosen seed. */
static void a_file_of_version_3_is_upgraded(void **state) {
    const tmpdir d = *(tmpdir *)*state;
    store *db = open_old_file(d.db, 3);
    store_table t = load(db, ID_A);
    assert_int_equal(t.updated, 1000);
    assert_int_equal(t.seed_chosen, 0);
    assert_string_equal(t.end_reason, "");
    store_table_free(&t);
    OK(store_end(db, ID_A, 2, "abandoned", err, errsize));
    t = load(db, ID_A);
    assert_int_equal(t.over, 1);
    assert_int_equal(t.seq, 2);
    assert_string_equal(t.end_reason, "abandoned");
    store_table_free(&t);
    char why[256] = "";
    assert_int_equal(store_end(db, ID_A, 3, "abandoned", why, sizeof why), -1);
    says(why, "over already");

    store_table fresh = {.game = "carcassonne(players=2)", .seed = 1234, .seed_chosen = 1,
                         .nseats = 2, .created = 2000};
    snprintf(fresh.id, sizeof fresh.id, "00000000000000cc");
    snprintf(fresh.seats[0].spec, sizeof fresh.seats[0].spec, "human");
    snprintf(fresh.seats[1].spec, sizeof fresh.seats[1].spec, "random");
    OK(store_create(db, &fresh, err, errsize));
    t = load(db, fresh.id);
    assert_int_equal(t.seed_chosen, 1);
    assert_true(t.seed == 1234);
    store_table_free(&t);
    OK(store_delete(db, fresh.id, err, errsize));
    store_table gone;
    assert_int_equal(store_load(db, fresh.id, &gone, why, sizeof why), 0);
    store_close(db);
}

/* A file of version 2 (no tables.updated) opens, gains the column, with
** each table's creation as its latest change, and lists in the lobby. */
static void a_file_of_version_2_is_upgraded(void **state) {
    const tmpdir d = *(tmpdir *)*state;
    store *db = open_old_file(d.db, 2);
    store_table t = load(db, ID_A);
    assert_int_equal(t.updated, 1000);
    assert_int_equal(t.nactions, 1);
    store_table_free(&t);
    store_table ended[2];
    char err[256] = "";
    assert_int_equal(store_list_lobby(db, 1, 2, ended, err, sizeof err), 1);
    assert_string_equal(ended[0].id, ID_B);
    assert_int_equal(ended[0].updated, 500);
    assert_int_equal(ended[0].seats[0].resigned, 1);
    store_table_free(&ended[0]);
    store_close(db);
}

/* A file of version 1 (no seats.forfeit) opens, gains the column, and
** keeps its tables. */
static void a_file_of_version_1_is_upgraded(void **state) {
    const tmpdir d = *(tmpdir *)*state;
    store *db = open_old_file(d.db, 1);
    store_table t = load(db, ID_A);
    assert_int_equal(t.updated, 1000);
    assert_string_equal(t.seats[1].forfeit, "");
    store_seat seat = t.seats[1];
    store_table_free(&t);
    snprintf(seat.forfeit, sizeof seat.forfeit, "no answer within 500 ms");
    seat.resigned = 1;
    OK(store_set_seat(db, ID_A, 1, &seat, 1, 1, err, errsize));
    t = load(db, ID_A);
    assert_string_equal(t.seats[1].forfeit, "no answer within 500 ms");
    assert_string_equal(t.seats[0].forfeit, "");
    store_table_free(&t);
    store_close(db);
}

/* A file of version 6 (no attempts) opens, gains the table, and keeps its
** tables. */
static void a_file_of_version_6_is_upgraded(void **state) {
    const tmpdir d = *(tmpdir *)*state;
    store *db = NULL;
    OK(store_open(d.db, 0, &db, err, errsize));
    create(db, ID_A, 2, 1);
    store_close(db);
    raw_exec(d.db, "DROP TABLE attempts; PRAGMA user_version=6");

    OK(store_open(d.db, 0, &db, err, errsize));
    char text[64];
    raw_text(d.db, "PRAGMA user_version", text, sizeof text);
    assert_int_equal(atoi(text), 7);
    store_table t = load(db, ID_A);
    assert_int_equal(t.nseats, 2);
    store_table_free(&t);
    double tokens = -1;
    char err[256] = "";
    assert_int_equal(store_attempt_take(db, "pair", "ann\n10.0.0.1", 3, 900000, 1000, 1,
                                        &tokens, err, sizeof err), 1);
    assert_true(tokens == 2);
    store_close(db);
}

/* The attempts' buckets: cap tokens, cap back per window, a take only
** where a token is there, a give, notes that end, and the rows that mean
** nothing (full buckets, past notes) expired. */
static void attempts_are_buckets_refilled_over_their_window(void **state) {
    const tmpdir d = *(tmpdir *)*state;
    store *db = NULL;
    OK(store_open(d.db, 0, &db, err, errsize));
    char err[256] = "";
    double tokens = -1;
    const int64_t t0 = 1700000000000, window = 900000; /* 3 per 15 minutes */
#define TAKE(at, take) store_attempt_take(db, "pair", "ann\n10.0.0.1", 3, window, at, take, \
                                          &tokens, err, sizeof err)
    for (int i = 0; i < 3; i++) {
        assert_int_equal(TAKE(t0, 1), 1);
        assert_true(tokens == 2 - i);
    }
    assert_int_equal(TAKE(t0, 1), 0); /* empty: nothing taken */
    assert_true(tokens == 0);
    assert_int_equal(TAKE(t0 + 150000, 0), 0); /* half a token back */
    assert_true(tokens > 0.49 && tokens < 0.51);
    assert_int_equal(TAKE(t0 + 300000, 1), 1); /* one back, taken */
    assert_true(tokens > -0.001 && tokens < 0.001);
    /* another key, another kind: their own buckets */
    assert_int_equal(store_attempt_take(db, "pair", "bob\n10.0.0.1", 3, window, t0, 0, &tokens,
                                        err, sizeof err), 1);
    assert_true(tokens == 3);
    assert_int_equal(store_attempt_take(db, "name", "ann\n10.0.0.1", 3, window, t0, 0, &tokens,
                                        err, sizeof err), 1);
    OK(store_attempt_give(db, "pair", "ann\n10.0.0.1", 3, window, t0 + 300000, 0, err,
                          errsize));
    assert_int_equal(TAKE(t0 + 300000, 0), 1);
    assert_true(tokens > 0.999 && tokens < 1.001);
    OK(store_attempt_give(db, "pair", "ann\n10.0.0.1", 3, window, t0 + 300000, 1, err,
                          errsize));
    assert_int_equal(TAKE(t0 + 300000, 0), 1);
    assert_true(tokens == 3);
    /* a note, known until its end */
    OK(store_attempt_note(db, "known", "ann\n10.0.0.1", t0, t0 + 1000, err, errsize));
    assert_int_equal(store_attempt_noted(db, "known", "ann\n10.0.0.1", t0 + 999, err,
                                         sizeof err), 1);
    assert_int_equal(store_attempt_noted(db, "known", "ann\n10.0.0.1", t0 + 1000, err,
                                         sizeof err), 0);
    assert_int_equal(store_attempt_noted(db, "known", "bob\n10.0.0.1", t0, err, sizeof err), 0);
    /* one token taken at t0 + 10 min: full again at t0 + 15 min */
    assert_int_equal(TAKE(t0 + 600000, 1), 1);
#undef TAKE
    char text[64];
    raw_text(d.db, "SELECT count(*) FROM attempts", text, sizeof text);
    assert_string_equal(text, "2");
    OK(store_attempts_expire(db, t0 + 600000 + 299999, err, errsize));
    raw_text(d.db, "SELECT count(*) FROM attempts", text, sizeof text);
    assert_string_equal(text, "1");
    OK(store_attempts_expire(db, t0 + 900000, err, errsize));
    raw_text(d.db, "SELECT count(*) FROM attempts", text, sizeof text);
    assert_string_equal(text, "0");
    store_close(db);
}

static void a_foreign_file_is_refused_and_left_alone(void **state) {
    const tmpdir d = *(tmpdir *)*state;
    char err[512] = "";
    store *db = NULL;

    /* Another program's SQLite database: not ours, and not turned to WAL. */
    raw_exec(d.db, "CREATE TABLE notes(x); INSERT INTO notes VALUES (1)");
    assert_int_equal(store_open(d.db, 0, &db, err, sizeof err), -1);
    assert_null(db);
    says(err, d.db);
    says(err, "not a tafel database");
    char text[64];
    raw_text(d.db, "PRAGMA journal_mode", text, sizeof text);
    assert_string_equal(text, "delete");
    raw_text(d.db, "PRAGMA user_version", text, sizeof text);
    assert_string_equal(text, "0");

    /* Not a database at all. */
    char junk[160];
    snprintf(junk, sizeof junk, "%s/junk.db", d.dir);
    FILE *f = fopen(junk, "w");
    assert_non_null(f);
    for (int i = 0; i < 200; i++) fputs("this is not a database, just words. ", f);
    fclose(f);
    assert_int_equal(store_open(junk, 0, &db, err, sizeof err), -1);
    assert_null(db);
    says(err, junk);
}

static void an_unopenable_path_is_an_error_not_a_crash(void **state) {
    const tmpdir d = *(tmpdir *)*state;
    char err[512] = "";
    store *db = NULL;
    assert_int_equal(store_open("/nonexistent-tafel-dir/sub/tafel.db", 0, &db, err, sizeof err),
                     -1);
    assert_null(db);
    says(err, "storage: opening /nonexistent-tafel-dir/sub/tafel.db: ");
    /* A directory, and a path through a regular file. */
    assert_int_equal(store_open(d.dir, 0, &db, err, sizeof err), -1);
    assert_null(db);
    char through[160], file[160];
    snprintf(file, sizeof file, "%s/plain", d.dir);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(through, sizeof through, "%s/plain/tafel.db", d.dir);
    assert_int_equal(store_open(through, 0, &db, err, sizeof err), -1);
    assert_null(db);
    says(err, through);
    assert_int_equal(store_open(NULL, 0, &db, err, sizeof err), -1);
    assert_int_equal(store_open(d.db, 0, NULL, err, sizeof err), -1);
}

/* ---- rollback ------------------------------------------------------------------ */

/* Triggers that make SQLite fail part-way through a change: after some of
** its rows are written, so only a rollback can undo them. */
static const char FAILING_TRIGGERS[] =
    "CREATE TRIGGER refuse_boom BEFORE INSERT ON actions WHEN NEW.text = 'boom'"
    " BEGIN SELECT RAISE(ABORT, 'boom refused'); END;"
    "CREATE TRIGGER refuse_seq_99 BEFORE UPDATE ON tables WHEN NEW.seq = 99"
    " BEGIN SELECT RAISE(ABORT, 'seq 99 refused'); END;"
    "CREATE TRIGGER refuse_boom_seat BEFORE INSERT ON seats WHEN NEW.spec = 'boom'"
    " BEGIN SELECT RAISE(ABORT, 'boom seat refused'); END;";

static void a_change_that_fails_midway_is_rolled_back(void **state) {
    const tmpdir d = *(tmpdir *)*state;
    store *db = NULL;
    OK(store_open(d.db, 0, &db, err, errsize));
    create(db, ID_A, 2, 1);
    append(db, ID_A, 0, 2, TEXTS5, SEATS5, 1, 0);
    raw_exec(d.db, FAILING_TRIGGERS); /* while the store is open */
    const char *const ok_ok_boom[] = {"follower city N", "draw E", "boom"};
    const int seats[] = {0, -1, 0};
    char err[256] = "";

    /* The third insert fails: the first two must go too. */
    assert_int_equal(store_append(db, ID_A, 2, 3, ok_ok_boom, seats, 2, 0,
                                  NULL, err, sizeof err), -1);
    assert_string_equal(err, "storage: appending to table " ID_A ": boom refused");
    expect(db, ID_A, 1, "0:place 0 1 90|-1:draw K");
    /* Every insert passes; setting seq fails last. */
    assert_int_equal(store_append(db, ID_A, 2, 2, ok_ok_boom, seats, 99, 1, NULL, err, sizeof err),
                     -1);
    says(err, "seq 99 refused");
    expect(db, ID_A, 1, "0:place 0 1 90|-1:draw K");
    store_table t = load(db, ID_A);
    assert_int_equal(t.over, 0);
    store_table_free(&t);
    /* The same for an undo and a seat change. */
    assert_int_equal(store_truncate(db, ID_A, 0, 99, err, sizeof err), -1);
    expect(db, ID_A, 1, "0:place 0 1 90|-1:draw K");
    store_seat bot;
    memset(&bot, 0, sizeof bot);
    snprintf(bot.spec, sizeof bot.spec, "random");
    assert_int_equal(store_set_seat(db, ID_A, 0, &bot, 99, 0, err, sizeof err), -1);
    t = load(db, ID_A);
    assert_string_equal(t.seats[0].spec, "human");
    assert_int_equal(t.seats[0].has_token, 1);
    store_table_free(&t);
    /* A table whose second seat fails leaves no table behind. */
    store_table boom = table_of(ID_B, 2, 5);
    snprintf(boom.seats[1].spec, sizeof boom.seats[1].spec, "boom");
    assert_int_equal(store_create(db, &boom, err, sizeof err), -1);
    says(err, "boom seat refused");
    assert_int_equal(store_load(db, ID_B, &t, err, sizeof err), 0);
    /* Nor does a table whose opening deal fails (issue 35, defect 5). */
    char *opening[] = {"draw K", "boom"};
    boom = table_opening(ID_B, opening);
    assert_int_equal(store_create(db, &boom, err, sizeof err), -1);
    says(err, "boom refused");
    assert_int_equal(store_load(db, ID_B, &t, err, sizeof err), 0);

    /* The store is still usable: nothing was left open. */
    append(db, ID_A, 2, 2, ok_ok_boom, seats, 2, 0);
    expect(db, ID_A, 2, "0:place 0 1 90|-1:draw K|0:follower city N|-1:draw E");
    create(db, ID_B, 2, 5);
    store_close(db);
}

/* ---- bad input -------------------------------------------------------------------- */

static void odd_input_is_refused_with_a_message(void **state) {
    (void)state;
    store *db = open_memory();
    char err[256] = "";
    store_table t = table_of(ID_A, 2, 1);
    const char *const one[] = {"pass"};
    const int seat0[] = {0};
    store_seat seat = t.seats[0];
    store_table out;
    char ids[2][STORE_ID_LEN + 1];

    /* No database. */
    assert_int_equal(store_create(NULL, &t, err, sizeof err), -1);
    says(err, "no database");
    assert_int_equal(store_append(NULL, ID_A, 0, 1, one, seat0, 1, 0, NULL, err, sizeof err), -1);
    assert_int_equal(store_truncate(NULL, ID_A, 0, 1, err, sizeof err), -1);
    assert_int_equal(store_set_seat(NULL, ID_A, 0, &seat, 1, 0, err, sizeof err), -1);
    assert_int_equal(store_find_change(NULL, ID_A, 0, 0, "pass", err, sizeof err), -1);
    assert_int_equal(store_load(NULL, ID_A, &out, err, sizeof err), -1);
    assert_int_equal(store_list(NULL, 0, ids, 2, err, sizeof err), -1);
    store_close(NULL);
    store_table_free(NULL);

    /* Tables that cannot be. */
    assert_int_equal(store_create(db, NULL, err, sizeof err), -1);
    t.game = NULL;
    assert_int_equal(store_create(db, &t, err, sizeof err), -1);
    says(err, "no game string");
    t.game = "";
    assert_int_equal(store_create(db, &t, err, sizeof err), -1);
    t = table_of(ID_A, 2, 1);
    const int bad_seats[] = {0, 6, -1, 1000};
    for (int i = 0; i < 4; i++) {
        t.nseats = bad_seats[i];
        assert_int_equal(store_create(db, &t, err, sizeof err), -1);
        says(err, "seats (1 to 5)");
    }
    t = table_of(ID_A, 2, 1);
    t.seats[1].spec[0] = 0;
    assert_int_equal(store_create(db, &t, err, sizeof err), -1);
    memset(t.seats[1].spec, 'a', STORE_SPEC_MAX); /* no NUL inside */
    assert_int_equal(store_create(db, &t, err, sizeof err), -1);
    says(err, "seat 1: spec");
    t = table_of(ID_A, 2, 1);
    t.seq = 3;
    assert_int_equal(store_create(db, &t, err, sizeof err), -1);
    char *opening[] = {"draw K"};
    int nobody[] = {2};
    t = table_of(ID_A, 2, 1);
    t.nactions = 1;
    assert_int_equal(store_create(db, &t, err, sizeof err), -1); /* seq 0, or no texts */
    t.seq = 1;
    assert_int_equal(store_create(db, &t, err, sizeof err), -1);
    t.actions = opening;
    t.action_seats = nobody;
    assert_int_equal(store_create(db, &t, err, sizeof err), -1);
    says(err, "opening action 0");

    /* Ids that are not 16 hex digits, in every call. */
    const char *bad_ids[] = {NULL, "", "3f9c0a5e7d21b60", "3f9c0a5e7d21b6045",
                             "3f9c0a5e7d21b60g", "3f9c0a5e 7d21b60", "'; DROP TABLE tables; --"};
    for (int i = 0; i < 7; i++) {
        const char *id = bad_ids[i];
        assert_int_equal(store_append(db, id, 0, 1, one, seat0, 1, 0, NULL, err, sizeof err), -1);
        says(err, "a table id is 16 hex digits");
        assert_int_equal(store_truncate(db, id, 0, 1, err, sizeof err), -1);
        assert_int_equal(store_set_seat(db, id, 0, &seat, 1, 0, err, sizeof err), -1);
        assert_int_equal(store_find_change(db, id, 0, 0, "pass", err, sizeof err), -1);
        assert_int_equal(store_load(db, id, &out, err, sizeof err), -1);
        assert_null(out.game);
    }
    assert_int_equal(store_load(db, ID_A, NULL, err, sizeof err), -1);
    /* store_table.id holds at most 16 characters: short or not hex. */
    const char *bad_table_ids[] = {"", "3f9c0a5e7d21b60", "3f9c0a5e7d21b60g", "3f9c0a5e-7d21b60"};
    for (int i = 0; i < 4; i++) {
        t = table_of(bad_table_ids[i], 2, 1);
        assert_int_equal(store_create(db, &t, err, sizeof err), -1);
        says(err, "a table id is 16 hex digits");
    }

    /* The same id twice. */
    create(db, ID_A, 2, 1);
    t = table_of(ID_A, 3, 2);
    assert_int_equal(store_create(db, &t, err, sizeof err), -1);
    says(err, "exists");
    t = load(db, ID_A);
    assert_int_equal(t.nseats, 2);
    store_table_free(&t);
    store_close(db);
}

static void messages_fit_any_buffer(void **state) {
    (void)state;
    store *db = open_memory();
    char small[12];
    memset(small, '#', sizeof small);
    /* Only 8 bytes are the store's; the rest must stay untouched. */
    assert_int_equal(store_load(db, "bad", NULL, small, 8), -1);
    assert_int_equal(strlen(small), 7);
    assert_memory_equal(small, "storage", 7);
    for (int i = 8; i < 12; i++) assert_int_equal(small[i], '#');
    char one = 'x';
    assert_int_equal(store_truncate(db, ID_MISSING, 0, 1, &one, 1), -1);
    assert_int_equal(one, 0);
    /* No buffer at all. */
    assert_int_equal(store_truncate(db, ID_MISSING, 0, 1, NULL, 0), -1);
    assert_int_equal(store_truncate(db, ID_MISSING, 0, 1, NULL, 100), -1);
    store *none = NULL;
    assert_int_equal(store_open("/nonexistent-tafel-dir/x.db", 0, &none, NULL, 0), -1);
    /* An id too long to show in full is shortened, not overflowed. */
    char err[256] = "";
    char long_id[4000];
    memset(long_id, 'z', sizeof long_id - 1);
    long_id[sizeof long_id - 1] = 0;
    assert_int_equal(store_truncate(db, long_id, 0, 1, err, sizeof err), -1);
    says(err, "zzz...: a table id is 16 hex digits");
    store_close(db);
}

/* ---- players and logins (store_players.c) ---------------------------------- */

static const uint8_t HASH_1[STORE_HASH_LEN] = {1}, HASH_2[STORE_HASH_LEN] = {2},
                     HASH_3[STORE_HASH_LEN] = {3};

/* Adds a player that must be new: its id. */
static int64_t add_player(store *db, const char *name, const char *key, const char *kind,
                          const char *password, int64_t now) {
    char err[256] = "";
    int64_t id = 0;
    int added = store_player_add(db, name, key, kind, password, now, &id, err, sizeof err);
    if (added != 1) fail_msg("adding %s: %d %s", name, added, err);
    assert_true(id > 0);
    return id;
}

static void players_are_found_by_key_or_id_and_guests_never_by_name(void **state) {
    (void)state;
    store *db = open_memory();
    char err[256] = "", password[STORE_PASSWORD_MAX];
    int64_t anna = add_player(db, "Anna", "anna", "account", "$argon2id$anna", 10);
    int64_t easy = add_player(db, "easy", "easy", "bot", NULL, 11);
    int64_t guest = add_player(db, "Guest 1234", "guest 1234", "guest", NULL, 12);
    /* guests share names with each other, never with an account or a bot */
    add_player(db, "Guest 1234", "guest 1234", "guest", NULL, 13);
    int64_t id = 0;
    assert_int_equal(store_player_add(db, "ANNA", "anna", "account", "x", 14, &id, err, sizeof err),
                     0);

    store_player p;
    assert_int_equal(store_player_by_key(db, "anna", &p, err, sizeof err), 1);
    assert_int_equal(p.id, anna);
    assert_string_equal(p.kind, "account");
    assert_string_equal(p.name, "Anna");
    assert_int_equal(store_player_by_key(db, "easy", &p, err, sizeof err), 1);
    assert_int_equal(p.id, easy);
    assert_string_equal(p.kind, "bot");
    assert_int_equal(store_player_by_key(db, "guest 1234", &p, err, sizeof err), 0);
    assert_int_equal(store_player_get(db, guest, &p, err, sizeof err), 1);
    assert_string_equal(p.kind, "guest");
    assert_int_equal(store_player_get(db, 9999, &p, err, sizeof err), 0);

    assert_int_equal(store_account_by_key(db, "anna", &p, password, sizeof password, err,
                                          sizeof err), 1);
    assert_string_equal(password, "$argon2id$anna");
    assert_int_equal(p.disabled, 0);
    /* a stored hash that does not fit is none, not a prefix that could verify */
    char small[8];
    assert_int_equal(store_account_by_key(db, "anna", &p, small, sizeof small, err, sizeof err),
                     1);
    assert_string_equal(small, "");
    assert_int_equal(store_account_by_key(db, "easy", &p, NULL, 0, err, sizeof err), 0);

    /* a guest becomes an account; not under a taken name, not when gone */
    assert_int_equal(store_guest_make_account(db, guest, "Anna", "anna", "pw", 20, err,
                                              sizeof err), 0);
    assert_int_equal(store_guest_make_account(db, guest, "Bert", "bert", "pw", 20, err,
                                              sizeof err), 1);
    assert_int_equal(store_player_by_key(db, "bert", &p, err, sizeof err), 1);
    assert_int_equal(p.id, guest);
    assert_string_equal(p.kind, "account");
    assert_int_equal(store_guest_make_account(db, guest, "Cora", "cora", "pw", 21, err,
                                              sizeof err), 2);
    assert_int_equal(store_player_by_key(db, "cora", &p, err, sizeof err), 0);

    OK(store_player_set_password(db, anna, "$argon2id$new", 0, err, errsize));
    assert_int_equal(store_account_by_key(db, "anna", &p, password, sizeof password, err,
                                          sizeof err), 1);
    assert_string_equal(password, "$argon2id$new");
    OK(store_player_set_disabled(db, anna, 1, err, errsize));
    assert_int_equal(store_player_by_key(db, "anna", &p, err, sizeof err), 1);
    assert_int_equal(p.disabled, 1);

    store_player_row *rows = NULL;
    int n = store_players_list(db, &rows, err, sizeof err);
    assert_int_equal(n, 4);
    /* by kind, then name key: accounts, bots, guests */
    assert_string_equal(rows[0].player.name, "Anna");
    assert_int_equal(rows[0].player.disabled, 1);
    assert_int_equal(rows[0].created, 10);
    assert_string_equal(rows[1].player.name, "Bert");
    assert_string_equal(rows[2].player.kind, "bot");
    assert_string_equal(rows[3].player.kind, "guest");
    assert_int_equal(rows[3].games, 0);
    store_player_rows_free(rows);
    store_close(db);
}

static void logins_are_found_used_ended_and_checked(void **state) {
    (void)state;
    store *db = open_memory();
    char err[256] = "";
    int64_t anna = add_player(db, "Anna", "anna", "account", "pw", 10);
    int64_t bert = add_player(db, "Bert", "bert", "account", "pw", 10);
    OK(store_login_add(db, HASH_1, anna, 100, err, errsize));
    OK(store_login_add(db, HASH_2, anna, 200, err, errsize));
    OK(store_login_add(db, HASH_3, bert, 300, err, errsize));

    store_player p;
    int64_t used = 0;
    assert_int_equal(store_login_find(db, HASH_1, &p, &used, err, sizeof err), 1);
    assert_int_equal(p.id, anna);
    assert_int_equal(used, 100);
    OK(store_login_used(db, HASH_1, anna, 5000, err, errsize));
    assert_int_equal(store_login_find(db, HASH_1, &p, &used, err, sizeof err), 1);
    assert_int_equal(used, 5000);
    store_player_row *rows = NULL;
    assert_int_equal(store_players_list(db, &rows, err, sizeof err), 2);
    assert_int_equal(rows[0].seen, 5000); /* the login's use is the player's */
    store_player_rows_free(rows);

    /* every login of anna's but HASH_1 */
    OK(store_logins_delete(db, anna, HASH_1, err, errsize));
    assert_int_equal(store_login_find(db, HASH_2, &p, &used, err, sizeof err), 0);
    assert_int_equal(store_login_find(db, HASH_1, &p, &used, err, sizeof err), 1);

    /* a live one, another's hash, a player gone, a disabled player */
    store_login_state asked[4];
    memset(asked, 0, sizeof asked);
    memcpy(asked[0].hash, HASH_1, STORE_HASH_LEN);
    asked[0].player = anna;
    memcpy(asked[1].hash, HASH_3, STORE_HASH_LEN);
    asked[1].player = anna;
    memcpy(asked[2].hash, HASH_1, STORE_HASH_LEN);
    asked[2].player = 9999;
    memcpy(asked[3].hash, HASH_3, STORE_HASH_LEN);
    asked[3].player = bert;
    OK(store_player_set_disabled(db, bert, 1, err, errsize));
    OK(store_logins_read(db, asked, 4, err, errsize));
    assert_true(asked[0].player_found && asked[0].login_found && !asked[0].disabled);
    assert_int_equal(asked[0].used, 5000);
    assert_true(asked[1].player_found && !asked[1].login_found);
    assert_false(asked[2].player_found);
    /* disabling ended bert's login with it */
    assert_true(asked[3].player_found && asked[3].disabled && !asked[3].login_found);

    OK(store_login_add(db, HASH_2, anna, 200, err, errsize));
    OK(store_logins_expire(db, 1000, err, errsize));
    assert_int_equal(store_login_find(db, HASH_2, &p, &used, err, sizeof err), 0);
    assert_int_equal(store_login_find(db, HASH_1, &p, &used, err, sizeof err), 1);
    OK(store_login_delete(db, HASH_1, err, errsize));
    assert_int_equal(store_login_find(db, HASH_1, &p, &used, err, sizeof err), 0);
    store_close(db);
}

static void only_unused_guests_nothing_refers_to_are_deleted(void **state) {
    (void)state;
    store *db = open_memory();
    char err[256] = "";
    int64_t old1 = add_player(db, "Guest 1", "guest 1", "guest", NULL, 10);
    int64_t old2 = add_player(db, "Guest 2", "guest 2", "guest", NULL, 10);
    int64_t seated = add_player(db, "Guest 3", "guest 3", "guest", NULL, 10);
    int64_t recent = add_player(db, "Guest 4", "guest 4", "guest", NULL, 500);
    int64_t account = add_player(db, "Anna", "anna", "account", "pw", 10);
    OK(store_login_add(db, HASH_1, old1, 10, err, errsize));
    store_table t = table_of(ID_A, 2, 1);
    t.seats[0].player = seated;
    OK(store_create(db, &t, err, errsize));

    assert_int_equal(store_guests_delete(db, 100, 1, err, sizeof err), 1); /* at most max */
    assert_int_equal(store_guests_delete(db, 100, 10, err, sizeof err), 1);
    assert_int_equal(store_guests_delete(db, 100, 10, err, sizeof err), 0);
    store_player p;
    int64_t used;
    assert_int_equal(store_player_get(db, old1, &p, err, sizeof err), 0);
    assert_int_equal(store_player_get(db, old2, &p, err, sizeof err), 0);
    assert_int_equal(store_login_find(db, HASH_1, &p, &used, err, sizeof err), 0);
    assert_int_equal(store_player_get(db, seated, &p, err, sizeof err), 1);
    assert_int_equal(store_player_get(db, recent, &p, err, sizeof err), 1);
    assert_int_equal(store_player_get(db, account, &p, err, sizeof err), 1);
    store_close(db);
}

/* Disabling a player and ending its logins, or an operator's new password
** and the logins ended, are one change: when the logins cannot be ended,
** the player is as before. */
static void a_players_change_and_its_logins_end_together(void **state) {
    const tmpdir d = *(tmpdir *)*state;
    store *db = NULL;
    OK(store_open(d.db, 0, &db, err, errsize));
    int64_t anna = add_player(db, "Anna", "anna", "account", "old", 10);
    OK(store_login_add(db, HASH_1, anna, 10, err, errsize));
    raw_exec(d.db, "CREATE TRIGGER keep_logins BEFORE DELETE ON logins"
                   " BEGIN SELECT RAISE(ABORT, 'logins kept'); END;");
    char err[256] = "", password[STORE_PASSWORD_MAX];
    assert_int_equal(store_player_set_disabled(db, anna, 1, err, sizeof err), -1);
    says(err, "logins kept");
    assert_int_equal(store_player_set_password(db, anna, "new", 1, err, sizeof err), -1);
    says(err, "logins kept");
    store_player p;
    assert_int_equal(store_account_by_key(db, "anna", &p, password, sizeof password, err,
                                          sizeof err), 1);
    assert_int_equal(p.disabled, 0);
    assert_string_equal(password, "old");
    /* without the logins to end, the password alone changes */
    OK(store_player_set_password(db, anna, "new", 0, err, errsize));
    assert_int_equal(store_account_by_key(db, "anna", &p, password, sizeof password, err,
                                          sizeof err), 1);
    assert_string_equal(password, "new");
    store_close(db);
}

/* tafel admin's open: nothing created, nothing foreign touched. */
static void an_existing_database_is_opened_and_nothing_else(void **state) {
    const tmpdir d = *(tmpdir *)*state;
    char err[512] = "";
    store *db = NULL;
    assert_int_equal(store_open_existing(d.db, &db, err, sizeof err), -1);
    assert_null(db);
    says(err, "tafel.db: No such file or directory");
    assert_false(file_exists(d.db));

    FILE *f = fopen(d.db, "w"); /* empty: store_open would make it a database */
    assert_non_null(f);
    fclose(f);
    assert_int_equal(store_open_existing(d.db, &db, err, sizeof err), -1);
    says(err, "not a tafel database");
    struct stat st;
    assert_int_equal(stat(d.db, &st), 0);
    assert_int_equal(st.st_size, 0);

    f = fopen(d.db, "w");
    assert_non_null(f);
    for (int i = 0; i < 200; i++) fputs("not a database. ", f);
    fclose(f);
    assert_int_equal(store_open_existing(d.db, &db, err, sizeof err), -1);
    says(err, "not a tafel database");
    unlink(d.db);

    OK(store_open(d.db, 0, &db, err, errsize));
    create(db, ID_A, 2, 1);
    store_close(db);
    OK(store_open_existing(d.db, &db, err, errsize));
    expect(db, ID_A, 0, "");
    store_close(db);
}

/* close-table's guard: another process with the file open is seen, our
** own connection is not.  The child opens first: a SQLite connection
** must not cross a fork (the child would share the parent's locks). */
static void another_process_holding_the_database_is_seen(void **state) {
    const tmpdir d = *(tmpdir *)*state;
    store *db = NULL;
    int opened[2], done[2];
    assert_int_equal(pipe(opened), 0);
    assert_int_equal(pipe(done), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        store *other = NULL;
        char err[256], byte = 1;
        if (store_open(d.db, 0, &other, err, sizeof err)) _exit(1);
        if (write(opened[1], &byte, 1) != 1 || read(done[0], &byte, 1) < 0) _exit(2);
        store_close(other);
        _exit(0);
    }
    char byte = 0;
    assert_int_equal(read(opened[0], &byte, 1), 1);
    OK(store_open(d.db, 0, &db, err, errsize));
    int held = store_held_elsewhere(db);
    assert_int_equal(write(done[1], &byte, 1), 1);
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    close(opened[0]), close(opened[1]), close(done[0]), close(done[1]);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_int_equal(held, 1);
    assert_int_equal(store_held_elsewhere(db), 0);
    assert_int_equal(store_held_elsewhere(NULL), 0);
    store_close(db);
}

/* ---- results and ratings (store_ratings.c) ------------------------------- */

/* Two accounts, Ann (1) and Bob (2), and tables ID_A then ID_B to rate. */
static store *open_club(void) {
    store *db = open_memory();
    create(db, ID_A, 2, 7);
    create(db, ID_B, 2, 7);
    /* the first two players of a new database: ids 1 and 2 */
    assert_int_equal(add_player(db, "Ann", "ann", "account", "x", 100), 1);
    assert_int_equal(add_player(db, "Bob", "bob", "account", "x", 100), 2);
    return db;
}

/* A rating rule the test can follow: the winner gains 10 per place it is
** ahead, the loser loses as much; the befores it saw are kept. */
typedef struct rate_seen {
    int calls;
    double before[2];
    int refuse;
} rate_seen;

static int rate_by_place(void *arg, int n, store_result *r) {
    rate_seen *seen = arg;
    seen->calls++;
    for (int i = 0; i < n; i++) {
        seen->before[i] = r[i].before.rating;
        r[i].after = r[i].before;
        r[i].after.rating += r[i].place == 1 ? 10 : -10;
        r[i].after.rd = r[i].before.rd - 50;
        r[i].rated = 1;
    }
    return seen->refuse ? -1 : 0;
}

/* Ann beats Bob at table id. */
static int record(store *db, const char *id, rate_seen *seen, char *err, size_t errsize) {
    store_result r[2] = {
        {.seat = 0, .player = 1, .place = 1, .score = 30, .before = {1500, 350, 0.06}},
        {.seat = 1, .player = 2, .place = 2, .score = 12, .before = {1500, 350, 0.06}},
    };
    return store_results_record(db, id, "carcassonne", 2, r, rate_by_place, seen, err, errsize);
}

static void results_and_ratings_are_one_call_read_before_and_written_once(void **state) {
    (void)state;
    store *db = open_club();
    rate_seen seen = {0};
    char err[256] = "";
    assert_int_equal(record(db, ID_A, &seen, err, sizeof err), 1);
    assert_int_equal(seen.calls, 1);
    assert_true(seen.before[0] == 1500 && seen.before[1] == 1500); /* new players' */
    store_rating g;
    assert_int_equal(store_rating_read(db, 1, "carcassonne", &g, err, sizeof err), 1);
    assert_true(g.rating == 1510 && g.rd == 300 && g.volatility == 0.06);
    assert_int_equal(store_rating_read(db, 1, "cardcassonne", &g, err, sizeof err), 0);
    /* the same table's end seen again (after a restart) writes nothing */
    assert_int_equal(record(db, ID_A, &seen, err, sizeof err), 0);
    assert_int_equal(seen.calls, 1);
    /* the next table starts from the ratings stored */
    assert_int_equal(record(db, ID_B, &seen, err, sizeof err), 1);
    assert_true(seen.before[0] == 1510 && seen.before[1] == 1490);
    store_standing *top;
    assert_int_equal(store_leaderboard_read(db, "carcassonne", 10, &top, err, sizeof err), 2);
    assert_string_equal(top[0].name, "Ann");
    assert_string_equal(top[0].kind, "account");
    assert_true(top[0].rating == 1520 && top[0].games == 2 && top[1].rating == 1480);
    free(top);
    store_profile p;
    OK(store_profile_read(db, 2, 0, 10, 10, &p, err, errsize));
    assert_int_equal(p.since, 100);
    assert_int_equal(p.ngames, 1);
    assert_true(p.games[0].played == 2 && p.games[0].won == 0 && p.games[0].lost == 2);
    assert_int_equal(p.nratings, 1);
    assert_int_equal(p.ratings[0].nhistory, 2); /* oldest first: A, then B made later */
    assert_string_equal(p.ratings[0].history[0].table_id, ID_A);
    assert_true(p.ratings[0].history[1].rating == 1480);
    assert_int_equal(p.nresults, 2); /* newest first */
    assert_string_equal(p.results[0].table_id, ID_B);
    assert_true(p.results[0].rated && p.results[0].rating_before == 1490 &&
                p.results[0].has_score && p.results[0].score == 12 && !p.results[0].hidden);
    assert_int_equal(p.results[0].players, 2);
    assert_int_equal(p.results[0].nopponents, 1);
    assert_string_equal(p.results[0].opponents[0].name, "Ann");
    store_profile_free(&p);
    /* only 1 row with a limit of 1 */
    OK(store_profile_read(db, 2, 0, 1, 1, &p, err, errsize));
    assert_true(p.nresults == 1 && p.ratings[0].nhistory == 1);
    assert_string_equal(p.ratings[0].history[0].table_id, ID_B);
    store_profile_free(&p);
    store_close(db);
}

static void a_refused_rating_stores_no_result(void **state) {
    (void)state;
    store *db = open_club();
    rate_seen seen = {.refuse = 1};
    char err[256] = "";
    assert_int_equal(record(db, ID_A, &seen, err, sizeof err), -1);
    says(err, "recording the results of table " ID_A);
    store_rating g;
    assert_int_equal(store_rating_read(db, 1, "carcassonne", &g, err, sizeof err), 0);
    store_profile p;
    OK(store_profile_read(db, 1, 0, 10, 10, &p, err, errsize));
    assert_int_equal(p.nresults, 0);
    store_profile_free(&p);
    /* unrated: results without ratings */
    store_result r = {.seat = 0, .player = 1, .place = 1, .score = 3};
    assert_int_equal(store_results_record(db, ID_A, "carcassonne", 1, &r, NULL, NULL, err,
                                          sizeof err), 1);
    OK(store_profile_read(db, 1, 0, 10, 10, &p, err, errsize));
    assert_true(p.nresults == 1 && !p.results[0].rated && p.nratings == 0);
    store_profile_free(&p);
    store_close(db);
}

/* The replay's rule for the test: everyone back to 1500 with the results
** left counted; refuses when asked to. */
typedef struct rerate_seen {
    int calls, results, refuse;
} rerate_seen;

static int rerate_to_new(void *arg, store_rerate_game *g, char *err, size_t errsize) {
    rerate_seen *seen = arg;
    seen->calls++;
    seen->results = g->nresults;
    for (int i = 0; i < g->nplayers; i++) {
        g->players[i].now = (store_rating){1500, 350, 0.06};
        g->players[i].games = 0;
    }
    if (seen->refuse) snprintf(err, errsize, "refused by the test");
    return seen->refuse ? -1 : 0;
}

static void voiding_rates_again_in_one_transaction(void **state) {
    (void)state;
    store *db = open_club();
    rate_seen seen = {0};
    char err[256] = "";
    assert_int_equal(record(db, ID_A, &seen, err, sizeof err), 1);
    assert_int_equal(record(db, ID_B, &seen, err, sizeof err), 1);
    store_voided_table *tables;
    rerate_seen again = {.refuse = 1};
    assert_int_equal(store_results_void(db, 2, NULL, rerate_to_new, &again, &tables, err,
                                        sizeof err), -1);
    says(err, "refused by the test");
    assert_null(tables);
    store_rating g;
    assert_int_equal(store_rating_read(db, 2, "carcassonne", &g, err, sizeof err), 1);
    assert_true(g.rating == 1480); /* nothing voided, nothing rated again */
    again.refuse = 0;
    assert_int_equal(store_results_void(db, 2, "carcassonne", rerate_to_new, &again, &tables,
                                        err, sizeof err), 2);
    assert_string_equal(tables[0].id, ID_A);
    assert_string_equal(tables[1].id, ID_B);
    assert_string_equal(tables[1].game, "carcassonne");
    free(tables);
    assert_int_equal(again.calls, 2);
    assert_int_equal(again.results, 0); /* both tables voided: no rated result left */
    assert_int_equal(store_rating_read(db, 1, "carcassonne", &g, err, sizeof err), 1);
    assert_true(g.rating == 1500);
    store_profile p;
    OK(store_profile_read(db, 1, 0, 10, 10, &p, err, errsize));
    assert_true(p.nresults == 2 && p.results[0].voided && p.results[1].voided);
    assert_true(p.ngames == 0 && p.ratings[0].nhistory == 0);
    store_profile_free(&p);
    /* nothing left to void */
    assert_int_equal(store_results_void(db, 2, NULL, rerate_to_new, &again, &tables, err,
                                        sizeof err), 0);
    assert_int_equal(again.calls, 2);
    free(tables);
    store_close(db);
}

/* A test that works on files, in a directory of its own. */
#define IN_TMPDIR(test) cmocka_unit_test_setup_teardown(test, tmpdir_setup, tmpdir_teardown)

/* ---- chat, clocks and my games -------------------------------------------- */

/* A player row for the club's calls to refer to: its id. */
static int64_t add_club_player(store *db, const char *name, const char *kind) {
    return add_player(db, name, name, kind, strcmp(kind, "account") ? NULL : "x", 1);
}

static void chat_lines_are_counted_per_side_and_read_oldest_first(void **state) {
    (void)state;
    store *db = open_memory();
    create(db, ID_A, 2, 1);
    int64_t ann = add_club_player(db, "ann", "account");
    int64_t next = -1, said = -1;
    OK(store_chat_count(db, ID_A, 0, &next, &said, err, errsize));
    assert_int_equal(next, 1);
    assert_int_equal(said, 0);
    char name[] = "ann", nobody[] = "", hello[] = "hello", hm[] = "hm", ok[] = "ok";
    store_chat_line lines[] = {
        {.n = 1, .player = ann, .name = name, .seat = 0, .at = 1000, .text = hello},
        {.n = 2, .player = 0, .name = nobody, .seat = -1, .at = 2000, .text = hm},
        {.n = 3, .player = 0, .name = nobody, .seat = 1, .at = 3000, .text = ok}};
    for (int i = 0; i < 3; i++) OK(store_chat_add(db, ID_A, &lines[i], err, errsize));
    OK(store_chat_count(db, ID_A, 1, &next, &said, err, errsize));
    assert_int_equal(next, 4);
    assert_int_equal(said, 2); /* the players' */
    OK(store_chat_count(db, ID_A, -1, &next, &said, err, errsize));
    assert_int_equal(said, 1); /* the spectators' */

    char why[256] = "";
    assert_int_equal(store_chat_add(db, ID_A, &lines[0], why, sizeof why), -1); /* n taken */
    says(why, "chat line");

    store_chat_line got[3];
    assert_int_equal(store_chat_read(db, ID_A, 1, 3, got, why, sizeof why), 3);
    assert_int_equal(got[0].n, 1);
    assert_string_equal(got[0].name, "ann");
    assert_string_equal(got[0].kind, "account");
    assert_int_equal(got[0].at, 1000);
    assert_string_equal(got[1].text, "hm");
    assert_int_equal(got[1].seat, -1);
    assert_string_equal(got[2].kind, ""); /* nobody by name */
    store_chat_lines_free(got, 3);
    /* a player reads the players' lines only; a cap keeps the latest */
    assert_int_equal(store_chat_read(db, ID_A, 0, 3, got, why, sizeof why), 2);
    assert_string_equal(got[0].text, "hello");
    assert_string_equal(got[1].text, "ok");
    store_chat_lines_free(got, 2);
    assert_int_equal(store_chat_read(db, ID_A, 1, 1, got, why, sizeof why), 1);
    assert_string_equal(got[0].text, "ok");
    store_chat_lines_free(got, 1);
    assert_int_equal(store_chat_read(db, ID_B, 1, 3, got, why, sizeof why), 0);
    store_close(db);
}

static void a_time_out_ends_the_table_once(void **state) {
    (void)state;
    store *db = open_memory();
    create(db, ID_A, 2, 1);
    int64_t ms[] = {0, 5000};
    OK(store_set_clocks(db, ID_A, 2, ms, 1234, err, errsize));
    char why[256] = "";
    assert_int_equal(store_time_out(db, ID_A, 2, 1, why, sizeof why), -1);
    says(why, "no such unfinished table or seat");
    OK(store_time_out(db, ID_A, 0, 1, err, errsize));
    store_table t = load(db, ID_A);
    assert_int_equal(t.seq, 1);
    assert_true(t.over);
    assert_string_equal(t.end_reason, "timeout");
    assert_int_equal(t.turn_since, 0);
    assert_true(t.seats[0].resigned);
    assert_string_equal(t.seats[0].forfeit, "time");
    assert_false(t.seats[1].resigned);
    store_table_free(&t);
    assert_int_equal(store_time_out(db, ID_A, 1, 2, why, sizeof why), -1); /* over already */
    says(why, "no such unfinished table or seat");
    t = load(db, ID_A);
    assert_false(t.seats[1].resigned); /* the refused call changed nothing */
    assert_int_equal(t.seq, 1);
    store_table_free(&t);
    store_close(db);
}

static void a_players_seats_are_those_of_unfinished_tables(void **state) {
    (void)state;
    store *db = open_memory();
    int64_t ann = add_club_player(db, "ann", "account"), bob = add_club_player(db, "bob", "account");
    create(db, ID_A, 2, 1);
    create(db, ID_B, 2, 2);
    create(db, ID_C, 2, 3);
    store_table t = load(db, ID_A);
    t.seats[1].player = ann;
    OK(store_set_seat(db, ID_A, 1, &t.seats[1], 0, 0, err, errsize));
    store_table_free(&t);
    t = load(db, ID_B);
    t.seats[0].player = ann;
    OK(store_set_seat(db, ID_B, 0, &t.seats[0], 0, 1, err, errsize)); /* over */
    t.seats[1].player = bob;
    OK(store_set_seat(db, ID_B, 1, &t.seats[1], 0, 1, err, errsize));
    store_table_free(&t);
    store_player_seat seats[4];
    char why[256] = "";
    assert_int_equal(store_player_seats(db, ann, 4, seats, why, sizeof why), 1);
    assert_string_equal(seats[0].table_id, ID_A);
    assert_int_equal(seats[0].seat, 1);
    assert_int_equal(store_player_seats(db, bob, 4, seats, why, sizeof why), 0);
    assert_int_equal(store_player_seats(db, ann, 0, seats, why, sizeof why), 0);
    store_close(db);
}

/* A move and its clocks are one change: both stored, or neither (issue 36:
** the clocks were a second transaction after the move). */
static void a_move_is_stored_with_its_clocks_in_one_transaction(void **state) {
    const tmpdir d = *(tmpdir *)*state;
    store *db = NULL;
    OK(store_open(d.db, 0, &db, err, errsize));
    create(db, ID_A, 2, 1);
    const char *const one[] = {"place 0 1 90"};
    const int seat0[] = {0};
    store_clocks clocks = {.nseats = 2, .ms = {60000, 45000}, .turn_since = 777};
    OK(store_append(db, ID_A, 0, 1, one, seat0, 1, 0, &clocks, err, errsize));
    store_table t = load(db, ID_A);
    assert_int_equal(t.seats[0].clock_ms, 60000);
    assert_int_equal(t.seats[1].clock_ms, 45000);
    assert_int_equal(t.turn_since, 777);
    store_table_free(&t);

    char why[256] = "";
    clocks.nseats = 3;
    assert_int_equal(store_append(db, ID_A, 1, 1, one, seat0, 2, 0, &clocks, why, sizeof why),
                     -1);
    says(why, "3 clocks for 2 seats");
    raw_exec(d.db, "CREATE TRIGGER refuse_13 BEFORE UPDATE ON seats WHEN NEW.clock_ms = 13"
                   " BEGIN SELECT RAISE(ABORT, 'clock 13 refused'); END;");
    store_clocks refused = {.nseats = 2, .ms = {13, -1}, .turn_since = 0};
    assert_int_equal(store_append(db, ID_A, 1, 1, one, seat0, 2, 0, &refused, why, sizeof why),
                     -1);
    says(why, "clock 13 refused");
    expect(db, ID_A, 1, "0:place 0 1 90"); /* the move went with its clocks */
    t = load(db, ID_A);
    assert_int_equal(t.seats[0].clock_ms, 60000);
    assert_int_equal(t.turn_since, 777);
    store_table_free(&t);
    store_close(db);
}

/* The tests of one database: ":memory:", or a new PostgreSQL database. */
#define ONE_DATABASE_TESTS \
    cmocka_unit_test(every_field_of_a_new_table_loads_back), \
    cmocka_unit_test(a_new_table_is_stored_with_its_opening_change), \
    cmocka_unit_test(a_missing_table_loads_as_none), \
    cmocka_unit_test(appended_actions_load_in_order_with_seq_and_over), \
    cmocka_unit_test(an_append_after_the_wrong_action_is_refused_and_changes_nothing), \
    cmocka_unit_test(an_append_to_a_missing_table_is_refused), \
    cmocka_unit_test(truncate_keeps_the_first_actions_and_sets_seq), \
    cmocka_unit_test(set_seat_changes_that_seat_and_the_table_only), \
    cmocka_unit_test(find_change_recognises_the_first_action_of_a_change), \
    cmocka_unit_test(list_gives_the_newest_first_and_filters_finished_tables), \
    cmocka_unit_test(odd_input_is_refused_with_a_message), \
    cmocka_unit_test(messages_fit_any_buffer), \
    cmocka_unit_test(players_are_found_by_key_or_id_and_guests_never_by_name), \
    cmocka_unit_test(logins_are_found_used_ended_and_checked), \
    cmocka_unit_test(only_unused_guests_nothing_refers_to_are_deleted), \
    cmocka_unit_test(results_and_ratings_are_one_call_read_before_and_written_once), \
    cmocka_unit_test(a_refused_rating_stores_no_result), \
    cmocka_unit_test(voiding_rates_again_in_one_transaction), \
    cmocka_unit_test(chat_lines_are_counted_per_side_and_read_oldest_first), \
    cmocka_unit_test(a_time_out_ends_the_table_once), \
    cmocka_unit_test(a_players_seats_are_those_of_unfinished_tables)

int main(void) {
    const struct CMUnitTest tests[] = {
        ONE_DATABASE_TESTS,
        IN_TMPDIR(lobby_lists_playing_tables_newest_first_then_the_latest_ended),
        IN_TMPDIR(a_reopened_file_has_everything_and_its_stamps),
        IN_TMPDIR(a_commit_survives_kill_9),
        IN_TMPDIR(a_file_of_another_schema_version_is_refused_by_name),
        IN_TMPDIR(a_file_of_version_1_is_upgraded),
        IN_TMPDIR(a_file_of_version_2_is_upgraded),
        IN_TMPDIR(a_file_of_version_3_is_upgraded),
        IN_TMPDIR(a_file_of_version_6_is_upgraded),
        IN_TMPDIR(attempts_are_buckets_refilled_over_their_window),
        IN_TMPDIR(a_foreign_file_is_refused_and_left_alone),
        IN_TMPDIR(an_unopenable_path_is_an_error_not_a_crash),
        IN_TMPDIR(a_change_that_fails_midway_is_rolled_back),
        IN_TMPDIR(a_players_change_and_its_logins_end_together),
        IN_TMPDIR(an_existing_database_is_opened_and_nothing_else),
        IN_TMPDIR(another_process_holding_the_database_is_seen),
        IN_TMPDIR(a_move_is_stored_with_its_clocks_in_one_transaction),
    };
    int failed = cmocka_run_group_tests_name("server storage", tests, NULL, NULL);
    pg_conninfo = getenv("TAFEL_TEST_PG");
    if (!pg_conninfo || !pg_conninfo[0]) return failed;
    const struct CMUnitTest on_pg[] = {
        ONE_DATABASE_TESTS,
    };
    failed += cmocka_run_group_tests_name("server storage on PostgreSQL", on_pg, NULL, NULL);
    pg_drop_databases("tafel_c");
    return failed;
}
