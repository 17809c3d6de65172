/*
** chat.c -- the chat at a table: checked, stored (store.h's chat: on
** the loop, each line its own statement), and told.
**
** A line is 1..CHAT_TEXT_MAX bytes of UTF-8 after trimming spaces at both
** ends, one line (no control character at all: no newline, no tab), plain
** text (the page shows it with textContent: markup stays text).  Who says
** it: the socket's player (an account or a guest), or, for a socket
** without a login that sits at a seat (an API client), nobody by name: the
** line carries its seat and the page names the seat by its colour.  A
** spectator without a login may not speak.  Each person (a player, on all
** their sockets; a socket without a login alone) may say CHAT_BURST lines
** in CHAT_BURST_MS (besides the messages' own rate), and a table keeps at
** most CHAT_TABLE_MAX lines of its players and as many of its spectators,
** counted apart: spectators cannot fill the players' chat.
**
** The persons' rates live in a fixed array (open addressing, as the quota
** of new tables in tables.c): a slot whose latest line is older than
** CHAT_BURST_MS is as good as free.  When every slot near a player's is
** held, that player's socket keeps its own rate, as before.
*/
#include "chat.h"
#include "protocol.h"

#include "players.h"
#include "tables.h"
#include "watchers.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE_SLOTS 1024
#define RATE_PROBES 16

typedef struct chat_rate {
    int64_t player;
    int64_t at[CHAT_BURST]; /* when the latest lines were said (unix ms), a ring */
    int i;                  /* the ring's oldest */
} chat_rate;

static chat_rate rates[RATE_SLOTS];

/* The ring that s's lines count in: its player's, else its own. */
static chat_rate *rate_of(session *s, int64_t now, chat_rate *own) {
    if (s->who.id) {
        size_t home = (size_t)((uint64_t)s->who.id * 0x9E3779B97F4A7C15u >> 32) % RATE_SLOTS;
        chat_rate *free_slot = NULL;
        for (int k = 0; k < RATE_PROBES; k++) {
            chat_rate *r = &rates[(home + (size_t)k) % RATE_SLOTS];
            if (r->player == s->who.id) return r;
            int newest = (r->i + CHAT_BURST - 1) % CHAT_BURST;
            if (!free_slot && (!r->player || now - r->at[newest] >= CHAT_BURST_MS)) free_slot = r;
        }
        if (free_slot) {
            memset(free_slot, 0, sizeof *free_slot);
            free_slot->player = s->who.id;
            return free_slot;
        }
    }
    memcpy(own->at, s->chat_at, sizeof own->at);
    own->i = s->chat_i;
    return own;
}

static const char *kind_text(player_kind k) {
    return k == PLAYER_ACCOUNT ? "account" : k == PLAYER_GUEST ? "guest" : NULL;
}

static cJSON *line_json(int64_t n, const char *name, const char *kind, int seat, int64_t at,
                        const char *text) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "n", (double)n);
    cJSON_AddStringToObject(o, "name", name);
    if (kind) cJSON_AddStringToObject(o, "player", kind);
    else cJSON_AddNullToObject(o, "player");
    cJSON_AddItemToObject(o, "seat", seat >= 0 ? cJSON_CreateNumber(seat) : cJSON_CreateNull());
    cJSON_AddNumberToObject(o, "at", (double)at);
    cJSON_AddStringToObject(o, "text", text);
    return o;
}

static char *message_of(cJSON *lines) {
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddStringToObject(msg, "type", "chat");
    cJSON_AddItemToObject(msg, "lines", lines);
    char *text = cJSON_PrintUnformatted(msg);
    cJSON_Delete(msg);
    return text;
}

void chat_say(session *s, const char *text) {
    table *t = s->table;
    if (!t) {
        protocol_send_error(s, "not_seated", "chat: join a table first");
        return;
    }
    if (s->seat < 0 && !s->who.id) {
        protocol_send_error(s, "no_identity", "chat: a spectator needs a name to speak (log in "
                                              "or play as a guest)");
        return;
    }
    size_t len = strlen(text);
    while (len && (*text == ' ')) text++, len--;
    while (len && text[len - 1] == ' ') len--;
    if (len < 1 || len > CHAT_TEXT_MAX) {
        protocol_send_error(s, "bad_chat", "a chat line has 1 to %d bytes (spaces at its ends "
                                           "trimmed), not %zu", CHAT_TEXT_MAX, len);
        return;
    }
    if (!players_plain_text(text, len)) {
        protocol_send_error(s, "bad_chat", "a chat line is one line of text (UTF-8) without "
                                           "control characters");
        return;
    }
    int64_t now = clocks_now_ms();
    chat_rate own, *rate = rate_of(s, now, &own);
    if (rate->at[rate->i] && now - rate->at[rate->i] < CHAT_BURST_MS) {
        protocol_send_error(s, "chat_too_fast", "at most %d chat lines in %d seconds: wait a "
                                                "moment", CHAT_BURST, CHAT_BURST_MS / 1000);
        return;
    }
    char why[512];
    int64_t n = 0, said = 0; /* the table's lines of the speaker's side: players or spectators */
    if (store_chat_count(tables_store(), t->id, s->seat, &n, &said, why, sizeof why)) {
        protocol_send_error(s, "storage", "the chat could not be read: %s", why);
        return;
    }
    if (said >= CHAT_TABLE_MAX) {
        protocol_send_error(s, "chat_full", "this table's chat has %d lines of its %s, their most",
                            CHAT_TABLE_MAX, s->seat >= 0 ? "players" : "spectators");
        return;
    }
    char *copy = malloc(len + 1);
    if (!copy) {
        protocol_send_error(s, "storage", "the line was not stored: out of memory");
        return;
    }
    memcpy(copy, text, len);
    copy[len] = 0;
    char nobody[] = "";
    store_chat_line line = {.n = n, .player = s->who.id, .name = s->who.id ? s->who.name : nobody,
                            .seat = s->seat, .at = now, .text = copy};
    if (store_chat_add(tables_store(), t->id, &line, why, sizeof why)) {
        protocol_send_error(s, "storage", "the line was not stored: %s", why);
        free(copy);
        return;
    }
    rate->at[rate->i] = now;
    rate->i = (rate->i + 1) % CHAT_BURST;
    if (rate == &own) {
        memcpy(s->chat_at, own.at, sizeof s->chat_at);
        s->chat_i = own.i;
    }

    cJSON *lines = cJSON_CreateArray();
    cJSON_AddItemToArray(lines, line_json(n, line.name, kind_text(s->who.kind), s->seat, now,
                                          copy));
    free(copy);
    char *out = message_of(lines);
    if (!out) return;
    size_t outlen = strlen(out);
    int spectators_only = s->seat < 0, nat;
    session **at = watchers_of(t, &nat);
    for (int i = 0; i < nat; i++)
        if (!spectators_only || at[i]->seat < 0) session_send(at[i], out, outlen);
    free(out);
}

void chat_joined(session *s) {
    table *t = s->table;
    if (!t) return;
    store_chat_line *said = malloc(sizeof *said * CHAT_HISTORY);
    char why[512];
    int n = said ? store_chat_read(tables_store(), t->id, s->seat < 0, CHAT_HISTORY, said, why,
                                   sizeof why)
                 : 0;
    if (n <= 0) { /* nothing to read (or unreadable): no message (clients that never chat
                  ** see no new message at all) */
        free(said);
        return;
    }
    cJSON *lines = cJSON_CreateArray();
    for (int i = 0; i < n; i++) {
        const char *kind = said[i].kind;
        cJSON_AddItemToArray(lines, line_json(said[i].n, said[i].name,
                                              strcmp(kind, "account") && strcmp(kind, "guest")
                                                  ? NULL
                                                  : kind,
                                              said[i].seat, said[i].at, said[i].text));
    }
    store_chat_lines_free(said, n);
    free(said);
    char *out = message_of(lines);
    if (out) session_send(s, out, strlen(out));
    free(out);
}
