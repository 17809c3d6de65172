/*
** rerate.h -- voiding a player's rated results and rating their games
** again without them: `tafel admin void` (docs/club.md, "tafel admin"),
** the remedy for rating farming.
**
** Every rated table the player sat at (of one game, or of all) has all its
** results marked voided -- the whole table, every seat's.  Each game
** touched is then rated again from scratch: every player of it starts as
** new, and the remaining rated tables are replayed oldest first (results.at,
** then the table's rowid) with the server's own rule (glicko2_rate_places,
** as ratings.c rates a finished table); each result's ratings before and
** after, and each player's rating and count of games, are written again.
** One transaction on the server's database, so a running server, whose
** tables ending meanwhile rate in theirs, reads the ratings before or after
** it, never half of it.
*/
#ifndef TF_SERVER_RERATE_H
#define TF_SERVER_RERATE_H

#include "store.h"

#include <stdint.h>
#include <stdio.h>

/* Voids the rated results of the tables player sat at (of game only, or
** of every game when game is NULL) and rates the games touched again.
** What was done is printed to out: a line per table voided, a line per
** player whose rating changed.  The number of tables voided (0: nothing
** to void, nothing changed), or -1 with err (nothing changed). */
int rerate_void_player(store *db, int64_t player, const char *game, FILE *out, char *err,
                       size_t errsize);

#endif
