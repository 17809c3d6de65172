/*
** sockets.c -- the WebSocket side of tafel serve: one session per socket.
**
** A message arrives in pieces and is assembled up to SERVER_MAX_MESSAGE;
** what the server sends waits in the socket's queue (bounded in bytes: a
** socket that does not read is let go) and goes out one lws_write per
** WRITEABLE callback, with LWS_PRE bytes of headroom before the text.
**
** What one socket may cost (docs/server.md, "Limits"): messages a second
** (a token bucket, --max-rate, bursts of 3 s worth; a message over it is
** not read, the socket is told at most once a second, and one that goes on
** at more than 3 times the rate is closed), bytes waiting (--max-queue) and
** sockets open from one address (--max-per-address, counted here, refused
** at the upgrade by routes.c).  Text frames only: binary ones close the
** socket (1003).
**
** A socket opened with a login (players.c) is listed with it: when the
** login ends (a logout, a password change elsewhere, sockets_end_login) or
** the periodic check finds it gone, expired or its player disabled
** (sockets_tick: every socket within LOGIN_CHECK_SECONDS, a slice a
** second, one query per distinct login of the slice, as a job of the
** store's pool: tables_later), the socket reads no more messages at once
** and is closed with 4001 "logged out" or 4003 "disabled"
** (docs/protocol.md) after what is queued for it.
**
** --durable: each message carries the commit count when it was queued and
** goes out only once the syncer has synced that many (syncer.c); until
** then its socket is listed as waiting, and sockets_release (the loop,
** woken by the syncer) asks for a write again.  Without --durable both
** counts stay 0 and nothing waits.
*/
#include "http.h"
#include "nodes.h"
#include "protocol.h"
#include "syncer.h"
#include "players.h"
#include "tables.h"
#include "turns.h"

#include <libwebsockets.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct outmsg {
    struct outmsg *next;
    uint64_t commit; /* syncer_committed() when queued: sent once synced */
    size_t len;
    unsigned char data[]; /* LWS_PRE bytes of headroom, then the text */
};

static uint64_t last_session_id;

enum { FLOOD_QUIET_MS = 200, FLOOD_WAIT_MS = 3000 };

/* Every open socket of a login is checked against the database within
** this many seconds (docs/server.md, "Limits"). */
enum { LOGIN_CHECK_SECONDS = 5 };

/* session.closing: */
enum {
    SESSION_CLOSE_NOW = 1,
    SESSION_CLOSE_AFTER_QUEUE = 2, /* after the queue is written (a flood, a login ended) */
    SESSION_CLOSE_SENT = 3,  /* a close frame is on its way: a WRITEABLE that returned
                             ** -1 again would hang up at once (a reset: the client
                             ** loses the close and what came before) */
    SESSION_CLOSE_AWAY = 4   /* the server stops: 1001 after the queue is written */
};

/* A list of sockets, each knowing its place + 1 in a field of its own
** (taken out in any order: the last moves into the gap). */
typedef struct session_list {
    session **at;
    int n, cap;
    size_t place; /* offsetof(session, the int field of its place) */
} session_list;

static int *place_of(const session_list *l, session *s) {
    return (int *)(void *)((char *)s + l->place);
}

/* 0, or -1 out of memory (s is not listed). */
static int list_add(session_list *l, session *s) {
    if (*place_of(l, s)) return 0;
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 64;
        session **grown = realloc(l->at, sizeof *grown * (size_t)cap);
        if (!grown) return -1;
        l->at = grown;
        l->cap = cap;
    }
    l->at[l->n++] = s;
    *place_of(l, s) = l->n;
    return 0;
}

static void list_remove(session_list *l, session *s) {
    int *place = place_of(l, s);
    if (!*place) return;
    session *last = l->at[--l->n];
    l->at[*place - 1] = last;
    *place_of(l, last) = *place;
    *place = 0;
}

/* The sockets whose first message waits for a sync (session.waiting). */
static session_list waiters = {.place = offsetof(session, waiting)};

static int going_away, open_sockets;

void sockets_going_away(void) { going_away = 1; }

int sockets_open(void) { return open_sockets; }

static void wait_add(session *s) {
    if (list_add(&waiters, s)) /* asks again for a write: the message waits all the same */
        lws_callback_on_writable(s->wsi);
}

static void wait_remove(session *s) { list_remove(&waiters, s); }

void sockets_release(void) {
    uint64_t synced = syncer_synced();
    for (int i = 0; i < waiters.n;) {
        session *s = waiters.at[i];
        if (s->head && s->head->commit > synced) {
            i++;
            continue;
        }
        wait_remove(s); /* moves another into place i */
        if (s->head) lws_callback_on_writable(s->wsi);
    }
}

/* ---- addresses -------------------------------------------------------- */

/* Open sockets per client address: a small chained hash map, an entry
** freed when its count falls to 0. */
typedef struct addr_count {
    struct addr_count *next;
    int n;
    char addr[64];
} addr_count;

enum { ADDR_BUCKETS = 1024 };
static addr_count *addr_buckets[ADDR_BUCKETS];

static addr_count **addr_slot(const char *addr) {
    uint32_t h = 2166136261u;
    for (const char *c = addr; *c; c++) h = (h ^ (unsigned char)*c) * 16777619u;
    addr_count **at = &addr_buckets[h % ADDR_BUCKETS];
    while (*at && strcmp((*at)->addr, addr)) at = &(*at)->next;
    return at;
}

static void addr_add(const char *addr, int delta) {
    addr_count **at = addr_slot(addr), *e = *at;
    if (!e) {
        if (delta <= 0 || !(e = calloc(1, sizeof *e))) return;
        snprintf(e->addr, sizeof e->addr, "%s", addr);
        *at = e;
    }
    e->n += delta;
    if (e->n <= 0) {
        *at = e->next;
        free(e);
    }
}

int sockets_address_allowed(const char *addr) {
    if (http_options()->per_address <= 0) return 1;
    addr_count *e = *addr_slot(addr);
    return !e || e->n < http_options()->per_address;
}

static int is_loopback(const char *addr) {
    return !strncmp(addr, "127.", 4) || !strcmp(addr, "::1") || !strncmp(addr, "::ffff:127.", 11);
}

void sockets_client_address(struct lws *wsi, char *out, size_t size) {
    if (!lws_get_peer_simple(wsi, out, size)) snprintf(out, size, "?");
    char xff[512];
    int n = lws_hdr_total_length(wsi, WSI_TOKEN_X_FORWARDED_FOR);
    if (!http_options()->behind_proxy || !is_loopback(out) || n <= 0 || n >= (int)sizeof xff ||
        lws_hdr_copy(wsi, xff, sizeof xff, WSI_TOKEN_X_FORWARDED_FOR) <= 0)
        return;
    /* the last address: the one the proxy itself saw */
    char *last = strrchr(xff, ',');
    last = last ? last + 1 : xff;
    while (*last == ' ' || *last == '\t') last++;
    last[strcspn(last, " \t")] = '\0';
    unsigned char bin[16];
    if (inet_pton(AF_INET, last, bin) == 1 || inet_pton(AF_INET6, last, bin) == 1)
        snprintf(out, size, "%s", last);
}

/* ---- the rate of messages --------------------------------------------- */

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Whether a message may be read now (-1: close the socket).  A read message
** costs a token, a refused one a third of a token (the bucket goes below
** 0): a socket that sends at up to 3 times the rate gets its tokens back,
** one that sends faster sinks, and is closed 5 s worth of tokens below 0. */
static int rate_take(session *s) {
    double rate = http_options()->rate, burst = 3 * rate;
    int64_t now = now_ms();
    if (!s->tokens_at) s->tokens = burst;
    else s->tokens += rate * (double)(now - s->tokens_at) / 1000;
    if (s->tokens > burst) s->tokens = burst;
    s->tokens_at = now;
    if (s->tokens >= 1) {
        s->tokens -= 1;
        return 1;
    }
    s->tokens -= 1.0 / 3;
    if (s->tokens < -5 * rate) return -1;
    if (now - s->limited_at >= 1000) {
        s->limited_at = now;
        protocol_send_error(s, "rate_limited", "more than %d messages a second: message not read",
                            http_options()->rate);
    }
    return 0;
}

/* A socket to close after its queue (flooding, or its login ended) is
** closed with its code once what it sent has been read (and ignored): a
** socket closed with unread input resets, and the client loses the close
** and the messages before it.  So the close waits until its messages stop
** coming, at most FLOOD_WAIT_MS.  (On the libuv loop, a close asked for in
** WRITEABLE went out as a bare reset: it is asked for from this timer.) */
static int close_after_queue(session *s, struct lws *wsi) {
    if (s->closing == SESSION_CLOSE_AWAY) {
        const char *why = "server restarting";
        lws_close_reason(wsi, LWS_CLOSE_STATUS_GOINGAWAY, (unsigned char *)why, strlen(why));
        s->closing = SESSION_CLOSE_SENT;
        return -1;
    }
    if (s->closing != SESSION_CLOSE_AFTER_QUEUE) return 0;
    if (s->head) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    int64_t now = now_ms();
    if (now - s->last_rx < FLOOD_QUIET_MS && now - s->close_at < FLOOD_WAIT_MS) {
        lws_set_timer_usecs(wsi, FLOOD_QUIET_MS * 1000);
        return 0;
    }
    lws_close_reason(wsi, (enum lws_close_status)s->close_code, (unsigned char *)s->close_why,
                     strlen(s->close_why));
    s->closing = SESSION_CLOSE_SENT;
    return -1;
}

/* Reads nothing more from s, and closes it with code and why (static text)
** once its queue is written. */
static void close_soon(session *s, int code, const char *why) {
    if (s->closing) return;
    s->closing = SESSION_CLOSE_AFTER_QUEUE;
    s->close_code = code;
    s->close_why = why;
    s->close_at = now_ms();
    lws_callback_on_writable(s->wsi);
}

void sockets_close_moved(session *s) { close_soon(s, SOCKETS_CLOSE_MOVED, "moved"); }

/* ---- the logins of open sockets --------------------------------------- */

/* The sockets opened with a login (session.logged). */
static session_list logged = {.place = offsetof(session, logged)};
static int check_next; /* the next place the periodic check looks at */

static void logged_remove(session *s) {
    int place = s->logged - 1;
    if (place < 0) return;
    list_remove(&logged, s);
    if (check_next > place) check_next--; /* the one moved in: not skipped */
}

/* The login of s has ended: it stops at once, and closes. */
static void login_ended(session *s, players_login_state state) {
    logged_remove(s);
    if (state == PLAYERS_LOGIN_DISABLED) close_soon(s, SOCKETS_CLOSE_DISABLED, "disabled");
    else close_soon(s, SOCKETS_CLOSE_LOGGED_OUT, "logged out");
}

void sockets_end_logins(int64_t player_id, const unsigned char *login, const unsigned char *keep) {
    for (int i = 0; i < logged.n;) {
        session *s = logged.at[i];
        int match = login ? !memcmp(s->login, login, 32)
                          : s->who.id == player_id && !(keep && !memcmp(s->login, keep, 32));
        if (match) login_ended(s, PLAYERS_LOGIN_ENDED); /* moves another into place i */
        else i++;
    }
}

static int login_order(const void *a, const void *b) {
    return memcmp(((const players_login *)a)->hash, ((const players_login *)b)->hash, 32);
}

/* A slice of logins being checked by a job of the store's pool (at most
** one at a time): sorted by hash, without repeats. */
typedef struct login_check {
    players_login *asked;
    int n;
} login_check;
static int checking;

static int check_run(store *db, void *ctx, char *err, size_t errsize) {
    (void)db;
    login_check *c = ctx;
    if (!players_logins_check(c->asked, c->n)) return 0;
    snprintf(err, errsize, "the logins could not be read");
    return -1;
}

/* The check is back: the sockets of the logins that ended close.  Those
** the job was asked for may have closed meanwhile (and their sessions been
** freed), so the sockets are found again by their logins' hashes. */
static void check_done(void *ctx, int rc, const char *err) {
    (void)err;
    login_check *c = ctx;
    checking = 0;
    for (int i = 0; rc == 0 && i < logged.n;) {
        session *s = logged.at[i];
        players_login key;
        memcpy(key.hash, s->login, 32);
        const players_login *found =
            bsearch(&key, c->asked, (size_t)c->n, sizeof *c->asked, login_order);
        if (found && found->state != PLAYERS_LOGIN_LIVE) login_ended(s, found->state);
        else i++; /* login_ended moves another into place i */
    }
    free(c->asked);
    free(c);
}

/* Checks the next slice of the sockets of logins against the database: all
** of them within LOGIN_CHECK_SECONDS (called once a second; a second whose
** check before is not back yet checks nothing).  Sockets of one login share
** one query (a browser's tabs, a player's tables). */
static void check_logins(void) {
    if (!logged.n || checking) return;
    int slice = (logged.n + LOGIN_CHECK_SECONDS - 1) / LOGIN_CHECK_SECONDS;
    login_check *c = malloc(sizeof *c);
    players_login *asked = malloc(sizeof *asked * (size_t)slice);
    if (!c || !asked) {
        free(c);
        free(asked);
        return;
    }
    for (int k = 0; k < slice; k++) {
        if (check_next >= logged.n) check_next = 0;
        session *s = logged.at[check_next++];
        memcpy(asked[k].hash, s->login, 32);
        asked[k].player_id = s->who.id;
    }
    qsort(asked, (size_t)slice, sizeof *asked, login_order);
    int distinct = 0;
    for (int k = 0; k < slice; k++)
        if (!distinct || login_order(&asked[distinct - 1], &asked[k])) asked[distinct++] = asked[k];
    *c = (login_check){.asked = asked, .n = distinct};
    checking = 1;
    tables_later("club-logins", check_run, check_done, c);
}

/* The players' sweeps, a job of the store's pool at most one at a time
** (players.c's sweeps keep their own times: one thread at a time). */
static int sweeping;

static int sweep_run(store *db, void *ctx, char *err, size_t errsize) {
    (void)db;
    (void)ctx;
    (void)err;
    (void)errsize;
    players_sweep();
    return 0;
}

static void sweep_done(void *ctx, int rc, const char *err) {
    (void)ctx;
    (void)rc;
    (void)err;
    sweeping = 0;
}

void sockets_tick(void) {
    check_logins();
    if (sweeping) return;
    sweeping = 1;
    tables_later("club-sweep", sweep_run, sweep_done, NULL);
}

/* ---- WebSocket -------------------------------------------------------- */

void sockets_send(session *s, const char *text, size_t len) {
    if (s->closing) return;
    if (s->queued_bytes + len > (size_t)http_options()->queue_bytes) {
        /* a socket that does not read: let it go */
        s->closing = SESSION_CLOSE_NOW;
        lws_callback_on_writable(s->wsi);
        return;
    }
    struct outmsg *m = malloc(sizeof *m + LWS_PRE + len);
    if (!m) return;
    m->next = NULL;
    m->commit = syncer_committed();
    m->len = len;
    memcpy(m->data + LWS_PRE, text, len);
    if (s->tail) s->tail->next = m;
    else s->head = m;
    s->tail = m;
    s->queued++;
    s->queued_bytes += len;
    if (m->commit > syncer_synced()) wait_add(s);
    else lws_callback_on_writable(s->wsi);
}

static void drop_queue(session *s) {
    while (s->head) {
        struct outmsg *next = s->head->next;
        free(s->head);
        s->head = next;
    }
    s->tail = NULL;
    s->queued = 0;
    s->queued_bytes = 0;
    free(s->rx);
    s->rx = NULL;
}

/* ---- the login of a socket being opened -------------------------------- */

/* On PostgreSQL the upgrade's login is read off the loop (issue 36: the
** loop never waits for the database): the socket opens at once, and what
** it sends meanwhile waits, in order, until its login is known; then it
** is read as ever.  A client sends its join at once, so a few wait at
** most; more than HELD_MAX is a flood.  On SQLite the login is read at
** once (tables_later), and nothing waits. */
enum { HELD_MAX = 32 };

typedef struct login_read {
    session *s; /* NULL: it closed meanwhile (the read's done frees this) */
    char token[PLAYERS_TOKEN_MAX + 1];
    size_t len;
    int found;
    player who;
    unsigned char hash[32];
} login_read;

struct heldmsg {
    struct heldmsg *next;
    int too_big;
    size_t len;
    char text[];
};

static void held_drop(session *s) {
    while (s->held_head) {
        struct heldmsg *m = s->held_head;
        s->held_head = m->next;
        free(m);
    }
    s->held_tail = NULL;
    s->held = 0;
}

static int login_run(store *db, void *ctx, char *err, size_t errsize) {
    (void)db, (void)err, (void)errsize;
    login_read *r = ctx;
    r->found = players_of_login(r->token, r->len, &r->who, r->hash);
    return 0;
}

static void login_done(void *ctx, int rc, const char *err) {
    login_read *r = ctx;
    session *s = r->s;
    if (!s || rc == TABLE_UNANSWERED) {
        free(r);
        return;
    }
    s->login_read = NULL;
    if (rc) fprintf(stderr, "tafel serve: a socket's login was not read: %s\n", err);
    if (!rc && r->found == 1) {
        s->who = r->who;
        memcpy(s->login, r->hash, 32);
        list_add(&logged, s); /* unlisted: unchecked until its next open */
    }
    free(r);
    turns_socket_opened(s); /* told of turns at its player's other tables */
    while (s->held_head && !s->closing) {
        struct heldmsg *m = s->held_head;
        s->held_head = m->next;
        s->held--;
        if (m->too_big) protocol_too_big(s);
        else protocol_receive(s, m->text, m->len);
        free(m);
    }
    held_drop(s);
    tables_sweep();
}

/* Who opened s: the upgrade's session cookie (nobody without one). */
static void login_read_start(session *s, struct lws *wsi) {
    login_read *r = calloc(1, sizeof *r);
    if (!r || !(r->len = players_request_token(wsi, r->token, sizeof r->token))) {
        free(r);
        turns_socket_opened(s);
        return;
    }
    r->s = s;
    s->login_read = r;
    char key[24];
    snprintf(key, sizeof key, "login %.16s", r->token); /* a login's sockets share a lane */
    tables_later(key, login_run, login_done, r);
}

/* A message s sent while its login is being read: kept for later, or -1
** when too many wait. */
static int hold(session *s, const char *text, size_t len, int too_big) {
    if (s->held >= HELD_MAX) return -1;
    struct heldmsg *m = malloc(sizeof *m + (too_big ? 0 : len));
    if (!m) return -1;
    *m = (struct heldmsg){.too_big = too_big, .len = too_big ? 0 : len};
    if (!too_big) memcpy(m->text, text, len);
    if (s->held_tail) s->held_tail->next = m;
    else s->held_head = m;
    s->held_tail = m;
    s->held++;
    return 0;
}

/* Assembles a message from its pieces; a too big one is read to its end
** and refused, a huge one closes the socket (-1). */
static int receive(session *s, struct lws *wsi, const void *in, size_t len) {
    size_t total = s->rx_len + len;
    if (total > SERVER_CLOSE_MESSAGE) return -1;
    if (total > SERVER_MAX_MESSAGE) s->rx_too_big = 1;
    if (!s->rx_too_big) {
        if (!s->rx && !(s->rx = malloc(SERVER_MAX_MESSAGE))) return -1;
        memcpy(s->rx + s->rx_len, in, len);
    }
    s->rx_len = total;
    s->last_rx = now_ms();
    if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi)) return 0;
    int ok = s->closing ? 0 : rate_take(s);
    if (ok < 0) {
        /* a flood: what is queued goes out (the rate_limited error among
        ** it), then the socket is closed (WRITEABLE); what else comes is
        ** ignored.  (lws 4.1 hung up at once when rx flow control was
        ** turned off here.)  A client still sending when it is closed gets
        ** a reset, and may lose what was on its way to it: so the close
        ** waits until its messages stop coming (FLOOD_QUIET_MS), at most
        ** FLOOD_WAIT_MS. */
        close_soon(s, LWS_CLOSE_STATUS_POLICY_VIOLATION, "too many messages");
        ok = 0;
    }
    if (!ok) {
        /* over the rate: not read */
    } else if (s->login_read) {
        if (hold(s, s->rx, s->rx_len, s->rx_too_big))
            close_soon(s, LWS_CLOSE_STATUS_POLICY_VIOLATION, "too many messages");
    } else if (s->rx_too_big) protocol_too_big(s);
    else protocol_receive(s, s->rx, s->rx_len);
    free(s->rx); /* most sockets are quiet between messages: no buffer kept */
    s->rx = NULL;
    s->rx_len = 0;
    s->rx_too_big = 0;
    tables_sweep();
    return 0;
}

int sockets_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user,
                          void *in, size_t len) {
    session *s = user;
    switch (reason) {
    case LWS_CALLBACK_ESTABLISHED:
        memset(s, 0, sizeof *s);
        s->wsi = wsi;
        s->id = ++last_session_id;
        s->seat = -1;
        open_sockets++;
        sockets_client_address(wsi, s->addr, sizeof s->addr);
        addr_add(s->addr, 1);
        const char *why; /* the upgrade was refused for that already (routes.c) */
        if (routes_upgrade_table(wsi, s->route, &why) < 0) s->route[0] = 0;
        login_read_start(s, wsi);
        break;
    case LWS_CALLBACK_RECEIVE:
        if (lws_frame_is_binary(wsi)) {
            const char *why = "text frames only";
            lws_close_reason(wsi, LWS_CLOSE_STATUS_UNACCEPTABLE_OPCODE, (unsigned char *)why,
                             strlen(why));
            return -1;
        }
        return receive(s, wsi, in, len);
    case LWS_CALLBACK_SERVER_WRITEABLE: {
        if (s->closing == SESSION_CLOSE_NOW) return -1;
        struct outmsg *m = s->head;
        if (s->closing == SESSION_CLOSE_SENT) break; /* lws awaits the client's close */
        if (going_away && s->closing != SESSION_CLOSE_AFTER_QUEUE) s->closing = SESSION_CLOSE_AWAY;
        if (!m && (s->closing == SESSION_CLOSE_AFTER_QUEUE || s->closing == SESSION_CLOSE_AWAY)) {
            lws_set_timer_usecs(wsi, 1000); /* closed from the timer: close_after_queue */
            break;
        }
        if (!m) break;
        if (m->commit > syncer_synced()) {
            wait_add(s);
            break;
        }
        s->head = m->next;
        if (!s->head) s->tail = NULL;
        s->queued--;
        s->queued_bytes -= m->len;
        int n = lws_write(wsi, m->data + LWS_PRE, m->len, LWS_WRITE_TEXT);
        int short_write = n < (int)m->len;
        free(m);
        if (short_write) return -1;
        if (s->head || s->closing) lws_callback_on_writable(wsi);
        break;
    }
    case LWS_CALLBACK_TIMER:
        return close_after_queue(s, wsi);
    case LWS_CALLBACK_CLOSED:
        open_sockets--;
        if (s->addr[0]) addr_add(s->addr, -1);
        if (s->login_read) s->login_read->s = NULL; /* its done frees it */
        held_drop(s);
        logged_remove(s);
        turns_socket_closed(s);
        protocol_closed(s);
        drop_queue(s);
        wait_remove(s); /* lws frees s next */
        tables_sweep();
        break;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        sockets_release();
        tables_commits_done(); /* before the bots': an answer may wait for one */
        nodes_heard();
        for (bot_job *job; (job = botpool_take_done());) {
            tables_bot_done(job);
            bot_job_free(job);
        }
        tables_sweep();
        break;
    default:
        break;
    }
    return 0;
}

