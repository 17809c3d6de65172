/*
** manners.c -- what a bot at a table leaves out: requests already spent.
**
** A request (tafel.h: tafel_state_action_request; in the Catan card game an
** offer) puts a question to another player.  The game says which of its
** legal actions are requests and which of them a seat with manners would
** not make now (one made this turn already, or one declined before); every
** built-in bot drops those from the actions it chooses among at its own
** decision, and only there: what a search imagines other seats doing, and
** what a person may do, stays the whole of the rules.  A list of nothing but
** spent requests is kept whole, so a bot always has a legal answer.
*/
#include "bot.h"

int bot_leave_out_spent(const tafel_state *state, tafel_action *actions, int n) {
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (tafel_state_action_request(state, actions[i]) != TAFEL_REQUEST_SPENT)
            actions[kept++] = actions[i];
    return kept ? kept : n;
}
