/*
** test_record.c -- game records: JSON round trips, errors that name what
** is wrong, and replays that reproduce the game exactly.
**
** Games are played with seeded random actions through the public API, so
** the suite needs no knowledge of any game's rules.
*/
#include <setjmp.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tafel.h"

#define GAME "carcassonne(players=3)"

/* Play n seeded random actions on state, pushing each to record. */
static void play_random(tafel_state *state, tafel_record *record, int n,
                        uint64_t seed) {
    uint64_t rng = tafel_rng_seed(seed);
    tafel_action actions[4096];
    for (int i = 0; i < n && tafel_state_current(state) != TAFEL_TERMINAL; i++) {
        tafel_action a;
        if (tafel_state_current(state) == TAFEL_CHANCE) {
            assert_int_equal(tafel_state_sample_chance(state, &rng, &a), TAFEL_OK);
        } else {
            int count = tafel_state_legal_actions(state, actions, 4096);
            assert_true(count > 0 && count <= 4096);
            a = actions[tafel_rng_below(&rng, (uint32_t)count)];
        }
        assert_int_equal(tafel_record_push(record, state, a), TAFEL_OK);
        tafel_error err;
        if (tafel_state_apply(state, a, &err)) fail_msg("apply: %s", err.message);
    }
}

static tafel_record *parse_ok(const char *json) {
    tafel_record *r = NULL;
    tafel_error err = {0};
    if (tafel_record_from_json(json, &r, &err)) fail_msg("%s", err.message);
    return r;
}

/* Parsing json fails with TAFEL_ERECORD and a message containing want. */
static void parse_fails(const char *json, const char *want) {
    tafel_record *r = (tafel_record *)1;
    tafel_error err = {0};
    assert_int_equal(tafel_record_from_json(json, &r, &err), TAFEL_ERECORD);
    assert_null(r);
    assert_int_equal(err.code, TAFEL_ERECORD);
    if (!strstr(err.message, want))
        fail_msg("message '%s' does not say '%s'", err.message, want);
}

static void json_round_trip_keeps_every_field(void **unused) {
    (void)unused;
    tafel_record *r = tafel_record_new(GAME, 42);
    tafel_record_set_player(r, 0, "human");
    tafel_record_set_player(r, 2, "greedy:depth=2");
    tafel_record_push_text(r, "draw D");
    tafel_record_push_text(r, "place 1 0 90");
    char *json = tafel_record_to_json(r);
    tafel_record *back = parse_ok(json);
    assert_string_equal(tafel_record_game_string(back), GAME);
    assert_true(tafel_record_seed(back) == 42);
    assert_string_equal(tafel_record_player(back, 0), "human");
    assert_null(tafel_record_player(back, 1));
    assert_string_equal(tafel_record_player(back, 2), "greedy:depth=2");
    assert_int_equal(tafel_record_action_count(back), 2);
    assert_string_equal(tafel_record_action(back, 1), "place 1 0 90");
    char *again = tafel_record_to_json(back);
    assert_string_equal(json, again);
    free(json);
    free(again);
    tafel_record_free(r);
    tafel_record_free(back);
}

static void seeds_above_2_53_survive_as_strings(void **unused) {
    (void)unused;
    uint64_t seeds[] = {0, 9007199254740992ull, 9007199254740993ull,
                        18446744073709551615ull};
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        tafel_record *r = tafel_record_new("carcassonne", seeds[i]);
        char *json = tafel_record_to_json(r);
        tafel_record *back = parse_ok(json);
        assert_true(tafel_record_seed(back) == seeds[i]);
        free(json);
        tafel_record_free(r);
        tafel_record_free(back);
    }
    tafel_record *r = parse_ok("{\"game\":\"carcassonne\",\"seed\":\"123\","
                               "\"actions\":[]}");
    assert_true(tafel_record_seed(r) == 123);
    tafel_record_free(r);
}

static void bad_records_say_what_is_wrong(void **unused) {
    (void)unused;
    parse_fails("{\"game\": \"carcassonne\", \"actions\": [", "bad JSON at line 1, column 37 (byte 36): the text ends there");
    parse_fails("", "bad JSON");
    parse_fails("[1, 2]", "not a JSON object");
    parse_fails("{\"actions\": []}", "no \"game\"");
    parse_fails("{\"game\": 3, \"actions\": []}", "\"game\" must be a string");
    parse_fails("{\"game\": \"carcassonne\"}", "no \"actions\"");
    parse_fails("{\"game\": \"carcassonne\", \"actions\": \"draw D\"}",
                "\"actions\" must be an array of strings");
    parse_fails("{\"game\": \"carcassonne\", \"actions\": [\"draw D\", 7]}",
                "item 1");
    parse_fails("{\"game\": \"c\", \"seed\": -1, \"actions\": []}", "\"seed\"");
    parse_fails("{\"game\": \"c\", \"seed\": 1.5, \"actions\": []}", "\"seed\"");
    parse_fails("{\"game\": \"c\", \"seed\": \"12x\", \"actions\": []}", "12x");
    parse_fails("{\"game\": \"c\", \"players\": [1], \"actions\": []}",
                "\"players\" item 0");
}

static void an_illegal_action_is_reported_with_index_and_text(void **unused) {
    (void)unused;
    tafel_game *game;
    assert_int_equal(tafel_game_load(GAME, &game, NULL), TAFEL_OK);
    tafel_state *state = tafel_state_new(game);
    tafel_record *r = tafel_record_new(GAME, 1);
    play_random(state, r, 5, 7);
    int bad = tafel_record_action_count(r);
    tafel_record_push_text(r, "place 99 99 0");
    tafel_record_push_text(r, "pass");
    tafel_game *g = (tafel_game *)1;
    tafel_state *s = (tafel_state *)1;
    tafel_error err = {0};
    assert_int_equal(tafel_record_replay(r, &g, &s, &err), TAFEL_ERECORD);
    assert_null(g);
    assert_null(s);
    char want[64];
    snprintf(want, sizeof want, "action %d 'place 99 99 0': ", bad);
    if (strncmp(err.message, want, strlen(want)))
        fail_msg("message '%s' does not start '%s'", err.message, want);
    tafel_record_free(r);
    tafel_state_free(state);
    tafel_game_free(game);
}

static void a_record_of_an_unknown_game_does_not_replay(void **unused) {
    (void)unused;
    tafel_record *r = parse_ok("{\"game\":\"chess\",\"actions\":[]}");
    tafel_game *g;
    tafel_state *s;
    tafel_error err = {0};
    assert_int_equal(tafel_record_replay(r, &g, &s, &err), TAFEL_ERECORD);
    assert_non_null(strstr(err.message, "chess"));
    tafel_record_free(r);
}

static void replay_equals_playing_the_same_actions(void **unused) {
    (void)unused;
    tafel_game *game;
    assert_int_equal(tafel_game_load(GAME, &game, NULL), TAFEL_OK);
    for (uint64_t seed = 1; seed <= 5; seed++) {
        tafel_state *state = tafel_state_new(game);
        tafel_record *r = tafel_record_new(GAME, seed);
        play_random(state, r, seed == 5 ? 100000 : 40 * (int)seed, seed);
        char *json = tafel_record_to_json(r);
        tafel_record *back = parse_ok(json);
        tafel_game *g;
        tafel_state *s;
        tafel_error err = {0};
        if (tafel_record_replay(back, &g, &s, &err)) fail_msg("%s", err.message);
        assert_true(tafel_state_equal(s, state));
        assert_string_equal(tafel_game_string(g), tafel_game_string(game));
        free(json);
        tafel_record_free(r);
        tafel_record_free(back);
        tafel_state_free(state);
        tafel_state_free(s);
        tafel_game_free(g);
    }
    tafel_game_free(game);
}

/* A game lost by forfeit: "forfeit": {"seat": S, "reason": "..."}. */
static void forfeits_round_trip_and_bad_ones_are_refused(void **unused) {
    (void)unused;
    tafel_record *r = tafel_record_new(GAME, 7);
    const char *reason = (const char *)1;
    assert_int_equal(tafel_record_forfeit(r, &reason), -1);
    assert_null(reason);
    assert_int_equal(tafel_record_forfeit(r, NULL), -1);
    char *json = tafel_record_to_json(r);
    assert_null(strstr(json, "forfeit"));
    free(json);

    assert_int_equal(tafel_record_set_forfeit(r, 1, "no answer within 300 ms"), TAFEL_OK);
    assert_int_equal(tafel_record_forfeit(r, &reason), 1);
    assert_string_equal(reason, "no answer within 300 ms");
    /* set again: the new one replaces it */
    assert_int_equal(tafel_record_set_forfeit(r, 2, "answered \"garbage\": 'e4'"), TAFEL_OK);
    assert_int_equal(tafel_record_forfeit(r, &reason), 2);
    assert_string_equal(reason, "answered \"garbage\": 'e4'");
    /* bad calls change nothing */
    assert_int_equal(tafel_record_set_forfeit(r, 0, NULL), TAFEL_EINVAL);
    assert_int_equal(tafel_record_set_forfeit(r, -2, "x"), TAFEL_EINVAL);
    assert_int_equal(tafel_record_set_forfeit(r, TAFEL_MAX_PLAYERS, "x"), TAFEL_EINVAL);
    assert_int_equal(tafel_record_set_forfeit(NULL, 0, "x"), TAFEL_EINVAL);
    assert_int_equal(tafel_record_forfeit(r, &reason), 2);

    json = tafel_record_to_json(r);
    assert_non_null(strstr(json, "\"forfeit\":{\"seat\":2,\"reason\":"
                                 "\"answered \\\"garbage\\\": 'e4'\"}"));
    tafel_record *back = parse_ok(json);
    assert_int_equal(tafel_record_forfeit(back, &reason), 2);
    assert_string_equal(reason, "answered \"garbage\": 'e4'");
    char *again = tafel_record_to_json(back);
    assert_string_equal(json, again);
    free(again);
    free(json);
    tafel_record_free(back);

    /* seat -1 clears it, and the JSON has none */
    assert_int_equal(tafel_record_set_forfeit(r, -1, NULL), TAFEL_OK);
    assert_int_equal(tafel_record_forfeit(r, &reason), -1);
    assert_null(reason);
    json = tafel_record_to_json(r);
    assert_null(strstr(json, "forfeit"));
    free(json);
    tafel_record_free(r);

    back = parse_ok("{\"game\": \"c\", \"actions\": [], "
                    "\"forfeit\": {\"seat\": 0, \"reason\": \"\"}}");
    assert_int_equal(tafel_record_forfeit(back, &reason), 0);
    assert_string_equal(reason, "");
    tafel_record_free(back);

    const char *shape = "\"forfeit\" must be {\"seat\": N, \"reason\": \"...\"}";
    parse_fails("{\"game\": \"c\", \"actions\": [], \"forfeit\": 1}", shape);
    parse_fails("{\"game\": \"c\", \"actions\": [], \"forfeit\": null}", shape);
    parse_fails("{\"game\": \"c\", \"actions\": [], \"forfeit\": \"seat 1\"}", shape);
    parse_fails("{\"game\": \"c\", \"actions\": [], \"forfeit\": [1, \"x\"]}", shape);
    parse_fails("{\"game\": \"c\", \"actions\": [], \"forfeit\": {\"seat\": 1}}", shape);
    parse_fails("{\"game\": \"c\", \"actions\": [], \"forfeit\": {\"reason\": \"x\"}}",
                shape);
    parse_fails("{\"game\": \"c\", \"actions\": [], "
                "\"forfeit\": {\"seat\": 1, \"reason\": 3}}", shape);
    parse_fails("{\"game\": \"c\", \"actions\": [], "
                "\"forfeit\": {\"seat\": \"1\", \"reason\": \"x\"}}", shape);
    const char *range = "\"forfeit\" seat must be 0..";
    parse_fails("{\"game\": \"c\", \"actions\": [], "
                "\"forfeit\": {\"seat\": -1, \"reason\": \"x\"}}", range);
    parse_fails("{\"game\": \"c\", \"actions\": [], "
                "\"forfeit\": {\"seat\": 1.5, \"reason\": \"x\"}}", range);
    parse_fails("{\"game\": \"c\", \"actions\": [], "
                "\"forfeit\": {\"seat\": 1e300, \"reason\": \"x\"}}", range);
    char text[160];
    snprintf(text, sizeof text, "{\"game\": \"c\", \"actions\": [], "
             "\"forfeit\": {\"seat\": %d, \"reason\": \"x\"}}", TAFEL_MAX_PLAYERS);
    parse_fails(text, range);

    /* a seat the game does not have: the record does not replay */
    tafel_game *g = (tafel_game *)1;
    tafel_state *s = (tafel_state *)1;
    tafel_error err = {0};
    r = parse_ok("{\"game\": \"carcassonne(players=2)\", \"actions\": [], "
                 "\"forfeit\": {\"seat\": 2, \"reason\": \"x\"}}");
    assert_int_equal(tafel_record_replay(r, &g, &s, &err), TAFEL_ERECORD);
    assert_null(g);
    assert_null(s);
    if (!strstr(err.message, "\"forfeit\" seat 2 is not a seat of this 2-player game"))
        fail_msg("message '%s'", err.message);
    tafel_record_free(r);
    /* seat 1 of 2 replays, and the forfeit stays with the record */
    r = parse_ok("{\"game\": \"carcassonne(players=2)\", \"actions\": [], "
                 "\"forfeit\": {\"seat\": 1, \"reason\": \"x\"}}");
    if (tafel_record_replay(r, &g, &s, &err)) fail_msg("%s", err.message);
    assert_int_equal(tafel_record_forfeit(r, NULL), 1);
    tafel_state_free(s);
    tafel_game_free(g);
    tafel_record_free(r);
}

/* A result (scores by seat, winners) round-trips, bad ones are refused
** naming what is wrong, and a record without one (an older record) loads
** with none. */
static void results_round_trip_and_old_records_load(void **unused) {
    (void)unused;
    tafel_record *r = tafel_record_new(GAME, 7);
    double scores[TAFEL_MAX_PLAYERS] = {0};
    int winners[TAFEL_MAX_PLAYERS] = {0}, nw = -1;
    assert_int_equal(tafel_record_result(r, scores, winners, &nw), 0);
    assert_int_equal(nw, 0);
    char *json = tafel_record_to_json(r);
    assert_null(strstr(json, "scores"));
    assert_null(strstr(json, "winners"));
    free(json);

    const double two[2] = {87, 102.5}, bad[2] = {1, NAN};
    const int one[1] = {1}, both[2] = {0, 1}, beyond[1] = {2};
    assert_int_equal(tafel_record_set_result(r, 2, two, 1, one), TAFEL_OK);
    assert_int_equal(tafel_record_set_result(r, 2, bad, 1, one), TAFEL_EINVAL);
    assert_int_equal(tafel_record_set_result(r, 2, two, 1, beyond), TAFEL_EINVAL);
    assert_int_equal(tafel_record_set_result(r, 2, two, 3, both), TAFEL_EINVAL);
    assert_int_equal(tafel_record_set_result(r, TAFEL_MAX_PLAYERS + 1, two, 0, NULL),
                     TAFEL_EINVAL);
    assert_int_equal(tafel_record_set_result(NULL, 2, two, 1, one), TAFEL_EINVAL);
    json = tafel_record_to_json(r);
    assert_non_null(strstr(json, "\"scores\":[87,102.5],\"winners\":[1]"));
    tafel_record *back = parse_ok(json);
    assert_int_equal(tafel_record_result(back, scores, winners, &nw), 2);
    assert_true(scores[0] == 87 && scores[1] == 102.5);
    assert_int_equal(nw, 1);
    assert_int_equal(winners[0], 1);
    char *again = tafel_record_to_json(back);
    assert_string_equal(json, again);
    free(again);
    free(json);
    tafel_record_free(back);
    /* a shared win */
    assert_int_equal(tafel_record_set_result(r, 2, two, 2, both), TAFEL_OK);
    json = tafel_record_to_json(r);
    assert_non_null(strstr(json, "\"winners\":[0,1]"));
    free(json);
    /* players 0 clears it */
    assert_int_equal(tafel_record_set_result(r, 0, NULL, 0, NULL), TAFEL_OK);
    assert_int_equal(tafel_record_result(r, NULL, NULL, NULL), 0);
    tafel_record_free(r);

    const char *head = "{\"game\":\"" GAME "\",\"actions\":[]";
    char text[512];
#define WITH(tail) (snprintf(text, sizeof text, "%s%s}", head, tail), text)
    tafel_record_free(parse_ok(WITH("")));
    parse_fails(WITH(",\"scores\":[1,2]"), "\"scores\" without \"winners\"");
    parse_fails(WITH(",\"winners\":[0]"), "\"winners\" without \"scores\"");
    parse_fails(WITH(",\"scores\":[],\"winners\":[]"), "\"scores\" must be an array");
    parse_fails(WITH(",\"scores\":{},\"winners\":[]"), "\"scores\" must be an array");
    parse_fails(WITH(",\"scores\":[1,\"2\"],\"winners\":[0]"),
                "\"scores\" item 1 is not a number");
    parse_fails(WITH(",\"scores\":[1,2],\"winners\":[2]"),
                "\"winners\" item 0 is not a seat 0..1");
    parse_fails(WITH(",\"scores\":[1,2],\"winners\":[0.5]"), "is not a seat");
    parse_fails(WITH(",\"scores\":[1,2],\"winners\":[1,1]"), "names seat 1 twice");
    parse_fails(WITH(",\"scores\":[1,2],\"winners\":[0,1,0]"), "at most 2 seats");
    parse_fails(WITH(",\"scores\":[1,2],\"winners\":3"), "\"winners\" must be an array");
#undef WITH
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void files_give_their_first_record(void **unused) {
    (void)unused;
    char path[] = "/tmp/tafel_test_record_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    tafel_record *r;
    tafel_error err = {0};
    write_file(path, "\n{\"game\":\"a\",\"actions\":[\"x\"]}\n"
                     "{\"game\":\"b\",\"actions\":[]}\n");
    assert_int_equal(tafel_record_load_file(path, &r, &err), TAFEL_OK);
    assert_string_equal(tafel_record_game_string(r), "a");
    tafel_record_free(r);
    write_file(path, "{\n  \"game\": \"c\",\n  \"actions\": []\n}\n");
    assert_int_equal(tafel_record_load_file(path, &r, &err), TAFEL_OK);
    assert_string_equal(tafel_record_game_string(r), "c");
    tafel_record_free(r);
    write_file(path, "{\"game\": \"c\"}\n");
    assert_int_equal(tafel_record_load_file(path, &r, &err), TAFEL_ERECORD);
    assert_non_null(strstr(err.message, path));
    remove(path);
    assert_int_equal(tafel_record_load_file(path, &r, &err), TAFEL_EIO);
    assert_null(r);
    close(fd);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_round_trip_keeps_every_field),
        cmocka_unit_test(seeds_above_2_53_survive_as_strings),
        cmocka_unit_test(bad_records_say_what_is_wrong),
        cmocka_unit_test(an_illegal_action_is_reported_with_index_and_text),
        cmocka_unit_test(a_record_of_an_unknown_game_does_not_replay),
        cmocka_unit_test(replay_equals_playing_the_same_actions),
        cmocka_unit_test(files_give_their_first_record),
        cmocka_unit_test(forfeits_round_trip_and_bad_ones_are_refused),
        cmocka_unit_test(results_round_trip_and_old_records_load),
    };
    return cmocka_run_group_tests_name("record", tests, NULL, NULL);
}
