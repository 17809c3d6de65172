/*
** owner.h -- inside the store only: the epochs a node holds, shared by the
** handles of this process that act for it (store.h, "several nodes").
**
** A registry entry is one node on one database.  The database names the
** table's owner and epoch; the entry is this process's memory of which
** epochs its node claimed, so that a write on any of its handles (the
** loop's, the pool's threads') is fenced on the epoch a claim on another
** handle recorded.  Thread-safe: every function may be called from any
** thread.  Nothing outside src/server/store/ includes this header.
*/
#ifndef TF_SERVER_STORE_OWNER_H
#define TF_SERVER_STORE_OWNER_H

#include "store.h"

typedef struct store_owner store_owner;

/* The entry of node on database (a backend's name for the database it is
** connected to), made on first use and shared after: one more reference.
** NULL when memory runs out. */
store_owner *owner_attach(const char *database, const char *node);
/* One reference fewer; the last one frees the entry.  NULL is fine. */
void owner_detach(store_owner *o);
const char *owner_node(const store_owner *o);
/* The epoch the node holds table id at, 0 none. */
int64_t owner_epoch(store_owner *o, const char *id);
/* The node holds table id at epoch (> 0) now: 0, or -1 out of memory. */
int owner_hold(store_owner *o, const char *id, int64_t epoch);
/* The node no longer holds table id, when it holds it at epoch (0: at any
** epoch): a claim on another handle since then is kept. */
void owner_forget(store_owner *o, const char *id, int64_t epoch);

/* The backends' sides (pg_owner.c, sqlite_owner.c): the name of the
** database db is connected to, into out. */
void pg_database_name(store *db, char *out, size_t size);
void lite_database_name(store *db, char *out, size_t size);

int pg_lease_renew(store *db, const char *addr, double seconds, char *err, size_t errsize);
int pg_leases_read(store *db, store_lease *out, int cap, char *err, size_t errsize);
int pg_claim(store *db, const char *id, store_claim_answer *out, char *err, size_t errsize);
int pg_hand_over(store *db, const char *id, const char *to, char *err, size_t errsize);
int pg_claim_orphans(store *db, int cap, store_claimed *out, char *err, size_t errsize);
int lite_claim(store *db, const char *id, store_claim_answer *out, char *err, size_t errsize);

/* The fence of a write on PostgreSQL (pg_owner.c), for pg_tables.c,
** pg_chat.c and pg_ratings.c.  A handle acting for no node passes every
** fence without a query. */

/* Before the write's transaction: STORE_MOVED (err set) when db's node
** holds no epoch of table id, else 0 with *epoch (0: db acts for none). */
int pg_fence_held(store *db, const char *id, const char *context, int64_t *epoch, char *err,
                  size_t errsize);
/* Inside the transaction, the table's row locked and its owner (NULL:
** none) and owner_epoch (stored_epoch) read: 0 when they are db's node at epoch (or db
** acts for none); else STORE_MOVED with err, and the node forgets the
** table. */
int pg_fence_check(store *db, const char *id, const char *owner, int64_t stored_epoch,
                   int64_t epoch, const char *context, char *err, size_t errsize);
/* Both, for a write that reads no row of its own: inside the caller's
** transaction, locks the table's row (share: FOR SHARE, which a claim
** waits for too; else FOR UPDATE) and checks it.  0, STORE_MOVED, or -1. */
int pg_fence_lock(store *db, const char *id, int share, const char *context, char *err,
                  size_t errsize);

#endif
