/*
** pg_owner.c -- several nodes on one PostgreSQL database: leases, claims,
** hand-overs and the fence of every write (store.h, "several nodes";
** shared/notes/stack-turn4.md §4, whose SQL cluster/fence.sh checked).
**
** nodes(node, addr, lease_until) is a node's lease; tables.owner and
** tables.owner_epoch say who plays a table and since which claim, and
** tables.home where it goes back to when that node is up (store.h).  Only
** the database's clock counts (clock_timestamp(), not now(): a statement
** that waited for a lock judges leases at the time it runs).  A claim is
** one UPDATE of the table's row, so it waits for a change in flight on
** that row and then sees its seq; a write locks the row first and checks
** owner and epoch under the lock, so a claim and a write never interleave:
** a write either commits before the claim (which counts it) or finds the
** new owner and writes nothing.  Advisory locks would not do: they belong
** to one connection and carry no token the writes could be checked on.
*/
#include "backend.h"
#include "owner.h"
#include "pg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The lease of node $1 runs now, at the database's clock. */
#define PG_LIVE(node) \
    "EXISTS (SELECT 1 FROM nodes WHERE node = " node " AND lease_until > clock_timestamp())"

void pg_database_name(store *db, char *out, size_t size) {
    PGconn *c = store_pg(db);
    /* one server, one database, one role: what a table's owner column means */
    snprintf(out, size, "postgresql\x1f%s\x1f%s\x1f%s\x1f%s", c ? PQhost(c) : "",
             c ? PQport(c) : "", c ? PQdb(c) : "", c ? PQuser(c) : "");
}

int pg_lease_renew(store *db, const char *addr, double seconds, char *err, size_t errsize) {
    db->pg_again = 1; /* a renewal sent twice renews once */
    PGresult *r = store_pg_exec(
        db, err, errsize, "renewing the lease",
        "INSERT INTO nodes (node, addr, lease_until)"
        " VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3))"
        " ON CONFLICT (node) DO UPDATE SET addr = EXCLUDED.addr,"
        " lease_until = EXCLUDED.lease_until", "ttd", store_acting_for(db), addr, seconds);
    PQclear(r);
    return r ? 0 : -1;
}

int pg_leases_read(store *db, store_lease *out, int cap, char *err, size_t errsize) {
    if (cap == 0) return 0;
    PGresult *r = store_pg_exec(
        db, err, errsize, "reading the nodes' leases",
        "SELECT node, coalesce(addr, ''), coalesce(lease_until > clock_timestamp(), false),"
        " coalesce(floor(extract(epoch FROM lease_until - clock_timestamp()) * 1000), 0)::bigint"
        " FROM nodes ORDER BY node LIMIT $1", "i", (int64_t)cap);
    if (!r) return -1;
    int n = PQntuples(r);
    for (int i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        store_pg_text(r, i, 0, out[i].node, sizeof out[i].node);
        store_pg_text(r, i, 1, out[i].addr, sizeof out[i].addr);
        out[i].alive = (int)store_pg_int(r, i, 2);
        out[i].left_ms = store_pg_int(r, i, 3);
    }
    PQclear(r);
    return n;
}

/* Why a claim by db's node was refused: the owner (1), no such table or
** no live lease of its own (-1). */
static int pg_claim_refused(store *db, const char *id, store_claim_answer *out, const char *context,
                            char *err, size_t errsize) {
    const char *me = store_acting_for(db);
    PGresult *r = store_pg_exec(
        db, err, errsize, context,
        "SELECT coalesce(t.owner, ''), coalesce(n.addr, ''), " PG_LIVE("$2")
        " FROM tables t LEFT JOIN nodes n ON n.node = t.owner WHERE t.id = $1", "tt", id, me);
    if (!r) return -1;
    int rc = 1;
    if (PQntuples(r) == 0) {
        rc = store_fail(err, errsize, context, "no such table");
    } else if (!store_pg_int(r, 0, 2)) {
        rc = store_fail(err, errsize, context,
                        "node %s holds no live lease (it claims nothing until it renews)", me);
    } else {
        store_pg_text(r, 0, 0, out->owner, sizeof out->owner);
        store_pg_text(r, 0, 1, out->addr, sizeof out->addr);
    }
    PQclear(r);
    return rc;
}

int pg_claim(store *db, const char *id, store_claim_answer *out, char *err, size_t errsize) {
    char context[64];
    store_context(context, sizeof context, "claiming", id);
    db->pg_again = 1; /* a claim sent twice claims once more: the later epoch is the one held */
    PGresult *r = store_pg_exec(
        db, err, errsize, context,
        "UPDATE tables t SET owner = $2, owner_epoch = owner_epoch + 1,"
        " home = coalesce(home, owner, $2)"
        " WHERE id = $1 AND " PG_LIVE("$2") " AND (owner IS NULL OR owner = $2 OR NOT EXISTS"
        " (SELECT 1 FROM nodes n WHERE n.node = t.owner AND n.lease_until > clock_timestamp()))"
        " RETURNING owner_epoch, seq, home", "tt", id, store_acting_for(db));
    if (!r) return -1;
    int claimed = PQntuples(r) == 1;
    if (claimed) {
        out->epoch = store_pg_int(r, 0, 0);
        out->seq = store_pg_int(r, 0, 1);
        store_pg_text(r, 0, 2, out->home, sizeof out->home);
    }
    PQclear(r);
    if (!claimed) return pg_claim_refused(db, id, out, context, err, errsize) < 0 ? -1 : 0;
    if (owner_hold(db->owner, id, out->epoch))
        return store_fail(err, errsize, context, "out of memory (the table is claimed)");
    return 1;
}

/* The message of a write refused: the table is another node's now. */
static int pg_moved(store *db, const char *id, const char *owner, int64_t stored_epoch,
                    int64_t epoch, const char *context, char *err, size_t errsize) {
    owner_forget(db->owner, id, epoch);
    char who[STORE_NODE_MAX + 8];
    snprintf(who, sizeof who, "%s%s", owner && owner[0] ? "node " : "nobody",
             owner && owner[0] ? owner : "");
    store_fail(err, errsize, context,
               "the table moved: %s owns it at epoch %lld (node %s held epoch %lld)", who,
               (long long)stored_epoch, store_acting_for(db), (long long)epoch);
    return STORE_MOVED;
}

int pg_hand_over(store *db, const char *id, const char *to, char *err, size_t errsize) {
    char context[64];
    store_context(context, sizeof context, to ? "handing over" : "releasing", id);
    int64_t epoch = 0;
    int rc = pg_fence_held(db, id, context, &epoch, err, errsize);
    if (rc) return rc;
    PGresult *r = store_pg_exec(db, err, errsize, context,
                                "UPDATE tables t SET owner = $3, owner_epoch = owner_epoch + 1,"
                                /* the home moves to the node asked for it only while
                                ** the home lives: else the proxy sends the clients to
                                ** $3 for a while only (docs/server.md, "Home") */
                                " home = CASE WHEN t.home IS NULL OR " PG_LIVE("t.home")
                                " THEN coalesce($3, t.home) ELSE t.home END"
                                " WHERE t.id = $1 AND t.owner = $2 AND t.owner_epoch = $4"
                                " RETURNING t.owner_epoch", "ttti", id, store_acting_for(db), to,
                                epoch);
    if (!r) {
        if (strcmp(store_pg_sqlstate(db), "23503") == 0) /* foreign_key_violation */
            store_fail(err, errsize, context, "node %s has never renewed a lease", to);
        return -1;
    }
    int done = PQntuples(r) == 1;
    int64_t next = done ? store_pg_int(r, 0, 0) : 0;
    PQclear(r);
    if (!done) {
        /* who has it, for the message; the answer stands whatever this says */
        char owner[STORE_NODE_MAX + 1] = "", why[64];
        int64_t stored = 0;
        r = store_pg_exec(db, why, sizeof why, context,
                          "SELECT coalesce(owner, ''), owner_epoch FROM tables WHERE id = $1",
                          "t", id);
        if (r && PQntuples(r) == 1) {
            store_pg_text(r, 0, 0, owner, sizeof owner);
            stored = store_pg_int(r, 0, 1);
        }
        PQclear(r);
        return pg_moved(db, id, owner, stored, epoch, context, err, errsize);
    }
    if (to && strcmp(to, store_acting_for(db)) == 0) /* to itself: a claim */
        return owner_hold(db->owner, id, next)
                   ? store_fail(err, errsize, context, "out of memory (the table is handed over)")
                   : 0;
    owner_forget(db->owner, id, epoch);
    return 0;
}

int pg_claim_orphans(store *db, int cap, store_claimed *out, char *err, size_t errsize) {
    const char *context = "claiming the tables of nodes whose lease ran out";
    const char *me = store_acting_for(db);
    PGresult *r = store_pg_exec(
        db, err, errsize, context,
        "WITH c AS (SELECT t.id, t.owner AS was FROM tables t"
        "  WHERE t.finished = 0 AND t.owner IS DISTINCT FROM $1 AND " PG_LIVE("$1")
        "  AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.node = t.owner"
        "                  AND n.lease_until > clock_timestamp())"
        "  ORDER BY t.rowid LIMIT $2 FOR UPDATE OF t SKIP LOCKED)"
        " UPDATE tables t SET owner = $1, owner_epoch = t.owner_epoch + 1,"
        " home = coalesce(t.home, c.was, $1) FROM c"
        " WHERE t.id = c.id RETURNING t.id, t.owner_epoch, t.seq, coalesce(c.was, ''), t.home",
        "ti", me, (int64_t)cap);
    if (!r) return -1;
    int n = 0, rc = 0;
    for (int i = 0; i < PQntuples(r) && n < cap; i++) {
        if (PQgetlength(r, i, 0) != STORE_ID_LEN) continue; /* the schema's CHECK: never */
        store_claimed *c = &out[n++];
        memset(c, 0, sizeof *c);
        memcpy(c->id, PQgetvalue(r, i, 0), STORE_ID_LEN + 1);
        c->epoch = store_pg_int(r, i, 1);
        c->seq = store_pg_int(r, i, 2);
        store_pg_text(r, i, 3, c->from, sizeof c->from);
        store_pg_text(r, i, 4, c->home, sizeof c->home);
        if (owner_hold(db->owner, c->id, c->epoch)) rc = -1;
    }
    PQclear(r);
    if (rc) return store_fail(err, errsize, context, "out of memory (%d tables claimed)", n);
    if (n > 0) return n;
    /* nothing: say so when it is because this node's own lease ran out */
    r = store_pg_exec(db, err, errsize, context, "SELECT " PG_LIVE("$1"), "t", me);
    int live = r ? (int)store_pg_int(r, 0, 0) : -1;
    PQclear(r);
    if (live < 0) return -1;
    if (!live)
        return store_fail(err, errsize, context,
                          "node %s holds no live lease (it claims nothing until it renews)", me);
    return 0;
}

/* ---- the fence ------------------------------------------------------------ */

int pg_fence_held(store *db, const char *id, const char *context, int64_t *epoch, char *err,
                  size_t errsize) {
    *epoch = 0;
    if (!db->owner) return 0;
    *epoch = owner_epoch(db->owner, id);
    if (*epoch > 0) return 0;
    store_fail(err, errsize, context,
               "the table moved: node %s has not claimed it (it writes only its own tables)",
               store_acting_for(db));
    return STORE_MOVED;
}

int pg_fence_check(store *db, const char *id, const char *owner, int64_t stored_epoch,
                   int64_t epoch, const char *context, char *err, size_t errsize) {
    if (!db->owner) return 0;
    /* the registry again, under the row's lock: a claim on another handle
    ** of this node may have recorded a newer epoch since the write began */
    int64_t now = owner_epoch(db->owner, id);
    if (now > epoch) epoch = now;
    if (owner && strcmp(owner, store_acting_for(db)) == 0 && stored_epoch == epoch) return 0;
    return pg_moved(db, id, owner, stored_epoch, epoch, context, err, errsize);
}

int pg_fence_lock(store *db, const char *id, int share, const char *context, char *err,
                  size_t errsize) {
    int64_t epoch = 0;
    int rc = pg_fence_held(db, id, context, &epoch, err, errsize);
    if (rc || !db->owner) return rc;
    PGresult *r = store_pg_exec(db, err, errsize, context,
                                share ? "SELECT owner, owner_epoch FROM tables WHERE id = $1"
                                        " FOR SHARE"
                                      : "SELECT owner, owner_epoch FROM tables WHERE id = $1"
                                        " FOR UPDATE", "t", id);
    if (!r) return -1;
    int found = PQntuples(r) == 1;
    char owner[STORE_NODE_MAX + 1] = "";
    int64_t stored = 0;
    if (found) {
        store_pg_text(r, 0, 0, owner, sizeof owner);
        stored = store_pg_int(r, 0, 1);
    }
    PQclear(r);
    if (!found) { /* it was claimed, and is gone since: deleted by whoever had it */
        owner_forget(db->owner, id, epoch);
        return store_fail(err, errsize, context, "the table moved: it is deleted"),
               STORE_MOVED;
    }
    return pg_fence_check(db, id, owner, stored, epoch, context, err, errsize);
}
