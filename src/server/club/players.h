/*
** players.h -- who plays: accounts, guests, the bots' rating holders, and
** the logins (sessions) that tell a request or a socket who sent it.
**
** A login is a random token in the HttpOnly cookie "tafel_session"; the
** database keeps only its SHA-256 (logins).  Passwords are Argon2id
** strings (libsodium), hashed on a worker thread (hasher.c), never on the
** loop.  Everything here reads and writes through the calling thread's
** store (club.h): on the loop the one players_start was given, or, in a
** job of the store's pool (tables_later: the account routes, the logins'
** checks and the sweeps, off the loop on PostgreSQL), the job's
** connection.  The club layer (docs/server.md, "The server in layers"):
** it includes the store's header only.
*/
#ifndef TF_SERVER_PLAYERS_H
#define TF_SERVER_PLAYERS_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* Who a socket or a seat is (players.c): an account (a name and a
** password), a guest (a display name, no password), a bot (its rating's
** holder) or nobody (a client without a session cookie: an API client,
** which plays by seat tokens alone).  Names are UTF-8, 1 to
** PLAYER_NAME_MAX bytes, unique among accounts and bots (case-insensitive). */
#define PLAYER_NAME_MAX 24
typedef enum player_kind { PLAYER_NOBODY = 0, PLAYER_ACCOUNT, PLAYER_GUEST, PLAYER_BOT } player_kind;
typedef struct player {
    int64_t id;       /* players.id; 0: nobody */
    player_kind kind;
    char name[PLAYER_NAME_MAX + 1];
} player;

/* The cookie that holds a login's token. */
#define PLAYERS_COOKIE "tafel_session"

/* Whether text[0..len) is plain text of one line: valid UTF-8 without
** control characters (C0, DEL, C1), line or paragraph separators, or the
** bidirectional overrides and isolates that would turn the rest of a line
** around (names and chat lines). */
int players_plain_text(const char *text, size_t len);

/* 0 when name may be a player's name (1..PLAYER_NAME_MAX bytes of UTF-8,
** letters, digits, spaces inside, - _ . '; not a bot's name); -1 with why. */
int players_name_check(const char *name, char *why, size_t whysize);

/* The name folded for comparing, as the store finds names by it (unique
** among accounts and bots): ASCII letters to lower case, other letters as
** written. */
void players_name_key(const char *name, char *out, size_t size);

/* The account or bot of this name (case-insensitive): 1 found, 0 none,
** -1 error.  Guests are never found by name. */
int players_find(const char *name, player *out);
/* The player of this id: 1 found, 0 none, -1 error. */
int players_get(int64_t id, player *out);
/* Player id as the store read it with a row (store_seat.player_name and
** player_kind): 1 into out, or 0 when kind is "" (not read: players_get). */
int players_of_row(int64_t id, const char *name, const char *kind, player *out);
/* The rating holder of a bot spec ("easy", "medium", "hard"), made when
** missing: 1, or 0 when the spec is no rated bot, -1 error. */
int players_bot(const char *spec, player *out);

/* Who holds the login whose token (the "tafel_session" cookie's value, len
** bytes) is this, checked against the logins: 1 with *out, 0 nobody (an
** unknown or ended login, a disabled player), -1 error; hash receives the
** token's SHA-256 either way.  The transport reads the cookie
** (players_of_request, http.h). */
int players_of_login(const char *token, size_t len, player *out, unsigned char hash[32]);

/* Logins are kept PLAYERS_LOGIN_DAYS after their last use. */
#define PLAYERS_LOGIN_DAYS 30

/* An account by name (case-insensitive), with its password hash copied
** into stored (crypto_pwhash_STRBYTES bytes) and whether it is disabled:
** 1 found, 0 none, -1 error. */
int players_account(const char *name, player *out, char *stored, size_t stored_size,
                    int *disabled);
/* A new account (or the guest guest_id, when not 0, made the account: its
** seats and lines stay its own): 1 with *out, 0 when the name is taken, -1
** error. */
int players_create_account(const char *name, const char *hash, int64_t guest_id, player *out);
/* A new guest named name: 1 with *out, -1 error. */
int players_create_guest(const char *name, player *out);
/* Renames the guest id: 1, or -1 error. */
int players_rename_guest(int64_t id, const char *name);
/* The account's new password hash: 0 or -1. */
int players_set_password(int64_t id, const char *hash);
/* A new login of player id: its token (43 characters of base64url and a
** NUL) into token; 0 or -1. */
int players_login_new(int64_t id, char token[44]);
/* Ends the login of this token hash: 0 or -1. */
int players_login_end(const unsigned char hash[32]);
/* Ends every login of player id but the one of keep (NULL: all): 0 or -1. */
int players_logins_end(int64_t id, const unsigned char *keep);

/* What became of a login an open socket was opened with. */
typedef enum players_login_state {
    PLAYERS_LOGIN_LIVE = 0,
    PLAYERS_LOGIN_ENDED,    /* logged out, ended by a password change, expired, deleted */
    PLAYERS_LOGIN_DISABLED  /* its player is disabled */
} players_login_state;
typedef struct players_login {
    unsigned char hash[32]; /* the token's SHA-256 */
    int64_t player_id;      /* whose login it was */
    players_login_state state; /* the answer */
} players_login;
/* Sets the state of each of the n logins (one indexed query each); a live
** one unused for an hour is marked used now, with its player seen (an open
** socket is a use).  0, or -1 when the database could not be read (states
** unset). */
int players_logins_check(players_login *logins, int n);

/* ---- too many attempts (docs/club.md, "Too many attempts") ------------ */

/* What the account routes count, each in buckets kept in the store, so
** that servers sharing one database count the same attempts: a bucket per
** key holds cap tokens and gets cap back per window seconds (docs/club.md
** says which key each counts by). */
typedef enum players_limit {
    PLAYERS_LIMIT_PAIR = 0, /* failed logins per name and address (players_pair) */
    PLAYERS_LIMIT_ADDRESS,  /* failed logins per address */
    PLAYERS_LIMIT_NAME,     /* failed logins per name, from every address */
    PLAYERS_LIMIT_SIGNUP,   /* new accounts per address */
    PLAYERS_LIMIT_GUEST     /* new guests per address */
} players_limit;

/* A (name, address) pair as one key (for PLAYERS_LIMIT_PAIR and
** players_known_*). */
void players_pair(const char *name, const char *addr, char *out, size_t size);
/* Takes a token from the bucket of (limit, key) when take is set, or only
** looks when not: 0 a token was there (taken when take is set), else the
** seconds until one is back (>= 1; nothing taken); -1 when the store
** failed (said on stderr).  cap <= 0: no limit (0).  Keys are folded as
** names are (players_name_key). */
int players_limit_take(players_limit limit, const char *key, int cap, double window, int take);
/* Gives the bucket one token back, or fills it again (all). */
void players_limit_give(players_limit limit, const char *key, int cap, double window, int all);
/* A pair that logged in or signed up: known for PLAYERS_LOGIN_DAYS. */
void players_known_add(const char *pair);
/* Whether the pair is known: 1, 0 (also when the store failed). */
int players_known_has(const char *pair);

/* Once a second, in a job of the store's pool (never two at once: when
** each sweep last ran is kept here, unguarded): at most once an hour the
** logins unused for PLAYERS_LOGIN_DAYS end, and the guests nothing refers
** to (no seat, chat line, table made, result or rating) that were not used
** for --guest-expire are deleted with their logins, PLAYERS_GUEST_BATCH at
** a time (sooner again while a batch was full); at most once a minute the
** attempts' buckets full again and the known pairs past are forgotten. */
#define PLAYERS_GUEST_BATCH 500
void players_sweep(void);

/* The store players.c works on, and --guest-expire (0: guests never
** expire); at start-up, before any other call here. */
void players_start(store *db, long guest_expire_seconds);

#endif
