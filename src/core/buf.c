/*
** buf.c -- growable text buffer (see buf.h).
*/
#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tf_buf_init(tf_buf *b) {
    b->data = NULL;
    b->len = b->cap = 0;
    b->oom = 0;
}

void tf_buf_free(tf_buf *b) {
    free(b->data);
    tf_buf_init(b);
}

static int reserve(tf_buf *b, size_t extra) {
    if (b->oom) return 0;
    if (b->len + extra + 1 <= b->cap) return 1;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        b->oom = 1;
        return 0;
    }
    b->data = p;
    b->cap = cap;
    return 1;
}

void tf_buf_addn(tf_buf *b, const char *s, size_t n) {
    if (!reserve(b, n)) return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = 0;
}

void tf_buf_add(tf_buf *b, const char *s) { tf_buf_addn(b, s, strlen(s)); }

void tf_buf_addf(tf_buf *b, const char *fmt, ...) {
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        tf_buf_addn(b, small, (size_t)n);
        return;
    }
    if (!reserve(b, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void tf_buf_json_string(tf_buf *b, const char *s) {
    tf_buf_add(b, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            char esc[3] = {'\\', (char)c, 0};
            tf_buf_add(b, esc);
        } else if (c < 0x20) {
            tf_buf_addf(b, "\\u%04x", c);
        } else {
            tf_buf_addn(b, (const char *)&c, 1);
        }
    }
    tf_buf_add(b, "\"");
}

char *tf_buf_take(tf_buf *b) {
    if (!reserve(b, 0)) {
        tf_buf_free(b);
        return NULL;
    }
    char *p = b->data;
    tf_buf_init(b);
    return p;
}
