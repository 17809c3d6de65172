/*
** syncer.c -- --durable without syncing on the event loop (server.h).
*/
#include "server.h"

uint64_t syncer_committed(void) { return 0; }
uint64_t syncer_synced(void) { return 0; }
