/*
** requests.h -- protocol: a socket's request that waits for its table or
** its commit (requests.c).
**
** A change is committed off the loop (tables.h): a request that would
** change a busy table waits in its queue (table_defer), and a request whose
** change is under way is answered when it is done (table_reply).  Until
** then the request is kept here, with copies of what its message asked
** (the message is gone by then) and its socket -- cleared when the socket
** closes, so that its answer is dropped: a page resends its move when it
** reconnects, and the server recognises it (docs/protocol.md).  A socket
** counts its requests, so that closing one that has none costs nothing.
*/
#ifndef TF_SERVER_REQUESTS_H
#define TF_SERVER_REQUESTS_H

#include <stdint.h>

#include "session.h"
#include "store.h"
#include "tafel.h"

typedef struct request {
    session *s;                        /* who asked; NULL once it closed */
    int kind;                          /* what it asks, the handler's own */
    char table[STORE_ID_LEN + 1];      /* the table it is about */
    char other[STORE_ID_LEN + 1];      /* another table (a rematch's new one) */
    int64_t seq;
    int seat;
    char *text;                        /* an action, a bot, a token, a quoted game: or NULL */
    char tokens[TAFEL_MAX_PLAYERS][33]; /* a new table's seats' tokens */
    struct request *prev, *next;       /* the list of open requests */
} request;

/* A new request of s (listed; zeroed but for s), or NULL out of memory. */
request *request_new(session *s);
/* r->text set to a copy of text: 0, or -1 out of memory. */
int request_text(request *r, const char *text);
/* Unlisted and freed; NULL is fine. */
void request_free(request *r);
/* s closes: its requests answer nobody. */
void requests_closed(session *s);

#endif
