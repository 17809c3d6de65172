/*
** serve.c -- tafel serve from start to stop.
**
** Opens the database, rebuilds the unfinished tables by replaying their
** records, starts the bot workers (which pick up where the bots of those
** tables were) and the event loop, and prints the address to open.
** SIGINT and SIGTERM stop the loop; every acknowledged change is already
** in the database, so a kill -9 loses nothing either.
*/
#include "server.h"

#include "hasher.h"
#include "http.h"
#include "nodes.h"
#include "notify.h"
#include "players.h"
#include "protocol.h"
#include "ratings.h"
#include "store.h" /* store_path_shown */
#include "syncer.h"
#include "tables.h"
#include "turns.h"
#include "watchers.h"

#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The loop stopped: nobody thinks for a table or talks to a program after
** this (the workers may still wake the loop until they are gone). */
static void stopping(void) {
    protocol_stopping(); /* told already by the transport's signal */
    nodes_stop(); /* what this node still had to say is said */
    syncer_stop(); /* the last sync: its thread wakes the context no more */
    botpool_stop();
    hasher_stop();
    extseats_shutdown();
}

/* A change applied here, after its commit: this node's sockets, then the
** other nodes (nodes.h). */
static void table_changed_here(table *t) {
    watchers_changed(t);
    nodes_table_changed(t);
}

static void turn_here(const table *t, int seat) {
    turns_notify(t, seat);
    nodes_turn(t, seat);
}

/* t went to another node (a write answered STORE_MOVED): its sockets close
** with 4000 and stop watching it, before it is freed. */
static void table_moved_away(table *t) {
    int n;
    session **at;
    while ((at = watchers_of(t, &n)) && n > 0) {
        session *s = at[n - 1];
        sockets_close_moved(s);
        watchers_detach(s);
    }
}

int server_run(const server_options *given) {
    server_options running = *given;
    server_options *opt = &running;
    if (!opt->web_dir) opt->web_dir = TAFEL_WEB_DIR; /* the source tree's web/ */
    if (opt->workers <= 0) opt->workers = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (opt->workers <= 0) opt->workers = 1;
    /* each layer its part of the options (copied): none reads them after */
    tables_config tables;
    http_config http;
    server_tables_config(opt, &tables);
    server_http_config(opt, &http);
    char err[512];
    /* libsodium's functions are thread-safe once it is initialised (the
    ** password hashes run on a worker: hasher.c) */
    if (sodium_init() < 0) {
        fprintf(stderr, "tafel serve: libsodium cannot start (sodium_init failed)\n");
        return 1;
    }
    if (extseats_configure(opt->ext, opt->next, err, sizeof err)) {
        fprintf(stderr, "tafel serve: %s\n", err);
        extseats_shutdown();
        return 1;
    }
    /* the callbacks that go up the layers (docs/server.md, "The server in
    ** layers"): a sync or a commit done off the loop wakes it, a change of
    ** turn tells the player,
    ** a table's changes go to the sockets watching it, and the protocol
    ** writes to a socket through the transport; the other nodes are told
    ** of changes, turns and ratings too */
    syncer_on_synced(http_wake);
    clocks_on_turn(turn_here);
    ratings_on_rated(nodes_rated);
    protocol_start(sockets_send);
    const tables_events told = {.changed = table_changed_here, .unseated = watchers_unseated,
                                .hint = watchers_hint, .wake = http_wake,
                                .moved = table_moved_away, .given = nodes_given,
                                .home = nodes_home, .ask = nodes_ask};
    if (tables_open(opt->db_path, opt->durable, &tables, &told, err, sizeof err)) {
        fprintf(stderr, "tafel serve: %s\n", err);
        return 1;
    }
    /* the other nodes on the database (PostgreSQL; on SQLite none): what
    ** they say wakes the loop, whose wake-up hands it to nodes_heard */
    store_notifier *notifier;
    if (store_notify_start(opt->db_path, nodes_channels, NODES_CHANNELS, http_wake, &notifier,
                           err, sizeof err)) {
        fprintf(stderr, "tafel serve: %s\n", err);
        tables_close();
        extseats_shutdown();
        return 1;
    }
    nodes_start(notifier, opt->node);
    players_start(tables_store(), opt->limits.guest_seconds);
    ratings_start(tables_store());
    int restored = tables_restore(err, sizeof err);
    if (restored < 0) {
        fprintf(stderr, "tafel serve: %s\n", err);
        nodes_stop();
        tables_close();
        extseats_shutdown();
        return 1;
    }
    int port;
    signal(SIGPIPE, SIG_IGN);
    if (http_start(&http, &port, err, sizeof err)) {
        fprintf(stderr, "tafel serve: %s\n", err);
        nodes_stop();
        tables_close();
        extseats_shutdown();
        return 1;
    }
    if (botpool_start(opt->workers, tables.bot_ms, tables.hint_ms, http_wake) ||
        hasher_start(http_wake)) {
        fprintf(stderr, "tafel serve: cannot start the bot threads\n");
        botpool_stop();
        hasher_stop();
        nodes_stop();
        http_stop();
        tables_close();
        extseats_shutdown();
        return 1;
    }
    const char *host = strchr(opt->bind, ':') ? "[%s]" : "%s";
    char shown[128];
    snprintf(shown, sizeof shown, host, opt->bind);
    char db_shown[512]; /* a PostgreSQL URI's password is never printed */
    store_path_shown(opt->db_path, db_shown, sizeof db_shown);
    printf("tafel serve: %s://%s:%d/ (database %s", opt->cert ? "https" : "http", shown, port,
           db_shown);
    if (restored) printf(", %d unfinished table%s restored", restored, restored == 1 ? "" : "s");
    if (extseats_count()) printf(", %d external bot%s", extseats_count(),
                                 extseats_count() == 1 ? "" : "s");
    printf(")\n");
    fflush(stdout);
    http_run(stopping);
    tables_close();
    return 0;
}
