/*
** play.c -- `tafel play`: a game at the terminal, people and bots mixed.
**
** One session holds the game, the state, the record so far and a bot for
** every seat not played by a person.  Chance is drawn from an rng seeded by
** --seed, so a printed seed replays the same tiles.  Input is read a line at
** a time, so a pipe drives it as well as a keyboard; end of input quits.
**
** Hidden information: moves are printed as the watching person may see them
** (tafel_action_view_text): the one person's seat, or with several people at
** one terminal (hotseat) only what is public.  Then each person's turn
** starts with a cleared screen and a pause, so that the next player does
** not see the last one's hand, and a list of the public moves since that
** person's last turn.
*/
#include "cli.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct play_session {
    tafel_game *game;
    tafel_state *state;
    tafel_state *before;                /* the state before the last move */
    tafel_record *record;
    tafel_bot *bots[TAFEL_MAX_PLAYERS]; /* NULL for a person */
    tafel_bot *hint;                    /* made on the first "hint" */
    const char *names[TAFEL_MAX_PLAYERS];
    int players, color;
    int humans, viewer;  /* viewer: the one human's seat, -1 hotseat, -2 none */
    int hotseat;         /* several people and hidden information */
    int shown;           /* the seat whose view is on the screen */
    char (*log)[TAFEL_ACTION_TEXT_MAX]; /* every move as the public sees it */
    int log_len, log_cap;
    int last_turn[TAFEL_MAX_PLAYERS];   /* log length at the seat's last turn */
    uint64_t seed, rng;
    tafel_action *actions;
    char (*texts)[TAFEL_ACTION_TEXT_MAX];
    int cap;
    char *line;
    size_t line_cap;
    char chance[TAFEL_ACTION_TEXT_MAX]; /* the last chance line, not printed yet */
    int chance_repeats;                 /* how many times in a row */
} play_session;

enum { TURN_MOVE, TURN_QUIT, TURN_ERROR };

static const char human_help[] =
    "  NUMBER or TEXT  play that move (\"place 1 0 90\", \"pass\")\n"
    "  moves           list the legal moves again (moves all: every one)\n"
    "  hint            the hard bot's three best moves, how much it searched\n"
    "                  each and its chance of winning after each\n"
    "  save FILE       write the record of the game so far\n"
    "  help            this list\n"
    "  quit            stop the game (end of input does too)\n";

static void session_free(play_session *s) {
    for (int i = 0; i < TAFEL_MAX_PLAYERS; i++) tafel_bot_free(s->bots[i]);
    tafel_bot_free(s->hint);
    tafel_record_free(s->record);
    tafel_state_free(s->state);
    tafel_state_free(s->before);
    tafel_game_free(s->game);
    free(s->actions);
    free(s->texts);
    free(s->line);
    free(s->log);
}

/* Bots for the non-human seats, the record and the buffers. */
static int session_start(play_session *s, tafel_error *err) {
    s->players = tafel_game_players(s->game);
    s->viewer = -2;
    s->shown = -1;
    for (int seat = 0; seat < s->players; seat++) {
        if (!strcmp(s->names[seat], "human")) {
            s->viewer = s->humans++ ? -1 : seat;
            continue;
        }
        int rc = tafel_bot_new(s->names[seat], s->game, cli_mix(s->seed, seat + 1),
                               &s->bots[seat], err);
        if (rc) return rc;
    }
    s->cap = tafel_game_max_actions(s->game);
    s->state = tafel_state_new(s->game);
    s->before = tafel_state_new(s->game);
    s->record = tafel_record_new(tafel_game_string(s->game), s->seed);
    s->actions = malloc((size_t)s->cap * sizeof *s->actions);
    s->texts = malloc((size_t)s->cap * sizeof *s->texts);
    for (int seat = 0; s->record && seat < s->players; seat++)
        tafel_record_set_player(s->record, seat, s->names[seat]);
    if (!s->state || !s->before || !s->record || !s->actions || !s->texts) {
        err->code = TAFEL_ENOMEM;
        snprintf(err->message, sizeof err->message, "out of memory");
        return TAFEL_ENOMEM;
    }
    s->rng = tafel_rng_seed(s->seed);
    s->hotseat = s->humans > 1 && tafel_game_hidden_information(s->game);
    return TAFEL_OK;
}

/* The move as the people at the terminal may see it. */
static void seen_text(const play_session *s, tafel_action a, char *text, size_t size) {
    if (s->viewer == -2) tafel_action_to_text(s->state, a, text, size);
    else tafel_action_view_text(s->state, s->viewer, a, text, size);
}

static int log_move(play_session *s, tafel_action a) {
    if (s->log_len == s->log_cap) {
        int cap = s->log_cap ? 2 * s->log_cap : 256;
        void *p = realloc(s->log, (size_t)cap * sizeof *s->log);
        if (!p) return 1;
        s->log = p;
        s->log_cap = cap;
    }
    tafel_action_view_text(s->state, -1, a, s->log[s->log_len++], sizeof s->log[0]);
    return 0;
}

/* Hotseat: clear the screen, wait for the next person, show what happened
** since their last turn.  0 to go on, TURN_QUIT at end of input. */
static int read_line_raw(play_session *s);
static int hand_over(play_session *s, int seat) {
    if (!s->hotseat || s->shown == seat) return TURN_MOVE;
    if (isatty(STDOUT_FILENO)) printf("\x1b[2J\x1b[H");
    printf("%s's turn: pass the terminal to %s and press Enter.\n", cli_seat_name(seat),
           cli_seat_name(seat));
    fflush(stdout);
    if (read_line_raw(s)) return TURN_QUIT;
    if (isatty(STDOUT_FILENO)) printf("\x1b[2J\x1b[H");
    s->shown = seat;
    if (s->log_len > s->last_turn[seat]) {
        printf("Since your last turn:");
        /* repeats in a row (a shuffle dealt card by card) are counted once */
        for (int i = s->last_turn[seat], first = 1; i < s->log_len; first = 0) {
            int j = i + 1;
            while (j < s->log_len && !strcmp(s->log[j], s->log[i])) j++;
            printf("%s %s", first ? "" : ",", s->log[i]);
            if (j - i > 1) printf(" (x%d)", j - i);
            i = j;
        }
        printf("\n");
    }
    return TURN_MOVE;
}

/* The legal moves, numbered from 1, in columns. */
#define MOVES_SHOWN 60

static int print_moves(play_session *s) {
    int n = tafel_state_legal_actions(s->state, s->actions, s->cap);
    if (n > s->cap) n = s->cap;
    int width = 0;
    for (int i = 0; i < n; i++) {
        tafel_action_to_text(s->state, s->actions[i], s->texts[i],
                             sizeof s->texts[i]);
        int w = (int)strlen(s->texts[i]);
        if (w > width) width = w;
    }
    int columns = 78 / (width + 7);
    if (columns < 1) columns = 1;
    /* A list too long to read (Catan's 720 region arrangements) is shown in
    ** part: every move can still be typed, by number or as text. */
    int shown = n > MOVES_SHOWN ? MOVES_SHOWN : n;
    for (int i = 0; i < shown; i++)
        printf("%4d. %-*s%s", i + 1, width + 1, s->texts[i],
               (i + 1) % columns == 0 || i + 1 == shown ? "\n" : " ");
    if (shown < n)
        printf("  ... and %d more, up to %d. %s ('moves all' lists them all)\n", n - shown, n,
               s->texts[n - 1]);
    return n;
}

static int print_all_moves(play_session *s) {
    int n = print_moves(s);
    for (int i = MOVES_SHOWN; i < n; i++) printf("%4d. %s\n", i + 1, s->texts[i]);
    return n;
}

static void print_state(const play_session *s, int seat) {
    char *picture = tafel_state_render(s->state, seat,
                                       s->color ? TAFEL_RENDER_COLOR : 0);
    if (picture) fputs(picture, stdout);
    free(picture);
}

/* The hard bot's three best moves for the seat to move, with the share of
** its search each got and the chance of winning it sees after each. */
#define HINT_BOT "hard"
#define HINT_MOVES 3

static void print_hint(play_session *s) {
    tafel_error err;
    tafel_bot_move moves[HINT_MOVES];
    int n = 0, seat = tafel_state_current(s->state);
    if (!s->hint &&
        tafel_bot_new(HINT_BOT, s->game, cli_mix(s->seed, 99), &s->hint, &err)) {
        printf("no hint: %s\n", err.message);
        return;
    }
    if (tafel_bot_analyse(s->hint, s->state, moves, HINT_MOVES, &n, &err)) {
        printf("no hint: %s\n", err.message);
        return;
    }
    for (int i = 0; i < n; i++) {
        char text[TAFEL_ACTION_TEXT_MAX];
        tafel_action_view_text(s->state, seat, moves[i].action, text, sizeof text);
        printf("%s %-24s", i ? "     " : "hint:", text);
        if (moves[i].winrate < 0) printf(" (the only move)\n");
        else printf(" %5.1f%% of the search, wins %3.0f%%\n", 100 * moves[i].share,
                    100 * moves[i].winrate);
    }
}

/* A move number ("12") in 1..n, or 0 when text is not all digits. */
static int move_number(const char *text, int n, int *index) {
    for (const char *p = text; *p; p++)
        if (!isdigit((unsigned char)*p)) return 0;
    long v = strtol(text, NULL, 10);
    if (strlen(text) > 6 || v < 1 || v > n) {
        printf("there is no move %s: moves are numbered 1..%d\n", text, n);
        *index = -1;
    } else {
        *index = (int)v - 1;
    }
    return 1;
}

/* One line of input, trimmed; NULL at end of input. */
static char *read_line(play_session *s) {
    if (getline(&s->line, &s->line_cap, stdin) < 0) return NULL;
    char *p = s->line;
    while (isspace((unsigned char)*p)) p++;
    size_t len = strlen(p);
    while (len > 0 && isspace((unsigned char)p[len - 1])) p[--len] = 0;
    return p;
}

static int read_line_raw(play_session *s) {
    return getline(&s->line, &s->line_cap, stdin) < 0;
}

/* Handle one command that is not a move; 1 if it was one. */
static int turn_command(play_session *s, const char *in, int *n) {
    if (!strcmp(in, "help")) printf("%s", human_help);
    else if (!strcmp(in, "moves")) *n = print_moves(s);
    else if (!strcmp(in, "moves all")) *n = print_all_moves(s);
    else if (!strcmp(in, "hint")) print_hint(s);
    else if (!strcmp(in, "save"))
        printf("save needs a file name: save FILE\n");
    else if (!strncmp(in, "save ", 5)) {
        if (cli_write_record(s->record, in + 5) == 0)
            printf("saved the record to %s\n", in + 5);
    } else return 0;
    return 1;
}

/* Chance lines are printed once per run of the same text: a shuffle dealt
** card by card would otherwise fill the screen with "stack 3 ?". */
static void flush_chance(play_session *s) {
    if (!s->chance_repeats) return;
    if (s->chance_repeats == 1) printf("Chance: %s\n", s->chance);
    else printf("Chance: %s (%d times)\n", s->chance, s->chance_repeats);
    s->chance_repeats = 0;
}

static void print_chance(play_session *s, const char *text) {
    if (s->chance_repeats && strcmp(text, s->chance) == 0) {
        s->chance_repeats++;
        return;
    }
    flush_chance(s);
    snprintf(s->chance, sizeof s->chance, "%s", text);
    s->chance_repeats = 1;
}

/* A person's turn: show the position and moves, read until a move. */
static int human_turn(play_session *s, int seat, tafel_action *out) {
    flush_chance(s);
    if (hand_over(s, seat) == TURN_QUIT) return TURN_QUIT;
    s->last_turn[seat] = s->log_len + 1; /* its own move is not news to it */
    print_state(s, seat);
    printf("%s to play:\n", cli_seat_name(seat));
    int n = print_moves(s);
    for (;;) {
        printf("%s> ", cli_seat_name(seat));
        fflush(stdout);
        const char *in = read_line(s);
        if (!in) {
            printf("\n");
            return TURN_QUIT;
        }
        if (!isatty(STDIN_FILENO)) printf("%s\n", in); /* a readable transcript */
        int index;
        tafel_error err;
        if (!*in || turn_command(s, in, &n)) continue;
        if (!strcmp(in, "quit") || !strcmp(in, "exit")) return TURN_QUIT;
        if (move_number(in, n, &index)) {
            if (index < 0) continue;
            *out = s->actions[index];
            return TURN_MOVE;
        }
        if (tafel_action_from_text(s->state, in, out, &err) == TAFEL_OK)
            return TURN_MOVE;
        printf("'%s': %s (type 'help' for commands)\n", cli_printable(in), err.message);
    }
}

/* Choose the next action: chance, a bot, or a person; prints bot moves. */
static int next_action(play_session *s, tafel_action *out) {
    int seat = tafel_state_current(s->state);
    if (seat >= 0 && !s->bots[seat]) return human_turn(s, seat, out);
    tafel_error err;
    if (cli_choose(s->state, seat, s->bots, &s->rng, s->actions, s->cap, out, &err)) {
        fprintf(stderr, "tafel play: %s\n", err.message);
        return TURN_ERROR;
    }
    char text[TAFEL_ACTION_TEXT_MAX];
    seen_text(s, *out, text, sizeof text);
    if (seat == TAFEL_CHANCE) {
        print_chance(s, text);
    } else {
        flush_chance(s);
        printf("%s (%s) plays: %s\n", cli_seat_name(seat), s->names[seat], text);
    }
    return TURN_MOVE;
}

static int play_loop(play_session *s) {
    while (tafel_state_current(s->state) != TAFEL_TERMINAL) {
        tafel_action a;
        int turn = next_action(s, &a);
        if (turn == TURN_QUIT) {
            flush_chance(s);
            printf("Game stopped after %d actions (seed %llu).\n",
                   tafel_state_move_number(s->state), (unsigned long long)s->seed);
            return 0;
        }
        if (turn == TURN_ERROR) return 1;
        tafel_error err;
        if (tafel_record_push(s->record, s->state, a) || log_move(s, a)) {
            fprintf(stderr, "tafel play: cannot record the action\n");
            return 1;
        }
        tafel_state_copy(s->before, s->state);
        if (tafel_state_apply(s->state, a, &err)) {
            fprintf(stderr, "tafel play: %s\n", err.message);
            return 1;
        }
        if (tafel_state_current(s->state) != TAFEL_TERMINAL) { /* the end has its table */
            double was[TAFEL_MAX_PLAYERS], now[TAFEL_MAX_PLAYERS];
            tafel_state_scores(s->before, was);
            tafel_state_scores(s->state, now);
            if (memcmp(was, now, sizeof now[0] * (size_t)s->players)) flush_chance(s);
            cli_print_points(s->before, s->state);
        }
    }
    flush_chance(s);
    print_state(s, -1);
    cli_print_result(s->state, s->names);
    return 0;
}

int cli_play(const cli_command *cmd, int argc, char **argv) {
    const char *game = "carcassonne", *players = "human,greedy", *seed_text = NULL;
    const char *no_color = NULL, *record_path = NULL;
    const cli_option options[] = {
        {"--players", 1, &players}, {"--seed", 1, &seed_text},
        {"--no-color", 0, &no_color}, {"--record", 1, &record_path},
    };
    int rc = cli_parse(cmd, argc, argv, options, 4, &game, 1);
    if (rc != CLI_CONTINUE) return rc;
    play_session s = {0};
    char storage[TAFEL_MAX_PLAYERS][CLI_NAME_MAX];
    int n = cli_split_players(players, storage, s.names);
    if (n < 0) return CLI_USAGE;
    s.seed = (uint64_t)time(NULL);
    if (seed_text && cli_uint64(seed_text, "--seed", &s.seed)) return CLI_USAGE;
    if (cli_load_game(game, n, &s.game)) return CLI_USAGE;
    s.color = !no_color && isatty(STDOUT_FILENO);
    tafel_error err;
    if (session_start(&s, &err)) {
        fprintf(stderr, "tafel play: %s\n", err.message);
        session_free(&s);
        return err.code == TAFEL_EBOT ? CLI_USAGE : 1;
    }
    printf("%s, seed %llu (tafel play '%s' --players %s --seed %llu replays it)\n",
           tafel_game_string(s.game), (unsigned long long)s.seed, game, players,
           (unsigned long long)s.seed);
    rc = play_loop(&s);
    if (record_path && cli_write_record(s.record, record_path)) rc = 1;
    session_free(&s);
    return rc;
}
