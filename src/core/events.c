/*
** events.c -- the account of an action as a JSON array (see events.h).
*/
#include "events.h"

#include <stdlib.h>

void tf_events_init(tf_events *ev, int players, int seat) {
    tf_buf_init(&ev->out);
    tf_buf_add(&ev->out, "[");
    ev->count = ev->open = 0;
    ev->players = players;
    ev->seat = seat;
}

void tf_event_begin(tf_events *ev, const char *kind) {
    if (ev->open) tf_event_end(ev);
    tf_buf_add(&ev->out, ev->count ? ",{\"kind\":" : "{\"kind\":");
    tf_buf_json_string(&ev->out, kind);
    ev->open = 1;
}

static void field(tf_events *ev, const char *name) {
    tf_buf_add(&ev->out, ",");
    tf_buf_json_string(&ev->out, name);
    tf_buf_add(&ev->out, ":");
}

void tf_event_int(tf_events *ev, const char *name, long value) {
    field(ev, name);
    tf_buf_addf(&ev->out, "%ld", value);
}

void tf_event_bool(tf_events *ev, const char *name, int value) {
    field(ev, name);
    tf_buf_add(&ev->out, value ? "true" : "false");
}

void tf_event_str(tf_events *ev, const char *name, const char *value) {
    field(ev, name);
    tf_buf_json_string(&ev->out, value);
}

void tf_event_ints(tf_events *ev, const char *name, const int *values, int n) {
    field(ev, name);
    tf_buf_add(&ev->out, "[");
    for (int i = 0; i < n; i++) tf_buf_addf(&ev->out, i ? ",%d" : "%d", values[i]);
    tf_buf_add(&ev->out, "]");
}

void tf_event_strs(tf_events *ev, const char *name, const char *const *values, int n) {
    field(ev, name);
    tf_buf_add(&ev->out, "[");
    for (int i = 0; i < n; i++) {
        if (i) tf_buf_add(&ev->out, ",");
        tf_buf_json_string(&ev->out, values[i]);
    }
    tf_buf_add(&ev->out, "]");
}

void tf_event_seat_set(tf_events *ev, const char *name, unsigned mask) {
    field(ev, name);
    tf_buf_add(&ev->out, "[");
    int first = 1;
    for (int p = 0; p < 32; p++) {
        if (!(mask & (1u << p))) continue;
        tf_buf_addf(&ev->out, first ? "%d" : ",%d", p);
        first = 0;
    }
    tf_buf_add(&ev->out, "]");
}

void tf_event_points(tf_events *ev, const int *points) {
    tf_event_ints(ev, "points", points, ev->players);
}

void tf_event_raw(tf_events *ev, const char *name, const char *json) {
    field(ev, name);
    tf_buf_add(&ev->out, json);
}

void tf_event_end(tf_events *ev) {
    if (!ev->open) return;
    tf_buf_add(&ev->out, "}");
    ev->open = 0;
    ev->count++;
}

char *tf_events_take(tf_events *ev) {
    tf_event_end(ev);
    tf_buf_add(&ev->out, "]");
    return tf_buf_take(&ev->out);
}

void tf_events_free(tf_events *ev) { tf_buf_free(&ev->out); }
