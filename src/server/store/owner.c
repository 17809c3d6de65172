/*
** owner.c -- a node's tables: which node a handle acts for, the epochs the
** node holds (owner.h), and the door of store.h's calls about nodes
** (leases, claims, hand-overs), dispatched to pg_owner.c or sqlite_owner.c.
**
** The registry is the one piece of state the store keeps outside a handle,
** on purpose: the epochs a node holds belong to the node, not to one
** connection, and the server's handles (the loop's, each pool thread's) must
** agree on them without knowing of each other.  So it is a list of entries,
** one per (database, node), found by name under one mutex and referenced by
** the handles acting for it; an entry's epochs have a mutex of their own,
** held only to read or change them, never across a call to the database.
** An entry's epochs are a sorted array of (id, epoch): a node holds a few
** thousand tables at most, and a write looks its table up once.
*/
#include "owner.h"

#include "backend.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OWNER_DATABASE_MAX 512

typedef struct held {
    char id[STORE_ID_LEN + 1];
    int64_t epoch;
} held;

struct store_owner {
    char database[OWNER_DATABASE_MAX];
    char node[STORE_NODE_MAX + 1];
    int refs;        /* under registry_lock */
    pthread_mutex_t lock; /* the epochs */
    held *tables;    /* by id */
    int n, cap;
    store_owner *next;
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static store_owner *registry;

store_owner *owner_attach(const char *database, const char *node) {
    pthread_mutex_lock(&registry_lock);
    store_owner *o = registry;
    while (o && (strcmp(o->database, database) || strcmp(o->node, node))) o = o->next;
    if (!o && (o = calloc(1, sizeof *o))) {
        snprintf(o->database, sizeof o->database, "%s", database);
        snprintf(o->node, sizeof o->node, "%s", node);
        pthread_mutex_init(&o->lock, NULL);
        o->next = registry;
        registry = o;
    }
    if (o) o->refs++;
    pthread_mutex_unlock(&registry_lock);
    return o;
}

void owner_detach(store_owner *o) {
    if (!o) return;
    pthread_mutex_lock(&registry_lock);
    int last = --o->refs == 0;
    if (last)
        for (store_owner **at = &registry; *at; at = &(*at)->next)
            if (*at == o) {
                *at = o->next;
                break;
            }
    pthread_mutex_unlock(&registry_lock);
    if (!last) return;
    pthread_mutex_destroy(&o->lock);
    free(o->tables);
    free(o);
}

const char *owner_node(const store_owner *o) { return o ? o->node : NULL; }

/* Where id is, or would go, in o's sorted array (o locked). */
static int owner_find(const store_owner *o, const char *id, int *found) {
    int lo = 0, hi = o->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        int c = strncmp(o->tables[mid].id, id, STORE_ID_LEN);
        if (c == 0) {
            *found = 1;
            return mid;
        }
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    *found = 0;
    return lo;
}

int64_t owner_epoch(store_owner *o, const char *id) {
    if (!o || !id) return 0;
    pthread_mutex_lock(&o->lock);
    int found;
    int at = owner_find(o, id, &found);
    int64_t epoch = found ? o->tables[at].epoch : 0;
    pthread_mutex_unlock(&o->lock);
    return epoch;
}

int owner_hold(store_owner *o, const char *id, int64_t epoch) {
    if (!o || !id || epoch <= 0) return -1;
    pthread_mutex_lock(&o->lock);
    int found, rc = 0;
    int at = owner_find(o, id, &found);
    if (found) {
        o->tables[at].epoch = epoch;
    } else if (o->n == o->cap && o->cap > (int)(1 << 24)) {
        rc = -1;
    } else {
        if (o->n == o->cap) {
            int cap = o->cap ? o->cap * 2 : 64;
            held *grown = realloc(o->tables, sizeof *grown * (size_t)cap);
            if (grown) o->tables = grown, o->cap = cap;
        }
        if (o->n < o->cap) {
            memmove(&o->tables[at + 1], &o->tables[at], sizeof *o->tables * (size_t)(o->n - at));
            snprintf(o->tables[at].id, sizeof o->tables[at].id, "%.*s", STORE_ID_LEN, id);
            o->tables[at].epoch = epoch;
            o->n++;
        } else {
            rc = -1;
        }
    }
    pthread_mutex_unlock(&o->lock);
    return rc;
}

void owner_forget(store_owner *o, const char *id, int64_t epoch) {
    if (!o || !id) return;
    pthread_mutex_lock(&o->lock);
    int found;
    int at = owner_find(o, id, &found);
    if (found && (epoch == 0 || o->tables[at].epoch == epoch)) {
        memmove(&o->tables[at], &o->tables[at + 1], sizeof *o->tables * (size_t)(o->n - at - 1));
        o->n--;
    }
    pthread_mutex_unlock(&o->lock);
}

/* ---- store.h's calls ------------------------------------------------------ */

#define IS_PG(db) ((db) && (db)->backend == STORE_POSTGRES)

int store_node_name_ok(const char *name) {
    size_t n = name ? strlen(name) : 0;
    return n >= 1 && n <= STORE_NODE_MAX &&
           strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:_") == n;
}

int store_act_as(store *db, const char *node, char *err, size_t errsize) {
    const char *context = "acting for a node";
    if (!db) return store_fail(err, errsize, context, "no database");
    if (node && !store_node_name_ok(node))
        return store_fail(err, errsize, context,
                          "'%.80s' is no node name (1 to %d letters, digits, '.', '-', ':' or "
                          "'_')", node, STORE_NODE_MAX);
    store_owner *o = NULL;
    if (node) {
        char database[OWNER_DATABASE_MAX];
        if (IS_PG(db)) pg_database_name(db, database, sizeof database);
        else lite_database_name(db, database, sizeof database);
        o = owner_attach(database, node);
        if (!o) return store_fail(err, errsize, context, "out of memory");
    }
    owner_detach(db->owner);
    db->owner = o;
    return 0;
}

const char *store_acting_for(const store *db) { return db ? owner_node(db->owner) : NULL; }

int64_t store_held_epoch(const store *db, const char *id) {
    return db ? owner_epoch(db->owner, id) : 0;
}

/* The calls below need a node to act for. */
static int owner_acting(store *db, const char *context, char *err, size_t errsize) {
    if (!db) return store_fail(err, errsize, context, "no database");
    if (!db->owner) return store_fail(err, errsize, context, "the handle acts for no node");
    return 0;
}

int store_lease_renew(store *db, const char *addr, double seconds, char *err, size_t errsize) {
    const char *context = "renewing the lease";
    if (owner_acting(db, context, err, errsize)) return -1;
    if (!addr || strlen(addr) >= STORE_ADDR_MAX)
        return store_fail(err, errsize, context, "no address, or one over %d bytes",
                          STORE_ADDR_MAX - 1);
    if (!(seconds > 0 && seconds <= 86400))
        return store_fail(err, errsize, context, "a lease of %g s (more than 0, at most a day)",
                          seconds);
    return IS_PG(db) ? pg_lease_renew(db, addr, seconds, err, errsize) : 0;
}

int store_leases_read(store *db, store_lease *out, int cap, char *err, size_t errsize) {
    const char *context = "reading the nodes' leases";
    if (!db) return store_fail(err, errsize, context, "no database");
    if (cap < 0 || (cap > 0 && !out))
        return store_fail(err, errsize, context, "no room for the nodes (cap %d)", cap);
    if (IS_PG(db)) return pg_leases_read(db, out, cap, err, errsize);
    if (!db->owner || cap == 0) return 0;
    memset(out, 0, sizeof *out);
    snprintf(out->node, sizeof out->node, "%s", owner_node(db->owner));
    out->alive = 1;
    out->left_ms = INT64_MAX;
    return 1;
}

int store_claim(store *db, const char *id, store_claim_answer *out, char *err, size_t errsize) {
    char context[64];
    store_context(context, sizeof context, "claiming", id);
    if (out) memset(out, 0, sizeof *out);
    if (store_check_call(db, id, context, err, errsize) ||
        owner_acting(db, context, err, errsize))
        return -1;
    if (!out) return store_fail(err, errsize, context, "no result pointer");
    return IS_PG(db) ? pg_claim(db, id, out, err, errsize) : lite_claim(db, id, out, err, errsize);
}

int store_hand_over(store *db, const char *id, const char *to, char *err, size_t errsize) {
    char context[64];
    store_context(context, sizeof context, to ? "handing over" : "releasing", id);
    if (store_check_call(db, id, context, err, errsize) ||
        owner_acting(db, context, err, errsize))
        return -1;
    if (to && !store_node_name_ok(to))
        return store_fail(err, errsize, context, "'%.80s' is no node name", to);
    if (IS_PG(db)) return pg_hand_over(db, id, to, err, errsize);
    if (to && strcmp(to, owner_node(db->owner)))
        return store_fail(err, errsize, context, "a SQLite file has one node (%s), not %s",
                          owner_node(db->owner), to);
    owner_forget(db->owner, id, 0);
    return 0;
}

int store_claim_orphans(store *db, int cap, store_claimed *out, char *err, size_t errsize) {
    const char *context = "claiming the tables of nodes whose lease ran out";
    if (owner_acting(db, context, err, errsize)) return -1;
    if (cap < 0 || (cap > 0 && !out))
        return store_fail(err, errsize, context, "no room for the tables (cap %d)", cap);
    return IS_PG(db) && cap > 0 ? pg_claim_orphans(db, cap, out, err, errsize) : 0;
}
