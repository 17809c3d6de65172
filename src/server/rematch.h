/*
** rematch.h -- a rematch (docs/protocol.md, "rematch"): the same game,
** options and players at a new table, the seats turned by one (seat i's
** player sits at seat (i + 1) mod n, so another seat moves first), a deal
** the server chooses.  Asked again, by anyone of the old table, it is the
** same table.
*/
#ifndef TF_SERVER_REMATCH_H
#define TF_SERVER_REMATCH_H

#include "server.h"

/* Remembered seat tokens of the latest rematches (in memory only: after a
** restart a bound player follows without a token, by its name). */
#define REMATCH_KEPT 256

/* Socket s asks for the rematch of its finished table. */
void rematch_request(session *s);

#endif
