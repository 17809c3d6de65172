/*
** rematch.h -- a rematch (docs/protocol.md, "rematch"): the same game,
** options and players at a new table, the seats turned by one (seat i's
** player sits at seat (i + 1) mod n, so another seat moves first), a deal
** the server chooses.  One player offers it; the table is made when every
** person of the old table accepted; anyone of them may decline (the asker:
** withdraw), which ends the offer.  Asked again once made, by anyone of
** the old table, it is the same table.
*/
#ifndef TF_SERVER_REMATCH_H
#define TF_SERVER_REMATCH_H

#include "session.h"

/* Remembered seat tokens of the latest rematches (in memory only: after a
** restart a bound player follows without a token, by its name). */
#define REMATCH_KEPT 256

/* Socket s offers (or accepts the offer of) the rematch of its finished
** table, or, decline set, declines or withdraws the open offer. */
void rematch_request(session *s, int decline);
/* The open offer of table t as a state's "rematch_offer" (into the JSON
** object msg); nothing when none is open. */
struct cJSON;
void rematch_offer_json(const struct table *t, struct cJSON *msg);
/* Socket s, of old seat seat (rematch_seat before it left), has left table
** t: the offer ends when it was the asker's last socket there. */
void rematch_left(struct table *t, int seat);
/* The seat of the old table t that socket s asks or answers for: its seat,
** the one its player is bound to, or the one it gave up; -1 none. */
int rematch_seat(const struct table *t, const session *s);

#endif
