/*
** tensors.c -- the learners' calls (tafel.h: tensors, the information-state
** string, the fixed action space), dispatched to the state's module.
**
** The core checks arguments and zeroes a tensor before the module writes
** it, so a module writes only what is not 0.  The information-state string
** is the same for every game: what the seat saw of each action, in order,
** which is exactly what tells two histories apart for that seat.
*/
#include "module.h"

#include <stdlib.h>
#include <string.h>

int tf_game_module(const tafel_game *g, const tf_options **opt);

static const tf_module *game_module(const tafel_game *g, const tf_options **opt) {
    return tf_registry_get(tf_game_module(g, opt));
}

static const tf_state_header *header_of(const tafel_state *s) {
    return (const tf_state_header *)(const void *)s;
}

static const tf_module *state_module(const tafel_state *s) {
    return tf_games[header_of(s)->module];
}

static const void *state_data(const tafel_state *s) {
    return (const char *)s + sizeof(tf_state_header);
}

static int known_kind(int kind) {
    return kind == TAFEL_OBSERVATION || kind == TAFEL_INFORMATION_STATE;
}

/* The number of floats of a tensor of kind for players. */
static size_t tensor_size(const tf_module *m, int players, int kind) {
    int dims[TAFEL_TENSOR_MAX_RANK];
    if (!known_kind(kind) || !m->tensor_shape) return 0;
    int rank = m->tensor_shape(players, kind, dims);
    size_t n = rank < 0 ? 0 : 1;
    for (int i = 0; i < rank; i++) n *= (size_t)dims[i];
    return n;
}

TAFEL_API int tafel_game_tensor_shape(const tafel_game *g, int kind, int *dims) {
    const tf_module *m = game_module(g, NULL);
    if (!known_kind(kind) || !m->tensor_shape || !dims) return -1;
    return m->tensor_shape(tafel_game_players(g), kind, dims);
}

TAFEL_API size_t tafel_game_tensor_size(const tafel_game *g, int kind) {
    return tensor_size(game_module(g, NULL), tafel_game_players(g), kind);
}

TAFEL_API const char *tafel_game_tensor_part(const tafel_game *g, int kind, int i,
                                             size_t *offset, size_t *size) {
    const tf_module *m = game_module(g, NULL);
    if (!known_kind(kind) || !m->tensor_parts || i < 0) return NULL;
    tf_tensor_part parts[TF_MAX_TENSOR_PARTS];
    int n = m->tensor_parts(tafel_game_players(g), kind, parts, TF_MAX_TENSOR_PARTS);
    if (n > TF_MAX_TENSOR_PARTS) n = TF_MAX_TENSOR_PARTS; /* a module that says more */
    if (i >= n) return NULL;
    size_t at = 0;
    for (int k = 0; k < i; k++) at += parts[k].size;
    if (offset) *offset = at;
    if (size) *size = parts[i].size;
    return parts[i].name;
}

static int write_tensor(const tafel_state *s, int seat, int kind, float *out,
                        size_t size, size_t expected, tafel_error *err) {
    const tf_module *m = state_module(s);
    if (!m->tensor)
        return tf_error(err, TAFEL_EINVAL, "%s: no tensors for this game", m->name);
    if (!out) return tf_error(err, TAFEL_EINVAL, "tensor: no output");
    if (seat < -1 || seat >= header_of(s)->players)
        return tf_error(err, TAFEL_EINVAL, "tensor: no seat %d (the game has %d)", seat,
                        header_of(s)->players);
    if (size != expected)
        return tf_error(err, TAFEL_EINVAL,
                        "tensor: %zu floats given, the tensor has %zu", size, expected);
    memset(out, 0, size * sizeof *out);
    m->tensor(state_data(s), seat, kind, out);
    return TAFEL_OK;
}

static size_t state_tensor_size(const tafel_state *s, int kind) {
    return tensor_size(state_module(s), header_of(s)->players, kind);
}

TAFEL_API int tafel_state_observation_tensor(const tafel_state *s, int seat, float *out,
                                             size_t size, tafel_error *err) {
    return write_tensor(s, seat, TAFEL_OBSERVATION, out, size,
                        state_tensor_size(s, TAFEL_OBSERVATION), err);
}

TAFEL_API int tafel_state_information_state_tensor(const tafel_state *s, int seat,
                                                   float *out, size_t size,
                                                   tafel_error *err) {
    return write_tensor(s, seat, TAFEL_INFORMATION_STATE, out, size,
                        state_tensor_size(s, TAFEL_INFORMATION_STATE), err);
}

TAFEL_API char *tafel_information_state_string(const tafel_game *g,
                                               const tafel_action *history, int count,
                                               int seat, tafel_error *err) {
    if (seat < -1 || seat >= tafel_game_players(g)) { /* -1: the spectator */
        tf_error(err, TAFEL_EINVAL, "information state: no seat %d (the game has %d)",
                 seat, tafel_game_players(g));
        return NULL;
    }
    if (count < 0 || (count > 0 && !history)) {
        tf_error(err, TAFEL_EINVAL, "information state: no history");
        return NULL;
    }
    tafel_state *s = tafel_state_new(g);
    tf_buf b;
    tf_buf_init(&b);
    if (!s) goto nomem;
    tf_buf_addf(&b, "%s seat %d\n", tafel_game_string(g), seat);
    for (int i = 0; i < count; i++) {
        char text[TAFEL_ACTION_TEXT_MAX];
        /* who acted is part of what the seat saw: "chance", or the seat */
        int who = tafel_state_current(s);
        tafel_action_view_text(s, seat, history[i], text, sizeof text);
        if (tafel_state_apply(s, history[i], err) != TAFEL_OK) {
            tf_buf_free(&b);
            tafel_state_free(s);
            return NULL;
        }
        if (who == TAFEL_CHANCE) tf_buf_addf(&b, "chance: %s\n", text);
        else tf_buf_addf(&b, "%d: %s\n", who, text);
    }
    tafel_state_free(s);
    if (b.oom) goto nomem;
    return tf_buf_take(&b);
nomem:
    tf_buf_free(&b);
    tafel_state_free(s);
    tf_error(err, TAFEL_ENOMEM, "information state: out of memory");
    return NULL;
}

TAFEL_API int tafel_game_action_space_size(const tafel_game *g) {
    const tf_module *m = game_module(g, NULL);
    return m->action_space ? m->action_space(tafel_game_players(g)) : 0;
}

TAFEL_API int tafel_state_action_index(const tafel_state *s, tafel_action a) {
    const tf_module *m = state_module(s);
    if (!m->action_index || tafel_state_current(s) < 0) return -1;
    return m->action_index(state_data(s), a);
}

TAFEL_API int tafel_state_index_action(const tafel_state *s, int index, tafel_action *out,
                                       tafel_error *err) {
    const tf_module *m = state_module(s);
    if (!m->index_action || !out)
        return tf_error(err, TAFEL_EINVAL, "%s: no action space for this game", m->name);
    if (tafel_state_current(s) < 0)
        return tf_error(err, TAFEL_EINVAL, "action index %d: no seat is to move", index);
    int space = m->action_space ? m->action_space(header_of(s)->players) : 0;
    if (index < 0 || index >= space)
        return tf_error(err, TAFEL_EINVAL, "action index %d: outside the action space 0..%d",
                        index, space - 1);
    if (m->index_action(state_data(s), index, out) != 0)
        return tf_error(err, TAFEL_EILLEGAL, "action index %d: no action here has it",
                        index);
    return TAFEL_OK;
}

TAFEL_API int tafel_state_legal_actions_mask(const tafel_state *s, uint8_t *mask,
                                             size_t size) {
    const tf_module *m = state_module(s);
    if (!mask) return -1;
    memset(mask, 0, size);
    if (!m->action_index || tafel_state_current(s) < 0) return 0;
    /* on the stack for every game of today (the Catan card game lists up
    ** to 6,772): a mask is asked at every step of a learner's loop, and
    ** tafel_state_is_legal takes as much stack for its scratch state */
    enum { ON_STACK = 8192 };
    tafel_action stack[ON_STACK], *legal = stack;
    if (m->max_actions > ON_STACK &&
        !(legal = malloc(sizeof *legal * (size_t)m->max_actions)))
        return -1;
    int n = m->legal(state_data(s), legal, m->max_actions > ON_STACK ? m->max_actions : ON_STACK);
    int count = 0;
    for (int i = 0; i < n && count >= 0; i++) {
        int k = m->action_index(state_data(s), legal[i]);
        if (k < 0) continue;
        if ((size_t)k >= size) count = -1;
        else {
            count += !mask[k];
            mask[k] = 1;
        }
    }
    if (legal != stack) free(legal);
    return count;
}
