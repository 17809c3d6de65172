/*
** club.c -- the store the club's calls use (club.h): the loop's, or the
** one a pool thread lends while it runs a club call for the loop.
*/
#include "club.h"

static store *loop_db;
static _Thread_local store *lent;

void club_start(store *db) { loop_db = db; }

void club_lend(store *db) { lent = db; }

store *club_store(void) { return lent ? lent : loop_db; }
