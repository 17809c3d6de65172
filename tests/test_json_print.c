/*
** test_json_print.c -- json_print writes what cJSON_PrintUnformatted
** writes: integers on its own path, every other number, the escapes of
** strings and keys, raw texts, nesting and empty containers, and the
** messages the server builds, parsed back from their text.
*/
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "json_print.h"

/* json_print(item) is cJSON's text; item is deleted. */
static void check_same(cJSON *item) {
    assert_non_null(item);
    char *want = cJSON_PrintUnformatted(item), *got = json_print(item);
    assert_non_null(want);
    assert_non_null(got);
    assert_string_equal(got, want);
    free(want);
    free(got);
    cJSON_Delete(item);
}

static void numbers(void **state) {
    (void)state;
    const double values[] = {0, 1, -1, 7, 42, -273, 2147483647.0, -2147483648.0, 2147483648.0,
                             4294967296.0, 1767225600123.0, 999999999999999.0, -999999999999999.0,
                             1e15, 1234567890123456.0, 9007199254740993.0, 1e300, -1e-300, 0.5,
                             -2.25, 0.1, 1.0 / 3, 3.14159265358979, 1e-7, -0.0, NAN, INFINITY,
                             -INFINITY};
    cJSON *list = cJSON_CreateArray();
    for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
        check_same(cJSON_CreateNumber(values[i]));
        cJSON_AddItemToArray(list, cJSON_CreateNumber(values[i]));
    }
    check_same(list);
    uint64_t x = 88172645463325252ULL; /* xorshift: integers of every size, and halves */
    cJSON *many = cJSON_CreateArray();
    for (int i = 0; i < 2000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double v = (double)(int64_t)(x >> (i % 60)) / ((i % 3) ? 1 : 2);
        cJSON_AddItemToArray(many, cJSON_CreateNumber(v));
    }
    check_same(many);
}

static void strings_and_keys(void **state) {
    (void)state;
    char controls[40];
    for (int i = 1; i < 32; i++) controls[i - 1] = (char)i;
    strcpy(controls + 31, "\"\\/\x7f");
    check_same(cJSON_CreateString(controls));
    check_same(cJSON_CreateString(""));
    check_same(cJSON_CreateString("Anna \"Ä\" <b>\\n</b> 🎲 Straße"));
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, controls, "key with every control");
    cJSON_AddStringToObject(o, "", "empty key");
    cJSON_AddStringToObject(o, "tab\there", "a\tb\nc\rd\be\ff");
    check_same(o);
}

static void nesting_and_kinds(void **state) {
    (void)state;
    check_same(cJSON_CreateObject());
    check_same(cJSON_CreateArray());
    check_same(cJSON_CreateNull());
    check_same(cJSON_CreateTrue());
    check_same(cJSON_CreateFalse());
    check_same(cJSON_CreateRaw("{\"board\":[[1,2],[3,{\"x\":-4}]],\"s\":\"a\\\"b\"}"));
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "type", "state");
    cJSON_AddNumberToObject(root, "seq", 12);
    cJSON_AddNullToObject(root, "seat");
    cJSON *deep = root;
    for (int i = 0; i < 40; i++) {
        cJSON *next = i % 2 ? cJSON_CreateObject() : cJSON_CreateArray();
        if (deep->type == cJSON_Object) cJSON_AddItemToObject(deep, "d", next);
        else cJSON_AddItemToArray(deep, next);
        if (i % 3 == 0) cJSON_AddItemToArray(cJSON_AddArrayToObject(root, "e"), cJSON_CreateRaw("[]"));
        deep = next;
    }
    cJSON_AddItemToObject(root, "view", cJSON_CreateRaw("{\"a\":1}"));
    cJSON_AddItemToObject(root, "scores", cJSON_CreateDoubleArray((double[]){3, 7.5, 0}, 3));
    cJSON_AddItemToObject(root, "winners", cJSON_CreateIntArray((int[]){0, 1}, 2));
    cJSON_AddBoolToObject(root, "undo", 0);
    check_same(root);
}

static void parsed_messages(void **state) {
    (void)state;
    const char *texts[] = {
        "{\"type\":\"state\",\"protocol\":1,\"table\":\"35947ea6e8216933\",\"seq\":3,\"actions\":3,"
        "\"seat\":null,\"seats\":[{\"kind\":\"bot\",\"bot\":\"random\",\"connected\":false,"
        "\"sockets\":0,\"rating\":1500}],\"clock\":{\"remaining\":[59000,60000],"
        "\"since\":1767225600123},\"scores\":[0,2.5],\"breakdown\":[{},{\"roads\":-1e-3}]}",
        "[1e400,-0,0.000001,123456789012345678901234567890,\"\\u0001\\u001f\\ud83c\\udfb2\"]",
        "{\"\":{\"\":[[],{}]},\"a\":[true,false,null]}",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) check_same(cJSON_Parse(texts[i]));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(numbers),
        cmocka_unit_test(strings_and_keys),
        cmocka_unit_test(nesting_and_kinds),
        cmocka_unit_test(parsed_messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
