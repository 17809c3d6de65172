/*
** module.h -- what a game module provides to the core (internal).
**
** The core (api.c) owns the public calls; each game supplies one tf_module,
** a table of functions over its own state struct, and is listed in
** registry.c.  A state in memory is a tf_state_header followed by the
** module's data, so the core finds the module of any state from the header
** alone (an index into the static registry, never a pointer) and a state
** stays plain memory.  Modules include this header and buf.h, never
** tafel.h internals of another game.
*/
#ifndef TF_MODULE_H
#define TF_MODULE_H

#include "tafel.h"
#include "buf.h"
#include "error.h"
#include "events.h"

#include <stdint.h>

#define TF_MAX_PARAMS 12

typedef enum { TF_PARAM_INT, TF_PARAM_BOOL, TF_PARAM_ENUM } tf_param_kind;

/* One game-string parameter.  ENUM values are listed as "2000|modern" and
** stored as their index; BOOL as 0/1. */
typedef struct tf_param {
    const char *name;
    tf_param_kind kind;
    int min, max; /* INT: range */
    int def;      /* default (for ENUM: index; players: see module) */
    const char *choices; /* ENUM: "a|b|c" */
    const char *help;
} tf_param;

/* Parsed parameter values, in the order of the module's param table. */
typedef struct tf_options {
    int value[TF_MAX_PARAMS];
} tf_options;

typedef struct tf_state_header {
    uint32_t magic;
    uint16_t module;   /* index into the registry */
    uint16_t players;
    uint32_t size;     /* whole state, header included */
    uint32_t moves;    /* actions applied so far */
} tf_state_header;

#define TF_STATE_MAGIC 0x7AFE1u

/* A named part of a tensor (tafel_game_tensor_part). */
typedef struct tf_tensor_part {
    const char *name;
    size_t size; /* floats */
} tf_tensor_part;

#define TF_MAX_TENSOR_PARTS 64

typedef struct tf_module {
    const char *name;
    const char *summary;
    const tf_param *params; /* params[0] is always "players" */
    int nparams;
    size_t data_size;       /* bytes of the module's state after the header */
    int max_actions;
    /* every action integer is below this (0: max_actions bounds them too) */
    int distinct_actions;

    /* Cross-parameter checks after each value passed its own range. */
    int (*validate)(const tf_options *opt, tafel_error *err);
    void (*init)(void *data, const tf_options *opt);

    int (*current)(const void *data);
    /* optional: the offset in data of an int8_t that always holds what
    ** current() would answer, read without a call (the hot path of every
    ** simulation asks it once or twice per action); 0 when there is none */
    size_t current_byte;
    /* the actions of whoever is to move: at a chance node the outcomes, at
    ** the end none */
    int (*legal)(const void *data, tafel_action *out, int cap);
    /* chance outcomes; prob may be NULL */
    int (*chance)(const void *data, tafel_action *out, double *prob, int cap);
    /* optional: draw a chance outcome faster than chance() + a search;
    ** -1 when the state is not a chance node */
    tafel_action (*sample)(const void *data, uint64_t *rng);
    /* validates first (a terminal state refuses everything: "the game is
    ** over"); on error the state is unchanged */
    int (*apply)(void *data, tafel_action a, tafel_error *err);
    /* optional: apply an action the module listed or sampled itself, so
    ** known legal, without checking it (tafel_state_play_random) */
    void (*play)(void *data, tafel_action a);
    int (*to_text)(const void *data, tafel_action a, char *buf, size_t n);
    /* the text as seat sees it, hidden cards as "?"; NULL (then to_text)
    ** exactly for games without hidden information */
    int (*view_text)(const void *data, int seat, tafel_action a, char *buf, size_t n);
    int (*from_text)(const void *data, const char *text, tafel_action *out,
                     tafel_error *err);
    void (*scores)(const void *data, double *out);
    void (*projected)(const void *data, double *out);
    void (*heuristic)(const void *data, double *out);
    /* optional: winners at a terminal state when ties are broken beyond the
    ** score (default: every seat with the best score) */
    int (*winners)(const void *data, int *out);
    int (*breakdown)(const void *data, int seat, const char **names,
                     double *values, int cap);
    int (*view_json)(const void *data, int seat, tf_buf *out);
    int (*render)(const void *data, int seat, int flags, tf_buf *out);
    int (*resample)(void *data, int seat, uint64_t *rng);
    int (*check)(const void *data, tafel_error *err);
    /* optional: the game's pieces as one JSON object, for front ends that
    ** draw them (tafel_game_pieces_json) */
    int (*pieces_json)(tf_buf *out);
    /* optional: the account of action a, legal in data (the core checked
    ** it), as ev->seat may see it (-1: a spectator): the module plays a on
    ** a copy with its reports on and writes the events (events.h).  NULL:
    ** the core tells only the action's text and the change of scores. */
    int (*describe)(const void *data, tafel_action a, tf_events *ev);
    /* optional: tafel_state_action_request for action a, legal in data (the
    ** core checked it); NULL: a game with no requests (every action 0) */
    int (*request)(const void *data, tafel_action a);

    /* For learners (tafel.h, docs/tensors.md).  All optional while a game
    ** has none (the calls then fail with TAFEL_EINVAL "no tensors").
    ** tensor_parts: the parts of tensor kind in order, at most cap, with
    ** their sizes in floats (their sum is the tensor's size); the shape is
    ** written by tensor_shape (rank returned).  Shapes and the action space
    ** depend on the number of players only (a state knows it; the other
    ** parameters change no size). */
    int (*tensor_shape)(int players, int kind, int *dims);
    int (*tensor_parts)(int players, int kind, tf_tensor_part *out, int cap);
    /* out holds the whole tensor, zeroed by the core: write what is not 0.
    ** seat is -1..players-1. */
    void (*tensor)(const void *data, int seat, int kind, float *out);
    /* the fixed action space: its size, and both ways between an action of
    ** the seat to move and its index (-1: none) */
    int (*action_space)(int players);
    int (*action_index)(const void *data, tafel_action a);
    int (*index_action)(const void *data, int index, tafel_action *out);
} tf_module;

/* state.c: the module's data inside a state (for white-box tests) */
void *tf_state_data(tafel_state *state);

/* registry.c */
extern const tf_module *const tf_games[]; /* by index: for the hot path */
int tf_registry_count(void);
const tf_module *tf_registry_get(int i);
int tf_registry_find(const char *name);


#endif
