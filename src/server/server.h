/*
** server.h -- tafel serve's top: the options it runs with and server_run.
**
** The server is a front end like `tafel play`: it drives the games through
** include/tafel.h only.  One event-loop thread (libwebsockets) owns every
** table, socket and the database; bots think on worker threads over copies
** of states and hand their moves back through the loop (botpool.c).
**
** Its files are in layers, one folder each (docs/server.md, "The server in
** layers"), each with its own headers: transport/ (http.h), protocol/
** (protocol.h, session.h, watchers.h), tables/ (tables.h, bots.h,
** clocks.h), club/ (players.h, ratings.h, ...), store/ (store.h,
** syncer.h).  This header is above them all and none includes it: serve.c
** starts each layer with its part of the options (options.c) and wires
** the callbacks that go up.
*/
#ifndef TF_SERVER_H
#define TF_SERVER_H

#include <stddef.h>

/* What one client may cost the server: every limit of docs/server.md
** ("Limits"), with its option.  0 turns a limit off where the comment
** says so; server_limits_default gives the documented defaults. */
typedef struct server_limits {
    int per_address;     /* --max-per-address: WebSockets open per client address (0: off) */
    int idle_seconds;    /* --idle-timeout: a WebSocket silent this long is pinged, and closed
                         ** when it does not answer within as long again */
    long queue_bytes;    /* --max-queue: bytes waiting for a socket that does not read; past
                         ** them it is closed */
    int rate;            /* --max-rate: messages a second a socket may send (bursts of 3 s) */
    int new_tables;      /* --max-new-tables: tables one address may create an hour (0: off) */
    int max_tables;      /* --max-tables: unfinished tables on the server at once */
    long expire_seconds; /* --expire: an unfinished table nobody has changed for this long
                         ** ends as abandoned (0: never) */
    long invite_seconds; /* --invite-expire: invitations unanswered this long end their
                         ** table as expired */
    int bot_ms;          /* --bot-ms: most milliseconds a bot thinks about one move */
    int hint_ms;         /* --hint-ms: most milliseconds a hint thinks */
    int bot_iters;       /* --max-bot-iters: most iterations a search bot's spec may ask
                         ** (0: off) */
    int login_failures;  /* --max-login-failures: failed logins per name and address per
                         ** 15 minutes (then that pair is refused) */
    int address_failures; /* --max-address-failures: failed logins per address per 15 minutes
                         ** (then it is refused names it never logged in to) */
    int signups;         /* --max-signups: accounts one address may make an hour */
    int guests;          /* --max-guests: guests one address may make an hour */
    int name_failures;   /* --slow-name-failures: failed logins per name per 15 minutes from
                         ** all addresses, past which its answers are slowed (0: never) */
    long guest_seconds;  /* --guest-expire: a guest nothing refers to is deleted this long
                         ** after its last use (0: never) */
} server_limits;

#define SERVER_LIMITS_DEFAULT                                                   \
    {.per_address = 50, .idle_seconds = 60, .queue_bytes = 4L << 20, .rate = 20,   \
     .new_tables = 60, .max_tables = 5000, .expire_seconds = 30L * 86400,         \
     .invite_seconds = 86400,                                                      \
     .bot_ms = 10000, .hint_ms = 2000, .login_failures = 5, .address_failures = 20, \
     .signups = 10, .guests = 200,                                                 \
     .name_failures = 20, .guest_seconds = 86400, .bot_iters = 10000}

void server_limits_default(server_limits *l);

#define SERVER_DB_CONNECTIONS_MAX 64 /* the store's pool: STORE_POOL_MAX */

typedef struct server_options {
    const char *bind;   /* address to listen on */
    int port;           /* 0: any free port */
    const char *db_path;
    const char *web_dir;
    const char *wasm_file; /* the engine as WebAssembly, GET /tafel.wasm; NULL: none */
    int workers;        /* bot threads */
    int durable;        /* every acknowledged change synced to the disk first */
    int db_connections; /* --db-connections: threads committing changes, each with its own
                        ** connection (0..SERVER_DB_CONNECTIONS_MAX); -1: 8 on PostgreSQL,
                        ** 0 on SQLite (tables.h) */
    const char *const *ext; /* external bots, "NAME=COMMAND[,ms=N]" each */
    int next;
    const char *cert, *key;  /* TLS (PEM files): both or neither */
    const char *const *origins; /* --allow-origin: more origins that may open /ws */
    int norigins;
    const char *const *hosts; /* --host: names of the server that a Host may give */
    int nhosts;
    int behind_proxy;   /* a loopback peer's X-Forwarded-For names the client */
    int chosen_seeds;   /* --allow-chosen-seeds: tables of people take a chosen seed too
                        ** (tests, replaying a tournament's deals) */
    /* several nodes on PostgreSQL (docs/server.md, "Several nodes"): the tables act for node */
    const char *node;   /* --node: this node's name (store_node_name_ok) */
    int lease_seconds;  /* --lease: its lease, renewed every lease/5 */
    server_limits limits;
} server_options;

/* Runs the server until SIGINT or SIGTERM; the exit status. */
int server_run(const server_options *opt);

/* options.c: the parts of the options each layer is given at start-up
** (serve.c, and the fuzz target that drives the tables and the protocol
** without a loop).  No layer reads server_options itself. */
struct tables_config;
struct http_config;
void server_tables_config(const server_options *opt, struct tables_config *out);
void server_http_config(const server_options *opt, struct http_config *out);

#endif
