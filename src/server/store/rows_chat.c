/*
** rows_chat.c -- the chat as read, assembled from its rows (backend.h,
** "rows_chat.c").
**
** pg_chat.c and sqlite_chat.c give the SQL (rows_chat_sql) and keep the
** write of a line, which differs (a node's fence on PostgreSQL).  How the
** lines are counted and put oldest first is here once, read through
** store_query.  Owns no state.
*/
#include "backend.h"

#include <stdio.h>
#include <string.h>

/* "<doing> at table <id>": the context err names. */
static void chat_context(char *out, size_t size, const char *doing, const char *table_id) {
    snprintf(out, size, "%s at table %.16s", doing, table_id ? table_id : "(null)");
}

static void count_row(const store_rows *rows, void *item) {
    int64_t *counts = item;
    counts[0] = store_col_int(rows, 0);
    counts[1] = store_col_int(rows, 1);
}

int rows_chat_count(store *db, const rows_chat_sql *sql, const char *table_id, int seat,
                    int64_t *next_n, int64_t *said, char *err, size_t errsize) {
    char context[96];
    chat_context(context, sizeof context, "counting the chat", table_id);
    store_rows rows;
    int64_t counts[2] = {0, 0};
    /* an aggregate without GROUP BY: one row, whatever the table holds */
    int found = store_rows_first(store_query(db, &rows, context, err, errsize, sql->count, "ti",
                                             table_id, (int64_t)seat),
                                 count_row, counts, err, errsize);
    if (found < 0) return -1;
    *next_n = counts[0] + 1;
    *said = counts[1];
    return 0;
}

/* The query gives the latest lines first: they are put in out from the
** end, then moved to its start, so that out is oldest first. */
int rows_chat_read(store *db, const rows_chat_sql *sql, const char *table_id,
                   int spectators_too, int cap, store_chat_line *out, char *err,
                   size_t errsize) {
    char context[96];
    chat_context(context, sizeof context, "reading the chat", table_id);
    if (cap < 0 || (cap > 0 && !out))
        return store_fail(err, errsize, context, "no room for the lines");
    if (cap == 0) return 0;
    memset(out, 0, sizeof *out * (size_t)cap);
    store_rows rows;
    if (!store_query(db, &rows, context, err, errsize, sql->read, "tii", table_id,
                     (int64_t)(spectators_too ? 1 : 0), (int64_t)cap))
        return -1;
    int n = 0, rc = 0;
    while (n < cap && (rc = store_rows_next(&rows, err, errsize)) == 1) {
        store_chat_line *l = &out[cap - 1 - n++];
        l->n = store_col_int(&rows, 0);
        store_col_text(&rows, 2, l->kind, sizeof l->kind);
        l->seat = (int)store_col_int(&rows, 3);
        l->at = store_col_int(&rows, 4);
        l->name = store_col_copy(&rows, 1);
        l->text = store_col_copy(&rows, 5);
        if (!l->name || !l->text) rc = store_fail(err, errsize, context, "out of memory");
        if (rc < 0) break;
    }
    store_rows_close(&rows);
    if (rc < 0) {
        store_chat_lines_free(out + cap - n, n);
        return -1;
    }
    memmove(out, out + cap - n, sizeof *out * (size_t)n);
    memset(out + n, 0, sizeof *out * (size_t)(cap - n));
    return n;
}
