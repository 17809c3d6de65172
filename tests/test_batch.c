/*
** test_batch.c -- tafel_batch: n states stepped in one call play exactly the
** games single states play (issue 38): for each game, a batch and one
** state per index, the state seeded with tafel_batch_rng(seed, i), are
** given the same actions (a chosen index or -1, random) for hundreds of
** steps, through games that end and start anew; at every step the states,
** tensors, masks, seats to move, rewards and ends must be equal.  A bad
** index fails the call and moves no state.  -2 leaves a state as it is and
** -3 starts its next game, while the others move; a game that ended is
** kept (tafel_batch_final_state).
*/
#include "helpers.h"

#define N 5
#define STEPS 600

/* One state played as the batch plays state i: chance drawn, the action
** chosen, a finished game's rewards, a new game. */
typedef struct single {
    tafel_state *s;
    uint64_t rng;
    tafel_action *scratch;
    int cap;
} single;

static void settle(single *one) {
    while (tafel_state_current(one->s) == TAFEL_CHANCE) {
        tafel_action a;
        assert_int_equal(tafel_state_sample_chance(one->s, &one->rng, &a), TAFEL_OK);
        assert_int_equal(tafel_state_apply(one->s, a, NULL), TAFEL_OK);
    }
}

static void step_single(single *one, const tafel_game *g, int32_t index, float *rewards,
                        uint8_t *done) {
    int players = tafel_game_players(g);
    if (index < 0) {
        assert_int_equal(tafel_state_play_random(one->s, &one->rng, one->scratch, one->cap,
                                                 NULL), TAFEL_OK);
    } else {
        tafel_action a;
        assert_int_equal(tafel_state_index_action(one->s, index, &a, NULL), TAFEL_OK);
        assert_int_equal(tafel_state_apply(one->s, a, NULL), TAFEL_OK);
    }
    settle(one);
    for (int p = 0; p < players; p++) rewards[p] = 0;
    *done = tafel_state_current(one->s) == TAFEL_TERMINAL;
    if (!*done) return;
    int winners[TAFEL_MAX_PLAYERS], w = tafel_state_winners(one->s, winners);
    if (w < players) {
        for (int p = 0; p < players; p++) rewards[p] = -1;
        for (int k = 0; k < w; k++) rewards[winners[k]] = 1;
    }
    tafel_state_init(g, one->s);
    settle(one);
}

static void free_test(tafel_batch *b, tafel_game *g, float *obs, float *tensor, uint8_t *masks,
                      uint8_t *mask) {
    free(obs);
    free(tensor);
    free(masks);
    free(mask);
    tafel_batch_free(b);
    tafel_game_free(g);
}

static void batch_plays_as_single_states(const char *game_string, int kind) {
    tafel_game *g = h_game(game_string);
    int players = tafel_game_players(g), space = tafel_game_action_space_size(g);
    size_t tsize = tafel_game_tensor_size(g, kind);
    const uint64_t seed = 2026;
    tafel_error err = {0};
    tafel_batch *b = tafel_batch_new(g, N, seed, kind, &err);
    assert_non_null(b);
    assert_int_equal(tafel_batch_size(b), N);
    float *obs = malloc(sizeof *obs * tsize * N), *tensor = malloc(sizeof *tensor * tsize);
    uint8_t *masks = malloc((size_t)space * N), *mask = malloc((size_t)space);
    float rewards[N * TAFEL_MAX_PLAYERS], reward[TAFEL_MAX_PLAYERS];
    uint8_t done[N], one_done;
    int32_t to_move[N], actions[N];
    single one[N];
    for (int i = 0; i < N; i++) {
        one[i].s = tafel_state_new(g);
        one[i].rng = tafel_batch_rng(seed, i);
        one[i].cap = tafel_game_max_actions(g);
        one[i].scratch = malloc(sizeof(tafel_action) * (size_t)one[i].cap);
        settle(&one[i]);
    }
    assert_int_equal(tafel_batch_observe(b, obs, masks, to_move, &err), TAFEL_OK);
    uint64_t chooser = tafel_rng_seed(7);
    int ends = 0;
    for (int step = 0; step < STEPS; step++) {
        for (int i = 0; i < N; i++) {
            const tafel_state *bs = tafel_batch_state(b, i);
            assert_true(tafel_state_equal(bs, one[i].s));
            int seat = tafel_state_current(one[i].s);
            assert_int_equal(to_move[i], seat);
            if (kind == TAFEL_OBSERVATION)
                tafel_state_observation_tensor(one[i].s, seat, tensor, tsize, NULL);
            else
                tafel_state_information_state_tensor(one[i].s, seat, tensor, tsize, NULL);
            assert_memory_equal(obs + (size_t)i * tsize, tensor, sizeof *tensor * tsize);
            int legal = tafel_state_legal_actions_mask(one[i].s, mask, (size_t)space);
            assert_memory_equal(masks + (size_t)i * (size_t)space, mask, (size_t)space);
            /* half random, half the k-th legal index */
            actions[i] = -1;
            if (legal > 0 && tafel_rng_below(&chooser, 2)) {
                int k = (int)tafel_rng_below(&chooser, (uint32_t)legal);
                for (int j = 0; j < space; j++)
                    if (mask[j] && k-- == 0) actions[i] = j;
            }
        }
        assert_int_equal(tafel_batch_step(b, actions, obs, masks, to_move, rewards, done, &err),
                         TAFEL_OK);
        for (int i = 0; i < N; i++) {
            step_single(&one[i], g, actions[i], reward, &one_done);
            assert_int_equal(done[i], one_done);
            assert_memory_equal(rewards + i * players, reward, sizeof *reward * (size_t)players);
            ends += one_done;
        }
    }
    assert_true(ends > 0); /* games ended and started anew on the way */

    /* a bad index fails the call and moves no state */
    tafel_state *before[N];
    for (int i = 0; i < N; i++) {
        before[i] = tafel_state_clone(tafel_batch_state(b, i));
        actions[i] = -1;
    }
    tafel_batch_observe(b, NULL, masks, NULL, &err);
    int bad = -1;
    for (int j = 0; j < space && bad < 0; j++)
        if (!masks[(size_t)(N - 1) * (size_t)space + (size_t)j]) bad = j;
    if (bad >= 0) {
        actions[N - 1] = bad;
        assert_int_not_equal(tafel_batch_step(b, actions, obs, masks, to_move, rewards, done,
                                              &err), TAFEL_OK);
        assert_non_null(strstr(err.message, "state 4"));
        for (int i = 0; i < N; i++) assert_true(tafel_state_equal(before[i], tafel_batch_state(b, i)));
    }
    actions[0] = -7;
    assert_int_equal(tafel_batch_step(b, actions, NULL, NULL, NULL, NULL, NULL, &err),
                     TAFEL_EINVAL);
    for (int i = 0; i < N; i++) tafel_state_free(before[i]);

    for (int i = 0; i < N; i++) {
        tafel_state_free(one[i].s);
        free(one[i].scratch);
    }
    free_test(b, g, obs, tensor, masks, mask);
}

static void test_carcassonne(void **unused) {
    (void)unused;
    batch_plays_as_single_states("carcassonne(players=2)", TAFEL_OBSERVATION);
}

static void test_cardcassonne(void **unused) {
    (void)unused;
    batch_plays_as_single_states("cardcassonne(players=3)", TAFEL_INFORMATION_STATE);
}

static void test_catan_cards(void **unused) {
    (void)unused;
    batch_plays_as_single_states("catan_cards(max_turns=12)", TAFEL_OBSERVATION);
}

/* Half the states kept (-2) while the others play random actions: a kept
** state is the same state, with done 0 and rewards 0, and its tensor and
** mask still written.  Then -3: the next game from the state's rng, as a
** single state with that rng starts it after the same draws.  Every game
** that ended is the final state kept, terminal, until the next one ends. */
static void test_keep_restart_and_final(void **unused) {
    (void)unused;
    tafel_game *g = h_game("cardcassonne(players=2)");
    int players = tafel_game_players(g), space = tafel_game_action_space_size(g);
    size_t tsize = tafel_game_tensor_size(g, TAFEL_OBSERVATION);
    tafel_error err = {0};
    tafel_batch *b = tafel_batch_new(g, N, 11, TAFEL_OBSERVATION, &err);
    assert_non_null(b);
    float *obs = malloc(sizeof *obs * tsize * N), *tensor = malloc(sizeof *tensor * tsize);
    uint8_t *masks = malloc((size_t)space * N), *mask = malloc((size_t)space);
    float rewards[N * TAFEL_MAX_PLAYERS];
    uint8_t done[N];
    int32_t to_move[N], actions[N];
    for (int i = 0; i < N; i++) assert_null(tafel_batch_final_state(b, i));
    assert_null(tafel_batch_final_state(b, N));
    int ends = 0;
    for (int step = 0; step < 400; step++) {
        tafel_state *kept[N];
        for (int i = 0; i < N; i++) {
            int keep = (i + step) % 2 == 0;
            actions[i] = keep ? TAFEL_BATCH_KEEP : TAFEL_BATCH_RANDOM;
            kept[i] = keep ? tafel_state_clone(tafel_batch_state(b, i)) : NULL;
        }
        memset(done, 7, sizeof done);
        for (int k = 0; k < N * players; k++) rewards[k] = 9;
        assert_int_equal(tafel_batch_step(b, actions, obs, masks, to_move, rewards, done, &err),
                         TAFEL_OK);
        for (int i = 0; i < N; i++) {
            const tafel_state *s = tafel_batch_state(b, i);
            if (kept[i]) {
                assert_true(tafel_state_equal(kept[i], s));
                assert_int_equal(done[i], 0);
                for (int p = 0; p < players; p++) assert_true(rewards[i * players + p] == 0);
                tafel_state_free(kept[i]);
            }
            assert_int_equal(to_move[i], tafel_state_current(s));
            tafel_state_observation_tensor(s, to_move[i], tensor, tsize, NULL);
            assert_memory_equal(obs + (size_t)i * tsize, tensor, sizeof *tensor * tsize);
            tafel_state_legal_actions_mask(s, mask, (size_t)space);
            assert_memory_equal(masks + (size_t)i * (size_t)space, mask, (size_t)space);
            if (!done[i]) continue;
            ends++;
            const tafel_state *final = tafel_batch_final_state(b, i);
            assert_non_null(final);
            assert_int_equal(tafel_state_current(final), TAFEL_TERMINAL);
            /* the rewards written are the final state's winners' */
            int winners[TAFEL_MAX_PLAYERS], w = tafel_state_winners(final, winners);
            if (w < players)
                for (int k = 0; k < w; k++) assert_true(rewards[i * players + winners[k]] == 1);
            assert_int_equal(tafel_state_observation_tensor(final, 0, tensor, tsize, NULL),
                             TAFEL_OK);
        }
    }
    assert_true(ends > 0);

    /* -3 starts state 0 anew, the others kept: on a new batch, after some
    ** random moves of state 0 alone, it is the next game a single state with
    ** state 0's rng starts after the same draws */
    tafel_batch *fresh = tafel_batch_new(g, N, 5, TAFEL_OBSERVATION, &err);
    assert_non_null(fresh);
    single one = {tafel_state_new(g), tafel_batch_rng(5, 0), NULL, tafel_game_max_actions(g)};
    one.scratch = malloc(sizeof(tafel_action) * (size_t)one.cap);
    settle(&one);
    tafel_state *other = tafel_state_clone(tafel_batch_state(fresh, 1));
    for (int i = 0; i < N; i++) actions[i] = TAFEL_BATCH_KEEP;
    for (int step = 0; step < 6; step++) {
        actions[0] = TAFEL_BATCH_RANDOM;
        assert_int_equal(tafel_batch_step(fresh, actions, NULL, NULL, NULL, rewards, done, &err),
                         TAFEL_OK);
        step_single(&one, g, -1, rewards + N * players - players, &done[N - 1]);
    }
    actions[0] = TAFEL_BATCH_RESTART;
    assert_int_equal(tafel_batch_step(fresh, actions, obs, masks, to_move, rewards, done, &err),
                     TAFEL_OK);
    tafel_state_init(g, one.s);
    settle(&one);
    assert_int_equal(done[0], 0);
    assert_true(tafel_state_equal(one.s, tafel_batch_state(fresh, 0)));
    assert_int_equal(to_move[0], tafel_state_current(one.s));
    assert_true(tafel_state_equal(other, tafel_batch_state(fresh, 1)));
    assert_null(tafel_batch_final_state(fresh, 0)); /* a game left unfinished is not kept */
    tafel_state_free(one.s);
    free(one.scratch);
    tafel_state_free(other);
    tafel_batch_free(fresh);
    free_test(b, g, obs, tensor, masks, mask);
}

static void test_bad_arguments(void **unused) {
    (void)unused;
    tafel_game *g = h_game("cardcassonne");
    tafel_error err = {0};
    assert_null(tafel_batch_new(g, 0, 1, TAFEL_OBSERVATION, &err));
    assert_int_equal(err.code, TAFEL_EINVAL);
    assert_null(tafel_batch_new(g, 4, 1, 9, &err));
    assert_non_null(strstr(err.message, "tensor kind"));
    tafel_batch *b = tafel_batch_new(g, 1, 1, TAFEL_OBSERVATION, &err);
    assert_non_null(b);
    assert_null(tafel_batch_state(b, 3));
    assert_null(tafel_batch_state(b, -1));
    tafel_batch_free(b);
    tafel_batch_free(NULL);
    tafel_game_free(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_carcassonne),
        cmocka_unit_test(test_cardcassonne),
        cmocka_unit_test(test_catan_cards),
        cmocka_unit_test(test_keep_restart_and_final),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
