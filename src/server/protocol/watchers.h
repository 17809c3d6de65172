/*
** watchers.h -- protocol: the sockets watching each table, and what they
** are sent when it changes (watchers.c).
**
** The tables layer never names a socket: it counts a table's watchers and
** the sockets at each seat (table_watch, table_unwatch), and tells what
** happened through the callbacks serve.c gives tables_open (tables.h,
** tables_events), which are the functions below.
*/
#ifndef TF_SERVER_WATCHERS_H
#define TF_SERVER_WATCHERS_H

#include <stdint.h>

#include "session.h"

struct table;
struct bot_job;

/* The sockets watching t, seated or not: *n of them (NULL, 0 for none).
** Valid until one attaches or detaches. */
session **watchers_of(const struct table *t, int *n);
/* s watches t from now on, in seat s->seat (-1: a spectator); its first
** state there is a whole one (s->told -1).  -1 out of memory: it does not. */
int watchers_attach(struct table *t, session *s);
/* s no longer watches its table (s->table NULL after). */
void watchers_detach(session *s);
/* The first action (0-based) whose account socket s is sent in its next
** state: the actions since its latest state message, which all lie in the
** latest change, as every change is sent.  t->nactions (none) for its
** first state at the table, after an undo, and when nothing was played. */
int watchers_events_from(const struct table *t, const session *s);
/* The history message of t for seat (-1 spectator), built once per change
** and viewer and kept while the table has watchers -- unless the budget
** for kept histories is spent: then it is *uncached too, which the caller
** frees.  NULL out of memory. */
const char *watchers_history(struct table *t, int seat, char **uncached);

/* tables_events (tables.h), wired by serve.c: */
/* t changed: every socket watching it is sent its state, one message per
** viewer and first account. */
void watchers_changed(struct table *t);
/* seat of t is its watchers' no more (given_up: they gave it away; else
** player keep claimed it, and keep's own sockets stay): they watch as
** spectators.  How many left the seat. */
int watchers_unseated(struct table *t, int seat, int64_t keep, int given_up);
/* A hint is ready: the socket that asked for it, if it still watches the
** table, is sent it. */
void watchers_hint(struct table *t, const struct bot_job *job);

#endif
