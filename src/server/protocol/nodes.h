/*
** nodes.h -- protocol: what this node tells the other nodes on its
** PostgreSQL database, and what it hears from them (issue 36).
**
** The lobby, "my games", profiles and ratings are read from the store, so
** any node serves them; what a node cannot see is that another one changed
** them, as each caches its lobby and the seats' ratings and tells its own
** sockets only.  So a change applied here (after its commit) is said, in a
** line, on a channel of the store's notifier (notify.h: batched every
** 100 ms on a connection of its own, never in the change's transaction):
**
**   tafel_lobby    TABLE                a table was made, changed, or ended
**   tafel_turn     PLAYER TABLE GAME    it became PLAYER's turn at TABLE
**   tafel_ratings  PLAYER               a game's end changed PLAYER's rating
**   tafel_handover ask TABLE NODE OWNER NODE's clients reach TABLE: OWNER hands it over
**                  given TABLE NODE     TABLE was handed to NODE: load it
**                  home NODE            NODE is back: hand back its tables
**   tafel_invited  PLAYER MESSAGE       PLAYER was invited: MESSAGE, the `invited`
**                                       JSON, for its sockets there
**
** Heard from another node: the lobby's list is read again at its next ask
** (lobby_stale), PLAYER's sockets here are sent `turn` (turns_elsewhere),
** the seats' ratings shown are read again (ratings_stale).  Heard "" (the
** notifier's connection was lost, so lines may have been missed) or "*" (a
** node had too much to say): the lobby and the ratings are read afresh; a
** missed turn notice is lost ("my games" still shows it).
**
** On SQLite there is one node and no notifier: nothing is sent or heard.
*/
#ifndef TF_SERVER_NODES_H
#define TF_SERVER_NODES_H

#include <stdint.h>

struct table;
struct store_notifier;

/* The channels, for store_notify_start (serve.c). */
#define NODES_CHANNELS 5
extern const char *const nodes_channels[NODES_CHANNELS];

/* The notifier serve.c started (NULL on SQLite); nodes.c owns it from now
** on and stops it in nodes_stop. */
void nodes_start(struct store_notifier *n, const char *node);
/* Sends what is queued and stops the notifier (the server stops). */
void nodes_stop(void);

/* Told here (serve.c chains them after this node's own callbacks): t
** changed, after its commit (tables_events.changed); it became seat's
** turn at t (clocks_on_turn); a table's result changed these players'
** ratings (ratings_on_rated). */
void nodes_table_changed(const struct table *t);
void nodes_turn(const struct table *t, int seat);
void nodes_rated(const int64_t *players, int n);
/* Several nodes (tables.h, tables_give): a client here asked for table id,
** which live node owner has (tables_events.ask); id was handed
** over to node to (tables_events.given); this node started a while ago
** (tables_events.home). */
void nodes_ask(const char *id, const char *owner);
/* seat's player was invited to t (turns_invited, here). */
void nodes_invited(const struct table *t, int seat);
void nodes_given(const char *id, const char *to);
void nodes_home(const char *node);

/* On the loop, woken by the notifier: what other nodes said, applied.
** How many lines. */
int nodes_heard(void);

#endif
