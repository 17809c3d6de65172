/*
** extseats.c -- external bots as seats of tafel serve.
**
** Security: a web client must never run a command on the server.  So the
** commands come from the operator's command line (--ext NAME=COMMAND) and
** a client picks a NAME ("ext:NAME"); any other "ext:..." is refused.  The
** database keeps "ext:NAME" only.
**
** An external bot is stateful: its program sees the whole game (new_game,
** every action as "seen", its turns).  So each (table, seat) has an entry
** here holding its program and what it has been told: the count of actions
** and a hash of their texts.  Only bot workers talk to programs (the loop
** must never wait on one), under the entry's mutex, so two jobs for one
** seat (after an undo) take turns and the stale one's answer is dropped by
** the seq check in tables_bot_done.  A job carries the table's action
** texts: when the program was not told exactly that prefix (a new seat, an
** undo, a restart of the server) the program is restarted and told the
** game again from the start.
**
** Lifetime: the loop takes a reference when it makes a job (extseats_ref)
** and bot_job_free lets go; an entry with no reference and no program is
** freed.  When a game ends the loop sends an "end" job per entry, which
** tells the program and ends it, and marks the entry ended: a stale job
** that runs later finds it ended and answers nothing, instead of starting
** a program nobody would stop.
**
** Shutdown: a worker may wait on a program for its whole time (--ext
** ms=, up to an hour).  While it waits, the entry shows the program's
** process group (talking); extseats_interrupt kills those groups, so the
** worker's read ends at once and botpool_stop returns.  A program that is
** still starting is not yet in a group anybody knows; extbot_interrupt ends
** the wait for its hello (which would otherwise last EXTBOT_HELLO_MS).
*/
#include "bots.h"

#include <ctype.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extbot.h"

#define NAME_MAX_LEN 32

typedef struct ext_config {
    char name[NAME_MAX_LEN + 1];
    char *spec; /* "ext:COMMAND[,ms=N]", for extbot_new */
} ext_config;

struct ext_seat {
    char table_id[17];
    int seat;
    int refs;             /* jobs holding it (the registry's lock) */
    int ended;            /* the game is over: never start a program again */
    pthread_mutex_t lock; /* held while a worker talks to the program */
    extbot *bot;          /* NULL: no program running */
    int told;             /* actions the program has been told */
    uint64_t told_hash;   /* the hash of their texts (hash_text) */
    /* While a program runs: its game, and the position after the actions
    ** it was told, so that a job replays only what is new to it. */
    tafel_game *game;
    tafel_state *state;
    atomic_long talking;  /* the process group a worker waits on; 0: none */
    struct ext_seat *next;
};

static ext_config configs[EXTSEATS_MAX];
static int nconfigs;
static pthread_mutex_t registry = PTHREAD_MUTEX_INITIALIZER;
static struct ext_seat *entries;
static atomic_int interrupted; /* the server stops: no program starts */

/* ---- configuration (start-up, before any thread) ------------------------ */

static int name_ok(const char *name, size_t len) {
    if (len < 1 || len > NAME_MAX_LEN) return 0;
    for (size_t i = 0; i < len; i++)
        if (!(islower((unsigned char)name[i]) || isdigit((unsigned char)name[i]) ||
              name[i] == '_' || name[i] == '-'))
            return 0;
    return 1;
}

int extseats_configure(const char *const *defs, int n, char *err, size_t errsize) {
    for (int i = 0; i < n; i++) {
        const char *eq = strchr(defs[i], '=');
        size_t len = eq ? (size_t)(eq - defs[i]) : 0;
        if (!eq || !name_ok(defs[i], len)) {
            snprintf(err, errsize, "--ext '%s': give NAME=COMMAND[,ms=N], NAME of 1 to %d "
                     "characters a-z 0-9 _ -", defs[i], NAME_MAX_LEN);
            return -1;
        }
        if (nconfigs == EXTSEATS_MAX) {
            snprintf(err, errsize, "--ext: at most %d external bots", EXTSEATS_MAX);
            return -1;
        }
        ext_config *c = &configs[nconfigs];
        memcpy(c->name, defs[i], len);
        c->name[len] = 0;
        for (int k = 0; k < nconfigs; k++)
            if (!strcmp(configs[k].name, c->name)) {
                snprintf(err, errsize, "--ext: '%s' is named twice", c->name);
                return -1;
            }
        size_t size = strlen(EXTBOT_PREFIX) + strlen(eq + 1) + 1;
        if (!(c->spec = malloc(size))) {
            snprintf(err, errsize, "out of memory");
            return -1;
        }
        snprintf(c->spec, size, "%s%s", EXTBOT_PREFIX, eq + 1);
        char why[256];
        extbot *probe = extbot_new(c->spec, why, sizeof why); /* checks ms= and the command */
        if (!probe) {
            snprintf(err, errsize, "--ext %s: %s", c->name, why);
            free(c->spec);
            return -1;
        }
        extbot_free(probe); /* no program ran: extbot_new starts none */
        nconfigs++;
    }
    return 0;
}

int extseats_count(void) { return nconfigs; }

const char *extseats_name(int i) { return i >= 0 && i < nconfigs ? configs[i].name : NULL; }

static const ext_config *find_config(const char *spec) {
    if (!extbot_is_spec(spec)) return NULL;
    const char *name = spec + strlen(EXTBOT_PREFIX);
    for (int i = 0; i < nconfigs; i++)
        if (!strcmp(configs[i].name, name)) return &configs[i];
    return NULL;
}

int extseats_check(const char *spec, char *why, size_t size) {
    if (find_config(spec)) return 0;
    char quoted[48];
    size_t used = (size_t)snprintf(why, size, "no external bot '%s' on this server; ",
                                   tafel_quote(spec + strlen(EXTBOT_PREFIX), quoted,
                                               sizeof quoted));
    if (!nconfigs) {
        snprintf(why + (used < size ? used : size), used < size ? size - used : 0,
                 "this server has none (its operator adds them: tafel serve --ext "
                 "NAME=COMMAND)");
        return -1;
    }
    for (int i = 0; i < nconfigs && used < size; i++)
        used += (size_t)snprintf(why + used, size - used, "%sext:%s",
                                 i ? ", " : "this server has: ", configs[i].name);
    return -1;
}

/* ---- the registry --------------------------------------------------------- */

struct ext_seat *extseats_ref(const char *table_id, int seat, int make) {
    pthread_mutex_lock(&registry);
    struct ext_seat *e = entries;
    while (e && (e->seat != seat || strcmp(e->table_id, table_id))) e = e->next;
    if (!e && make && (e = calloc(1, sizeof *e))) {
        snprintf(e->table_id, sizeof e->table_id, "%s", table_id);
        e->seat = seat;
        atomic_init(&e->talking, 0);
        pthread_mutex_init(&e->lock, NULL);
        e->next = entries;
        entries = e;
    }
    if (e) e->refs++;
    pthread_mutex_unlock(&registry);
    return e;
}

/* Frees e if nothing needs it: no job, no program.  The registry's lock
** is held. */
static void maybe_free(struct ext_seat *e) {
    if (e->refs > 0 || e->bot) return;
    for (struct ext_seat **link = &entries; *link; link = &(*link)->next)
        if (*link == e) {
            *link = e->next;
            break;
        }
    pthread_mutex_destroy(&e->lock);
    free(e);
}

void extseats_unref(struct ext_seat *e) {
    if (!e) return;
    pthread_mutex_lock(&registry);
    e->refs--;
    maybe_free(e);
    pthread_mutex_unlock(&registry);
}

void extseats_interrupt(void) {
    atomic_store(&interrupted, 1);
    extbot_interrupt(); /* a program still starting: its hello's wait ends too */
    pthread_mutex_lock(&registry);
    for (struct ext_seat *e = entries; e; e = e->next) {
        long group = atomic_load(&e->talking);
        if (group > 0) kill(-(pid_t)group, SIGKILL); /* the worker's read ends, and reaps it */
    }
    pthread_mutex_unlock(&registry);
}

void extseats_shutdown(void) {
    pthread_mutex_lock(&registry);
    while (entries) {
        struct ext_seat *e = entries;
        entries = e->next;
        extbot_free(e->bot); /* says quit, then kills what is left */
        tafel_state_free(e->state);
        tafel_game_free(e->game);
        pthread_mutex_destroy(&e->lock);
        free(e);
    }
    pthread_mutex_unlock(&registry);
    for (int i = 0; i < nconfigs; i++) free(configs[i].spec);
    nconfigs = 0;
    atomic_store(&interrupted, 0);
    extbot_resume();
}

/* ---- the worker's side ------------------------------------------------- */

/* FNV-1a over the texts, each ended by a newline: the same texts in the
** same order give the same hash, an undone and replayed turn another. */
static uint64_t hash_text(uint64_t h, const char *text) {
    for (const unsigned char *p = (const unsigned char *)text;; p++) {
        h ^= *p ? *p : '\n';
        h *= 0x100000001b3ULL;
        if (!*p) return h;
    }
}

#define HASH_START 0xcbf29ce484222325ULL

static int told_prefix(const struct ext_seat *e, const bot_job *job) {
    if (e->told > job->ntexts) return 0;
    uint64_t h = HASH_START;
    for (int i = 0; i < e->told; i++) h = hash_text(h, job->texts[i]);
    return h == e->told_hash;
}

static void stop_program(struct ext_seat *e) {
    extbot_free(e->bot);
    tafel_state_free(e->state);
    tafel_game_free(e->game);
    e->bot = NULL;
    e->state = NULL;
    e->game = NULL;
    e->told = 0;
    e->told_hash = HASH_START;
}

/* Starts the seat's program and tells it a game begins; -1 with the reason
** it forfeits. */
static int start_program(struct ext_seat *e, const bot_job *job, char *reason, size_t size) {
    const ext_config *c = find_config(job->spec);
    if (!c) {
        /* a table of an earlier run whose bot the operator no longer offers */
        extseats_check(job->spec, reason, size);
        return -1;
    }
    tafel_error err;
    if (tafel_game_load(job->game, &e->game, &err)) {
        snprintf(reason, size, "%s", err.message);
        return -1;
    }
    if (!(e->state = tafel_state_new(e->game))) {
        snprintf(reason, size, "out of memory");
        stop_program(e);
        return -1;
    }
    if (!(e->bot = extbot_new(c->spec, reason, size))) {
        stop_program(e);
        return -1;
    }
    e->told = 0;
    e->told_hash = HASH_START;
    if (extbot_new_game(e->bot, e->game, e->seat, job->seed, reason, size)) {
        stop_program(e);
        return -1;
    }
    return 0;
}

static void forfeit(bot_job *job, const char *reason) {
    job->failed = job->forfeit = 1;
    snprintf(job->error, sizeof job->error, "%s", reason);
}

/* Tells the program the actions it has not seen, played on from the
** position after those it has (the state before each action is what
** extbot_seen reads).  -1 when the texts no longer replay. */
static int tell(struct ext_seat *e, const bot_job *job) {
    for (int i = e->told; i < job->ntexts; i++) {
        tafel_action a;
        if (tafel_action_from_text(e->state, job->texts[i], &a, NULL)) return -1;
        extbot_seen(e->bot, e->state, a);
        if (tafel_state_apply(e->state, a, NULL)) return -1;
        e->told_hash = hash_text(e->told_hash, job->texts[i]);
        e->told = i + 1;
    }
    return 0;
}

void extseats_run(bot_job *job) {
    struct ext_seat *e = job->ext;
    pthread_mutex_lock(&e->lock);
    char reason[EXTBOT_REASON_MAX];
    if (e->ended || job->ext_stop) {
        if (job->ext_stop && e->bot) stop_program(e);
        job->skipped = 1;
        goto done;
    }
    if (e->bot && !told_prefix(e, job)) stop_program(e); /* an undo, or a new game */
    if (!e->bot) {
        if (job->ext_end) { /* nothing running to tell */
            e->ended = 1;
            goto done;
        }
        if (atomic_load(&interrupted)) { /* the server stops: no answer needed */
            job->skipped = 1;
            goto done;
        }
        if (start_program(e, job, reason, sizeof reason)) {
            if (atomic_load(&interrupted)) job->skipped = 1; /* no forfeit for a stop */
            else forfeit(job, reason);
            goto done;
        }
    }
    if (tell(e, job)) {
        job->failed = 1;
        snprintf(job->error, sizeof job->error, "the table's actions no longer replay");
        stop_program(e);
        goto done;
    }
    if (job->ext_end) {
        extbot_game_over(e->bot, e->state, job->winners, job->nwinners, job->forfeit_seat,
                         job->forfeit_reason);
        stop_program(e);
        e->ended = 1;
    } else {
        /* talking is shown before interrupted is read, and extseats_interrupt
        ** sets interrupted before it reads talking: one of the two sees the
        ** other, so no turn waits out its time at shutdown */
        atomic_store(&e->talking, extbot_pid(e->bot));
        int stopping = atomic_load(&interrupted);
        int failed = !stopping &&
                     extbot_choose(e->bot, e->state, &job->action, reason, sizeof reason);
        atomic_store(&e->talking, 0);
        if (stopping) {
            job->skipped = 1; /* the program ends with extseats_shutdown */
        } else if (failed) {
            if (atomic_load(&interrupted)) job->skipped = 1; /* killed: nobody applies it */
            else forfeit(job, reason); /* the program is killed already; not restarted */
            stop_program(e);
        }
    }
    /* the program's own move is told to it like any other action, next time */
done:
    pthread_mutex_unlock(&e->lock);
}
