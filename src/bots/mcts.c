/*
** mcts.c -- the search bots: mcts with its options, and the levels easy,
** medium and hard for players.
**
** All four are one algorithm (tree.c, rollout.c) with one option table;
** they differ only in the budget they take when a spec gives none.  A
** level is an iteration budget, so a seed gives the same game on every run
** and machine, under a time cap that keeps hard within 2 s a move on slow
** machines (the cap changes the result only when it is reached).
**
** Budget: iters=N stops after N iterations, ms=T after T milliseconds,
** whichever comes first; a spec giving only ms searches for that long.
** Over all of them, the bot's time cap and tafel_bot_stop (bot.h).
*/
#include "mcts.h"

#include <stdlib.h>

static const bot_option mcts_options[MCTS_NOPTIONS] = {MCTS_OPTION_ROWS(150)};

/* What a kind searches when the spec gives no budget. */
typedef struct mcts_budget {
    int iters, ms;
} mcts_budget;

static void mcts_free(void *bot) {
    if (!bot) return;
    mcts_search_free(bot);
    free(bot);
}

mcts_config mcts_config_of(const tafel_game *game, const int *values, int iters, int ms) {
    int spec_iters = values[MCTS_OPT_ITERS], spec_ms = values[MCTS_OPT_MS];
    return (mcts_config){
        .iters = spec_iters ? spec_iters : spec_ms ? 0 : iters,
        .ms = spec_ms ? spec_ms : ms,
        .c = values[MCTS_OPT_C] / 100.0,
        .depth = values[MCTS_OPT_DEPTH],
        .policy = values[MCTS_OPT_POLICY],
        .scale = values[MCTS_OPT_SCALE] / 100.0 * mcts_rollout_scale(game),
        .cpuct = values[MCTS_OPT_CPUCT] / 100.0,
    };
}

static int make(const tafel_game *game, const int *values, uint64_t seed,
                mcts_budget budget, const bot_control *control, void **out,
                tafel_error *err) {
    mcts_config cfg = mcts_config_of(game, values, budget.iters, budget.ms);
    mcts_search *s = malloc(sizeof *s);
    if (!s) return tf_error(err, TAFEL_ENOMEM, "out of memory");
    int rc = mcts_search_init(s, game, &cfg, seed, err);
    if (rc) {
        free(s);
        return rc;
    }
    s->control = control;
    *out = s;
    return TAFEL_OK;
}

int mcts_bot_analyse(void *bot, const tafel_state *state, tafel_bot_move *out,
                        int cap, int *count, tafel_error *err) {
    int rc = mcts_search_run(bot, state, err);
    if (!rc) *count = mcts_search_moves(bot, out, cap);
    return rc;
}

int mcts_bot_choose(void *bot, const tafel_state *state, tafel_action *out,
                       tafel_error *err) {
    tafel_bot_move best;
    int n, rc = mcts_bot_analyse(bot, state, &best, 1, &n, err);
    if (!rc && n < 1) rc = tf_error(err, TAFEL_ESTATE, "mcts: no move searched");
    if (!rc) *out = best.action;
    return rc;
}

static int mcts_set_evaluator(void *bot, const tafel_evaluator *ev, tafel_error *err) {
    return mcts_search_set_evaluator(bot, ev, err);
}

#define MCTS_KIND(kind, name, iters, ms, summary)                              \
    static int kind##_new(const tafel_game *game, const int *values,           \
                          uint64_t seed, const bot_control *control,           \
                          void **out, tafel_error *err) {                      \
        return make(game, values, seed, (mcts_budget){iters, ms}, control,     \
                    out, err);                                                 \
    }                                                                          \
    const bot_kind bot_##kind##_kind = {                                       \
        name, summary, mcts_options, MCTS_NOPTIONS,                                 \
        kind##_new, mcts_bot_choose, mcts_free, mcts_bot_analyse,              \
        mcts_set_evaluator,                                                    \
    };

MCTS_KIND(mcts, "mcts", 10000, 0,
          "Monte Carlo tree search, information sets for hidden cards "
          "(options iters, ms, c, depth, scale, policy: docs/bots.md)")
MCTS_KIND(easy, "easy", 20, 2000, "mcts, 20 iterations a move")
MCTS_KIND(medium, "medium", 500, 2000, "mcts, 500 iterations a move")
MCTS_KIND(hard, "hard", 5000, 2000, "mcts, 5,000 iterations a move, at most 2 s")
