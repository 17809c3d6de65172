/*
** sockets.c -- the WebSocket side of tafel serve: one session per socket.
**
** A message arrives in pieces and is assembled up to SERVER_MAX_MESSAGE;
** what the server sends waits in the socket's queue (bounded in bytes: a
** socket that does not read is let go) and goes out one lws_write per
** WRITEABLE callback, with LWS_PRE bytes of headroom before the text.
**
** --durable: each message carries the commit count when it was queued and
** goes out only once the syncer has synced that many (syncer.c); until
** then its socket is listed as waiting, and sockets_release (the loop,
** woken by the syncer) asks for a write again.  Without --durable both
** counts stay 0 and nothing waits.
*/
#include "http.h"
#include "tables.h"

#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct outmsg {
    struct outmsg *next;
    uint64_t commit; /* syncer_committed() when queued: sent once synced */
    size_t len;
    unsigned char data[]; /* LWS_PRE bytes of headroom, then the text */
};

static uint64_t last_session_id;

/* The sockets whose first message waits for a sync; session.waiting is
** the place + 1 (taken out in any order: the last moves into the gap). */
static session **waiters;
static int nwaiters, capwaiters;

static void wait_add(session *s) {
    if (s->waiting) return;
    if (nwaiters == capwaiters) {
        int cap = capwaiters ? capwaiters * 2 : 64;
        session **grown = realloc(waiters, sizeof *grown * (size_t)cap);
        if (!grown) { /* asks again for a write: the message waits all the same */
            lws_callback_on_writable(s->wsi);
            return;
        }
        waiters = grown;
        capwaiters = cap;
    }
    waiters[nwaiters++] = s;
    s->waiting = nwaiters;
}

static void wait_remove(session *s) {
    if (!s->waiting) return;
    session *last = waiters[--nwaiters];
    waiters[s->waiting - 1] = last;
    last->waiting = s->waiting;
    s->waiting = 0;
}

void sockets_release(void) {
    uint64_t synced = syncer_synced();
    for (int i = 0; i < nwaiters;) {
        session *s = waiters[i];
        if (s->head && s->head->commit > synced) {
            i++;
            continue;
        }
        wait_remove(s); /* moves another into place i */
        if (s->head) lws_callback_on_writable(s->wsi);
    }
}

/* ---- WebSocket -------------------------------------------------------- */

void session_send(session *s, const char *text, size_t len) {
    if (s->closing) return;
    if (s->queued_bytes + len > (size_t)server_opt->limits.queue_bytes) {
        /* a socket that does not read: let it go */
        s->closing = 1;
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
    if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi)) return 0;
    if (s->rx_too_big) protocol_too_big(s);
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
        break;
    case LWS_CALLBACK_RECEIVE:
        return receive(s, wsi, in, len);
    case LWS_CALLBACK_SERVER_WRITEABLE: {
        if (s->closing) return -1;
        struct outmsg *m = s->head;
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
        if (s->head) lws_callback_on_writable(wsi);
        break;
    }
    case LWS_CALLBACK_CLOSED:
        protocol_closed(s);
        drop_queue(s);
        wait_remove(s); /* lws frees s next */
        tables_sweep();
        break;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        sockets_release();
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

