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
**
** undo takes back a person's own moves of the current turn, never past a
** chance event, another player's move, or a move that showed the person
** something hidden (the rule of online tables): each of the person's moves
** in a row keeps the state before it, until anything else happens.
** --load continues a saved record; --record is checked before the game.
*/
#include "cli.h"
#include "extbot.h"
#include "say.h"
#include "tell.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define UNDO_MAX 16

typedef struct play_session {
    tafel_game *game;
    tafel_state *state;
    tafel_state *before;                /* the state before the last move */
    tafel_record *record;
    tafel_bot *bots[TAFEL_MAX_PLAYERS]; /* NULL for a person or a program */
    extbot *programs[TAFEL_MAX_PLAYERS]; /* external bots (ext:COMMAND) */
    tafel_bot *hint;                    /* made on the first "hint" */
    const char *names[TAFEL_MAX_PLAYERS];
    int players, color;
    int humans, viewer;  /* viewer: the one human's seat, -1 hotseat, -2 none */
    int hotseat;         /* several people and hidden information */
    int shown;           /* the seat whose view is on the screen */
    char **log;                         /* every move as the public sees it, in words */
    int log_len, log_cap;
    int last_turn[TAFEL_MAX_PLAYERS];   /* log length at the seat's last turn */
    uint64_t seed, rng;
    tafel_action *actions;
    char (*texts)[TAFEL_ACTION_TEXT_MAX];
    int cap;
    char *line;
    size_t line_cap;
    cli_catalog *words;                 /* the language of --lang */
    cli_teller teller;                  /* every action told in it */
    int notation;                       /* --notation */
    tafel_state *undo[UNDO_MAX];        /* before each of the person's moves in a row */
    int nundo, undo_seat;
    const char *no_undo;                /* why there is nothing to take back: a key */
} play_session;

enum { TURN_MOVE, TURN_QUIT, TURN_ERROR, TURN_FORFEIT };

/* Say the catalog's key, its placeholders filled from fields (which it
** frees), and end the line unless it is a prompt. */
static void say_to(const play_session *s, const char *key, cJSON *fields, const char *end) {
    char *text = cli_catalog_format(s->words, key, fields);
    cJSON_Delete(fields);
    if (text) printf("%s%s", text, end);
    free(text);
}

static void say(const play_session *s, const char *key, cJSON *fields) {
    say_to(s, key, fields, "\n");
}

/* Fields for say: one seat, or one text. */
static cJSON *seat_field(int seat) {
    cJSON *f = cJSON_CreateObject();
    cJSON_AddNumberToObject(f, "seat", seat);
    return f;
}

static cJSON *text_field(const char *name, const char *value) {
    cJSON *f = cJSON_CreateObject();
    cJSON_AddStringToObject(f, name, value);
    return f;
}

static int is_person(const play_session *s, int seat) {
    return seat >= 0 && !s->bots[seat] && !s->programs[seat];
}

/* help: each command word (typed as it is, in any language) and what it
** does, in the catalog's words, continuation lines indented to the column. */
static void print_command(const play_session *s, const char *word, const char *key) {
    const char *text = cli_catalog_get(s->words, key);
    printf("  %-15s ", word);
    for (const char *p = text; *p; p++) {
        putchar(*p);
        if (*p == '\n') printf("%18s", "");
    }
    putchar('\n');
}

/* help, with examples of moves from this position of this game. */
static void print_help(const play_session *s, int n) {
    if (n > 0) {
        cJSON *f = text_field("first", s->texts[0]);
        cJSON_AddStringToObject(f, "last", s->texts[n - 1]);
        printf("  %-15s ", cli_catalog_get(s->words, "common.play.help.move_args"));
        say(s, n > 1 ? "common.play.help.move_range" : "common.play.help.move", f);
    }
    static const char *const commands[][2] = {
        {"moves", "moves"}, {"undo", "undo"}, {"board", "board"}, {"key", "key"},
        {"hint", "hint"},   {"save", "save"}, {"help", "help"},   {"quit", "quit"}};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        char key[64], word[64];
        snprintf(key, sizeof key, "common.play.help.%s", commands[i][1]);
        if (strcmp(commands[i][0], "save") == 0)
            snprintf(word, sizeof word, "save %s", cli_catalog_get(s->words, "common.play.help.file"));
        else
            snprintf(word, sizeof word, "%s", commands[i][0]);
        print_command(s, word, key);
    }
}

static void forget_undo(play_session *s, const char *why) {
    s->nundo = 0;
    s->no_undo = why;
}

static void session_free(play_session *s) {
    for (int i = 0; i < UNDO_MAX; i++) tafel_state_free(s->undo[i]);
    for (int i = 0; i < TAFEL_MAX_PLAYERS; i++) tafel_bot_free(s->bots[i]);
    for (int i = 0; i < TAFEL_MAX_PLAYERS; i++) extbot_free(s->programs[i]);
    tafel_bot_free(s->hint);
    tafel_record_free(s->record);
    tafel_state_free(s->state);
    tafel_state_free(s->before);
    tafel_game_free(s->game);
    free(s->actions);
    free(s->texts);
    free(s->line);
    for (int i = 0; i < s->log_len; i++) free(s->log[i]);
    free(s->log);
    cli_teller_free(&s->teller);
    cli_catalog_free(s->words);
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
        if (extbot_is_spec(s->names[seat])) {
            char why[EXTBOT_REASON_MAX];
            if (!(s->programs[seat] = extbot_new(s->names[seat], why, sizeof why)) ||
                extbot_new_game(s->programs[seat], s->game, seat,
                                cli_mix(s->seed, seat + 1), why, sizeof why)) {
                err->code = TAFEL_EBOT;
                snprintf(err->message, sizeof err->message, "%s", why);
                return TAFEL_EBOT;
            }
            continue;
        }
        int rc = tafel_bot_new(s->names[seat], s->game, cli_mix(s->seed, seat + 1),
                               &s->bots[seat], err);
        if (rc) return rc;
    }
    s->cap = tafel_game_max_actions(s->game);
    s->state = tafel_state_new(s->game);
    s->before = tafel_state_new(s->game);
    for (int i = 0; i < UNDO_MAX; i++) s->undo[i] = tafel_state_new(s->game);
    forget_undo(s, "common.play.no_undo.none_yet");
    s->record = tafel_record_new(tafel_game_string(s->game), s->seed);
    s->actions = malloc((size_t)s->cap * sizeof *s->actions);
    s->texts = malloc((size_t)s->cap * sizeof *s->texts);
    for (int seat = 0; s->record && seat < s->players; seat++)
        tafel_record_set_player(s->record, seat, s->names[seat]);
    if (!s->state || !s->before || !s->record || !s->actions || !s->texts ||
        !s->undo[UNDO_MAX - 1]) {
        err->code = TAFEL_ENOMEM;
        snprintf(err->message, sizeof err->message, "out of memory");
        return TAFEL_ENOMEM;
    }
    s->rng = tafel_rng_seed(s->seed);
    s->hotseat = s->humans > 1 && tafel_game_hidden_information(s->game);
    /* the people at the terminal see what the one person's seat sees, or
    ** with several (or none) what is public */
    cli_teller_init(&s->teller, s->words, s->viewer >= 0 ? s->viewer : -1, s->notation);
    return TAFEL_OK;
}

/* The move as the public sees it, in words, for the hotseat's "since your
** last turn". */
static int log_move(play_session *s, tafel_action a) {
    if (s->log_len == s->log_cap) {
        int cap = s->log_cap ? 2 * s->log_cap : 256;
        void *p = realloc(s->log, (size_t)cap * sizeof *s->log);
        if (!p) return 1;
        s->log = p;
        s->log_cap = cap;
    }
    s->log[s->log_len] = cli_account_words(s->words, s->state, a, -1);
    return s->log[s->log_len++] == NULL;
}

/* Hotseat: clear the screen, wait for the next person, show what happened
** since their last turn.  0 to go on, TURN_QUIT at end of input. */
static int read_line_raw(play_session *s);
static int hand_over(play_session *s, int seat) {
    if (!s->hotseat || s->shown == seat) return TURN_MOVE;
    if (isatty(STDOUT_FILENO)) printf("\x1b[2J\x1b[H");
    say(s, "common.play.hand_over", seat_field(seat));
    fflush(stdout);
    if (read_line_raw(s)) return TURN_QUIT;
    if (isatty(STDOUT_FILENO)) printf("\x1b[2J\x1b[H");
    s->shown = seat;
    if (s->log_len > s->last_turn[seat]) {
        /* one line each; repeats in a row (a deal card by card) counted once */
        size_t len = 0;
        char *lines = NULL;
        for (int i = s->last_turn[seat]; i < s->log_len;) {
            int j = i + 1;
            while (j < s->log_len && !strcmp(s->log[j], s->log[i])) j++;
            char *item = s->log[i][0] ? strdup(s->log[i]) : NULL;
            if (item && j - i > 1) {
                free(item);
                item = cli_catalog_repeated(s->words, "common.play.repeated", s->log[i], j - i);
            }
            char *longer = item ? realloc(lines, len + strlen(item) + 4) : NULL;
            if (longer) {
                lines = longer;
                len += (size_t)sprintf(lines + len, "\n  %s", item);
            }
            free(item);
            i = j;
        }
        cJSON *fields = cJSON_CreateObject();
        cJSON_AddStringToObject(fields, "moves", lines ? lines : "");
        char *since = cli_catalog_format(s->words, "common.play.since_last_turn", fields);
        cJSON_Delete(fields);
        if (since) printf("%s\n", since);
        free(since);
        free(lines);
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
    if (shown < n) { /* in the catalog's words, as the picture above it */
        cJSON *fields = text_field("last", s->texts[n - 1]);
        cJSON_AddNumberToObject(fields, "more", n - shown);
        cJSON_AddNumberToObject(fields, "count", n);
        printf("  ");
        say(s, "common.play.more_moves", fields);
    }
    return n;
}

static int print_all_moves(play_session *s) {
    int n = print_moves(s);
    for (int i = MOVES_SHOWN; i < n; i++) printf("%4d. %s\n", i + 1, s->texts[i]);
    return n;
}

static void print_picture(const play_session *s, int seat, int flags) {
    char *picture = cli_picture(s->state, seat, flags | (s->color ? TAFEL_RENDER_COLOR : 0),
                                s->words, tafel_game_name(s->game));
    if (picture) fputs(picture, stdout);
    free(picture);
}

static void print_state(const play_session *s, int seat) { print_picture(s, seat, 0); }

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

/* Take back the person's last move of this turn, if the rules of the
** table allow it; 1 when the position changed. */
static int undo_move(play_session *s) {
    if (!s->nundo) {
        say(s, "common.play.nothing_to_undo",
            text_field("reason", cli_catalog_get(s->words, s->no_undo)));
        return 0;
    }
    tafel_state_copy(s->state, s->undo[--s->nundo]);
    tafel_record_truncate(s->record, tafel_record_action_count(s->record) - 1);
    free(s->log[--s->log_len]);
    if (!s->nundo) s->no_undo = "common.play.no_undo.all_taken";
    say(s, "common.play.taken_back", NULL);
    return 1;
}

/* Handle one command that is not a move; 1 if it was one. */
static int turn_command(play_session *s, int seat, const char *in, int *n) {
    if (!strcmp(in, "help")) print_help(s, *n);
    else if (!strcmp(in, "undo")) {
        if (undo_move(s)) {
            print_state(s, seat);
            *n = print_moves(s);
        }
    } else if (!strcmp(in, "board")) print_picture(s, seat, TAFEL_RENDER_WHOLE);
    else if (!strcmp(in, "key")) print_picture(s, seat, TAFEL_RENDER_KEY);
    else if (!strcmp(in, "moves")) *n = print_moves(s);
    else if (!strcmp(in, "moves all")) *n = print_all_moves(s);
    else if (!strcmp(in, "hint")) print_hint(s);
    else if (!strcmp(in, "save"))
        say(s, "common.play.save_needs_file", NULL);
    else if (!strncmp(in, "save ", 5)) {
        if (cli_write_record(s->record, in + 5) == 0)
            say(s, "common.play.saved", text_field("file", cli_printable(in + 5)));
    } else return 0;
    return 1;
}

/* A person's turn: show the position and moves, read until a move. */
static int human_turn(play_session *s, int seat, tafel_action *out) {
    cli_tell_flush(&s->teller);
    if (hand_over(s, seat) == TURN_QUIT) return TURN_QUIT;
    s->last_turn[seat] = s->log_len + 1; /* its own move is not news to it */
    print_state(s, seat);
    say(s, "common.play.to_play", seat_field(seat));
    int n = print_moves(s);
    for (;;) {
        say_to(s, "common.play.prompt", seat_field(seat), "");
        fflush(stdout);
        const char *in = read_line(s);
        if (!in) {
            printf("\n");
            return TURN_QUIT;
        }
        if (!isatty(STDIN_FILENO)) printf("%s\n", in); /* a readable transcript */
        int index;
        tafel_error err;
        if (!*in || turn_command(s, seat, in, &n)) continue;
        if (!strcmp(in, "quit") || !strcmp(in, "exit")) return TURN_QUIT;
        if (move_number(in, n, &index)) {
            if (index < 0) continue;
            *out = s->actions[index];
            return TURN_MOVE;
        }
        if (tafel_action_from_text(s->state, in, out, &err) == TAFEL_OK)
            return TURN_MOVE;
        /* most messages quote the input already, cut to the library's
        ** quoting size (TF_QUOTE): once is enough */
        char quoted[48];
        cJSON *f = text_field("error", err.message);
        if (strstr(err.message, tafel_quote(in, quoted, sizeof quoted))) {
            say(s, "common.play.bad_input", f);
        } else {
            cJSON_AddStringToObject(f, "input", cli_printable(in));
            say(s, "common.play.bad_input_quoted", f);
        }
    }
}

/* Choose the next action: chance, a bot, or a person; prints bot moves. */
static int next_action(play_session *s, tafel_action *out) {
    int seat = tafel_state_current(s->state);
    if (is_person(s, seat)) return human_turn(s, seat, out);
    tafel_error err;
    char reason[EXTBOT_REASON_MAX];
    if (seat >= 0 && s->programs[seat]) {
        if (extbot_choose(s->programs[seat], s->state, out, reason, sizeof reason)) {
            cli_tell_flush(&s->teller);
            printf("%s (%s) forfeits the game: %s\n", cli_seat_name(seat),
                   cli_printable(extbot_name(s->programs[seat])), cli_printable(reason));
            tafel_record_set_forfeit(s->record, seat, reason);
            return TURN_FORFEIT;
        }
    } else if (cli_choose(s->state, seat, s->bots, &s->rng, s->actions, s->cap, out, &err)) {
        fprintf(stderr, "tafel play: %s\n", err.message);
        return TURN_ERROR;
    }
    return TURN_MOVE;
}

/* After a move of seat (s->before holds the state before it): what undo
** may take back. */
static void after_move(play_session *s, int seat, tafel_action a) {
    if (!is_person(s, seat)) {
        forget_undo(s, "common.play.no_undo.not_yours");
        return;
    }
    if (seat != s->undo_seat) s->nundo = 0;
    s->undo_seat = seat;
    if (tafel_state_action_reveals(s->before, a)) { /* undo would let a player peek */
        forget_undo(s, "common.play.no_undo.revealed");
        return;
    }
    if (s->nundo == UNDO_MAX) { /* the oldest goes */
        tafel_state *oldest = s->undo[0];
        memmove(s->undo, s->undo + 1, sizeof s->undo[0] * (UNDO_MAX - 1));
        s->undo[UNDO_MAX - 1] = oldest;
        s->nundo--;
    }
    tafel_state_copy(s->undo[s->nundo++], s->before);
}

/* The programs at the table see every action as their seat sees it. */
static void tell_programs(const play_session *s, tafel_action a) {
    for (int seat = 0; seat < s->players; seat++)
        if (s->programs[seat]) extbot_seen(s->programs[seat], s->state, a);
}

/* seat forfeited: it lost, the others share the win. */
static void print_forfeit(const play_session *s, int seat) {
    const char *reason;
    tafel_record_forfeit(s->record, &reason);
    int winners[TAFEL_MAX_PLAYERS], n = cli_winners(s->state, seat, winners);
    for (int k = 0; k < s->players; k++)
        if (s->programs[k])
            extbot_game_over(s->programs[k], s->state, winners, n, seat, reason);
    printf("Game over after %d actions: %s (%s) lost by forfeit; ",
           tafel_state_move_number(s->state), cli_seat_name(seat), s->names[seat]);
    for (int i = 0; i < n; i++) printf("%s%s", i ? " and " : "", cli_seat_name(winners[i]));
    printf(n > 1 ? " share the win.\n" : " wins.\n");
}

static int play_loop(play_session *s) {
    while (tafel_state_current(s->state) != TAFEL_TERMINAL) {
        tafel_action a;
        int seat = tafel_state_current(s->state);
        int turn = next_action(s, &a);
        if (turn == TURN_QUIT) {
            cli_tell_flush(&s->teller);
            char seed[24];
            snprintf(seed, sizeof seed, "%llu", (unsigned long long)s->seed);
            cJSON *f = text_field("seed", seed);
            cJSON_AddNumberToObject(f, "actions", tafel_state_move_number(s->state));
            say(s, "common.play.stopped", f);
            return 0;
        }
        if (turn == TURN_ERROR) return 1;
        if (turn == TURN_FORFEIT) {
            print_forfeit(s, seat);
            return 0;
        }
        tafel_error err;
        if (tafel_record_push(s->record, s->state, a) || log_move(s, a)) {
            fprintf(stderr, "tafel play: cannot record the action\n");
            return 1;
        }
        tell_programs(s, a);
        if (cli_tell(&s->teller, s->state, a, "")) return 1;
        tafel_state_copy(s->before, s->state);
        if (tafel_state_apply(s->state, a, &err)) {
            fprintf(stderr, "tafel play: %s\n", err.message);
            return 1;
        }
        after_move(s, seat, a);
    }
    cli_tell_flush(&s->teller);
    int winners[TAFEL_MAX_PLAYERS], n = tafel_state_winners(s->state, winners);
    for (int seat = 0; seat < s->players; seat++)
        if (s->programs[seat]) extbot_game_over(s->programs[seat], s->state, winners, n, -1, NULL);
    print_state(s, -1);
    cli_print_result(s->state, s->names, -1);
    return 0;
}

/* Whether the record can be written to path, asked before the game so
** that a typo does not lose a whole game's record at its end. */
static int record_path_ok(const char *path) {
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", path);
    const char *folder = dirname(copy);
    const char *problem = NULL;
    if (access(path, F_OK) == 0) {
        if (access(path, W_OK)) problem = strerror(errno);
    } else if (access(folder, F_OK)) {
        problem = "its folder does not exist";
    } else if (access(folder, W_OK)) {
        problem = "its folder cannot be written";
    }
    if (problem)
        fprintf(stderr, "tafel play: --record '%s': %s\n", cli_printable(path), problem);
    return !problem;
}

/* --load: the saved game's actions, replayed into the new session (which
** records them again), and its seed; the rng goes on from a seed of its
** own, since how far the saved game drew cannot be known. */
static int continue_record(play_session *s, const tafel_record *saved) {
    for (int i = 0; i < tafel_record_action_count(saved); i++) {
        const char *text = tafel_record_action(saved, i);
        tafel_action a;
        tafel_error err;
        if (tafel_action_from_text(s->state, text, &a, &err) ||
            tafel_record_push(s->record, s->state, a) || log_move(s, a) ||
            (tell_programs(s, a), tafel_state_apply(s->state, a, &err))) {
            fprintf(stderr, "tafel play: --load: action %d '%s': %s\n", i, cli_printable(text),
                    err.message);
            return 1;
        }
    }
    s->rng = tafel_rng_seed(cli_mix(s->seed, (uint64_t)tafel_state_move_number(s->state)));
    printf("Loaded %d actions; %s.\n", tafel_state_move_number(s->state),
           tafel_state_current(s->state) == TAFEL_TERMINAL ? "the game is over" : "play goes on");
    return 0;
}

/* The saved players, as a --players list ("human,greedy"), when the record
** names every seat. */
static const char *saved_players(const tafel_record *saved, char *out, size_t size) {
    size_t used = 0;
    out[0] = 0;
    for (int seat = 0; tafel_record_player(saved, seat); seat++)
        used += (size_t)snprintf(out + used, size - used, "%s%s", seat ? "," : "",
                                 tafel_record_player(saved, seat));
    return out[0] && used < size ? out : NULL;
}

int cli_play(const cli_command *cmd, int argc, char **argv) {
    const char *game = NULL, *players = NULL, *seed_text = NULL;
    const char *no_color = NULL, *record_path = NULL, *load_path = NULL;
    const char *lang = NULL, *notation = NULL;
    const cli_option options[] = {
        {"--players", 1, &players}, {"--seed", 1, &seed_text},
        {"--no-color", 0, &no_color}, {"--record", 1, &record_path},
        {"--load", 1, &load_path}, {"--lang", 1, &lang}, {"--notation", 0, &notation},
    };
    int rc = cli_parse(cmd, argc, argv, options, 7, &game, 1);
    if (rc != CLI_CONTINUE) return rc;
    char why[256];
    if (!(lang = cli_catalog_language(lang, why, sizeof why))) {
        fprintf(stderr, "tafel play: --lang: %s\n", why);
        return CLI_USAGE;
    }
    tafel_record *saved = NULL;
    tafel_error err;
    char saved_list[TAFEL_MAX_PLAYERS * CLI_NAME_MAX];
    if (load_path) {
        if (tafel_record_load_file(load_path, &saved, &err)) {
            fprintf(stderr, "tafel play: --load: %s\n", err.message);
            return 1;
        }
        if (game) {
            fprintf(stderr, "tafel play: --load continues the game of its record ('%s'): "
                    "give no game string\n", cli_printable(tafel_record_game_string(saved)));
            tafel_record_free(saved);
            return CLI_USAGE;
        }
        game = tafel_record_game_string(saved);
        if (!players) players = saved_players(saved, saved_list, sizeof saved_list);
    }
    if (!game) game = "carcassonne";
    if (!players) players = "human,greedy";
    play_session s = {0};
    char storage[TAFEL_MAX_PLAYERS][CLI_NAME_MAX];
    int n = cli_split_players(players, storage, s.names);
    s.seed = saved ? tafel_record_seed(saved) : (uint64_t)time(NULL);
    if (n < 0 || (seed_text && cli_uint64(seed_text, "--seed", &s.seed)) ||
        cli_load_game(game, n, &s.game) || (record_path && !record_path_ok(record_path))) {
        tafel_record_free(saved);
        tafel_game_free(s.game);
        return CLI_USAGE;
    }
    const char *no_color_env = getenv("NO_COLOR"); /* https://no-color.org */
    s.color = !no_color && !(no_color_env && no_color_env[0]) && isatty(STDOUT_FILENO);
    s.notation = notation != NULL;
    if (!(s.words = cli_catalog_load(lang, tafel_game_name(s.game), why, sizeof why))) {
        fprintf(stderr, "tafel play: %s\n", why);
        tafel_record_free(saved);
        tafel_game_free(s.game);
        return 1;
    }
    if (session_start(&s, &err)) {
        fprintf(stderr, "tafel play: %s\n", err.message);
        tafel_record_free(saved);
        session_free(&s);
        return err.code == TAFEL_EBOT ? CLI_USAGE : 1;
    }
    cJSON *f = text_field("game", tafel_game_string(s.game));
    if (saved) {
        cJSON_AddStringToObject(f, "file", cli_printable(load_path));
        say(&s, "common.play.continued", f);
    } else {
        char seed[24];
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)s.seed);
        cJSON_AddStringToObject(f, "seed", seed);
        cJSON_AddStringToObject(f, "game_arg", cli_printable(game));
        cJSON_AddStringToObject(f, "players", cli_printable(players));
        say(&s, "common.play.started", f);
    }
    rc = saved ? continue_record(&s, saved) : 0;
    tafel_record_free(saved);
    if (rc) {
        session_free(&s);
        return 1;
    }
    rc = play_loop(&s);
    if (record_path && cli_write_record(s.record, record_path)) rc = 1;
    session_free(&s);
    return rc;
}
