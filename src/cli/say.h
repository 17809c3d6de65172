/*
** say.h -- the terminal picture in the words of a catalog.
**
** tafel_state_render with TAFEL_RENDER_WORDS gives the picture's words as
** events (\x1e{"kind":...}\x1f, tafel.h); each is said here by the template
** <game>.view.<kind>, and a "pad" field pads the said words to a column's
** width in characters.  What is not a well-formed event is printed as it
** is: a picture is never lost to a bad byte.
*/
#ifndef TF_CLI_SAY_H
#define TF_CLI_SAY_H

#include "catalog.h"
#include "tafel.h"

/* picture with its events said from catalog for game (the game's name,
** "carcassonne").  malloc'd; NULL when memory ran out. */
char *cli_say_picture(const cli_catalog *catalog, const char *game, const char *picture);

/* The picture of state as seat sees it (tafel_state_render with flags),
** its words said from catalog; without a catalog, in English.  malloc'd;
** NULL when memory ran out. */
char *cli_picture(const tafel_state *state, int seat, int flags, const cli_catalog *catalog,
                  const char *game);

#endif
