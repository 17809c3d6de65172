/*
** clocks.h -- a table's clock, chosen when the table is made.
**
**   none            nobody is timed
**   real time       "M+S": M minutes for each player's whole game, S seconds
**                   added after each of their moves (M may be a fraction:
**                   "0.5+2"); it runs while the seat is to move
**   correspondence  "Nd" (or Nh, Nm, Ns): at most that long for each move;
**                   the others may claim the game of a player who let it pass
**
** The clock's text is stored with the table (tables.clock) and sent in
** every state (docs/protocol.md, "clock").
*/
#ifndef TF_SERVER_CLOCKS_H
#define TF_SERVER_CLOCKS_H

#include <stddef.h>
#include <stdint.h>

/* TABLE_: <time.h> has a CLOCK_REALTIME of its own (clock_gettime's). */
typedef enum clock_kind {
    TABLE_CLOCK_NONE = 0,
    TABLE_CLOCK_REALTIME,
    TABLE_CLOCK_CORRESPONDENCE
} clock_kind;

typedef struct table_clock {
    clock_kind kind;
    int64_t base_ms;      /* real time: each player's time for the game */
    int64_t increment_ms; /* real time: added after each of the player's moves */
    int64_t per_move_ms;  /* correspondence: the most one move may take */
} table_clock;

/* Reads a clock's text (NULL, "" and "none": none); 0, or -1 with why. */
int clock_parse(const char *text, table_clock *out, char *why, size_t whysize);
/* The clock as text ("" for none), as clock_parse reads it back. */
void clock_text(const table_clock *c, char *out, size_t size);

/* ---- the clocks of the tables (clocks.c) --------------------------------
**
** A clock runs for the human seat to move (a bot's time is not counted),
** from the moment the change that made it that seat's turn was applied.
** Real time: each change charges the running seat the time since the
** previous one, and a seat that hands the turn on after its own action
** gets the increment.  Correspondence: the seat to move has per_move_ms
** from the start of its turn (turn_since); the others may then claim.
** After every change of a clocked table the clocks are stored: with a
** move in its own transaction (clocks_next), after other changes on their
** own (table_store_clocks, committed after the change).  After a restart a
** real-time clock resumes with what it had at the table's last change (the
** time the server was down does not count); a correspondence deadline is a
** date and stays.
**
** The tables with a clock that are not over are on a list, which
** clocks_tick looks at once a second: a real-time seat whose time is gone
** loses (two players) or is taken by the table's bot (three or more). */
struct table;
struct tafel_state;
struct store_clocks;
struct cJSON;

/* Unix milliseconds. */
int64_t clocks_now_ms(void);
/* The table was made or rebuilt from the database (restored: real time
** resumes now).  It is listed when it has a clock and is not over. */
void clocks_started(struct table *t, int restored);
/* The table is freed: off the list. */
void clocks_forget(struct table *t);
/* Before a move is stored: the clocks as they will be after it (after
** to play, over or not, the n seats that acted), into out, to be stored
** with it in one transaction (store_append): 1, or 0 when they stay as
** stored (out is then not needed). */
int clocks_next(const struct table *t, const struct tafel_state *after, int over,
                const int *seats, int n, struct store_clocks *out);
/* The move was stored with those clocks: clocks_changed applies them. */
void clocks_stored(struct table *t, const struct store_clocks *clocks);
/* After each change (from table_changed; nothing when seq is unchanged):
** the clocks settled (as stored with the change, or settled now and
** stored on their own), and a player whose turn it became told on their
** other sockets (turns.c). */
void clocks_changed(struct table *t);
/* The seat whose turn the clocks count (-1: none). */
int clocks_turn_seat(const struct table *t);
/* A seat's milliseconds left at now: real time its clock, correspondence
** the time to its deadline while it is to move (else -1); -1 no clock. */
int64_t clocks_left_ms(const struct table *t, int seat, int64_t now);
/* Whether seat is to move at a real-time table with no time left. */
int clocks_flagged(const struct table *t, int seat, int64_t now);
/* The state's "clock" object (docs/protocol.md), or NULL without a clock. */
struct cJSON *clocks_json(const struct table *t, int64_t now);
/* Once a second (tables_tick): real-time seats out of time lose them. */
void clocks_tick(void);
/* What clocks_changed calls when a change made it another seat's turn
** (the protocol's turn notice: turns_notify); at start-up.  NULL: nobody. */
void clocks_on_turn(void (*told)(const struct table *t, int seat));

#endif
