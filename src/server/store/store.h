/*
** store.h -- the server's store: everything it keeps on disk, the one place SQL is
** written (issue 36: the club's SQL moves behind it, then PostgreSQL beside SQLite).
**
** The tables: one SQLite file.
**
** A table is its game string, its seed, its seats and the list of its
** actions (chance events included): exactly a tafel record, so a table is
** rebuilt after a restart by replaying it.  Every change is one
** transaction, committed before the server applies it (docs/protocol.md,
** "Order of a change").  WAL with synchronous=NORMAL survives kill -9;
** durable syncs the log off the loop (syncer.c), which survives a power
** cut too.
**
** All calls run on the server's event-loop thread.  Errors return -1 and
** write a message (naming what failed, with SQLite's reason) to err.
*/
#ifndef TF_SERVER_STORAGE_H
#define TF_SERVER_STORAGE_H

#include <stddef.h>
#include <stdint.h>

/* 2 added seats.forfeit, 3 tables.updated, 4 tables.seed_chosen and
** tables.end_reason, 5 the club: players, logins, chat, ratings, results,
** and the tables' rated/private/clock/rematch columns and the seats'
** player and clock, 6 invitations that wait for an answer, the creator's
** address and voided results; an older file is brought up to date when
** opened. */
#define STORE_SCHEMA_VERSION 6
#define STORE_ID_LEN 16     /* a table id: 16 hex digits */
#define STORE_HASH_LEN 32   /* SHA-256 of a seat's token */
#define STORE_SPEC_MAX 128  /* "human" or a bot spec */
#define STORE_REASON_MAX 256 /* why a seat forfeited */
#define STORE_END_REASON_MAX 32 /* why a table ended before its game did */
#define STORE_CLOCK_MAX 32      /* a clock's text */

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

/* Opens or creates the database at path (schema version checked, WAL,
** foreign keys on).  ":memory:" works for tests. */
int store_open(const char *path, int durable, store **out, char *err, size_t errsize);
void store_close(store *db); /* NULL is fine */

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

/* ---- players and logins (store_players.c) ------------------------------ */

/* ---- chat (store_chat.c) ------------------------------------------------ */

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

/* ---- ratings, results, profiles, the leaderboard (store_ratings.c) ------- */

/* ---- clocks and my games (store_tables.c) -------------------------------- */

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

/* The SQLite connection, for the club's own statements (players.c,
** chat.c, ratings.c): on the loop only, never inside another's change. */
struct sqlite3;
struct sqlite3 *store_sqlite(store *db);

#endif
