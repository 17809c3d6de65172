/*
** sqlite_ratings.c -- results, ratings, the leaderboard and profiles in the
** SQLite file (store.h).
**
** The club's rules stay above the store: ratings.c places the seats and
** reckons Glicko-2, rerate.c replays a game; both reach the rows only
** through the calls here, which give plain arrays and take callbacks where
** a rule must run inside a transaction.  Owns no state: every call works
** on the store's connection (store_sqlite) and leaves no statement open.
**
** Transactions: a table's results and its players' ratings are one BEGIN
** IMMEDIATE, the ratings before read in it (store_results_record); voiding
** a player's results and rating the games again is another
** (store_results_void).  A profile's or the leaderboard's reads run each
** in its own statement, outside any transaction, as a page's view of them
** needs no more; what they make of the rows is rows_ratings.c's, the SQL
** here (lite_ratings_sql).
*/
#include "sqlite.h"

#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Results are timed in seconds: of two in the same second, the table made
** later (tables keeps its rowid) counts as the later. */
#define TABLE_ORDER(id) "(SELECT rowid FROM tables WHERE id = " id ")"

/* What rows_ratings.c reads, in SQLite's words. */
const rows_ratings_sql lite_ratings_sql = {
    .rating = "SELECT rating, rd, volatility FROM ratings WHERE player = ?1 AND game = ?2",
    .leaderboard = "SELECT p.name, p.kind, r.rating, r.rd, r.games"
                   " FROM ratings r JOIN players p ON p.id = r.player"
                   " WHERE r.game = ?1 AND r.games > 0 AND p.disabled = 0"
                   " ORDER BY r.rating DESC, p.name_key LIMIT ?2",
    .since = "SELECT created FROM players WHERE id = ?1",
    .games = "SELECT game, count(*),"
             " sum(place = 1 AND NOT EXISTS (SELECT 1 FROM results x"
             "  WHERE x.table_id = r.table_id AND x.seat <> r.seat AND x.place = 1)),"
             " sum(place > 1)"
             " FROM results r WHERE player = ?1 AND voided = 0 GROUP BY game ORDER BY game",
    .ratings = "SELECT game, rating, rd, games FROM ratings WHERE player = ?1 ORDER BY game",
    .history = "SELECT at, rating_after, rd_after, table_id FROM results"
               " WHERE player = ?1 AND game = ?2 AND rating_after IS NOT NULL AND voided = 0"
               " ORDER BY at DESC, " TABLE_ORDER("table_id") " DESC LIMIT ?3",
    .results = "SELECT r.table_id, r.game, r.at, r.place, r.score,"
               " r.rating_before, r.rating_after, r.rd_before, r.rd_after, r.seat,"
               " (SELECT count(*) FROM seats s WHERE s.table_id = r.table_id),"
               " (SELECT private FROM tables t WHERE t.id = r.table_id)"
               "  AND NOT EXISTS (SELECT 1 FROM seats v"
               "   WHERE v.table_id = r.table_id AND v.player = ?3),"
               " r.voided"
               " FROM results r WHERE r.player = ?1"
               " ORDER BY r.at DESC, " TABLE_ORDER("table_id") " DESC LIMIT ?2",
    .opponents = "SELECT p.name, p.kind, o.place FROM results o"
                 " JOIN players p ON p.id = o.player"
                 " WHERE o.table_id = ?1 AND o.seat <> ?2 ORDER BY o.place, o.seat",
    .rerate_players = "SELECT r.player, p.name, r.rating FROM ratings r"
                      " JOIN players p ON p.id = r.player WHERE r.game = ?1 ORDER BY r.player",
    .rerate_results = "SELECT r.seat, r.table_id, r.player, r.place FROM results r"
                      " WHERE r.game = ?1 AND r.rating_after IS NOT NULL"
                      " AND r.voided = 0 ORDER BY r.at, " TABLE_ORDER("r.table_id") ","
                      " r.table_id, r.seat",
    .voided = "SELECT r.table_id, r.game, r.at FROM results r"
              " WHERE (?1 IS NULL OR r.game = ?1) AND r.player = ?2"
              " AND r.rating_after IS NOT NULL AND r.voided = 0"
              " ORDER BY r.at, " TABLE_ORDER("r.table_id"),
};

/* ---- errors, statements, transactions --------------------------------- */

/* The same with SQLite's reason for the latest failure on db. */
static int ratings_fail_sql(sqlite3 *db, char *err, size_t errsize, const char *context) {
    return store_sql_fail(err, errsize, context, sqlite3_errmsg(db));
}

/* Runs a statement that returns no row: 0, or -1. */
static int ratings_run(sqlite3_stmt *st) {
    if (!st) return -1;
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* Steps a statement that returns no row, and resets it for its next
** values. */
static int ratings_step_reset(sqlite3_stmt *st) {
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int ratings_begin(sqlite3 *db) {
    return sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static int ratings_commit(sqlite3 *db) {
    return sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

/* ---- a table's results and ratings ------------------------------------ */

/* Whether the table has results already (its end seen before a restart). */
static int ratings_has_results(sqlite3 *db, const char *id) {
    sqlite3_stmt *st = store_sql_prepare(db, "SELECT 1 FROM results WHERE table_id = ?1", "t", id);
    if (!st) return -1;
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static int ratings_write_results(sqlite3 *db, const char *id, const char *game, int n,
                                 const store_result *r, int rated) {
    int64_t now = (int64_t)time(NULL);
    for (int i = 0; i < n; i++) {
        if (rated && r[i].rated) {
            if (ratings_run(store_sql_prepare(
                    db, "INSERT INTO results (table_id, seat, player, game, place, score, at,"
                        " rating_before, rd_before, rating_after, rd_after)"
                        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                    "tiitididddd", id, (int64_t)r[i].seat, r[i].player, game,
                    (int64_t)r[i].place, r[i].score, now, r[i].before.rating, r[i].before.rd,
                    r[i].after.rating, r[i].after.rd)) ||
                ratings_run(store_sql_prepare(
                    db, "INSERT INTO ratings (player, game, rating, rd, volatility, games, updated)"
                        " VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6) ON CONFLICT (player, game) DO UPDATE"
                        " SET rating = excluded.rating, rd = excluded.rd,"
                        " volatility = excluded.volatility, games = games + 1,"
                        " updated = excluded.updated",
                    "itdddi", r[i].player, game, r[i].after.rating, r[i].after.rd,
                    r[i].after.volatility, now)))
                return -1;
        } else if (ratings_run(store_sql_prepare(
                       db, "INSERT INTO results (table_id, seat, player, game, place, score, at)"
                           " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                       "tiitidi", id, (int64_t)r[i].seat, r[i].player, game,
                       (int64_t)r[i].place, r[i].score, now))) {
            return -1;
        }
    }
    return 0;
}

int lite_results_record(store *s, const char *table_id, const char *game, int n,
                         store_result *results, store_rate_fn rate, void *arg, char *err,
                         size_t errsize) {
    char context[80];
    snprintf(context, sizeof context, "recording the results of table %.24s",
             table_id ? table_id : "(null)");
    sqlite3 *db = store_sqlite(s);
    if (!db) return store_sql_fail(err, errsize, context, "no database");
    if (!table_id || !game || n < 0 || (n > 0 && !results))
        return store_sql_fail(err, errsize, context, "no table, game or results given");
    if (ratings_begin(db)) return ratings_fail_sql(db, err, errsize, context);
    int done = ratings_has_results(db, table_id);
    if (done) {
        if (done < 0) ratings_fail_sql(db, err, errsize, context);
        store_sql_rollback(db);
        return done < 0 ? -1 : 0;
    }
    for (int i = 0; rate && i < n; i++)
        if (rows_rating_read(s, &lite_ratings_sql, results[i].player, game, &results[i].before,
                             context, err, errsize) < 0) {
            store_sql_rollback(db);
            return -1;
        }
    if (rate && rate(arg, n, results)) {
        store_sql_rollback(db);
        return store_sql_fail(err, errsize, context, "the new ratings could not be reckoned");
    }
    if (ratings_write_results(db, table_id, game, n, results, rate != NULL) ||
        ratings_commit(db)) {
        ratings_fail_sql(db, err, errsize, context);
        store_sql_rollback(db);
        return -1;
    }
    return 1;
}

/* ---- voiding results and rating a game again --------------------------- */

/* Stores what rerate reckoned: each result's ratings, each player's. */
static int rerate_write(store *s, const store_rerate_game *g, char *err, size_t errsize) {
    sqlite3 *db = store_sqlite(s);
    sqlite3_stmt *update = store_sql_prepare(
        db, "UPDATE results SET rating_before = ?1, rd_before = ?2,"
            " rating_after = ?3, rd_after = ?4 WHERE table_id = ?5 AND seat = ?6", "");
    sqlite3_stmt *store = store_sql_prepare(
        db, "UPDATE ratings SET rating = ?1, rd = ?2, volatility = ?3,"
            " games = ?4, updated = ?5 WHERE player = ?6 AND game = ?7", "");
    int rc = -1;
    if (!update || !store) {
        ratings_fail_sql(db, err, errsize, "rating again");
        goto done;
    }
    for (int i = 0; i < g->nresults; i++) {
        const store_rerate_result *r = &g->results[i];
        sqlite3_bind_double(update, 1, r->before.rating);
        sqlite3_bind_double(update, 2, r->before.rd);
        sqlite3_bind_double(update, 3, r->after.rating);
        sqlite3_bind_double(update, 4, r->after.rd);
        sqlite3_bind_text(update, 5, r->table_id, -1, SQLITE_STATIC);
        sqlite3_bind_int(update, 6, r->seat);
        if (ratings_step_reset(update)) {
            ratings_fail_sql(db, err, errsize, "storing a result");
            goto done;
        }
    }
    int64_t now = (int64_t)time(NULL);
    sqlite3_bind_text(store, 7, g->game, -1, SQLITE_STATIC);
    for (int i = 0; i < g->nplayers; i++) {
        const store_rerate_player *p = &g->players[i];
        sqlite3_bind_double(store, 1, p->now.rating);
        sqlite3_bind_double(store, 2, p->now.rd);
        sqlite3_bind_double(store, 3, p->now.volatility);
        sqlite3_bind_int(store, 4, p->games);
        sqlite3_bind_int64(store, 5, now);
        sqlite3_bind_int64(store, 6, p->id);
        if (ratings_step_reset(store)) {
            ratings_fail_sql(db, err, errsize, "storing a rating");
            goto done;
        }
    }
    rc = 0;
done:
    sqlite3_finalize(update);
    sqlite3_finalize(store);
    return rc;
}

/* Marks every result of the tables voided. */
static int void_tables(sqlite3 *db, const store_voided_table *tables, int n, char *err,
                       size_t errsize) {
    if (!n) return 0;
    sqlite3_stmt *st = store_sql_prepare(db, "UPDATE results SET voided = 1 WHERE table_id = ?1",
                                       "");
    int rc = st ? 0 : -1;
    for (int i = 0; !rc && i < n; i++) {
        sqlite3_bind_text(st, 1, tables[i].id, -1, SQLITE_STATIC);
        rc = ratings_step_reset(st);
    }
    if (rc) ratings_fail_sql(db, err, errsize, "voiding");
    sqlite3_finalize(st);
    return rc;
}

int lite_results_void(store *s, int64_t player, const char *game, store_rerate_fn rerate,
                       void *arg, store_voided_table **tables, char *err, size_t errsize) {
    *tables = NULL;
    sqlite3 *db = store_sqlite(s);
    if (!db) return store_sql_fail(err, errsize, "voiding", "no database");
    if (ratings_begin(db)) return ratings_fail_sql(db, err, errsize, "starting");
    int n = rows_voided_read(s, &lite_ratings_sql, player, game, tables, err, errsize);
    int ok = n >= 0 && void_tables(db, *tables, n, err, errsize) == 0;
    /* each game once: the tables of one game need not be next to each other */
    for (int i = 0; ok && i < n; i++) {
        int seen = 0;
        for (int j = 0; j < i && !seen; j++) seen = !strcmp((*tables)[j].game, (*tables)[i].game);
        if (!seen)
            ok = rows_rerate_game(s, &lite_ratings_sql, (*tables)[i].game, rerate, arg,
                                  rerate_write, err, errsize) == 0;
    }
    if (ok && ratings_commit(db)) ok = ratings_fail_sql(db, err, errsize, "committing") == 0;
    if (!ok) {
        store_sql_rollback(db);
        free(*tables);
        *tables = NULL;
        return -1;
    }
    return n;
}
