/*
** options.c -- the options the server runs with, their defaults, and the
** part of them each layer is given.
**
** Apart from serve.c so that the fuzz target, which drives the tables and
** the protocol without a loop, hands them their parts as serve.c does
** without linking the server's start and stop.  The layers keep copies:
** nothing reads the options after start-up.
*/
#include "server.h"

#include "http.h"
#include "tables.h"

void server_limits_default(server_limits *l) { *l = (server_limits)SERVER_LIMITS_DEFAULT; }

void server_tables_config(const server_options *opt, tables_config *out) {
    const server_limits *l = &opt->limits;
    *out = (tables_config){.new_tables = l->new_tables, .max_tables = l->max_tables,
                           .expire_seconds = l->expire_seconds,
                           .invite_seconds = l->invite_seconds,
                           .chosen_seeds = opt->chosen_seeds, .bot_ms = l->bot_ms,
                           .hint_ms = l->hint_ms, .bot_iters = l->bot_iters,
                           .db_connections = opt->db_connections,
                           .node = opt->node, .lease_seconds = opt->lease_seconds};
}

void server_http_config(const server_options *opt, http_config *out) {
    const server_limits *l = &opt->limits;
    *out = (http_config){.bind = opt->bind, .port = opt->port, .cert = opt->cert,
                         .key = opt->key, .web_dir = opt->web_dir, .wasm_file = opt->wasm_file,
                         .origins = opt->origins, .norigins = opt->norigins,
                         .hosts = opt->hosts, .nhosts = opt->nhosts,
                         .behind_proxy = opt->behind_proxy, .per_address = l->per_address,
                         .idle_seconds = l->idle_seconds, .queue_bytes = l->queue_bytes,
                         .rate = l->rate, .login_failures = l->login_failures,
                         .address_failures = l->address_failures,
                         .name_failures = l->name_failures, .signups = l->signups,
                         .guests = l->guests, .node = opt->node};
}
