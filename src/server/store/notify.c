/*
** notify.c -- LISTEN/NOTIFY between nodes, batched (notify.h).
**
** One thread, one connection.  The thread waits on the connection's socket
** for at most NOTIFY_BATCH_MS, takes in what arrived, and sends what the
** loop queued since the last batch.  Blocking libpq calls are fine here:
** this thread is nobody's loop.  A lost connection is made again once a
** second; then the loop hears channel "" (read everything afresh).  A
** queue that grows past QUEUE_MAX (a node far behind, or a flood) is
** replaced by one "*" per channel: everything changed.
*/
#include "notify.h"

#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define QUEUE_MAX 20000
#define RECONNECT_MS 1000

typedef struct note {
    struct note *next;
    int channel;   /* an index of channels; -1: "" (read afresh) */
    char *payload;
} note;

struct store_notifier {
    char *path;
    char *channels[NOTIFY_CHANNELS_MAX];
    int nchannels;
    void (*wake)(void);
    PGconn *conn; /* the thread's */
    pthread_t thread;
    pthread_mutex_t lock;
    int stopping;
    note *out_head, *out_tail; /* queued by the loop */
    int nout, out_flooded;
    note *in_head, *in_tail;   /* heard, for the loop */
    int nin, in_flooded;
};

static int is_pg(const char *path) {
    return !strncmp(path, "postgresql://", 13) || !strncmp(path, "postgres://", 11);
}

static int channel_ok(const char *c) {
    if (!c[0] || strlen(c) > 63) return 0;
    for (; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || *c == '_')) return 0;
    return 1;
}

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void notes_free(note *n) {
    while (n) {
        note *next = n->next;
        free(n->payload);
        free(n);
        n = next;
    }
}

/* Appends a note to a list; 0, or -1 (out of memory: dropped). */
static int push(note **head, note **tail, int channel, const char *payload, size_t len) {
    note *n = malloc(sizeof *n);
    char *p = malloc(len + 1);
    if (!n || !p) {
        free(n);
        free(p);
        return -1;
    }
    memcpy(p, payload, len);
    p[len] = 0;
    n->next = NULL;
    n->channel = channel;
    n->payload = p;
    if (*tail) (*tail)->next = n;
    else *head = n;
    *tail = n;
    return 0;
}

/* ---- the connection (the thread's) ---------------------------------- */

static int run(PGconn *conn, const char *sql) {
    PGresult *r = PQexec(conn, sql);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    PQclear(r);
    return ok ? 0 : -1;
}

/* What PostgreSQL says unasked (a FATAL as the connection is cut) is not
** printed: a store never prints (pg.c); the loop hears "" instead. */
static void quiet(void *arg, const char *message) {
    (void)arg, (void)message;
}

/* Connects and listens; NULL with err set when PostgreSQL refused. */
static PGconn *connect_listening(store_notifier *n, char *err, size_t errsize) {
    /* a bounded wait (the server's stop joins this thread), unless the URI
    ** says otherwise (expand_dbname), as pg.c's connections */
    const char *const keys[] = {"connect_timeout", "dbname", NULL};
    const char *const values[] = {"10", n->path, NULL};
    PGconn *conn = PQconnectdbParams(keys, values, 1);
    if (PQstatus(conn) != CONNECTION_OK) {
        snprintf(err, errsize, "storage: PostgreSQL (notifications): %s", PQerrorMessage(conn));
        PQfinish(conn);
        return NULL;
    }
    PQsetNoticeProcessor(conn, quiet, NULL);
    /* a lost notification costs a refresh, not a move: no flush to wait for */
    int failed = run(conn, "SET synchronous_commit = off") ||
                 run(conn, "SET application_name = 'tafel serve (notifications)'");
    for (int i = 0; !failed && i < n->nchannels; i++) {
        char sql[96];
        snprintf(sql, sizeof sql, "LISTEN %s", n->channels[i]); /* names checked: letters, _ */
        failed = run(conn, sql);
    }
    if (failed) {
        snprintf(err, errsize, "storage: PostgreSQL (notifications): %s", PQerrorMessage(conn));
        PQfinish(conn);
        return NULL;
    }
    return conn;
}

static int channel_index(const store_notifier *n, const char *name) {
    for (int i = 0; i < n->nchannels; i++)
        if (!strcmp(n->channels[i], name)) return i;
    return -1;
}

/* What arrived, split into lines, onto the loop's list; 1 if anything. */
static int take_in(store_notifier *n) {
    if (!PQconsumeInput(n->conn)) return -1;
    int heard = 0;
    int self = PQbackendPID(n->conn);
    PGnotify *pn;
    while ((pn = PQnotifies(n->conn))) {
        int ch = channel_index(n, pn->relname);
        if (pn->be_pid != self && ch >= 0) {
            pthread_mutex_lock(&n->lock);
            for (const char *line = pn->extra; *line;) {
                const char *end = strchr(line, '\n');
                size_t len = end ? (size_t)(end - line) : strlen(line);
                if (len > 0 && !n->in_flooded) {
                    if (n->nin >= QUEUE_MAX || push(&n->in_head, &n->in_tail, ch, line, len)) {
                        notes_free(n->in_head); /* the loop is far behind: all afresh */
                        n->in_head = n->in_tail = NULL;
                        n->nin = 0;
                        n->in_flooded = 1;
                    } else {
                        n->nin++;
                    }
                }
                line += len + (end != NULL);
            }
            pthread_mutex_unlock(&n->lock);
            heard = 1;
        }
        PQfreemem(pn);
    }
    return heard;
}

static int cmp_text(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One channel's payloads: sorted, repeats dropped, joined by newlines into
** notifications under NOTIFY_PAYLOAD_MAX bytes, all in one transaction. */
static int send_channel(PGconn *conn, const char *channel, char **texts, int count) {
    qsort(texts, (size_t)count, sizeof *texts, cmp_text);
    if (run(conn, "BEGIN")) return -1;
    char *buf = malloc(NOTIFY_PAYLOAD_MAX + 1);
    if (!buf) {
        run(conn, "ROLLBACK");
        return -1;
    }
    size_t len = 0;
    int failed = 0;
    for (int i = 0; i <= count && !failed; i++) {
        int last = i == count;
        if (!last && i > 0 && !strcmp(texts[i], texts[i - 1])) continue;
        size_t add = last ? 0 : strlen(texts[i]);
        if (len > 0 && (last || len + 1 + add > NOTIFY_PAYLOAD_MAX)) {
            buf[len] = 0;
            const char *params[2] = {channel, buf};
            PGresult *r = PQexecParams(conn, "SELECT pg_notify($1, $2)", 2, NULL, params, NULL,
                                       NULL, 0);
            failed = PQresultStatus(r) != PGRES_TUPLES_OK;
            PQclear(r);
            len = 0;
        }
        if (!last && add > 0 && add <= NOTIFY_PAYLOAD_MAX) {
            if (len > 0) buf[len++] = '\n';
            memcpy(buf + len, texts[i], add);
            len += add;
        }
    }
    free(buf);
    if (failed) {
        run(conn, "ROLLBACK");
        return -1;
    }
    return run(conn, "COMMIT");
}

/* Sends the loop's queue: 0, or -1 (the connection failed; the batch is
** lost, and the others will hear "" when they notice nothing came). */
static int send_out(store_notifier *n) {
    pthread_mutex_lock(&n->lock);
    note *queue = n->out_head;
    int count = n->nout, flooded = n->out_flooded;
    n->out_head = n->out_tail = NULL;
    n->nout = 0;
    n->out_flooded = 0;
    pthread_mutex_unlock(&n->lock);
    int failed = 0;
    if (flooded) {
        char star[] = "*", *texts[1] = {star};
        for (int c = 0; c < n->nchannels && !failed; c++)
            failed = send_channel(n->conn, n->channels[c], texts, 1);
    } else if (count > 0) {
        char **texts = malloc(sizeof *texts * (size_t)count);
        for (int c = 0; texts && c < n->nchannels && !failed; c++) {
            int k = 0;
            for (note *q = queue; q; q = q->next)
                if (q->channel == c) texts[k++] = q->payload;
            if (k > 0) failed = send_channel(n->conn, n->channels[c], texts, k);
        }
        free(texts);
    }
    notes_free(queue);
    return failed ? -1 : 0;
}

static void tell_afresh(store_notifier *n) {
    pthread_mutex_lock(&n->lock);
    notes_free(n->in_head);
    n->in_head = n->in_tail = NULL;
    n->nin = 0;
    n->in_flooded = 1;
    pthread_mutex_unlock(&n->lock);
    if (n->wake) n->wake();
}

static int stopping(store_notifier *n) {
    pthread_mutex_lock(&n->lock);
    int s = n->stopping;
    pthread_mutex_unlock(&n->lock);
    return s;
}

static void *notifier_main(void *arg) {
    store_notifier *n = arg;
    int64_t next_batch = now_ms() + NOTIFY_BATCH_MS, retry_at = 0;
    for (;;) {
        int stop = stopping(n);
        if (!n->conn) {
            if (stop) break;
            if (now_ms() >= retry_at) {
                char err[512];
                n->conn = connect_listening(n, err, sizeof err);
                retry_at = now_ms() + RECONNECT_MS;
                if (n->conn) tell_afresh(n); /* what was said meanwhile is lost */
            }
            if (!n->conn) {
                struct timespec pause = {0, 50 * 1000000L};
                nanosleep(&pause, NULL);
                continue;
            }
        }
        int64_t wait = next_batch - now_ms();
        struct pollfd pfd = {.fd = PQsocket(n->conn), .events = POLLIN};
        if (!stop && wait > 0) poll(&pfd, 1, (int)wait);
        int heard = take_in(n);
        if (heard > 0 && n->wake) n->wake();
        if (heard >= 0 && (stop || now_ms() >= next_batch)) {
            if (send_out(n)) heard = -1;
            next_batch = now_ms() + NOTIFY_BATCH_MS;
        }
        if (heard < 0 || PQstatus(n->conn) != CONNECTION_OK) {
            PQfinish(n->conn);
            n->conn = NULL;
            retry_at = now_ms() + RECONNECT_MS;
        }
        if (stop) break;
    }
    return NULL;
}

/* ---- the loop's side ------------------------------------------------- */

static void notifier_free(store_notifier *n) {
    if (!n) return;
    PQfinish(n->conn);
    for (int i = 0; i < n->nchannels; i++) free(n->channels[i]);
    notes_free(n->out_head);
    notes_free(n->in_head);
    free(n->path);
    pthread_mutex_destroy(&n->lock);
    free(n);
}

int store_notify_start(const char *path, const char *const *channels, int nchannels,
                       void (*wake)(void), store_notifier **out, char *err, size_t errsize) {
    *out = NULL;
    if (!is_pg(path)) return 0;
    if (nchannels < 1 || nchannels > NOTIFY_CHANNELS_MAX) {
        snprintf(err, errsize, "storage: %d notification channels (1 to %d)", nchannels,
                 NOTIFY_CHANNELS_MAX);
        return -1;
    }
    for (int i = 0; i < nchannels; i++)
        if (!channel_ok(channels[i])) {
            snprintf(err, errsize, "storage: the channel name \"%s\" (lowercase letters and _)",
                     channels[i]);
            return -1;
        }
    store_notifier *n = calloc(1, sizeof *n);
    if (!n || !(n->path = strdup(path))) {
        free(n);
        snprintf(err, errsize, "storage: out of memory");
        return -1;
    }
    pthread_mutex_init(&n->lock, NULL);
    n->wake = wake;
    for (int i = 0; i < nchannels; i++)
        if ((n->channels[n->nchannels] = strdup(channels[i]))) n->nchannels++;
    if (n->nchannels < nchannels || !(n->conn = connect_listening(n, err, errsize))) {
        if (n->nchannels < nchannels) snprintf(err, errsize, "storage: out of memory");
        notifier_free(n);
        return -1;
    }
    if (pthread_create(&n->thread, NULL, notifier_main, n)) {
        snprintf(err, errsize, "storage: no thread for the notifications");
        notifier_free(n);
        return -1;
    }
    *out = n;
    return 0;
}

void store_notify_send(store_notifier *n, const char *channel, const char *payload) {
    if (!n) return;
    int ch = channel_index(n, channel);
    size_t len = strlen(payload);
    if (ch < 0 || len == 0 || len >= NOTIFY_PAYLOAD_MAX || strchr(payload, '\n')) return;
    pthread_mutex_lock(&n->lock);
    if (!n->out_flooded) {
        if (n->nout >= QUEUE_MAX || push(&n->out_head, &n->out_tail, ch, payload, len)) {
            notes_free(n->out_head); /* too much to say: say "everything" */
            n->out_head = n->out_tail = NULL;
            n->nout = 0;
            n->out_flooded = 1;
        } else {
            n->nout++;
        }
    }
    pthread_mutex_unlock(&n->lock);
}

int store_notify_receive(store_notifier *n, store_notify_fn *fn, void *ctx) {
    if (!n) return 0;
    pthread_mutex_lock(&n->lock);
    note *heard = n->in_head;
    int flooded = n->in_flooded;
    n->in_head = n->in_tail = NULL;
    n->nin = 0;
    n->in_flooded = 0;
    pthread_mutex_unlock(&n->lock);
    int count = 0;
    if (flooded) {
        fn("", "", ctx);
        count++;
    }
    for (note *q = heard; q; q = q->next, count++) fn(n->channels[q->channel], q->payload, ctx);
    notes_free(heard);
    return count;
}

void store_notify_stop(store_notifier *n) {
    if (!n) return;
    pthread_mutex_lock(&n->lock);
    n->stopping = 1;
    pthread_mutex_unlock(&n->lock);
    pthread_join(n->thread, NULL);
    notifier_free(n);
}
