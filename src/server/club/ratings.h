/*
** ratings.h -- rated tables, results and ratings (docs/server.md,
** "Ratings").
**
** Every finished table with a seat bound to a player (or a rated table of
** bots alone) leaves one row of results per seat bound to a player or
** played by a rated bot (its place, its score).  A
** rated table whose seats are all accounts or rated bots (easy, medium,
** hard), each a different player, also updates their Glicko-2 ratings per
** game (glicko2.c): the game is one rating period, each seat rated against
** every other seat's pre-game rating, 1 for a better place, 0.5 for the
** same, 0 for a worse one -- the pairwise reduction of a game of three to
** five.  Results and ratings are written in one transaction.  The club's
** calls read and write the store club.h names: the loop's (serve.c gives
** it ratings_start), or a pool thread's while it runs one for the loop
** (tables_later: a table's results, its seats' ratings).
**
** The club knows no table: it is given what it needs of one as plain data
** (ratings_table, ratings_new_table, filled by the tables layer or the
** protocol), and tells what it refuses as a code and a sentence, which the
** caller sends as its error (an error message, an HTTP error's body).
*/
#ifndef TF_SERVER_RATINGS_H
#define TF_SERVER_RATINGS_H

#include "players.h"
#include "store.h"
#include "tafel.h"

/* Provisional: a rating this uncertain (RD above it) is shown with "?"
** (lichess's threshold). */
#define RATINGS_PROVISIONAL_RD 110.0

/* The least a rated clock gives: real time, each player's time for the
** game; correspondence, a move's. */
#define RATINGS_MIN_REALTIME_MS (60LL * 1000)
#define RATINGS_MIN_PER_MOVE_MS (3600LL * 1000)

/* The store the ratings are read from and written to (serve.c). */
void ratings_start(store *db);

/* A seat of a table, as the ratings need it. */
typedef struct ratings_seat {
    player who;         /* bound to the seat (claimed or invited); id 0: nobody */
    const char *spec;   /* "human" or the bot playing it */
    int bot;            /* a bot plays it now */
    int resigned;       /* it gave up: resigned or forfeited */
    int forfeited;      /* it lost by a forfeit (time, an external bot's fault) */
    double score;       /* its score now (the final one once the game is over) */
} ratings_seat;

/* A table, as the ratings need it. */
typedef struct ratings_table {
    const char *id;
    const char *game;        /* its game's name (tafel_game_name) */
    int rated;
    const char *end_reason;  /* why it ended before its game did, or "" */
    int players;
    ratings_seat seats[TAFEL_MAX_PLAYERS];
} ratings_table;

/* A table a create message asks for, as the rules of rated tables see it. */
typedef struct ratings_new_table {
    int rated;               /* "rated": true */
    int has_seed;            /* the creator chose the seed */
    player_kind creator;     /* what the creating socket's player is */
    int64_t realtime_ms;     /* a real-time clock's time per player, -1: none */
    int64_t per_move_ms;     /* a correspondence clock's time a move, -1: none */
} ratings_new_table;

/* The create message's rules for a rated table (protocol.c do_create,
** before tables_create): seats "human", "player:NAME" or the rated bots
** only, each player or bot once, at least two seats, no chosen seed, made
** by an account, a clock of at least the minimums above.  0 when allowed
** (or the table is not rated); -1 with code ("bad_game",
** "rated_accounts_only", "bad_clock") and a sentence in msg. */
int ratings_check_create(const char *const *specs, int nspecs, const ratings_new_table *nt,
                         const char **code, char *msg, size_t msgsize);

/* Whether who may take seat (0-based) of table t: at a rated table only
** accounts, and none that holds another seat there.  1 yes; 0 no, with
** the error's code ("rated_accounts_only", "one_seat") and sentence. */
int ratings_may_sit(const ratings_table *t, int seat, const player *who, const char **code,
                    char *why, size_t whysize);

/* A finished table's results on their way to the store: what the loop
** knows of the table, copied (the store's part reads nothing else), and
** what the store's part found. */
typedef struct ratings_results {
    char id[STORE_ID_LEN + 1];
    char game[64];
    int rated, players;
    ratings_seat seats[TAFEL_MAX_PLAYERS];
    char specs[TAFEL_MAX_PLAYERS][STORE_SPEC_MAX]; /* the seats' specs point here */
    int n;                                   /* ratings_results_store: the players rated, */
    int64_t rated_players[TAFEL_MAX_PLAYERS]; /* when ratings changed (else n 0) */
} ratings_results;

/* The table has ended (tables.c ended()), in three parts, so that the
** store's runs off the loop (issue 36: tables_later).  On the loop:
** whether it leaves results (0: none, for a table that ended as
** "abandoned", "closed", "aborted", "declined" or "expired", or bots'
** among themselves at an unrated table), copied into out (1). */
int ratings_results_prepare(const ratings_table *t, ratings_results *out);
/* On any thread with the club's store (club.h): the seats' players found
** (a rated bot's made when new), placed, and the results, and for a rated
** table the new ratings, stored in one transaction (nothing when the table
** has results already).  0, or -1 with err. */
int ratings_results_store(ratings_results *r, char *err, size_t errsize);
/* On the loop, after it (rc and err what it returned): logged when it
** failed; when ratings changed, the seats' ratings shown are stale and
** ratings_on_rated's callback told. */
void ratings_results_told(const ratings_results *r, int rc, const char *err);

/* The rating (rounded) of the seat's account or rated bot at game, 1500
** when it has none yet; -1 for a seat of nobody, a guest or another bot.
** Read from the store: a caller keeps it while ratings_generation stays
** the same. */
int ratings_seat_rating(const char *game, const ratings_seat *seat);
/* Grows when a table's result changed ratings (here, or on another node:
** ratings_stale). */
uint64_t ratings_generation(void);
/* Another node changed ratings (nodes.c): the seats' ratings shown are
** read again. */
void ratings_stale(void);
/* Who is told, after the commit, which players' ratings a table's result
** changed (serve.c: the other nodes, nodes_rated). */
void ratings_on_rated(void (*told)(const int64_t *players, int n));

/* The leaderboard of a game (its name, as /api/games lists it) as JSON,
** malloc'd: {game, players: [{name, kind, rating, rd, games, provisional}]}
** by rating, highest first; *status 200 (NULL: out of memory).  Else NULL
** with *status 400 (no such game) or 500, and the error's code and
** sentence (its body is the caller's). */
char *ratings_leaderboard_json(const char *game, unsigned *status, const char **code, char *msg,
                               size_t msgsize);

/* The profile of an account or bot as JSON, malloc'd (docs/server.md,
** "Ratings"), *status 200 (NULL: out of memory); or NULL with *status 404
** (no such player; a guest has no profile) or 500, and the error's code
** and sentence.  A private game's result is listed to a viewer
** (players.id, 0 nobody) who did not sit at it without its replay and its
** players' names. */
char *ratings_player_json(const char *name, int64_t viewer, unsigned *status, const char **code,
                          char *msg, size_t msgsize);

#endif
