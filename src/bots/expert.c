/*
** expert.c -- the level above hard: hard's search guided by the net built
** in for the game (nets/, docs/nets.md), trained on the bots' self-play.
**
** The net gives each leaf a value, mixed with a rollout's (option mix: the
** rollout's share in %, as AlphaGo mixed its value net and rollouts; by
** default the rollout alone), and, where it has a policy, priors that make
** the search PUCT.  Leaves are
** evaluated in batches (option batch).  A game with no net built in has
** no expert: the bot says so when it is made.
*/
#include "mcts.h"
#include "../nn/nn.h"

#include <stdlib.h>

enum { OPT_MIX = MCTS_NOPTIONS, OPT_BATCH, NOPTIONS };

static const bot_option expert_options[NOPTIONS] = {
    MCTS_OPTION_ROWS(40),
    {"mix", 0, 100, 100, "% of a leaf's value from a rollout, the rest from the net"},
    {"batch", 1, 256, 8, "leaves the net evaluates at once"},
};

/* The level's budget when the spec gives none: the iterations that take it
** about the time hard's 5,000 take (its priors cost an evaluation a leaf:
** 1,000 iterations took 1.5 s a Cardcassonne game where hard's took 0.97),
** under hard's cap.  The defaults mix=100 and cpuct=40 are what measured
** best (docs/bots.md): hard's rollouts judge, the net's priors guide. */
#define EXPERT_ITERS 3200
#define EXPERT_MS 2000

/* The search first: mcts.c's choose and analyse take the bot as a search. */
typedef struct expert {
    mcts_search search;
    tafel_net *net;
    void *evaluator;
} expert;

static void expert_free(void *bot) {
    expert *e = bot;
    if (!e) return;
    mcts_search_free(&e->search);
    tf_net_evaluator_free(e->evaluator);
    tafel_net_free(e->net);
    free(e);
}

static int expert_new(const tafel_game *game, const int *values, uint64_t seed,
                      const bot_control *control, void **out, tafel_error *err) {
    size_t size = 0;
    const unsigned char *bytes = tf_builtin_net(game, &size);
    if (!bytes)
        return tf_error(err, TAFEL_EBOT, "expert: no net is built in for %s with %d players "
                        "(nets/: docs/nets.md)", tafel_game_name(game),
                        tafel_game_players(game));
    mcts_config cfg = mcts_config_of(game, values, EXPERT_ITERS, EXPERT_MS);
    cfg.mix = values[OPT_MIX] / 100.0;
    expert *e = calloc(1, sizeof *e);
    if (!e) return tf_error(err, TAFEL_ENOMEM, "out of memory");
    int rc = mcts_search_init(&e->search, game, &cfg, seed, err);
    if (rc) {
        free(e);
        return rc;
    }
    e->search.control = control;
    tafel_evaluator ev;
    rc = tafel_net_load(game, bytes, size, &e->net, err);
    if (!rc) rc = tf_net_evaluator(e->net, game, values[OPT_BATCH], &ev, &e->evaluator, err);
    if (!rc) rc = mcts_search_set_evaluator(&e->search, &ev, err);
    if (rc) {
        expert_free(e);
        return rc;
    }
    *out = e;
    return TAFEL_OK;
}

static int expert_set_evaluator(void *bot, const tafel_evaluator *ev, tafel_error *err) {
    expert *e = bot;
    if (ev) return mcts_search_set_evaluator(&e->search, ev, err);
    tafel_evaluator own; /* NULL: back to the expert's own net */
    void *ctx;
    int rc = tf_net_evaluator(e->net, e->search.game, e->search.ev.batch ? e->search.ev.batch : 8,
                              &own, &ctx, err);
    if (!rc) rc = mcts_search_set_evaluator(&e->search, &own, err);
    if (rc) {
        tf_net_evaluator_free(ctx);
        return rc;
    }
    tf_net_evaluator_free(e->evaluator);
    e->evaluator = ctx;
    return TAFEL_OK;
}

const bot_kind bot_expert_kind = {
    "expert",
    "hard's search guided by a net trained on self-play (nets/; options as mcts, and mix, "
    "batch: docs/bots.md)",
    expert_options, NOPTIONS,
    expert_new, mcts_bot_choose, expert_free, mcts_bot_analyse, expert_set_evaluator,
};
