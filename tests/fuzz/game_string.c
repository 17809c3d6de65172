/*
** game_string.c -- fuzz target: arbitrary bytes as a game string.
**
** tafel_game_load must either refuse with a message (and *out NULL) or give
** a game whose canonical string loads to the same game; its initial state
** must pass tafel_state_check, equal the state built in caller memory and
** the state of the canonical game, and stay valid for a few random steps
** (so that every parameter's rules run).
*/
#include "fuzz.h"

#define STEPS 24

/* Two loads of the same game agree on everything tafel.h shows. */
static void same_game(const tafel_game *a, const tafel_game *b, const char *text) {
    if (strcmp(tafel_game_string(a), tafel_game_string(b)) ||
        strcmp(tafel_game_name(a), tafel_game_name(b)) ||
        tafel_game_players(a) != tafel_game_players(b) ||
        tafel_game_state_size(a) != tafel_game_state_size(b) ||
        tafel_game_max_actions(a) != tafel_game_max_actions(b) ||
        tafel_game_hidden_information(a) != tafel_game_hidden_information(b))
        fz_fail("'%s' and its canonical string '%s' load different games", text,
                tafel_game_string(a));
}

static void play(const tafel_game *game, tafel_state *s, uint64_t seed) {
    int cap = tafel_game_max_actions(game);
    tafel_action *list = malloc(sizeof *list * (size_t)cap);
    if (!list) fz_fail("out of memory");
    uint64_t rng = tafel_rng_seed(seed);
    for (int i = 0; i < STEPS; i++) {
        if (tafel_state_play_random(s, &rng, list, cap, NULL)) break;
        fz_check(s, "a random step");
    }
    free(list);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;

    tafel_game *game = (tafel_game *)(void *)text; /* must become NULL on failure */
    tafel_error err = {-1, "untouched"};
    int rc = tafel_game_load(text, &game, &err);
    if (rc != TAFEL_OK) {
        if (game) fz_fail("tafel_game_load failed (%d) but left *out set", rc);
        if (rc != TAFEL_EGAME && rc != TAFEL_EPARAM && rc != TAFEL_ENOMEM)
            fz_fail("tafel_game_load: status %d is none of EGAME, EPARAM, ENOMEM", rc);
        if (err.code != rc || !err.message[0] || !strcmp(err.message, "untouched"))
            fz_fail("tafel_game_load: status %d, but the error says %d '%s'", rc, err.code,
                    err.message);
        free(text);
        return 0;
    }
    if (!game) fz_fail("tafel_game_load succeeded with no game");

    const char *canonical = tafel_game_string(game);
    size_t len = strlen(canonical);
    int players = tafel_game_players(game);
    if (players < 1 || players > TAFEL_MAX_PLAYERS)
        fz_fail("'%s': %d players", text, players);
    if (!len || canonical[len - 1] != ')')
        fz_fail("'%s': canonical string '%s' is cut", text, canonical);
    if (tafel_game_state_size(game) % 8 || tafel_game_max_actions(game) < 1)
        fz_fail("'%s': state size %zu, max actions %d", text, tafel_game_state_size(game),
                tafel_game_max_actions(game));

    tafel_game *again = NULL;
    if (tafel_game_load(canonical, &again, &err))
        fz_fail("'%s': canonical string '%s' does not load: %s", text, canonical,
                err.message);
    same_game(game, again, text);

    tafel_state *s = tafel_state_new(game), *t = tafel_state_new(again);
    size_t state_size = tafel_game_state_size(game);
    void *memory = aligned_alloc(8, state_size);
    if (!s || !t || !memory) fz_fail("out of memory");
    tafel_state *u = tafel_state_init(game, memory);
    if (tafel_state_size(s) != state_size || tafel_state_players(s) != players)
        fz_fail("'%s': the state does not match its game", text);
    if (!tafel_state_equal(s, t) || !tafel_state_equal(s, u))
        fz_fail("'%s': initial states differ (canonical game, caller memory)", text);
    fz_check(s, "the initial state");
    int who = tafel_state_current(s);
    if (who != TAFEL_CHANCE && (who < 0 || who >= players))
        fz_fail("'%s': the initial state's turn is %d", text, who);

    uint64_t seed = 0;
    for (size_t i = 0; i < size; i++) seed = seed * 131 + data[i];
    play(game, s, seed);
    play(again, t, seed);
    if (!tafel_state_equal(s, t))
        fz_fail("'%s': the same random steps differ in the canonical game", text);

    free(memory);
    tafel_state_free(s);
    tafel_state_free(t);
    tafel_game_free(again);
    tafel_game_free(game);
    free(text);
    return 0;
}
