/*
** soak.c -- `tafel soak`: random games with every invariant checked after
** every action, until one breaks.
**
** Game i is played from seed cli_mix(S, i) alone: chance and choices from
** one rng, the resampling of the view check from another, so the games are
** the same for any --threads and any --every.  After each action the
** position is checked (the game's own tafel_state_check with its
** conservation laws, copies, legal lists, chance probabilities), and the
** step itself is taken twice, by listing and by tafel_state_play_random,
** with the action's text read back; every K actions (--every, default 1;
** game i at the actions numbered i modulo K) also each seat's view against
** a copy resampled for that seat.  At the
** end of a game its record, through JSON, must replay to the final state.
** invariants.c holds the checks, shared with the conformance suite.
**
** Workers, the calling thread among them, take the next game number from a
** shared counter.  A failed game stops new games past it; games before it
** are played out, and the lowest failed game is the one reported, so the
** failure found does not depend on the threads either.  Its record (every
** action up to the failed check) is written to --out.
*/
#include "cli.h"
#include "invariants.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A game this long has lost its way: no game of the registry comes near. */
#define SOAK_MAX_ACTIONS 100000
#define SOAK_PROGRESS_SECONDS 0.2

typedef struct soak_job {
    const tafel_game *game;
    uint64_t seed;
    int every;
    double started;
    pthread_mutex_t lock;
    long next;          /* guarded by lock: the next game to start */
    long limit;         /* guarded: games to start; a failure lowers it */
    long done;          /* guarded: games finished */
    long long actions;  /* guarded: their actions */
    double drawn;       /* guarded: when the progress bar was drawn */
    long failed;        /* guarded: the lowest failed game, or -1 */
    tafel_record *failed_record; /* guarded: its record */
    char failure[800];  /* guarded: what failed in it */
} soak_job;

/* What one worker owns. */
typedef struct soak_worker {
    soak_job *job;
    inv_checker inv;
    tafel_state *state;
} soak_worker;

static tafel_record *new_record(const soak_job *job, uint64_t seed) {
    tafel_record *record = tafel_record_new(tafel_game_string(job->game), seed);
    for (int k = 0; record && k < tafel_game_players(job->game); k++)
        if (tafel_record_set_player(record, k, "random")) {
            tafel_record_free(record);
            return NULL;
        }
    return record;
}

/* Play game i from seed to its end, checking (the views where the action
** number is i modulo --every, so that games check different steps).  On a
** failure, 1 with *move the action number at which it failed (-1 after the
** end) and *in_step whether the step failed rather than the position
** before it. */
static int play_checked(soak_worker *w, long i, uint64_t seed, tafel_record *record,
                        int *move, int *in_step) {
    const soak_job *job = w->job;
    inv_checker *inv = &w->inv;
    tafel_state *state = tafel_state_init(job->game, w->state);
    uint64_t rng = tafel_rng_seed(seed), view_rng = tafel_rng_seed(~seed);
    int views_at = (int)(i % job->every);
    inv_account_start(inv, state);
    for (;;) {
        *move = tafel_state_move_number(state);
        *in_step = 0;
        if (inv_check_position(inv, state)) return 1;
        if (*move % job->every == views_at &&
            (inv_check_views(inv, state, &view_rng) ||
             inv_check_learners(inv, state, &view_rng, 1)))
            return 1;
        *in_step = 1;
        if (inv_step(inv, state, &rng, record)) return 1;
        if (inv->nlegal == 0) break;
        if (inv_check_account(inv, state, &view_rng, *move % job->every == views_at)) return 1;
        if (*move + 1 >= SOAK_MAX_ACTIONS) {
            snprintf(inv->why, sizeof inv->why, "no end after %d actions", *move + 1);
            return 1;
        }
    }
    *move = -1;
    return inv_check_record(inv, record, state);
}

/* Where the check failed, by 0-based action number as tafel replay counts:
** "after action 56 'place 1 0 90'" (the position it led to), "at action 57
** 'draw E'" (the step). */
static void describe(const soak_worker *w, const tafel_record *record, int move,
                     int in_step, char *out, size_t size) {
    if (move < 0)
        snprintf(out, size, "at the end, after %d actions", tafel_record_action_count(record));
    else if (in_step)
        snprintf(out, size, "at action %d '%s'", move, w->inv.text[0] ? w->inv.text : "?");
    else if (move > 0)
        snprintf(out, size, "after action %d '%s'", move - 1,
                 tafel_record_action(record, move - 1));
    else snprintf(out, size, "at the initial state");
}

/* Under the lock: keep game i's failure and record (the job owns it now)
** if it is the lowest failed game so far. */
static void keep_failure(soak_job *job, long i, uint64_t seed, const char *where,
                         const char *why, tafel_record *record) {
    if (job->failed >= 0 && job->failed < i) {
        tafel_record_free(record);
        return;
    }
    tafel_record_free(job->failed_record);
    job->failed = i;
    job->failed_record = record;
    job->limit = i + 1;
    snprintf(job->failure, sizeof job->failure, "game %ld (seed %llu), %s: %s", i,
             (unsigned long long)seed, where, why);
}

/* Play game i; under the lock, count it or keep its failure. */
static void run_game(soak_worker *w, long i) {
    soak_job *job = w->job;
    uint64_t seed = cli_mix(job->seed, (uint64_t)i);
    tafel_record *record = new_record(job, seed);
    int move = 0, in_step = 0, failed = 1;
    long long actions = 0;
    char at[160] = "at the start";
    if (!record) snprintf(w->inv.why, sizeof w->inv.why, "out of memory");
    else failed = play_checked(w, i, seed, record, &move, &in_step);
    if (record) actions = tafel_state_move_number(w->state);
    if (failed && record) describe(w, record, move, in_step, at, sizeof at);
    pthread_mutex_lock(&job->lock);
    if (failed) keep_failure(job, i, seed, at, w->inv.why, record);
    else tafel_record_free(record);
    job->done++;
    job->actions += actions;
    pthread_mutex_unlock(&job->lock);
}

/* Under the lock, now and then: the bar, the time left in its note. */
static void show_progress(soak_job *job) {
    double now = cli_now();
    if (now - job->drawn < SOAK_PROGRESS_SECONDS) return;
    job->drawn = now;
    double elapsed = now - job->started;
    long left = job->limit - job->done;
    long seconds = job->done ? (long)(elapsed / (double)job->done * (double)left) : 0;
    char note[48];
    if (seconds >= 3600)
        snprintf(note, sizeof note, "%ldh%02ldm left", seconds / 3600, seconds / 60 % 60);
    else snprintf(note, sizeof note, "%ldm%02lds left", seconds / 60, seconds % 60);
    cli_progress(job->done, job->limit, job->started, job->done ? note : NULL);
}

static void *worker(void *arg) {
    soak_worker *w = arg;
    soak_job *job = w->job;
    for (;;) {
        pthread_mutex_lock(&job->lock);
        show_progress(job);
        long i = job->next < job->limit ? job->next++ : -1;
        pthread_mutex_unlock(&job->lock);
        if (i < 0) return NULL;
        run_game(w, i);
    }
}

/* Run the workers: threads - 1 started, and this thread.  0, or 1 when
** a worker could not be set up. */
static int run_workers(soak_job *job, int threads) {
    soak_worker *workers = calloc((size_t)threads, sizeof *workers);
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    int ready = 0, started = 0, rc = 0;
    while (workers && ids && ready < threads) {
        soak_worker *w = &workers[ready];
        w->job = job;
        w->state = tafel_state_new(job->game);
        if (!w->state || inv_init(&w->inv, job->game)) break;
        ready++;
    }
    if (ready < threads) {
        fprintf(stderr, "tafel soak: out of memory\n");
        rc = 1;
    }
    while (!rc && started + 1 < threads &&
           pthread_create(&ids[started], NULL, worker, &workers[started + 1]) == 0)
        started++;
    if (!rc) worker(&workers[0]);
    for (int t = 0; t < started; t++) pthread_join(ids[t], NULL);
    cli_progress_done();
    for (int t = 0; workers && t < threads; t++) {
        inv_free(&workers[t].inv);
        tafel_state_free(workers[t].state);
    }
    free(workers);
    free(ids);
    return rc;
}

static void report(const soak_job *job, int threads, double seconds) {
    double games = (double)job->done, actions = (double)job->actions;
    printf("%s: %ld game%s, %lld actions, %.1f s, 0 failures\n",
           tafel_game_string(job->game), job->done, job->done == 1 ? "" : "s", job->actions,
           seconds);
    printf("per game %.1f actions, %.3f ms; %.2f us an action (seed %llu, %d thread%s, "
           "views checked every %d action%s)\n", actions / games, 1000 * seconds / games,
           actions > 0 ? 1e6 * seconds / actions : 0.0, (unsigned long long)job->seed, threads,
           threads == 1 ? "" : "s", job->every, job->every == 1 ? "" : "s");
}

/* The failure: what broke, where, and its record written to out_path. */
static int report_failure(const soak_job *job, const char *out_path) {
    fprintf(stderr, "tafel soak: %s: FAILED %s\n", tafel_game_string(job->game), job->failure);
    if (job->failed > 0)
        fprintf(stderr, "tafel soak: games 0..%ld before it passed every check\n",
                job->failed - 1);
    if (job->failed_record && !cli_write_record(job->failed_record, out_path))
        fprintf(stderr, "tafel soak: its record, to the failed check, is in %s "
                "('tafel replay %s' shows the position)\n", out_path, out_path);
    return 1;
}

int cli_soak(const cli_command *cmd, int argc, char **argv) {
    const char *game_text = "carcassonne", *games_text = "1000", *seed_text = "1";
    const char *threads_text = "1", *every_text = "1", *out_path = "soak-failure.json";
    const cli_option options[] = {
        {"--games", 1, &games_text}, {"--seed", 1, &seed_text},
        {"--threads", 1, &threads_text}, {"--every", 1, &every_text},
        {"--out", 1, &out_path},
    };
    int rc = cli_parse(cmd, argc, argv, options, 5, &game_text, 1);
    if (rc != CLI_CONTINUE) return rc;
    soak_job job = {.failed = -1};
    int games, threads;
    if (cli_int(games_text, "--games", 1, 1000000000, &games) ||
        cli_uint64(seed_text, "--seed", &job.seed) ||
        cli_int(threads_text, "--threads", 1, 256, &threads) ||
        cli_int(every_text, "--every", 1, SOAK_MAX_ACTIONS, &job.every))
        return CLI_USAGE;
    tafel_game *game;
    if (cli_load_game(game_text, 0, &game)) return CLI_USAGE;
    job.game = game;
    job.limit = games;
    job.started = cli_now();
    pthread_mutex_init(&job.lock, NULL);
    rc = run_workers(&job, threads);
    double seconds = cli_now() - job.started;
    pthread_mutex_destroy(&job.lock);
    if (!rc && job.failed >= 0) rc = report_failure(&job, out_path);
    else if (!rc) report(&job, threads, seconds);
    tafel_record_free(job.failed_record);
    tafel_game_free(game);
    return rc;
}
