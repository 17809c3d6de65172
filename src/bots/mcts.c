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

enum { OPT_ITERS, OPT_MS, OPT_C, OPT_DEPTH, OPT_SCALE, OPT_POLICY, OPT_CPUCT, NOPTIONS };

static const bot_option mcts_options[NOPTIONS] = {
    {"iters", 0, 100000000, 0, "iterations a move (0: the bot's own budget)"},
    {"ms", 0, 3600000, 0, "milliseconds a move at most (0: the bot's own cap)"},
    {"c", 1, 1000, 70, "UCB1 exploration constant, x100"},
    {"depth", -1, 10000, 16,
     "decisions in a rollout before the heuristic judges (-1: to the end)"},
    {"scale", 1, 10000, 50,
     "heuristic lead for odds of e:1, in % of the spread of random games' scores"},
    {"policy", 0, 1, 1, "rollout decisions: 0 random, 1 greedy on the heuristic"},
    {"cpuct", 1, 10000, 150, "PUCT exploration constant, x100 (an evaluator's priors)"},
};

/* What a kind searches when the spec gives no budget. */
typedef struct mcts_budget {
    int iters, ms;
} mcts_budget;

static void mcts_free(void *bot) {
    if (!bot) return;
    mcts_search_free(bot);
    free(bot);
}

int mcts_make(const tafel_game *game, const mcts_config *cfg, uint64_t seed,
              const bot_control *control, mcts_search **out, tafel_error *err) {
    mcts_search *s = malloc(sizeof *s);
    if (!s) return tf_error(err, TAFEL_ENOMEM, "out of memory");
    int rc = mcts_search_init(s, game, cfg, seed, err);
    if (rc) {
        free(s);
        return rc;
    }
    s->control = control;
    *out = s;
    return TAFEL_OK;
}

static int make(const tafel_game *game, const int *values, uint64_t seed,
                mcts_budget budget, const bot_control *control, void **out,
                tafel_error *err) {
    int iters = values[OPT_ITERS], ms = values[OPT_MS];
    mcts_config cfg = {
        .iters = iters ? iters : ms ? 0 : budget.iters,
        .ms = ms ? ms : budget.ms,
        .c = values[OPT_C] / 100.0,
        .depth = values[OPT_DEPTH],
        .policy = values[OPT_POLICY],
        .scale = values[OPT_SCALE] / 100.0 * mcts_rollout_scale(game),
        .cpuct = values[OPT_CPUCT] / 100.0,
    };
    return mcts_make(game, &cfg, seed, control, (mcts_search **)out, err);
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
        name, summary, mcts_options, NOPTIONS,                                 \
        kind##_new, mcts_bot_choose, mcts_free, mcts_bot_analyse,              \
        mcts_set_evaluator,                                                    \
    };

MCTS_KIND(mcts, "mcts", 10000, 0,
          "Monte Carlo tree search, information sets for hidden cards "
          "(options iters, ms, c, depth, scale, policy: docs/bots.md)")
MCTS_KIND(easy, "easy", 20, 2000, "mcts, 20 iterations a move")
MCTS_KIND(medium, "medium", 500, 2000, "mcts, 500 iterations a move")
MCTS_KIND(hard, "hard", 5000, 2000, "mcts, 5,000 iterations a move, at most 2 s")
