/*
** notify.h -- what one node tells the others (issue 36): PostgreSQL's
** LISTEN/NOTIFY, batched, on a connection and a thread of its own.
**
** The lobby, "my games", turn notices and ratings are read from the store,
** so any node can serve them; what a node cannot see is that another one
** changed them.  A node says so in a few words ("table 3f9c... changed",
** "player 12's turn at 3f9c...") on a channel; every other node listening
** hears it within about 100 ms and refreshes.
**
** Never inside a change's transaction: a NOTIFY there makes every commit
** flush alone (stack-turn4.md §3: throughput ÷4-6).  So what the loop sends
** is queued; the notifier's thread sends the queue every NOTIFY_BATCH_MS
** as one transaction per channel on its own connection, with
** synchronous_commit off (a lost notification costs a refresh, not a
** move), payloads joined by newlines, repeats in one batch sent once.
** Notifications are not stored: after the connection was lost and made
** again, the receiver is told (channel "") that it may have missed some
** and must read afresh; a batch too large to send (a flood) is sent as
** "*" on every channel: everything changed.  A node does not hear its own
** notifications.
**
** On SQLite there is one node: store_notify_start starts nothing, sends go
** nowhere and nothing is received.
*/
#ifndef TF_SERVER_STORE_NOTIFY_H
#define TF_SERVER_STORE_NOTIFY_H

#include <stddef.h>

#define NOTIFY_BATCH_MS 100
#define NOTIFY_PAYLOAD_MAX 7900 /* PostgreSQL takes payloads under 8000 bytes */
#define NOTIFY_CHANNELS_MAX 8

typedef struct store_notifier store_notifier;

/* What the loop is given, per notification heard (payload: one line). */
typedef void store_notify_fn(const char *channel, const char *payload, void *ctx);

/* A notifier for the database at path, listening on channels (at most
** NOTIFY_CHANNELS_MAX names of lowercase letters and '_'); wake is called
** from its thread when something was heard.  On SQLite *out is NULL and
** nothing starts.  0, or -1 with err set (PostgreSQL refused). */
int store_notify_start(const char *path, const char *const *channels, int nchannels,
                       void (*wake)(void), store_notifier **out, char *err, size_t errsize);

/* Queues payload (one line, no newline, under NOTIFY_PAYLOAD_MAX bytes) on
** channel, for the next batch; NULL n: nothing. */
void store_notify_send(store_notifier *n, const char *channel, const char *payload);

/* On the loop: calls fn for every notification heard since the last call,
** in the order heard.  Returns how many. */
int store_notify_receive(store_notifier *n, store_notify_fn *fn, void *ctx);

/* Sends what is queued, ends the thread and the connection; NULL is fine. */
void store_notify_stop(store_notifier *n);

#endif
