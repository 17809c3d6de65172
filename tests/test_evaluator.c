/*
** test_evaluator.c -- a search bot with a leaf evaluator (tafel.h,
** tafel_bot_set_evaluator): fixed fake nets change its choice as they must.
**
** Values: with as many iterations as the root has moves, every move is
** tried once and judged by the evaluator alone, so the bot must choose the
** move the fake net values most -- which the test finds by applying every
** move itself -- whatever the batch.  Priors: a net that puts all its
** prior on one move, and values everything alike, has PUCT spend the
** search on that move.  Without the evaluator the same bots choose
** otherwise in some of the positions, so neither check can pass by chance.
** Errors of the evaluator reach the caller; bots that do not search, and
** bad batches, are refused; a game with hidden cards (leaves dealt for the
** searching seat) plays to the end with a priors net in batches.
*/
#include "helpers.h"

#include <string.h>

#define POSITIONS (SLOW_BUILD ? 12 : 30)

/* A fake net: what it is asked and how it answers. */
typedef struct fake_net {
    const tafel_game *game;
    int players, space, calls, most, fail;
    int favoured; /* the priors' one index: -1 the highest legal, -2 none */
    int seat;     /* whose tensor the values read: the searching seat's,
                  ** the same in every deal of what it cannot see; -1: the
                  ** leaf's seat to move */
    float *tensor;
    size_t size;
    uint8_t *mask;
} fake_net;

/* A value in [0, 1) that looks random but is a function of what one seat
** sees: the fake net's whole judgement. */
static double judge(fake_net *f, const tafel_state *st) {
    int seat = f->seat >= 0 ? f->seat : tafel_state_current(st);
    assert_int_equal(tafel_state_observation_tensor(st, seat, f->tensor, f->size, NULL),
                     TAFEL_OK);
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < f->size; i++) {
        uint32_t bits;
        memcpy(&bits, &f->tensor[i], sizeof bits);
        h = (h ^ bits) * 1099511628211ull;
    }
    return (double)(h >> 11) / (double)(1ull << 53);
}

static void judge_all(fake_net *f, const tafel_state *st, float *values) {
    double v = judge(f, st);
    int mover = tafel_state_current(st);
    for (int p = 0; p < f->players; p++)
        values[p] = (float)(p == mover ? v : (1 - v) / (f->players - 1));
}

static int fake_evaluate(void *ctx, const tafel_state *const *leaves, int n, float *values,
                         float *priors, tafel_error *err) {
    fake_net *f = ctx;
    f->calls++;
    if (n > f->most) f->most = n;
    if (f->fail) {
        snprintf(err->message, sizeof err->message, "the fake net is unplugged");
        return TAFEL_EINVAL;
    }
    for (int i = 0; i < n; i++) {
        assert_true(tafel_state_current(leaves[i]) >= 0); /* chance drawn, not the end */
        if (f->favoured == -2) {
            judge_all(f, leaves[i], values + i * f->players);
        } else {
            for (int p = 0; p < f->players; p++) values[i * f->players + p] = 1.0f / f->players;
        }
        if (!priors) continue;
        float *row = priors + (size_t)i * f->space;
        int k = tafel_state_legal_actions_mask(leaves[i], f->mask, (size_t)f->space);
        assert_true(k > 0);
        for (int j = 0; j < f->space; j++) row[j] = 0;
        int top = -1;
        for (int j = 0; j < f->space; j++)
            if (f->mask[j]) top = j;
        row[f->favoured >= 0 ? f->favoured : top] = 1;
    }
    return TAFEL_OK;
}

static void fake_init(fake_net *f, const tafel_game *g, int favoured) {
    memset(f, 0, sizeof *f);
    f->game = g;
    f->players = tafel_game_players(g);
    f->space = tafel_game_action_space_size(g);
    f->favoured = favoured;
    f->seat = -1;
    f->size = tafel_game_tensor_size(g, TAFEL_OBSERVATION);
    f->tensor = malloc(f->size * sizeof *f->tensor);
    f->mask = malloc((size_t)f->space);
    assert_non_null(f->tensor);
    assert_non_null(f->mask);
}

static void fake_free(fake_net *f) {
    free(f->tensor);
    free(f->mask);
}

static tafel_bot *new_bot(const char *spec, const tafel_game *g, uint64_t seed) {
    tafel_bot *bot = NULL;
    tafel_error err = {0};
    if (tafel_bot_new(spec, g, seed, &bot, &err)) fail_msg("bot '%s': %s", spec, err.message);
    return bot;
}

static void give(tafel_bot *bot, fake_net *f, int batch, int priors) {
    tafel_evaluator ev = {fake_evaluate, f, batch, priors};
    tafel_error err = {0};
    if (tafel_bot_set_evaluator(bot, &ev, &err)) fail_msg("set_evaluator: %s", err.message);
}

/* Random play from seed until a seat is to move with more than one action
** where each action leads to a decision without chance in between (so that
** the test can judge each move exactly as the search does); NULL when none
** comes within the game. */
static tafel_state *position(const tafel_game *g, uint64_t *rng) {
    tafel_state *s = tafel_state_new(g), *probe = tafel_state_new(g);
    for (int k = 0; k < 400; k++) {
        if (tafel_state_current(s) == TAFEL_TERMINAL) break;
        if (tafel_state_current(s) >= 0 && tafel_rng_below(rng, 3) == 0) {
            int n, ok = 1;
            tafel_action *legal = h_legal(s, &n);
            for (int i = 0; i < n && ok; i++) {
                tafel_state_copy(probe, s);
                assert_int_equal(tafel_state_apply(probe, legal[i], NULL), TAFEL_OK);
                ok = tafel_state_current(probe) >= 0;
            }
            free(legal);
            if (ok && n > 1) {
                tafel_state_free(probe);
                return s;
            }
        }
        tafel_action a;
        if (tafel_state_current(s) == TAFEL_CHANCE)
            assert_int_equal(tafel_state_sample_chance(s, rng, &a), TAFEL_OK);
        else
            a = h_random_action(s, rng);
        assert_int_equal(tafel_state_apply(s, a, NULL), TAFEL_OK);
    }
    tafel_state_free(s);
    tafel_state_free(probe);
    return NULL;
}

/* The move after which the fake net likes the mover's position best. */
static tafel_action best_by_net(fake_net *f, const tafel_state *s) {
    int n, mover = tafel_state_current(s);
    tafel_action *legal = h_legal(s, &n), best = -1;
    tafel_state *probe = tafel_state_new(f->game);
    float values[TAFEL_MAX_PLAYERS];
    double top = -1;
    for (int i = 0; i < n; i++) {
        tafel_state_copy(probe, s);
        assert_int_equal(tafel_state_apply(probe, legal[i], NULL), TAFEL_OK);
        judge_all(f, probe, values);
        if (values[mover] > top) top = values[mover], best = legal[i];
    }
    free(legal);
    tafel_state_free(probe);
    return best;
}

static tafel_action choose(tafel_bot *bot, const tafel_state *s) {
    tafel_action a = -1;
    tafel_error err = {0};
    if (tafel_bot_choose(bot, s, &a, &err)) fail_msg("choose: %s", err.message);
    assert_true(tafel_state_is_legal(s, a));
    return a;
}

/* Values alone: one iteration a move, and the bot takes the net's best. */
static void values_decide(const char *game, uint64_t seed) {
    tafel_game *g = h_game(game);
    fake_net f;
    fake_init(&f, g, -2);
    uint64_t rng = tafel_rng_seed(seed);
    int asked = 0, differs = 0;
    for (int k = 0; k < POSITIONS; k++) {
        tafel_state *s = position(g, &rng);
        if (!s) continue;
        int n;
        free(h_legal(s, &n));
        char spec[64];
        snprintf(spec, sizeof spec, "mcts:iters=%d", n);
        f.seat = tafel_state_current(s);
        tafel_action want = best_by_net(&f, s);
        for (int batch = 1; batch <= 8; batch += 7) {
            tafel_bot *bot = new_bot(spec, g, 7);
            give(bot, &f, batch, 0);
            f.calls = f.most = 0;
            assert_int_equal(choose(bot, s), want);
            assert_true(f.most <= batch);
            assert_int_equal(f.calls, (n + batch - 1) / batch);
            tafel_bot_free(bot);
        }
        tafel_bot *plain = new_bot(spec, g, 7);
        differs += choose(plain, s) != want;
        tafel_bot_free(plain);
        asked++;
        tafel_state_free(s);
    }
    assert_true(asked >= POSITIONS / 2);
    assert_true(differs > 0); /* rollouts alone choose otherwise */
    fake_free(&f);
    tafel_game_free(g);
}

static void test_carcassonne_the_nets_values_choose_the_move(void **state) {
    (void)state;
    values_decide("carcassonne", 11);
}

static void test_cardcassonne_the_nets_values_choose_the_move(void **state) {
    (void)state;
    values_decide("cardcassonne", 12);
}

/* Priors on the highest legal index, every value alike: PUCT spends the
** search on that move and chooses it; without the net the bot does not
** always. */
static void test_priors_steer_the_search(void **state) {
    (void)state;
    const char *games[] = {"carcassonne", "cardcassonne(players=3)", "catan_cards"};
    for (int gi = 0; gi < 3; gi++) {
        tafel_game *g = h_game(games[gi]);
        fake_net f;
        fake_init(&f, g, -1);
        uint64_t rng = tafel_rng_seed(20 + (uint64_t)gi);
        int asked = 0, differs = 0;
        tafel_bot *bot = new_bot("mcts:iters=60", g, 3), *plain = new_bot("mcts:iters=60", g, 3);
        give(bot, &f, 4, 1);
        for (int k = 0; k < POSITIONS; k++) {
            tafel_state *s = position(g, &rng);
            if (!s) continue;
            int top = -1;
            assert_true(tafel_state_legal_actions_mask(s, f.mask, (size_t)f.space) > 1);
            for (int j = 0; j < f.space; j++)
                if (f.mask[j]) top = j;
            tafel_action want;
            assert_int_equal(tafel_state_index_action(s, top, &want, NULL), TAFEL_OK);
            tafel_bot_move m[4];
            int count = 0;
            assert_int_equal(tafel_bot_analyse(bot, s, m, 4, &count, NULL), TAFEL_OK);
            assert_int_equal(m[0].action, want);
            assert_true(m[0].share > 0.5);
            differs += choose(plain, s) != want;
            asked++;
            tafel_state_free(s);
        }
        assert_true(asked >= POSITIONS / 2);
        assert_true(differs > 0);
        tafel_bot_free(bot);
        tafel_bot_free(plain);
        fake_free(&f);
        tafel_game_free(g);
    }
}

/* A game of the Catan card game (hidden cards, offers) between a bot with
** a priors net in batches of 16 and one with values only: every choice
** legal, the game ends. */
static void test_a_game_with_hidden_cards_plays_to_the_end(void **state) {
    (void)state;
    tafel_game *g = h_game("catan_cards");
    fake_net priors_net, values_net;
    fake_init(&priors_net, g, -1);
    fake_init(&values_net, g, -2);
    tafel_bot *bots[2] = {new_bot("mcts:iters=40", g, 1), new_bot("mcts:iters=40", g, 2)};
    give(bots[0], &priors_net, 16, 1);
    give(bots[1], &values_net, 16, 0);
    tafel_state *s = tafel_state_new(g);
    uint64_t rng = tafel_rng_seed(5);
    int moves = 0;
    while (tafel_state_current(s) != TAFEL_TERMINAL && moves < 3000) {
        int who = tafel_state_current(s);
        tafel_action a;
        if (who == TAFEL_CHANCE)
            assert_int_equal(tafel_state_sample_chance(s, &rng, &a), TAFEL_OK);
        else
            a = choose(bots[who], s), moves++;
        assert_int_equal(tafel_state_apply(s, a, NULL), TAFEL_OK);
    }
    assert_int_equal(tafel_state_current(s), TAFEL_TERMINAL);
    assert_true(priors_net.most > 1 && priors_net.most <= 16);
    tafel_state_free(s);
    tafel_bot_free(bots[0]);
    tafel_bot_free(bots[1]);
    fake_free(&priors_net);
    fake_free(&values_net);
    tafel_game_free(g);
}

static void test_errors_reach_the_caller(void **state) {
    (void)state;
    tafel_game *g = h_game("cardcassonne");
    fake_net f;
    fake_init(&f, g, -1);
    tafel_error err = {0};
    tafel_bot *greedy = new_bot("greedy", g, 1), *bot = new_bot("mcts:iters=10", g, 1);
    tafel_evaluator ev = {fake_evaluate, &f, 4, 1};
    assert_int_equal(tafel_bot_set_evaluator(greedy, &ev, &err), TAFEL_EBOT);
    assert_non_null(strstr(err.message, "does not search"));
    ev.batch = 0;
    assert_int_equal(tafel_bot_set_evaluator(bot, &ev, &err), TAFEL_EINVAL);
    ev.batch = TAFEL_EVALUATOR_MAX_BATCH + 1;
    assert_int_equal(tafel_bot_set_evaluator(bot, &ev, &err), TAFEL_EINVAL);
    ev.batch = 4;
    ev.evaluate = NULL;
    assert_int_equal(tafel_bot_set_evaluator(bot, &ev, &err), TAFEL_EINVAL);
    assert_int_equal(tafel_bot_set_evaluator(NULL, NULL, &err), TAFEL_EINVAL);
    give(bot, &f, 4, 1);
    uint64_t rng = tafel_rng_seed(9);
    tafel_state *s = position(g, &rng);
    assert_non_null(s);
    f.fail = 1;
    tafel_action a;
    assert_int_equal(tafel_bot_choose(bot, s, &a, &err), TAFEL_EINVAL);
    assert_non_null(strstr(err.message, "the fake net is unplugged"));
    /* taken away, the bot plays by rollouts again */
    assert_int_equal(tafel_bot_set_evaluator(bot, NULL, &err), TAFEL_OK);
    f.calls = 0;
    choose(bot, s);
    assert_int_equal(f.calls, 0);
    tafel_state_free(s);
    tafel_bot_free(greedy);
    tafel_bot_free(bot);
    fake_free(&f);
    tafel_game_free(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_carcassonne_the_nets_values_choose_the_move),
        cmocka_unit_test(test_cardcassonne_the_nets_values_choose_the_move),
        cmocka_unit_test(test_priors_steer_the_search),
        cmocka_unit_test(test_a_game_with_hidden_cards_plays_to_the_end),
        cmocka_unit_test(test_errors_reach_the_caller),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
