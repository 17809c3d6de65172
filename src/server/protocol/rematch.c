/*
** rematch.c -- the rematch of a finished table (rematch.h): its offers and
** the table it makes.
**
** An offer lives in memory only, here (a restart or the asker leaving the
** table ends it): the asker's old seat, the seats of the people who
** accepted, and the asker's player and address, which pay for the table.
** Each open offer has a socket of its asker at its table (it ends when the
** last one leaves), so there are never more offers than sockets.  Bots
** need not answer: their seats count as accepted.
**
** The new table is made with tables_create like any other (the asker's
** address pays for it from its quota of new tables), bound players are
** bound to their new seats at once, and each seat's new token goes to the
** sockets sitting in the old seat, so a client without a login (an API
** client, which plays by tokens alone) follows too.  The offer stays while
** the new table is being stored (making: nobody answers it again), then
** the old table's link to it is stored in its turn at that table, and only
** then are its sockets sent the rematch.  The tokens are kept
** here for the latest REMATCH_KEPT rematches, for a second asker; the
** database keeps only their hashes.
*/
#include "rematch.h"
#include "protocol.h"
#include "requests.h"

#include "tables.h"
#include "watchers.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct kept {
    char old_id[STORE_ID_LEN + 1], new_id[STORE_ID_LEN + 1];
    char tokens[TAFEL_MAX_PLAYERS][33];
} kept;

static kept ring[REMATCH_KEPT];
static int ring_next;

typedef struct offer {
    char table_id[STORE_ID_LEN + 1];
    int from;          /* the asker's old seat */
    unsigned accepted; /* a bit per seat: the asker's, the people's who said yes */
    player asker;      /* the new table's creator */
    char addr[64];     /* whose quota of new tables pays for it */
    int making;        /* everyone accepted: the new table is being stored */
} offer;

static offer *offers;
static int noffers, offers_cap;

static offer *find_offer(const char *table_id) {
    for (int i = 0; i < noffers; i++)
        if (!strcmp(offers[i].table_id, table_id)) return &offers[i];
    return NULL;
}

static void drop_offer(offer *o) {
    *o = offers[--noffers];
}

/* The seats whose people must still say yes: every person's (a seat
** with a token: resigned or handed to a bot, it is a person's again in
** the rematch). */
static unsigned waiting_seats(const table *t, const offer *o) {
    unsigned waiting = 0;
    for (int i = 0; i < t->players; i++)
        if (t->seats[i].has_token && !(o->accepted & (1u << i))) waiting |= 1u << i;
    return waiting;
}

static const kept *find_kept(const char *old_id) {
    for (int i = 0; i < REMATCH_KEPT; i++)
        if (!strcmp(ring[i].old_id, old_id)) return &ring[i];
    return NULL;
}

int rematch_seat(const table *t, const session *s) {
    if (s->seat >= 0) return s->seat;
    int bound = table_seat_of_player(t, s->who.id);
    return bound >= 0 ? bound : s->left_seat - 1;
}

static void send_rematch(session *s, const char *id, int seat, const char *token) {
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddStringToObject(msg, "type", "rematch");
    cJSON_AddStringToObject(msg, "table", id);
    cJSON_AddNumberToObject(msg, "seat", seat);
    if (token && token[0]) cJSON_AddStringToObject(msg, "token", token);
    else cJSON_AddNullToObject(msg, "token");
    char *text = cJSON_PrintUnformatted(msg);
    cJSON_Delete(msg);
    if (text) session_send(s, text, strlen(text));
    free(text);
}

/* Tells every socket at t that its offer ended (reason "declined",
** "withdrawn", "left" or "failed"), by seat by (-1: nobody's doing), and
** sends the states without it. */
static void offer_ended(table *t, int from, int by, const char *reason) {
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddStringToObject(msg, "type", "rematch_ended");
    cJSON_AddNumberToObject(msg, "from", from);
    if (by >= 0) cJSON_AddNumberToObject(msg, "by", by);
    else cJSON_AddNullToObject(msg, "by");
    cJSON_AddStringToObject(msg, "reason", reason);
    char *text = cJSON_PrintUnformatted(msg);
    cJSON_Delete(msg);
    int nat;
    session **at = watchers_of(t, &nat);
    for (int i = 0; text && i < nat; i++) session_send(at[i], text, strlen(text));
    free(text);
    table_changed(t);
}

/* The old table t links to its rematch (stored or not): its sockets are
** sent their new seats. */
static void linked(table *t, void *ctx, int rc, const char *code, const char *msg) {
    request *r = ctx;
    (void)code;
    if (rc < 0) { /* shown all the same: the new table is there */
        fprintf(stderr, "tafel serve: table %s: its rematch %s was not stored: %s\n", t->id,
                r->other, msg);
        snprintf(t->rematch, sizeof t->rematch, "%s", r->other);
        table_changed(t);
    }
    if (rc != TABLE_UNANSWERED) {
        int n = t->players, nat;
        session **at = watchers_of(t, &nat);
        for (int i = 0; i < nat; i++) {
            session *other = at[i];
            int old = rematch_seat(t, other);
            if (old >= 0)
                send_rematch(other, r->other, (old + 1) % n, r->tokens[(old + 1) % n]);
        }
    }
    request_free(r);
}

static void link_run(table *t, void *ctx) {
    request *r = ctx;
    const char *code;
    char why[512];
    table_reply reply = {.done = linked, .ctx = r};
    if (!t || table_set_rematch(t, r->other, &reply, &code, why, sizeof why)) {
        if (t) fprintf(stderr, "tafel serve: table %s: its rematch %s was not stored: %s\n",
                       t->id, r->other, why);
        request_free(r);
    }
}

/* The new table is stored (next), or not: the offer ends either way; the
** link to it waits for its turn at the old table. */
static void rematch_made(table *next, void *ctx, int rc, const char *code, const char *msg) {
    request *r = ctx;
    /* not at the stop; an old table no longer here has no offer to end */
    table *t = rc == TABLE_UNANSWERED ? NULL : (table *)tables_loaded(r->table);
    offer *o = t ? find_offer(t->id) : NULL;
    if (o && o->making) drop_offer(o);
    if (rc || !t) {
        if (rc < 0 && r->s) protocol_send_error(r->s, code, "rematch: %s", msg);
        if (rc < 0 && t) offer_ended(t, r->seat, -1, "failed");
        request_free(r);
        return;
    }
    snprintf(r->other, sizeof r->other, "%s", next->id);
    kept *k = &ring[ring_next];
    ring_next = (ring_next + 1) % REMATCH_KEPT;
    snprintf(k->old_id, sizeof k->old_id, "%s", t->id);
    snprintf(k->new_id, sizeof k->new_id, "%s", next->id);
    memcpy(k->tokens, r->tokens, sizeof k->tokens);
    if (table_defer(t, link_run, r)) {
        fprintf(stderr, "tafel serve: table %s: its rematch %s was not stored: out of memory\n",
                t->id, next->id);
        request_free(r);
    }
}

/* Every person accepted: the new table, made for the asker (from its
** address's quota), and every old seat's sockets sent theirs.  On a
** refusal the socket s that completed the offer is told why, and the
** offer ends for everyone. */
static void make_rematch(session *s, table *t, offer *o) {
    int n = t->players, from = o->from;
    const char *specs[TAFEL_MAX_PLAYERS];
    table_options opt;
    memset(&opt, 0, sizeof opt);
    for (int i = 0; i < n; i++) {
        const table_seat *ts = &t->seats[i];
        /* a person's seat (resigned or handed to a bot) is a person's again */
        specs[(i + 1) % n] = ts->has_token ? "human" : ts->spec;
        opt.seat_players[(i + 1) % n] = ts->who;
    }
    opt.rated = t->rated;
    opt.private_ = t->private_;
    opt.clock = t->clock;
    snprintf(opt.bot_level, sizeof opt.bot_level, "%s", t->bot_level);
    opt.rematch_of = t;
    opt.creator = o->asker;
    char why[512], addr[sizeof o->addr];
    snprintf(addr, sizeof addr, "%s", o->addr);
    o->making = 1; /* made or refused, the offer is over then */
    const char *code = "storage";
    request *r = request_new(s);
    if (r) {
        snprintf(r->table, sizeof r->table, "%s", t->id);
        r->seat = from;
    }
    table_reply reply = {.done = rematch_made, .ctx = r};
    if (!r || tables_create(t->game_string, specs, n, 0, 0, &opt, addr, &reply, r->tokens, &code,
                            why, sizeof why)) {
        if (!r) snprintf(why, sizeof why, "out of memory");
        if ((o = find_offer(t->id))) drop_offer(o);
        request_free(r);
        protocol_send_error(s, code, "rematch: %s", why);
        offer_ended(t, from, -1, "failed");
    }
}

static offer *new_offer(session *s, const table *t, int seat) {
    if (noffers == offers_cap) {
        int cap = offers_cap ? 2 * offers_cap : 16;
        offer *more = realloc(offers, sizeof *more * (size_t)cap);
        if (!more) return NULL;
        offers = more;
        offers_cap = cap;
    }
    offer *o = &offers[noffers++];
    memset(o, 0, sizeof *o);
    snprintf(o->table_id, sizeof o->table_id, "%s", t->id);
    o->from = seat;
    o->accepted = 1u << seat;
    o->asker = s->who;
    snprintf(o->addr, sizeof o->addr, "%s", s->addr);
    return o;
}

void rematch_request(session *s, int decline) {
    table *t = s->table;
    int seat = t ? rematch_seat(t, s) : -1;
    if (seat < 0) {
        protocol_send_error(s, "not_seated", "rematch: only a player of the table asks for one");
        return;
    }
    if (!t->over) {
        protocol_send_error(s, "not_over", "a rematch follows a finished game");
        return;
    }
    int n = t->players;
    offer *o = find_offer(t->id);
    if (o && o->making) { /* everyone accepted: the rematch message follows */
        if (decline)
            protocol_send_error(s, "no_offer", "rematch: everyone accepted, the rematch is being "
                                               "made");
        return;
    }
    if (decline) {
        if (!o) {
            protocol_send_error(s, "no_offer", "rematch: no rematch is offered at this table");
            return;
        }
        int from = o->from;
        drop_offer(o);
        offer_ended(t, from, seat, seat == from ? "withdrawn" : "declined");
        return;
    }
    if (t->rematch[0]) { /* made before: the same table */
        const kept *k = find_kept(t->id);
        send_rematch(s, t->rematch, (seat + 1) % n,
                     k && !strcmp(k->new_id, t->rematch) ? k->tokens[(seat + 1) % n] : NULL);
        return;
    }
    if (!o && !(o = new_offer(s, t, seat))) {
        protocol_send_error(s, "storage", "out of memory");
        return;
    }
    o->accepted |= 1u << seat;
    if (!waiting_seats(t, o)) make_rematch(s, t, o);
    else table_changed(t); /* the offer, or who accepted it, in everyone's state */
}

void rematch_offer_json(const table *t, cJSON *msg) {
    const offer *o = find_offer(t->id);
    if (!o) return;
    cJSON *json = cJSON_AddObjectToObject(msg, "rematch_offer");
    cJSON_AddNumberToObject(json, "from", o->from);
    cJSON *accepted = cJSON_AddArrayToObject(json, "accepted");
    cJSON *waiting = cJSON_AddArrayToObject(json, "waiting");
    unsigned wait = waiting_seats(t, o);
    for (int i = 0; i < t->players; i++) {
        if (wait & (1u << i)) cJSON_AddItemToArray(waiting, cJSON_CreateNumber(i));
        else if (t->seats[i].has_token) cJSON_AddItemToArray(accepted, cJSON_CreateNumber(i));
    }
}

void rematch_left(table *t, int seat) {
    offer *o = find_offer(t->id);
    if (!o || seat != o->from) return;
    int nat;
    session **at = watchers_of(t, &nat);
    for (int i = 0; i < nat; i++)
        if (rematch_seat(t, at[i]) == seat) return; /* another of its pages stays */
    drop_offer(o);
    if (!protocol_is_stopping()) offer_ended(t, seat, seat, "left");
}
