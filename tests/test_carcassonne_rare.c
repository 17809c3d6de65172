/*
** test_carcassonne_rare.c -- rules for situations too rare to reach by
** playing a few tiles, set up by editing the state directly (white-box).
**
** Each test builds a legal position through the API, then changes the
** part of the state the situation needs (the pile, a supply, the start
** tile), and checks what the rules say happens next.  Where a situation
** can be reached by play alone in a few turns, a test does that as well,
** and checks the whole state (tafel_state_check) on the way.
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

/* Rules §4 A, reached by play alone in a 2-player game with crop circles:
** red (0) lays a road of U tiles east of D; above each, blue (1) lays an E
** whose city opens north, with a knight in it (five separate incomplete
** cities), then a B at (6,1), with a monk if blue_monk.  Red keeps a knight
** in the N at (1,-1).  Blue then draws the shield tile CC2 and puts it
** north of D, its city south closing D's city, with a knight there: 2
** points, and that knight comes home this turn.  Returns the state when
** blue must choose A or B; blue then has 1 follower in supply (the one
** scored home) with the monk, 2 without it. */
static tafel_state *blue_scores_a_knight_home_with_a_crop_circle(int blue_monk) {
    tafel_state *s = h_state("carcassonne(players=2,crop_circles=true)");
    for (int x = 1; x <= 5; x++) {
        h_turn(s, "U", x, 0, 0, NULL);                 /* red */
        h_turn(s, "E", x, 1, 0, "follower city N");    /* blue knight */
    }
    h_turn(s, "U", 6, 0, 0, NULL);                     /* red */
    h_turn(s, "B", 6, 1, 0, blue_monk ? "follower cloister" : NULL); /* blue */
    h_turn(s, "N", 1, -1, 180, "follower city S");     /* red knight */
    assert_int_equal(h_supply(s, 0), 6);
    assert_int_equal(h_supply(s, 1), blue_monk ? 1 : 2);
    play(s, "draw CC2", "place 0 1 180", "follower city S"); /* blue */
    double scores[2];
    tafel_state_scores(s, scores);
    assert_true(scores[0] == 0 && scores[1] == 2); /* D + CC2, closed */
    assert_int_equal(h_supply(s, 1), blue_monk ? 1 : 2);
    assert_int_equal(data(s)->returned[1], 1);
    assert_int_equal(tafel_state_check(s, NULL), TAFEL_OK);
    assert_int_equal(tafel_state_current(s), 1); /* blue chooses A or B */
    return s;
}

/* Rules §4 A (the seed: "vanaf zijn volgende beurt"), by play alone: blue
** has six followers on the board, five of them knights, and only the
** knight scored home this turn in supply, so blue is skipped; red, left of
** blue, is offered A first.  Blue's supply stays 1. */
static void test_crop_add_skips_a_player_whose_only_supply_came_home_by_play(
    void **unused) {
    (void)unused;
    tafel_state *s = blue_scores_a_knight_home_with_a_crop_circle(1);
    play(s, "crop add");
    assert_int_equal(tafel_state_current(s), 0); /* red may add */
    assert_true(h_legal_text(s, "add 1 -1 city S"));
    play(s, "pass");
    /* blue, who acts last, has knights on the board but is skipped */
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_int_equal(h_view_int(s, "active"), 0);
    assert_int_equal(h_supply(s, 0), 6);
    assert_int_equal(h_supply(s, 1), 1);
    assert_int_equal(tafel_state_check(s, NULL), TAFEL_OK);
    tafel_state_free(s);
}

/* Rules §4 A: blue has one follower in supply from before and one scored
** home this turn: blue is not skipped, adds a knight beside its knight at
** (1,1), and keeps the one that came home. */
static void test_crop_add_offers_a_player_with_an_older_follower_in_supply(
    void **unused) {
    (void)unused;
    tafel_state *s = blue_scores_a_knight_home_with_a_crop_circle(0);
    play(s, "crop add");
    assert_int_equal(tafel_state_current(s), 0);
    play(s, "pass"); /* red */
    assert_int_equal(tafel_state_current(s), 1); /* blue is offered A */
    assert_true(h_legal_text(s, "pass"));
    assert_true(h_legal_text(s, "add 5 1 city N"));
    play(s, "add 1 1 city N");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_int_equal(h_view_int(s, "active"), 0);
    assert_int_equal(h_supply(s, 1), 1); /* the knight scored home */
    assert_int_equal(tafel_state_check(s, NULL), TAFEL_OK);
    /* adding scores nothing: six incomplete cities of one tile, D + CC2 */
    double projected[2];
    tafel_state_projected(s, projected);
    assert_true(projected[0] == 1 && projected[1] == 2 + 5);
    tafel_state_free(s);
}

/* Rules §2.3: the knight scored home in blue's crop circle turn is blue's
** to place from blue's next turn on, as any follower in supply. */
static void test_a_follower_scored_home_can_be_placed_in_the_owners_next_turn(
    void **unused) {
    (void)unused;
    tafel_state *s = blue_scores_a_knight_home_with_a_crop_circle(1);
    play(s, "crop add", "pass"); /* red passes, blue is skipped */
    h_turn(s, "U", 7, 0, 0, NULL); /* red */
    play(s, "draw U", "place 8 0 0");  /* blue */
    assert_true(h_legal_text(s, "follower road E"));
    play(s, "follower road E");
    assert_int_equal(h_supply(s, 1), 0);
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_int_equal(tafel_state_check(s, NULL), TAFEL_OK);
    tafel_state_free(s);
}

/* Rules §4 A: once the turn it came home in is over, the knight is supply
** for the next crop circle action too: red's shield tile CC1 in the very
** next turn offers blue (left of red, so first) A, and blue adds it. */
static void test_a_follower_scored_home_counts_for_crop_add_in_the_next_turn(
    void **unused) {
    (void)unused;
    tafel_state *s = blue_scores_a_knight_home_with_a_crop_circle(1);
    play(s, "crop add", "pass"); /* red passes, blue is skipped */
    assert_int_equal(data(s)->returned[1], 0);
    play(s, "draw CC1", "place 0 -1 270", "pass", "crop add"); /* red */
    assert_int_equal(tafel_state_current(s), 1); /* blue, first */
    play(s, "add 3 1 city N");
    assert_int_equal(h_supply(s, 1), 0);
    assert_int_equal(tafel_state_current(s), 0); /* red, last */
    play(s, "pass");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_int_equal(h_view_int(s, "active"), 1);
    assert_int_equal(tafel_state_check(s, NULL), TAFEL_OK);
    tafel_state_free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_game_ends_when_removals_empty_the_pile),
        cmocka_unit_test(test_a_removed_crop_circle_tile_triggers_nothing),
        cmocka_unit_test(test_crop_add_skips_a_player_with_an_empty_supply),
        cmocka_unit_test(test_crop_add_skips_a_player_whose_only_supply_came_home_by_play),
        cmocka_unit_test(test_crop_add_offers_a_player_with_an_older_follower_in_supply),
        cmocka_unit_test(test_a_follower_scored_home_can_be_placed_in_the_owners_next_turn),
        cmocka_unit_test(test_a_follower_scored_home_counts_for_crop_add_in_the_next_turn),
    };
    return cmocka_run_group_tests_name("carcassonne rare situations", tests, NULL, NULL);
}
