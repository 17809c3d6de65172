/*
** play.c -- a program outside tafel, built against an installed tafel by
** tests/install_test.sh (pkg-config shared and static, CMake): it plays a
** whole seeded game through the public API (a greedy bot against random
** play, chance drawn from the seed), writes the record, reads it back and
** replays it, and prints the result, which must be the same for every build.
**
** usage: play GAME SEED RECORD_FILE
*/
#include <tafel.h>

#include <stdio.h>
#include <stdlib.h>

static int fail(const char *what, const tafel_error *err) {
    fprintf(stderr, "play: %s: %s\n", what, err->message);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: play GAME SEED RECORD_FILE\n");
        return 2;
    }
    uint64_t seed = strtoull(argv[2], NULL, 10);
    tafel_error err = {0};
    tafel_game *game = NULL;
    if (tafel_game_load(argv[1], &game, &err)) return fail("game", &err);
    tafel_bot *bot = NULL;
    if (tafel_bot_new("greedy", game, seed, &bot, &err)) return fail("bot", &err);
    tafel_state *state = tafel_state_new(game);
    tafel_record *record = tafel_record_new(tafel_game_string(game), seed);
    int cap = tafel_game_max_actions(game);
    tafel_action *legal = malloc(sizeof *legal * (size_t)cap);
    if (!state || !record || !legal) return 1;
    uint64_t rng = tafel_rng_seed(seed);
    int seat;
    while ((seat = tafel_state_current(state)) != TAFEL_TERMINAL) {
        tafel_action a;
        if (seat == TAFEL_CHANCE) {
            if (tafel_state_sample_chance(state, &rng, &a)) return 1;
        } else if (seat == 0) {
            if (tafel_bot_choose(bot, state, &a, &err)) return fail("choose", &err);
        } else {
            int n = tafel_state_legal_actions(state, legal, cap);
            a = legal[tafel_rng_below(&rng, (uint32_t)n)];
        }
        if (tafel_record_push(record, state, a) || tafel_state_apply(state, a, &err))
            return fail("apply", &err);
    }
    /* The record through JSON (cJSON: what a static link needs it for). */
    char *json = tafel_record_to_json(record);
    FILE *f = fopen(argv[3], "w");
    if (!json || !f || fprintf(f, "%s\n", json) < 0 || fclose(f)) return 1;
    tafel_record *back = NULL;
    tafel_game *game2 = NULL;
    tafel_state *replayed = NULL;
    if (tafel_record_load_file(argv[3], &back, &err) ||
        tafel_record_replay(back, &game2, &replayed, &err))
        return fail("replay", &err);
    if (!tafel_state_equal(state, replayed)) {
        fprintf(stderr, "play: the replayed record ends elsewhere\n");
        return 1;
    }
    double scores[TAFEL_MAX_PLAYERS];
    int winners[TAFEL_MAX_PLAYERS];
    tafel_state_scores(state, scores);
    int nwinners = tafel_state_winners(state, winners);
    printf("%s: %d actions, scores", tafel_game_string(game), tafel_state_move_number(state));
    for (int i = 0; i < tafel_game_players(game); i++) printf(" %g", scores[i]);
    printf(", winners");
    for (int i = 0; i < nwinners; i++) printf(" %d", winners[i]);
    printf("\n");
    free(json);
    free(legal);
    tafel_state_free(replayed);
    tafel_game_free(game2);
    tafel_record_free(back);
    tafel_record_free(record);
    tafel_state_free(state);
    tafel_bot_free(bot);
    tafel_game_free(game);
    return 0;
}
