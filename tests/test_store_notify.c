/*
** test_store_notify.c -- what one node tells the others (src/server/store/notify.h):
** on SQLite nothing starts and nothing is heard; on PostgreSQL (when
** TAFEL_TEST_PG_URI names a database) another notifier hears each line once
** per batch, in its channel, within a second, never its own; a flood is
** heard as "*" on every channel; a lost connection is made again and heard
** as "" (read afresh), after which lines arrive again.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <libpq-fe.h>

#include "notify.h"

static const char *const CHANNELS[] = {"tafel_lobby", "tafel_turn"};

typedef struct heard {
    int n;
    char lines[64][128]; /* "channel payload" */
    int total;
} heard;

static void collect(const char *channel, const char *payload, void *ctx) {
    heard *h = ctx;
    if (h->n < 64) snprintf(h->lines[h->n++], sizeof h->lines[0], "%s %s", channel, payload);
    h->total++;
}

static void pause_ms(int ms) {
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Collects what n hears until it heard at least want, or ms passed. */
static void listen_for(store_notifier *n, heard *h, int want, int ms) {
    for (int waited = 0; waited < ms && h->total < want; waited += 20) {
        store_notify_receive(n, collect, h);
        if (h->total < want) pause_ms(20);
    }
    pause_ms(2 * NOTIFY_BATCH_MS); /* and nothing more comes */
    store_notify_receive(n, collect, h);
}

static int has(const heard *h, const char *line) {
    for (int i = 0; i < h->n; i++)
        if (!strcmp(h->lines[i], line)) return 1;
    return 0;
}

static void nothing_on_sqlite(void **state) {
    (void)state;
    store_notifier *n = (store_notifier *)1;
    char err[256];
    assert_int_equal(store_notify_start("tafel.db", CHANNELS, 2, NULL, &n, err, sizeof err), 0);
    assert_null(n);
    store_notify_send(n, "tafel_lobby", "x"); /* NULL: nothing, no crash */
    heard h = {0};
    assert_int_equal(store_notify_receive(n, collect, &h), 0);
    store_notify_stop(n);
}

static const char *pg_uri(void) {
    const char *uri = getenv("TAFEL_TEST_PG_URI");
    return uri && uri[0] ? uri : NULL;
}

static void start(store_notifier **n) {
    char err[512];
    int rc = store_notify_start(pg_uri(), CHANNELS, 2, NULL, n, err, sizeof err);
    if (rc) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    assert_non_null(*n);
}

static void bad_channels_refused(void **state) {
    (void)state;
    if (!pg_uri()) skip();
    const char *bad[] = {"tafel_lobby", "Robert'); DROP TABLE x;--"};
    store_notifier *n = NULL;
    char err[512];
    assert_int_equal(store_notify_start(pg_uri(), bad, 2, NULL, &n, err, sizeof err), -1);
    assert_null(n);
    assert_non_null(strstr(err, "lowercase letters"));
    assert_int_equal(store_notify_start("postgresql://nobody@/none?host=/nonexistent&port=1",
                                        CHANNELS, 2, NULL, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, "PostgreSQL"));
}

static void lines_cross_once(void **state) {
    (void)state;
    if (!pg_uri()) skip();
    store_notifier *a, *b;
    start(&a);
    start(&b);
    store_notify_send(a, "tafel_lobby", "3f9c0a5e7d21b604");
    store_notify_send(a, "tafel_lobby", "3f9c0a5e7d21b604"); /* a repeat: heard once */
    store_notify_send(a, "tafel_turn", "12 3f9c0a5e7d21b604");
    store_notify_send(a, "no_such_channel", "x");          /* not a channel of the notifier */
    store_notify_send(a, "tafel_lobby", "two\nlines");     /* refused: one line each */
    heard hb = {0}, ha = {0};
    listen_for(b, &hb, 2, 1000);
    assert_int_equal(hb.total, 2);
    assert_true(has(&hb, "tafel_lobby 3f9c0a5e7d21b604"));
    assert_true(has(&hb, "tafel_turn 12 3f9c0a5e7d21b604"));
    store_notify_receive(a, collect, &ha);
    assert_int_equal(ha.total, 0); /* a does not hear itself */
    store_notify_stop(a);
    store_notify_stop(b);
}

static void flood_is_everything(void **state) {
    (void)state;
    if (!pg_uri()) skip();
    store_notifier *a, *b;
    start(&a);
    start(&b);
    for (int i = 0; i < 25000; i++) {
        char p[32];
        snprintf(p, sizeof p, "t%d", i);
        store_notify_send(a, "tafel_lobby", p);
    }
    heard hb = {0};
    listen_for(b, &hb, 2, 2000);
    assert_true(has(&hb, "tafel_lobby *"));
    assert_true(has(&hb, "tafel_turn *"));
    store_notify_stop(a);
    store_notify_stop(b);
}

static void reconnects_and_says_afresh(void **state) {
    (void)state;
    if (!pg_uri()) skip();
    store_notifier *a, *b;
    start(&a);
    start(&b);
    PGconn *admin = PQconnectdb(pg_uri());
    assert_int_equal(PQstatus(admin), CONNECTION_OK);
    PGresult *r = PQexec(admin, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                                "application_name = 'tafel serve (notifications)'");
    assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
    assert_int_equal(PQntuples(r), 2); /* both notifiers' connections ended */
    PQclear(r);
    PQfinish(admin);
    heard hb = {0};
    listen_for(b, &hb, 1, 3000);
    assert_true(has(&hb, " ")); /* channel "", payload "": read afresh */
    /* both connected again: lines cross as before */
    pause_ms(1500);
    hb.n = hb.total = 0;
    store_notify_send(a, "tafel_turn", "7 00000000000000ff");
    listen_for(b, &hb, 1, 3000);
    assert_true(has(&hb, "tafel_turn 7 00000000000000ff"));
    store_notify_stop(a);
    store_notify_stop(b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nothing_on_sqlite),   cmocka_unit_test(bad_channels_refused),
        cmocka_unit_test(lines_cross_once),    cmocka_unit_test(flood_is_everything),
        cmocka_unit_test(reconnects_and_says_afresh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
