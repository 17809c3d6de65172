/*
** nodes.c -- the lines this node says to the others and hears from them
** (nodes.h).
**
** Owns the notifier serve.c started.  Sending only queues (notify.c sends
** the queue every 100 ms from its own thread), so it costs the loop a copy
** of a line; one table changed ten times in a batch is said once.  What is
** heard is checked before it is used: a line that is not of the channel's
** form is dropped with a log line, as another node's bad word must not
** crash or mislead this one.
*/
#include "nodes.h"
#include <cjson/cJSON.h>
#include "protocol.h"
#include "turns.h"

#include "notify.h"
#include "ratings.h"
#include "tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOBBY "tafel_lobby"
#define TURN "tafel_turn"
#define RATINGS "tafel_ratings"
#define HANDOVER "tafel_handover"
#define INVITED "tafel_invited"

const char *const nodes_channels[NODES_CHANNELS] = {LOBBY, TURN, RATINGS, HANDOVER, INVITED};

static store_notifier *notifier; /* nodes_start's; NULL: one node */
static char me[STORE_NODE_MAX + 1]; /* this node's name, "" none */

void nodes_start(store_notifier *n, const char *node) {
    notifier = n;
    snprintf(me, sizeof me, "%s", node && store_node_name_ok(node) ? node : "");
}

void nodes_stop(void) {
    store_notifier *n = notifier;
    notifier = NULL; /* a change told from now on goes nowhere */
    store_notify_stop(n);
}

/* ---- said ------------------------------------------------------------ */

void nodes_table_changed(const table *t) {
    if (notifier) store_notify_send(notifier, LOBBY, t->id);
}

void nodes_turn(const table *t, int seat) {
    const table_seat *ts = &t->seats[seat];
    /* the seats turns_notify tells: a person's, still playing */
    if (!notifier || ts->bot || ts->resigned || ts->who.id <= 0) return;
    char line[NOTIFY_PAYLOAD_MAX];
    int len = snprintf(line, sizeof line, "%lld %s %s", (long long)ts->who.id, t->id,
                       t->game_string);
    if (len > 0 && (size_t)len < sizeof line) store_notify_send(notifier, TURN, line);
}

void nodes_invited(const table *t, int seat) {
    const table_seat *ts = &t->seats[seat];
    if (!notifier || ts->bot || ts->resigned || ts->who.id <= 0) return;
    char *text = turns_invited_text(t);
    char line[NOTIFY_PAYLOAD_MAX];
    int len = text ? snprintf(line, sizeof line, "%lld %s", (long long)ts->who.id, text) : -1;
    if (len > 0 && (size_t)len < sizeof line) store_notify_send(notifier, INVITED, line);
    free(text);
}

void nodes_rated(const int64_t *players, int n) {
    for (int i = 0; notifier && i < n; i++) {
        char line[24];
        snprintf(line, sizeof line, "%lld", (long long)players[i]);
        store_notify_send(notifier, RATINGS, line);
    }
}

/* "ask ID NODE OWNER", "given ID NODE", "home NODE": a line of
** tafel_handover. */
static void say_handover(const char *what, const char *id, const char *node,
                         const char *owner) {
    if (!notifier || !me[0]) return;
    char line[16 + STORE_ID_LEN + 2 * STORE_NODE_MAX];
    snprintf(line, sizeof line, "%s %s%s%s%s%s", what, id ? id : "", id ? " " : "", node,
             owner ? " " : "", owner ? owner : "");
    store_notify_send(notifier, HANDOVER, line);
}

void nodes_ask(const char *id, const char *owner) {
    if (owner && store_node_name_ok(owner)) say_handover("ask", id, me, owner);
}

void nodes_given(const char *id, const char *to) { say_handover("given", id, to, NULL); }

void nodes_home(const char *node) { say_handover("home", NULL, node, NULL); }

/* ---- heard ----------------------------------------------------------- */

/* A player id as said: decimal digits, positive; 0 when it is not one. */
static int64_t player_id(const char *text, const char **end) {
    int64_t id = 0;
    const char *p = text;
    for (; *p >= '0' && *p <= '9' && p - text < 18; p++) id = id * 10 + (*p - '0');
    *end = p;
    return p > text ? id : 0;
}

static int table_id_ok(const char *text) {
    for (int i = 0; i < STORE_ID_LEN; i++)
        if (!((text[i] >= '0' && text[i] <= '9') || (text[i] >= 'a' && text[i] <= 'f')))
            return 0;
    return 1;
}

/* "PLAYER TABLE GAME": the player's sockets here are told. */
static int turn_heard(const char *line) {
    const char *p;
    int64_t id = player_id(line, &p);
    if (id <= 0 || *p++ != ' ' || !table_id_ok(p) || p[STORE_ID_LEN] != ' ') return -1;
    char table_id[STORE_ID_LEN + 1];
    memcpy(table_id, p, STORE_ID_LEN);
    table_id[STORE_ID_LEN] = 0;
    const char *game = p + STORE_ID_LEN + 1;
    if (!game[0]) return -1;
    for (const char *c = game; *c; c++)
        if ((unsigned char)*c < 0x20) return -1;
    turns_elsewhere(id, table_id, game);
    return 0;
}

/* "PLAYER {invited message}": relayed to the player's sockets here once it
** is checked to be an invitation to a table. */
static int invited_heard(const char *line) {
    const char *p;
    int64_t id = player_id(line, &p);
    if (id <= 0 || *p++ != ' ') return -1;
    cJSON *msg = cJSON_Parse(p);
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(msg, "type");
    const cJSON *table = cJSON_GetObjectItemCaseSensitive(msg, "table");
    int ok = cJSON_IsObject(msg) && cJSON_IsString(type) && !strcmp(type->valuestring, "invited") &&
             cJSON_IsString(table) && strlen(table->valuestring) == STORE_ID_LEN &&
             table_id_ok(table->valuestring);
    if (ok) turns_relay(id, table->valuestring, p);
    cJSON_Delete(msg);
    return ok ? 0 : -1;
}

/* A line of tafel_handover, checked word by word (another node's words
** decide nothing here unless they are of the form). */
static int handover_heard(const char *line) {
    if (!strncmp(line, "home ", 5)) {
        if (!store_node_name_ok(line + 5)) return -1;
        if (me[0] && strcmp(line + 5, me)) tables_give_home(line + 5);
        return 0;
    }
    char what[8], id[STORE_ID_LEN + 2], node[STORE_NODE_MAX + 2], owner[STORE_NODE_MAX + 2];
    int words = sscanf(line, "%7s %17s %65s %65s", what, id, node, owner);
    if (words < 3 || strlen(id) != STORE_ID_LEN || !table_id_ok(id) || !store_node_name_ok(node))
        return -1;
    if (!strcmp(what, "ask")) {
        if (words != 4 || !store_node_name_ok(owner)) return -1;
        /* the owner's business alone: it has the table, or must take it up */
        if (me[0] && !strcmp(owner, me) && strcmp(node, me)) tables_give(id, node);
    } else if (words == 3 && !strcmp(what, "given")) {
        if (me[0] && !strcmp(node, me)) tables_adopt(id);
    } else {
        return -1;
    }
    return 0;
}

static void heard(const char *channel, const char *line, void *ctx) {
    (void)ctx;
    int ok = 0;
    if (!channel[0])
        fprintf(stderr, "tafel serve: the notifications of other nodes were cut off (a lost "
                "connection, or too many to take): the lobby and ratings are read afresh\n");
    if (!channel[0] || !strcmp(line, "*")) { /* maybe missed, or too many: all afresh */
        lobby_stale();
        ratings_stale();
        ok = 1;
    } else if (!strcmp(channel, LOBBY)) {
        ok = table_id_ok(line) && !line[STORE_ID_LEN];
        if (ok) lobby_stale();
    } else if (!strcmp(channel, RATINGS)) {
        const char *end;
        ok = player_id(line, &end) > 0 && !*end;
        if (ok) ratings_stale();
    } else if (!strcmp(channel, TURN)) {
        ok = !turn_heard(line);
    } else if (!strcmp(channel, HANDOVER)) {
        ok = !handover_heard(line);
    } else if (!strcmp(channel, INVITED)) {
        ok = !invited_heard(line);
    }
    if (!ok)
        fprintf(stderr, "tafel serve: another node said \"%.80s\" on %s: not of its form, "
                "ignored\n", line, channel);
}

int nodes_heard(void) { return store_notify_receive(notifier, heard, NULL); }
