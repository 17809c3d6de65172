/*
** error.c -- status names and the caller's error record.
*/
#include "module.h"

#include <stdarg.h>
#include <stdio.h>

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
