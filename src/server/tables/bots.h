/*
** bots.h -- the tables layer's bots: moves computed off the loop
** (botpool.c), the caps on a bot's budget (botbudget.c), and external bots
** (extseats.c).  The workers hand their answers back through the loop:
** botpool_start is given the wake-up to call (docs/server.md, "The
** server in layers").
*/
#ifndef TF_SERVER_BOTS_H
#define TF_SERVER_BOTS_H

#include <stddef.h>
#include <stdint.h>

#include "tafel.h"

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
    int ext_stop;         /* the table went to another node: end the program, telling it
                          ** nothing (it starts again if the table comes back) */
    int forfeit_seat;     /* with ext_end: the seat that forfeited, or -1 */
    int winners[TAFEL_MAX_PLAYERS], nwinners; /* with ext_end: the table's */
    char forfeit_reason[256];
    int forfeit;          /* the program forfeited the seat: error says why */
    int skipped;          /* the program had been ended: no answer */
} bot_job;

int botpool_start(int workers, int bot_ms, int hint_ms, void (*wake)(void));
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
/* The caps (tables_open, from its config): --max-bot-iters and --bot-ms,
** 0 none. */
void botbudget_set_caps(int bot_iters, int bot_ms);
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

#endif
