/*
** http.h -- the libwebsockets context of tafel serve (http.c).
*/
#ifndef TF_SERVER_HTTP_H
#define TF_SERVER_HTTP_H

#include "server.h"

/* Listens as opt says; *port_out receives the port (opt->port 0: any). */
int http_start(const server_options *opt, int *port_out);
/* One turn of the event loop; negative when it cannot go on. */
int http_service(void);
void http_stop(void);

#endif
