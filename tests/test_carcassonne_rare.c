/*
** test_carcassonne_rare.c -- rules for situations too rare to reach by
** playing a few tiles, set up by editing the state directly (white-box).
**
** Each test builds a legal position through the API, then changes the
** part of the state the situation needs (the pile, a supply, the start
** tile), and checks what the rules say happens next.
*/
#include "helpers.h"

#include "core/module.h"
#include "games/carcassonne/carcassonne.h"

static carc_state *data(tafel_state *s) { return tf_state_data(s); }

/* Rules §2.1 and §5: a tile that fits nowhere is removed; when that empties
** the pile, the game ends (final scoring included). */
static void test_the_game_ends_when_removals_empty_the_pile(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=2)");
    /* Red closes D's city with E and keeps a knight on the road. */
    h_play(s, "draw E", "place 0 1 180", "pass", "draw U", "place 1 0 0", "follower road E",
           NULL);
    carc_state *c = data(s);
    memset(c->pile, 0, sizeof c->pile);
    c->pile[carc_tile_find("C")] = 1; /* C needs city on every side: nowhere */
    c->pile_total = 1;
    h_play(s, "draw C", NULL);
    assert_int_equal(tafel_state_current(s), TAFEL_TERMINAL);
    assert_int_equal(c->nremoved, 1);
    double scores[2];
    tafel_state_scores(s, scores);
    assert_true(scores[0] == 0 && scores[1] == 2); /* final scoring ran: road D-U */
    tafel_state_free(s);
}

/* Rules §4: a crop circle tile removed because it fits nowhere triggers
** nothing; the same player draws again. */
static void test_a_removed_crop_circle_tile_triggers_nothing(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=2,crop_circles=true)");
    carc_state *c = data(s);
    /* start from C instead of D: every open position needs a city edge */
    c->ntiles = 0;
    c->nfrontier = 0;
    memset(c->hash, 0, sizeof c->hash);
    carc_board_place(c, carc_tile_find("C"), 0, 0, 0);
    c->pile[carc_tile_find("C")]--;
    c->pile[CARC_START_TYPE]++;
    assert_int_equal(tafel_state_check(s, NULL), TAFEL_OK);
    h_play(s, "draw CC4", NULL);
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_int_equal(c->active, 0);
    assert_int_equal(c->phase, CARC_PH_DRAW);
    assert_int_equal(c->nremoved, 1);
    assert_int_equal(tafel_state_check(s, NULL), TAFEL_OK);
    tafel_state_free(s);
}

/* Rules §4 A: a player with a follower of the kind but none in supply is
** skipped. */
static void test_crop_add_skips_a_player_with_an_empty_supply(void **unused) {
    (void)unused;
    for (int empty = 0; empty <= 1; empty++) {
        tafel_state *s = h_state("carcassonne(players=2,crop_circles=true)");
        h_play(s, "draw E", "place 0 -1 180", "follower city S", /* red knight */
               "draw CC1", "place 0 1 180", "pass", NULL);        /* blue, shield */
        if (empty) data(s)->supply[0] = 0;
        h_play(s, "crop add", NULL);
        /* red (left of blue) acts unless skipped; blue has no knight */
        assert_int_equal(tafel_state_current(s), empty ? TAFEL_CHANCE : 0);
        tafel_state_free(s);
    }
}

/* The seed: followers that come home in a scoring may be placed again from
** the owner's next turn on, so not in the same turn's crop circle action A. */
static void test_crop_add_cannot_use_a_follower_scored_home_this_turn(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=2,crop_circles=true)");
    h_play(s, "draw E", "place 0 -1 180", "follower city S", /* red knight, open city */
           "draw E", "place 1 -1 0", "follower city N",       /* blue knight, open city */
           "draw U", "place -1 0 0", "pass", NULL);
    data(s)->supply[1] = 1; /* blue's last follower at home */
    /* blue completes a 2-tile city with it: 2 points, the knight comes home */
    h_play(s, "draw CC2", "place 0 1 90", "follower city S", "crop add", NULL);
    assert_int_equal(data(s)->supply[1], 1);
    assert_int_equal(tafel_state_current(s), 0); /* red may add */
    h_play(s, "pass", NULL);
    /* blue has a knight on the board but only this turn's returnee at home */
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    tafel_state_free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_game_ends_when_removals_empty_the_pile),
        cmocka_unit_test(test_a_removed_crop_circle_tile_triggers_nothing),
        cmocka_unit_test(test_crop_add_skips_a_player_with_an_empty_supply),
        cmocka_unit_test(test_crop_add_cannot_use_a_follower_scored_home_this_turn),
    };
    return cmocka_run_group_tests_name("carcassonne rare situations", tests, NULL, NULL);
}
