/*
** events.h -- writing the account of an action: a JSON array of events
** (internal, shared by the games' account.c files).
**
** An event is {"kind": "...", field: value, ...}.  The conventions that the
** catalogs' templates rely on (docs/events.md) are kept by the field names:
**   "seat", "*_seat"       a seat number (a player's name in words);
**   "seats", "*_seats"     an array of seats ("Blue and Red");
**   "points", "*_by_seat"  one number per seat ("Blue 10, Red 10");
**   "points"               present exactly on events that change a score,
**                          so that the points of a whole game add up,
**                          seat by seat, to the final scores;
**   a string               a symbol (a tile, a card, a resource), looked up
**                          in the catalog as "<game>.<field>.<value>";
**                          "?" is what the seat may not see.
** A failed allocation is remembered by the buffer (tf_buf), checked once at
** the end.
*/
#ifndef TF_EVENTS_H
#define TF_EVENTS_H

#include "buf.h"

typedef struct tf_events {
    tf_buf out;
    int count;   /* events written */
    int open;    /* an event is being written */
    int players; /* length of every per-seat array */
    int seat;    /* who the account is for: a seat, or -1 for a spectator */
} tf_events;

void tf_events_init(tf_events *ev, int players, int seat);
/* Start an event of kind; close it with tf_event_end. */
void tf_event_begin(tf_events *ev, const char *kind);
void tf_event_int(tf_events *ev, const char *field, long value);
void tf_event_bool(tf_events *ev, const char *field, int value);
void tf_event_str(tf_events *ev, const char *field, const char *value);
/* An array of n numbers (a per-seat array: n = players). */
void tf_event_ints(tf_events *ev, const char *field, const int *values, int n);
/* An array of n strings. */
void tf_event_strs(tf_events *ev, const char *field, const char *const *values, int n);
/* The seats whose bit is set in mask, as an array. */
void tf_event_seat_set(tf_events *ev, const char *field, unsigned mask);
/* "points": one number per seat. */
void tf_event_points(tf_events *ev, const int *points);
/* A field holding JSON the caller wrote correctly (an object or array). */
void tf_event_raw(tf_events *ev, const char *field, const char *json);
void tf_event_end(tf_events *ev);
/* The whole array (malloc'd), or NULL when memory ran out; ev is emptied. */
char *tf_events_take(tf_events *ev);
void tf_events_free(tf_events *ev);

#endif
