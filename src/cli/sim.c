/*
** sim.c -- `tafel sim`: many bot-against-bot games, and their statistics.
**
** Game i depends only on (seed, i): its chance rng and its bots' seeds are
** derived from cli_mix(seed, i), and in game i seat k is played by bot
** (k + i) mod n.  Worker threads take the next game number from a shared
** counter and store its result in slot i, so the results, and the records
** written in game order by whichever worker completes the next one, are the
** same for any number of threads.
*/
#include "cli.h"
#include "stats.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct sim_result {
    double scores[TAFEL_MAX_PLAYERS]; /* by seat */
    int winners[TAFEL_MAX_PLAYERS], nwinners;
    int length, finished, failed;
    char *json; /* the record, with --out */
    char error[300];
} sim_result;

typedef struct sim_job {
    const tafel_game *game;
    const char *const *specs;
    int nbots, want_json;
    uint64_t seed;
    long games;
    sim_result *results;
    FILE *out;
    pthread_mutex_t lock;
    pthread_cond_t progress;     /* signalled when the last game is done */
    long next, done, next_write; /* guarded by lock */
} sim_job;

static tafel_record *new_record(const sim_job *job, long i, uint64_t seed) {
    if (!job->want_json) return NULL;
    tafel_record *r = tafel_record_new(tafel_game_string(job->game), seed);
    for (int k = 0; r && k < job->nbots; k++)
        tafel_record_set_player(r, k, job->specs[(k + i) % job->nbots]);
    return r;
}

/* Play game i to the end with the seated bots. */
static int play_game(const sim_job *job, long i, tafel_bot **bots,
                     tafel_state *state, sim_result *res, tafel_error *err) {
    uint64_t seed = cli_mix(job->seed, (uint64_t)i), rng = tafel_rng_seed(seed);
    tafel_record *record = new_record(job, i, seed);
    int rc = job->want_json && !record ? TAFEL_ENOMEM : TAFEL_OK;
    while (!rc && tafel_state_current(state) != TAFEL_TERMINAL) {
        tafel_action a;
        rc = cli_choose(state, bots, &rng, NULL, 0, &a, err);
        if (!rc && record) rc = tafel_record_push(record, state, a);
        if (!rc) rc = tafel_state_apply(state, a, err);
    }
    if (!rc && record && !(res->json = tafel_record_to_json(record)))
        rc = TAFEL_ENOMEM;
    tafel_record_free(record);
    if (rc) return rc;
    tafel_state_scores(state, res->scores);
    res->nwinners = tafel_state_winners(state, res->winners);
    res->length = tafel_state_move_number(state);
    return TAFEL_OK;
}

/* Seat the bots of game i, play it, and fill its result. */
static void run_game(const sim_job *job, long i, sim_result *res) {
    tafel_bot *bots[TAFEL_MAX_PLAYERS] = {0};
    tafel_error err = {0, "out of memory"};
    uint64_t seed = cli_mix(job->seed, (uint64_t)i);
    tafel_state *state = tafel_state_new(job->game);
    int rc = state ? TAFEL_OK : TAFEL_ENOMEM;
    for (int k = 0; !rc && k < job->nbots; k++)
        rc = tafel_bot_new(job->specs[(k + i) % job->nbots], job->game,
                           cli_mix(seed, (uint64_t)k + 1), &bots[k], &err);
    if (!rc) rc = play_game(job, i, bots, state, res, &err);
    if (rc) {
        res->failed = 1;
        snprintf(res->error, sizeof res->error, "game %ld: %s", i, err.message);
    }
    for (int k = 0; k < job->nbots; k++) tafel_bot_free(bots[k]);
    tafel_state_free(state);
}

/* Under the lock: write every finished record that is next in order. */
static void write_ready(sim_job *job) {
    while (job->next_write < job->games && job->results[job->next_write].finished) {
        sim_result *res = &job->results[job->next_write++];
        if (job->out && res->json) fprintf(job->out, "%s\n", res->json);
        free(res->json);
        res->json = NULL;
    }
}

static void *worker(void *arg) {
    sim_job *job = arg;
    for (;;) {
        pthread_mutex_lock(&job->lock);
        long i = job->next++;
        pthread_mutex_unlock(&job->lock);
        if (i >= job->games) return NULL;
        run_game(job, i, &job->results[i]);
        pthread_mutex_lock(&job->lock);
        job->results[i].finished = 1;
        if (++job->done == job->games) pthread_cond_signal(&job->progress);
        write_ready(job);
        pthread_mutex_unlock(&job->lock);
    }
}

/* Start the workers, draw progress until all games are done, join. */
static int run_all(sim_job *job, int threads) {
    pthread_t ids[256];
    int started = 0;
    double t0 = cli_now();
    while (started < threads &&
           pthread_create(&ids[started], NULL, worker, job) == 0)
        started++;
    if (started == 0) {
        fprintf(stderr, "tafel sim: cannot start a thread\n");
        return 1;
    }
    pthread_mutex_lock(&job->lock);
    while (job->done < job->games) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000) until.tv_sec++, until.tv_nsec -= 1000000000;
        pthread_cond_timedwait(&job->progress, &job->lock, &until);
        cli_progress(job->done, job->games, t0);
    }
    pthread_mutex_unlock(&job->lock);
    for (int t = 0; t < started; t++) pthread_join(ids[t], NULL);
    cli_progress_done();
    return 0;
}

/* Bot b's share of the win in game i (1/k for a win shared by k). */
static double win_share(const sim_result *res, int seat) {
    for (int w = 0; w < res->nwinners; w++)
        if (res->winners[w] == seat) return 1.0 / res->nwinners;
    return 0;
}

static void report(const sim_job *job, double seconds) {
    long n = job->games;
    double length = 0;
    for (long i = 0; i < n; i++) length += job->results[i].length;
    printf("%s: %ld games, seed %llu\n", tafel_game_string(job->game), n,
           (unsigned long long)job->seed);
    printf("   %-20s %8s   %-17s %10s\n", "bot", "win rate", "95% CI", "mean score");
    for (int b = 0; b < job->nbots; b++) {
        double sum = 0, score = 0;
        for (long i = 0; i < n; i++) {
            int seat = (int)(((b - i) % job->nbots + job->nbots) % job->nbots);
            double w = win_share(&job->results[i], seat);
            sum += w;
            score += job->results[i].scores[seat];
        }
        double mean = sum / n;
        stats_interval ci = stats_wilson(mean, (double)n);
        printf("%-2d %-20s %7.1f%%   [%5.1f%%, %5.1f%%]  %10.1f\n", b + 1,
               job->specs[b], 100 * mean, 100 * ci.lo, 100 * ci.hi, score / n);
    }
    printf("mean game length %.1f actions, %.1f games/s\n", length / n,
           seconds > 0 ? n / seconds : 0.0);
}

/* Every spec must make a bot for this game ("human" cannot play here). */
static int check_specs(const tafel_game *game, const char *const *specs, int n) {
    for (int k = 0; k < n; k++) {
        tafel_bot *bot;
        tafel_error err;
        if (!strcmp(specs[k], "human")) {
            fprintf(stderr, "tafel sim: 'human' cannot play in sim; use bots\n");
            return CLI_USAGE;
        }
        if (tafel_bot_new(specs[k], game, 0, &bot, &err)) {
            fprintf(stderr, "tafel sim: %s\n", err.message);
            return CLI_USAGE;
        }
        tafel_bot_free(bot);
    }
    return 0;
}

static int simulate(sim_job *job, int threads, const char *out_path) {
    if (out_path && !(job->out = fopen(out_path, "w"))) {
        perror(out_path);
        return 1;
    }
    job->results = calloc((size_t)job->games, sizeof *job->results);
    int rc = job->results ? 0 : 1;
    if (rc) fprintf(stderr, "tafel sim: out of memory\n");
    double t0 = cli_now();
    if (!rc) rc = run_all(job, threads);
    double seconds = cli_now() - t0;
    for (long i = 0; !rc && i < job->games; i++)
        if (job->results[i].failed) {
            fprintf(stderr, "tafel sim: %s\n", job->results[i].error);
            rc = 1;
        }
    if (!rc) report(job, seconds);
    if (job->out && fclose(job->out) != 0) {
        perror(out_path);
        rc = 1;
    }
    free(job->results);
    return rc;
}

int cli_sim(const cli_command *cmd, int argc, char **argv) {
    const char *game_text = "carcassonne", *players = "greedy,random";
    const char *games_text = "100", *threads_text = "1", *seed_text = "1";
    const char *out_path = NULL;
    const cli_option options[] = {
        {"--players", 1, &players}, {"--games", 1, &games_text},
        {"--threads", 1, &threads_text}, {"--seed", 1, &seed_text},
        {"--out", 1, &out_path},
    };
    int rc = cli_parse(cmd, argc, argv, options, 5, &game_text, 1);
    if (rc != CLI_CONTINUE) return rc;
    sim_job job = {0};
    char storage[TAFEL_MAX_PLAYERS][CLI_NAME_MAX];
    const char *specs[TAFEL_MAX_PLAYERS];
    int games, threads;
    job.nbots = cli_split_players(players, storage, specs);
    if (job.nbots < 0 || cli_int(games_text, "--games", 1, 1000000000, &games) ||
        cli_int(threads_text, "--threads", 1, 256, &threads) ||
        cli_uint64(seed_text, "--seed", &job.seed))
        return CLI_USAGE;
    tafel_game *game;
    if (cli_load_game(game_text, job.nbots, &game)) return CLI_USAGE;
    job.game = game;
    job.specs = specs;
    job.games = games;
    job.want_json = out_path != NULL;
    rc = check_specs(game, specs, job.nbots);
    if (!rc) {
        pthread_mutex_init(&job.lock, NULL);
        pthread_cond_init(&job.progress, NULL);
        rc = simulate(&job, threads, out_path);
        pthread_cond_destroy(&job.progress);
        pthread_mutex_destroy(&job.lock);
    }
    tafel_game_free(game);
    return rc;
}
