/*
** store.c -- the store's one door: every call of store.h goes to the
** backend that opened the handle, SQLite (sqlite_*.c, lite_ functions) or
** PostgreSQL (pg_*.c, pg_ functions), with the same signature and contract.
**
** The reads whose rows both backends make the same answer of (a player,
** the chat, ratings and profiles) go to rows_*.c instead, with the SQL of
** the handle's backend.
**
** The backend is chosen once, by store_open's path: a libpq connection URI
** ("postgresql://..." or "postgres://...") opens PostgreSQL, anything else
** is a SQLite file.  The answers' memory (tables, player rows, chat lines,
** profiles) is plain malloc'd memory either backend fills the same way, so
** it is freed here, whoever filled it.
*/
#include "backend.h"
#include "owner.h"
#include "pg.h"
#include "sqlite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IS_PG(db) ((db) && (db)->backend == STORE_POSTGRES)

/* What the reads rows_*.c assemble run, in the words of db's backend. */
static const rows_players_sql *players_sql(const store *db) {
    return IS_PG(db) ? &pg_players_sql : &lite_players_sql;
}

static const rows_chat_sql *chat_sql(const store *db) {
    return IS_PG(db) ? &pg_chat_sql : &lite_chat_sql;
}

static const rows_ratings_sql *ratings_sql(const store *db) {
    return IS_PG(db) ? &pg_ratings_sql : &lite_ratings_sql;
}

int store_path_is_postgres(const char *path) {
    return path && (strncmp(path, "postgresql://", 13) == 0 ||
                    strncmp(path, "postgres://", 11) == 0);
}

void store_path_shown(const char *path, char *out, size_t size) {
    if (store_path_is_postgres(path))
        store_pg_shown(path, out, size);
    else if (size)
        snprintf(out, size, "%s", path ? path : "(null)");
}

int store_open(const char *path, int durable, store **out, char *err, size_t errsize) {
    return store_path_is_postgres(path) ? pg_open(path, durable, out, err, errsize)
                                        : lite_open(path, durable, out, err, errsize);
}

int store_open_existing(const char *path, store **out, char *err, size_t errsize) {
    return store_path_is_postgres(path) ? pg_open_existing(path, out, err, errsize)
                                        : lite_open_existing(path, out, err, errsize);
}

void store_close(store *db) {
    if (db) owner_detach(db->owner);
    if (IS_PG(db))
        pg_close(db);
    else
        lite_close(db);
}

int store_in_doubt(store *db) { return IS_PG(db) && store_pg_in_doubt(db); }

int store_set_name(store *db, const char *name, char *err, size_t errsize) {
    return IS_PG(db) ? store_pg_set_name(db, name, err, errsize) : 0;
}

int store_held_elsewhere(store *db) {
    return IS_PG(db) ? pg_held_elsewhere(db) : lite_held_elsewhere(db);
}

int store_create(store *db, const store_table *t, char *err, size_t errsize) {
    return IS_PG(db) ? pg_create(db, t, err, errsize) : lite_create(db, t, err, errsize);
}

int store_append(store *db, const char *id, int from, int n, const char *const *texts,
                 const int *seats, int64_t seq, int over, const store_clocks *clocks, char *err,
                 size_t errsize) {
    return IS_PG(db) ? pg_append(db, id, from, n, texts, seats, seq, over, clocks, err, errsize)
                     : lite_append(db, id, from, n, texts, seats, seq, over, clocks, err, errsize);
}

int store_truncate(store *db, const char *id, int keep, int64_t seq, char *err, size_t errsize) {
    return IS_PG(db) ? pg_truncate(db, id, keep, seq, err, errsize)
                     : lite_truncate(db, id, keep, seq, err, errsize);
}

int store_set_seat(store *db, const char *id, int seat, const store_seat *s, int64_t seq,
                   int over, char *err, size_t errsize) {
    return IS_PG(db) ? pg_set_seat(db, id, seat, s, seq, over, err, errsize)
                     : lite_set_seat(db, id, seat, s, seq, over, err, errsize);
}

int store_end(store *db, const char *id, int64_t seq, const char *reason, char *err,
              size_t errsize) {
    return IS_PG(db) ? pg_end(db, id, seq, reason, err, errsize)
                     : lite_end(db, id, seq, reason, err, errsize);
}

int store_delete(store *db, const char *id, char *err, size_t errsize) {
    return IS_PG(db) ? pg_delete(db, id, err, errsize) : lite_delete(db, id, err, errsize);
}

int store_find_change(store *db, const char *id, int64_t seq, int seat, const char *text,
                      char *err, size_t errsize) {
    return IS_PG(db) ? pg_find_change(db, id, seq, seat, text, err, errsize)
                     : lite_find_change(db, id, seq, seat, text, err, errsize);
}

int store_load(store *db, const char *id, store_table *out, char *err, size_t errsize) {
    return IS_PG(db) ? pg_load(db, id, out, err, errsize)
                     : lite_load(db, id, out, err, errsize);
}

int store_list(store *db, int unfinished, char (*ids)[STORE_ID_LEN + 1], int cap, char *err,
               size_t errsize) {
    return IS_PG(db) ? pg_list(db, unfinished, ids, cap, err, errsize)
                     : lite_list(db, unfinished, ids, cap, err, errsize);
}

int store_list_lobby(store *db, int finished, int cap, store_table *out, char *err,
                     size_t errsize) {
    return IS_PG(db) ? pg_list_lobby(db, finished, cap, out, err, errsize)
                     : lite_list_lobby(db, finished, cap, out, err, errsize);
}

int store_set_rematch(store *db, const char *id, const char *next, char *err, size_t errsize) {
    return IS_PG(db) ? pg_set_rematch(db, id, next, err, errsize)
                     : lite_set_rematch(db, id, next, err, errsize);
}

int store_set_clocks(store *db, const char *id, int nseats, const int64_t *ms,
                     int64_t turn_since, char *err, size_t errsize) {
    return IS_PG(db) ? pg_set_clocks(db, id, nseats, ms, turn_since, err, errsize)
                     : lite_set_clocks(db, id, nseats, ms, turn_since, err, errsize);
}

int store_time_out(store *db, const char *id, int seat, int64_t seq, char *err, size_t errsize) {
    return IS_PG(db) ? pg_time_out(db, id, seat, seq, err, errsize)
                     : lite_time_out(db, id, seat, seq, err, errsize);
}

int store_player_seats(store *db, int64_t player, int cap, store_player_seat *out, char *err,
                       size_t errsize) {
    return IS_PG(db) ? pg_player_seats(db, player, cap, out, err, errsize)
                     : lite_player_seats(db, player, cap, out, err, errsize);
}

/* ---- players and logins ---- */

int store_player_by_key(store *db, const char *key, store_player *out, char *err,
                        size_t errsize) {
    return rows_player_by_key(db, players_sql(db), key, out, err, errsize);
}

int store_player_get(store *db, int64_t id, store_player *out, char *err, size_t errsize) {
    return rows_player_get(db, players_sql(db), id, out, err, errsize);
}

int store_account_by_key(store *db, const char *key, store_player *out, char *password,
                         size_t password_size, char *err, size_t errsize) {
    return rows_account_by_key(db, players_sql(db), key, out, password, password_size, err,
                               errsize);
}

int store_player_add(store *db, const char *name, const char *key, const char *kind,
                     const char *password, int64_t now, int64_t *id, char *err, size_t errsize) {
    return IS_PG(db) ? pg_player_add(db, name, key, kind, password, now, id, err, errsize)
                     : lite_player_add(db, name, key, kind, password, now, id, err, errsize);
}

int store_guest_make_account(store *db, int64_t guest_id, const char *name, const char *key,
                             const char *password, int64_t now, char *err, size_t errsize) {
    return IS_PG(db) ? pg_guest_make_account(db, guest_id, name, key, password, now, err, errsize)
                     : lite_guest_make_account(db, guest_id, name, key, password, now, err,
                                               errsize);
}

int store_guest_rename(store *db, int64_t id, const char *name, const char *key, char *err,
                       size_t errsize) {
    return IS_PG(db) ? pg_guest_rename(db, id, name, key, err, errsize)
                     : lite_guest_rename(db, id, name, key, err, errsize);
}

int store_player_set_password(store *db, int64_t id, const char *password, int end_logins,
                              char *err, size_t errsize) {
    return IS_PG(db) ? pg_player_set_password(db, id, password, end_logins, err, errsize)
                     : lite_player_set_password(db, id, password, end_logins, err, errsize);
}

int store_player_set_disabled(store *db, int64_t id, int disabled, char *err, size_t errsize) {
    return IS_PG(db) ? pg_player_set_disabled(db, id, disabled, err, errsize)
                     : lite_player_set_disabled(db, id, disabled, err, errsize);
}

int store_players_list(store *db, store_player_row **out, char *err, size_t errsize) {
    return rows_players_list(db, players_sql(db), out, err, errsize);
}

int store_guests_delete(store *db, int64_t before, int max, char *err, size_t errsize) {
    return IS_PG(db) ? pg_guests_delete(db, before, max, err, errsize)
                     : lite_guests_delete(db, before, max, err, errsize);
}

int store_login_add(store *db, const uint8_t hash[STORE_HASH_LEN], int64_t player, int64_t now,
                    char *err, size_t errsize) {
    return IS_PG(db) ? pg_login_add(db, hash, player, now, err, errsize)
                     : lite_login_add(db, hash, player, now, err, errsize);
}

int store_login_find(store *db, const uint8_t hash[STORE_HASH_LEN], store_player *out,
                     int64_t *used, char *err, size_t errsize) {
    return rows_login_find(db, players_sql(db), hash, out, used, err, errsize);
}

int store_login_used(store *db, const uint8_t hash[STORE_HASH_LEN], int64_t player, int64_t now,
                     char *err, size_t errsize) {
    return IS_PG(db) ? pg_login_used(db, hash, player, now, err, errsize)
                     : lite_login_used(db, hash, player, now, err, errsize);
}

int store_login_delete(store *db, const uint8_t hash[STORE_HASH_LEN], char *err,
                       size_t errsize) {
    return IS_PG(db) ? pg_login_delete(db, hash, err, errsize)
                     : lite_login_delete(db, hash, err, errsize);
}

int store_logins_delete(store *db, int64_t player, const uint8_t *keep, char *err,
                        size_t errsize) {
    return IS_PG(db) ? pg_logins_delete(db, player, keep, err, errsize)
                     : lite_logins_delete(db, player, keep, err, errsize);
}

int store_logins_expire(store *db, int64_t before, char *err, size_t errsize) {
    return IS_PG(db) ? pg_logins_expire(db, before, err, errsize)
                     : lite_logins_expire(db, before, err, errsize);
}

int store_logins_read(store *db, store_login_state *logins, int n, char *err, size_t errsize) {
    return IS_PG(db) ? pg_logins_read(db, logins, n, err, errsize)
                     : lite_logins_read(db, logins, n, err, errsize);
}

/* ---- counted attempts ---- */

int store_attempt_take(store *db, const char *kind, const char *key, double cap,
                       int64_t window_ms, int64_t now, int take, double *tokens, char *err,
                       size_t errsize) {
    return rows_attempt_take(db, players_sql(db), kind, key, cap, window_ms, now, take, tokens,
                             err, errsize);
}

int store_attempt_give(store *db, const char *kind, const char *key, double cap,
                       int64_t window_ms, int64_t now, int all, char *err, size_t errsize) {
    return IS_PG(db) ? pg_attempt_give(db, kind, key, cap, window_ms, now, all, err, errsize)
                     : lite_attempt_give(db, kind, key, cap, window_ms, now, all, err, errsize);
}

int store_attempt_note(store *db, const char *kind, const char *key, int64_t now,
                       int64_t until, char *err, size_t errsize) {
    return IS_PG(db) ? pg_attempt_note(db, kind, key, now, until, err, errsize)
                     : lite_attempt_note(db, kind, key, now, until, err, errsize);
}

int store_attempt_noted(store *db, const char *kind, const char *key, int64_t now, char *err,
                        size_t errsize) {
    return rows_attempt_noted(db, players_sql(db), kind, key, now, err, errsize);
}

int store_attempts_expire(store *db, int64_t now, char *err, size_t errsize) {
    return IS_PG(db) ? pg_attempts_expire(db, now, err, errsize)
                     : lite_attempts_expire(db, now, err, errsize);
}

/* ---- chat ---- */

int store_chat_count(store *db, const char *table_id, int seat, int64_t *next_n, int64_t *said,
                     char *err, size_t errsize) {
    return rows_chat_count(db, chat_sql(db), table_id, seat, next_n, said, err, errsize);
}

int store_chat_add(store *db, const char *table_id, const store_chat_line *line, char *err,
                   size_t errsize) {
    return IS_PG(db) ? pg_chat_add(db, table_id, line, err, errsize)
                     : lite_chat_add(db, table_id, line, err, errsize);
}

int store_chat_read(store *db, const char *table_id, int spectators_too, int cap,
                    store_chat_line *out, char *err, size_t errsize) {
    return rows_chat_read(db, chat_sql(db), table_id, spectators_too, cap, out, err, errsize);
}

/* ---- ratings ---- */

int store_results_record(store *db, const char *table_id, const char *game, int n,
                         store_result *results, store_rate_fn rate, void *arg, char *err,
                         size_t errsize) {
    return IS_PG(db) ? pg_results_record(db, table_id, game, n, results, rate, arg, err, errsize)
                     : lite_results_record(db, table_id, game, n, results, rate, arg, err, errsize);
}

int store_rating_read(store *db, int64_t player, const char *game, store_rating *out, char *err,
                      size_t errsize) {
    return rows_rating_read(db, ratings_sql(db), player, game, out, "reading a rating", err,
                            errsize);
}

int store_leaderboard_read(store *db, const char *game, int cap, store_standing **out,
                           char *err, size_t errsize) {
    return rows_leaderboard_read(db, ratings_sql(db), game, cap, out, err, errsize);
}

int store_profile_read(store *db, int64_t player, int64_t viewer, int history_cap,
                       int results_cap, store_profile *out, char *err, size_t errsize) {
    return rows_profile_read(db, ratings_sql(db), player, viewer, history_cap, results_cap,
                             out, err, errsize);
}

int store_results_void(store *db, int64_t player, const char *game, store_rerate_fn rerate,
                       void *arg, store_voided_table **tables, char *err, size_t errsize) {
    return IS_PG(db) ? pg_results_void(db, player, game, rerate, arg, tables, err, errsize)
                     : lite_results_void(db, player, game, rerate, arg, tables, err, errsize);
}

/* ---- the answers' memory ---- */

void store_table_free(store_table *t) {
    if (!t) return;
    free(t->game);
    if (t->actions)
        for (int i = 0; i < t->nactions; i++) free(t->actions[i]);
    free(t->actions);
    free(t->action_seats);
    memset(t, 0, sizeof *t);
}

void store_player_rows_free(store_player_row *rows) { free(rows); }

void store_chat_lines_free(store_chat_line *lines, int n) {
    for (int i = 0; lines && i < n; i++) {
        free(lines[i].name);
        free(lines[i].text);
        memset(&lines[i], 0, sizeof lines[i]);
    }
}

void store_profile_free(store_profile *p) {
    if (!p) return;
    for (int i = 0; i < p->nratings; i++) free(p->ratings[i].history);
    for (int i = 0; i < p->nresults; i++) free(p->results[i].opponents);
    free(p->games);
    free(p->ratings);
    free(p->results);
    memset(p, 0, sizeof *p);
}
