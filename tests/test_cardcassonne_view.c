/*
** test_cardcassonne_view.c -- what a player at the terminal reads of
** Cardcassonne (issue 14): the key of the symbols the picture draws, no
** colour codes unless asked, a picture that leaks nothing, and parse errors
** that quote the input once.
*/
#define _GNU_SOURCE /* memmem */
#include "helpers.h"

static tafel_state *owned[8];

static tafel_state *own(tafel_state *s) {
    for (int i = 0; i < 8; i++)
        if (!owned[i]) return owned[i] = s;
    fail_msg("too many live states");
    return s;
}

static char *pictures[32];
static int npictures;

static int teardown(void **unused) {
    (void)unused;
    for (int i = 0; i < 8; i++) {
        tafel_state_free(owned[i]);
        owned[i] = NULL;
    }
    for (int i = 0; i < npictures; i++) free(pictures[i]);
    npictures = 0;
    return 0;
}

static const char *render(const tafel_state *s, int seat, int flags) {
    char *p = tafel_state_render(s, seat, flags);
    assert_non_null(p);
    if (npictures == 32) {
        for (int i = 0; i < npictures; i++) free(pictures[i]);
        npictures = 0;
    }
    pictures[npictures++] = p;
    return p;
}

static void assert_contains(const char *text, const char *what) {
    if (!strstr(text, what)) fail_msg("expected '%s' in:\n%s", what, text);
}

static void assert_lacks(const char *text, const char *what) {
    if (strstr(text, what)) fail_msg("did not expect '%s' in:\n%s", what, text);
}

static int occurrences(const char *text, const char *what) {
    int n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what)) n++;
    return n;
}

/* Two players, the setup and a deal as the rules' examples set them, Red
** (seat 0) and Blue each played a card face down and one face up, Blue's
** follower in the meadow row. */
#define SETUP                                                                     \
    "c reveal Y1; c reveal R1; c reveal G1; c reveal B1; c reveal Y2; c reveal R2;" \
    "c reveal G2; c reveal B2; c reveal GA; c reveal AJ; 0 row B"
#define DEAL                                                                      \
    "c deal 1 Y1; c deal 0 R3; c deal 1 G3; c deal 0 B3; c deal 1 RA; c deal 0 YH;" \
    "c deal 1 G1; c deal 0 Y3; c deal 1 B1; c deal 0 GH; c deal 1 Y2; c deal 0 HJ"

static tafel_state *a_round(void) {
    tafel_state *s = own(h_state("cardcassonne"));
    h_script(s, SETUP);
    h_script(s, DEAL);
    h_script(s, "1 play Y1 G; 0 play R3 Y; 1 follower G; 0 play YH Y; 1 play G3 G");
    return s;
}

/* With TAFEL_RENDER_KEY the picture is followed by a key of every symbol
** it draws; without, it is not. */
static void test_the_key_explains_the_symbols_only_when_asked(void **unused) {
    (void)unused;
    tafel_state *s = a_round();
    const char *plain = render(s, 0, 0), *keyed = render(s, 0, TAFEL_RENDER_KEY);
    assert_lacks(plain, "Key:");
    assert_int_equal(strncmp(keyed, plain, strlen(plain)), 0); /* appended after */
    const char *key = keyed + strlen(plain);
    assert_contains(key, "Key:");
    static const char *const symbols[] = {"Y R G B", "Y1", "YA", "YH", "DRAGON", "FAIRY",
                                          "AJ",      "HJ", "__", "[R?]", "[Y1*]", "<Red>",
                                          "> "};
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++)
        assert_contains(key, symbols[i]);
}

static void test_no_colour_codes_unless_asked(void **unused) {
    (void)unused;
    tafel_state *s = a_round();
    for (int seat = -1; seat < 2; seat++)
        for (int flags = 0; flags < 8; flags++)
            if (!(flags & TAFEL_RENDER_COLOR)) assert_lacks(render(s, seat, flags), "\x1b");
    assert_contains(render(s, 0, TAFEL_RENDER_COLOR), "\x1b[");
}

/* A seat's picture, key included, does not change when what it cannot see
** is dealt anew. */
static void test_the_picture_leaks_nothing(void **unused) {
    (void)unused;
    tafel_state *s = a_round();
    for (int seat = 0; seat < 2; seat++)
        for (int flags = 0; flags < 8; flags += TAFEL_RENDER_KEY) {
            tafel_state *r = own(tafel_state_clone(s));
            uint64_t rng = tafel_rng_seed((uint64_t)(3 + seat + flags));
            assert_int_equal(tafel_state_resample(r, seat, &rng), TAFEL_OK);
            assert_string_equal(render(s, seat, flags), render(r, seat, flags));
        }
}

static void test_parse_errors_quote_the_input_once(void **unused) {
    (void)unused;
    tafel_state *s = a_round();
    static const char *const bad[] = {
        "play Q1 R", "play Y1 X", "deal 9 Y1", "follower", "assign cow", "frobnicate",
        "play Y1 R G B C", "", "\x1b[2J", "reveal", "row Z",
        "a-word-that-is-far-too-long-to-be-any-card"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tafel_error err = {0};
        tafel_action a;
        assert_int_equal(tafel_action_from_text(s, bad[i], &a, &err), TAFEL_EPARSE);
        char quoted[128], q[64];
        snprintf(quoted, sizeof quoted, "'%s'", tafel_quote(bad[i], q, 48));
        if (occurrences(err.message, quoted) != 1)
            fail_msg("'%s': the message quotes it %d times: %s", bad[i],
                     occurrences(err.message, quoted), err.message);
    }
}

/* Issue 14 #11: once the game is over nothing is hidden: the face-down
** cards left in the rows show in every view and picture, and resampling
** changes nothing.  Random 2-player games, which leave face-down cards. */
static void test_the_end_shows_every_face_down_card(void **unused) {
    (void)unused;
    int seen = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        tafel_state *s = h_state("cardcassonne(players=2)");
        tafel_action scratch[512];
        uint64_t rng = tafel_rng_seed(seed);
        while (tafel_state_current(s) != TAFEL_TERMINAL)
            assert_int_equal(tafel_state_play_random(s, &rng, scratch, 512, NULL), TAFEL_OK);
        for (int seat = -1; seat < 2; seat++) {
            char *v = tafel_state_view_json(s, seat);
            for (const char *p = v; (p = strstr(p, "{\"down\":")); p++) {
                const char *end = strchr(p, '}');
                if (!memmem(p, (size_t)(end - p), "\"card\"", 6))
                    fail_msg("seed %d: seat %d's view hides a card at the end", (int)seed, seat);
                seen++;
            }
            free(v);
            char *picture = tafel_state_render(s, seat, 0);
            /* " [R?]": a hidden card in a row ("([R?] ..." is the legend) */
            assert_null(strstr(picture, " [R?]"));
            assert_null(strstr(picture, " [B?]"));
            free(picture);
        }
        tafel_state *r = tafel_state_clone(s);
        assert_int_equal(tafel_state_resample(r, 0, &rng), TAFEL_OK);
        assert_true(tafel_state_equal(r, s));
        tafel_state_free(r);
        tafel_state_free(s);
    }
    assert_true(seen > 0); /* the games did leave face-down cards */
}

/* The picture's four rows, without the legend under them (which shows a
** mark as an example). */
static const char *rows_of(const char *picture) { /* the last four stay valid */
    static char ring[4][4096];
    static int next;
    char *rows = ring[next++ % 4];
    const char *legend = strstr(picture, "  ([R?]");
    size_t n = legend ? (size_t)(legend - picture) : strlen(picture);
    if (n >= sizeof ring[0]) n = sizeof ring[0] - 1;
    memcpy(rows, picture, n);
    rows[n] = 0;
    return rows;
}

/* Issue 14 #5: what each other player put into a row last is marked with
** its letter in lower case - a face-down card, a follower, a face-up card -
** and a player's own last move is not; the view names it for every seat. */
static void test_each_other_players_last_move_is_marked(void **unused) {
    (void)unused;
    teardown(NULL); /* the states of earlier tests */
    tafel_state *s = own(h_state("cardcassonne"));
    h_script(s, SETUP);
    h_script(s, DEAL);
    assert_lacks(rows_of(render(s, -1, 0)), "r:");
    assert_lacks(rows_of(render(s, -1, 0)), "b:");
    h_script(s, "1 play Y1 G");
    assert_contains(rows_of(render(s, 0, 0)), "b:[B?]");
    assert_lacks(rows_of(render(s, 1, 0)), "b:");
    h_script(s, "0 play R3 Y; 1 follower G");
    assert_contains(rows_of(render(s, 0, 0)), "b:<Blue>");
    assert_contains(rows_of(render(s, 1, 0)), "r:[R?]");
    h_script(s, "0 play YH Y; 1 play G3 G");
    const char *red = rows_of(render(s, 0, 0)), *blue = rows_of(render(s, 1, 0));
    const char *all = rows_of(render(s, -1, 0));
    assert_contains(red, "b:G3");
    assert_int_equal(occurrences(red, "b:"), 1);
    assert_lacks(red, "r:");
    assert_contains(blue, "r:YH");
    assert_lacks(blue, "b:");
    assert_contains(all, "r:YH");
    assert_contains(all, "b:G3");
    assert_contains(render(s, 0, TAFEL_RENDER_KEY), "r:RA");
    char *view = tafel_state_view_json(s, 0);
    assert_non_null(view);
    if (!strstr(view, "\"last\":{\"row\":\"Y\"") || !strstr(view, "\"last\":{\"row\":\"G\""))
        fail_msg("the view does not name the last moves: %s", view);
    free(view);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_key_explains_the_symbols_only_when_asked),
        cmocka_unit_test(test_no_colour_codes_unless_asked),
        cmocka_unit_test(test_the_picture_leaks_nothing),
        cmocka_unit_test(test_parse_errors_quote_the_input_once),
        cmocka_unit_test(test_the_end_shows_every_face_down_card),
        cmocka_unit_test(test_each_other_players_last_move_is_marked),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
