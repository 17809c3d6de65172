/*
** test_carcassonne_rules.c -- the worked examples of rules/carcassonne.md §6
** (and the seed rulebook) as tests with literal expected values.
**
** Every position is built from the start tile D at (0,0) (city north, road
** east-west, field south) with forced draws, through the public API only.
** Geometry reminders (§7): a tile's edges are N E S W in table orientation;
** turning it 90 degrees clockwise puts its table north on the east.  Seat 0
** is "red", seat 1 "blue" (or "green" in the crop circle examples), and so
** on, in the order the seed's examples name them.
*/
#include "helpers.h"

#define TWO "carcassonne(players=2)"
#define THREE "carcassonne(players=3)"
#define CROP3 "carcassonne(players=3,crop_circles=true)"

static void assert_points(h_points got, int p0, int p1, int p2) {
    assert_int_equal(got.p[0], p0);
    assert_int_equal(got.p[1], p1);
    assert_int_equal(got.p[2], p2);
}

/* ------------------------------------------------------------------ roads */

/* Red's robber on a road ending at two junctions, through D and a U. */
static void test_a_completed_road_of_4_tiles_scores_4(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "W", 1, 0, 0, "follower road W");   /* junction east of D */
    assert_int_equal(h_supply(s, 0), 6);
    h_turn(s, "U", -1, 0, 0, NULL);                /* straight piece */
    h_turn(s, "W", -2, 0, 180, NULL);              /* junction: road ends */
    assert_points(h_scores(s), 4, 0, 0);
    assert_int_equal(h_category(s, 0, "road"), 4);
    assert_int_equal(h_supply(s, 0), 7);
    tafel_state_free(s);
}

static void test_a_completed_road_of_3_tiles_scores_3(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "W", 1, 0, 0, "follower road W");
    h_turn(s, "W", -1, 0, 180, NULL);
    assert_points(h_scores(s), 3, 0, 0);
    assert_int_equal(h_supply(s, 0), 7);
    tafel_state_free(s);
}

/* §6: the robber is placed on the tile that completes the road. */
static void test_a_robber_placed_on_the_completing_tile_scores_3_and_returns(
    void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "W", 1, 0, 0, NULL);
    h_turn(s, "W", -1, 0, 180, "follower road E");
    assert_points(h_scores(s), 0, 3, 0);
    assert_int_equal(h_supply(s, 1), 7);
    tafel_state_free(s);
}

/* §3 decision: four curves in a square close a road with no end. */
static void test_a_road_loop_with_no_end_is_complete(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "V", 0, -1, 270, "follower road E"); /* road E and S */
    h_turn(s, "V", 1, -1, 0, NULL);                /* road W and S */
    h_turn(s, "V", 1, -2, 90, NULL);               /* road N and W */
    assert_points(h_scores(s), 0, 0, 0);
    h_turn(s, "V", 0, -2, 180, NULL);              /* road N and E */
    assert_points(h_scores(s), 4, 0, 0);
    assert_int_equal(h_supply(s, 0), 7);
    tafel_state_free(s);
}

/* §3: a road leaving the junction W at (0,-1) by its east arm and coming
** back by its south arm covers 4 tiles, not 5. */
static void test_a_road_returning_to_its_junction_counts_that_tile_once(
    void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "W", 0, -1, 0, "follower road E");
    h_turn(s, "V", 1, -1, 0, NULL);
    h_turn(s, "V", 1, -2, 90, NULL);
    h_turn(s, "V", 0, -2, 180, NULL);
    assert_points(h_scores(s), 4, 0, 0);
    tafel_state_free(s);
}

/* ----------------------------------------------------------------- cities */

static void test_a_completed_city_of_2_tiles_scores_2(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "E", 0, -1, 180, "follower city S"); /* city open to the south */
    h_turn(s, "E", 0, -2, 0, NULL);                /* closes it */
    assert_points(h_scores(s), 2, 0, 0);
    assert_int_equal(h_category(s, 0, "city"), 2);
    assert_int_equal(h_supply(s, 0), 7);
    tafel_state_free(s);
}

static void test_option_small_city_4_scores_a_2_tile_city_4(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=2,small_city=4)");
    h_turn(s, "E", 0, -1, 180, "follower city S");
    h_turn(s, "E", 0, -2, 0, NULL);
    assert_points(h_scores(s), 4, 0, 0);
    tafel_state_free(s);
}

/* The seed: place a knight, complete the city, score, take it back. */
static void test_a_knight_placed_on_the_completing_tile_scores_2_and_returns(
    void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "E", 0, 1, 180, "follower city S"); /* closes D's city */
    assert_points(h_scores(s), 2, 0, 0);
    assert_int_equal(h_supply(s, 0), 7);
    cJSON *v = h_view(s, -1);
    assert_int_equal(h_json_array_size(v, "followers"), 0);
    cJSON_Delete(v);
    tafel_state_free(s);
}

/* D + F (pennant) + E: 3 tiles and 1 pennant = 2*3 + 2 = 8 (the seed's 8). */
static void test_a_completed_city_scores_2_per_tile_and_2_per_pennant(
    void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "F", 0, 1, 90, "follower city N");
    h_turn(s, "E", 0, 2, 180, NULL);
    assert_points(h_scores(s), 8, 0, 0);
    tafel_state_free(s);
}

/* The seed: a tile joins two city parts, each with one knight (red, blue):
** both get the full 10 (4 tiles + 1 pennant).  Blue may place its knight
** because the parts are only joined later. */
static void test_a_tile_joining_two_occupied_city_parts_pays_both_in_full(
    void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "N", 0, 1, 180, "follower city S");  /* red: D + N, open east */
    h_turn(s, "K", 1, 0, 0, "follower city N");    /* blue: K's city, open */
    h_turn(s, "M", 1, 1, 270, NULL);               /* M joins and closes */
    assert_points(h_scores(s), 10, 10, 0);
    assert_int_equal(h_supply(s, 0), 7);
    assert_int_equal(h_supply(s, 1), 7);
    tafel_state_free(s);
}

/* §3: the city joins both caps of H at (0,-1) and goes round it: six
** tiles, 12 points (14 if H were counted twice). */
static void test_a_city_joining_both_caps_of_an_h_tile_counts_it_once(
    void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "H", 0, -1, 90, "follower city E"); /* caps east and west */
    h_turn(s, "N", 1, -1, 270, NULL);             /* city W and S */
    h_turn(s, "P", 1, -2, 0, NULL);               /* city N and W */
    h_turn(s, "G", 0, -2, 0, NULL);               /* city E and W */
    h_turn(s, "N", -1, -2, 90, NULL);             /* city N and E */
    assert_points(h_scores(s), 0, 0, 0);
    h_turn(s, "N", -1, -1, 180, NULL);            /* city E and S: closed */
    assert_points(h_scores(s), 12, 0, 0);
    tafel_state_free(s);
}

/* ------------------------------------------------------------- cloisters */

/* Red's monk at (0,-1); the last of 8 neighbours completes it. */
static void test_a_completed_cloister_scores_9(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "B", 0, -1, 0, "follower cloister");
    h_turn(s, "U", 1, 0, 0, NULL);
    h_turn(s, "U", -1, 0, 0, NULL);
    h_turn(s, "E", 1, -1, 90, NULL);
    h_turn(s, "E", -1, -1, 270, NULL);
    h_turn(s, "E", 0, -2, 180, NULL);
    h_turn(s, "E", 1, -2, 180, NULL);
    assert_points(h_scores(s), 0, 0, 0);
    assert_int_equal(h_projected(s).p[0], 8); /* 1 + 7 neighbours */
    h_turn(s, "E", -1, -2, 180, NULL);
    assert_points(h_scores(s), 9, 0, 0);
    assert_int_equal(h_category(s, 0, "cloister"), 9);
    assert_int_equal(h_supply(s, 0), 7);
    tafel_state_free(s);
}

/* §3 decision: one tile completes two cloisters at once. */
static void test_one_tile_completes_two_cloisters_at_once(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "B", 0, -1, 0, "follower cloister");
    h_turn(s, "B", 1, -1, 0, "follower cloister");
    h_turn(s, "U", 1, 0, 0, NULL);
    h_turn(s, "U", -1, 0, 0, NULL);
    h_turn(s, "U", 2, 0, 0, NULL);
    h_turn(s, "E", -1, -1, 270, NULL);
    h_turn(s, "E", 2, -1, 90, NULL);
    h_turn(s, "U", -1, -2, 0, NULL);
    h_turn(s, "U", 0, -2, 0, NULL);
    h_turn(s, "U", 2, -2, 0, NULL);
    assert_points(h_scores(s), 0, 0, 0);
    h_turn(s, "U", 1, -2, 0, NULL); /* the last neighbour of both */
    assert_points(h_scores(s), 9, 9, 0);
    assert_int_equal(h_supply(s, 0), 7);
    assert_int_equal(h_supply(s, 1), 7);
    tafel_state_free(s);
}

/* §3 decision: L at (1,1) ends blue's road (W junction, D, V, L = 4) and
** caps red's city (D, N, L = 3 tiles = 6) with one placement. */
static void test_one_tile_completes_a_road_and_a_city(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "N", 0, 1, 180, "follower city S");
    h_turn(s, "V", 1, 0, 90, "follower road W");
    h_turn(s, "W", -1, 0, 180, NULL);
    assert_points(h_scores(s), 0, 0, 0);
    h_turn(s, "L", 1, 1, 270, NULL);
    assert_points(h_scores(s), 6, 4, 0);
    assert_int_equal(h_supply(s, 0), 7);
    assert_int_equal(h_supply(s, 1), 7);
    tafel_state_free(s);
}

/* ---------------------------------------------------- end of game scoring */

/* The seed: blue's incomplete city of 3 tiles and a pennant 4, red's
** incomplete road of 3 tiles 3, yellow's cloister with 3 neighbours 4. */
static void test_end_of_game_incomplete_city_4_road_3_cloister_4(void **unused) {
    (void)unused;
    tafel_state *s = h_state(THREE);
    h_turn(s, "U", 1, 0, 0, "follower road E");   /* red */
    h_turn(s, "F", 0, 1, 90, "follower city N");  /* blue, pennant */
    h_turn(s, "B", 0, -1, 0, "follower cloister"); /* yellow */
    h_turn(s, "U", -1, 0, 0, NULL);
    h_turn(s, "G", 0, 2, 90, NULL);
    assert_points(h_scores(s), 0, 0, 0);
    assert_points(h_projected(s), 3, 4, 4);
    tafel_state_free(s);
}

/* Red's incomplete city D+G+N+N of 4 tiles without pennant: 4; blue's
** incomplete city of 2 tiles: 2, the 2-tile exception is for completed
** cities only (§3 decision). */
static void test_end_of_game_incomplete_cities_score_1_per_tile(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "G", 0, 1, 90, "follower city N");   /* red: D + G */
    h_turn(s, "E", 0, -1, 180, "follower city S"); /* blue: E, open south */
    h_turn(s, "N", 0, 2, 180, NULL);               /* red's city turns east */
    h_turn(s, "N", 0, -2, 0, NULL);                /* blue's city turns west */
    h_turn(s, "N", 1, 2, 0, NULL);                 /* red's city turns north */
    assert_points(h_scores(s), 0, 0, 0);
    assert_points(h_projected(s), 4, 2, 0);
    tafel_state_free(s);
}

/* ----------------------------------------------------------------- farmers */

/* The field north of E at (0,1) borders the city D+E, completed by the
** same tile (no knight): 4 at the end. */
static void test_a_farmer_gets_4_for_a_bordering_completed_city(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "E", 0, 1, 180, "follower field NNW");
    assert_points(h_scores(s), 0, 0, 0);
    assert_points(h_projected(s), 4, 0, 0);
    tafel_state_free(s);
}

/* The seed: an incomplete city gives the farmer nothing; once completed, 4. */
static void test_an_incomplete_city_gives_farmers_nothing(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "E", 0, -1, 180, "follower field NNW");
    assert_points(h_projected(s), 0, 0, 0);
    h_turn(s, "E", 0, -2, 0, NULL); /* closes the 2-tile city */
    assert_points(h_projected(s), 4, 0, 0);
    assert_int_equal(h_supply(s, 0), 6); /* farmers stay on the board */
    tafel_state_free(s);
}

/* The seed: one farmer whose field borders two completed cities gets 8. */
static void test_one_farmer_bordering_two_completed_cities_gets_8(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "E", 0, 1, 180, "follower field NNW");
    h_turn(s, "E", 0, 2, 0, NULL);
    h_turn(s, "E", 0, 3, 180, NULL);
    assert_points(h_projected(s), 8, 0, 0);
    tafel_state_free(s);
}

/* The city D+F+E (rot 90 F at (0,1)) with farmers in separate fields
** around it: one red and one blue is a tie (both 4); a second red farmer
** gives red the majority (red 4, blue 0). */
static void test_farmer_majority_wins_a_city_and_a_tie_pays_both(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "F", 0, 1, 90, "follower field ENE");  /* red, east field */
    h_turn(s, "E", 0, 2, 180, "follower field NNW"); /* blue, closes city */
    assert_points(h_projected(s), 4, 4, 0);
    h_turn(s, "E", -1, 1, 270, "follower field ENE"); /* red: F's west field */
    assert_points(h_projected(s), 4, 0, 0);
    assert_int_equal(h_category(s, 0, "farm"), 0); /* not yet: game runs */
    tafel_state_free(s);
}

/* §5: field 1 (red farmer) borders completed cities A and B; field 2 (two
** blue farmers, joined by the E at (1,1)) borders A only. */
static tafel_state *two_fields_two_cities(const char *game_string) {
    tafel_state *s = h_state(game_string);
    h_turn(s, "U", -1, 0, 0, NULL);                   /* red */
    h_turn(s, "F", 0, 1, 90, "follower field ENE");   /* blue, field 2a */
    h_turn(s, "E", 0, 2, 180, "follower field NNW");  /* red, field 1, A done */
    h_turn(s, "U", 1, 0, 0, "follower field NNE");    /* blue, field 2b */
    h_turn(s, "E", 1, 1, 90, NULL);                   /* red joins 2a + 2b */
    h_turn(s, "E", 0, 3, 0, NULL);                    /* blue: city B opens */
    h_turn(s, "E", 0, 4, 180, NULL);                  /* red: B done */
    return s;
}

static void test_farmers_2000_rule_scores_city_by_city(void **unused) {
    (void)unused;
    tafel_state *s = two_fields_two_cities(TWO);
    assert_points(h_scores(s), 0, 0, 0);
    /* Blue has the majority at A (2 to 1), red alone at B. */
    assert_points(h_projected(s), 4, 4, 0);
    tafel_state_free(s);
}

static void test_farmers_modern_option_scores_field_by_field(void **unused) {
    (void)unused;
    tafel_state *s = two_fields_two_cities("carcassonne(players=2,farmers=modern)");
    /* Field 1: red, 2 cities x 3; field 2: blue, 1 city x 3. */
    assert_points(h_projected(s), 6, 3, 0);
    tafel_state_free(s);
}

/* ---------------------------------------------------------------- placing */

/* The seed: no follower on a feature that already holds one, however far,
** the player's own included. */
static void test_no_follower_on_an_occupied_city_however_far_own_included(
    void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "N", 0, 1, 180, "follower city S"); /* red knight, open east */
    play(s, "draw F", "place 1 1 0");             /* blue extends the city */
    h_refused(s, "follower city W", TAFEL_EILLEGAL);
    h_refused(s, "follower city E", TAFEL_EILLEGAL);
    assert_true(h_legal_text(s, "follower field NNW")); /* fields are free */
    play(s, "pass");
    play(s, "draw G", "place 2 1 0");             /* red, two tiles away */
    h_refused(s, "follower city W", TAFEL_EILLEGAL);
    assert_true(h_legal_text(s, "pass"));
    tafel_state_free(s);
}

/* The seed: a red farmer's field joined by blue's new tile: blue may place
** a robber or a farmer on the other field, not a farmer on the joined one. */
static void test_no_farmer_on_a_field_joined_to_an_occupied_one(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "U", 1, 0, 0, "follower field NNE");
    play(s, "draw U", "place -1 0 0");
    h_refused(s, "follower field NNE", TAFEL_EILLEGAL);
    h_refused(s, "follower field WNW", TAFEL_EILLEGAL);
    assert_true(h_legal_text(s, "follower field SSW"));
    assert_true(h_legal_text(s, "follower road W"));
    tafel_state_free(s);
}

/* §2: a tile that fits nowhere is removed and the same player draws again.
** After E closes D's city no open position touches a city edge, so C
** (all city) cannot be placed. */
static void test_an_unplaceable_tile_is_removed_and_the_player_draws_again(
    void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "E", 0, 1, 180, NULL);
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_int_equal(tafel_state_chance_outcomes(s, NULL, NULL, 0), 24);
    play(s, "draw C");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_int_equal(tafel_state_chance_outcomes(s, NULL, NULL, 0), 23);
    cJSON *v = h_view(s, -1);
    assert_int_equal(h_json_int(v, "active"), 1);
    assert_int_equal(h_json_int(v, "pile_size"), 69);
    assert_int_equal(h_json_array_size(v, "removed"), 1);
    const cJSON *removed = cJSON_GetArrayItem(
        cJSON_GetObjectItemCaseSensitive(v, "removed"), 0);
    assert_true(cJSON_IsString(removed));
    assert_string_equal(removed->valuestring, "C");
    cJSON_Delete(v);
    h_refused(s, "draw C", TAFEL_EILLEGAL); /* the only C is gone */
    play(s, "draw D");
    assert_int_equal(tafel_state_current(s), 1);
    tafel_state_free(s);
}

/* -------------------------------------------------------- end of the game */

/* Play the rest of the game with random placements and no followers. */
static void finish_without_followers(tafel_state *s, uint64_t seed) {
    uint64_t rng = tafel_rng_seed(seed);
    for (int guard = 0; tafel_state_current(s) != TAFEL_TERMINAL; guard++) {
        assert_true(guard < 2000);
        tafel_action a;
        if (tafel_state_current(s) == TAFEL_CHANCE) {
            assert_int_equal(tafel_state_sample_chance(s, &rng, &a), TAFEL_OK);
        } else if (tafel_action_from_text(s, "pass", &a, NULL) != TAFEL_OK) {
            int n;
            tafel_action *legal = h_legal(s, &n);
            assert_true(n > 0);
            a = legal[tafel_rng_below(&rng, (uint32_t)n)];
            free(legal);
        }
        tafel_error err = {0};
        if (tafel_state_apply(s, a, &err) != TAFEL_OK) fail_msg("%s", err.message);
    }
}

/* The position of a legal "place x y r" action. */
static void place_position(const tafel_state *s, tafel_action a, int *x, int *y) {
    char text[64];
    int rot;
    h_text(s, a, text, sizeof text);
    if (sscanf(text, "place %d %d %d", x, y, &rot) != 3) fail_msg("not a placement: %s", text);
}

/* 1 when (x, y) is at least two steps (diagonals counted) from every kept
** position: a tile there touches no kept tile and fills no cloister's
** neighbourhood. */
static int far_from(int x, int y, const int (*kept)[2], int nkept) {
    for (int i = 0; i < nkept; i++)
        if (abs(x - kept[i][0]) < 2 && abs(y - kept[i][1]) < 2) return 0;
    return 1;
}

/* The placements of the tile in hand that are far from every kept position,
** in a malloc'd array (free it); *n their number. */
static tafel_action *far_placements(const tafel_state *s, const int (*kept)[2],
                                    int nkept, int *n) {
    int count;
    tafel_action *legal = h_legal(s, &count);
    *n = 0;
    for (int i = 0; i < count; i++) {
        int x, y;
        place_position(s, legal[i], &x, &y);
        if (far_from(x, y, kept, nkept)) legal[(*n)++] = legal[i];
    }
    return legal;
}

/* §5: play the game to its end with no more followers, never putting a tile
** next to (diagonals included) a kept position, so the features built on
** those positions reach the final scoring exactly as the test left them.
** Each draw is a tile type, tried from a random one on, that can go
** somewhere allowed or fits nowhere at all (then the engine removes it). */
static void finish_away_from(tafel_state *s, const int (*kept)[2], int nkept,
                             uint64_t seed) {
    uint64_t rng = tafel_rng_seed(seed);
    for (int guard = 0; tafel_state_current(s) != TAFEL_TERMINAL; guard++) {
        assert_true(guard < 2000);
        tafel_action a = -1;
        if (tafel_state_current(s) == TAFEL_CHANCE) {
            tafel_action types[64];
            int ntypes = tafel_state_chance_outcomes(s, types, NULL, 64);
            assert_true(ntypes > 0 && ntypes <= 64);
            int start = (int)tafel_rng_below(&rng, (uint32_t)ntypes);
            for (int k = 0; k < ntypes && a < 0; k++) {
                tafel_action draw = types[(start + k) % ntypes];
                tafel_state *t = tafel_state_clone(s);
                assert_int_equal(tafel_state_apply(t, draw, NULL), TAFEL_OK);
                int ok = tafel_state_current(t) < 0; /* removed: chance or end */
                if (!ok) {
                    int n;
                    free(far_placements(t, kept, nkept, &n));
                    ok = n > 0;
                }
                tafel_state_free(t);
                if (ok) a = draw;
            }
            if (a < 0) fail_msg("no tile left in the pile fits away from the kept tiles");
        } else if (tafel_action_from_text(s, "pass", &a, NULL) != TAFEL_OK) {
            int n;
            tafel_action *far = far_placements(s, kept, nkept, &n);
            assert_true(n > 0);
            a = far[tafel_rng_below(&rng, (uint32_t)n)];
            free(far);
        }
        tafel_error err = {0};
        if (tafel_state_apply(s, a, &err) != TAFEL_OK) fail_msg("%s", err.message);
        if (tafel_state_check(s, &err) != TAFEL_OK) fail_msg("check: %s", err.message);
    }
    assert_int_equal(h_view_int(s, "pile_size"), 0);
}

/* Seat's final points in every category of the breakdown. */
static void assert_breakdown(const tafel_state *s, int seat, int road, int city,
                             int cloister, int farm) {
    assert_int_equal(h_category(s, seat, "road"), road);
    assert_int_equal(h_category(s, seat, "city"), city);
    assert_int_equal(h_category(s, seat, "cloister"), cloister);
    assert_int_equal(h_category(s, seat, "farm"), farm);
}

/* The view at the end lists what final scoring paid feature by feature:
** here exactly one road, of 8 tiles and incomplete, paying 8 to the seats
** in seats (a bit each). */
static void assert_final_road(const tafel_state *s, unsigned seats) {
    cJSON *view = h_view(s, -1), *items = cJSON_GetObjectItem(view, "final_scoring");
    assert_non_null(items);
    int roads = 0;
    for (cJSON *it = items->child; it; it = it->next) {
        if (strcmp(h_json_string(it, "kind"), "road")) continue;
        roads++;
        assert_int_equal(h_json_int(it, "points"), 8);
        assert_int_equal(h_json_int(it, "tiles"), 8);
        assert_true(cJSON_IsFalse(cJSON_GetObjectItem(it, "complete")));
        unsigned got = 0;
        cJSON *list = cJSON_GetObjectItem(it, "seats");
        for (cJSON *p = list ? list->child : NULL; p; p = p->next) got |= 1u << p->valueint;
        assert_int_equal(got, seats);
    }
    assert_int_equal(roads, 1);
    cJSON_Delete(view);
}

/* Three road parts, each occupied while still separate, joined into one
** incomplete road of 8 tiles: red's robber on U (1,0) (with D), blue's on
** U (1,1), and, if red_second, red's on U (0,-1).  V (-1,-1) joins red's
** two parts, V (2,0) joins blue's.  Ends stay open at (1,-1) and (0,1).
** Yellow (seat 2) has no robber there.  B (1,2) leads play away from it. */
static const int road_tiles[][2] = {{0, 0},  {1, 0},  {1, 1},  {-1, 0},
                                    {0, -1}, {-1, -1}, {2, 1}, {2, 0}};

static tafel_state *road_of_three_parts(int red_second) {
    tafel_state *s = h_state(THREE);
    h_turn(s, "U", 1, 0, 0, "follower road E");    /* red */
    h_turn(s, "U", 1, 1, 0, "follower road E");    /* blue: a road of its own */
    h_turn(s, "V", -1, 0, 270, NULL);              /* yellow: red's road turns south */
    h_turn(s, "U", 0, -1, 0, red_second ? "follower road E" : NULL); /* red */
    h_turn(s, "V", -1, -1, 180, NULL);             /* blue joins red's parts */
    h_turn(s, "V", 2, 1, 0, NULL);                 /* yellow: blue's road turns south */
    h_turn(s, "V", 2, 0, 90, NULL);                /* red joins blue's part */
    h_turn(s, "B", 1, 2, 0, NULL);                 /* blue, away from the road */
    assert_points(h_scores(s), 0, 0, 0);
    return s;
}

/* §3 and §5.1: red has 2 robbers on the incomplete road, blue 1: red alone
** scores its 8 tiles; blue, and yellow with none, get nothing. */
static void test_end_of_game_incomplete_road_2_robbers_to_1_pays_only_red(
    void **unused) {
    (void)unused;
    tafel_state *s = road_of_three_parts(1);
    assert_int_equal(h_supply(s, 0), 5);
    assert_int_equal(h_supply(s, 1), 6);
    assert_points(h_projected(s), 8, 0, 0);
    finish_away_from(s, road_tiles, 8, 1);
    assert_points(h_scores(s), 8, 0, 0);
    assert_breakdown(s, 0, 8, 0, 0, 0);
    assert_breakdown(s, 1, 0, 0, 0, 0);
    assert_breakdown(s, 2, 0, 0, 0, 0);
    assert_final_road(s, 1u << 0);
    tafel_state_free(s);
}

/* §3 and §5.1: the same road with one robber each for red and blue: both
** get the full 8; yellow, with none, nothing. */
static void test_end_of_game_incomplete_road_tied_1_to_1_pays_both_in_full(
    void **unused) {
    (void)unused;
    tafel_state *s = road_of_three_parts(0);
    assert_points(h_projected(s), 8, 8, 0);
    finish_away_from(s, road_tiles, 8, 2);
    assert_points(h_scores(s), 8, 8, 0);
    assert_breakdown(s, 0, 8, 0, 0, 0);
    assert_breakdown(s, 1, 8, 0, 0, 0);
    assert_breakdown(s, 2, 0, 0, 0, 0);
    assert_final_road(s, 1u << 0 | 1u << 1);
    tafel_state_free(s);
}

/* Three city parts, each occupied while still separate, joined into one
** incomplete city of 6 tiles and 1 pennant: red's knight on N (0,1) (with
** D), blue's on K (1,0), and, if red_second, red's on E (2,0).  Q (1,1),
** with the pennant, joins red's first part and blue's; R (2,1) joins E and
** leaves the city open to the east.  B (0,-1) leads play away from it. */
static const int city_tiles[][2] = {{0, 0}, {0, 1}, {1, 0},
                                    {1, 1}, {2, 0}, {2, 1}};

static tafel_state *city_of_three_parts(int red_second) {
    tafel_state *s = h_state(THREE);
    h_turn(s, "N", 0, 1, 180, "follower city S");  /* red: D + N, open east */
    h_turn(s, "K", 1, 0, 0, "follower city N");    /* blue: K's city, open north */
    h_turn(s, "Q", 1, 1, 180, NULL);               /* yellow joins them, open east */
    h_turn(s, "E", 2, 0, 0, red_second ? "follower city N" : NULL); /* red */
    h_turn(s, "R", 2, 1, 180, NULL);               /* blue joins E, open east */
    h_turn(s, "B", 0, -1, 0, NULL);                /* yellow, away from the city */
    assert_points(h_scores(s), 0, 0, 0);
    return s;
}

/* §3 and §5.1: red has 2 knights on the incomplete city, blue 1: red alone
** scores 1 per tile and 1 per pennant, 6 + 1 = 7; blue and yellow nothing. */
static void test_end_of_game_incomplete_city_2_knights_to_1_pays_only_red(
    void **unused) {
    (void)unused;
    tafel_state *s = city_of_three_parts(1);
    assert_int_equal(h_supply(s, 0), 5);
    assert_int_equal(h_supply(s, 1), 6);
    assert_points(h_projected(s), 7, 0, 0);
    finish_away_from(s, city_tiles, 6, 3);
    assert_points(h_scores(s), 7, 0, 0);
    assert_breakdown(s, 0, 0, 7, 0, 0);
    assert_breakdown(s, 1, 0, 0, 0, 0);
    assert_breakdown(s, 2, 0, 0, 0, 0);
    tafel_state_free(s);
}

/* §3 and §5.1: the same city with one knight each for red and blue: both
** get the full 7; yellow, with none, nothing. */
static void test_end_of_game_incomplete_city_tied_1_to_1_pays_both_in_full(
    void **unused) {
    (void)unused;
    tafel_state *s = city_of_three_parts(0);
    assert_points(h_projected(s), 7, 7, 0);
    finish_away_from(s, city_tiles, 6, 4);
    assert_points(h_scores(s), 7, 7, 0);
    assert_breakdown(s, 0, 0, 7, 0, 0);
    assert_breakdown(s, 1, 0, 7, 0, 0);
    assert_breakdown(s, 2, 0, 0, 0, 0);
    tafel_state_free(s);
}

/* §3 and §5.1: red's monk on B (0,-1) has 4 neighbours, 1 + 4 = 5; blue's
** monk on B (1,-1) next to it has 3, 1 + 3 = 4, and blue's robber on the
** road U D U (a neighbour of red's cloister) 3.  Each cloister pays only
** its monk's owner; yellow, with no follower, gets nothing.  E (0,1)
** closes D's city (no knight) and leads play away. */
static void test_end_of_game_a_cloister_pays_only_its_monks_owner(void **unused) {
    (void)unused;
    static const int kept[][2] = {{0, -1}, {1, -1}, {-1, 0}, {0, 0}, {1, 0}};
    tafel_state *s = h_state(THREE);
    h_turn(s, "B", 0, -1, 0, "follower cloister"); /* red monk */
    h_turn(s, "U", 1, 0, 0, "follower road E");    /* blue robber */
    h_turn(s, "U", -1, 0, 0, NULL);                /* yellow */
    h_turn(s, "E", 0, 1, 180, NULL);               /* red, away from them */
    h_turn(s, "B", 1, -1, 0, "follower cloister"); /* blue monk */
    assert_points(h_scores(s), 0, 0, 0);
    assert_points(h_projected(s), 5, 7, 0);
    finish_away_from(s, kept, 5, 5);
    assert_points(h_scores(s), 5, 7, 0);
    assert_breakdown(s, 0, 0, 0, 5, 0);
    assert_breakdown(s, 1, 3, 0, 4, 0);
    assert_breakdown(s, 2, 0, 0, 0, 0);
    tafel_state_free(s);
}

/* §5: players tied for the highest score share the win. */
static void test_equal_top_scores_share_the_win(void **unused) {
    (void)unused;
    tafel_state *s = h_state(THREE);
    h_turn(s, "E", 0, 1, 180, "follower city S");  /* red 2 */
    h_turn(s, "E", 0, -1, 180, "follower city S"); /* blue's city, open */
    h_turn(s, "U", 1, 0, 0, NULL);                 /* yellow */
    h_turn(s, "U", -1, 0, 0, NULL);                /* red */
    h_turn(s, "E", 0, -2, 0, NULL);                /* blue closes: blue 2 */
    finish_without_followers(s, 7);
    assert_points(h_scores(s), 2, 2, 0);
    assert_points(h_projected(s), 2, 2, 0);
    int winners[TAFEL_MAX_PLAYERS];
    assert_int_equal(tafel_state_winners(s, winners), 2);
    assert_int_equal(winners[0], 0);
    assert_int_equal(winners[1], 1);
    cJSON *v = h_view(s, -1);
    assert_string_equal(h_json_string(v, "phase"), "over");
    assert_int_equal(h_json_int(v, "pile_size"), 0);
    cJSON_Delete(v);
    h_refused(s, "pass", TAFEL_EILLEGAL);
    tafel_state_free(s);
}

static void test_a_single_top_score_wins_alone(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_turn(s, "E", 0, 1, 180, "follower city S");
    finish_without_followers(s, 11);
    assert_points(h_scores(s), 2, 0, 0);
    int winners[TAFEL_MAX_PLAYERS];
    assert_int_equal(tafel_state_winners(s, winners), 1);
    assert_int_equal(winners[0], 0);
    tafel_state_free(s);
}

/* ----------------------------------------------------------- crop circles */

static void assert_crop(const tafel_state *s, const char *kind,
                        const char *mode, int acting) {
    cJSON *v = h_view(s, -1);
    const cJSON *crop = cJSON_GetObjectItemCaseSensitive(v, "crop");
    if (!cJSON_IsObject(crop)) fail_msg("view has no crop object");
    assert_string_equal(h_json_string(crop, "kind"), kind);
    const char *m = h_json_string(crop, "mode");
    if (mode) assert_string_equal(m, mode);
    else assert_null(m);
    if (acting >= 0) assert_int_equal(h_json_int(crop, "acting"), acting);
    cJSON_Delete(v);
}

/* Red 0, green 1, blue 2: green has a knight in the city D + N, blue a
** robber; red has just placed the shield tile CC2 (two separate cities,
** south and west) with a knight in its south city. */
static tafel_state *crop_a_position(void) {
    tafel_state *s = h_state(CROP3);
    h_turn(s, "U", -1, 0, 0, NULL);                /* red */
    h_turn(s, "N", 0, 1, 180, "follower city S");  /* green knight */
    h_turn(s, "U", 1, 0, 0, "follower road E");    /* blue robber */
    play(s, "draw CC2", "place 0 -1 180", "follower city S"); /* red */
    return s;
}

/* The seed's example A with red 0, green 1, blue 2: red places the shield
** tile CC2 with a knight and chooses A; green adds a knight beside its own;
** blue has no knight and is skipped; red acts last, beside the knight on
** CC2 but not on CC2's other (empty) city. */
static void test_crop_circle_a_green_adds_blue_is_skipped_red_acts_last(
    void **unused) {
    (void)unused;
    tafel_state *s = crop_a_position();
    assert_int_equal(tafel_state_current(s), 0);
    assert_crop(s, "knight", NULL, 0);
    h_refused(s, "pass", TAFEL_EILLEGAL); /* A or B is a must */
    play(s, "crop add");
    assert_crop(s, "knight", "add", 1);
    assert_int_equal(tafel_state_current(s), 1);
    h_refused(s, "add 0 -1 city S", TAFEL_EILLEGAL); /* red's, not green's */
    play(s, "add 0 1 city S");
    assert_int_equal(tafel_state_current(s), 0); /* blue skipped */
    h_refused(s, "add 0 1 city E", TAFEL_EILLEGAL); /* green's city */
    h_refused(s, "add 0 -1 city W", TAFEL_EILLEGAL); /* no knight there yet */
    play(s, "add 0 -1 city S");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_int_equal(h_view_int(s, "active"), 1);
    /* Adding scores nothing; the followers are on the board. */
    assert_points(h_scores(s), 0, 0, 0);
    assert_int_equal(h_supply(s, 0), 5);
    assert_int_equal(h_supply(s, 1), 5);
    assert_int_equal(h_supply(s, 2), 6);
    tafel_state_free(s);
}

static void test_crop_circle_a_allows_a_pass(void **unused) {
    (void)unused;
    tafel_state *s = crop_a_position();
    play(s, "crop add");
    play(s, "pass", "pass"); /* green and red decline */
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_int_equal(h_supply(s, 0), 6);
    assert_int_equal(h_supply(s, 1), 6);
    tafel_state_free(s);
}

/* The seed's example B with green 0, blue 1, red 2: green's pitchfork tile
** CC3 closes the city D+G+CC3 under green's new knight (6 points, knight
** back); green chooses B; blue and red must remove their farmers (no pass);
** green has no farmer and is skipped. */
static void test_crop_circle_b_everyone_removes_a_farmer_in_turn(void **unused) {
    (void)unused;
    tafel_state *s = h_state(CROP3);
    h_turn(s, "G", 0, 1, 90, NULL);                   /* green */
    h_turn(s, "U", 1, 0, 0, "follower field NNE");    /* blue farmer */
    h_turn(s, "U", -1, 0, 0, "follower field SSW");   /* red farmer */
    play(s, "draw CC3", "place 0 2 180", "follower city S");
    assert_points(h_scores(s), 6, 0, 0);
    assert_int_equal(h_supply(s, 0), 7);
    assert_crop(s, "farmer", NULL, 0);
    play(s, "crop remove");
    assert_crop(s, "farmer", "remove", 1);
    assert_int_equal(tafel_state_current(s), 1);
    h_refused(s, "pass", TAFEL_EILLEGAL); /* removing is a must */
    h_refused(s, "remove -1 0 field SSW", TAFEL_EILLEGAL); /* red's farmer */
    int n;
    tafel_action *legal = h_legal(s, &n);
    free(legal);
    assert_int_equal(n, 1);
    play(s, "remove 1 0 field NNE");
    assert_int_equal(tafel_state_current(s), 2);
    play(s, "remove -1 0 field SSW");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE); /* green skipped */
    assert_int_equal(h_view_int(s, "active"), 1);
    for (int seat = 0; seat < 3; seat++) assert_int_equal(h_supply(s, seat), 7);
    assert_points(h_scores(s), 6, 0, 0);
    assert_points(h_projected(s), 6, 0, 0);
    tafel_state_free(s);
}

/* Nobody has a robber: the club tile's action is chosen and nobody acts. */
static void test_crop_circle_with_no_follower_of_its_kind_ends_the_turn(
    void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=2,crop_circles=true)");
    play(s, "draw CC4", "place 0 -1 0", "pass");
    assert_crop(s, "robber", NULL, 0);
    play(s, "crop add");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_int_equal(h_view_int(s, "active"), 1);
    cJSON *v = h_view(s, -1);
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(v, "crop")));
    cJSON_Delete(v);
    tafel_state_free(s);
}

/* B with the club tile: blue (left of red) removes first, red last. */
static void test_crop_circle_b_active_player_removes_last(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=2,crop_circles=true)");
    h_turn(s, "U", 1, 0, 0, "follower road E");  /* red robber */
    h_turn(s, "W", 0, -1, 0, "follower road S"); /* blue robber */
    play(s, "draw CC6", "place 2 0 0", "pass");  /* red: road still open */
    assert_points(h_scores(s), 0, 0, 0);
    assert_crop(s, "robber", NULL, 0);
    play(s, "crop remove");
    assert_int_equal(tafel_state_current(s), 1);
    play(s, "remove 0 -1 road S");
    assert_int_equal(tafel_state_current(s), 0);
    play(s, "remove 1 0 road W");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_int_equal(h_view_int(s, "active"), 1);
    assert_int_equal(h_supply(s, 0), 7);
    assert_int_equal(h_supply(s, 1), 7);
    tafel_state_free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_completed_road_of_4_tiles_scores_4),
        cmocka_unit_test(test_a_completed_road_of_3_tiles_scores_3),
        cmocka_unit_test(test_a_robber_placed_on_the_completing_tile_scores_3_and_returns),
        cmocka_unit_test(test_a_road_loop_with_no_end_is_complete),
        cmocka_unit_test(test_a_road_returning_to_its_junction_counts_that_tile_once),
        cmocka_unit_test(test_a_completed_city_of_2_tiles_scores_2),
        cmocka_unit_test(test_option_small_city_4_scores_a_2_tile_city_4),
        cmocka_unit_test(test_a_knight_placed_on_the_completing_tile_scores_2_and_returns),
        cmocka_unit_test(test_a_completed_city_scores_2_per_tile_and_2_per_pennant),
        cmocka_unit_test(test_a_tile_joining_two_occupied_city_parts_pays_both_in_full),
        cmocka_unit_test(test_a_city_joining_both_caps_of_an_h_tile_counts_it_once),
        cmocka_unit_test(test_a_completed_cloister_scores_9),
        cmocka_unit_test(test_one_tile_completes_two_cloisters_at_once),
        cmocka_unit_test(test_one_tile_completes_a_road_and_a_city),
        cmocka_unit_test(test_end_of_game_incomplete_city_4_road_3_cloister_4),
        cmocka_unit_test(test_end_of_game_incomplete_cities_score_1_per_tile),
        cmocka_unit_test(test_a_farmer_gets_4_for_a_bordering_completed_city),
        cmocka_unit_test(test_an_incomplete_city_gives_farmers_nothing),
        cmocka_unit_test(test_one_farmer_bordering_two_completed_cities_gets_8),
        cmocka_unit_test(test_farmer_majority_wins_a_city_and_a_tie_pays_both),
        cmocka_unit_test(test_farmers_2000_rule_scores_city_by_city),
        cmocka_unit_test(test_farmers_modern_option_scores_field_by_field),
        cmocka_unit_test(test_no_follower_on_an_occupied_city_however_far_own_included),
        cmocka_unit_test(test_no_farmer_on_a_field_joined_to_an_occupied_one),
        cmocka_unit_test(test_an_unplaceable_tile_is_removed_and_the_player_draws_again),
        cmocka_unit_test(test_end_of_game_incomplete_road_2_robbers_to_1_pays_only_red),
        cmocka_unit_test(test_end_of_game_incomplete_road_tied_1_to_1_pays_both_in_full),
        cmocka_unit_test(test_end_of_game_incomplete_city_2_knights_to_1_pays_only_red),
        cmocka_unit_test(test_end_of_game_incomplete_city_tied_1_to_1_pays_both_in_full),
        cmocka_unit_test(test_end_of_game_a_cloister_pays_only_its_monks_owner),
        cmocka_unit_test(test_equal_top_scores_share_the_win),
        cmocka_unit_test(test_a_single_top_score_wins_alone),
        cmocka_unit_test(test_crop_circle_a_green_adds_blue_is_skipped_red_acts_last),
        cmocka_unit_test(test_crop_circle_a_allows_a_pass),
        cmocka_unit_test(test_crop_circle_b_everyone_removes_a_farmer_in_turn),
        cmocka_unit_test(test_crop_circle_with_no_follower_of_its_kind_ends_the_turn),
        cmocka_unit_test(test_crop_circle_b_active_player_removes_last),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
