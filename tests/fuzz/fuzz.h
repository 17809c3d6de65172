/*
** fuzz.h -- what the libFuzzer targets share (docs/fuzzing.md): the games
** they play, a position made from the first bytes of an input, and failing
** loudly.  Public API only.
**
** An input that names a position starts with FZ_HEADER bytes: the game (one
** of fz_games), the number of random steps (two bytes, little-endian, taken
** modulo the game's span) and a seed; the position is the initial state
** after that many steps of tafel_state_play_random (fewer if the game ends).
** The rest of the input is the target's own.  A finding is an abort() with a
** message on stderr, so that libFuzzer stops and saves the input.
**
** A known defect that would stop a target within seconds is stepped around
** while it is being fixed, marked KNOWN DEFECT where it is; with
** TAFEL_FUZZ_STRICT=1 in the environment the targets step around nothing.
*/
#ifndef TAFEL_FUZZ_H
#define TAFEL_FUZZ_H

#include "tafel.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FZ_HEADER 4
#define FZ_CACHE 256

/* The games the position targets play, each with its span: a little more
** than its random games usually last, so that some positions are final. */
static const struct fz_game_info {
    const char *string;
    int span;
} fz_games[] = {
    {"carcassonne", 230},
    {"carcassonne(players=3,crop_circles=true)", 270},
    {"carcassonne(players=5,crop_circles=true,first=4,small_city=4)", 280},
    {"carcassonne(players=4,farmers=modern)", 260},
    {"cardcassonne", 300},
    {"cardcassonne(players=3,dealer=2)", 310},
    {"cardcassonne(players=5,dealer=4)", 320},
    {"catan_cards", 3000},
    {"catan_cards(win_on_own_turn=true)", 3000},
    {"catan_cards(max_turns=20)", 420},
};
#define FZ_GAMES ((int)(sizeof fz_games / sizeof fz_games[0]))

static inline void fz_fail(const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    fputs("\n*** tafel fuzz finding: ", stderr);
    vfprintf(stderr, format, ap);
    fputs("\n", stderr);
    va_end(ap);
    abort();
}

/* 1 when TAFEL_FUZZ_STRICT asks to step around no known defect. */
static inline int fz_strict(void) {
    const char *v = getenv("TAFEL_FUZZ_STRICT");
    return v && *v && strcmp(v, "0") != 0;
}

/* The games, loaded once and kept for the whole run. */
static inline const tafel_game *fz_game(int index) {
    static tafel_game *games[FZ_GAMES];
    if (!games[index]) {
        tafel_error err = {0};
        if (tafel_game_load(fz_games[index].string, &games[index], &err))
            fz_fail("cannot load %s: %s", fz_games[index].string, err.message);
    }
    return games[index];
}

/* A copy of s (fz_fail when out of memory). */
static inline tafel_state *fz_clone(const tafel_state *s) {
    tafel_state *c = tafel_state_clone(s);
    if (!c) fz_fail("out of memory");
    return c;
}

/* A position to fuzz against: its game, the state and a scratch list as
** long as any list of legal actions (both owned; fz_position_free). */
typedef struct fz_position {
    int index; /* in fz_games */
    const tafel_game *game;
    int players, max_actions;
    int catan; /* the Catan card game */
    tafel_state *state;
    tafel_action *list;
} fz_position;

/* The position the first FZ_HEADER bytes name (zeros past the end of a short
** input); *data and *size move past the header. */
static inline void fz_position_make(const uint8_t **data, size_t *size, fz_position *p) {
    uint8_t h[FZ_HEADER] = {0};
    size_t n = *size < FZ_HEADER ? *size : FZ_HEADER;
    memcpy(h, *data, n);
    *data += n;
    *size -= n;
    p->index = h[0] % FZ_GAMES;
    p->game = fz_game(p->index);
    p->players = tafel_game_players(p->game);
    p->max_actions = tafel_game_max_actions(p->game);
    p->catan = strcmp(tafel_game_name(p->game), "catan_cards") == 0;
    p->state = tafel_state_new(p->game);
    p->list = malloc(sizeof *p->list * (size_t)p->max_actions);
    if (!p->state || !p->list) fz_fail("out of memory");
    /* The positions last made, by header: a long Catan game costs
    ** milliseconds under the sanitizers, and mutations often keep the header. */
    static struct {
        uint8_t h[FZ_HEADER];
        tafel_state *state;
    } cache[FZ_CACHE];
    unsigned slot = (unsigned)(h[0] * 7919u + h[1] * 131u + h[2] * 31u + h[3]) % FZ_CACHE;
    if (cache[slot].state && !memcmp(cache[slot].h, h, FZ_HEADER) &&
        tafel_state_size(cache[slot].state) == tafel_state_size(p->state)) {
        tafel_state_copy(p->state, cache[slot].state);
        return;
    }
    int steps = (h[1] | h[2] << 8) % (fz_games[p->index].span + 1);
    uint64_t rng = tafel_rng_seed(h[3]);
    for (int i = 0; i < steps; i++)
        if (tafel_state_play_random(p->state, &rng, p->list, p->max_actions, NULL))
            break; /* the game is over */
    tafel_state_free(cache[slot].state);
    cache[slot].state = fz_clone(p->state);
    memcpy(cache[slot].h, h, FZ_HEADER);
}

static inline void fz_position_free(fz_position *p) {
    tafel_state_free(p->state);
    free(p->list);
}

/* The legal actions of s (chance outcomes at a chance node) into list,
** which holds max_actions; their number. */
static inline int fz_legal(const fz_position *p, const tafel_state *s) {
    int n = tafel_state_legal_actions(s, p->list, p->max_actions);
    if (n < 0 || n > p->max_actions)
        fz_fail("%d legal actions, but the game's bound is %d", n, p->max_actions);
    return n;
}

static inline int fz_in_list(const tafel_action *list, int n, tafel_action a) {
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (list[mid] == a) return 1;
        if (list[mid] < a) lo = mid + 1;
        else hi = mid - 1;
    }
    return 0;
}

/* The whole state's invariants (tafel_state_check); what: for the message. */
static inline void fz_check(const tafel_state *s, const char *what) {
    tafel_error err = {0};
    if (tafel_state_check(s, &err) != TAFEL_OK)
        fz_fail("%s: tafel_state_check: %s", what, err.message);
}

#endif
