/*
** bot.h -- what a bot kind provides to the bot registry (internal to bots).
**
** A bot kind is a row of data: its name, a summary, a table of integer
** options, and three functions over its own private object.  registry.c
** parses a spec ("greedy:depth=2"), checks each option against the kind's
** table and hands the values, in table order, to the kind's new.  Bots see
** games only through tafel.h.
*/
#ifndef TF_BOT_H
#define TF_BOT_H

#include "tafel.h"
#include "../core/error.h" /* tf_error only: no game internals */

#include <stdatomic.h>
#include <time.h>

#define BOT_MAX_OPTIONS 12

/* When a search must end early: tafel_bot_stop (from any thread) and the
** time cap (tafel_bot_set_time_cap).  The registry owns it, one per bot,
** and hands its address to the kind's new; the registry sets the deadline
** before each choice.  A search asks bot_must_stop between steps of work
** small enough (a few ms at most) and, told yes, answers with the best it
** has -- a legal action always.  Neither changes a search that is not
** stopped, so an iteration budget stays deterministic. */
typedef struct bot_control {
    atomic_int stop;   /* set by tafel_bot_stop; cleared when a search ends */
    int cap_ms;        /* each choice at most this long; 0: no cap */
    double deadline;   /* bot_now_ms() when the running choice must end; 0: none */
} bot_control;

/* The monotonic clock in milliseconds (a look costs ~20 ns). */
static inline double bot_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Whether the search must end now: it was told to stop, or (when clock is
** nonzero: the caller decides how often the clock is read) it is past its
** deadline.  A relaxed load: the flag carries no other data. */
static inline int bot_must_stop(const bot_control *c, int clock) {
    if (!c) return 0;
    if (atomic_load_explicit(&c->stop, memory_order_relaxed)) return 1;
    return clock && c->deadline > 0 && bot_now_ms() >= c->deadline;
}

/* One integer option of a bot kind: "depth=1..6 (default 3)". */
typedef struct bot_option {
    const char *name;
    int min, max, def;
    const char *help;
} bot_option;

typedef struct bot_kind {
    const char *name;
    const char *summary;
    const bot_option *options;
    int noptions;
    /* Make the kind's private object; values[i] is options[i]'s value.
    ** control lives as long as the bot: a kind that searches keeps it and
    ** asks bot_must_stop while it searches. */
    int (*new_bot)(const tafel_game *game, const int *values, uint64_t seed,
                   const bot_control *control, void **out, tafel_error *err);
    /* Choose for the seat to move (the registry has checked it is one). */
    int (*choose)(void *bot, const tafel_state *state, tafel_action *out,
                  tafel_error *err);
    void (*free_bot)(void *bot);
    /* tafel_bot_analyse; NULL for a bot that does not search (the registry
    ** then reports its choice alone). */
    int (*analyse)(void *bot, const tafel_state *state, tafel_bot_move *out,
                   int cap, int *count, tafel_error *err);
    /* tafel_bot_set_evaluator (evaluator checked, or NULL); NULL for a bot
    ** that does not search. */
    int (*set_evaluator)(void *bot, const tafel_evaluator *evaluator, tafel_error *err);
} bot_kind;

/* manners.c: actions[0..n) less the requests the game calls spent
** (tafel_state_action_request), in their order, kept in place; the count
** left, n itself when nothing else would be.  For a bot's own decision. */
int bot_leave_out_spent(const tafel_state *state, tafel_action *actions, int n);

extern const bot_kind bot_random_kind;
extern const bot_kind bot_greedy_kind;
extern const bot_kind bot_mcts_kind;
extern const bot_kind bot_easy_kind;
extern const bot_kind bot_medium_kind;
extern const bot_kind bot_hard_kind;
extern const bot_kind bot_expert_kind;


#endif
