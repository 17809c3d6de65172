/*
** watchers.c -- the sockets watching each table, and what they are sent
** when it changes (watchers.h).
**
** A table's watchers are the protocol's: a list hung on the table
** (t->watchers, which the tables layer never looks into), made when the
** first socket joins and freed when the last leaves, so that a table
** nobody watches costs nothing here.  The tables layer counts them
** (table_watch, table_unwatch: the sweep of finished tables, the sockets
** at a seat that states and the lobby show) and tells what happened
** through tables_events: a change to send, a seat its sockets lost, a
** hint.  The history messages are kept with the list: a history is asked
** for by a socket at the table, and is good for one seq.
*/
#include "watchers.h"
#include "protocol.h"
#include "tables.h"

#include <stdlib.h>
#include <string.h>

struct table_watchers {
    session **sockets;
    int n, cap;
    /* The history message per viewer (seat + 1), built for seq history_seq. */
    char *history[TAFEL_MAX_PLAYERS + 1];
    int64_t history_seq[TAFEL_MAX_PLAYERS + 1];
};

/* The bytes of every table's kept history messages: past the budget a
** message is built for its request and not kept, so that watching many
** long games cannot hold the server's memory. */
#define HISTORY_BUDGET (64L << 20)
static long history_bytes;

static void forget_history(table_watchers *w, int v) {
    if (w->history[v]) history_bytes -= (long)strlen(w->history[v]) + 1;
    free(w->history[v]);
    w->history[v] = NULL;
}

session **watchers_of(const table *t, int *n) {
    *n = t->watchers ? t->watchers->n : 0;
    return t->watchers ? t->watchers->sockets : NULL;
}

int watchers_attach(table *t, session *s) {
    table_watchers *w = t->watchers;
    if (!w && !(w = t->watchers = calloc(1, sizeof *w))) return -1;
    if (w->n == w->cap) {
        int cap = w->cap ? 2 * w->cap : 8;
        session **more = realloc(w->sockets, sizeof *more * (size_t)cap);
        if (!more) return -1;
        w->sockets = more;
        w->cap = cap;
    }
    w->sockets[w->n++] = s;
    s->table = t;
    s->told = -1;
    table_watch(t, s->seat);
    return 0;
}

void watchers_detach(session *s) {
    table *t = s->table;
    table_watchers *w = t ? t->watchers : NULL;
    s->table = NULL;
    if (!w) return;
    for (int i = 0; i < w->n; i++)
        if (w->sockets[i] == s) {
            w->sockets[i] = w->sockets[--w->n];
            if (w->n == 0) { /* the last: the list goes */
                for (int v = 0; v <= TAFEL_MAX_PLAYERS; v++) forget_history(w, v);
                free(w->sockets);
                free(w);
                t->watchers = NULL;
            }
            table_unwatch(t, s->seat);
            return;
        }
}

int watchers_events_from(const table *t, const session *s) {
    int change_from = t->nactions - t->nlast;
    if (s->told < 0 || s->told > t->nactions) return t->nactions; /* first, or undone */
    return s->told > change_from ? s->told : change_from;
}

void watchers_changed(table *t) {
    table_watchers *w = t->watchers;
    if (!w) return;
    for (int v = 0; v <= TAFEL_MAX_PLAYERS; v++)
        if (w->history_seq[v] != t->seq) forget_history(w, v); /* an older seq's */
    /* the sockets of a seat have all been sent the same states, but for
    ** one that has just joined */
    char *by_viewer[TAFEL_MAX_PLAYERS + 1] = {0};
    int from[TAFEL_MAX_PLAYERS + 1];
    for (int i = 0; i < w->n; i++) {
        session *s = w->sockets[i];
        int v = s->seat + 1, first = watchers_events_from(t, s);
        char *text = by_viewer[v] && from[v] == first ? by_viewer[v]
                                                      : protocol_state(t, s->seat, first);
        if (!text) continue;
        session_send(s, text, strlen(text));
        s->told = t->nactions;
        if (!by_viewer[v]) by_viewer[v] = text, from[v] = first;
        else if (text != by_viewer[v]) free(text);
    }
    for (int v = 0; v <= TAFEL_MAX_PLAYERS; v++) free(by_viewer[v]);
}

int watchers_unseated(table *t, int seat, int64_t keep, int given_up) {
    int n, left = 0;
    session **at = watchers_of(t, &n);
    for (int i = 0; i < n; i++) {
        session *s = at[i];
        if (s->seat != seat || (!given_up && s->who.id == keep)) continue;
        s->seat = -1;
        s->told = -1; /* its next state is a spectator's first */
        if (given_up) s->left_seat = seat + 1; /* social: a rematch finds it */
        left++;
    }
    return left;
}

void watchers_hint(table *t, const bot_job *job) {
    int n;
    session **at = watchers_of(t, &n);
    for (int i = 0; i < n; i++)
        if (at[i]->id == job->session_id) protocol_send_hint(at[i], job);
}

const char *watchers_history(table *t, int seat, char **uncached) {
    table_watchers *w = t->watchers;
    int v = seat + 1;
    *uncached = NULL;
    if (w && w->history[v] && w->history_seq[v] == t->seq) return w->history[v];
    if (w) forget_history(w, v);
    char *text = protocol_history(t, seat);
    if (!text) return NULL;
    long size = (long)strlen(text) + 1;
    if (!w || history_bytes + size > HISTORY_BUDGET) return *uncached = text;
    history_bytes += size;
    w->history[v] = text;
    w->history_seq[v] = t->seq;
    return text;
}
