/*
** error.c -- status names and the caller's error record.
*/
#include "module.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const status_messages[] = {
#define X(name, msg) msg,
    TAFEL_STATUS_MAP(X)
#undef X
};

TAFEL_API const char *tafel_status_string(int status) {
    int n = (int)(sizeof status_messages / sizeof status_messages[0]);
    if (status < 0 || status >= n) return "unknown status";
    return status_messages[status];
}

int tf_error(tafel_error *err, int code, const char *fmt, ...) {
    if (err) {
        err->code = code;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* Bytes a terminal would act on: C0 controls, DEL, and the C1 controls
** (U+0080..U+009F, two bytes in UTF-8), which some terminals obey too. */
static size_t control_length(const unsigned char *p) {
    if (*p < 0x20 || *p == 0x7f) return 1;
    if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) return 2;
    return 0;
}

TAFEL_API const char *tafel_quote(const char *text, char *buf, size_t size) {
    const unsigned char *p = (const unsigned char *)(text ? text : "");
    size_t used = 0, limit = size > 4 ? size - 4 : 0; /* room for "..." */
    for (; *p; p++) {
        char piece[8];
        size_t n = control_length(p), len;
        if (n == 2) len = (size_t)snprintf(piece, sizeof piece, "\\u%04x", p[1]), p++;
        else if (n == 1) len = (size_t)snprintf(piece, sizeof piece, "\\x%02x", *p);
        else piece[0] = (char)*p, len = 1;
        /* a UTF-8 sequence is not cut: stop before its lead byte */
        size_t whole = len;
        if (n == 0 && *p >= 0xc0)
            while (p[whole] >= 0x80 && p[whole] < 0xc0 && whole < 4) whole++;
        if (used + whole > limit) {
            if (size >= 4) memcpy(buf + (used < limit ? used : limit), "...", 4);
            else if (size) buf[0] = 0;
            return buf;
        }
        if (whole > len) memcpy(piece + len, p + 1, whole - len), p += whole - len;
        memcpy(buf + used, piece, whole);
        used += whole;
    }
    if (size) buf[used < size ? used : size - 1] = 0;
    return buf;
}
