/*
** http.h -- the transport layer, the top of tafel serve's layers
** (docs/server.md, "The server in layers"): the libwebsockets context and
** loop (http.c), the HTTP routes and files (routes.c, routes_players.c),
** the WebSocket sessions (sockets.c).  It calls down into the protocol,
** tables and club; they call it back only through what serve.c gave them
** at start-up (http_wake, a socket's send: sockets_send).  It is given its
** part of the options at start-up (http_config) and keeps a copy.
*/
#ifndef TF_SERVER_HTTP_H
#define TF_SERVER_HTTP_H

#include "session.h"

#include <stddef.h>

struct lws;
enum lws_callback_reasons;

/* What the transport is told at start-up (serve.c, from the options: the
** limits of docs/server.md that are the transport's, with their option). */
typedef struct http_config {
    const char *bind;            /* the address to listen on */
    int port;                    /* 0: any free port */
    const char *cert, *key;      /* TLS (PEM files): both or neither */
    const char *web_dir;         /* the page's files */
    const char *wasm_file;       /* GET /tafel.wasm; NULL: none */
    const char *const *origins;  /* --allow-origin: more origins that may open /ws */
    int norigins;
    const char *const *hosts;    /* --host: names of the server that a Host may give */
    int nhosts;
    int behind_proxy;            /* a loopback peer's X-Forwarded-For names the client */
    int per_address;             /* --max-per-address (0: off) */
    int idle_seconds;            /* --idle-timeout */
    long queue_bytes;            /* --max-queue */
    int rate;                    /* --max-rate */
    int login_failures;          /* --max-login-failures */
    int address_failures;        /* --max-address-failures */
    int name_failures;           /* --slow-name-failures (0: never) */
    int signups;                 /* --max-signups */
    int guests;                  /* --max-guests */
    const char *node;            /* --node: every answer names it (X-Tafel-Node), NULL none */
} http_config;

/* Wakes the loop from another thread (lws_cancel_service). */
void http_wake(void);
/* Sockets holding messages for commits now synced write them (sockets.c). */
void sockets_release(void);
/* Queues text (copied) for the socket and asks lws for a write: the
** protocol's session_send (serve.c gives it to protocol_start). */
void sockets_send(session *s, const char *text, size_t len);

/* Listens as config says (a copy is kept: http_options); *port_out
** receives the port (config->port 0: any).  -1 with err (a sentence) when
** it cannot. */
int http_start(const http_config *config, int *port_out, char *err, size_t errsize);
/* The transport's copy of its config, for its files (routes, sockets). */
const http_config *http_options(void);
/* Runs the event loop until SIGINT or SIGTERM, then calls stopping (which
** ends the bot threads and external programs: the loop can still be woken
** meanwhile), closes every socket and the loop. */
void http_run(void (*stopping)(void));
/* Closes the context and the loop of a server that will not run. */
void http_stop(void);

/* routes.c: one HTTP transaction's state (lws's per-session data of the
** "http" protocol). */
struct players_tx;
typedef struct http_session {
    char *held;      /* --durable: a JSON answer that waits for a sync */
    uint64_t commit; /* it goes out once this many commits are synced
                     ** (syncer.c), as a socket's messages do */
    struct players_tx *tx; /* a POST of the account routes (routes_players.c) */
    struct deferred *deferred; /* a GET whose store reads run off the loop (routes.c) */
} http_session;

/* Answers with JSON text (malloc'd, freed here), with a Set-Cookie header
** when cookie is not NULL, Retry-After when retry_after > 0, and
** "Connection: close" (then closes) when close; the transaction completes.
** 0, or -1 to close the connection. */
int routes_send_json_with(struct lws *wsi, unsigned status, char *text, const char *cookie,
                          int retry_after, int close);
/* Whether the request's Origin (when it has one) is the server's own or an
** --allow-origin one. */
int routes_origin_allowed(struct lws *wsi);
/* The table a WebSocket upgrade names with ?t=ID (a proxy routes by it):
** 1 with id, 0 none, -1 with *why (a sentence) when t is no table id's
** form or comes twice (the upgrade is refused, 400). */
int routes_upgrade_table(struct lws *wsi, char id[STORE_ID_LEN + 1], const char **why);

/* routes_players.c: the account routes (docs/club.md, "Players").
** Whether uri takes POST (every other path: GET and HEAD only). */
int players_route_is_post(const char *uri);
/* GET: 1 when uri is an account route (answered, *rc the callback's
** return), else 0. */
int players_route_get(struct lws *wsi, const char *uri, int *rc);
/* A POST to uri arrives (LWS_CALLBACK_HTTP), its body in pieces
** (HTTP_BODY), whole (HTTP_BODY_COMPLETION); an answer that waited goes
** out from the timer (LWS_CALLBACK_TIMER); the transaction is dropped
** (CLOSED_HTTP, HTTP_DROP_PROTOCOL).  Each returns the callback's return. */
int players_post_begin(struct lws *wsi, http_session *h, const char *uri);
int players_post_body(struct lws *wsi, http_session *h, const void *in, size_t len);
int players_post_complete(struct lws *wsi, http_session *h);
int players_post_timer(struct lws *wsi, http_session *h);
/* 1 when an answer was still to come (the connection should close). */
int players_post_drop(http_session *h);
/* The hashes done (LWS_CALLBACK_EVENT_WAIT_CANCELLED). */
void players_hashes_done(void);

/* Who sent the request (its "tafel_session" cookie, checked against the
** logins: players_of_login): 1 with *out, 0 nobody (no cookie, an unknown
** or ended login, a disabled player), -1 error (routes_players.c). */
int players_of_request(struct lws *wsi, player *out);
/* The token of the request's "tafel_session" cookie into token (size at
** least PLAYERS_TOKEN_MAX + 1): its length, 0 none (or not a token's). */
#define PLAYERS_TOKEN_MAX 128
size_t players_request_token(struct lws *wsi, char *token, size_t size);
/* The login of wsi's request was read off the loop (routes.c, sockets.c):
** players_of_request answers found, who and hash for wsi from now on,
** without the store, until called for another wsi (NULL: none). */
void players_request_known(struct lws *wsi, int found, const player *who,
                           const unsigned char hash[32], int has_token);
/* The same, and the SHA-256 of the request's token when it has one
** (*has_token 1, even when the login is unknown). */
int players_of_request_token(struct lws *wsi, player *out, unsigned char hash[32],
                             int *has_token);

int routes_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len);

/* sockets.c: the "tafel" protocol's callback (session as per-session data). */
int sockets_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                     size_t len);
/* The client's address of a request (with --behind-proxy and a loopback
** peer, the last address of X-Forwarded-For), as text. */
void sockets_client_address(struct lws *wsi, char *out, size_t size);
/* The server stops: every WebSocket, once its queue is written, is closed
** with 1001 (going away) and a reason the page shows (each is asked by a
** WRITEABLE: lws_callback_on_writable_all_protocol). */
void sockets_going_away(void);
/* How many WebSockets are open. */
int sockets_open(void);
/* Whether one more WebSocket may open from addr (--max-per-address). */
int sockets_address_allowed(const char *addr);
/* The close codes of a socket whose login ended (docs/protocol.md). */
#define SOCKETS_CLOSE_LOGGED_OUT 4001
#define SOCKETS_CLOSE_DISABLED 4003
/* The socket's table went to another node (docs/protocol.md, close 4000):
** it reads nothing more and closes with 4000 "moved" once its queue is
** written. */
#define SOCKETS_CLOSE_MOVED 4000
void sockets_close_moved(session *s);
/* A login ended: the open sockets of login (its token's SHA-256), or when
** login is NULL every socket of player_id's logins but keep's (NULL: all),
** read nothing more and close with 4001. */
void sockets_end_logins(int64_t player_id, const unsigned char *login, const unsigned char *keep);
/* Once a second: the logins of open sockets checked, a slice at a time;
** the players' sweeps (players_sweep). */
void sockets_tick(void);

#endif
