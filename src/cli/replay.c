/*
** replay.c -- `tafel replay`: replay a record, show or describe the result.
**
** The text form is the spectator's picture and the score table; --json is
** one object for scripts: game, actions, terminal, next, scores, projected,
** winners.  --at N stops after N actions; --step shows every action and the
** picture after it, waiting for Enter at a terminal.  --views SEAT prints
** what one seat (-1: a spectator) was shown along the way, one JSON line per
** position: the engine's own answer that the tests of tafel serve hold its
** messages to (tests/server/).
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

/* The seat whose forfeit ended the game, when the replay reached the end of
** a record that has one; -1 otherwise. */
static int forfeit_at_end(const tafel_record *record, int complete, const char **reason) {
    return complete ? tafel_record_forfeit(record, reason) : -1;
}

static int print_json(const tafel_game *game, const tafel_state *state, int forfeit,
                      const char *reason) {
    int players = tafel_game_players(game), current = tafel_state_current(state);
    double scores[TAFEL_MAX_PLAYERS], projected[TAFEL_MAX_PLAYERS];
    double winners[TAFEL_MAX_PLAYERS];
    int seats[TAFEL_MAX_PLAYERS];
    tafel_state_scores(state, scores);
    tafel_state_projected(state, projected);
    int nw = cli_winners(state, forfeit, seats);
    for (int i = 0; i < nw; i++) winners[i] = seats[i];
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "game", tafel_game_string(game));
    cJSON_AddNumberToObject(root, "actions", tafel_state_move_number(state));
    cJSON_AddBoolToObject(root, "terminal", current == TAFEL_TERMINAL);
    cJSON_AddItemToObject(root, "next", next_json(current));
    cJSON_AddItemToObject(root, "scores", number_array(scores, players));
    cJSON_AddItemToObject(root, "projected", number_array(projected, players));
    cJSON_AddItemToObject(root, "winners", number_array(winners, nw));
    if (forfeit >= 0) {
        cJSON *f = cJSON_AddObjectToObject(root, "forfeit");
        cJSON_AddNumberToObject(f, "seat", forfeit);
        cJSON_AddStringToObject(f, "reason", reason);
    }
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

static void print_text(const tafel_record *record, const tafel_state *state, int forfeit,
                       const char *reason) {
    char *picture = tafel_state_render(state, -1,
                                       TAFEL_RENDER_WHOLE |
                                           (isatty(STDOUT_FILENO) ? TAFEL_RENDER_COLOR : 0));
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
    cli_print_result(state, names, forfeit);
    if (forfeit >= 0 && current == TAFEL_TERMINAL)
        printf("%s (%s) forfeited and lost: %s; the rules played its turns to the end.\n",
               cli_seat_name(forfeit), names[forfeit] ? names[forfeit] : "no name",
               cli_printable(reason));
    else if (forfeit >= 0)
        printf("The game ended by forfeit: %s (%s) lost it: %s\n", cli_seat_name(forfeit),
               names[forfeit] ? names[forfeit] : "no name", cli_printable(reason));
}

/* Who made action i of the record: a seat's name, or chance. */
static const char *actor_name(const tafel_state *state) {
    int seat = tafel_state_current(state);
    return seat == TAFEL_CHANCE ? "Chance" : cli_seat_name(seat);
}

/* --step: each action in turn, and the position after it.  At a terminal
** Enter goes on and q stops; from a pipe every step is printed. */
static int step_through(const tafel_record *record, int stop) {
    tafel_game *game;
    tafel_error err;
    if (tafel_game_load(tafel_record_game_string(record), &game, &err)) {
        fprintf(stderr, "tafel replay: %s\n", err.message);
        return 1;
    }
    tafel_state *state = tafel_state_new(game);
    int interactive = isatty(STDIN_FILENO), rc = 0;
    int flags = isatty(STDOUT_FILENO) ? TAFEL_RENDER_COLOR : 0;
    char *line = NULL;
    size_t cap = 0;
    for (int i = 0; state && i < stop; i++) {
        const char *text = tafel_record_action(record, i);
        printf("%d. %s: %s\n", i + 1, actor_name(state), cli_printable(text));
        if (tafel_state_apply_text(state, text, &err)) { /* replay checked it: not expected */
            fprintf(stderr, "tafel replay: action %d: %s\n", i, err.message);
            rc = 1;
            break;
        }
        char *picture = tafel_state_render(state, -1, flags);
        if (picture) fputs(picture, stdout);
        free(picture);
        if (interactive && i + 1 < stop) {
            printf("(Enter: next action, q: stop) ");
            fflush(stdout);
            if (getline(&line, &cap, stdin) < 0 || line[0] == 'q') break;
        }
    }
    free(line);
    tafel_state_free(state);
    tafel_game_free(game);
    return rc;
}

/* One line of --views: {"actions":N,"view":V,"text":T,"seat":S,"reveals":R}.
** V is the seat's view (tafel_state_view_json, as it is); T the N-th
** action as the seat saw it, S who played it (a seat or "chance") and R
** whether it showed its player something hidden (tafel_state_action_reveals,
** so whether undo may take it back; null for chance); T, S and R are null
** before the first action. */
static int print_view_line(const tafel_state *state, int seat, const char *text, int actor,
                           int reveals) {
    char *view = tafel_state_view_json(state, seat);
    cJSON *root = cJSON_CreateObject();
    char *line = NULL;
    if (view && root) {
        cJSON_AddNumberToObject(root, "actions", tafel_state_move_number(state));
        cJSON_AddItemToObject(root, "view", cJSON_CreateRaw(view));
        cJSON_AddItemToObject(root, "text",
                              text ? cJSON_CreateString(text) : cJSON_CreateNull());
        cJSON_AddItemToObject(root, "seat", text ? next_json(actor) : cJSON_CreateNull());
        cJSON_AddItemToObject(root, "reveals", text && actor != TAFEL_CHANCE
                                                   ? cJSON_CreateBool(reveals)
                                                   : cJSON_CreateNull());
        line = cJSON_PrintUnformatted(root);
    }
    cJSON_Delete(root);
    free(view);
    if (!line) {
        fprintf(stderr, "tafel replay: out of memory\n");
        return 1;
    }
    printf("%s\n", line);
    free(line);
    return 0;
}

/* --views SEAT: the initial position and every action of the first stop,
** each as seat sees it.  The record was replayed whole before, so an
** action that fails here is not expected. */
static int print_views(const tafel_record *record, int stop, int seat) {
    tafel_game *game;
    tafel_error err;
    if (tafel_game_load(tafel_record_game_string(record), &game, &err)) {
        fprintf(stderr, "tafel replay: %s\n", err.message);
        return 1;
    }
    int players = tafel_game_players(game);
    if (seat >= players) {
        fprintf(stderr, "tafel replay: --views must be a seat -1..%d (-1: a spectator), not %d\n",
                players - 1, seat);
        tafel_game_free(game);
        return CLI_USAGE;
    }
    tafel_state *state = tafel_state_new(game);
    int rc = state ? print_view_line(state, seat, NULL, 0, 0) : 1;
    for (int i = 0; rc == 0 && i < stop; i++) {
        char text[TAFEL_ACTION_TEXT_MAX];
        tafel_action action;
        if (tafel_action_from_text(state, tafel_record_action(record, i), &action, &err)) {
            fprintf(stderr, "tafel replay: action %d: %s\n", i, err.message);
            rc = 1;
            break;
        }
        /* All on the state before the action: what the seat saw, who played. */
        int actor = tafel_state_current(state);
        int reveals = actor != TAFEL_CHANCE && tafel_state_action_reveals(state, action);
        if (tafel_action_view_text(state, seat, action, text, sizeof text) < 0) text[0] = 0;
        if (tafel_state_apply(state, action, &err)) {
            fprintf(stderr, "tafel replay: action %d: %s\n", i, err.message);
            rc = 1;
            break;
        }
        rc = print_view_line(state, seat, text, actor, reveals);
    }
    tafel_state_free(state);
    tafel_game_free(game);
    return rc;
}

int cli_replay(const cli_command *cmd, int argc, char **argv) {
    const char *path = NULL, *json = NULL, *at_text = NULL, *step = NULL, *views_text = NULL;
    const cli_option options[] = {{"--json", 0, &json}, {"--at", 1, &at_text},
                                  {"--step", 0, &step}, {"--views", 1, &views_text}};
    int rc = cli_parse(cmd, argc, argv, options, 4, &path, 1);
    if (rc != CLI_CONTINUE) return rc;
    if (!path) {
        fprintf(stderr, "tafel replay: which record? usage: tafel %s\n", cmd->usage);
        return CLI_USAGE;
    }
    int views_seat = -1;
    if (views_text &&
        cli_int(views_text, "--views", -1, TAFEL_MAX_PLAYERS - 1, &views_seat))
        return CLI_USAGE;
    tafel_record *record;
    tafel_game *game;
    tafel_state *state;
    tafel_error err;
    if (tafel_record_load_file(path, &record, &err)) {
        fprintf(stderr, "tafel replay: %s\n", err.message);
        return 1;
    }
    int at = tafel_record_action_count(record);
    if (at_text && cli_int(at_text, "--at", 0, at, &at)) {
        tafel_record_free(record);
        return CLI_USAGE;
    }
    const char *reason;
    int forfeit = forfeit_at_end(record, at == tafel_record_action_count(record), &reason);
    tafel_record_truncate(record, at);
    if (tafel_record_replay(record, &game, &state, &err)) {
        fprintf(stderr, "tafel replay: %s: %s\n", cli_printable(path), err.message);
        tafel_record_free(record);
        return 1;
    }
    rc = 0;
    if (views_text) rc = print_views(record, at, views_seat);
    else if (json) rc = print_json(game, state, forfeit, reason);
    else if (step) rc = step_through(record, at);
    else print_text(record, state, forfeit, reason);
    tafel_state_free(state);
    tafel_game_free(game);
    tafel_record_free(record);
    return rc;
}
