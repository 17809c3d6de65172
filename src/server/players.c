/*
** players.c -- who plays: names, the players in the database, and the
** login a request's cookie names.
*/
#include "players.h"

#include "tables.h"

#include <libwebsockets.h>
#include <sodium.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* The bots that hold ratings (docs/club.md, "Ratings"): the three levels
** a player picks in the lobby.  Their names are nobody else's. */
static const char *const RATED_BOTS[] = {"easy", "medium", "hard"};
/* Names no account may take: every bot's, and what the seats are called. */
static const char *const RESERVED[] = {"easy", "medium", "hard", "random", "greedy", "mcts",
                                       "human", "bot", "guest", "chance", "admin"};

/* The name folded for comparing: ASCII letters to lower case (other
** letters compare as written). */
static void name_key(const char *name, char *out, size_t size) {
    size_t i = 0;
    for (; name[i] && i + 1 < size; i++)
        out[i] = (name[i] >= 'A' && name[i] <= 'Z') ? (char)(name[i] - 'A' + 'a') : name[i];
    out[i] = '\0';
}

int players_plain_text(const char *text, size_t len) {
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        int n = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2
              : (c & 0xF8) == 0xF0 ? 3 : -1;
        if (n < 0 || i + (size_t)n >= len) return 0;
        unsigned cp = n == 0 ? c : n == 1 ? c & 0x1F : n == 2 ? c & 0x0F : c & 0x07;
        for (int k = 1; k <= n; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return 0;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        static const unsigned least[] = {0, 0x80, 0x800, 0x10000};
        if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
        if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp == 0x2028 || cp == 0x2029 ||
            (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069))
            return 0;
        i += (size_t)n + 1;
    }
    return 1;
}

int players_name_check(const char *name, char *why, size_t whysize) {
    size_t len = name ? strlen(name) : 0;
    if (len < 1 || len > PLAYER_NAME_MAX) {
        snprintf(why, whysize, "a name has 1 to %d bytes, not %zu", PLAYER_NAME_MAX, len);
        return -1;
    }
    if (!players_plain_text(name, len)) {
        snprintf(why, whysize, "a name is one line of text (UTF-8) without control characters or direction overrides");
        return -1;
    }
    if (name[0] == ' ' || name[len - 1] == ' ' || strstr(name, "  ")) {
        snprintf(why, whysize, "a name neither begins nor ends with a space, nor has two in a row");
        return -1;
    }
    char key[PLAYER_NAME_MAX + 1];
    name_key(name, key, sizeof key);
    for (size_t i = 0; i < sizeof RESERVED / sizeof *RESERVED; i++)
        if (!strcmp(key, RESERVED[i]) || !strncmp(key, "ext:", 4)) {
            snprintf(why, whysize, "'%s' is a bot's or a seat's word, nobody's name", name);
            return -1;
        }
    return 0;
}

static player_kind kind_of(const unsigned char *text) {
    if (!text) return PLAYER_NOBODY;
    if (!strcmp((const char *)text, "account")) return PLAYER_ACCOUNT;
    if (!strcmp((const char *)text, "guest")) return PLAYER_GUEST;
    if (!strcmp((const char *)text, "bot")) return PLAYER_BOT;
    return PLAYER_NOBODY;
}

/* Steps a query whose columns are id, kind, name, disabled, bound already,
** and finalizes it: 1 found (and not disabled unless with_disabled), 0
** none, -1 error. */
static int read_player(sqlite3_stmt *st, int rc, int with_disabled, player *out) {
    int found = 0;
    if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const unsigned char *name = sqlite3_column_text(st, 2);
        if (with_disabled || !sqlite3_column_int(st, 3)) {
            memset(out, 0, sizeof *out);
            out->id = sqlite3_column_int64(st, 0);
            out->kind = kind_of(sqlite3_column_text(st, 1));
            snprintf(out->name, sizeof out->name, "%s", name ? (const char *)name : "");
            found = 1;
        }
        rc = SQLITE_DONE;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? found : -1;
}

/* A one-row query of a player, by the text or number given. */
static int one_player(const char *sql, const char *text, int64_t number, int with_disabled,
                      player *out) {
    sqlite3 *db = store_sqlite(tables_store());
    sqlite3_stmt *st;
    if (!db || sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return -1;
    int rc = text ? sqlite3_bind_text(st, 1, text, -1, SQLITE_TRANSIENT)
                  : sqlite3_bind_int64(st, 1, number);
    return read_player(st, rc, with_disabled, out);
}

int players_find(const char *name, player *out) {
    char key[4 * PLAYER_NAME_MAX];
    if (!name || strlen(name) > PLAYER_NAME_MAX) return 0;
    name_key(name, key, sizeof key);
    return one_player("SELECT id, kind, name, disabled FROM players"
                      " WHERE name_key = ?1 AND kind <> 'guest'",
                      key, 0, 0, out);
}

int players_get(int64_t id, player *out) {
    return one_player("SELECT id, kind, name, disabled FROM players WHERE id = ?1", NULL, id, 1,
                      out);
}

int players_bot(const char *spec, player *out) {
    int rated = 0;
    for (size_t i = 0; i < sizeof RATED_BOTS / sizeof *RATED_BOTS; i++)
        rated |= spec && !strcmp(spec, RATED_BOTS[i]);
    if (!rated) return 0;
    int found = players_find(spec, out);
    if (found) return found;
    sqlite3 *db = store_sqlite(tables_store());
    sqlite3_stmt *st;
    if (!db || sqlite3_prepare_v2(db, "INSERT INTO players (name, name_key, kind, created, seen)"
                                      " VALUES (?1, ?1, 'bot', ?2, ?2)",
                                  -1, &st, NULL) != SQLITE_OK)
        return -1;
    int64_t now = (int64_t)time(NULL);
    int rc = sqlite3_bind_text(st, 1, spec, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 2, now);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return -1;
    return players_find(spec, out);
}

/* The value of cookie name in a Cookie header ("a=1; b=2"), or NULL. */
static const char *cookie_value(char *header, const char *name, size_t *len) {
    size_t n = strlen(name);
    for (char *p = header; *p;) {
        while (*p == ' ' || *p == ';') p++;
        char *end = strchr(p, ';');
        size_t plen = end ? (size_t)(end - p) : strlen(p);
        if (plen > n && !strncmp(p, name, n) && p[n] == '=') {
            *len = plen - n - 1;
            return p + n + 1;
        }
        if (!end) break;
        p = end + 1;
    }
    return NULL;
}

/* Runs sql with text/number parameters (ints: "i", int64: "l", text: "t",
** blob of 32 bytes: "b") as one statement: the SQLite result (SQLITE_DONE
** when it ran to the end), or -1 when it could not be prepared. */
static int run_sql(const char *sql, const char *types, ...) {
    sqlite3 *db = store_sqlite(tables_store());
    sqlite3_stmt *st;
    if (!db || sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return -1;
    va_list ap;
    va_start(ap, types);
    int rc = SQLITE_OK;
    for (int i = 0; types[i] && rc == SQLITE_OK; i++) {
        switch (types[i]) {
        case 'i': rc = sqlite3_bind_int(st, i + 1, va_arg(ap, int)); break;
        case 'l': rc = sqlite3_bind_int64(st, i + 1, va_arg(ap, int64_t)); break;
        case 't': rc = sqlite3_bind_text(st, i + 1, va_arg(ap, const char *), -1, SQLITE_TRANSIENT); break;
        default: rc = sqlite3_bind_blob(st, i + 1, va_arg(ap, const void *), 32, SQLITE_TRANSIENT); break;
        }
    }
    va_end(ap);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc;
}

int players_of_request_token(struct lws *wsi, player *out, unsigned char hash[32],
                             int *has_token) {
    char header[2048];
    *has_token = 0;
    int n = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_COOKIE);
    if (n <= 0 || n >= (int)sizeof header ||
        lws_hdr_copy(wsi, header, sizeof header, WSI_TOKEN_HTTP_COOKIE) <= 0)
        return 0;
    size_t len;
    const char *token = cookie_value(header, PLAYERS_COOKIE, &len);
    if (!token || len == 0 || len > 128) return 0;
    crypto_hash_sha256(hash, (const unsigned char *)token, len);
    *has_token = 1;
    sqlite3 *db = store_sqlite(tables_store());
    sqlite3_stmt *st;
    int64_t now = (int64_t)time(NULL);
    if (!db || sqlite3_prepare_v2(db, "SELECT p.id, p.kind, p.name, p.disabled, l.used FROM logins l"
                                      " JOIN players p ON p.id = l.player"
                                      " WHERE l.token_hash = ?1",
                                  -1, &st, NULL) != SQLITE_OK)
        return -1;
    int64_t used = now;
    int rc = sqlite3_bind_blob(st, 1, hash, 32, SQLITE_TRANSIENT), found = 0;
    if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const unsigned char *name = sqlite3_column_text(st, 2);
        if (!sqlite3_column_int(st, 3)) {
            memset(out, 0, sizeof *out);
            out->id = sqlite3_column_int64(st, 0);
            out->kind = kind_of(sqlite3_column_text(st, 1));
            snprintf(out->name, sizeof out->name, "%s", name ? (const char *)name : "");
            used = sqlite3_column_int64(st, 4);
            found = 1;
        }
        rc = SQLITE_DONE;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return -1;
    if (!found) return 0;
    if (used < now - (int64_t)PLAYERS_LOGIN_DAYS * 86400) { /* expired */
        players_login_end(hash);
        return 0;
    }
    if (used < now - 3600) { /* used and seen: at most once an hour */
        run_sql("UPDATE logins SET used = ?2 WHERE token_hash = ?1", "bl", hash, now);
        run_sql("UPDATE players SET seen = ?2 WHERE id = ?1", "ll", out->id, now);
    }
    return 1;
}

int players_of_request(struct lws *wsi, player *out) {
    unsigned char hash[32];
    int has_token;
    return players_of_request_token(wsi, out, hash, &has_token);
}

int players_account(const char *name, player *out, char *stored, size_t stored_size,
                    int *disabled) {
    char key[4 * PLAYER_NAME_MAX];
    if (!name || strlen(name) > PLAYER_NAME_MAX) return 0;
    name_key(name, key, sizeof key);
    sqlite3 *db = store_sqlite(tables_store());
    sqlite3_stmt *st;
    if (!db || sqlite3_prepare_v2(db, "SELECT id, name, password, disabled FROM players"
                                      " WHERE name_key = ?1 AND kind = 'account'",
                                  -1, &st, NULL) != SQLITE_OK)
        return -1;
    int rc = sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT), found = 0;
    if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const unsigned char *n = sqlite3_column_text(st, 1), *pw = sqlite3_column_text(st, 2);
        memset(out, 0, sizeof *out);
        out->id = sqlite3_column_int64(st, 0);
        out->kind = PLAYER_ACCOUNT;
        snprintf(out->name, sizeof out->name, "%s", n ? (const char *)n : "");
        memset(stored, 0, stored_size);
        if (pw && strlen((const char *)pw) < stored_size) memcpy(stored, pw, strlen((const char *)pw));
        *disabled = sqlite3_column_int(st, 3);
        found = 1;
        rc = SQLITE_DONE;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? found : -1;
}

int players_create_account(const char *name, const char *hash, int64_t guest_id, player *out) {
    char key[4 * PLAYER_NAME_MAX];
    name_key(name, key, sizeof key);
    player taken;
    int found = players_find(name, &taken);
    if (found) return found < 0 ? -1 : 0;
    int64_t now = (int64_t)time(NULL);
    int rc = guest_id
        ? run_sql("UPDATE players SET kind = 'account', name = ?2, name_key = ?3, password = ?4,"
                  " seen = ?5 WHERE id = ?1 AND kind = 'guest'", "ltttl", guest_id, name, key, hash,
                  now)
        : run_sql("INSERT INTO players (name, name_key, kind, password, created, seen)"
                  " VALUES (?1, ?2, 'account', ?3, ?4, ?4)", "tttl", name, key, hash, now);
    if (rc == SQLITE_CONSTRAINT) return 0;
    if (rc != SQLITE_DONE) return -1;
    if (guest_id && sqlite3_changes(store_sqlite(tables_store())) != 1)
        return players_create_account(name, hash, 0, out);
    found = players_find(name, out);
    return found == 1 ? 1 : -1;
}

int players_create_guest(const char *name, player *out) {
    char key[4 * PLAYER_NAME_MAX];
    name_key(name, key, sizeof key);
    int64_t now = (int64_t)time(NULL);
    if (run_sql("INSERT INTO players (name, name_key, kind, created, seen)"
                " VALUES (?1, ?2, 'guest', ?3, ?3)", "ttl", name, key, now) != SQLITE_DONE)
        return -1;
    int64_t id = sqlite3_last_insert_rowid(store_sqlite(tables_store()));
    return players_get(id, out) == 1 ? 1 : -1;
}

int players_rename_guest(int64_t id, const char *name) {
    char key[4 * PLAYER_NAME_MAX];
    name_key(name, key, sizeof key);
    return run_sql("UPDATE players SET name = ?2, name_key = ?3 WHERE id = ?1 AND kind = 'guest'",
                   "ltt", id, name, key) == SQLITE_DONE ? 1 : -1;
}

int players_set_password(int64_t id, const char *hash) {
    return run_sql("UPDATE players SET password = ?2 WHERE id = ?1", "lt", id, hash) == SQLITE_DONE
               ? 0 : -1;
}

int players_login_new(int64_t id, char token[44]) {
    unsigned char raw[32], hash[32];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2base64(token, 44, raw, sizeof raw, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    sodium_memzero(raw, sizeof raw);
    crypto_hash_sha256(hash, (const unsigned char *)token, strlen(token));
    int64_t now = (int64_t)time(NULL);
    if (run_sql("INSERT INTO logins (token_hash, player, created, used) VALUES (?1, ?2, ?3, ?3)",
                "bll", hash, id, now) != SQLITE_DONE)
        return -1;
    run_sql("UPDATE players SET seen = ?2 WHERE id = ?1", "ll", id, now);
    return 0;
}

int players_login_end(const unsigned char hash[32]) {
    return run_sql("DELETE FROM logins WHERE token_hash = ?1", "b", hash) == SQLITE_DONE ? 0 : -1;
}

int players_logins_end(int64_t id, const unsigned char *keep) {
    static const unsigned char none[32];
    return run_sql("DELETE FROM logins WHERE player = ?1 AND token_hash <> ?2", "lb", id,
                   keep ? keep : none) == SQLITE_DONE ? 0 : -1;
}

void players_logins_expire(void) {
    static int64_t last;
    int64_t now = (int64_t)time(NULL);
    if (now - last < 3600) return;
    last = now;
    run_sql("DELETE FROM logins WHERE used < ?1", "l", now - (int64_t)PLAYERS_LOGIN_DAYS * 86400);
}

int players_logins_check(players_login *logins, int n) {
    sqlite3 *db = store_sqlite(tables_store());
    sqlite3_stmt *st;
    if (n <= 0) return 0;
    if (!db || sqlite3_prepare_v2(db, "SELECT p.disabled, l.used FROM players p"
                                      " LEFT JOIN logins l ON l.token_hash = ?1 AND l.player = p.id"
                                      " WHERE p.id = ?2",
                                  -1, &st, NULL) != SQLITE_OK)
        return -1;
    int64_t now = (int64_t)time(NULL);
    int failed = 0;
    for (int i = 0; i < n && !failed; i++) {
        players_login *l = &logins[i];
        int64_t used = 0;
        int rc = sqlite3_bind_blob(st, 1, l->hash, 32, SQLITE_TRANSIENT);
        if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 2, l->player_id);
        if (rc == SQLITE_OK) rc = sqlite3_step(st);
        if (rc == SQLITE_DONE) {
            l->state = PLAYERS_LOGIN_ENDED; /* the player is gone (an expired guest) */
        } else if (rc == SQLITE_ROW) {
            int known = sqlite3_column_type(st, 1) != SQLITE_NULL;
            used = known ? sqlite3_column_int64(st, 1) : 0;
            l->state = sqlite3_column_int(st, 0)                                   ? PLAYERS_LOGIN_DISABLED
                     : !known || used < now - (int64_t)PLAYERS_LOGIN_DAYS * 86400 ? PLAYERS_LOGIN_ENDED
                                                                                  : PLAYERS_LOGIN_LIVE;
        } else {
            failed = 1;
        }
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
        if (!failed && l->state == PLAYERS_LOGIN_LIVE && used < now - 3600) {
            run_sql("UPDATE logins SET used = ?2 WHERE token_hash = ?1", "bl", l->hash, now);
            run_sql("UPDATE players SET seen = ?2 WHERE id = ?1", "ll", l->player_id, now);
        }
    }
    sqlite3_finalize(st);
    return failed ? -1 : 0;
}

/* Deletes up to PLAYERS_GUEST_BATCH guests unused since before `before` that
** nothing refers to, with their logins, in one transaction: how many. */
static int guests_delete(int64_t before) {
    sqlite3 *db = store_sqlite(tables_store());
    sqlite3_stmt *st;
    int64_t ids[PLAYERS_GUEST_BATCH];
    int n = 0;
    if (!db || sqlite3_prepare_v2(db, "SELECT id FROM players p WHERE kind = 'guest' AND seen < ?1"
                                      " AND NOT EXISTS (SELECT 1 FROM seats WHERE player = p.id)"
                                      " AND NOT EXISTS (SELECT 1 FROM chat WHERE player = p.id)"
                                      " AND NOT EXISTS (SELECT 1 FROM tables WHERE creator = p.id)"
                                      " AND NOT EXISTS (SELECT 1 FROM results WHERE player = p.id)"
                                      " AND NOT EXISTS (SELECT 1 FROM ratings WHERE player = p.id)"
                                      " LIMIT ?2",
                                  -1, &st, NULL) != SQLITE_OK)
        return 0;
    if (sqlite3_bind_int64(st, 1, before) == SQLITE_OK &&
        sqlite3_bind_int(st, 2, PLAYERS_GUEST_BATCH) == SQLITE_OK)
        while (n < PLAYERS_GUEST_BATCH && sqlite3_step(st) == SQLITE_ROW)
            ids[n++] = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (!n || sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) return 0;
    int ok = 1;
    for (int i = 0; i < n && ok; i++)
        ok = run_sql("DELETE FROM logins WHERE player = ?1", "l", ids[i]) == SQLITE_DONE &&
             run_sql("DELETE FROM players WHERE id = ?1 AND kind = 'guest'", "l", ids[i]) ==
                 SQLITE_DONE;
    if (!ok || sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return 0;
    }
    return n;
}

void players_sweep(void) {
    players_logins_expire();
    static int64_t last;
    static int full; /* the last batch was full: more wait */
    long ttl = server_opt->limits.guest_seconds;
    int64_t now = (int64_t)time(NULL);
    int64_t every = ttl < 3600 ? ttl : 3600;
    if (ttl <= 0 || (!full && now - last < every)) return;
    last = now;
    full = guests_delete(now - ttl) == PLAYERS_GUEST_BATCH;
}
