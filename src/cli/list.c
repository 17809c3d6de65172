/*
** list.c -- `tafel list`: the games with their parameters, and the bots.
*/
#include "cli.h"

#include <string.h>

/* Print text indented, one line at a time. */
static void print_indented(const char *text, const char *indent) {
    while (text && *text) {
        size_t len = strcspn(text, "\n");
        printf("%s%.*s\n", indent, (int)len, text);
        text += len + (text[len] == '\n');
    }
}

int cli_list(const cli_command *cmd, int argc, char **argv) {
    int rc = cli_parse(cmd, argc, argv, NULL, 0, NULL, 0);
    if (rc != CLI_CONTINUE) return rc;
    printf("Games:\n");
    const char *summary, *name;
    char params[2048];
    for (int i = 0; (name = tafel_game_info(i, &summary, params, sizeof params)); i++) {
        printf("  %s -- %s\n", name, summary);
        print_indented(params, "      ");
    }
    printf("Bots:\n");
    for (int i = 0; (name = tafel_bot_info(i, &summary)) != NULL; i++)
        printf("  %-8s %s\n", name, summary);
    printf("  %-8s a person at the terminal (tafel play only)\n", "human");
    return 0;
}
