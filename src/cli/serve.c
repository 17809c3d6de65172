/*
** serve.c -- tafel serve: the command line of the server (src/server/).
*/
#include "cli.h"
#include "data.h"
#include "bots.h" /* EXTSEATS_MAX */
#include "server.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ORIGINS 16
#define NODE_MAX 64 /* store.h's STORE_NODE_MAX */

/* A duration: seconds, or a number with s, m, h or d ("30d"). */
static int duration(const char *text, const char *what, long *out) {
    char *end;
    errno = 0;
    long n = strtol(text, &end, 10);
    long unit = !*end ? 1 : !strcmp(end, "s") ? 1 : !strcmp(end, "m") ? 60
              : !strcmp(end, "h") ? 3600 : !strcmp(end, "d") ? 86400 : 0;
    if (errno || end == text || n < 0 || !unit || n > 100L * 365 * 86400 / unit) {
        fprintf(stderr, "tafel serve: %s: '%s' is no duration (seconds, or a number with s, m, "
                        "h or d: 90s, 30m, 12h, 30d)\n", what, text);
        return CLI_USAGE;
    }
    *out = n * unit;
    return 0;
}

/* Takes the values of a repeatable option out of argv; -1 when too many. */
static int take_repeated(const char *name, int max, const char **values, int *n, int *argc,
                         char **argv) {
    int kept = 1;
    for (int i = 1; i < *argc; i++) {
        if (!strcmp(argv[i], name)) {
            if (i + 1 >= *argc) {
                fprintf(stderr, "tafel serve: %s needs a value\n", name);
                return -1;
            }
            if (*n == max) {
                fprintf(stderr, "tafel serve: at most %d %s\n", max, name);
                return -1;
            }
            values[(*n)++] = argv[++i];
            continue;
        }
        argv[kept++] = argv[i];
    }
    argv[kept] = NULL;
    *argc = kept;
    return 0;
}

int cli_serve(const cli_command *cmd, int argc, char **argv) {
    const char *port_text = "8080", *db = "tafel.db", *bind = "127.0.0.1", *web = NULL;
    const char *workers_text = "0", *durable = NULL, *cert = NULL, *key = NULL, *proxy = NULL;
    const char *per_address = NULL, *idle = NULL, *queue = NULL, *rate = NULL;
    const char *new_tables = NULL, *max_tables = NULL, *expire = NULL, *bot_ms = NULL;
    const char *hint_ms = NULL, *chosen_seeds = NULL, *login_failures = NULL;
    const char *address_failures = NULL, *signups = NULL, *guests = NULL, *bot_iters = NULL;
    const char *name_failures = NULL, *guest_expire = NULL, *invite_expire = NULL;
    const char *node = NULL, *lease = "10";
    const char *db_connections = NULL;
    const cli_option options[] = {
        {"--port", 1, &port_text},
        {"--db", 1, &db},
        {"--bind", 1, &bind},
        {"--web", 1, &web},
        {"--workers", 1, &workers_text},
        {"--durable", 0, &durable},
        {"--db-connections", 1, &db_connections},
        {"--cert", 1, &cert},
        {"--key", 1, &key},
        {"--behind-proxy", 0, &proxy},
        {"--max-per-address", 1, &per_address},
        {"--idle-timeout", 1, &idle},
        {"--max-queue", 1, &queue},
        {"--max-rate", 1, &rate},
        {"--max-new-tables", 1, &new_tables},
        {"--max-tables", 1, &max_tables},
        {"--expire", 1, &expire},
        {"--invite-expire", 1, &invite_expire},
        {"--bot-ms", 1, &bot_ms},
        {"--hint-ms", 1, &hint_ms},
        {"--max-bot-iters", 1, &bot_iters},
        {"--allow-chosen-seeds", 0, &chosen_seeds},
        {"--max-login-failures", 1, &login_failures},
        {"--max-address-failures", 1, &address_failures},
        {"--max-signups", 1, &signups},
        {"--max-guests", 1, &guests},
        {"--slow-name-failures", 1, &name_failures},
        {"--guest-expire", 1, &guest_expire},
        {"--node", 1, &node},
        {"--lease", 1, &lease},
    };
    /* --ext, --allow-origin and --host may be given several times, which
    ** cli_parse does not do: their values are taken out of argv first. */
    const char *ext[EXTSEATS_MAX], *origins[MAX_ORIGINS], *hosts[MAX_ORIGINS];
    int next = 0, norigins = 0, nhosts = 0;
    char *rest[argc + 1];
    for (int i = 0; i < argc; i++) rest[i] = argv[i];
    rest[argc] = NULL;
    int kept = argc;
    if (take_repeated("--ext", EXTSEATS_MAX, ext, &next, &kept, rest) ||
        take_repeated("--allow-origin", MAX_ORIGINS, origins, &norigins, &kept, rest) ||
        take_repeated("--host", MAX_ORIGINS, hosts, &nhosts, &kept, rest))
        return CLI_USAGE;
    for (int i = 0; i < nhosts; i++)
        if (!hosts[i][0] || strspn(hosts[i], "abcdefghijklmnopqrstuvwxyz"
                                             "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-") !=
                                strlen(hosts[i])) {
            fprintf(stderr, "tafel serve: --host: '%s' is no host name (letters, digits, dots "
                            "and hyphens; no port, no scheme)\n", hosts[i]);
            return CLI_USAGE;
        }
    int rc = cli_parse(cmd, kept, rest, options, (int)(sizeof options / sizeof options[0]), NULL,
                       0);
    if (rc != CLI_CONTINUE) return rc;
    char page[PATH_MAX + 8];
    if (!web) { /* the installed page, else the source tree's (data.h) */
        snprintf(page, sizeof page, "%s/web", cli_data_dir());
        web = page;
    }
    server_options opt = {.bind = bind, .db_path = db, .web_dir = web,
                          .wasm_file = cli_wasm_file(), .durable = durable != NULL,
                          .ext = ext, .next = next, .cert = cert, .key = key,
                          .origins = origins, .norigins = norigins, .hosts = hosts,
                          .nhosts = nhosts,
                          .behind_proxy = proxy != NULL, .chosen_seeds = chosen_seeds != NULL,
                          .db_connections = -1};
    server_limits_default(&opt.limits);
    server_limits *l = &opt.limits;
    int queue_kib = (int)(l->queue_bytes / 1024);
    if (cli_int(port_text, "--port", 0, 65535, &opt.port) ||
        cli_int(workers_text, "--workers", 0, 64, &opt.workers) ||
        (db_connections && cli_int(db_connections, "--db-connections", 0,
                                   SERVER_DB_CONNECTIONS_MAX, &opt.db_connections)) ||
        (per_address && cli_int(per_address, "--max-per-address", 0, 1000000, &l->per_address)) ||
        (queue && cli_int(queue, "--max-queue", 64, 1024 * 1024, &queue_kib)) ||
        (rate && cli_int(rate, "--max-rate", 1, 100000, &l->rate)) ||
        (new_tables && cli_int(new_tables, "--max-new-tables", 0, 1000000, &l->new_tables)) ||
        (max_tables && cli_int(max_tables, "--max-tables", 1, 1000000, &l->max_tables)) ||
        (bot_ms && cli_int(bot_ms, "--bot-ms", 100, 3600000, &l->bot_ms)) ||
        (hint_ms && cli_int(hint_ms, "--hint-ms", 100, 600000, &l->hint_ms)) ||
        (bot_iters && cli_int(bot_iters, "--max-bot-iters", 0, 100000000, &l->bot_iters)) ||
        (login_failures &&
         cli_int(login_failures, "--max-login-failures", 1, 1000000, &l->login_failures)) ||
        (address_failures &&
         cli_int(address_failures, "--max-address-failures", 1, 1000000, &l->address_failures)) ||
        (signups && cli_int(signups, "--max-signups", 0, 1000000, &l->signups)) ||
        (guests && cli_int(guests, "--max-guests", 0, 1000000, &l->guests)) ||
        (name_failures &&
         cli_int(name_failures, "--slow-name-failures", 0, 1000000, &l->name_failures)))
        return CLI_USAGE;
    l->queue_bytes = (long)queue_kib * 1024;
    long seconds;
    if (idle) {
        if (duration(idle, "--idle-timeout", &seconds)) return CLI_USAGE;
        if (seconds < 2 || seconds > 86400) {
            fprintf(stderr, "tafel serve: --idle-timeout: 2 s to 1 day, not %s\n", idle);
            return CLI_USAGE;
        }
        l->idle_seconds = (int)seconds;
    }
    if (expire) {
        if (duration(expire, "--expire", &seconds)) return CLI_USAGE;
        l->expire_seconds = seconds;
    }
    if (guest_expire) {
        if (duration(guest_expire, "--guest-expire", &seconds)) return CLI_USAGE;
        l->guest_seconds = seconds;
    }
    if (invite_expire) {
        if (duration(invite_expire, "--invite-expire", &seconds)) return CLI_USAGE;
        if (seconds < 1) {
            fprintf(stderr, "tafel serve: --invite-expire: at least 1 s, not %s\n",
                    invite_expire);
            return CLI_USAGE;
        }
        l->invite_seconds = seconds;
    }
    /* several nodes: a name the others know this node by (default host:port) */
    char host_port[300];
    if (!node) {
        char host[256] = "";
        if (gethostname(host, sizeof host - 1)) snprintf(host, sizeof host, "localhost");
        snprintf(host_port, sizeof host_port, "%s:%d", host, opt.port);
        node = host_port;
    }
    size_t node_len = strlen(node);
    if (node_len < 1 || node_len > NODE_MAX ||
        strspn(node, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:_") !=
            node_len) {
        fprintf(stderr, "tafel serve: --node: '%s' is no node name (1 to %d letters, digits, "
                        "'.', '-', ':' and '_')%s\n", node, NODE_MAX,
                node == host_port ? "; the default, this machine's name and the port, is not "
                                    "one: give --node NAME" : "");
        return CLI_USAGE;
    }
    opt.node = node;
    if (cli_int(lease, "--lease", 1, 3600, &opt.lease_seconds)) return CLI_USAGE;
    if (!cert != !key) {
        fprintf(stderr, "tafel serve: --cert and --key go together (a PEM certificate and its "
                        "private key)\n");
        return CLI_USAGE;
    }
    return server_run(&opt);
}
