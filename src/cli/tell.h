/*
** tell.h -- telling actions at the terminal: the engine's account of each
** action (tafel_state_describe) in the words of a catalog, for `tafel play`
** and `tafel replay --step`.
**
** Chance events in a row are folded: a sentence that repeats is said once
** with its count, and the run is one paragraph (a shuffle dealt card by
** card would otherwise fill the screen).  With notation on, each action's
** text in the game's notation comes first, in brackets.
*/
#ifndef TF_CLI_TELL_H
#define TF_CLI_TELL_H

#include "catalog.h"
#include "tafel.h"

typedef struct cli_teller {
    cli_catalog *catalog;
    int seat;      /* whose account: a seat, or -1 for a spectator */
    int notation;  /* show the notation too */
    char *run;     /* the chance paragraph not printed yet */
    size_t run_len, run_cap;
    char *last;    /* its last sentence, and how often in a row */
    int repeats;
} cli_teller;

/* The account of a, about to be played in state, as seat sees it, parsed
** (tafel_state_describe); NULL when it cannot be had, said on stderr after
** who ("tafel replay"). */
cJSON *cli_account(const tafel_state *state, tafel_action a, int seat, const char *who);
/* The account's sentences joined by blanks (malloc'd; "" when there are
** none, NULL when memory ran out). */
char *cli_account_words(cli_catalog *catalog, const tafel_state *state, tafel_action a,
                        int seat);

void cli_teller_init(cli_teller *t, cli_catalog *catalog, int seat, int notation);
void cli_teller_free(cli_teller *t);
/* Tell action a, about to be played in state; prefix (may be "") begins
** the line of a seat's action ("12. ").  1 when it cannot be described. */
int cli_tell(cli_teller *t, const tafel_state *state, tafel_action a, const char *prefix);
/* Print the chance paragraph pending, if any. */
void cli_tell_flush(cli_teller *t);

#endif
