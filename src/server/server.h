/*
** server.h -- tafel serve: what the server's files share.
**
** The server is a front end like `tafel play`: it drives the games through
** include/tafel.h only.  One event-loop thread (libwebsockets) owns every
** table, socket and the database; bots think on worker threads over copies
** of states and hand their moves back through the loop (botpool.c).
**
**   http.c      the lws context: static files of web/, the record and lobby
**               routes, WebSocket framing, each socket's queue of messages
**   protocol.c  the messages of docs/protocol.md: reading requests, writing
**               states, acks and errors
**   lobby.c     the tables a page lists: playing ones, then finished ones,
**               from the database
**   tables.c    the tables in memory: seats, tokens, changes (validate,
**               commit, apply), undo, resignations, bots to ask
**   store/      the store: store.h, the one interface to what is on disk;
**               store_tables.c the tables (SQLite); syncer.c --durable's
**               thread that syncs the log, many commits at once, and
**               checkpoints it
**   botpool.c   the worker threads that run bots
**   extseats.c  external bots (--ext NAME=COMMAND, seats "ext:NAME"): one
**               program per table seat, spoken to by the workers only
**   serve.c     start-up: options, the database, rebuilding tables, the loop
*/
#ifndef TF_SERVER_H
#define TF_SERVER_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "tafel.h"

#define SERVER_MAX_MESSAGE 8192        /* a client message, in bytes */
#define SERVER_CLOSE_MESSAGE 65536     /* past this the socket is closed */
#define SERVER_LOBBY_MAX 100

/* What one client may cost the server: every limit of docs/server.md
** ("Limits"), with its option.  0 turns a limit off where the comment
** says so; server_limits_default gives the documented defaults. */
typedef struct server_limits {
    int per_address;     /* --max-per-address: WebSockets open per client address (0: off) */
    int idle_seconds;    /* --idle-timeout: a WebSocket silent this long is pinged, and closed
                         ** when it does not answer within as long again */
    long queue_bytes;    /* --max-queue: bytes waiting for a socket that does not read; past
                         ** them it is closed */
    int rate;            /* --max-rate: messages a second a socket may send (bursts of 3 s) */
    int new_tables;      /* --max-new-tables: tables one address may create an hour (0: off) */
    int max_tables;      /* --max-tables: unfinished tables on the server at once */
    long expire_seconds; /* --expire: an unfinished table nobody has changed for this long
                         ** ends as abandoned (0: never) */
    long invite_seconds; /* --invite-expire: invitations unanswered this long end their
                         ** table as expired */
    int bot_ms;          /* --bot-ms: most milliseconds a bot thinks about one move */
    int hint_ms;         /* --hint-ms: most milliseconds a hint thinks */
    int bot_iters;       /* --max-bot-iters: most iterations a search bot's spec may ask
                         ** (0: off) */
    int login_failures;  /* --max-login-failures: failed logins per name and address per
                         ** 15 minutes (then that pair is refused) */
    int address_failures; /* --max-address-failures: failed logins per address per 15 minutes
                         ** (then it is refused names it never logged in to) */
    int signups;         /* --max-signups: accounts one address may make an hour */
    int guests;          /* --max-guests: guests one address may make an hour */
    int name_failures;   /* --slow-name-failures: failed logins per name per 15 minutes from
                         ** all addresses, past which its answers are slowed (0: never) */
    long guest_seconds;  /* --guest-expire: a guest nothing refers to is deleted this long
                         ** after its last use (0: never) */
} server_limits;

#define SERVER_LIMITS_DEFAULT                                                   \
    {.per_address = 50, .idle_seconds = 60, .queue_bytes = 4L << 20, .rate = 20,   \
     .new_tables = 60, .max_tables = 5000, .expire_seconds = 30L * 86400,         \
     .invite_seconds = 86400,                                                      \
     .bot_ms = 10000, .hint_ms = 2000, .login_failures = 5, .address_failures = 20, \
     .signups = 10, .guests = 200,                                                 \
     .name_failures = 20, .guest_seconds = 86400, .bot_iters = 10000}

void server_limits_default(server_limits *l);

typedef struct server_options {
    const char *bind;   /* address to listen on */
    int port;           /* 0: any free port */
    const char *db_path;
    const char *web_dir;
    const char *wasm_file; /* the engine as WebAssembly, GET /tafel.wasm; NULL: none */
    int workers;        /* bot threads */
    int durable;        /* every acknowledged change synced to the disk first */
    const char *const *ext; /* external bots, "NAME=COMMAND[,ms=N]" each */
    int next;
    const char *cert, *key;  /* TLS (PEM files): both or neither */
    const char *const *origins; /* --allow-origin: more origins that may open /ws */
    int norigins;
    const char *const *hosts; /* --host: names of the server that a Host may give */
    int nhosts;
    int behind_proxy;   /* a loopback peer's X-Forwarded-For names the client */
    int chosen_seeds;   /* --allow-chosen-seeds: tables of people take a chosen seed too
                        ** (tests, replaying a tournament's deals) */
    server_limits limits;
} server_options;

/* The options the server runs with (set by server_run before anything
** starts; read-only afterwards). */
extern const server_options *server_opt;
/* Set once the server is stopping (serve.c): the sockets closing then
** tell nobody (every socket of a table closes, one after another). */
extern int server_stopping;

/* Runs the server until SIGINT or SIGTERM; the exit status. */
int server_run(const server_options *opt);

struct table;

/* Who a socket or a seat is (players.c): an account (a name and a
** password), a guest (a display name, no password), a bot (its rating's
** holder) or nobody (a client without a session cookie: an API client,
** which plays by seat tokens alone).  Names are UTF-8, 1 to
** PLAYER_NAME_MAX bytes, unique among accounts and bots (case-insensitive). */
#define PLAYER_NAME_MAX 24
typedef enum player_kind { PLAYER_NOBODY = 0, PLAYER_ACCOUNT, PLAYER_GUEST, PLAYER_BOT } player_kind;
typedef struct player {
    int64_t id;       /* players.id; 0: nobody */
    player_kind kind;
    char name[PLAYER_NAME_MAX + 1];
} player;

/* One WebSocket connection (lws's per-session data: lws frees it after
** the close, so tables drop their pointers in session_closed). */
typedef struct session {
    struct lws *wsi;
    uint64_t id;         /* unique while the server runs (hint answers find it) */
    char addr[64];       /* the client's address (per-address limits), as text */
    player who;          /* from the session cookie of the upgrade (players.c) */
    struct table *table; /* NULL until join */
    int seat;            /* -1: spectator */
    int told;            /* the table's action count in its latest state
                         ** message (the accounts it was sent up to); -1
                         ** before its first at this table */
    char *rx;            /* the message being assembled */
    size_t rx_len;
    int rx_too_big;
    struct outmsg *head, *tail;
    int queued;          /* messages waiting */
    size_t queued_bytes; /* and their bytes */
    double tokens;       /* the rate limit's bucket (sockets.c) */
    int64_t tokens_at;   /* when it was last filled, ms */
    int64_t limited_at;  /* when it was last told it sends too fast, ms */
    int64_t close_at;    /* when it was found flooding or its login ended (closed soon
                         ** after), ms */
    int64_t last_rx;     /* when it last sent anything, ms */
    int waiting;         /* its place + 1 among the sockets whose next message
                         ** waits for a sync (sockets.c, --durable); 0: none */
    int closing;         /* 0: open; else how it closes (sockets.c) */
    int64_t chat_at[5];  /* chat.c: when its latest lines were said (unix ms), a ring */
    int chat_i;          /* the ring's oldest */
    int left_seat;       /* the seat + 1 it gave up at its table (resigned, handed to a bot),
                         ** 0 none: it follows a rematch from there (rematch.c) */
    unsigned char login[32]; /* the SHA-256 of the login it was opened with (who.id > 0) */
    int logged;          /* its place + 1 among the sockets of a login (sockets.c); 0: none,
                         ** or its login has ended and it is closing */
    int close_code;      /* with closing: the close frame's status and reason */
    const char *close_why;
} session;

/* Queues text (copied) for the socket and asks lws for a write. */
void session_send(session *s, const char *text, size_t len);

/* protocol.c */
void protocol_receive(session *s, const char *text, size_t len);
void protocol_too_big(session *s);
void protocol_closed(session *s);
/* The state message of table t for seat (-1 spectator), malloc'd, with the
** accounts of the table's actions from index from (0-based) on: from must
** lie in the latest change (table_events_from). */
char *protocol_state(const struct table *t, int seat, int from);
void protocol_send_error(session *s, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The body of an HTTP route's refusal, {"error": code, "message": the
** sentence fmt makes}, malloc'd (NULL out of memory). */
char *protocol_http_error(const char *code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *protocol_http_errorv(const char *code, const char *fmt, va_list ap);
/* The games (parameters, players, pieces) and bots as JSON, malloc'd. */
char *protocol_games(void);
struct bot_job;
void protocol_send_hint(session *s, const struct bot_job *job);

/* lobby.c: the tables to list (docs/protocol.md, `lobby`) as a JSON array
** text, malloc'd; NULL when out of memory. */
char *lobby_tables_json(void);

/* botpool.c: moves computed off the loop. */
typedef struct bot_job {
    char table_id[17];
    char client[80];      /* whose share of the bots' time it takes (botpool.c):
                          ** "account:ID", "address:ADDR", or "table:ID" */
    int64_t seq;          /* the table's seq when asked: a stale answer is dropped */
    int seat;
    char spec[128];
    char game[256];       /* the game string: the worker loads its own game, so a
                          ** table freed meanwhile takes nothing from under it */
    tafel_state *state;   /* a copy, owned by the job */
    uint64_t seed;
    tafel_action action;  /* the answer */
    int hint;             /* analyse for a person instead: the best moves */
    uint64_t session_id;  /* who asked for the hint */
    tafel_bot_move moves[5];
    int nmoves;
    int failed;
    char error[256];

    /* An external bot's seat ("ext:NAME", extseats.c): the program has seen
    ** the game so far, so the job carries every action of the table. */
    struct ext_seat *ext; /* the seat's program, referenced: bot_job_free lets go */
    char **texts;         /* the table's action texts so far, owned by the job */
    int ntexts;
    int ext_end;          /* the game is over: tell the program and end it */
    int forfeit_seat;     /* with ext_end: the seat that forfeited, or -1 */
    int winners[TAFEL_MAX_PLAYERS], nwinners; /* with ext_end: the table's */
    char forfeit_reason[256];
    int forfeit;          /* the program forfeited the seat: error says why */
    int skipped;          /* the program had been ended: no answer */
} bot_job;

int botpool_start(int workers, void (*wake)(void));
/* Stops the workers: running searches are told to stop; returns soon. */
void botpool_stop(void);
/* Hands the job (malloc'd) to a worker. */
void botpool_submit(bot_job *job);
/* The table of id moved on to seq: its jobs asked before seq (moves and
** hints, not an external program's end) are no longer needed.  Queued ones
** are dropped, running ones told to stop; their answers come back and are
** dropped as stale. */
void botpool_cancel(const char *table_id, int64_t seq);
/* The socket that asked for hints is gone: its hints are not needed. */
void botpool_cancel_session(uint64_t session_id);
/* Whether a hint for (table id, seat) is queued or running. */
int botpool_hint_pending(const char *table_id, int seat);
/* A finished job, or NULL; the caller frees it with bot_job_free. */
bot_job *botpool_take_done(void);
void bot_job_free(bot_job *job);

/* botbudget.c: whether a bot spec's budget is within this server's caps
** (docs/server.md, "Limits": --max-bot-iters, --bot-ms, the rollout
** depth): 0, or -1 with why naming the parameter, its value and the cap.
** spec is a valid spec (tafel_bot_new took it); an external bot's
** ("ext:NAME") always is. */
int botbudget_check(const char *spec, char *why, size_t size);
/* spec with each parameter over its cap lowered to the cap (a table stored
** by a server with higher caps); out may not be spec. */
void botbudget_clamp(const char *spec, char *out, size_t size);

/* extseats.c: external bots named by the server's operator.  A web client
** only ever picks a NAME; the command stays on the command line that
** started the server (never in the database, never sent to a client). */
#define EXTSEATS_MAX 16
/* Reads the --ext definitions; -1 with err on a bad one. */
int extseats_configure(const char *const *defs, int n, char *err, size_t errsize);
int extseats_count(void);
const char *extseats_name(int i);
/* 0 when spec ("ext:...") names a configured bot; -1 with why otherwise. */
int extseats_check(const char *spec, char *why, size_t size);
/* The entry of (table id, seat), made when missing (make) else NULL if
** none, with a reference taken; from the loop.  extseats_unref lets go. */
struct ext_seat *extseats_ref(const char *table_id, int seat, int make);
void extseats_unref(struct ext_seat *e);
/* A worker runs an ext job (job->ext set): tells the program what it has
** not seen yet and asks for its move, or ends it (ext_end). */
void extseats_run(bot_job *job);
/* The server stops: a program's turn that a worker waits on ends now (the
** program is killed; its answer is never applied), and no program starts
** again.  From any thread; before the workers are joined. */
void extseats_interrupt(void);
/* Ends every program: after the workers stopped. */
void extseats_shutdown(void);

/* http.c: wakes the loop from another thread (lws_cancel_service). */
void http_wake(void);

/* tables.c: called by the loop about once a second (expiry of abandoned
** tables, changes to store again after storage failed). */
void tables_tick(void);

/* syncer.c: --durable without syncing on the loop.  A change is committed
** on the loop (no sync); a writer thread syncs the log, many commits at
** once, and wakes the loop.  Every message queued after a commit waits
** until that commit is synced (sockets.c holds it), so nobody is told of a
** change a power cut could lose.  Without --durable both counters are 0. */
uint64_t syncer_committed(void); /* commits so far */
uint64_t syncer_synced(void);    /* commits on the disk */
/* Starts the writer thread for the database file db_file (a name from
** sqlite3_db_filename, in WAL mode, its log already there): its own
** descriptor of the -wal file and its own connection for checkpoints.
** 0, or -1 with err set. */
int syncer_start(const char *db_file, char *err, size_t errsize);
/* A commit's frames are in the log, which holds frames pages now (the
** loop's WAL hook, store_tables.c); nothing when the syncer does not run. */
void syncer_commit(int frames);
/* The last sync, a TRUNCATE checkpoint, the thread gone; once the loop has
** stopped (it wakes the loop no more).  Again: nothing. */
void syncer_stop(void);
/* Sockets holding messages for commits now synced write them (sockets.c). */
void sockets_release(void);

#endif
