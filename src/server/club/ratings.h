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
** five.  Results and ratings are written in one transaction.  Everything
** runs on the loop, on the server's database (tables_store()).
*/
#ifndef TF_SERVER_RATINGS_H
#define TF_SERVER_RATINGS_H

#include "tables.h"

/* Provisional: a rating this uncertain (RD above it) is shown with "?"
** (lichess's threshold). */
#define RATINGS_PROVISIONAL_RD 110.0

/* The least a rated clock gives: real time, each player's time for the
** game; correspondence, a move's. */
#define RATINGS_MIN_REALTIME_MS (60LL * 1000)
#define RATINGS_MIN_PER_MOVE_MS (3600LL * 1000)

/* The create message's rules for a rated table (protocol.c do_create,
** before tables_create): seats "human", "player:NAME" or the rated bots
** only, each player or bot once, at least two seats, no chosen seed, made
** by an account, a clock of at least the minimums above.  0 when allowed
** (or the table is not rated); -1 with code ("bad_game",
** "rated_accounts_only", "bad_clock") and a sentence in msg. */
int ratings_check_create(const char *const *specs, int nspecs, int has_seed,
                         const table_options *opt, const char **code, char *msg,
                         size_t msgsize);

/* Whether who may take seat (0-based) of table t: at a rated table only
** accounts, and none that holds another seat there.  1 yes; 0 no, with
** the error's code ("rated_accounts_only", "one_seat") and sentence. */
int ratings_may_sit(const table *t, int seat, const player *who, const char **code, char *why,
                    size_t whysize);

/* The table has ended (tables.c ended()): its results, and for a rated
** table the new ratings, stored.  Nothing for a table that ended as
** "abandoned", "closed", "aborted", "declined" or "expired", or that has
** results already. */
void ratings_table_ended(table *t);

/* The rating (rounded) of the seat's account or rated bot at the table's
** game, 1500 when it has none yet; -1 for a seat of nobody, a guest or
** another bot. */
int ratings_seat_rating(const table *t, int seat);

/* The leaderboard of a game (its name, as /api/games lists it) as JSON,
** malloc'd: {game, players: [{name, kind, rating, rd, games, provisional}]}
** by rating, highest first; *status 200.  Otherwise an error body
** {error, message} with *status 400 (no such game) or 500.  NULL: out of
** memory. */
char *ratings_leaderboard_json(const char *game, unsigned *status);

/* The profile of an account or bot as JSON, malloc'd (docs/server.md,
** "Ratings"), *status 200; or an error body with *status 404 (no such
** player; a guest has no profile) or 500.  NULL: out of memory.  A
** private game's result is listed to a viewer (players.id, 0 nobody) who
** did not sit at it without its replay and its players' names. */
char *ratings_player_json(const char *name, int64_t viewer, unsigned *status);

#endif
