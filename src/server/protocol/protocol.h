/*
** protocol.h -- the protocol layer: the messages of docs/protocol.md
** (protocol.c), the lobby's list (lobby.c), who watches each table
** (watchers.h), and the message handlers that answer a socket: chat.h,
** rematch.h, turns.h (docs/server.md, "The server in layers").  It may
** include the tables', the club's and the store's headers; none of those
** includes it.  The transport above calls it; it calls the transport back
** only through what protocol_start was given (a socket's send).
*/
#ifndef TF_SERVER_PROTOCOL_H
#define TF_SERVER_PROTOCOL_H

#include <stdarg.h>
#include <stddef.h>

#include "session.h"

#define SERVER_LOBBY_MAX 100

/* The transport's function that queues text (copied) for a socket
** (serve.c: sockets_send); session_send calls it. */
void protocol_start(void (*send)(session *s, const char *text, size_t len));
/* The server stops (the transport's signal, serve.c): the sockets closing
** from now on tell nobody (every socket of a table closes, one after
** another). */
void protocol_stopping(void);
/* Whether protocol_stopping was called. */
int protocol_is_stopping(void);

void protocol_receive(session *s, const char *text, size_t len);
void protocol_too_big(session *s);
void protocol_closed(session *s);
/* The state message of table t for seat (-1 spectator), malloc'd, with the
** accounts of the table's actions from index from (0-based) on: from must
** lie in the latest change (watchers_events_from). */
char *protocol_state(const struct table *t, int seat, int from);
void protocol_send_error(session *s, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The body of an HTTP route's refusal, {"error": code, "message": the
** sentence fmt makes}, malloc'd (NULL out of memory). */
char *protocol_http_error(const char *code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *protocol_http_errorv(const char *code, const char *fmt, va_list ap);
/* The games (parameters, players, pieces) and bots as JSON, malloc'd. */
char *protocol_games(void);
struct bot_job;
void protocol_send_hint(session *s, const struct bot_job *job);
/* The history message of t for seat (-1 spectator), malloc'd (NULL out of
** memory): watchers.c keeps it. */
char *protocol_history(const struct table *t, int seat);
/* A seat's "name" and "player" into the JSON object o (a state's seats,
** the lobby's). */
struct cJSON;
struct table_seat;
void protocol_seat_player(struct cJSON *o, const struct table_seat *ts);

/* lobby.c: the tables to list (docs/protocol.md, `lobby`): done(list, message,
** ctx) with the list as a JSON array and the lobby message around it (both
** lobby.c's, valid during the call), or both NULL when it could not be made
** (out of memory) or the server stops.  At once when the list is up to
** date (or on SQLite); else once it was read again off the loop, holding
** every change of this node's tables made before the call. */
void lobby_later(void (*done)(const char *list, const char *message, void *ctx), void *ctx);
/* Whether lobby_later would answer at once. */
int lobby_at_hand(void);
/* lobby.c: another node changed what the lobby shows (nodes.c): the list
** is read again at its next ask. */
void lobby_stale(void);

#endif
