/*
** sim.c -- `tafel sim`: many bot-against-bot games, and their statistics.
**
** Game i depends only on (seed, i): in game i seat k is played by bot
** (k + i) mod n, the bots' seeds are derived from cli_mix(seed, i), and the
** chance rng from cli_mix(seed, d) where d is the game's deal: i itself, or
** with --paired i / n, so that the n games of a deal, one per seat
** rotation, draw the same chance outcomes as far as their play allows.
** A unit, the independent observation of the statistics, is a game, or
** with --paired a deal.
**
** Worker threads take the next game number from a shared counter and store
** its result in slot i.  Finished games are counted strictly in game order
** (records written, the SPRT updated after each unit), so the results, the
** records and the point where the SPRT stops are the same for any number
** of threads.  Once the SPRT decides, no new game starts and games past the
** deciding unit are played out but not counted.
*/
#include "cli.h"
#include "stats.h"

#include <math.h>
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

/* The sequential probability ratio test of --sprt ELO0,ELO1. */
typedef struct sim_sprt {
    int on;
    double elo0, elo1, llr;
    stats_tally tally; /* bot 1's unit scores so far */
} sim_sprt;

typedef struct sim_job {
    const tafel_game *game;
    const char *const *specs;
    int nbots, want_json, paired;
    uint64_t seed;
    long games; /* the most games to play */
    sim_result *results;
    FILE *out;
    sim_sprt sprt;
    pthread_mutex_t lock;
    pthread_cond_t progress; /* signalled when the last game is counted */
    long next;    /* guarded by lock: the next game to start */
    long limit;   /* guarded by lock: games to count, lowered on a verdict */
    long counted; /* guarded by lock: games counted, in order */
} sim_job;

/* Games in a unit: one, or with --paired one per seat rotation. */
static long unit_games(const sim_job *job) {
    return job->paired ? job->nbots : 1;
}

static uint64_t chance_seed(const sim_job *job, long i) {
    return cli_mix(job->seed, (uint64_t)(i / unit_games(job)));
}

static tafel_record *new_record(const sim_job *job, long i) {
    if (!job->want_json) return NULL;
    tafel_record *r = tafel_record_new(tafel_game_string(job->game),
                                       chance_seed(job, i));
    for (int k = 0; r && k < job->nbots; k++)
        tafel_record_set_player(r, k, job->specs[(k + i) % job->nbots]);
    return r;
}

/* Play game i to the end with the seated bots. */
static int play_game(const sim_job *job, long i, tafel_bot **bots,
                     tafel_state *state, sim_result *res, tafel_error *err) {
    uint64_t rng = tafel_rng_seed(chance_seed(job, i));
    tafel_record *record = new_record(job, i);
    int rc = job->want_json && !record ? TAFEL_ENOMEM : TAFEL_OK;
    for (int seat; !rc && (seat = tafel_state_current(state)) != TAFEL_TERMINAL;) {
        tafel_action a;
        rc = cli_choose(state, seat, bots, &rng, NULL, 0, &a, err);
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

/* The seat bot b plays in game i. */
static int seat_of(const sim_job *job, long i, int b) {
    long n = job->nbots;
    return (int)(((b - i) % n + n) % n);
}

/* Bot b's share of the win in game i (1/k for a win shared by k). */
static double win_share(const sim_job *job, long i, int b) {
    const sim_result *res = &job->results[i];
    for (int w = 0; w < res->nwinners; w++)
        if (res->winners[w] == seat_of(job, i, b)) return 1.0 / res->nwinners;
    return 0;
}

/* Bot 1's score against bot 2 in game i: a win 1, a loss 0, and a draw or
** a shared win 1/2. */
static double game_score(const sim_job *job, long i) {
    return 0.5 + (win_share(job, i, 0) - win_share(job, i, 1)) / 2;
}

/* Bot 1's score minus bot 2's in game i. */
static double score_difference(const sim_job *job, long i) {
    const double *scores = job->results[i].scores;
    return scores[seat_of(job, i, 0)] - scores[seat_of(job, i, 1)];
}

/* The mean of of() over the games of unit u. */
static double unit_mean(const sim_job *job, long u,
                        double (*of)(const sim_job *, long)) {
    long g = unit_games(job);
    double sum = 0;
    for (long i = u * g; i < (u + 1) * g; i++) sum += of(job, i);
    return sum / (double)g;
}

/* A tally of bot 1's unit scores, two bots only: 2g + 1 kinds for units of
** g games (g is 1 or 2), the scores 0, 1/2g, ..., 1. */
static stats_tally new_tally(const sim_job *job) {
    return (stats_tally){(int)(2 * unit_games(job) + 1), {0}};
}

/* Under the lock, after unit u is counted: update the LLR, and on a
** verdict count no game past this unit. */
static void sprt_update(sim_job *job, long u) {
    sim_sprt *sprt = &job->sprt;
    stats_tally_add(&sprt->tally, unit_mean(job, u, game_score));
    sprt->llr = stats_llr(&sprt->tally, sprt->elo0, sprt->elo1);
    if (stats_sprt_verdict(sprt->llr)) job->limit = job->counted;
}

/* Under the lock: count every finished game that is next in order, writing
** its record.  A failed game ends the run. */
static void count_ready(sim_job *job) {
    while (job->counted < job->limit && job->results[job->counted].finished) {
        sim_result *res = &job->results[job->counted++];
        if (job->out && res->json) fprintf(job->out, "%s\n", res->json);
        free(res->json);
        res->json = NULL;
        if (res->failed) job->limit = job->counted;
        else if (job->sprt.on && job->counted % unit_games(job) == 0)
            sprt_update(job, job->counted / unit_games(job) - 1);
    }
}

static void *worker(void *arg) {
    sim_job *job = arg;
    for (;;) {
        pthread_mutex_lock(&job->lock);
        long i = job->next < job->limit ? job->next++ : -1;
        pthread_mutex_unlock(&job->lock);
        if (i < 0) return NULL;
        run_game(job, i, &job->results[i]);
        pthread_mutex_lock(&job->lock);
        job->results[i].finished = 1;
        count_ready(job);
        if (job->counted == job->limit) pthread_cond_signal(&job->progress);
        pthread_mutex_unlock(&job->lock);
    }
}

/* Under the lock: the progress bar, with the LLR when the SPRT runs. */
static void show_progress(const sim_job *job, double started) {
    char note[32];
    snprintf(note, sizeof note, "LLR %+.2f", job->sprt.llr);
    cli_progress(job->counted, job->limit, started, job->sprt.on ? note : NULL);
}

/* Start the workers, draw progress until all games are counted, join. */
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
    while (job->counted < job->limit) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000) until.tv_sec++, until.tv_nsec -= 1000000000;
        pthread_cond_timedwait(&job->progress, &job->lock, &until);
        show_progress(job, t0);
    }
    pthread_mutex_unlock(&job->lock);
    for (int t = 0; t < started; t++) pthread_join(ids[t], NULL);
    cli_progress_done();
    return 0;
}

static void print_header(const sim_job *job, long n) {
    printf("%s: %ld games", tafel_game_string(job->game), n);
    if (job->paired)
        printf(" = %ld deals x %d seatings (intervals over deals)",
               n / unit_games(job), job->nbots);
    printf(", seed %llu\n", (unsigned long long)job->seed);
}

/* Each bot's win rate, its Wilson interval over units, its mean score. */
static void print_bots(const sim_job *job, long n) {
    printf("   %-20s %8s   %-17s %10s\n", "bot", "win rate", "95% CI", "mean score");
    for (int b = 0; b < job->nbots; b++) {
        double wins = 0, score = 0;
        for (long i = 0; i < n; i++) {
            wins += win_share(job, i, b);
            score += job->results[i].scores[seat_of(job, i, b)];
        }
        double rate = wins / (double)n;
        stats_interval ci = stats_wilson(rate, (double)(n / unit_games(job)));
        printf("%-2d %-20s %7.1f%%   [%5.1f%%, %5.1f%%]  %10.1f\n", b + 1,
               job->specs[b], 100 * rate, 100 * ci.lo, 100 * ci.hi,
               score / (double)n);
    }
}

/* Two bots: the score difference and the Elo difference, bot 1 - bot 2. */
static void print_comparison(const stats_tally *tally,
                             const stats_sample *difference) {
    stats_interval d = stats_mean_interval(difference);
    stats_interval score = stats_score_interval(tally);
    double mean = stats_tally_mean(tally);
    stats_interval elo = stats_elo_interval(score);
    printf("   %-20s %+8.1f   [%+.1f, %+.1f]\n", "score difference 1-2",
           difference->mean, d.lo, d.hi);
    printf("   %-20s %+8.1f   [%+.1f, %+.1f]  from 1's score %.1f%% (draws 1/2)\n",
           "Elo difference 1-2", stats_elo(mean), elo.lo, elo.hi, 100 * mean);
}

static void print_sprt(const sim_job *job, const stats_tally *tally, long n) {
    const sim_sprt *sprt = &job->sprt;
    double llr = stats_llr(tally, sprt->elo0, sprt->elo1);
    int verdict = stats_sprt_verdict(llr);
    const char *a = job->specs[0], *b = job->specs[1];
    printf("SPRT elo0 %g, elo1 %g: LLR %+.2f (bounds %+.2f, %+.2f) after %ld games\n",
           sprt->elo0, sprt->elo1, llr, STATS_SPRT_LOWER, STATS_SPRT_UPPER, n);
    if (verdict > 0)
        printf("H1 accepted: %s - %s >= %g Elo rather than <= %g "
               "(alpha = beta = 5%%)\n", a, b, sprt->elo1, sprt->elo0);
    else if (verdict < 0)
        printf("H0 accepted: %s - %s <= %g Elo rather than >= %g "
               "(alpha = beta = 5%%)\n", a, b, sprt->elo0, sprt->elo1);
    else
        printf("no verdict: the LLR stayed between the bounds; play more games\n");
}

static void report(const sim_job *job, double seconds) {
    long n = job->limit, units = n / unit_games(job);
    double length = 0;
    for (long i = 0; i < n; i++) length += job->results[i].length;
    print_header(job, n);
    print_bots(job, n);
    if (job->nbots == 2) {
        stats_tally tally = new_tally(job);
        stats_sample difference = {0};
        for (long u = 0; u < units; u++) {
            stats_tally_add(&tally, unit_mean(job, u, game_score));
            stats_sample_add(&difference, unit_mean(job, u, score_difference));
        }
        print_comparison(&tally, &difference);
        if (job->sprt.on) print_sprt(job, &tally, n);
    }
    printf("mean game length %.1f actions, %.1f games/s\n", length / (double)n,
           seconds > 0 ? (double)n / seconds : 0.0);
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
    job->limit = job->games;
    if (job->sprt.on) job->sprt.tally = new_tally(job);
    double t0 = cli_now();
    if (!rc) rc = run_all(job, threads);
    double seconds = cli_now() - t0;
    for (long i = 0; !rc && i < job->limit; i++)
        if (job->results[i].failed) {
            fprintf(stderr, "tafel sim: %s\n", job->results[i].error);
            rc = 1;
        }
    if (!rc) report(job, seconds);
    if (job->out && fclose(job->out) != 0) {
        perror(out_path);
        rc = 1;
    }
    for (long i = 0; job->results && i < job->games; i++)
        free(job->results[i].json); /* games played past a verdict */
    free(job->results);
    return rc;
}

/* What is wrong with "--sprt ELO0,ELO1", or NULL. */
static const char *sprt_problem(const char *text, double *elo0, double *elo1) {
    const char *two = "give two Elo differences ELO0,ELO1, such as 0,10";
    char *comma, *end;
    *elo0 = strtod(text, &comma);
    if (comma == text || *comma != ',') return two;
    *elo1 = strtod(comma + 1, &end);
    if (end == comma + 1 || *end) return two;
    if (!(fabs(*elo0) <= 1000 && fabs(*elo1) <= 1000))
        return "Elo differences must be within -1000..1000";
    if (*elo0 >= *elo1) return "ELO0 must be less than ELO1";
    return NULL;
}

/* --sprt (two bots) and --paired (whole deals); prints what is wrong. */
static int check_design(sim_job *job, const char *sprt_text) {
    sim_sprt *sprt = &job->sprt;
    const char *problem = NULL;
    if (sprt_text) {
        sprt->on = 1;
        problem = sprt_problem(sprt_text, &sprt->elo0, &sprt->elo1);
    }
    if (problem) {
        fprintf(stderr, "tafel sim: --sprt '%s': %s\n", sprt_text, problem);
        return CLI_USAGE;
    }
    if (sprt->on && job->nbots != 2) {
        fprintf(stderr, "tafel sim: --sprt compares two bots, but --players "
                "names %d\n", job->nbots);
        return CLI_USAGE;
    }
    if (job->paired && job->games % job->nbots) {
        fprintf(stderr, "tafel sim: --paired plays every deal once in each of "
                "the %d seatings, so --games must be a multiple of %d, not %ld\n",
                job->nbots, job->nbots, job->games);
        return CLI_USAGE;
    }
    return 0;
}

int cli_sim(const cli_command *cmd, int argc, char **argv) {
    const char *game_text = "carcassonne", *players = "greedy,random";
    const char *games_text = NULL, *threads_text = "1", *seed_text = "1";
    const char *out_path = NULL, *paired = NULL, *sprt_text = NULL;
    const cli_option options[] = {
        {"--players", 1, &players}, {"--games", 1, &games_text},
        {"--threads", 1, &threads_text}, {"--seed", 1, &seed_text},
        {"--out", 1, &out_path}, {"--paired", 0, &paired},
        {"--sprt", 1, &sprt_text},
    };
    int rc = cli_parse(cmd, argc, argv, options, 7, &game_text, 1);
    if (rc != CLI_CONTINUE) return rc;
    sim_job job = {0};
    char storage[TAFEL_MAX_PLAYERS][CLI_NAME_MAX];
    const char *specs[TAFEL_MAX_PLAYERS];
    int games, threads;
    if (!games_text) games_text = sprt_text ? "100000" : "100";
    job.nbots = cli_split_players(players, storage, specs);
    if (job.nbots < 0 || cli_int(games_text, "--games", 1, 1000000000, &games) ||
        cli_int(threads_text, "--threads", 1, 256, &threads) ||
        cli_uint64(seed_text, "--seed", &job.seed))
        return CLI_USAGE;
    job.games = games;
    job.paired = paired != NULL;
    if (check_design(&job, sprt_text)) return CLI_USAGE;
    tafel_game *game;
    if (cli_load_game(game_text, job.nbots, &game)) return CLI_USAGE;
    job.game = game;
    job.specs = specs;
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
