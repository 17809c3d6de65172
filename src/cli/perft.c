/*
** perft.c -- `tafel perft`: count the leaves of the game tree.
**
** From a position reached by a seeded random prefix, every action is tried
** to the given depth: a chance node branches over all its outcomes, and a
** terminal state counts as one leaf.  One scratch state and one action array
** per level are allocated up front, so the count itself never allocates.
** The counts test move generation (Stockfish's perft).
*/
#include "cli.h"

#include <stdlib.h>

#define PERFT_MAX_DEPTH 16

typedef struct perft_tree {
    tafel_state *scratch[PERFT_MAX_DEPTH + 1];
    tafel_action *actions[PERFT_MAX_DEPTH + 1];
    int cap;
    tafel_error err; /* the first failed apply */
    int failed;
} perft_tree;

static uint64_t count_leaves(perft_tree *t, const tafel_state *state, int depth);

/* The leaves under state's child by action, to depth - 1 more levels. */
static uint64_t child_leaves(perft_tree *t, const tafel_state *state,
                             tafel_action action, int depth) {
    tafel_state *next = t->scratch[depth];
    tafel_state_copy(next, state);
    if (tafel_state_apply(next, action, &t->err)) {
        t->failed = 1;
        return 0;
    }
    return count_leaves(t, next, depth - 1);
}

static uint64_t count_leaves(perft_tree *t, const tafel_state *state, int depth) {
    if (depth == 0 || tafel_state_current(state) == TAFEL_TERMINAL) return 1;
    tafel_action *actions = t->actions[depth];
    int n = tafel_state_legal_actions(state, actions, t->cap);
    uint64_t total = 0;
    for (int i = 0; i < n && i < t->cap && !t->failed; i++)
        total += child_leaves(t, state, actions[i], depth);
    return total;
}

/* The count at the root, first action by first action: a progress bar on
** a terminal (deep counts take minutes), and with divide each one's share. */
static uint64_t root_count(perft_tree *t, const tafel_state *root, int depth,
                           int divide) {
    if (depth == 0 || tafel_state_current(root) == TAFEL_TERMINAL)
        return count_leaves(t, root, depth);
    tafel_action *actions = t->actions[depth];
    int n = tafel_state_legal_actions(root, actions, t->cap);
    uint64_t total = 0;
    double started = cli_now();
    for (int i = 0; i < n && i < t->cap && !t->failed; i++) {
        char text[TAFEL_ACTION_TEXT_MAX];
        tafel_action_to_text(root, actions[i], text, sizeof text);
        uint64_t leaves = child_leaves(t, root, actions[i], depth);
        if (!t->failed && divide) printf("%s: %llu\n", text, (unsigned long long)leaves);
        total += leaves;
        cli_progress(i + 1, n, started, NULL);
    }
    cli_progress_done();
    return total;
}

/* Play prefix random actions (fewer if the game ends). */
static int play_prefix(tafel_state *state, uint64_t seed, int prefix,
                       tafel_action *scratch, int cap, tafel_error *err) {
    uint64_t rng = tafel_rng_seed(seed);
    for (int i = 0, seat; i < prefix && (seat = tafel_state_current(state)) != TAFEL_TERMINAL;
         i++) {
        tafel_action a;
        int rc = cli_choose(state, seat, NULL, &rng, scratch, cap, &a, err);
        if (!rc) rc = tafel_state_apply(state, a, err);
        if (rc) return rc;
    }
    return TAFEL_OK;
}

static void tree_free(perft_tree *t) {
    for (int i = 0; i <= PERFT_MAX_DEPTH; i++) {
        tafel_state_free(t->scratch[i]);
        free(t->actions[i]);
    }
}

static int perft_run(tafel_game *game, uint64_t seed, int depth, int prefix,
                     int divide) {
    perft_tree t = {.cap = tafel_game_max_actions(game)};
    int ok = 1;
    for (int i = 0; i <= depth; i++) {
        t.scratch[i] = tafel_state_new(game);
        t.actions[i] = malloc((size_t)t.cap * sizeof *t.actions[i]);
        ok = ok && t.scratch[i] && t.actions[i];
    }
    tafel_state *root = ok ? tafel_state_new(game) : NULL;
    int rc = 1;
    if (!root) fprintf(stderr, "tafel perft: out of memory\n");
    else if (play_prefix(root, seed, prefix, t.actions[0], t.cap, &t.err))
        fprintf(stderr, "tafel perft: prefix: %s\n", t.err.message);
    else {
        double started = cli_now();
        uint64_t leaves = root_count(&t, root, depth, divide);
        double seconds = cli_now() - started;
        if (t.failed) fprintf(stderr, "tafel perft: %s\n", t.err.message);
        else
            printf("%llu leaves at depth %d from %s after %d seeded random actions (seed "
                   "%llu), in %.2f s (%.0f leaves/s)\n", (unsigned long long)leaves, depth,
                   tafel_game_string(game), tafel_state_move_number(root),
                   (unsigned long long)seed, seconds, seconds > 0 ? leaves / seconds : 0.0);
        rc = t.failed;
    }
    tafel_state_free(root);
    tree_free(&t);
    return rc;
}

int cli_perft(const cli_command *cmd, int argc, char **argv) {
    const char *game_text = "carcassonne", *seed_text = "1", *depth_text = "2";
    const char *prefix_text = "10", *divide = NULL;
    const cli_option options[] = {
        {"--seed", 1, &seed_text}, {"--depth", 1, &depth_text},
        {"--prefix", 1, &prefix_text}, {"--divide", 0, &divide},
    };
    int rc = cli_parse(cmd, argc, argv, options, 4, &game_text, 1);
    if (rc != CLI_CONTINUE) return rc;
    uint64_t seed;
    int depth, prefix;
    if (cli_uint64(seed_text, "--seed", &seed) ||
        cli_int(depth_text, "--depth", 0, PERFT_MAX_DEPTH, &depth) ||
        cli_int(prefix_text, "--prefix", 0, 1000000, &prefix))
        return CLI_USAGE;
    tafel_game *game;
    if (cli_load_game(game_text, 0, &game)) return CLI_USAGE;
    rc = perft_run(game, seed, depth, prefix, divide != NULL);
    tafel_game_free(game);
    return rc;
}
