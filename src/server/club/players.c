/*
** players.c -- who plays: names, the players in the database, and the
** login a request's cookie names (the cookie read by the transport).  The rules are here (what a name may be,
** when a login expires, which guests go); what is kept is the store's
** (store.h, "players and logins").
*/
#include "players.h"

#include "club.h"
#include "store.h"

#include <math.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long guest_seconds; /* --guest-expire */

void players_start(store *given, long guest_expire_seconds) {
    club_start(given);
    guest_seconds = guest_expire_seconds;
}

/* The bots that hold ratings (docs/club.md, "Ratings"): the three levels
** a player picks in the lobby.  Their names are nobody else's. */
static const char *const RATED_BOTS[] = {"easy", "medium", "hard"};
/* Names no account may take: every bot's, and what the seats are called. */
static const char *const RESERVED[] = {"easy", "medium", "hard", "random", "greedy", "mcts",
                                       "human", "bot", "guest", "chance", "admin"};

void players_name_key(const char *name, char *out, size_t size) {
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
    players_name_key(name, key, sizeof key);
    for (size_t i = 0; i < sizeof RESERVED / sizeof *RESERVED; i++)
        if (!strcmp(key, RESERVED[i]) || !strncmp(key, "ext:", 4)) {
            snprintf(why, whysize, "'%s' is a bot's or a seat's word, nobody's name", name);
            return -1;
        }
    return 0;
}

static player_kind kind_of(const char *text) {
    if (!strcmp(text, "account")) return PLAYER_ACCOUNT;
    if (!strcmp(text, "guest")) return PLAYER_GUEST;
    if (!strcmp(text, "bot")) return PLAYER_BOT;
    return PLAYER_NOBODY;
}

_Static_assert(STORE_NAME_MAX == PLAYER_NAME_MAX, "the store keeps a player's whole name");

/* The store's answer about a player, as the club sees it. */
static void from_store(const store_player *p, player *out) {
    memset(out, 0, sizeof *out);
    out->id = p->id;
    out->kind = kind_of(p->kind);
    snprintf(out->name, sizeof out->name, "%s", p->name);
}

/* A store call that failed: the operator reads why; the caller answers -1. */
static int store_failed(const char *err) {
    fprintf(stderr, "tafel serve: %s\n", err);
    return -1;
}

/* A found player (1, and not disabled unless with_disabled) into out; 0 and
** -1 as found. */
static int found_player(int found, const store_player *p, int with_disabled, player *out,
                        const char *err) {
    if (found < 0) return store_failed(err);
    if (!found || (p->disabled && !with_disabled)) return 0;
    from_store(p, out);
    return 1;
}

int players_find(const char *name, player *out) {
    char key[4 * PLAYER_NAME_MAX], err[256];
    if (!name || strlen(name) > PLAYER_NAME_MAX) return 0;
    players_name_key(name, key, sizeof key);
    store_player p;
    return found_player(store_player_by_key(club_store(), key, &p, err, sizeof err), &p, 0, out,
                        err);
}

int players_of_row(int64_t id, const char *name, const char *kind, player *out) {
    if (!*kind) return 0;
    store_player p = {.id = id};
    snprintf(p.name, sizeof p.name, "%s", name);
    snprintf(p.kind, sizeof p.kind, "%s", kind);
    from_store(&p, out);
    return 1;
}

int players_get(int64_t id, player *out) {
    char err[256];
    store_player p;
    return found_player(store_player_get(club_store(), id, &p, err, sizeof err), &p, 1, out,
                        err);
}

int players_bot(const char *spec, player *out) {
    int rated = 0;
    for (size_t i = 0; i < sizeof RATED_BOTS / sizeof *RATED_BOTS; i++)
        rated |= spec && !strcmp(spec, RATED_BOTS[i]);
    if (!rated) return 0;
    int found = players_find(spec, out);
    if (found) return found;
    char err[256];
    int64_t id;
    int added = store_player_add(club_store(), spec, spec, "bot", NULL, (int64_t)time(NULL), &id,
                                 err, sizeof err);
    if (added < 0) return store_failed(err);
    if (!added) return -1; /* the name is a disabled bot's: players_find did not find it */
    return players_find(spec, out);
}

int players_of_login(const char *token, size_t len, player *out, unsigned char hash[32]) {
    crypto_hash_sha256(hash, (const unsigned char *)token, len);
    char err[256];
    store_player p;
    int64_t used, now = (int64_t)time(NULL);
    int found = store_login_find(club_store(), hash, &p, &used, err, sizeof err);
    if (found < 0) return store_failed(err);
    if (!found || p.disabled) return 0;
    from_store(&p, out);
    if (used < now - (int64_t)PLAYERS_LOGIN_DAYS * 86400) { /* expired */
        players_login_end(hash);
        return 0;
    }
    /* used and seen: at most once an hour */
    if (used < now - 3600 && store_login_used(club_store(), hash, out->id, now, err, sizeof err))
        store_failed(err);
    return 1;
}

int players_account(const char *name, player *out, char *stored, size_t stored_size,
                    int *disabled) {
    char key[4 * PLAYER_NAME_MAX], err[256];
    if (!name || strlen(name) > PLAYER_NAME_MAX) return 0;
    players_name_key(name, key, sizeof key);
    store_player p;
    int found = store_account_by_key(club_store(), key, &p, stored, stored_size, err, sizeof err);
    if (found < 0) return store_failed(err);
    if (!found) return 0;
    from_store(&p, out);
    *disabled = p.disabled;
    return 1;
}

int players_create_account(const char *name, const char *hash, int64_t guest_id, player *out) {
    char key[4 * PLAYER_NAME_MAX], err[256];
    players_name_key(name, key, sizeof key);
    player taken;
    int found = players_find(name, &taken);
    if (found) return found < 0 ? -1 : 0;
    int64_t now = (int64_t)time(NULL), id;
    int made = guest_id
        ? store_guest_make_account(club_store(), guest_id, name, key, hash, now, err, sizeof err)
        : store_player_add(club_store(), name, key, "account", hash, now, &id, err, sizeof err);
    if (made < 0) return store_failed(err);
    if (made == 0) return 0;
    if (made == 2) return players_create_account(name, hash, 0, out); /* no such guest now */
    found = players_find(name, out);
    return found == 1 ? 1 : -1;
}

int players_create_guest(const char *name, player *out) {
    char key[4 * PLAYER_NAME_MAX], err[256] = "storage: a guest's name was refused";
    players_name_key(name, key, sizeof key);
    int64_t id;
    if (store_player_add(club_store(), name, key, "guest", NULL, (int64_t)time(NULL), &id, err,
                         sizeof err) != 1)
        return store_failed(err);
    return players_get(id, out) == 1 ? 1 : -1;
}

int players_rename_guest(int64_t id, const char *name) {
    char key[4 * PLAYER_NAME_MAX], err[256];
    players_name_key(name, key, sizeof key);
    return store_guest_rename(club_store(), id, name, key, err, sizeof err) ? store_failed(err)
                                                                              : 1;
}

int players_set_password(int64_t id, const char *hash) {
    char err[256];
    return store_player_set_password(club_store(), id, hash, 0, err, sizeof err)
               ? store_failed(err) : 0;
}

int players_login_new(int64_t id, char token[44]) {
    unsigned char raw[32], hash[32];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2base64(token, 44, raw, sizeof raw, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    sodium_memzero(raw, sizeof raw);
    crypto_hash_sha256(hash, (const unsigned char *)token, strlen(token));
    char err[256];
    return store_login_add(club_store(), hash, id, (int64_t)time(NULL), err, sizeof err)
               ? store_failed(err) : 0;
}

int players_login_end(const unsigned char hash[32]) {
    char err[256];
    return store_login_delete(club_store(), hash, err, sizeof err) ? store_failed(err) : 0;
}

int players_logins_end(int64_t id, const unsigned char *keep) {
    char err[256];
    return store_logins_delete(club_store(), id, keep, err, sizeof err) ? store_failed(err) : 0;
}

/* Deletes the logins unused for PLAYERS_LOGIN_DAYS (at most once an hour). */
static void logins_expire(void) {
    static int64_t last;
    int64_t now = (int64_t)time(NULL);
    if (now - last < 3600) return;
    last = now;
    char err[256];
    if (store_logins_expire(club_store(), now - (int64_t)PLAYERS_LOGIN_DAYS * 86400, err,
                            sizeof err))
        store_failed(err);
}

int players_logins_check(players_login *logins, int n) {
    if (n <= 0) return 0;
    store_login_state *asked = calloc((size_t)n, sizeof *asked);
    if (!asked) return -1;
    for (int i = 0; i < n; i++) {
        memcpy(asked[i].hash, logins[i].hash, sizeof asked[i].hash);
        asked[i].player = logins[i].player_id;
    }
    char err[256];
    int64_t now = (int64_t)time(NULL);
    if (store_logins_read(club_store(), asked, n, err, sizeof err)) {
        free(asked);
        return store_failed(err);
    }
    for (int i = 0; i < n; i++) {
        const store_login_state *a = &asked[i];
        /* no player: it is gone (an expired guest) */
        logins[i].state = !a->player_found ? PLAYERS_LOGIN_ENDED
                        : a->disabled      ? PLAYERS_LOGIN_DISABLED
                        : !a->login_found || a->used < now - (int64_t)PLAYERS_LOGIN_DAYS * 86400
                            ? PLAYERS_LOGIN_ENDED
                            : PLAYERS_LOGIN_LIVE;
        /* an open socket is a use: marked at most once an hour */
        if (logins[i].state == PLAYERS_LOGIN_LIVE && a->used < now - 3600 &&
            store_login_used(club_store(), a->hash, a->player, now, err, sizeof err))
            store_failed(err);
    }
    free(asked);
    return 0;
}

/* ---- too many attempts ------------------------------------------------ */

/* The store's name of each limit's buckets, and of the known pairs. */
static const char *const LIMIT_KINDS[] = {"pair", "address", "name", "signup", "guest"};
#define KNOWN_KIND "known"

/* Unix ms: the store's buckets are shared by servers, so by the wall's
** clock, not a monotonic one of this process. */
static int64_t wall_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void players_pair(const char *name, const char *addr, char *out, size_t size) {
    snprintf(out, size, "%s\n%s", name, addr);
}

/* key folded as names are (the same name in any case is one bucket). */
static void limit_key(const char *key, char *out, size_t size) {
    players_name_key(key ? key : "", out, size);
}

int players_limit_take(players_limit limit, const char *key, int cap, double window, int take) {
    if (cap <= 0) return 0;
    char folded[256], err[256];
    limit_key(key, folded, sizeof folded);
    double tokens;
    int there = store_attempt_take(club_store(), LIMIT_KINDS[limit], folded, cap,
                                   (int64_t)(window * 1000), wall_ms(), take, &tokens, err,
                                   sizeof err);
    if (there < 0) return store_failed(err);
    if (there) return 0;
    int wait = (int)ceil((1 - tokens) * window / cap);
    return wait < 1 ? 1 : wait;
}

void players_limit_give(players_limit limit, const char *key, int cap, double window, int all) {
    if (cap <= 0) return;
    char folded[256], err[256];
    limit_key(key, folded, sizeof folded);
    if (store_attempt_give(club_store(), LIMIT_KINDS[limit], folded, cap, (int64_t)(window * 1000),
                           wall_ms(), all, err, sizeof err))
        store_failed(err);
}

void players_known_add(const char *pair) {
    char folded[256], err[256];
    limit_key(pair, folded, sizeof folded);
    int64_t now = wall_ms();
    if (store_attempt_note(club_store(), KNOWN_KIND, folded, now,
                           now + (int64_t)PLAYERS_LOGIN_DAYS * 86400 * 1000, err, sizeof err))
        store_failed(err);
}

int players_known_has(const char *pair) {
    char folded[256], err[256];
    limit_key(pair, folded, sizeof folded);
    int noted = store_attempt_noted(club_store(), KNOWN_KIND, folded, wall_ms(), err, sizeof err);
    if (noted < 0) store_failed(err);
    return noted == 1;
}

/* The buckets full again count as none and the pairs past are not known:
** their rows go, at most once a minute. */
static void attempts_expire(void) {
    static int64_t last;
    int64_t now = wall_ms();
    if (now - last < 60000) return;
    last = now;
    char err[256];
    if (store_attempts_expire(club_store(), now, err, sizeof err)) store_failed(err);
}

void players_sweep(void) {
    logins_expire();
    attempts_expire();
    static int64_t last;
    static int full; /* the last batch was full: more wait */
    long ttl = guest_seconds;
    int64_t now = (int64_t)time(NULL);
    int64_t every = ttl < 3600 ? ttl : 3600;
    if (ttl <= 0 || (!full && now - last < every)) return;
    last = now;
    char err[256];
    int deleted = store_guests_delete(club_store(), now - ttl, PLAYERS_GUEST_BATCH, err,
                                      sizeof err);
    if (deleted < 0) store_failed(err);
    full = deleted == PLAYERS_GUEST_BATCH;
}
