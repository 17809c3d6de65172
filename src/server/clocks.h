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

typedef enum clock_kind { CLOCK_NONE = 0, CLOCK_REALTIME, CLOCK_CORRESPONDENCE } clock_kind;

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

#endif
