/*
** sqlite_players.c -- the players and their logins in the SQLite file
** (store.h, "players and logins"): the SQL of players.c and tafel admin.
**
** Owns no state: every call prepares its statement on the store's
** connection, runs it and finalizes it (these calls run at a login, a
** signup or a socket's check, not at each move).  A change of more than
** one row is one BEGIN IMMEDIATE ... COMMIT, rolled back on any failure.
** The rules (what a name may be, when a login expires, which guests go)
** are players.c's; this file only reads and writes what it is told, and
** what a player's row is made of is rows_players.c's (lite_players_sql here).
*/
#include "sqlite.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

/* A bucket's tokens at ?5 (now): its row's, refilled at ?3 (cap) per ?4
** (window ms) since its row's time, at most cap.  Cap and window are bound
** as reals: no integer division. */
#define ATTEMPT_LEVEL "min(?3, a.tokens + (?5 - a.at) * ?3 / ?4)"
/* When a bucket holding tokens is full again. */
#define ATTEMPT_FULL(tokens) "CAST(?5 + (?3 - (" tokens ")) * ?4 / ?3 AS INTEGER)"

/* What rows_players.c reads, in SQLite's words. */
const rows_players_sql lite_players_sql = {
    .by_key = "SELECT id, kind, name, disabled FROM players"
              " WHERE name_key = ?1 AND kind <> 'guest'",
    .get = "SELECT id, kind, name, disabled FROM players WHERE id = ?1",
    .account = "SELECT id, 'account', name, disabled, password FROM players"
               " WHERE name_key = ?1 AND kind = 'account'",
    .login = "SELECT p.id, p.kind, p.name, p.disabled, l.used"
             " FROM logins l JOIN players p ON p.id = l.player WHERE l.token_hash = ?1",
    .list = "SELECT p.id, p.kind, p.name, p.disabled, p.created, p.seen,"
            " (SELECT count(DISTINCT table_id) FROM seats s WHERE s.player = p.id)"
            " FROM players p ORDER BY p.kind, p.name_key, p.id",
    /* one statement: the take happens only where a token is there */
    .attempt_take = "INSERT INTO attempts AS a (kind, key, tokens, at, expires)"
                    " VALUES (?1, ?2, ?3 - 1, ?5, " ATTEMPT_FULL("?3 - 1") ")"
                    " ON CONFLICT (kind, key) DO UPDATE SET"
                    " tokens = " ATTEMPT_LEVEL " - 1, at = ?5,"
                    " expires = " ATTEMPT_FULL(ATTEMPT_LEVEL " - 1")
                    " WHERE " ATTEMPT_LEVEL " >= 1 RETURNING tokens",
    .attempt_level = "SELECT " ATTEMPT_LEVEL " FROM attempts a WHERE kind = ?1 AND key = ?2",
    .attempt_noted = "SELECT 1 FROM attempts WHERE kind = ?1 AND key = ?2 AND expires > ?3",
};

/* Writes "storage: <context>: <SQLite's reason>" to err; returns -1. */
static int players_fail(sqlite3 *db, char *err, size_t errsize, const char *context) {
    return store_sql_fail(err, errsize, context, db ? sqlite3_errmsg(db) : "no database");
}

/* Runs a statement that returns no rows: SQLite's result (SQLITE_DONE
** when it ran to the end; its reason stays in sqlite3_errmsg). */
static int players_run(sqlite3 *db, const char *sql, const char *types, ...) {
    va_list ap;
    va_start(ap, types);
    sqlite3_stmt *st = store_sql_vprepare(db, sql, types, ap);
    va_end(ap);
    if (!st) return db ? sqlite3_errcode(db) : SQLITE_MISUSE;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) {
        sqlite3_finalize(st);
        return rc;
    }
    sqlite3_finalize(st); /* the step's reason stays in sqlite3_errmsg */
    return rc == SQLITE_ROW ? SQLITE_MISUSE : rc;
}

/* BEGIN IMMEDIATE: 0, or -1 with err. */
static int players_begin(sqlite3 *db, const char *context, char *err, size_t errsize) {
    if (!db || sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return players_fail(db, err, errsize, context);
    return 0;
}

/* Commits when ok (else err already says why), or rolls back: 0 or -1. */
static int players_finish(sqlite3 *db, int ok, const char *context, char *err,
                          size_t errsize) {
    if (ok && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK) return 0;
    if (ok) players_fail(db, err, errsize, context);
    store_sql_rollback(db);
    return -1;
}

/* What became of a write that gives a player a name key: 1 written, 0 the
** key is an account's or a bot's already (the unique index said no), -1
** any other failure (with err; extended codes are on: store_open). */
static int players_named(sqlite3 *db, int rc, const char *context, char *err, size_t errsize) {
    if (rc == SQLITE_CONSTRAINT_UNIQUE) return 0;
    return rc == SQLITE_DONE ? 1 : players_fail(db, err, errsize, context);
}

int lite_player_add(store *s, const char *name, const char *key, const char *kind,
                     const char *password, int64_t now, int64_t *id, char *err,
                     size_t errsize) {
    sqlite3 *db = store_sqlite(s);
    int rc = players_run(db, "INSERT INTO players (name, name_key, kind, password, created, seen)"
                             " VALUES (?1, ?2, ?3, ?4, ?5, ?5)",
                         "tttti", name, key, kind, password, now);
    int named = players_named(db, rc, "adding a player", err, errsize);
    if (named == 1 && id) *id = sqlite3_last_insert_rowid(db);
    return named;
}

int lite_guest_make_account(store *s, int64_t guest_id, const char *name, const char *key,
                             const char *password, int64_t now, char *err, size_t errsize) {
    sqlite3 *db = store_sqlite(s);
    int rc = players_run(db, "UPDATE players SET kind = 'account', name = ?2, name_key = ?3,"
                             " password = ?4, seen = ?5 WHERE id = ?1 AND kind = 'guest'",
                         "ittti", guest_id, name, key, password, now);
    int named = players_named(db, rc, "making a guest an account", err, errsize);
    return named == 1 && sqlite3_changes(db) != 1 ? 2 : named;
}

int lite_guest_rename(store *s, int64_t id, const char *name, const char *key, char *err,
                       size_t errsize) {
    sqlite3 *db = store_sqlite(s);
    if (players_run(db, "UPDATE players SET name = ?2, name_key = ?3 WHERE id = ?1"
                        " AND kind = 'guest'",
                    "itt", id, name, key) != SQLITE_DONE)
        return players_fail(db, err, errsize, "renaming a guest");
    return 0;
}

/* Every login of player id but keep's (NULL: all), inside the caller's
** transaction or alone: SQLite's result. */
static int players_end_logins(sqlite3 *db, int64_t id, const uint8_t *keep) {
    static const uint8_t none[STORE_HASH_LEN];
    return players_run(db, "DELETE FROM logins WHERE player = ?1 AND token_hash <> ?2", "ih", id,
                       keep ? keep : none);
}

int lite_player_set_password(store *s, int64_t id, const char *password, int end_logins,
                              char *err, size_t errsize) {
    static const char context[] = "changing a password";
    sqlite3 *db = store_sqlite(s);
    if (!end_logins) {
        if (players_run(db, "UPDATE players SET password = ?2 WHERE id = ?1", "it", id,
                        password) != SQLITE_DONE)
            return players_fail(db, err, errsize, context);
        return 0;
    }
    if (players_begin(db, context, err, errsize)) return -1;
    int ok = players_run(db, "UPDATE players SET password = ?2 WHERE id = ?1", "it", id,
                         password) == SQLITE_DONE &&
             players_end_logins(db, id, NULL) == SQLITE_DONE;
    if (!ok) players_fail(db, err, errsize, context);
    return players_finish(db, ok, context, err, errsize);
}

int lite_player_set_disabled(store *s, int64_t id, int disabled, char *err, size_t errsize) {
    const char *context = disabled ? "disabling a player" : "enabling a player";
    sqlite3 *db = store_sqlite(s);
    if (players_begin(db, context, err, errsize)) return -1;
    int ok = players_run(db, "UPDATE players SET disabled = ?2 WHERE id = ?1", "ii", id,
                         (int64_t)(disabled ? 1 : 0)) == SQLITE_DONE &&
             (!disabled || players_end_logins(db, id, NULL) == SQLITE_DONE);
    if (!ok) players_fail(db, err, errsize, context);
    return players_finish(db, ok, context, err, errsize);
}

int lite_guests_delete(store *s, int64_t before, int max, char *err, size_t errsize) {
    static const char context[] = "deleting unused guests";
    sqlite3 *db = store_sqlite(s);
    if (max <= 0) return 0;
    int64_t *ids = malloc(sizeof *ids * (size_t)max);
    if (!ids) {
        snprintf(err, errsize, "storage: %s: out of memory", context);
        return -1;
    }
    sqlite3_stmt *st = store_sql_prepare(
        db, "SELECT id FROM players p WHERE kind = 'guest' AND seen < ?1"
            " AND NOT EXISTS (SELECT 1 FROM seats WHERE player = p.id)"
            " AND NOT EXISTS (SELECT 1 FROM chat WHERE player = p.id)"
            " AND NOT EXISTS (SELECT 1 FROM tables WHERE creator = p.id)"
            " AND NOT EXISTS (SELECT 1 FROM results WHERE player = p.id)"
            " AND NOT EXISTS (SELECT 1 FROM ratings WHERE player = p.id)"
            " LIMIT ?2",
        "ii", before, (int64_t)max);
    int n = 0, rc = SQLITE_DONE;
    if (!st) rc = SQLITE_ERROR;
    while (st && n < max && (rc = sqlite3_step(st)) == SQLITE_ROW) ids[n++] = sqlite3_column_int64(st, 0);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
        players_fail(db, err, errsize, context);
        sqlite3_finalize(st);
        free(ids);
        return -1;
    }
    sqlite3_finalize(st);
    if (!n || players_begin(db, context, err, errsize)) {
        free(ids);
        return n ? -1 : 0;
    }
    int ok = 1;
    for (int i = 0; i < n && ok; i++)
        ok = players_run(db, "DELETE FROM logins WHERE player = ?1", "i", ids[i]) == SQLITE_DONE &&
             players_run(db, "DELETE FROM players WHERE id = ?1 AND kind = 'guest'", "i",
                         ids[i]) == SQLITE_DONE;
    free(ids);
    if (!ok) players_fail(db, err, errsize, context);
    return players_finish(db, ok, context, err, errsize) ? -1 : n;
}

/* ---- logins ------------------------------------------------------------- */

int lite_login_add(store *s, const uint8_t hash[STORE_HASH_LEN], int64_t player, int64_t now,
                    char *err, size_t errsize) {
    static const char context[] = "storing a login";
    sqlite3 *db = store_sqlite(s);
    if (players_begin(db, context, err, errsize)) return -1;
    int ok = players_run(db, "INSERT INTO logins (token_hash, player, created, used)"
                             " VALUES (?1, ?2, ?3, ?3)",
                         "hii", hash, player, now) == SQLITE_DONE &&
             players_run(db, "UPDATE players SET seen = ?2 WHERE id = ?1", "ii", player, now) ==
                 SQLITE_DONE;
    if (!ok) players_fail(db, err, errsize, context);
    return players_finish(db, ok, context, err, errsize);
}

int lite_login_used(store *s, const uint8_t hash[STORE_HASH_LEN], int64_t player, int64_t now,
                     char *err, size_t errsize) {
    static const char context[] = "marking a login used";
    sqlite3 *db = store_sqlite(s);
    if (players_begin(db, context, err, errsize)) return -1;
    int ok = players_run(db, "UPDATE logins SET used = ?2 WHERE token_hash = ?1", "hi", hash,
                         now) == SQLITE_DONE &&
             players_run(db, "UPDATE players SET seen = ?2 WHERE id = ?1", "ii", player, now) ==
                 SQLITE_DONE;
    if (!ok) players_fail(db, err, errsize, context);
    return players_finish(db, ok, context, err, errsize);
}

int lite_login_delete(store *s, const uint8_t hash[STORE_HASH_LEN], char *err,
                       size_t errsize) {
    sqlite3 *db = store_sqlite(s);
    if (players_run(db, "DELETE FROM logins WHERE token_hash = ?1", "h", hash) != SQLITE_DONE)
        return players_fail(db, err, errsize, "ending a login");
    return 0;
}

int lite_logins_delete(store *s, int64_t player, const uint8_t *keep, char *err,
                        size_t errsize) {
    sqlite3 *db = store_sqlite(s);
    if (players_end_logins(db, player, keep) != SQLITE_DONE)
        return players_fail(db, err, errsize, "ending a player's logins");
    return 0;
}

int lite_logins_expire(store *s, int64_t before, char *err, size_t errsize) {
    sqlite3 *db = store_sqlite(s);
    if (players_run(db, "DELETE FROM logins WHERE used < ?1", "i", before) != SQLITE_DONE)
        return players_fail(db, err, errsize, "ending unused logins");
    return 0;
}

int lite_logins_read(store *s, store_login_state *logins, int n, char *err, size_t errsize) {
    static const char context[] = "checking logins";
    sqlite3 *db = store_sqlite(s);
    if (n <= 0) return 0;
    sqlite3_stmt *st = store_sql_prepare(db, "SELECT p.disabled, l.used FROM players p"
                                           " LEFT JOIN logins l ON l.token_hash = ?1"
                                           " AND l.player = p.id WHERE p.id = ?2", "");
    if (!st) return players_fail(db, err, errsize, context);
    int rc = SQLITE_DONE;
    for (int i = 0; i < n; i++) {
        store_login_state *l = &logins[i];
        rc = sqlite3_bind_blob(st, 1, l->hash, STORE_HASH_LEN, SQLITE_TRANSIENT);
        if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 2, l->player);
        if (rc == SQLITE_OK) rc = sqlite3_step(st);
        l->player_found = rc == SQLITE_ROW;
        l->disabled = l->player_found && sqlite3_column_int(st, 0);
        l->login_found = l->player_found && sqlite3_column_type(st, 1) != SQLITE_NULL;
        l->used = l->login_found ? sqlite3_column_int64(st, 1) : 0;
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) break;
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        players_fail(db, err, errsize, context);
        sqlite3_finalize(st);
        return -1;
    }
    sqlite3_finalize(st);
    return 0;
}

/* ---- counted attempts ---------------------------------------------------- */

int lite_attempt_give(store *s, const char *kind, const char *key, double cap,
                      int64_t window_ms, int64_t now, int all, char *err, size_t errsize) {
    sqlite3 *db = store_sqlite(s);
    /* a full bucket is no row */
    int rc = all ? players_run(db, "DELETE FROM attempts WHERE kind = ?1 AND key = ?2", "tt",
                               kind, key)
                 : players_run(db, "UPDATE attempts AS a SET"
                                   " tokens = min(?3, " ATTEMPT_LEVEL " + 1), at = ?5,"
                                   " expires = " ATTEMPT_FULL("min(?3, " ATTEMPT_LEVEL " + 1)")
                                   " WHERE kind = ?1 AND key = ?2",
                               "ttddi", kind, key, cap, (double)window_ms, now);
    return rc == SQLITE_DONE ? 0 : players_fail(db, err, errsize, "giving an attempt back");
}

int lite_attempt_note(store *s, const char *kind, const char *key, int64_t now, int64_t until,
                      char *err, size_t errsize) {
    sqlite3 *db = store_sqlite(s);
    if (players_run(db, "INSERT INTO attempts (kind, key, tokens, at, expires)"
                        " VALUES (?1, ?2, 0, ?3, ?4) ON CONFLICT (kind, key) DO UPDATE"
                        " SET tokens = 0, at = excluded.at, expires = excluded.expires",
                    "ttii", kind, key, now, until) != SQLITE_DONE)
        return players_fail(db, err, errsize, "noting a success");
    return 0;
}

int lite_attempts_expire(store *s, int64_t now, char *err, size_t errsize) {
    sqlite3 *db = store_sqlite(s);
    if (players_run(db, "DELETE FROM attempts WHERE expires <= ?1", "i", now) != SQLITE_DONE)
        return players_fail(db, err, errsize, "forgetting old attempts");
    return 0;
}
