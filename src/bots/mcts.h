/*
** mcts.h -- Monte Carlo tree search, as the search bots use it (internal).
**
** tree.c grows the search tree and runs the iterations; rollout.c finishes
** an iteration from the leaf: play on, at random or greedily on the game's
** heuristic, to the end or for a few decisions after which the heuristic
** judges.  mcts.c makes the bots (mcts and
** the levels easy, medium, hard) out of these.  Everything goes through
** tafel.h: a search sees a state only as the seat to move may see it.
*/
#ifndef TF_MCTS_H
#define TF_MCTS_H

#include "bot.h"

/* One node of the tree: the state after `action` from its parent.  Children
** form a list sorted by action, so a sorted legal list merges with it in one
** pass.  reward and visits are from the view of the seat that chose the
** action (chance: -1, whose sums nobody reads). */
typedef struct mcts_node {
    tafel_action action;
    int32_t child, sibling; /* first child, next sibling; -1: none */
    int32_t visits;
    int32_t avail;   /* visits of the parent while this action was legal */
    int32_t nchildren, nlegal; /* nlegal: -1 until known (stable trees) */
    int8_t mover;
    double reward;
    /* With an evaluator: its value of the node for the node's seat to move
    ** (-1: none yet), where its untried children start under PUCT; and the
    ** priors of the node's actions, pool[prior_at..+nprior) (-1: none). */
    float value;
    int32_t prior_at, nprior;
} mcts_node;

/* One action's prior at a node, in the search's pool (sorted by action). */
typedef struct mcts_prior {
    tafel_action action;
    float p;
} mcts_prior;

enum { MCTS_RANDOM, MCTS_GREEDY };

typedef struct mcts_config {
    int iters;      /* iterations per search; 0: no limit */
    int ms;         /* milliseconds per search; 0: no limit */
    double c;       /* the exploration constant of UCB1 */
    int depth;      /* rollout decisions before the heuristic judges; -1: to the end */
    int policy;     /* rollout decisions: MCTS_RANDOM or MCTS_GREEDY */
    double scale;   /* heuristic points that make odds of e to 1 */
    double cpuct;   /* the exploration constant of PUCT (with priors) */
    double mix;     /* with an evaluator: the share of a leaf's reward from a rollout */
} mcts_config;

/* A search and all of its memory, kept from one move to the next. */
typedef struct mcts_search {
    mcts_config cfg;
    const tafel_game *game;
    uint64_t rng;
    int players, cap, hidden;
    tafel_state *seen;    /* the position, resampled for the seat to move */
    tafel_state *scratch; /* one iteration's determinization */
    tafel_state *probe;   /* a greedy rollout's look one action ahead */
    tafel_action *actions;
    mcts_node *nodes;
    int32_t nnodes, nodes_cap;
    int32_t *path;
    int path_len, path_cap;
    int root_seat, iterations;
    const bot_control *control; /* stop and time cap (bot.h); NULL: none */
    /* A leaf evaluator (tafel.h; evaluate NULL: rollouts) and a batch of
    ** leaves: their states, nodes and paths (path_of[b]..path_of[b+1] in
    ** paths), the evaluator's outputs, and the pool of priors. */
    tafel_evaluator ev;
    int space, nleaves;
    tafel_state **leaves;
    int32_t *leaf_node, *path_of, *paths;
    int paths_len, paths_cap;
    uint8_t *leaf_fresh; /* the leaf's node is at the leaf's decision */
    float *values, *priors;
    mcts_prior *pool;
    int32_t npool, pool_cap;
} mcts_search;

/* What mcts_rollout returns when the search was told to stop (bot.h) in
** the middle of a rollout: the iteration is dropped. */
#define MCTS_STOPPED (-1)

int mcts_search_init(mcts_search *s, const tafel_game *game,
                     const mcts_config *cfg, uint64_t seed, tafel_error *err);
void mcts_search_free(mcts_search *s);
/* Search from state for the seat to move.  With one legal action there is
** nothing to search: the root gets that one child, never visited.  Told to
** stop (s->control), the search ends at its next look -- at least once an
** iteration and once a rollout decision -- with the root having at least
** one child, so that mcts_search_moves names a legal action. */
int mcts_search_run(mcts_search *s, const tafel_state *state, tafel_error *err);
/* The root moves of the last search, most visited first (at most cap). */
int mcts_search_moves(const mcts_search *s, tafel_bot_move *out, int cap);

/* The options every search bot takes, in this order: mcts.c's table is
** these rows, expert.c's begins with them (cpuct: the kind's default). */
enum { MCTS_OPT_ITERS, MCTS_OPT_MS, MCTS_OPT_C, MCTS_OPT_DEPTH, MCTS_OPT_SCALE, MCTS_OPT_POLICY,
       MCTS_OPT_CPUCT, MCTS_NOPTIONS };
#define MCTS_OPTION_ROWS(cpuct)                                                          \
    {"iters", 0, 100000000, 0, "iterations a move (0: the bot's own budget)"},          \
    {"ms", 0, 3600000, 0, "milliseconds a move at most (0: the bot's own cap)"},        \
    {"c", 1, 1000, 70, "UCB1 exploration constant, x100"},                              \
    {"depth", -1, 10000, 16,                                                            \
     "decisions in a rollout before the heuristic judges (-1: to the end)"},            \
    {"scale", 1, 10000, 50,                                                             \
     "heuristic lead for odds of e:1, in % of the spread of random games' scores"},     \
    {"policy", 0, 1, 1, "rollout decisions: 0 random, 1 greedy on the heuristic"},      \
    {"cpuct", 1, 10000, (cpuct), "PUCT exploration constant, x100 (an evaluator's priors)"}

/* The search of those option values; iters and ms: the kind's budget when
** the spec gives none. */
mcts_config mcts_config_of(const tafel_game *game, const int *values, int iters, int ms);

/* The kinds' choose and analyse over a search (expert.c's too). */
int mcts_bot_choose(void *bot, const tafel_state *state, tafel_action *out, tafel_error *err);
int mcts_bot_analyse(void *bot, const tafel_state *state, tafel_bot_move *out, int cap,
                     int *count, tafel_error *err);

/* Use ev (checked by the caller), or rollouts again (NULL). */
int mcts_search_set_evaluator(mcts_search *s, const tafel_evaluator *ev, tafel_error *err);

/* Finish an iteration from state (changed): each seat's reward in 0..1. */
int mcts_rollout(mcts_search *s, tafel_state *state, double *reward,
                 tafel_error *err);
/* A finished game's rewards: 1/k to each of k winners, 0 to the others. */
void mcts_terminal_reward(const mcts_search *s, const tafel_state *state,
                          double *reward);
/* The spread of final score differences in random games of game: what a
** lead in points means, for the heuristic's odds. */
double mcts_rollout_scale(const tafel_game *game);

#endif
