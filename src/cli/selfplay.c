/*
** selfplay.c -- `tafel selfplay`: bots against bots, every decision of a
** seat a training sample, written as shards (docs/selfplay.md).
**
** A run is sim's machinery with a shard in place of a game: sim_job's play
** hook is shard_play, so sim's worker threads, its MPI work queue, its
** progress lines and its stop on the first failure are used as they are.
** Shard s holds games [s K, (s + 1) K), each game that of `tafel sim` with
** the same seed and bots, so the shards are byte for byte the same for any
** number of threads and ranks: which rank plays a shard changes nothing
** but who writes the file.  Rank 0 alone writes the manifest: at the start
** (the run's identity, so that another run is not mixed into the folder)
** and at the end (every shard, read back from its header).
*/
#include "selfplay.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MANIFEST_FORMAT "tafel-selfplay"

static const char *const kind_names[] = {"observation", "information_state"};

static void manifest_path(const selfplay_run *run, char *out, size_t size) {
    snprintf(out, size, "%s/manifest.json", run->dir);
}

/* The run's identity and shapes; the shards (with complete) are added by
** the caller. */
static cJSON *manifest_new(const sim_job *job, const selfplay_run *run) {
    char seed[32];
    int dims[TAFEL_TENSOR_MAX_RANK], rank = tafel_game_tensor_shape(job->game, run->kind, dims);
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "format", MANIFEST_FORMAT);
    cJSON_AddNumberToObject(m, "version", SHARD_VERSION);
    cJSON_AddStringToObject(m, "game", tafel_game_string(job->game));
    cJSON *players = cJSON_AddArrayToObject(m, "players");
    for (int k = 0; k < job->nbots; k++)
        cJSON_AddItemToArray(players, cJSON_CreateString(job->specs[k]));
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)job->seed);
    cJSON_AddStringToObject(m, "seed", seed);
    cJSON_AddNumberToObject(m, "games", (double)run->games);
    cJSON_AddNumberToObject(m, "shard_games", (double)run->shard_games);
    cJSON_AddStringToObject(m, "kind", kind_names[run->kind]);
    cJSON *shape = cJSON_AddArrayToObject(m, "tensor_shape");
    for (int d = 0; d < rank; d++) cJSON_AddItemToArray(shape, cJSON_CreateNumber(dims[d]));
    cJSON_AddNumberToObject(m, "tensor_size", (double)run->tensor_size);
    cJSON_AddNumberToObject(m, "action_space", run->action_space);
    cJSON_AddNumberToObject(m, "mask_bytes", run->mask_bytes);
    return m;
}

/* Write the manifest whole under a temporary name, then rename it. */
static int manifest_write(const selfplay_run *run, cJSON *m) {
    char path[4096], temp[4200];
    manifest_path(run, path, sizeof path);
    snprintf(temp, sizeof temp, "%s.tmp", path);
    char *text = cJSON_Print(m);
    FILE *file = text ? fopen(temp, "w") : NULL;
    int ok = file && fprintf(file, "%s\n", text) >= 0;
    if (file && fclose(file) != 0) ok = 0;
    if (ok && rename(temp, path) != 0) ok = 0;
    if (!ok) fprintf(stderr, "tafel selfplay: cannot write '%s': %s\n", path,
                     text ? strerror(errno) : "out of memory");
    free(text);
    return ok ? 0 : 1;
}

/* A field of the identity where the manifest on disk and this run differ,
** or NULL. */
static const char *other_run(const cJSON *disk, const cJSON *mine) {
    static const char *const identity[] = {"format", "version", "game", "players", "seed",
                                           "games", "shard_games", "kind"};
    for (size_t f = 0; f < sizeof identity / sizeof identity[0]; f++)
        if (!cJSON_Compare(cJSON_GetObjectItemCaseSensitive(disk, identity[f]),
                           cJSON_GetObjectItemCaseSensitive(mine, identity[f]), 1))
            return identity[f];
    return NULL;
}

/* The manifest on disk: none (a new run), this run's (with --resume), or
** something else, refused.  0, or an exit code after saying why. */
static int check_manifest(const selfplay_run *run, const cJSON *mine) {
    char path[4096];
    manifest_path(run, path, sizeof path);
    FILE *file = fopen(path, "r");
    if (!file && errno == ENOENT) return 0;
    if (!file) {
        fprintf(stderr, "tafel selfplay: cannot read '%s': %s\n", path, strerror(errno));
        return 1;
    }
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    for (int c; mem && (c = getc(file)) != EOF;) putc(c, mem);
    if (mem) fclose(mem);
    fclose(file);
    cJSON *disk = text ? cJSON_Parse(text) : NULL;
    free(text);
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(disk, "format");
    const char *field = other_run(disk, mine);
    int rc = 0;
    if (!cJSON_IsString(format) || strcmp(format->valuestring, MANIFEST_FORMAT)) {
        fprintf(stderr, "tafel selfplay: '%s' is not a manifest of tafel selfplay\n", path);
        rc = 1;
    } else if (field) {
        char *theirs = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(disk, field));
        char *ours = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(mine, field));
        fprintf(stderr, "tafel selfplay: %s holds another run: its %s is %s, this run's %s; "
                "give another --out\n", run->dir, field, cli_printable(theirs ? theirs : "missing"),
                cli_printable(ours ? ours : "missing"));
        free(theirs);
        free(ours);
        rc = 1;
    } else if (!run->resume) {
        fprintf(stderr, "tafel selfplay: %s holds this run already; --resume goes on with it "
                "(shards complete on disk are kept)\n", run->dir);
        rc = 1;
    }
    cJSON_Delete(disk);
    return rc;
}

/* --out DIR: a folder, made when missing (its parent must exist). */
static int make_dir(const char *dir) {
    struct stat st;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "tafel selfplay: cannot make the folder '%s': %s\n", dir,
                strerror(errno));
        return 1;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "tafel selfplay: '%s' is not a folder\n", dir);
        return 1;
    }
    return 0;
}

/* Rank 0, before any play: the folder, the manifest on disk checked, and
** this run's written (complete: false).  Prints errors; 0 or 1. */
static int prepare(sim_job *job, const selfplay_run *run) {
    if (make_dir(run->dir)) return 1;
    cJSON *m = manifest_new(job, run);
    int rc = check_manifest(run, m);
    cJSON_AddBoolToObject(m, "complete", 0);
    cJSON_AddArrayToObject(m, "shards");
    if (!rc) rc = manifest_write(run, m);
    cJSON_Delete(m);
    if (rc) return 1;
    job->results = calloc((size_t)job->window, sizeof *job->results);
    if (!job->results) {
        fprintf(stderr, "tafel selfplay: out of memory\n");
        return 1;
    }
    job->limit = job->games;
    long kept = 0;
    shard_header h;
    for (long s = 0; run->resume && s < job->games; s++) {
        if (!shard_complete(run, s, &h)) continue; /* played again, its temporary file too */
        char temp[4200];
        shard_path(run, s, temp, sizeof temp);
        strcat(temp, ".tmp");
        unlink(temp); /* a temporary file beside a whole shard is a stray */
        kept++;
    }
    if (run->resume)
        fprintf(stderr, "tafel selfplay: resuming: %ld of %ld shards complete in %s\n", kept,
                job->games, run->dir);
    return 0;
}

/* Rank 0, after every shard is counted: the manifest with each shard,
** read back from its header; the summary on stdout. */
static int conclude(const sim_job *job, const selfplay_run *run, double seconds, int threads) {
    cJSON *m = manifest_new(job, run), *shards = cJSON_CreateArray();
    double samples = 0;
    int rc = 0;
    for (long s = 0; !rc && s < job->games; s++) {
        shard_header h;
        char path[4096], *name;
        shard_path(run, s, path, sizeof path);
        name = strrchr(path, '/') + 1;
        if (!shard_complete(run, s, &h)) {
            fprintf(stderr, "tafel selfplay: %s is missing or not whole\n", path);
            rc = 1;
            break;
        }
        cJSON *shard = cJSON_CreateObject();
        cJSON_AddStringToObject(shard, "file", name);
        cJSON_AddNumberToObject(shard, "first_game", (double)h.first_game);
        cJSON_AddNumberToObject(shard, "games", (double)h.games);
        cJSON_AddNumberToObject(shard, "samples", (double)h.samples);
        cJSON_AddNumberToObject(shard, "pairs", (double)h.pairs);
        cJSON_AddItemToArray(shards, shard);
        samples += (double)h.samples;
    }
    cJSON_AddBoolToObject(m, "complete", !rc);
    cJSON_AddNumberToObject(m, "samples", samples);
    cJSON_AddItemToObject(m, "shards", shards);
    if (!rc) rc = manifest_write(run, m);
    cJSON_Delete(m);
    if (rc) return 1;
    printf("%ld game%s, %.0f samples in %ld shard%s in %s\n", run->games,
           run->games == 1 ? "" : "s", samples, job->games, job->games == 1 ? "" : "s", run->dir);
    printf("played %.0f samples in %.1f s on %d thread%s: %.1f samples/s\n", job->length,
           seconds, threads, threads == 1 ? "" : "s", seconds > 0 ? job->length / seconds : 0);
    return 0;
}

/* Rank 0: prepare, play here or over the ranks, conclude. */
static int lead(sim_job *job, int threads, const sim_mpi *mpi) {
    const selfplay_run *run = job->user;
    int rc = prepare(job, run);
    if (mpi->size > 1) rc = sim_mpi_go(mpi, rc, threads);
    job->started = job->drawn = cli_now();
    if (!rc) rc = mpi->size > 1 ? sim_mpi_lead(job, threads, mpi) : sim_run_threads(job, threads);
    double seconds = cli_now() - job->started;
    if (!rc && job->error[0]) {
        fprintf(stderr, "tafel selfplay: %s\n", job->error);
        rc = 1;
    }
    if (!rc) rc = conclude(job, run, seconds, threads);
    free(job->results);
    return rc;
}

static int parse_kind(const char *text, int *out) {
    for (int k = 0; k < 2; k++)
        if (!strcmp(text, kind_names[k])) return *out = k, 0;
    fprintf(stderr, "tafel selfplay: --kind '%s': give observation or information_state\n",
            cli_printable(text));
    return CLI_USAGE;
}

static int selfplay_command(const cli_command *cmd, int argc, char **argv, sim_mpi *mpi) {
    const char *game_text = NULL, *players = NULL, *games_text = "64", *seed_text = "1";
    const char *out_dir = NULL, *threads_text = "1", *shard_text = "64", *resume = NULL;
    const char *kind_text = "information_state", *progress_text = NULL;
    const cli_option options[] = {
        {"--players", 1, &players}, {"--games", 1, &games_text},
        {"--seed", 1, &seed_text}, {"--out", 1, &out_dir},
        {"--threads", 1, &threads_text}, {"--shard-games", 1, &shard_text},
        {"--resume", 0, &resume}, {"--kind", 1, &kind_text},
        {"--progress", 1, &progress_text},
    };
    int rc = cli_parse(cmd, argc, argv, options, 9, &game_text, 1);
    if (rc != CLI_CONTINUE) return rc;
    if (!game_text || !players || !out_dir) {
        fprintf(stderr, "tafel selfplay: give GAME, --players and --out DIR "
                "(tafel selfplay --help)\n");
        return CLI_USAGE;
    }
    sim_job job = {.name = "tafel selfplay", .unit = "shards", .play = shard_play};
    selfplay_run run = {.dir = out_dir, .resume = resume != NULL};
    char storage[TAFEL_MAX_PLAYERS][CLI_NAME_MAX];
    const char *specs[TAFEL_MAX_PLAYERS];
    int games, threads, shard;
    job.nbots = cli_split_players(players, storage, specs);
    if (job.nbots < 0 || cli_int(games_text, "--games", 1, 1000000000, &games) ||
        cli_int(shard_text, "--shard-games", 1, 1000000, &shard) ||
        cli_int(threads_text, "--threads", 1, 256, &threads) ||
        cli_uint64(seed_text, "--seed", &job.seed) || parse_kind(kind_text, &run.kind) ||
        (progress_text && cli_int(progress_text, "--progress", 0, 86400, &job.progress_every)))
        return CLI_USAGE;
    if (!progress_text) job.progress_every = isatty(STDERR_FILENO) ? 0 : 60;
    else if (job.progress_every == 0) job.progress_every = -1;
    tafel_game *game;
    if (cli_load_game(game_text, job.nbots, &game)) return CLI_USAGE;
    if (tafel_game_tensor_size(game, run.kind) == 0 || tafel_game_action_space_size(game) < 1) {
        fprintf(stderr, "tafel selfplay: %s has no tensors or action space\n",
                tafel_game_string(game));
        tafel_game_free(game);
        return CLI_USAGE;
    }
    job.game = game;
    job.specs = specs;
    job.user = &run;
    run.games = games;
    run.shard_games = shard;
    run.tensor_size = tafel_game_tensor_size(game, run.kind);
    run.action_space = tafel_game_action_space_size(game);
    run.mask_bytes = (run.action_space + 7) / 8;
    job.games = (games + shard - 1) / shard; /* sim's items are the shards */
    rc = sim_job_run(&job, threads, mpi, 0, lead);
    tafel_game_free(game);
    return rc;
}

int cli_selfplay(const cli_command *cmd, int argc, char **argv) {
    return sim_mpi_command(cmd, argc, argv, selfplay_command);
}
