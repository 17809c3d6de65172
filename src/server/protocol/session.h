/*
** session.h -- protocol: one WebSocket connection, as the protocol sees it
** (docs/server.md, "The server in layers").
**
** The transport (sockets.c) allocates it as lws's per-session data and
** owns the fields it marks as its own (the queue, the limits, the close);
** the protocol reads and answers its messages, and keeps which table it
** watches (watchers.c).  The protocol writes to it only through
** session_send, which calls what the transport gave protocol_start.  The
** tables layer never names it.
*/
#ifndef TF_SERVER_SESSION_H
#define TF_SERVER_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "players.h"

#define SERVER_MAX_MESSAGE 8192        /* a client message, in bytes */
#define SERVER_CLOSE_MESSAGE 65536     /* past this the socket is closed */

struct table;
struct outmsg;

/* One WebSocket connection (lws's per-session data: lws frees it after
** the close, so the watchers drop their pointers in protocol_closed). */
typedef struct session {
    struct lws *wsi;     /* the transport's (sockets.c), as are the fields from rx on
                         ** but chat_at, chat_i, chat_from and left_seat */
    uint64_t id;         /* unique while the server runs (hint answers find it) */
    char addr[64];       /* the client's address (per-address limits), as text */
    player who;          /* from the session cookie of the upgrade (players.c) */
    struct table *table; /* NULL until join (watchers.c) */
    int seat;            /* -1: spectator */
    int told;            /* the table's action count in its latest state
                         ** message (the accounts it was sent up to); -1
                         ** before its first at this table */
    char *rx;            /* the message being assembled */
    size_t rx_len;
    int rx_too_big;
    struct outmsg *head, *tail;
    int queued;          /* messages waiting */
    size_t queued_bytes; /* and their bytes */
    double tokens;       /* the rate limit's bucket (sockets.c) */
    int64_t tokens_at;   /* when it was last filled, ms */
    int64_t limited_at;  /* when it was last told it sends too fast, ms */
    int64_t close_at;    /* when it was found flooding or its login ended (closed soon
                         ** after), ms */
    int64_t last_rx;     /* when it last sent anything, ms */
    int waiting;         /* its place + 1 among the sockets whose next message
                         ** waits for a sync (sockets.c, --durable); 0: none */
    int closing;         /* 0: open; else how it closes (sockets.c) */
    int64_t chat_at[5];  /* chat.c: when its latest lines were said (unix ms), a ring */
    int chat_i;          /* the ring's oldest */
    uint64_t chat_from;  /* chat.c: the number of its latest join's history job */
    int left_seat;       /* the seat + 1 it gave up at its table (resigned, handed to a bot),
                         ** 0 none: it follows a rematch from there (rematch.c) */
    unsigned char login[32]; /* the SHA-256 of the login it was opened with (who.id > 0) */
    int logged;          /* its place + 1 among the sockets of a login (sockets.c); 0: none,
                         ** or its login has ended and it is closing */
    int close_code;      /* with closing: the close frame's status and reason */
    const char *close_why;
    int requests;        /* its requests waiting for a table or a commit (requests.c) */
    struct login_read *login_read; /* its login being read (sockets.c): its messages wait */
    struct heldmsg *held_head, *held_tail; /* those messages, in order */
    int held;
    char route[STORE_ID_LEN + 1]; /* the table of its upgrade's ?t= (a proxy routed it
                                  ** by that id: docs/server.md, "Several nodes");
                                  ** "": none, a lobby's socket */
} session;

/* Queues text (copied) for the socket: the transport's send, given to
** protocol_start (protocol.c). */
void session_send(session *s, const char *text, size_t len);

#endif
