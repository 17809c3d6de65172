/*
** clocks.c -- a table's clock: its text, and the time each seat has left
** (clocks.h says how the clocks run).
*/
#include "clocks.h"

#include "tables.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Who is told that a change made it a seat's turn (the protocol's turn
** notice, given by serve.c: the tables include no header above them). */
static void (*on_turn)(const table *t, int seat);

void clocks_on_turn(void (*told)(const struct table *t, int seat)) { on_turn = told; }

/* Longest a clock may be: a real-time game of 24 h a player, or a week a
** move by correspondence. */
#define CLOCK_MAX_BASE_MS (24LL * 3600 * 1000)
#define CLOCK_MAX_INCREMENT_MS (3600LL * 1000)
#define CLOCK_MAX_PER_MOVE_MS (14LL * 86400 * 1000)

int clock_parse(const char *text, table_clock *out, char *why, size_t whysize) {
    memset(out, 0, sizeof *out);
    if (!text || !text[0] || !strcmp(text, "none")) return 0;
    char *end;
    double a = strtod(text, &end);
    if (end == text || !isfinite(a) || a < 0) goto bad;
    if (*end == '+') {
        const char *rest = end + 1;
        double b = strtod(rest, &end);
        if (end == rest || *end || !isfinite(b) || b < 0) goto bad;
        out->kind = TABLE_CLOCK_REALTIME;
        out->base_ms = llround(a * 60000.0);
        out->increment_ms = llround(b * 1000.0);
        if (out->base_ms < 1000 || out->base_ms > CLOCK_MAX_BASE_MS ||
            out->increment_ms > CLOCK_MAX_INCREMENT_MS) {
            snprintf(why, whysize, "clock '%.20s': a real-time clock has 1 s to 24 h a player "
                                   "and adds at most 3600 s a move", text);
            memset(out, 0, sizeof *out);
            return -1;
        }
        return 0;
    }
    double unit = !strcmp(end, "d")   ? 86400e3
                  : !strcmp(end, "h") ? 3600e3
                  : !strcmp(end, "m") ? 60e3
                  : !strcmp(end, "s") ? 1e3
                                      : 0;
    if (!unit) goto bad;
    out->kind = TABLE_CLOCK_CORRESPONDENCE;
    out->per_move_ms = llround(a * unit);
    if (out->per_move_ms < 1000 || out->per_move_ms > CLOCK_MAX_PER_MOVE_MS) {
        snprintf(why, whysize, "clock '%.20s': a move by correspondence may take 1 s to 14 days",
                 text);
        memset(out, 0, sizeof *out);
        return -1;
    }
    return 0;
bad:
    snprintf(why, whysize, "clock '%.20s' is not \"none\", \"M+S\" (minutes a player, seconds "
                           "added a move) or \"Nd\" (days a move; or h, m, s)", text);
    memset(out, 0, sizeof *out);
    return -1;
}

/* A number of units without a needless fraction: 10, 0.5, 2.25. */
static void amount(char *out, size_t size, double value) {
    snprintf(out, size, "%.6g", value);
}

void clock_text(const table_clock *c, char *out, size_t size) {
    char a[32], b[32];
    switch (c->kind) {
    case TABLE_CLOCK_REALTIME:
        amount(a, sizeof a, (double)c->base_ms / 60000.0);
        amount(b, sizeof b, (double)c->increment_ms / 1000.0);
        snprintf(out, size, "%s+%s", a, b);
        return;
    case TABLE_CLOCK_CORRESPONDENCE: {
        int64_t ms = c->per_move_ms;
        const char *u = ms % 86400000 == 0  ? "d"
                    : ms % 3600000 == 0 ? "h"
                    : ms % 60000 == 0   ? "m"
                                        : "s";
        double per = *u == 'd' ? 86400e3 : *u == 'h' ? 3600e3 : *u == 'm' ? 60e3 : 1e3;
        amount(a, sizeof a, (double)ms / per);
        snprintf(out, size, "%s%s", a, u);
        return;
    }
    default:
        if (size) out[0] = '\0';
    }
}

/* ---- the clocks of the tables ----------------------------------------- */

int64_t clocks_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The clocked tables not over, for clocks_tick; t->clock_listed is a
** table's place + 1. */
static table **listed;
static int nlisted, listed_cap;

static void list_add(table *t) {
    if (t->clock_listed || t->over || t->clock.kind == TABLE_CLOCK_NONE) return;
    if (nlisted == listed_cap) {
        int cap = listed_cap ? 2 * listed_cap : 64;
        table **more = realloc(listed, sizeof *more * (size_t)cap);
        if (!more) return; /* its clock still runs; only its timeout waits for a move */
        listed = more;
        listed_cap = cap;
    }
    listed[nlisted++] = t;
    t->clock_listed = nlisted;
}

void clocks_forget(table *t) {
    int i = t->clock_listed - 1;
    if (i < 0 || i >= nlisted || listed[i] != t) return;
    listed[i] = listed[--nlisted];
    listed[i]->clock_listed = i + 1;
    t->clock_listed = 0;
    if (!nlisted) {
        free(listed);
        listed = NULL;
        listed_cap = 0;
    }
}

/* The human seat to move in state, whose time counts (-1: none: the game
** is over, chance or a bot is to move, or invitations wait: no clock runs
** before every invited player has accepted). */
static int seat_to_move_in(const table *t, const tafel_state *state, int over) {
    if (over || table_waiting(t)) return -1;
    int seat = tafel_state_current(state);
    if (seat < 0 || seat >= t->players || t->seats[seat].bot) return -1;
    return seat;
}

static int seat_to_move(const table *t) { return seat_to_move_in(t, t->state, t->over); }

int clocks_turn_seat(const table *t) { return t->turn_seat; }

void clocks_started(table *t, int restored) {
    t->clock_seq = t->seq;
    t->turn_seat = seat_to_move(t);
    if (t->turn_seat >= 0 && t->clock.kind != TABLE_CLOCK_NONE &&
        (!t->turn_since || (restored && t->clock.kind == TABLE_CLOCK_REALTIME)))
        t->turn_since = clocks_now_ms();
    if (t->turn_seat < 0) t->turn_since = 0;
    list_add(t);
}

int64_t clocks_left_ms(const table *t, int seat, int64_t now) {
    if (seat < 0 || seat >= t->players) return -1;
    int running = t->turn_seat == seat && t->turn_since > 0;
    if (t->clock.kind == TABLE_CLOCK_REALTIME) {
        int64_t left = t->seats[seat].clock_ms;
        if (left < 0) left = 0;
        if (running) left -= now - t->turn_since;
        return left < 0 ? 0 : left;
    }
    if (t->clock.kind == TABLE_CLOCK_CORRESPONDENCE && running) {
        int64_t left = t->turn_since + t->clock.per_move_ms - now;
        return left < 0 ? 0 : left;
    }
    return -1;
}

int clocks_flagged(const table *t, int seat, int64_t now) {
    return t->clock.kind == TABLE_CLOCK_REALTIME && !t->over && t->turn_seat == seat &&
           t->turn_since > 0 && clocks_left_ms(t, seat, now) <= 0;
}

/* Whether seat is one of the n seats that played the change's actions
** (its turn ended by its own move: the increment is its). */
static int acted(int seat, const int *seats, int n) {
    for (int i = 0; i < n; i++)
        if (seats[i] == seat) return 1;
    return 0;
}

/* The clocks at now after a change that leaves seat after to move
** (acted_before: the seat that was to move played in it), into out: 1
** when they are to be stored, 0 when they stay as stored. */
static int settle(const table *t, int after, int acted_before, int64_t now, store_clocks *out) {
    int before = t->turn_seat;
    int64_t since = t->turn_since;
    out->nseats = t->players;
    for (int i = 0; i < t->players; i++) out->ms[i] = t->seats[i].clock_ms;
    out->turn_since = since;
    if (t->clock.kind == TABLE_CLOCK_NONE) return 0;
    if (t->clock.kind == TABLE_CLOCK_REALTIME) {
        if (before >= 0 && since > 0) {
            int64_t left = out->ms[before] - (now - since);
            if (left < 0) left = 0;
            if (after != before && acted_before && left > 0) left += t->clock.increment_ms;
            out->ms[before] = left;
        }
        out->turn_since = after >= 0 ? now : 0;
    } else if (after != before || !since) {
        out->turn_since = after >= 0 ? now : 0;
    }
    return t->clock.kind == TABLE_CLOCK_REALTIME || out->turn_since != since;
}

int clocks_next(const table *t, const tafel_state *after, int over, const int *seats, int n,
                store_clocks *out) {
    int seat = seat_to_move_in(t, after, over);
    return settle(t, seat, acted(t->turn_seat, seats, n), clocks_now_ms(), out);
}

void clocks_stored(table *t, const store_clocks *clocks) {
    t->clock_next = *clocks;
    t->clock_next_seq = t->seq + 1;
}

void clocks_changed(table *t) {
    if (t->clock_seq == t->seq) return;
    t->clock_seq = t->seq;
    int before = t->turn_seat, after = seat_to_move(t);
    store_clocks clocks = t->clock_next;
    /* stored with the change itself (clocks_next), or now on their own */
    int stored = t->clock_next_seq == t->seq;
    t->clock_next_seq = 0;
    if (!stored) {
        int acted_before = 0;
        for (int i = 0; i < t->nlast; i++) acted_before |= t->last[i].seat == before;
        if (settle(t, after, acted_before, clocks_now_ms(), &clocks))
            table_store_clocks(t, &clocks); /* after the change, in its order */
    }
    t->turn_seat = after;
    if (t->clock.kind != TABLE_CLOCK_NONE) {
        for (int i = 0; i < t->players; i++) t->seats[i].clock_ms = clocks.ms[i];
        t->turn_since = clocks.turn_since;
        if (t->over) clocks_forget(t);
    }
    if (after >= 0 && after != before && on_turn) on_turn(t, after);
}

cJSON *clocks_json(const table *t, int64_t now) {
    if (t->clock.kind == TABLE_CLOCK_NONE) return NULL;
    cJSON *o = cJSON_CreateObject();
    char text[STORE_CLOCK_MAX];
    clock_text(&t->clock, text, sizeof text);
    cJSON_AddStringToObject(o, "kind", t->clock.kind == TABLE_CLOCK_REALTIME ? "realtime"
                                                                        : "correspondence");
    cJSON_AddStringToObject(o, "text", text);
    cJSON *left = cJSON_AddArrayToObject(o, "left_ms");
    for (int i = 0; i < t->players; i++) {
        int64_t ms = clocks_left_ms(t, i, now);
        cJSON_AddItemToArray(left, ms >= 0 ? cJSON_CreateNumber((double)ms) : cJSON_CreateNull());
    }
    int running = !t->over && t->turn_seat >= 0 && t->turn_since > 0 ? t->turn_seat : -1;
    cJSON_AddItemToObject(o, "running", running >= 0 ? cJSON_CreateNumber(running)
                                                     : cJSON_CreateNull());
    if (t->clock.kind == TABLE_CLOCK_REALTIME) {
        cJSON_AddNumberToObject(o, "base_ms", (double)t->clock.base_ms);
        cJSON_AddNumberToObject(o, "increment_ms", (double)t->clock.increment_ms);
    } else {
        cJSON_AddNumberToObject(o, "per_move_ms", (double)t->clock.per_move_ms);
        if (running >= 0)
            cJSON_AddNumberToObject(o, "deadline_ms",
                                    (double)(t->turn_since + t->clock.per_move_ms));
        else
            cJSON_AddNullToObject(o, "deadline_ms");
    }
    return o;
}

void clocks_tick(void) {
    int64_t now = clocks_now_ms();
    /* downwards: a table that ends leaves the list, and the one moved into
    ** its place has been looked at already */
    for (int i = nlisted - 1; i >= 0; i--) {
        if (i >= nlisted) continue;
        table *t = listed[i];
        int seat = t->turn_seat;
        if (table_busy(t) || !clocks_flagged(t, seat, now)) continue; /* busy: the next tick */
        const char *code;
        char msg[512];
        if (table_time_out(t, seat, NULL, &code, msg, sizeof msg))
            fprintf(stderr, "tafel serve: table %s: seat %d's time ran out, not stored: %s\n",
                    t->id, seat, msg);
    }
}
