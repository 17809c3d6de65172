/*
** admin.c -- tafel admin --db FILE COMMAND: a server's players and tables
** from the command line.
**
** Opens the server's database with store_open_existing (which brings an
** older file up to date, never creates a missing one and leaves another
** SQLite file unchanged) and changes it only through the store.  Players
** and logins are read by the running server at each request, so disable,
** enable and reset-password take effect at once (its open sockets of the
** ended logins close within 5 s: sockets.c); tables are held in the
** server's memory, so close-table refuses while another process has the
** database open (store_held_elsewhere).
*/
#define _DEFAULT_SOURCE
#include "cli.h"
#include "players.h"
#include "rerate.h"
#include "store.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PASSWORD_MIN 8
#define PASSWORD_MAX 256

static const char *when(int64_t t, char *buf, size_t size) {
    time_t tt = (time_t)t;
    struct tm tm;
    gmtime_r(&tt, &tm);
    strftime(buf, size, "%Y-%m-%d %H:%M", &tm);
    return buf;
}

static int list_players(store *db) {
    char err[512];
    store_player_row *rows;
    int n = store_players_list(db, &rows, err, sizeof err);
    if (n < 0) {
        fprintf(stderr, "tafel admin: cannot read the players: %s\n", err);
        return 1;
    }
    printf("%-24s  %-7s  %-16s  %-16s  %-8s  %s\n", "name", "kind", "created (UTC)",
           "seen (UTC)", "disabled", "games");
    for (int i = 0; i < n; i++) {
        char a[32], b[32];
        const store_player_row *r = &rows[i];
        printf("%-24s  %-7s  %-16s  %-16s  %-8s  %d\n", cli_printable(r->player.name),
               r->player.kind, when(r->created, a, sizeof a), when(r->seen, b, sizeof b),
               r->player.disabled ? "yes" : "no", r->games);
    }
    store_player_rows_free(rows);
    return 0;
}

/* The id of the account or guest-less player NAME (accounts and bots,
** case-insensitive): >0, 0 none (says so), -1 error (says so). */
static int64_t player_id(store *db, const char *name, int accounts_only) {
    char key[4 * PLAYER_NAME_MAX], err[512];
    if (strlen(name) > PLAYER_NAME_MAX) {
        fprintf(stderr, "tafel admin: no player '%s' (names have at most %d bytes)\n",
                cli_printable(name), PLAYER_NAME_MAX);
        return 0;
    }
    players_name_key(name, key, sizeof key);
    store_player p;
    int found = accounts_only ? store_account_by_key(db, key, &p, NULL, 0, err, sizeof err)
                              : store_player_by_key(db, key, &p, err, sizeof err);
    if (found < 0) {
        fprintf(stderr, "tafel admin: %s\n", err);
        return -1;
    }
    if (!found)
        fprintf(stderr, "tafel admin: no %s '%s' (tafel admin --db FILE players lists them)\n",
                accounts_only ? "account" : "player", cli_printable(name));
    return found ? p.id : 0;
}

static int set_disabled(store *db, const char *name, int disabled) {
    int64_t id = player_id(db, name, 0);
    if (id <= 0) return 1;
    char err[512];
    if (store_player_set_disabled(db, id, disabled, err, sizeof err)) {
        fprintf(stderr, "tafel admin: cannot change the database: %s\n", err);
        return 1;
    }
    printf("%s: %s\n", cli_printable(name),
           disabled ? "disabled (its logins ended)" : "enabled");
    return 0;
}

static int reset_password(store *db, const char *name, int generate) {
    int64_t id = player_id(db, name, 1);
    if (id <= 0) return 1;
    char password[PASSWORD_MAX + 2];
    if (generate) {
        unsigned char raw[12];
        randombytes_buf(raw, sizeof raw);
        sodium_bin2base64(password, sizeof password, raw, sizeof raw,
                          sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    } else {
        if (!fgets(password, sizeof password, stdin)) {
            fprintf(stderr, "tafel admin: reset-password reads the new password from stdin "
                            "(or makes one with --generate)\n");
            return 1;
        }
        password[strcspn(password, "\r\n")] = '\0';
        size_t n = strlen(password);
        if (n < PASSWORD_MIN || n > PASSWORD_MAX) {
            fprintf(stderr, "tafel admin: a password has %d to %d bytes, not %zu\n",
                    PASSWORD_MIN, PASSWORD_MAX, n);
            sodium_memzero(password, sizeof password);
            return 1;
        }
    }
    char hash[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str(hash, password, strlen(password), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                          crypto_pwhash_MEMLIMIT_INTERACTIVE)) {
        fprintf(stderr, "tafel admin: out of memory hashing the password\n");
        return 1;
    }
    char err[512];
    if (store_player_set_password(db, id, hash, 1, err, sizeof err)) {
        fprintf(stderr, "tafel admin: cannot change the database: %s\n", err);
        sodium_memzero(password, sizeof password);
        return 1;
    }
    if (generate) printf("%s\n", password);
    else printf("%s: password changed (its logins ended)\n", cli_printable(name));
    sodium_memzero(password, sizeof password);
    return 0;
}

static int close_table(store *s, const char *path, const char *id) {
    if (store_held_elsewhere(s)) {
        char shown[512]; /* a PostgreSQL URI's password is never printed */
        store_path_shown(path, shown, sizeof shown);
        fprintf(stderr, "tafel admin: a running server holds %s and keeps its tables in memory; "
                        "stop it, then close the table\n", shown);
        return 1;
    }
    char err[512];
    store_table t;
    int found = store_load(s, id, &t, err, sizeof err);
    if (found < 0) {
        fprintf(stderr, "tafel admin: %s\n", err);
        return 1;
    }
    if (!found) {
        fprintf(stderr, "tafel admin: no table %s\n", id);
        return 1;
    }
    int over = t.over || t.end_reason[0];
    int64_t seq = t.seq;
    store_table_free(&t);
    if (over) {
        fprintf(stderr, "tafel admin: table %s is over already\n", id);
        return 1;
    }
    if (store_end(s, id, seq + 1, "closed", err, sizeof err)) {
        fprintf(stderr, "tafel admin: %s\n", err);
        return 1;
    }
    printf("table %s closed\n", id);
    return 0;
}

/* Voids the rated results of NAME's tables (of game, or all) and rates
** the games again: what was done is printed only once it is committed. */
static int void_player(store *db, const char *name, const char *game) {
    int64_t id = player_id(db, name, 0);
    if (id <= 0) return 1;
    char *report = NULL, err[512];
    size_t size = 0;
    FILE *out = open_memstream(&report, &size);
    if (!out) {
        fprintf(stderr, "tafel admin: out of memory\n");
        return 1;
    }
    int n = rerate_void_player(db, id, game, out, err, sizeof err);
    fclose(out);
    if (n < 0) fprintf(stderr, "tafel admin: nothing voided: %s\n", err);
    else if (n == 0)
        printf("%s has no rated results%s%s to void\n", cli_printable(name), game ? " of " : "",
               game ? cli_printable(game) : "");
    else printf("%s%s: %d table%s voided, ratings recomputed\n", report, cli_printable(name), n,
                n == 1 ? "" : "s");
    free(report);
    return n < 0;
}

int cli_admin(const cli_command *cmd, int argc, char **argv) {
    const char *db_path = NULL, *generate = NULL, *game = NULL;
    const char *pos[3] = {NULL, NULL, NULL};
    const cli_option options[] = {{"--db", 1, &db_path}, {"--generate", 0, &generate},
                                  {"--game", 1, &game}};
    int rc = cli_parse(cmd, argc, argv, options, 3, pos, 3);
    if (rc != CLI_CONTINUE) return rc;
    const char *what = pos[0], *arg = pos[1];
    static const struct {
        const char *name;
        int args;
    } commands[] = {{"players", 0}, {"reset-password", 1}, {"disable", 1}, {"enable", 1},
                    {"close-table", 1}, {"void", 1}};
    int which = -1;
    for (int i = 0; what && i < 6; i++)
        if (!strcmp(what, commands[i].name)) which = i;
    if (!db_path || !what || which < 0 || (commands[which].args ? !arg : arg != NULL) || pos[2] ||
        (generate && which != 1) || (game && which != 5)) {
        fprintf(stderr, "tafel admin: %s\nusage: tafel %s\n",
                !db_path ? "--db FILE names the server's database"
                : !what  ? "which command? players, reset-password, disable, enable, "
                           "close-table, void"
                : which < 0 ? "unknown command (players, reset-password, disable, enable, "
                              "close-table, void)"
                : generate && which != 1 ? "--generate goes with reset-password"
                : game && which != 5 ? "--game goes with void"
                : commands[which].args ? "this command takes one argument"
                                       : "this command takes no argument",
                cmd->usage);
        return CLI_USAGE;
    }
    size_t n = which == 4 ? strlen(arg) : 0;
    if (which == 4 && (n != STORE_ID_LEN || strspn(arg, "0123456789abcdef") != n)) {
        fprintf(stderr, "tafel admin: '%s' is no table id (%d hex digits, as in /t/ID)\n",
                cli_printable(arg), STORE_ID_LEN);
        return CLI_USAGE;
    }
    if (sodium_init() < 0) {
        fprintf(stderr, "tafel admin: libsodium cannot start\n");
        return 1;
    }
    char err[512];
    store *s;
    if (store_open_existing(db_path, &s, err, sizeof err)) {
        fprintf(stderr, "tafel admin: %s\n", err);
        return 1;
    }
    switch (which) {
    case 0: rc = list_players(s); break;
    case 1: rc = reset_password(s, arg, generate != NULL); break;
    case 2: rc = set_disabled(s, arg, 1); break;
    case 3: rc = set_disabled(s, arg, 0); break;
    case 4: rc = close_table(s, db_path, arg); break;
    default: rc = void_player(s, arg, game); break;
    }
    store_close(s);
    return rc;
}
