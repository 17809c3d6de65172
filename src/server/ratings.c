/*
** ratings.c -- rated tables, results and Glicko-2 ratings, the leaderboard
** and the profiles (ratings.h).
**
** A seat's player is the one bound to it (an account or guest who claimed
** it or was invited), or, for a seat a rated bot plays from the start, that
** bot's rating holder (players_bot).  Places come from the final scores,
** ties sharing a place; a seat that gave up -- resigned, forfeited, or a
** person's seat a bot took over (a hand-over, or time run out at three or
** more) -- places last.  The rating period is the game (ratings.h).
*/
#include "ratings.h"

#include "glicko2.h"
#include "players.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* The bots that hold ratings (players.c has the same list). */
static const char *const RATED_BOTS[] = {"easy", "medium", "hard"};

/* Kept per profile: the latest results listed, and the rating points
** plotted per game. */
#define RESULTS_LISTED 100
#define HISTORY_POINTS 500
#define LEADERBOARD_MAX 200
/* Results are timed in seconds: of two in the same second, the table made
** later (tables keeps its rowid) counts as the later. */
#define LATER_TABLE "(SELECT rowid FROM tables WHERE id = table_id) DESC"

static int rated_bot(const char *spec) {
    for (size_t i = 0; i < sizeof RATED_BOTS / sizeof *RATED_BOTS; i++)
        if (!strcmp(spec, RATED_BOTS[i])) return 1;
    return 0;
}

/* ---- rated-table rules ------------------------------------------------ */

int ratings_check_create(const char *const *specs, int nspecs, int has_seed,
                         const table_options *opt, const char **code, char *msg,
                         size_t msgsize) {
    if (!opt->rated) return 0;
    if (opt->creator.kind != PLAYER_ACCOUNT) {
        *code = "rated_accounts_only";
        snprintf(msg, msgsize, "only a player with an account may make a rated table: log in "
                               "or sign up first");
        return -1;
    }
    *code = "bad_game";
    if (has_seed) {
        snprintf(msg, msgsize, "a rated table's deal is the server's: leave out \"seed\"");
        return -1;
    }
    if (nspecs < 2) {
        snprintf(msg, msgsize, "a rated table needs at least two seats");
        return -1;
    }
    /* A clock of seconds decides a rated game before a person can move:
    ** the floor is what a player needs to open a page and answer
    ** (docs/club.md, "Rated tables"). */
    if (opt->clock.kind == TABLE_CLOCK_REALTIME && opt->clock.base_ms < RATINGS_MIN_REALTIME_MS) {
        *code = "bad_clock";
        snprintf(msg, msgsize, "a rated real-time clock gives each player at least %d minute%s",
                 (int)(RATINGS_MIN_REALTIME_MS / 60000), RATINGS_MIN_REALTIME_MS == 60000 ? ""
                                                                                       : "s");
        return -1;
    }
    if (opt->clock.kind == TABLE_CLOCK_CORRESPONDENCE &&
        opt->clock.per_move_ms < RATINGS_MIN_PER_MOVE_MS) {
        *code = "bad_clock";
        snprintf(msg, msgsize, "a rated correspondence clock gives at least %d hour%s a move",
                 (int)(RATINGS_MIN_PER_MOVE_MS / 3600000), RATINGS_MIN_PER_MOVE_MS == 3600000
                                                               ? "" : "s");
        return -1;
    }
    for (int i = 0; i < nspecs; i++) {
        const char *s = specs[i];
        int named = !strncmp(s, "player:", 7);
        if (strcmp(s, "human") && !named && !rated_bot(s)) {
            snprintf(msg, msgsize, "seat %d ('%.40s') cannot play at a rated table: its seats "
                                   "are \"human\", \"player:NAME\" or the bots easy, medium "
                                   "and hard", i, s);
            return -1;
        }
        for (int j = 0; j < i && strcmp(s, "human"); j++)
            if (!strcasecmp(s, specs[j])) {
                snprintf(msg, msgsize, "seats %d and %d are both '%.40s': at a rated table "
                                       "each player plays one seat", j, i, s);
                return -1;
            }
    }
    return 0;
}

int ratings_may_sit(const table *t, int seat, const player *who, const char **code, char *why,
                    size_t whysize) {
    if (!t->rated) return 1;
    if (!who || who->kind != PLAYER_ACCOUNT) {
        *code = "rated_accounts_only";
        snprintf(why, whysize, "table %s is rated: only players with an account take its "
                               "seats (log in or sign up, or watch)", t->id);
        return 0;
    }
    for (int i = 0; i < t->players; i++)
        if (i != seat && t->seats[i].who.id == who->id) {
            *code = "one_seat";
            snprintf(why, whysize, "you play seat %d of rated table %s already: one seat each",
                     i, t->id);
            return 0;
        }
    return 1;
}

/* ---- the end of a table ----------------------------------------------- */

typedef struct seat_result {
    int has;       /* a player holds the seat (a row of results) */
    player who;
    int gave_up;
    double score;
    int place;
    int rated;     /* its rating changes */
    glicko2_rating before, after;
} seat_result;

/* The seat's player: the one bound to it, or the rated bot playing it. */
static int seat_player(const table_seat *ts, player *out) {
    if (ts->who.id) {
        *out = ts->who;
        return 1;
    }
    return ts->bot && !ts->resigned && !ts->forfeit[0] && rated_bot(ts->spec) &&
           players_bot(ts->spec, out) == 1;
}

static int gave_up(const table_seat *ts) {
    return ts->resigned || ts->forfeit[0] ||
           (ts->bot && (ts->who.kind == PLAYER_ACCOUNT || ts->who.kind == PLAYER_GUEST));
}

/* A player's rating at game, or a new player's. */
static int read_rating(sqlite3 *db, int64_t id, const char *game, glicko2_rating *out) {
    *out = (glicko2_rating){GLICKO2_RATING, GLICKO2_RD, GLICKO2_VOLATILITY};
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT rating, rd, volatility FROM ratings"
                               " WHERE player = ?1 AND game = ?2",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, game, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *out = (glicko2_rating){sqlite3_column_double(st, 0), sqlite3_column_double(st, 1),
                                sqlite3_column_double(st, 2)};
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

/* Runs one statement with its parameters bound by the caller's format:
** 't' text, 'i' int64, 'd' double, 'n' NULL (no argument). */
static int run(sqlite3 *db, const char *sql, const char *types, ...) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return -1;
    va_list ap;
    va_start(ap, types);
    int rc = SQLITE_OK;
    for (int i = 0; types[i] && rc == SQLITE_OK; i++) {
        switch (types[i]) {
        case 't': rc = sqlite3_bind_text(st, i + 1, va_arg(ap, const char *), -1, SQLITE_TRANSIENT); break;
        case 'i': rc = sqlite3_bind_int64(st, i + 1, va_arg(ap, int64_t)); break;
        case 'd': rc = sqlite3_bind_double(st, i + 1, va_arg(ap, double)); break;
        default: rc = sqlite3_bind_null(st, i + 1); break;
        }
    }
    va_end(ap);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* Whether the table has results already (its end seen before a restart). */
static int has_results(sqlite3 *db, const char *id) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM results WHERE table_id = ?1", -1, &st, NULL) !=
        SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* Places by score among the seats that did not give up (ties share the
** better place); those that gave up share the last. */
static void place_seats(const table *t, seat_result *r) {
    int left = 0;
    for (int i = 0; i < t->players; i++) left += !r[i].gave_up;
    for (int i = 0; i < t->players; i++) {
        if (r[i].gave_up) {
            r[i].place = left + 1;
            continue;
        }
        r[i].place = 1;
        for (int j = 0; j < t->players; j++)
            if (!r[j].gave_up && r[j].score > r[i].score) r[i].place++;
    }
}

/* The new ratings: each rated seat against every other, 1 / 0.5 / 0 by
** place, in one period (ratings.h). */
static void rate_seats(const table *t, seat_result *r) {
    int places[TAFEL_MAX_PLAYERS];
    glicko2_rating before[TAFEL_MAX_PLAYERS], after[TAFEL_MAX_PLAYERS];
    for (int i = 0; i < t->players; i++) places[i] = r[i].place, before[i] = r[i].before;
    glicko2_rate_places(t->players, places, before, after);
    for (int i = 0; i < t->players; i++) {
        r[i].after = after[i];
        r[i].rated = t->players > 1;
    }
}

static int store_results(sqlite3 *db, const table *t, const char *game, seat_result *r,
                         int rate) {
    int64_t now = (int64_t)time(NULL);
    for (int i = 0; i < t->players; i++) {
        if (!r[i].has) continue;
        if (rate && r[i].rated) {
            if (run(db, "INSERT INTO results (table_id, seat, player, game, place, score, at,"
                        " rating_before, rd_before, rating_after, rd_after)"
                        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                    "tiitididddd", t->id, (int64_t)i, r[i].who.id, game, (int64_t)r[i].place,
                    r[i].score, now, r[i].before.rating, r[i].before.rd, r[i].after.rating,
                    r[i].after.rd) ||
                run(db, "INSERT INTO ratings (player, game, rating, rd, volatility, games, updated)"
                        " VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6) ON CONFLICT (player, game) DO UPDATE"
                        " SET rating = excluded.rating, rd = excluded.rd,"
                        " volatility = excluded.volatility, games = games + 1,"
                        " updated = excluded.updated",
                    "itdddi", r[i].who.id, game, r[i].after.rating, r[i].after.rd,
                    r[i].after.volatility, now))
                return -1;
        } else if (run(db, "INSERT INTO results (table_id, seat, player, game, place, score, at)"
                           " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                       "tiitidi", t->id, (int64_t)i, r[i].who.id, game, (int64_t)r[i].place,
                       r[i].score, now)) {
            return -1;
        }
    }
    return 0;
}

/* Counts the rating changes: a seat's rating kept from before one is read
** again. */
static uint64_t ratings_generation = 1;

void ratings_table_ended(table *t) {
    /* a game that did not finish (abandoned, closed), was never played
    ** (aborted: a person gave up before their first action) or never began
    ** (an invitation declined or expired): no places, no ratings */
    static const char *const unrated[] = {"abandoned", "closed", "aborted", "declined",
                                          "expired"};
    for (size_t i = 0; i < sizeof unrated / sizeof *unrated; i++)
        if (!strcmp(t->end_reason, unrated[i])) return;
    sqlite3 *db = store_sqlite(tables_store());
    if (!db) return;
    const char *game = tafel_game_name(t->game);
    seat_result r[TAFEL_MAX_PLAYERS];
    memset(r, 0, sizeof r);
    double scores[TAFEL_MAX_PLAYERS] = {0};
    tafel_state_scores(t->state, scores);
    int people = 0, all = 1;
    for (int i = 0; i < t->players; i++) {
        r[i].has = seat_player(&t->seats[i], &r[i].who);
        r[i].gave_up = gave_up(&t->seats[i]);
        r[i].score = scores[i];
        people |= t->seats[i].who.id != 0;
        all &= r[i].has && (r[i].who.kind == PLAYER_ACCOUNT || r[i].who.kind == PLAYER_BOT);
        for (int j = 0; j < i; j++)
            if (r[i].has && r[j].has && r[i].who.id == r[j].who.id) all = 0; /* one player twice */
    }
    /* bots among themselves leave results only at a rated table (made by
    ** an account): an API client's practice games stay out of the bots'
    ** profiles */
    if (!people && !t->rated) return;
    place_seats(t, r);
    int rate = t->rated && all;
    char why[256] = "";
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(why, sizeof why, "%s", sqlite3_errmsg(db));
        goto failed;
    }
    int done = has_results(db, t->id);
    if (done) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        if (done < 0) goto failed;
        return;
    }
    for (int i = 0; rate && i < t->players; i++)
        if (read_rating(db, r[i].who.id, game, &r[i].before)) rate = -1;
    if (rate > 0) rate_seats(t, r);
    if (rate < 0 || store_results(db, t, game, r, rate) ||
        sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(why, sizeof why, "%s", sqlite3_errmsg(db));
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        goto failed;
    }
    if (rate > 0) ratings_generation++; /* the seats' ratings shown are stale */
    return;
failed:
    fprintf(stderr, "tafel serve: table %s: its results were not stored: %s\n", t->id, why);
}

/* The seat's rating, read from the database. */
static int read_seat_rating(const table *t, int seat) {
    const table_seat *ts = &t->seats[seat];
    player p;
    if (ts->who.id) {
        if (ts->who.kind != PLAYER_ACCOUNT && ts->who.kind != PLAYER_BOT) return -1;
        p = ts->who;
    } else if (ts->bot && rated_bot(ts->spec)) {
        int found = players_find(ts->spec, &p);
        if (found <= 0) return found < 0 ? -1 : (int)GLICKO2_RATING; /* never rated yet */
    } else {
        return -1;
    }
    sqlite3 *db = store_sqlite(tables_store());
    glicko2_rating g;
    if (!db || read_rating(db, p.id, tafel_game_name(t->game), &g)) return -1;
    return (int)lround(g.rating);
}

int ratings_seat_rating(const table *t, int seat) {
    /* Every socket's state of a change shows the same ratings: they are read
    ** once per change, seat player and rating change, and kept in the seat
    ** (a cache: the table is otherwise the caller's to read only). */
    table_seat *ts = (table_seat *)&t->seats[seat];
    if (ts->rating_gen != ratings_generation || ts->rating_seq != t->seq ||
        ts->rating_player != ts->who.id) {
        ts->rating = read_seat_rating(t, seat);
        ts->rating_gen = ratings_generation;
        ts->rating_seq = t->seq;
        ts->rating_player = ts->who.id;
    }
    return ts->rating;
}

/* ---- JSON ------------------------------------------------------------- */

/* An error answer: its status, and the body routes.c makes of every one. */
static char *error_body(unsigned *status, unsigned code, const char *error, const char *fmt,
                        ...) __attribute__((format(printf, 4, 5)));
static char *error_body(unsigned *status, unsigned code, const char *error, const char *fmt,
                        ...) {
    va_list ap;
    va_start(ap, fmt);
    char *text = protocol_http_errorv(error, fmt, ap);
    va_end(ap);
    *status = code;
    return text;
}

static char *print_ok(cJSON *o, unsigned *status) {
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    *status = 200;
    return text;
}

static const char *kind_text(const unsigned char *kind) {
    return kind ? (const char *)kind : "account";
}

static int known_game(const char *game) {
    const char *summary, *name;
    for (int i = 0; (name = tafel_game_info(i, &summary, NULL, 0)); i++)
        if (!strcmp(name, game)) return 1;
    return 0;
}

char *ratings_leaderboard_json(const char *game, unsigned *status) {
    if (!game || !*game)
        return error_body(status, 400, "bad_game", "the leaderboard needs ?game=GAME (a game's "
                                                   "name, as /api/games lists it)");
    if (!known_game(game)) {
        char quoted[64];
        return error_body(status, 400, "bad_game", "there is no game '%s'",
                          tafel_quote(game, quoted, sizeof quoted));
    }
    sqlite3 *db = store_sqlite(tables_store());
    sqlite3_stmt *st;
    if (!db || sqlite3_prepare_v2(db, "SELECT p.name, p.kind, r.rating, r.rd, r.games"
                                      " FROM ratings r JOIN players p ON p.id = r.player"
                                      " WHERE r.game = ?1 AND r.games > 0 AND p.disabled = 0"
                                      " ORDER BY r.rating DESC, p.name_key LIMIT ?2",
                                  -1, &st, NULL) != SQLITE_OK)
        return error_body(status, 500, "storage", "the ratings could not be read");
    sqlite3_bind_text(st, 1, game, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, LEADERBOARD_MAX);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "game", game);
    cJSON *list = cJSON_AddArrayToObject(o, "players");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", (const char *)sqlite3_column_text(st, 0));
        cJSON_AddStringToObject(e, "kind", kind_text(sqlite3_column_text(st, 1)));
        double rd = sqlite3_column_double(st, 3);
        cJSON_AddNumberToObject(e, "rating", sqlite3_column_double(st, 2));
        cJSON_AddNumberToObject(e, "rd", rd);
        cJSON_AddNumberToObject(e, "games", sqlite3_column_int(st, 4));
        cJSON_AddBoolToObject(e, "provisional", rd > RATINGS_PROVISIONAL_RD);
        cJSON_AddItemToArray(list, e);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        cJSON_Delete(o);
        return error_body(status, 500, "storage", "the ratings could not be read");
    }
    return print_ok(o, status);
}

static cJSON *number_or_null(sqlite3_stmt *st, int col) {
    return sqlite3_column_type(st, col) == SQLITE_NULL
               ? cJSON_CreateNull()
               : cJSON_CreateNumber(sqlite3_column_double(st, col));
}

/* The other seats' players of a result: [{name, kind, place}] by place;
** unnamed: [{place}] (a private game, to a viewer who was not at it). */
static int add_opponents(sqlite3 *db, cJSON *result, const char *table_id, int seat,
                         int named) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT p.name, p.kind, o.place FROM results o"
                               " JOIN players p ON p.id = o.player"
                               " WHERE o.table_id = ?1 AND o.seat <> ?2 ORDER BY o.place, o.seat",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, table_id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, seat);
    cJSON *list = cJSON_AddArrayToObject(result, "opponents");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        cJSON *e = cJSON_CreateObject();
        if (named) {
            cJSON_AddStringToObject(e, "name", (const char *)sqlite3_column_text(st, 0));
            cJSON_AddStringToObject(e, "kind", kind_text(sqlite3_column_text(st, 1)));
        }
        cJSON_AddNumberToObject(e, "place", sqlite3_column_int(st, 2));
        cJSON_AddItemToArray(list, e);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* "games": per game, played, won (first alone), drawn (first shared),
** lost (any other place). */
static int add_games(sqlite3 *db, cJSON *o, int64_t id) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(
            db,
            "SELECT game, count(*),"
            " sum(place = 1 AND NOT EXISTS (SELECT 1 FROM results x WHERE x.table_id = r.table_id"
            "  AND x.seat <> r.seat AND x.place = 1)),"
            " sum(place > 1)"
            " FROM results r WHERE player = ?1 AND voided = 0 GROUP BY game ORDER BY game",
            -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    cJSON *games = cJSON_AddObjectToObject(o, "games");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        cJSON *g = cJSON_AddObjectToObject(games, (const char *)sqlite3_column_text(st, 0));
        int played = sqlite3_column_int(st, 1), won = sqlite3_column_int(st, 2),
            lost = sqlite3_column_int(st, 3);
        cJSON_AddNumberToObject(g, "played", played);
        cJSON_AddNumberToObject(g, "won", won);
        cJSON_AddNumberToObject(g, "lost", lost);
        cJSON_AddNumberToObject(g, "drawn", played - won - lost);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* "ratings": per game, the rating now and its history (the latest
** HISTORY_POINTS rated results, oldest first). */
static int add_ratings(sqlite3 *db, cJSON *o, int64_t id) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT game, rating, rd, games FROM ratings WHERE player = ?1"
                               " ORDER BY game",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    cJSON *ratings = cJSON_AddObjectToObject(o, "ratings");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        cJSON *g = cJSON_AddObjectToObject(ratings, (const char *)sqlite3_column_text(st, 0));
        double rd = sqlite3_column_double(st, 2);
        cJSON_AddNumberToObject(g, "rating", sqlite3_column_double(st, 1));
        cJSON_AddNumberToObject(g, "rd", rd);
        cJSON_AddNumberToObject(g, "games", sqlite3_column_int(st, 3));
        cJSON_AddBoolToObject(g, "provisional", rd > RATINGS_PROVISIONAL_RD);
        cJSON_AddArrayToObject(g, "history");
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return -1;
    cJSON *g;
    cJSON_ArrayForEach(g, ratings) {
        if (sqlite3_prepare_v2(db, "SELECT at, rating_after, rd_after, table_id FROM results"
                                   " WHERE player = ?1 AND game = ?2 AND rating_after IS NOT NULL"
                                   " AND voided = 0"
                                   " ORDER BY at DESC, " LATER_TABLE " LIMIT ?3",
                               -1, &st, NULL) != SQLITE_OK)
            return -1;
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_text(st, 2, g->string, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 3, HISTORY_POINTS);
        cJSON *history = cJSON_GetObjectItemCaseSensitive(g, "history");
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddNumberToObject(e, "at", sqlite3_column_double(st, 0));
            cJSON_AddNumberToObject(e, "rating", sqlite3_column_double(st, 1));
            cJSON_AddNumberToObject(e, "rd", sqlite3_column_double(st, 2));
            cJSON_AddStringToObject(e, "table", (const char *)sqlite3_column_text(st, 3));
            cJSON_InsertItemInArray(history, 0, e);
        }
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE) return -1;
    }
    return 0;
}

/* "results": the latest RESULTS_LISTED, newest first; a private game's
** (column 11) without its replay and names unless viewer sat at it. */
static int add_results(sqlite3 *db, cJSON *o, int64_t id, int64_t viewer) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT r.table_id, r.game, r.at, r.place, r.score,"
                               " r.rating_before, r.rating_after, r.rd_before, r.rd_after, r.seat,"
                               " (SELECT count(*) FROM seats s WHERE s.table_id = r.table_id),"
                               " (SELECT private FROM tables t WHERE t.id = r.table_id)"
                               "  AND NOT EXISTS (SELECT 1 FROM seats v"
                               "   WHERE v.table_id = r.table_id AND v.player = ?3),"
                               " r.voided"
                               " FROM results r WHERE r.player = ?1"
                               " ORDER BY r.at DESC, " LATER_TABLE " LIMIT ?2",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int(st, 2, RESULTS_LISTED);
    sqlite3_bind_int64(st, 3, viewer);
    cJSON *list = cJSON_AddArrayToObject(o, "results");
    int rc, bad = 0;
    while (!bad && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *table_id = (const char *)sqlite3_column_text(st, 0);
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "table", table_id);
        cJSON_AddStringToObject(e, "game", (const char *)sqlite3_column_text(st, 1));
        cJSON_AddNumberToObject(e, "at", sqlite3_column_double(st, 2));
        cJSON_AddNumberToObject(e, "place", sqlite3_column_int(st, 3));
        cJSON_AddNumberToObject(e, "players", sqlite3_column_int(st, 10));
        cJSON_AddNumberToObject(e, "seat", sqlite3_column_int(st, 9));
        cJSON_AddItemToObject(e, "score", number_or_null(st, 4));
        /* a voided result is listed as such and rated nothing */
        int voided = sqlite3_column_int(st, 12);
        cJSON_AddBoolToObject(e, "voided", voided);
        for (int c = 5; c <= 8; c++)
            cJSON_AddItemToObject(e, (const char *[]){"rating_before", "rating_after",
                                                      "rd_before", "rd_after"}[c - 5],
                                  voided ? cJSON_CreateNull() : number_or_null(st, c));
        int hidden = sqlite3_column_int(st, 11);
        char replay[32];
        snprintf(replay, sizeof replay, "/t/%s", table_id);
        if (hidden) cJSON_AddBoolToObject(e, "private", 1);
        else cJSON_AddStringToObject(e, "replay", replay);
        cJSON_AddItemToArray(list, e);
        bad = add_opponents(db, e, table_id, sqlite3_column_int(st, 9), !hidden);
    }
    sqlite3_finalize(st);
    return !bad && rc == SQLITE_DONE ? 0 : -1;
}

char *ratings_player_json(const char *name, int64_t viewer, unsigned *status) {
    player p;
    int found = name ? players_find(name, &p) : 0;
    if (!found && name && rated_bot(name)) found = players_bot(name, &p); /* not yet made */
    char quoted[64];
    if (found < 0) return error_body(status, 500, "storage", "the players could not be read");
    if (!found)
        return error_body(status, 404, "no_player",
                          "there is no player '%s' (guests have no profile)",
                          tafel_quote(name ? name : "", quoted, sizeof quoted));
    sqlite3 *db = store_sqlite(tables_store());
    sqlite3_stmt *st;
    int64_t since = 0;
    if (db && sqlite3_prepare_v2(db, "SELECT created FROM players WHERE id = ?1", -1, &st,
                                 NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, p.id);
        if (sqlite3_step(st) == SQLITE_ROW) since = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", p.name);
    cJSON_AddStringToObject(o, "kind", p.kind == PLAYER_BOT ? "bot" : "account");
    cJSON_AddNumberToObject(o, "since", (double)since);
    if (!db || add_games(db, o, p.id) || add_ratings(db, o, p.id) || add_results(db, o, p.id, viewer)) {
        cJSON_Delete(o);
        return error_body(status, 500, "storage", "the player's results could not be read");
    }
    return print_ok(o, status);
}
