/*
** greedy.c -- the greedy bot: the best action by one-turn lookahead.
**
** For each legal action the bot plays it on a scratch copy and, while the
** same seat is still to move (Carcassonne's tile then follower), goes on
** with its own best follow-up, up to `depth` own decisions in all.  A leaf
** (chance, another seat, game over, or the depth limit) is worth
** h[me] - max over others of h[other], with h = tafel_state_heuristic.  At
** the root, equal values are broken uniformly at random.
**
** The bot never reads what its seat cannot see: it decides on a copy of
** the state whose hidden parts (other hands, face-down cards) are dealt
** anew by tafel_state_resample for its own seat.
**
** Invariant: all memory is allocated in greedy_new -- one scratch state and
** one action array per level -- so a choice never calls malloc.
**
** A deep look can be slow (Catan: a seat makes many decisions in a row, so
** depth 6 is some 50^6 positions), so every position looked at asks
** whether the choice must end (tafel_bot_stop, the time cap: bot.h).  Then
** the root actions not yet searched to the end, and the one being searched,
** are judged one decision deep; the actions searched before keep their
** values.  A choice that is not stopped is exactly the plain search.
*/
#include "bot.h"

#include <stdlib.h>

#define GREEDY_MAX_DEPTH 6
#define GREEDY_TIE 1e-9

static const bot_option greedy_options[] = {
    {"depth", 1, GREEDY_MAX_DEPTH, 3, "own decisions looked ahead in a row"},
};

typedef struct greedy_bot {
    uint64_t rng;
    int depth, cap, players;
    int stopped; /* the running choice was told to end (control) */
    const bot_control *control;
    tafel_state *seen; /* the state as the bot's seat may know it */
    tafel_state *scratch[GREEDY_MAX_DEPTH];
    tafel_action *actions[GREEDY_MAX_DEPTH];
} greedy_bot;

static void greedy_free(void *bot) {
    greedy_bot *b = bot;
    if (!b) return;
    tafel_state_free(b->seen);
    for (int i = 0; i < GREEDY_MAX_DEPTH; i++) {
        tafel_state_free(b->scratch[i]);
        free(b->actions[i]);
    }
    free(b);
}

static int greedy_new(const tafel_game *game, const int *values, uint64_t seed,
                      const bot_control *control, void **out, tafel_error *err) {
    greedy_bot *b = calloc(1, sizeof *b);
    if (!b) return tf_error(err, TAFEL_ENOMEM, "out of memory");
    b->control = control;
    b->rng = tafel_rng_seed(seed);
    b->depth = values[0];
    b->cap = tafel_game_max_actions(game);
    b->players = tafel_game_players(game);
    b->seen = tafel_state_new(game);
    if (!b->seen) {
        greedy_free(b);
        return tf_error(err, TAFEL_ENOMEM, "out of memory");
    }
    for (int i = 0; i < b->depth; i++) {
        b->scratch[i] = tafel_state_new(game);
        b->actions[i] = malloc((size_t)b->cap * sizeof *b->actions[i]);
        if (!b->scratch[i] || !b->actions[i]) {
            greedy_free(b);
            return tf_error(err, TAFEL_ENOMEM, "out of memory");
        }
    }
    *out = b;
    return TAFEL_OK;
}

/* h[me] minus the best other seat's h. */
static double evaluate(const greedy_bot *b, const tafel_state *state, int me) {
    double h[TAFEL_MAX_PLAYERS];
    tafel_state_heuristic(state, h);
    double best_other = -1e300;
    for (int i = 0; i < b->players; i++)
        if (i != me && h[i] > best_other) best_other = h[i];
    return h[me] - best_other;
}

/* The value for `me` of state, reached after `level` own decisions. */
static double value(greedy_bot *b, const tafel_state *state, int me, int level) {
    if (!b->stopped) b->stopped = bot_must_stop(b->control, 1);
    if (b->stopped || level >= b->depth || tafel_state_current(state) != me)
        return evaluate(b, state, me);
    tafel_action *actions = b->actions[level];
    tafel_state *next = b->scratch[level];
    int n = tafel_state_legal_actions(state, actions, b->cap);
    if (n > b->cap) n = b->cap;
    double best = -1e300;
    for (int i = 0; i < n; i++) {
        tafel_state_copy(next, state);
        if (tafel_state_apply(next, actions[i], NULL) != TAFEL_OK) continue;
        double v = value(b, next, me, level + 1);
        if (v > best) best = v;
    }
    return n > 0 ? best : evaluate(b, state, me);
}

/* The root: like value(), but remembers the best action, ties at random. */
static int greedy_choose(void *bot, const tafel_state *state, tafel_action *out,
                         tafel_error *err) {
    greedy_bot *b = bot;
    int me = tafel_state_current(state);
    tafel_state_copy(b->seen, state);
    int rc = tafel_state_resample(b->seen, me, &b->rng);
    if (rc) return tf_error(err, rc, "greedy: cannot resample the hidden information");
    state = b->seen;
    tafel_action *actions = b->actions[0];
    tafel_state *next = b->scratch[0];
    int n = tafel_state_legal_actions(state, actions, b->cap);
    if (n > b->cap) n = b->cap;
    n = bot_leave_out_spent(state, actions, n);
    double best = -1e300;
    int ties = 0;
    b->stopped = 0;
    for (int i = 0; i < n; i++) {
        tafel_state_copy(next, state);
        if (tafel_state_apply(next, actions[i], NULL) != TAFEL_OK) continue;
        double v = b->stopped ? 0 : value(b, next, me, 1);
        if (b->stopped) v = evaluate(b, next, me); /* cut short: one decision deep */
        if (v > best + GREEDY_TIE) {
            best = v;
            ties = 1;
            *out = actions[i];
        } else if (v >= best - GREEDY_TIE &&
                   tafel_rng_below(&b->rng, (uint32_t)++ties) == 0) {
            *out = actions[i];
        }
    }
    if (ties == 0) return tf_error(err, TAFEL_ESTATE, "greedy: no legal action");
    return TAFEL_OK;
}

const bot_kind bot_greedy_kind = {
    "greedy",
    "best action by one-turn lookahead on the game's heuristic "
    "(option depth=1..6, default 3: own decisions in a row)",
    greedy_options, 1,
    greedy_new, greedy_choose, greedy_free, NULL, NULL,
};
