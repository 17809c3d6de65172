/*
** tables.c -- the tables in memory, and every change made to them.
**
** A change is worked out on a copy of the live state: the request's action
** (checked by the engine) and then the chance events that follow it, drawn
** at once from the table's seed and the action count, so that a replayed
** table draws the same.  Then it is committed to the database in one
** transaction, and only then copied into the live state and broadcast.  A
** failed commit leaves the table as it was.
**
** The commit runs off the loop (issue 36): each kind of change is a job of
** the store's pool (a commit: what it writes, copied, and how it is
** applied), and the table is busy until it is done.  Whatever would change
** a busy table waits in its queue (table_defer) and runs, in order, once
** it is idle; a commit in doubt reads the table again, as a restart does
** (a job too).  What the club reads and writes for a table -- its results
** and ratings when it ends, its seats' ratings, a resent move looked for
** among the stored changes -- are jobs in the table's lane as well
** (tables_later), answered on the loop.
**
** Undo follows the rule of online tables: a seat takes back its own
** actions of its current turn, one at a time, never past a chance event,
** another seat's action, or an action that showed it something hidden
** (tafel_state_action_reveals).  The list of what may be taken back lives
** in memory only: a restart ends it.
*/
#include "ratings.h"
#include "tables.h"

#include "extbot.h"
#include "players.h"
#include "club.h"
#include "commits.h"
#include "ownership.h"

#include <openssl/evp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

static store *db;
static tables_config config;  /* tables_open's */
static tables_events told;    /* the layer above's callbacks (tables_open) */
static table *all; /* newest first */

/* The map by id: chained buckets, doubled when the tables outnumber them. */
static table **buckets;
static size_t nbuckets, ntables;
static int unfinished; /* tables in memory whose game is not over: --max-tables */
static uint64_t generation;

/* Finished tables whose last socket left (or that nobody joined): what
** tables_sweep frees, instead of looking at every table. */
static table **sweep_list;
static int nsweep, sweep_cap;

static void table_advance(table *t);
static void quota_forget(void);
static void ended(table *t);
static void sweep_later(table *t);
static void stop_programs(table *t);

/* ---- small helpers ---------------------------------------------------- */

static void set_msg(char *msg, size_t size, const char *text) { snprintf(msg, size, "%s", text); }

static int fail(const char **code, const char *what, char *msg, size_t size, const char *text) {
    *code = what;
    set_msg(msg, size, text);
    return -1;
}

static uint64_t mix(uint64_t seed, uint64_t i) {
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (i + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void hex(const uint8_t *bytes, size_t n, char *out) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 15];
    }
    out[2 * n] = 0;
}

static int random_bytes(uint8_t *out, size_t n) {
    size_t got = 0;
    while (got < n) {
        ssize_t r = getrandom(out + got, n - got, 0);
        if (r <= 0) return -1;
        got += (size_t)r;
    }
    return 0;
}

/* Only a token's SHA-256 is kept: a stolen database seats nobody. */
static void token_hash(const char *token, uint8_t out[STORE_HASH_LEN]) {
    unsigned int len = STORE_HASH_LEN;
    EVP_Digest(token, strlen(token), out, &len, EVP_sha256(), NULL);
}

static char *dup_text(const char *text) {
    size_t n = strlen(text) + 1;
    char *copy = malloc(n);
    if (copy) memcpy(copy, text, n);
    return copy;
}

static int64_t now_seconds(void) { return (int64_t)time(NULL); }

/* ---- the table list --------------------------------------------------- */

static void free_viewed(table_last *l) {
    for (int v = 0; v <= TAFEL_MAX_PLAYERS; v++) {
        free(l->text[v]);
        free(l->events[v]);
    }
}

static void free_last(table *t) {
    for (int i = 0; i < t->nlast; i++) free_viewed(&t->last[i]);
    free(t->last);
    t->last = NULL;
    t->nlast = 0;
}

static void table_free(table *t) {
    if (!t) return;
    table_drop_waiting(t);
    clocks_forget(t);
    for (int i = 0; i < t->nactions; i++) free(t->texts[i]);
    free(t->texts);
    free(t->action_seats);
    free_last(t);
    tafel_state_free(t->state);
    tafel_game_free(t->game);
    free(t->game_string);
    free(t);
}

static int push_action(table *t, const char *text, int seat) {
    if (t->nactions == t->cap) {
        int cap = t->cap ? 2 * t->cap : 256;
        char **texts = realloc(t->texts, sizeof *texts * (size_t)cap);
        if (!texts) return -1;
        t->texts = texts;
        int *seats = realloc(t->action_seats, sizeof *seats * (size_t)cap);
        if (!seats) return -1;
        t->action_seats = seats;
        t->cap = cap;
    }
    char *copy = dup_text(text);
    if (!copy) return -1;
    t->texts[t->nactions] = copy;
    t->action_seats[t->nactions++] = seat;
    return 0;
}

/* Action a, played in s, as every viewer sees it (0 the spectator): its
** text, and with accounts its account.  An account the engine cannot give
** (a defect: a is legal) is left NULL, sent as [], and the game goes on. */
static int view_action(const tafel_state *s, int players, tafel_action a, int accounts,
                       table_last *l) {
    for (int v = 0; v <= players; v++) {
        char buf[256];
        if (tafel_action_view_text(s, v - 1, a, buf, sizeof buf) < 0) buf[0] = 0;
        if (!(l->text[v] = dup_text(buf))) return -1;
        tafel_error err;
        int rc = accounts ? tafel_state_describe(s, a, v - 1, &l->events[v], &err) : TAFEL_OK;
        if (rc == TAFEL_ENOMEM) return -1;
        if (rc)
            fprintf(stderr, "tafel serve: no account of '%s' for seat %d: %s\n", buf, v - 1,
                    err.message);
    }
    return 0;
}

static table *new_table(const char *id, const char *game_string, uint64_t seed, char *msg,
                        size_t size) {
    table *t = calloc(1, sizeof *t);
    if (!t) return set_msg(msg, size, "out of memory"), NULL;
    tafel_error err;
    if (tafel_game_load(game_string, &t->game, &err)) {
        set_msg(msg, size, err.message);
        free(t);
        return NULL;
    }
    snprintf(t->id, sizeof t->id, "%s", id);
    t->game_string = dup_text(game_string);
    t->state = tafel_state_new(t->game);
    t->seed = seed;
    t->players = tafel_game_players(t->game);
    t->bot_asked = -1;
    t->undo_seat = -1;
    t->clock_seq = -1;
    t->turn_seat = -1;
    if (!t->game_string || !t->state) {
        table_free(t);
        set_msg(msg, size, "out of memory");
        return NULL;
    }
    return t;
}

void table_seat_from_store(table_seat *to, const store_seat *from) {
    memset(to, 0, sizeof *to);
    snprintf(to->spec, sizeof to->spec, "%s", from->spec);
    to->bot = strcmp(from->spec, "human") != 0;
    to->has_token = from->has_token;
    memcpy(to->token_hash, from->token_hash, STORE_HASH_LEN);
    to->resigned = from->resigned;
    snprintf(to->forfeit, sizeof to->forfeit, "%s", from->forfeit);
    to->who.id = from->player;
    to->clock_ms = from->clock_ms;
    to->invite = from->invite;
    /* the name and kind: from the players (a player gone from the file
    ** would be a broken file: the seat then shows no name) */
    if (from->player && !players_of_row(from->player, from->player_name, from->player_kind,
                                        &to->who) &&
        players_get(from->player, &to->who) != 1)
        to->who.id = from->player;
}

static void seat_to_store(const table_seat *from, store_seat *to) {
    memset(to, 0, sizeof *to);
    snprintf(to->spec, sizeof to->spec, "%s", from->spec);
    to->has_token = from->has_token;
    memcpy(to->token_hash, from->token_hash, STORE_HASH_LEN);
    to->resigned = from->resigned;
    snprintf(to->forfeit, sizeof to->forfeit, "%s", from->forfeit);
    to->player = from->who.id;
    to->clock_ms = from->clock_ms;
    to->invite = from->invite;
}

/* The latest change as far as the actions tell after a restart: the last
** seat's action and the chance events after it. */
static void guess_last(table *t) {
    int from = t->nactions;
    while (from > 0 && t->action_seats[from - 1] < 0) from--;
    if (from > 0) from--;
    tafel_state *s = tafel_state_new(t->game);
    if (!s) return;
    for (int i = 0; i < t->nactions; i++) {
        tafel_action a;
        if (tafel_action_from_text(s, t->texts[i], &a, NULL)) break;
        if (i >= from) {
            table_last *more = realloc(t->last, sizeof *more * (size_t)(t->nlast + 1));
            if (!more) break;
            t->last = more;
            table_last *l = &t->last[t->nlast++];
            memset(l, 0, sizeof *l);
            l->seat = t->action_seats[i];
            if (view_action(s, t->players, a, 0, l)) break;
        }
        if (tafel_state_apply(s, a, NULL)) break;
    }
    tafel_state_free(s);
}

/* A bot spec stored by a server with higher caps on a bot's budget: lowered
** to this one's caps in memory (refusing it would end a game in play). */
static void clamp_spec(char *spec, size_t size) {
    char clamped[STORE_SPEC_MAX];
    if (extbot_is_spec(spec)) return;
    botbudget_clamp(spec, clamped, sizeof clamped);
    snprintf(spec, size, "%s", clamped);
}

/* A table from its stored form: the record replayed.  NULL (and why in
** msg) when it no longer replays. */
static table *table_from_stored(const store_table *st, const player *creator, char *msg,
                                size_t size);

static table *table_from_store(const store_table *st, char *msg, size_t size) {
    return table_from_stored(st, NULL, msg, size);
}

/* The same with its creator known already (NULL: read it now). */
static table *table_from_stored(const store_table *st, const player *creator, char *msg,
                                size_t size) {
    table *t = new_table(st->id, st->game, st->seed, msg, size);
    if (!t) return NULL;
    if (st->nseats != t->players) {
        snprintf(msg, size, "table %s has %d seats for %d players", st->id, st->nseats,
                 t->players);
        table_free(t);
        return NULL;
    }
    for (int i = 0; i < st->nseats; i++) {
        table_seat_from_store(&t->seats[i], &st->seats[i]);
        if (t->seats[i].bot) clamp_spec(t->seats[i].spec, sizeof t->seats[i].spec);
    }
    t->seq = st->seq;
    t->over = st->over;
    t->created = st->created;
    t->updated = st->updated;
    t->seed_chosen = st->seed_chosen;
    snprintf(t->end_reason, sizeof t->end_reason, "%s", st->end_reason);
    t->rated = st->rated;
    t->private_ = st->private_;
    if (clock_parse(st->clock, &t->clock, msg, size)) {
        table_free(t);
        return NULL;
    }
    t->turn_since = st->turn_since;
    snprintf(t->bot_level, sizeof t->bot_level, "%s", st->bot_level);
    clamp_spec(t->bot_level, sizeof t->bot_level);
    snprintf(t->rematch_of, sizeof t->rematch_of, "%s", st->rematch_of);
    snprintf(t->rematch, sizeof t->rematch, "%s", st->rematch);
    if (st->creator && creator) t->creator = *creator;
    else if (st->creator &&
             !players_of_row(st->creator, st->creator_name, st->creator_kind, &t->creator) &&
             players_get(st->creator, &t->creator) != 1)
        t->creator.id = st->creator;
    snprintf(t->creator_addr, sizeof t->creator_addr, "%s", st->creator_addr);
    t->invite_until = st->invite_until;
    for (int i = 0; i < st->nactions; i++) {
        tafel_error err;
        if (tafel_state_apply_text(t->state, st->actions[i], &err) ||
            push_action(t, st->actions[i], st->action_seats[i])) {
            snprintf(msg, size, "table %s, action %d '%s': %s", st->id, i, st->actions[i],
                     err.message);
            table_free(t);
            return NULL;
        }
    }
    guess_last(t);
    clocks_started(t, 1);
    return t;
}

/* After a commit in doubt: t as the store has it now (fresh, taken),
** rebuilt in place as a restart rebuilds it (its watchers keep their
** pointer), its watchers sent its state, and what it waits for asked
** again. */
static void table_rebuilt(table *t, table *fresh) {
    clocks_forget(t);
    clocks_forget(fresh);
    table old = *t;
    *t = *fresh;
    /* its place in memory stays: the list, the map, who watches, what waits */
    t->next = old.next;
    t->prev = old.prev;
    t->hnext = old.hnext;
    t->sweep_listed = old.sweep_listed;
    t->watchers = old.watchers;
    t->watching = old.watching;
    t->wait_head = old.wait_head;
    t->wait_tail = old.wait_tail;
    t->draining = old.draining;
    for (int i = 0; i < t->players && i < old.players; i++)
        t->seats[i].connected = old.seats[i].connected;
    int over = t->over;
    t->over = old.over;
    *fresh = old; /* the old parts, freed */
    fresh->watchers = NULL;
    fresh->wait_head = fresh->wait_tail = NULL;
    table_free(fresh);
    fprintf(stderr, "tafel serve: table %s: read again after a commit in doubt (seq %lld)\n",
            t->id, (long long)t->seq);
    clocks_started(t, 1);
    generation++;
    if (over) ended(t);
    table_changed(t);
    table_advance(t);
}

/* A table read again after a commit in doubt: a job in its lane, which
** keeps it busy (nothing changes it meanwhile), reads it off the loop; it
** is rebuilt on the loop.  When it cannot be read, tables_tick tries
** again. */
typedef struct reread_commit {
    commit c;
    tables_stored read;
} reread_commit;

static int reread_write(store *given, commit *c, char *err, size_t errsize) {
    reread_commit *r = (reread_commit *)c;
    club_lend(given); /* its creator is read through it */
    int found = tables_stored_read(given, c->id, &r->read, err, errsize);
    club_lend(NULL);
    if (!found) snprintf(err, errsize, "gone");
    return found == 1 ? 0 : -1;
}

static void reread_failed(table *t, const char *why) {
    fprintf(stderr, "tafel serve: table %s: not read again after a commit in doubt (%s); "
                    "tried again soon\n", t->id, why);
    t->reload = 1;
}

static void reread_apply(commit *c) {
    reread_commit *r = (reread_commit *)c;
    char why[512];
    table *fresh = table_from_stored(&r->read.st, &r->read.creator, why, sizeof why);
    if (fresh) table_rebuilt(c->t, fresh);
    else reread_failed(c->t, why);
}

static void reread_release(commit *c) {
    reread_commit *r = (reread_commit *)c;
    if (!c->applied) reread_failed(c->t, c->job.err);
    if (r->read.found) store_table_free(&r->read.st);
    free(r);
}

static const commit_kind reread_kind = {reread_write, reread_apply, reread_release};

static void table_reload(table *t) {
    reread_commit *r = calloc(1, sizeof *r);
    if (!r) reread_failed(t, "out of memory");
    else table_commit(t, &r->c, &reread_kind, NULL);
}

static void reread_new_found(table *made, int elsewhere, void *ctx) {
    (void)elsewhere, (void)ctx;
    if (made) table_advance(made);
}

/* A new table's commit was in doubt: loaded when it was stored after all
** (claimed and read on the pool). */
static void table_reread_new(const char *id) { tables_find_later(id, reread_new_found, NULL); }

static void remove_table(table *t);

/* A write of t answered STORE_MOVED: another node claimed it (or this one
** handed it over).  It goes from memory: what waited is told it went, its
** bots and clocks stop, and its sockets close with 4000 (told.moved). */
void tables_drop_moved(table *t) {
    table_drop_waiting(t);
    botpool_cancel(t->id, INT64_MAX); /* every job of it queued */
    stop_programs(t);
    t->bot_asked = -1;
    clocks_forget(t);
    if (told.moved) told.moved(t);
    remove_table(t);
    table_free(t);
}

int tables_open(const char *db_path, int durable, const tables_config *cfg,
                const tables_events *events, char *err, size_t errsize) {
    config = *cfg;
    told = *events;
    botbudget_set_caps(cfg->bot_iters, cfg->bot_ms);
    /* A file grown past RLIMIT_FSIZE fails with EFBIG, like a full disk,
    ** instead of killing the server. */
    signal(SIGXFSZ, SIG_IGN);
    if (store_open(db_path, durable, &db, err, errsize)) return -1;
    int n = cfg->db_connections;
    if (n < 0) n = store_path_is_postgres(db_path) ? TABLES_PG_CONNECTIONS : 0;
    if (n > 0 && !store_path_is_postgres(db_path) && !strcmp(db_path, ":memory:")) {
        snprintf(err, errsize, "--db-connections %d: an in-memory database is one connection's "
                 "alone (0 there)", n);
        n = -1;
    } else if (n > 0 && !store_path_is_postgres(db_path) && durable) {
        /* the syncer counts the loop's connection's commits only (syncer.c) */
        snprintf(err, errsize, "--db-connections %d with --durable: on SQLite the log is synced "
                 "for the loop's own connection only (0 there)", n);
        n = -1;
    }
    static const commits_hooks hooks = {.reread = table_reload, .reread_new = table_reread_new,
                                        .idle = sweep_later, .moved = tables_drop_moved};
    /* the pool's connections act for the node the loop's acts for when it
    ** starts (pool.h): the node first, and its lease renewed once, so that
    ** its first claims (tables_restore) find it alive */
    if (n >= 0 && ownership_start(db, db_path, cfg->node, cfg->lease_seconds, &told, err,
                                  errsize))
        n = -1;
    if (n < 0 || commits_start(db, db_path, n, events->wake, &hooks, err, errsize)) {
        store_close(db);
        db = NULL;
        return -1;
    }
    return 0;
}

store *tables_store(void) { return db; }

void tables_close(void) {
    commits_stop(); /* what is queued still commits; nobody is answered, nothing applied */
    ownership_stop();
    while (all) {
        table *next = all->next;
        table_free(all);
        all = next;
    }
    free(buckets);
    buckets = NULL;
    nbuckets = ntables = 0;
    unfinished = 0;
    free(sweep_list);
    sweep_list = NULL;
    nsweep = sweep_cap = 0;
    quota_forget();
    store_close(db);
    db = NULL;
}

uint64_t tables_generation(void) { return generation; }

/* FNV-1a of the id. */
static size_t bucket_of(const char *id, size_t n) {
    uint64_t h = 1469598103934665603ULL;
    for (; *id; id++) h = (h ^ (unsigned char)*id) * 1099511628211ULL;
    return (size_t)(h & (n - 1));
}

static void map_grow(void) {
    size_t n = nbuckets ? 2 * nbuckets : 256;
    table **more = calloc(n, sizeof *more);
    if (!more) return; /* the chains only grow longer */
    for (table *t = all; t; t = t->next) {
        size_t b = bucket_of(t->id, n);
        t->hnext = more[b];
        more[b] = t;
    }
    free(buckets);
    buckets = more;
    nbuckets = n;
}

/* A table ends: it no longer counts against --max-tables. */
static void mark_over(table *t) {
    if (!t->over) unfinished--;
    t->over = 1;
}

/* The table may be freed by tables_sweep once no socket sits at it. */
static void sweep_later(table *t) {
    if (t->sweep_listed || !t->over || t->watching > 0) return;
    if (nsweep == sweep_cap) {
        int cap = sweep_cap ? 2 * sweep_cap : 64;
        table **more = realloc(sweep_list, sizeof *more * (size_t)cap);
        if (!more) return; /* kept in memory: harmless */
        sweep_list = more;
        sweep_cap = cap;
    }
    sweep_list[nsweep++] = t;
    t->sweep_listed = 1;
}

static void add_table(table *t) {
    if (ntables + 1 > nbuckets) map_grow();
    t->prev = NULL;
    t->next = all;
    if (all) all->prev = t;
    all = t;
    if (nbuckets) {
        size_t b = bucket_of(t->id, nbuckets);
        t->hnext = buckets[b];
        buckets[b] = t;
    }
    ntables++;
    if (!t->over) unfinished++;
    generation++;
    sweep_later(t);
}

/* Takes the table out of the list and the map (not freed). */
static void remove_table(table *t) {
    if (t->prev) t->prev->next = t->next;
    else all = t->next;
    if (t->next) t->next->prev = t->prev;
    if (nbuckets) {
        for (table **link = &buckets[bucket_of(t->id, nbuckets)]; *link; link = &(*link)->hnext)
            if (*link == t) {
                *link = t->hnext;
                break;
            }
    }
    ntables--;
    if (!t->over) unfinished--;
    for (int i = 0; i < nsweep; i++)
        if (sweep_list[i] == t) sweep_list[i] = sweep_list[--nsweep];
    generation++;
}

int tables_restore(char *err, size_t errsize) {
    enum { MAX_RESTORE = 100000 };
    char (*ids)[STORE_ID_LEN + 1] = malloc(sizeof *ids * MAX_RESTORE);
    if (!ids) return set_msg(err, errsize, "out of memory"), -1;
    int n = store_list(db, 1, ids, MAX_RESTORE, err, errsize), restored = 0;
    for (int i = n - 1; i >= 0; i--) { /* oldest first: the newest ends in front */
        char home[STORE_NODE_MAX + 1];
        if (ownership_claim(ids[i], 0, home, sizeof home) != 1) continue; /* a live node's */
        store_table st;
        char why[512];
        int found = store_load(db, ids[i], &st, why, sizeof why);
        if (found <= 0) {
            fprintf(stderr, "tafel serve: table %s not restored: %s\n", ids[i],
                    found ? why : "gone");
            continue;
        }
        table *t = table_from_store(&st, why, sizeof why);
        store_table_free(&st);
        if (!t) {
            fprintf(stderr, "tafel serve: table not restored: %s\n", why);
            continue;
        }
        ownership_arrived(t, home);
        add_table(t);
        restored++;
    }
    free(ids);
    if (n < 0) return -1;
    for (table *t = all; t; t = t->next) table_advance(t);
    return restored;
}

table *tables_build(const store_table *st, char *msg, size_t size) {
    return table_from_store(st, msg, size);
}

void tables_add(table *t) { add_table(t); }

void tables_advance(table *t) { table_advance(t); }

table *tables_first(void) { return all; }

int tables_stored_read(store *given, const char *id, tables_stored *out, char *err,
                       size_t errsize) {
    memset(out, 0, sizeof *out);
    int found = store_load(given, id, &out->st, err, errsize);
    out->found = found == 1;
    if (!out->found) return found < 0 ? -1 : 0;
    int64_t creator = out->st.creator;
    if (creator && players_get(creator, &out->creator) != 1)
        out->creator = (player){.id = creator};
    return 1;
}

table *tables_stored_build(tables_stored *in) {
    if (!in->found) return NULL;
    char why[512];
    table *t = table_from_stored(&in->st, &in->creator, why, sizeof why);
    store_table_free(&in->st);
    in->found = 0;
    return t;
}

table *tables_read(const char *id) {
    tables_stored read;
    char why[512];
    tables_stored_read(db, id, &read, why, sizeof why);
    return tables_stored_build(&read);
}

void tables_read_free(table *t) { table_free(t); }

table *tables_find_here(const char *id, int *elsewhere) {
    if (elsewhere) *elsewhere = 0;
    table *loaded = (table *)tables_loaded(id);
    if (loaded) return loaded;
    /* a finished table of an earlier run, or (several nodes) a table this
    ** node claims now: loaded when asked for */
    if (strlen(id) != STORE_ID_LEN) return NULL;
    char home[STORE_NODE_MAX + 1];
    int claimed = ownership_claim(id, 1, home, sizeof home);
    if (claimed == 0 && elsewhere) *elsewhere = 1;
    if (claimed != 1) return NULL;
    store_table st;
    char why[512];
    if (store_load(db, id, &st, why, sizeof why) != 1) return NULL;
    table *t = table_from_store(&st, why, sizeof why);
    store_table_free(&st);
    if (!t) return NULL;
    ownership_arrived(t, home);
    add_table(t);
    if (!t->over) table_advance(t); /* claimed from a node gone: its bots and clocks */
    return t;
}

void tables_sweep(void) {
    while (nsweep > 0) {
        table *t = sweep_list[--nsweep];
        t->sweep_listed = 0;
        /* a busy one is listed again when its commit is done */
        if (t->over && t->watching == 0 && !t->busy && !t->wait_head) {
            remove_table(t);
            table_free(t);
        }
    }
}

int tables_newest(table **out, int cap) {
    int n = 0;
    for (table *t = all; t && n < cap; t = t->next) out[n++] = t;
    return n;
}

const table *tables_loaded(const char *id) {
    if (!nbuckets || !id) return NULL;
    for (const table *t = buckets[bucket_of(id, nbuckets)]; t; t = t->hnext)
        if (!strcmp(t->id, id)) return t;
    return NULL;
}

const char *table_seat_kind(const table_seat *ts) {
    return ts->bot && (!ts->resigned || ts->forfeit[0]) ? "bot" : "human";
}

/* Whether spec names a bot this server runs: a built-in one within the
** caps on a bot's budget, or an external one its operator configured
** ("ext:NAME"; never a command). */
static int check_bot(const char *spec, const tafel_game *game, char *why, size_t size) {
    if (extbot_is_spec(spec)) return extseats_check(spec, why, size);
    tafel_bot *probe;
    tafel_error err;
    if (tafel_bot_new(spec, game, 1, &probe, &err)) {
        snprintf(why, size, "%s", err.message);
        return -1;
    }
    tafel_bot_free(probe);
    return botbudget_check(spec, why, size);
}

/* ---- the quota of new tables per address --------------------------------
**
** A bucket per address holds up to --max-new-tables tables and refills at
** that many an hour.  The buckets live in a fixed array (open addressing):
** an address whose bucket is full again is as good as forgotten, so its
** slot is taken by the next address that needs one.  When every slot near
** an address's is held by an active one, that address goes unchecked:
** the limit is a brake on one client, and --max-tables holds for all. */
#define QUOTA_SLOTS 4096
#define QUOTA_PROBES 16

typedef struct quota_slot {
    char addr[64];
    double tokens;
    int64_t at; /* seconds */
} quota_slot;

static quota_slot *quota;

static void quota_forget(void) {
    free(quota);
    quota = NULL;
}

static double quota_refill(const quota_slot *q, int64_t now, int limit) {
    double t = q->tokens + (double)(now - q->at) * limit / 3600.0;
    return t > limit ? limit : t;
}

/* Takes one table from addr's bucket; 0, or -1 when it is empty. */
static int quota_take(const char *addr) {
    int limit = config.new_tables;
    if (limit <= 0) return 0;
    if (!quota && !(quota = calloc(QUOTA_SLOTS, sizeof *quota))) return 0;
    int64_t now = now_seconds();
    size_t home = bucket_of(addr, QUOTA_SLOTS);
    quota_slot *q = NULL, *free_slot = NULL;
    for (int i = 0; i < QUOTA_PROBES && !q; i++) {
        quota_slot *x = &quota[(home + (size_t)i) % QUOTA_SLOTS];
        int idle = !x->at || quota_refill(x, now, limit) >= limit;
        if (x->at && !strcmp(x->addr, addr)) q = x;
        else if (idle && !free_slot) free_slot = x;
    }
    if (!q) {
        if (!free_slot) return 0;
        q = free_slot;
        snprintf(q->addr, sizeof q->addr, "%s", addr);
        q->tokens = limit;
        q->at = now;
    }
    q->tokens = quota_refill(q, now, limit);
    q->at = now;
    if (q->tokens < 1) return -1;
    q->tokens -= 1;
    return 0;
}

static int store_new_table(table *t, store_table *st, const table_reply *reply, char *msg,
                           size_t msgsize);

/* The checks and the parts of a new table (refused: NULL, code and msg). */
static table *new_request(const char *game_string, const char *const *specs, int nspecs,
                          uint64_t seed, int has_seed, const table_options *opt,
                          const char *addr, char tokens[][33], const char **code, char *msg,
                          size_t msgsize) {
    int max = config.max_tables;
    int creating = commits_creating();
    if (max > 0 && unfinished + creating >= max) {
        *code = "server_full";
        snprintf(msg, msgsize, "the server has %d unfinished tables, its most: try again when "
                 "some have ended", unfinished + creating);
        return NULL;
    }
    *code = "bad_game";
    uint8_t id_bytes[8];
    char id[STORE_ID_LEN + 1];
    if (random_bytes(id_bytes, sizeof id_bytes) || (!has_seed && random_bytes((uint8_t *)&seed,
                                                                             sizeof seed))) {
        set_msg(msg, msgsize, "the system's random numbers failed");
        return NULL;
    }
    hex(id_bytes, sizeof id_bytes, id);
    table *t = new_table(id, game_string, seed, msg, msgsize);
    if (!t) return NULL;
    if (nspecs != t->players) {
        snprintf(msg, msgsize, "%s has %d seats, not %d", game_string, t->players, nspecs);
        table_free(t);
        return NULL;
    }
    for (int i = 0; i < nspecs; i++) {
        table_seat *s = &t->seats[i];
        tokens[i][0] = 0;
        if (strlen(specs[i]) >= sizeof s->spec) {
            snprintf(msg, msgsize, "seat %d: the spec is too long", i);
            table_free(t);
            return NULL;
        }
        snprintf(s->spec, sizeof s->spec, "%s", specs[i]);
        if (strcmp(specs[i], "human")) {
            char why[512];
            if (check_bot(specs[i], t->game, why, sizeof why)) {
                snprintf(msg, msgsize, "seat %d: %s", i, why);
                table_free(t);
                return NULL;
            }
            s->bot = 1;
            continue;
        }
        uint8_t secret[16];
        if (random_bytes(secret, sizeof secret)) {
            set_msg(msg, msgsize, "the system's random numbers failed");
            table_free(t);
            return NULL;
        }
        hex(secret, sizeof secret, tokens[i]);
        token_hash(tokens[i], s->token_hash);
        s->has_token = 1;
    }
    if (opt->bot_level[0]) { /* the bot that would take a seat whose time ran out */
        char why[512];
        if (check_bot(opt->bot_level, t->game, why, sizeof why)) {
            snprintf(msg, msgsize, "\"bot\": %s", why);
            table_free(t);
            return NULL;
        }
    }
    /* The same seed deals the same hidden cards at another table: at a
    ** table of two or more people, only the server chooses it. */
    int people = 0;
    for (int i = 0; i < nspecs; i++) people += !t->seats[i].bot;
    if (has_seed && people >= 2 && !config.chosen_seeds) {
        *code = "seed_not_allowed";
        snprintf(msg, msgsize, "a chosen seed is for practice tables (one person with bots): the "
                 "same seed deals the same hidden cards at another table, so at a table of %d "
                 "people the server chooses it", people);
        table_free(t);
        return NULL;
    }
    /* counted once the request is good: a refused one costs nothing */
    if (quota_take(addr ? addr : "")) {
        *code = "quota";
        snprintf(msg, msgsize, "you have made %d tables within the hour, the most this server "
                 "allows: try again later", config.new_tables);
        table_free(t);
        return NULL;
    }
    t->created = t->updated = now_seconds();
    ownership_arrived(t, ownership_node()); /* its home is where it was made */
    t->seed_chosen = has_seed;
    t->rated = opt->rated;
    t->private_ = opt->private_;
    t->clock = opt->clock;
    for (int i = 0; i < nspecs; i++)
        t->seats[i].clock_ms = t->clock.kind == TABLE_CLOCK_REALTIME ? t->clock.base_ms : -1;
    snprintf(t->bot_level, sizeof t->bot_level, "%s", opt->bot_level);
    if (opt->rematch_of) snprintf(t->rematch_of, sizeof t->rematch_of, "%s", opt->rematch_of->id);
    t->creator = opt->creator;
    snprintf(t->creator_addr, sizeof t->creator_addr, "%s", addr ? addr : "");
    for (int i = 0; i < nspecs; i++) {
        t->seats[i].who = opt->seat_players[i]; /* social */
        t->seats[i].invite = opt->seat_invited[i] && opt->seat_players[i].id;
    }
    if (table_waiting(t)) t->invite_until = t->created + config.invite_seconds;
    return t;
}

int tables_create(const char *game_string, const char *const *specs, int nspecs, uint64_t seed,
                  int has_seed, const table_options *opt, const char *addr,
                  const table_reply *reply, char tokens[][33], const char **code, char *msg,
                  size_t msgsize) {
    static const table_options plain;
    if (!opt) opt = &plain;
    table *t = new_request(game_string, specs, nspecs, seed, has_seed, opt, addr, tokens, code,
                           msg, msgsize);
    if (!t) return -1;
    seed = t->seed;
    store_table st = {.game = t->game_string, .seed = seed, .nseats = nspecs,
                      .created = t->created, .seed_chosen = has_seed, .rated = t->rated,
                      .private_ = t->private_, .creator = t->creator.id,
                      .invite_until = t->invite_until};
    snprintf(st.creator_addr, sizeof st.creator_addr, "%s", t->creator_addr);
    clock_text(&t->clock, st.clock, sizeof st.clock);
    snprintf(st.bot_level, sizeof st.bot_level, "%s", t->bot_level);
    snprintf(st.rematch_of, sizeof st.rematch_of, "%s", t->rematch_of);
    memcpy(st.id, t->id, sizeof st.id);
    for (int i = 0; i < nspecs; i++) seat_to_store(&t->seats[i], &st.seats[i]);
    if (store_new_table(t, &st, reply, msg, msgsize)) {
        *code = "storage";
        table_free(t);
        return -1;
    }
    return 0;
}

int table_waiting(const table *t) {
    int n = 0;
    for (int i = 0; i < t->players; i++) n += t->seats[i].invite;
    return n;
}

/* The refusal of a seat's action while invitations wait. */
static int refuse_waiting(const table *t, const char **code, char *msg, size_t msgsize) {
    *code = "waiting_invitations";
    snprintf(msg, msgsize, "table %s waits for %d invited player%s to accept: the game starts "
             "when all have", t->id, table_waiting(t), table_waiting(t) == 1 ? "" : "s");
    return -1;
}

int table_seat_of_token(const table *t, const char *token) {
    if (!token || strlen(token) != 32) return -1;
    uint8_t hash[STORE_HASH_LEN];
    token_hash(token, hash);
    for (int i = 0; i < t->players; i++)
        if (t->seats[i].has_token && !memcmp(hash, t->seats[i].token_hash, STORE_HASH_LEN))
            return i;
    return -1;
}

int table_seat_of_player(const table *t, int64_t id) {
    for (int i = 0; id && i < t->players; i++)
        if (t->seats[i].who.id == id) return i;
    return -1;
}

/* ---- changes ---------------------------------------------------------- */

static void end_programs(table *t);

/* After every change (seq bumped): when it happened, that lobbies are
** stale, and that bots' searches of the older seqs are not needed. */
static void changed(table *t) {
    t->updated = now_seconds();
    generation++;
    botpool_cancel(t->id, t->seq);
}

static int results_store(store *given, void *ctx, char *err, size_t errsize) {
    (void)given; /* lent to the club, which stores them */
    return ratings_results_store(ctx, err, errsize);
}

static void results_told(void *ctx, int rc, const char *err) {
    if (rc != TABLE_UNANSWERED) ratings_results_told(ctx, rc, err);
    free(ctx);
}

/* The change ended the game: its results (and ratings) are stored in the
** table's lane, after the change that ended it, off the loop. */
static void ended(table *t) {
    if (t->over) return;
    mark_over(t);
    ratings_table rt;
    table_ratings(t, &rt);
    ratings_results *results = malloc(sizeof *results);
    if (!results)
        fprintf(stderr, "tafel serve: table %s: its results were not stored: out of memory\n",
                t->id);
    else if (ratings_results_prepare(&rt, results))
        tables_later(t->id, results_store, results_told, results);
    else
        free(results);
    end_programs(t);
    sweep_later(t);
}

typedef struct change {
    tafel_state *after;
    int n, cap;
    char **texts;
    int *seats;
    table_last *last;
    int reveals; /* the seat's action showed it something */
} change;

static void change_free(change *c, int keep_last) {
    for (int i = 0; i < c->n; i++) {
        free(c->texts[i]);
        if (!keep_last) free_viewed(&c->last[i]);
    }
    free(c->texts);
    free(c->seats);
    if (!keep_last) free(c->last);
    tafel_state_free(c->after);
}

/* Adds action a of seat to the change and plays it on c->after. */
static int change_add(change *c, int players, int seat, tafel_action a) {
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 16;
        char **texts = realloc(c->texts, sizeof *texts * (size_t)cap);
        if (texts) c->texts = texts;
        int *seats = realloc(c->seats, sizeof *seats * (size_t)cap);
        if (seats) c->seats = seats;
        table_last *last = realloc(c->last, sizeof *last * (size_t)cap);
        if (last) c->last = last;
        if (!texts || !seats || !last) return -1;
        c->cap = cap;
    }
    char text[256];
    if (tafel_action_to_text(c->after, a, text, sizeof text) < 0) return -1;
    table_last *l = &c->last[c->n];
    memset(l, 0, sizeof *l);
    l->seat = seat;
    c->seats[c->n] = seat;
    if (!(c->texts[c->n++] = dup_text(text)) || view_action(c->after, players, a, 1, l))
        return -1;
    return tafel_state_apply(c->after, a, NULL) ? -1 : 0;
}

/* The chance events after the change's actions, drawn from the seed and
** the action count. */
static int change_add_chance(change *c, const table *t) {
    while (tafel_state_current(c->after) == TAFEL_CHANCE) {
        uint64_t rng = tafel_rng_seed(mix(t->seed, (uint64_t)(t->nactions + c->n)));
        tafel_action a;
        if (tafel_state_sample_chance(c->after, &rng, &a) || change_add(c, t->players, -1, a))
            return -1;
    }
    return 0;
}

/* Whether every seat that did not resign but one has resigned. */
static int one_seat_left(const table *t) {
    int left = 0;
    for (int i = 0; i < t->players; i++) left += !t->seats[i].resigned;
    return left <= 1;
}

static void apply_change(table *t, change *c, int seat, int over);

/* ---- the kinds of change (commits.h) ----------------------------------- */

/* A move, or chance events alone, with the clocks after it (store_append). */
typedef struct append_commit {
    commit c;
    change ch;
    int seat, over, clocked;
    int from;            /* the actions before it */
    int64_t seq;
    store_clocks clocks;
} append_commit;

static int append_write(store *db, commit *c, char *err, size_t errsize) {
    append_commit *a = (append_commit *)c;
    return store_append(db, c->id, a->from, a->ch.n, (const char *const *)a->ch.texts,
                        a->ch.seats, a->seq, a->over, a->clocked ? &a->clocks : NULL, err,
                        errsize);
}

static void append_apply(commit *c) {
    append_commit *a = (append_commit *)c;
    if (a->clocked) clocks_stored(c->t, &a->clocks);
    apply_change(c->t, &a->ch, a->seat, a->over);
    table_changed(c->t);
    table_ask_bot(c->t);
}

static void append_release(commit *c) {
    append_commit *a = (append_commit *)c;
    if (!c->applied) change_free(&a->ch, 0);
    free(a);
}

static const commit_kind append_kind = {append_write, append_apply, append_release};

/* Commits the change (taken over: the caller keeps nothing of it), then
** applies it.  0, or -1 out of memory (c is the caller's still). */
static int commit_change(table *t, change *c, int seat, const table_reply *reply) {
    append_commit *a = calloc(1, sizeof *a);
    if (!a) return -1;
    a->ch = *c;
    a->seat = seat;
    a->over = tafel_state_current(c->after) == TAFEL_TERMINAL || one_seat_left(t);
    /* the move and its clocks: one transaction */
    a->clocked = clocks_next(t, c->after, a->over, c->seats, c->n, &a->clocks);
    a->from = t->nactions;
    a->seq = t->seq + 1;
    table_commit(t, &a->c, &append_kind, reply);
    return 0;
}

/* A new table with its opening change (store_create). */
typedef struct create_commit {
    commit c;
    store_table st;
    change ch;
} create_commit;

static int create_write(store *db, commit *c, char *err, size_t errsize) {
    return store_create(db, &((create_commit *)c)->st, err, errsize);
}

static void create_apply(commit *c) {
    create_commit *m = (create_commit *)c;
    table *t = c->t;
    add_table(t);
    clocks_started(t, 0);
    if (m->ch.n > 0) apply_change(t, &m->ch, -1, 0);
    else change_free(&m->ch, 0);
    table_changed(t); /* nobody watches yet: it starts the clock of the first turn */
    table_ask_bot(t);
}

static void create_release(commit *c) {
    create_commit *m = (create_commit *)c;
    if (!c->applied) {
        change_free(&m->ch, 0);
        table_free(c->t);
    }
    free(m);
}

static const commit_kind create_kind = {create_write, create_apply, create_release};

/* A new table stored with its opening change (the tiles, the deals: the
** chance events before anyone plays) in one transaction, so that a refusal
** leaves nothing on disk; then listed, its clocks started, the opening
** applied.  0 (t is the commit's), or -1 with msg set (t the caller's). */
static int store_new_table(table *t, store_table *st, const table_reply *reply, char *msg,
                           size_t msgsize) {
    create_commit *m = calloc(1, sizeof *m);
    if (m) m->ch.after = tafel_state_clone(t->state);
    if (!m || !m->ch.after || change_add_chance(&m->ch, t)) {
        if (m) change_free(&m->ch, 0);
        free(m);
        set_msg(msg, msgsize, "out of memory");
        return -1;
    }
    m->st = *st;
    m->st.nactions = m->ch.n;
    m->st.actions = m->ch.texts;
    m->st.action_seats = m->ch.seats;
    m->st.seq = m->ch.n > 0;
    m->c.fresh = 1;
    table_commit(t, &m->c, &create_kind, reply);
    return 0;
}

/* A seat's new controller, resignation, accepted invitation or claimed
** link (store_set_seat). */
typedef struct seat_commit {
    commit c;
    int seat;
    table_seat to;    /* the seat as it is to be */
    store_seat st;    /* as stored */
    int64_t seq;      /* stored with it: seq + 1, or seq for a claim */
    int over;
    int give_up;      /* its people gave it away: they watch from now on */
    int claim;        /* a link claimed: no new seq, and the caller tells */
    int accept;       /* an invitation accepted */
} seat_commit;

static int seat_write(store *db, commit *c, char *err, size_t errsize) {
    seat_commit *s = (seat_commit *)c;
    return store_set_seat(db, c->id, s->seat, &s->st, s->seq, s->over, err, errsize);
}

static void seat_apply(commit *c) {
    seat_commit *s = (seat_commit *)c;
    table *t = c->t;
    table_seat *ts = &t->seats[s->seat];
    if (s->claim) {
        ts->who = s->to.who;
        /* the seat is its player's now: another socket sitting in it by the
        ** token (one without a login, or another player's) watches from now on */
        if (told.unseated) ts->connected -= told.unseated(t, s->seat, s->to.who.id, 0);
        generation++; /* the lobby shows the name */
        return;
    }
    int connected = ts->connected; /* sockets came and went meanwhile */
    *ts = s->to;
    ts->connected = connected;
    t->seq++;
    changed(t);
    if (s->give_up) { /* its sockets watch from now on */
        if (told.unseated) told.unseated(t, s->seat, 0, 1);
        ts->connected = 0;
    }
    if (s->over) ended(t);
    t->nundo = 0;
    t->undo_seat = -1;
    free_last(t);
    table_changed(t);
    table_ask_bot(t);
    if (s->accept) {
        if (!table_waiting(t)) t->invite_until = 0;
        generation++; /* the lobby and my games show it */
    }
}

static void seat_release(commit *c) { free(c); }

static const commit_kind seat_kind = {seat_write, seat_apply, seat_release};

/* Commits seat's new form to (kind: a claim or an accepted invitation,
** else neither), then applies it. */
static int commit_seat(table *t, int seat, const table_seat *to, int give_up, int claim,
                       int accept, const table_reply *reply, const char **code, char *msg,
                       size_t msgsize) {
    seat_commit *s = calloc(1, sizeof *s);
    if (!s) return fail(code, "storage", msg, msgsize, "out of memory");
    s->seat = seat;
    s->to = *to;
    seat_to_store(to, &s->st);
    s->give_up = give_up;
    s->claim = claim;
    s->accept = accept;
    s->seq = claim ? t->seq : t->seq + 1;
    if (claim) {
        s->over = t->over;
    } else { /* over as the seats will be */
        table_seat old = t->seats[seat];
        t->seats[seat] = *to;
        s->over = tafel_state_current(t->state) == TAFEL_TERMINAL || one_seat_left(t);
        t->seats[seat] = old;
    }
    table_commit(t, &s->c, &seat_kind, reply);
    return 0;
}

/* Undo: the actions after keep dropped (store_truncate). */
typedef struct undo_commit {
    commit c;
    int keep;
    int64_t seq;
    tafel_state *state; /* the table's state after the first keep actions */
} undo_commit;

static int undo_write(store *db, commit *c, char *err, size_t errsize) {
    undo_commit *u = (undo_commit *)c;
    return store_truncate(db, c->id, u->keep, u->seq, err, errsize);
}

static void undo_apply(commit *c) {
    undo_commit *u = (undo_commit *)c;
    table *t = c->t;
    while (t->nactions > u->keep) free(t->texts[--t->nactions]);
    tafel_state_copy(t->state, u->state);
    t->seq++;
    changed(t);
    t->nundo--;
    free_last(t);
    table_changed(t);
}

static void undo_release(commit *c) {
    tafel_state_free(((undo_commit *)c)->state);
    free(c);
}

static const commit_kind undo_kind = {undo_write, undo_apply, undo_release};

/* The end of a table before its game's (store_end), or a seat's time run
** out at a table of two (store_time_out). */
typedef struct end_commit {
    commit c;
    char reason[STORE_END_REASON_MAX];
    int64_t seq;
    int timeout_seat; /* store_time_out's seat, or -1 */
} end_commit;

static int end_write(store *db, commit *c, char *err, size_t errsize) {
    end_commit *e = (end_commit *)c;
    if (e->timeout_seat >= 0)
        return store_time_out(db, c->id, e->timeout_seat, e->seq, err, errsize);
    return store_end(db, c->id, e->seq, e->reason, err, errsize);
}

static int end_early(table *t, const char *reason);

static void end_apply(commit *c) {
    end_commit *e = (end_commit *)c;
    table *t = c->t;
    if (e->timeout_seat >= 0) {
        t->seats[e->timeout_seat].resigned = 1;
        snprintf(t->seats[e->timeout_seat].forfeit, sizeof t->seats[0].forfeit, "time");
    }
    end_early(t, e->reason);
}

static void end_release(commit *c) { free(c); }

static const commit_kind end_kind = {end_write, end_apply, end_release};

static int commit_end(table *t, const char *reason, int timeout_seat, const table_reply *reply,
                      const char **code, char *msg, size_t msgsize) {
    end_commit *e = calloc(1, sizeof *e);
    if (!e) return fail(code, "storage", msg, msgsize, "out of memory");
    snprintf(e->reason, sizeof e->reason, "%s", reason);
    e->seq = t->seq + 1;
    e->timeout_seat = timeout_seat;
    table_commit(t, &e->c, &end_kind, reply);
    return 0;
}

/* The link to a table's rematch (store_set_rematch). */
typedef struct link_commit {
    commit c;
    char next[STORE_ID_LEN + 1];
} link_commit;

static int link_write(store *db, commit *c, char *err, size_t errsize) {
    return store_set_rematch(db, c->id, ((link_commit *)c)->next, err, errsize);
}

static void link_apply(commit *c) {
    snprintf(c->t->rematch, sizeof c->t->rematch, "%s", ((link_commit *)c)->next);
    table_changed(c->t); /* its state names the rematch */
}

static void link_release(commit *c) { free(c); }

static const commit_kind link_kind = {link_write, link_apply, link_release};

int table_set_rematch(table *t, const char *next, const table_reply *reply, const char **code,
                      char *msg, size_t msgsize) {
    link_commit *l = calloc(1, sizeof *l);
    if (!l) return fail(code, "storage", msg, msgsize, "out of memory");
    snprintf(l->next, sizeof l->next, "%s", next);
    table_commit(t, &l->c, &link_kind, reply);
    return 0;
}

/* Applies a stored change: the table's actions, state, seq, last actions;
** undo as the rule says. */
static void apply_change(table *t, change *c, int seat, int over) {
    int before = t->nactions;
    for (int i = 0; i < c->n; i++)
        if (push_action(t, c->texts[i], c->seats[i])) { /* memory: the disk has it all */
            fprintf(stderr, "tafel serve: out of memory at table %s\n", t->id);
            abort();
        }
    tafel_state_copy(t->state, c->after);
    t->seq++;
    changed(t);
    if (over) ended(t);
    free_last(t);
    t->last = c->last;
    t->nlast = c->n;
    int chance_after = c->n > 1;
    if (seat < 0 || t->seats[seat].bot || chance_after || c->reveals ||
        tafel_state_current(t->state) != seat) {
        t->nundo = 0;
        t->undo_seat = -1;
    } else {
        if (t->undo_seat != seat) t->nundo = 0;
        t->undo_seat = seat;
        if (t->nundo == TABLE_UNDO_MAX) {
            memmove(t->undo_at, t->undo_at + 1, sizeof t->undo_at[0] * (TABLE_UNDO_MAX - 1));
            t->nundo--;
        }
        t->undo_at[t->nundo++] = before;
    }
    change_free(c, 1);
}

/* A move for the seq before, on its way to the store: was it played
** already (resent after a lost ack)? */
typedef struct resent_job {
    char id[STORE_ID_LEN + 1];
    int64_t seq;
    int seat, found;
    table_reply reply;
    char action[];
} resent_job;

static int resent_find(store *given, void *ctx, char *err, size_t errsize) {
    resent_job *j = ctx;
    j->found = store_find_change(given, j->id, j->seq, j->seat, j->action, err, errsize) == 1;
    return 0;
}

static void resent_found(void *ctx, int rc, const char *err) {
    resent_job *j = ctx;
    table *t = (table *)tables_loaded(j->id);
    char msg[128];
    (void)err;
    if (rc == TABLE_UNANSWERED || !t) { /* the server stops, or the table went elsewhere */
        j->reply.done(t, j->reply.ctx, TABLE_UNANSWERED, NULL, "");
    } else if (j->found) {
        j->reply.done(t, j->reply.ctx, TABLE_PLAYED, NULL, "");
    } else {
        snprintf(msg, sizeof msg, "seq %lld is stale: the table is at %lld", (long long)j->seq,
                 (long long)t->seq);
        j->reply.done(t, j->reply.ctx, -1, "stale", msg);
    }
    free(j);
}

/* table_move's look among the stored changes, in the table's lane (after
** the change that moved the table past seq). */
static int look_for_resent(table *t, int64_t seq, int seat, const char *action,
                           const table_reply *reply, const char **code, char *msg,
                           size_t msgsize) {
    size_t n = strlen(action) + 1;
    resent_job *j = malloc(sizeof *j + n);
    if (!j) return fail(code, "storage", msg, msgsize, "out of memory");
    memcpy(j->id, t->id, sizeof j->id);
    j->seq = seq;
    j->seat = seat;
    j->found = 0;
    j->reply = *reply;
    memcpy(j->action, action, n);
    tables_later(j->id, resent_find, resent_found, j);
    return 0;
}

int table_move(table *t, int seat, int64_t seq, const char *action, const table_reply *reply,
               const char **code, char *msg, size_t msgsize) {
    if (t->over) return fail(code, "over", msg, msgsize, "the game is over");
    if (seq != t->seq) {
        if (seat >= 0 && action && seq == t->seq - 1 && reply)
            return look_for_resent(t, seq, seat, action, reply, code, msg, msgsize);
        snprintf(msg, msgsize, "seq %lld is stale: the table is at %lld", (long long)seq,
                 (long long)t->seq);
        *code = "stale";
        return -1;
    }
    int current = tafel_state_current(t->state);
    if (current != seat) {
        if (current == TAFEL_TERMINAL) return fail(code, "over", msg, msgsize, "the game is over");
        return fail(code, "not_your_turn", msg, msgsize, "it is not your turn");
    }
    if (seat >= 0 && table_waiting(t)) return refuse_waiting(t, code, msg, msgsize);
    if (seat >= 0 && clocks_flagged(t, seat, clocks_now_ms())) { /* before tables_tick saw it */
        if (table_time_out(t, seat, NULL, code, msg, msgsize)) return -1;
        return fail(code, "timeout", msg, msgsize, "your time ran out before this move arrived");
    }
    change c = {.after = tafel_state_clone(t->state)};
    if (!c.after) return fail(code, "storage", msg, msgsize, "out of memory");
    tafel_action a = 0;
    if (seat >= 0) {
        tafel_error err;
        /* the engine reads only legal actions, and says why not */
        if (!action || tafel_action_from_text(t->state, action, &a, &err)) {
            change_free(&c, 0);
            return fail(code, "illegal", msg, msgsize, action ? err.message : "no action");
        }
        if (change_add(&c, t->players, seat, a)) {
            change_free(&c, 0);
            return fail(code, "storage", msg, msgsize, "out of memory");
        }
    }
    *code = NULL;
    msg[0] = 0;
    int failed = change_add_chance(&c, t);
    /* Asked only where apply_change would keep the action for undo: the engine
    ** plays the action nine times to tell, the dearest part of a move. */
    if (!failed && seat >= 0 && !t->seats[seat].bot && c.n == 1 &&
        tafel_state_current(c.after) == seat)
        c.reveals = tafel_state_action_reveals(t->state, a);
    if (failed || commit_change(t, &c, seat, reply)) {
        change_free(&c, 0);
        return fail(code, "storage", msg, msgsize, "out of memory");
    }
    return 0;
}

/* What the table waits for, asked again: the opening deal after a restart
** or a failed store, or the bot to move. */
static void table_advance(table *t) {
    if (t->over) return;
    if (tafel_state_current(t->state) == TAFEL_CHANCE) {
        const char *code;
        char why[512];
        table_reply r, *reply = unasked_reply(&r, 1, "the chance events were not stored; "
                                                      "tried again soon");
        if (table_move(t, TAFEL_CHANCE, t->seq, NULL, reply, &code, why, sizeof why) < 0) {
            unasked_drop(reply);
            t->stuck = 1;
            fprintf(stderr, "tafel serve: table %s: the chance events were not stored (%s); "
                            "tried again soon\n", t->id, why);
        }
        return;
    }
    table_ask_bot(t);
}

int table_claim(table *t, int seat, const player *who, const table_reply *reply,
                const char **code, char *msg, size_t msgsize) {
    table_seat to = t->seats[seat];
    to.who = *who;
    return commit_seat(t, seat, &to, 0, 1, 0, reply, code, msg, msgsize);
}

int table_can_undo(const table *t, int seat, const char **why) {
    if (t->over) return *why = "the game is over", 0;
    if (t->undo_seat != seat || t->nundo == 0)
        return *why = "only your own actions of this turn can be taken back, never past a "
                      "chance event, another player's action or a card you were shown",
               0;
    if (tafel_state_current(t->state) != seat)
        return *why = "your turn is over", 0;
    return 1;
}

/* The table's state rebuilt from its first keep actions. */
static int replay_to(table *t, int keep, tafel_state *out) {
    tafel_state_init(t->game, out);
    for (int i = 0; i < keep; i++)
        if (tafel_state_apply_text(out, t->texts[i], NULL)) return -1;
    return 0;
}

int table_undo(table *t, int seat, int64_t seq, const table_reply *reply, const char **code,
               char *msg, size_t msgsize) {
    if (seq != t->seq) {
        snprintf(msg, msgsize, "seq %lld is stale: the table is at %lld", (long long)seq,
                 (long long)t->seq);
        *code = "stale";
        return -1;
    }
    const char *why;
    if (!table_can_undo(t, seat, &why)) return fail(code, "no_undo", msg, msgsize, why);
    int keep = t->undo_at[t->nundo - 1];
    tafel_state *s = tafel_state_new(t->game);
    if (!s || replay_to(t, keep, s)) {
        tafel_state_free(s);
        return fail(code, "storage", msg, msgsize, "the table no longer replays");
    }
    undo_commit *u = calloc(1, sizeof *u);
    if (!u) {
        tafel_state_free(s);
        return fail(code, "storage", msg, msgsize, "out of memory");
    }
    u->keep = keep;
    u->seq = t->seq + 1;
    u->state = s;
    table_commit(t, &u->c, &undo_kind, reply);
    return 0;
}

/* A seat's new controller or resignation: committed, applied, broadcast.
** give_up: the seat's people gave it away (resigned, handed it to a bot):
** their sockets watch from now on, as spectators. */
static int set_seat(table *t, int seat, const table_seat *to, int give_up,
                    const table_reply *reply, const char **code, char *msg, size_t msgsize) {
    return commit_seat(t, seat, to, give_up, 0, 0, reply, code, msg, msgsize);
}

/* The seat's external bot broke the rules of the protocol (crashed, hung,
** answered garbage, an illegal move, too late): it loses the seat like a
** resignation, and the reason is kept for the players and the record. */
static void table_forfeit(table *t, int seat, const char *reason) {
    fprintf(stderr, "tafel serve: table %s: seat %d (%s) forfeits: %s\n", t->id, seat,
            t->seats[seat].spec, reason);
    table_seat to = t->seats[seat];
    to.resigned = 1;
    snprintf(to.forfeit, sizeof to.forfeit, "%s", reason[0] ? reason : "forfeited");
    const char *code;
    char msg[512];
    table_reply r, *reply = unasked_reply(&r, 0, "the forfeit was not stored");
    if (set_seat(t, seat, &to, 0, reply, &code, msg, sizeof msg)) {
        unasked_drop(reply);
        fprintf(stderr, "tafel serve: table %s: the forfeit was not stored: %s\n", t->id, msg);
    }
}

static int check_seq(const table *t, int64_t seq, const char **code, char *msg, size_t size) {
    if (t->over) return fail(code, "over", msg, size, "the game is over");
    if (seq == t->seq) return 0;
    snprintf(msg, size, "seq %lld is stale: the table is at %lld", (long long)seq,
             (long long)t->seq);
    *code = "stale";
    return -1;
}

static int aborts(const table *t, int seat);
static int table_abort(table *t, int seat, const char *why, const table_reply *reply,
                       const char **code, char *msg, size_t msgsize);

int table_resign(table *t, int seat, int64_t seq, const table_reply *reply, const char **code,
                 char *msg, size_t msgsize) {
    if (check_seq(t, seq, code, msg, msgsize)) return -1;
    if (t->seats[seat].resigned) return fail(code, "over", msg, msgsize, "you have resigned");
    if (aborts(t, seat)) return table_abort(t, seat, "resigned", reply, code, msg, msgsize);
    table_seat to = t->seats[seat];
    to.resigned = 1;
    to.bot = 1; /* its turns are still taken, by the rules */
    snprintf(to.spec, sizeof to.spec, "greedy");
    return set_seat(t, seat, &to, 1, reply, code, msg, msgsize);
}

int table_hand_over(table *t, int seat, int64_t seq, const char *bot, const table_reply *reply,
                    const char **code, char *msg, size_t msgsize) {
    if (check_seq(t, seq, code, msg, msgsize)) return -1;
    if (t->seats[seat].resigned)
        return fail(code, "over", msg, msgsize, "you have resigned: the seat is no longer yours");
    if (t->seats[seat].bot)
        return fail(code, "not_seated", msg, msgsize, "a bot plays this seat already");
    /* a bot plays the game on: only at a rated table would the seat's place,
    ** last, be a loss given away (docs/club.md, "Aborted games") */
    if (t->rated && aborts(t, seat))
        return table_abort(t, seat, "handed over", reply, code, msg, msgsize);
    char why[512];
    if (!bot || strlen(bot) >= STORE_SPEC_MAX || check_bot(bot, t->game, why, sizeof why))
        return fail(code, "bad_game", msg, msgsize,
                    !bot ? "no bot named" : strlen(bot) >= STORE_SPEC_MAX ? "the spec is too long"
                                                                      : why);
    table_seat to = t->seats[seat];
    to.bot = 1;
    to.has_token = 0; /* the token seats nobody from now on */
    memset(to.token_hash, 0, sizeof to.token_hash);
    snprintf(to.spec, sizeof to.spec, "%s", bot);
    return set_seat(t, seat, &to, 1, reply, code, msg, msgsize);
}

/* The table ended before its game did, as stored already (seq + 1, its
** reason): applied and told.  0. */
static int end_early(table *t, const char *reason) {
    t->seq++;
    snprintf(t->end_reason, sizeof t->end_reason, "%s", reason);
    changed(t);
    ended(t);
    t->nundo = 0;
    t->undo_seat = -1;
    free_last(t);
    table_changed(t);
    return 0;
}

/* Whether seat played an action of its own (one taken back does not count). */
static int has_acted(const table *t, int seat) {
    for (int i = 0; i < t->nactions; i++)
        if (t->action_seats[i] == seat) return 1;
    return 0;
}

/* Whether a person's seat giving up now aborts the table: its player
** (bound: claimed or invited, so the table leaves results) never acted,
** so the game was never played -- as lichess aborts a game whose player
** has not moved.  It also leaves a second account nothing to give away by
** resigning at once (docs/club.md, "Aborted games").  A seat nobody is
** bound to has no player whose record a loss would touch: it loses on time
** as before. */
static int aborts(const table *t, int seat) {
    return !t->seats[seat].bot && t->seats[seat].who.id && !has_acted(t, seat);
}

/* Ends the table as "aborted" (or another reason that leaves no results):
** stored, applied, told. */
static int end_unrated(table *t, const char *reason, const table_reply *reply,
                       const char **code, char *msg, size_t msgsize) {
    return commit_end(t, reason, -1, reply, code, msg, msgsize);
}

static int table_abort(table *t, int seat, const char *why, const table_reply *reply,
                       const char **code, char *msg, size_t msgsize) {
    fprintf(stderr, "tafel serve: table %s aborted: seat %d %s before its first action\n",
            t->id, seat, why);
    return end_unrated(t, "aborted", reply, code, msg, msgsize);
}

int table_answer(table *t, int seat, int accept, const table_reply *reply, const char **code,
                 char *msg, size_t msgsize) {
    if (t->over) return fail(code, "over", msg, msgsize, "the game is over");
    if (seat < 0 || !t->seats[seat].invite)
        return fail(code, "not_invited", msg, msgsize, "you have no invitation waiting at this "
                                                       "table");
    if (!accept) return end_unrated(t, "declined", reply, code, msg, msgsize);
    table_seat to = t->seats[seat];
    to.invite = 0;
    return commit_seat(t, seat, &to, 0, 0, 1, reply, code, msg, msgsize);
}

int table_time_out(table *t, int seat, const table_reply *reply, const char **code, char *msg,
                   size_t msgsize) {
    if (t->over) return fail(code, "over", msg, msgsize, "the game is over");
    fprintf(stderr, "tafel serve: table %s: seat %d's time ran out\n", t->id, seat);
    if (aborts(t, seat))
        return table_abort(t, seat, "ran out of time", reply, code, msg, msgsize);
    if (t->players >= 3) { /* a bot plays the seat on, as a hand-over does */
        table_seat to = t->seats[seat];
        const char *bot = t->bot_level[0] ? t->bot_level : "medium";
        char why[512];
        if (check_bot(bot, t->game, why, sizeof why)) bot = "medium";
        to.bot = 1;
        to.has_token = 0;
        memset(to.token_hash, 0, sizeof to.token_hash);
        snprintf(to.spec, sizeof to.spec, "%s", bot);
        snprintf(to.forfeit, sizeof to.forfeit, "time");
        to.clock_ms = 0;
        return set_seat(t, seat, &to, 1, reply, code, msg, msgsize);
    }
    return commit_end(t, "timeout", seat, reply, code, msg, msgsize);
}

/* A time as words for an error: "2 d 3 h", "4 min 5 s". */
static void time_words(int64_t ms, char *out, size_t size) {
    int64_t s = (ms + 999) / 1000, d = s / 86400, h = s % 86400 / 3600, m = s % 3600 / 60;
    if (d) snprintf(out, size, "%lld d %lld h", (long long)d, (long long)h);
    else if (h) snprintf(out, size, "%lld h %lld min", (long long)h, (long long)m);
    else snprintf(out, size, "%lld min %lld s", (long long)m, (long long)(s % 60));
}

int table_claim_time(table *t, int seat, int64_t seq, const table_reply *reply,
                     const char **code, char *msg, size_t msgsize) {
    if (check_seq(t, seq, code, msg, msgsize)) return -1;
    if (table_waiting(t)) return refuse_waiting(t, code, msg, msgsize);
    if (t->clock.kind != TABLE_CLOCK_CORRESPONDENCE)
        return fail(code, "no_claim", msg, msgsize,
                    t->clock.kind == TABLE_CLOCK_REALTIME
                        ? "a real-time game ends by itself when a clock runs out: nothing to claim"
                        : "this table has no clock: nothing to claim");
    int running = clocks_turn_seat(t);
    if (running < 0) return fail(code, "no_claim", msg, msgsize, "no player is to move now");
    if (running == seat)
        return fail(code, "no_claim", msg, msgsize, "it is your own turn: only another "
                                                    "player's time can be claimed");
    int64_t left = clocks_left_ms(t, running, clocks_now_ms());
    if (left > 0) {
        char words[64];
        time_words(left, words, sizeof words);
        *code = "too_early";
        snprintf(msg, msgsize, "seat %d still has %s (%lld ms) to move: the game can be claimed "
                 "once that has passed", running, words, (long long)left);
        return -1;
    }
    return table_time_out(t, running, reply, code, msg, msgsize);
}

int table_winners(const table *t, int *out) {
    int n = 0, left = -1, count = 0;
    for (int i = 0; i < t->players; i++)
        if (!t->seats[i].resigned) left = i, count++;
    if (count == 1) {
        out[0] = left;
        return 1;
    }
    if (tafel_state_current(t->state) != TAFEL_TERMINAL) return 0;
    double scores[TAFEL_MAX_PLAYERS], best = 0;
    tafel_state_scores(t->state, scores);
    int any = 0;
    for (int i = 0; i < t->players; i++)
        if (!t->seats[i].resigned && (!any || scores[i] > best)) best = scores[i], any = 1;
    for (int i = 0; i < t->players; i++)
        if (!t->seats[i].resigned && scores[i] == best) out[n++] = i;
    return n;
}

/* ---- watchers -------------------------------------------------------- */

void table_watch(table *t, int seat) {
    t->watching++;
    if (seat >= 0) {
        t->seats[seat].connected++;
        generation++;
    }
}

void table_unwatch(table *t, int seat) {
    t->watching--;
    if (seat >= 0) {
        t->seats[seat].connected--;
        generation++;
    }
    sweep_later(t);
}

void table_changed(table *t) {
    clocks_changed(t); /* after a change: before anyone is told of it */
    if (told.changed) told.changed(t);
}

/* ---- what the club is told of a table -------------------------------- */

void table_ratings(const table *t, ratings_table *out) {
    double scores[TAFEL_MAX_PLAYERS] = {0};
    tafel_state_scores(t->state, scores);
    out->id = t->id;
    out->game = tafel_game_name(t->game);
    out->rated = t->rated;
    out->end_reason = t->end_reason;
    out->players = t->players;
    for (int i = 0; i < t->players; i++) {
        const table_seat *ts = &t->seats[i];
        out->seats[i] = (ratings_seat){.who = ts->who, .spec = ts->spec, .bot = ts->bot,
                                       .resigned = ts->resigned, .forfeited = ts->forfeit[0] != 0,
                                       .score = scores[i]};
    }
}

/* The seats' ratings on their way from the store: the seats as they were
** asked for (copied: the job reads no table), and what was read. */
typedef struct rating_job {
    char id[STORE_ID_LEN + 1];
    char game[64];
    int players;
    uint64_t gen;
    int64_t seq;
    ratings_seat seats[TAFEL_MAX_PLAYERS];
    char specs[TAFEL_MAX_PLAYERS][STORE_SPEC_MAX];
    int rating[TAFEL_MAX_PLAYERS];
} rating_job;

static ratings_seat rating_seat_of(const table_seat *ts) {
    return (ratings_seat){.who = ts->who, .spec = ts->spec, .bot = ts->bot,
                          .resigned = ts->resigned, .forfeited = ts->forfeit[0] != 0};
}

static void rating_keep(table_seat *ts, int rating, uint64_t gen, int64_t seq) {
    ts->rating = rating;
    ts->rating_gen = gen;
    ts->rating_seq = seq;
    ts->rating_player = ts->who.id;
}

static int ratings_read(store *given, void *ctx, char *err, size_t errsize) {
    rating_job *j = ctx;
    (void)given, (void)err, (void)errsize; /* the club reads through given */
    for (int i = 0; i < j->players; i++) j->rating[i] = ratings_seat_rating(j->game, &j->seats[i]);
    return 0;
}

/* Kept for the seats whose player is the one read; the watchers told when
** one shows another rating now. */
static void ratings_read_done(void *ctx, int rc, const char *err) {
    rating_job *j = ctx;
    table *t = (table *)tables_loaded(j->id);
    (void)err;
    if (t && rc != TABLE_UNANSWERED) {
        t->rating_reads = 0;
        int differs = 0;
        for (int i = 0; i < j->players && i < t->players; i++) {
            table_seat *ts = &t->seats[i];
            if (ts->who.id != j->seats[i].who.id) continue;
            int before = ts->rating_gen && ts->rating_player == ts->who.id ? ts->rating : -1;
            differs |= before != j->rating[i];
            rating_keep(ts, j->rating[i], j->gen, j->seq);
        }
        if (differs && told.changed && !t->busy) told.changed(t);
    }
    free(j);
}

/* Asks a job to read t's seats' ratings, unless one does already. */
static void ratings_read_later(table *t) {
    if (t->rating_reads) return;
    rating_job *j = calloc(1, sizeof *j);
    if (!j) return; /* shown as they were: asked again by the next state */
    memcpy(j->id, t->id, sizeof j->id);
    snprintf(j->game, sizeof j->game, "%s", tafel_game_name(t->game));
    j->players = t->players;
    j->gen = ratings_generation();
    j->seq = t->seq;
    for (int i = 0; i < t->players; i++) {
        j->seats[i] = rating_seat_of(&t->seats[i]);
        snprintf(j->specs[i], sizeof j->specs[i], "%s", t->seats[i].spec);
        j->seats[i].spec = j->specs[i];
    }
    t->rating_reads = 1;
    tables_later(j->id, ratings_read, ratings_read_done, j);
}

int table_seat_rating(const table *t, int seat) {
    /* Every socket's state of a change shows the same ratings: they are read
    ** once per change, seat player and rating change, and kept in the seat
    ** (a cache: the table is otherwise the caller's to read only). */
    table_seat *ts = (table_seat *)&t->seats[seat];
    int player_read = ts->rating_gen && ts->rating_player == ts->who.id;
    if (tables_later_waits()) {
        /* a rating changes only with ratings_generation: not read per change */
        if (!player_read || ts->rating_gen != ratings_generation())
            ratings_read_later((table *)t);
        return player_read ? ts->rating : -1;
    }
    if (ts->rating_gen != ratings_generation() || ts->rating_seq != t->seq || !player_read) {
        ratings_seat rs = rating_seat_of(ts);
        rating_keep(ts, ratings_seat_rating(tafel_game_name(t->game), &rs), ratings_generation(),
                    t->seq);
    }
    return ts->rating;
}

/* ---- bots ------------------------------------------------------------- */

/* Jobs are made here, and freed here when done (or by the fuzz target). */
void bot_job_free(bot_job *job) {
    if (!job) return;
    tafel_state_free(job->state);
    for (int i = 0; i < job->ntexts; i++) free(job->texts[i]);
    free(job->texts);
    extseats_unref(job->ext);
    free(job);
}

/* Whose share of the bots' time a table's bots take (botpool.c): the
** account that made it, else the address it was made from (a guest's too:
** guests are cheap to make), else (an older table) the table itself. */
static void table_client(const table *t, char *out, size_t size) {
    if (t->creator.kind == PLAYER_ACCOUNT)
        snprintf(out, size, "account:%lld", (long long)t->creator.id);
    else if (t->creator_addr[0]) snprintf(out, size, "address:%s", t->creator_addr);
    else snprintf(out, size, "table:%s", t->id);
}

/* A job for the seat's bot (spec) on a copy of the table; an external
** bot's job also holds the seat's program and every action so far. */
static bot_job *new_job(const table *t, int seat, const char *spec) {
    bot_job *job = calloc(1, sizeof *job);
    if (!job) return NULL;
    memcpy(job->table_id, t->id, sizeof job->table_id);
    table_client(t, job->client, sizeof job->client);
    job->seq = t->seq;
    job->seat = seat;
    snprintf(job->spec, sizeof job->spec, "%s", spec);
    snprintf(job->game, sizeof job->game, "%s", t->game_string);
    job->seed = mix(t->seed ^ 0x626f74ULL, (uint64_t)t->nactions);
    job->forfeit_seat = -1;
    int ok = (job->state = tafel_state_clone(t->state)) != NULL;
    if (ok && extbot_is_spec(spec)) {
        /* one seed per seat: a restarted program replays the same game */
        job->seed = mix(t->seed ^ 0x657874ULL, (uint64_t)seat);
        ok = (job->ext = extseats_ref(t->id, seat, 1)) != NULL &&
             (job->texts = calloc((size_t)t->nactions + 1, sizeof *job->texts)) != NULL;
        for (int i = 0; ok && i < t->nactions; i++, job->ntexts++)
            ok = (job->texts[i] = dup_text(t->texts[i])) != NULL;
    }
    if (!ok) {
        bot_job_free(job);
        return NULL;
    }
    return job;
}

/* A job for seat's external program, when it has one here (NULL: none, or
** out of memory, and the program then ends with the server). */
static bot_job *program_job(table *t, int seat) {
    struct ext_seat *e = extseats_ref(t->id, seat, 0);
    if (!e) return NULL;
    bot_job *job = new_job(t, seat, t->seats[seat].spec);
    if (!job) {
        extseats_unref(e);
        return NULL;
    }
    if (!job->ext) job->ext = e; /* a resigned seat's spec is no longer ext: */
    else extseats_unref(e);
    return job;
}

/* The table went to another node: its external programs end, told
** nothing (the new owner starts its own) -- by a worker, as always. */
static void stop_programs(table *t) {
    for (int seat = 0; seat < t->players; seat++) {
        bot_job *job = program_job(t, seat);
        if (!job) continue;
        job->ext_stop = 1;
        botpool_submit(job);
    }
}

/* The game is over: every external program of the table is told so and
** ended -- by a worker, as the loop never waits on a program. */
static void end_programs(table *t) {
    int forfeit_seat = -1;
    const char *reason = "";
    if (tafel_state_current(t->state) != TAFEL_TERMINAL) /* ended by forfeit or resignation */
        for (int i = 0; i < t->players && forfeit_seat < 0; i++)
            if (t->seats[i].resigned)
                forfeit_seat = i, reason = t->seats[i].forfeit[0] ? t->seats[i].forfeit
                                                                 : "resigned";
    for (int seat = 0; seat < t->players; seat++) {
        bot_job *job = program_job(t, seat);
        if (!job) continue;
        if (!job->texts) job->ntexts = 0; /* nothing to tell: it is only ended */
        job->ext_end = 1;
        job->nwinners = table_winners(t, job->winners);
        job->forfeit_seat = forfeit_seat;
        snprintf(job->forfeit_reason, sizeof job->forfeit_reason, "%s", reason);
        botpool_submit(job);
    }
}

void table_ask_bot(table *t) {
    int seat = tafel_state_current(t->state);
    if (t->over || seat < 0 || !t->seats[seat].bot || t->bot_asked == t->seq || table_waiting(t))
        return;
    /* a seat that resigned or forfeited still has turns: the rules take them */
    bot_job *job = new_job(t, seat, t->seats[seat].resigned ? "greedy" : t->seats[seat].spec);
    if (!job) {
        fprintf(stderr, "tafel serve: out of memory asking a bot at table %s\n", t->id);
        return;
    }
    t->bot_asked = t->seq;
    botpool_submit(job);
}

int table_ask_hint(table *t, int seat, uint64_t watcher_id, const char *client) {
    if (botpool_hint_pending(t->id, seat)) return 1;
    bot_job *job = calloc(1, sizeof *job);
    if (!job || !(job->state = tafel_state_clone(t->state))) {
        free(job);
        return -1;
    }
    memcpy(job->table_id, t->id, sizeof job->table_id);
    job->seq = t->seq;
    job->seat = seat;
    job->hint = 1;
    job->session_id = watcher_id;
    snprintf(job->client, sizeof job->client, "%s", client);
    snprintf(job->spec, sizeof job->spec, "hard");
    snprintf(job->game, sizeof job->game, "%s", t->game_string);
    job->seed = mix(t->seed ^ 0x68696e74ULL, (uint64_t)t->nactions);
    botpool_submit(job);
    return 0;
}

/* A bot's answer to the table at seq: its move's text, or why its seat
** forfeits; kept while the table is busy. */
typedef struct bot_answer {
    int64_t seq;
    int seat;
    int forfeit;
    char text[STORE_REASON_MAX];
} bot_answer;

static void bot_answer_run(table *t, void *ctx) {
    bot_answer *b = ctx;
    if (!t || t->seq != b->seq) { /* gone, or moved on meanwhile */
        free(b);
        return;
    }
    if (b->forfeit) {
        table_forfeit(t, b->seat, b->text);
        free(b);
        return;
    }
    char msg[512] = "";
    const char *code = NULL;
    /* storage failed (a full disk): the bot is asked again by tables_tick */
    table_reply r, *reply = unasked_reply(&r, 1, "the bot's move '%s' was refused", b->text);
    if (!b->text[0] || table_move(t, b->seat, t->seq, b->text, reply, &code, msg,
                                  sizeof msg) < 0) {
        unasked_drop(reply);
        fprintf(stderr, "tafel serve: table %s: the bot's move '%s' was refused: %s\n", t->id,
                b->text, msg);
        if (code && !strcmp(code, "storage")) t->stuck = 1;
    }
    free(b);
}

void tables_bot_done(bot_job *job) {
    if (job->ext_end || job->skipped) return; /* nothing to apply */
    table *t = (table *)tables_loaded(job->table_id);
    if (!t || t->seq != job->seq) return; /* the table moved on (undo, hand-over) */
    if (job->hint) {
        if (!job->failed && told.hint) told.hint(t, job);
        return;
    }
    t->bot_asked = -1;
    bot_answer *b = calloc(1, sizeof *b);
    if (!b) {
        fprintf(stderr, "tafel serve: table %s: out of memory for the bot's answer\n", t->id);
        t->stuck = 1;
        return;
    }
    b->seq = job->seq;
    b->seat = job->seat;
    b->forfeit = job->forfeit;
    if (job->forfeit) {
        snprintf(b->text, sizeof b->text, "%s", job->error);
    } else { /* as text now: the table's state is the one the bot saw */
        tafel_action a = job->action;
        if (job->failed) {
            fprintf(stderr, "tafel serve: table %s: bot %s failed (%s); it plays the first "
                            "legal action\n", t->id, job->spec, job->error);
            tafel_state_legal_actions(t->state, &a, 1);
        }
        if (tafel_action_to_text(t->state, a, b->text, sizeof b->text) < 0) b->text[0] = 0;
    }
    if (table_defer(t, bot_answer_run, b)) {
        free(b);
        t->stuck = 1;
    }
}

/* An unfinished table nobody changed for --expire ends as abandoned:
** stored, then told.  0, or -1 when storage failed (tried again later). */
static int table_abandon(table *t) {
    const char *code;
    char why[512];
    table_reply r, *reply = unasked_reply(&r, 1, "not ended as abandoned");
    if (end_unrated(t, "abandoned", reply, &code, why, sizeof why)) {
        unasked_drop(reply);
        fprintf(stderr, "tafel serve: table %s: not ended as abandoned: %s\n", t->id, why);
        return -1;
    }
    return 0;
}

/* About once a second (the loop): tables left alone too long end, and
** changes that storage refused are tried again.  One walk over the tables
** in memory, of which at most --max-tables are unfinished; a busy one waits
** for the next tick. */
void tables_tick(void) {
    long expire = config.expire_seconds;
    int64_t now = now_seconds();
    for (table *t = all, *next; t; t = next) {
        next = t->next;
        if (t->over || t->busy) continue;
        if (t->reload) {
            t->reload = 0;
            table_reload(t);
            continue;
        }
        if (t->invite_until && now >= t->invite_until && table_waiting(t)) {
            const char *code;
            char why[512];
            table_reply r, *reply = unasked_reply(&r, 0, "not ended as expired (tried again)");
            if (end_unrated(t, "expired", reply, &code, why, sizeof why) == 0) continue;
            unasked_drop(reply);
            fprintf(stderr, "tafel serve: table %s: not ended as expired (tried again): %s\n",
                    t->id, why);
            continue;
        }
        if (expire > 0 && now - t->updated >= expire) {
            if (table_abandon(t) == 0) continue;
            t->stuck = 1;
            continue;
        }
        if (t->stuck) {
            t->stuck = 0;
            t->bot_asked = -1;
            table_advance(t); /* sets stuck again when storage still fails */
        }
    }
    clocks_tick();
    ownership_tick();
}
