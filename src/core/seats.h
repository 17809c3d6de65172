/*
** seats.h -- how seats look in every game's rendering (internal).
**
** Seat names and colours are the command line's too (cli_seat_name), so a
** player is "Red" on every board and in every message.
*/
#ifndef TF_SEATS_H
#define TF_SEATS_H

#include "tafel.h"

extern const char *const tf_seat_names[TAFEL_MAX_PLAYERS];   /* "Red" ... */
extern const char tf_seat_letters[TAFEL_MAX_PLAYERS];        /* 'R' ... */
extern const char *const tf_seat_bg[TAFEL_MAX_PLAYERS];      /* ANSI 256 background */

#endif
