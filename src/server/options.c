/*
** options.c -- the options the server runs with, and their defaults.
**
** Apart from serve.c so that the tables and the protocol (and the fuzz
** target, which drives them without a loop) read the limits without
** linking the server's start and stop.
*/
#include "server.h"

static const server_options built_in = {.bind = "127.0.0.1", .limits = SERVER_LIMITS_DEFAULT};
const server_options *server_opt = &built_in;
int server_stopping;

void server_limits_default(server_limits *l) { *l = (server_limits)SERVER_LIMITS_DEFAULT; }
