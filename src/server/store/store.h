/*
** store.h -- the server's store: everything it keeps on disk, the one place SQL is
** written (issue 36: the club's SQL moves behind it, then PostgreSQL beside SQLite).
**
** The tables: one SQLite file, or a PostgreSQL database (a libpq URI as
** the path: docs/server.md, "PostgreSQL"); store.c hands each call to the
** backend that opened the handle, and both keep the contract below.
**
** A table is its game string, its seed, its seats and the list of its
** actions (chance events included): exactly a tafel record, so a table is
** rebuilt after a restart by replaying it.  Every change is one
** transaction, committed before the server applies it (docs/protocol.md,
** "Order of a change").  On SQLite, WAL with synchronous=NORMAL survives
** kill -9; durable syncs the log off the loop (syncer.c), which survives a
** power cut too.  On PostgreSQL every commit is durable already.
**
** A handle is one connection and is used by one thread at a time: the
** server's event loop reads on its own, and a table's changes are written
** on the connections of the pool (pool.h), each on a thread of its own.  Errors return -1 and
** write a message (naming what failed, with the database's reason) to err.
*/
#ifndef TF_SERVER_STORAGE_H
#define TF_SERVER_STORAGE_H

#include <stddef.h>
#include <stdint.h>

/* 2 added seats.forfeit, 3 tables.updated, 4 tables.seed_chosen and
** tables.end_reason, 5 the club: players, logins, chat, ratings, results,
** and the tables' rated/private/clock/rematch columns and the seats'
** player and clock, 6 invitations that wait for an answer, the creator's
** address and voided results, 7 the counted attempts (attempts); an older
** file is brought up to date when opened. */
#define STORE_SCHEMA_VERSION 7
#define STORE_ID_LEN 16     /* a table id: 16 hex digits */
#define STORE_HASH_LEN 32   /* SHA-256 of a seat's token */
#define STORE_SPEC_MAX 128  /* "human" or a bot spec */
#define STORE_REASON_MAX 256 /* why a seat forfeited */
#define STORE_END_REASON_MAX 32 /* why a table ended before its game did */
#define STORE_CLOCK_MAX 32      /* a clock's text */
#define STORE_NAME_MAX 24       /* a player's name, in bytes */
#define STORE_KIND_MAX 16       /* a player's kind: "account", "guest", "bot" */

typedef struct store store;

typedef struct store_seat {
    char spec[STORE_SPEC_MAX]; /* "human" or a bot spec */
    int has_token;             /* a human seat (or one handed over from one) */
    uint8_t token_hash[STORE_HASH_LEN];
    int resigned;
    char forfeit[STORE_REASON_MAX]; /* why an external bot lost the seat by forfeit, or "" */
    int64_t player;    /* players.id the seat is bound to (claimed or invited), 0: none */
    int64_t clock_ms;  /* a real-time clock's milliseconds left, -1: no clock */
    int invite;        /* 1: player was invited and has not accepted yet */
    /* PostgreSQL: player's name and kind, read with the seat, so that a
    ** table is built on the loop without asking the players (issue 36);
    ** kind "": not read (SQLite, where asking takes microseconds) */
    char player_name[STORE_NAME_MAX + 1];
    char player_kind[STORE_KIND_MAX];
} store_seat;

typedef struct store_table {
    char id[STORE_ID_LEN + 1];
    char *game;        /* game string */
    uint64_t seed;
    int seed_chosen;   /* the creator chose the seed (a practice table) */
    char end_reason[STORE_END_REASON_MAX]; /* "abandoned", "timeout", "closed", or "" */
    int rated;         /* rated for the players' ratings (ratings.c) */
    int private_;      /* invitation only: not listed, nobody watches */
    char clock[STORE_CLOCK_MAX];     /* "" none, "M+S" real time, "Nd" correspondence (clocks.c) */
    char bot_level[STORE_SPEC_MAX];  /* the bot that takes a seat whose time ran out, "" none */
    char rematch_of[STORE_ID_LEN + 1]; /* the table this one is the rematch of, or "" */
    char rematch[STORE_ID_LEN + 1];    /* this table's rematch, or "" */
    int64_t creator;   /* players.id of who made it, 0: nobody */
    int64_t turn_since; /* unix ms when the clock that runs now started, 0: none runs */
    int64_t invite_until; /* unix seconds when waiting invitations expire, 0: none waits */
    char creator_addr[64]; /* the creating client's address, "" unknown */
    char creator_name[STORE_NAME_MAX + 1]; /* as a seat's player_name and player_kind */
    char creator_kind[STORE_KIND_MAX];
    int nseats;
    store_seat seats[5];
    int64_t seq;       /* changes so far (docs/protocol.md) */
    int over;          /* the game is over */
    int64_t created;   /* unix seconds */
    int64_t updated;   /* unix seconds of the latest change (created before any) */
    int nactions;
    char **actions;    /* action texts, in order */
    int *action_seats; /* who played each: a seat, or -1 for chance */
} store_table;

/* Whether path names a PostgreSQL database (a libpq URI: "postgresql://"
** or "postgres://"); anything else is a SQLite file. */
int store_path_is_postgres(const char *path);
/* path as it may be printed: a URI's password replaced by "***". */
void store_path_shown(const char *path, char *out, size_t size);

/* Opens or creates the database at path (schema version checked, WAL,
** foreign keys on).  ":memory:" works for tests. */
int store_open(const char *path, int durable, store **out, char *err, size_t errsize);
void store_close(store *db); /* NULL is fine */

/* Opens the database at path for an operator's command (tafel admin): as
** store_open, but a missing file is not created and a file that is not a
** tafel database (of any schema version) is refused untouched. */
int store_open_existing(const char *path, store **out, char *err, size_t errsize);
/* Whether another process has the database open (a running server): 1
** yes, 0 no or unknown. */
int store_held_elsewhere(store *db);

/* Whether the latest change on db failed with its commit in doubt: the
** connection was lost while COMMIT was on its way (PostgreSQL), so the
** change may be stored or not; the caller reads the table again.  0 on
** SQLite, whose commits never leave the process. */
int store_in_doubt(store *db);
/* Names db's connection for the database's operator (PostgreSQL's
** application_name in pg_stat_activity, kept across reconnects); nothing on
** SQLite.  0, or -1 with err. */
int store_set_name(store *db, const char *name, char *err, size_t errsize);

/* A new table: with no actions and seq 0, or with its opening change
** (t->nactions actions, the chance events dealt before anyone plays, by
** t->action_seats) and seq 1, in one transaction: refused, it leaves
** nothing on disk. */
int store_create(store *db, const store_table *t, char *err, size_t errsize);

/* A table's clocks after a change: each seat's real-time milliseconds
** left (ms[i], -1 none) and when the running one started (unix ms, 0
** none). */
typedef struct store_clocks {
    int nseats;
    int64_t ms[5];
    int64_t turn_since;
} store_clocks;

/* One change: appends n actions (texts[i], played by seats[i]: a seat or
** -1 for chance) after the table's first `from` actions, and sets the
** table's seq to seq, its over flag and its clocks (NULL: as they are),
** all in one transaction.  The first action's seat and text, with the seq
** the client sent (seq - 1), are what store_find_change finds later. */
int store_append(store *db, const char *id, int from, int n, const char *const *texts,
                 const int *seats, int64_t seq, int over, const store_clocks *clocks,
                 char *err, size_t errsize);

/* Undo: keeps the first keep actions, drops the rest, sets seq. */
int store_truncate(store *db, const char *id, int keep, int64_t seq, char *err, size_t errsize);

/* A seat's new spec, token hash (has_token 0 clears it), resigned flag and
** forfeit reason ("" for none),
** with the table's new seq and over flag. */
int store_set_seat(store *db, const char *id, int seat, const store_seat *s, int64_t seq, int over,
                   char *err, size_t errsize);

/* Ends an unfinished table before its game ended (reason: "abandoned"),
** with its new seq.  Refused when the table is over already. */
int store_end(store *db, const char *id, int64_t seq, const char *reason, char *err,
              size_t errsize);

/* Deletes a table, its seats and its actions. */
int store_delete(store *db, const char *id, char *err, size_t errsize);

/* Whether the change that took the table from seq to seq + 1 was the
** action text played by seat: 1 yes, 0 no, -1 error. */
int store_find_change(store *db, const char *id, int64_t seq, int seat, const char *text,
                      char *err, size_t errsize);

/* Loads a table by id: 1 found (*out filled, free with store_table_free),
** 0 none, -1 error. */
int store_load(store *db, const char *id, store_table *out, char *err, size_t errsize);

/* The ids of the tables, newest first: unfinished ones when unfinished is
** set, else all; at most cap.  Returns how many (or -1). */
int store_list(store *db, int unfinished, char (*ids)[STORE_ID_LEN + 1], int cap, char *err,
               size_t errsize);

/* The tables a lobby lists, each with its seats but no actions: the
** unfinished ones newest first, or (finished set) the finished ones, the
** latest to end first; at most cap, into out (each freed with
** store_table_free).  Returns how many (or -1: out holds nothing). */
int store_list_lobby(store *db, int finished, int cap, store_table *out, char *err,
                     size_t errsize);

void store_table_free(store_table *t);

/* This table's rematch is the table next (on the loop, after both exist). */
int store_set_rematch(store *db, const char *id, const char *next, char *err, size_t errsize);

/* The clocks of a table after a change that did not store them: each
** seat's real-time milliseconds left (ms[i], -1 none) and when the running
** one started (unix ms, 0 none). */
int store_set_clocks(store *db, const char *id, int nseats, const int64_t *ms,
                     int64_t turn_since, char *err, size_t errsize);

/* ---- players and logins (sqlite_players.c, pg_players.c) ----------- */

/* Players are accounts, guests and the bots that hold ratings.  An
** account or bot is found by its name's key (the name folded as players.c
** folds it: unique among accounts and bots, not guests).  A login keeps
** only its token's SHA-256.  Times are unix seconds. */
#define STORE_PASSWORD_MAX 128 /* an Argon2id string, with its NUL */

typedef struct store_player {
    int64_t id;
    char kind[8];                  /* "account", "guest" or "bot" */
    char name[STORE_NAME_MAX + 1];
    int disabled;
} store_player;

/* The account or bot of this name key (never a guest; disabled ones too):
** 1 found, 0 none, -1 error. */
int store_player_by_key(store *db, const char *key, store_player *out, char *err,
                        size_t errsize);
/* The player of this id: 1, 0 none, -1 error. */
int store_player_get(store *db, int64_t id, store_player *out, char *err, size_t errsize);
/* The account of this name key, with its password hash into password
** (NULL: not wanted; "" when longer than password_size - 1): 1, 0 none,
** -1 error. */
int store_account_by_key(store *db, const char *key, store_player *out, char *password,
                         size_t password_size, char *err, size_t errsize);
/* A new player of kind ("account", "guest", "bot"; password NULL but for
** accounts), created and seen now: 1 with *id, 0 when the key is taken,
** -1 error. */
int store_player_add(store *db, const char *name, const char *key, const char *kind,
                     const char *password, int64_t now, int64_t *id, char *err,
                     size_t errsize);
/* The guest guest_id becomes the account name (its seats and lines stay
** its own), seen now: 1, 0 when the key is taken, 2 when there is no
** guest guest_id (nothing changed), -1 error. */
int store_guest_make_account(store *db, int64_t guest_id, const char *name, const char *key,
                             const char *password, int64_t now, char *err, size_t errsize);
/* Renames the guest id (no change when id is no guest): 0 or -1. */
int store_guest_rename(store *db, int64_t id, const char *name, const char *key, char *err,
                       size_t errsize);
/* The player's new password hash, and with end_logins every login of the
** player ended, in one transaction: 0 or -1. */
int store_player_set_password(store *db, int64_t id, const char *password, int end_logins,
                              char *err, size_t errsize);
/* Disables the player (and ends its logins, in the same transaction) or
** enables it: 0 or -1. */
int store_player_set_disabled(store *db, int64_t id, int disabled, char *err, size_t errsize);

/* A player in the operator's list (tafel admin players). */
typedef struct store_player_row {
    store_player player;
    int64_t created, seen;
    int games; /* the tables it has a seat at */
} store_player_row;
/* Every player, by kind, then name key, then id: how many (*out an array
** freed with store_player_rows_free; NULL when none), or -1. */
int store_players_list(store *db, store_player_row **out, char *err, size_t errsize);
void store_player_rows_free(store_player_row *rows);

/* Deletes up to max guests unseen since before that nothing refers to (no
** seat, chat line, table made, result or rating), with their logins, in
** one transaction: how many, or -1 (none deleted). */
int store_guests_delete(store *db, int64_t before, int max, char *err, size_t errsize);

/* A new login (the SHA-256 of its token) of player, used now, and the
** player seen now, in one transaction: 0 or -1. */
int store_login_add(store *db, const uint8_t hash[STORE_HASH_LEN], int64_t player, int64_t now,
                    char *err, size_t errsize);
/* The player of a login (disabled ones too) and when the login was last
** used: 1, 0 no such login, -1 error. */
int store_login_find(store *db, const uint8_t hash[STORE_HASH_LEN], store_player *out,
                     int64_t *used, char *err, size_t errsize);
/* The login used now, and its player seen now, in one transaction. */
int store_login_used(store *db, const uint8_t hash[STORE_HASH_LEN], int64_t player,
                     int64_t now, char *err, size_t errsize);
/* Ends the login of this token hash: 0 or -1. */
int store_login_delete(store *db, const uint8_t hash[STORE_HASH_LEN], char *err,
                       size_t errsize);
/* Ends every login of player but keep's (NULL: all): 0 or -1. */
int store_logins_delete(store *db, int64_t player, const uint8_t *keep, char *err,
                        size_t errsize);
/* Ends the logins last used before before: 0 or -1. */
int store_logins_expire(store *db, int64_t before, char *err, size_t errsize);

/* What the store knows of a login an open socket holds. */
typedef struct store_login_state {
    uint8_t hash[STORE_HASH_LEN]; /* asked: the token's SHA-256 */
    int64_t player;               /* asked: whose login it was */
    int player_found;             /* the player is still there */
    int disabled;                 /* the player is disabled */
    int login_found;              /* the login is still there (of that player) */
    int64_t used;                 /* when the login was last used */
} store_login_state;
/* Answers each of the n logins (one indexed query each): 0, or -1 when
** they could not be read (answers unset). */
int store_logins_read(store *db, store_login_state *logins, int n, char *err, size_t errsize);

/* ---- counted attempts (sqlite_players.c, pg_players.c) ------------------ */

/* What players.c limits (docs/club.md, "Too many attempts"), kept in the
** store so that every server sharing it counts the same attempts: a
** bucket per (kind, key) of cap tokens, refilled at cap per window_ms and
** full while it has no row; and notes, a (kind, key) remembered until a
** time.  The kinds and keys are players.c's.  Times are unix ms. */

/* Reckons the bucket's tokens at now and, when take is set and one is
** there, takes it, in one statement (servers never take the same token):
** 1 a token was there (and taken when take is set), 0 none (nothing
** taken), -1 error.  *tokens: what the bucket holds then. */
int store_attempt_take(store *db, const char *kind, const char *key, double cap,
                       int64_t window_ms, int64_t now, int take, double *tokens, char *err,
                       size_t errsize);
/* One token back to the bucket (all: the bucket full again): 0 or -1. */
int store_attempt_give(store *db, const char *kind, const char *key, double cap,
                       int64_t window_ms, int64_t now, int all, char *err, size_t errsize);
/* Notes (kind, key) from now until until (a later note replaces it): 0
** or -1. */
int store_attempt_note(store *db, const char *kind, const char *key, int64_t now,
                       int64_t until, char *err, size_t errsize);
/* Whether (kind, key) is noted at now: 1, 0, -1 error. */
int store_attempt_noted(store *db, const char *kind, const char *key, int64_t now, char *err,
                        size_t errsize);
/* Forgets the buckets full again and the notes past at now: 0 or -1. */
int store_attempts_expire(store *db, int64_t now, char *err, size_t errsize);

/* ---- chat (sqlite_chat.c, pg_chat.c) ------------------------------------ */

/* One line said at a table (chat.c checks it before it is stored). */
typedef struct store_chat_line {
    int64_t n;        /* its number at its table: 1, 2, ... in the order said */
    int64_t player;   /* players.id of who said it, 0: a seat's socket without a login */
    char *name;       /* the speaker's name then, "" for none */
    char kind[8];     /* read back: the speaker's players.kind ("account", "guest", "bot"), "" */
    int seat;         /* the speaker's seat, -1: a spectator */
    int64_t at;       /* unix ms */
    char *text;
} store_chat_line;

/* The number the table's next line gets (*next_n: its latest + 1) and
** how many lines the side of seat has said (*said: its players' lines for
** a seat >= 0, its spectators' for -1).  0, or -1 with err. */
int store_chat_count(store *db, const char *table_id, int seat, int64_t *next_n, int64_t *said,
                     char *err, size_t errsize);

/* Stores line (its kind is not stored: the player's is read back) at the
** table.  0, or -1 with err (a number taken already is refused). */
int store_chat_add(store *db, const char *table_id, const store_chat_line *line, char *err,
                   size_t errsize);

/* The table's latest lines, at most cap, oldest first, into out: the
** players' only, or the spectators' too (spectators_too).  How many (each
** freed with store_chat_lines_free), or -1 with err (out holds nothing). */
int store_chat_read(store *db, const char *table_id, int spectators_too, int cap,
                    store_chat_line *out, char *err, size_t errsize);
void store_chat_lines_free(store_chat_line *lines, int n);

/* ---- ratings, results, profiles, the leaderboard (sqlite_ratings.c, pg_ratings.c) */

#define STORE_GAME_MAX 64  /* a game's name, as tafel_game_name gives it */

/* A Glicko-2 rating (glicko2.c reckons it; the store only keeps it). */
typedef struct store_rating {
    double rating, rd, volatility;
} store_rating;

/* One seat's result at a finished table. */
typedef struct store_result {
    int seat;
    int64_t player;        /* players.id */
    int place;             /* 1 first; a tie shares its place */
    double score;
    store_rating before;   /* the player's rating at the game: the store reads it */
    int rated;             /* set by the rating function: before and after are stored */
    store_rating after;    /* set by the rating function */
} store_result;

/* Reckons the new ratings of a table's results: sets each one's rated and
** after from every result's before.  0, or -1 to store nothing. */
typedef int (*store_rate_fn)(void *arg, int n, store_result *results);

/* A finished table's results (of game), one transaction: nothing when the
** table has results already (its end seen before a restart); else, when
** rate is given, each result's before read first (kept as the caller set
** it -- a new player's rating -- when the player has none yet at game),
** rate(arg, n, results) called, and the results written with, for each
** rated one, its ratings before and after and its player's rating (one
** more game).  The read and the write are one call so that a store shared
** by several servers can lock the ratings between them.  1 written, 0 the
** table had results already, -1 nothing written. */
int store_results_record(store *db, const char *table_id, const char *game, int n,
                         store_result *results, store_rate_fn rate, void *arg, char *err,
                         size_t errsize);

/* The rating of player at game: 1 found (*out), 0 none yet, -1 error. */
int store_rating_read(store *db, int64_t player, const char *game, store_rating *out,
                      char *err, size_t errsize);

/* A row of a game's leaderboard. */
typedef struct store_standing {
    char name[STORE_NAME_MAX + 1];
    char kind[STORE_KIND_MAX];
    double rating, rd;
    int games;
} store_standing;

/* The rated players of game who play (not disabled) with a game or more,
** by rating, highest first, at most cap, into *out (free() it).  How many,
** or -1 (*out NULL). */
int store_leaderboard_read(store *db, const char *game, int cap, store_standing **out,
                           char *err, size_t errsize);

/* What a profile shows of a player (ratings.c makes its JSON). */
typedef struct store_game_record {   /* per game: won is first alone, lost any place past 1st */
    char game[STORE_GAME_MAX];
    int played, won, lost;
} store_game_record;

typedef struct store_rating_point {  /* a rated result not voided */
    int64_t at;                      /* unix seconds */
    double rating, rd;               /* after it */
    char table_id[STORE_ID_LEN + 1];
} store_rating_point;

typedef struct store_game_rating {
    char game[STORE_GAME_MAX];
    double rating, rd;
    int games;
    int nhistory;
    store_rating_point *history;     /* the latest, oldest first */
} store_game_rating;

typedef struct store_opponent {
    char name[STORE_NAME_MAX + 1];
    char kind[STORE_KIND_MAX];
    int place;
} store_opponent;

typedef struct store_profile_result {
    char table_id[STORE_ID_LEN + 1];
    char game[STORE_GAME_MAX];
    int64_t at;
    int seat, place, players;        /* players: the table's seats */
    int has_score;
    double score;
    int rated;                       /* the four below are stored (else NULL) */
    double rating_before, rating_after, rd_before, rd_after;
    int voided;
    int hidden;                      /* private, and the viewer did not sit at it */
    int nopponents;
    store_opponent *opponents;       /* the other seats' players, by place then seat */
} store_profile_result;

typedef struct store_profile {
    int64_t since;                   /* players.created, 0 when not found */
    int ngames;
    store_game_record *games;        /* by game */
    int nratings;
    store_game_rating *ratings;      /* by game */
    int nresults;
    store_profile_result *results;   /* the latest, newest first */
} store_profile;

/* The profile of player as viewer (players.id, 0 nobody) sees it: its
** games, ratings with their latest history points, and its latest
** results, at most history_cap and results_cap.  0 (*out filled, free
** with store_profile_free), or -1 (*out empty). */
int store_profile_read(store *db, int64_t player, int64_t viewer, int history_cap,
                       int results_cap, store_profile *out, char *err, size_t errsize);
void store_profile_free(store_profile *p); /* an emptied profile is fine */

/* Voiding rated results and rating a game again (rerate.c). */
typedef struct store_rerate_player { /* a player rated at the game, by id */
    int64_t id;
    char name[STORE_NAME_MAX + 1];
    double old_rating;               /* the rating now stored */
    store_rating now;                /* set by the rerate function: stored as the rating */
    int games;                       /* set by the rerate function */
} store_rerate_player;

typedef struct store_rerate_result { /* a rated result not voided, in the order rated */
    int64_t player;
    char table_id[STORE_ID_LEN + 1];
    int seat, place;
    store_rating before, after;      /* set by the rerate function (rating and rd stored) */
} store_rerate_result;

typedef struct store_rerate_game {
    const char *game;
    int nplayers;
    store_rerate_player *players;
    int nresults;
    store_rerate_result *results;    /* one table's results are consecutive */
} store_rerate_game;

/* Rates a game again: sets every player's now and games and every
** result's before and after.  0, or -1 with err (nothing is stored). */
typedef int (*store_rerate_fn)(void *arg, store_rerate_game *g, char *err, size_t errsize);

typedef struct store_voided_table {
    char id[STORE_ID_LEN + 1];
    char game[STORE_GAME_MAX];
    int64_t at;                      /* unix seconds of its results */
} store_voided_table;

/* Voids every result of each rated table player sat at (of game, or of
** every game when game is NULL) whose results are not voided yet, then
** rates each game touched again: rerate(arg, ...) with its players and
** remaining rated results, whose new values are stored.  One transaction:
** a failure anywhere changes nothing.  The tables voided, oldest first,
** into *tables (free() it); how many (0: nothing changed), or -1. */
int store_results_void(store *db, int64_t player, const char *game, store_rerate_fn rerate,
                       void *arg, store_voided_table **tables, char *err, size_t errsize);

/* ---- clocks and my games (sqlite_tables.c, pg_tables.c) ------------------ */

/* Seat lost on time at a table of two: resigned with forfeit "time", the
** table over with end_reason "timeout", no clock running, seq set; one
** transaction.  Refused when the table is over or has no such seat. */
int store_time_out(store *db, const char *id, int seat, int64_t seq, char *err,
                   size_t errsize);

/* A seat bound to a player at an unfinished table. */
typedef struct store_player_seat {
    char table_id[STORE_ID_LEN + 1];
    int seat;
} store_player_seat;

/* The seats bound to player at unfinished tables, the latest changed
** table first, at most cap, into out.  How many, or -1 with err. */
int store_player_seats(store *db, int64_t player, int cap, store_player_seat *out, char *err,
                       size_t errsize);

/* ---- several nodes on one database: leases, claims, fencing (owner.c, pg_owner.c,
** sqlite_owner.c; docs/server.md, "Several nodes") ------------------------ */

/* On PostgreSQL several servers (nodes) share the database, and each table
** is played by one node at a time (shared/notes/stack-turn4.md §4).  A node
** holds a lease (nodes.lease_until), renewed before it runs out; the
** database's clock is the only clock, so that nodes whose clocks differ
** agree on who is alive.  A table's row names its owner and an epoch (a
** fencing token): a node claims a table when it has no owner, is its own,
** or its owner's lease ran out, and the epoch goes up by one at every
** claim and hand-over.
**
** A handle acts for a node (store_act_as) or for none (tafel admin, a
** single server, the tests of today): then it writes as it always did.
** Every handle of the process acting for the same node on the same
** database shares the epochs the node holds (a registry inside the store,
** thread-safe), so a claim on the loop's handle fences the pool's threads
** too (pool.h).  A handle acting for a node writes a table (store_append,
** store_truncate, store_set_seat, store_end, store_set_rematch,
** store_set_clocks, store_time_out, store_delete, store_chat_add,
** store_results_record) only while the table's row names this node at the
** epoch it holds, checked under the row's lock in the write's own
** transaction; otherwise it writes nothing and returns STORE_MOVED (err
** says who owns it now) and forgets the table: a storage failure stays
** -1.  A table it never claimed (nor made) is refused the same way, without
** asking the database.
**
** On SQLite there is one node, always alive: the calls succeed, nothing
** is stored about nodes, and nothing is fenced (one process has the file). */
#define STORE_NODE_MAX 64   /* a node's name, in bytes: letters, digits, '.', '-', ':', '_' */
#define STORE_ADDR_MAX 128  /* the address other nodes and pages reach a node at */
#define STORE_MOVED (-2)    /* the table is another node's now: nothing was written */

/* 1 when name is a node's name: 1 to STORE_NODE_MAX bytes of letters,
** digits, '.', '-', ':' and '_'. */
int store_node_name_ok(const char *name);

/* db acts for node from now on (NULL: for none, as opened), sharing the
** epochs of every handle of this process acting for node on the same
** database (on PostgreSQL: the same host, port, database and user).  0, or
** -1 with err (a bad name, out of memory). */
int store_act_as(store *db, const char *node, char *err, size_t errsize);
/* The node db acts for, or NULL. */
const char *store_acting_for(const store *db);
/* The epoch db's node holds table id at, 0 none (on PostgreSQL once it
** claimed or made it; on SQLite 1 once it claimed it). */
int64_t store_held_epoch(const store *db, const char *id);

/* Renews the lease of db's node: alive until the database's clock reaches
** now + seconds (> 0), reachable at addr (at most STORE_ADDR_MAX - 1
** bytes), the node's row made on its first renewal.  0, or -1 with err. */
int store_lease_renew(store *db, const char *addr, double seconds, char *err, size_t errsize);

/* A node as the database knows it. */
typedef struct store_lease {
    char node[STORE_NODE_MAX + 1];
    char addr[STORE_ADDR_MAX];
    int alive;        /* its lease runs at the database's clock */
    int64_t left_ms;  /* until it runs out (negative: since it ran out) */
} store_lease;

/* The nodes, by name, at most cap into out: how many, or -1 with err.  On
** SQLite the node db acts for, alive (none when it acts for none). */
int store_leases_read(store *db, store_lease *out, int cap, char *err, size_t errsize);

/* What a claim found. */
typedef struct store_claim_answer {
    int64_t epoch;                  /* claimed: the epoch db's node holds it at now */
    int64_t seq;                    /* claimed: the table's seq (its changes so far) */
    char owner[STORE_NODE_MAX + 1]; /* refused: the live node that owns it */
    char addr[STORE_ADDR_MAX];      /* refused: that node's address */
    char home[STORE_NODE_MAX + 1];  /* claimed: its home ("" none: one node) */
} store_claim_answer;

/* A table's home (PostgreSQL, schema 8) is the node it goes back to when
** that node is up: the node that made it, or the node a hand-over gave it
** to (one its clients reach) while its home lived.  A claim keeps it: a
** dead node's tables, taken over and handed on, still have that node as
** their home (a table without one, of an older schema, takes its owner's,
** else the claimer's). */

/* Claims table id for db's node (which must act for one, with a live
** lease): when the table has no owner, is the node's own, or its owner's
** lease ran out, the node owns it at the next epoch.  A change of the old
** owner in flight finishes first (the claim waits for the row's lock), so
** out->seq counts it.  1 claimed, 0 refused (another node owns it and is
** alive: out->owner, out->addr), -1 error (no such table, no live lease of
** db's node). */
int store_claim(store *db, const char *id, store_claim_answer *out, char *err, size_t errsize);

/* Gives table id, which db's node owns at the epoch it holds, to node to
** (NULL: to nobody, a release: the next claim takes it at once), at the
** next epoch; db's node forgets it.  0, STORE_MOVED (db's node does not own
** it at that epoch: nothing changed), or -1 (to has never renewed a
** lease, a storage failure). */
int store_hand_over(store *db, const char *id, const char *to, char *err, size_t errsize);

/* A table taken over by store_claim_orphans. */
typedef struct store_claimed {
    char id[STORE_ID_LEN + 1];
    int64_t epoch;                 /* db's node holds it at */
    int64_t seq;
    char from[STORE_NODE_MAX + 1]; /* the node whose lease ran out, "" none (released) */
    char home[STORE_NODE_MAX + 1]; /* its home (store_claim) */
} store_claimed;

/* Claims up to cap unfinished tables that have no owner or whose owner's
** lease ran out, for db's node (acting, with a live lease), the oldest
** tables first; rows another claimer has locked are skipped (FOR UPDATE
** SKIP LOCKED), so claimers at once take disjoint sets.  How many (into
** out), or -1 with err (nothing claimed).  0 on SQLite. */
int store_claim_orphans(store *db, int cap, store_claimed *out, char *err, size_t errsize);

#endif
