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

#define BOT_MAX_OPTIONS 8

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
    /* Make the kind's private object; values[i] is options[i]'s value. */
    int (*new_bot)(const tafel_game *game, const int *values, uint64_t seed,
                   void **out, tafel_error *err);
    /* Choose for the seat to move (the registry has checked it is one). */
    int (*choose)(void *bot, const tafel_state *state, tafel_action *out,
                  tafel_error *err);
    void (*free_bot)(void *bot);
    /* tafel_bot_analyse; NULL for a bot that does not search (the registry
    ** then reports its choice alone). */
    int (*analyse)(void *bot, const tafel_state *state, tafel_bot_move *out,
                   int cap, int *count, tafel_error *err);
} bot_kind;

extern const bot_kind bot_random_kind;
extern const bot_kind bot_greedy_kind;
extern const bot_kind bot_mcts_kind;
extern const bot_kind bot_easy_kind;
extern const bot_kind bot_medium_kind;
extern const bot_kind bot_hard_kind;


#endif
