/*
** test_bad_input.c -- bad input never crashes and never corrupts (issue 13):
** every game's notation, any integer as an action, seats out of range,
** game strings and records, each refused with a message that names what is
** wrong, the state left as it was.  docs/bad-input.md lists these cases;
** each row there is a test here or in cli_test.sh.
*/
#include "helpers.h"

#include <limits.h>
#include <unistd.h>

static const char *const games[] = {"carcassonne(players=3,crop_circles=true)",
                                     "cardcassonne(players=4)", "catan_cards"};
#define NGAMES (sizeof games / sizeof games[0])

/* A seeded random position of game g after about steps actions. */
static tafel_state *position(const char *game, uint64_t seed, int steps) {
    tafel_state *s = h_state(game);
    tafel_game *g = h_game(game);
    int cap = tafel_game_max_actions(g);
    tafel_game_free(g);
    tafel_action *scratch = malloc(sizeof *scratch * (size_t)cap);
    uint64_t rng = tafel_rng_seed(seed);
    for (int i = 0; i < steps && tafel_state_current(s) != TAFEL_TERMINAL; i++)
        assert_int_equal(tafel_state_play_random(s, &rng, scratch, cap, NULL), TAFEL_OK);
    free(scratch);
    return s;
}

/* text is refused with code and a message, and s is unchanged. */
static void refused(tafel_state *s, const char *text, int code, const char *reason) {
    tafel_state *before = tafel_state_clone(s);
    tafel_error err = {0};
    int rc = tafel_state_apply_text(s, text, &err);
    if (rc != code)
        fail_msg("'%s': status %d (%s), expected %d", text, rc, err.message, code);
    if (!err.message[0]) fail_msg("'%s': refused without a message", text);
    if (reason && !strstr(err.message, reason))
        fail_msg("'%s': the message '%s' does not say '%s'", text, err.message, reason);
    if (strlen(err.message) >= sizeof err.message - 1)
        fail_msg("'%s': the message fills its buffer, cut: '%s'", text, err.message);
    for (const char *p = err.message; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            fail_msg("'%s': a control character in the message '%s'", text, err.message);
    if (!tafel_state_equal(before, s)) fail_msg("'%s': a refused action changed the state", text);
    tafel_state_free(before);
}

/* Issue 13 #3: any int is refused cleanly (Catan subtracted from it and
** overflowed below INT_MIN + 848; Cardcassonne below INT_MIN + 24), in
** positions of every phase, by apply, is_legal and to_text alike. */
static void test_any_integer_is_refused_cleanly_by_every_game(void **unused) {
    (void)unused;
    static const tafel_action ints[] = {INT_MIN,      INT_MIN + 1, INT_MIN + 23, INT_MIN + 847,
                                        INT_MIN + 848, -1000000,   -2,           -1,
                                        1 << 20,       INT_MAX - 1, INT_MAX};
    for (size_t g = 0; g < NGAMES; g++)
        for (int k = 0; k < 40; k++) {
            tafel_state *s = position(games[g], 100 + (uint64_t)k, k * 23);
            tafel_state *before = tafel_state_clone(s);
            for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
                tafel_error err = {0};
                assert_false(tafel_state_is_legal(s, ints[i]));
                assert_int_equal(tafel_state_apply(s, ints[i], &err), TAFEL_EILLEGAL);
                assert_true(err.message[0] != 0);
                assert_true(tafel_state_equal(before, s));
                char buf[TAFEL_ACTION_TEXT_MAX] = "x";
                assert_int_equal(tafel_action_to_text(s, ints[i], buf, sizeof buf), -1);
                assert_int_equal(tafel_action_view_text(s, 0, ints[i], buf, sizeof buf), -1);
            }
            tafel_state_free(before);
            tafel_state_free(s);
        }
}

/* Counting the legal actions with no buffer (out NULL, cap 0: how
** tafel selfplay sizes its own) writes nothing and counts them all, in
** every game; under UBSan a memcpy to NULL of 0 bytes was an error. */
static void test_legal_actions_are_counted_with_no_buffer(void **unused) {
    (void)unused;
    for (size_t g = 0; g < NGAMES; g++)
        for (int k = 0; k < 40; k++) {
            tafel_state *s = position(games[g], 300 + (uint64_t)k, k * 23);
            tafel_game *game = h_game(games[g]);
            int cap = tafel_game_max_actions(game);
            tafel_game_free(game);
            tafel_action *all = malloc(sizeof *all * (size_t)cap);
            int n = tafel_state_legal_actions(s, all, cap);
            assert_true(n >= 0 && n <= cap);
            assert_int_equal(tafel_state_legal_actions(s, NULL, 0), n);
            if (n > 0) {
                tafel_action one = -7;
                assert_int_equal(tafel_state_legal_actions(s, &one, 1), n);
                assert_int_equal(one, all[0]);
            }
            free(all);
            tafel_state_free(s);
        }
}

/* Issue 13 #4: a seat out of range gets -1 and an empty text, never a
** shift by the seat. */
static void test_view_text_refuses_a_seat_out_of_range(void **unused) {
    (void)unused;
    static const int seats[] = {INT_MIN, -1000, -2, 5, 6, 64, 1000, INT_MAX};
    for (size_t g = 0; g < NGAMES; g++) {
        tafel_state *s = position(games[g], 7, 30);
        int n;
        tafel_action *legal = tafel_state_current(s) == TAFEL_CHANCE ? NULL : h_legal(s, &n);
        tafel_action a;
        if (legal) a = legal[0];
        else {
            uint64_t rng = tafel_rng_seed(1);
            assert_int_equal(tafel_state_sample_chance(s, &rng, &a), TAFEL_OK);
        }
        for (size_t i = 0; i < sizeof seats / sizeof seats[0]; i++) {
            if (seats[i] >= -1 && seats[i] < tafel_state_players(s)) continue;
            char buf[TAFEL_ACTION_TEXT_MAX] = "x";
            assert_int_equal(tafel_action_view_text(s, seats[i], a, buf, sizeof buf), -1);
            assert_string_equal(buf, "");
        }
        char buf[TAFEL_ACTION_TEXT_MAX];
        assert_true(tafel_action_view_text(s, -1, a, buf, sizeof buf) > 0);
        free(legal);
        tafel_state_free(s);
    }
}

/* Issue 13 #5: a number that does not fit is an error, not its low bits
** ("offer 4294967297W 1L" was "offer 1W 1L").  The small forms parse (and
** are refused only as illegal here), the big ones do not parse. */
static void test_numbers_that_do_not_fit_are_parse_errors_in_every_notation(void **unused) {
    (void)unused;
    static const struct {
        int game;
        const char *small, *big;
    } cases[] = {
        {0, "place 1 1 90", "place 4294967297 1 90"},
        {0, "place 1 1 90", "place 1 -4294967295 90"},
        {0, "place 1 1 90", "place 1 1 4294967386"},
        {0, "add 0 0 city N", "add 4294967296 0 city N"},
        {1, "deal 1 Y1", "deal 4294967297 Y1"},
        {1, "deal 1 Y1", "deal 99999999999999999999999 Y1"},
        {2, "offer 1W 1L", "offer 4294967297W 1L"},
        {2, "offer 1W 1L", "offer 1W 18446744073709551617L"},
        {2, "draw 1", "draw 4294967297"},
        {2, "under abbey 1", "under abbey 4294967297"},
        {2, "stack 1 abbey", "stack 4294967297 abbey"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tafel_state *s = h_state(games[cases[i].game]);
        tafel_action a;
        tafel_error err = {0};
        int small = tafel_action_from_text(s, cases[i].small, &a, &err);
        if (small != TAFEL_OK && small != TAFEL_EILLEGAL)
            fail_msg("'%s' does not even parse: %s", cases[i].small, err.message);
        refused(s, cases[i].big, TAFEL_EPARSE, NULL);
        tafel_state_free(s);
    }
}

/* Issue 13 #10: a long action text cannot push the reason out of the
** message; #8: control characters in it are escaped. */
static void test_long_or_control_texts_keep_the_reason_and_are_escaped(void **unused) {
    (void)unused;
    static const char *const reasons[NGAMES] = {"cannot read", "a word too long", "not an action"};
    char text[400];
    for (size_t g = 0; g < NGAMES; g++) {
        tafel_state *s = h_state(games[g]);
        snprintf(text, sizeof text, "%s %0300d", g == 1 ? "reveal" : "draw", 7);
        refused(s, text, TAFEL_EPARSE, reasons[g]);
        refused(s, g == 1 ? "reveal \x1b[2J" : "draw \x1b[2J", TAFEL_EPARSE, "\\x1b[2J");
        refused(s, g == 1 ? "reveal \xc2\x9b" "31m" : "draw \xc2\x9b" "31m", TAFEL_EPARSE,
                "\\u009b31m");
        tafel_state_free(s);
    }
}

/* tafel_quote: controls escaped (C0, DEL, C1 in UTF-8), other UTF-8 kept
** whole, long text cut with "..." within the buffer. */
static void test_quote_escapes_controls_and_cuts_without_splitting_a_character(void **unused) {
    (void)unused;
    char buf[16];
    assert_string_equal(tafel_quote("a\tb\x7f", buf, sizeof buf), "a\\x09b\\x7f");
    assert_string_equal(tafel_quote("\xc2\x9b" "x", buf, sizeof buf), "\\u009bx");
    assert_string_equal(tafel_quote("Zo\xc3\xab", buf, sizeof buf), "Zo\xc3\xab");
    assert_string_equal(tafel_quote("0123456789abcdefghij", buf, sizeof buf), "0123456789ab...");
    /* 11 ASCII bytes, then a 2-byte character that would end past the cut */
    assert_string_equal(tafel_quote("0123456789a\xc3\xab" "zzzz", buf, sizeof buf),
                        "0123456789a...");
    assert_string_equal(tafel_quote("\x1b\x1b\x1b\x1b", buf, sizeof buf), "\\x1b\\x1b\\x1b...");
    assert_string_equal(tafel_quote(NULL, buf, sizeof buf), "");
}

/* Issue 13 #6 and the engine's side of it: a name or value that does not fit
** its buffer was cut ("first=000...01", 70 digits, read as 0). */
static void test_game_strings_with_long_or_strange_tokens_are_refused(void **unused) {
    (void)unused;
    char text[200];
    snprintf(text, sizeof text, "carcassonne(first=%070d)", 1);
    tafel_game *g = NULL;
    tafel_error err = {0};
    assert_int_equal(tafel_game_load(text, &g, &err), TAFEL_EPARAM);
    assert_non_null(strstr(err.message, "too long"));
    assert_null(g);
    snprintf(text, sizeof text, "%0100d", 0);
    assert_int_equal(tafel_game_load(text, &g, &err), TAFEL_EPARAM);
    assert_int_equal(tafel_game_load("carcassonne(players=2)\x1b[2J", &g, &err), TAFEL_EPARAM);
    assert_non_null(strstr(err.message, "\\x1b[2J"));
    assert_null(strchr(err.message, '\x1b'));
}

/* ------------------------------------------------------------- records */

static int record_error(const char *json, tafel_error *err) {
    tafel_record *r = NULL;
    int rc = tafel_record_from_json(json, &r, err);
    if (rc == TAFEL_OK) tafel_record_free(r);
    else assert_null(r);
    return rc;
}

static void record_refused(const char *json, const char *reason) {
    tafel_error err = {0};
    if (record_error(json, &err) != TAFEL_ERECORD)
        fail_msg("record %s: accepted, expected '%s'", json, reason);
    if (!strstr(err.message, reason))
        fail_msg("record %s: '%s' does not say '%s'", json, err.message, reason);
}

/* Issue 13 #7: \u0000 would cut a string where it stands; a key given
** twice would be read by its first value; text after the object would be
** ignored.  An escaped backslash before "u0000" is text, and whitespace
** after the object is fine. */
static void test_record_json_nul_escapes_duplicate_keys_and_trailing_text(void **unused) {
    (void)unused;
    record_refused("{\"game\": \"carcassonne\\u0000(players=9)\", \"actions\": []}",
                   "\\u0000 (a NUL character) is not allowed at line 1, column 22 (byte 21)");
    record_refused("{\"game\": \"carcassonne\", \"actions\": [\"draw D\\u0000x\"]}", "\\u0000");
    record_refused("{\"game\": \"carcassonne\", \"players\": [\"a\\u0000\"], \"actions\": []}",
                   "\\u0000");
    record_refused("{\"game\": \"carcassonne\", \"game\": \"catan_cards\", \"actions\": []}",
                   "key \"game\" is given twice");
    record_refused("{\"game\": \"carcassonne\", \"actions\": [], \"actions\": [\"draw D\"]}",
                   "key \"actions\" is given twice");
    record_refused("{\"game\": \"carcassonne\", \"actions\": []} x",
                   "text after the JSON object at line 1, column 40 (byte 39): 'x'");
    record_refused("{\"game\": \"carcassonne\", \"actions\": []}{}", "text after the JSON object");
    tafel_error err = {0};
    assert_int_equal(record_error("{\"game\": \"carcassonne\", \"players\": [\"a\\\\u0000\"], "
                                  "\"actions\": []} \n\t ", &err),
                     TAFEL_OK);
}

/* Issue 13 #11: a parse error quotes where parsing failed, with its line
** and column, not the first bytes of the text. */
static void test_record_parse_errors_quote_the_place_of_the_error(void **unused) {
    (void)unused;
    record_refused("{\"game\": \"carcassonne\",\n \"actions\": [\"draw D\", nope]}",
                   "bad JSON at line 2, column 24 (byte 47): 'nope]}'");
    record_refused("{\"game\": \"carcassonne\",\n \"actions\": [1, 2", "the text ends there");
    record_refused("{\"game\": \"carcassonne\", \"actions\": [1 \"\x1b[2J\"]}", "\\x1b[2J");
}

/* A record file: written, loaded, refused; the file is removed. */
static int load_file(const char *content, size_t len, tafel_error *err) {
    char path[] = "/tmp/tafel-bad-input-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    for (size_t done = 0; done < len;) {
        ssize_t n = write(fd, content + done, len - done);
        assert_true(n > 0);
        done += (size_t)n;
    }
    close(fd);
    tafel_record *r = NULL;
    int rc = tafel_record_load_file(path, &r, err);
    tafel_record_free(r);
    unlink(path);
    return rc;
}

/* Issue 13 #1: reading stops after 16 MiB with a reason (tafel replay
** /dev/zero grew to tens of GB); a NUL byte is no JSON text; a JSON-lines
** file is read by its first record, however long the rest. */
static void test_record_files_are_read_within_a_bound(void **unused) {
    (void)unused;
    tafel_error err = {0};
    size_t big = (16u << 20) + 100;
    char *spaces = malloc(big);
    memset(spaces, ' ', big);
    assert_int_equal(load_file(spaces, big, &err), TAFEL_ERECORD);
    assert_non_null(strstr(err.message, "no record in the first 16 MiB"));
    const char *line = "{\"game\": \"carcassonne\", \"actions\": [\"draw D\"]}\n";
    memcpy(spaces, line, strlen(line));
    assert_int_equal(load_file(spaces, big, &err), TAFEL_OK);
    free(spaces);
    assert_int_equal(load_file("{\"game\"\0: 1}", 12, &err), TAFEL_ERECORD);
    assert_non_null(strstr(err.message, "byte 7 is a NUL byte"));
    assert_int_equal(load_file("", 0, &err), TAFEL_ERECORD);
    assert_non_null(strstr(err.message, "the text ends there"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_any_integer_is_refused_cleanly_by_every_game),
        cmocka_unit_test(test_legal_actions_are_counted_with_no_buffer),
        cmocka_unit_test(test_view_text_refuses_a_seat_out_of_range),
        cmocka_unit_test(test_numbers_that_do_not_fit_are_parse_errors_in_every_notation),
        cmocka_unit_test(test_long_or_control_texts_keep_the_reason_and_are_escaped),
        cmocka_unit_test(test_quote_escapes_controls_and_cuts_without_splitting_a_character),
        cmocka_unit_test(test_game_strings_with_long_or_strange_tokens_are_refused),
        cmocka_unit_test(test_record_json_nul_escapes_duplicate_keys_and_trailing_text),
        cmocka_unit_test(test_record_parse_errors_quote_the_place_of_the_error),
        cmocka_unit_test(test_record_files_are_read_within_a_bound),
    };
    return cmocka_run_group_tests_name("bad input", tests, NULL, NULL);
}
