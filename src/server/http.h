/*
** http.h -- the libwebsockets side of tafel serve: the context and loop
** (http.c), the HTTP routes and files (routes.c), the WebSocket sessions
** (sockets.c).
*/
#ifndef TF_SERVER_HTTP_H
#define TF_SERVER_HTTP_H

#include "server.h"

#include <stddef.h>

struct lws;
enum lws_callback_reasons;

/* Listens as opt says (TLS with opt->cert and opt->key); *port_out receives
** the port (opt->port 0: any).  -1 with err (a sentence) when it cannot. */
int http_start(const server_options *opt, int *port_out, char *err, size_t errsize);
/* Runs the event loop until SIGINT or SIGTERM, then calls stopping (which
** ends the bot threads and external programs: the loop can still be woken
** meanwhile), closes every socket and the loop. */
void http_run(void (*stopping)(void));
/* Closes the context and the loop of a server that will not run. */
void http_stop(void);

/* routes.c: one HTTP transaction's state (lws's per-session data of the
** "http" protocol). */
typedef struct http_session {
    char *held;      /* --durable: a JSON answer that waits for a sync */
    uint64_t commit; /* it goes out once this many commits are synced
                     ** (syncer.c), as a socket's messages do */
} http_session;

int routes_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len);

/* sockets.c: the "tafel" protocol's callback (session as per-session data). */
int sockets_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                     size_t len);
/* The client's address of a request (with --behind-proxy and a loopback
** peer, the last address of X-Forwarded-For), as text. */
void sockets_client_address(struct lws *wsi, char *out, size_t size);
/* Whether one more WebSocket may open from addr (--max-per-address). */
int sockets_address_allowed(const char *addr);

#endif
