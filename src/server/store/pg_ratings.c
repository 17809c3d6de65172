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
** Profile and leaderboard reads are plain statements, as on SQLite: what
** they make of the rows is rows_ratings.c's, the SQL here (pg_ratings_sql).
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

/* What rows_ratings.c reads, in PostgreSQL's words.  Names sort by bytes
** (COLLATE "C") as SQLite's BINARY collation has them, and a negative cap
** reads no row (PostgreSQL refuses a negative LIMIT). */
const rows_ratings_sql pg_ratings_sql = {
    .rating = "SELECT rating, rd, volatility FROM ratings WHERE player = $1 AND game = $2",
    .leaderboard = "SELECT p.name, p.kind, r.rating, r.rd, r.games"
                   " FROM ratings r JOIN players p ON p.id = r.player"
                   " WHERE r.game = $1 AND r.games > 0 AND p.disabled = 0"
                   " ORDER BY r.rating DESC, p.name_key COLLATE \"C\" LIMIT greatest($2, 0)",
    .since = "SELECT created FROM players WHERE id = $1",
    .games = "SELECT game, count(*),"
             " count(*) FILTER (WHERE place = 1 AND NOT EXISTS (SELECT 1 FROM results x"
             "  WHERE x.table_id = r.table_id AND x.seat <> r.seat AND x.place = 1)),"
             " count(*) FILTER (WHERE place > 1)"
             " FROM results r WHERE player = $1 AND voided = 0 GROUP BY game"
             " ORDER BY game COLLATE \"C\"",
    .ratings = "SELECT game, rating, rd, games FROM ratings WHERE player = $1"
               " ORDER BY game COLLATE \"C\"",
    .history = "SELECT at, rating_after, rd_after, table_id FROM results"
               " WHERE player = $1 AND game = $2 AND rating_after IS NOT NULL AND voided = 0"
               " ORDER BY at DESC, " TABLE_ORDER("table_id") " DESC LIMIT greatest($3, 0)",
    .results = "SELECT r.table_id, r.game, r.at, r.place, r.score,"
               " r.rating_before, r.rating_after, r.rd_before, r.rd_after, r.seat,"
               " (SELECT count(*) FROM seats s WHERE s.table_id = r.table_id),"
               " CASE WHEN (SELECT private FROM tables t WHERE t.id = r.table_id) <> 0"
               "  AND NOT EXISTS (SELECT 1 FROM seats v"
               "   WHERE v.table_id = r.table_id AND v.player = $3)"
               "  THEN 1 ELSE 0 END,"
               " r.voided"
               " FROM results r WHERE r.player = $1"
               " ORDER BY r.at DESC, " TABLE_ORDER("r.table_id") " DESC LIMIT greatest($2, 0)",
    .opponents = "SELECT p.name, p.kind, o.place FROM results o"
                 " JOIN players p ON p.id = o.player"
                 " WHERE o.table_id = $1 AND o.seat <> $2 ORDER BY o.place, o.seat",
    .rerate_players = "SELECT r.player, p.name, r.rating FROM ratings r"
                      " JOIN players p ON p.id = r.player WHERE r.game = $1 ORDER BY r.player",
    .rerate_results = "SELECT r.seat, r.table_id, r.player, r.place FROM results r"
                      " WHERE r.game = $1 AND r.rating_after IS NOT NULL"
                      " AND r.voided = 0 ORDER BY r.at, " TABLE_ORDER("r.table_id") ","
                      " r.table_id COLLATE \"C\", r.seat",
    .voided = "SELECT r.table_id, r.game, r.at FROM results r"
              " WHERE ($1::text IS NULL OR r.game = $1) AND r.player = $2"
              " AND r.rating_after IS NOT NULL AND r.voided = 0"
              " ORDER BY r.at, " TABLE_ORDER("r.table_id"),
};

/* ---- errors ---------------------------------------------------------- */

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

/* ---- voiding results and rating a game again --------------------------- */

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
        n = rows_voided_read(db, &pg_ratings_sql, player, game, tables, err, errsize);
        fresh = n < 0 ? -1 : void_lock_games(db, *tables, n, &locked, &nlocked, err, errsize);
        if (fresh < 0) n = -1;
    }
    int ok = n >= 0;
    for (int i = 0; ok && i < n; i++)
        ok = ratings_done(store_pg_exec(db, err, errsize, "voiding",
                                        "UPDATE results SET voided = 1 WHERE table_id = $1",
                                        "t", (*tables)[i].id)) == 0;
    for (int i = 0; ok && i < nlocked; i++)
        ok = rows_rerate_game(db, &pg_ratings_sql, locked[i], rerate, arg, rerate_write, err,
                              errsize) == 0;
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
