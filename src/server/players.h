/*
** players.h -- who plays: accounts, guests, the bots' rating holders, and
** the logins (sessions) that tell a request or a socket who sent it.
**
** A login is a random token in the HttpOnly cookie "tafel_session"; the
** database keeps only its SHA-256 (logins).  Passwords are Argon2id
** strings (libsodium), hashed on a worker thread (hasher.c), never on the
** loop.  Everything here runs on the loop, on the server's database
** (tables_store()).
*/
#ifndef TF_SERVER_PLAYERS_H
#define TF_SERVER_PLAYERS_H

#include "server.h"

#include <stddef.h>
#include <stdint.h>

struct lws;

/* The cookie that holds a login's token. */
#define PLAYERS_COOKIE "tafel_session"

/* 0 when name may be a player's name (1..PLAYER_NAME_MAX bytes of UTF-8,
** letters, digits, spaces inside, - _ . '; not a bot's name); -1 with why. */
int players_name_check(const char *name, char *why, size_t whysize);

/* The account or bot of this name (case-insensitive): 1 found, 0 none,
** -1 error.  Guests are never found by name. */
int players_find(const char *name, player *out);
/* The player of this id: 1 found, 0 none, -1 error. */
int players_get(int64_t id, player *out);
/* The rating holder of a bot spec ("easy", "medium", "hard"), made when
** missing: 1, or 0 when the spec is no rated bot, -1 error. */
int players_bot(const char *spec, player *out);

/* Who sent the request (its "tafel_session" cookie, checked against the
** logins): 1 with *out, 0 nobody (no cookie, an unknown or ended login,
** a disabled player), -1 error. */
int players_of_request(struct lws *wsi, player *out);

#endif
