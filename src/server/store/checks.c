/*
** checks.c -- what both backends check before they touch their database,
** and the one form of the store's errors (backend.h).
**
** A caller's input is checked here, the same way for SQLite and
** PostgreSQL, so that both refuse the same calls with the same words and
** a refused call never starts a transaction.  Owns no state.
*/
#include "backend.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int store_fail(char *err, size_t errsize, const char *context, const char *fmt, ...) {
    if (err && errsize > 0) {
        char reason[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(reason, sizeof reason, fmt, ap);
        va_end(ap);
        snprintf(err, errsize, "storage: %s: %s", context, reason);
    }
    return -1;
}

/* An id as it may appear in a message: the caller's id can be anything
** (NULL, huge, binary), so at most 24 printable characters of it. */
static void store_printable_id(const char *id, char out[32]) {
    if (!id) {
        snprintf(out, 32, "(null)");
        return;
    }
    size_t i = 0;
    for (; id[i] && i < 24; i++) out[i] = isprint((unsigned char)id[i]) ? id[i] : '?';
    if (id[i]) {
        memcpy(out + i, "...", 3);
        i += 3;
    }
    out[i] = 0;
}

void store_context(char *out, size_t size, const char *doing, const char *id) {
    char shown[32];
    store_printable_id(id, shown);
    snprintf(out, size, "%s table %s", doing, shown);
}

int store_id_ok(const char *id) {
    if (!id) return 0;
    for (int i = 0; i < STORE_ID_LEN; i++)
        if (!isxdigit((unsigned char)id[i])) return 0;
    return id[STORE_ID_LEN] == 0;
}

int store_spec_ok(const char *spec) {
    return spec[0] != 0 && memchr(spec, 0, STORE_SPEC_MAX) != NULL;
}

int store_check_call(store *s, const char *id, const char *context, char *err,
                     size_t errsize) {
    if (!s) return store_fail(err, errsize, context, "no database");
    if (!store_id_ok(id))
        return store_fail(err, errsize, context, "a table id is %d hex digits", STORE_ID_LEN);
    return 0;
}

int store_check_new_table(store *s, const store_table *t, const char *context, char *err,
                          size_t errsize) {
    if (!t) return store_fail(err, errsize, context, "no table given");
    if (store_check_call(s, t->id, context, err, errsize)) return -1;
    if (!t->game || !t->game[0]) return store_fail(err, errsize, context, "no game string");
    if (t->nseats < 1 || t->nseats > 5)
        return store_fail(err, errsize, context, "%d seats (1 to 5)", t->nseats);
    for (int i = 0; i < t->nseats; i++)
        if (!store_spec_ok(t->seats[i].spec))
            return store_fail(err, errsize, context, "seat %d: spec empty or over %d bytes", i,
                              STORE_SPEC_MAX - 1);
    /* store.h: a new table has no actions and seq 0, or its opening
    ** change (seq 1).  Anything else is a caller's mistake, better seen now
    ** than after a restart. */
    if (t->nactions < 0 || t->seq != (t->nactions > 0) || t->over ||
        (t->nactions > 0 && (!t->actions || !t->action_seats)))
        return store_fail(err, errsize, context,
                          "a new table has no actions and seq 0, or its opening change and "
                          "seq 1, and is not over");
    for (int i = 0; i < t->nactions; i++)
        if (!t->actions[i] || t->action_seats[i] < -1 || t->action_seats[i] >= t->nseats)
            return store_fail(err, errsize, context, "opening action %d: no text or no seat %d",
                              i, t->action_seats[i]);
    return 0;
}

int store_check_append(int from, int n, const char *const *texts, const int *seats,
                       const char *context, char *err, size_t errsize) {
    if (n < 1 || !texts || !seats)
        return store_fail(err, errsize, context, "a change appends at least one action");
    if (from < 0 || from > INT_MAX - n)
        return store_fail(err, errsize, context, "no action %d", from);
    for (int i = 0; i < n; i++)
        if (!texts[i]) return store_fail(err, errsize, context, "action %d has no text", from + i);
    return 0;
}

/* The caller appends after what it has: if that is not what is stored, its
** state and ours differ, and appending would corrupt the record. */
int store_check_append_fits(int from, int n, const int *seats, const store_clocks *clocks,
                            int nseats, int nactions, const char *context, char *err,
                            size_t errsize) {
    if (from != nactions)
        return store_fail(err, errsize, context,
                          "appending after action %d, but the table has %d", from, nactions);
    for (int i = 0; i < n; i++)
        if (seats[i] < -1 || seats[i] >= nseats)
            return store_fail(err, errsize, context, "action %d: no seat %d (the table has %d)",
                              from + i, seats[i], nseats);
    if (clocks && clocks->nseats != nseats)
        return store_fail(err, errsize, context, "%d clocks for %d seats", clocks->nseats,
                          nseats);
    return 0;
}
