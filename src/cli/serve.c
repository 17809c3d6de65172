/*
** serve.c -- tafel serve: the command line of the server (src/server/).
*/
#include "cli.h"
#include "server.h"

#include <stdio.h>
#include <string.h>

int cli_serve(const cli_command *cmd, int argc, char **argv) {
    const char *port_text = "8080", *db = "tafel.db", *bind = "127.0.0.1", *web = NULL;
    const char *workers_text = "0", *durable = NULL;
    const cli_option options[] = {
        {"--port", 1, &port_text}, {"--db", 1, &db},           {"--bind", 1, &bind},
        {"--web", 1, &web},        {"--workers", 1, &workers_text}, {"--durable", 0, &durable},
    };
    /* --ext may be given several times, which cli_parse does not do: its
    ** values are taken out of argv first. */
    const char *ext[EXTSEATS_MAX];
    int next = 0, kept = 0;
    char *rest[argc + 1];
    for (int i = 0; i < argc; i++) {
        if (i > 0 && !strcmp(argv[i], "--ext")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "tafel serve: --ext needs NAME=COMMAND[,ms=N]\n");
                return CLI_USAGE;
            }
            if (next == EXTSEATS_MAX) {
                fprintf(stderr, "tafel serve: at most %d --ext\n", EXTSEATS_MAX);
                return CLI_USAGE;
            }
            ext[next++] = argv[++i];
            continue;
        }
        rest[kept++] = argv[i];
    }
    rest[kept] = NULL;
    int rc = cli_parse(cmd, kept, rest, options, 6, NULL, 0);
    if (rc != CLI_CONTINUE) return rc;
    server_options opt = {.bind = bind, .db_path = db, .web_dir = web, .durable = durable != NULL,
                          .ext = ext, .next = next};
    if (cli_int(port_text, "--port", 0, 65535, &opt.port) ||
        cli_int(workers_text, "--workers", 0, 64, &opt.workers))
        return CLI_USAGE;
    return server_run(&opt);
}
