/*
** tree.c -- the search tree: single-observer information-set MCTS.
**
** One iteration copies the position (already resampled for the root seat)
** into a scratch state and, in a game with hidden information, deals what
** the root seat cannot see anew (a determinization); walks down the tree,
** at a decision choosing among the children legal in this determinization
** by UCB1 with availability counts (SO-ISMCTS, Cowling, Powley and Whitehouse
** 2012: a child's "parent visits" are the visits in which it was legal);
** adds one node; finishes with a rollout (rollout.c); and adds the rewards
** along the path, each node from the view of the seat that moved into it.
**
** Chance is closed-loop: a chance node's children are its outcomes, drawn
** with their probabilities (tafel_state_sample_chance).  So in a game with
** nothing hidden (Carcassonne) a node is one state and this is plain UCT
** with sampled chance.  There a node's legal actions never change ("stable"
** nodes): once all of them are children, the node no longer lists them and
** its own visits stand in for availability.
**
** Memory: nodes live in one array grown with realloc, linked by index, and
** reset (not freed) at each search; an iteration allocates nothing unless
** the array or the path has to grow.
*/
#include "mcts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Iterations between looks at the clock for the ms budget (a look costs
** ~20 ns).  The time cap and the stop (bot.h) are looked at every
** iteration and every rollout decision: an iteration with a long rollout
** takes milliseconds in a slow game. */
#define TIME_CHECK_EVERY 8
#define now_ms bot_now_ms

int mcts_search_init(mcts_search *s, const tafel_game *game,
                     const mcts_config *cfg, uint64_t seed, tafel_error *err) {
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    s->rng = tafel_rng_seed(seed);
    s->players = tafel_game_players(game);
    s->cap = tafel_game_max_actions(game);
    s->hidden = tafel_game_hidden_information(game);
    s->seen = tafel_state_new(game);
    s->scratch = tafel_state_new(game);
    s->probe = tafel_state_new(game);
    s->actions = malloc((size_t)s->cap * sizeof *s->actions);
    if (!s->seen || !s->scratch || !s->probe || !s->actions) {
        mcts_search_free(s);
        return tf_error(err, TAFEL_ENOMEM, "out of memory");
    }
    return TAFEL_OK;
}

void mcts_search_free(mcts_search *s) {
    tafel_state_free(s->seen);
    tafel_state_free(s->scratch);
    tafel_state_free(s->probe);
    free(s->actions);
    free(s->nodes);
    free(s->path);
    memset(s, 0, sizeof *s);
}

/* A new node, not yet linked; -1 when out of memory. */
static int32_t new_node(mcts_search *s, tafel_action action, int mover) {
    if (s->nnodes == s->nodes_cap) {
        int32_t cap = s->nodes_cap ? 2 * s->nodes_cap : 4096;
        mcts_node *p = realloc(s->nodes, (size_t)cap * sizeof *p);
        if (!p) return -1;
        s->nodes = p;
        s->nodes_cap = cap;
    }
    s->nodes[s->nnodes] = (mcts_node){.action = action, .child = -1, .sibling = -1,
                                      .avail = 1, .nlegal = -1, .mover = (int8_t)mover};
    return s->nnodes++;
}

/* A new child of parent, linked after the child `before` (-1: first). */
static int32_t add_child(mcts_search *s, int32_t parent, int32_t before,
                         tafel_action action, int mover) {
    int32_t c = new_node(s, action, mover);
    if (c < 0) return -1;
    int32_t *link = before < 0 ? &s->nodes[parent].child : &s->nodes[before].sibling;
    s->nodes[c].sibling = *link;
    *link = c;
    s->nodes[parent].nchildren++;
    return c;
}

static int push(mcts_search *s, int32_t node) {
    if (s->path_len == s->path_cap) {
        int cap = s->path_cap ? 2 * s->path_cap : 256;
        int32_t *p = realloc(s->path, (size_t)cap * sizeof *p);
        if (!p) return TAFEL_ENOMEM;
        s->path = p;
        s->path_cap = cap;
    }
    s->path[s->path_len++] = node;
    return TAFEL_OK;
}

/* The child of a chance node for a drawn outcome, added when new. */
static int32_t chance_child(mcts_search *s, int32_t node, tafel_action a, int *added) {
    int32_t before = -1, c = s->nodes[node].child;
    while (c >= 0 && s->nodes[c].action < a) before = c, c = s->nodes[c].sibling;
    *added = c < 0 || s->nodes[c].action != a;
    return *added ? add_child(s, node, before, a, TAFEL_CHANCE) : c;
}

/* UCB1: the mean reward plus the exploration bonus, log_n being the log of
** the times the child could have been chosen. */
static double ucb(const mcts_node *c, double log_n, double explore) {
    return c->reward / c->visits + explore * sqrt(log_n / c->visits);
}

/* A stable node whose actions are all children: the best by UCB1. */
static int32_t select_stable(const mcts_search *s, int32_t node) {
    double log_n = log(s->nodes[node].visits), best = -1;
    int32_t pick = -1;
    for (int32_t c = s->nodes[node].child; c >= 0; c = s->nodes[c].sibling) {
        double v = ucb(&s->nodes[c], log_n, s->cfg.c);
        if (v > best) best = v, pick = c;
    }
    return pick;
}

/* The n legal actions (s->actions) that are not yet children. */
static int count_untried(const mcts_search *s, int32_t node, int n) {
    int untried = 0;
    int32_t c = s->nodes[node].child;
    for (int i = 0; i < n; i++) {
        while (c >= 0 && s->nodes[c].action < s->actions[i]) c = s->nodes[c].sibling;
        untried += c < 0 || s->nodes[c].action != s->actions[i];
    }
    return untried;
}

/* Add the k-th untried legal action as a child. */
static int32_t expand(mcts_search *s, int32_t node, int n, int k, int seat) {
    int32_t before = -1, c = s->nodes[node].child;
    for (int i = 0; i < n; i++) {
        tafel_action a = s->actions[i];
        while (c >= 0 && s->nodes[c].action < a) before = c, c = s->nodes[c].sibling;
        if (c >= 0 && s->nodes[c].action == a) continue;
        if (k-- == 0) return add_child(s, node, before, a, seat);
    }
    return -1;
}

/* Every legal action is a child: the best by UCB1 over availability, each
** legal child counting this visit as one it was available in. */
static int32_t select_available(mcts_search *s, int32_t node, int n) {
    double best = -1;
    int32_t pick = -1, c = s->nodes[node].child;
    for (int i = 0; i < n; i++) {
        while (s->nodes[c].action < s->actions[i]) c = s->nodes[c].sibling;
        mcts_node *child = &s->nodes[c];
        child->avail++;
        double v = ucb(child, log(child->avail), s->cfg.c);
        if (v > best) best = v, pick = c;
    }
    return pick;
}

/* What decide() returns when the seat to move has no legal action (-1:
** out of memory). */
#define NO_ACTION (-2)

/* At a decision: the child to go down to; *added when it is new. */
static int32_t decide(mcts_search *s, int32_t node, int seat, int *added) {
    mcts_node *nd = &s->nodes[node];
    *added = 0;
    if (!s->hidden && nd->nlegal >= 0 && nd->nchildren == nd->nlegal)
        return select_stable(s, node);
    int n = tafel_state_legal_actions(s->scratch, s->actions, s->cap);
    if (n > s->cap) n = s->cap;
    if (node == 0) n = bot_leave_out_spent(s->scratch, s->actions, n); /* the bot's own */
    nd->nlegal = n;
    int untried = count_untried(s, node, n);
    if (untried == 0) return n > 0 ? select_available(s, node, n) : NO_ACTION;
    *added = 1;
    return expand(s, node, n, (int)tafel_rng_below(&s->rng, (uint32_t)untried), seat);
}

/* Walk down from the root, adding one node: the path ends at the new node
** or at the end of the game, with s->scratch the state there. */
static int descend(mcts_search *s, tafel_error *err) {
    tafel_state *st = s->scratch;
    int32_t node = 0;
    int added = 0, rc = TAFEL_OK;
    s->path_len = 0;
    rc = push(s, node);
    while (!rc && !added) {
        int who = tafel_state_current(st);
        if (who == TAFEL_TERMINAL) break;
        tafel_action a = -1;
        int32_t next = -1;
        if (who == TAFEL_CHANCE) {
            rc = tafel_state_sample_chance(st, &s->rng, &a);
            if (!rc) next = chance_child(s, node, a, &added);
        } else {
            next = decide(s, node, who, &added);
            if (next >= 0) a = s->nodes[next].action;
        }
        if (rc) return tf_error(err, rc, "mcts: cannot draw a chance outcome");
        if (next == NO_ACTION) return tf_error(err, TAFEL_ESTATE, "mcts: no legal action");
        if (next < 0) return tf_error(err, TAFEL_ENOMEM, "mcts: out of memory");
        rc = tafel_state_apply(st, a, err);
        if (!rc) rc = push(s, node = next);
    }
    return rc == TAFEL_ENOMEM ? tf_error(err, rc, "mcts: out of memory") : rc;
}

static void backup(mcts_search *s, const double *reward) {
    for (int i = 0; i < s->path_len; i++) {
        mcts_node *n = &s->nodes[s->path[i]];
        n->visits++;
        if (n->mover >= 0) n->reward += reward[n->mover];
    }
}

static int iterate(mcts_search *s, tafel_error *err) {
    tafel_state_copy(s->scratch, s->seen);
    int rc = s->hidden ? tafel_state_resample(s->scratch, s->root_seat, &s->rng) : 0;
    if (rc) return tf_error(err, rc, "mcts: cannot resample the hidden information");
    double reward[TAFEL_MAX_PLAYERS];
    rc = descend(s, err);
    if (!rc) rc = mcts_rollout(s, s->scratch, reward, err);
    if (!rc) backup(s, reward);
    return rc; /* MCTS_STOPPED: the node descend added stays, unvisited */
}

/* The root, and its one child when there is no choice to search. */
static int start(mcts_search *s, const tafel_state *state, tafel_error *err) {
    s->root_seat = tafel_state_current(state);
    tafel_state_copy(s->seen, state);
    int rc = tafel_state_resample(s->seen, s->root_seat, &s->rng);
    if (rc) return tf_error(err, rc, "mcts: cannot resample the hidden information");
    s->nnodes = 0;
    s->iterations = 0;
    if (new_node(s, -1, TAFEL_CHANCE) < 0)
        return tf_error(err, TAFEL_ENOMEM, "mcts: out of memory");
    int n = tafel_state_legal_actions(s->seen, s->actions, s->cap);
    if (n <= 0) return tf_error(err, TAFEL_ESTATE, "mcts: no legal action");
    if (n > s->cap) n = s->cap;
    n = bot_leave_out_spent(s->seen, s->actions, n);
    if (n > 1) return TAFEL_OK;
    if (add_child(s, 0, -1, s->actions[0], s->root_seat) < 0)
        return tf_error(err, TAFEL_ENOMEM, "mcts: out of memory");
    return TAFEL_OK;
}

int mcts_search_run(mcts_search *s, const tafel_state *state, tafel_error *err) {
    int rc = start(s, state, err);
    if (rc || s->nodes[0].nchildren == 1) return rc;
    double started = now_ms();
    for (;;) {
        if (s->cfg.iters && s->iterations >= s->cfg.iters) break;
        if (s->cfg.ms && s->iterations % TIME_CHECK_EVERY == 0 &&
            now_ms() - started >= s->cfg.ms)
            break;
        /* stopped: once the root has a child, the answer is a legal move */
        if (s->nodes[0].nchildren && bot_must_stop(s->control, 1)) break;
        rc = iterate(s, err);
        if (rc == MCTS_STOPPED) break;
        if (rc) return rc;
        s->iterations++;
    }
    return TAFEL_OK;
}

/* Whether move a ranks before b: more visits, then a better mean. */
static int ranks_before(const tafel_bot_move *a, const tafel_bot_move *b) {
    return a->share > b->share || (a->share == b->share && a->winrate > b->winrate);
}

int mcts_search_moves(const mcts_search *s, tafel_bot_move *out, int cap) {
    int n = 0;
    for (int32_t c = s->nodes[0].child; c >= 0; c = s->nodes[c].sibling) {
        const mcts_node *nd = &s->nodes[c];
        tafel_bot_move m = {nd->action, s->iterations ? (double)nd->visits / s->iterations : 1,
                       nd->visits ? nd->reward / nd->visits : -1};
        int at = n < cap ? n : cap;
        while (at > 0 && ranks_before(&m, &out[at - 1])) at--;
        if (at == cap) continue;
        if (n < cap) n++;
        memmove(&out[at + 1], &out[at], (size_t)(n - 1 - at) * sizeof *out);
        out[at] = m;
    }
    return n;
}
