/*
** test_buf.c -- the growable text buffer: tf_buf_addf writes what
** snprintf writes, on its own fast path (plain %s, %d, %ld, %c, %%) and on
** vsnprintf's (widths, flags, other conversions), and long texts grow the
** buffer.
*/
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/buf.h"

/* tf_buf_addf(fmt, ...) after a prefix, checked against snprintf's text. */
#define CHECK_ADDF(...)                                                                  \
    do {                                                                                 \
        char want[4096];                                                                 \
        int n = snprintf(want, sizeof want, __VA_ARGS__);                                \
        assert_true(n >= 0 && (size_t)n < sizeof want);                                  \
        tf_buf b;                                                                        \
        tf_buf_init(&b);                                                                 \
        tf_buf_add(&b, "<");                                                             \
        tf_buf_addf(&b, __VA_ARGS__);                                                    \
        assert_int_equal(b.len, (size_t)n + 1);                                          \
        assert_memory_equal(b.data + 1, want, (size_t)n);                                \
        assert_int_equal(b.data[b.len], 0);                                              \
        tf_buf_free(&b);                                                                 \
    } while (0)

static void plain_formats_as_snprintf(void **state) {
    (void)state;
    CHECK_ADDF("no conversion at all");
    CHECK_ADDF("%s", "");
    CHECK_ADDF("%d", 0);
    CHECK_ADDF("%d|%d|%d|%d", INT_MIN, INT_MAX, -1, 10);
    CHECK_ADDF("%ld,%ld,%ld", LONG_MIN, LONG_MAX, -1234567890123L);
    CHECK_ADDF("{\"vp\":%d,\"name\":\"%s\",\"c\":'%c'}%%", 7, "Anna \"x\"", 'q');
    CHECK_ADDF("%s%s%d%s", "a", "", 42, "tail");
    CHECK_ADDF("100%% of %s", "it");
    CHECK_ADDF("%c%c", 'a', 'b');
}

static void other_formats_as_snprintf(void **state) {
    (void)state;
    CHECK_ADDF("%3d|%-6s|%5d|%04x", 7, "ab", -12, 0xbe);
    CHECK_ADDF("%d and %-10s|", 1, "pad");
    CHECK_ADDF("%lld %u %g", -5LL, 3u, 0.1);
    CHECK_ADDF("%ls|", L"wide");
}

static void long_texts_grow(void **state) {
    (void)state;
    char big[1500];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    CHECK_ADDF("[%s]%d", big, 5);
    CHECK_ADDF("[%5s]%d", big, 5);
    tf_buf b;
    tf_buf_init(&b);
    for (int i = 0; i < 1000; i++) tf_buf_addf(&b, "%d,", i);
    assert_int_equal(b.len, strlen(b.data));
    assert_int_equal(strncmp(b.data, "0,1,2,", 6), 0);
    assert_non_null(strstr(b.data, ",998,999,"));
    tf_buf_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plain_formats_as_snprintf),
        cmocka_unit_test(other_formats_as_snprintf),
        cmocka_unit_test(long_texts_grow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
