/*
** rows_players.c -- players, accounts and logins as read, assembled from
** their rows (backend.h, "rows_players.c").
**
** pg_players.c and sqlite_players.c give the SQL (rows_players_sql) and
** keep the writes, which differ: how a name key taken is told apart, how a
** change of several rows is one transaction.  What a player's row is made
** of, and how a bucket of attempts is read, is here once, read through
** store_query.  Owns no state.
*/
#include "backend.h"

#include <string.h>

/* A row whose first columns are id, kind, name, disabled. */
static void player_from_row(const store_rows *rows, void *item) {
    store_player *out = item;
    memset(out, 0, sizeof *out);
    out->id = store_col_int(rows, 0);
    store_col_text(rows, 1, out->kind, sizeof out->kind);
    store_col_text(rows, 2, out->name, sizeof out->name);
    out->disabled = store_col_int(rows, 3) != 0;
}

int rows_player_by_key(store *db, const rows_players_sql *sql, const char *key,
                       store_player *out, char *err, size_t errsize) {
    store_rows rows;
    return store_rows_first(store_query(db, &rows, "finding a player by name", err, errsize,
                                        sql->by_key, "t", key),
                            player_from_row, out, err, errsize);
}

int rows_player_get(store *db, const rows_players_sql *sql, int64_t id, store_player *out,
                    char *err, size_t errsize) {
    store_rows rows;
    return store_rows_first(
        store_query(db, &rows, "finding a player", err, errsize, sql->get, "i", id),
        player_from_row, out, err, errsize);
}

typedef struct account_out {
    store_player *player;
    char *password;
    size_t size;
} account_out;

static void account_row(const store_rows *rows, void *item) {
    account_out *a = item;
    player_from_row(rows, a->player);
    if (!a->password || !a->size) return;
    /* a hash cut short would never verify: none at all says so */
    const char *hash = store_col_value(rows, 4);
    memset(a->password, 0, a->size);
    if (hash && strlen(hash) < a->size) memcpy(a->password, hash, strlen(hash));
}

int rows_account_by_key(store *db, const rows_players_sql *sql, const char *key,
                        store_player *out, char *password, size_t password_size, char *err,
                        size_t errsize) {
    store_rows rows;
    account_out a = {out, password, password_size};
    return store_rows_first(store_query(db, &rows, "finding an account", err, errsize,
                                        sql->account, "t", key),
                            account_row, &a, err, errsize);
}

typedef struct login_out {
    store_player *player;
    int64_t *used;
} login_out;

static void login_row(const store_rows *rows, void *item) {
    login_out *l = item;
    player_from_row(rows, l->player);
    *l->used = store_col_int(rows, 4);
}

int rows_login_find(store *db, const rows_players_sql *sql, const uint8_t hash[STORE_HASH_LEN],
                    store_player *out, int64_t *used, char *err, size_t errsize) {
    store_rows rows;
    login_out l = {out, used};
    return store_rows_first(
        store_query(db, &rows, "finding a login", err, errsize, sql->login, "h", hash),
        login_row, &l, err, errsize);
}

static void player_row(const store_rows *rows, void *item) {
    store_player_row *r = item;
    player_from_row(rows, &r->player);
    r->created = store_col_int(rows, 4);
    r->seen = store_col_int(rows, 5);
    r->games = (int)store_col_int(rows, 6);
}

int rows_players_list(store *db, const rows_players_sql *sql, store_player_row **out,
                      char *err, size_t errsize) {
    store_rows rows;
    return store_rows_all(
        store_query(db, &rows, "listing the players", err, errsize, sql->list, ""),
        (void **)out, sizeof **out, player_row, err, errsize);
}

/* ---- counted attempts ---------------------------------------------------- */

static void number_row(const store_rows *rows, void *item) {
    *(double *)item = store_col_double(rows, 0);
}

int rows_attempt_take(store *db, const rows_players_sql *sql, const char *kind, const char *key,
                      double cap, int64_t window_ms, int64_t now, int take, double *tokens,
                      char *err, size_t errsize) {
    static const char context[] = "counting an attempt";
    double window = (double)window_ms;
    store_rows rows;
    int taken = take ? store_rows_first(store_query(db, &rows, context, err, errsize,
                                                    sql->attempt_take, "ttddi", kind, key, cap,
                                                    window, now),
                                        number_row, tokens, err, errsize)
                     : 0;
    if (taken) return taken;
    int found = store_rows_first(store_query(db, &rows, context, err, errsize,
                                             sql->attempt_level, "ttddi", kind, key, cap,
                                             window, now),
                                 number_row, tokens, err, errsize);
    if (found < 0) return -1;
    if (!found) *tokens = cap;
    return *tokens >= 1;
}

int rows_attempt_noted(store *db, const rows_players_sql *sql, const char *kind, const char *key,
                       int64_t now, char *err, size_t errsize) {
    double one;
    store_rows rows;
    return store_rows_first(store_query(db, &rows, "reading a success", err, errsize,
                                        sql->attempt_noted, "tti", kind, key, now),
                            number_row, &one, err, errsize);
}
