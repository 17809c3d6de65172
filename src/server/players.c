/*
** players.c -- who plays: names, the players in the database, and the
** login a request's cookie names.
*/
#include "players.h"

#include "tables.h"

#include <libwebsockets.h>
#include <sodium.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* The bots that hold ratings (docs/server.md, "Ratings"): the three levels
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

/* Whether s is valid UTF-8 with no control characters (C0, DEL, C1) and no
** code point outside Unicode. */
static int printable_utf8(const unsigned char *s) {
    while (*s) {
        unsigned c = *s;
        int n = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
        if (n < 0) return 0;
        unsigned cp = n == 0 ? c : n == 1 ? c & 0x1F : n == 2 ? c & 0x0F : c & 0x07;
        for (int i = 1; i <= n; i++) {
            if ((s[i] & 0xC0) != 0x80) return 0;
            cp = (cp << 6) | (s[i] & 0x3F);
        }
        static const unsigned least[] = {0, 0x80, 0x800, 0x10000};
        if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
        if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp == 0x2028 || cp == 0x2029) return 0;
        s += n + 1;
    }
    return 1;
}

int players_name_check(const char *name, char *why, size_t whysize) {
    size_t len = name ? strlen(name) : 0;
    if (len < 1 || len > PLAYER_NAME_MAX) {
        snprintf(why, whysize, "a name has 1 to %d bytes, not %zu", PLAYER_NAME_MAX, len);
        return -1;
    }
    if (!printable_utf8((const unsigned char *)name)) {
        snprintf(why, whysize, "a name is text (UTF-8) without control characters");
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

int players_of_request(struct lws *wsi, player *out) {
    char header[2048];
    int n = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_COOKIE);
    if (n <= 0 || n >= (int)sizeof header ||
        lws_hdr_copy(wsi, header, sizeof header, WSI_TOKEN_HTTP_COOKIE) <= 0)
        return 0;
    size_t len;
    const char *token = cookie_value(header, PLAYERS_COOKIE, &len);
    if (!token || len == 0 || len > 128) return 0;
    unsigned char hash[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(hash, (const unsigned char *)token, len);
    sqlite3 *db = store_sqlite(tables_store());
    sqlite3_stmt *st;
    if (!db || sqlite3_prepare_v2(db, "SELECT p.id, p.kind, p.name, p.disabled FROM logins l"
                                      " JOIN players p ON p.id = l.player"
                                      " WHERE l.token_hash = ?1",
                                  -1, &st, NULL) != SQLITE_OK)
        return -1;
    int rc = sqlite3_bind_blob(st, 1, hash, sizeof hash, SQLITE_TRANSIENT);
    return read_player(st, rc, 0, out);
}
