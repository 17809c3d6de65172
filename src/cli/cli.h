/*
** cli.h -- the tafel program's command table and shared helpers.
**
** Each command lives in its own file and is one row of the table in main.c:
** its name, usage line, summary, help text and handler.  Handlers return the
** program's exit code: 0 success, 1 failure while running, 2 bad usage.
** The program sees games and bots only through tafel.h.
*/
#ifndef TF_CLI_H
#define TF_CLI_H

#include "tafel.h"

#include <stdint.h>
#include <stdio.h>

#define CLI_USAGE 2
#define CLI_CONTINUE (-1)

typedef struct cli_command {
    const char *name;
    const char *usage;
    const char *summary;
    const char *help;
    int (*run)(const struct cli_command *cmd, int argc, char **argv);
} cli_command;

int cli_play(const cli_command *cmd, int argc, char **argv);
int cli_sim(const cli_command *cmd, int argc, char **argv);
int cli_selfplay(const cli_command *cmd, int argc, char **argv);
int cli_replay(const cli_command *cmd, int argc, char **argv);
int cli_perft(const cli_command *cmd, int argc, char **argv);
int cli_bench(const cli_command *cmd, int argc, char **argv);
int cli_list(const cli_command *cmd, int argc, char **argv);
int cli_soak(const cli_command *cmd, int argc, char **argv);
int cli_serve(const cli_command *cmd, int argc, char **argv);
int cli_admin(const cli_command *cmd, int argc, char **argv);

/* One option of a command.  A flag (takes_value 0) gets the value "1". */
typedef struct cli_option {
    const char *name; /* "--players" */
    int takes_value;
    const char **value;
} cli_option;

/* Parse argv[1..] (argv[0] is the command name) into the options and at
** most max_positional positional arguments.  Handles --help.  Returns
** CLI_CONTINUE, or the exit code after printing help (0) or an error (2). */
int cli_parse(const cli_command *cmd, int argc, char **argv,
              const cli_option *options, int noptions,
              const char **positional, int max_positional);
void cli_print_help(const cli_command *cmd, FILE *out);

/* Numbers from option values; on error print "--what: ..." and return 2. */
int cli_uint64(const char *text, const char *what, uint64_t *out);
int cli_int(const char *text, const char *what, int min, int max, int *out);

/* Split "human,greedy" into at most TAFEL_MAX_PLAYERS names (pointers into
** storage).  Returns the count, or prints an error and returns -1. */
#define CLI_NAME_MAX 256 /* room for an ext:COMMAND */
int cli_split_players(const char *list, char storage[][CLI_NAME_MAX],
                      const char **names);

/* Load a game; when nplayers > 0 it sets players= unless the string gives
** it, and must agree if it does.  Prints the error; returns 0 or 2. */
int cli_load_game(const char *text, int nplayers, tafel_game **out);

/* Seat colour ("Red") and a distinct, well-mixed seed for item i of seed. */
const char *cli_seat_name(int seat);
/* text escaped for the terminal (tafel_quote), cut at 200 bytes, in one of
** eight rotating buffers: for the arguments of one printf (five names). */
const char *cli_printable(const char *text);
uint64_t cli_mix(uint64_t seed, uint64_t i);
double cli_now(void);

/* Choose the next action for seat, tafel_state_current's answer (the
** caller's loop has just asked it): chance sampled with *rng; a seat's
** action from bots[seat], or uniformly with *rng when bots (or bots[seat])
** is NULL.  actions is scratch of cap entries.  The state is not changed. */
int cli_choose(const tafel_state *state, int seat, tafel_bot **bots, uint64_t *rng,
               tafel_action *actions, int cap, tafel_action *out,
               tafel_error *err);

/* An external bot's spec ("ext:COMMAND,ms=N") must be well formed and its
** program must start and say hello, so that a typing error stops the
** command at once rather than forfeit every game.  Prints what is wrong;
** 0 or 2. */
int cli_check_program(const char *spec, const tafel_game *game);

/* Write the record's JSON and a newline to path; prints errors.  0 or 1. */
int cli_write_record(const tafel_record *record, const char *path);

/* The winners (written to out; their number) of a game that ended in state,
** where seat forfeit (-1: none) lost by forfeit: without one, the engine's
** winners; with one, where play stopped at the forfeit, all the other
** seats; where it went on to the end (a server table of three or more
** took the seat's turns by the rules), the best scores among the others. */
int cli_winners(const tafel_state *state, int forfeit, int *out);
/* The result a record carries ("scores", "winners": tafel sim --out)
** against state, its replay to the end, with forfeit the record's forfeit
** seat or -1: 0 when it has none or they agree, else 1 and why. */
int cli_check_result(const tafel_record *record, const tafel_state *state, int forfeit,
                     char *why, size_t size);

/* The end of a game: scores by category per seat, totals, and winners
** (cli_winners: forfeit is the seat that forfeited, or -1). */
void cli_print_result(const tafel_state *state, const char *const *names, int forfeit);

/* A progress bar on stderr, drawn only when stderr is a terminal, and
** after it note (such as "LLR 1.20") unless note is NULL. */
void cli_progress(long done, long total, double started, const char *note);
void cli_progress_done(void);

#endif
