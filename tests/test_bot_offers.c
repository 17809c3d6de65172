/*
** test_bot_offers.c -- bots that do not nag: in whole games of the Catan card
** game, every built-in bot makes at most one trade offer a turn and never
** makes again an offer the other player declined (issue 37), while the
** rules stay as they are: a player that is not a bot may still offer as
** often as the rules allow (3 declined offers a turn, rules §4.3).
**
** Each offer is a dialog a person at the table must answer; a bot that
** offers 4 times in a row, or the same refused offer again, is a nuisance
** however legal.  The games are played through the public API with the
** bots of the registry; the counts read only the actions' texts ("offer 2L
** 1O", "decline") and the turn number of the state.
*/
#include "catan_setup.h"

/* What the games showed: offers and repeats counted for the bot seats. */
typedef struct tally {
    int games, turns, offers, most_in_a_turn, repeats;
    int other_most_in_a_turn; /* the same for a seat played at random */
} tally;

#define CODES (CT_RES * CT_RES * 9)

/* One game: seat k is played by bots[k] (NULL: uniformly random legal
** actions, as a person might click), chance by its probabilities. */
static void play_game(const char *const bots[2], uint64_t seed, tally *t) {
    tafel_game *g = h_game("catan_cards");
    tafel_state *s = h_state("catan_cards");
    tafel_bot *bot[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++)
        if (bots[k]) {
            tafel_error err = {0};
            if (tafel_bot_new(bots[k], g, seed * 2 + (uint64_t)k, &bot[k], &err))
                fail_msg("bot '%s': %s", bots[k], err.message);
        }
    uint64_t rng = tafel_rng_seed(seed);
    uint8_t declined[2][CODES] = {{0}}; /* offers of a seat the other declined */
    int turn = -1, in_turn[2] = {0, 0}, pending = -1, pending_seat = -1;
    for (int step = 0; tafel_state_current(s) != TAFEL_TERMINAL; step++) {
        assert_true(step < 200000);
        int seat = tafel_state_current(s);
        tafel_action a;
        if (seat >= 0 && bot[seat]) {
            tafel_error err = {0};
            if (tafel_bot_choose(bot[seat], s, &a, &err))
                fail_msg("%s: %s", bots[seat], err.message);
        } else {
            a = h_random_action(s, &rng);
        }
        char text[64];
        if (seat >= 0) h_text(s, a, text, sizeof text);
        if (ct_data(s)->turn != turn) {
            turn = ct_data(s)->turn;
            in_turn[0] = in_turn[1] = 0;
            t->turns++;
        }
        if (seat >= 0 && !strncmp(text, "offer ", 6)) {
            int code = a - A_OFFER;
            assert_true(code >= 0 && code < CODES);
            in_turn[seat]++;
            if (bot[seat]) {
                t->offers++;
                t->repeats += declined[seat][code];
                if (in_turn[seat] > t->most_in_a_turn) t->most_in_a_turn = in_turn[seat];
            } else if (in_turn[seat] > t->other_most_in_a_turn) {
                t->other_most_in_a_turn = in_turn[seat];
            }
            pending = code, pending_seat = seat;
        } else if (seat >= 0 && pending >= 0 && seat != pending_seat) {
            if (!strcmp(text, "decline")) declined[pending_seat][pending] = 1;
            pending = -1;
        }
        assert_int_equal(tafel_state_apply(s, a, NULL), TAFEL_OK);
    }
    t->games++;
    for (int k = 0; k < 2; k++) tafel_bot_free(bot[k]);
    tafel_state_free(s);
    tafel_game_free(g);
}

static void report(const char *what, const tally *t) {
    print_message("%s: %d games, %d turns, %d bot offers, at most %d in a turn, "
                  "%d declined offers repeated; random seat at most %d in a turn\n",
                  what, t->games, t->turns, t->offers, t->most_in_a_turn, t->repeats,
                  t->other_most_in_a_turn);
}

/* games games of a against b, each seat in turn; the counts added to t. */
static void play_many(const char *a, const char *b, int games, tally *t) {
    const char *const seats[2] = {a, b}, *const swapped[2] = {b, a};
    tally one = {0};
    for (int i = 0; i < games; i++)
        play_game(i % 2 ? swapped : seats, 1000 + (uint64_t)i, &one);
    char what[96];
    snprintf(what, sizeof what, "%s against %s", a, b ? b : "random play");
    report(what, &one);
    t->games += one.games, t->turns += one.turns, t->offers += one.offers;
    t->repeats += one.repeats;
    if (one.most_in_a_turn > t->most_in_a_turn) t->most_in_a_turn = one.most_in_a_turn;
    if (one.other_most_in_a_turn > t->other_most_in_a_turn)
        t->other_most_in_a_turn = one.other_most_in_a_turn;
}

static void test_bots_against_bots_offer_once_a_turn_and_never_a_declined_offer_again(
    void **unused) {
    (void)unused;
    tally t = {0};
    play_many("greedy", "greedy", 20, &t);
    play_many("greedy:depth=1", "random", 10, &t);
    play_many("easy", "greedy:depth=2", 10, &t);
    play_many("mcts:iters=60", "random", 6, &t);
    play_many("medium:iters=40", "hard:iters=40", 4, &t);
    assert_true(t.offers > 0); /* they still trade */
    assert_true(t.most_in_a_turn <= 1);
    assert_int_equal(t.repeats, 0);
}

/* A seat played at random stands for a person: the rules still let it
** offer again in a turn after a decline, which the games show it does. */
static void test_a_bot_against_random_play_is_narrowed_and_the_other_seat_is_not(
    void **unused) {
    (void)unused;
    tally t = {0};
    play_many("greedy", NULL, 20, &t);
    play_many("random", NULL, 20, &t);
    play_many("easy", NULL, 10, &t);
    assert_true(t.offers > 0);
    assert_true(t.most_in_a_turn <= 1);
    assert_int_equal(t.repeats, 0);
    assert_true(t.other_most_in_a_turn >= 2);
}

/* The hook itself: in random games every legal offer and "negotiate" is a
** request of the Catan card game and nothing else is; an illegal action,
** chance and the other games have none. */
static void test_offers_and_only_offers_are_requests(void **unused) {
    (void)unused;
    const char *games[] = {"catan_cards", "carcassonne", "cardcassonne"};
    for (int gi = 0; gi < 3; gi++)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            tafel_state *s = h_state(games[gi]);
            uint64_t rng = tafel_rng_seed(seed);
            int requests = 0, spent = 0;
            while (tafel_state_current(s) != TAFEL_TERMINAL) {
                int n;
                tafel_action *legal = h_legal(s, &n);
                for (int i = 0; i < n; i++) {
                    int r = tafel_state_action_request(s, legal[i]);
                    int offer = 0;
                    if (tafel_state_current(s) >= 0) {
                        char text[64];
                        h_text(s, legal[i], text, sizeof text);
                        offer = !strncmp(text, "offer ", 6) || !strcmp(text, "negotiate");
                    }
                    assert_int_equal(r != 0, offer);
                    assert_true(r == 0 || r == TAFEL_REQUEST || r == TAFEL_REQUEST_SPENT);
                    requests += r != 0;
                    spent += r == TAFEL_REQUEST_SPENT;
                }
                free(legal);
                assert_int_equal(tafel_state_action_request(s, -1), 0);
                assert_int_equal(tafel_state_apply(s, h_random_action(s, &rng), NULL),
                                 TAFEL_OK);
            }
            assert_true(gi == 0 ? requests > 0 && spent > 0 : requests == 0);
            tafel_state_free(s);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_offers_and_only_offers_are_requests),
        cmocka_unit_test(test_bots_against_bots_offer_once_a_turn_and_never_a_declined_offer_again),
        cmocka_unit_test(test_a_bot_against_random_play_is_narrowed_and_the_other_seat_is_not),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
