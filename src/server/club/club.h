/*
** club.h -- the store the club's modules (players.c, ratings.c) read and
** write through.
**
** On the loop it is the loop's own connection (club_start).  On
** PostgreSQL a club call must not wait on the loop (issue 36), so the
** tables layer runs it on a thread of the store's pool (tables_later),
** and that thread lends the club its own connection for the call
** (club_lend): the club's code is the same on both, and a call made on a
** pool thread touches nothing of the loop's.
*/
#ifndef TF_SERVER_CLUB_H
#define TF_SERVER_CLUB_H

#include "store.h"

/* The loop's store (serve.c, at start-up). */
void club_start(store *db);
/* The calling thread's store for the club's calls from now on (a pool
** thread's connection), or NULL: the loop's again. */
void club_lend(store *db);
/* The store the calling thread's club calls use (NULL before club_start). */
store *club_store(void);

#endif
