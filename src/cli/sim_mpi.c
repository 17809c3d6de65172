/*
** sim_mpi.c -- `tafel sim` over MPI ranks: `mpirun -np N tafel sim ...`.
**
** Rank 0 leads: it holds the ring of results and counts every game, in game
** order, with sim.c's code, while its own --threads play games too.  The
** other ranks follow: their threads play the games rank 0 hands out, and
** their main thread sends the results back.  Game i depends only on (seed,
** i), wherever it is played, and all counting happens on rank 0 in game
** order, so the report, the records file and the game at which --sprt stops
** are exactly those of one process with the same --seed, for any number of
** ranks and threads.  Only the counting is serial; the playing, the costly
** part, is spread.
**
** Rank 0 hands out games as a work queue: a follower asks for a number of
** games (enough for about SIM_MPI_ASK_SECONDS of its measured speed, so a
** slow bot asks for few and a fast one for many) and gets a range of game
** numbers.  The ring bounds how far handouts run ahead of the oldest game
** not counted; an ask that finds no room waits on rank 0 until there is.
** Once no game is left to start (all handed out, or a verdict, a failure or
** a write error lowered the limit), an ask is answered "stop, and drop
** games from L on": the follower finishes what it has below L, sends it,
** and says it is done.  Rank 0 returns when every game is counted and every
** follower is done, so no message is left unmatched at MPI_Finalize.
**
** Messages, all in MPI_COMM_WORLD:
**   follower -> 0   TAG_ASK      one long: games wanted (one ask at a time)
**                   TAG_RESULTS  bytes: per game, its number (long), its
**                                sim_result as raw bytes, the record's
**                                length (uint32) and the record
**                   TAG_DONE     nothing: stopped, every result sent
**   0 -> follower   TAG_GIVE     two longs: first game, count; count 0 is
**                                stop, first then the limit
** Only each rank's main thread calls MPI (MPI_THREAD_FUNNELED).  Neither
** side blocks in MPI waiting for the other: OpenMPI's blocking calls spin
** on the CPU, which would take a core from the game threads, so the main
** threads poll with MPI_Iprobe and sleep a little when nothing came.
**
** Without MPI (no mpicc at build time) this file only refuses a launch of
** several ranks, which would otherwise run the whole job N times.
*/
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "sim.h"

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int sim_mpi_command(const cli_command *cmd, int argc, char **argv,
                    int (*command)(const cli_command *cmd, int argc, char **argv,
                                   sim_mpi *mpi)) {
    sim_mpi mpi;
    char name[64];
    snprintf(name, sizeof name, "tafel %s", cmd->name);
    int rc = sim_mpi_begin(&mpi, name);
    if (!rc) rc = command(cmd, argc, argv, &mpi);
    sim_mpi_end(&mpi);
    return rc;
}

/* Was this process started by an MPI launcher (mpirun, or srun with PMI)? */
static int launched_by_mpi(void) {
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

#ifndef TAFEL_MPI

int sim_mpi_begin(sim_mpi *mpi, const char *name) {
    *mpi = (sim_mpi){0, 0, 1, -1, -1, name};
    if (!launched_by_mpi()) return 0;
    const char *size = getenv("OMPI_COMM_WORLD_SIZE");
    if (!size) size = getenv("PMI_SIZE");
    if (size && !strcmp(size, "1")) return 0; /* mpirun -np 1: one plain run */
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    if (!rank) rank = getenv("PMIX_RANK");
    if (!rank) rank = getenv("PMI_RANK");
    if (!rank || !strcmp(rank, "0"))
        fprintf(stderr, "%s: started as one of several MPI ranks, but this "
                "tafel was built without MPI (install libopenmpi-dev and build "
                "again), so each rank would play the whole run\n", name);
    return 1;
}

void sim_mpi_speak(sim_mpi *mpi) {
    (void)mpi;
}

long sim_mpi_window(const sim_mpi *mpi, int threads) {
    (void)mpi, (void)threads;
    return SIM_WINDOW;
}

int sim_mpi_go(const sim_mpi *mpi, int rc, int threads) {
    (void)mpi, (void)threads;
    return rc;
}

int sim_mpi_lead(sim_job *job, int threads, const sim_mpi *mpi) {
    (void)job, (void)threads, (void)mpi;
    return 1;
}

int sim_mpi_follow(sim_job *job, int threads, const sim_mpi *mpi) {
    (void)job, (void)threads, (void)mpi;
    return 1;
}

void sim_mpi_end(sim_mpi *mpi) {
    (void)mpi;
}

#else

#include <mpi.h>

enum { TAG_ASK = 1, TAG_GIVE, TAG_RESULTS, TAG_DONE };

/* A follower asks for about this many seconds of games: long enough that
** rank 0 answers a few asks per second per rank, short enough that games
** past an SPRT's verdict cost little. */
#define SIM_MPI_ASK_SECONDS 0.05
/* How long a main thread sleeps when no message came. */
#define SIM_MPI_NAP_NS 200000

static void nap(void) {
    struct timespec t = {0, SIM_MPI_NAP_NS};
    nanosleep(&t, NULL);
}

int sim_mpi_begin(sim_mpi *mpi, const char *name) {
    *mpi = (sim_mpi){0, 0, 1, -1, -1, name};
    if (!launched_by_mpi()) return 0;
    int provided;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "%s: MPI_Init_thread failed\n", name);
        return 1;
    }
    mpi->on = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &mpi->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mpi->size);
    if (provided < MPI_THREAD_FUNNELED) {
        if (mpi->rank == 0)
            fprintf(stderr, "%s: this MPI cannot have threads beside the one "
                    "that calls it (MPI_THREAD_FUNNELED)\n", name);
        return 1;
    }
    if (mpi->rank > 0) {
        /* every rank checks the same options; rank 0 alone says what is wrong */
        int null = open("/dev/null", O_WRONLY);
        fflush(stdout);
        fflush(stderr);
        mpi->saved_out = dup(STDOUT_FILENO);
        mpi->saved_err = dup(STDERR_FILENO);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
            close(null);
        }
    }
    return 0;
}

void sim_mpi_speak(sim_mpi *mpi) {
    if (mpi->saved_out < 0) return;
    fflush(stdout);
    fflush(stderr);
    dup2(mpi->saved_out, STDOUT_FILENO);
    dup2(mpi->saved_err, STDERR_FILENO);
    close(mpi->saved_out);
    close(mpi->saved_err);
    mpi->saved_out = mpi->saved_err = -1;
}

void sim_mpi_end(sim_mpi *mpi) {
    sim_mpi_speak(mpi);
    if (mpi->on) MPI_Finalize();
    mpi->on = 0;
}

/* Sixteen slots per game thread of the job: room for each rank's handouts
** in flight and queued, at some 400 bytes a slot (plus a record each, with
** --out, once played). */
long sim_mpi_window(const sim_mpi *mpi, int threads) {
    long slots = 16L * mpi->size * threads;
    return slots > SIM_WINDOW ? slots : SIM_WINDOW;
}

/* The CPUs this process may run on.  mpirun binds each rank to one core
** when it starts two ranks or fewer, and to a socket beyond: --threads
** past that share the core. */
static int usable_cpus(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return CPU_SETSIZE;
    return CPU_COUNT(&set);
}

int sim_mpi_go(const sim_mpi *mpi, int rc, int threads) {
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    int cpus = usable_cpus(), least = cpus;
    MPI_Reduce(&cpus, &least, 1, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD);
    if (!rc && mpi->rank == 0 && least < threads)
        fprintf(stderr, "%s: warning: --threads %d, but a rank may run on only %d "
                "CPU%s (mpirun binds ranks to cores: give --bind-to none, or --map-by "
                "...:PE=%d)\n", mpi->name, threads, least, least == 1 ? "" : "s", threads);
    return rc;
}

/* A byte buffer that grows; on failure the process cannot go on. */
typedef struct sim_bytes {
    char *data;
    size_t size, cap;
} sim_bytes;

static void bytes_reserve(sim_bytes *b, size_t size) {
    if (size <= b->cap) return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < size) cap *= 2;
    char *data = realloc(b->data, cap);
    if (!data) {
        fprintf(stderr, "tafel: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    b->data = data;
    b->cap = cap;
}

static void bytes_add(sim_bytes *b, const void *data, size_t size) {
    bytes_reserve(b, b->size + size);
    memcpy(b->data + b->size, data, size);
    b->size += size;
}

/* ----- rank 0 ----------------------------------------------------------- */

/* What rank 0 knows of one follower. */
typedef struct sim_follower {
    long asked;          /* games asked for and not yet given; 0: no ask */
    long given;          /* games handed out in all */
    long give[2];        /* the answer being sent */
    MPI_Request sending; /* its send */
    int done;
} sim_follower;

/* Under the lock: the results of one TAG_RESULTS message into their slots,
** counted as they complete the order. */
static void take_results(sim_job *job, const char *data, size_t size) {
    size_t at = 0;
    while (at + sizeof(long) + sizeof(sim_result) + sizeof(uint32_t) <= size) {
        long i;
        sim_result res;
        uint32_t length;
        memcpy(&i, data + at, sizeof i);
        memcpy(&res, data + at + sizeof i, sizeof res);
        memcpy(&length, data + at + sizeof i + sizeof res, sizeof length);
        at += sizeof i + sizeof res + sizeof length;
        res.json = NULL;
        if (length && at + length <= size) {
            if (!(res.json = malloc(length + 1))) {
                res.failed = 1;
                snprintf(res.error, sizeof res.error, "game %ld: out of memory", i);
            } else {
                memcpy(res.json, data + at, length);
                res.json[length] = 0;
            }
        }
        at += length;
        /* every result is of a game handed out and not yet counted: its slot */
        if (i < job->counted || i >= job->next) {
            free(res.json);
            continue;
        }
        res.finished = 0;
        *sim_slot(job, i) = res;
        sim_finish(job, i);
    }
}

/* Under the lock: answer follower r's ask if rank 0 can: games, or stop. */
static void answer(sim_job *job, int r, sim_follower *f, long most) {
    long first = 0, n = sim_take(job, f->asked < most ? f->asked : most, &first);
    if (n == 0) return; /* no room in the ring yet: the ask waits */
    MPI_Wait(&f->sending, MPI_STATUS_IGNORE); /* the last answer, long received */
    f->give[0] = n > 0 ? first : job->limit;
    f->give[1] = n > 0 ? n : 0;
    f->given += f->give[1];
    MPI_Isend(f->give, 2, MPI_LONG, r, TAG_GIVE, MPI_COMM_WORLD, &f->sending);
    f->asked = 0;
}

/* How the games were shared (stderr): a rank far below the others is a
** slow machine, or one that waited on rank 0. */
static void report_shares(const sim_job *job, const sim_follower *followers, int size) {
    long least = -1, most = 0, others = 0;
    for (int r = 1; r < size; r++) {
        long given = followers[r].given;
        others += given;
        if (least < 0 || given < least) least = given;
        if (given > most) most = given;
    }
    fprintf(stderr, "%s: %s handed out: %ld to rank 0, %ld..%ld to each of "
            "the other %d\n", job->name, job->unit, job->next - job->resumed - others, least,
            most, size - 1);
}

int sim_mpi_lead(sim_job *job, int threads, const sim_mpi *mpi) {
    pthread_t ids[256];
    int size = mpi->size, started = sim_start_workers(job, threads, ids);
    sim_follower *followers = calloc((size_t)size, sizeof *followers);
    if (!followers) {
        fprintf(stderr, "tafel: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int r = 0; r < size; r++) followers[r].sending = MPI_REQUEST_NULL;
    fprintf(stderr, "%s: %d MPI ranks, %d game thread%s each\n", job->name, size, threads,
            threads == 1 ? "" : "s");
    pthread_mutex_lock(&job->lock);
    if (started == 0) job->limit = job->counted; /* stop the followers too */
    pthread_mutex_unlock(&job->lock);
    /* one ask may take a fair share of the ring, no more */
    long most = job->window / (4L * size) > 0 ? job->window / (4L * size) : 1;
    sim_bytes in = {0};
    int done = 0;
    for (;;) {
        int came = 0;
        MPI_Status status;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &came, &status);
        int from = 0, count = 0;
        if (came) {
            from = status.MPI_SOURCE;
            MPI_Get_count(&status, MPI_BYTE, &count);
            bytes_reserve(&in, (size_t)count + 1);
            MPI_Recv(in.data, count, MPI_BYTE, from, status.MPI_TAG, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        }
        pthread_mutex_lock(&job->lock);
        if (came && status.MPI_TAG == TAG_ASK && count == sizeof(long))
            memcpy(&followers[from].asked, in.data, sizeof(long));
        else if (came && status.MPI_TAG == TAG_RESULTS)
            take_results(job, in.data, (size_t)count);
        else if (came && status.MPI_TAG == TAG_DONE && !followers[from].done)
            followers[from].done = 1, done++;
        for (int r = 1; r < size; r++)
            if (followers[r].asked > 0) answer(job, r, &followers[r], most);
        int over = job->counted >= job->limit && done == size - 1;
        sim_progress(job);
        if (over) sim_progress_end(job);
        pthread_mutex_unlock(&job->lock);
        if (over) break;
        if (!came) nap();
    }
    for (int t = 0; t < started; t++) pthread_join(ids[t], NULL);
    for (int r = 1; r < size; r++) MPI_Wait(&followers[r].sending, MPI_STATUS_IGNORE);
    report_shares(job, followers, size);
    free(in.data);
    free(followers);
    return started ? 0 : 1;
}

/* ----- ranks past 0 ------------------------------------------------------ */

#define SIM_MPI_RANGES 64

/* What a follower's threads share with its main thread. */
typedef struct sim_follow {
    sim_job *job;
    pthread_mutex_t lock;
    pthread_cond_t work;  /* signalled when games or a stop arrive */
    long ranges[SIM_MPI_RANGES][2]; /* a ring of handouts: first, count */
    int head, nranges;
    long queued;   /* games handed out, not started */
    long limit;    /* after a stop: drop queued games from here on */
    int stopped, playing;
    long played;
    sim_bytes out; /* results played, not yet sent */
} sim_follow;

/* Under the lock: the next game handed out, or -1. */
static long next_game(sim_follow *f) {
    while (f->nranges > 0) {
        long *range = f->ranges[f->head];
        if (range[1] > 0 && !(f->stopped && range[0] >= f->limit)) {
            f->queued--;
            range[1]--;
            return range[0]++;
        }
        f->queued -= range[1];
        f->head = (f->head + 1) % SIM_MPI_RANGES;
        f->nranges--;
    }
    return -1;
}

static void *follow_worker(void *arg) {
    sim_follow *f = arg;
    sim_programs programs;
    sim_programs_start(f->job, &programs);
    pthread_mutex_lock(&f->lock);
    for (;;) {
        long i;
        while ((i = next_game(f)) < 0 && !f->stopped) pthread_cond_wait(&f->work, &f->lock);
        if (i < 0) break;
        f->playing++;
        pthread_mutex_unlock(&f->lock);
        sim_result res = {0};
        sim_play(f->job, i, &programs, &res);
        uint32_t length = res.json ? (uint32_t)strlen(res.json) : 0;
        char *json = res.json;
        res.json = NULL; /* a pointer means nothing on rank 0 */
        pthread_mutex_lock(&f->lock);
        bytes_add(&f->out, &i, sizeof i);
        bytes_add(&f->out, &res, sizeof res);
        bytes_add(&f->out, &length, sizeof length);
        if (length) bytes_add(&f->out, json, length);
        free(json);
        f->playing--;
        f->played++;
    }
    pthread_mutex_unlock(&f->lock);
    sim_programs_stop(f->job, &programs);
    return NULL;
}

/* The main thread of a follower: ask, receive handouts, send results. */
static void follow(sim_follow *f, int threads) {
    double t0 = cli_now();
    int asking = 0;
    sim_bytes sending = {0};
    for (;;) {
        pthread_mutex_lock(&f->lock);
        /* swap the played results out, to send them without the lock */
        sim_bytes played = f->out;
        f->out = sending;
        f->out.size = 0;
        sending = played;
        int finished = f->stopped && f->nranges == 0 && f->playing == 0;
        double seconds = cli_now() - t0;
        long want = seconds > 0 ? (long)((double)f->played / seconds * SIM_MPI_ASK_SECONDS) : 0;
        if (want < 2L * threads) want = 2L * threads;
        int ask = !asking && !f->stopped && f->queued * 2 <= want &&
                  f->nranges < SIM_MPI_RANGES;
        pthread_mutex_unlock(&f->lock);
        if (sending.size)
            MPI_Send(sending.data, (int)sending.size, MPI_BYTE, 0, TAG_RESULTS, MPI_COMM_WORLD);
        if (finished) break;
        if (ask) {
            MPI_Send(&want, 1, MPI_LONG, 0, TAG_ASK, MPI_COMM_WORLD);
            asking = 1;
        }
        int came = 0;
        MPI_Iprobe(0, TAG_GIVE, MPI_COMM_WORLD, &came, MPI_STATUS_IGNORE);
        if (came) {
            long give[2];
            MPI_Recv(give, 2, MPI_LONG, 0, TAG_GIVE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            asking = 0;
            pthread_mutex_lock(&f->lock);
            if (give[1] == 0) {
                f->stopped = 1;
                f->limit = give[0];
            } else {
                int tail = (f->head + f->nranges) % SIM_MPI_RANGES;
                f->ranges[tail][0] = give[0];
                f->ranges[tail][1] = give[1];
                f->nranges++;
                f->queued += give[1];
            }
            pthread_cond_broadcast(&f->work);
            pthread_mutex_unlock(&f->lock);
        } else if (!sending.size) {
            nap();
        }
    }
    MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_DONE, MPI_COMM_WORLD);
    free(sending.data);
}

int sim_mpi_follow(sim_job *job, int threads, const sim_mpi *mpi) {
    if (sim_mpi_go(mpi, 0, threads)) return 1; /* rank 0 could not start; it said why */
    sim_follow f = {.job = job};
    pthread_mutex_init(&f.lock, NULL);
    pthread_cond_init(&f.work, NULL);
    pthread_t ids[256];
    int started = 0;
    while (started < threads &&
           pthread_create(&ids[started], NULL, follow_worker, &f) == 0)
        started++;
    if (started == 0) {
        fprintf(stderr, "%s: rank %d: cannot start a thread\n", mpi->name, mpi->rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    follow(&f, started);
    for (int t = 0; t < started; t++) pthread_join(ids[t], NULL);
    pthread_cond_destroy(&f.work);
    pthread_mutex_destroy(&f.lock);
    free(f.out.data);
    return 0;
}

#endif
