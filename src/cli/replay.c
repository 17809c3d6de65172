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
#include "say.h"
#include "tell.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct step_options {
    int json, notation;
    int seat;         /* whose account: a seat, -1 a spectator, TELL_ALL */
    const char *lang; /* the catalog's language */
} step_options;

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

/* --step --json: one line per action: {"n", "seat", "action", "events"},
** the action and its account as `seat` sees them; with every seat (seat
** TELL_ALL), "action" is the record's text, "events" the spectator's
** account and "by_seat" each seat's.  With a catalog (--lang), "words":
** each event's sentence, as the terminal and the page say it. */
#define TELL_ALL (-9)

static int print_step_json(const tafel_state *state, tafel_action a, int n, int seat,
                           cli_catalog *catalog) {
    char text[TAFEL_ACTION_TEXT_MAX];
    if (seat == TELL_ALL) tafel_action_to_text(state, a, text, sizeof text);
    else tafel_action_view_text(state, seat, a, text, sizeof text);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "n", n);
    cJSON_AddItemToObject(root, "seat", next_json(tafel_state_current(state)));
    cJSON_AddStringToObject(root, "action", text);
    cJSON *events = cli_account(state, a, seat == TELL_ALL ? -1 : seat, "tafel replay");
    int ok = events != NULL;
    cJSON_AddItemToObject(root, "events", events);
    if (ok && catalog) {
        cJSON *words = cJSON_AddArrayToObject(root, "words");
        for (const cJSON *e = events->child; e; e = e->next) {
            char *sentence = cli_catalog_event(catalog, e);
            cJSON_AddItemToArray(words, cJSON_CreateString(sentence ? sentence : ""));
            free(sentence);
        }
    }
    if (seat == TELL_ALL) {
        cJSON *by_seat = cJSON_AddArrayToObject(root, "by_seat");
        for (int p = 0; ok && p < tafel_state_players(state); p++) {
            cJSON *mine = cli_account(state, a, p, "tafel replay");
            ok = mine != NULL;
            cJSON_AddItemToArray(by_seat, mine);
        }
    }
    char *line = ok ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    if (!line) return 1;
    printf("%s\n", line);
    free(line);
    return 0;
}

/* --step: each action in turn, told in words (or as JSON lines), and in
** words the position after it.  At a terminal Enter goes on and q stops;
** from a pipe every step is printed. */
static int step_through(const tafel_record *record, int stop, const step_options *o) {
    tafel_game *game;
    tafel_error err;
    if (tafel_game_load(tafel_record_game_string(record), &game, &err)) {
        fprintf(stderr, "tafel replay: %s\n", err.message);
        return 1;
    }
    if (o->seat != TELL_ALL && o->seat >= tafel_game_players(game)) {
        fprintf(stderr, "tafel replay: --seat must be a seat -1..%d (-1: a spectator), not %d\n",
                tafel_game_players(game) - 1, o->seat);
        tafel_game_free(game);
        return CLI_USAGE;
    }
    char why[256];
    cli_catalog *catalog = o->lang ? cli_catalog_load(o->lang, tafel_game_name(game), why,
                                                      sizeof why) : NULL;
    if (o->lang && !catalog) {
        fprintf(stderr, "tafel replay: %s\n", why);
        tafel_game_free(game);
        return 1;
    }
    cli_teller teller;
    cli_teller_init(&teller, catalog, o->seat == TELL_ALL ? -1 : o->seat, o->notation);
    tafel_state *state = tafel_state_new(game);
    int interactive = !o->json && isatty(STDIN_FILENO), rc = state ? 0 : 1;
    int flags = isatty(STDOUT_FILENO) ? TAFEL_RENDER_COLOR : 0;
    char *line = NULL;
    size_t cap = 0;
    for (int i = 0; rc == 0 && i < stop; i++) {
        tafel_action a;
        if (tafel_action_from_text(state, tafel_record_action(record, i), &a, &err)) {
            fprintf(stderr, "tafel replay: action %d: %s\n", i, err.message); /* replay checked it */
            rc = 1;
            break;
        }
        int chance = tafel_state_current(state) == TAFEL_CHANCE;
        char prefix[16];
        snprintf(prefix, sizeof prefix, "%d. ", i + 1);
        rc = o->json ? print_step_json(state, a, i + 1, o->seat, catalog)
                     : cli_tell(&teller, state, a, prefix);
        if (rc == 0 && tafel_state_apply(state, a, &err)) {
            fprintf(stderr, "tafel replay: action %d: %s\n", i, err.message);
            rc = 1;
        }
        if (rc || o->json || (chance && i + 1 < stop)) continue;
        cli_tell_flush(&teller);
        char *picture = cli_picture(state, teller.seat, flags, catalog, tafel_game_name(game));
        if (picture) fputs(picture, stdout);
        free(picture);
        if (interactive && i + 1 < stop) {
            printf("%s ", cli_catalog_get(catalog, "common.replay.next"));
            fflush(stdout);
            if (getline(&line, &cap, stdin) < 0 || line[0] == 'q') break;
        }
    }
    cli_tell_flush(&teller);
    cli_teller_free(&teller);
    cli_catalog_free(catalog);
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
    const char *seat_text = NULL, *lang = NULL, *notation = NULL;
    const cli_option options[] = {{"--json", 0, &json},          {"--at", 1, &at_text},
                                  {"--step", 0, &step},          {"--views", 1, &views_text},
                                  {"--seat", 1, &seat_text},     {"--lang", 1, &lang},
                                  {"--notation", 0, &notation}};
    int rc = cli_parse(cmd, argc, argv, options, 7, &path, 1);
    if (rc != CLI_CONTINUE) return rc;
    if (!path) {
        fprintf(stderr, "tafel replay: which record? usage: tafel %s\n", cmd->usage);
        return CLI_USAGE;
    }
    int views_seat = -1;
    if (views_text &&
        cli_int(views_text, "--views", -1, TAFEL_MAX_PLAYERS - 1, &views_seat))
        return CLI_USAGE;
    step_options so = {json != NULL, notation != NULL, TELL_ALL, NULL};
    if (seat_text && cli_int(seat_text, "--seat", -1, TAFEL_MAX_PLAYERS - 1, &so.seat))
        return CLI_USAGE;
    if ((seat_text || lang || notation) && !step) {
        fprintf(stderr, "tafel replay: --seat, --lang and --notation go with --step\n");
        return CLI_USAGE;
    }
    char why[256];
    if (step && (!json || lang) && !(so.lang = cli_catalog_language(lang, why, sizeof why))) {
        fprintf(stderr, "tafel replay: --lang: %s\n", why);
        return CLI_USAGE;
    }
    if (step && !json && so.seat == TELL_ALL) so.seat = -1;
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
    int complete = at == tafel_record_action_count(record);
    int forfeit = forfeit_at_end(record, complete, &reason);
    tafel_record_truncate(record, at);
    if (tafel_record_replay(record, &game, &state, &err)) {
        fprintf(stderr, "tafel replay: %s: %s\n", cli_printable(path), err.message);
        tafel_record_free(record);
        return 1;
    }
    rc = 0;
    /* a result the record carries must be its replay's (at its end) */
    if (complete && cli_check_result(record, state, forfeit, why, sizeof why)) {
        fprintf(stderr, "tafel replay: %s: the record's result is not its replay's: %s\n",
                cli_printable(path), why);
        rc = 1;
    } else if (views_text) rc = print_views(record, at, views_seat);
    else if (step) rc = step_through(record, at, &so);
    else if (json) rc = print_json(game, state, forfeit, reason);
    else print_text(record, state, forfeit, reason);
    tafel_state_free(state);
    tafel_game_free(game);
    tafel_record_free(record);
    return rc;
}
