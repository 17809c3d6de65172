/*
** chat.c -- the chat at a table: checked, stored (store.h's chat), and
** told.
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
**
** The store is read and written off the loop (tables_later, issue 36): a
** line's count and its write are one job, a join's history another, both
** in the table's lane, so they run in the order they were asked for and
** are done (on the loop) in that order too.  Each job takes the next
** number of chat_jobs, and a socket keeps the number of its latest join's
** history (chat_from).  A line said while a socket joins is then told to
** it exactly once: the history read before the line was added lacks it,
** and that socket (chat_from below the line's number) is sent it when the
** line is done, after its history; a history read after it holds it, and
** that socket is not sent it again.  A line is counted against its
** speaker's rate when it is asked for (lines sent together cannot all
** pass), and given back when it is refused or not stored.
*/
#include "chat.h"
#include "protocol.h"

#include "players.h"
#include "requests.h"
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
static uint64_t chat_jobs; /* the number of the latest job asked for */

/* The ring that the lines of player (0: none) count in, else those of
** socket s (copied into own; rate_keep puts it back; s NULL: a ring of
** nobody's, thrown away). */
static chat_rate *rate_of(int64_t player, const session *s, int64_t now, chat_rate *own) {
    if (player) {
        size_t home = (size_t)((uint64_t)player * 0x9E3779B97F4A7C15u >> 32) % RATE_SLOTS;
        chat_rate *free_slot = NULL;
        for (int k = 0; k < RATE_PROBES; k++) {
            chat_rate *r = &rates[(home + (size_t)k) % RATE_SLOTS];
            if (r->player == player) return r;
            int newest = (r->i + CHAT_BURST - 1) % CHAT_BURST;
            if (!free_slot && (!r->player || now - r->at[newest] >= CHAT_BURST_MS)) free_slot = r;
        }
        if (free_slot) {
            memset(free_slot, 0, sizeof *free_slot);
            free_slot->player = player;
            return free_slot;
        }
    }
    memset(own, 0, sizeof *own);
    if (s) {
        memcpy(own->at, s->chat_at, sizeof own->at);
        own->i = s->chat_i;
    }
    return own;
}

static void rate_keep(session *s, const chat_rate *rate, const chat_rate *own) {
    if (rate != own || !s) return;
    memcpy(s->chat_at, own->at, sizeof s->chat_at);
    s->chat_i = own->i;
}

/* A line said at `at` no longer counts: the lines older than it move up
** one place in the ring, and its oldest place is free. */
static void rate_give_back(chat_rate *rate, int64_t at) {
    for (int k = 0; k < CHAT_BURST; k++) {
        int j = (rate->i + CHAT_BURST - 1 - k) % CHAT_BURST;
        if (rate->at[j] != at) continue;
        for (; j != rate->i; j = (j + CHAT_BURST - 1) % CHAT_BURST)
            rate->at[j] = rate->at[(j + CHAT_BURST - 1) % CHAT_BURST];
        rate->at[rate->i] = 0;
        return;
    }
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

/* A line on its way to the store: what the speaker's socket was, copied
** (the job never reads the session), and what the store said. */
typedef struct said_job {
    request *r;            /* the speaker's socket, for its errors (NULL s: closed) */
    uint64_t order;        /* its number among chat_jobs */
    int full;              /* the side's chat was full: not stored */
    player who;
    store_chat_line line;  /* .n filled by the job */
    char text[CHAT_TEXT_MAX + 1];
} said_job;

static void said_free(said_job *j) {
    request_free(j->r);
    free(j);
}

/* On the pool: the count, the check of the side's lines, the write. */
static int said_store(store *db, void *ctx, char *err, size_t errsize) {
    said_job *j = ctx;
    char why[512];
    int64_t said = 0; /* the table's lines of the speaker's side: players or spectators */
    if (store_chat_count(db, j->r->table, j->line.seat, &j->line.n, &said, why, sizeof why)) {
        snprintf(err, errsize, "the chat could not be read: %s", why);
        return -1;
    }
    if (said >= CHAT_TABLE_MAX) {
        j->full = 1;
        return 0;
    }
    if (store_chat_add(db, j->r->table, &j->line, why, sizeof why)) {
        snprintf(err, errsize, "the line was not stored: %s", why);
        return -1;
    }
    return 0;
}

/* On the loop: the line to those at its table who may read it and have
** not read it in their join's history; or the speaker told why not. */
static void said_done(void *ctx, int rc, const char *err) {
    said_job *j = ctx;
    session *s = j->r->s;
    if (rc == TABLE_UNANSWERED) { /* the server stops: its sockets are not to be touched */
        j->r->s = NULL;
        said_free(j);
        return;
    }
    if (rc < 0 || j->full) {
        chat_rate own, *rate = rate_of(j->who.id, s, j->line.at, &own);
        rate_give_back(rate, j->line.at);
        rate_keep(s, rate, &own);
        if (s && j->full)
            protocol_send_error(s, "chat_full", "this table's chat has %d lines of its %s, their "
                                "most", CHAT_TABLE_MAX, j->line.seat >= 0 ? "players"
                                                                          : "spectators");
        else if (s)
            protocol_send_error(s, "storage", "%s", err);
        said_free(j);
        return;
    }
    const table *t = tables_loaded(j->r->table);
    cJSON *lines = cJSON_CreateArray();
    cJSON_AddItemToArray(lines, line_json(j->line.n, j->line.name, kind_text(j->who.kind),
                                          j->line.seat, j->line.at, j->text));
    char *out = t ? message_of(lines) : (cJSON_Delete(lines), NULL);
    if (out) {
        size_t outlen = strlen(out);
        int spectators_only = j->line.seat < 0, nat;
        session **at = watchers_of(t, &nat);
        for (int i = 0; i < nat; i++)
            if ((!spectators_only || at[i]->seat < 0) && at[i]->chat_from < j->order)
                session_send(at[i], out, outlen);
    }
    free(out);
    said_free(j);
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
    chat_rate own, *rate = rate_of(s->who.id, s, now, &own);
    if (rate->at[rate->i] && now - rate->at[rate->i] < CHAT_BURST_MS) {
        protocol_send_error(s, "chat_too_fast", "at most %d chat lines in %d seconds: wait a "
                                                "moment", CHAT_BURST, CHAT_BURST_MS / 1000);
        return;
    }
    said_job *j = calloc(1, sizeof *j);
    request *r = j ? request_new(s) : NULL;
    if (!r) {
        free(j);
        protocol_send_error(s, "storage", "the line was not stored: out of memory");
        return;
    }
    memcpy(r->table, t->id, sizeof r->table);
    memcpy(j->text, text, len);
    j->r = r;
    j->order = ++chat_jobs;
    j->who = s->who;
    j->line = (store_chat_line){.player = s->who.id, .name = j->who.name, .seat = s->seat,
                                .at = now, .text = j->text};
    rate->at[rate->i] = now;
    rate->i = (rate->i + 1) % CHAT_BURST;
    rate_keep(s, rate, &own);
    tables_later(r->table, said_store, said_done, j);
}

/* A join's history on its way from the store. */
typedef struct history_job {
    request *r;             /* the joined socket (NULL s: closed) */
    uint64_t order;
    int spectators_too;
    int n;                  /* lines read, -1 unreadable */
    store_chat_line said[CHAT_HISTORY];
} history_job;

static int history_read(store *db, void *ctx, char *err, size_t errsize) {
    history_job *h = ctx;
    h->n = store_chat_read(db, h->r->table, h->spectators_too, CHAT_HISTORY, h->said, err,
                           errsize);
    return h->n < 0 ? -1 : 0;
}

/* Sent when the socket is still at that table and joined it no later. */
static void history_done(void *ctx, int rc, const char *err) {
    history_job *h = ctx;
    (void)err;
    if (rc == TABLE_UNANSWERED) h->r->s = NULL; /* the server stops: touch no socket */
    session *s = h->r->s;
    int n = rc == 0 ? h->n : 0;
    /* nothing to read (or unreadable): no message (clients that never chat
    ** see no new message at all) */
    if (n > 0 && s && s->chat_from == h->order && s->table && !strcmp(s->table->id, h->r->table)) {
        cJSON *lines = cJSON_CreateArray();
        for (int i = 0; i < n; i++) {
            const char *kind = h->said[i].kind;
            cJSON_AddItemToArray(lines, line_json(h->said[i].n, h->said[i].name,
                                                  strcmp(kind, "account") && strcmp(kind, "guest")
                                                      ? NULL
                                                      : kind,
                                                  h->said[i].seat, h->said[i].at,
                                                  h->said[i].text));
        }
        char *out = message_of(lines);
        if (out) session_send(s, out, strlen(out));
        free(out);
    }
    if (h->n > 0) store_chat_lines_free(h->said, h->n);
    request_free(h->r);
    free(h);
}

void chat_joined(session *s) {
    table *t = s->table;
    if (!t) return;
    history_job *h = calloc(1, sizeof *h);
    request *r = h ? request_new(s) : NULL;
    if (!r) {
        free(h);
        return;
    }
    memcpy(r->table, t->id, sizeof r->table);
    h->r = r;
    h->order = s->chat_from = ++chat_jobs;
    h->spectators_too = s->seat < 0;
    tables_later(r->table, history_read, history_done, h);
}
