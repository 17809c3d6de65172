/*
** test_bot_stop.c -- a search that can be stopped and capped (tafel.h:
** tafel_bot_stop, tafel_bot_set_time_cap), through the public API.
**
** A search of 100,000,000 iterations on another thread ends within 100 ms
** of tafel_bot_stop, with a legal move; a time cap of 200 ms ends the same
** search in about 200 ms; a budget that ends before its cap chooses and
** analyses exactly as without the cap.  A deep greedy bot obeys both too.
** On a busy machine a thread may wait for a core longer than the search
** takes to notice a stop, so "within 100 ms" is checked on the searching
** thread's own CPU time after the stop, and its wall time loosely.
*/
#include "helpers.h"

#include <pthread.h>
#include <time.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static tafel_bot *new_bot(const char *spec, const tafel_game *g, uint64_t seed) {
    tafel_bot *bot = NULL;
    tafel_error err = {0};
    if (tafel_bot_new(spec, g, seed, &bot, &err)) fail_msg("bot '%s': %s", spec, err.message);
    return bot;
}

/* A position of game after `steps` random actions, a seat to move. */
static tafel_state *position(const char *game, int steps, uint64_t seed) {
    tafel_state *s = h_state(game);
    uint64_t rng = tafel_rng_seed(seed);
    for (int i = 0; i < steps || tafel_state_current(s) < 0; i++) {
        tafel_action a = h_random_action(s, &rng);
        assert_int_equal(tafel_state_apply(s, a, NULL), TAFEL_OK);
        assert_true(tafel_state_current(s) != TAFEL_TERMINAL);
    }
    return s;
}

static int legal(const tafel_state *s, tafel_action a) {
    int n, found = 0;
    tafel_action *all = h_legal(s, &n);
    for (int i = 0; i < n; i++) found |= all[i] == a;
    free(all);
    return found;
}

typedef struct search {
    tafel_bot *bot;
    const tafel_state *state;
    tafel_action action;
    int rc;
    double ended, ended_cpu;
} search;

static double cpu_ms(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static void *choose(void *arg) {
    search *s = arg;
    tafel_error err = {0};
    s->rc = tafel_bot_choose(s->bot, s->state, &s->action, &err);
    s->ended = now_ms();
    s->ended_cpu = cpu_ms(CLOCK_THREAD_CPUTIME_ID);
    return NULL;
}

/* spec searches on a thread for `wait` ms, is stopped, and answers within
** 100 ms with a legal move. */
static void stopped_within_100ms(const char *game, const char *spec, int steps) {
    tafel_game *g = h_game(game);
    tafel_state *st = position(game, steps, 7);
    search s = {.bot = new_bot(spec, g, 1), .state = st, .action = -1};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, choose, &s), 0);
    struct timespec wait = {0, 150 * 1000000L};
    nanosleep(&wait, NULL);
    clockid_t cpu;
    assert_int_equal(pthread_getcpuclockid(t, &cpu), 0);
    double stopped = now_ms(), stopped_cpu = cpu_ms(cpu);
    tafel_bot_stop(s.bot);
    pthread_join(t, NULL);
    double took = s.ended - stopped, took_cpu = s.ended_cpu - stopped_cpu;
    print_message("%s %s: answered %.1f ms after the stop (%.1f ms of its CPU)\n", game,
                  spec, took, took_cpu);
    assert_int_equal(s.rc, TAFEL_OK);
    assert_true(took_cpu < 100);
    assert_true(took < 1000);
    assert_true(legal(st, s.action));
    tafel_bot_free(s.bot);
    tafel_state_free(st);
    tafel_game_free(g);
}

static void stop_ends_a_search_of_100000000_iterations(void **unused) {
    (void)unused;
    stopped_within_100ms("carcassonne(players=2)", "mcts:iters=100000000", 6);
    stopped_within_100ms("cardcassonne(players=3)", "mcts:iters=100000000,depth=-1", 5);
    stopped_within_100ms("catan_cards", "mcts:iters=100000000,policy=1,depth=-1", 30);
    stopped_within_100ms("catan_cards", "hard:ms=3600000", 30);
}

/* A stop that comes before the search ends it at once; the next search is
** not stopped by it. */
static void stop_before_the_search_is_used_up_by_it(void **unused) {
    (void)unused;
    tafel_game *g = h_game("carcassonne(players=2)");
    tafel_state *st = position("carcassonne(players=2)", 4, 3);
    tafel_bot *bot = new_bot("mcts:iters=100000000", g, 1);
    tafel_error err = {0};
    tafel_bot_stop(bot);
    double t0 = now_ms();
    tafel_bot_move moves[3];
    int n = 0;
    assert_int_equal(tafel_bot_analyse(bot, st, moves, 3, &n, &err), TAFEL_OK);
    assert_true(now_ms() - t0 < 100);
    assert_true(n >= 1 && legal(st, moves[0].action));
    /* the next one runs to its cap: the stop was used up */
    assert_int_equal(tafel_bot_set_time_cap(bot, 150, &err), TAFEL_OK);
    t0 = now_ms();
    assert_int_equal(tafel_bot_analyse(bot, st, moves, 3, &n, &err), TAFEL_OK);
    assert_true(now_ms() - t0 >= 140);
    tafel_bot_stop(NULL); /* NULL is fine */
    tafel_bot_free(bot);
    tafel_state_free(st);
    tafel_game_free(g);
}

static void a_cap_of_200ms_ends_a_search_in_about_200ms(void **unused) {
    (void)unused;
    static const char *const specs[] = {"mcts:iters=100000000", "hard:ms=3600000"};
    tafel_game *g = h_game("carcassonne(players=2)");
    tafel_state *st = position("carcassonne(players=2)", 6, 11);
    for (int i = 0; i < 2; i++) {
        tafel_bot *bot = new_bot(specs[i], g, 5);
        tafel_error err = {0};
        assert_int_equal(tafel_bot_set_time_cap(bot, 200, &err), TAFEL_OK);
        tafel_action a = -1;
        double t0 = now_ms();
        assert_int_equal(tafel_bot_choose(bot, st, &a, &err), TAFEL_OK);
        double took = now_ms() - t0;
        print_message("%s under a cap of 200 ms: %.1f ms\n", specs[i], took);
        assert_true(took >= 195 && took < 1000); /* a busy machine: loosely */
        assert_true(legal(st, a));
        tafel_bot_free(bot);
    }
    tafel_state_free(st);
    tafel_game_free(g);
}

/* The same bot and seed, with and without a cap it never reaches: the
** same analysis, number for number. */
static void a_budget_below_the_cap_plays_as_without_it(void **unused) {
    (void)unused;
    static const struct {
        const char *game, *spec;
    } cases[] = {
        {"carcassonne(players=2)", "mcts:iters=300"},
        {"cardcassonne(players=3)", "medium"},
        {"catan_cards", "mcts:iters=200,depth=8"},
        {"catan_cards", "greedy:depth=2"},
        {"carcassonne(players=3)", "greedy"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        tafel_game *g = h_game(cases[c].game);
        for (int k = 0; k < 4; k++) {
            tafel_state *st = position(cases[c].game, 3 + 5 * k, 100 + (uint64_t)k);
            tafel_bot *plain = new_bot(cases[c].spec, g, 42 + (uint64_t)k);
            tafel_bot *capped = new_bot(cases[c].spec, g, 42 + (uint64_t)k);
            tafel_error err = {0};
            assert_int_equal(tafel_bot_set_time_cap(capped, 60000, &err), TAFEL_OK);
            tafel_bot_move a[5], b[5];
            int na = 0, nb = 0;
            assert_int_equal(tafel_bot_analyse(plain, st, a, 5, &na, &err), TAFEL_OK);
            assert_int_equal(tafel_bot_analyse(capped, st, b, 5, &nb, &err), TAFEL_OK);
            assert_int_equal(na, nb);
            for (int i = 0; i < na; i++) {
                assert_int_equal(a[i].action, b[i].action);
                assert_true(a[i].share == b[i].share && a[i].winrate == b[i].winrate);
            }
            tafel_action ca = -1, cb = -2;
            assert_int_equal(tafel_bot_choose(plain, st, &ca, &err), TAFEL_OK);
            assert_int_equal(tafel_bot_choose(capped, st, &cb, &err), TAFEL_OK);
            assert_int_equal(ca, cb);
            tafel_bot_free(plain);
            tafel_bot_free(capped);
            tafel_state_free(st);
        }
        tafel_game_free(g);
    }
}

/* greedy:depth=6 looks at many positions where a seat makes decisions in
** a row (Catan: 14 ms at the slowest of 40 random positions, here k = 30):
** a cap of 1 ms and a stop both end it with a legal move. */
static void a_deep_greedy_obeys_the_cap_and_the_stop(void **unused) {
    (void)unused;
    tafel_game *g = h_game("catan_cards");
    static const int ks[] = {14, 30};
    for (int i = 0; i < 2; i++) {
        tafel_state *st = position("catan_cards", 10 + 11 * ks[i], 900 + (uint64_t)ks[i]);
        tafel_bot *bot = new_bot("greedy:depth=6", g, 3);
        tafel_error err = {0};
        assert_int_equal(tafel_bot_set_time_cap(bot, 1, &err), TAFEL_OK);
        tafel_action a = -1;
        double t0 = now_ms();
        assert_int_equal(tafel_bot_choose(bot, st, &a, &err), TAFEL_OK);
        double took = now_ms() - t0;
        print_message("greedy:depth=6 under a cap of 1 ms: %.1f ms\n", took);
        assert_true(took < 500);
        assert_true(legal(st, a));
        assert_int_equal(tafel_bot_set_time_cap(bot, 0, &err), TAFEL_OK);
        tafel_bot_stop(bot);
        a = -1;
        assert_int_equal(tafel_bot_choose(bot, st, &a, &err), TAFEL_OK);
        assert_true(legal(st, a));
        tafel_bot_free(bot);
        tafel_state_free(st);
    }
    tafel_game_free(g);
}

static void a_negative_cap_is_refused(void **unused) {
    (void)unused;
    tafel_game *g = h_game("carcassonne(players=2)");
    tafel_bot *bot = new_bot("random", g, 1);
    tafel_error err = {0};
    assert_int_equal(tafel_bot_set_time_cap(bot, -1, &err), TAFEL_EINVAL);
    assert_non_null(strstr(err.message, "-1 ms"));
    assert_int_equal(tafel_bot_set_time_cap(NULL, 5, &err), TAFEL_EINVAL);
    assert_int_equal(tafel_bot_set_time_cap(bot, 0, &err), TAFEL_OK);
    tafel_bot_free(bot);
    tafel_game_free(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stop_ends_a_search_of_100000000_iterations),
        cmocka_unit_test(stop_before_the_search_is_used_up_by_it),
        cmocka_unit_test(a_cap_of_200ms_ends_a_search_in_about_200ms),
        cmocka_unit_test(a_budget_below_the_cap_plays_as_without_it),
        cmocka_unit_test(a_deep_greedy_obeys_the_cap_and_the_stop),
        cmocka_unit_test(a_negative_cap_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
