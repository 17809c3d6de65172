/*
** pg_players.c -- the players and their logins in PostgreSQL (store.h,
** "players and logins"): the PostgreSQL twin of sqlite_players.c, the
** same calls with the same answers.
**
** Owns no state: every call runs its statements on the store's connection
** (store_pg_exec) and clears their results.  A change of more than one row
** is one BEGIN ... COMMIT, rolled back on any failure.  A name key taken
** already is told apart from other failures without reading PostgreSQL's
** message: an insert does nothing on a conflict (ON CONFLICT DO NOTHING),
** and a write that failed is followed by a look at whether the key is an
** account's or a bot's now (another node may have taken it in between).
** The rules (what a name may be, when a login expires, which guests go)
** are players.c's; this file only reads and writes what it is told, and
** what a player's row is made of is rows_players.c's (pg_players_sql here).
*/
#include "backend.h"
#include "pg.h"

#include <stdio.h>

/* A bucket's tokens at $5 (now): its row's, refilled at $3 (cap) per $4
** (window ms) since its row's time, at most cap. */
#define ATTEMPT_LEVEL "LEAST($3, a.tokens + ($5 - a.at) * $3 / $4)"
/* When a bucket holding tokens is full again. */
#define ATTEMPT_FULL(tokens) "CAST($5 + ($3 - (" tokens ")) * $4 / $3 AS BIGINT)"

/* What rows_players.c reads, in PostgreSQL's words: name keys in byte
** order, as SQLite's BINARY collation has them. */
const rows_players_sql pg_players_sql = {
    .by_key = "SELECT id, kind, name, disabled FROM players"
              " WHERE name_key = $1 AND kind <> 'guest'",
    .get = "SELECT id, kind, name, disabled FROM players WHERE id = $1",
    .account = "SELECT id, 'account', name, disabled, password FROM players"
               " WHERE name_key = $1 AND kind = 'account'",
    .login = "SELECT p.id, p.kind, p.name, p.disabled, l.used"
             " FROM logins l JOIN players p ON p.id = l.player WHERE l.token_hash = $1",
    .list = "SELECT p.id, p.kind, p.name, p.disabled, p.created, p.seen,"
            " (SELECT count(DISTINCT table_id) FROM seats s WHERE s.player = p.id)"
            " FROM players p ORDER BY p.kind COLLATE \"C\", p.name_key COLLATE \"C\", p.id",
    /* one statement, an upsert whose update happens only where a token is
    ** there: two servers taking at once wait for each other's row and never
    ** take the same token */
    .attempt_take = "INSERT INTO attempts AS a (kind, key, tokens, at, expires)"
                    " VALUES ($1, $2, $3 - 1, $5, " ATTEMPT_FULL("$3 - 1") ")"
                    " ON CONFLICT (kind, key) DO UPDATE SET"
                    " tokens = " ATTEMPT_LEVEL " - 1, at = $5,"
                    " expires = " ATTEMPT_FULL(ATTEMPT_LEVEL " - 1")
                    " WHERE " ATTEMPT_LEVEL " >= 1 RETURNING tokens",
    .attempt_level = "SELECT " ATTEMPT_LEVEL " FROM attempts a WHERE kind = $1 AND key = $2",
    .attempt_noted = "SELECT 1 FROM attempts WHERE kind = $1 AND key = $2 AND expires > $3",
};

/* A statement's result whose rows are not wanted: 0, or -1 (err written
** by store_pg_exec). */
static int players_done(PGresult *r) {
    if (!r) return -1;
    PQclear(r);
    return 0;
}

/* Commits when ok (else err already says why), or rolls back: 0 or -1. */
static int players_finish(store *db, int ok, char *err, size_t errsize) {
    if (ok && store_pg_commit(db, err, errsize) == 0) return 0;
    store_pg_rollback(db);
    return -1;
}

/* Whether key is an account's or a bot's: 1, 0, -1 error. */
static int players_key_taken(store *db, const char *key) {
    char ignored[64];
    PGresult *r = store_pg_exec(db, ignored, sizeof ignored, "finding a name",
                                "SELECT 1 FROM players WHERE name_key = $1 AND kind <> 'guest'",
                                "t", key);
    if (!r) return -1;
    int taken = PQntuples(r) > 0;
    PQclear(r);
    return taken;
}

int pg_player_add(store *db, const char *name, const char *key, const char *kind,
                  const char *password, int64_t now, int64_t *id, char *err, size_t errsize) {
    /* the one unique index besides the id is an account's or bot's key */
    PGresult *r = store_pg_exec(db, err, errsize, "adding a player",
                                "INSERT INTO players (name, name_key, kind, password, created,"
                                " seen) VALUES ($1, $2, $3, $4, $5, $5)"
                                " ON CONFLICT DO NOTHING RETURNING id",
                                "tttti", name, key, kind, password, now);
    if (!r) return players_key_taken(db, key) == 1 ? 0 : -1;
    int added = PQntuples(r) > 0;
    if (added && id) *id = store_pg_int(r, 0, 0);
    PQclear(r);
    return added;
}

int pg_guest_make_account(store *db, int64_t guest_id, const char *name, const char *key,
                          const char *password, int64_t now, char *err, size_t errsize) {
    static const char context[] = "making a guest an account";
    PGresult *r = store_pg_exec(db, err, errsize, context,
                                "UPDATE players SET kind = 'account', name = $2, name_key = $3,"
                                " password = $4, seen = $5 WHERE id = $1 AND kind = 'guest'"
                                " AND NOT EXISTS (SELECT 1 FROM players WHERE name_key = $3"
                                " AND kind <> 'guest') RETURNING id",
                                "ittti", guest_id, name, key, password, now);
    if (!r) return players_key_taken(db, key) == 1 ? 0 : -1;
    int changed = PQntuples(r) > 0;
    PQclear(r);
    if (changed) return 1;
    /* nothing changed: the key is taken, or there is no such guest */
    int taken = players_key_taken(db, key);
    if (taken < 0 && err && errsize > 0)
        snprintf(err, errsize, "storage: %s: the name could not be looked up", context);
    return taken < 0 ? -1 : taken ? 0 : 2;
}

int pg_guest_rename(store *db, int64_t id, const char *name, const char *key, char *err,
                    size_t errsize) {
    return players_done(store_pg_exec(db, err, errsize, "renaming a guest",
                                      "UPDATE players SET name = $2, name_key = $3"
                                      " WHERE id = $1 AND kind = 'guest'",
                                      "itt", id, name, key));
}

/* Every login of player id but keep's (NULL: all), inside the caller's
** transaction or alone: 0 or -1. */
static int players_end_logins(store *db, int64_t id, const uint8_t *keep, const char *context,
                              char *err, size_t errsize) {
    static const uint8_t none[STORE_HASH_LEN];
    return players_done(store_pg_exec(db, err, errsize, context,
                                      "DELETE FROM logins WHERE player = $1"
                                      " AND token_hash <> $2",
                                      "ih", id, keep ? keep : none));
}

int pg_player_set_password(store *db, int64_t id, const char *password, int end_logins,
                           char *err, size_t errsize) {
    static const char context[] = "changing a password";
    static const char sql[] = "UPDATE players SET password = $2 WHERE id = $1";
    if (!end_logins) return players_done(store_pg_exec(db, err, errsize, context, sql, "it", id,
                                                       password));
    if (store_pg_begin(db, err, errsize)) return -1;
    int ok = players_done(store_pg_exec(db, err, errsize, context, sql, "it", id, password)) == 0 &&
             players_end_logins(db, id, NULL, context, err, errsize) == 0;
    return players_finish(db, ok, err, errsize);
}

int pg_player_set_disabled(store *db, int64_t id, int disabled, char *err, size_t errsize) {
    const char *context = disabled ? "disabling a player" : "enabling a player";
    if (store_pg_begin(db, err, errsize)) return -1;
    int ok = players_done(store_pg_exec(db, err, errsize, context,
                                        "UPDATE players SET disabled = $2 WHERE id = $1", "ii",
                                        id, (int64_t)(disabled ? 1 : 0))) == 0 &&
             (!disabled || players_end_logins(db, id, NULL, context, err, errsize) == 0);
    return players_finish(db, ok, err, errsize);
}

/* The guests are chosen and deleted in one statement each, in one
** transaction: a guest that got a seat or a line on another node in
** between is not deleted (the NOT EXISTS are checked again by the delete,
** which also keeps the foreign keys from refusing it). */
int pg_guests_delete(store *db, int64_t before, int max, char *err, size_t errsize) {
    static const char context[] = "deleting unused guests";
    if (max <= 0) return 0;
    if (store_pg_begin(db, err, errsize)) return -1;
    PGresult *r = store_pg_exec(
        db, err, errsize, context,
        "WITH gone AS (SELECT id FROM players p WHERE kind = 'guest' AND seen < $1"
        " AND NOT EXISTS (SELECT 1 FROM seats WHERE player = p.id)"
        " AND NOT EXISTS (SELECT 1 FROM chat WHERE player = p.id)"
        " AND NOT EXISTS (SELECT 1 FROM tables WHERE creator = p.id)"
        " AND NOT EXISTS (SELECT 1 FROM results WHERE player = p.id)"
        " AND NOT EXISTS (SELECT 1 FROM ratings WHERE player = p.id)"
        " LIMIT $2 FOR UPDATE SKIP LOCKED),"
        " logins_gone AS (DELETE FROM logins WHERE player IN (SELECT id FROM gone))"
        " DELETE FROM players WHERE id IN (SELECT id FROM gone) AND kind = 'guest'"
        " RETURNING id",
        "ii", before, (int64_t)max);
    int n = r ? PQntuples(r) : -1;
    if (r) PQclear(r);
    return players_finish(db, n >= 0, err, errsize) ? -1 : n;
}

/* ---- logins ------------------------------------------------------------- */

/* A login's row changed (added or used) and its player seen now, in one
** transaction: 0 or -1. */
static int players_login_write(store *db, const char *context, const char *sql,
                               const uint8_t hash[STORE_HASH_LEN], int64_t player, int64_t now,
                               char *err, size_t errsize) {
    if (store_pg_begin(db, err, errsize)) return -1;
    int ok = players_done(store_pg_exec(db, err, errsize, context, sql, "hii", hash, player,
                                        now)) == 0 &&
             players_done(store_pg_exec(db, err, errsize, context,
                                        "UPDATE players SET seen = $2 WHERE id = $1", "ii",
                                        player, now)) == 0;
    return players_finish(db, ok, err, errsize);
}

int pg_login_add(store *db, const uint8_t hash[STORE_HASH_LEN], int64_t player, int64_t now,
                 char *err, size_t errsize) {
    return players_login_write(db, "storing a login",
                               "INSERT INTO logins (token_hash, player, created, used)"
                               " VALUES ($1, $2, $3, $3)",
                               hash, player, now, err, errsize);
}

int pg_login_used(store *db, const uint8_t hash[STORE_HASH_LEN], int64_t player, int64_t now,
                  char *err, size_t errsize) {
    /* the login is the player's (the caller read it so) */
    return players_login_write(db, "marking a login used",
                               "UPDATE logins SET used = $3 WHERE token_hash = $1"
                               " AND player = $2",
                               hash, player, now, err, errsize);
}

int pg_login_delete(store *db, const uint8_t hash[STORE_HASH_LEN], char *err,
                    size_t errsize) {
    return players_done(store_pg_exec(db, err, errsize, "ending a login",
                                      "DELETE FROM logins WHERE token_hash = $1", "h", hash));
}

int pg_logins_delete(store *db, int64_t player, const uint8_t *keep, char *err,
                     size_t errsize) {
    return players_end_logins(db, player, keep, "ending a player's logins", err, errsize);
}

int pg_logins_expire(store *db, int64_t before, char *err, size_t errsize) {
    return players_done(store_pg_exec(db, err, errsize, "ending unused logins",
                                      "DELETE FROM logins WHERE used < $1", "i", before));
}

int pg_logins_read(store *db, store_login_state *logins, int n, char *err, size_t errsize) {
    for (int i = 0; i < n; i++) {
        store_login_state *l = &logins[i];
        PGresult *r = store_pg_exec(db, err, errsize, "checking logins",
                                    "SELECT p.disabled, l.used FROM players p"
                                    " LEFT JOIN logins l ON l.token_hash = $1"
                                    " AND l.player = p.id WHERE p.id = $2",
                                    "hi", l->hash, l->player);
        if (!r) return -1;
        l->player_found = PQntuples(r) > 0;
        l->disabled = l->player_found && store_pg_int(r, 0, 0) != 0;
        l->login_found = l->player_found && !PQgetisnull(r, 0, 1);
        l->used = l->login_found ? store_pg_int(r, 0, 1) : 0;
        PQclear(r);
    }
    return 0;
}

/* ---- counted attempts ---------------------------------------------------- */

int pg_attempt_give(store *db, const char *kind, const char *key, double cap,
                    int64_t window_ms, int64_t now, int all, char *err, size_t errsize) {
    static const char context[] = "giving an attempt back";
    /* a full bucket is no row */
    if (all)
        return players_done(store_pg_exec(db, err, errsize, context,
                                          "DELETE FROM attempts WHERE kind = $1 AND key = $2",
                                          "tt", kind, key));
    return players_done(store_pg_exec(
        db, err, errsize, context,
        "UPDATE attempts AS a SET tokens = LEAST($3, " ATTEMPT_LEVEL " + 1), at = $5,"
        " expires = " ATTEMPT_FULL("LEAST($3, " ATTEMPT_LEVEL " + 1)")
        " WHERE kind = $1 AND key = $2",
        "ttddi", kind, key, cap, (double)window_ms, now));
}

int pg_attempt_note(store *db, const char *kind, const char *key, int64_t now, int64_t until,
                    char *err, size_t errsize) {
    return players_done(store_pg_exec(db, err, errsize, "noting a success",
                                      "INSERT INTO attempts (kind, key, tokens, at, expires)"
                                      " VALUES ($1, $2, 0, $3, $4) ON CONFLICT (kind, key)"
                                      " DO UPDATE SET tokens = 0, at = excluded.at,"
                                      " expires = excluded.expires",
                                      "ttii", kind, key, now, until));
}

int pg_attempts_expire(store *db, int64_t now, char *err, size_t errsize) {
    return players_done(store_pg_exec(db, err, errsize, "forgetting old attempts",
                                      "DELETE FROM attempts WHERE expires <= $1", "i", now));
}
