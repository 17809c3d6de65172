/*
** rollout.c -- how an iteration of the search ends: its rewards.
**
** From the new leaf, play goes on until the game ends, or until `depth`
** decisions have been played (depth 0: the leaf itself), where the game's
** heuristic judges.  A decision is random, or with the greedy policy the
** action after which the heuristic likes the mover's lead best; chance is
** drawn with its probabilities.  Random rollouts are cheap but weak (in
** Cardcassonne random play to the end loses to the greedy bot; greedy
** rollouts of 16 decisions beat it 9 times in 10).
**
** A finished game gives each of k winners 1/k and the others 0.
** A judged position gives each seat the softmax of the heuristic values
** over `scale` points: with two seats, the logistic of the lead, so a lead
** of `scale` points is odds of e to 1.  The heuristic reads the whole state,
** which is fair here: the state is a determinization, dealt for the root
** seat from what it may see.
**
** What a lead means differs by game (Carcassonne scores run to 100,
** Cardcassonne's to 500, Catan ends at 12), so the bots measure it: the
** spread of the final score difference in a few fixed random games of the
** game (mcts_rollout_scale), the same for every bot of that game.
*/
#include "mcts.h"

#include <math.h>
#include <stdlib.h>

/* Random games that measure the spread of scores, and their seed. */
#define SCALE_GAMES 16
#define SCALE_SEED 0x5CA1E

void mcts_terminal_reward(const mcts_search *s, const tafel_state *state,
                          double *reward) {
    int winners[TAFEL_MAX_PLAYERS];
    int k = tafel_state_winners(state, winners);
    for (int p = 0; p < s->players; p++) reward[p] = k ? 0 : 1.0 / s->players;
    for (int i = 0; i < k; i++) reward[winners[i]] = 1.0 / k;
}

static void judged_reward(const mcts_search *s, const tafel_state *state,
                          double *reward) {
    double h[TAFEL_MAX_PLAYERS], top = -HUGE_VAL, sum = 0;
    tafel_state_heuristic(state, h);
    for (int p = 0; p < s->players; p++)
        if (h[p] > top) top = h[p];
    for (int p = 0; p < s->players; p++) sum += reward[p] = exp((h[p] - top) / s->cfg.scale);
    for (int p = 0; p < s->players; p++) reward[p] /= sum;
}

/* h[seat] minus the best other seat's h. */
static double lead(const mcts_search *s, const tafel_state *state, int seat) {
    double h[TAFEL_MAX_PLAYERS], other = -HUGE_VAL;
    tafel_state_heuristic(state, h);
    for (int p = 0; p < s->players; p++)
        if (p != seat && h[p] > other) other = h[p];
    return h[seat] - other;
}

/* The greedy policy: the action after which the heuristic likes the
** mover's lead best (ties at random); one time in GREEDY_EPSILON, at
** random, so that rollouts from one leaf differ. */
#define GREEDY_EPSILON 8

static int greedy_action(mcts_search *s, tafel_state *state, int who,
                         tafel_action *out) {
    int n = tafel_state_legal_actions(state, s->actions, s->cap);
    if (n > s->cap) n = s->cap;
    if (n <= 0) return TAFEL_ESTATE;
    *out = s->actions[0];
    if (n == 1) return TAFEL_OK;
    double best = -HUGE_VAL;
    int ties = 0;
    for (int i = 0; i < n; i++) {
        tafel_state_copy(s->probe, state);
        if (tafel_state_apply(s->probe, s->actions[i], NULL)) return TAFEL_ESTATE;
        double v = lead(s, s->probe, who);
        if (v > best) best = v, ties = 0;
        if (v == best && tafel_rng_below(&s->rng, (uint32_t)++ties) == 0) *out = s->actions[i];
    }
    return TAFEL_OK;
}

int mcts_rollout(mcts_search *s, tafel_state *state, double *reward,
                 tafel_error *err) {
    for (int decisions = 0;;) {
        /* a long rollout (depth -1, greedy, a long game) takes many ms:
        ** each decision looks whether the search must end (a relaxed load,
        ** and the clock only under a time cap) */
        if (bot_must_stop(s->control, 1)) return MCTS_STOPPED;
        int who = tafel_state_current(state);
        if (who == TAFEL_TERMINAL) {
            mcts_terminal_reward(s, state, reward);
            return TAFEL_OK;
        }
        if (who >= 0 && s->cfg.depth >= 0 && decisions++ >= s->cfg.depth) {
            judged_reward(s, state, reward);
            return TAFEL_OK;
        }
        int greedy = who >= 0 && s->cfg.policy == MCTS_GREEDY &&
                     tafel_rng_below(&s->rng, GREEDY_EPSILON) != 0;
        tafel_action a;
        int rc = greedy ? greedy_action(s, state, who, &a)
                        : tafel_state_play_random(state, &s->rng, s->actions, s->cap, NULL);
        if (rc) return tf_error(err, rc, "mcts: no action in a rollout");
        if (greedy && (rc = tafel_state_apply(state, a, err))) return rc;
    }
}

double mcts_rollout_scale(const tafel_game *game) {
    tafel_state *state = tafel_state_new(game);
    int cap = tafel_game_max_actions(game);
    tafel_action *actions = malloc((size_t)cap * sizeof *actions);
    uint64_t rng = tafel_rng_seed(SCALE_SEED);
    double sum = 0, scores[TAFEL_MAX_PLAYERS];
    int games = 0;
    for (; state && actions && games < SCALE_GAMES; games++) {
        tafel_state_init(game, state);
        while (tafel_state_play_random(state, &rng, actions, cap, NULL) == TAFEL_OK) {}
        if (tafel_state_current(state) != TAFEL_TERMINAL) break; /* no legal action */
        tafel_state_scores(state, scores);
        sum += (scores[0] - scores[1]) * (scores[0] - scores[1]);
    }
    tafel_state_free(state);
    free(actions);
    double spread = games ? sqrt(sum / games) : 0;
    return spread > 0 ? spread : 1;
}
