/*
** test_say.c -- the picture's words said from the catalogs (src/cli/say.c,
** TAFEL_RENDER_WORDS).
**
** The English catalog says every picture exactly as the engine writes it
** without the flag, for every seat and every state of random games of each
** game, with the key, the whole board and colours; a malformed event is
** printed as it is; a padded word fills its column counted in characters,
** not bytes.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "cli/catalog.h"
#include "cli/say.h"

static cli_catalog *load(const char *lang, const char *game) {
    char why[256] = "";
    cli_catalog *c = cli_catalog_load(lang, game, why, sizeof why);
    if (!c) fail_msg("%s: %s", lang, why);
    return c;
}

static void says(const char *lang, const char *game, const char *picture, const char *expected) {
    cli_catalog *c = load(lang, game);
    char *said = cli_say_picture(c, game, picture);
    assert_non_null(said);
    assert_string_equal(said, expected);
    free(said);
    cli_catalog_free(c);
}

/* Every event of a picture is closed before the next opens, and is a JSON
** object with a kind: the engine writes nothing the sayer would print raw. */
static void events_well_formed(const char *picture, const char *where) {
    int events = 0;
    for (const char *p = picture; (p = strchr(p, '\x1e')); events++) {
        const char *close = strchr(p, '\x1f'), *next = strchr(p + 1, '\x1e');
        if (!close || (next && next < close)) fail_msg("%s: an event not closed", where);
        cJSON *event = cJSON_ParseWithLength(p + 1, (size_t)(close - p - 1));
        if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(event, "kind")))
            fail_msg("%s: not an event: %.*s", where, (int)(close - p - 1), p + 1);
        cJSON_Delete(event);
        p = close;
    }
    if (strchr(picture, '\x1f') && !events) fail_msg("%s: a stray close", where);
    if (!events) fail_msg("%s: no words", where);
}

static void english_as_the_engine_writes_it(const char *game_string) {
    tafel_game *game;
    tafel_error err;
    assert_int_equal(tafel_game_load(game_string, &game, &err), TAFEL_OK);
    cli_catalog *c = load("en", tafel_game_name(game));
    int players = tafel_game_players(game), cap = tafel_game_max_actions(game), pictures = 0;
    tafel_action *scratch = malloc((size_t)cap * sizeof *scratch);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        uint64_t rng = tafel_rng_seed(seed);
        tafel_state *s = tafel_state_new(game);
        for (int step = 0;; step++) { /* to the end, the end included */
            int flags = (step % 2 ? TAFEL_RENDER_KEY : TAFEL_RENDER_WHOLE | TAFEL_RENDER_KEY) |
                        (step % 3 ? 0 : TAFEL_RENDER_COLOR);
            for (int seat = -1; seat < players; seat++) {
                char *plain = tafel_state_render(s, seat, flags);
                char *worded = tafel_state_render(s, seat, flags | TAFEL_RENDER_WORDS);
                assert_non_null(worded);
                events_well_formed(worded, game_string);
                free(worded);
                char *said = cli_picture(s, seat, flags, c, tafel_game_name(game));
                assert_non_null(plain);
                assert_non_null(said);
                if (strcmp(plain, said)) fail_msg("%s, step %d, seat %d:\n%s\n---\n%s",
                                                  game_string, step, seat, plain, said);
                free(plain);
                free(said);
                pictures++;
            }
            if (tafel_state_current(s) == TAFEL_TERMINAL) break;
            assert_int_equal(tafel_state_play_random(s, &rng, scratch, cap, NULL), TAFEL_OK);
        }
        tafel_state_free(s);
    }
    assert_true(pictures > 100);
    free(scratch);
    cli_catalog_free(c);
    tafel_game_free(game);
}

static void carcassonne_in_english(void **state) {
    (void)state;
    english_as_the_engine_writes_it("carcassonne(players=3,crop_circles=true)");
}

static void cardcassonne_in_english(void **state) {
    (void)state;
    english_as_the_engine_writes_it("cardcassonne(players=3)");
}

static void catan_in_english(void **state) {
    (void)state;
    english_as_the_engine_writes_it("catan_cards");
}

/* What the engine never writes is still shown, and nothing is lost. */
static void a_malformed_event_is_printed_as_it_is(void **state) {
    (void)state;
    says("en", "carcassonne", "a\x1e{bad json\x1f b", "a\x1e{bad json\x1f b");
    says("en", "carcassonne", "a\x1e{\"kind\":\"over\"} no end", "a\x1e{\"kind\":\"over\"} no end");
    says("en", "carcassonne", "\x1e[1,2]\x1f|\x1e{\"count\":3}\x1f",
         "\x1e[1,2]\x1f|\x1e{\"count\":3}\x1f");
    /* an opening mark before the close: the first is not an event, the second is */
    says("en", "carcassonne", "\x1e{\x1e{\"kind\":\"over\"}\x1f!", "\x1e{The game is over.!");
    says("en", "carcassonne", "\x1e", "\x1e");
    says("en", "carcassonne", "x\x1e{\"kind\":\"over\"}\x1fy", "xThe game is over.y");
}

static void pad_counts_characters(void **state) {
    (void)state;
    /* Grün is 4 characters in 5 bytes: 2 blanks fill 6 columns */
    says("de", "carcassonne", "\x1e{\"kind\":\"seat\",\"seat\":3,\"pad\":6}\x1f|", "Grün  |");
    says("de", "carcassonne", "\x1e{\"kind\":\"seat\",\"seat\":0,\"pad\":6}\x1f|", "Rot   |");
    /* longer than its column: said whole */
    says("nl", "cardcassonne", "\x1e{\"kind\":\"seat\",\"seat\":0,\"pad\":2}\x1f|", "Rood|");
}

static void the_pile_in_dutch(void **state) {
    (void)state;
    says("nl", "carcassonne", "\x1e{\"kind\":\"pile\",\"count\":60}\x1f A:1",
         "Nog in de stapel (60): A:1");
    says("de", "cardcassonne",
         "\x1e{\"kind\":\"header\",\"round\":2,\"rounds\":8,\"seat\":1,\"count\":1}\x1f",
         "Cardcassonne, Runde 2 von 8, Blau teilt aus, 1 Karte im Stapel");
}

int main(void) {
    /* the source tree's catalogs, whatever is installed */
    setenv("TAFEL_I18N_DIR", TAFEL_SOURCE_DIR "/web/i18n", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(carcassonne_in_english),
        cmocka_unit_test(cardcassonne_in_english),
        cmocka_unit_test(catan_in_english),
        cmocka_unit_test(a_malformed_event_is_printed_as_it_is),
        cmocka_unit_test(pad_counts_characters),
        cmocka_unit_test(the_pile_in_dutch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
