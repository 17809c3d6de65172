/*
** shard.c -- one shard of `tafel selfplay`: its games played by the seated
** bots, every decision of a seat a sample, written as one file.
**
** Game g of a shard is game g of `tafel sim` with the same --seed and
** --players: the same seating, bot seeds and chance seed (sim.c's), and a
** search bot's choice from tafel_bot_analyse is the one tafel_bot_choose
** makes.  So a shard's games are those of sim's records, and depend on
** (seed, g) alone, never on the thread or rank that plays them.
**
** A sample is the seat's tensor, streamed to the file as it is made (a
** Carcassonne tensor is 52 KB: a shard does not hold its tensors in
** memory), its legal mask in bits, the search's shares of the root moves
** (sparse), and, once the game ends, the seat's outcome and margin.  The
** file is written under a temporary name, its header last, synced, and
** renamed: a shard on disk under its own name is whole.
*/
#include "selfplay.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

_Static_assert(sizeof(shard_header) == SHARD_HEADER_BYTES, "a shard header is 256 bytes");

/* One (index, share) of a sample's policy. */
typedef struct shard_pair {
    int32_t index;
    float share;
} shard_pair;

/* What a shard gathers while its games are played: everything but the
** tensors, which go to the file at once. */
typedef struct shard_buf {
    FILE *file;
    float *tensor;         /* one sample's */
    uint8_t *legal;        /* one byte per index of the action space */
    tafel_action *actions; /* scratch, acap of them */
    tafel_bot_move *moves; /* the search's answer, acap of them */
    shard_pair *pairs;     /* every sample's, pcap of them */
    int acap;
    size_t n, cap, p, pcap; /* samples, and pairs */
    uint8_t *masks;
    int64_t *game, *start;
    int32_t *seat;
    float *outcome, *margin, *search;
} shard_buf;

void shard_path(const selfplay_run *run, long s, char *out, size_t size) {
    snprintf(out, size, "%s/shard-%06ld.bin", run->dir, s);
}

long shard_first_game(const selfplay_run *run, long s) {
    return s * run->shard_games;
}

long shard_games(const selfplay_run *run, long s) {
    long left = run->games - shard_first_game(run, s);
    return left < run->shard_games ? left : run->shard_games;
}

/* Grow *array of *cap elements of size bytes to hold need; 0 or ENOMEM. */
static int grow(void *array, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap : 256;
    while (n < need) n *= 2;
    void *p = realloc(*(void **)array, n * size);
    if (!p) return TAFEL_ENOMEM;
    *(void **)array = p;
    *cap = n;
    return 0;
}

/* Room for one more sample in every per-sample array (start has n + 1):
** each grown to the same capacity, b->cap once all have it. */
static int room_for_sample(shard_buf *b, const selfplay_run *run) {
    size_t need = b->n + 2, cap = b->cap;
    if (need <= b->cap) return 0;
    int rc = grow(&b->game, &cap, need, sizeof *b->game);
    size_t c[6] = {b->cap, b->cap, b->cap, b->cap, b->cap, b->cap}; /* to cap, as game */
    if (!rc) rc = grow(&b->start, &c[0], cap, sizeof *b->start);
    if (!rc) rc = grow(&b->seat, &c[1], cap, sizeof *b->seat);
    if (!rc) rc = grow(&b->outcome, &c[2], cap, sizeof *b->outcome);
    if (!rc) rc = grow(&b->margin, &c[3], cap, sizeof *b->margin);
    if (!rc) rc = grow(&b->masks, &c[4], cap, (size_t)run->mask_bytes);
    if (!rc) rc = grow(&b->search, &c[5], cap, sizeof *b->search);
    if (!rc) b->cap = cap;
    return rc;
}

/* The legal actions of state into b->actions, growing it; how many. */
static int legal_actions(shard_buf *b, const tafel_state *state) {
    int n = tafel_state_legal_actions(state, b->actions, b->acap);
    if (n <= b->acap) return n;
    tafel_action *a = realloc(b->actions, (size_t)n * sizeof *a);
    tafel_bot_move *m = a ? realloc(b->moves, (size_t)n * sizeof *m) : NULL;
    if (a) b->actions = a;
    if (!m) return -1;
    b->moves = m;
    b->acap = n;
    return tafel_state_legal_actions(state, b->actions, b->acap);
}

/* err holds code and what: the message of a failure of this file. */
static int failure(tafel_error *err, int code, const char *what) {
    err->code = code;
    snprintf(err->message, sizeof err->message, "%s", what);
    return code;
}

static int by_index(const void *x, const void *y) {
    const shard_pair *a = x, *b = y;
    return (a->index > b->index) - (a->index < b->index);
}

/* The moves the search reported as the sample's policy: their indices
** (a move outside the action space has none and is left out), ascending,
** and their shares divided by their sum.  0 pairs: no sample. */
static int add_policy(shard_buf *b, const tafel_state *state, int count) {
    if (grow(&b->pairs, &b->pcap, b->p + (size_t)count, sizeof *b->pairs))
        return -1;
    shard_pair *pairs = b->pairs + b->p;
    int k = 0;
    double sum = 0;
    for (int m = 0; m < count; m++) {
        int index = tafel_state_action_index(state, b->moves[m].action);
        if (index < 0 || b->moves[m].share <= 0) continue;
        pairs[k++] = (shard_pair){index, (float)b->moves[m].share};
        sum += b->moves[m].share;
    }
    qsort(pairs, (size_t)k, sizeof *pairs, by_index);
    for (int j = 0; j < k; j++) pairs[j].share = (float)(pairs[j].share / sum);
    return k;
}

/* The sample of seat's decision in state: its tensor to the file, the
** rest into the buffer.  The bot has answered into b->moves. */
static int add_sample(shard_buf *b, const selfplay_run *run, long g, const tafel_state *state,
                      int seat, int count, tafel_error *err) {
    int rc = room_for_sample(b, run);
    int pairs = rc ? -1 : add_policy(b, state, count);
    if (pairs < 0) return failure(err, TAFEL_ENOMEM, "out of memory");
    if (pairs == 0) return TAFEL_OK; /* nothing to learn: every move outside the space */
    rc = run->kind == TAFEL_OBSERVATION
       ? tafel_state_observation_tensor(state, seat, b->tensor, run->tensor_size, err)
       : tafel_state_information_state_tensor(state, seat, b->tensor, run->tensor_size, err);
    if (rc) return rc;
    if (fwrite(b->tensor, sizeof(float), run->tensor_size, b->file) != run->tensor_size)
        return failure(err, TAFEL_EIO, strerror(errno));
    tafel_state_legal_actions_mask(state, b->legal, (size_t)run->action_space);
    uint8_t *bits = b->masks + b->n * (size_t)run->mask_bytes;
    memset(bits, 0, (size_t)run->mask_bytes);
    for (int j = 0; j < run->action_space; j++)
        if (b->legal[j]) bits[j / 8] |= (uint8_t)(1u << (j % 8));
    /* the search's estimate of the position: its moves' win chances by
    ** their shares (a value target far less noisy than the outcome) */
    double value = 0, weight = 0;
    for (int m = 0; m < count; m++)
        if (b->moves[m].winrate >= 0)
            value += b->moves[m].share * b->moves[m].winrate, weight += b->moves[m].share;
    b->search[b->n] = weight > 0 ? (float)(value / weight) : -1;
    b->game[b->n] = g;
    b->seat[b->n] = seat;
    b->start[b->n] = (int64_t)b->p;
    b->p += (size_t)pairs;
    b->n++;
    return TAFEL_OK;
}

/* Seat's decision: the bot's search, every root move asked for, so that
** the shares are the whole visit distribution.  The bot's choice in *a. */
static int decide(shard_buf *b, const selfplay_run *run, long g, const tafel_state *state,
                  int seat, tafel_bot *bot, tafel_action *a, tafel_error *err) {
    int n = legal_actions(b, state), count;
    if (n < 0) return failure(err, TAFEL_ENOMEM, "out of memory");
    if (n == 0) return failure(err, TAFEL_ESTATE, "no legal action");
    int rc = tafel_bot_analyse(bot, state, b->moves, n, &count, err);
    if (rc) return rc;
    *a = b->moves[0].action;
    return add_sample(b, run, g, state, seat, count, err);
}

/* The best final score among the seats other than seat. */
static double best_other(const double *scores, int players, int seat) {
    double best = 0;
    for (int k = 0, any = 0; k < players; k++)
        if (k != seat && (!any || scores[k] > best)) best = scores[k], any = 1;
    return best;
}

/* Play game g with its seated bots (sim's seating and seeds), its samples
** into b; at the end each sample's outcome and margin. */
static int play_game(const sim_job *job, const selfplay_run *run, long g, shard_buf *b,
                     tafel_error *err) {
    tafel_bot *bots[TAFEL_MAX_PLAYERS] = {0};
    tafel_state *state = tafel_state_new(job->game);
    int rc = state ? TAFEL_OK : failure(err, TAFEL_ENOMEM, "out of memory");
    for (int k = 0; !rc && k < job->nbots; k++)
        rc = tafel_bot_new(sim_seated(job, g, k), job->game, sim_bot_seed(job, g, k),
                           &bots[k], err);
    uint64_t rng = tafel_rng_seed(sim_chance_seed(job, g));
    size_t first = b->n;
    for (int seat; !rc && (seat = tafel_state_current(state)) != TAFEL_TERMINAL;) {
        tafel_action a;
        if (seat == TAFEL_CHANCE) rc = cli_choose(state, seat, NULL, &rng, NULL, 0, &a, err);
        else rc = decide(b, run, g, state, seat, bots[seat], &a, err);
        if (!rc) rc = tafel_state_apply(state, a, err);
    }
    if (!rc) {
        float rewards[TAFEL_MAX_PLAYERS];
        double scores[TAFEL_MAX_PLAYERS];
        int players = tafel_state_rewards(state, rewards);
        tafel_state_scores(state, scores);
        for (size_t s = first; s < b->n; s++) {
            int seat = b->seat[s];
            b->outcome[s] = rewards[seat];
            b->margin[s] = (float)(scores[seat] - best_other(scores, players, seat));
        }
    }
    for (int k = 0; k < job->nbots; k++) tafel_bot_free(bots[k]);
    tafel_state_free(state);
    return rc;
}

/* Write size bytes at the next multiple of SHARD_ALIGN from *at, which
** moves past them; where they start in *offset. */
static int put(FILE *file, uint64_t *at, const void *data, size_t size, uint64_t *offset) {
    static const char zeros[SHARD_ALIGN];
    size_t pad = (size_t)((SHARD_ALIGN - *at % SHARD_ALIGN) % SHARD_ALIGN);
    if (fwrite(zeros, 1, pad, file) != pad) return 1;
    *offset = *at + pad;
    *at = *offset + size;
    return size && fwrite(data, 1, size, file) != size;
}

/* After the tensors: the other sections, then the header in its place,
** and the file synced to the disk before it is renamed. */
static int finish_file(shard_buf *b, const selfplay_run *run, long s, int players) {
    shard_header h = {.version = SHARD_VERSION, .header_bytes = SHARD_HEADER_BYTES};
    memcpy(h.magic, SHARD_MAGIC, sizeof h.magic);
    h.first_game = (uint64_t)shard_first_game(run, s);
    h.games = (uint64_t)shard_games(run, s);
    h.samples = b->n;
    h.pairs = b->p;
    h.kind = (uint32_t)run->kind;
    h.players = (uint32_t)players;
    h.tensor_size = (uint32_t)run->tensor_size;
    h.action_space = (uint32_t)run->action_space;
    h.mask_bytes = (uint32_t)run->mask_bytes;
    h.offset[SHARD_OBS] = SHARD_HEADER_BYTES;
    uint64_t at = SHARD_HEADER_BYTES + b->n * run->tensor_size * sizeof(float);
    if (room_for_sample(b, run)) return 1;
    b->start[b->n] = (int64_t)b->p;
    int32_t *index = malloc((b->p ? b->p : 1) * sizeof *index);
    float *share = malloc((b->p ? b->p : 1) * sizeof *share);
    int bad = !index || !share;
    for (size_t j = 0; !bad && j < b->p; j++) index[j] = b->pairs[j].index;
    for (size_t j = 0; !bad && j < b->p; j++) share[j] = b->pairs[j].share;
    size_t n = b->n;
    bad = bad || put(b->file, &at, b->masks, n * (size_t)run->mask_bytes, &h.offset[SHARD_MASK]) ||
          put(b->file, &at, b->game, n * sizeof *b->game, &h.offset[SHARD_GAME]) ||
          put(b->file, &at, b->seat, n * sizeof *b->seat, &h.offset[SHARD_SEAT]) ||
          put(b->file, &at, b->outcome, n * sizeof *b->outcome, &h.offset[SHARD_OUTCOME]) ||
          put(b->file, &at, b->margin, n * sizeof *b->margin, &h.offset[SHARD_MARGIN]) ||
          put(b->file, &at, b->start, (n + 1) * sizeof *b->start,
              &h.offset[SHARD_POLICY_START]) ||
          put(b->file, &at, index, b->p * sizeof *index, &h.offset[SHARD_POLICY_INDEX]) ||
          put(b->file, &at, share, b->p * sizeof *share, &h.offset[SHARD_POLICY_SHARE]) ||
          put(b->file, &at, b->search, n * sizeof *b->search, &h.offset[SHARD_SEARCH_VALUE]);
    free(index);
    free(share);
    bad = bad || fseek(b->file, 0, SEEK_SET) != 0 || fwrite(&h, sizeof h, 1, b->file) != 1 ||
          fflush(b->file) != 0 || fsync(fileno(b->file)) != 0;
    return bad;
}

int shard_complete(const selfplay_run *run, long s, shard_header *out) {
    char path[4096];
    struct stat st;
    shard_path(run, s, path, sizeof path);
    FILE *file = fopen(path, "rb");
    if (!file) return 0;
    int got = fread(out, sizeof *out, 1, file) == 1 && fstat(fileno(file), &st) == 0;
    fclose(file);
    return got && !memcmp(out->magic, SHARD_MAGIC, sizeof out->magic) &&
           out->version == SHARD_VERSION && out->header_bytes == SHARD_HEADER_BYTES &&
           out->first_game == (uint64_t)shard_first_game(run, s) &&
           out->games == (uint64_t)shard_games(run, s) && out->kind == (uint32_t)run->kind &&
           out->tensor_size == run->tensor_size &&
           out->action_space == (uint32_t)run->action_space &&
           out->mask_bytes == (uint32_t)run->mask_bytes &&
           (uint64_t)st.st_size == out->offset[SHARD_SEARCH_VALUE] + out->samples * sizeof(float);
}

static void free_buf(shard_buf *b) {
    if (b->file) fclose(b->file);
    free(b->tensor), free(b->legal), free(b->actions), free(b->moves), free(b->pairs);
    free(b->masks), free(b->game), free(b->start), free(b->seat), free(b->outcome);
    free(b->margin), free(b->search);
}

void shard_play(const sim_job *job, long i, sim_programs *programs, sim_result *res) {
    const selfplay_run *run = job->user;
    shard_header kept;
    (void)programs; /* built-in bots only */
    if (run->resume && shard_complete(run, i, &kept)) return;
    char path[4096], temp[4200];
    shard_path(run, i, path, sizeof path);
    snprintf(temp, sizeof temp, "%s.tmp", path);
    shard_buf b = {.file = fopen(temp, "wb")};
    tafel_error err = {0, ""};
    b.tensor = malloc(run->tensor_size * sizeof *b.tensor);
    b.legal = malloc((size_t)run->action_space);
    int rc = !b.file ? failure(&err, TAFEL_EIO, strerror(errno))
           : !b.tensor || !b.legal ? failure(&err, TAFEL_ENOMEM, "out of memory")
           : fseek(b.file, SHARD_HEADER_BYTES, SEEK_SET) ? failure(&err, TAFEL_EIO, strerror(errno))
           : TAFEL_OK;
    long first = shard_first_game(run, i), last = first + shard_games(run, i);
    for (long g = first; !rc && g < last; g++) rc = play_game(job, run, g, &b, &err);
    if (!rc && finish_file(&b, run, i, tafel_game_players(job->game)))
        rc = failure(&err, TAFEL_EIO, strerror(errno ? errno : EIO));
    if (!rc) {
        rc = fclose(b.file) ? failure(&err, TAFEL_EIO, strerror(errno)) : TAFEL_OK;
        b.file = NULL;
    }
    if (!rc && rename(temp, path)) rc = failure(&err, TAFEL_EIO, strerror(errno));
    if (rc) {
        res->failed = 1;
        if (rc == TAFEL_EIO)
            /* bounded: a long path keeps its head, the reason stays whole */
            snprintf(res->error, sizeof res->error, "%.180s: cannot write: %.100s", temp,
                     err.message);
        else
            snprintf(res->error, sizeof res->error, "shard %ld: %s", i, err.message);
        if (b.file) fclose(b.file);
        b.file = NULL;
        unlink(temp);
    }
    res->length = (int)b.n;
    free_buf(&b);
}
