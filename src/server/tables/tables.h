/*
** tables.h -- the tables in memory, and the changes made to them.
**
** A table is its game, its live state, the actions so far (texts, and who
** played each: a seat or -1 for chance) and its seats.  Every change --
** a move with the chance events that follow it, an undo, a resignation, a
** hand-over -- is worked out on a copy, committed to the database, and only
** then applied and told to the layer above: the database is never behind
** what a client was told.  seq counts the changes (docs/protocol.md).  The
** actions of the latest change are kept as every viewer sees them, texts
** and accounts, worked out once when applied: the states sent after each
** change carry those a socket was not sent yet (a state's "events").
**
** A change is committed off the loop, by the store's pool of connections
** (pool.h: one lane per table, so a table's changes commit in order), and
** applied when its commit is done.  Meanwhile the table is busy: a request
** that would change it waits in its queue (table_defer) and is checked
** against the table as it is when its turn comes; its requester is answered
** through its table_reply once its change is applied and told.  With no
** threads in the pool (SQLite's default) a commit is done before the call
** that made it returns, and every answer comes as it always did.
**
** The tables layer (docs/server.md, "The server in layers"): tables.h,
** bots.h and clocks.h.  It calls down into the club and the store, and up
** only through the callbacks it is given at start-up (tables_events,
** clocks_on_turn, the bot pool's wake-up).  It names no socket: who
** watches a table is the protocol's (t->watchers, never looked into here);
** the tables count the watchers and the sockets at each seat.
*/
#ifndef TF_SERVER_TABLES_H
#define TF_SERVER_TABLES_H

#include "bots.h"
#include "clocks.h"
#include "players.h"
#include "ratings.h"
#include "store.h"

#define TABLE_UNDO_MAX 16

typedef struct table_seat {
    char spec[STORE_SPEC_MAX]; /* "human" or the bot playing it */
    int bot;                   /* a bot plays it now */
    int has_token;
    uint8_t token_hash[STORE_HASH_LEN];
    int resigned;              /* its turns are taken by "greedy" */
    char forfeit[STORE_REASON_MAX]; /* why its external bot lost it, or "" */
    int connected;             /* sockets sitting in this seat (table_watch) */
    player who;                /* whom the seat is bound to (claimed or invited; its
                               ** name is shown at the seat); id 0: nobody yet */
    int64_t clock_ms;          /* real time: milliseconds left, -1: no clock */
    int invite;                /* 1: who was invited and has not accepted yet */
    /* The rating its state shows, as ratings.c last read it (-1: none), for
    ** the change rating_seq, the player rating_player and the ratings as of
    ** rating_gen (ratings_seat_rating). */
    int rating;
    int64_t rating_seq, rating_player;
    uint64_t rating_gen;
} table_seat;

/* One action of the latest change, as each viewer sees it (index: seat + 1,
** 0 the spectator): its text, and its account (tafel_state_describe, a JSON
** array; NULL when the engine could not tell it, or for the change guessed
** after a restart, whose accounts no socket is ever sent). */
typedef struct table_last {
    int seat; /* -1: chance */
    char *text[TAFEL_MAX_PLAYERS + 1];
    char *events[TAFEL_MAX_PLAYERS + 1];
} table_last;

typedef struct table_watchers table_watchers;

typedef struct table {
    char id[STORE_ID_LEN + 1];
    char *game_string;
    tafel_game *game;
    tafel_state *state;
    uint64_t seed;
    int seed_chosen;  /* the creator chose the seed: a practice table, shown to all */
    char end_reason[STORE_END_REASON_MAX]; /* "abandoned", or "" */
    int players;
    table_seat seats[TAFEL_MAX_PLAYERS];
    int64_t seq;
    int over;
    int64_t created;
    int64_t updated;  /* unix seconds of its latest change (expiry) */
    int rated;        /* ratings.c rates its result */
    int private_;     /* invitation only: not listed, no spectators */
    table_clock clock; /* clocks.c */
    int64_t turn_since; /* unix ms when the running clock started, 0: none runs */
    char bot_level[STORE_SPEC_MAX]; /* takes a seat whose time ran out (3+ players) */
    char rematch_of[STORE_ID_LEN + 1], rematch[STORE_ID_LEN + 1];
    player creator;   /* who made it (nobody: an API client) */
    char creator_addr[64]; /* the address it was made from ("" unknown: an older table) */
    int64_t invite_until; /* unix seconds when waiting invitations expire, 0: none waits */
    /* clocks.c: the seq the clocks were settled for (-1 never), the human
    ** seat whose turn they count then (-1 none), the place + 1 of the
    ** table on the list of running clocks (0 off it) */
    int64_t clock_seq;
    int turn_seat;
    int clock_listed;
    /* clocks.c: the clocks stored with the change to seq clock_next_seq
    ** (0: none waits to be applied) */
    store_clocks clock_next;
    int64_t clock_next_seq;

    int nactions, cap;
    char **texts;
    int *action_seats;

    table_last *last; /* the latest change's actions */
    int nlast;

    /* Undo: the action counts before each of undo_seat's own moves since
    ** the last chance event or other seat's move (none of which revealed
    ** anything), oldest first. */
    int undo_seat, nundo;
    int undo_at[TABLE_UNDO_MAX];

    int64_t bot_asked; /* the seq a bot job was sent for, or -1 */

    int busy;  /* a change of it is being committed (table_commit) */
    struct table_waiter *wait_head, *wait_tail; /* what waits for it to be idle */
    int draining; /* what waited is being run (run_waiting) */
    int reload; /* a commit was in doubt and the table could not be read again:
                ** tables_tick tries again */
    int rating_reads; /* a job reads its seats' ratings (table_seat_rating) */

    int stuck; /* a change that must happen (opening deal, a bot's move, the
               ** end of an abandoned table) could not be stored: tables_tick
               ** tries again */

    /* Who watches it: the layer above's (protocol/watchers.c), never looked
    ** into here; watching counts them (table_watch), for the sweep. */
    struct table_watchers *watchers;
    int watching;
    struct table *next, *prev; /* the list of tables, newest first */
    struct table *hnext;       /* the next in its bucket of the map by id */
    int sweep_listed;          /* on the list tables_sweep looks at */

    /* Several nodes (ownership.c): the node it goes back to, when it came
    ** to this one (unix ms), and whether a hand-over of it is queued. */
    char home[STORE_NODE_MAX + 1];
    int64_t arrived_ms;
    int giving;
} table;

/* What the tables are told at start-up (serve.c, from the options: the
** limits of docs/server.md that are the tables', with their option). */
typedef struct tables_config {
    int new_tables;      /* --max-new-tables: tables one address may create an hour (0: off) */
    int max_tables;      /* --max-tables: unfinished tables at once */
    long expire_seconds; /* --expire: an unfinished table left alone this long is abandoned
                         ** (0: never) */
    long invite_seconds; /* --invite-expire: invitations unanswered this long expire */
    int chosen_seeds;    /* --allow-chosen-seeds: tables of people take a chosen seed too */
    int bot_ms;          /* --bot-ms: most milliseconds a bot thinks about a move */
    int hint_ms;         /* --hint-ms: most milliseconds a hint thinks */
    int bot_iters;       /* --max-bot-iters: most iterations a bot's spec may ask (0: off) */
    int db_connections;  /* --db-connections: the pool's threads that commit changes; -1:
                         ** the default (TABLES_PG_CONNECTIONS on PostgreSQL, 0 on SQLite) */
    const char *node;    /* --node: on PostgreSQL the tables act for this node (store_act_as):
                         ** they claim a table before loading it, and a write answered
                         ** STORE_MOVED drops it; NULL: for none (SQLite, one node) */
    int lease_seconds;   /* --lease: the node's lease, renewed every fifth of it */
} tables_config;

#define TABLES_PG_CONNECTIONS 8

/* What the tables tell the layer above (the protocol: watchers.h), given at
** start-up.  A change is told once it is applied -- after its commit --
** and never assumed by the caller of the request that made it. */
typedef struct tables_events {
    /* t changed (a change applied, or what its state shows: the sockets at
    ** a seat, a rematch): its watchers are to be sent its state. */
    void (*changed)(struct table *t);
    /* seat of t is its watchers' no more: given_up, they gave it away
    ** (resigned, handed it over, ran out of time); else player keep claimed
    ** it (keep's own sockets stay).  They watch as spectators from now on;
    ** how many left the seat. */
    int (*unseated)(struct table *t, int seat, int64_t keep, int given_up);
    /* The hint job->session_id asked for is ready (not failed). */
    void (*hint)(struct table *t, const bot_job *job);
    /* Called from a thread of the store's pool when a commit is done: the
    ** loop is to wake and call tables_commits_done (serve.c: the bots'
    ** wake-up).  NULL: nobody (a pool with no threads needs none). */
    void (*wake)(void);
    /* t is this node's no more (a write answered STORE_MOVED: another node
    ** claimed it): every socket watching it is to close with 4000 "moved"
    ** and stop watching it; t is freed when this returns. */
    void (*moved)(struct table *t);
    /* Several nodes: table id was handed over to node to, which is to load
    ** it (nodes.h); this node started a while ago and asks for the tables
    ** whose home it is.  NULL: nobody. */
    void (*given)(const char *id, const char *to);
    void (*home)(const char *node);
    /* A client here asked for table id, which live node owner has: this
    ** node asks for it (it was refused a claim and sends the client on). */
    void (*ask)(const char *id, const char *owner);
} tables_events;

/* How a change answers whoever asked for it: done(t, ctx, rc, code, msg)
** once, on the loop, after the change was applied and told (rc 0), or
** when it failed (rc -1, code and msg: "storage" and the store's reason;
** the table as it was), or with rc TABLE_UNANSWERED when nobody is to be
** answered: the commit was in doubt (the table was read again from the
** store and its watchers sent its state: a resent move is recognised) or
** the server stops.  t is NULL when a new table was not made. */
typedef struct table_reply {
    void (*done)(struct table *t, void *ctx, int rc, const char *code, const char *msg);
    void *ctx;
} table_reply;
#define TABLE_UNANSWERED 2
#define TABLE_PLAYED 1 /* table_move: a resent move, played already */

/* Runs fn(t, ctx) now when t is idle (no change in flight, nothing waiting
** before it), else once every change and request before it is done, in
** order; fn(NULL, ctx) when the table goes first (the server stops).  0,
** or -1 out of memory (fn not called). */
int table_defer(table *t, void (*fn)(table *t, void *ctx), void *ctx);
/* Whether a change of t is being committed (a tick passes it by). */
int table_busy(const table *t);
/* On the loop, woken by tables_events.wake: the commits done meanwhile
** applied, told and answered, in the order they finished. */
void tables_commits_done(void);

/* Opens the store (db_path; durable: every change synced first) and starts
** the tables with the config and the callbacks (both copied). */
int tables_open(const char *db_path, int durable, const tables_config *config,
                const tables_events *events, char *err, size_t errsize);
void tables_close(void);
/* Rebuilds every unfinished table from the database (acting for a node:
** those it claims, its own, unowned or orphaned); how many, or -1. */
int tables_restore(char *err, size_t errsize);

/* Table id, in memory or loaded from the store (a finished table of an
** earlier run) -- waiting for the store: SQLite's, or a server that acts
** for no node; tables_find_later otherwise.  Acting for a node, a table
** not in memory is claimed before it is loaded, and when a live other node
** owns it *elsewhere is set (1) and NULL returned (the client is sent on:
** docs/protocol.md). */
table *tables_find_here(const char *id, int *elsewhere);
/* The same for a join, without waiting on the loop: fn(t, elsewhere, ctx)
** is called at once when the table is in memory or this node acts for
** none; else once the claim and the read, done on the store's pool, are
** (on the loop, maybe after the socket that asked closed).  elsewhere is
** set too when the claim failed for a while (PostgreSQL away): the client
** is sent on, and comes back. */
void tables_find_later(const char *id, void (*fn)(table *t, int elsewhere, void *ctx),
                       void *ctx);

/* A store call that must not wait on the loop (issue 36: the club's reads
** and writes on PostgreSQL): run(db, ctx, err, errsize) on a thread of the
** store's pool in the lane of key -- a table's id keeps it in that table's
** order; any other key runs in the club's lanes, which never hold a table's
** change back -- with db lent to the club (club.h), so the club's functions may be
** called there; it touches nothing of the loop's.  Then done(ctx, rc, err)
** on the loop, rc what run returned (0, or -1 with err), or
** TABLE_UNANSWERED when the server stops (whoever asked is gone).  With no
** threads (SQLite) both run at once, before tables_later returns;
** tables_later_waits says which. */
typedef int (*tables_later_run)(store *db, void *ctx, char *err, size_t errsize);
typedef void (*tables_later_done)(void *ctx, int rc, const char *err);
void tables_later(const char *key, tables_later_run run, tables_later_done done, void *ctx);
int tables_later_waits(void);

/* A copy of table id as stored, to read only (several nodes: "my games"
** shows the tables other nodes play): not listed, claimed or played; NULL
** when it is not stored or does not replay.  Freed by tables_read_free.
** Read in two halves, so that the store's runs off the loop: what the
** store holds of it (tables_stored_read: in a tables_later job, or with
** the loop's store), then the table rebuilt from that, on the loop
** (tables_stored_build, which frees what was read). */
typedef struct tables_stored {
    int found;      /* 1: st and creator hold it */
    store_table st;
    player creator; /* who made it (id 0: nobody; a name "": not found) */
} tables_stored;
int tables_stored_read(store *db, const char *id, tables_stored *out, char *err,
                       size_t errsize); /* 1 found, 0 not stored, -1 unreadable (err) */
table *tables_stored_build(tables_stored *in);
table *tables_read(const char *id);
void tables_read_free(table *t);

/* Several nodes (ownership.c; docs/server.md, "Who owns a table"), heard
** from the others (nodes.h): node to's clients reach table id there, so
** it asks for it: handed over when idle, unless it came here moments ago;
** node home is back: the tables whose home it is are handed back; table id
** was handed to this node: claimed and loaded, its bots and clocks
** resumed.  Each does nothing when this node does not act for one. */
void tables_give(const char *id, const char *to);
void tables_give_home(const char *home);
void tables_adopt(const char *id);
/* Frees the finished tables no socket sits at: their records stay on disk
** (tables_find loads one again when asked).  Called between events, when
** no caller holds a table. */
void tables_sweep(void);
/* The tables in memory, newest first, at most cap (the fuzz target checks
** each one's state after every input). */
int tables_newest(table **out, int cap);
/* The table of id if it is in memory, or NULL: unlike tables_find, it
** never loads one. */
const table *tables_loaded(const char *id);
/* A seat as a table in memory holds it, from its stored form (not connected). */
void table_seat_from_store(table_seat *to, const store_seat *from);
/* "bot" or "human", as a client is told: a forfeited seat was a bot's and
** stays one; a person who resigned is still a person. */
const char *table_seat_kind(const table_seat *ts);

/* A new table: game string and one spec per seat ("human" or a bot).
** tokens[i] receives seat i's token (32 hex digits) or "" for a bot.
** has_seed: the creator chose seed (protocol.c allows it only at a table of
** at most one person).  addr: the creator's address, for the quota of new
** tables.  -1 refused now, code and message saying why (bad_game, storage,
** quota, server_full, seed_not_allowed); else 0, tokens filled, and the
** table is made once its opening deal is stored: reply is then told (with
** the new table, or t NULL and "storage"). */
/* What a create message asks for besides the game and the seats
** (docs/protocol.md, "create"). */
typedef struct table_options {
    int rated;                       /* "rated": true */
    int private_;                    /* "private": true */
    table_clock clock;               /* "clock" (clocks.c parses it) */
    char bot_level[STORE_SPEC_MAX];  /* "bot": takes a timed-out seat; "" the default */
    const table *rematch_of;         /* a rematch of this table (protocol.c) */
    player creator;                  /* the creating socket's player */
    player seat_players[TAFEL_MAX_PLAYERS]; /* seats bound at creation (invitations,
                                             ** a rematch's players); id 0: open */
    int seat_invited[TAFEL_MAX_PLAYERS];    /* 1: that seat's player is invited and
                                             ** answers first (accept or decline) */
} table_options;

int tables_create(const char *game_string, const char *const *specs, int nspecs,
                  uint64_t seed, int has_seed, const table_options *opt, const char *addr,
                  const table_reply *reply, char tokens[][33], const char **code, char *msg,
                  size_t msgsize);

/* The server's database: the loop's own connection (what still reads on
** the loop; with no pool threads, everything).  A store call that would
** wait on PostgreSQL goes through tables_later, on a pool thread's. */
store *tables_store(void);

/* A counter that grows with every change a lobby shows (tables made,
** moved, ended; seats taken or left): the lobby's cache is good while it
** stays the same. */
uint64_t tables_generation(void);

/* The seat whose token this is, or -1. */
int table_seat_of_token(const table *t, const char *token);
/* The seat bound to player id (claimed or invited), or -1 (id 0: -1). */
int table_seat_of_player(const table *t, int64_t id);
/* Binds the open seat to who (a seat link claimed): stored, without a new
** seq (the game did not change); its other sockets told (not the state:
** the caller sends it).  As the requests below. */
int table_claim(table *t, int seat, const player *who, const table_reply *reply,
                const char **code, char *msg, size_t msgsize);

/* How many invited seats wait for their player's answer.  While one waits
** no seat acts, no bot is asked and no clock runs (docs/club.md,
** "Invitations"). */
int table_waiting(const table *t);
/* The invited player of seat answers: accept clears the invitation (a
** change: seq + 1, stored, told; the game starts when none waits);
** decline ends the table as "declined", leaving no results.  0, or -1
** with code (not_invited, over, storage) and msg. */
int table_answer(table *t, int seat, int accept, const table_reply *reply, const char **code,
                 char *msg, size_t msgsize);

/* Requests that change a table, on an idle one (table_defer).  -1 refused
** now, with code and msg (reply not called); 0 the change is under way:
** reply (NULL: nobody) is told once it is committed, applied and told
** (table_changed), or failed -- maybe before the call returns.  A move
** for the seq before is looked for among the stored changes (a job off
** the loop): when it was played already (resent after a lost ack,
** docs/protocol.md) reply is told TABLE_PLAYED, nothing applied; else
** -1 "stale". */
int table_move(table *t, int seat, int64_t seq, const char *action, const table_reply *reply,
               const char **code, char *msg, size_t msgsize);
int table_undo(table *t, int seat, int64_t seq, const table_reply *reply, const char **code,
               char *msg, size_t msgsize);
/* A person's seat bound to a player that gives up before its first own
** action ends the whole table as "aborted": no results, no rating
** (docs/club.md, "Aborted games"). */
int table_resign(table *t, int seat, int64_t seq, const table_reply *reply, const char **code,
                 char *msg, size_t msgsize);
int table_hand_over(table *t, int seat, int64_t seq, const char *bot, const table_reply *reply,
                    const char **code, char *msg, size_t msgsize);
/* A seat's time ran out (a real-time clock, or a claim by correspondence):
** at a table of two it loses (resigned, forfeit "time", the table over
** with reason "timeout"); at three or more the table's bot_level bot
** ("medium" by default) takes the seat (forfeit "time") and the game goes
** on.  A person's seat that never acted aborts the table instead (as
** resigning or handing over does: table_resign).  Committed, applied, told; -1 with code and msg
** otherwise. */
int table_time_out(table *t, int seat, const table_reply *reply, const char **code, char *msg,
                   size_t msgsize);
/* seat claims the game of the seat to move, whose time by correspondence
** has passed: then as table_time_out; refused before (too_early). */
int table_claim_time(table *t, int seat, int64_t seq, const table_reply *reply,
                     const char **code, char *msg, size_t msgsize);
/* The link to t's rematch next (made and stored already): stored, then
** shown in t's state (told).  As the requests above. */
int table_set_rematch(table *t, const char *next, const table_reply *reply, const char **code,
                      char *msg, size_t msgsize);
/* The clocks of t after a change that did not store them, stored in the
** order of its changes (clocks.c); a failure is only logged. */
void table_store_clocks(const table *t, const store_clocks *clocks);
/* Whether seat may undo now; why not in why. */
int table_can_undo(const table *t, int seat, const char **why);
/* The winners among the seats that did not resign (when over). */
int table_winners(const table *t, int *out);

/* A socket watches t from now on, in seat (-1: a spectator), or no longer
** (the protocol's watchers_attach and _detach): the counts of its watchers
** and of the seat's sockets.  A finished table nobody watches may be freed
** (tables_sweep). */
void table_watch(table *t, int seat);
void table_unwatch(table *t, int seat);
/* t is to be shown again: its clocks settled for its seq, then the layer
** above told (tables_events.changed).  After every change, and by the
** protocol when what a state shows changed besides the game. */
void table_changed(table *t);
/* What the club's ratings need of t (ratings.h): its seats, their scores. */
void table_ratings(const table *t, ratings_table *out);
/* The rating the seat's state shows (ratings_seat_rating of its player):
** read once per change, player and change of ratings, and kept in the
** seat.  Where the store is read off the loop (tables_later_waits) it is
** read by a job, and the seat shows what it showed before (none for a new
** player) until then; a rating read that differs tells the table changed
** (tables_events.changed), so that its watchers are sent it. */
int table_seat_rating(const table *t, int seat);

/* Asks the bot of the seat to move, if a bot is to move and none is asked. */
void table_ask_bot(table *t);
/* Asks the hard bot for seat's best moves, for the watcher watcher_id (a
** socket's id) alone: tables_events.hint; client is whose share of the
** bots' time it takes (botpool.c: "account:ID" or "address:ADDR").  0
** asked, 1 a hint of the seat is still being worked out (one at a time),
** -1 out of memory. */
int table_ask_hint(table *t, int seat, uint64_t watcher_id, const char *client);
/* A bot's answer, from the loop (it waits while the table is busy). */
void tables_bot_done(bot_job *job);

/* tables.c: called by the loop about once a second (expiry of abandoned
** tables, changes to store again after storage failed; a busy table is
** passed by until the next). */
void tables_tick(void);

#endif
