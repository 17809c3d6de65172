/*
** random.c -- the random bot: every legal action equally likely.
**
** Its whole memory is an rng and one array of legal actions, allocated when
** the bot is made, so choosing never allocates.
*/
#include "bot.h"

#include <stdlib.h>

typedef struct random_bot {
    uint64_t rng;
    int cap;
    tafel_action actions[];
} random_bot;

static int random_new(const tafel_game *game, const int *values, uint64_t seed,
                      const bot_control *control, void **out, tafel_error *err) {
    (void)values;
    (void)control; /* one draw: nothing to stop */
    int cap = tafel_game_max_actions(game);
    random_bot *b = malloc(sizeof *b + (size_t)cap * sizeof b->actions[0]);
    if (!b) return tf_error(err, TAFEL_ENOMEM, "out of memory");
    b->rng = tafel_rng_seed(seed);
    b->cap = cap;
    *out = b;
    return TAFEL_OK;
}

static int random_choose(void *bot, const tafel_state *state, tafel_action *out,
                         tafel_error *err) {
    random_bot *b = bot;
    int n = tafel_state_legal_actions(state, b->actions, b->cap);
    if (n > b->cap) n = b->cap;
    if (n <= 0) return tf_error(err, TAFEL_ESTATE, "random: no legal action");
    n = bot_leave_out_spent(state, b->actions, n);
    *out = b->actions[tafel_rng_below(&b->rng, (uint32_t)n)];
    return TAFEL_OK;
}

static void random_free(void *bot) { free(bot); }

const bot_kind bot_random_kind = {
    "random", "plays a uniformly random legal action", NULL, 0,
    random_new, random_choose, random_free, NULL, NULL,
};
