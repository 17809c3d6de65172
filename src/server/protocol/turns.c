/*
** turns.c -- the `turn` message to a player's other sockets, and the
** player's unfinished games (turns.h).
**
** The index of sockets by player is a fixed array of chained buckets, one
** node per player with sockets open (freed when its last socket closes):
** its size is bounded by the sockets the server allows.
*/
#include "turns.h"
#include "protocol.h"

#include "players.h"
#include "tables.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TURNS_BUCKETS 1024
#define MY_GAMES_MAX 200 /* tables one answer lists at most */

typedef struct player_sockets {
    int64_t id;
    session **sockets;
    int n, cap;
    struct player_sockets *next;
} player_sockets;

static player_sockets *buckets[TURNS_BUCKETS];

static player_sockets **slot_of(int64_t id) {
    uint64_t h = (uint64_t)id * 0x9E3779B97F4A7C15ULL;
    return &buckets[(h >> 32) % TURNS_BUCKETS];
}

static int has_login(const session *s) {
    return s->who.id > 0 && (s->who.kind == PLAYER_ACCOUNT || s->who.kind == PLAYER_GUEST);
}

void turns_socket_opened(session *s) {
    if (!has_login(s)) return;
    player_sockets **slot = slot_of(s->who.id), *p = *slot;
    while (p && p->id != s->who.id) p = p->next;
    if (!p) {
        if (!(p = calloc(1, sizeof *p))) return; /* that socket is not told of turns */
        p->id = s->who.id;
        p->next = *slot;
        *slot = p;
    }
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 4;
        session **more = realloc(p->sockets, sizeof *more * (size_t)cap);
        if (!more) return;
        p->sockets = more;
        p->cap = cap;
    }
    p->sockets[p->n++] = s;
}

void turns_socket_closed(session *s) {
    if (!has_login(s)) return;
    for (player_sockets **link = slot_of(s->who.id); *link; link = &(*link)->next) {
        player_sockets *p = *link;
        if (p->id != s->who.id) continue;
        for (int i = 0; i < p->n; i++)
            if (p->sockets[i] == s) {
                p->sockets[i] = p->sockets[--p->n];
                break;
            }
        if (!p->n) {
            *link = p->next;
            free(p->sockets);
            free(p);
        }
        return;
    }
}

/* A message of type with the table and its game (and what extra adds of
** t, when the table is here): JSON text, malloc'd, or NULL. */
static char *message_text(const char *table_id, const char *game, const char *type,
                          void (*extra)(cJSON *, const table *), const table *t) {
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddStringToObject(msg, "type", type);
    cJSON_AddStringToObject(msg, "table", table_id);
    cJSON_AddStringToObject(msg, "game", game);
    if (extra) extra(msg, t);
    char *text = cJSON_PrintUnformatted(msg);
    cJSON_Delete(msg);
    return text;
}

/* Sends text (made when first needed) to the player's sockets that are not
** at the table table_id: those see the table's state. */
static void send_to_player(int64_t player_id, const char *table_id, const char *given,
                           const char *game, const char *type,
                           void (*extra)(cJSON *, const table *), const table *t) {
    if (protocol_is_stopping()) return;
    player_sockets *p = *slot_of(player_id);
    while (p && p->id != player_id) p = p->next;
    if (!p) return;
    char *made = NULL;
    const char *text = given;
    for (int i = 0; i < p->n; i++) {
        session *s = p->sockets[i];
        if (s->table && !strcmp(s->table->id, table_id)) continue;
        if (!text && !(text = made = message_text(table_id, game, type, extra, t))) return;
        session_send(s, text, strlen(text));
    }
    free(made);
}

static void tell(int64_t player_id, const char *table_id, const char *game, const char *type,
                 void (*extra)(cJSON *, const table *), const table *t) {
    send_to_player(player_id, table_id, NULL, game, type, extra, t);
}

/* The seat's player, when a person still playing there. */
static void tell_player(const table *t, int seat, const char *type,
                        void (*extra)(cJSON *, const table *)) {
    const table_seat *ts = &t->seats[seat];
    if (ts->bot || ts->resigned || ts->who.id <= 0) return;
    tell(ts->who.id, t->id, t->game_string, type, extra, t);
}

void turns_notify(const table *t, int seat) { tell_player(t, seat, "turn", NULL); }

void turns_elsewhere(int64_t player_id, const char *table_id, const char *game) {
    tell(player_id, table_id, game, "turn", NULL, NULL);
}

/* What an invitation says besides its game and clock: who, rated or not,
** until when. */
static void invitation_fields(cJSON *o, const table *t) {
    if (t->creator.id && t->creator.name[0]) cJSON_AddStringToObject(o, "by", t->creator.name);
    cJSON_AddBoolToObject(o, "rated", t->rated);
    cJSON_AddNumberToObject(o, "invite_until", (double)t->invite_until);
}

static void invited_message(cJSON *o, const table *t) {
    invitation_fields(o, t);
    char clock[STORE_CLOCK_MAX];
    clock_text(&t->clock, clock, sizeof clock);
    cJSON_AddStringToObject(o, "clock", clock);
}

void turns_invited(const table *t, int seat) { tell_player(t, seat, "invited", invited_message); }

char *turns_invited_text(const table *t) {
    return message_text(t->id, t->game_string, "invited", invited_message, t);
}

void turns_relay(int64_t player_id, const char *table_id, const char *text) {
    send_to_player(player_id, table_id, text, NULL, NULL, NULL, NULL);
}

/* ---- my games --------------------------------------------------------- */

/* One listed game: its table and the player's seat. */
typedef struct my_game {
    const table *t;
    table *copy; /* t read from the store (another node plays it): freed after */
    int seat, yours, invited;
} my_game;

/* When the seat's time runs out if it does not move (unix ms), or -1:
** no clock runs for it. */
static int64_t runs_out_at(const table *t, int seat) {
    if (t->turn_seat != seat || t->turn_since <= 0) return -1;
    if (t->clock.kind == TABLE_CLOCK_REALTIME) return t->turn_since + t->seats[seat].clock_ms;
    if (t->clock.kind == TABLE_CLOCK_CORRESPONDENCE) return t->turn_since + t->clock.per_move_ms;
    return -1;
}

/* Invitations to answer first, then your turn (the nearest deadline
** first), then the latest changed. */
static int game_order(const void *a, const void *b) {
    const my_game *x = a, *y = b;
    if (x->invited != y->invited) return y->invited - x->invited;
    if (x->yours != y->yours) return y->yours - x->yours;
    if (x->yours) {
        int64_t lx = runs_out_at(x->t, x->seat), ly = runs_out_at(y->t, y->seat);
        if (lx != ly) return lx < 0 ? 1 : ly < 0 ? -1 : lx < ly ? -1 : 1;
    }
    return x->t->updated != y->t->updated ? (x->t->updated > y->t->updated ? -1 : 1)
                                          : strcmp(x->t->id, y->t->id);
}

/* A "my games" request on its way: the player's seats read from the store
** (a job), then the tables of those not in memory (another node plays
** them: a second job), then the answer made on the loop from the tables
** as they are then. */
typedef struct games_job {
    int64_t player;
    void (*done)(char *text, unsigned status, void *ctx);
    void *ctx;
    int found;                        /* seats read, -1 unreadable */
    store_player_seat seats[MY_GAMES_MAX];
    tables_stored *read;              /* per seat: read when it was not here */
} games_job;

static int seats_read(store *db, void *ctx, char *err, size_t errsize) {
    games_job *g = ctx;
    g->found = store_player_seats(db, g->player, MY_GAMES_MAX, g->seats, err, errsize);
    return g->found < 0 ? -1 : 0;
}

/* The tables that were not in memory when the seats were read (read[i].found
** set on the loop for those to read: 1). */
static int others_read(store *db, void *ctx, char *err, size_t errsize) {
    games_job *g = ctx;
    for (int i = 0; i < g->found; i++) /* one unreadable: not listed */
        if (g->read[i].found)
            tables_stored_read(db, g->seats[i].table_id, &g->read[i], err, errsize);
    return 0;
}

/* The seats that still play, with their tables: those in memory, else
** as read (copies, freed after). */
static int find_games(games_job *g, my_game *out) {
    int n = 0;
    for (int i = 0; i < g->found; i++) {
        const table *t = tables_loaded(g->seats[i].table_id);
        table *copy = t || !g->read ? NULL : tables_stored_build(&g->read[i]);
        if (copy) t = copy;
        int seat = g->seats[i].seat;
        if (!t || t->over || seat < 0 || seat >= t->players || t->seats[seat].bot ||
            t->seats[seat].resigned) {
            tables_read_free(copy);
            continue;
        }
        out[n].t = t;
        out[n].copy = copy;
        out[n].seat = seat;
        out[n].yours = clocks_turn_seat(t) == seat;
        out[n].invited = t->seats[seat].invite;
        n++;
    }
    return n;
}

static char *games_answer(my_game *games, int n, unsigned *status);

/* The answer, on the loop, and the job freed. */
static void games_done(void *ctx, int rc, const char *err) {
    games_job *g = ctx;
    (void)err;
    char *text = NULL;
    unsigned status = 500;
    my_game *games = rc == 0 ? malloc(sizeof *games * MY_GAMES_MAX) : NULL;
    if (games) text = games_answer(games, find_games(g, games), &status);
    else if (rc != TABLE_UNANSWERED)
        text = protocol_http_error("storage", "the server could not read its tables");
    for (int i = 0; g->read && i < g->found; i++)
        if (g->read[i].found) store_table_free(&g->read[i].st);
    free(games);
    free(g->read);
    if (rc == TABLE_UNANSWERED) free(text); /* the server stops: nobody to answer */
    else g->done(text, status, g->ctx);
    free(g);
}

/* After the seats' read (rc): marks the seats whose table is not here, to
** read; how many, or -1 (out of memory, or rc -1). */
static int mark_missing(games_job *g, int rc) {
    if (rc || g->found <= 0) return rc ? -1 : 0;
    if (!(g->read = calloc((size_t)g->found, sizeof *g->read))) return -1;
    int missing = 0;
    for (int i = 0; i < g->found; i++)
        missing += g->read[i].found = !tables_loaded(g->seats[i].table_id);
    return missing;
}

/* The seats are read: the tables not here are read next, if any. */
static void seats_done(void *ctx, int rc, const char *err) {
    games_job *g = ctx;
    int missing = rc == TABLE_UNANSWERED ? 0 : mark_missing(g, rc);
    if (missing <= 0) {
        if (missing < 0) rc = -1;
        games_done(g, rc, err);
        return;
    }
    char key[32];
    snprintf(key, sizeof key, "games:%lld", (long long)g->player);
    tables_later(key, others_read, games_done, g);
}

/* The job of a request whose login was found (found, me: players_of_request's), or NULL
** with the answer given to done at once. */
static games_job *games_job_new(int found, const player *me,
                                void (*done)(char *text, unsigned status, void *ctx), void *ctx) {
    if (found <= 0) {
        done(found < 0 ? protocol_http_error("storage", "the server could not read its logins")
                       : protocol_http_error("not_logged_in", "my games are a player's: this "
                                             "request has no login (its tafel_session cookie)"),
             found < 0 ? 500 : 401, ctx);
        return NULL;
    }
    games_job *g = calloc(1, sizeof *g);
    if (!g) {
        done(protocol_http_error("storage", "the server could not read its tables"), 500, ctx);
        return NULL;
    }
    *g = (games_job){.player = me->id, .done = done, .ctx = ctx};
    return g;
}

void turns_my_games_later(int found, const player *me,
                          void (*done)(char *text, unsigned status, void *ctx), void *ctx) {
    games_job *g = games_job_new(found, me, done, ctx);
    if (!g) return;
    char key[32];
    snprintf(key, sizeof key, "games:%lld", (long long)g->player);
    tables_later(key, seats_read, seats_done, g);
}

/* The answer to "my games": the games ordered, as JSON (malloc'd, NULL
** out of memory), and its status. */
static char *games_answer(my_game *games, int n, unsigned *status) {
    int64_t now = clocks_now_ms();
    qsort(games, (size_t)n, sizeof *games, game_order);
    cJSON *root = cJSON_CreateObject(), *list = cJSON_AddArrayToObject(root, "games");
    for (int i = 0; i < n; i++) {
        const table *t = games[i].t;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "table", t->id);
        cJSON_AddStringToObject(o, "game", t->game_string);
        cJSON_AddNumberToObject(o, "seat", games[i].seat);
        cJSON_AddBoolToObject(o, "your_turn", games[i].yours);
        cJSON_AddBoolToObject(o, "invited", games[i].invited);
        if (games[i].invited) invitation_fields(o, t);
        cJSON *waiting = cJSON_AddArrayToObject(o, "waiting_for"); /* invited, not yet answered */
        for (int k = 0; k < t->players; k++)
            if (t->seats[k].invite && k != games[i].seat && t->seats[k].who.name[0])
                cJSON_AddItemToArray(waiting, cJSON_CreateString(t->seats[k].who.name));
        cJSON *names = cJSON_AddArrayToObject(o, "players");
        /* a guest's default name is shown in the page's language: it must know it is a guest's */
        cJSON *kinds = cJSON_AddArrayToObject(o, "player_kinds");
        for (int k = 0; k < t->players; k++) {
            const table_seat *ts = &t->seats[k];
            int person = ts->who.id > 0 && ts->who.name[0];
            const char *name = person ? ts->who.name : ts->bot ? ts->spec : NULL;
            const char *kind = !name                              ? NULL
                               : !person                          ? "bot"
                               : ts->who.kind == PLAYER_GUEST     ? "guest"
                               : ts->who.kind == PLAYER_ACCOUNT   ? "account"
                                                                  : "bot";
            cJSON_AddItemToArray(names, name ? cJSON_CreateString(name) : cJSON_CreateNull());
            cJSON_AddItemToArray(kinds, kind ? cJSON_CreateString(kind) : cJSON_CreateNull());
        }
        cJSON *clock = clocks_json(t, now);
        cJSON_AddItemToObject(o, "clock", clock ? clock : cJSON_CreateNull());
        int64_t left = clocks_left_ms(t, games[i].seat, now);
        if (t->clock.kind == TABLE_CLOCK_CORRESPONDENCE && t->turn_seat >= 0 && t->turn_since > 0)
            cJSON_AddNumberToObject(o, "deadline_ms",
                                    (double)(t->turn_since + t->clock.per_move_ms));
        else
            cJSON_AddNullToObject(o, "deadline_ms");
        if (left >= 0) cJSON_AddNumberToObject(o, "left_ms", (double)left);
        cJSON_AddNumberToObject(o, "updated", (double)t->updated);
        cJSON_AddItemToArray(list, o);
    }
    for (int i = 0; i < n; i++) tables_read_free(games[i].copy);
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    *status = text ? 200 : 500;
    return text;
}
