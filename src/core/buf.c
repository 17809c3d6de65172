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

/* Whether fmt converts only plain %s, %d, %ld, %c and %% (no flags, width
** or precision): the views and accounts of every state message are written
** with such formats, and vsnprintf spent most of the server's time on them. */
static int plain_format(const char *fmt) {
    for (const char *p = fmt; (p = strchr(p, '%')); p++) {
        p++;
        if (*p == 'l') p++;
        if (!(*p == 'd' || (p[-1] == '%' && (*p == 's' || *p == 'c' || *p == '%')))) return 0;
    }
    return 1;
}

static void add_long(tf_buf *b, long v) {
    char digits[24], *end = digits + sizeof digits, *p = end;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    do *--p = (char)('0' + u % 10); while (u /= 10);
    if (v < 0) *--p = '-';
    tf_buf_addn(b, p, (size_t)(end - p));
}

/* fmt written as vsnprintf would, for a plain_format. */
static void add_plain(tf_buf *b, const char *fmt, va_list ap) {
    for (;;) {
        const char *pct = strchr(fmt, '%');
        if (!pct) {
            tf_buf_add(b, fmt);
            return;
        }
        tf_buf_addn(b, fmt, (size_t)(pct - fmt));
        const char *conv = pct + 1;
        if (*conv == 'l') add_long(b, va_arg(ap, long)), conv++;
        else if (*conv == 'd') add_long(b, va_arg(ap, int));
        else if (*conv == 's') {
            const char *s = va_arg(ap, const char *);
            tf_buf_add(b, s ? s : "(null)"); /* glibc's word for it */
        } else if (*conv == 'c') {
            char c = (char)va_arg(ap, int);
            tf_buf_addn(b, &c, 1);
        } else tf_buf_addn(b, "%", 1);
        fmt = conv + 1;
    }
}

void tf_buf_addf(tf_buf *b, const char *fmt, ...) {
    va_list ap;
    if (plain_format(fmt)) {
        va_start(ap, fmt);
        add_plain(b, fmt, ap);
        va_end(ap);
        return;
    }
    char small[256];
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
