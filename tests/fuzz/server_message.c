/*
** server_message.c -- fuzz target: bytes as the messages a WebSocket client
** sends tafel serve (docs/protocol.md), through the server's own protocol
** and table code on an in-memory database.
**
** The input is cut at newlines into messages.  Three sockets send them in
** turn, by the first byte of each: one seated at a table of each game
** (their first legal action is often a good message, so the seeds hold
** some), a spectator, and one that never joined.  Whatever is sent, every
** message the server writes back must be a JSON object with a "type", and
** every table's state must pass tafel_state_check.  The sockets are fakes:
** their send (given to protocol_start, as serve.c gives the transport's)
** checks and drops what it is given; bots are never asked (botpool_submit
** drops the job), as the server's threads are not here.
*/
#include "fuzz.h"
#include "players.h"
#include "protocol.h"
#include "ratings.h"
#include "server.h"
#include "tables.h"
#include "turns.h"
#include "watchers.h"

#include <cjson/cJSON.h>

static void fake_send(session *s, const char *text, size_t len) {
    (void)s;
    cJSON *msg = cJSON_ParseWithLength(text, len);
    if (!msg || !cJSON_IsObject(msg) || !cJSON_IsString(cJSON_GetObjectItem(msg, "type")))
        fz_fail("the server sent what is no message: %.*s", (int)(len > 300 ? 300 : len), text);
    cJSON_Delete(msg);
}

void http_wake(void) {}
/* serve.c is not linked: the limits are the defaults, but for the quota of
** new tables per address (every socket here has the same address, and
** inputs make many tables); handed to the tables in fresh_server as
** serve.c does (options.c) */
static server_options fuzz_options = {.limits = SERVER_LIMITS_DEFAULT};
void botpool_submit(bot_job *job) { bot_job_free(job); }
void botpool_cancel(const char *table_id, int64_t seq) { (void)table_id, (void)seq; }
void botpool_cancel_session(uint64_t session_id) { (void)session_id; }
int botpool_hint_pending(const char *table_id, int seat) { return (void)table_id, (void)seat, 0; }

static session sockets[3];
static int runs;

/* The table tables_create made, into *ctx (a table **). */
static void fuzz_made(table *t, void *ctx, int rc, const char *code, const char *msg) {
    (void)code, (void)msg;
    if (rc == 0) *(table **)ctx = t;
}

static void fresh_server(void) {
    for (int i = 0; i < 3; i++) {
        if (sockets[i].table) watchers_detach(&sockets[i]);
        memset(&sockets[i], 0, sizeof sockets[i]);
        sockets[i].seat = -1;
    }
    tables_close();
    fuzz_options.limits.new_tables = 0; /* the quota is off */
    char err[256];
    tables_config config;
    server_tables_config(&fuzz_options, &config);
    /* serve.c's wiring */
    const tables_events told = {.changed = watchers_changed, .unseated = watchers_unseated,
                                .hint = watchers_hint};
    protocol_start(fake_send);
    if (tables_open(":memory:", 0, &config, &told, err, sizeof err)) fz_fail("%s", err);
    players_start(tables_store(), fuzz_options.limits.guest_seconds);
    ratings_start(tables_store());
    clocks_on_turn(turns_notify);
    static const char *const games[] = {"carcassonne(players=2)", "cardcassonne(players=2)",
                                        "catan_cards"};
    /* seat 1 never moves here (bots are never asked): a bot's, so that the
    ** chosen seed keeps each run's deal the same (a practice table) */
    const char *const specs[] = {"human", "random"};
    char tokens[2][33], why[256];
    const char *code;
    table *t = NULL; /* made at once: no threads commit for an in-memory database */
    const table_reply made = {.done = fuzz_made, .ctx = &t};
    if (tables_create(games[runs % 3], specs, 2, 7, 1, NULL, "", &made, tokens, &code, why,
                      sizeof why) || !t)
        fz_fail("cannot create a table: %s", why);
    sockets[0].seat = 0;
    if (watchers_attach(t, &sockets[0]) || watchers_attach(t, &sockets[1])) /* 1: a spectator */
        fz_fail("out of memory");
    /* the third socket is a guest and the second an account (the club's
    ** requests: chat, claims, rated tables, rematch), the first nobody (an
    ** API client) */
    if (players_create_guest("Fuzz <b>", &sockets[2].who) != 1) fz_fail("cannot make a guest");
    if (players_create_account("Ada", "$argon2id$v=19$m=65536,t=2,p=1$x$y", 0, &sockets[1].who) != 1)
        fz_fail("cannot make an account");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (runs++ % 200 == 0) fresh_server(); /* tables made by "create" pile up */
    const char *p = (const char *)data, *end = p + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = (size_t)((nl ? nl : end) - p);
        if (len > 0) {
            session *s = &sockets[(unsigned char)p[0] % 3];
            if (len > SERVER_MAX_MESSAGE) protocol_too_big(s);
            else protocol_receive(s, p + 1, len - 1);
        }
        p += len + 1;
    }
    table *list[SERVER_LOBBY_MAX];
    int n = tables_newest(list, SERVER_LOBBY_MAX);
    for (int i = 0; i < n; i++) {
        tafel_error err;
        if (tafel_state_check(list[i]->state, &err))
            fz_fail("table %s: %s", list[i]->id, err.message);
    }
    return 0;
}
