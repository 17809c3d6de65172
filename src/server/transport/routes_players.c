/*
** routes_players.c -- the account routes: sign up, log in, log out, change
** password, guests, and who the caller is (docs/club.md, "Players").
**
** POST /api/signup, /api/login, /api/logout, /api/password, /api/guest take
** a JSON object of at most BODY_MAX bytes (Content-Type application/json),
** from the server's own origin or an --allow-origin one; GET /api/me.  The
** body arrives in pieces into the transaction's players_tx.  Its steps
** alternate between the store and the hash: the caller's login is looked
** up, the route's first steps run (limits, the account), the password is
** hashed by hasher.c, and the steps after the hash store what it decided.
** The store's steps are jobs of the store's pool (tables_later: on
** PostgreSQL the loop never waits for the database, issue 36; on SQLite
** each runs at once, inside the callback that asked).  An answer known
** after a job or a hash goes out from the connection's timer, whole,
** inside a callback.  With --durable an answer that changed the database
** waits for the sync as the lobby's does.
**
** Brute force (docs/club.md, "Too many attempts"): wrong passwords are
** counted in token buckets (players.c keeps them in the store, shared by
** every server on it) per (name, address) pair, per address and per name.  A login attempt takes a token from each
** before its hash runs (parallel attempts count too).  An empty pair
** answers 429 "slow_down" with Retry-After: the owner elsewhere is not
** concerned.  An empty address (spraying many names) answers 429 too, but
** not for a name that logged in or signed up from that address before (a
** known pair, remembered PLAYERS_LOGIN_DAYS): players behind one
** address lock each other out of nothing.  An empty name (under attack from
** many addresses) is never refused: its answers go out LOGIN_SLOW_MS after
** the request, so its owner logs in from anywhere, slowly.  A success
** fills the pair's bucket again and gives the address and the name their
** token back.  New accounts and new guests are counted per address an hour
** the same way.  An unknown name costs a hash like a known one and gets the
** same answer.
*/
#include "hasher.h"
#include "http.h"
#include "protocol.h"
#include "syncer.h"
#include "players.h"
#include "tables.h"

#include <cjson/cJSON.h>
#include <libwebsockets.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define BODY_MAX 4096
#define PASSWORD_MIN 8
#define LOGIN_WINDOW 900.0 /* seconds: --max-login-failures per this */
#define HOUR 3600.0
#define LOGIN_SLOW_MS 3000 /* a name under attack: its answers wait this long */
#define COOKIE_AGE (PLAYERS_LOGIN_DAYS * 86400)

typedef enum post_route { R_SIGNUP, R_LOGIN, R_LOGOUT, R_PASSWORD, R_GUEST } post_route;

static const char *const ROUTES[] = {"/api/signup", "/api/login", "/api/logout", "/api/password",
                                     "/api/guest"};

/* The store step a transaction's job runs (tx_run). */
typedef enum tx_stage {
    TX_WHO,    /* the caller's login, looked up while the body arrives */
    TX_ROUTE,  /* the route's steps before the hash (do_signup, ...) */
    TX_HASHED  /* the steps after the hash (hashed) */
} tx_stage;

/* A transaction is the loop's, but while its job runs (in_store) the job
** owns it: the loop then touches only in_store, dropped, body_done and
** (while the caller is looked up) the body.  A connection that closes
** meanwhile leaves tx to the job's done, which frees it. */
typedef struct players_tx {
    struct lws *wsi;
    post_route route;
    char body[BODY_MAX + 1];
    size_t len;
    hasher_job *job;     /* the hash it waits for, or NULL */
    tx_stage stage;
    int in_store;        /* a job of the store's pool runs for it */
    int dropped;         /* the connection closed while it ran */
    int body_done;       /* the body is whole: the route may run */
    hasher_job *to_hash; /* made by a job: handed to the hasher on the loop */
    hasher_job *hashed;  /* back from the hasher, for the job after it */
    char token[PLAYERS_TOKEN_MAX + 1]; /* the request's "tafel_session" cookie */
    size_t token_len;
    char addr[64];
    player who;          /* the caller, at the request */
    unsigned char token_hash[32];
    int has_token;
    /* logins a job ended, whose sockets end on the loop (sockets_end_logins):
    ** the caller's (token_hash), or every one of player ends_of, but the
    ** caller's when ends_keep */
    int ends, ends_keep;
    int64_t ends_of;
    char name[PLAYER_NAME_MAX + 1];
    player target;       /* login: the account */
    int disabled;
    /* the answer, once known */
    char *text;
    unsigned status;
    char cookie[200];
    int has_cookie, retry_after;
    uint64_t commit;
    int64_t not_before;  /* ms (now_ms): a name under attack is answered no sooner */
} players_tx;

static void tx_later(players_tx *tx, tx_stage stage);
static const char *cookie_value(char *header, const char *name, size_t *len);

int players_route_is_post(const char *uri) {
    for (size_t i = 0; i < sizeof ROUTES / sizeof *ROUTES; i++)
        if (!strcmp(uri, ROUTES[i])) return 1;
    return 0;
}

/* ---- brute-force buckets ---------------------------------------------- */

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- logins ending ---------------------------------------------------- */

/* The caller's login ends (a job's step); its open sockets close with 4001
** when the job is back on the loop (end_sockets). */
static int end_login(players_tx *tx) {
    tx->ends = 1;
    tx->ends_of = 0;
    return players_login_end(tx->token_hash);
}

/* Every login of player id but the caller's when keep, and their sockets. */
static int end_logins(players_tx *tx, int64_t id, int keep) {
    tx->ends = 1;
    tx->ends_of = id;
    tx->ends_keep = keep;
    return players_logins_end(id, keep ? tx->token_hash : NULL);
}

/* On the loop: the sockets of the logins the job ended. */
static void end_sockets(players_tx *tx) {
    if (!tx->ends) return;
    tx->ends = 0;
    if (!tx->ends_of) sockets_end_logins(0, tx->token_hash, NULL);
    else sockets_end_logins(tx->ends_of, NULL, tx->ends_keep ? tx->token_hash : NULL);
}

/* ---- answers ---------------------------------------------------------- */

static char *print_free(cJSON *json) {
    char *text = json ? cJSON_PrintUnformatted(json) : NULL;
    cJSON_Delete(json);
    return text;
}

static char *player_json(const player *p) {
    cJSON *o = cJSON_CreateObject();
    if (p && p->id) {
        cJSON_AddNumberToObject(o, "id", (double)p->id);
        cJSON_AddStringToObject(o, "name", p->name);
        cJSON_AddStringToObject(o, "kind", p->kind == PLAYER_ACCOUNT ? "account"
                                           : p->kind == PLAYER_GUEST ? "guest" : "bot");
    } else {
        cJSON_AddNullToObject(o, "kind");
    }
    return print_free(o);
}

static void tx_free(players_tx *tx) {
    if (!tx) return;
    free(tx->text);
    if (tx->to_hash) hasher_job_free(tx->to_hash);
    if (tx->hashed) hasher_job_free(tx->hashed);
    sodium_memzero(tx->token, sizeof tx->token);
    sodium_memzero(tx->body, sizeof tx->body);
    free(tx);
}

/* Writes the answer of tx now, or (--durable, changes not synced yet) from
** the timer later. */
static int tx_send(struct lws *wsi, http_session *h) {
    players_tx *tx = h->tx;
    if (tx->commit > syncer_synced()) {
        lws_set_timer_usecs(wsi, 2000);
        return 0;
    }
    int64_t early = tx->not_before - now_ms();
    if (early > 0) {
        lws_set_timer_usecs(wsi, (lws_usec_t)early * 1000);
        return 0;
    }
    char *text = tx->text;
    tx->text = NULL;
    char cookie[sizeof tx->cookie];
    snprintf(cookie, sizeof cookie, "%s", tx->cookie);
    int has_cookie = tx->has_cookie, retry = tx->retry_after;
    unsigned status = tx->status;
    h->tx = NULL;
    tx_free(tx);
    return routes_send_json_with(wsi, status, text, has_cookie ? cookie : NULL, retry, 0);
}

/* The answer of tx is known: text (malloc'd). */
static void tx_answer(players_tx *tx, unsigned status, char *text) {
    free(tx->text);
    tx->text = text ? text : strdup("{\"error\":\"storage\",\"message\":\"out of memory\"}");
    tx->status = text ? status : 500;
    tx->commit = syncer_committed();
}

static void tx_error(players_tx *tx, unsigned status, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void tx_error(players_tx *tx, unsigned status, const char *code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    tx_answer(tx, status, protocol_http_errorv(code, fmt, ap));
    va_end(ap);
}

/* A new login of p for the caller: the cookie, and the answer. */
static void tx_login(players_tx *tx, unsigned status, const player *p) {
    char token[44];
    if (players_login_new(p->id, token)) {
        tx_error(tx, 500, "storage", "the login could not be stored");
        return;
    }
    snprintf(tx->cookie, sizeof tx->cookie,
             PLAYERS_COOKIE "=%s; HttpOnly; SameSite=Lax; Path=/; Max-Age=%d%s", token, COOKIE_AGE,
             http_options()->cert ? "; Secure" : "");
    sodium_memzero(token, sizeof token);
    tx->has_cookie = 1;
    tx_answer(tx, status, player_json(p));
}

static void tx_logout_cookie(players_tx *tx) {
    snprintf(tx->cookie, sizeof tx->cookie,
             PLAYERS_COOKIE "=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0%s",
             http_options()->cert ? "; Secure" : "");
    tx->has_cookie = 1;
}

/* An answer right away, inside the callback: -1 closes. */
static int refuse_now(struct lws *wsi, unsigned status, int close, const char *code,
                      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int refuse_now(struct lws *wsi, unsigned status, int close, const char *code,
                      const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *text = protocol_http_errorv(code, fmt, ap);
    va_end(ap);
    return routes_send_json_with(wsi, status, text, NULL, 0, close);
}

/* ---- GET -------------------------------------------------------------- */

int players_route_get(struct lws *wsi, const char *uri, int *rc) {
    if (players_route_is_post(uri)) {
        *rc = refuse_now(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED, 0, "method", "%s takes POST", uri);
        return 1;
    }
    if (strcmp(uri, "/api/me")) return 0;
    player who;
    int found = players_of_request(wsi, &who);
    if (found < 0) {
        *rc = refuse_now(wsi, 500, 0, "storage", "the logins could not be read");
        return 1;
    }
    *rc = routes_send_json_with(wsi, HTTP_STATUS_OK, player_json(found ? &who : NULL), NULL, 0, 0);
    return 1;
}

/* ---- POST ------------------------------------------------------------- */

int players_post_begin(struct lws *wsi, http_session *h, const char *uri) {
    int route = -1;
    for (size_t i = 0; i < sizeof ROUTES / sizeof *ROUTES; i++)
        if (!strcmp(uri, ROUTES[i])) route = (int)i;
    char v[128];
    long length = 0;
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) > 0 &&
        lws_hdr_copy(wsi, v, sizeof v, WSI_TOKEN_HTTP_CONTENT_LENGTH) > 0)
        length = strtol(v, NULL, 10);
    /* a refusal before the body is read closes: its bytes are no request */
    int close = length > 0;
    if (route < 0)
        return refuse_now(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED, 1, "method",
                          "GET and HEAD only (POST to the account routes)");
    if (length > BODY_MAX)
        return refuse_now(wsi, HTTP_STATUS_REQ_ENTITY_TOO_LARGE, 1, "too_big",
                          "a request body has at most %d bytes, not %ld", BODY_MAX, length);
    int type_ok = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE) > 0 &&
                  lws_hdr_copy(wsi, v, sizeof v, WSI_TOKEN_HTTP_CONTENT_TYPE) > 0 &&
                  !strncasecmp(v, "application/json", 16) && (!v[16] || v[16] == ';' || v[16] == ' ');
    if (!type_ok)
        return refuse_now(wsi, HTTP_STATUS_UNSUPPORTED_MEDIA_TYPE, close, "bad_type",
                          "the body is JSON: Content-Type application/json");
    if (!routes_origin_allowed(wsi))
        return refuse_now(wsi, HTTP_STATUS_FORBIDDEN, close, "bad_origin",
                          "pages of this origin may not use the account routes");
    players_tx *tx = calloc(1, sizeof *tx);
    if (!tx) return -1;
    tx->wsi = wsi;
    tx->route = (post_route)route;
    sockets_client_address(wsi, tx->addr, sizeof tx->addr);
    h->tx = tx;
    if ((tx->token_len = players_request_token(wsi, tx->token, sizeof tx->token)))
        tx_later(tx, TX_WHO);
    if (length == 0) return players_post_complete(wsi, h);
    return 0;
}

int players_post_body(struct lws *wsi, http_session *h, const void *in, size_t len) {
    (void)wsi;
    players_tx *tx = h->tx;
    if (!tx) return -1;
    if (tx->len + len > BODY_MAX) return -1; /* more than Content-Length said */
    memcpy(tx->body + tx->len, in, len);
    tx->len += len;
    return 0;
}

static const char *string_field(const cJSON *body, const char *name) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(body, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Whether the password's length is allowed; else the answer says why. */
static int password_ok(players_tx *tx, const char *password, const char *field) {
    size_t n = password ? strlen(password) : 0;
    if (!password || n < PASSWORD_MIN || n > HASHER_PASSWORD_MAX) {
        tx_error(tx, 400, "bad_password", "%s has %d to %d bytes%s", field, PASSWORD_MIN,
                 HASHER_PASSWORD_MAX, password ? "" : " (a string)");
        return 0;
    }
    return 1;
}

/* The hash to make next: handed over when the job is back on the loop
** (hash_now). */
static void submit(players_tx *tx, hasher_job *job) {
    job->owner = tx;
    tx->to_hash = job;
}

/* On the loop: hands the hash over; else answers busy. */
static void hash_now(players_tx *tx) {
    hasher_job *job = tx->to_hash;
    tx->to_hash = NULL;
    if (hasher_submit(job)) {
        hasher_job_free(job);
        tx->retry_after = 1;
        tx_error(tx, 503, "busy", "the server is busy checking passwords; try again in a moment");
        return;
    }
    tx->job = job;
}

static hasher_job *new_job(hasher_op op, const char *password) {
    hasher_job *job = calloc(1, sizeof *job);
    if (!job) return NULL;
    job->op = op;
    job->password_len = strlen(password);
    memcpy(job->password, password, job->password_len);
    return job;
}

/* A bucket's answer (players_limit_take): 0 go on, else answered (slowed
** down, or the store failed) and 1. */
static int slow_down(players_tx *tx, int wait, const char *what) {
    if (!wait) return 0;
    if (wait < 0) {
        tx_error(tx, 500, "storage", "the attempts could not be counted");
        return 1;
    }
    tx->retry_after = wait;
    tx_error(tx, 429, "slow_down", "too many %s; try again in %d s", what, wait);
    return 1;
}

static void do_signup(players_tx *tx, const cJSON *body) {
    const char *name = string_field(body, "name"), *password = string_field(body, "password");
    char why[200];
    if (!name || players_name_check(name, why, sizeof why)) {
        tx_error(tx, 400, "bad_name", "%s", name ? why : "name: a string");
        return;
    }
    if (!password_ok(tx, password, "a password")) return;
    player taken;
    if (players_find(name, &taken)) {
        tx_error(tx, 409, "name_taken", "the name '%s' is taken", name);
        return;
    }
    if (slow_down(tx, players_limit_take(PLAYERS_LIMIT_SIGNUP, tx->addr,
                                         http_options()->signups, HOUR, 1),
                  "new accounts from this address"))
        return;
    snprintf(tx->name, sizeof tx->name, "%s", name);
    hasher_job *job = new_job(HASHER_MAKE, password);
    if (job) submit(tx, job);
}

static void do_login(players_tx *tx, const cJSON *body) {
    const char *name = string_field(body, "name"), *password = string_field(body, "password");
    if (!name || !password) {
        tx_error(tx, 400, "bad_request", "a login has a name and a password (strings)");
        return;
    }
    if (strlen(password) > HASHER_PASSWORD_MAX || strlen(name) > PLAYER_NAME_MAX) {
        tx_error(tx, 401, "wrong_password", "wrong name or password");
        return;
    }
    const http_config *l = http_options();
    char pair[PLAYER_NAME_MAX + 80];
    players_pair(name, tx->addr, pair, sizeof pair);
    /* each take is one step of the store's, so that attempts sent at once
    ** to several servers count as on one: the pair's token is taken first,
    ** and given back when the address refuses */
    int wait = players_limit_take(PLAYERS_LIMIT_PAIR, pair, l->login_failures, LOGIN_WINDOW, 1);
    int known = wait ? 0 : players_known_has(pair);
    int addr_wait = wait ? 0 : players_limit_take(PLAYERS_LIMIT_ADDRESS, tx->addr,
                                                  l->address_failures, LOGIN_WINDOW, 1);
    if (!wait && !known && addr_wait) {
        players_limit_give(PLAYERS_LIMIT_PAIR, pair, l->login_failures, LOGIN_WINDOW, 0);
        wait = addr_wait;
    }
    if (!wait && addr_wait < 0) wait = -1;
    if (slow_down(tx, wait, "failed logins")) return;
    int name_wait = players_limit_take(PLAYERS_LIMIT_NAME, name, l->name_failures, LOGIN_WINDOW, 1);
    if (name_wait < 0) {
        slow_down(tx, -1, "failed logins");
        return;
    }
    if (name_wait) tx->not_before = now_ms() + LOGIN_SLOW_MS;
    snprintf(tx->name, sizeof tx->name, "%s", name);
    hasher_job *job = new_job(HASHER_VERIFY, password);
    if (!job) return;
    int found = players_account(name, &tx->target, job->stored, sizeof job->stored, &tx->disabled);
    if (found < 0) {
        hasher_job_free(job);
        tx_error(tx, 500, "storage", "the players could not be read");
        return;
    }
    if (!found) job->stored[0] = '\0'; /* a dummy hash: the same time, the same answer */
    submit(tx, job);
}

static void do_password(players_tx *tx, const cJSON *body) {
    const char *old = string_field(body, "old"), *new = string_field(body, "new");
    if (tx->who.kind != PLAYER_ACCOUNT) {
        tx_error(tx, 401, "not_logged_in", "log in to an account to change its password");
        return;
    }
    if (!old || strlen(old) > HASHER_PASSWORD_MAX) {
        tx_error(tx, 401, "wrong_password", "the old password is wrong");
        return;
    }
    if (!password_ok(tx, new, "the new password")) return;
    char pair[PLAYER_NAME_MAX + 80];
    players_pair(tx->who.name, tx->addr, pair, sizeof pair);
    if (slow_down(tx, players_limit_take(PLAYERS_LIMIT_PAIR, pair,
                                         http_options()->login_failures, LOGIN_WINDOW, 1),
                  "wrong passwords"))
        return;
    hasher_job *job = new_job(HASHER_CHECK, old);
    if (!job) return;
    job->password2_len = strlen(new);
    memcpy(job->password2, new, job->password2_len);
    int disabled;
    if (players_account(tx->who.name, &tx->target, job->stored, sizeof job->stored, &disabled) != 1) {
        hasher_job_free(job);
        tx_error(tx, 500, "storage", "the account could not be read");
        return;
    }
    submit(tx, job);
}

static void do_guest(players_tx *tx, const cJSON *body) {
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(body, "name");
    char why[200], name[PLAYER_NAME_MAX + 1];
    if (tx->who.kind == PLAYER_ACCOUNT) {
        tx_error(tx, 409, "not_guest", "you are logged in to an account; log out to play as a guest");
        return;
    }
    if (n && !cJSON_IsNull(n)) {
        if (!cJSON_IsString(n) || players_name_check(n->valuestring, why, sizeof why)) {
            tx_error(tx, 400, "bad_name", "%s", cJSON_IsString(n) ? why : "name: a string");
            return;
        }
        player taken;
        if (players_find(n->valuestring, &taken)) {
            tx_error(tx, 409, "name_taken", "the name '%s' is a player's", n->valuestring);
            return;
        }
        snprintf(name, sizeof name, "%s", n->valuestring);
    } else if (tx->who.kind == PLAYER_GUEST) {
        tx_error(tx, 400, "bad_name", "a new name for the guest: name (a string)");
        return;
    } else {
        snprintf(name, sizeof name, "Guest %04u", 1000 + randombytes_uniform(9000));
    }
    if (tx->who.kind == PLAYER_GUEST) {
        if (players_rename_guest(tx->who.id, name) != 1) {
            tx_error(tx, 500, "storage", "the guest could not be renamed");
            return;
        }
        snprintf(tx->who.name, sizeof tx->who.name, "%s", name);
        tx_answer(tx, 200, player_json(&tx->who));
        return;
    }
    if (slow_down(tx, players_limit_take(PLAYERS_LIMIT_GUEST, tx->addr,
                                         http_options()->guests, HOUR, 1),
                  "new guests from this address"))
        return;
    player guest;
    if (players_create_guest(name, &guest) != 1) {
        tx_error(tx, 500, "storage", "the guest could not be stored");
        return;
    }
    tx_login(tx, 201, &guest);
}

/* A job's step (TX_ROUTE): the route, from the body. */
static void route(players_tx *tx) {
    tx->body[tx->len] = '\0';
    cJSON *body = tx->len ? cJSON_ParseWithLength(tx->body, tx->len) : cJSON_CreateObject();
    if (!cJSON_IsObject(body)) {
        tx_error(tx, 400, "bad_json", "the body is a JSON object");
    } else {
        switch (tx->route) {
        case R_SIGNUP: do_signup(tx, body); break;
        case R_LOGIN: do_login(tx, body); break;
        case R_PASSWORD: do_password(tx, body); break;
        case R_GUEST: do_guest(tx, body); break;
        case R_LOGOUT:
            if (tx->has_token && end_login(tx)) {
                tx_error(tx, 500, "storage", "the login could not be ended");
                break;
            }
            tx_logout_cookie(tx);
            tx_answer(tx, 200, player_json(NULL));
            break;
        }
    }
    cJSON_Delete(body);
    sodium_memzero(tx->body, sizeof tx->body);
}

int players_post_complete(struct lws *wsi, http_session *h) {
    players_tx *tx = h->tx;
    if (!tx) return -1;
    if (tx->body_done) return 0; /* an empty body: completed at its start */
    tx->body_done = 1;
    if (tx->in_store) return 0; /* the caller is still looked up: its job goes on (tx_done) */
    tx_later(tx, TX_ROUTE);
    if (tx->in_store || tx->job) return 0; /* the store's or the hash's answer comes later */
    return tx_send(wsi, h);
}

/* A hash came back for tx: the answer. */
static void hashed(players_tx *tx, hasher_job *job) {
    const http_config *l = http_options();
    char pair[PLAYER_NAME_MAX + 80];
    players_pair(tx->route == R_PASSWORD ? tx->who.name : tx->name, tx->addr, pair, sizeof pair);
    if (job->failed && job->op == HASHER_MAKE) {
        tx_error(tx, 503, "busy", "the server could not hash the password (out of memory)");
        return;
    }
    switch (tx->route) {
    case R_SIGNUP: {
        player p;
        int made = players_create_account(tx->name, job->result,
                                          tx->who.kind == PLAYER_GUEST ? tx->who.id : 0, &p);
        if (made == 0) {
            tx_error(tx, 409, "name_taken", "the name '%s' is taken", tx->name);
            return;
        }
        if (made < 0) {
            tx_error(tx, 500, "storage", "the account could not be stored");
            return;
        }
        /* the guest became the account (its seats and lines are its); its
        ** old logins end, and the caller gets a new one */
        if (tx->who.kind == PLAYER_GUEST) end_logins(tx, p.id, 0);
        else if (tx->has_token) end_login(tx);
        players_known_add(pair);
        tx_login(tx, 201, &p);
        return;
    }
    case R_LOGIN:
        if (!job->ok) {
            tx_error(tx, 401, "wrong_password", "wrong name or password");
            return;
        }
        if (tx->disabled) {
            tx_error(tx, 403, "disabled", "the account '%s' is disabled", tx->target.name);
            return;
        }
        players_limit_give(PLAYERS_LIMIT_PAIR, pair, l->login_failures, LOGIN_WINDOW, 1);
        players_limit_give(PLAYERS_LIMIT_ADDRESS, tx->addr, l->address_failures, LOGIN_WINDOW, 0);
        players_limit_give(PLAYERS_LIMIT_NAME, tx->name, l->name_failures, LOGIN_WINDOW, 0);
        players_known_add(pair);
        if (job->rehashed) players_set_password(tx->target.id, job->result);
        if (tx->has_token) end_login(tx);
        tx_login(tx, 200, &tx->target);
        return;
    case R_PASSWORD:
        if (!job->ok) {
            tx_error(tx, 401, "wrong_password", "the old password is wrong");
            return;
        }
        if (!job->rehashed || players_set_password(tx->target.id, job->result)) {
            tx_error(tx, 500, "storage", "the new password could not be stored");
            return;
        }
        players_limit_give(PLAYERS_LIMIT_PAIR, pair, l->login_failures, LOGIN_WINDOW, 1);
        players_known_add(pair);
        /* the other logins end: whoever knew the old password is out */
        end_logins(tx, tx->target.id, tx->has_token);
        tx_answer(tx, 200, player_json(&tx->who));
        return;
    default:
        tx_error(tx, 500, "storage", "no hash was asked for");
        return;
    }
}

/* A job's steps: the caller's login (TX_WHO), the route, or what follows
** the hash.  Their store calls go through the club on the job's thread;
** each answers for itself (tx_error), so the job always succeeds. */
static int tx_run(store *db, void *ctx, char *err, size_t errsize) {
    (void)db;
    (void)err;
    (void)errsize;
    players_tx *tx = ctx;
    switch (tx->stage) {
    case TX_WHO:
        tx->has_token = 1;
        if (players_of_login(tx->token, tx->token_len, &tx->who, tx->token_hash) != 1)
            memset(&tx->who, 0, sizeof tx->who);
        break;
    case TX_ROUTE: route(tx); break;
    case TX_HASHED: hashed(tx, tx->hashed); break;
    }
    return 0;
}

/* A job is back, on the loop: the sockets of the logins it ended, the hash
** it asked for, the next step, or the answer (from the timer, when the job
** ran on a thread; at once on SQLite, by whoever asked for the job). */
static void tx_done(void *ctx, int rc, const char *err) {
    players_tx *tx = ctx;
    tx->in_store = 0;
    if (tx->dropped) {
        tx_free(tx);
        return;
    }
    /* the server stops: its connection closes, and players_post_drop frees tx */
    if (rc == TABLE_UNANSWERED) return;
    if (tx->hashed) {
        hasher_job_free(tx->hashed);
        tx->hashed = NULL;
    }
    if (tx->stage == TX_WHO) {
        if (rc) memset(&tx->who, 0, sizeof tx->who);
        if (tx->body_done) tx_later(tx, TX_ROUTE);
        return;
    }
    if (rc && !tx->text) tx_error(tx, 500, "storage", "%s", err);
    end_sockets(tx);
    if (tx->to_hash && !tx->text) hash_now(tx);
    if (!tx->job && !tx->text) tx_error(tx, 500, "storage", "out of memory");
    if (tables_later_waits() && tx->text) lws_set_timer_usecs(tx->wsi, 1);
}

static void tx_later(players_tx *tx, tx_stage stage) {
    tx->stage = stage;
    tx->in_store = 1;
    tables_later(tx->addr, tx_run, tx_done, tx);
}

void players_hashes_done(void) {
    for (hasher_job *job; (job = hasher_take_done());) {
        players_tx *tx = job->owner;
        if (!tx) {
            hasher_job_free(job);
            continue;
        }
        tx->job = NULL;
        tx->hashed = job;
        tx_later(tx, TX_HASHED);
        if (!tables_later_waits()) lws_set_timer_usecs(tx->wsi, 1);
    }
}

int players_post_timer(struct lws *wsi, http_session *h) {
    if (!h->tx || h->tx->in_store || !h->tx->text) return 0; /* still at the store or hashing */
    return tx_send(wsi, h);
}

int players_post_drop(http_session *h) {
    players_tx *tx = h->tx;
    if (!tx) return 0;
    h->tx = NULL;
    if (tx->in_store) {
        tx->dropped = 1; /* its job frees it when it is back (tx_done) */
        return 1;
    }
    if (tx->job) tx->job->owner = NULL; /* freed when it comes back */
    tx_free(tx);
    return 1;
}

/* The value of cookie name in a Cookie header ("a=1; b=2"), or NULL. */
static const char *cookie_value(char *header, const char *name, size_t *len) {
    size_t n = strlen(name);
    for (char *p = header; *p;) {
        while (*p == ' ' || *p == ';') p++;
        char *end = strchr(p, ';');
        size_t plen = end ? (size_t)(end - p) : strlen(p);
        if (plen > n && !strncmp(p, name, n) && p[n] == '=') {
            *len = plen - n - 1;
            return p + n + 1;
        }
        if (!end) break;
        p = end + 1;
    }
    return NULL;
}

size_t players_request_token(struct lws *wsi, char *token, size_t size) {
    char header[2048];
    int n = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_COOKIE);
    if (n <= 0 || n >= (int)sizeof header ||
        lws_hdr_copy(wsi, header, sizeof header, WSI_TOKEN_HTTP_COOKIE) <= 0)
        return 0;
    size_t len;
    const char *value = cookie_value(header, PLAYERS_COOKIE, &len);
    if (!value || len == 0 || len > PLAYERS_TOKEN_MAX || len >= size) return 0;
    memcpy(token, value, len);
    token[len] = 0;
    sodium_memzero(header, sizeof header);
    return len;
}

/* The login of the request being answered, when it was read before, off
** the loop (players_request_known). */
static struct {
    struct lws *wsi;
    int found, has_token;
    player who;
    unsigned char hash[32];
} known;

void players_request_known(struct lws *wsi, int found, const player *who,
                           const unsigned char hash[32], int has_token) {
    known.wsi = wsi;
    known.found = found;
    known.has_token = has_token;
    if (who) known.who = *who;
    if (hash) memcpy(known.hash, hash, 32);
}

int players_of_request_token(struct lws *wsi, player *out, unsigned char hash[32],
                             int *has_token) {
    if (wsi && known.wsi == wsi) {
        *has_token = known.has_token;
        memcpy(hash, known.hash, 32);
        if (known.found == 1) *out = known.who;
        return known.found;
    }
    char token[PLAYERS_TOKEN_MAX + 1];
    size_t len = players_request_token(wsi, token, sizeof token);
    *has_token = len > 0;
    return len ? players_of_login(token, len, out, hash) : 0;
}

int players_of_request(struct lws *wsi, player *out) {
    unsigned char hash[32];
    int has_token;
    return players_of_request_token(wsi, out, hash, &has_token);
}
