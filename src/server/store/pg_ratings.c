/*
** pg_ratings.c -- results, ratings, the leaderboard and profiles in
** PostgreSQL (store.h): the PostgreSQL twin of sqlite_ratings.c, the same
** calls with the same answers.
**
** The club's rules stay above the store: ratings.c places the seats and
** reckons Glicko-2, rerate.c replays a game; both reach the rows only
** through the calls here.  Owns no state: every call works on the store's
** connection (store_pg_exec) and clears what it read.
**
** Several servers may share the database, so two of them can end one
** player's games at the same moment (stack-turn4.md, pitfall 5).  SQLite
** serialised the read of the ratings before and the write after by BEGIN
** IMMEDIATE; here, inside the transaction that records a table's results:
**   - a shared advisory lock on the game (RATINGS_LOCK, game's hash), which
**     only a rerate takes exclusively, so results of different players go
**     on side by side;
**   - each rated player's row in `ratings` locked (SELECT ... FOR UPDATE)
**     in player id order before it is read, a missing one inserted first
**     (INSERT ... ON CONFLICT DO NOTHING, at the rating the caller gives a
**     new player, games 0) so that there is a row to lock.  A row inserted
**     so reads as "none yet", and is deleted again if its result is not
**     rated: nothing is left that SQLite would not have.
** Voiding and rating a game again (store_results_void) takes the game's
** lock exclusively, for each game it touches in the games' byte order (no
** two voids wait for each other), before it reads what it rewrites.
** Profile and leaderboard reads are plain statements, as on SQLite.
*/
#include "backend.h"
#include "owner.h"
#include "pg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The first key of the games' advisory locks (the second is the game's
** hashtext): the two-key lock space, apart from pg_tables.c's one-key
** locks. */
#define RATINGS_LOCK "7461666"

/* Results are timed in seconds: of two in the same second, the table made
** later counts as the later (tables keeps the order it was made in). */
#define TABLE_ORDER(id) "(SELECT t.rowid FROM tables t WHERE t.id = " id ")"

/* ---- errors, rows ------------------------------------------------------ */

/* "storage: <context>: <reason>" into err; -1 to return. */
static int ratings_fail(char *err, size_t errsize, const char *context, const char *reason) {
    if (err && errsize > 0) snprintf(err, errsize, "storage: %s: %s", context, reason);
    return -1;
}

/* A statement's result whose rows are not wanted: 0, or -1 (err written
** by store_pg_exec). */
static int ratings_done(PGresult *r) {
    if (!r) return -1;
    PQclear(r);
    return 0;
}

/* Reads every row of r (cleared here) into the array *items of size-byte
** elements, zeroed, then filled by row().  How many, or -1 with err
** (*items NULL). */
static int ratings_read_rows(PGresult *r, void **items, size_t size,
                             void (*row)(const PGresult *, int, void *), const char *context,
                             char *err, size_t errsize) {
    *items = NULL;
    if (!r) return -1;
    int n = PQntuples(r);
    if (n > 0 && !(*items = calloc((size_t)n, size))) {
        PQclear(r);
        return ratings_fail(err, errsize, context, "out of memory");
    }
    for (int i = 0; i < n; i++) row(r, i, (char *)*items + size * (size_t)i);
    PQclear(r);
    return n;
}

/* Whether column col of row is NULL. */
static int ratings_null(const PGresult *r, int row, int col) { return PQgetisnull(r, row, col); }

/* ---- a table's results and ratings ------------------------------------ */

/* The game's advisory lock for this transaction: shared (results of a
** table) or exclusive (voiding and rating again).  0, or -1 with err. */
static int ratings_lock_game(store *db, const char *game, int exclusive, const char *context,
                             char *err, size_t errsize) {
    return ratings_done(store_pg_exec(
        db, err, errsize, context,
        exclusive ? "SELECT pg_advisory_xact_lock(" RATINGS_LOCK ", hashtext($1))"
                  : "SELECT pg_advisory_xact_lock_shared(" RATINGS_LOCK ", hashtext($1))",
        "t", game));
}

/* Locks the rating rows of the results' players at game, in player id
** order, each made first when missing (at the result's before, games 0);
** reads each one's before from it when it was there.  made[i] is set for
** the results whose row this call made.  0, or -1 with err. */
static int ratings_lock_players(store *db, const char *game, int n, store_result *results,
                                int *made, const char *context, char *err, size_t errsize) {
    int order[16];
    if (n > (int)(sizeof order / sizeof *order))
        return ratings_fail(err, errsize, context, "too many results");
    for (int i = 0; i < n; i++) {
        int j = i;
        for (; j > 0 && results[order[j - 1]].player > results[i].player; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    int64_t now = (int64_t)time(NULL);
    for (int k = 0; k < n; k++) {
        store_result *r = &results[order[k]];
        PGresult *ins = store_pg_exec(
            db, err, errsize, context,
            "INSERT INTO ratings (player, game, rating, rd, volatility, games, updated)"
            " VALUES ($1, $2, $3, $4, $5, 0, $6) ON CONFLICT DO NOTHING RETURNING player",
            "itdddi", r->player, game, r->before.rating, r->before.rd, r->before.volatility,
            now);
        if (!ins) return -1;
        made[order[k]] = PQntuples(ins) > 0;
        PQclear(ins);
        PGresult *row = store_pg_exec(db, err, errsize, context,
                                      "SELECT rating, rd, volatility FROM ratings"
                                      " WHERE player = $1 AND game = $2 FOR UPDATE",
                                      "it", r->player, game);
        if (!row) return -1;
        if (PQntuples(row) > 0 && !made[order[k]])
            r->before = (store_rating){store_pg_double(row, 0, 0), store_pg_double(row, 0, 1),
                                       store_pg_double(row, 0, 2)};
        PQclear(row);
    }
    return 0;
}

static int ratings_write_results(store *db, const char *id, const char *game, int n,
                                 const store_result *r, int rated, const int *made,
                                 const char *context, char *err, size_t errsize) {
    int64_t now = (int64_t)time(NULL);
    for (int i = 0; i < n; i++) {
        if (rated && r[i].rated) {
            if (ratings_done(store_pg_exec(
                    db, err, errsize, context,
                    "INSERT INTO results (table_id, seat, player, game, place, score, at,"
                    " rating_before, rd_before, rating_after, rd_after)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
                    "tiitididddd", id, (int64_t)r[i].seat, r[i].player, game,
                    (int64_t)r[i].place, r[i].score, now, r[i].before.rating, r[i].before.rd,
                    r[i].after.rating, r[i].after.rd)) ||
                ratings_done(store_pg_exec(
                    db, err, errsize, context,
                    "INSERT INTO ratings (player, game, rating, rd, volatility, games, updated)"
                    " VALUES ($1, $2, $3, $4, $5, 1, $6) ON CONFLICT (player, game) DO UPDATE"
                    " SET rating = excluded.rating, rd = excluded.rd,"
                    " volatility = excluded.volatility, games = ratings.games + 1,"
                    " updated = excluded.updated",
                    "itdddi", r[i].player, game, r[i].after.rating, r[i].after.rd,
                    r[i].after.volatility, now)))
                return -1;
            continue;
        }
        if (ratings_done(store_pg_exec(
                db, err, errsize, context,
                "INSERT INTO results (table_id, seat, player, game, place, score, at)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7)",
                "tiitidi", id, (int64_t)r[i].seat, r[i].player, game, (int64_t)r[i].place,
                r[i].score, now)))
            return -1;
        /* a row made only to be locked, for a result not rated: gone again */
        if (rated && made[i] &&
            ratings_done(store_pg_exec(db, err, errsize, context,
                                       "DELETE FROM ratings WHERE player = $1 AND game = $2"
                                       " AND games = 0",
                                       "it", r[i].player, game)))
            return -1;
    }
    return 0;
}

int pg_results_record(store *db, const char *table_id, const char *game, int n,
                      store_result *results, store_rate_fn rate, void *arg, char *err,
                      size_t errsize) {
    char context[80];
    snprintf(context, sizeof context, "recording the results of table %.24s",
             table_id ? table_id : "(null)");
    if (!table_id || !game || n < 0 || n > 16 || (n > 0 && !results))
        return ratings_fail(err, errsize, context, "no table, game or results given");
    int made[16] = {0};
    if (store_pg_begin(db, err, errsize)) return -1;
    int fenced = pg_fence_lock(db, table_id, 1, context, err, errsize); /* a node's own table */
    if (fenced) {
        store_pg_rollback(db);
        return fenced;
    }
    if (rate && ratings_lock_game(db, game, 0, context, err, errsize)) goto failed;
    PGresult *seen = store_pg_exec(db, err, errsize, context,
                                   "SELECT 1 FROM results WHERE table_id = $1 LIMIT 1", "t",
                                   table_id);
    if (!seen) goto failed;
    int done = PQntuples(seen) > 0;
    PQclear(seen);
    if (done) {
        store_pg_rollback(db);
        return 0;
    }
    if (rate && ratings_lock_players(db, game, n, results, made, context, err, errsize))
        goto failed;
    if (rate && rate(arg, n, results)) {
        ratings_fail(err, errsize, context, "the new ratings could not be reckoned");
        goto failed;
    }
    if (ratings_write_results(db, table_id, game, n, results, rate != NULL, made, context, err,
                              errsize) ||
        store_pg_commit(db, err, errsize))
        goto failed;
    return 1;
failed:
    store_pg_rollback(db);
    return -1;
}

int pg_rating_read(store *db, int64_t player, const char *game, store_rating *out, char *err,
                   size_t errsize) {
    if (!game) return ratings_fail(err, errsize, "reading a rating", "no game given");
    PGresult *r = store_pg_exec(db, err, errsize, "reading a rating",
                                "SELECT rating, rd, volatility FROM ratings"
                                " WHERE player = $1 AND game = $2",
                                "it", player, game);
    if (!r) return -1;
    int found = PQntuples(r) > 0;
    if (found)
        *out = (store_rating){store_pg_double(r, 0, 0), store_pg_double(r, 0, 1),
                              store_pg_double(r, 0, 2)};
    PQclear(r);
    return found;
}

/* ---- the leaderboard -------------------------------------------------- */

static void standing_row(const PGresult *r, int row, void *item) {
    store_standing *e = item;
    store_pg_text(r, row, 0, e->name, sizeof e->name);
    store_pg_text(r, row, 1, e->kind, sizeof e->kind);
    e->rating = store_pg_double(r, row, 2);
    e->rd = store_pg_double(r, row, 3);
    e->games = (int)store_pg_int(r, row, 4);
}

int pg_leaderboard_read(store *db, const char *game, int cap, store_standing **out, char *err,
                        size_t errsize) {
    static const char context[] = "reading the leaderboard";
    return ratings_read_rows(
        store_pg_exec(db, err, errsize, context,
                      "SELECT p.name, p.kind, r.rating, r.rd, r.games"
                      " FROM ratings r JOIN players p ON p.id = r.player"
                      " WHERE r.game = $1 AND r.games > 0 AND p.disabled = 0"
                      " ORDER BY r.rating DESC, p.name_key COLLATE \"C\" LIMIT $2",
                      "ti", game ? game : "", (int64_t)(cap < 0 ? 0 : cap)),
        (void **)out, sizeof **out, standing_row, context, err, errsize);
}

/* ---- profiles --------------------------------------------------------- */

static void game_record_row(const PGresult *r, int row, void *item) {
    store_game_record *g = item;
    store_pg_text(r, row, 0, g->game, sizeof g->game);
    g->played = (int)store_pg_int(r, row, 1);
    g->won = (int)store_pg_int(r, row, 2);
    g->lost = (int)store_pg_int(r, row, 3);
}

static void game_rating_row(const PGresult *r, int row, void *item) {
    store_game_rating *g = item;
    store_pg_text(r, row, 0, g->game, sizeof g->game);
    g->rating = store_pg_double(r, row, 1);
    g->rd = store_pg_double(r, row, 2);
    g->games = (int)store_pg_int(r, row, 3);
}

static void rating_point_row(const PGresult *r, int row, void *item) {
    store_rating_point *e = item;
    e->at = store_pg_int(r, row, 0);
    e->rating = store_pg_double(r, row, 1);
    e->rd = store_pg_double(r, row, 2);
    store_pg_text(r, row, 3, e->table_id, sizeof e->table_id);
}

static void opponent_row(const PGresult *r, int row, void *item) {
    store_opponent *e = item;
    store_pg_text(r, row, 0, e->name, sizeof e->name);
    store_pg_text(r, row, 1, e->kind, sizeof e->kind);
    e->place = (int)store_pg_int(r, row, 2);
}

static void profile_result_row(const PGresult *r, int row, void *item) {
    store_profile_result *e = item;
    store_pg_text(r, row, 0, e->table_id, sizeof e->table_id);
    store_pg_text(r, row, 1, e->game, sizeof e->game);
    e->at = store_pg_int(r, row, 2);
    e->place = (int)store_pg_int(r, row, 3);
    e->has_score = !ratings_null(r, row, 4);
    e->score = store_pg_double(r, row, 4);
    /* the four are written together (a rated result) or not at all */
    e->rated = !ratings_null(r, row, 6);
    e->rating_before = store_pg_double(r, row, 5);
    e->rating_after = store_pg_double(r, row, 6);
    e->rd_before = store_pg_double(r, row, 7);
    e->rd_after = store_pg_double(r, row, 8);
    e->seat = (int)store_pg_int(r, row, 9);
    e->players = (int)store_pg_int(r, row, 10);
    e->hidden = store_pg_int(r, row, 11) != 0;
    e->voided = store_pg_int(r, row, 12) != 0;
}

/* Each rating's history: the latest cap rated results, oldest first (the
** query gives them newest first). */
static int read_histories(store *db, int64_t id, int cap, store_profile *p, char *err,
                          size_t errsize) {
    for (int i = 0; i < p->nratings; i++) {
        store_game_rating *g = &p->ratings[i];
        int n = ratings_read_rows(
            store_pg_exec(db, err, errsize, "reading a player's ratings",
                          "SELECT at, rating_after, rd_after, table_id FROM results"
                          " WHERE player = $1 AND game = $2 AND rating_after IS NOT NULL"
                          " AND voided = 0"
                          " ORDER BY at DESC, " TABLE_ORDER("table_id") " DESC LIMIT $3",
                          "iti", id, g->game, (int64_t)(cap < 0 ? 0 : cap)),
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
static int read_opponents(store *db, store_profile *p, char *err, size_t errsize) {
    for (int i = 0; i < p->nresults; i++) {
        store_profile_result *e = &p->results[i];
        int n = ratings_read_rows(
            store_pg_exec(db, err, errsize, "reading a result's players",
                          "SELECT p.name, p.kind, o.place FROM results o"
                          " JOIN players p ON p.id = o.player"
                          " WHERE o.table_id = $1 AND o.seat <> $2"
                          " ORDER BY o.place, o.seat",
                          "ti", e->table_id, (int64_t)e->seat),
            (void **)&e->opponents, sizeof *e->opponents, opponent_row,
            "reading a result's players", err, errsize);
        if (n < 0) return -1;
        e->nopponents = n;
    }
    return 0;
}

int pg_profile_read(store *db, int64_t player, int64_t viewer, int history_cap,
                    int results_cap, store_profile *out, char *err, size_t errsize) {
    memset(out, 0, sizeof *out);
    PGresult *since = store_pg_exec(db, err, errsize, "reading a player",
                                    "SELECT created FROM players WHERE id = $1", "i", player);
    if (!since) return -1;
    if (PQntuples(since) > 0) out->since = store_pg_int(since, 0, 0);
    PQclear(since);
    out->ngames = ratings_read_rows(
        store_pg_exec(db, err, errsize, "reading a player's games",
                      "SELECT game, count(*),"
                      " count(*) FILTER (WHERE place = 1 AND NOT EXISTS (SELECT 1 FROM results x"
                      "  WHERE x.table_id = r.table_id AND x.seat <> r.seat AND x.place = 1)),"
                      " count(*) FILTER (WHERE place > 1)"
                      " FROM results r WHERE player = $1 AND voided = 0 GROUP BY game"
                      " ORDER BY game COLLATE \"C\"",
                      "i", player),
        (void **)&out->games, sizeof *out->games, game_record_row, "reading a player's games",
        err, errsize);
    if (out->ngames < 0) goto failed;
    out->nratings = ratings_read_rows(
        store_pg_exec(db, err, errsize, "reading a player's ratings",
                      "SELECT game, rating, rd, games FROM ratings WHERE player = $1"
                      " ORDER BY game COLLATE \"C\"",
                      "i", player),
        (void **)&out->ratings, sizeof *out->ratings, game_rating_row,
        "reading a player's ratings", err, errsize);
    if (out->nratings < 0 || read_histories(db, player, history_cap, out, err, errsize))
        goto failed;
    out->nresults = ratings_read_rows(
        store_pg_exec(db, err, errsize, "reading a player's results",
                      "SELECT r.table_id, r.game, r.at, r.place, r.score,"
                      " r.rating_before, r.rating_after, r.rd_before, r.rd_after, r.seat,"
                      " (SELECT count(*) FROM seats s WHERE s.table_id = r.table_id),"
                      " CASE WHEN (SELECT private FROM tables t WHERE t.id = r.table_id) <> 0"
                      "  AND NOT EXISTS (SELECT 1 FROM seats v"
                      "   WHERE v.table_id = r.table_id AND v.player = $3)"
                      "  THEN 1 ELSE 0 END,"
                      " r.voided"
                      " FROM results r WHERE r.player = $1"
                      " ORDER BY r.at DESC, " TABLE_ORDER("r.table_id") " DESC LIMIT $2",
                      "iii", player, (int64_t)(results_cap < 0 ? 0 : results_cap), viewer),
        (void **)&out->results, sizeof *out->results, profile_result_row,
        "reading a player's results", err, errsize);
    if (out->nresults < 0 || read_opponents(db, out, err, errsize)) goto failed;
    return 0;
failed:
    store_profile_free(out);
    return -1;
}

/* ---- voiding results and rating a game again --------------------------- */

static void rerate_player_row(const PGresult *r, int row, void *item) {
    store_rerate_player *p = item;
    p->id = store_pg_int(r, row, 0);
    if (ratings_null(r, row, 1)) snprintf(p->name, sizeof p->name, "?");
    else store_pg_text(r, row, 1, p->name, sizeof p->name);
    p->old_rating = store_pg_double(r, row, 2);
}

static void rerate_result_row(const PGresult *r, int row, void *item) {
    store_rerate_result *e = item;
    e->seat = (int)store_pg_int(r, row, 0);
    store_pg_text(r, row, 1, e->table_id, sizeof e->table_id);
    e->player = store_pg_int(r, row, 2);
    e->place = (int)store_pg_int(r, row, 3);
}

/* The game's players (by id) and its rated results not voided, in the
** order they were rated: read whole before any is rewritten. */
static int rerate_read(store *db, store_rerate_game *g, char *err, size_t errsize) {
    g->nplayers = ratings_read_rows(
        store_pg_exec(db, err, errsize, "reading the results",
                      "SELECT r.player, p.name, r.rating FROM ratings r"
                      " JOIN players p ON p.id = r.player WHERE r.game = $1"
                      " ORDER BY r.player",
                      "t", g->game),
        (void **)&g->players, sizeof *g->players, rerate_player_row, "reading the results", err,
        errsize);
    if (g->nplayers < 0) return -1;
    g->nresults = ratings_read_rows(
        store_pg_exec(db, err, errsize, "reading the results",
                      "SELECT r.seat, r.table_id, r.player, r.place FROM results r"
                      " WHERE r.game = $1 AND r.rating_after IS NOT NULL"
                      " AND r.voided = 0 ORDER BY r.at, " TABLE_ORDER("r.table_id") ","
                      " r.table_id COLLATE \"C\", r.seat",
                      "t", g->game),
        (void **)&g->results, sizeof *g->results, rerate_result_row, "reading the results", err,
        errsize);
    return g->nresults < 0 ? -1 : 0;
}

/* Stores what rerate reckoned: each result's ratings, each player's. */
static int rerate_write(store *db, const store_rerate_game *g, char *err, size_t errsize) {
    for (int i = 0; i < g->nresults; i++) {
        const store_rerate_result *r = &g->results[i];
        if (ratings_done(store_pg_exec(db, err, errsize, "storing a result",
                                       "UPDATE results SET rating_before = $1, rd_before = $2,"
                                       " rating_after = $3, rd_after = $4"
                                       " WHERE table_id = $5 AND seat = $6",
                                       "ddddti", r->before.rating, r->before.rd,
                                       r->after.rating, r->after.rd, r->table_id,
                                       (int64_t)r->seat)))
            return -1;
    }
    int64_t now = (int64_t)time(NULL);
    for (int i = 0; i < g->nplayers; i++) {
        const store_rerate_player *p = &g->players[i];
        if (ratings_done(store_pg_exec(db, err, errsize, "storing a rating",
                                       "UPDATE ratings SET rating = $1, rd = $2,"
                                       " volatility = $3, games = $4, updated = $5"
                                       " WHERE player = $6 AND game = $7",
                                       "dddiiit", p->now.rating, p->now.rd, p->now.volatility,
                                       (int64_t)p->games, now, p->id, g->game)))
            return -1;
    }
    return 0;
}

static int rerate_game(store *db, const char *game, store_rerate_fn rerate, void *arg,
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

static void voided_row(const PGresult *r, int row, void *item) {
    store_voided_table *v = item;
    store_pg_text(r, row, 0, v->id, sizeof v->id);
    store_pg_text(r, row, 1, v->game, sizeof v->game);
    v->at = store_pg_int(r, row, 2);
}

/* The tables whose results voiding would void, oldest first, into
** *tables: how many, or -1 with err. */
static int void_read(store *db, int64_t player, const char *game, store_voided_table **tables,
                     char *err, size_t errsize) {
    /* a NULL text binds NULL: every game */
    return ratings_read_rows(
        store_pg_exec(db, err, errsize, "reading the results",
                      "SELECT r.table_id, r.game, r.at FROM results r"
                      " WHERE ($1::text IS NULL OR r.game = $1) AND r.player = $2"
                      " AND r.rating_after IS NOT NULL AND r.voided = 0"
                      " ORDER BY r.at, " TABLE_ORDER("r.table_id"),
                      "ti", game, player),
        (void **)tables, sizeof **tables, voided_row, "reading the results", err, errsize);
}

typedef char game_name[STORE_GAME_MAX];

static int game_order(const void *a, const void *b) { return strcmp(a, b); }

/* Takes the exclusive lock of each game of the tables that is not in
** locked[0..*nlocked) yet, in byte order, and adds it there.  How many it
** took (0: the tables name no new game), or -1 with err. */
static int void_lock_games(store *db, const store_voided_table *tables, int n,
                           game_name **locked, int *nlocked, char *err, size_t errsize) {
    game_name *grown = realloc(*locked, sizeof **locked * (size_t)(*nlocked + n + 1));
    if (!grown) return ratings_fail(err, errsize, "voiding", "out of memory");
    *locked = grown;
    int fresh = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < *nlocked + fresh && !seen; j++)
            seen = !strcmp(grown[j], tables[i].game);
        if (!seen) snprintf(grown[*nlocked + fresh++], sizeof *grown, "%s", tables[i].game);
    }
    qsort(grown + *nlocked, (size_t)fresh, sizeof *grown, game_order);
    for (int i = 0; i < fresh; i++)
        if (ratings_lock_game(db, grown[*nlocked + i], 1, "voiding", err, errsize)) return -1;
    *nlocked += fresh;
    return fresh;
}

/* The tables are read, their games locked, and read again until no new
** game shows up (another server may have recorded a result of the player
** in between): what is voided and rated again is read under the locks. */
int pg_results_void(store *db, int64_t player, const char *game, store_rerate_fn rerate,
                    void *arg, store_voided_table **tables, char *err, size_t errsize) {
    *tables = NULL;
    game_name *locked = NULL;
    int nlocked = 0, n = -1;
    if (store_pg_begin(db, err, errsize)) return -1;
    for (int fresh = 1; fresh > 0;) {
        free(*tables);
        n = void_read(db, player, game, tables, err, errsize);
        fresh = n < 0 ? -1 : void_lock_games(db, *tables, n, &locked, &nlocked, err, errsize);
        if (fresh < 0) n = -1;
    }
    int ok = n >= 0;
    for (int i = 0; ok && i < n; i++)
        ok = ratings_done(store_pg_exec(db, err, errsize, "voiding",
                                        "UPDATE results SET voided = 1 WHERE table_id = $1",
                                        "t", (*tables)[i].id)) == 0;
    for (int i = 0; ok && i < nlocked; i++)
        ok = rerate_game(db, locked[i], rerate, arg, err, errsize) == 0;
    free(locked);
    if (ok && store_pg_commit(db, err, errsize)) ok = 0;
    if (!ok) {
        store_pg_rollback(db);
        free(*tables);
        *tables = NULL;
        return -1;
    }
    return n;
}
