/*
** say.c -- the words of a terminal picture, as English or as events (see
** say.h).  Pictures are drawn for people, never on a bot's path, so the
** English goes through vsnprintf plainly.
*/
#include "say.h"

#include "tafel.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void tf_say_begin(tf_say *say, tf_buf *b, int flags, const char *kind) {
    say->b = b;
    say->words = (flags & TAFEL_RENDER_WORDS) != 0;
    if (!say->words) return;
    tf_buf_addf(b, "%c{\"kind\":", TF_SAY_OPEN);
    tf_buf_json_string(b, kind);
}

void tf_say_int(tf_say *say, const char *field, int value) {
    if (!say->words) return;
    tf_buf_add(say->b, ",");
    tf_buf_json_string(say->b, field);
    tf_buf_addf(say->b, ":%d", value);
}

void tf_say_str(tf_say *say, const char *field, const char *value) {
    if (!say->words) return;
    tf_buf_add(say->b, ",");
    tf_buf_json_string(say->b, field);
    tf_buf_add(say->b, ":");
    tf_buf_json_string(say->b, value);
}

void tf_say_end(tf_say *say, const char *fmt, ...) {
    if (say->words) {
        tf_buf_addf(say->b, "}%c", TF_SAY_CLOSE);
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!text) {
        say->b->oom = 1;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(text, (size_t)n + 1, fmt, ap);
    va_end(ap);
    tf_buf_addn(say->b, text, (size_t)n);
    free(text);
}

void tf_say_text(tf_buf *b, int flags, const char *kind, const char *english) {
    tf_say say;
    tf_say_begin(&say, b, flags, kind);
    tf_say_end(&say, "%s", english);
}
