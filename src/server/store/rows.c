/*
** rows.c -- an answer read a row at a time, whichever backend ran it
** (backend.h, "rows.c").
**
** store_query hands the statement to the backend of the handle: pg.c runs
** it and reads the PGresult it gives, sqlite.c prepares it and steps it.
** What is read goes through the reader's methods only, so nothing here
** calls PostgreSQL or SQLite.  Owns no state.
*/
#include "backend.h"
#include "pg.h"
#include "sqlite.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

store_rows *store_query(store *db, store_rows *rows, const char *context, char *err,
                        size_t errsize, const char *sql, const char *types, ...) {
    va_list ap;
    va_start(ap, types);
    int failed = db && db->backend == STORE_POSTGRES
                     ? pg_rows_vopen(db, rows, context, err, errsize, sql, types, ap)
                     : lite_rows_vopen(db, rows, context, err, errsize, sql, types, ap);
    va_end(ap);
    return failed ? NULL : rows;
}

int store_rows_next(store_rows *rows, char *err, size_t errsize) {
    return rows->methods->next(rows, err, errsize);
}

void store_rows_close(store_rows *rows) { rows->methods->close(rows); }

int store_col_null(const store_rows *rows, int col) { return rows->methods->null(rows, col); }

int64_t store_col_int(const store_rows *rows, int col) {
    return rows->methods->int64(rows, col);
}

double store_col_double(const store_rows *rows, int col) {
    return rows->methods->real(rows, col);
}

const char *store_col_value(const store_rows *rows, int col) {
    return rows->methods->text(rows, col);
}

void store_col_text(const store_rows *rows, int col, char *out, size_t size) {
    const char *text = rows->methods->text(rows, col);
    if (size) snprintf(out, size, "%s", text ? text : "");
}

char *store_col_copy(const store_rows *rows, int col) {
    const char *text = rows->methods->text(rows, col);
    size_t len = text ? strlen(text) : 0;
    char *copy = malloc(len + 1);
    if (copy) {
        if (len) memcpy(copy, text, len);
        copy[len] = 0;
    }
    return copy;
}

/* Grows *items (of size bytes each) to hold one more; -1 out of memory. */
static int rows_grow(void **items, int n, int *cap, size_t size) {
    if (n < *cap) return 0;
    int more = *cap ? 2 * *cap : 16;
    void *p = realloc(*items, size * (size_t)more);
    if (!p) return -1;
    *items = p;
    *cap = more;
    return 0;
}

int store_rows_first(store_rows *rows, void (*row)(const store_rows *, void *), void *item,
                     char *err, size_t errsize) {
    if (!rows) return -1;
    int found = store_rows_next(rows, err, errsize);
    if (found == 1) row(rows, item);
    store_rows_close(rows);
    return found;
}

int store_rows_all(store_rows *rows, void **items, size_t size,
                   void (*row)(const store_rows *, void *), char *err, size_t errsize) {
    *items = NULL;
    if (!rows) return -1;
    int n = 0, cap = 0, rc;
    while ((rc = store_rows_next(rows, err, errsize)) == 1) {
        if (rows_grow(items, n, &cap, size)) {
            rc = store_fail(err, errsize, rows->context, "out of memory");
            break;
        }
        void *item = (char *)*items + size * (size_t)n++;
        memset(item, 0, size);
        row(rows, item);
    }
    store_rows_close(rows);
    if (rc < 0) {
        free(*items);
        *items = NULL;
        return -1;
    }
    return n;
}
