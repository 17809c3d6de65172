/*
** replay.c -- `tafel replay`: replay a record, show or describe the result.
**
** The text form is the spectator's picture and the score table; --json is
** one object for scripts: game, actions, terminal, next, scores, projected,
** winners.
*/
#include "cli.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <unistd.h>

static cJSON *number_array(const double *values, int n) {
    cJSON *array = cJSON_CreateArray();
    for (int i = 0; array && i < n; i++)
        cJSON_AddItemToArray(array, cJSON_CreateNumber(values[i]));
    return array;
}

static cJSON *next_json(int current) {
    if (current == TAFEL_CHANCE) return cJSON_CreateString("chance");
    if (current == TAFEL_TERMINAL) return cJSON_CreateString("terminal");
    return cJSON_CreateNumber(current);
}

static int print_json(const tafel_game *game, const tafel_state *state) {
    int players = tafel_game_players(game), current = tafel_state_current(state);
    double scores[TAFEL_MAX_PLAYERS], projected[TAFEL_MAX_PLAYERS];
    double winners[TAFEL_MAX_PLAYERS];
    int seats[TAFEL_MAX_PLAYERS];
    tafel_state_scores(state, scores);
    tafel_state_projected(state, projected);
    int nw = tafel_state_winners(state, seats);
    for (int i = 0; i < nw; i++) winners[i] = seats[i];
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "game", tafel_game_string(game));
    cJSON_AddNumberToObject(root, "actions", tafel_state_move_number(state));
    cJSON_AddBoolToObject(root, "terminal", current == TAFEL_TERMINAL);
    cJSON_AddItemToObject(root, "next", next_json(current));
    cJSON_AddItemToObject(root, "scores", number_array(scores, players));
    cJSON_AddItemToObject(root, "projected", number_array(projected, players));
    cJSON_AddItemToObject(root, "winners", number_array(winners, nw));
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (!text) {
        fprintf(stderr, "tafel replay: out of memory\n");
        return 1;
    }
    printf("%s\n", text);
    free(text);
    return 0;
}

static void print_text(const tafel_record *record, const tafel_state *state) {
    char *picture = tafel_state_render(state, -1,
                                       isatty(STDOUT_FILENO) ? TAFEL_RENDER_COLOR : 0);
    if (picture) fputs(picture, stdout);
    free(picture);
    const char *names[TAFEL_MAX_PLAYERS];
    for (int i = 0; i < TAFEL_MAX_PLAYERS; i++) {
        const char *name = tafel_record_player(record, i);
        names[i] = name ? cli_printable(name) : NULL; /* a record is not trusted */
    }
    int current = tafel_state_current(state);
    printf("%d actions; ", tafel_state_move_number(state));
    if (current == TAFEL_TERMINAL) printf("the game is over.\n");
    else if (current == TAFEL_CHANCE) printf("next: chance.\n");
    else printf("next: %s.\n", cli_seat_name(current));
    cli_print_result(state, names);
}

int cli_replay(const cli_command *cmd, int argc, char **argv) {
    const char *path = NULL, *json = NULL;
    const cli_option options[] = {{"--json", 0, &json}};
    int rc = cli_parse(cmd, argc, argv, options, 1, &path, 1);
    if (rc != CLI_CONTINUE) return rc;
    if (!path) {
        fprintf(stderr, "tafel replay: which record? usage: tafel %s\n", cmd->usage);
        return CLI_USAGE;
    }
    tafel_record *record;
    tafel_game *game;
    tafel_state *state;
    tafel_error err;
    if (tafel_record_load_file(path, &record, &err)) {
        fprintf(stderr, "tafel replay: %s\n", err.message);
        return 1;
    }
    if (tafel_record_replay(record, &game, &state, &err)) {
        fprintf(stderr, "tafel replay: %s: %s\n", cli_printable(path), err.message);
        tafel_record_free(record);
        return 1;
    }
    rc = 0;
    if (json) rc = print_json(game, state);
    else print_text(record, state);
    tafel_state_free(state);
    tafel_game_free(game);
    tafel_record_free(record);
    return rc;
}
