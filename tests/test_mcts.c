/*
** test_mcts.c -- the search bots (mcts and its levels), through tafel.h.
**
** Every choice is legal, in thousands of positions of each game reached by
** random play, with every kind of rollout; the analysis of a search names
** legal moves with shares and win rates that make sense.  A game between
** two seeded search bots replays action for action.  No cheating: from two
** positions that differ only in what the seat to move cannot see (the same
** position resampled for that seat with two rngs), bots with the same seed
** search alike, move for move, shares and win rates included.
*/
#include "helpers.h"

#include <time.h>

/* Positions asked per game, and how many bots take turns answering. */
#define LEGAL_POSITIONS (SLOW_BUILD ? 1000 : 2000)
#define NO_CHEAT_POSITIONS (SLOW_BUILD ? 12 : 40)
#define ANALYSED 4
#define BOTS 3

/* The games, each with bots that cover the rollouts: greedy with a short
** cut-off, random to the end (Catan's games are too long: a long cut-off),
** and a budget large enough to fill the tree near the root. */
static const struct game_bots {
    const char *game;
    const char *specs[BOTS];
} game_bots[] = {
    {"carcassonne(players=3)",
     {"mcts:iters=8,depth=4", "mcts:iters=8,policy=0,depth=-1", "mcts:iters=150,depth=1"}},
    {"cardcassonne(players=3)",
     {"mcts:iters=8,depth=4", "mcts:iters=8,policy=0,depth=-1", "mcts:iters=150,depth=1"}},
    {"catan_cards",
     {"mcts:iters=8,depth=4", "mcts:iters=8,policy=0,depth=60", "mcts:iters=150,depth=1"}},
};

#define NGAMES ((int)(sizeof game_bots / sizeof game_bots[0]))

static tafel_bot *new_bot(const char *spec, const tafel_game *g, uint64_t seed) {
    tafel_bot *bot = NULL;
    tafel_error err = {0};
    if (tafel_bot_new(spec, g, seed, &bot, &err)) fail_msg("bot '%s': %s", spec, err.message);
    return bot;
}

/* One random action (chance with its probabilities), applied. */
static void random_step(tafel_state *s, uint64_t *rng) {
    tafel_action a;
    int n;
    if (tafel_state_current(s) == TAFEL_CHANCE) {
        assert_int_equal(tafel_state_sample_chance(s, rng, &a), TAFEL_OK);
    } else {
        tafel_action *legal = h_legal(s, &n);
        assert_true(n > 0);
        a = legal[tafel_rng_below(rng, (uint32_t)n)];
        free(legal);
    }
    assert_int_equal(tafel_state_apply(s, a, NULL), TAFEL_OK);
}

/* How many legal actions the seat to move has. */
static int choices(const tafel_state *s) {
    tafel_action probe[1];
    return tafel_state_legal_actions(s, probe, 1);
}

/* Random play on to the next seat with a choice; a new game at the end. */
static void next_choice(const tafel_game *g, tafel_state *s, uint64_t *rng) {
    do {
        random_step(s, rng);
        if (tafel_state_current(s) == TAFEL_TERMINAL) tafel_state_init(g, s);
    } while (tafel_state_current(s) < 0 || choices(s) < 2);
}

/* An analysis: legal moves, no move twice, shares falling and adding up
** to at most 1, win rates in 0..1. */
static void check_analysis(const tafel_state *s, const tafel_bot_move *m, int n) {
    double total = 0;
    assert_true(n >= 1 && n <= ANALYSED);
    for (int i = 0; i < n; i++) {
        if (!tafel_state_is_legal(s, m[i].action))
            fail_msg("analysis move %d (action %d) is not legal", i, (int)m[i].action);
        for (int j = 0; j < i; j++) assert_int_not_equal(m[i].action, m[j].action);
        assert_true(m[i].share >= 0 && m[i].share <= 1);
        /* one move left once spent requests are left out (manners.c): it
        ** is played unsearched, with no estimate (-1) */
        if (n == 1 && m[0].winrate == -1) continue;
        assert_true(m[i].winrate >= 0 && m[i].winrate <= 1);
        if (i > 0) assert_true(m[i].share <= m[i - 1].share);
        total += m[i].share;
    }
    assert_true(total <= 1 + 1e-9);
}

static void legal_in_positions(const struct game_bots *gb) {
    tafel_game *g = h_game(gb->game);
    tafel_bot *bots[BOTS];
    for (int i = 0; i < BOTS; i++) bots[i] = new_bot(gb->specs[i], g, (uint64_t)i + 1);
    tafel_state *s = tafel_state_new(g);
    uint64_t rng = tafel_rng_seed(2024);
    tafel_error err = {0};
    for (int k = 0; k < LEGAL_POSITIONS; k++) {
        next_choice(g, s, &rng);
        tafel_bot *bot = bots[k % BOTS];
        tafel_action a;
        if (tafel_bot_choose(bot, s, &a, &err))
            fail_msg("%s, %s: %s", gb->game, tafel_bot_name(bot), err.message);
        if (!tafel_state_is_legal(s, a))
            fail_msg("%s, %s chose action %d, which is not legal (move %d)", gb->game,
                     tafel_bot_name(bot), (int)a, tafel_state_move_number(s));
        if (k % 10 == 0) {
            tafel_bot_move m[ANALYSED];
            int n = 0;
            assert_int_equal(tafel_bot_analyse(bot, s, m, ANALYSED, &n, &err), TAFEL_OK);
            check_analysis(s, m, n);
        }
    }
    tafel_state_free(s);
    for (int i = 0; i < BOTS; i++) tafel_bot_free(bots[i]);
    tafel_game_free(g);
}

static void test_the_bot_chooses_only_legal_actions_in_every_game(void **state) {
    (void)state;
    for (int i = 0; i < NGAMES; i++) legal_in_positions(&game_bots[i]);
}

/* A whole game between two seeded search bots, as record JSON. */
static char *bot_game(const char *game, const char *spec0, const char *spec1) {
    tafel_game *g = h_game(game);
    tafel_bot *bots[2] = {new_bot(spec0, g, 11), new_bot(spec1, g, 12)};
    tafel_state *s = tafel_state_new(g);
    tafel_record *r = tafel_record_new(game, 5);
    uint64_t rng = tafel_rng_seed(5);
    tafel_error err = {0};
    while (tafel_state_current(s) != TAFEL_TERMINAL) {
        int who = tafel_state_current(s);
        tafel_action a;
        if (who == TAFEL_CHANCE) assert_int_equal(tafel_state_sample_chance(s, &rng, &a), 0);
        else if (tafel_bot_choose(bots[who], s, &a, &err)) fail_msg("%s", err.message);
        assert_int_equal(tafel_record_push(r, s, a), TAFEL_OK);
        assert_int_equal(tafel_state_apply(s, a, NULL), TAFEL_OK);
    }
    char *json = tafel_record_to_json(r);
    tafel_record_free(r);
    tafel_state_free(s);
    tafel_bot_free(bots[0]);
    tafel_bot_free(bots[1]);
    tafel_game_free(g);
    return json;
}

static void test_a_game_of_seeded_search_bots_replays_exactly(void **state) {
    (void)state;
    static const char *const games[] = {"carcassonne", "cardcassonne", "catan_cards"};
    for (int i = 0; i < 3; i++) {
        const char *spec = i == 2 ? "mcts:iters=20,depth=8" : "mcts:iters=60,depth=8";
        char *first = bot_game(games[i], spec, "mcts:iters=30,policy=0");
        char *again = bot_game(games[i], spec, "mcts:iters=30,policy=0");
        assert_string_equal(first, again);
        free(first);
        free(again);
    }
}

/* Two copies of s, resampled for seat with different rngs: they look the
** same to seat (their views are byte for byte equal).  1 if they differ. */
static int two_worlds(const tafel_state *s, int seat, uint64_t k, tafel_state *a,
                      tafel_state *b) {
    uint64_t r1 = tafel_rng_seed(100 + k), r2 = tafel_rng_seed(200 + k);
    tafel_state_copy(a, s);
    tafel_state_copy(b, s);
    assert_int_equal(tafel_state_resample(a, seat, &r1), TAFEL_OK);
    assert_int_equal(tafel_state_resample(b, seat, &r2), TAFEL_OK);
    char *va = tafel_state_view_json(a, seat), *vb = tafel_state_view_json(b, seat);
    assert_string_equal(va, vb);
    free(va);
    free(vb);
    return !tafel_state_equal(a, b);
}

/* The two bots search the two worlds in step, so their rngs stay equal as
** long as every search depends only on the seat's view. */
static void no_cheating(const char *game, const char *spec) {
    tafel_game *g = h_game(game);
    tafel_bot *bot_a = new_bot(spec, g, 42), *bot_b = new_bot(spec, g, 42);
    tafel_state *s = tafel_state_new(g), *a = tafel_state_new(g), *b = tafel_state_new(g);
    uint64_t rng = tafel_rng_seed(9);
    tafel_error err = {0};
    int differed = 0;
    for (int k = 0; k < NO_CHEAT_POSITIONS; k++) {
        for (int skip = 0; skip < 5; skip++) next_choice(g, s, &rng);
        int seat = tafel_state_current(s);
        differed += two_worlds(s, seat, (uint64_t)k, a, b);
        tafel_bot_move ma[ANALYSED], mb[ANALYSED];
        int na = 0, nb = 0;
        assert_int_equal(tafel_bot_analyse(bot_a, a, ma, ANALYSED, &na, &err), TAFEL_OK);
        assert_int_equal(tafel_bot_analyse(bot_b, b, mb, ANALYSED, &nb, &err), TAFEL_OK);
        assert_int_equal(na, nb);
        for (int i = 0; i < na; i++) {
            if (ma[i].action != mb[i].action || ma[i].share != mb[i].share ||
                ma[i].winrate != mb[i].winrate)
                fail_msg("%s, move %d, seat %d: the search saw hidden information "
                         "(move %d: action %d %.4f %.4f vs action %d %.4f %.4f)",
                         game, tafel_state_move_number(s), seat, i, (int)ma[i].action,
                         ma[i].share, ma[i].winrate, (int)mb[i].action, mb[i].share,
                         mb[i].winrate);
        }
    }
    assert_true(differed > NO_CHEAT_POSITIONS / 2); /* the worlds did differ */
    tafel_state_free(s);
    tafel_state_free(a);
    tafel_state_free(b);
    tafel_bot_free(bot_a);
    tafel_bot_free(bot_b);
    tafel_game_free(g);
}

static void test_cardcassonne_the_bot_chooses_alike_in_worlds_its_seat_cannot_tell_apart(
    void **state) {
    (void)state;
    no_cheating("cardcassonne", "mcts:iters=200");
    no_cheating("cardcassonne(players=4)", "mcts:iters=100,policy=0,depth=-1");
}

static void test_catan_the_bot_chooses_alike_in_worlds_its_seat_cannot_tell_apart(
    void **state) {
    (void)state;
    no_cheating("catan_cards", "mcts:iters=200");
    no_cheating("catan_cards", "mcts:iters=100,policy=0,depth=30");
}

/* The levels are bots of their own, named and listed; specs take options. */
static void test_the_levels_are_listed_and_take_options(void **state) {
    (void)state;
    static const char *const levels[] = {"mcts", "easy", "medium", "hard"};
    for (int i = 0; i < 4; i++) {
        const char *name, *summary;
        int k = 0;
        while ((name = tafel_bot_info(k, &summary)) && strcmp(name, levels[i])) k++;
        if (!name) fail_msg("bot '%s' is not listed", levels[i]);
    }
    tafel_game *g = h_game("carcassonne");
    tafel_bot *bot = new_bot("hard:iters=50,c=100", g, 1);
    assert_string_equal(tafel_bot_name(bot), "hard:iters=50,c=100");
    tafel_bot_free(bot);
    tafel_bot *none = NULL;
    tafel_error err = {0};
    assert_int_equal(tafel_bot_new("mcts:policy=2", g, 1, &none, &err), TAFEL_EBOT);
    assert_null(none);
    tafel_game_free(g);
}

/* A time budget stops the search: 30 ms a move is far below a second. */
static void test_a_time_budget_stops_the_search(void **state) {
    (void)state;
    tafel_game *g = h_game("carcassonne");
    tafel_bot *bot = new_bot("mcts:ms=30", g, 1);
    tafel_state *s = tafel_state_new(g);
    uint64_t rng = tafel_rng_seed(1);
    next_choice(g, s, &rng);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    tafel_action a;
    assert_int_equal(tafel_bot_choose(bot, s, &a, NULL), TAFEL_OK);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    assert_true(seconds < 1.0);
    assert_true(tafel_state_is_legal(s, a));
    tafel_state_free(s);
    tafel_bot_free(bot);
    tafel_game_free(g);
}

/* Nothing to search: one legal move is the analysis, with no estimate;
** a bot that does not search reports its choice the same way. */
static void test_one_legal_move_and_bots_that_do_not_search(void **state) {
    (void)state;
    tafel_game *g = h_game("carcassonne");
    tafel_bot *mcts = new_bot("mcts:iters=50", g, 1), *greedy = new_bot("greedy", g, 1);
    tafel_state *s = tafel_state_new(g);
    uint64_t rng = tafel_rng_seed(4);
    int single = 0;
    for (int k = 0; k < 400 && !single; k++) {
        random_step(s, &rng);
        if (tafel_state_current(s) == TAFEL_TERMINAL) tafel_state_init(g, s);
        single = tafel_state_current(s) >= 0 && choices(s) == 1;
    }
    assert_true(single);
    tafel_bot_move m[ANALYSED];
    int n = 0;
    tafel_bot *both[2] = {mcts, greedy};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(tafel_bot_analyse(both[i], s, m, ANALYSED, &n, NULL), TAFEL_OK);
        assert_int_equal(n, 1);
        assert_true(tafel_state_is_legal(s, m[0].action));
        assert_true(m[0].share == 1 && m[0].winrate == -1);
    }
    tafel_state_free(s);
    tafel_bot_free(mcts);
    tafel_bot_free(greedy);
    tafel_game_free(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_bot_chooses_only_legal_actions_in_every_game),
        cmocka_unit_test(test_a_game_of_seeded_search_bots_replays_exactly),
        cmocka_unit_test(test_cardcassonne_the_bot_chooses_alike_in_worlds_its_seat_cannot_tell_apart),
        cmocka_unit_test(test_catan_the_bot_chooses_alike_in_worlds_its_seat_cannot_tell_apart),
        cmocka_unit_test(test_the_levels_are_listed_and_take_options),
        cmocka_unit_test(test_a_time_budget_stops_the_search),
        cmocka_unit_test(test_one_legal_move_and_bots_that_do_not_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
