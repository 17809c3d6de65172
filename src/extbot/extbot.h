/*
** extbot.h -- a bot in another program, in any language, spoken to in JSON
** lines over its standard input and output (docs/protocol.md, "Bots in any
** language").
**
** A spec "ext:COMMAND" or "ext:COMMAND,ms=N" names one: COMMAND runs under
** /bin/sh, and N is the time it has for each move, in milliseconds.  The
** controller (the command line, the server) owns the game and every chance
** event; the program sees its own seat's view, the legal actions and what
** its seat saw happen, and answers with an action.
**
** Whatever the program does cannot crash or stall the controller: a
** program that exits, answers garbage or an illegal action, or is silent
** past its time forfeits the game, with the reason; it is then killed (its
** whole process group), and the next game starts a fresh one.  Writes never
** block: what the program does not read waits in a buffer, and a program
** that reads nothing for a whole move forfeits by time.
**
** One extbot is used by one thread at a time.  It sees tafel only through
** tafel.h.
*/
#ifndef TF_EXTBOT_H
#define TF_EXTBOT_H

#include "tafel.h"

#include <stddef.h>
#include <stdint.h>

#define EXTBOT_PROTOCOL 1
#define EXTBOT_PREFIX "ext:"
/* Time for a move when the spec gives none, and for the program to start
** and say hello. */
#define EXTBOT_DEFAULT_MS 10000
#define EXTBOT_HELLO_MS 10000
/* Room for a reason: what the program did wrong, quoted. */
#define EXTBOT_REASON_MAX 256

typedef struct extbot extbot;

/* 1 when spec names an external bot ("ext:..."). */
int extbot_is_spec(const char *spec);

/* An external bot of spec; no program runs until the first game.  Errors
** (no command, a bad ms=) are written to why; NULL then. */
extbot *extbot_new(const char *spec, char *why, size_t size);
/* Say goodbye ("quit"), give the program a moment to exit, then kill it. */
void extbot_free(extbot *bot);

/* Start (or reuse) the program and tell it a game begins: game, seat,
** seed for its own random choices.  0, or -1 when the program fails to
** start or to greet (reason filled): the seat forfeits the game. */
int extbot_new_game(extbot *bot, const tafel_game *game, int seat,
                    uint64_t seed, char *reason, size_t size);

/* The program's action for its seat, which must be the one to move in
** state.  0, or -1 with the reason it forfeits (the program is killed). */
int extbot_choose(extbot *bot, const tafel_state *state, tafel_action *out,
                  char *reason, size_t size);

/* Tell the program what its seat saw: action, about to be played in state
** (by a seat or chance), in the seat's view ("deal 1 ?").  Buffered: never
** waits. */
void extbot_seen(extbot *bot, const tafel_state *state, tafel_action action);

/* The game ended in state, won by winners (the controller's word: after a
** forfeit, the rules' winners are not the game's); forfeit_seat >= 0 when
** that seat lost by forfeit, for reason. */
void extbot_game_over(extbot *bot, const tafel_state *state, const int *winners,
                      int nwinners, int forfeit_seat, const char *reason);

/* The name the program gave in its hello ("example 1.0"), or its spec
** before it has spoken. */
const char *extbot_name(const extbot *bot);

/* The process id of the running program, 0 when none (for tests). */
long extbot_pid(const extbot *bot);

/* A server that stops: every wait on a program, in any thread (a hello
** included), ends at once as failed with "interrupted", and so does every
** later one until extbot_resume.  Safe from any thread. */
void extbot_interrupt(void);
void extbot_resume(void);
int extbot_interrupted(void);

#endif
