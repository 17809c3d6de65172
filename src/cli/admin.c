/*
** admin.c -- tafel admin --db FILE COMMAND: a server's players and tables
** from the command line.
**
** Opens the server's database with store_open (which brings an older file
** up to date) after checking that the file exists and is a tafel database
** (a missing file is never created, another SQLite file never changed).
** Players and logins are read by the running server at each request, so
** disable, enable and reset-password take effect at once (its open sockets
** of the ended logins close within 5 s: sockets.c); tables are held
** in the server's memory, so close-table refuses while a process holds the
** database open (a POSIX lock on it or its -shm file: SQLite's own locks).
*/
#define _DEFAULT_SOURCE
#include "cli.h"
#include "rerate.h"
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PASSWORD_MIN 8
#define PASSWORD_MAX 256

/* Whether another process holds a lock on path (0 none or no file). */
static int locked_by_other(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    struct flock lk = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    int held = fcntl(fd, F_GETLK, &lk) == 0 && lk.l_type != F_UNLCK;
    close(fd);
    return held;
}

/* Whether path is a SQLite file with tafel's tables: 1, 0 not, -1 unreadable. */
static int is_tafel_db(const char *path) {
    sqlite3 *db;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return -1;
    }
    sqlite3_stmt *st;
    int yes = 0;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
                               " AND name IN ('tables', 'seats', 'actions')", -1, &st, NULL)
        == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW) yes = sqlite3_column_int(st, 0) == 3;
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return yes;
}

static void name_key(const char *name, char *out, size_t size) {
    size_t i = 0;
    for (; name[i] && i + 1 < size; i++)
        out[i] = (name[i] >= 'A' && name[i] <= 'Z') ? (char)(name[i] - 'A' + 'a') : name[i];
    out[i] = '\0';
}

static const char *when(int64_t t, char *buf, size_t size) {
    time_t tt = (time_t)t;
    struct tm tm;
    gmtime_r(&tt, &tm);
    strftime(buf, size, "%Y-%m-%d %H:%M", &tm);
    return buf;
}

static int list_players(sqlite3 *db) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT p.name, p.kind, p.created, p.seen, p.disabled,"
                               " (SELECT count(DISTINCT table_id) FROM seats s WHERE s.player = p.id)"
                               " FROM players p ORDER BY p.kind, p.name_key, p.id",
                           -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "tafel admin: cannot read the players: %s\n", sqlite3_errmsg(db));
        return 1;
    }
    printf("%-24s  %-7s  %-16s  %-16s  %-8s  %s\n", "name", "kind", "created (UTC)",
           "seen (UTC)", "disabled", "games");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        char a[32], b[32];
        const unsigned char *name = sqlite3_column_text(st, 0), *kind = sqlite3_column_text(st, 1);
        printf("%-24s  %-7s  %-16s  %-16s  %-8s  %d\n",
               cli_printable(name ? (const char *)name : ""), kind ? (const char *)kind : "",
               when(sqlite3_column_int64(st, 2), a, sizeof a),
               when(sqlite3_column_int64(st, 3), b, sizeof b),
               sqlite3_column_int(st, 4) ? "yes" : "no", sqlite3_column_int(st, 5));
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        fprintf(stderr, "tafel admin: cannot read the players: %s\n", sqlite3_errmsg(db));
        return 1;
    }
    return 0;
}

/* The id of the account or guest-less player NAME (accounts and bots,
** case-insensitive): >0, 0 none (says so), -1 error. */
static int64_t player_id(sqlite3 *db, const char *name, int accounts_only) {
    char key[4 * 32];
    if (strlen(name) > 24) {
        fprintf(stderr, "tafel admin: no player '%s' (names have at most 24 bytes)\n",
                cli_printable(name));
        return 0;
    }
    name_key(name, key, sizeof key);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, accounts_only
                                   ? "SELECT id FROM players WHERE name_key = ?1 AND kind = 'account'"
                                   : "SELECT id FROM players WHERE name_key = ?1 AND kind <> 'guest'",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    int64_t id = 0;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st) == SQLITE_ROW) id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (!id)
        fprintf(stderr, "tafel admin: no %s '%s' (tafel admin --db FILE players lists them)\n",
                accounts_only ? "account" : "player", cli_printable(name));
    return id;
}

/* Runs sql on one id (and text): 0, or 1 with a message. */
static int run_id(sqlite3 *db, const char *sql, int64_t id, const char *text) {
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, id);
        if (text) sqlite3_bind_text(st, 2, text, -1, SQLITE_TRANSIENT);
        rc = sqlite3_step(st);
        sqlite3_finalize(st);
    }
    if (rc != SQLITE_DONE) {
        fprintf(stderr, "tafel admin: cannot change the database: %s\n", sqlite3_errmsg(db));
        return 1;
    }
    return 0;
}

static int set_disabled(sqlite3 *db, const char *name, int disabled) {
    int64_t id = player_id(db, name, 0);
    if (id <= 0) return 1;
    if (run_id(db, disabled ? "UPDATE players SET disabled = 1 WHERE id = ?1"
                            : "UPDATE players SET disabled = 0 WHERE id = ?1", id, NULL) ||
        (disabled && run_id(db, "DELETE FROM logins WHERE player = ?1", id, NULL)))
        return 1;
    printf("%s: %s\n", cli_printable(name),
           disabled ? "disabled (its logins ended)" : "enabled");
    return 0;
}

static int reset_password(sqlite3 *db, const char *name, int generate) {
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
    if (run_id(db, "UPDATE players SET password = ?2 WHERE id = ?1", id, hash) ||
        run_id(db, "DELETE FROM logins WHERE player = ?1", id, NULL)) {
        sodium_memzero(password, sizeof password);
        return 1;
    }
    if (generate) printf("%s\n", password);
    else printf("%s: password changed (its logins ended)\n", cli_printable(name));
    sodium_memzero(password, sizeof password);
    return 0;
}

static int close_table(store *s, const char *path, const char *id) {
    char shm[4096];
    snprintf(shm, sizeof shm, "%s-shm", path);
    if (locked_by_other(path) || locked_by_other(shm)) {
        fprintf(stderr, "tafel admin: a running server holds %s and keeps its tables in memory; "
                        "stop it, then close the table\n", path);
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
static int void_player(store *s, const char *name, const char *game) {
    int64_t id = player_id(store_sqlite(s), name, 0);
    if (id <= 0) return 1;
    char *report = NULL, err[512];
    size_t size = 0;
    FILE *out = open_memstream(&report, &size);
    if (!out) {
        fprintf(stderr, "tafel admin: out of memory\n");
        return 1;
    }
    int n = rerate_void_player(s, id, game, out, err, sizeof err);
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
    struct stat st;
    if (stat(db_path, &st)) {
        fprintf(stderr, "tafel admin: %s: %s\n", db_path, strerror(errno));
        return 1;
    }
    int tafel = is_tafel_db(db_path);
    if (tafel <= 0) {
        fprintf(stderr, "tafel admin: %s is not a tafel database\n", db_path);
        return 1;
    }
    if (sodium_init() < 0) {
        fprintf(stderr, "tafel admin: libsodium cannot start\n");
        return 1;
    }
    char err[512];
    store *s;
    if (store_open(db_path, 0, &s, err, sizeof err)) {
        fprintf(stderr, "tafel admin: %s\n", err);
        return 1;
    }
    sqlite3 *db = store_sqlite(s);
    sqlite3_busy_timeout(db, 5000);
    switch (which) {
    case 0: rc = list_players(db); break;
    case 1: rc = reset_password(db, arg, generate != NULL); break;
    case 2: rc = set_disabled(db, arg, 1); break;
    case 3: rc = set_disabled(db, arg, 0); break;
    case 4: rc = close_table(s, db_path, arg); break;
    default: rc = void_player(s, arg, game); break;
    }
    store_close(s);
    return rc;
}
