/*
** clocks.c -- a table's clock: its text, and the time each seat has left.
*/
#include "clocks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest a clock may be: a real-time game of 24 h a player, or a week a
** move by correspondence. */
#define CLOCK_MAX_BASE_MS (24LL * 3600 * 1000)
#define CLOCK_MAX_INCREMENT_MS (3600LL * 1000)
#define CLOCK_MAX_PER_MOVE_MS (14LL * 86400 * 1000)

int clock_parse(const char *text, table_clock *out, char *why, size_t whysize) {
    memset(out, 0, sizeof *out);
    if (!text || !text[0] || !strcmp(text, "none")) return 0;
    char *end;
    double a = strtod(text, &end);
    if (end == text || !isfinite(a) || a < 0) goto bad;
    if (*end == '+') {
        const char *rest = end + 1;
        double b = strtod(rest, &end);
        if (end == rest || *end || !isfinite(b) || b < 0) goto bad;
        out->kind = CLOCK_REALTIME;
        out->base_ms = llround(a * 60000.0);
        out->increment_ms = llround(b * 1000.0);
        if (out->base_ms < 1000 || out->base_ms > CLOCK_MAX_BASE_MS ||
            out->increment_ms > CLOCK_MAX_INCREMENT_MS) {
            snprintf(why, whysize, "clock '%.20s': a real-time clock has 1 s to 24 h a player "
                                   "and adds at most 3600 s a move", text);
            memset(out, 0, sizeof *out);
            return -1;
        }
        return 0;
    }
    double unit = !strcmp(end, "d")   ? 86400e3
                  : !strcmp(end, "h") ? 3600e3
                  : !strcmp(end, "m") ? 60e3
                  : !strcmp(end, "s") ? 1e3
                                      : 0;
    if (!unit) goto bad;
    out->kind = CLOCK_CORRESPONDENCE;
    out->per_move_ms = llround(a * unit);
    if (out->per_move_ms < 1000 || out->per_move_ms > CLOCK_MAX_PER_MOVE_MS) {
        snprintf(why, whysize, "clock '%.20s': a move by correspondence may take 1 s to 14 days",
                 text);
        memset(out, 0, sizeof *out);
        return -1;
    }
    return 0;
bad:
    snprintf(why, whysize, "clock '%.20s' is not \"none\", \"M+S\" (minutes a player, seconds "
                           "added a move) or \"Nd\" (days a move; or h, m, s)", text);
    memset(out, 0, sizeof *out);
    return -1;
}

/* A number of units without a needless fraction: 10, 0.5, 2.25. */
static void amount(char *out, size_t size, double value) {
    snprintf(out, size, "%.6g", value);
}

void clock_text(const table_clock *c, char *out, size_t size) {
    char a[32], b[32];
    switch (c->kind) {
    case CLOCK_REALTIME:
        amount(a, sizeof a, (double)c->base_ms / 60000.0);
        amount(b, sizeof b, (double)c->increment_ms / 1000.0);
        snprintf(out, size, "%s+%s", a, b);
        return;
    case CLOCK_CORRESPONDENCE: {
        int64_t ms = c->per_move_ms;
        const char *u = ms % 86400000 == 0 ? "d" : ms % 3600000 == 0 ? "h" : ms % 60000 == 0 ? "m" : "s";
        double per = *u == 'd' ? 86400e3 : *u == 'h' ? 3600e3 : *u == 'm' ? 60e3 : 1e3;
        amount(a, sizeof a, (double)ms / per);
        snprintf(out, size, "%s%s", a, u);
        return;
    }
    default:
        if (size) out[0] = '\0';
    }
}
