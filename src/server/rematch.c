/*
** rematch.c -- the rematch of a finished table (rematch.h).
**
** The new table is made with tables_create like any other (the asker's
** address pays for it from its quota of new tables), bound players are
** bound to their new seats at once, and each seat's new token goes to the
** sockets sitting in the old seat, so a client without a login (an API
** client, which plays by tokens alone) follows too.  The tokens are kept
** here for the latest REMATCH_KEPT rematches, for a second asker; the
** database keeps only their hashes.
*/
#include "rematch.h"

#include "tables.h"

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

static const kept *find_kept(const char *old_id) {
    for (int i = 0; i < REMATCH_KEPT; i++)
        if (!strcmp(ring[i].old_id, old_id)) return &ring[i];
    return NULL;
}

/* The old seat of socket s at t: its seat, the one its player is bound to,
** or the one it gave up. */
static int old_seat(const table *t, const session *s) {
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

void rematch_request(session *s) {
    table *t = s->table;
    int seat = t ? old_seat(t, s) : -1;
    if (seat < 0) {
        protocol_send_error(s, "not_seated", "rematch: only a player of the table asks for one");
        return;
    }
    if (!t->over) {
        protocol_send_error(s, "not_over", "a rematch follows a finished game");
        return;
    }
    int n = t->players;
    if (t->rematch[0]) { /* asked before: the same table */
        const kept *k = find_kept(t->id);
        send_rematch(s, t->rematch, (seat + 1) % n,
                     k && !strcmp(k->new_id, t->rematch) ? k->tokens[(seat + 1) % n] : NULL);
        return;
    }
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
    opt.creator = s->who;
    char tokens[TAFEL_MAX_PLAYERS][33], why[512];
    const char *code;
    table *next = tables_create(t->game_string, specs, n, 0, 0, &opt, s->addr, tokens, &code,
                                why, sizeof why);
    if (!next) {
        protocol_send_error(s, code, "rematch: %s", why);
        return;
    }
    if (store_set_rematch(tables_store(), t->id, next->id, why, sizeof why))
        fprintf(stderr, "tafel serve: table %s: its rematch %s was not stored: %s\n", t->id,
                next->id, why);
    snprintf(t->rematch, sizeof t->rematch, "%s", next->id);
    kept *k = &ring[ring_next];
    ring_next = (ring_next + 1) % REMATCH_KEPT;
    snprintf(k->old_id, sizeof k->old_id, "%s", t->id);
    snprintf(k->new_id, sizeof k->new_id, "%s", next->id);
    memcpy(k->tokens, tokens, sizeof k->tokens);
    table_broadcast(t); /* its state names the rematch */
    for (int i = 0; i < t->nsockets; i++) {
        session *o = t->sockets[i];
        int from = old_seat(t, o);
        if (from >= 0) send_rematch(o, next->id, (from + 1) % n, tokens[(from + 1) % n]);
    }
}
