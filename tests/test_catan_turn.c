/*
** test_catan_turn.c -- the turn of the Catan card game (rules §1, §3, §4):
** setup, dice and production, trading, building, refilling.
*/
#include "catan_setup.h"

static void test_the_setup_gives_each_player_two_points_and_three_cards(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("abbey garrison smithy", "spy bishop caravan");
    assert_int_equal(ct_points(s, 0), 2);
    assert_int_equal(ct_points(s, 1), 2);
    assert_int_equal(ct_hand_count(s, 0, "abbey"), 1);
    assert_int_equal(ct_hand_count(s, 1, "spy"), 1);
    assert_int_equal(ct_stock_of(s, 0, "L"), 1);
    assert_int_equal(ct_stock_of(s, 1, "Au"), 1);
    tafel_state_free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_setup_gives_each_player_two_points_and_three_cards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
