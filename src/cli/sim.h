/*
** sim.h -- what the files of `tafel sim` share: sim.c (options, playing a
** game, counting results in game order), sim_resume.c (reading
** back the records of an interrupted run), sim_mpi.c (the same run spread
** over MPI ranks) and sim_report.c (the report, text or JSON).
**
** One process counts: every result, wherever it was played, goes through
** sim_finish on the process that holds the job's ring, in game order, so
** sums, Welford updates and the SPRT's stopping point are those of a run on
** one thread.
*/
#ifndef TF_CLI_SIM_H
#define TF_CLI_SIM_H

#include "cli.h"
#include "extbot.h"
#include "stats.h"

#include <pthread.h>
#include <stddef.h>

/* The outcome of one game.  sim_mpi.c sends it between ranks as raw bytes
** (all ranks run the same binary), with json after it: a field added here
** travels without further code, but must not be a pointer. */
typedef struct sim_result {
    double scores[TAFEL_MAX_PLAYERS]; /* by seat */
    int winners[TAFEL_MAX_PLAYERS], nwinners;
    int length, finished, failed;
    int forfeit; /* the seat that forfeited, plus 1; 0: none */
    /* By seat: the decisions its bot took, and the time they took: wall
    ** clock, and the CPU time of the thread that played (a built-in bot
    ** thinks in it; an external bot's is its own process's, not counted) */
    long decisions[TAFEL_MAX_PLAYERS];
    double think_wall[TAFEL_MAX_PLAYERS], think_cpu[TAFEL_MAX_PLAYERS];
    char *json; /* the record, with --out */
    char error[300];
    char reason[EXTBOT_REASON_MAX]; /* of the forfeit */
} sim_result;

/* Games in flight or finished but not yet counted, at most, on one
** machine; sim_mpi.c widens the window for more ranks. */
#define SIM_WINDOW 1024

/* The sequential probability ratio test of --sprt ELO0,ELO1. */
typedef struct sim_sprt {
    int on;
    double elo0, elo1, llr;
} sim_sprt;

struct sim_programs;

typedef struct sim_job {
    const char *name; /* the command, for messages: "tafel sim" */
    const char *unit; /* what a job's item is, in progress lines: "games" */
    /* Another command's item in place of a game (tafel selfplay: a shard of
    ** games), played into res; NULL: sim's games.  Such an item is counted
    ** only as its res->length, summed into length. */
    void (*play)(const struct sim_job *job, long i, struct sim_programs *programs,
                 sim_result *res);
    const void *user; /* what play needs */
    const tafel_game *game;
    const char *const *specs;
    int nbots, want_json, paired;
    int report_json; /* --json: the report as one JSON object */
    uint64_t seed;
    long games; /* the most games to play */
    long window;         /* slots of the ring */
    sim_result *results; /* a ring of window slots, by game number */
    FILE *out;
    const char *out_path;
    sim_sprt sprt;
    int progress_every;  /* seconds between progress lines; 0: a bar; -1: none */
    double started;      /* when play started (cli_now) */
    double drawn;        /* guarded by lock: when progress was last shown */
    int resume;          /* --resume */
    long resumed;        /* games read back from --out by --resume */
    pthread_mutex_t lock;
    pthread_cond_t progress; /* signalled when the last game is counted */
    pthread_cond_t room;     /* signalled when a slot of the ring is freed */
    long next;    /* guarded by lock: the next game to start */
    long limit;   /* guarded by lock: games to count, lowered on a verdict */
    long counted; /* guarded by lock: games counted, in order */
    /* What the report needs, summed as games are counted (under the lock). */
    char error[300];           /* the first failure: a game's or a write's */
    double wins[TAFEL_MAX_PLAYERS], score[TAFEL_MAX_PLAYERS]; /* by bot */
    double length;
    long forfeits[TAFEL_MAX_PLAYERS]; /* by bot */
    long decisions[TAFEL_MAX_PLAYERS]; /* by bot: over the games played, not resumed */
    double think_wall[TAFEL_MAX_PLAYERS], think_cpu[TAFEL_MAX_PLAYERS]; /* by bot, seconds */
    long all_forfeits, first_forfeit; /* the first's game number and reason */
    char first_reason[EXTBOT_REASON_MAX];
    double unit_score, unit_difference; /* sums over the unit being counted */
    long outright[TAFEL_MAX_PLAYERS], shared[TAFEL_MAX_PLAYERS]; /* by bot: games won */
    long lost[TAFEL_MAX_PLAYERS];      /* alone, won sharing, not won */
    stats_sample scores[TAFEL_MAX_PLAYERS]; /* by bot: final scores, by game */
    double low[TAFEL_MAX_PLAYERS], high[TAFEL_MAX_PLAYERS]; /* by bot: of the scores */
    double unit_share[TAFEL_MAX_PLAYERS]; /* by bot: win shares of the unit counted */
    stats_sample shares[TAFEL_MAX_PLAYERS]; /* by bot: mean win share, by unit */
    stats_tally tally;         /* two bots: bot 1's unit scores */
    stats_sample difference;   /* two bots: bot 1's score minus bot 2's, by unit */
} sim_job;

/* --- sim.c ----------------------------------------------------------- */

/* A thread's programs of the external bots (ext:), kept from game to game
** (a program that forfeits is replaced by a fresh one). */
typedef struct sim_programs {
    extbot *bots[TAFEL_MAX_PLAYERS]; /* by bot; NULL for a built-in bot */
} sim_programs;
void sim_programs_start(const sim_job *job, sim_programs *programs);
void sim_programs_stop(const sim_job *job, sim_programs *programs);

/* The seat that forfeited game res, stopped in state (an external bot's
** fault), lost it: the others share the win (cli_winners). */
void sim_forfeit(sim_result *res, const tafel_state *state, int seat, const char *reason);

/* Play game i with its seated bots; res starts zeroed.  Any thread, with
** programs of its own. */
void sim_play(const sim_job *job, long i, sim_programs *programs, sim_result *res);
/* The chance seed of game i (its deal's), as its record holds it. */
uint64_t sim_chance_seed(const sim_job *job, long i);
/* The bot spec in seat k of game i, and the seed of its bot. */
const char *sim_seated(const sim_job *job, long i, int k);
uint64_t sim_bot_seed(const sim_job *job, long i, int k);
/* Every spec of the job makes a bot for its game ("human" cannot play
** here; with programs 0 an external bot cannot either).  Prints what is
** wrong; 0 or 2. */
int sim_check_specs(const sim_job *job, int programs);

/* Under the lock: hand out up to want game numbers from *first on.  0 when
** the ring has no room now; -1 when no game is left to start. */
long sim_take(sim_job *job, long want, long *first);
/* Under the lock: the result in game i's slot is final; count every game
** that is next in order (records, statistics, SPRT) and wake who waits. */
void sim_finish(sim_job *job, long i);
/* Under the lock: the slot of game i. */
sim_result *sim_slot(sim_job *job, long i);

/* Start up to threads workers that take games from the job; how many. */
int sim_start_workers(sim_job *job, int threads, pthread_t *ids);
/* On one process: play every item with threads workers, showing progress
** until all are counted.  0, or 1 when no thread could start. */
int sim_run_threads(sim_job *job, int threads);
/* Under the lock: progress on stderr if due (a bar, or a line every
** progress_every seconds); sim_progress_end after the last. */
void sim_progress(sim_job *job);
void sim_progress_end(sim_job *job);

/* --- sim_report.c ------------------------------------------------------ */

/* The report of a finished run on stdout: text, or with --json one JSON
** object (docs/cluster.md, "The report").  0, or 1 out of memory. */
int sim_report(const sim_job *job, double seconds);

/* --- sim_resume.c ------------------------------------------------------ */

/* The result of game i from its record: the record must be game i's of this
** run (game string, chance seed, seating) and replay to its end.  The one
** place that turns a record into what the statistics count. */
int sim_result_from_record(const sim_job *job, long i, const char *json,
                           sim_result *res, char *why, size_t why_size);
/* --resume: count the complete records of the job's --out file as the
** first games, and cut a partial last line off.  Nothing when the file
** does not exist.  Prints errors; 0 or 1. */
int sim_resume(sim_job *job);

/* --- sim_mpi.c --------------------------------------------------------- */

typedef struct sim_mpi {
    int on;          /* MPI_Init was called: MPI_Finalize is due */
    int rank, size;  /* 0 and 1 without MPI */
    int saved_out, saved_err; /* rank > 0: stdout, stderr while silenced */
    const char *name; /* the command, for messages: "tafel sim" */
} sim_mpi;

/* Before the options: when started by mpirun (or srun), start MPI and on
** ranks past 0 silence stdout and stderr, so that help and usage errors
** appear once.  Without MPI built in, refuse a launch of several ranks.
** 0, or an exit code. */
int sim_mpi_begin(sim_mpi *mpi, const char *name);
/* After the options are checked: ranks past 0 may report errors again. */
void sim_mpi_speak(sim_mpi *mpi);
/* The ring's slots for a run over all ranks: room for every rank's games
** in flight, a few handouts each. */
long sim_mpi_window(const sim_mpi *mpi, int threads);
/* Rank 0 says whether the run starts (rc 0: its output is open); every rank
** returns rank 0's rc.  Rank 0 warns if a rank has fewer CPUs than threads.
** Only with size > 1. */
int sim_mpi_go(const sim_mpi *mpi, int rc, int threads);
/* Rank 0: play with local threads and the other ranks, count everything. */
int sim_mpi_lead(sim_job *job, int threads, const sim_mpi *mpi);
/* Ranks past 0: play the games rank 0 hands out and send it the results. */
int sim_mpi_follow(sim_job *job, int threads, const sim_mpi *mpi);
/* After everything: MPI_Finalize if MPI was started. */
void sim_mpi_end(sim_mpi *mpi);
/* A command that may run over MPI ranks (sim, selfplay): begin, command,
** end; the command's exit code. */
int sim_mpi_command(const cli_command *cmd, int argc, char **argv,
                    int (*command)(const cli_command *cmd, int argc, char **argv,
                                   sim_mpi *mpi));

/* --- sim.c, over the ranks ---------------------------------------------- */

/* Every rank: the ring's size, the specs checked, then rank 0 leads (lead:
** prepare, play, report) and the other ranks follow (sim_mpi_follow).
** programs: whether external bots may play.  0, or an exit code. */
int sim_job_run(sim_job *job, int threads, sim_mpi *mpi, int programs,
                int (*lead)(sim_job *job, int threads, const sim_mpi *mpi));

#endif
