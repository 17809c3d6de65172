/*
** batch.c -- n states of one game stepped in one call (tafel.h, "Batches"),
** for learning: a trainer hands over one action index per state and gets
** back, in its own buffers, every state's next seat, tensor and mask, and
** the rewards of the games that ended (each started anew at once).
**
** The states lie in one block (tafel_state_init), so a batch is a few
** allocations whatever n.  Each state has its own rng, drawn from the
** batch's seed and its index: state i of a batch plays exactly the games a
** single state with that rng plays with the same actions (chance drawn by
** tafel_state_sample_chance, a random action as tafel_state_play_random
** draws it), which the tests check move for move.  A caller may move some
** states and not others (-2 keeps one, -3 starts its next game), and a game
** that ended is copied aside before the next starts, so a learner can
** still read its last position (tafel_batch_final_state).
*/
#include "error.h"
#include "tafel.h"

#include <stdlib.h>
#include <string.h>

struct tafel_batch {
    const tafel_game *game;
    int n, kind, players, space;
    size_t tensor, stride; /* floats of a tensor; bytes of a state */
    unsigned char *memory; /* n states */
    unsigned char *final;  /* n states: the last game each ended, kept */
    uint8_t *ended;        /* whether state i's final holds a game */
    uint64_t *rng;         /* one each */
    tafel_action *scratch; /* a legal-action list, for random actions */
    tafel_action *picked;  /* this step's actions, checked before any is played */
    int cap;
};

/* State i's rng: the same for every batch of the same seed, whatever n. */
uint64_t tafel_batch_rng(uint64_t seed, int i) {
    return tafel_rng_seed(seed ^ (0x9E3779B97F4A7C15ull * (uint64_t)(i + 1)));
}

static tafel_state *at(const tafel_batch *b, int i) {
    return (tafel_state *)(b->memory + (size_t)i * b->stride);
}

static tafel_state *final_at(const tafel_batch *b, int i) {
    return (tafel_state *)(b->final + (size_t)i * b->stride);
}

/* Chance until a seat is to move or the game is over. */
static int settle(tafel_batch *b, int i, tafel_error *err) {
    tafel_state *s = at(b, i);
    while (tafel_state_current(s) == TAFEL_CHANCE) {
        tafel_action a;
        int rc = tafel_state_sample_chance(s, &b->rng[i], &a);
        if (!rc) rc = tafel_state_apply(s, a, err);
        if (rc) return rc;
    }
    return TAFEL_OK;
}

tafel_batch *tafel_batch_new(const tafel_game *game, int n, uint64_t seed, int kind,
                             tafel_error *err) {
    if (!game || n < 1 || n > 1 << 20) {
        tf_error(err, TAFEL_EINVAL, "a batch holds 1 to %d states, not %d", 1 << 20, n);
        return NULL;
    }
    if (kind != TAFEL_OBSERVATION && kind != TAFEL_INFORMATION_STATE) {
        tf_error(err, TAFEL_EINVAL, "tensor kind %d: TAFEL_OBSERVATION or "
                 "TAFEL_INFORMATION_STATE", kind);
        return NULL;
    }
    if (!tafel_game_tensor_size(game, kind) || !tafel_game_action_space_size(game)) {
        tf_error(err, TAFEL_EINVAL, "this game has no tensors or action space");
        return NULL;
    }
    tafel_batch *b = calloc(1, sizeof *b);
    if (!b) goto oom;
    b->game = game;
    b->n = n;
    b->kind = kind;
    b->players = tafel_game_players(game);
    b->space = tafel_game_action_space_size(game);
    b->tensor = tafel_game_tensor_size(game, kind);
    b->stride = (tafel_game_state_size(game) + 7) & ~(size_t)7;
    b->cap = tafel_game_max_actions(game);
    b->memory = aligned_alloc(8, b->stride * (size_t)n);
    b->final = aligned_alloc(8, b->stride * (size_t)n);
    b->ended = calloc((size_t)n, 1);
    b->rng = malloc(sizeof *b->rng * (size_t)n);
    b->scratch = malloc(sizeof *b->scratch * (size_t)b->cap);
    b->picked = malloc(sizeof *b->picked * (size_t)n);
    if (!b->memory || !b->final || !b->ended || !b->rng || !b->scratch || !b->picked)
        goto oom;
    for (int i = 0; i < n; i++) {
        b->rng[i] = tafel_batch_rng(seed, i);
        tafel_state_init(game, at(b, i));
        int rc = settle(b, i, err);
        if (rc) {
            tafel_batch_free(b);
            return NULL;
        }
    }
    return b;
oom:
    tafel_batch_free(b);
    tf_error(err, TAFEL_ENOMEM, "out of memory for a batch of %d states", n);
    return NULL;
}

void tafel_batch_free(tafel_batch *b) {
    if (!b) return;
    free(b->memory);
    free(b->final);
    free(b->ended);
    free(b->rng);
    free(b->scratch);
    free(b->picked);
    free(b);
}

int tafel_batch_size(const tafel_batch *b) { return b->n; }

const tafel_state *tafel_batch_state(const tafel_batch *b, int i) {
    return i >= 0 && i < b->n ? at(b, i) : NULL;
}

const tafel_state *tafel_batch_final_state(const tafel_batch *b, int i) {
    return i >= 0 && i < b->n && b->ended[i] ? final_at(b, i) : NULL;
}

int tafel_batch_observe(const tafel_batch *b, float *obs, uint8_t *masks, int32_t *to_move,
                        tafel_error *err) {
    for (int i = 0; i < b->n; i++) {
        const tafel_state *s = at(b, i);
        int seat = tafel_state_current(s); /* never chance or the end: settled and restarted */
        if (to_move) to_move[i] = seat;
        if (masks && tafel_state_legal_actions_mask(s, masks + (size_t)i * (size_t)b->space,
                                                     (size_t)b->space) < 0)
            return tf_error(err, TAFEL_EINVAL, "the mask of state %d", i);
        if (!obs) continue;
        float *out = obs + (size_t)i * b->tensor;
        int rc = b->kind == TAFEL_OBSERVATION
                     ? tafel_state_observation_tensor(s, seat, out, b->tensor, err)
                     : tafel_state_information_state_tensor(s, seat, out, b->tensor, err);
        if (rc) return rc;
    }
    return TAFEL_OK;
}

/* The action actions[i] names in state i (-1: a random legal one), checked;
** -2 and -3 are taken by the caller. */
static int chosen(tafel_batch *b, int i, int32_t index, tafel_action *out, tafel_error *err) {
    tafel_state *s = at(b, i);
    if (index >= 0) {
        tafel_error why = {0};
        int rc = tafel_state_index_action(s, index, out, &why);
        return rc ? tf_error(err, rc, "state %d: %s", i, why.message) : TAFEL_OK;
    }
    if (index != TAFEL_BATCH_RANDOM)
        return tf_error(err, TAFEL_EINVAL, "state %d: action %d (an index, -1, -2 or -3)", i,
                        index);
    int n = tafel_state_legal_actions(s, b->scratch, b->cap);
    if (n < 1) return tf_error(err, TAFEL_ESTATE, "state %d has no legal action", i);
    *out = b->scratch[tafel_rng_below(&b->rng[i], (uint32_t)n)];
    return TAFEL_OK;
}

int tafel_batch_step(tafel_batch *b, const int32_t *actions, float *obs, uint8_t *masks,
                     int32_t *to_move, float *rewards, uint8_t *done, tafel_error *err) {
    /* every index checked before any state moves: a bad one changes nothing */
    for (int i = 0; i < b->n; i++) {
        int32_t index = actions[i];
        /* a random one is drawn when played, from the state's rng */
        if (index == TAFEL_BATCH_RANDOM || index == TAFEL_BATCH_KEEP ||
            index == TAFEL_BATCH_RESTART)
            continue;
        int rc = chosen(b, i, index, &b->picked[i], err);
        if (rc) return rc;
    }
    for (int i = 0; i < b->n; i++) {
        tafel_state *s = at(b, i);
        float *r = rewards ? rewards + (size_t)i * (size_t)b->players : NULL;
        if (r) memset(r, 0, sizeof *r * (size_t)b->players);
        if (done) done[i] = 0;
        int rc = TAFEL_OK;
        if (actions[i] == TAFEL_BATCH_KEEP) continue;
        if (actions[i] == TAFEL_BATCH_RESTART) {
            tafel_state_init(b->game, s);
            if ((rc = settle(b, i, err))) return rc;
            continue;
        }
        if (actions[i] == TAFEL_BATCH_RANDOM) rc = chosen(b, i, -1, &b->picked[i], err);
        if (!rc) rc = tafel_state_apply(s, b->picked[i], err);
        if (!rc) rc = settle(b, i, err);
        if (rc) return rc;
        int over = tafel_state_current(s) == TAFEL_TERMINAL;
        if (done) done[i] = (uint8_t)over;
        if (!over) continue;
        if (r) tafel_state_rewards(s, r);
        tafel_state_copy(final_at(b, i), s); /* kept for tafel_batch_final_state */
        b->ended[i] = 1;
        tafel_state_init(b->game, s); /* the next game, from the same rng */
        rc = settle(b, i, err);
        if (rc) return rc;
    }
    return tafel_batch_observe(b, obs, masks, to_move, err);
}
