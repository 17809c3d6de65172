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
** its result in slot i % window of a ring (SIM_WINDOW slots on one
** machine).  Finished games are counted strictly in game order (records
** written, the statistics and the SPRT updated), so the results, the
** records and the point where the SPRT stops are the same for any number of
** threads.  Counting frees the slot: memory does not grow with --games (up
** to 10^9), and a worker waits rather than start a game a window past the
** oldest one not yet counted.  Once the SPRT decides, no new game starts
** and games past the deciding unit are played out but not counted.
**
** Whoever plays a game, it is counted here: sim_mpi.c's rank 0 feeds the
** results of other MPI ranks through sim_finish, and sim_resume.c those
** read back from an interrupted run's records, so neither changes a sum.
*/
#include "sim.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

void sim_forfeit(sim_result *res, const tafel_state *state, int seat, const char *reason) {
    res->forfeit = seat + 1;
    snprintf(res->reason, sizeof res->reason, "%s", reason);
    res->nwinners = cli_winners(state, seat, res->winners);
}

/* What "equal time a move" means when the machine is shared: the CPU time
** this thread used, which other processes do not lengthen as they do the
** wall clock's. */
static double thread_cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Play game i to the end with the seated bots (ext[seat] for a program),
** or until a program forfeits it. */
static int play_game(const sim_job *job, long i, tafel_bot **bots, extbot **ext,
                     tafel_state *state, sim_result *res, tafel_error *err) {
    uint64_t rng = tafel_rng_seed(chance_seed(job, i));
    tafel_record *record = new_record(job, i);
    int rc = job->want_json && !record ? TAFEL_ENOMEM : TAFEL_OK;
    int players = tafel_state_players(state);
    for (int seat; !rc && !res->forfeit &&
                   (seat = tafel_state_current(state)) != TAFEL_TERMINAL;) {
        tafel_action a;
        char reason[EXTBOT_REASON_MAX];
        if (seat >= 0 && ext[seat]) {
            if (extbot_choose(ext[seat], state, &a, reason, sizeof reason)) {
                sim_forfeit(res, state, seat, reason);
                break;
            }
        } else {
            double wall = cli_now(), cpu = thread_cpu_now();
            rc = cli_choose(state, seat, bots, &rng, NULL, 0, &a, err);
            if (seat >= 0) {
                res->decisions[seat]++;
                res->think_wall[seat] += cli_now() - wall;
                res->think_cpu[seat] += thread_cpu_now() - cpu;
            }
        }
        if (!rc && record) rc = tafel_record_push(record, state, a);
        for (int k = 0; !rc && k < players; k++)
            if (ext[k]) extbot_seen(ext[k], state, a);
        if (!rc) rc = tafel_state_apply(state, a, err);
    }
    if (!rc && !res->forfeit) res->nwinners = tafel_state_winners(state, res->winners);
    for (int k = 0; !rc && k < players; k++)
        if (ext[k])
            extbot_game_over(ext[k], state, res->winners, res->nwinners, res->forfeit - 1,
                             res->reason);
    if (!rc) {
        tafel_state_scores(state, res->scores);
        res->length = tafel_state_move_number(state);
    }
    if (!rc && record && res->forfeit)
        rc = tafel_record_set_forfeit(record, res->forfeit - 1, res->reason);
    if (!rc && record)
        rc = tafel_record_set_result(record, players, res->scores, res->nwinners,
                                     res->winners);
    if (!rc && record && !(res->json = tafel_record_to_json(record)))
        rc = TAFEL_ENOMEM;
    tafel_record_free(record);
    return rc;
}

/* Seat the bots of game i, play it, and fill its result.  programs[b] is
** this thread's program for bot b when b is an external bot. */
static void run_game(const sim_job *job, long i, sim_programs *programs,
                     sim_result *res) {
    tafel_bot *bots[TAFEL_MAX_PLAYERS] = {0};
    extbot *ext[TAFEL_MAX_PLAYERS] = {0};
    tafel_error err = {0, "out of memory"};
    tafel_state *state = tafel_state_new(job->game);
    int rc = state ? TAFEL_OK : TAFEL_ENOMEM;
    for (int k = 0; !rc && k < job->nbots; k++) {
        int b = (int)((k + i) % job->nbots);
        char reason[EXTBOT_REASON_MAX];
        if (!programs->bots[b])
            rc = tafel_bot_new(job->specs[b], job->game, sim_bot_seed(job, i, k), &bots[k],
                               &err);
        else if (res->forfeit) /* lost already: no program needs to start it */
            continue;
        else if (extbot_new_game(programs->bots[b], job->game, k, sim_bot_seed(job, i, k),
                                 reason, sizeof reason))
            sim_forfeit(res, state, k, reason);
        else
            ext[k] = programs->bots[b];
    }
    if (!rc) rc = play_game(job, i, bots, ext, state, res, &err);
    if (rc) {
        res->failed = 1;
        snprintf(res->error, sizeof res->error, "game %ld: %s", i, err.message);
    }
    for (int k = 0; k < job->nbots; k++) tafel_bot_free(bots[k]);
    tafel_state_free(state);
}

void sim_play(const sim_job *job, long i, sim_programs *programs, sim_result *res) {
    if (job->play) job->play(job, i, programs, res);
    else run_game(job, i, programs, res);
}

uint64_t sim_chance_seed(const sim_job *job, long i) {
    return chance_seed(job, i);
}

const char *sim_seated(const sim_job *job, long i, int k) {
    return job->specs[(k + i) % job->nbots];
}

uint64_t sim_bot_seed(const sim_job *job, long i, int k) {
    return cli_mix(cli_mix(job->seed, (uint64_t)i), (uint64_t)k + 1);
}

/* The seat bot b plays in game i. */
static int seat_of(const sim_job *job, long i, int b) {
    long n = job->nbots;
    return (int)(((b - i) % n + n) % n);
}

/* Bot b's share of the win in game i (1/k for a win shared by k). */
static double win_share(const sim_job *job, const sim_result *res, long i, int b) {
    for (int w = 0; w < res->nwinners; w++)
        if (res->winners[w] == seat_of(job, i, b)) return 1.0 / res->nwinners;
    return 0;
}

/* A tally of bot 1's unit scores, two bots only: 2g + 1 kinds for units of
** g games (g is 1 or 2), the scores 0, 1/2g, ..., 1. */
static stats_tally new_tally(const sim_job *job) {
    return (stats_tally){(int)(2 * unit_games(job) + 1), {0}};
}

/* Under the lock, after a unit is counted: its mean scores into the
** statistics, the LLR, and on a verdict no game counted past this unit. */
static void unit_done(sim_job *job) {
    double g = (double)unit_games(job);
    stats_tally_add(&job->tally, job->unit_score / g);
    stats_sample_add(&job->difference, job->unit_difference / g);
    job->unit_score = job->unit_difference = 0;
    if (!job->sprt.on) return;
    sim_sprt *sprt = &job->sprt;
    sprt->llr = stats_llr(&job->tally, sprt->elo0, sprt->elo1);
    if (stats_sprt_verdict(sprt->llr)) job->limit = job->counted;
}

/* Under the lock: game i's result into the sums of the report. */
static void add_result(sim_job *job, const sim_result *res, long i) {
    if (res->forfeit) {
        int b = (int)((res->forfeit - 1 + i) % job->nbots);
        if (job->all_forfeits++ == 0) {
            job->first_forfeit = i;
            snprintf(job->first_reason, sizeof job->first_reason, "%s", res->reason);
        }
        job->forfeits[b]++;
    }
    for (int b = 0; b < job->nbots; b++) {
        double share = win_share(job, res, i, b), score = res->scores[seat_of(job, i, b)];
        job->wins[b] += share;
        job->unit_share[b] += share;
        if (share == 1) job->outright[b]++;
        else if (share > 0) job->shared[b]++;
        else job->lost[b]++;
        job->score[b] += score;
        int seat = seat_of(job, i, b);
        job->decisions[b] += res->decisions[seat];
        job->think_wall[b] += res->think_wall[seat];
        job->think_cpu[b] += res->think_cpu[seat];
        if (job->scores[b].n == 0 || score < job->low[b]) job->low[b] = score;
        if (job->scores[b].n == 0 || score > job->high[b]) job->high[b] = score;
        stats_sample_add(&job->scores[b], score);
    }
    job->length += res->length;
    int last = (i + 1) % unit_games(job) == 0; /* of its unit */
    for (int b = 0; last && b < job->nbots; b++) {
        stats_sample_add(&job->shares[b], job->unit_share[b] / (double)unit_games(job));
        job->unit_share[b] = 0;
    }
    if (job->nbots != 2) return;
    /* bot 1 against bot 2: a win 1, a loss 0, a draw or shared win 1/2 */
    job->unit_score += 0.5 + (win_share(job, res, i, 0) - win_share(job, res, i, 1)) / 2;
    job->unit_difference += res->scores[seat_of(job, i, 0)] - res->scores[seat_of(job, i, 1)];
    if (last) unit_done(job);
}

/* Under the lock: the record of a counted game to --out.  A write that
** fails (a full disk) ends the run: records must not be lost silently. */
static void write_record(sim_job *job, const char *json) {
    if (fprintf(job->out, "%s\n", json) < 0 || ferror(job->out)) {
        snprintf(job->error, sizeof job->error, "%s: cannot write: %s", job->out_path,
                 strerror(errno ? errno : EIO));
        job->limit = job->counted;
    }
}

sim_result *sim_slot(sim_job *job, long i) {
    return &job->results[i % job->window];
}

/* Under the lock: count every finished game that is next in order, writing
** its record and freeing its slot.  A failed game ends the run. */
static void count_ready(sim_job *job) {
    while (job->counted < job->limit && sim_slot(job, job->counted)->finished) {
        long i = job->counted++;
        sim_result *res = sim_slot(job, i);
        if (res->failed) {
            snprintf(job->error, sizeof job->error, "%s", res->error);
            job->limit = job->counted;
        } else if (job->play) {
            job->length += res->length;
        } else {
            if (job->out && res->json) write_record(job, res->json);
            add_result(job, res, i);
        }
        free(res->json);
        memset(res, 0, sizeof *res);
    }
    pthread_cond_broadcast(&job->room);
}

/* This thread's programs of the external bots, kept from game to game. */
void sim_programs_start(const sim_job *job, sim_programs *programs) {
    char why[EXTBOT_REASON_MAX];
    for (int b = 0; b < job->nbots; b++)
        programs->bots[b] = extbot_is_spec(job->specs[b])
                          ? extbot_new(job->specs[b], why, sizeof why) : NULL;
}

void sim_programs_stop(const sim_job *job, sim_programs *programs) {
    for (int b = 0; b < job->nbots; b++) extbot_free(programs->bots[b]);
}

void sim_finish(sim_job *job, long i) {
    sim_slot(job, i)->finished = 1;
    count_ready(job);
    if (job->counted == job->limit) pthread_cond_signal(&job->progress);
}

long sim_take(sim_job *job, long want, long *first) {
    if (job->next >= job->limit) return -1;
    long room = job->window - (job->next - job->counted);
    long n = want < room ? want : room;
    if (n > job->limit - job->next) n = job->limit - job->next;
    if (n <= 0) return 0;
    *first = job->next;
    job->next += n;
    return n;
}

/* A worker: the next game, played in its slot, then counted in order.  It
** waits rather than start a game a window past the oldest not counted. */
static void *worker(void *arg) {
    sim_job *job = arg;
    sim_programs programs;
    sim_programs_start(job, &programs);
    for (;;) {
        long i = -1, n;
        pthread_mutex_lock(&job->lock);
        while ((n = sim_take(job, 1, &i)) == 0)
            pthread_cond_wait(&job->room, &job->lock);
        pthread_mutex_unlock(&job->lock);
        if (n < 0) break;
        sim_play(job, i, &programs, sim_slot(job, i)); /* the slot is this game's alone */
        pthread_mutex_lock(&job->lock);
        sim_finish(job, i);
        pthread_mutex_unlock(&job->lock);
    }
    sim_programs_stop(job, &programs);
    return NULL;
}

int sim_start_workers(sim_job *job, int threads, pthread_t *ids) {
    int started = 0;
    while (started < threads && pthread_create(&ids[started], NULL, worker, job) == 0)
        started++;
    if (started == 0) fprintf(stderr, "%s: cannot start a thread\n", job->name);
    return started;
}

/* "1h02m" or "3m05s": a duration for a person. */
static void format_duration(double seconds, char *out, size_t size) {
    long s = seconds > 0 && seconds < 1e9 ? (long)seconds : 0;
    if (s >= 3600) snprintf(out, size, "%ldh%02ldm", s / 3600, s / 60 % 60);
    else snprintf(out, size, "%ldm%02lds", s / 60, s % 60);
}

/* Under the lock.  On a terminal a bar (done, rate, time left, the LLR),
** redrawn every 0.1 s; otherwise, as in a batch job's log, one line every
** progress_every seconds and one at the end.  The time left assumes every
** remaining game is played: with --sprt it is a bound. */
static void show_progress(sim_job *job, int final) {
    double now = cli_now(), elapsed = now - job->started;
    long played = job->counted - job->resumed;
    double rate = elapsed > 0 ? (double)played / elapsed : 0;
    char left[32], llr[32] = "";
    if (final) snprintf(left, sizeof left, "done");
    else {
        format_duration(rate > 0 ? (double)(job->limit - job->counted) / rate : 0,
                        left, sizeof left);
        strcat(left, " left");
    }
    if (job->sprt.on) snprintf(llr, sizeof llr, ", LLR %+.2f", job->sprt.llr);
    if (job->progress_every < 0) return;
    if (job->progress_every == 0) {
        char note[64];
        if (now - job->drawn < 0.1 && !final) return;
        job->drawn = now;
        snprintf(note, sizeof note, "%s%s", left, llr);
        cli_progress(job->counted, job->limit, job->started, played ? note : NULL);
        return;
    }
    if (now - job->drawn < job->progress_every && !final) return;
    job->drawn = now;
    fprintf(stderr, "%s: %ld/%ld %s, %.1f %s/s, %s%s\n", job->name, job->counted,
            job->limit, job->unit, rate, job->unit, left, llr);
    fflush(stderr);
}

void sim_progress(sim_job *job) {
    show_progress(job, 0);
}

/* A closing line only after progress lines: a short run's log stays quiet. */
void sim_progress_end(sim_job *job) {
    if (job->progress_every > 0 && job->drawn > job->started) show_progress(job, 1);
    else if (job->progress_every == 0) cli_progress_done();
}

/* Start the workers, show progress until all games are counted, join. */
int sim_run_threads(sim_job *job, int threads) {
    pthread_t ids[256];
    int started = sim_start_workers(job, threads, ids);
    if (started == 0) return 1;
    pthread_mutex_lock(&job->lock);
    while (job->counted < job->limit) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000) until.tv_sec++, until.tv_nsec -= 1000000000;
        pthread_cond_timedwait(&job->progress, &job->lock, &until);
        sim_progress(job);
    }
    sim_progress_end(job);
    pthread_mutex_unlock(&job->lock);
    for (int t = 0; t < started; t++) pthread_join(ids[t], NULL);
    return 0;
}

int sim_check_specs(const sim_job *job, int programs) {
    const char *const *specs = job->specs;
    for (int k = 0; k < job->nbots; k++) {
        tafel_bot *bot;
        tafel_error err;
        if (!strcmp(specs[k], "human")) {
            fprintf(stderr, "%s: 'human' cannot play here; use bots\n", job->name);
            return CLI_USAGE;
        }
        if (extbot_is_spec(specs[k]) && !programs) {
            fprintf(stderr, "%s: '%s': only built-in bots play here\n", job->name,
                    cli_printable(specs[k]));
            return CLI_USAGE;
        }
        if (extbot_is_spec(specs[k])) {
            if (cli_check_program(specs[k], job->game)) return CLI_USAGE;
            continue;
        }
        if (tafel_bot_new(specs[k], job->game, 0, &bot, &err)) {
            fprintf(stderr, "%s: %s\n", job->name, err.message);
            return CLI_USAGE;
        }
        tafel_bot_free(bot);
    }
    return 0;
}

/* The ring, and --out opened: anew, or with --resume after the records it
** already holds, which are counted first. */
static int prepare(sim_job *job) {
    job->results = calloc((size_t)job->window, sizeof *job->results);
    if (!job->results) {
        fprintf(stderr, "tafel sim: out of memory\n");
        return 1;
    }
    job->limit = job->games;
    job->tally = new_tally(job);
    if (job->resume && sim_resume(job)) return 1;
    const char *path = job->out_path;
    if (path && !(job->out = fopen(path, job->resume ? "a" : "w"))) {
        fprintf(stderr, "tafel sim: cannot write '%s': %s\n", path, strerror(errno));
        return 1;
    }
    return 0;
}

/* Play (here, or over the MPI ranks), close --out, report. */
static int simulate(sim_job *job, int threads, const sim_mpi *mpi) {
    int rc = prepare(job);
    if (mpi->size > 1) rc = sim_mpi_go(mpi, rc, threads);
    job->started = job->drawn = cli_now();
    if (!rc) rc = mpi->size > 1 ? sim_mpi_lead(job, threads, mpi) : sim_run_threads(job, threads);
    double seconds = cli_now() - job->started;
    const char *path = job->out_path;
    if (!rc && job->error[0]) {
        fprintf(stderr, "tafel sim: %s\n", job->error);
        rc = 1;
    }
    /* the last buffer is written by the close, whose failure loses records too */
    if (job->out && (fflush(job->out) != 0 || ferror(job->out)) && !rc) {
        fprintf(stderr, "tafel sim: %s: cannot write: %s\n", path, strerror(errno));
        rc = 1;
    }
    if (job->out && fclose(job->out) != 0 && !rc) {
        fprintf(stderr, "tafel sim: %s: cannot write: %s\n", path, strerror(errno));
        rc = 1;
    }
    if (!rc) rc = sim_report(job, seconds);
    for (long i = 0; job->results && i < job->window; i++)
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

/* The command on one rank: every rank parses and checks the same options,
** so a bad one stops them all (rank 0 alone says why); then rank 0 leads. */
static int sim_command(const cli_command *cmd, int argc, char **argv, sim_mpi *mpi) {
    const char *game_text = "carcassonne", *players = "greedy,random";
    const char *games_text = NULL, *threads_text = "1", *seed_text = "1";
    const char *out_path = NULL, *paired = NULL, *sprt_text = NULL;
    const char *resume = NULL, *progress_text = NULL, *json = NULL;
    const cli_option options[] = {
        {"--players", 1, &players}, {"--games", 1, &games_text},
        {"--threads", 1, &threads_text}, {"--seed", 1, &seed_text},
        {"--out", 1, &out_path}, {"--paired", 0, &paired},
        {"--sprt", 1, &sprt_text}, {"--resume", 0, &resume},
        {"--progress", 1, &progress_text}, {"--json", 0, &json},
    };
    int rc = cli_parse(cmd, argc, argv, options, 10, &game_text, 1);
    if (rc != CLI_CONTINUE) return rc;
    sim_job job = {.name = "tafel sim", .unit = "games"};
    char storage[TAFEL_MAX_PLAYERS][CLI_NAME_MAX];
    const char *specs[TAFEL_MAX_PLAYERS];
    int games, threads;
    if (!games_text) games_text = sprt_text ? "100000" : "100";
    job.nbots = cli_split_players(players, storage, specs);
    if (job.nbots < 0 || cli_int(games_text, "--games", 1, 1000000000, &games) ||
        cli_int(threads_text, "--threads", 1, 256, &threads) ||
        cli_uint64(seed_text, "--seed", &job.seed) ||
        (progress_text &&
         cli_int(progress_text, "--progress", 0, 86400, &job.progress_every)))
        return CLI_USAGE;
    if (resume && !out_path) {
        fprintf(stderr, "tafel sim: --resume reads back the records of --out FILE; "
                "give --out\n");
        return CLI_USAGE;
    }
    /* a bar on a terminal; a batch job's log gets a line a minute */
    if (!progress_text) job.progress_every = isatty(STDERR_FILENO) ? 0 : 60;
    else if (job.progress_every == 0) job.progress_every = -1;
    job.games = games;
    job.paired = paired != NULL;
    if (check_design(&job, sprt_text)) return CLI_USAGE;
    tafel_game *game;
    if (cli_load_game(game_text, job.nbots, &game)) return CLI_USAGE;
    job.game = game;
    job.specs = specs;
    job.want_json = out_path != NULL;
    job.report_json = json != NULL;
    job.out_path = out_path;
    job.resume = resume != NULL;
    rc = sim_job_run(&job, threads, mpi, 1, simulate);
    tafel_game_free(game);
    return rc;
}

int sim_job_run(sim_job *job, int threads, sim_mpi *mpi, int programs,
                int (*lead)(sim_job *job, int threads, const sim_mpi *mpi)) {
    job->window = mpi->size > 1 ? sim_mpi_window(mpi, threads) : SIM_WINDOW;
    int rc = sim_check_specs(job, programs);
    sim_mpi_speak(mpi);
    if (rc) return rc;
    pthread_mutex_init(&job->lock, NULL);
    pthread_cond_init(&job->progress, NULL);
    pthread_cond_init(&job->room, NULL);
    if (mpi->rank == 0) rc = lead(job, threads, mpi);
    else rc = sim_mpi_follow(job, threads, mpi);
    pthread_cond_destroy(&job->room);
    pthread_cond_destroy(&job->progress);
    pthread_mutex_destroy(&job->lock);
    return rc;
}

int cli_sim(const cli_command *cmd, int argc, char **argv) {
    return sim_mpi_command(cmd, argc, argv, sim_command);
}
