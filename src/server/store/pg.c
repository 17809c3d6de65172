/*
** pg.c -- the connection of a store on PostgreSQL and what its files share
** (pg.h): statements bound by a format, transactions, columns, errors.
**
** A handle is one libpq connection, used by one thread at a time; all its
** state is in the handle (backend.h), nothing in globals.  Parameters go as
** text but for token hashes (binary bytea) and results come back as text,
** so every value crosses in one well-defined form.
**
** A lost connection (PostgreSQL restarted, the network cut) fails the call
** that finds it with "the connection to PostgreSQL is lost: <reason>"; the
** next call outside a transaction reconnects once (PQreset) and goes on; a
** read or a BEGIN that finds it outside a transaction reconnects and is
** sent again at once (it did nothing yet), and so is a statement its caller
** marked (pg_again: a claim or a lease, which done twice is done once).
** Never inside a transaction: its earlier statements died with the old
** session, so a reconnect there would run the rest outside it.  A COMMIT
** whose answer never came is in doubt and says so.
*/
#include "backend.h"
#include "pg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The type of each parameter letter (pg_type.h's OIDs, fixed by the
** catalog): text, int8, float8, bytea; 0 lets the server decide (NULL). */
#define PG_TEXT_OID 25
#define PG_INT8_OID 20
#define PG_FLOAT8_OID 701
#define PG_BYTEA_OID 17
#define PG_MAX_PARAMS 64

PGconn *store_pg(store *db) {
    return db && db->backend == STORE_POSTGRES ? db->pg : NULL;
}

const char *store_pg_sqlstate(store *db) { return db ? db->pg_state : ""; }

/* libpq's messages end in a newline and may run over several lines (a
** primary message, DETAIL, HINT): one line, for a log and an error reply. */
static void pg_one_line(const char *text, char *out, size_t size) {
    size_t n = 0;
    for (const char *c = text ? text : ""; *c && n + 1 < size; c++) {
        char ch = *c == '\n' || *c == '\t' || *c == '\r' ? ' ' : *c;
        if (ch == ' ' && (n == 0 || out[n - 1] == ' ')) continue;
        out[n++] = ch;
    }
    while (n > 0 && out[n - 1] == ' ') n--;
    if (size > 0) out[n] = 0;
}

/* Why the latest call on db failed: the result's primary message, or the
** connection's, named as a lost connection when it is one. */
static int pg_fail(store *db, const PGresult *r, char *err, size_t errsize,
                   const char *context) {
    const char *msg = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    snprintf(db->pg_state, sizeof db->pg_state, "%s", state ? state : "");
    char reason[400];
    pg_one_line(msg && msg[0] ? msg : PQerrorMessage(db->pg), reason, sizeof reason);
    if (PQstatus(db->pg) == CONNECTION_BAD)
        return store_fail(err, errsize, context, "the connection to PostgreSQL is lost: %s",
                          reason[0] ? reason : "no reason given");
    return store_fail(err, errsize, context, "%s", reason[0] ? reason : "PostgreSQL failed");
}

/* PostgreSQL's notices (e.g. "relation already exists, skipping") are not
** the server's business: a store never prints. */
static void pg_quiet(void *arg, const char *message) {
    (void)arg, (void)message;
}

/* What a session needs after every connect: quiet notices and, for a
** server's handle, the shared lock that tells tafel admin a server runs
** (pg_held_elsewhere). */
static int pg_session(store *db, char *err, size_t errsize, const char *context) {
    PQsetNoticeProcessor(db->pg, pg_quiet, NULL);
    PGresult *r = NULL;
    if (db->pg_name[0]) { /* a reconnect keeps the name (store_set_name) */
        r = store_pg_exec(db, err, errsize, context,
                          "SELECT set_config('application_name', $1, false)", "t", db->pg_name);
        PQclear(r);
        if (!r) return -1;
    }
    /* --durable: a commit waits for its WAL flush even where the database
    ** says synchronous_commit=off; any other setting (on, local, remote_*)
    ** is durable already and stays the operator's. */
    if (db->pg_durable) {
        r = store_pg_exec(db, err, errsize, context,
                          "SELECT set_config('synchronous_commit', 'on', false)"
                          " WHERE current_setting('synchronous_commit') = 'off'", "");
        PQclear(r);
        if (!r) return -1;
    }
    if (!db->pg_serving) return 0;
    r = store_pg_exec(db, err, errsize, context,
                      "SELECT pg_advisory_lock_shared(" STORE_PG_LOCK_KEY ", "
                      STORE_PG_LOCK_SERVING ")", "");
    PQclear(r);
    return r ? 0 : -1;
}

/* The connection, usable: reconnected once when it was lost outside a
** transaction.  0, or -1 with err. */
static int pg_ready(store *db, char *err, size_t errsize, const char *context) {
    if (!db || db->backend != STORE_POSTGRES || !db->pg)
        return store_fail(err, errsize, context, "no database");
    if (PQstatus(db->pg) == CONNECTION_OK) return 0;
    if (db->pg_tx) return pg_fail(db, NULL, err, errsize, context);
    PQreset(db->pg);
    if (PQstatus(db->pg) != CONNECTION_OK) {
        char reason[400];
        pg_one_line(PQerrorMessage(db->pg), reason, sizeof reason);
        return store_fail(err, errsize, context, "cannot reconnect to PostgreSQL: %s", reason);
    }
    return pg_session(db, err, errsize, context);
}

PGresult *store_pg_exec(store *db, char *err, size_t errsize, const char *context,
                        const char *sql, const char *types, ...) {
    va_list ap;
    va_start(ap, types);
    PGresult *r = store_pg_vexec(db, err, errsize, context, sql, types, ap);
    va_end(ap);
    return r;
}

PGresult *store_pg_vexec(store *db, char *err, size_t errsize, const char *context,
                         const char *sql, const char *types, va_list ap) {
    int again = db->pg_again; /* for this statement only */
    db->pg_again = 0;
    if (pg_ready(db, err, errsize, context)) return NULL;
    db->pg_state[0] = 0;
    int n = types ? (int)strlen(types) : 0;
    if (n > PG_MAX_PARAMS) {
        store_fail(err, errsize, context, "%d parameters (at most %d)", n, PG_MAX_PARAMS);
        return NULL;
    }
    Oid oids[PG_MAX_PARAMS];
    const char *values[PG_MAX_PARAMS];
    int lengths[PG_MAX_PARAMS], formats[PG_MAX_PARAMS];
    char numbers[PG_MAX_PARAMS][32];
    for (int i = 0; i < n; i++) {
        oids[i] = 0, values[i] = NULL, lengths[i] = 0, formats[i] = 0;
        switch (types[i]) {
        case 'i':
            snprintf(numbers[i], sizeof numbers[i], "%lld", (long long)va_arg(ap, int64_t));
            oids[i] = PG_INT8_OID, values[i] = numbers[i];
            break;
        case 'd':
            snprintf(numbers[i], sizeof numbers[i], "%.17g", va_arg(ap, double));
            oids[i] = PG_FLOAT8_OID, values[i] = numbers[i];
            break;
        case 't': oids[i] = PG_TEXT_OID, values[i] = va_arg(ap, const char *); break;
        case 'h':
            oids[i] = PG_BYTEA_OID, values[i] = (const char *)va_arg(ap, const uint8_t *);
            lengths[i] = STORE_HASH_LEN, formats[i] = 1;
            break;
        default: break; /* 'n': NULL, its type the server's guess */
        }
    }
    PGresult *r = PQexecParams(db->pg, sql, n, oids, values, lengths, formats, 0);
    ExecStatusType status = PQresultStatus(r);
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return r;
    /* A connection PostgreSQL dropped (a restart) is seen only when used:
    ** a read or a BEGIN outside a transaction did nothing yet, so it is
    ** sent again once on a new connection instead of failing its caller. */
    static _Thread_local int resending; /* not again from the new session's own setup */
    if (!resending && !db->pg_tx && PQstatus(db->pg) == CONNECTION_BAD &&
        (again || !strncmp(sql, "SELECT", 6) || !strncmp(sql, "BEGIN", 5))) {
        PQclear(r);
        resending = 1;
        int failed = pg_ready(db, err, errsize, context);
        resending = 0;
        if (failed) return NULL;
        r = PQexecParams(db->pg, sql, n, oids, values, lengths, formats, 0);
        status = PQresultStatus(r);
        if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return r;
    }
    pg_fail(db, r, err, errsize, context);
    PQclear(r);
    return NULL;
}

static int pg_begin_as(store *db, const char *sql, char *err, size_t errsize) {
    if (db) db->pg_in_doubt = 0;
    PGresult *r = store_pg_exec(db, err, errsize, "starting a transaction", sql, "");
    PQclear(r);
    if (!r) return -1;
    db->pg_tx = 1;
    return 0;
}

int store_pg_begin(store *db, char *err, size_t errsize) {
    return pg_begin_as(db, "BEGIN", err, errsize);
}

int store_pg_begin_read(store *db, char *err, size_t errsize) {
    return pg_begin_as(db, "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", err, errsize);
}

int store_pg_script(store *db, char *err, size_t errsize, const char *context,
                    const char *sql) {
    if (pg_ready(db, err, errsize, context)) return -1;
    PGresult *r = PQexec(db->pg, sql);
    int rc = PQresultStatus(r) == PGRES_COMMAND_OK ? 0 : pg_fail(db, r, err, errsize, context);
    PQclear(r);
    return rc;
}

/* PostgreSQL answers COMMIT of a transaction that failed part-way with
** "ROLLBACK", not an error: only "COMMIT" is a commit. */
int store_pg_commit(store *db, char *err, size_t errsize) {
    const char *context = "committing";
    if (pg_ready(db, err, errsize, context)) {
        if (db) db->pg_tx = 0;
        return -1;
    }
    PGresult *r = PQexec(db->pg, "COMMIT");
    db->pg_tx = 0;
    int rc = -1;
    if (PQresultStatus(r) == PGRES_COMMAND_OK && strcmp(PQcmdStatus(r), "COMMIT") == 0)
        rc = 0;
    else if (PQresultStatus(r) == PGRES_COMMAND_OK)
        store_fail(err, errsize, context, "PostgreSQL rolled the transaction back");
    else if (PQstatus(db->pg) == CONNECTION_BAD) {
        /* the answer never came: committed or not, nobody here can tell */
        db->pg_in_doubt = 1;
        pg_fail(db, r, err, errsize, "committing (in doubt: it may be stored)");
    }
    else
        pg_fail(db, r, err, errsize, context);
    PQclear(r);
    return rc;
}

void store_pg_rollback(store *db) {
    if (!db || !db->pg) return;
    db->pg_tx = 0;
    PGTransactionStatusType t = PQtransactionStatus(db->pg);
    if (t == PQTRANS_INTRANS || t == PQTRANS_INERROR) PQclear(PQexec(db->pg, "ROLLBACK"));
}

/* Booleans come back as "t" and "f". */
int64_t store_pg_int(const PGresult *r, int row, int col) {
    if (!r || PQgetisnull(r, row, col)) return 0;
    const char *v = PQgetvalue(r, row, col);
    if (v[0] == 't' && !v[1]) return 1;
    return strtoll(v, NULL, 10);
}

double store_pg_double(const PGresult *r, int row, int col) {
    if (!r || PQgetisnull(r, row, col)) return 0;
    return strtod(PQgetvalue(r, row, col), NULL);
}

void store_pg_text(const PGresult *r, int row, int col, char *out, size_t size) {
    if (!size) return;
    const char *v = r && !PQgetisnull(r, row, col) ? PQgetvalue(r, row, col) : "";
    snprintf(out, size, "%s", v);
}

static int pg_hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* bytea in text form is "\x" and two hex digits a byte (bytea_output hex,
** the default since PostgreSQL 9.0). */
int store_pg_hash(const PGresult *r, int row, int col, uint8_t out[STORE_HASH_LEN]) {
    if (!r || PQgetisnull(r, row, col)) return -1;
    const char *v = PQgetvalue(r, row, col);
    if (v[0] != '\\' || v[1] != 'x' || strlen(v) != 2 + 2 * STORE_HASH_LEN) return -1;
    for (int i = 0; i < STORE_HASH_LEN; i++) {
        int hi = pg_hex(v[2 + 2 * i]), lo = pg_hex(v[3 + 2 * i]);
        if (hi < 0 || lo < 0) return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

/* ---- an answer's rows (backend.h, store_rows) ------------------------ */

static int pg_rows_next(store_rows *rows, char *err, size_t errsize) {
    (void)err, (void)errsize; /* the whole answer is here already */
    return ++rows->row < rows->nrows;
}

static int pg_rows_null(const store_rows *rows, int col) {
    return PQgetisnull(rows->answer, rows->row, col);
}

static int64_t pg_rows_int(const store_rows *rows, int col) {
    return store_pg_int(rows->answer, rows->row, col);
}

static double pg_rows_double(const store_rows *rows, int col) {
    return store_pg_double(rows->answer, rows->row, col);
}

static const char *pg_rows_text(const store_rows *rows, int col) {
    return pg_rows_null(rows, col) ? NULL : PQgetvalue(rows->answer, rows->row, col);
}

static void pg_rows_close(store_rows *rows) { PQclear(rows->answer); }

static const store_rows_methods pg_rows_methods = {
    pg_rows_next, pg_rows_null, pg_rows_int, pg_rows_double, pg_rows_text, pg_rows_close,
};

int pg_rows_vopen(store *db, store_rows *rows, const char *context, char *err, size_t errsize,
                  const char *sql, const char *types, va_list ap) {
    PGresult *r = store_pg_vexec(db, err, errsize, context, sql, types, ap);
    if (!r) return -1;
    *rows = (store_rows){.methods = &pg_rows_methods, .context = context, .answer = r,
                         .row = -1, .nrows = PQntuples(r)};
    return 0;
}

/* ---- connecting ----------------------------------------------------- */

void store_pg_shown(const char *uri, char *out, size_t size) {
    if (!size) return;
    size_t n = 0;
    const char *start = uri ? uri : "(null)", *c = start;
    const char *scheme = strstr(c, "://");
    const char *at = scheme ? strpbrk(scheme + 3, "@/?") : NULL;
    const char *colon = scheme ? strchr(scheme + 3, ':') : NULL;
    /* user:password@ in the authority: the password becomes "***" */
    int masked_userinfo = at && *at == '@' && colon && colon < at;
    for (; *c && n + 1 < size; c++) {
        if (masked_userinfo && c == colon + 1) {
            for (const char *m = "***"; *m && n + 1 < size; m++) out[n++] = *m;
            c = at - 1;
            continue;
        }
        /* password=... among the query's parameters */
        if (c > start && (c[-1] == '?' || c[-1] == '&') && strncmp(c, "password=", 9) == 0) {
            for (const char *m = "password=***"; *m && n + 1 < size; m++) out[n++] = *m;
            c += 9;
            while (*c && *c != '&') c++;
            c--;
            continue;
        }
        out[n++] = (unsigned char)*c < 32 ? '?' : *c;
    }
    out[n] = 0;
}

int store_pg_connect(const char *uri, const char *app, int serving, int durable, store **out,
                     char *err, size_t errsize) {
    char shown[256], context[300];
    store_pg_shown(uri, shown, sizeof shown);
    snprintf(context, sizeof context, "opening %s", shown);
    if (out) *out = NULL;
    if (!uri || !out) return store_fail(err, errsize, context, "no URI or no result pointer");
    store *db = calloc(1, sizeof *db);
    if (!db) return store_fail(err, errsize, context, "out of memory");
    db->backend = STORE_POSTGRES;
    db->pg_serving = serving;
    db->pg_durable = durable;
    /* The URI's own settings win over these defaults (expand_dbname): a
    ** name operators see in pg_stat_activity, and a bounded wait. */
    const char *const keys[] = {"fallback_application_name", "connect_timeout", "dbname", NULL};
    const char *const values[] = {app, "10", uri, NULL};
    db->pg = PQconnectdbParams(keys, values, 1);
    if (!db->pg || PQstatus(db->pg) != CONNECTION_OK) {
        char reason[400];
        pg_one_line(db->pg ? PQerrorMessage(db->pg) : "out of memory", reason, sizeof reason);
        store_fail(err, errsize, context, "cannot connect to PostgreSQL: %s", reason);
        store_pg_close(db);
        return -1;
    }
    if (pg_session(db, err, errsize, context)) {
        store_pg_close(db);
        return -1;
    }
    *out = db;
    return 0;
}

int store_pg_in_doubt(store *db) { return db && db->pg_in_doubt; }

int store_pg_set_name(store *db, const char *name, char *err, size_t errsize) {
    snprintf(db->pg_name, sizeof db->pg_name, "%s", name);
    PGresult *r = store_pg_exec(db, err, errsize, "naming the connection",
                                "SELECT set_config('application_name', $1, false)", "t", name);
    PQclear(r);
    return r ? 0 : -1;
}

void store_pg_close(store *db) {
    if (!db) return;
    PQfinish(db->pg); /* NULL is fine; ends the session and its locks */
    free(db);
}
