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
** With a leaf evaluator (tafel.h) an iteration ends at its new node, drawn
** on to a decision, and the evaluator's value stands for the rollout's
** rewards; the leaves of a batch are gathered first, each descent counting
** a visit (a virtual loss, reward 0) on its path so that the next one goes
** elsewhere, and their rewards are added when the batch is evaluated.  With
** priors a decision chooses by PUCT (Silver et al. 2017): the child's mean
** reward plus cpuct * prior * sqrt(parent visits) / (1 + child visits), the
** parent's visits being the child's availability in a game with hidden
** information; an untried action starts from the evaluator's value of the
** node, so the first visits follow the priors.
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
    s->game = game;
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

static void free_leaves(mcts_search *s) {
    for (int b = 0; s->leaves && b < s->ev.batch; b++) tafel_state_free(s->leaves[b]);
    free(s->leaves);
    free(s->leaf_node);
    free(s->leaf_fresh);
    free(s->path_of);
    free(s->paths);
    free(s->values);
    free(s->priors);
    free(s->pool);
    s->leaves = NULL;
    s->leaf_node = s->path_of = s->paths = NULL;
    s->leaf_fresh = NULL;
    s->values = s->priors = NULL;
    s->pool = NULL;
    s->paths_len = s->paths_cap = s->npool = s->pool_cap = 0;
}

int mcts_search_set_evaluator(mcts_search *s, const tafel_evaluator *ev, tafel_error *err) {
    free_leaves(s);
    memset(&s->ev, 0, sizeof s->ev);
    if (!ev) return TAFEL_OK;
    int b = ev->batch;
    const tafel_game *game = s->game;
    s->space = tafel_game_action_space_size(game);
    s->leaves = calloc((size_t)b, sizeof *s->leaves);
    s->leaf_node = malloc((size_t)b * sizeof *s->leaf_node);
    s->leaf_fresh = malloc((size_t)b);
    s->path_of = malloc((size_t)(b + 1) * sizeof *s->path_of);
    s->values = malloc((size_t)b * (size_t)s->players * sizeof *s->values);
    s->priors = ev->priors ? malloc((size_t)b * (size_t)s->space * sizeof *s->priors) : NULL;
    int ok = s->leaves && s->leaf_node && s->leaf_fresh && s->path_of && s->values &&
             (s->priors || !ev->priors);
    s->ev.batch = b; /* free_leaves frees as many leaves as this says */
    for (int i = 0; ok && i < b; i++) ok = (s->leaves[i] = tafel_state_new(game)) != NULL;
    if (!ok) {
        free_leaves(s);
        memset(&s->ev, 0, sizeof s->ev);
        return tf_error(err, TAFEL_ENOMEM, "mcts: out of memory for %d leaves", b);
    }
    s->ev = *ev;
    return TAFEL_OK;
}

void mcts_search_free(mcts_search *s) {
    free_leaves(s);
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
                                      .avail = 1, .nlegal = -1, .mover = (int8_t)mover,
                                      .value = -1, .prior_at = -1};
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

/* What decide() returns when the seat to move has no legal action (-1:
** out of memory). */
#define NO_ACTION (-2)

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


/* The legal actions at node in st (s->actions), sorted; at the root less
** the requests the bot has spent. */
static int legal_at(mcts_search *s, const tafel_state *st, int32_t node) {
    int n = tafel_state_legal_actions(st, s->actions, s->cap);
    if (n > s->cap) n = s->cap;
    if (node == 0) n = bot_leave_out_spent(st, s->actions, n); /* the bot's own */
    return n;
}

/* PUCT over the n legal actions (s->actions) at node: an existing child or
** a new one (*added). */
static int32_t select_puct(mcts_search *s, int32_t node, int n, int seat, int *added) {
    mcts_node *nd = &s->nodes[node];
    const mcts_prior *pr = nd->prior_at >= 0 ? s->pool + nd->prior_at : NULL;
    double fpu = nd->value >= 0 ? nd->value : 1.0 / s->players;
    double sqrt_n = sqrt(nd->visits > 0 ? nd->visits : 1), best = -HUGE_VAL;
    int32_t c = nd->child, before = -1, pick = -1, pick_before = -1;
    tafel_action pick_action = -1;
    for (int i = 0, k = 0; i < n; i++) {
        tafel_action a = s->actions[i];
        while (c >= 0 && s->nodes[c].action < a) before = c, c = s->nodes[c].sibling;
        while (pr && k < nd->nprior && pr[k].action < a) k++;
        /* an action the priors do not list was not legal where they were
        ** made (another deal of the hidden cards): an even share */
        double p = pr && k < nd->nprior && pr[k].action == a ? pr[k].p : 1.0 / n, u;
        if (c >= 0 && s->nodes[c].action == a) {
            mcts_node *child = &s->nodes[c];
            if (s->hidden) child->avail++;
            double parent_n = s->hidden ? child->avail : nd->visits;
            double q = child->visits ? child->reward / child->visits : fpu;
            u = q + s->cfg.cpuct * p * sqrt(parent_n) / (1 + child->visits);
            if (u > best) best = u, pick = c, pick_action = -1;
        } else {
            u = fpu + s->cfg.cpuct * p * sqrt_n;
            if (u > best) best = u, pick = -1, pick_before = before, pick_action = a;
        }
    }
    if (pick_action < 0) return pick;
    *added = 1;
    return add_child(s, node, pick_before, pick_action, seat);
}

/* At a decision in st: the child to go down to; *added when it is new. */
static int32_t decide(mcts_search *s, const tafel_state *st, int32_t node, int seat,
                      int *added) {
    mcts_node *nd = &s->nodes[node];
    *added = 0;
    if (s->ev.priors) {
        int n = legal_at(s, st, node);
        nd->nlegal = n;
        return n > 0 ? select_puct(s, node, n, seat, added) : NO_ACTION;
    }
    if (!s->hidden && nd->nlegal >= 0 && nd->nchildren == nd->nlegal)
        return select_stable(s, node);
    int n = legal_at(s, st, node);
    nd->nlegal = n;
    int untried = count_untried(s, node, n);
    if (untried == 0) return n > 0 ? select_available(s, node, n) : NO_ACTION;
    *added = 1;
    return expand(s, node, n, (int)tafel_rng_below(&s->rng, (uint32_t)untried), seat);
}

/* Walk down from the root, adding one node: the path ends at the new node
** or at the end of the game, with st the state there. */
static int descend(mcts_search *s, tafel_state *st, tafel_error *err) {
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
            next = decide(s, st, node, who, &added);
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
    rc = descend(s, s->scratch, err);
    if (!rc) rc = mcts_rollout(s, s->scratch, reward, err);
    if (!rc) backup(s, reward);
    return rc; /* MCTS_STOPPED: the node descend added stays, unvisited */
}

/* Keep the priors row (the action space's floats, from the evaluator) of
** the n legal actions (s->actions) of st at node, normalised over them. */
static int keep_priors(mcts_search *s, int32_t node, const tafel_state *st, int n,
                       const float *row) {
    if (s->npool + n > s->pool_cap) {
        int32_t cap = s->pool_cap ? 2 * s->pool_cap : 4096;
        while (cap < s->npool + n) cap *= 2;
        mcts_prior *p = realloc(s->pool, (size_t)cap * sizeof *p);
        if (!p) return TAFEL_ENOMEM;
        s->pool = p;
        s->pool_cap = cap;
    }
    mcts_prior *pr = s->pool + s->npool;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        int k = tafel_state_action_index(st, s->actions[i]);
        float p = k >= 0 ? row[k] : 0;
        if (!(p > 0)) p = 0; /* NaN too */
        if (p > 1e30f) p = 1e30f;
        pr[i] = (mcts_prior){s->actions[i], p};
        sum += p;
    }
    for (int i = 0; i < n; i++) pr[i].p = sum > 0 ? (float)(pr[i].p / sum) : 1.0f / n;
    s->nodes[node].prior_at = s->npool;
    s->nodes[node].nprior = n;
    s->npool += n;
    return TAFEL_OK;
}

/* Call the evaluator on the first n leaves; its rewards for each in values. */
static int evaluate(mcts_search *s, int n, tafel_error *err) {
    tafel_error e = {0};
    int rc = s->ev.evaluate(s->ev.ctx, (const tafel_state *const *)s->leaves, n, s->values,
                            s->priors, &e);
    if (rc)
        return tf_error(err, rc, "mcts: the evaluator failed: %s",
                        e.message[0] ? e.message : tafel_status_string(rc));
    double neutral = 1.0 / s->players;
    for (int i = 0; i < n * s->players; i++) {
        float v = s->values[i];
        s->values[i] = v >= 0 && v <= 1 ? v : v > 1 ? 1 : v < 0 ? 0 : (float)neutral;
    }
    return TAFEL_OK;
}

static void add_rewards(mcts_search *s, const int32_t *path, int len, const double *reward) {
    for (int i = 0; i < len; i++) {
        mcts_node *n = &s->nodes[path[i]];
        if (n->mover >= 0) n->reward += reward[n->mover];
    }
}

/* Keep the path just walked (s->path) as leaf b's. */
static int keep_path(mcts_search *s, int b) {
    if (s->paths_len + s->path_len > s->paths_cap) {
        int cap = s->paths_cap ? 2 * s->paths_cap : 1024;
        while (cap < s->paths_len + s->path_len) cap *= 2;
        int32_t *p = realloc(s->paths, (size_t)cap * sizeof *p);
        if (!p) return TAFEL_ENOMEM;
        s->paths = p;
        s->paths_cap = cap;
    }
    memcpy(s->paths + s->paths_len, s->path, (size_t)s->path_len * sizeof *s->path);
    s->paths_len += s->path_len;
    s->path_of[b + 1] = s->paths_len;
    return TAFEL_OK;
}

/* At most want iterations (<= the batch) ended by the evaluator: descend
** for each, with a visit counted at once (the virtual loss); a finished
** game is rewarded at once, the other leaves all in one call.  *done: the
** iterations made. */
static int iterate_batch(mcts_search *s, int want, int *done, tafel_error *err) {
    int nleaves = 0, rc = TAFEL_OK;
    s->paths_len = 0;
    s->path_of[0] = 0;
    *done = 0;
    while (*done < want && nleaves < s->ev.batch) {
        if (s->nodes[0].nchildren && bot_must_stop(s->control, 1)) break;
        tafel_state *st = s->leaves[nleaves];
        tafel_state_copy(st, s->seen);
        rc = s->hidden ? tafel_state_resample(st, s->root_seat, &s->rng) : 0;
        if (rc) return tf_error(err, rc, "mcts: cannot resample the hidden information");
        if ((rc = descend(s, st, err))) return rc;
        for (int i = 0; i < s->path_len; i++) s->nodes[s->path[i]].visits++;
        ++*done;
        int who = tafel_state_current(st), fresh = 1;
        for (tafel_action a; who == TAFEL_CHANCE; who = tafel_state_current(st), fresh = 0) {
            rc = tafel_state_sample_chance(st, &s->rng, &a);
            if (!rc) rc = tafel_state_apply(st, a, err);
            if (rc) return tf_error(err, rc, "mcts: cannot draw a chance outcome");
        }
        if (who == TAFEL_TERMINAL) {
            double reward[TAFEL_MAX_PLAYERS];
            mcts_terminal_reward(s, st, reward);
            add_rewards(s, s->path, s->path_len, reward);
            continue;
        }
        s->leaf_node[nleaves] = s->path[s->path_len - 1];
        s->leaf_fresh[nleaves] = (uint8_t)fresh;
        if (keep_path(s, nleaves)) return tf_error(err, TAFEL_ENOMEM, "mcts: out of memory");
        nleaves++;
    }
    if (nleaves == 0) return TAFEL_OK;
    if ((rc = evaluate(s, nleaves, err))) return rc;
    for (int b = 0; b < nleaves; b++) {
        double reward[TAFEL_MAX_PLAYERS];
        for (int p = 0; p < s->players; p++) reward[p] = s->values[b * s->players + p];
        int32_t node = s->leaf_node[b];
        tafel_state *st = s->leaves[b];
        if (s->leaf_fresh[b] && s->nodes[node].value < 0) {
            /* the leaf is the node's own position: what the evaluator said
            ** of it guides the node's later choices */
            s->nodes[node].value = (float)reward[tafel_state_current(st)];
            int n = s->priors ? legal_at(s, st, node) : 0;
            if (n > 0 && keep_priors(s, node, st, n, s->priors + (size_t)b * s->space))
                return tf_error(err, TAFEL_ENOMEM, "mcts: out of memory");
        }
        if (s->cfg.mix > 0) { /* part net, part rollout, as AlphaGo mixed them */
            double played[TAFEL_MAX_PLAYERS];
            rc = mcts_rollout(s, st, played, err);
            if (rc && rc != MCTS_STOPPED) return rc;
            for (int p = 0; !rc && p < s->players; p++)
                reward[p] = (1 - s->cfg.mix) * reward[p] + s->cfg.mix * played[p];
            rc = TAFEL_OK;
        }
        add_rewards(s, s->paths + s->path_of[b], s->path_of[b + 1] - s->path_of[b], reward);
    }
    return TAFEL_OK;
}

/* The root's priors and value (the root's legal actions in s->actions). */
static int evaluate_root(mcts_search *s, int n, tafel_error *err) {
    tafel_state_copy(s->leaves[0], s->seen);
    int rc = evaluate(s, 1, err);
    if (rc) return rc;
    s->nodes[0].value = s->values[s->root_seat];
    if (keep_priors(s, 0, s->leaves[0], n, s->priors))
        return tf_error(err, TAFEL_ENOMEM, "mcts: out of memory");
    return TAFEL_OK;
}

/* The root, and its one child when there is no choice to search. */
static int start(mcts_search *s, const tafel_state *state, tafel_error *err) {
    s->root_seat = tafel_state_current(state);
    tafel_state_copy(s->seen, state);
    int rc = tafel_state_resample(s->seen, s->root_seat, &s->rng);
    if (rc) return tf_error(err, rc, "mcts: cannot resample the hidden information");
    s->nnodes = 0;
    s->npool = 0;
    s->iterations = 0;
    if (new_node(s, -1, TAFEL_CHANCE) < 0)
        return tf_error(err, TAFEL_ENOMEM, "mcts: out of memory");
    int n = tafel_state_legal_actions(s->seen, s->actions, s->cap);
    if (n <= 0) return tf_error(err, TAFEL_ESTATE, "mcts: no legal action");
    if (n > s->cap) n = s->cap;
    n = bot_leave_out_spent(s->seen, s->actions, n);
    if (n > 1) return s->ev.priors ? evaluate_root(s, n, err) : TAFEL_OK;
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
        if (s->ev.evaluate) {
            int want = s->ev.batch, done;
            if (s->cfg.iters && s->cfg.iters - s->iterations < want)
                want = s->cfg.iters - s->iterations;
            if ((rc = iterate_batch(s, want, &done, err))) return rc;
            s->iterations += done;
            /* a batch is long: the clock is read after each */
            if (s->cfg.ms && now_ms() - started >= s->cfg.ms) break;
            continue;
        }
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
