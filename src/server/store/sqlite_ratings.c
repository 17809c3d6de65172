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
** needs no more.
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
#define LATER_TABLE "(SELECT rowid FROM tables WHERE id = table_id) DESC"

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

/* Grows *items (of size bytes each) to hold one more; -1 out of memory. */
static int ratings_grow(void **items, int n, int *cap, size_t size) {
    if (n < *cap) return 0;
    int more = *cap ? 2 * *cap : 16;
    void *p = realloc(*items, size * (size_t)more);
    if (!p) return -1;
    *items = p;
    *cap = more;
    return 0;
}

/* Reads every row of st (finalized here) into the array *items of
** size-byte elements, zeroed, then filled by row().  How many, or -1 with
** err (*items freed). */
static int ratings_read_rows(sqlite3 *db, sqlite3_stmt *st, void **items, size_t size,
                             void (*row)(sqlite3_stmt *, void *), const char *context,
                             char *err, size_t errsize) {
    *items = NULL;
    if (!st) return ratings_fail_sql(db, err, errsize, context);
    int n = 0, cap = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (ratings_grow(items, n, &cap, size)) {
            sqlite3_finalize(st);
            free(*items);
            *items = NULL;
            return store_sql_fail(err, errsize, context, "out of memory");
        }
        void *item = (char *)*items + size * (size_t)n++;
        memset(item, 0, size);
        row(st, item);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        free(*items);
        *items = NULL;
        return ratings_fail_sql(db, err, errsize, context);
    }
    return n;
}

/* ---- a table's results and ratings ------------------------------------ */

/* A player's rating at game: 1 found, 0 none (out untouched), -1. */
static int ratings_read(sqlite3 *db, int64_t id, const char *game, store_rating *out) {
    sqlite3_stmt *st = store_sql_prepare(db, "SELECT rating, rd, volatility FROM ratings"
                                           " WHERE player = ?1 AND game = ?2",
                                       "it", id, game);
    if (!st) return -1;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *out = (store_rating){sqlite3_column_double(st, 0), sqlite3_column_double(st, 1),
                              sqlite3_column_double(st, 2)};
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

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
        if (ratings_read(db, results[i].player, game, &results[i].before) < 0) {
            ratings_fail_sql(db, err, errsize, context);
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

int lite_rating_read(store *s, int64_t player, const char *game, store_rating *out, char *err,
                      size_t errsize) {
    sqlite3 *db = store_sqlite(s);
    if (!db) return store_sql_fail(err, errsize, "reading a rating", "no database");
    int found = game ? ratings_read(db, player, game, out) : -1;
    if (found < 0) return ratings_fail_sql(db, err, errsize, "reading a rating");
    return found;
}

/* ---- the leaderboard -------------------------------------------------- */

static void standing_row(sqlite3_stmt *st, void *item) {
    store_standing *e = item;
    store_sql_text(st, 0, e->name, sizeof e->name);
    store_sql_text(st, 1, e->kind, sizeof e->kind);
    e->rating = sqlite3_column_double(st, 2);
    e->rd = sqlite3_column_double(st, 3);
    e->games = sqlite3_column_int(st, 4);
}

int lite_leaderboard_read(store *s, const char *game, int cap, store_standing **out,
                           char *err, size_t errsize) {
    *out = NULL;
    sqlite3 *db = store_sqlite(s);
    if (!db) return store_sql_fail(err, errsize, "reading the leaderboard", "no database");
    return ratings_read_rows(
        db,
        store_sql_prepare(db, "SELECT p.name, p.kind, r.rating, r.rd, r.games"
                            " FROM ratings r JOIN players p ON p.id = r.player"
                            " WHERE r.game = ?1 AND r.games > 0 AND p.disabled = 0"
                            " ORDER BY r.rating DESC, p.name_key LIMIT ?2",
                        "ti", game ? game : "", (int64_t)cap),
        (void **)out, sizeof **out, standing_row, "reading the leaderboard", err, errsize);
}

/* ---- profiles --------------------------------------------------------- */

static void game_record_row(sqlite3_stmt *st, void *item) {
    store_game_record *g = item;
    store_sql_text(st, 0, g->game, sizeof g->game);
    g->played = sqlite3_column_int(st, 1);
    g->won = sqlite3_column_int(st, 2);
    g->lost = sqlite3_column_int(st, 3);
}

static void game_rating_row(sqlite3_stmt *st, void *item) {
    store_game_rating *g = item;
    store_sql_text(st, 0, g->game, sizeof g->game);
    g->rating = sqlite3_column_double(st, 1);
    g->rd = sqlite3_column_double(st, 2);
    g->games = sqlite3_column_int(st, 3);
}

static void rating_point_row(sqlite3_stmt *st, void *item) {
    store_rating_point *e = item;
    e->at = sqlite3_column_int64(st, 0);
    e->rating = sqlite3_column_double(st, 1);
    e->rd = sqlite3_column_double(st, 2);
    store_sql_text(st, 3, e->table_id, sizeof e->table_id);
}

static void opponent_row(sqlite3_stmt *st, void *item) {
    store_opponent *e = item;
    store_sql_text(st, 0, e->name, sizeof e->name);
    store_sql_text(st, 1, e->kind, sizeof e->kind);
    e->place = sqlite3_column_int(st, 2);
}

static void profile_result_row(sqlite3_stmt *st, void *item) {
    store_profile_result *e = item;
    store_sql_text(st, 0, e->table_id, sizeof e->table_id);
    store_sql_text(st, 1, e->game, sizeof e->game);
    e->at = sqlite3_column_int64(st, 2);
    e->place = sqlite3_column_int(st, 3);
    e->has_score = sqlite3_column_type(st, 4) != SQLITE_NULL;
    e->score = sqlite3_column_double(st, 4);
    /* the four are written together (a rated result) or not at all */
    e->rated = sqlite3_column_type(st, 6) != SQLITE_NULL;
    e->rating_before = sqlite3_column_double(st, 5);
    e->rating_after = sqlite3_column_double(st, 6);
    e->rd_before = sqlite3_column_double(st, 7);
    e->rd_after = sqlite3_column_double(st, 8);
    e->seat = sqlite3_column_int(st, 9);
    e->players = sqlite3_column_int(st, 10);
    e->hidden = sqlite3_column_int(st, 11);
    e->voided = sqlite3_column_int(st, 12);
}

/* Each rating's history: the latest cap rated results, oldest first. */
static int read_histories(sqlite3 *db, int64_t id, int cap, store_profile *p, char *err,
                          size_t errsize) {
    for (int i = 0; i < p->nratings; i++) {
        store_game_rating *g = &p->ratings[i];
        int n = ratings_read_rows(
            db,
            store_sql_prepare(db, "SELECT at, rating_after, rd_after, table_id FROM results"
                                " WHERE player = ?1 AND game = ?2 AND rating_after IS NOT NULL"
                                " AND voided = 0"
                                " ORDER BY at DESC, " LATER_TABLE " LIMIT ?3",
                            "iti", id, g->game, (int64_t)cap),
            (void **)&g->history, sizeof *g->history, rating_point_row,
            "reading a player's ratings", err, errsize);
        if (n < 0) return -1;
        g->nhistory = n;
        for (int a = 0, b = n - 1; a < b; a++, b--) {
            store_rating_point t = g->history[a];
            g->history[a] = g->history[b];
            g->history[b] = t;
        }
    }
    return 0;
}

/* Each result's other seats' players, by place. */
static int read_opponents(sqlite3 *db, store_profile *p, char *err, size_t errsize) {
    for (int i = 0; i < p->nresults; i++) {
        store_profile_result *e = &p->results[i];
        int n = ratings_read_rows(
            db,
            store_sql_prepare(db, "SELECT p.name, p.kind, o.place FROM results o"
                                " JOIN players p ON p.id = o.player"
                                " WHERE o.table_id = ?1 AND o.seat <> ?2"
                                " ORDER BY o.place, o.seat",
                            "ti", e->table_id, (int64_t)e->seat),
            (void **)&e->opponents, sizeof *e->opponents, opponent_row,
            "reading a result's players", err, errsize);
        if (n < 0) return -1;
        e->nopponents = n;
    }
    return 0;
}

static int read_since(sqlite3 *db, int64_t id, store_profile *p, char *err, size_t errsize) {
    sqlite3_stmt *st = store_sql_prepare(db, "SELECT created FROM players WHERE id = ?1", "i", id);
    if (!st) return ratings_fail_sql(db, err, errsize, "reading a player");
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) p->since = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0
                                                 : ratings_fail_sql(db, err, errsize,
                                                                    "reading a player");
}

int lite_profile_read(store *s, int64_t player, int64_t viewer, int history_cap,
                       int results_cap, store_profile *out, char *err, size_t errsize) {
    memset(out, 0, sizeof *out);
    sqlite3 *db = store_sqlite(s);
    if (!db) return store_sql_fail(err, errsize, "reading a player", "no database");
    if (read_since(db, player, out, err, errsize)) return -1;
    out->ngames = ratings_read_rows(
        db,
        store_sql_prepare(db,
                        "SELECT game, count(*),"
                        " sum(place = 1 AND NOT EXISTS (SELECT 1 FROM results x"
                        "  WHERE x.table_id = r.table_id AND x.seat <> r.seat AND x.place = 1)),"
                        " sum(place > 1)"
                        " FROM results r WHERE player = ?1 AND voided = 0 GROUP BY game"
                        " ORDER BY game",
                        "i", player),
        (void **)&out->games, sizeof *out->games, game_record_row, "reading a player's games",
        err, errsize);
    if (out->ngames < 0) goto failed;
    out->nratings = ratings_read_rows(
        db,
        store_sql_prepare(db, "SELECT game, rating, rd, games FROM ratings WHERE player = ?1"
                            " ORDER BY game",
                        "i", player),
        (void **)&out->ratings, sizeof *out->ratings, game_rating_row,
        "reading a player's ratings", err, errsize);
    if (out->nratings < 0 || read_histories(db, player, history_cap, out, err, errsize))
        goto failed;
    out->nresults = ratings_read_rows(
        db,
        store_sql_prepare(db, "SELECT r.table_id, r.game, r.at, r.place, r.score,"
                            " r.rating_before, r.rating_after, r.rd_before, r.rd_after, r.seat,"
                            " (SELECT count(*) FROM seats s WHERE s.table_id = r.table_id),"
                            " (SELECT private FROM tables t WHERE t.id = r.table_id)"
                            "  AND NOT EXISTS (SELECT 1 FROM seats v"
                            "   WHERE v.table_id = r.table_id AND v.player = ?3),"
                            " r.voided"
                            " FROM results r WHERE r.player = ?1"
                            " ORDER BY r.at DESC, " LATER_TABLE " LIMIT ?2",
                        "iii", player, (int64_t)results_cap, viewer),
        (void **)&out->results, sizeof *out->results, profile_result_row,
        "reading a player's results", err, errsize);
    if (out->nresults < 0 || read_opponents(db, out, err, errsize)) goto failed;
    return 0;
failed:
    store_profile_free(out);
    return -1;
}

/* ---- voiding results and rating a game again --------------------------- */

static void rerate_player_row(sqlite3_stmt *st, void *item) {
    store_rerate_player *p = item;
    p->id = sqlite3_column_int64(st, 0);
    const unsigned char *name = sqlite3_column_text(st, 1);
    snprintf(p->name, sizeof p->name, "%s", name ? (const char *)name : "?");
    p->old_rating = sqlite3_column_double(st, 2);
}

static void rerate_result_row(sqlite3_stmt *st, void *item) {
    store_rerate_result *r = item;
    r->seat = sqlite3_column_int(st, 0);
    store_sql_text(st, 1, r->table_id, sizeof r->table_id);
    r->player = sqlite3_column_int64(st, 2);
    r->place = sqlite3_column_int(st, 3);
}

/* The game's players (by id) and its rated results not voided, in the
** order they were rated: read whole before any is rewritten. */
static int rerate_read(sqlite3 *db, store_rerate_game *g, char *err, size_t errsize) {
    g->nplayers = ratings_read_rows(
        db,
        store_sql_prepare(db, "SELECT r.player, p.name, r.rating FROM ratings r"
                            " JOIN players p ON p.id = r.player WHERE r.game = ?1"
                            " ORDER BY r.player",
                        "t", g->game),
        (void **)&g->players, sizeof *g->players, rerate_player_row, "reading the results", err,
        errsize);
    if (g->nplayers < 0) return -1;
    g->nresults = ratings_read_rows(
        db,
        store_sql_prepare(db, "SELECT r.seat, r.table_id, r.player, r.place FROM results r"
                            " WHERE r.game = ?1 AND r.rating_after IS NOT NULL"
                            " AND r.voided = 0 ORDER BY r.at,"
                            " (SELECT rowid FROM tables WHERE id = r.table_id),"
                            " r.table_id, r.seat",
                        "t", g->game),
        (void **)&g->results, sizeof *g->results, rerate_result_row, "reading the results", err,
        errsize);
    return g->nresults < 0 ? -1 : 0;
}

/* Stores what rerate reckoned: each result's ratings, each player's. */
static int rerate_write(sqlite3 *db, const store_rerate_game *g, char *err, size_t errsize) {
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

static int rerate_game(sqlite3 *db, const char *game, store_rerate_fn rerate, void *arg,
                       char *err, size_t errsize) {
    store_rerate_game g = {.game = game};
    int rc = rerate_read(db, &g, err, errsize) || rerate(arg, &g, err, errsize) ||
                     rerate_write(db, &g, err, errsize)
                 ? -1
                 : 0;
    free(g.players);
    free(g.results);
    return rc;
}

static void voided_row(sqlite3_stmt *st, void *item) {
    store_voided_table *v = item;
    store_sql_text(st, 0, v->id, sizeof v->id);
    store_sql_text(st, 1, v->game, sizeof v->game);
    v->at = sqlite3_column_int64(st, 2);
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
    /* a NULL text binds NULL: every game */
    int n = ratings_read_rows(
        db,
        store_sql_prepare(db, "SELECT r.table_id, r.game, r.at FROM results r"
                            " WHERE (?1 IS NULL OR r.game = ?1) AND r.player = ?2"
                            " AND r.rating_after IS NOT NULL AND r.voided = 0"
                            " ORDER BY r.at, (SELECT rowid FROM tables WHERE id = r.table_id)",
                        "ti", game, player),
        (void **)tables, sizeof **tables, voided_row, "reading the results", err, errsize);
    int ok = n >= 0 && void_tables(db, *tables, n, err, errsize) == 0;
    /* each game once: the tables of one game need not be next to each other */
    for (int i = 0; ok && i < n; i++) {
        int seen = 0;
        for (int j = 0; j < i && !seen; j++) seen = !strcmp((*tables)[j].game, (*tables)[i].game);
        if (!seen) ok = rerate_game(db, (*tables)[i].game, rerate, arg, err, errsize) == 0;
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
