/*
** bench.c -- `tafel bench`: fixed random games, timed, with a signature.
**
** Each bench game plays N games with fixed seeds, uniformly random decisions
** and sampled chance, on one thread.  The signature is FNV-1a 64 over every
** action and every final score (in thousandths), so it changes exactly when
** the engine's behaviour does, and is the same on every run and machine.
** Commits that change behaviour carry the last line, "Bench: <signature>".
*/
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_MAX_RUNS 101
#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

/* The games benchmarked, with how many games make one run of ~1 s. */
static const struct bench_game {
    const char *game;
    int games;
} bench_games[] = {
    {"carcassonne(players=2)", 30000},
    {"cardcassonne(players=4)", 200000},
    {"catan_cards", 300},
};

#define NBENCH ((int)(sizeof bench_games / sizeof bench_games[0]))

/* FNV-1a over whole 64-bit words: one multiply per action keeps the hash
** out of the figures it signs. */
static uint64_t fnv_add(uint64_t hash, int64_t value) {
    return (hash ^ (uint64_t)value) * FNV_PRIME;
}

/* One random game from seed; folds its actions and scores into *hash. */
static int bench_one(tafel_state *state, uint64_t seed, tafel_action *actions,
                     int cap, uint64_t *hash, tafel_error *err) {
    uint64_t rng = tafel_rng_seed(seed);
    for (int seat; (seat = tafel_state_current(state)) != TAFEL_TERMINAL;) {
        tafel_action a;
        int rc = cli_choose(state, seat, NULL, &rng, actions, cap, &a, err);
        if (!rc) rc = tafel_state_apply(state, a, err);
        if (rc) return rc;
        *hash = fnv_add(*hash, a);
    }
    double scores[TAFEL_MAX_PLAYERS];
    tafel_state_scores(state, scores);
    for (int i = 0; i < tafel_state_players(state); i++)
        *hash = fnv_add(*hash, llround(scores[i] * 1000));
    return TAFEL_OK;
}

/* One run: n games of game; its signature and seconds. */
static int bench_run(const tafel_game *game, int n, uint64_t *signature,
                     double *seconds, tafel_error *err) {
    int cap = tafel_game_max_actions(game);
    tafel_action *actions = malloc((size_t)cap * sizeof *actions);
    tafel_state *initial = tafel_state_new(game), *state = tafel_state_new(game);
    int rc = actions && initial && state ? TAFEL_OK : TAFEL_ENOMEM;
    *signature = FNV_OFFSET;
    double t0 = cli_now();
    for (int i = 0; !rc && i < n; i++) {
        tafel_state_copy(state, initial);
        rc = bench_one(state, cli_mix(0xBE4C8, (uint64_t)i), actions, cap,
                       signature, err);
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

/* All runs of one bench game; folds its signature into *total. */
static int bench_game(const struct bench_game *bg, int games, int runs,
                      uint64_t *total) {
    tafel_game *game;
    if (cli_load_game(bg->game, 0, &game)) return 1;
    int n = games > 0 ? games : bg->games;
    double rate[BENCH_MAX_RUNS];
    uint64_t signature = 0;
    tafel_error err;
    int rc = 0;
    double started = cli_now();
    for (int r = 0; !rc && r < runs; r++) {
        uint64_t sig;
        double seconds;
        rc = bench_run(game, n, &sig, &seconds, &err);
        if (rc) fprintf(stderr, "tafel bench: %s: %s\n", bg->game, err.message);
        else if (r > 0 && sig != signature) {
            fprintf(stderr, "tafel bench: %s: run %d gave another signature: "
                    "the engine is not deterministic\n", bg->game, r + 1);
            rc = 1;
        }
        signature = sig;
        rate[r] = seconds > 0 ? n / seconds : 0;
        cli_progress(r + 1, runs, started, NULL);
    }
    cli_progress_done();
    tafel_game_free(game);
    if (rc) return 1;
    qsort(rate, (size_t)runs, sizeof rate[0], compare_doubles);
    printf("%-28s %6d games x %d runs  median %9.1f games/s  signature %016llx\n",
           bg->game, n, runs, rate[runs / 2], (unsigned long long)signature);
    *total = fnv_add(*total, (int64_t)signature);
    return 0;
}

int cli_bench(const cli_command *cmd, int argc, char **argv) {
    const char *games_text = NULL, *runs_text = "5", *only = NULL;
    const cli_option options[] = {
        {"--games", 1, &games_text}, {"--runs", 1, &runs_text}, {"--game", 1, &only},
    };
    int rc = cli_parse(cmd, argc, argv, options, 3, NULL, 0);
    if (rc != CLI_CONTINUE) return rc;
    int games = 0, runs;
    if ((games_text && cli_int(games_text, "--games", 1, 100000000, &games)) ||
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
    if (only) return 0; /* the signature is of the whole bench only */
    printf("Bench: %016llx\n", (unsigned long long)total);
    return 0;
}
