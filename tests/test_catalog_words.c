/*
** test_catalog_words.c -- the terminal's templates say plural and zero by
** each language's rules (docs/catalogs.md: key_one, key_other, key_zero).
**
** The worked cases are tests/words_zero_forms.json: an event and the
** sentence each language must make of it ("a city of 1 tile", no "0
** pennants", no pennant part in a city without pennants).  The page's
** renderer (web/words/catalog.mjs) is held to the same file by
** tests/web/words.test.mjs, so both programs say the same.
*/
#include "cli/catalog.h"

#include <cjson/cJSON.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#ifndef TAFEL_SOURCE_DIR
#define TAFEL_SOURCE_DIR "."
#endif

/* catalog.c asks data.c for the installed catalogs; here they are the
** source tree's (TAFEL_I18N_DIR is set too, which comes first). */
const char *cli_i18n_dir(void) { return TAFEL_SOURCE_DIR "/web/i18n"; }

static cJSON *read_cases(void) {
    FILE *f = fopen(TAFEL_SOURCE_DIR "/tests/words_zero_forms.json", "rb");
    if (!f) return NULL;
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    return cJSON_Parse(text);
}

static void test_zero_and_one_are_said_by_each_language(void **unused) {
    (void)unused;
    static const char *const langs[] = {"en", "nl", "de", "it"};
    setenv("TAFEL_I18N_DIR", TAFEL_SOURCE_DIR "/web/i18n", 1);
    cJSON *cases = read_cases();
    assert_non_null(cases);
    int checked = 0;
    for (const cJSON *game = cases->child; game; game = game->next) {
        for (int l = 0; l < 4; l++) {
            char why[256] = "";
            cli_catalog *c = cli_catalog_load(langs[l], game->string, why, sizeof why);
            if (!c) fail_msg("%s %s: %s", langs[l], game->string, why);
            for (const cJSON *it = game->child; it; it = it->next) {
                const cJSON *want = cJSON_GetObjectItemCaseSensitive(it, langs[l]);
                char *said = cli_catalog_event(c, cJSON_GetObjectItemCaseSensitive(it, "event"));
                assert_non_null(said);
                assert_true(cJSON_IsString(want));
                if (strcmp(said, want->valuestring))
                    fail_msg("%s, %s: the terminal says\n%s\nnot\n%s", game->string, langs[l], said,
                             want->valuestring);
                free(said);
                checked++;
            }
            cli_catalog_free(c);
        }
    }
    cJSON_Delete(cases);
    assert_true(checked >= 4 * 9);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_and_one_are_said_by_each_language),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
