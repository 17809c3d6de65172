/*
** turns.h -- whose turn it is across tables: the `turn` message to a
** player's other sockets, and "my games" (GET /api/my-games).
**
** An index from player id to that player's open sockets (sockets with a
** login: accounts and guests) is kept as sockets open and close.  When a
** change makes it the turn of a seat bound to a player, every socket of
** that player that is not at that table is sent {"type":"turn","table":ID,
** "game":GAME} (clocks_changed calls turns_notify); an invited player's,
** an "invited" message.  My games lists the invitations waiting first.
*/
#ifndef TF_SERVER_TURNS_H
#define TF_SERVER_TURNS_H

#include "session.h"

struct table;

/* A socket opened (s->who filled) or closed; nothing for nobody. */
void turns_socket_opened(session *s);
void turns_socket_closed(session *s);
/* It became seat's turn at table t: its player's other sockets are told. */
void turns_notify(const struct table *t, int seat);
/* It became player_id's turn at a table of another node (nodes.c): its
** sockets here that are not at table_id are sent the same message. */
void turns_elsewhere(int64_t player_id, const char *table_id, const char *game);
/* Seat's player was invited to table t: its sockets are sent {"type":
** "invited", "table", "game", "by", "rated", "clock", "invite_until"}. */
void turns_invited(const struct table *t, int seat);
/* That message's text (malloc'd, NULL out of memory), for the other nodes
** (nodes.c), which relay it to the player's sockets there that are not at
** table_id (turns_relay). */
char *turns_invited_text(const struct table *t);
void turns_relay(int64_t player_id, const char *table_id, const char *text);
/* The "my games" answer of a request by player me (found as players_of_request said):
** done(text, status, ctx) on the loop, at once on SQLite; text malloc'd (the JSON or an
** error body), freed by done's caller; status the HTTP status. */
void turns_my_games_later(int found, const player *me,
                          void (*done)(char *text, unsigned status, void *ctx), void *ctx);

#endif
