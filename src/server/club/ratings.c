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

#include "club.h"
#include "glicko2.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The bots that hold ratings (players.c has the same list). */
static const char *const RATED_BOTS[] = {"easy", "medium", "hard"};

/* Kept per profile: the latest results listed, and the rating points
** plotted per game. */
#define RESULTS_LISTED 100
#define HISTORY_POINTS 500
#define LEADERBOARD_MAX 200


void ratings_start(store *given) { club_start(given); }

static int rated_bot(const char *spec) {
    for (size_t i = 0; i < sizeof RATED_BOTS / sizeof *RATED_BOTS; i++)
        if (!strcmp(spec, RATED_BOTS[i])) return 1;
    return 0;
}

/* ---- rated-table rules ------------------------------------------------ */

int ratings_check_create(const char *const *specs, int nspecs, const ratings_new_table *nt,
                         const char **code, char *msg, size_t msgsize) {
    if (!nt->rated) return 0;
    if (nt->creator != PLAYER_ACCOUNT) {
        *code = "rated_accounts_only";
        snprintf(msg, msgsize, "only a player with an account may make a rated table: log in "
                               "or sign up first");
        return -1;
    }
    *code = "bad_game";
    if (nt->has_seed) {
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
    if (nt->realtime_ms >= 0 && nt->realtime_ms < RATINGS_MIN_REALTIME_MS) {
        *code = "bad_clock";
        snprintf(msg, msgsize, "a rated real-time clock gives each player at least %d minute%s",
                 (int)(RATINGS_MIN_REALTIME_MS / 60000), RATINGS_MIN_REALTIME_MS == 60000 ? ""
                                                                                       : "s");
        return -1;
    }
    if (nt->per_move_ms >= 0 && nt->per_move_ms < RATINGS_MIN_PER_MOVE_MS) {
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

int ratings_may_sit(const ratings_table *t, int seat, const player *who, const char **code,
                    char *why, size_t whysize) {
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
} seat_result;

/* The seat's player: the one bound to it, or the rated bot playing it. */
static int seat_player(const ratings_seat *ts, player *out) {
    if (ts->who.id) {
        *out = ts->who;
        return 1;
    }
    return ts->bot && !ts->resigned && !ts->forfeited && rated_bot(ts->spec) &&
           players_bot(ts->spec, out) == 1;
}

static int gave_up(const ratings_seat *ts) {
    return ts->resigned || ts->forfeited ||
           (ts->bot && (ts->who.kind == PLAYER_ACCOUNT || ts->who.kind == PLAYER_GUEST));
}

/* Places by score among the seats that did not give up (ties share the
** better place); those that gave up share the last. */
static void place_seats(int players, seat_result *r) {
    int left = 0;
    for (int i = 0; i < players; i++) left += !r[i].gave_up;
    for (int i = 0; i < players; i++) {
        if (r[i].gave_up) {
            r[i].place = left + 1;
            continue;
        }
        r[i].place = 1;
        for (int j = 0; j < players; j++)
            if (!r[j].gave_up && r[j].score > r[i].score) r[i].place++;
    }
}

static glicko2_rating from_store(store_rating r) {
    return (glicko2_rating){r.rating, r.rd, r.volatility};
}

static store_rating to_store(glicko2_rating r) {
    return (store_rating){r.rating, r.rd, r.volatility};
}

static const store_rating NEW_RATING = {GLICKO2_RATING, GLICKO2_RD, GLICKO2_VOLATILITY};

/* The new ratings (store_rate_fn, run by the store between its read of
** the ratings before and its write): each seat of a rated table -- every
** seat a result, in order -- against every other, 1 / 0.5 / 0 by place,
** in one period (ratings.h). */
static int rate_seats(void *arg, int n, store_result *r) {
    (void)arg;
    /* zeroed: gcc's -O1 sanitizer build cannot see that n > 0 fills them */
    int places[TAFEL_MAX_PLAYERS] = {0};
    glicko2_rating before[TAFEL_MAX_PLAYERS] = {{0}}, after[TAFEL_MAX_PLAYERS];
    if (n > TAFEL_MAX_PLAYERS) return -1;
    for (int i = 0; i < n; i++) places[i] = r[i].place, before[i] = from_store(r[i].before);
    glicko2_rate_places(n, places, before, after);
    for (int i = 0; i < n; i++) {
        r[i].after = to_store(after[i]);
        r[i].rated = n > 1;
    }
    return 0;
}

/* Counts the rating changes: a seat's rating kept from before one is read
** again. */
static uint64_t generation = 1;
static void (*on_rated)(const int64_t *players, int n); /* ratings_on_rated */

uint64_t ratings_generation(void) { return generation; }

void ratings_stale(void) { generation++; }

void ratings_on_rated(void (*told)(const int64_t *players, int n)) { on_rated = told; }

int ratings_results_prepare(const ratings_table *t, ratings_results *out) {
    /* a game that did not finish (abandoned, closed), was never played
    ** (aborted: a person gave up before their first action) or never began
    ** (an invitation declined or expired): no places, no ratings */
    static const char *const unrated[] = {"abandoned", "closed", "aborted", "declined",
                                          "expired"};
    for (size_t i = 0; i < sizeof unrated / sizeof *unrated; i++)
        if (!strcmp(t->end_reason, unrated[i])) return 0;
    if (!club_store()) return 0;
    int people = 0;
    for (int i = 0; i < t->players; i++) people |= t->seats[i].who.id != 0;
    /* bots among themselves leave results only at a rated table (made by
    ** an account): an API client's practice games stay out of the bots'
    ** profiles */
    if (!people && !t->rated) return 0;
    memset(out, 0, sizeof *out);
    snprintf(out->id, sizeof out->id, "%s", t->id);
    snprintf(out->game, sizeof out->game, "%s", t->game);
    out->rated = t->rated;
    out->players = t->players;
    for (int i = 0; i < t->players; i++) {
        out->seats[i] = t->seats[i];
        snprintf(out->specs[i], sizeof out->specs[i], "%s", t->seats[i].spec);
        out->seats[i].spec = out->specs[i];
    }
    return 1;
}

int ratings_results_store(ratings_results *t, char *err, size_t errsize) {
    seat_result r[TAFEL_MAX_PLAYERS];
    memset(r, 0, sizeof r);
    int all = 1;
    t->n = 0;
    for (int i = 0; i < t->players; i++) {
        r[i].has = seat_player(&t->seats[i], &r[i].who);
        r[i].gave_up = gave_up(&t->seats[i]);
        r[i].score = t->seats[i].score;
        all &= r[i].has && (r[i].who.kind == PLAYER_ACCOUNT || r[i].who.kind == PLAYER_BOT);
        for (int j = 0; j < i; j++)
            if (r[i].has && r[j].has && r[i].who.id == r[j].who.id) all = 0; /* one player twice */
    }
    place_seats(t->players, r);
    /* rated: every seat has a player, so the results are the seats */
    int rate = t->rated && all, n = 0;
    store_result results[TAFEL_MAX_PLAYERS];
    for (int i = 0; i < t->players; i++)
        if (r[i].has)
            results[n++] = (store_result){.seat = i, .player = r[i].who.id,
                                          .place = r[i].place, .score = r[i].score,
                                          .before = NEW_RATING};
    int stored = store_results_record(club_store(), t->id, t->game, n, results,
                                      rate ? rate_seats : NULL, NULL, err, errsize);
    if (stored < 0) return -1;
    if (stored > 0 && rate) {
        for (int i = 0; i < n; i++) t->rated_players[i] = results[i].player;
        t->n = n;
    }
    return 0;
}

void ratings_results_told(const ratings_results *r, int rc, const char *err) {
    if (rc < 0)
        fprintf(stderr, "tafel serve: table %s: its results were not stored: %s\n", r->id, err);
    if (rc < 0 || !r->n) return;
    generation++; /* the seats' ratings shown are stale, here and elsewhere */
    if (on_rated) on_rated(r->rated_players, r->n);
}

int ratings_seat_rating(const char *game, const ratings_seat *ts) {
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
    store_rating g = NEW_RATING;
    char err[256];
    if (!club_store() || store_rating_read(club_store(), p.id, game, &g, err, sizeof err) < 0) return -1;
    return (int)lround(g.rating);
}

/* ---- JSON ------------------------------------------------------------- */

/* What an error answer says, for the caller to send: its status, code and
** sentence.  NULL. */
typedef struct answer {
    unsigned *status;
    const char **code;
    char *msg;
    size_t msgsize;
} answer;

static char *refuse(const answer *a, unsigned status, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static char *refuse(const answer *a, unsigned status, const char *code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->msg, a->msgsize, fmt, ap);
    va_end(ap);
    *a->status = status;
    *a->code = code;
    return NULL;
}

static char *print_ok(cJSON *o, unsigned *status) {
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    *status = 200;
    return text;
}

/* A player's kind as the JSON shows it (players.kind is never NULL; an
** unreadable one reads as an account's). */
static const char *kind_text(const char *kind) {
    return *kind ? kind : "account";
}

static int known_game(const char *game) {
    const char *summary, *name;
    for (int i = 0; (name = tafel_game_info(i, &summary, NULL, 0)); i++)
        if (!strcmp(name, game)) return 1;
    return 0;
}

char *ratings_leaderboard_json(const char *game, unsigned *status, const char **code, char *msg,
                               size_t msgsize) {
    const answer a = {status, code, msg, msgsize};
    if (!game || !*game)
        return refuse(&a, 400, "bad_game", "the leaderboard needs ?game=GAME (a game's "
                                                   "name, as /api/games lists it)");
    if (!known_game(game)) {
        char quoted[64];
        return refuse(&a, 400, "bad_game", "there is no game '%s'",
                          tafel_quote(game, quoted, sizeof quoted));
    }
    store_standing *rows;
    char err[256];
    int n = store_leaderboard_read(club_store(), game, LEADERBOARD_MAX, &rows, err, sizeof err);
    if (n < 0) return refuse(&a, 500, "storage", "the ratings could not be read");
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "game", game);
    cJSON *list = cJSON_AddArrayToObject(o, "players");
    for (int i = 0; i < n; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", rows[i].name);
        cJSON_AddStringToObject(e, "kind", kind_text(rows[i].kind));
        cJSON_AddNumberToObject(e, "rating", rows[i].rating);
        cJSON_AddNumberToObject(e, "rd", rows[i].rd);
        cJSON_AddNumberToObject(e, "games", rows[i].games);
        cJSON_AddBoolToObject(e, "provisional", rows[i].rd > RATINGS_PROVISIONAL_RD);
        cJSON_AddItemToArray(list, e);
    }
    free(rows);
    return print_ok(o, status);
}

/* The other seats' players of a result: [{name, kind, place}] by place;
** unnamed: [{place}] (a private game, to a viewer who was not at it). */
static void add_opponents(cJSON *e, const store_profile_result *r) {
    cJSON *list = cJSON_AddArrayToObject(e, "opponents");
    for (int i = 0; i < r->nopponents; i++) {
        cJSON *o = cJSON_CreateObject();
        if (!r->hidden) {
            cJSON_AddStringToObject(o, "name", r->opponents[i].name);
            cJSON_AddStringToObject(o, "kind", kind_text(r->opponents[i].kind));
        }
        cJSON_AddNumberToObject(o, "place", r->opponents[i].place);
        cJSON_AddItemToArray(list, o);
    }
}

/* "games": per game, played, won (first alone), drawn (first shared),
** lost (any other place). */
static void add_games(cJSON *o, const store_profile *p) {
    cJSON *games = cJSON_AddObjectToObject(o, "games");
    for (int i = 0; i < p->ngames; i++) {
        const store_game_record *r = &p->games[i];
        cJSON *g = cJSON_AddObjectToObject(games, r->game);
        cJSON_AddNumberToObject(g, "played", r->played);
        cJSON_AddNumberToObject(g, "won", r->won);
        cJSON_AddNumberToObject(g, "lost", r->lost);
        cJSON_AddNumberToObject(g, "drawn", r->played - r->won - r->lost);
    }
}

/* "ratings": per game, the rating now and its history (the latest
** HISTORY_POINTS rated results, oldest first). */
static void add_ratings(cJSON *o, const store_profile *p) {
    cJSON *ratings = cJSON_AddObjectToObject(o, "ratings");
    for (int i = 0; i < p->nratings; i++) {
        const store_game_rating *r = &p->ratings[i];
        cJSON *g = cJSON_AddObjectToObject(ratings, r->game);
        cJSON_AddNumberToObject(g, "rating", r->rating);
        cJSON_AddNumberToObject(g, "rd", r->rd);
        cJSON_AddNumberToObject(g, "games", r->games);
        cJSON_AddBoolToObject(g, "provisional", r->rd > RATINGS_PROVISIONAL_RD);
        cJSON *history = cJSON_AddArrayToObject(g, "history");
        for (int k = 0; k < r->nhistory; k++) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddNumberToObject(e, "at", (double)r->history[k].at);
            cJSON_AddNumberToObject(e, "rating", r->history[k].rating);
            cJSON_AddNumberToObject(e, "rd", r->history[k].rd);
            cJSON_AddStringToObject(e, "table", r->history[k].table_id);
            cJSON_AddItemToArray(history, e);
        }
    }
}

/* "results": the latest RESULTS_LISTED, newest first; a private game's
** without its replay and names unless the viewer sat at it. */
static void add_results(cJSON *o, const store_profile *p) {
    cJSON *list = cJSON_AddArrayToObject(o, "results");
    for (int i = 0; i < p->nresults; i++) {
        const store_profile_result *r = &p->results[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "table", r->table_id);
        cJSON_AddStringToObject(e, "game", r->game);
        cJSON_AddNumberToObject(e, "at", (double)r->at);
        cJSON_AddNumberToObject(e, "place", r->place);
        cJSON_AddNumberToObject(e, "players", r->players);
        cJSON_AddNumberToObject(e, "seat", r->seat);
        cJSON_AddItemToObject(e, "score", r->has_score ? cJSON_CreateNumber(r->score)
                                                       : cJSON_CreateNull());
        /* a voided result is listed as such and rated nothing */
        cJSON_AddBoolToObject(e, "voided", r->voided);
        const double shown[] = {r->rating_before, r->rating_after, r->rd_before, r->rd_after};
        const char *const names[] = {"rating_before", "rating_after", "rd_before", "rd_after"};
        for (int c = 0; c < 4; c++)
            cJSON_AddItemToObject(e, names[c], r->rated && !r->voided
                                                   ? cJSON_CreateNumber(shown[c])
                                                   : cJSON_CreateNull());
        char replay[32];
        snprintf(replay, sizeof replay, "/t/%s", r->table_id);
        if (r->hidden) cJSON_AddBoolToObject(e, "private", 1);
        else cJSON_AddStringToObject(e, "replay", replay);
        cJSON_AddItemToArray(list, e);
        add_opponents(e, r);
    }
}

char *ratings_player_json(const char *name, int64_t viewer, unsigned *status, const char **code,
                          char *msg, size_t msgsize) {
    const answer a = {status, code, msg, msgsize};
    player p;
    int found = name ? players_find(name, &p) : 0;
    if (!found && name && rated_bot(name)) found = players_bot(name, &p); /* not yet made */
    char quoted[64];
    if (found < 0) return refuse(&a, 500, "storage", "the players could not be read");
    if (!found)
        return refuse(&a, 404, "no_player",
                          "there is no player '%s' (guests have no profile)",
                          tafel_quote(name ? name : "", quoted, sizeof quoted));
    store_profile profile;
    char err[256];
    if (store_profile_read(club_store(), p.id, viewer, HISTORY_POINTS, RESULTS_LISTED, &profile, err,
                           sizeof err))
        return refuse(&a, 500, "storage", "the player's results could not be read");
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", p.name);
    cJSON_AddStringToObject(o, "kind", p.kind == PLAYER_BOT ? "bot" : "account");
    cJSON_AddNumberToObject(o, "since", (double)profile.since);
    add_games(o, &profile);
    add_ratings(o, &profile);
    add_results(o, &profile);
    store_profile_free(&profile);
    return print_ok(o, status);
}
