/*
** protocol.c -- the messages of docs/protocol.md (version 1).
**
** Requests are read with cJSON, checked field by field, and turned into
** calls on tables.c; every refusal is one "error" message on the socket
** that asked, and changes nothing.  A request that changes a table waits
** while a change of it is being committed (table_defer), is checked when
** its turn comes, and is answered once its change is done (requests.h).
** A state message is built per viewer:
** its view, its last actions and its legal actions come from the engine
** for that seat only, so nothing hidden can reach another seat's socket.
** It owns one table of its own: which bots play which games with how many
** players, found once for GET /api/games (find_who_plays).
*/
#include "chat.h"
#include "json_print.h"
#include "protocol.h"
#include "nodes.h"
#include "players.h"
#include "rematch.h"
#include "ratings.h"
#include "requests.h"
#include "tables.h"
#include "turns.h"
#include "watchers.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROTOCOL_VERSION 1

static void (*transport_send)(session *s, const char *text, size_t len); /* protocol_start */
static int stopping;

void protocol_start(void (*send)(session *s, const char *text, size_t len)) {
    transport_send = send;
}

void session_send(session *s, const char *text, size_t len) {
    if (transport_send) transport_send(s, text, len);
}

void protocol_stopping(void) { stopping = 1; }

int protocol_is_stopping(void) { return stopping; }

/* The text of json, which is then deleted; NULL when out of memory. */
static char *print_free(cJSON *json) {
    char *text = json_print(json);
    cJSON_Delete(json);
    return text;
}

static void send_json(session *s, cJSON *msg) {
    char *text = print_free(msg);
    if (text) session_send(s, text, strlen(text));
    free(text);
}

void protocol_send_error(session *s, const char *code, const char *fmt, ...) {
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddStringToObject(msg, "type", "error");
    cJSON_AddStringToObject(msg, "code", code);
    cJSON_AddStringToObject(msg, "message", message);
    send_json(s, msg);
}

/* The table is another node's (several nodes): the client reopens its
** socket at /ws?t=ID and is routed there (docs/protocol.md, "elsewhere"). */
/* A live other node owns table id (and the tables asked it for the table:
** a proxy routes the client here again, docs/server.md), or it is being
** taken over: the client is sent on. */
static void send_elsewhere(session *s, const char *id) {
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddStringToObject(msg, "type", "elsewhere");
    cJSON_AddStringToObject(msg, "table", id);
    send_json(s, msg);
}

char *protocol_http_errorv(const char *code, const char *fmt, va_list ap) {
    char message[512];
    vsnprintf(message, sizeof message, fmt, ap);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "error", code);
    cJSON_AddStringToObject(o, "message", message);
    return print_free(o);
}

char *protocol_http_error(const char *code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *text = protocol_http_errorv(code, fmt, ap);
    va_end(ap);
    return text;
}

static void send_ack(session *s, int64_t seq) {
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddStringToObject(msg, "type", "ack");
    cJSON_AddNumberToObject(msg, "seq", (double)seq);
    send_json(s, msg);
}

static cJSON *seat_value(int seat) {
    if (seat == TAFEL_CHANCE) return cJSON_CreateString("chance");
    if (seat == TAFEL_TERMINAL) return cJSON_CreateString("terminal");
    return cJSON_CreateNumber(seat);
}

/* A seat's "name" and "player" (social): the bound player's name and kind
** ("account" or "guest"); a bot's seat nobody is bound to is named by its
** spec; an open seat (or a person's seat played by a bot since they gave
** it up) has neither. */
void protocol_seat_player(cJSON *o, const table_seat *ts) {
    if (ts->who.id && ts->who.name[0]) {
        cJSON_AddStringToObject(o, "name", ts->who.name);
        if (ts->who.kind == PLAYER_ACCOUNT) cJSON_AddStringToObject(o, "player", "account");
        else if (ts->who.kind == PLAYER_GUEST) cJSON_AddStringToObject(o, "player", "guest");
    } else if (ts->bot && !ts->has_token) { /* a bot's seat, not a person's given up */
        cJSON_AddStringToObject(o, "name", ts->spec);
    }
}

static cJSON *seats_json(const table *t) {
    cJSON *seats = cJSON_CreateArray();
    for (int i = 0; i < t->players; i++) {
        const table_seat *ts = &t->seats[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "kind", table_seat_kind(ts));
        if (ts->bot) cJSON_AddStringToObject(o, "bot", ts->spec);
        if (ts->forfeit[0]) cJSON_AddStringToObject(o, "forfeit", ts->forfeit);
        protocol_seat_player(o, ts);
        cJSON_AddBoolToObject(o, "connected", ts->connected > 0);
        cJSON_AddNumberToObject(o, "sockets", ts->connected);
        cJSON_AddBoolToObject(o, "resigned", ts->resigned);
        if (ts->invite) cJSON_AddBoolToObject(o, "invited", 1);
        int rating = table_seat_rating(t, i);
        if (rating >= 0) cJSON_AddNumberToObject(o, "rating", rating);
        cJSON_AddItemToArray(seats, o);
    }
    return seats;
}

static cJSON *legal_json(const table *t) {
    int cap = tafel_game_max_actions(t->game);
    tafel_action *actions = malloc(sizeof *actions * (size_t)cap);
    cJSON *legal = cJSON_CreateArray();
    int n = actions ? tafel_state_legal_actions(t->state, actions, cap) : 0;
    for (int i = 0; i < n; i++) {
        char text[256];
        if (tafel_action_to_text(t->state, actions[i], text, sizeof text) >= 0)
            cJSON_AddItemToArray(legal, cJSON_CreateString(text));
    }
    free(actions);
    return legal;
}

/* One entry of "events": action n (1-based) of seat, and its account as
** the viewer saw it (a JSON array from the engine, or NULL: none). */
static cJSON *account_entry(int n, int seat, const char *account) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "n", n);
    cJSON_AddItemToObject(o, "seat", seat_value(seat < 0 ? TAFEL_CHANCE : seat));
    cJSON_AddItemToObject(o, "events", account ? cJSON_CreateRaw(account) : cJSON_CreateArray());
    return o;
}

/* The accounts of the table's actions from index from on, as seat saw
** them: those of the latest change, kept with it (tables.c). */
static cJSON *events_json(const table *t, int seat, int from) {
    cJSON *list = cJSON_CreateArray();
    int change_from = t->nactions - t->nlast;
    for (int i = from < change_from ? change_from : from; i < t->nactions; i++) {
        const table_last *l = &t->last[i - change_from];
        cJSON_AddItemToArray(list, account_entry(i + 1, l->seat, l->events[seat + 1]));
    }
    return list;
}

/* A state message of table t (type "state", or "replay" for a past
** position of a finished table), with the accounts of its actions from
** index from on. */
static cJSON *state_object(const table *t, int seat, const char *type, int from) {
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddStringToObject(msg, "type", type);
    cJSON_AddNumberToObject(msg, "protocol", PROTOCOL_VERSION);
    cJSON_AddStringToObject(msg, "table", t->id);
    cJSON_AddNumberToObject(msg, "seq", (double)t->seq);
    cJSON_AddNumberToObject(msg, "actions", t->nactions);
    cJSON_AddItemToObject(msg, "seat", seat >= 0 ? cJSON_CreateNumber(seat) : cJSON_CreateNull());
    cJSON_AddStringToObject(msg, "game", t->game_string);
    cJSON_AddStringToObject(msg, "status", t->over ? "over" : "playing");
    if (t->end_reason[0]) cJSON_AddStringToObject(msg, "reason", t->end_reason);
    if (t->seed_chosen) { /* a practice table's deal, shown to everyone at it */
        char seed[24];
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)t->seed);
        cJSON_AddStringToObject(msg, "seed", seed);
    }
    cJSON_AddBoolToObject(msg, "rated", t->rated);
    cJSON_AddBoolToObject(msg, "private", t->private_);
    if (t->rematch[0]) cJSON_AddStringToObject(msg, "rematch", t->rematch);
    rematch_offer_json(t, msg);
    int waiting = !t->over && table_waiting(t);
    cJSON_AddBoolToObject(msg, "waiting", waiting);
    if (waiting) { /* what the invited see before they answer */
        if (t->creator.id && t->creator.name[0])
            cJSON_AddStringToObject(msg, "invited_by", t->creator.name);
        cJSON_AddNumberToObject(msg, "invite_until", (double)t->invite_until);
    }
    int current = tafel_state_current(t->state);
    cJSON_AddItemToObject(msg, "to_move", seat_value(t->over ? TAFEL_TERMINAL : current));
    cJSON_AddItemToObject(msg, "seats", seats_json(t));
    char *view = tafel_state_view_json(t->state, seat);
    cJSON_AddItemToObject(msg, "view", view ? cJSON_CreateRaw(view) : cJSON_CreateNull());
    free(view);
    cJSON *last = cJSON_CreateArray();
    for (int i = 0; i < t->nlast; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "seat", seat_value(t->last[i].seat < 0 ? TAFEL_CHANCE
                                                                         : t->last[i].seat));
        cJSON_AddStringToObject(o, "text", t->last[i].text[seat + 1] ? t->last[i].text[seat + 1]
                                                                     : "");
        cJSON_AddItemToArray(last, o);
    }
    cJSON_AddItemToObject(msg, "last", last);
    cJSON_AddItemToObject(msg, "events", events_json(t, seat, from));
    int live = !strcmp(type, "state"); /* a replay offers nothing to do */
    if (live && seat >= 0 && !t->over && !waiting && current == seat && !t->seats[seat].bot)
        cJSON_AddItemToObject(msg, "legal", legal_json(t));
    const char *why;
    cJSON_AddBoolToObject(msg, "undo", live && seat >= 0 && table_can_undo(t, seat, &why));
    double scores[TAFEL_MAX_PLAYERS];
    tafel_state_scores(t->state, scores);
    cJSON_AddItemToObject(msg, "scores", cJSON_CreateDoubleArray(scores, t->players));
    cJSON *breakdown = cJSON_AddArrayToObject(msg, "breakdown");
    for (int p = 0; p < t->players; p++) {
        const char *names[16];
        double values[16];
        int n = tafel_state_score_breakdown(t->state, p, names, values, 16);
        cJSON *o = cJSON_CreateObject();
        for (int i = 0; i < n && i < 16; i++) cJSON_AddNumberToObject(o, names[i], values[i]);
        cJSON_AddItemToArray(breakdown, o);
    }
    cJSON *clock = clocks_json(t, clocks_now_ms());
    if (clock) cJSON_AddItemToObject(msg, "clock", clock);
    if (t->over) {
        int winners[TAFEL_MAX_PLAYERS];
        int n = table_winners(t, winners);
        cJSON_AddItemToObject(msg, "winners", cJSON_CreateIntArray(winners, n));
    }
    return msg;
}

char *protocol_state(const table *t, int seat, int from) {
    return print_free(state_object(t, seat, "state", from));
}

/* Which bots can be made for which games, and with how many players:
** plays[b * ngames + g] holds bit K when bot b (its tafel_bot_info index)
** can be made for game g (its tafel_game_info index) with K players, the
** game's other parameters at their defaults; row nbots (any bot) holds every
** count the game loads with, and defaults[g] the game's default count.  The
** answer lasts as long as the program (its bots and nets are built in), and
** finding it makes every bot for every game and count (expert loads its
** net): it is found once, at the first GET /api/games, not on every one on
** the loop.  0, or -1 out of memory. */
static unsigned char *plays, *defaults;
static int nbots, ngames;

_Static_assert(TAFEL_MAX_PLAYERS < 8, "a game's player counts are bits of a byte");

/* The player counts game (its tafel_game_info index) declares: its
** "players=MIN..MAX" line of the params text, within 1..TAFEL_MAX_PLAYERS.
** 1 when it has that parameter; 0 when not, and *min = *max = def, its
** default count. */
static int player_range(int game, int def, int *min, int *max) {
    char params[2048];
    tafel_game_info(game, NULL, params, sizeof params);
    for (const char *line = params; line; line = strchr(line, '\n')) {
        if (*line == '\n') line++;
        if (sscanf(line, "players=%d..%d", min, max) == 2) {
            if (*min < 1) *min = 1;
            if (*max > TAFEL_MAX_PLAYERS) *max = TAFEL_MAX_PLAYERS;
            return 1;
        }
    }
    *min = *max = def;
    return 0;
}

static int find_who_plays(void) {
    if (plays) return 0;
    int nb = 0, ng = 0;
    while (tafel_bot_info(nb, NULL)) nb++;
    while (tafel_game_info(ng, NULL, NULL, 0)) ng++;
    unsigned char *p = calloc((size_t)(nb + 1) * (size_t)ng + (size_t)ng + 1, 1);
    if (!p) return -1;
    unsigned char *def = p + (size_t)(nb + 1) * (size_t)ng;
    for (int g = 0; g < ng; g++) {
        const char *name = tafel_game_info(g, NULL, NULL, 0);
        tafel_game *game;
        if (tafel_game_load(name, &game, NULL) != TAFEL_OK) continue;
        def[g] = (unsigned char)tafel_game_players(game);
        tafel_game_free(game);
        int min, max, has = player_range(g, def[g], &min, &max);
        for (int k = min; k <= max; k++) {
            char string[128];
            if (has) snprintf(string, sizeof string, "%s(players=%d)", name, k);
            else snprintf(string, sizeof string, "%s", name);
            if (tafel_game_load(string, &game, NULL) != TAFEL_OK) continue;
            p[nb * ng + g] |= (unsigned char)(1u << k);
            for (int b = 0; b < nb; b++) {
                tafel_bot *bot = NULL;
                if (tafel_bot_new(tafel_bot_info(b, NULL), game, 1, &bot, NULL) == TAFEL_OK)
                    p[b * ng + g] |= (unsigned char)(1u << k);
                tafel_bot_free(bot);
            }
            tafel_game_free(game);
        }
    }
    plays = p;
    defaults = def;
    nbots = nb;
    ngames = ng;
    return 0;
}

/* The names of the games bot (its tafel_bot_info index; -1: any bot, every
** game) can be made for as they come by default, as a JSON array: after
** find_who_plays. */
static cJSON *games_played(int bot) {
    const unsigned char *its = plays + (size_t)(bot < 0 ? nbots : bot) * (size_t)ngames;
    cJSON *list = cJSON_CreateArray();
    for (int g = 0; g < ngames; g++)
        if (its[g] & (1u << defaults[g]))
            cJSON_AddItemToArray(list, cJSON_CreateString(tafel_game_info(g, NULL, NULL, 0)));
    return list;
}

/* The player counts bot (as games_played) can be made for in each game it
** plays with some count, as a JSON object: {"cardcassonne": [2], ...}. */
static cJSON *counts_played(int bot) {
    const unsigned char *its = plays + (size_t)(bot < 0 ? nbots : bot) * (size_t)ngames;
    cJSON *counts = cJSON_CreateObject();
    for (int g = 0; g < ngames; g++) {
        if (!its[g]) continue;
        cJSON *list = cJSON_AddArrayToObject(counts, tafel_game_info(g, NULL, NULL, 0));
        for (int k = 1; k <= TAFEL_MAX_PLAYERS; k++)
            if (its[g] & (1u << k)) cJSON_AddItemToArray(list, cJSON_CreateNumber(k));
    }
    return counts;
}

/* The games with their parameters and pieces, and the bots: what a page
** needs to offer a new table and draw its pieces. */
char *protocol_games(void) {
    cJSON *root = cJSON_CreateObject(), *games = cJSON_AddArrayToObject(root, "games");
    const char *summary, *name;
    char params[2048];
    for (int i = 0; (name = tafel_game_info(i, &summary, params, sizeof params)); i++) {
        cJSON *g = cJSON_CreateObject();
        cJSON_AddStringToObject(g, "name", name);
        cJSON_AddStringToObject(g, "summary", summary);
        cJSON *list = cJSON_AddArrayToObject(g, "params");
        for (char *line = strtok(params, "\n"); line; line = strtok(NULL, "\n"))
            cJSON_AddItemToArray(list, cJSON_CreateString(line));
        tafel_game *game;
        char *pieces = NULL;
        if (tafel_game_load(name, &game, NULL) == TAFEL_OK) {
            pieces = tafel_game_pieces_json(game);
            cJSON_AddNumberToObject(g, "players", tafel_game_players(game));
            tafel_game_free(game);
        }
        cJSON_AddItemToObject(g, "pieces", pieces ? cJSON_CreateRaw(pieces) : cJSON_CreateObject());
        free(pieces);
        cJSON_AddItemToArray(games, g);
    }
    cJSON *bots = cJSON_AddArrayToObject(root, "bots");
    if (find_who_plays()) {
        cJSON_Delete(root);
        return NULL;
    }
    /* each bot with the games it can be made for as they come (expert:
    ** those with a net built in) and the player counts it plays each with,
    ** which the page offers it for; one that plays none is left out */
    for (int i = 0; i < nbots && (name = tafel_bot_info(i, &summary)); i++) {
        cJSON *counts = counts_played(i);
        if (!cJSON_GetArraySize(counts)) {
            cJSON_Delete(counts);
            continue;
        }
        cJSON *b = cJSON_CreateObject();
        cJSON_AddStringToObject(b, "name", name);
        cJSON_AddStringToObject(b, "summary", summary);
        cJSON_AddItemToObject(b, "games", games_played(i));
        cJSON_AddItemToObject(b, "players", counts);
        cJSON_AddItemToArray(bots, b);
    }
    /* the operator's external bots, by name only: the command stays private */
    for (int i = 0; i < extseats_count(); i++) {
        cJSON *b = cJSON_CreateObject();
        char spec[64], summary_text[160];
        snprintf(spec, sizeof spec, "ext:%s", extseats_name(i));
        snprintf(summary_text, sizeof summary_text,
                 "an external program this server runs ('%s'); it loses the game if it "
                 "misbehaves", extseats_name(i));
        cJSON_AddStringToObject(b, "name", spec);
        cJSON_AddStringToObject(b, "summary", summary_text);
        cJSON_AddBoolToObject(b, "external", 1);
        /* the operator ties it to no game: it is offered for every one, and
        ** every count of players */
        cJSON_AddItemToObject(b, "games", games_played(-1));
        cJSON_AddItemToObject(b, "players", counts_played(-1));
        cJSON_AddItemToArray(bots, b);
    }
    return print_free(root);
}

void protocol_send_hint(session *s, const bot_job *job) {
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddStringToObject(msg, "type", "hint");
    cJSON_AddNumberToObject(msg, "seq", (double)job->seq);
    cJSON_AddStringToObject(msg, "bot", job->spec);
    cJSON *moves = cJSON_AddArrayToObject(msg, "moves");
    for (int i = 0; i < job->nmoves; i++) {
        char text[256];
        if (tafel_action_to_text(job->state, job->moves[i].action, text, sizeof text) < 0) continue;
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "action", text);
        cJSON_AddNumberToObject(m, "share", job->moves[i].share);
        if (job->moves[i].winrate >= 0) cJSON_AddNumberToObject(m, "winrate", job->moves[i].winrate);
        else cJSON_AddNullToObject(m, "winrate");
        /* what the move would do, as the asking seat would see it: the page
        ** says the hint in words (the table is at job->seq, tables.c) */
        char *account = NULL;
        tafel_state_describe(s->table ? s->table->state : job->state, job->moves[i].action,
                             s->seat, &account, NULL);
        cJSON_AddItemToObject(m, "events", account ? cJSON_CreateRaw(account) : cJSON_CreateArray());
        free(account);
        cJSON_AddItemToArray(moves, m);
    }
    send_json(s, msg);
}

static void do_hint(session *s) {
    table *t = s->table;
    if (!t || s->seat < 0) {
        protocol_send_error(s, "not_seated", "hint: join a table with your seat's token first");
        return;
    }
    if (t->over) {
        protocol_send_error(s, "over", "the game is over");
        return;
    }
    if (tafel_state_current(t->state) != s->seat) {
        protocol_send_error(s, "not_your_turn", "a hint is for your own turn");
        return;
    }
    if (t->rated) {
        protocol_send_error(s, "no_hints", "table %s is rated: no hints", t->id);
        return;
    }
    char client[80]; /* whose share of the bots' time (botpool.c) */
    if (s->who.kind == PLAYER_ACCOUNT)
        snprintf(client, sizeof client, "account:%lld", (long long)s->who.id);
    else snprintf(client, sizeof client, "address:%s", s->addr);
    int rc = table_ask_hint(t, s->seat, s->id, client);
    if (rc > 0)
        protocol_send_error(s, "busy", "a hint for your seat is being worked out: wait for it "
                                       "before asking again");
    else if (rc < 0) protocol_send_error(s, "storage", "out of memory");
}

/* ---- requests --------------------------------------------------------- */

/* A string field, or NULL (wrong: set when present but not a string). */
static const char *string_field(const cJSON *msg, const char *name, int *wrong) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(msg, name);
    if (!v) return NULL;
    if (!cJSON_IsString(v)) {
        *wrong = 1;
        return NULL;
    }
    return v->valuestring;
}

/* A whole number field in 0..2^53; -1 when missing, -2 when wrong. */
static int64_t number_field(const cJSON *msg, const char *name) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(msg, name);
    if (!v) return -1;
    double d = cJSON_IsNumber(v) ? v->valuedouble : -1;
    if (d < 0 || d > 9007199254740992.0 || floor(d) != d) return -2;
    return (int64_t)d;
}

static void send_state(session *s) {
    char *text = protocol_state(s->table, s->seat, watchers_events_from(s->table, s));
    if (!text) return;
    session_send(s, text, strlen(text));
    s->told = s->table->nactions;
    free(text);
}

/* A boolean field: 0 or 1 (absent: 0); -1 when it is something else. */
static int flag_field(const cJSON *msg, const char *name) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(msg, name);
    if (!v || cJSON_IsNull(v)) return 0;
    return cJSON_IsBool(v) ? cJSON_IsTrue(v) : -1;
}

/* The create message's "rated", "private", "clock" and "bot"; 0, or -1
** when one is wrong (the error sent). */
static int create_options(session *s, const cJSON *msg, table_options *opt) {
    memset(opt, 0, sizeof *opt);
    opt->creator = s->who;
    opt->rated = flag_field(msg, "rated");
    opt->private_ = flag_field(msg, "private");
    if (opt->rated < 0 || opt->private_ < 0) {
        protocol_send_error(s, "malformed", "\"rated\" and \"private\" are true or false");
        return -1;
    }
    int wrong = 0;
    const char *clock = string_field(msg, "clock", &wrong);
    const char *bot = string_field(msg, "bot", &wrong);
    if (wrong) {
        protocol_send_error(s, "malformed", "\"clock\" and \"bot\" are strings");
        return -1;
    }
    char why[256];
    if (clock_parse(clock, &opt->clock, why, sizeof why)) {
        protocol_send_error(s, "bad_clock", "%s", why);
        return -1;
    }
    if (bot && strlen(bot) >= sizeof opt->bot_level) {
        protocol_send_error(s, "bad_game", "\"bot\": the spec is too long");
        return -1;
    }
    if (bot) snprintf(opt->bot_level, sizeof opt->bot_level, "%s", bot);
    return 0;
}

/* The seats "player:NAME" (invitations): each a person's seat bound to the
** account NAME, which answers before the game starts (docs/club.md,
** "Invitations").  0, or -1 with the error sent. */
static int invitations(session *s, const char **specs, int n, table_options *opt) {
    for (int i = 0; i < n; i++) {
        if (strncmp(specs[i], "player:", 7)) continue;
        const char *name = specs[i] + 7;
        char quoted[64];
        player p;
        int found = players_find(name, &p);
        if (found < 0) {
            protocol_send_error(s, "storage", "the players could not be read");
            return -1;
        }
        if (!found || p.kind != PLAYER_ACCOUNT) {
            protocol_send_error(s, "bad_game", "seat %d: no player called '%s'", i,
                                tafel_quote(name, quoted, sizeof quoted));
            return -1;
        }
        for (int k = 0; k < i; k++)
            if (opt->seat_players[k].id == p.id) {
                protocol_send_error(s, "bad_game", "seats %d and %d: '%s' is invited twice (one "
                                    "person, one seat)", k, i, p.name);
                return -1;
            }
        opt->seat_players[i] = p;
        opt->seat_invited[i] = p.id != s->who.id; /* the creator's own seat needs no answer */
        specs[i] = "human";
    }
    return 0;
}

/* A new table is stored (or not): its creator is told, and its invited
** players. */
static void created(table *t, void *ctx, int rc, const char *code, const char *msg) {
    request *r = ctx;
    session *s = r->s;
    if (rc < 0 && s) protocol_send_error(s, code, "game '%s': %s", r->text, msg);
    if (rc || !t) {
        request_free(r);
        return;
    }
    if (s) {
        cJSON *reply = cJSON_CreateObject();
        cJSON_AddStringToObject(reply, "type", "created");
        cJSON_AddStringToObject(reply, "table", t->id);
        cJSON *list = cJSON_AddArrayToObject(reply, "tokens");
        for (int i = 0; i < t->players; i++)
            cJSON_AddItemToArray(list, r->tokens[i][0] ? cJSON_CreateString(r->tokens[i])
                                                      : cJSON_CreateNull());
        char watch[64];
        snprintf(watch, sizeof watch, "/t/%s", t->id);
        cJSON_AddStringToObject(reply, "watch", watch);
        send_json(s, reply);
    }
    for (int i = 0; i < t->players; i++)
        if (t->seats[i].invite) {
            turns_invited(t, i);
            nodes_invited(t, i); /* the player's sockets on other nodes */
        }
    request_free(r);
}

static void do_create(session *s, const cJSON *msg) {
    int wrong = 0;
    const char *game = string_field(msg, "game", &wrong);
    const cJSON *seats = cJSON_GetObjectItemCaseSensitive(msg, "seats");
    int64_t seed = number_field(msg, "seed");
    if (!game || wrong || !cJSON_IsArray(seats) || seed == -2) {
        protocol_send_error(s, "malformed", "create needs \"game\" (a game string), \"seats\" "
                                            "(an array of \"human\" or bot specs) and "
                                            "optionally \"seed\" (a whole number 0..2^53)");
        return;
    }
    int n = cJSON_GetArraySize(seats);
    if (n < 1 || n > TAFEL_MAX_PLAYERS) {
        protocol_send_error(s, "bad_game", "\"seats\" must list 1 to %d seats, not %d",
                            TAFEL_MAX_PLAYERS, n);
        return;
    }
    const char *specs[TAFEL_MAX_PLAYERS];
    for (int i = 0; i < n; i++) {
        const cJSON *v = cJSON_GetArrayItem(seats, i);
        if (!cJSON_IsString(v)) {
            protocol_send_error(s, "malformed", "seat %d is not a string", i);
            return;
        }
        specs[i] = v->valuestring;
    }
    char why[512];
    table_options opt;
    if (create_options(s, msg, &opt) || invitations(s, specs, n, &opt)) return;
    const char *code;
    ratings_new_table rated = {
        .rated = opt.rated, .has_seed = seed >= 0, .creator = opt.creator.kind,
        .realtime_ms = opt.clock.kind == TABLE_CLOCK_REALTIME ? opt.clock.base_ms : -1,
        .per_move_ms = opt.clock.kind == TABLE_CLOCK_CORRESPONDENCE ? opt.clock.per_move_ms : -1};
    if (ratings_check_create(specs, n, &rated, &code, why, sizeof why)) {
        protocol_send_error(s, code, "%s", why);
        return;
    }
    char quoted[64];
    tafel_quote(game, quoted, sizeof quoted);
    request *r = request_new(s);
    if (!r || request_text(r, quoted)) {
        request_free(r);
        protocol_send_error(s, "storage", "out of memory");
        return;
    }
    table_reply reply = {.done = created, .ctx = r};
    if (tables_create(game, specs, n, (uint64_t)(seed < 0 ? 0 : seed), seed >= 0, &opt, s->addr,
                      &reply, r->tokens, &code, why, sizeof why)) {
        if (!strcmp(code, "quota") || !strcmp(code, "server_full") ||
            !strcmp(code, "seed_not_allowed"))
            protocol_send_error(s, code, "%s", why);
        else
            protocol_send_error(s, code, "game '%s': %s", quoted, why);
        request_free(r);
    }
}

static void answered(table *t, void *ctx, int rc, const char *code, const char *msg) {
    request *r = ctx;
    if (r->s && rc < 0) protocol_send_error(r->s, code, "%s", msg);
    if (r->s && rc == 0) {
        cJSON *reply = cJSON_CreateObject();
        cJSON_AddStringToObject(reply, "type", "ack");
        cJSON_AddNumberToObject(reply, "seq", (double)t->seq);
        cJSON_AddStringToObject(reply, "table", t->id);
        send_json(r->s, reply);
    }
    request_free(r);
}

/* An answer's turn at its table (r->kind: 1 accept). */
static void answer_run(table *t, void *ctx) {
    request *r = ctx;
    session *s = r->s;
    if (!t || !s) {
        request_free(r);
        return;
    }
    const char *type = r->kind ? "accept" : "decline";
    int seat = table_seat_of_player(t, s->who.id);
    if (seat < 0 || !t->seats[seat].invite) {
        protocol_send_error(s, "not_invited", s->who.id ? "%s: you have no invitation waiting "
                            "at table %s" : "%s: an invitation is answered by its player, "
                            "logged in (table %s)", type, t->id);
        request_free(r);
        return;
    }
    const char *code;
    char why[512];
    table_reply reply = {.done = answered, .ctx = r};
    if (table_answer(t, seat, r->kind, &reply, &code, why, sizeof why)) {
        protocol_send_error(s, code, "%s", why);
        request_free(r);
    }
}

/* A request about table r->table (tables_find_later's answer) when t is
** not there to go on with: its socket closed, the table is another node's,
** or there is none (missing: what to say when r named none).  1 when so
** (r answered and freed), 0 when t is there. */
static int not_found(table *t, int elsewhere, request *r, const char *missing) {
    session *s = r->s;
    if (s && elsewhere) send_elsewhere(s, r->table);
    if (s && !elsewhere && !t) {
        char quoted[64];
        if (r->table[0])
            protocol_send_error(s, "no_table", "there is no table '%s'",
                                tafel_quote(r->table, quoted, sizeof quoted));
        else
            protocol_send_error(s, "no_table", "%s", missing);
    }
    if (s && t && !elsewhere) return 0;
    request_free(r);
    return 1;
}

/* The table an answer is about, found (or not): the answer waits its turn. */
static void answer_found(table *t, int elsewhere, void *ctx) {
    request *r = ctx;
    session *s = r->s;
    if (not_found(t, elsewhere, r, r->kind ? "accept needs \"table\", the invitation's table"
                                           : "decline needs \"table\", the invitation's table"))
        return;
    if (table_defer(t, answer_run, r)) {
        request_free(r);
        protocol_send_error(s, "storage", "out of memory");
    }
}

/* accept / decline: the invited player's answer, by its login alone (a
** seat's token answers nothing), from the table or from anywhere by its
** id. */
static void do_answer(session *s, const cJSON *msg, int accept) {
    const char *type = accept ? "accept" : "decline";
    int wrong = 0;
    const char *id = string_field(msg, "table", &wrong);
    if (wrong) {
        protocol_send_error(s, "malformed", "%s: \"table\" is a table's id", type);
        return;
    }
    request *r = request_new(s);
    if (!r) {
        protocol_send_error(s, "storage", "out of memory");
        return;
    }
    r->kind = accept;
    if (!id) {
        answer_found(s->table, 0, r);
        return;
    }
    if (strlen(id) != STORE_ID_LEN) { /* no table has such an id */
        char quoted[64];
        protocol_send_error(s, "no_table", "there is no table '%s'",
                            tafel_quote(id, quoted, sizeof quoted));
        request_free(r);
        return;
    }
    memcpy(r->table, id, STORE_ID_LEN + 1);
    tables_find_later(r->table, answer_found, r);
}

/* Who may sit where (social).  A seat bound to a player is that player's
** alone: a token of it refused to everyone else, a socket without a login
** included (so the creator's copy of a claimed link is dead).  A socket
** whose player is bound to a seat sits there without a token.  An open
** seat joined by a socket with a login is claimed (bound to it), one seat
** per person and table.  A rated table seats accounts only; a private one
** has no spectators (its bound players watch it still, after resigning).
** 0 with *seat set, 1 when the seat is to be claimed first (table_claim),
** or -1 with the error sent. */
static int join_checks(session *s, table *t, int has_token, int *seat) {
    int mine = table_seat_of_player(t, s->who.id);
    if (!has_token && mine >= 0) *seat = mine;
    if (*seat < 0) {
        if (t->private_ && mine < 0) {
            protocol_send_error(s, "private_table", "table %s is private: only its players "
                                "sit at it, and nobody watches", t->id);
            return -1;
        }
        return 0;
    }
    const table_seat *ts = &t->seats[*seat];
    if (ts->who.id && ts->who.id != s->who.id) {
        protocol_send_error(s, "seat_taken", "this seat is %s's", ts->who.name[0] ? ts->who.name
                                                                                 : "someone else");
        return -1;
    }
    if (ts->who.id) return 0; /* its own player */
    const char *code;
    char why[512];
    ratings_table rt;
    table_ratings(t, &rt);
    if (!ratings_may_sit(&rt, *seat, &s->who, &code, why, sizeof why)) { /* accounts only */
        protocol_send_error(s, code, "%s", why);
        return -1;
    }
    if (!s->who.id || t->over) return 0; /* an API client sits without binding */
    if (mine >= 0) {
        protocol_send_error(s, "already_seated", "you sit at seat %d of table %s already: one "
                            "seat per person", mine, t->id);
        return -1;
    }
    return 1;
}

static void join_at(session *s, table *t, int seat);

static void claimed(table *t, void *ctx, int rc, const char *code, const char *msg) {
    request *r = ctx;
    if (r->s && rc < 0) protocol_send_error(r->s, code, "%s", msg);
    if (r->s && rc == 0) join_at(r->s, t, r->seat);
    request_free(r);
}

/* A join that claims a seat, at its turn at the table: checked again,
** claimed, then joined. */
static void claim_run(table *t, void *ctx) {
    request *r = ctx;
    session *s = r->s;
    int seat = -1;
    if (!t || !s) {
        request_free(r);
        return;
    }
    if (r->text && (seat = table_seat_of_token(t, r->text)) < 0) {
        protocol_send_error(s, "token", "that token is no seat's at table %s", t->id);
        request_free(r);
        return;
    }
    int rc = join_checks(s, t, r->text != NULL, &seat);
    if (rc <= 0) {
        if (rc == 0) join_at(s, t, seat); /* claimed meanwhile, by itself */
        request_free(r);
        return;
    }
    const char *code;
    char why[512];
    r->seat = seat;
    table_reply reply = {.done = claimed, .ctx = r};
    if (table_claim(t, seat, &s->who, &reply, &code, why, sizeof why)) {
        protocol_send_error(s, code, "%s", why);
        request_free(r);
    }
}

static void join_found(table *t, int elsewhere, void *ctx);

static void do_join(session *s, const cJSON *msg) {
    int wrong = 0;
    const char *id = string_field(msg, "table", &wrong);
    const char *token = string_field(msg, "token", &wrong);
    const cJSON *token_item = cJSON_GetObjectItemCaseSensitive(msg, "token");
    if (!id || wrong) {
        if (!(wrong && cJSON_IsNull(token_item) && id)) {
            protocol_send_error(s, "malformed", "join needs \"table\" (an id) and optionally "
                                                "\"token\" (a seat's secret)");
            return;
        }
        token = NULL;
    }
    if (strlen(id) != STORE_ID_LEN) {
        char quoted[64];
        protocol_send_error(s, "no_table", "there is no table '%s'",
                            tafel_quote(id, quoted, sizeof quoted));
        return;
    }
    request *r = request_new(s);
    if (!r || (token && request_text(r, token))) {
        request_free(r);
        protocol_send_error(s, "storage", "out of memory");
        return;
    }
    memcpy(r->table, id, STORE_ID_LEN + 1);
    tables_find_later(r->table, join_found, r);
}

/* The table a join is about, found (or not; r->text the seat's token). */
static void join_found(table *t, int elsewhere, void *ctx) {
    request *r = ctx;
    session *s = r->s;
    if (not_found(t, elsewhere, r, "join needs \"table\"")) return;
    const char *token = r->text;
    int seat = -1;
    if (token && (seat = table_seat_of_token(t, token)) < 0) {
        protocol_send_error(s, "token", "that token is no seat's at table %s", t->id);
        request_free(r);
        return;
    }
    int rc = join_checks(s, t, token != NULL, &seat);
    if (rc == 1) { /* a claim is a change: in its turn (the request goes with it) */
        if (table_defer(t, claim_run, r)) {
            request_free(r);
            protocol_send_error(s, "storage", "out of memory");
        }
        return;
    }
    if (rc == 0) join_at(s, t, seat);
    request_free(r);
}

/* s joins t in seat (-1 a spectator), its checks passed. */
static void join_at(session *s, table *t, int seat) {
    /* a seat given up (resigned, handed over, lost on time) is a bot's now:
    ** its person watches, like the seat's other sockets */
    if (seat >= 0 && (t->seats[seat].resigned || t->seats[seat].bot)) seat = -1;
    if (s->table == t && s->seat == seat) { /* joined already: its state again, to it alone */
        s->told = -1;
        send_state(s);
        chat_joined(s);
        return;
    }
    table *old = s->table;
    int was_seated = s->seat >= 0, old_seat = old ? rematch_seat(old, s) : -1;
    if (old) watchers_detach(s);
    if (old && old != t && was_seated) table_changed(old);
    if (old && old != t) rematch_left(old, old_seat);
    s->seat = seat;
    if (old != t || seat >= 0) s->left_seat = 0;
    if (watchers_attach(t, s)) {
        protocol_send_error(s, "storage", "out of memory: join again");
        return;
    }
    /* the others see how many sockets hold each seat: told only when a
    ** seat's count changed; a spectator costs nobody else a message */
    if (seat >= 0 || (old == t && was_seated)) table_changed(t);
    else send_state(s);
    chat_joined(s);
}

/* The requests of a seated socket that change its table (do_change). */
static const char *const change_types[] = {"move", "undo", "resign", "claim", "hand_over"};
enum { CHANGE_MOVE, CHANGE_UNDO, CHANGE_RESIGN, CHANGE_CLAIM, CHANGE_HAND_OVER };

/* Committed, applied and broadcast: then acknowledged. */
static void changed_answer(table *t, void *ctx, int rc, const char *code, const char *msg) {
    request *r = ctx;
    if (r->s && rc == 0) send_ack(r->s, t->seq);
    else if (r->s && rc < 0) protocol_send_error(r->s, code, "%s", msg);
    else if (r->s && rc == TABLE_PLAYED) { /* resent after a lost ack */
        send_ack(r->s, t->seq);
        send_state(r->s);
    }
    request_free(r);
}

/* A change's turn at its table: checked against the table as it is now. */
static void change_run(table *t, void *ctx) {
    request *r = ctx;
    session *s = r->s;
    if (!t || !s) { /* the table or the socket went meanwhile: nobody to answer */
        request_free(r);
        return;
    }
    if (s->table != t || s->seat < 0) {
        protocol_send_error(s, "not_seated", "%s: join a table with your seat's token first",
                            change_types[r->kind]);
        request_free(r);
        return;
    }
    const char *code = NULL;
    char why[1024] = "";
    table_reply reply = {.done = changed_answer, .ctx = r};
    int rc;
    switch (r->kind) {
    case CHANGE_MOVE:
        if (t->seats[s->seat].bot) {
            protocol_send_error(s, "not_your_turn", "a bot plays this seat now");
            request_free(r);
            return;
        }
        rc = table_move(t, s->seat, r->seq, r->text, &reply, &code, why, sizeof why);
        break;
    case CHANGE_UNDO:
        rc = table_undo(t, s->seat, r->seq, &reply, &code, why, sizeof why);
        break;
    case CHANGE_RESIGN:
        rc = table_resign(t, s->seat, r->seq, &reply, &code, why, sizeof why);
        break;
    case CHANGE_CLAIM:
        rc = table_claim_time(t, s->seat, r->seq, &reply, &code, why, sizeof why);
        break;
    default:
        rc = table_hand_over(t, s->seat, r->seq, r->text, &reply, &code, why, sizeof why);
        break;
    }
    if (rc < 0) { /* refused now; else changed_answer answers, maybe done already */
        protocol_send_error(s, code, "%s", why);
        request_free(r);
    }
}

/* The seated socket's request that changes the table: read now, run in its
** turn at the table. */
static void do_change(session *s, const char *type, const cJSON *msg) {
    if (!s->table || s->seat < 0) {
        protocol_send_error(s, "not_seated", "%s: join a table with your seat's token first",
                            type);
        return;
    }
    int64_t seq = number_field(msg, "seq");
    if (seq < 0) {
        protocol_send_error(s, "malformed", "%s needs \"seq\", the seq of the latest state", type);
        return;
    }
    int kind = CHANGE_MOVE;
    while (strcmp(change_types[kind], type)) kind++;
    const char *text = NULL;
    if (kind == CHANGE_MOVE || kind == CHANGE_HAND_OVER) {
        int wrong = 0;
        text = string_field(msg, kind == CHANGE_MOVE ? "action" : "bot", &wrong);
        if (!text || wrong) {
            protocol_send_error(s, "malformed", kind == CHANGE_MOVE
                                ? "move needs \"action\", an action's text"
                                : "hand_over needs \"bot\", a bot spec");
            return;
        }
    }
    request *r = request_new(s);
    if (r) {
        r->kind = kind;
        r->seq = seq;
    }
    if (!r || (text && request_text(r, text)) || table_defer(s->table, change_run, r)) {
        request_free(r);
        protocol_send_error(s, "storage", "out of memory");
    }
}

/* A past position of a finished table, for its replay: what the socket's
** seat saw after the first n actions (a game over hides nothing more than
** its end did not: the seat's own view at that point), and its account of
** the n-th action, the one that led there. */
static void do_replay(session *s, const cJSON *msg) {
    table *t = s->table;
    if (!t) {
        protocol_send_error(s, "not_seated", "replay: join a table first");
        return;
    }
    int64_t n = number_field(msg, "actions");
    if (n < 0 || n > t->nactions) {
        protocol_send_error(s, "malformed", "replay needs \"actions\", 0..%d", t->nactions);
        return;
    }
    if (!t->over) {
        protocol_send_error(s, "not_over", "a game is replayed once it is over");
        return;
    }
    table past = *t;
    past.state = tafel_state_new(t->game);
    past.nactions = (int)n;
    past.nlast = 0;
    past.last = NULL;
    past.over = 0;
    int ok = past.state != NULL;
    char *account = NULL;
    for (int i = 0; ok && i < n; i++) {
        tafel_action a;
        ok = tafel_action_from_text(past.state, t->texts[i], &a, NULL) == 0;
        if (ok && i == n - 1) tafel_state_describe(past.state, a, s->seat, &account, NULL);
        ok = ok && tafel_state_apply(past.state, a, NULL) == 0;
    }
    past.over = ok && (n == t->nactions || tafel_state_current(past.state) == TAFEL_TERMINAL);
    cJSON *reply = ok ? state_object(&past, s->seat, "replay", (int)n) : NULL;
    if (reply && n > 0)
        cJSON_AddItemToArray(cJSON_GetObjectItem(reply, "events"),
                             account_entry((int)n, t->action_seats[n - 1], account));
    char *text = print_free(reply);
    free(account);
    tafel_state_free(past.state);
    if (text) session_send(s, text, strlen(text));
    else protocol_send_error(s, "storage", "the table no longer replays");
    free(text);
}

/* Built once per change and viewer (watchers_history keeps it): a long
** game's history is every action replayed and told. */
static void do_history(session *s) {
    if (!s->table) {
        protocol_send_error(s, "not_seated", "history: join a table first");
        return;
    }
    char *uncached;
    const char *text = watchers_history(s->table, s->seat, &uncached);
    if (text) session_send(s, text, strlen(text));
    else protocol_send_error(s, "storage", "out of memory");
    free(uncached);
}

char *protocol_history(const table *t, int seat) {
    tafel_state *st = tafel_state_new(t->game);
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddStringToObject(msg, "type", "history");
    cJSON_AddNumberToObject(msg, "seq", (double)t->seq);
    cJSON *list = cJSON_AddArrayToObject(msg, "actions");
    for (int i = 0; st && i < t->nactions; i++) {
        tafel_action a;
        char text[256];
        if (tafel_action_from_text(st, t->texts[i], &a, NULL)) break;
        if (tafel_action_view_text(st, seat, a, text, sizeof text) < 0) text[0] = 0;
        char *account = NULL;
        tafel_state_describe(st, a, seat, &account, NULL);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "seat", seat_value(t->action_seats[i] < 0 ? TAFEL_CHANCE
                                                                           : t->action_seats[i]));
        cJSON_AddStringToObject(o, "text", text);
        cJSON_AddItemToObject(o, "events", account ? cJSON_CreateRaw(account) : cJSON_CreateArray());
        free(account);
        cJSON_AddItemToArray(list, o);
        tafel_state_apply(st, a, NULL);
        double scores[TAFEL_MAX_PLAYERS];
        tafel_state_scores(st, scores);
        cJSON_AddItemToObject(o, "scores", cJSON_CreateDoubleArray(scores, t->players));
    }
    tafel_state_free(st);
    return print_free(msg);
}

/* The lobby's list for a socket that asked (requests.h: it may have closed). */
static void lobby_told(const char *list, const char *message, void *ctx) {
    request *r = ctx;
    (void)list;
    if (r->s && message) session_send(r->s, message, strlen(message));
    else if (r->s) protocol_send_error(r->s, "storage", "the lobby's list could not be made");
    request_free(r);
}

void protocol_receive(session *s, const char *text, size_t len) {
    const char *end = NULL;
    cJSON *msg = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!msg) {
        const char *at = cJSON_GetErrorPtr(); /* the loop is the only thread parsing */
        long byte = at && at >= text && at <= text + len ? (long)(at - text) : 0;
        protocol_send_error(s, "malformed", "not JSON (at byte %ld)", byte);
        return;
    }
    /* one JSON value and nothing after it but white space */
    while (end && end < text + len && (*end == ' ' || *end == '\t' || *end == '\n' ||
                                       *end == '\r'))
        end++;
    if (!end || end != text + len) {
        long byte = end && end >= text && end <= text + len ? (long)(end - text) : 0;
        protocol_send_error(s, "malformed", "text after the JSON value (at byte %ld)", byte);
        cJSON_Delete(msg);
        return;
    }
    if (!cJSON_IsObject(msg)) {
        protocol_send_error(s, "malformed", "a message is a JSON object");
        cJSON_Delete(msg);
        return;
    }
    int wrong = 0;
    const char *type = string_field(msg, "type", &wrong);
    if (!type) protocol_send_error(s, "malformed", "a message needs \"type\"");
    else if (!strcmp(type, "create")) do_create(s, msg);
    else if (!strcmp(type, "join")) do_join(s, msg);
    else if (!strcmp(type, "move") || !strcmp(type, "undo") || !strcmp(type, "resign") ||
             !strcmp(type, "hand_over") || !strcmp(type, "claim"))
        do_change(s, type, msg);
    else if (!strcmp(type, "accept") || !strcmp(type, "decline"))
        do_answer(s, msg, !strcmp(type, "accept"));
    else if (!strcmp(type, "history")) do_history(s);
    else if (!strcmp(type, "hint")) do_hint(s);
    else if (!strcmp(type, "replay")) do_replay(s, msg);
    else if (!strcmp(type, "chat")) {
        const char *text = string_field(msg, "text", &wrong);
        if (!text || wrong) protocol_send_error(s, "malformed", "chat needs \"text\", a string");
        else chat_say(s, text);
    } else if (!strcmp(type, "rematch")) {
        int decline = flag_field(msg, "decline");
        if (decline < 0) protocol_send_error(s, "malformed", "rematch's \"decline\" is a boolean");
        else rematch_request(s, decline);
    }
    else if (!strcmp(type, "lobby")) {
        request *r = request_new(s);
        if (r) lobby_later(lobby_told, r);
        else protocol_send_error(s, "storage", "out of memory");
    } else if (!strcmp(type, "ping")) session_send(s, "{\"type\":\"pong\"}", 15);
    else {
        char quoted[64];
        protocol_send_error(s, "malformed", "unknown type '%s' (create, join, move, undo, resign, "
                                            "hand_over, claim, accept, decline, history, hint, replay, "
                                            "lobby, chat, rematch, ping)",
                            tafel_quote(type, quoted, sizeof quoted));
    }
    cJSON_Delete(msg);
}

void protocol_too_big(session *s) {
    protocol_send_error(s, "too_big", "a message is at most %d bytes", SERVER_MAX_MESSAGE);
}

void protocol_closed(session *s) {
    botpool_cancel_session(s->id);
    if (s->requests) requests_closed(s); /* their answers go nowhere */
    table *t = s->table;
    if (!t) return;
    int seated = s->seat >= 0, old_seat = rematch_seat(t, s);
    watchers_detach(s);
    /* a seat's count of sockets changed; at a stop all go: nobody to tell */
    if (seated && !stopping) table_changed(t);
    rematch_left(t, old_seat);
}
