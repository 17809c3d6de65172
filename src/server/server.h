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
**   storage.c   the tables on disk (SQLite)
**   botpool.c   the worker threads that run bots
**   extseats.c  external bots (--ext NAME=COMMAND, seats "ext:NAME"): one
**               program per table seat, spoken to by the workers only
**   serve.c     start-up: options, the database, rebuilding tables, the loop
*/
#ifndef TF_SERVER_H
#define TF_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include "tafel.h"

#define SERVER_MAX_MESSAGE 8192        /* a client message, in bytes */
#define SERVER_CLOSE_MESSAGE 65536     /* past this the socket is closed */
#define SERVER_MAX_QUEUE 512           /* messages waiting for a slow socket */
#define SERVER_LOBBY_MAX 100

typedef struct server_options {
    const char *bind;   /* address to listen on */
    int port;           /* 0: any free port */
    const char *db_path;
    const char *web_dir;
    int workers;        /* bot threads */
    int durable;        /* synchronous=FULL */
    const char *const *ext; /* external bots, "NAME=COMMAND[,ms=N]" each */
    int next;
} server_options;

/* Runs the server until SIGINT or SIGTERM; the exit status. */
int server_run(const server_options *opt);

struct table;

/* One WebSocket connection (lws's per-session data: lws frees it after
** the close, so tables drop their pointers in session_closed). */
typedef struct session {
    struct lws *wsi;
    uint64_t id;         /* unique while the server runs (hint answers find it) */
    struct table *table; /* NULL until join */
    int seat;            /* -1: spectator */
    int told;            /* the table's action count in its latest state
                         ** message (the accounts it was sent up to); -1
                         ** before its first at this table */
    char *rx;            /* the message being assembled */
    size_t rx_len;
    int rx_too_big;
    struct outmsg *head, *tail;
    int queued;
    int closing;
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
void botpool_stop(void);
/* Hands the job (malloc'd) to a worker. */
void botpool_submit(bot_job *job);
/* A finished job, or NULL; the caller frees it with bot_job_free. */
bot_job *botpool_take_done(void);
void bot_job_free(bot_job *job);

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
/* Ends every program: after the workers stopped. */
void extseats_shutdown(void);

/* http.c: wakes the loop from another thread (lws_cancel_service). */
void http_wake(void);

#endif
