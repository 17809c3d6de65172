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

/* Listens as opt says; *port_out receives the port (opt->port 0: any). */
int http_start(const server_options *opt, int *port_out);
/* One turn of the event loop; negative when it cannot go on. */
int http_service(void);
void http_stop(void);

/* routes.c: one HTTP transaction's state (lws's per-session data of the
** "http" protocol). */
typedef struct http_session {
    char *body;
    size_t len, sent;
    uint64_t commit; /* --durable: the body goes out once this many commits
                     ** are synced (syncer.c), as a socket's messages */
} http_session;

int routes_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len);

/* sockets.c: the "tafel" protocol's callback (session as per-session data). */
int sockets_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                     size_t len);

#endif
