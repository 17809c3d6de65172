/*
** test_api.c -- bad input through the public API, and the action notation.
**
** Every refusal must carry the right status and a message, and must leave
** the state byte for byte as it was (tafel.h: "a call that fails leaves
** every object as it was").  Text round trips are checked for every legal
** action of many positions of random games.
*/
#include "helpers.h"

/* ----------------------------------------------------------- game strings */

static void assert_load_fails(const char *game_string, int code, const char *needle) {
    tafel_game *g = (tafel_game *)(uintptr_t)1; /* must be reset to NULL */
    tafel_error err = {0};
    int rc = tafel_game_load(game_string, &g, &err);
    if (rc != code)
        fail_msg("'%s': expected %s, got %s (%s)", game_string ? game_string : "(null)",
                 tafel_status_string(code), tafel_status_string(rc), err.message);
    assert_null(g);
    assert_int_equal(err.code, code);
    assert_true(err.message[0] != 0);
    if (needle && !strstr(err.message, needle))
        fail_msg("'%s': message '%s' does not say '%s'", game_string, err.message, needle);
}

static void test_unknown_games_and_parameters_are_refused(void **unused) {
    (void)unused;
    assert_load_fails("chess", TAFEL_EGAME, "chess");
    assert_load_fails("", TAFEL_EGAME, NULL);
    assert_load_fails("carcasonne(players=2)", TAFEL_EGAME, NULL);
    assert_load_fails("carcassonne(colour=red)", TAFEL_EPARAM, "colour");
    assert_load_fails("carcassonne(players=2,players=3)", TAFEL_EPARAM, NULL);
    assert_load_fails(NULL, TAFEL_EINVAL, NULL);
}

static void test_parameter_values_out_of_range_are_refused(void **unused) {
    (void)unused;
    assert_load_fails("carcassonne(players=6)", TAFEL_EPARAM, "players must be 2..5");
    assert_load_fails("carcassonne(players=1)", TAFEL_EPARAM, "players must be 2..5");
    assert_load_fails("carcassonne(players=two)", TAFEL_EPARAM, "players must be 2..5");
    assert_load_fails("carcassonne(players=3x)", TAFEL_EPARAM, NULL);
    assert_load_fails("carcassonne(crop_circles=maybe)", TAFEL_EPARAM, "crop_circles");
    assert_load_fails("carcassonne(crop_circles=2)", TAFEL_EPARAM, NULL);
    assert_load_fails("carcassonne(small_city=3)", TAFEL_EPARAM, "small_city");
    assert_load_fails("carcassonne(farmers=old)", TAFEL_EPARAM, "farmers");
    assert_load_fails("carcassonne(players=2,first=2)", TAFEL_EPARAM, "first");
}

static void test_malformed_game_strings_are_refused(void **unused) {
    (void)unused;
    static const char *const bad[] = {
        "carcassonne(players=",   "carcassonne(players=3",  "carcassonne(players=3)x",
        "carcassonne(players=3))", "carcassonne(=3)",        "carcassonne(players)",
        "carcassonne(players=3;crop_circles=true)", "carcassonne players=3",
        "carcassonne(",           "carcassonne(players=3,)", /* grammar: no ",)" */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_load_fails(bad[i], TAFEL_EPARAM, NULL);
}

static void assert_canonical(const char *given, const char *canonical) {
    tafel_game *g = h_game(given);
    assert_string_equal(tafel_game_string(g), canonical);
    assert_string_equal(tafel_game_name(g), "carcassonne");
    tafel_game *again = h_game(tafel_game_string(g));
    assert_string_equal(tafel_game_string(again), canonical);
    assert_int_equal(tafel_game_players(again), tafel_game_players(g));
    assert_int_equal(tafel_game_state_size(again), tafel_game_state_size(g));
    tafel_state *a = tafel_state_new(g), *b = tafel_state_new(again);
    assert_true(tafel_state_equal(a, b));
    tafel_state_free(a);
    tafel_state_free(b);
    tafel_game_free(g);
    tafel_game_free(again);
}

static void test_canonical_game_strings_round_trip(void **unused) {
    (void)unused;
    assert_canonical("carcassonne", "carcassonne(players=2)");
    assert_canonical(" carcassonne ( crop_circles = true , players = 3 ) ",
                     "carcassonne(players=3,crop_circles=true)");
    assert_canonical("carcassonne(players=2,crop_circles=false,first=0,small_city=2,"
                     "farmers=2000)",
                     "carcassonne(players=2)");
    assert_canonical("carcassonne(farmers=modern,small_city=4,first=4,players=5)",
                     "carcassonne(players=5,first=4,small_city=4,farmers=modern)");
    assert_canonical("carcassonne(crop_circles=1)", "carcassonne(players=2,crop_circles=true)");
    tafel_game *g = h_game("carcassonne(players=4)");
    assert_int_equal(tafel_game_players(g), 4);
    assert_int_equal(tafel_game_state_size(g) % 8, 0);
    assert_true(tafel_game_max_actions(g) > 0);
    tafel_state *s = tafel_state_new(g);
    assert_int_equal(tafel_state_players(s), 4);
    assert_int_equal(tafel_state_size(s), tafel_game_state_size(g));
    tafel_state_free(s);
    tafel_game_free(g);
    tafel_game_free(NULL);
    tafel_state_free(NULL);
}

static void test_the_registry_lists_carcassonne_with_its_parameters(void **unused) {
    (void)unused;
    const char *summary = NULL;
    char help[2048];
    const char *name = tafel_game_info(0, &summary, help, sizeof help);
    assert_non_null(name);
    assert_string_equal(name, "carcassonne");
    assert_non_null(summary);
    assert_non_null(strstr(help, "players=2..5 (default 2)"));
    assert_non_null(strstr(help, "crop_circles"));
    assert_null(tafel_game_info(-1, NULL, NULL, 0));
    int n = 0;
    while (tafel_game_info(n, NULL, NULL, 0)) n++;
    assert_null(tafel_game_info(n + 5, NULL, NULL, 0));
    assert_string_equal(tafel_status_string(TAFEL_EILLEGAL), "illegal action");
    assert_non_null(tafel_status_string(9999));
}

/* ------------------------------------------------------------- actions */

#define TWO "carcassonne(players=2)"

static void test_a_placement_is_refused_when_a_draw_is_expected(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    h_refused(s, "place 0 1 180", TAFEL_EILLEGAL);
    h_refused(s, "pass", TAFEL_EILLEGAL);
    h_refused(s, "follower city N", TAFEL_EILLEGAL);
    h_refused(s, "crop add", TAFEL_EILLEGAL);
    h_refused(s, "add 0 0 city N", TAFEL_EILLEGAL);
    h_refused(s, "remove 0 0 city N", TAFEL_EILLEGAL);
    tafel_state_free(s);
}

static void test_unknown_and_garbage_texts_are_parse_errors(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    static const char *const garbage[] = {
        "",           "   ",        "jump",          "draw",       "draw Z",
        "draw CC9",   "draw D D",   "\xff\xfe\x01",  "place",      "place 1",
        "place a b c", "place 0 1 45", "place 0 1 360", "place 0 1 -90",
        "place 500 0 0", "place 99999999999999999999 0 0", "crop", "crop maybe",
        "follower",   "add", "remove 0 0",
    };
    for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++)
        h_refused(s, garbage[i], TAFEL_EPARSE);
    char longtext[2000];
    memset(longtext, 'x', sizeof longtext - 1);
    longtext[sizeof longtext - 1] = 0;
    h_refused(s, longtext, TAFEL_EPARSE);
    tafel_error err = {0};
    tafel_action a = 123;
    assert_int_equal(tafel_action_from_text(s, NULL, &a, &err), TAFEL_EPARSE);
    /* No action at all, whatever the phase (here a draw is expected). */
    h_refused(s, "follower castle N", TAFEL_EPARSE);
    tafel_state_free(s);
}

static void test_wrong_placements_are_refused(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    play(s, "draw E");
    h_refused(s, "draw E", TAFEL_EILLEGAL);         /* already in hand */
    h_refused(s, "place 0 1 0", TAFEL_EILLEGAL);    /* field against city */
    h_refused(s, "place 0 0 0", TAFEL_EILLEGAL);    /* occupied */
    h_refused(s, "place 1 1 0", TAFEL_EILLEGAL);    /* corner only */
    h_refused(s, "place 50 50 0", TAFEL_EILLEGAL);  /* nowhere near */
    h_refused(s, "place 1 0 0", TAFEL_EILLEGAL);    /* field against road */
    h_refused(s, "pass", TAFEL_EILLEGAL);           /* placing is a must */
    h_refused(s, "follower city N", TAFEL_EILLEGAL);
    play(s, "place 0 1 180");
    h_refused(s, "place 0 2 0", TAFEL_EILLEGAL);    /* one tile per turn */
    h_refused(s, "draw E", TAFEL_EILLEGAL);
    tafel_state_free(s);
}

static void test_wrong_followers_are_refused(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    play(s, "draw N", "place 0 1 180");  /* city S and E */
    h_refused(s, "follower road E", TAFEL_EILLEGAL);   /* no road */
    h_refused(s, "follower cloister", TAFEL_EILLEGAL); /* no cloister */
    h_refused(s, "follower city N", TAFEL_EILLEGAL);   /* N is a field */
    h_refused(s, "follower field SSE", TAFEL_EILLEGAL); /* S is a city */
    h_refused(s, "follower city Q", TAFEL_EPARSE);
    h_refused(s, "follower field N", TAFEL_EPARSE);    /* a half names a field */
    h_refused(s, "follower city NNW", TAFEL_EPARSE);   /* an edge names a city */
    h_refused(s, "follower cloister N", TAFEL_EPARSE);
    play(s, "follower city S");
    /* Blue's tile extends red's city: occupied however far. */
    play(s, "draw F", "place 1 1 0");
    h_refused(s, "follower city W", TAFEL_EILLEGAL);
    tafel_state_free(s);
}

/* Red puts six monks in a row of cloisters under the road and a knight on
** an open city (seven followers that stay out); blue lays road.  Then red's
** supply is empty: the E it places next can hold nobody. */
static void test_a_follower_is_refused_when_the_supply_is_empty(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    static const struct {
        const char *tile;
        int x;
    } cloisters[6] = {{"B", 0}, {"B", 1}, {"B", -1}, {"B", 2}, {"A", 3}, {"A", -2}};
    static const int road[6] = {1, -1, 2, -2, 3, -3};
    for (int i = 0; i < 6; i++) {
        h_turn(s, cloisters[i].tile, cloisters[i].x, -1, 0, "follower cloister");
        h_turn(s, "U", road[i], 0, 0, NULL);
    }
    h_turn(s, "E", 0, -2, 180, "follower city S");
    h_turn(s, "U", 4, 0, 0, NULL);
    assert_int_equal(h_supply(s, 0), 0);
    play(s, "draw E", "place 1 -2 180");
    int n;
    tafel_action *legal = h_legal(s, &n);
    free(legal);
    assert_int_equal(n, 1); /* pass only */
    h_refused(s, "follower city S", TAFEL_EILLEGAL);
    h_refused(s, "follower field NNW", TAFEL_EILLEGAL);
    play(s, "pass");
    assert_int_equal(h_supply(s, 0), 0);
    tafel_state_free(s);
}

static void test_actions_after_the_game_is_over_are_refused(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    uint64_t rng = tafel_rng_seed(3);
    for (int guard = 0; tafel_state_current(s) != TAFEL_TERMINAL; guard++) {
        assert_true(guard < 1000);
        tafel_action a;
        if (tafel_state_current(s) == TAFEL_CHANCE) {
            assert_int_equal(tafel_state_sample_chance(s, &rng, &a), TAFEL_OK);
        } else {
            int n;
            tafel_action *legal = h_legal(s, &n);
            a = legal[tafel_rng_below(&rng, (uint32_t)n)];
            free(legal);
        }
        assert_int_equal(tafel_state_apply(s, a, NULL), TAFEL_OK);
    }
    h_refused(s, "draw D", TAFEL_EILLEGAL);
    h_refused(s, "pass", TAFEL_EILLEGAL);
    h_refused(s, "place 0 1 0", TAFEL_EILLEGAL);
    tafel_state *before = tafel_state_clone(s);
    tafel_error err = {0};
    assert_int_equal(tafel_state_apply(s, 0, &err), TAFEL_EILLEGAL);
    assert_true(err.message[0] != 0);
    assert_true(tafel_state_equal(before, s));
    tafel_action a;
    assert_int_equal(tafel_state_legal_actions(s, &a, 1), 0);
    assert_int_equal(tafel_state_chance_outcomes(s, &a, NULL, 1), 0);
    assert_int_equal(tafel_state_sample_chance(s, &rng, &a), TAFEL_EINVAL);
    tafel_action played = -7;
    assert_int_equal(tafel_state_play_random(s, &rng, &a, 1, &played), TAFEL_ESTATE);
    assert_int_equal(played, -7);
    assert_true(tafel_state_equal(before, s));
    tafel_state_free(before);
    tafel_state_free(s);
}

/* A random step needs room for the longest list: with less it plays
** nothing (a list cut short would not be drawn from evenly). */
static void test_a_random_step_without_room_for_every_action_is_refused(void **unused) {
    (void)unused;
    tafel_game *g = h_game(TWO);
    tafel_state *s = tafel_state_new(g), *before = tafel_state_new(g);
    int cap = tafel_game_max_actions(g);
    tafel_action *scratch = malloc(sizeof *scratch * (size_t)cap), played = -7;
    assert_non_null(scratch);
    uint64_t rng = tafel_rng_seed(3), rng_before;
    for (int step = 0; step < 4; step++) { /* a draw (chance), then decisions */
        tafel_state_copy(before, s);
        rng_before = rng;
        assert_int_equal(tafel_state_play_random(s, &rng, scratch, cap - 1, &played),
                         TAFEL_EINVAL);
        assert_true(tafel_state_equal(before, s));
        assert_true(rng == rng_before);
        assert_int_equal(played, -7);
        assert_int_equal(tafel_state_play_random(s, &rng, scratch, cap, &played), TAFEL_OK);
        assert_int_equal(tafel_state_move_number(s), step + 1);
        assert_false(tafel_state_equal(before, s));
        played = -7;
    }
    free(scratch);
    tafel_state_free(before);
    tafel_state_free(s);
    tafel_game_free(g);
}

/* Integers that are no action here: refused, state unchanged. */
static void test_out_of_range_action_numbers_are_refused(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    tafel_state *before = tafel_state_clone(s);
    static const tafel_action bad[] = {-1, -5, INT32_MIN, 1 << 20, INT32_MAX};
    for (int phase = 0; phase < 3; phase++) {
        tafel_state_copy(before, s);
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            tafel_error err = {0};
            assert_int_equal(tafel_state_apply(s, bad[i], &err), TAFEL_EILLEGAL);
            assert_true(err.message[0] != 0);
            assert_true(tafel_state_equal(before, s));
            assert_false(tafel_state_is_legal(s, bad[i]));
            char buf[TAFEL_ACTION_TEXT_MAX];
            assert_int_equal(tafel_action_to_text(s, bad[i], buf, sizeof buf), -1);
        }
        play(s, phase == 0 ? "draw E" : phase == 1 ? "place 0 1 180" : "pass");
    }
    tafel_state_free(before);
    tafel_state_free(s);
}

/* ---------------------------------------------------------- notation */

static tafel_action action_of(const tafel_state *s, const char *text) {
    tafel_action a;
    tafel_error err = {0};
    if (tafel_action_from_text(s, text, &a, &err) != TAFEL_OK)
        fail_msg("'%s': %s", text, err.message);
    return a;
}

/* Every spelling of a segment names the same action; the canonical text is
** one of them. */
static void test_alternative_spellings_name_the_same_action(void **unused) {
    (void)unused;
    tafel_state *s = h_state(TWO);
    play(s, "draw F", "place 0 1 90");   /* city N-S with fields E and W */
    assert_int_equal(action_of(s, "follower city N"), action_of(s, "follower city S"));
    assert_int_equal(action_of(s, "follower field ENE"), action_of(s, "follower field ESE"));
    assert_int_not_equal(action_of(s, "follower field ENE"),
                         action_of(s, "follower field WNW"));
    char text[TAFEL_ACTION_TEXT_MAX];
    h_text(s, action_of(s, "follower city S"), text, sizeof text);
    assert_true(strcmp(text, "follower city N") == 0 || strcmp(text, "follower city S") == 0);
    play(s, "pass");
    /* U is the same turned by 180 degrees: both spellings, one action. */
    play(s, "draw U");
    assert_int_equal(action_of(s, "place 1 0 0"), action_of(s, "place 1 0 180"));
    play(s, "place 1 0 180", "follower road W");
    cJSON *v = h_view(s, -1);
    assert_int_equal(h_json_array_size(v, "followers"), 1);
    cJSON_Delete(v);
    tafel_state_free(s);
}

/* to_text then from_text gives the action back, for every legal action
** (chance outcomes included) along random games of every variant. */
static void test_every_legal_action_round_trips_through_text(void **unused) {
    (void)unused;
    static const char *const games[] = {
        "carcassonne(players=2)", "carcassonne(players=3,crop_circles=true)",
        "carcassonne(players=5,crop_circles=true,first=2)",
    };
    long checked = 0;
    for (int gi = 0; gi < 3; gi++) {
        for (int game = 0; game < 4; game++) {
            tafel_state *s = h_state(games[gi]);
            uint64_t rng = tafel_rng_seed((uint64_t)(100 * gi + game));
            while (tafel_state_current(s) != TAFEL_TERMINAL) {
                int n;
                tafel_action *legal = h_legal(s, &n);
                assert_true(n > 0);
                for (int i = 0; i < n; i++) {
                    char text[TAFEL_ACTION_TEXT_MAX];
                    h_text(s, legal[i], text, sizeof text);
                    tafel_action back = -1;
                    tafel_error err = {0};
                    if (tafel_action_from_text(s, text, &back, &err) != TAFEL_OK)
                        fail_msg("'%s' does not read back: %s", text, err.message);
                    if (back != legal[i])
                        fail_msg("'%s' reads back as %d, not %d", text, (int)back,
                                 (int)legal[i]);
                    checked++;
                }
                tafel_action a;
                if (tafel_state_current(s) == TAFEL_CHANCE)
                    assert_int_equal(tafel_state_sample_chance(s, &rng, &a), TAFEL_OK);
                else
                    a = legal[tafel_rng_below(&rng, (uint32_t)n)];
                free(legal);
                assert_int_equal(tafel_state_apply(s, a, NULL), TAFEL_OK);
            }
            tafel_state_free(s);
        }
    }
    assert_true(checked > 10000);
}

/* The crop circle "add" names a feature: any segment of it reads as the
** same action (rules §8: add x y feature edge). */
static void test_crop_add_spellings_of_one_feature_are_one_action(void **unused) {
    (void)unused;
    tafel_state *s = h_state("carcassonne(players=2,crop_circles=true)");
    h_turn(s, "N", 0, 1, 180, "follower city S"); /* red's city D + N */
    h_turn(s, "U", 1, 0, 0, NULL);
    play(s, "draw CC1", "place 0 -1 180", "pass", "crop add"); /* red */
    assert_int_equal(tafel_state_current(s), 0); /* blue has no knight */
    assert_int_equal(action_of(s, "add 0 1 city S"), action_of(s, "add 0 1 city E"));
    assert_int_equal(action_of(s, "add 0 1 city S"), action_of(s, "add 0 0 city N"));
    h_refused(s, "add 0 -1 city E", TAFEL_EILLEGAL); /* nobody's city */
    h_refused(s, "add 5 5 city N", TAFEL_EILLEGAL);  /* no tile there */
    h_refused(s, "remove 0 1 city S", TAFEL_EILLEGAL); /* A was chosen */
    play(s, "add 0 0 city N");
    assert_int_equal(h_supply(s, 0), 5);
    tafel_state_free(s);
}

/* tafel_state_action_reveals, which undo at a table obeys: whether an
** action shows its player something hidden.  Played over whole random games
** of each game: never in Carcassonne (nothing is hidden); in the Catan card
** game a card drawn from a stack does (unless a paid search showed the
** stack to the player already), a trade never; in
** Cardcassonne a card played while others still hold cards never does (a
** round's scoring, which turns cards up, follows only the last one).
** Chance events and illegal actions always count as revealing, and the
** answer is the same every time it is asked. */
static void test_what_an_action_reveals(void **unused) {
    (void)unused;
    static const char *const games[] = {"carcassonne(players=3)", "catan_cards",
                                        "cardcassonne(players=3)"};
    for (int g = 0; g < 3; g++) {
        tafel_state *s = h_state(games[g]);
        uint64_t rng = tafel_rng_seed(40 + (uint64_t)g);
        int revealed = 0, draws = 0;
        while (tafel_state_current(s) != TAFEL_TERMINAL) {
            int n, seat = tafel_state_current(s);
            tafel_action *legal = h_legal(s, &n), a = legal[tafel_rng_below(&rng, (uint32_t)n)];
            free(legal);
            int reveals = tafel_state_action_reveals(s, a);
            assert_int_equal(reveals, tafel_state_action_reveals(s, a));
            if (seat < 0) assert_int_equal(reveals, 1);
            else {
                char text[128];
                h_text(s, a, text, sizeof text);
                revealed += reveals;
                if (g == 0 && reveals) fail_msg("%s: '%s' reveals nothing", games[g], text);
                if (g == 1 && !strncmp(text, "draw ", 5)) draws += reveals;
                if (g == 1 && !strncmp(text, "trade ", 6) && reveals)
                    fail_msg("%s: '%s' shows nothing hidden", games[g], text);
                if (g == 2 && !strncmp(text, "play ", 5) && reveals) {
                    cJSON *view = h_view(s, -1), *seats = cJSON_GetObjectItem(view, "seats");
                    int held = 0;
                    for (int p = 0; p < cJSON_GetArraySize(seats); p++)
                        held += h_json_int(cJSON_GetArrayItem(seats, p), "hand_count");
                    cJSON_Delete(view);
                    if (held > 1) fail_msg("%s: '%s' with %d cards held reveals", games[g], text, held);
                }
            }
            tafel_state *illegal = tafel_state_clone(s);
            assert_int_equal(tafel_state_action_reveals(illegal, -1), 1);
            tafel_state_free(illegal);
            assert_int_equal(tafel_state_apply(s, a, NULL), TAFEL_OK);
        }
        if (g > 0) assert_true(revealed > 0);
        if (g == 1) assert_true(draws > 0);
        tafel_state_free(s);
    }
}

/* tafel_game_pieces_json: the engine's own data for front ends that draw
** pieces.  Carcassonne: 30 tile types (24 and the 6 crop circles), 72 + 6
** tiles, D the start tile and "CRFR" (city north, road east-west), each
** segment of a known kind; Cardcassonne: the 130 cards and the four rows;
** the Catan card game: the six resources, the cards with their costs, the
** ten event cards. */
static void test_the_pieces_of_each_game(void **unused) {
    (void)unused;
    tafel_game *g = h_game("carcassonne");
    char *text = tafel_game_pieces_json(g);
    cJSON *pieces = cJSON_Parse(text), *tiles = cJSON_GetObjectItem(pieces, "tiles");
    assert_non_null(tiles);
    assert_int_equal(cJSON_GetArraySize(tiles), 30);
    int total = 0;
    for (cJSON *t = tiles->child; t; t = t->next) {
        total += h_json_int(t, "count");
        cJSON *segs = cJSON_GetObjectItem(t, "segments");
        assert_true(cJSON_GetArraySize(segs) > 0);
        for (cJSON *seg = segs->child; seg; seg = seg->next) {
            const char *kind = h_json_string(seg, "kind");
            if (strcmp(kind, "city") && strcmp(kind, "road") && strcmp(kind, "field") &&
                strcmp(kind, "cloister"))
                fail_msg("tile %s: a segment of kind '%s'", t->string, kind);
        }
    }
    assert_int_equal(total, 78);
    assert_string_equal(h_json_string(pieces, "start"), "D");
    assert_string_equal(h_json_string(cJSON_GetObjectItem(tiles, "D"), "edges"), "CRFR");
    assert_string_equal(h_json_string(cJSON_GetObjectItem(tiles, "CC1"), "crop"), "knight");
    cJSON_Delete(pieces);
    free(text);
    tafel_game_free(g);

    g = h_game("cardcassonne");
    text = tafel_game_pieces_json(g);
    pieces = cJSON_Parse(text);
    cJSON *cards = cJSON_GetObjectItem(pieces, "cards");
    total = 0;
    for (cJSON *c = cards ? cards->child : NULL; c; c = c->next) total += h_json_int(c, "count");
    assert_int_equal(total, 130);
    cJSON *ra = cJSON_GetObjectItem(cards, "RA");
    assert_string_equal(h_json_string(ra, "animal"), "sheep"); /* red is sheep (issue 12) */
    assert_string_equal(h_json_string(cJSON_GetObjectItem(pieces, "rows"), "B"), "city");
    cJSON_Delete(pieces);
    free(text);
    tafel_game_free(g);

    g = h_game("catan_cards");
    text = tafel_game_pieces_json(g);
    pieces = cJSON_Parse(text);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(pieces, "resources")), 6);
    cJSON *smithy = cJSON_GetObjectItem(cJSON_GetObjectItem(pieces, "cards"), "smithy");
    assert_int_equal(h_json_int(cJSON_GetObjectItem(smithy, "cost"), "O"), 2);
    assert_string_equal(h_json_string(smithy, "colour"), "green");
    total = 0;
    cJSON *events = cJSON_GetObjectItem(pieces, "events");
    for (cJSON *e = events ? events->child : NULL; e; e = e->next) total += h_json_int(e, "count");
    assert_int_equal(total, 10);
    cJSON_Delete(pieces);
    free(text);
    tafel_game_free(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unknown_games_and_parameters_are_refused),
        cmocka_unit_test(test_parameter_values_out_of_range_are_refused),
        cmocka_unit_test(test_malformed_game_strings_are_refused),
        cmocka_unit_test(test_canonical_game_strings_round_trip),
        cmocka_unit_test(test_the_registry_lists_carcassonne_with_its_parameters),
        cmocka_unit_test(test_a_placement_is_refused_when_a_draw_is_expected),
        cmocka_unit_test(test_unknown_and_garbage_texts_are_parse_errors),
        cmocka_unit_test(test_wrong_placements_are_refused),
        cmocka_unit_test(test_wrong_followers_are_refused),
        cmocka_unit_test(test_a_follower_is_refused_when_the_supply_is_empty),
        cmocka_unit_test(test_actions_after_the_game_is_over_are_refused),
        cmocka_unit_test(test_out_of_range_action_numbers_are_refused),
        cmocka_unit_test(test_a_random_step_without_room_for_every_action_is_refused),
        cmocka_unit_test(test_alternative_spellings_name_the_same_action),
        cmocka_unit_test(test_every_legal_action_round_trips_through_text),
        cmocka_unit_test(test_crop_add_spellings_of_one_feature_are_one_action),
        cmocka_unit_test(test_what_an_action_reveals),
        cmocka_unit_test(test_the_pieces_of_each_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
