/*
** selfplay.h -- what the files of `tafel selfplay` share: selfplay.c (the
** command: options, the output folder and its manifest, the run over
** sim's threads and MPI ranks) and shard.c (one shard: its games played,
** every decision of a seat a sample, written as one file).
**
** The format of a shard is docs/selfplay.md's; shard_header is its first
** SHARD_HEADER_BYTES bytes, little-endian as the machines it runs on.
*/
#ifndef TF_CLI_SELFPLAY_H
#define TF_CLI_SELFPLAY_H

#include "sim.h"

#include <stdint.h>

#define SHARD_MAGIC "TAFELSP1"
#define SHARD_VERSION 2
#define SHARD_HEADER_BYTES 256
#define SHARD_ALIGN 64 /* every section starts at a multiple of it */

/* The sections of a shard, in file order; n samples, p policy pairs. */
enum {
    SHARD_OBS,          /* float32 [n][tensor_size] */
    SHARD_MASK,         /* uint8 [n][mask_bytes], bit j of byte j/8 (lowest first) */
    SHARD_GAME,         /* int64 [n]: the game's number in the run */
    SHARD_SEAT,         /* int32 [n]: the seat to move */
    SHARD_OUTCOME,      /* float32 [n]: tafel_state_rewards of the seat */
    SHARD_MARGIN,       /* float32 [n]: its final score minus the best other's */
    SHARD_POLICY_START, /* int64 [n + 1]: sample s has pairs [start[s], start[s+1]) */
    SHARD_POLICY_INDEX, /* int32 [p]: action-space indices, ascending per sample */
    SHARD_POLICY_SHARE, /* float32 [p]: their shares of the search, summing to 1 */
    SHARD_SEARCH_VALUE, /* float32 [n]: the search's win chance for the seat, -1: none
                        ** (version 2 on; a version 1 shard has offset 0 here) */
    SHARD_SECTIONS
};

typedef struct shard_header {
    char magic[8];          /* SHARD_MAGIC, not NUL-terminated */
    uint32_t version;       /* SHARD_VERSION */
    uint32_t header_bytes;  /* SHARD_HEADER_BYTES */
    uint64_t first_game;    /* the shard holds games first_game .. + games - 1 */
    uint64_t games;
    uint64_t samples;       /* n */
    uint64_t pairs;         /* p */
    uint32_t kind;          /* TAFEL_OBSERVATION or TAFEL_INFORMATION_STATE */
    uint32_t players;
    uint32_t tensor_size;   /* floats a sample */
    uint32_t action_space;  /* tafel_game_action_space_size */
    uint32_t mask_bytes;    /* (action_space + 7) / 8 */
    uint32_t reserved;      /* 0 */
    uint64_t offset[SHARD_SECTIONS]; /* where each section starts, in bytes */
    uint8_t padding[SHARD_HEADER_BYTES - 72 - 8 * SHARD_SECTIONS]; /* 0 */
} shard_header;

/* One run: what every shard of it needs, the same on every rank. */
typedef struct selfplay_run {
    const char *dir;
    int kind;            /* of the tensors */
    long games;          /* in the run */
    long shard_games;    /* K: shard s holds games [s K, (s + 1) K) */
    int resume;          /* a shard complete on disk is kept, not played */
    size_t tensor_size;
    int action_space, mask_bytes;
} selfplay_run;

/* --- shard.c ----------------------------------------------------------- */

/* The path of shard s: DIR/shard-000123.bin. */
void shard_path(const selfplay_run *run, long s, char *out, size_t size);
/* The games shard s holds: its first, and how many. */
long shard_first_game(const selfplay_run *run, long s);
long shard_games(const selfplay_run *run, long s);
/* Whether shard s of run is complete on disk: its header is this run's
** (first game, games, kind, sizes) and the file is as long as it says.
** 1 and its header in *out, or 0. */
int shard_complete(const selfplay_run *run, long s, shard_header *out);
/* sim_job's play hook: play shard i's games (job->user is the run) and
** write the shard, whole, then renamed into place; res->length is the
** samples written (0 for a shard kept with --resume). */
void shard_play(const sim_job *job, long i, sim_programs *programs, sim_result *res);

#endif
