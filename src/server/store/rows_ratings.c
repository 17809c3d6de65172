/*
** rows_ratings.c -- ratings, the leaderboard, profiles and the results a
** void rewrites, assembled from their rows (backend.h, "rows_ratings.c").
**
** pg_ratings.c and sqlite_ratings.c give the SQL (rows_ratings_sql) and
** keep what differs: how a table's results are recorded and a void is
** locked and written.  What a profile is made of, and in which order, is
** here once, read through store_query.  Owns no state.
*/
#include "backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void rating_row(const store_rows *rows, void *item) {
    *(store_rating *)item = (store_rating){store_col_double(rows, 0), store_col_double(rows, 1),
                                           store_col_double(rows, 2)};
}

int rows_rating_read(store *db, const rows_ratings_sql *sql, int64_t player, const char *game,
                     store_rating *out, const char *context, char *err, size_t errsize) {
    if (!game) return store_fail(err, errsize, context, "no game given");
    store_rows rows;
    return store_rows_first(
        store_query(db, &rows, context, err, errsize, sql->rating, "it", player, game),
        rating_row, out, err, errsize);
}

static void standing_row(const store_rows *rows, void *item) {
    store_standing *e = item;
    store_col_text(rows, 0, e->name, sizeof e->name);
    store_col_text(rows, 1, e->kind, sizeof e->kind);
    e->rating = store_col_double(rows, 2);
    e->rd = store_col_double(rows, 3);
    e->games = (int)store_col_int(rows, 4);
}

int rows_leaderboard_read(store *db, const rows_ratings_sql *sql, const char *game, int cap,
                          store_standing **out, char *err, size_t errsize) {
    store_rows rows;
    return store_rows_all(store_query(db, &rows, "reading the leaderboard", err, errsize,
                                      sql->leaderboard, "ti", game ? game : "", (int64_t)cap),
                          (void **)out, sizeof **out, standing_row, err, errsize);
}

/* ---- profiles --------------------------------------------------------- */

static void game_record_row(const store_rows *rows, void *item) {
    store_game_record *g = item;
    store_col_text(rows, 0, g->game, sizeof g->game);
    g->played = (int)store_col_int(rows, 1);
    g->won = (int)store_col_int(rows, 2);
    g->lost = (int)store_col_int(rows, 3);
}

static void game_rating_row(const store_rows *rows, void *item) {
    store_game_rating *g = item;
    store_col_text(rows, 0, g->game, sizeof g->game);
    g->rating = store_col_double(rows, 1);
    g->rd = store_col_double(rows, 2);
    g->games = (int)store_col_int(rows, 3);
}

static void rating_point_row(const store_rows *rows, void *item) {
    store_rating_point *e = item;
    e->at = store_col_int(rows, 0);
    e->rating = store_col_double(rows, 1);
    e->rd = store_col_double(rows, 2);
    store_col_text(rows, 3, e->table_id, sizeof e->table_id);
}

static void opponent_row(const store_rows *rows, void *item) {
    store_opponent *e = item;
    store_col_text(rows, 0, e->name, sizeof e->name);
    store_col_text(rows, 1, e->kind, sizeof e->kind);
    e->place = (int)store_col_int(rows, 2);
}

static void profile_result_row(const store_rows *rows, void *item) {
    store_profile_result *e = item;
    store_col_text(rows, 0, e->table_id, sizeof e->table_id);
    store_col_text(rows, 1, e->game, sizeof e->game);
    e->at = store_col_int(rows, 2);
    e->place = (int)store_col_int(rows, 3);
    e->has_score = !store_col_null(rows, 4);
    e->score = store_col_double(rows, 4);
    /* the four are written together (a rated result) or not at all */
    e->rated = !store_col_null(rows, 6);
    e->rating_before = store_col_double(rows, 5);
    e->rating_after = store_col_double(rows, 6);
    e->rd_before = store_col_double(rows, 7);
    e->rd_after = store_col_double(rows, 8);
    e->seat = (int)store_col_int(rows, 9);
    e->players = (int)store_col_int(rows, 10);
    e->hidden = store_col_int(rows, 11) != 0;
    e->voided = store_col_int(rows, 12) != 0;
}

/* When the player came: 0 when there is no such player. */
static void since_row(const store_rows *rows, void *item) {
    ((store_profile *)item)->since = store_col_int(rows, 0);
}

/* Each rating's history: the latest cap rated results, oldest first (the
** query gives them newest first). */
static int read_histories(store *db, const rows_ratings_sql *sql, int64_t id, int cap,
                          store_profile *p, char *err, size_t errsize) {
    for (int i = 0; i < p->nratings; i++) {
        store_game_rating *g = &p->ratings[i];
        store_rows rows;
        int n = store_rows_all(store_query(db, &rows, "reading a player's ratings", err, errsize,
                                           sql->history, "iti", id, g->game, (int64_t)cap),
                               (void **)&g->history, sizeof *g->history, rating_point_row, err,
                               errsize);
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
static int read_opponents(store *db, const rows_ratings_sql *sql, store_profile *p, char *err,
                          size_t errsize) {
    for (int i = 0; i < p->nresults; i++) {
        store_profile_result *e = &p->results[i];
        store_rows rows;
        int n = store_rows_all(store_query(db, &rows, "reading a result's players", err, errsize,
                                           sql->opponents, "ti", e->table_id, (int64_t)e->seat),
                               (void **)&e->opponents, sizeof *e->opponents, opponent_row, err,
                               errsize);
        if (n < 0) return -1;
        e->nopponents = n;
    }
    return 0;
}

int rows_profile_read(store *db, const rows_ratings_sql *sql, int64_t player, int64_t viewer,
                      int history_cap, int results_cap, store_profile *out, char *err,
                      size_t errsize) {
    memset(out, 0, sizeof *out);
    store_rows rows;
    if (store_rows_first(store_query(db, &rows, "reading a player", err, errsize, sql->since,
                                     "i", player),
                         since_row, out, err, errsize) < 0)
        return -1;
    out->ngames = store_rows_all(store_query(db, &rows, "reading a player's games", err,
                                             errsize, sql->games, "i", player),
                                 (void **)&out->games, sizeof *out->games, game_record_row, err,
                                 errsize);
    if (out->ngames < 0) goto failed;
    out->nratings = store_rows_all(store_query(db, &rows, "reading a player's ratings", err,
                                               errsize, sql->ratings, "i", player),
                                   (void **)&out->ratings, sizeof *out->ratings,
                                   game_rating_row, err, errsize);
    if (out->nratings < 0 ||
        read_histories(db, sql, player, history_cap, out, err, errsize))
        goto failed;
    out->nresults = store_rows_all(store_query(db, &rows, "reading a player's results", err,
                                               errsize, sql->results, "iii", player,
                                               (int64_t)results_cap, viewer),
                                   (void **)&out->results, sizeof *out->results,
                                   profile_result_row, err, errsize);
    if (out->nresults < 0 || read_opponents(db, sql, out, err, errsize)) goto failed;
    return 0;
failed:
    store_profile_free(out);
    return -1;
}

/* ---- voiding results and rating a game again --------------------------- */

static void voided_row(const store_rows *rows, void *item) {
    store_voided_table *v = item;
    store_col_text(rows, 0, v->id, sizeof v->id);
    store_col_text(rows, 1, v->game, sizeof v->game);
    v->at = store_col_int(rows, 2);
}

int rows_voided_read(store *db, const rows_ratings_sql *sql, int64_t player, const char *game,
                     store_voided_table **tables, char *err, size_t errsize) {
    store_rows rows;
    /* a NULL text binds NULL: every game */
    return store_rows_all(store_query(db, &rows, "reading the results", err, errsize,
                                      sql->voided, "ti", game, player),
                          (void **)tables, sizeof **tables, voided_row, err, errsize);
}

static void rerate_player_row(const store_rows *rows, void *item) {
    store_rerate_player *p = item;
    p->id = store_col_int(rows, 0);
    if (store_col_null(rows, 1)) snprintf(p->name, sizeof p->name, "?");
    else store_col_text(rows, 1, p->name, sizeof p->name);
    p->old_rating = store_col_double(rows, 2);
}

static void rerate_result_row(const store_rows *rows, void *item) {
    store_rerate_result *e = item;
    e->seat = (int)store_col_int(rows, 0);
    store_col_text(rows, 1, e->table_id, sizeof e->table_id);
    e->player = store_col_int(rows, 2);
    e->place = (int)store_col_int(rows, 3);
}

/* The game's players (by id) and its rated results not voided, in the
** order they were rated: read whole before any is rewritten. */
static int rerate_read(store *db, const rows_ratings_sql *sql, store_rerate_game *g, char *err,
                       size_t errsize) {
    static const char context[] = "reading the results";
    store_rows rows;
    g->nplayers = store_rows_all(
        store_query(db, &rows, context, err, errsize, sql->rerate_players, "t", g->game),
        (void **)&g->players, sizeof *g->players, rerate_player_row, err, errsize);
    if (g->nplayers < 0) return -1;
    g->nresults = store_rows_all(
        store_query(db, &rows, context, err, errsize, sql->rerate_results, "t", g->game),
        (void **)&g->results, sizeof *g->results, rerate_result_row, err, errsize);
    return g->nresults < 0 ? -1 : 0;
}

int rows_rerate_game(store *db, const rows_ratings_sql *sql, const char *game,
                     store_rerate_fn rerate, void *arg,
                     int (*write)(store *, const store_rerate_game *, char *, size_t),
                     char *err, size_t errsize) {
    store_rerate_game g = {.game = game};
    int rc = rerate_read(db, sql, &g, err, errsize) || rerate(arg, &g, err, errsize) ||
                     write(db, &g, err, errsize)
                 ? -1
                 : 0;
    free(g.players);
    free(g.results);
    return rc;
}
