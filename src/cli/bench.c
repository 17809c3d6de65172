/*
** bench.c -- `tafel bench`: fixed random games, timed, with a signature.
**
** Each bench game plays N games with fixed seeds, uniformly random decisions
** and sampled chance, on one thread, R times: the median is the figure, the
** slowest and fastest run show how steady the machine was; beside games a
** second, nanoseconds a step (an action, chance included).  The signature
** is FNV-1a 64 over every action and every final score (in thousandths), so
** it changes exactly when the engine's behaviour does, and is the same on
** every run and machine.
** Commits that change behaviour carry the last line, "Bench: <signature>".
**
** For a game with tensors (tafel_game_tensor_size > 0), a second line
** gives the cost of writing one observation tensor and one legal-action
** mask, in ns and in steps of that game: each is written TENSOR_REPEAT
** times at every state of the first bench games (TENSOR_STATES states at
** most), timed in blocks, the median over the runs.  It stays out of the
** signature too.
**
** A third line for such a game: decisions a second through tafel_batch_step
** on one thread, BATCH_SIZE states of a seeded batch, every action random
** (-1, drawn inside), observation tensors and masks written at every step
** into the caller's buffers, as a learner steps it (tafel.h, "Batches").
** The median over the runs; out of the signature as well.  --games N
** scales the batch run as it scales the games.
**
** Then the search: for each game, the mcts bot's iterations a second on one
** thread from a fixed position, 40% into a seeded random game (Carcassonne
** with random rollouts to the end, the others with the bot's default
** rollout).  Its line has a signature of the search's result, checked
** equal across runs, but it stays out of "Bench:", which signs the engines
** alone: tuning the bot does not change it.
*/
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_MAX_RUNS 101
#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

/* The games benchmarked, with how many games make one run of ~1 s, and how
** many batch steps (BATCH_SIZE decisions each) a batch run of ~0.5 s. */
static const struct bench_game {
    const char *game;
    int games, batch_steps;
} bench_games[] = {
    {"carcassonne(players=2)", 30000, 1500},
    {"cardcassonne(players=4)", 200000, 30000},
    {"catan_cards", 300, 12000},
};

#define NBENCH ((int)(sizeof bench_games / sizeof bench_games[0]))

/* The searches benchmarked: the bot, and iterations in one run of ~1 s. */
static const struct bench_search {
    const char *game, *bot;
    int iters;
} bench_searches[] = {
    {"carcassonne(players=2)", "mcts:policy=0,depth=-1", 20000},
    {"cardcassonne(players=4)", "mcts", 20000},
    {"catan_cards", "mcts", 20000},
};

#define NSEARCH ((int)(sizeof bench_searches / sizeof bench_searches[0]))
#define SEARCH_POSITION_SEED 0x5EA4C
#define SEARCH_POSITION_PERCENT 40
#define SEARCH_MOVES 8

/* FNV-1a over whole 64-bit words: one multiply per action keeps the hash
** out of the figures it signs. */
static uint64_t fnv_add(uint64_t hash, int64_t value) {
    return (hash ^ (uint64_t)value) * FNV_PRIME;
}

/* A random playout that found no action before the end. */
static int stuck(const tafel_state *state, int rc, tafel_error *err) {
    snprintf(err->message, sizeof err->message, "no random action at move %d",
             tafel_state_move_number(state));
    return err->code = rc;
}

/* One random game from seed; folds its actions and scores into *hash and
** counts its steps (actions, chance ones included) into *steps. */
static int bench_one(tafel_state *state, uint64_t seed, tafel_action *actions,
                     int cap, uint64_t *hash, long *steps, tafel_error *err) {
    uint64_t rng = tafel_rng_seed(seed);
    tafel_action a;
    int rc;
    long n = 0;
    while ((rc = tafel_state_play_random(state, &rng, actions, cap, &a)) == TAFEL_OK) {
        *hash = fnv_add(*hash, a);
        n++;
    }
    *steps += n;
    if (tafel_state_current(state) != TAFEL_TERMINAL) return stuck(state, rc, err);
    double scores[TAFEL_MAX_PLAYERS];
    tafel_state_scores(state, scores);
    for (int i = 0; i < tafel_state_players(state); i++)
        *hash = fnv_add(*hash, llround(scores[i] * 1000));
    return TAFEL_OK;
}

/* One run: n games of game; its signature, seconds and steps. */
static int bench_run(const tafel_game *game, int n, uint64_t *signature,
                     double *seconds, long *steps, tafel_error *err) {
    int cap = tafel_game_max_actions(game);
    tafel_action *actions = malloc((size_t)cap * sizeof *actions);
    tafel_state *initial = tafel_state_new(game), *state = tafel_state_new(game);
    int rc = actions && initial && state ? TAFEL_OK : TAFEL_ENOMEM;
    *signature = FNV_OFFSET;
    *steps = 0;
    double t0 = cli_now();
    for (int i = 0; !rc && i < n; i++) {
        tafel_state_copy(state, initial);
        rc = bench_one(state, cli_mix(0xBE4C8, (uint64_t)i), actions, cap,
                       signature, steps, err);
    }
    *seconds = cli_now() - t0;
    if (rc == TAFEL_ENOMEM) snprintf(err->message, sizeof err->message, "out of memory");
    free(actions);
    tafel_state_free(initial);
    tafel_state_free(state);
    return rc;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define TENSOR_REPEAT 8
#define TENSOR_STATES 20000

/* One run of the tensor cost: the bench's games from their first, every
** state's observation tensor (of the seat to move; seat 0 at a chance
** node) and legal-action mask (at a seat's turn) written TENSOR_REPEAT
** times; the time a write of each takes. */
static int tensor_run(const tafel_game *game, float *tensor, size_t size, uint8_t *mask,
                      size_t space, double *tensor_ns, double *mask_ns, tafel_error *err) {
    int cap = tafel_game_max_actions(game);
    tafel_action *actions = malloc((size_t)cap * sizeof *actions);
    tafel_state *initial = tafel_state_new(game), *state = tafel_state_new(game);
    int rc = actions && initial && state ? TAFEL_OK : TAFEL_ENOMEM;
    double tensor_time = 0, mask_time = 0;
    long tensors = 0, masks = 0;
    for (int i = 0; !rc && tensors < TENSOR_STATES * TENSOR_REPEAT; i++) {
        tafel_state_copy(state, initial);
        uint64_t rng = tafel_rng_seed(cli_mix(0xBE4C8, (uint64_t)i));
        while (!rc && tafel_state_current(state) != TAFEL_TERMINAL &&
               tensors < TENSOR_STATES * TENSOR_REPEAT) {
            int seat = tafel_state_current(state);
            double t0 = cli_now();
            for (int r = 0; !rc && r < TENSOR_REPEAT; r++)
                rc = tafel_state_observation_tensor(state, seat < 0 ? 0 : seat, tensor, size,
                                                    err);
            double t1 = cli_now();
            tensor_time += t1 - t0;
            tensors += TENSOR_REPEAT;
            if (!rc && seat >= 0 && space > 0) {
                for (int r = 0; r < TENSOR_REPEAT; r++)
                    tafel_state_legal_actions_mask(state, mask, space);
                mask_time += cli_now() - t1;
                masks += TENSOR_REPEAT;
            }
            if (!rc && (rc = tafel_state_play_random(state, &rng, actions, cap, NULL)))
                rc = stuck(state, rc, err);
        }
    }
    if (rc == TAFEL_ENOMEM) snprintf(err->message, sizeof err->message, "out of memory");
    free(actions);
    tafel_state_free(initial);
    tafel_state_free(state);
    *tensor_ns = tensors ? tensor_time * 1e9 / (double)tensors : 0;
    *mask_ns = masks ? mask_time * 1e9 / (double)masks : 0;
    return rc;
}

/* A game with tensors: the cost of one observation tensor and one mask,
** beside its step's (ns_per_step), as the median of runs. */
static int bench_tensors(const struct bench_game *bg, int runs, double ns_per_step) {
    tafel_game *game;
    if (cli_load_game(bg->game, 0, &game)) return 1;
    size_t size = tafel_game_tensor_size(game, TAFEL_OBSERVATION);
    int space = tafel_game_action_space_size(game);
    if (size == 0) {
        tafel_game_free(game);
        return 0;
    }
    float *tensor = malloc(size * sizeof *tensor);
    uint8_t *mask = malloc(space > 0 ? (size_t)space : 1);
    double tensor_ns[BENCH_MAX_RUNS], mask_ns[BENCH_MAX_RUNS];
    tafel_error err = {TAFEL_ENOMEM, "out of memory"};
    int rc = tensor && mask ? TAFEL_OK : TAFEL_ENOMEM;
    for (int r = 0; !rc && r < runs; r++)
        rc = tensor_run(game, tensor, size, mask, space > 0 ? (size_t)space : 0,
                        &tensor_ns[r], &mask_ns[r], &err);
    free(tensor);
    free(mask);
    tafel_game_free(game);
    if (rc) {
        fprintf(stderr, "tafel bench: %s: tensors: %s\n", bg->game, err.message);
        return 1;
    }
    qsort(tensor_ns, (size_t)runs, sizeof tensor_ns[0], compare_doubles);
    qsort(mask_ns, (size_t)runs, sizeof mask_ns[0], compare_doubles);
    double t = tensor_ns[runs / 2], m = mask_ns[runs / 2];
    printf("%-28s observation tensor %zu floats %9.1f ns (%.1f steps)", bg->game, size, t,
           ns_per_step > 0 ? t / ns_per_step : 0.0);
    if (space > 0)
        printf("  mask %d %9.1f ns (%.1f steps)", space, m,
               ns_per_step > 0 ? m / ns_per_step : 0.0);
    printf("\n");
    return 0;
}

#define BATCH_SIZE 64
#define BATCH_SEED 0xBA7C4

/* One batch run: steps calls of tafel_batch_step on a new batch, all
** actions random; the seconds they took. */
static int batch_run(const tafel_game *game, int steps, int32_t *actions, float *obs,
                     uint8_t *masks, int32_t *to_move, float *rewards, uint8_t *done,
                     double *seconds, tafel_error *err) {
    tafel_batch *batch = tafel_batch_new(game, BATCH_SIZE, BATCH_SEED, TAFEL_OBSERVATION, err);
    if (!batch) return err->code;
    int rc = TAFEL_OK;
    double t0 = cli_now();
    for (int i = 0; !rc && i < steps; i++)
        rc = tafel_batch_step(batch, actions, obs, masks, to_move, rewards, done, err);
    *seconds = cli_now() - t0;
    tafel_batch_free(batch);
    return rc;
}

/* A game with tensors: decisions a second through a batch, the median of
** runs.  Its buffers are allocated once, outside the timing.  --games N
** shortens (or lengthens) the batch run as it does the games' runs. */
static int bench_batch(const struct bench_game *bg, int games, int runs) {
    tafel_game *game;
    if (cli_load_game(bg->game, 0, &game)) return 1;
    size_t size = tafel_game_tensor_size(game, TAFEL_OBSERVATION);
    int space = tafel_game_action_space_size(game), players = tafel_game_players(game);
    if (size == 0 || space <= 0) {
        tafel_game_free(game);
        return 0;
    }
    int steps = bg->batch_steps;
    if (games > 0) { /* in proportion to the games, 10 to a million steps */
        long long scaled = (long long)bg->batch_steps * games / bg->games;
        steps = scaled < 10 ? 10 : scaled > 1000000 ? 1000000 : (int)scaled;
    }
    int32_t *actions = malloc(BATCH_SIZE * sizeof *actions);
    float *obs = malloc(BATCH_SIZE * size * sizeof *obs);
    uint8_t *masks = malloc(BATCH_SIZE * (size_t)space);
    int32_t *to_move = malloc(BATCH_SIZE * sizeof *to_move);
    float *rewards = malloc(BATCH_SIZE * (size_t)players * sizeof *rewards);
    uint8_t *done = malloc(BATCH_SIZE);
    double rate[BENCH_MAX_RUNS];
    tafel_error err = {TAFEL_ENOMEM, "out of memory"};
    int rc = actions && obs && masks && to_move && rewards && done ? TAFEL_OK : TAFEL_ENOMEM;
    for (int i = 0; !rc && i < BATCH_SIZE; i++) actions[i] = -1;
    for (int r = 0; !rc && r < runs; r++) {
        double seconds = 0;
        rc = batch_run(game, steps, actions, obs, masks, to_move, rewards, done, &seconds,
                       &err);
        rate[r] = seconds > 0 ? (double)steps * BATCH_SIZE / seconds : 0;
    }
    free(actions);
    free(obs);
    free(masks);
    free(to_move);
    free(rewards);
    free(done);
    tafel_game_free(game);
    if (rc) {
        fprintf(stderr, "tafel bench: %s: batch: %s\n", bg->game, err.message);
        return 1;
    }
    qsort(rate, (size_t)runs, sizeof rate[0], compare_doubles);
    printf("%-28s batch of %d x %d steps  median %9.0f decisions/s  random actions, "
           "tensors and masks  (runs %.0f-%.0f)\n", bg->game, BATCH_SIZE, steps,
           rate[runs / 2], rate[0], rate[runs - 1]);
    return 0;
}

/* All runs of one bench game; folds its signature into *total. */
static int bench_game(const struct bench_game *bg, int games, int runs,
                      uint64_t *total) {
    tafel_game *game;
    if (cli_load_game(bg->game, 0, &game)) return 1;
    int n = games > 0 ? games : bg->games;
    double rate[BENCH_MAX_RUNS], ns_per_step[BENCH_MAX_RUNS];
    uint64_t signature = 0;
    long steps = 0;
    tafel_error err;
    int rc = 0;
    double started = cli_now();
    for (int r = 0; !rc && r < runs; r++) {
        uint64_t sig = 0;
        double seconds;
        rc = bench_run(game, n, &sig, &seconds, &steps, &err);
        if (rc) fprintf(stderr, "tafel bench: %s: %s\n", bg->game, err.message);
        else if (r > 0 && sig != signature) {
            fprintf(stderr, "tafel bench: %s: run %d gave another signature: "
                    "the engine is not deterministic\n", bg->game, r + 1);
            rc = 1;
        }
        signature = sig;
        rate[r] = seconds > 0 ? n / seconds : 0;
        ns_per_step[r] = steps > 0 ? seconds * 1e9 / (double)steps : 0;
        cli_progress(r + 1, runs, started, NULL);
    }
    cli_progress_done();
    tafel_game_free(game);
    if (rc) return 1;
    qsort(rate, (size_t)runs, sizeof rate[0], compare_doubles);
    qsort(ns_per_step, (size_t)runs, sizeof ns_per_step[0], compare_doubles);
    /* Games differ in length (a random Catan game is ~1,800 steps, a
    ** Cardcassonne one ~180), so the cost of one step compares engines. */
    printf("%-28s %6d games x %d runs  median %9.1f games/s  %6.1f ns/step "
           "(%.0f steps/game)  signature %016llx  (runs %.0f-%.0f)\n", bg->game, n, runs,
           rate[runs / 2], ns_per_step[runs / 2], (double)steps / n,
           (unsigned long long)signature, rate[0], rate[runs - 1]);
    *total = fnv_add(*total, (int64_t)signature);
    return bench_tensors(bg, runs, ns_per_step[runs / 2]) || bench_batch(bg, games, runs);
}

/* Play up to n random actions (fewer at the end of the game). */
static int random_actions(tafel_state *state, uint64_t *rng, long n,
                          tafel_action *actions, int cap, tafel_error *err) {
    for (long i = 0; i < n && tafel_state_current(state) != TAFEL_TERMINAL; i++) {
        int rc = tafel_state_play_random(state, rng, actions, cap, NULL);
        if (rc) return stuck(state, rc, err);
    }
    return TAFEL_OK;
}

/* The position a search is timed from: a seeded random game is played to
** the end, then again to SEARCH_POSITION_PERCENT of its length, and on to
** the next seat with a choice of two moves or more. */
static int search_position(tafel_state *state, tafel_action *actions, int cap,
                           tafel_error *err) {
    tafel_state *whole = tafel_state_clone(state);
    uint64_t rng = tafel_rng_seed(SEARCH_POSITION_SEED);
    int rc = whole ? random_actions(whole, &rng, -1ul >> 1, actions, cap, err)
                   : TAFEL_ENOMEM;
    long length = whole ? tafel_state_move_number(whole) : 0;
    tafel_state_free(whole);
    rng = tafel_rng_seed(SEARCH_POSITION_SEED);
    if (!rc) rc = random_actions(state, &rng, length * SEARCH_POSITION_PERCENT / 100,
                                 actions, cap, err);
    while (!rc && tafel_state_current(state) != TAFEL_TERMINAL &&
           (tafel_state_current(state) < 0 ||
            tafel_state_legal_actions(state, actions, cap) < 2))
        rc = random_actions(state, &rng, 1, actions, cap, err);
    if (rc == TAFEL_ENOMEM) snprintf(err->message, sizeof err->message, "out of memory");
    return rc;
}

/* One timed search from state: its iterations a second and signature. */
static int search_run(const tafel_game *game, const char *spec, int iters,
                      const tafel_state *state, double *rate, uint64_t *signature,
                      tafel_error *err) {
    tafel_bot *bot;
    int rc = tafel_bot_new(spec, game, SEARCH_POSITION_SEED, &bot, err);
    if (rc) return rc;
    tafel_bot_move moves[SEARCH_MOVES];
    int n = 0;
    double t0 = cli_now();
    rc = tafel_bot_analyse(bot, state, moves, SEARCH_MOVES, &n, err);
    double seconds = cli_now() - t0;
    tafel_bot_free(bot);
    *rate = seconds > 0 ? iters / seconds : 0;
    *signature = FNV_OFFSET;
    for (int i = 0; i < n; i++) {
        *signature = fnv_add(*signature, moves[i].action);
        *signature = fnv_add(*signature, llround(moves[i].share * iters));
    }
    return rc;
}

/* All runs of one search: iterations a second, median of the runs. */
static int bench_search(const struct bench_search *bs, int iters, int runs) {
    tafel_game *game;
    if (cli_load_game(bs->game, 0, &game)) return 1;
    int n = iters > 0 ? iters : bs->iters, cap = tafel_game_max_actions(game);
    char spec[CLI_NAME_MAX];
    snprintf(spec, sizeof spec, "%s%citers=%d", bs->bot, strchr(bs->bot, ':') ? ',' : ':', n);
    tafel_action *actions = malloc((size_t)cap * sizeof *actions);
    tafel_state *state = tafel_state_new(game);
    tafel_error err = {TAFEL_ENOMEM, "out of memory"};
    int rc = actions && state ? search_position(state, actions, cap, &err) : TAFEL_ENOMEM;
    double rate[BENCH_MAX_RUNS], started = cli_now();
    uint64_t signature = 0;
    for (int r = 0; !rc && r < runs; r++) {
        uint64_t sig = 0;
        rc = search_run(game, spec, n, state, &rate[r], &sig, &err);
        if (!rc && r > 0 && sig != signature) {
            snprintf(err.message, sizeof err.message,
                     "run %d gave another search: the bot is not deterministic", r + 1);
            rc = 1;
        }
        signature = sig;
        cli_progress(r + 1, runs, started, NULL);
    }
    cli_progress_done();
    free(actions);
    tafel_state_free(state);
    tafel_game_free(game);
    if (rc) {
        fprintf(stderr, "tafel bench: %s %s: %s\n", bs->game, spec, err.message);
        return 1;
    }
    qsort(rate, (size_t)runs, sizeof rate[0], compare_doubles);
    printf("%-28s %6d iterations x %d runs  median %9.1f iterations/s  %s  "
           "signature %016llx  (runs %.0f-%.0f)\n", bs->game, n, runs, rate[runs / 2],
           bs->bot, (unsigned long long)signature, rate[0], rate[runs - 1]);
    return 0;
}

int cli_bench(const cli_command *cmd, int argc, char **argv) {
    const char *games_text = NULL, *runs_text = "5", *only = NULL, *iters_text = NULL;
    const cli_option options[] = {
        {"--games", 1, &games_text}, {"--runs", 1, &runs_text}, {"--game", 1, &only},
        {"--iters", 1, &iters_text},
    };
    int rc = cli_parse(cmd, argc, argv, options, 4, NULL, 0);
    if (rc != CLI_CONTINUE) return rc;
    int games = 0, runs, iters = 0;
    if ((games_text && cli_int(games_text, "--games", 1, 100000000, &games)) ||
        (iters_text && cli_int(iters_text, "--iters", 1, 100000000, &iters)) ||
        cli_int(runs_text, "--runs", 1, BENCH_MAX_RUNS, &runs))
        return CLI_USAGE;
    uint64_t total = FNV_OFFSET;
    int benched = 0;
    for (int i = 0; i < NBENCH; i++) {
        if (only && !strstr(bench_games[i].game, only)) continue;
        if (bench_game(&bench_games[i], games, runs, &total)) return 1;
        benched++;
    }
    if (!benched) {
        fprintf(stderr, "tafel bench: no bench game matches '%s'\n", only);
        return CLI_USAGE;
    }
    for (int i = 0; i < NSEARCH; i++) {
        if (only && !strstr(bench_searches[i].game, only)) continue;
        if (bench_search(&bench_searches[i], iters, runs)) return 1;
    }
    if (only) return 0; /* the signature is of the whole bench only */
    printf("Bench: %016llx\n", (unsigned long long)total);
    return 0;
}
