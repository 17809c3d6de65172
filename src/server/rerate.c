/*
** rerate.c -- voiding rated results and rating a game again (rerate.h).
**
** A game is rated again in memory: its players (every row of ratings for
** it, sorted by id), and its remaining rated results read whole before any
** is rewritten, in the order they were rated.  The results of one table
** are consecutive in that order (they share results.at and the table).
*/
#include "rerate.h"

#include "glicko2.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct rated_player {
    int64_t id;
    char name[64];
    double old_rating;
    glicko2_rating now;
    int games;
} rated_player;

typedef struct rated_result {
    int64_t player;
    char table_id[24];
    int seat, place;
} rated_result;

static int db_error(sqlite3 *db, const char *what, char *err, size_t errsize) {
    snprintf(err, errsize, "%s: %s", what, sqlite3_errmsg(db));
    return -1;
}

/* Grows *items (of size bytes each) to hold one more; -1 out of memory. */
static int grow(void **items, int n, int *cap, size_t size) {
    if (n < *cap) return 0;
    int more = *cap ? 2 * *cap : 64;
    void *p = realloc(*items, size * (size_t)more);
    if (!p) return -1;
    *items = p;
    *cap = more;
    return 0;
}

static int by_id(const void *a, const void *b) {
    int64_t x = ((const rated_player *)a)->id, y = ((const rated_player *)b)->id;
    return x < y ? -1 : x > y;
}

static const char *text_or(sqlite3_stmt *st, int col, const char *otherwise) {
    const unsigned char *t = sqlite3_column_text(st, col);
    return t ? (const char *)t : otherwise;
}

/* Reads the rows of sql (its ?1 bound to text, its ?2 to number when
** number > 0) into the array *items of size-byte elements, one by row()
** each.  0, or -1 with err. */
static int read_rows(sqlite3 *db, const char *sql, const char *text, int64_t number,
                     void **items, int *n, size_t size, void (*row)(sqlite3_stmt *, void *),
                     char *err, size_t errsize) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return db_error(db, "reading the results", err, errsize);
    if (text) sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
    if (number > 0) sqlite3_bind_int64(st, 2, number);
    int cap = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (grow(items, *n, &cap, size)) {
            sqlite3_finalize(st);
            return snprintf(err, errsize, "out of memory"), -1;
        }
        row(st, (char *)*items + size * (size_t)(*n)++);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : db_error(db, "reading the results", err, errsize);
}

/* A player rated at the game, starting again as new. */
static void player_row(sqlite3_stmt *st, void *item) {
    rated_player *p = item;
    p->id = sqlite3_column_int64(st, 0);
    snprintf(p->name, sizeof p->name, "%s", text_or(st, 1, "?"));
    p->old_rating = sqlite3_column_double(st, 2);
    p->now = (glicko2_rating){GLICKO2_RATING, GLICKO2_RD, GLICKO2_VOLATILITY};
    p->games = 0;
}

static void result_row(sqlite3_stmt *st, void *item) {
    rated_result *r = item;
    r->seat = sqlite3_column_int(st, 0);
    snprintf(r->table_id, sizeof r->table_id, "%s", text_or(st, 1, ""));
    r->player = sqlite3_column_int64(st, 2);
    r->place = sqlite3_column_int(st, 3);
}

/* The players of game (by id), and its rated results not voided in the
** order they were rated. */
static int read_game(sqlite3 *db, const char *game, rated_player **players, int *nplayers,
                     rated_result **results, int *nresults, char *err, size_t errsize) {
    return read_rows(db, "SELECT r.player, p.name, r.rating FROM ratings r"
                         " JOIN players p ON p.id = r.player WHERE r.game = ?1"
                         " ORDER BY r.player",
                     game, 0, (void **)players, nplayers, sizeof **players, player_row, err,
                     errsize) ||
                   read_rows(db, "SELECT r.seat, r.table_id, r.player, r.place FROM results r"
                                 " WHERE r.game = ?1 AND r.rating_after IS NOT NULL"
                                 " AND r.voided = 0 ORDER BY r.at,"
                                 " (SELECT rowid FROM tables WHERE id = r.table_id),"
                                 " r.table_id, r.seat",
                             game, 0, (void **)results, nresults, sizeof **results, result_row,
                             err, errsize)
               ? -1
               : 0;
}

/* Steps a statement that returns no row, and resets it for its next
** values. */
static int step_reset(sqlite3_stmt *st) {
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* Rates one table's results (results[from..to)) as the server did. */
static int rate_table(rated_result *results, int from, int to, rated_player *players,
                      int nplayers, sqlite3_stmt *update, char *err, size_t errsize) {
    /* zeroed: gcc's -O1 sanitizer build cannot see that n > 0 fills them */
    int n = to - from, places[GLICKO2_MAX_SEATS] = {0};
    glicko2_rating before[GLICKO2_MAX_SEATS] = {{0}}, after[GLICKO2_MAX_SEATS];
    rated_player *who[GLICKO2_MAX_SEATS];
    if (n > GLICKO2_MAX_SEATS) {
        snprintf(err, errsize, "table %s has %d rated results", results[from].table_id, n);
        return -1;
    }
    for (int k = 0; k < n; k++) {
        rated_player key = {.id = results[from + k].player};
        who[k] = bsearch(&key, players, (size_t)nplayers, sizeof *players, by_id);
        if (!who[k]) {
            snprintf(err, errsize, "table %s: player %lld has a rated result but no rating",
                     results[from].table_id, (long long)key.id);
            return -1;
        }
        places[k] = results[from + k].place;
        before[k] = who[k]->now;
    }
    glicko2_rate_places(n, places, before, after);
    for (int k = 0; k < n; k++) {
        sqlite3_bind_double(update, 1, before[k].rating);
        sqlite3_bind_double(update, 2, before[k].rd);
        sqlite3_bind_double(update, 3, after[k].rating);
        sqlite3_bind_double(update, 4, after[k].rd);
        sqlite3_bind_text(update, 5, results[from + k].table_id, -1, SQLITE_STATIC);
        sqlite3_bind_int(update, 6, results[from + k].seat);
        if (step_reset(update)) return -1;
        who[k]->now = after[k];
        who[k]->games++;
    }
    return 0;
}

/* Rates game again from scratch and stores it; prints whose rating changed. */
static int rerate_game(sqlite3 *db, const char *game, FILE *out, char *err, size_t errsize) {
    rated_player *players = NULL;
    rated_result *results = NULL;
    int nplayers = 0, nresults = 0, rc = -1;
    sqlite3_stmt *update = NULL, *store = NULL;
    if (read_game(db, game, &players, &nplayers, &results, &nresults, err, errsize)) goto done;
    if (sqlite3_prepare_v2(db, "UPDATE results SET rating_before = ?1, rd_before = ?2,"
                               " rating_after = ?3, rd_after = ?4 WHERE table_id = ?5 AND seat = ?6",
                           -1, &update, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "UPDATE ratings SET rating = ?1, rd = ?2, volatility = ?3,"
                               " games = ?4, updated = ?5 WHERE player = ?6 AND game = ?7",
                           -1, &store, NULL) != SQLITE_OK) {
        db_error(db, "rating again", err, errsize);
        goto done;
    }
    for (int from = 0, to; from < nresults; from = to) {
        for (to = from + 1; to < nresults && !strcmp(results[to].table_id, results[from].table_id);)
            to++;
        if (rate_table(results, from, to, players, nplayers, update, err, errsize)) {
            if (!err[0]) db_error(db, "storing a result", err, errsize);
            goto done;
        }
    }
    int64_t now = (int64_t)time(NULL);
    sqlite3_bind_text(store, 7, game, -1, SQLITE_STATIC);
    for (int i = 0; i < nplayers; i++) {
        rated_player *p = &players[i];
        sqlite3_bind_double(store, 1, p->now.rating);
        sqlite3_bind_double(store, 2, p->now.rd);
        sqlite3_bind_double(store, 3, p->now.volatility);
        sqlite3_bind_int(store, 4, p->games);
        sqlite3_bind_int64(store, 5, now);
        sqlite3_bind_int64(store, 6, p->id);
        if (step_reset(store)) {
            db_error(db, "storing a rating", err, errsize);
            goto done;
        }
        if (fabs(p->now.rating - p->old_rating) > 1e-9)
            fprintf(out, "%s: %s %.0f -> %.0f (%d rated game%s)\n", p->name, game,
                    p->old_rating, p->now.rating, p->games, p->games == 1 ? "" : "s");
    }
    rc = 0;
done:
    sqlite3_finalize(update);
    sqlite3_finalize(store);
    free(players);
    free(results);
    return rc;
}

/* The tables to void: the player's rated, not yet voided, oldest first,
** each with its game. */
typedef struct voided_table {
    char id[24], game[64];
    int64_t at;
} voided_table;

static void table_row(sqlite3_stmt *st, void *item) {
    voided_table *v = item;
    snprintf(v->id, sizeof v->id, "%s", text_or(st, 0, ""));
    snprintf(v->game, sizeof v->game, "%s", text_or(st, 1, ""));
    v->at = sqlite3_column_int64(st, 2);
}

static int find_tables(sqlite3 *db, int64_t player, const char *game, voided_table **out,
                       int *n, FILE *report, char *err, size_t errsize) {
    if (read_rows(db, "SELECT r.table_id, r.game, r.at FROM results r"
                      " WHERE (?1 IS NULL OR r.game = ?1) AND r.player = ?2"
                      " AND r.rating_after IS NOT NULL AND r.voided = 0"
                      " ORDER BY r.at, (SELECT rowid FROM tables WHERE id = r.table_id)",
                  game, player, (void **)out, n, sizeof **out, table_row, err, errsize))
        return -1;
    for (int i = 0; i < *n; i++) {
        time_t at = (time_t)(*out)[i].at;
        struct tm tm;
        char when[32];
        gmtime_r(&at, &tm);
        strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
        fprintf(report, "voided table %s (%s, %s UTC)\n", (*out)[i].id, (*out)[i].game, when);
    }
    return 0;
}

int rerate_void_player(sqlite3 *db, int64_t player, const char *game, FILE *out, char *err,
                       size_t errsize) {
    err[0] = 0;
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return db_error(db, "starting", err, errsize);
    voided_table *tables = NULL;
    int n = 0, ok = find_tables(db, player, game, &tables, &n, out, err, errsize) == 0;
    sqlite3_stmt *st = NULL;
    if (ok && n && sqlite3_prepare_v2(db, "UPDATE results SET voided = 1 WHERE table_id = ?1",
                                      -1, &st, NULL) != SQLITE_OK)
        ok = db_error(db, "voiding", err, errsize) == 0;
    for (int i = 0; ok && i < n; i++) {
        sqlite3_bind_text(st, 1, tables[i].id, -1, SQLITE_STATIC);
        if (step_reset(st)) ok = db_error(db, "voiding", err, errsize) == 0;
    }
    sqlite3_finalize(st);
    /* each game once: the tables of one game need not be next to each other */
    for (int i = 0; ok && i < n; i++) {
        int seen = 0;
        for (int j = 0; j < i && !seen; j++) seen = !strcmp(tables[j].game, tables[i].game);
        if (!seen) ok = rerate_game(db, tables[i].game, out, err, errsize) == 0;
    }
    free(tables);
    if (ok && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        ok = db_error(db, "committing", err, errsize) == 0;
    if (!ok) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return n;
}
