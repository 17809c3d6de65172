/*
** buf.h -- a growable text buffer, and JSON string output on top of it.
**
** Used by views, renderings and records.  A failed allocation sets oom and
** makes every later append a no-op, so callers check once at the end.
*/
#ifndef TF_BUF_H
#define TF_BUF_H

#include <stddef.h>

typedef struct tf_buf {
    char *data;
    size_t len, cap;
    int oom;
} tf_buf;

void tf_buf_init(tf_buf *b);
void tf_buf_free(tf_buf *b);
void tf_buf_add(tf_buf *b, const char *s);
void tf_buf_addn(tf_buf *b, const char *s, size_t n);
void tf_buf_addf(tf_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* s as a quoted JSON string */
void tf_buf_json_string(tf_buf *b, const char *s);
/* hand the text to the caller (malloc'd, NUL-terminated), or NULL on oom */
char *tf_buf_take(tf_buf *b);

#endif
