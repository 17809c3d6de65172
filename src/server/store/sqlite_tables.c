/*
** sqlite_tables.c -- the tables in one SQLite file (store.h).
**
** Three tables mirror a tafel record: `tables` (one row per game table:
** game string, seed, seq, finished, created, and updated: the time of its
** latest change, for the lobby), `seats` (one row per seat)
** and `actions` (one row per action, chance events included, keyed by
** (table id, position)).  Each action also keeps `change_seq`, the seq the
** client sent for the change that appended it, so a move resent after a
** lost ack is recognised (docs/protocol.md, "Order of a change, and
** crashes") without a separate log.
**
** Invariants the calls keep:
**   - a table's actions have positions 0..n-1 with no gap: store_append
**     only adds at position n (the caller says `from`, and a `from` that is
**     not n is refused), store_truncate only drops a tail;
**   - every write call is one BEGIN IMMEDIATE ... COMMIT; any failure,
**     ours or SQLite's, rolls it back, so a failed call changes nothing;
**   - inputs are checked before the transaction starts wherever they can
**     be, so most refusals never touch the file.
**
** Settings follow shared/notes/stack-research.md §2: WAL with
** synchronous=NORMAL survives kill -9; durable adds a thread that syncs
** the log after commits, many at once (syncer.c), which survives a power
** cut: sockets.c holds every message until the commits before it are
** synced.  The file is stamped with an application_id and the schema
** version (user_version); a file with other stamps is refused before
** anything is written to it, so a foreign or newer database is never
** touched.  Statements are prepared once, at open, and kept in the store.
*/
#include "backend.h"
#include "sqlite.h"

#include "syncer.h" /* --durable */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

/* "tafl" in ASCII: lets `file` and other tools tell our databases apart. */
#define STORE_APPLICATION_ID 0x7461666C

/* The lobby's two orders (store_list_lobby): unfinished tables newest
** first, finished ones most recently ended first.  Both end on the rowid,
** which an index holds anyway. */
#define STORE_LOBBY_INDEXES                                                       \
    "CREATE INDEX tables_playing ON tables (finished, created);"                  \
    "CREATE INDEX tables_ended ON tables (finished, updated);"

/* The time of a change, as the database commits it: never before the
** table was made (the two clocks are the same one, read at two moments). */
#define STORE_NOW "max(created, CAST(strftime('%s', 'now') AS INTEGER))"

/* The club (schema 5): a table's options and its seats' players and clocks
** (columns, as a new file's CREATE TABLE has them and an older file's
** ALTER TABLE adds them), and the club's own tables:
**   players  accounts, guests and the bots' rating holders; name_key is the
**            name folded to lower case, unique but for guests
**   logins   sessions: the SHA-256 of each cookie's token (players.c)
**   chat     the lines said at each table, in order (chat.c)
**   ratings  each player's Glicko-2 rating per game (ratings.c)
**   results  each seat's place in each finished table of players, with the
**            rating before and after when the table was rated (profiles)
** STRICT with no CHECK on the club's columns beyond their kinds: players.c,
** chat.c and ratings.c check what they write. */
#define STORE_CLUB_TABLE_COLUMNS_LIST(X)                                          \
    X(tables, "rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1))")          \
    X(tables, "private INTEGER NOT NULL DEFAULT 0 CHECK (private IN (0, 1))")      \
    X(tables, "clock TEXT") /* NULL: none; clocks.c */                           \
    X(tables, "bot_level TEXT") /* the bot for a seat whose time ran out */       \
    X(tables, "rematch_of TEXT") X(tables, "rematch TEXT")                        \
    X(tables, "creator INTEGER REFERENCES players (id)")                          \
    X(tables, "turn_since INTEGER") /* unix ms: the running clock's start */
#define STORE_CLUB_SEAT_COLUMNS_LIST(X)                                           \
    X(seats, "player INTEGER REFERENCES players (id)")                            \
    X(seats, "clock_ms INTEGER") /* real time: ms left */
/* Schema 6 (issue 35, a club you can trust): an invited seat waits for its
** player's answer (seats.invite 1 until accepted) and the invitations of
** a table expire (tables.invite_until, unix seconds, NULL: none waits); the
** address of the client that made a table, whose share of the bots' time
** its bots use after a restart too (tables.creator_addr); a rated result an
** operator voided (results.voided), left out of every rating. */
#define STORE_V6_COLUMNS_LIST(X)                                                  \
    X(seats, "invite INTEGER NOT NULL DEFAULT 0 CHECK (invite IN (0, 1))")        \
    X(tables, "invite_until INTEGER")                                             \
    X(tables, "creator_addr TEXT")                                                \
    X(results, "voided INTEGER NOT NULL DEFAULT 0 CHECK (voided IN (0, 1))")
/* Schema 6 also finds a player's rows fast (players.c deletes the guests
** nothing refers to: the foreign keys look for them in each). */
#define STORE_V6_INDEXES                                                          \
    "CREATE INDEX seats_by_player ON seats (player);"                             \
    "CREATE INDEX chat_by_player ON chat (player);"                               \
    "CREATE INDEX tables_by_creator ON tables (creator);"
/* Schema 7 (issue 36, several servers on one store): the attempts
** players.c limits (failed logins, new accounts and guests, per name,
** address or both), counted where every server sees them: a bucket per
** (kind, key), tokens left at `at` (unix ms), gone once `expires` (unix
** ms) is past, when it is full again; and the pairs that logged in (a note,
** tokens 0, until `expires`).  No row: a full bucket, no note. */
#define STORE_V7_ATTEMPTS                                                         \
    "CREATE TABLE attempts ("                                                     \
    "  kind TEXT NOT NULL,"                                                       \
    "  key TEXT NOT NULL,"                                                        \
    "  tokens REAL NOT NULL,"                                                     \
    "  at INTEGER NOT NULL,"                                                      \
    "  expires INTEGER NOT NULL,"                                                 \
    "  PRIMARY KEY (kind, key)"                                                   \
    ") STRICT, WITHOUT ROWID;"                                                    \
    "CREATE INDEX attempts_by_expiry ON attempts (expires);"
#define STORE_COLUMN_DEF(table, def) "  " def ","
#define STORE_COLUMN_ADD(table, def) "ALTER TABLE " #table " ADD COLUMN " def ";"
#define STORE_CLUB_TABLE_COLUMNS STORE_CLUB_TABLE_COLUMNS_LIST(STORE_COLUMN_DEF)
#define STORE_CLUB_SEAT_COLUMNS STORE_CLUB_SEAT_COLUMNS_LIST(STORE_COLUMN_DEF)
#define STORE_CLUB                                                                \
    "CREATE TABLE players ("                                                      \
    "  id INTEGER PRIMARY KEY,"                                                   \
    "  name TEXT NOT NULL,"                                                       \
    "  name_key TEXT NOT NULL,"                                                   \
    "  kind TEXT NOT NULL CHECK (kind IN ('account', 'guest', 'bot')),"           \
    "  password TEXT," /* an Argon2id string; NULL for guests and bots */         \
    "  created INTEGER NOT NULL,"                                                 \
    "  seen INTEGER NOT NULL,"                                                    \
    "  disabled INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1))"            \
    ") STRICT;"                                                                   \
    "CREATE UNIQUE INDEX players_by_name ON players (name_key) WHERE kind <> 'guest';" \
    "CREATE TABLE logins ("                                                       \
    "  token_hash BLOB PRIMARY KEY NOT NULL CHECK (length(token_hash) = 32),"     \
    "  player INTEGER NOT NULL REFERENCES players (id),"                          \
    "  created INTEGER NOT NULL,"                                                 \
    "  used INTEGER NOT NULL"                                                     \
    ") STRICT, WITHOUT ROWID;"                                                    \
    "CREATE INDEX logins_by_player ON logins (player);"                           \
    "CREATE TABLE chat ("                                                         \
    "  table_id TEXT NOT NULL REFERENCES tables (id),"                            \
    "  n INTEGER NOT NULL,"                                                       \
    "  player INTEGER REFERENCES players (id),"                                   \
    "  name TEXT NOT NULL,"                                                       \
    "  seat INTEGER NOT NULL CHECK (seat BETWEEN -1 AND 4)," /* -1: a spectator */ \
    "  at INTEGER NOT NULL," /* unix ms */                                        \
    "  text TEXT NOT NULL,"                                                       \
    "  PRIMARY KEY (table_id, n)"                                                 \
    ") STRICT, WITHOUT ROWID;"                                                    \
    "CREATE TABLE ratings ("                                                      \
    "  player INTEGER NOT NULL REFERENCES players (id),"                          \
    "  game TEXT NOT NULL,"                                                       \
    "  rating REAL NOT NULL, rd REAL NOT NULL, volatility REAL NOT NULL,"          \
    "  games INTEGER NOT NULL,"                                                   \
    "  updated INTEGER NOT NULL,"                                                 \
    "  PRIMARY KEY (player, game)"                                                \
    ") STRICT, WITHOUT ROWID;"                                                    \
    "CREATE INDEX ratings_by_game ON ratings (game, rating);"                     \
    "CREATE TABLE results ("                                                      \
    "  table_id TEXT NOT NULL REFERENCES tables (id),"                            \
    "  seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 4),"                       \
    "  player INTEGER REFERENCES players (id),"                                   \
    "  game TEXT NOT NULL,"                                                       \
    "  place INTEGER NOT NULL," /* 1 first; a tie shares its place */            \
    "  score REAL,"                                                               \
    "  at INTEGER NOT NULL," /* unix seconds */                                   \
    "  rating_before REAL, rd_before REAL, rating_after REAL, rd_after REAL,"      \
    "  PRIMARY KEY (table_id, seat)"                                              \
    ") STRICT, WITHOUT ROWID;"                                                    \
    "CREATE INDEX results_by_player ON results (player, at);"

/* The schema, created in one transaction on first open.  STRICT makes
** SQLite refuse a value of the wrong type instead of storing it.  `tables`
** keeps its rowid: it breaks ties between tables created in the same
** second, newest first (no table is ever deleted, so rowids only grow).
** The other two are WITHOUT ROWID: their primary key is how they are read.
** store_find_change scans one table's actions without an index: it runs
** only when a client resends a move, and a game has at most a few
** thousand actions. */
static const char STORE_SCHEMA[] =
    "CREATE TABLE tables ("
    "  id TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 16),"
    "  game TEXT NOT NULL,"
    "  seed INTEGER NOT NULL," /* the uint64 seed's bits, as int64 */
    "  seq INTEGER NOT NULL,"
    "  finished INTEGER NOT NULL CHECK (finished IN (0, 1)),"
    "  created INTEGER NOT NULL,"
    "  updated INTEGER NOT NULL," /* unix seconds of the latest change */
    "  seed_chosen INTEGER NOT NULL DEFAULT 0 CHECK (seed_chosen IN (0, 1)),"
    STORE_CLUB_TABLE_COLUMNS
    "  end_reason TEXT" /* NULL, or why an unfinished game ended ("abandoned") */
    ") STRICT;"
    "CREATE INDEX tables_by_age ON tables (created);"
    STORE_LOBBY_INDEXES
    "CREATE TABLE seats ("
    "  table_id TEXT NOT NULL REFERENCES tables (id),"
    "  seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 4),"
    "  spec TEXT NOT NULL,"
    "  token_hash BLOB CHECK (token_hash IS NULL OR length(token_hash) = 32),"
    "  resigned INTEGER NOT NULL CHECK (resigned IN (0, 1)),"
    "  forfeit TEXT," /* NULL, or why the seat's external bot forfeited */
    STORE_CLUB_SEAT_COLUMNS
    "  PRIMARY KEY (table_id, seat)"
    ") STRICT, WITHOUT ROWID;"
    "CREATE TABLE actions ("
    "  table_id TEXT NOT NULL REFERENCES tables (id),"
    "  position INTEGER NOT NULL CHECK (position >= 0),"
    "  seat INTEGER NOT NULL CHECK (seat BETWEEN -1 AND 4)," /* -1: chance */
    "  text TEXT NOT NULL,"
    "  change_seq INTEGER NOT NULL,"
    "  PRIMARY KEY (table_id, position)"
    ") STRICT, WITHOUT ROWID;" STORE_CLUB STORE_V6_COLUMNS_LIST(STORE_COLUMN_ADD)
    STORE_V6_INDEXES STORE_V7_ATTEMPTS;

/* Every statement the calls run, prepared once at open: name and SQL. */
#define STORE_STATEMENTS(X)                                                                \
    X(BEGIN_WRITE, "BEGIN IMMEDIATE")                                                      \
    X(BEGIN_READ, "BEGIN")                                                                 \
    X(COMMIT, "COMMIT")                                                                    \
    X(ROLLBACK, "ROLLBACK")                                                                \
    X(TABLE_INSERT, "INSERT INTO tables (id, game, seed, seq, finished, created, updated,"  \
                    " seed_chosen, rated, private, clock, bot_level, rematch_of, creator,"  \
                    " invite_until, creator_addr)"                                         \
                    " VALUES (?1, ?2, ?3, 0, 0, ?4, ?4, ?5, ?6, ?7, nullif(?8, ''),"       \
                    " nullif(?9, ''), nullif(?10, ''), nullif(?11, 0), nullif(?12, 0),"    \
                    " nullif(?13, ''))")                                                   \
    X(TABLE_END, "UPDATE tables SET seq = ?2, finished = 1, end_reason = ?3, updated = "   \
                 STORE_NOW " WHERE id = ?1 AND finished = 0")                              \
    X(DELETE_ACTIONS, "DELETE FROM actions WHERE table_id = ?1")                          \
    X(DELETE_CHAT, "DELETE FROM chat WHERE table_id = ?1")                                \
    X(DELETE_RESULTS, "DELETE FROM results WHERE table_id = ?1")                          \
    X(DELETE_SEATS, "DELETE FROM seats WHERE table_id = ?1")                              \
    X(DELETE_TABLE, "DELETE FROM tables WHERE id = ?1")                                   \
    X(SEAT_INSERT, "INSERT INTO seats (table_id, seat, spec, token_hash, resigned, player," \
                   " clock_ms, invite) VALUES (?1, ?2, ?3, ?4, ?5, nullif(?6, 0), ?7, ?8)") \
    /* Whether the table exists (a row or none), its seats and its actions. */             \
    X(TABLE_SHAPE, "SELECT (SELECT count(*) FROM seats WHERE table_id = ?1),"              \
                   " (SELECT coalesce(max(position) + 1, 0) FROM actions"                  \
                   "  WHERE table_id = ?1)"                                                \
                   " FROM tables WHERE id = ?1")                                           \
    X(ACTION_INSERT, "INSERT INTO actions (table_id, position, seat, text, change_seq)"     \
                     " VALUES (?1, ?2, ?3, ?4, ?5)")                                       \
    X(ACTION_TRUNCATE, "DELETE FROM actions WHERE table_id = ?1 AND position >= ?2")       \
    X(TABLE_UPDATE, "UPDATE tables SET seq = ?2, finished = ?3, updated = " STORE_NOW      \
                    " WHERE id = ?1")                                                      \
    X(TABLE_SET_SEQ, "UPDATE tables SET seq = ?2, updated = " STORE_NOW " WHERE id = ?1")  \
    X(SEAT_UPDATE, "UPDATE seats SET spec = ?3, token_hash = ?4, resigned = ?5,"           \
                   " forfeit = ?6, player = nullif(?7, 0), clock_ms = ?8, invite = ?9"     \
                   " WHERE table_id = ?1 AND seat = ?2")                                   \
    X(SEAT_CLOCK, "UPDATE seats SET clock_ms = ?3 WHERE table_id = ?1 AND seat = ?2")      \
    X(TABLE_CLOCK, "UPDATE tables SET turn_since = nullif(?2, 0) WHERE id = ?1")          \
    X(TABLE_REMATCH, "UPDATE tables SET rematch = ?2 WHERE id = ?1")                      \
    X(SEAT_TIME_OUT, "UPDATE seats SET resigned = 1, forfeit = 'time'"                    \
                     " WHERE table_id = ?1 AND seat = ?2")                                 \
    X(TABLE_TIME_OUT, "UPDATE tables SET seq = ?2, finished = 1, end_reason = 'timeout',"  \
                      " turn_since = NULL, updated = " STORE_NOW                           \
                      " WHERE id = ?1 AND finished = 0")                                   \
    X(PLAYER_SEATS, "SELECT s.table_id, s.seat FROM tables t JOIN seats s"                \
                    " ON s.table_id = t.id WHERE t.finished = 0 AND"                       \
                    " s.player = ?1 ORDER BY t.updated DESC LIMIT ?2")                     \
    X(CHANGE_FIND, "SELECT seat, text FROM actions WHERE table_id = ?1 AND change_seq = ?2" \
                   " ORDER BY position LIMIT 1")                                           \
    X(TABLE_LOAD, "SELECT game, seed, seq, finished, created, updated, seed_chosen,"       \
                  " end_reason, rated, private, clock, bot_level, rematch_of, rematch,"     \
                  " creator, turn_since, invite_until, creator_addr FROM tables"           \
                  " WHERE id = ?1")                                                        \
    X(SEAT_LOAD, "SELECT seat, spec, token_hash, resigned, forfeit, player, clock_ms,"      \
                 " invite"                                                                 \
                 " FROM seats"                                                             \
                 " WHERE table_id = ?1 ORDER BY seat")                                     \
    X(ACTION_LOAD, "SELECT position, seat, text FROM actions"                              \
                   " WHERE table_id = ?1 ORDER BY position")                               \
    X(TABLE_LIST, "SELECT id FROM tables WHERE ?1 = 0 OR finished = 0"                     \
                  " ORDER BY created DESC, rowid DESC LIMIT ?2")                           \
    X(LOBBY_PLAYING, "SELECT id FROM tables WHERE finished = 0 AND private = 0"          \
                     " ORDER BY created DESC, rowid DESC LIMIT ?1")                        \
    X(LOBBY_ENDED, "SELECT id FROM tables WHERE finished = 1 AND private = 0"            \
                   " ORDER BY updated DESC, rowid DESC LIMIT ?1")

#define STORE_STATEMENT_ENUM(name, sql) ST_##name,
#define STORE_STATEMENT_SQL(name, sql) sql,
enum { STORE_STATEMENTS(STORE_STATEMENT_ENUM) ST_COUNT };
static const char *const STORE_STATEMENT_TEXT[ST_COUNT] = {STORE_STATEMENTS(STORE_STATEMENT_SQL)};

/* struct store is backend.h's: db, stmt (ST_COUNT of them) and syncer. */

/* ---- error messages ----------------------------------------------- */

/* SQLite's own reason for the latest failure on db. */
static int store_fail_sql(store *s, char *err, size_t errsize, const char *context) {
    return store_fail(err, errsize, context, "%s", sqlite3_errmsg(s->db));
}

/* ---- statements and transactions ------------------------------------- */

/* Leaves every cached statement ready for its next use after a failure
** part-way through a call (some bound, some stepped).  The codes sqlite3_reset
** returns here only repeat the failure being reported. */
static void store_reset_all(store *s) {
    for (int i = 0; i < ST_COUNT; i++) {
        if (!s->stmt[i]) continue;
        sqlite3_reset(s->stmt[i]);
        sqlite3_clear_bindings(s->stmt[i]);
    }
}

/* Runs a cached statement that returns no rows, then resets it.  SQLITE_OK
** or the failure (its message stays in sqlite3_errmsg). */
static int store_run(store *s, int which) {
    sqlite3_stmt *st = s->stmt[which];
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) rc = SQLITE_MISUSE; /* none of ours returns rows */
    if (rc == SQLITE_DONE) rc = SQLITE_OK;
    if (rc == SQLITE_OK) {
        rc = sqlite3_reset(st);
        sqlite3_clear_bindings(st);
    }
    return rc;
}

/* Undoes the transaction of a failed call: err already says why.  SQLite
** rolls back by itself after some failures (I/O, out of memory), so
** ROLLBACK runs only while a transaction is still open. */
static void store_rollback(store *s, char *err, size_t errsize) {
    store_reset_all(s);
    if (sqlite3_get_autocommit(s->db)) return;
    if (store_run(s, ST_ROLLBACK) != SQLITE_OK && err && errsize > 0) {
        size_t used = strlen(err);
        snprintf(err + used, errsize - used, " (and rolling back failed: %s)",
                 sqlite3_errmsg(s->db));
    }
}

static int store_begin(store *s, int which, const char *context, char *err, size_t errsize) {
    if (store_run(s, which) != SQLITE_OK) {
        store_fail_sql(s, err, errsize, context);
        store_rollback(s, err, errsize);
        return -1;
    }
    return 0;
}

/* Commits, or rolls back and says why (a failed COMMIT, e.g. SQLITE_BUSY,
** can leave the transaction open). */
static int store_commit(store *s, const char *context, char *err, size_t errsize) {
    if (store_run(s, ST_COMMIT) != SQLITE_OK) {
        store_fail_sql(s, err, errsize, context);
        store_rollback(s, err, errsize);
        return -1;
    }
    return 0;
}

/* Reads the table's seat and action counts inside the current transaction:
** 1 the table exists, 0 it does not, -1 a failure (message in errmsg). */
static int store_table_shape(store *s, const char *id, int *nseats, int *nactions) {
    sqlite3_stmt *st = s->stmt[ST_TABLE_SHAPE];
    int rc = sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    if (rc != SQLITE_OK) return -1;
    rc = sqlite3_step(st);
    int found = 0;
    if (rc == SQLITE_ROW) {
        sqlite3_int64 seats = sqlite3_column_int64(st, 0);
        sqlite3_int64 actions = sqlite3_column_int64(st, 1);
        *nseats = (int)seats; /* 0 to 5: the seats' CHECK */
        /* Saturated: no `from` or `keep` (an int) can then match a count
        ** too big for an int, so such a table is refused, not corrupted. */
        *nactions = actions > INT_MAX ? INT_MAX : (int)actions;
        found = 1;
        rc = sqlite3_step(st);
    }
    if (rc != SQLITE_DONE) return -1;
    if (sqlite3_reset(st) != SQLITE_OK) return -1;
    sqlite3_clear_bindings(st);
    return found;
}

/* Sets the table's seq and finished flag, the last step of every change. */
static int store_update_table(store *s, const char *id, int64_t seq, int over) {
    sqlite3_stmt *st = s->stmt[ST_TABLE_UPDATE];
    int rc = sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 2, seq);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 3, over ? 1 : 0);
    if (rc == SQLITE_OK) rc = store_run(s, ST_TABLE_UPDATE);
    if (rc == SQLITE_OK && sqlite3_changes(s->db) != 1) rc = SQLITE_NOTFOUND;
    return rc;
}

/* Inserts a change's n actions after the table's first `from`, inside the
** caller's transaction; seq is the table's after the change. */
static int store_insert_actions(store *s, const char *id, int from, int n,
                                const char *const *texts, const int *seats, int64_t seq) {
    sqlite3_stmt *st = s->stmt[ST_ACTION_INSERT];
    int rc = SQLITE_OK;
    for (int i = 0; rc == SQLITE_OK && i < n; i++) {
        rc = sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
        if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 2, from + i);
        if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 3, seats[i]);
        if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 4, texts[i], -1, SQLITE_STATIC);
        /* The seq the client sent with this change: store_find_change. */
        if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 5, seq - 1);
        if (rc == SQLITE_OK) rc = store_run(s, ST_ACTION_INSERT);
    }
    return rc;
}

/* Binds a seat's token hash: a 32-byte blob, or NULL for no token. */
static int store_bind_token(sqlite3_stmt *st, int index, const store_seat *seat) {
    if (!seat->has_token) return sqlite3_bind_null(st, index);
    return sqlite3_bind_blob(st, index, seat->token_hash, STORE_HASH_LEN, SQLITE_STATIC);
}

/* ---- opening ---------------------------------------------------------- */

/* One integer pragma's value (application_id, user_version, ...). */
/* A seat's real-time clock: NULL for none (-1). */
static int store_bind_clock(sqlite3_stmt *st, int index, int64_t ms) {
    return ms < 0 ? sqlite3_bind_null(st, index) : sqlite3_bind_int64(st, index, ms);
}

static int store_pragma_int(sqlite3 *db, const char *pragma, int64_t *out) {
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA %s", pragma);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK) return rc;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int64(st, 0);
        rc = SQLITE_OK;
    } else if (rc == SQLITE_DONE) {
        rc = SQLITE_ERROR; /* a pragma this SQLite does not know */
    }
    int frc = sqlite3_finalize(st);
    return rc != SQLITE_OK ? rc : frc;
}

/* How many objects (tables, indexes, ...) the file's schema holds. */
static int store_schema_objects(sqlite3 *db, int64_t *out) {
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_schema", -1, &st, NULL);
    if (rc != SQLITE_OK) return rc;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int64(st, 0);
        rc = SQLITE_OK;
    }
    int frc = sqlite3_finalize(st);
    return rc != SQLITE_OK ? rc : frc;
}

/* Whether the file is a tafel database of our schema version (1), of an
** older version to upgrade (2), an empty file to create the schema in (0),
** or neither (-1, err says which stamp is wrong).  Reads only, so a foreign
** or newer file is left as it was. */
static int store_check_stamps(sqlite3 *db, const char *context, char *err, size_t errsize) {
    int64_t app = 0, version = 0, objects = 0;
    if (store_pragma_int(db, "application_id", &app) != SQLITE_OK ||
        store_pragma_int(db, "user_version", &version) != SQLITE_OK ||
        store_schema_objects(db, &objects) != SQLITE_OK)
        return store_fail(err, errsize, context, "%s", sqlite3_errmsg(db));
    if (app == 0 && version == 0 && objects == 0) return 0;
    if (app != STORE_APPLICATION_ID)
        return store_fail(err, errsize, context,
                          "not a tafel database (application_id %lld, tafel's is %lld)",
                          (long long)app, (long long)STORE_APPLICATION_ID);
    if (version >= 1 && version < STORE_SCHEMA_VERSION) return 2;
    if (version != STORE_SCHEMA_VERSION)
        return store_fail(err, errsize, context,
                          "the database has schema version %lld; this tafel reads "
                          "version %d and older",
                          (long long)version, STORE_SCHEMA_VERSION);
    return 1;
}

/* Runs SQL with no result rows (pragmas that set, the schema). */
static int store_exec(sqlite3 *db, const char *sql, const char *context, char *err,
                      size_t errsize) {
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return store_fail(err, errsize, context, "%s", sqlite3_errmsg(db));
    return 0;
}

/* Switches to WAL, which is kept in the file.  An in-memory database has
** no WAL and stays in "memory" mode, which is fine for tests. */
static int store_use_wal(sqlite3 *db, const char *context, char *err, size_t errsize) {
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, "PRAGMA journal_mode=WAL", -1, &st, NULL);
    char mode[16] = "";
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            const unsigned char *text = sqlite3_column_text(st, 0);
            snprintf(mode, sizeof mode, "%s", text ? (const char *)text : "");
            rc = SQLITE_OK;
        }
    }
    if (rc != SQLITE_OK) {
        store_fail(err, errsize, context, "%s", sqlite3_errmsg(db));
        sqlite3_finalize(st); /* repeats the failure already reported */
        return -1;
    }
    if (sqlite3_finalize(st) != SQLITE_OK)
        return store_fail(err, errsize, context, "%s", sqlite3_errmsg(db));
    const char *file = sqlite3_db_filename(db, "main");
    int in_memory = !file || !file[0];
    if (strcmp(mode, "wal") != 0 && !in_memory)
        return store_fail(err, errsize, context, "cannot use WAL (journal mode stays '%s')",
                          mode);
    return 0;
}

/* Creates the schema and stamps the file, in one transaction.  Another
** process may have created it since we looked: checked again inside. */
static int store_create_schema(sqlite3 *db, const char *context, char *err, size_t errsize) {
    if (store_exec(db, "BEGIN IMMEDIATE", context, err, errsize)) return -1;
    int state = store_check_stamps(db, context, err, errsize);
    if (state == 0) {
        char stamps[96];
        snprintf(stamps, sizeof stamps, "PRAGMA application_id=%d; PRAGMA user_version=%d;",
                 STORE_APPLICATION_ID, STORE_SCHEMA_VERSION);
        if (store_exec(db, STORE_SCHEMA, context, err, errsize) ||
            store_exec(db, stamps, context, err, errsize))
            state = -1;
    }
    if (state >= 0 && store_exec(db, "COMMIT", context, err, errsize)) state = -1;
    if (state < 0) {
        /* err already holds the failure; a failed ROLLBACK leaves the file
        ** as it was too, and the connection is closed right after. */
        if (!sqlite3_get_autocommit(db)) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}

/* Each schema version's step from the one before: upgrade[v] takes a file
** of version v to v + 1.  Version 2 added seats.forfeit, NULL in the old
** rows: nobody forfeited.  Version 3 added tables.updated, the time of the
** latest change, for the lobby: an old table's is its creation, the best
** the file knows.  Version 4 added tables.seed_chosen (an old table's seed
** may have been chosen, but nobody can tell: 0) and tables.end_reason
** (NULL: the game ended by its rules or by resignations).  Version 5 added
** the club (STORE_CLUB): nobody played at an old table (its seats' players
** are NULL), and its tables are unrated, open and without clocks.  Version
** 6 added STORE_V6_COLUMNS_LIST: no invitation waits at an old table, its
** creator's address is unknown (NULL), and no result is voided.  Version
** 7 added the attempts (STORE_V7_ATTEMPTS), empty: the counts so far were
** in memory, and a restart forgot them anyway. */
static const char *const STORE_UPGRADE[STORE_SCHEMA_VERSION] = {
    [1] = "ALTER TABLE seats ADD COLUMN forfeit TEXT;",
    [2] = "ALTER TABLE tables ADD COLUMN updated INTEGER NOT NULL DEFAULT 0;"
          "UPDATE tables SET updated = created;" STORE_LOBBY_INDEXES,
    [3] = "ALTER TABLE tables ADD COLUMN seed_chosen INTEGER NOT NULL DEFAULT 0"
          " CHECK (seed_chosen IN (0, 1));"
          "ALTER TABLE tables ADD COLUMN end_reason TEXT;",
    [4] = STORE_CLUB STORE_CLUB_TABLE_COLUMNS_LIST(STORE_COLUMN_ADD)
          STORE_CLUB_SEAT_COLUMNS_LIST(STORE_COLUMN_ADD),
    [5] = STORE_V6_COLUMNS_LIST(STORE_COLUMN_ADD) STORE_V6_INDEXES,
    [6] = STORE_V7_ATTEMPTS,
};

/* Brings a file of an older schema version up to ours, step by step in one
** transaction (checked again inside: another process may have upgraded it
** since). */
static int store_upgrade_schema(sqlite3 *db, const char *context, char *err, size_t errsize) {
    if (store_exec(db, "BEGIN IMMEDIATE", context, err, errsize)) return -1;
    int64_t version = 0;
    int rc = store_pragma_int(db, "user_version", &version) == SQLITE_OK ? 0 : -1;
    if (rc) store_fail(err, errsize, context, "%s", sqlite3_errmsg(db));
    int upgraded = 0;
    for (; !rc && version >= 1 && version < STORE_SCHEMA_VERSION; version++, upgraded = 1)
        rc = store_exec(db, STORE_UPGRADE[version], context, err, errsize);
    if (!rc && upgraded) {
        char stamp[48];
        snprintf(stamp, sizeof stamp, "PRAGMA user_version=%d;", STORE_SCHEMA_VERSION);
        rc = store_exec(db, stamp, context, err, errsize);
    }
    if (!rc) rc = store_exec(db, "COMMIT", context, err, errsize);
    if (rc && !sqlite3_get_autocommit(db)) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* After each commit that wrote the log (on the loop, --durable only). */
static int store_wal_hook(void *arg, sqlite3 *db, const char *name, int frames) {
    (void)arg, (void)db, (void)name;
    syncer_commit(frames);
    return SQLITE_OK;
}

/* Order (stack-research §2): busy_timeout first, so that a file another
** process is writing is waited for; then the stamps are read, before
** anything is written; then WAL, synchronous and foreign keys; then the
** schema, on first open; then the statements. */
static int store_open_file(const char *path, int durable, int existing, store **out, char *err,
                           size_t errsize) {
    char context[300];
    char shown[256];
    snprintf(shown, sizeof shown, "%s", path ? path : "(null)");
    snprintf(context, sizeof context, "opening %s", shown);
    if (out) *out = NULL;
    if (!path || !out) return store_fail(err, errsize, context, "no path or no result pointer");

    store *s = calloc(1, sizeof *s);
    if (s) s->stmt = calloc(ST_COUNT, sizeof *s->stmt);
    if (!s || !s->stmt) {
        free(s);
        return store_fail(err, errsize, context, "out of memory");
    }
    s->backend = STORE_SQLITE;
    struct stat st;
    if (existing && stat(path, &st)) {
        store_fail(err, errsize, context, "%s", strerror(errno));
        lite_close(s);
        return -1;
    }
    int rc = sqlite3_open_v2(path, &s->db,
                             SQLITE_OPEN_READWRITE | (existing ? 0 : SQLITE_OPEN_CREATE), NULL);
    if (rc != SQLITE_OK) {
        if (s->db)
            store_fail_sql(s, err, errsize, context);
        else
            store_fail(err, errsize, context, "%s", sqlite3_errstr(rc));
        lite_close(s);
        return -1;
    }
    sqlite3 *db = s->db;
    if (sqlite3_extended_result_codes(db, 1) != SQLITE_OK ||
        store_exec(db, "PRAGMA busy_timeout=5000", context, err, errsize)) {
        store_fail_sql(s, err, errsize, context);
        lite_close(s);
        return -1;
    }
    /* SQLite opens a file it may not write read-only without a word. */
    if (sqlite3_db_readonly(db, "main") == 1) {
        store_fail(err, errsize, context, "the file is read-only");
        lite_close(s);
        return -1;
    }
    int stamps = store_check_stamps(db, context, err, errsize);
    if (existing && (stamps == 0 || (stamps < 0 && sqlite3_errcode(db) == SQLITE_NOTADB))) {
        store_fail(err, errsize, context, "not a tafel database (%s)",
                   stamps == 0 ? "nothing in it" : "not even SQLite");
        lite_close(s);
        return -1;
    }
    int64_t foreign_keys = 0;
    if (stamps < 0 || store_use_wal(db, context, err, errsize) ||
        store_exec(db, "PRAGMA synchronous=NORMAL", context, err, errsize) ||
        store_exec(db, "PRAGMA foreign_keys=ON", context, err, errsize)) {
        lite_close(s);
        return -1;
    }
    /* foreign_keys is silently ignored by a SQLite built without them. */
    if (store_pragma_int(db, "foreign_keys", &foreign_keys) != SQLITE_OK || foreign_keys != 1) {
        store_fail(err, errsize, context, "foreign keys cannot be turned on");
        lite_close(s);
        return -1;
    }
    if ((stamps == 0 && store_create_schema(db, context, err, errsize)) ||
        (stamps == 2 && store_upgrade_schema(db, context, err, errsize))) {
        lite_close(s);
        return -1;
    }
    for (int i = 0; i < ST_COUNT; i++) {
        rc = sqlite3_prepare_v3(db, STORE_STATEMENT_TEXT[i], -1, SQLITE_PREPARE_PERSISTENT,
                                &s->stmt[i], NULL);
        if (rc != SQLITE_OK) {
            store_fail(err, errsize, context, "preparing '%.40s...': %s", STORE_STATEMENT_TEXT[i],
                       sqlite3_errmsg(db));
            lite_close(s);
            return -1;
        }
    }
    /* --durable: commits are synced by syncer.c's thread, many at once, not
    ** here; the hook counts them (and replaces the automatic checkpoint:
    ** the thread checkpoints).  An in-memory database has nothing to sync. */
    const char *file = sqlite3_db_filename(db, "main");
    if (durable && file && file[0]) {
        char why[400];
        if (syncer_start(file, why, sizeof why)) {
            store_fail(err, errsize, context, "%s", why);
            lite_close(s);
            return -1;
        }
        s->syncer = 1;
        sqlite3_wal_hook(db, store_wal_hook, NULL);
    }
    *out = s;
    return 0;
}

int lite_open(const char *path, int durable, store **out, char *err, size_t errsize) {
    return store_open_file(path, durable, 0, out, err, errsize);
}

int lite_open_existing(const char *path, store **out, char *err, size_t errsize) {
    return store_open_file(path, 0, 1, out, err, errsize);
}

/* Whether another process holds a POSIX lock on path: SQLite's own locks,
** which a process that has the file (or its WAL index) open takes.  Our
** own locks are never reported (F_GETLK). */
static int store_locked_by_other(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    struct flock lk = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    int held = fcntl(fd, F_GETLK, &lk) == 0 && lk.l_type != F_UNLCK;
    close(fd);
    return held;
}

int lite_held_elsewhere(store *s) {
    const char *file = s ? sqlite3_db_filename(s->db, "main") : NULL;
    if (!file || !file[0]) return 0;
    char shm[4096];
    snprintf(shm, sizeof shm, "%s-shm", file);
    return store_locked_by_other(file) || store_locked_by_other(shm);
}

/* The last connection's close checkpoints the WAL into the file. */
void lite_close(store *s) {
    if (!s) return;
    if (s->syncer) syncer_stop();
    for (int i = 0; s->stmt && i < ST_COUNT; i++) sqlite3_finalize(s->stmt[i]);
    free(s->stmt);
    /* close_v2 cannot fail for want of finalized statements; with every
    ** statement finalized above there is nothing left to report. */
    sqlite3_close_v2(s->db);
    free(s);
}

/* ---- changes ------------------------------------------------------------ */

int lite_create(store *s, const store_table *t, char *err, size_t errsize) {
    char context[64];
    store_context(context, sizeof context, "creating", t ? t->id : NULL);
    if (store_check_new_table(s, t, context, err, errsize)) return -1;

    /* The seed's 64 bits as they are: SQLite's integers are signed. */
    int64_t seed_bits;
    memcpy(&seed_bits, &t->seed, sizeof seed_bits);

    if (store_begin(s, ST_BEGIN_WRITE, context, err, errsize)) return -1;
    sqlite3_stmt *st = s->stmt[ST_TABLE_INSERT];
    int rc = sqlite3_bind_text(st, 1, t->id, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 2, t->game, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 3, seed_bits);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 4, t->created);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 5, t->seed_chosen ? 1 : 0);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 6, t->rated ? 1 : 0);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 7, t->private_ ? 1 : 0);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 8, t->clock, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 9, t->bot_level, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 10, t->rematch_of, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 11, t->creator);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 12, t->invite_until);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 13, t->creator_addr, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = store_run(s, ST_TABLE_INSERT);
    st = s->stmt[ST_SEAT_INSERT];
    for (int i = 0; rc == SQLITE_OK && i < t->nseats; i++) {
        const store_seat *seat = &t->seats[i];
        rc = sqlite3_bind_text(st, 1, t->id, -1, SQLITE_STATIC);
        if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 2, i);
        if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 3, seat->spec, -1, SQLITE_STATIC);
        if (rc == SQLITE_OK) rc = store_bind_token(st, 4, seat);
        if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 5, seat->resigned ? 1 : 0);
        if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 6, seat->player);
        if (rc == SQLITE_OK) rc = store_bind_clock(st, 7, seat->clock_ms);
        if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 8, seat->invite ? 1 : 0);
        if (rc == SQLITE_OK) rc = store_run(s, ST_SEAT_INSERT);
    }
    /* the opening change in the same transaction: a table is on disk with
    ** its opening deal, or not at all (a refused create leaves nothing) */
    if (rc == SQLITE_OK && t->nactions > 0)
        rc = store_insert_actions(s, t->id, 0, t->nactions, (const char *const *)t->actions,
                                  t->action_seats, t->seq);
    if (rc == SQLITE_OK && t->nactions > 0) rc = store_update_table(s, t->id, t->seq, 0);
    if (rc != SQLITE_OK) {
        if (rc == SQLITE_CONSTRAINT_PRIMARYKEY)
            store_fail(err, errsize, context, "a table with this id exists (%s)",
                       sqlite3_errmsg(s->db));
        else
            store_fail_sql(s, err, errsize, context);
        store_rollback(s, err, errsize);
        return -1;
    }
    return store_commit(s, context, err, errsize);
}

/* Starts a change to an existing table: the write transaction, with the
** table's seat and action counts read inside it.  0, or -1 with err set
** and nothing open. */
static int store_begin_change(store *s, const char *id, const char *context, int *nseats,
                              int *nactions, char *err, size_t errsize) {
    if (store_begin(s, ST_BEGIN_WRITE, context, err, errsize)) return -1;
    int found = store_table_shape(s, id, nseats, nactions);
    if (found < 0)
        store_fail_sql(s, err, errsize, context);
    else if (found == 0)
        store_fail(err, errsize, context, "no such table");
    if (found <= 0) {
        store_rollback(s, err, errsize);
        return -1;
    }
    return 0;
}

/* Ends a change: committed when every step went well (rc), else rolled
** back with SQLite's reason in err. */
static int store_end_change(store *s, int rc, const char *context, char *err, size_t errsize) {
    if (rc != SQLITE_OK) {
        store_fail_sql(s, err, errsize, context);
        store_rollback(s, err, errsize);
        return -1;
    }
    return store_commit(s, context, err, errsize);
}

/* Writes the clocks of the table's n seats inside the caller's
** transaction; SQLite's code. */
static int store_write_clocks(store *s, const char *id, int n, const int64_t *ms,
                              int64_t turn_since) {
    int rc = SQLITE_OK;
    sqlite3_stmt *st = s->stmt[ST_SEAT_CLOCK];
    for (int i = 0; i < n && rc == SQLITE_OK; i++) {
        rc = sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
        if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 2, i);
        if (rc == SQLITE_OK) rc = store_bind_clock(st, 3, ms[i]);
        if (rc == SQLITE_OK) rc = store_run(s, ST_SEAT_CLOCK);
    }
    st = s->stmt[ST_TABLE_CLOCK];
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 2, turn_since);
    if (rc == SQLITE_OK) rc = store_run(s, ST_TABLE_CLOCK);
    return rc;
}

int lite_append(store *s, const char *id, int from, int n, const char *const *texts,
                 const int *seats, int64_t seq, int over, const store_clocks *clocks,
                 char *err, size_t errsize) {
    char context[64];
    store_context(context, sizeof context, "appending to", id);
    if (store_check_call(s, id, context, err, errsize)) return -1;
    if (store_check_append(from, n, texts, seats, context, err, errsize)) return -1;

    int nseats = 0, nactions = 0;
    if (store_begin_change(s, id, context, &nseats, &nactions, err, errsize)) return -1;
    /* The caller appends after what it has: if that is not what is on disk,
    ** its state and ours differ, and appending would corrupt the record. */
    if (store_check_append_fits(from, n, seats, clocks, nseats, nactions, context, err,
                                errsize)) {
        store_rollback(s, err, errsize);
        return -1;
    }

    int rc = store_insert_actions(s, id, from, n, texts, seats, seq);
    if (rc == SQLITE_OK) rc = store_update_table(s, id, seq, over);
    if (rc == SQLITE_OK && clocks)
        rc = store_write_clocks(s, id, clocks->nseats, clocks->ms, clocks->turn_since);
    return store_end_change(s, rc, context, err, errsize);
}

int lite_truncate(store *s, const char *id, int keep, int64_t seq, char *err, size_t errsize) {
    char context[64];
    store_context(context, sizeof context, "undoing in", id);
    if (store_check_call(s, id, context, err, errsize)) return -1;
    if (keep < 0) return store_fail(err, errsize, context, "keeping %d actions", keep);

    int nseats = 0, nactions = 0;
    if (store_begin_change(s, id, context, &nseats, &nactions, err, errsize)) return -1;
    if (keep > nactions) {
        store_fail(err, errsize, context, "keeping %d actions, but the table has %d", keep,
                   nactions);
        store_rollback(s, err, errsize);
        return -1;
    }
    sqlite3_stmt *st = s->stmt[ST_ACTION_TRUNCATE];
    int rc = sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 2, keep);
    if (rc == SQLITE_OK) rc = store_run(s, ST_ACTION_TRUNCATE);
    /* An undo never ends a game: the finished flag stays as it is. */
    st = s->stmt[ST_TABLE_SET_SEQ];
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 2, seq);
    if (rc == SQLITE_OK) rc = store_run(s, ST_TABLE_SET_SEQ);
    return store_end_change(s, rc, context, err, errsize);
}

int lite_set_seat(store *s, const char *id, int seat, const store_seat *value, int64_t seq,
                   int over, char *err, size_t errsize) {
    char context[64], doing[32];
    snprintf(doing, sizeof doing, "setting seat %d of", seat);
    store_context(context, sizeof context, doing, id);
    if (store_check_call(s, id, context, err, errsize)) return -1;
    if (!value) return store_fail(err, errsize, context, "no seat given");
    if (!store_spec_ok(value->spec))
        return store_fail(err, errsize, context, "spec empty or over %d bytes",
                          STORE_SPEC_MAX - 1);

    int nseats = 0, nactions = 0;
    if (store_begin_change(s, id, context, &nseats, &nactions, err, errsize)) return -1;
    if (seat < 0 || seat >= nseats) {
        store_fail(err, errsize, context, "no such seat (the table has %d)", nseats);
        store_rollback(s, err, errsize);
        return -1;
    }
    sqlite3_stmt *st = s->stmt[ST_SEAT_UPDATE];
    int rc = sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 2, seat);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 3, value->spec, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = store_bind_token(st, 4, value);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 5, value->resigned ? 1 : 0);
    if (rc == SQLITE_OK)
        rc = value->forfeit[0] ? sqlite3_bind_text(st, 6, value->forfeit, -1, SQLITE_STATIC)
                               : sqlite3_bind_null(st, 6);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 7, value->player);
    if (rc == SQLITE_OK) rc = store_bind_clock(st, 8, value->clock_ms);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 9, value->invite ? 1 : 0);
    if (rc == SQLITE_OK) rc = store_run(s, ST_SEAT_UPDATE);
    if (rc == SQLITE_OK) rc = store_update_table(s, id, seq, over);
    return store_end_change(s, rc, context, err, errsize);
}

int lite_end(store *s, const char *id, int64_t seq, const char *reason, char *err,
              size_t errsize) {
    char context[64];
    store_context(context, sizeof context, "ending", id);
    if (store_check_call(s, id, context, err, errsize)) return -1;
    if (!reason || !reason[0] || strlen(reason) >= STORE_END_REASON_MAX)
        return store_fail(err, errsize, context, "a reason of 1 to %d bytes",
                          STORE_END_REASON_MAX - 1);
    int nseats = 0, nactions = 0;
    if (store_begin_change(s, id, context, &nseats, &nactions, err, errsize)) return -1;
    sqlite3_stmt *st = s->stmt[ST_TABLE_END];
    int rc = sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 2, seq);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 3, reason, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = store_run(s, ST_TABLE_END);
    if (rc == SQLITE_OK && sqlite3_changes(s->db) != 1) {
        store_fail(err, errsize, context, "the table is over already");
        store_rollback(s, err, errsize);
        return -1;
    }
    return store_end_change(s, rc, context, err, errsize);
}

int lite_delete(store *s, const char *id, char *err, size_t errsize) {
    char context[64];
    store_context(context, sizeof context, "deleting", id);
    if (store_check_call(s, id, context, err, errsize)) return -1;
    if (store_begin(s, ST_BEGIN_WRITE, context, err, errsize)) return -1;
    int rc = SQLITE_OK;
    static const int order[] = {ST_DELETE_CHAT, ST_DELETE_RESULTS, ST_DELETE_ACTIONS,
                                ST_DELETE_SEATS, ST_DELETE_TABLE};
    for (int i = 0; i < 5 && rc == SQLITE_OK; i++) {
        rc = sqlite3_bind_text(s->stmt[order[i]], 1, id, -1, SQLITE_STATIC);
        if (rc == SQLITE_OK) rc = store_run(s, order[i]);
    }
    return store_end_change(s, rc, context, err, errsize);
}

int lite_set_rematch(store *s, const char *id, const char *next, char *err, size_t errsize) {
    char context[64];
    store_context(context, sizeof context, "setting the rematch of", id);
    if (store_check_call(s, id, context, err, errsize)) return -1;
    if (!next || !store_id_ok(next)) return store_fail(err, errsize, context, "no rematch id");
    int nseats = 0, nactions = 0;
    if (store_begin_change(s, id, context, &nseats, &nactions, err, errsize)) return -1;
    sqlite3_stmt *st = s->stmt[ST_TABLE_REMATCH];
    int rc = sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 2, next, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = store_run(s, ST_TABLE_REMATCH);
    return store_end_change(s, rc, context, err, errsize);
}

int lite_set_clocks(store *s, const char *id, int n, const int64_t *ms, int64_t turn_since,
                     char *err, size_t errsize) {
    char context[64];
    store_context(context, sizeof context, "setting the clocks of", id);
    if (store_check_call(s, id, context, err, errsize)) return -1;
    int nseats = 0, nactions = 0;
    if (store_begin_change(s, id, context, &nseats, &nactions, err, errsize)) return -1;
    if (!ms || n != nseats) {
        store_fail(err, errsize, context, "%d clocks for %d seats", n, nseats);
        store_rollback(s, err, errsize);
        return -1;
    }
    int rc = store_write_clocks(s, id, n, ms, turn_since);
    return store_end_change(s, rc, context, err, errsize);
}

int lite_time_out(store *s, const char *id, int seat, int64_t seq, char *err,
                   size_t errsize) {
    char context[64];
    store_context(context, sizeof context, "ending on time", id);
    if (store_check_call(s, id, context, err, errsize)) return -1;
    if (store_begin(s, ST_BEGIN_WRITE, context, err, errsize)) return -1;
    sqlite3_stmt *st = s->stmt[ST_SEAT_TIME_OUT];
    int rc = sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 2, seat);
    if (rc == SQLITE_OK) rc = store_run(s, ST_SEAT_TIME_OUT);
    int changed = rc == SQLITE_OK && sqlite3_changes(s->db) == 1;
    st = s->stmt[ST_TABLE_TIME_OUT];
    if (changed) rc = sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    if (changed && rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 2, seq);
    if (changed && rc == SQLITE_OK) rc = store_run(s, ST_TABLE_TIME_OUT);
    changed = changed && rc == SQLITE_OK && sqlite3_changes(s->db) == 1;
    if (rc == SQLITE_OK && !changed) {
        store_fail(err, errsize, context, "no such unfinished table or seat");
        store_rollback(s, err, errsize);
        return -1;
    }
    return store_end_change(s, rc, context, err, errsize);
}

int lite_player_seats(store *s, int64_t player, int cap, store_player_seat *out, char *err,
                       size_t errsize) {
    const char *context = "listing a player's unfinished tables";
    if (!s) return store_fail(err, errsize, context, "no database");
    if (cap < 0 || (cap > 0 && !out))
        return store_fail(err, errsize, context, "no room for the seats (cap %d)", cap);
    sqlite3_stmt *st = s->stmt[ST_PLAYER_SEATS];
    int n = 0, rc = sqlite3_bind_int64(st, 1, player);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 2, cap);
    while (rc == SQLITE_OK && n < cap && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        const unsigned char *id = sqlite3_column_text(st, 0);
        if (!id || sqlite3_column_bytes(st, 0) != STORE_ID_LEN) continue;
        memcpy(out[n].table_id, id, STORE_ID_LEN + 1);
        out[n].seat = sqlite3_column_int(st, 1);
        n++;
    }
    if (rc != SQLITE_OK && rc != SQLITE_DONE) {
        store_fail_sql(s, err, errsize, context);
        n = -1;
    }
    store_reset_all(s);
    return n;
}

struct sqlite3 *store_sqlite(store *s) { return s ? s->db : NULL; }

/* ---- reading ------------------------------------------------------------ */

/* A resent move (docs/protocol.md, "Order of a change, and crashes") is
** the same change when the first action appended with the client's seq is
** the same seat's same text.  A table that does not exist has made no
** change: 0, like any change that is not there. */
int lite_find_change(store *s, const char *id, int64_t seq, int seat, const char *text,
                      char *err, size_t errsize) {
    char context[64];
    store_context(context, sizeof context, "finding a change in", id);
    if (store_check_call(s, id, context, err, errsize)) return -1;
    if (!text) return store_fail(err, errsize, context, "no action text given");

    sqlite3_stmt *st = s->stmt[ST_CHANGE_FIND];
    int rc = sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 2, seq);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    int same = 0;
    if (rc == SQLITE_ROW) {
        const unsigned char *stored = sqlite3_column_text(st, 1);
        if (!stored) { /* the column is NOT NULL: out of memory */
            store_reset_all(s);
            return store_fail(err, errsize, context, "out of memory reading the action");
        }
        same = sqlite3_column_int(st, 0) == seat && strcmp((const char *)stored, text) == 0;
        rc = SQLITE_DONE;
    }
    if (rc != SQLITE_DONE) store_fail_sql(s, err, errsize, context);
    store_reset_all(s);
    return rc == SQLITE_DONE ? same : -1;
}

/* Copies a text column; NULL when it is NULL or memory runs out (the
** callers' columns are NOT NULL, so either way it is a failure). */
static char *store_column_dup(sqlite3_stmt *st, int column) {
    const unsigned char *text = sqlite3_column_text(st, column);
    if (!text) return NULL;
    size_t len = (size_t)sqlite3_column_bytes(st, column);
    char *copy = malloc(len + 1);
    if (copy) {
        memcpy(copy, text, len);
        copy[len] = 0;
    }
    return copy;
}

/* A text column into a fixed field ("" for NULL; cut to fit). */
static void store_column_text(sqlite3_stmt *st, int col, char *out, size_t size) {
    const unsigned char *v = sqlite3_column_text(st, col);
    snprintf(out, size, "%s", v ? (const char *)v : "");
}

/* The table's row into out: 1, 0 no such table, -1 failure (err set). */
static int store_load_table_row(store *s, const char *id, store_table *out,
                                const char *context, char *err, size_t errsize) {
    sqlite3_stmt *st = s->stmt[ST_TABLE_LOAD];
    int rc = sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) return 0;
    if (rc != SQLITE_ROW) return store_fail_sql(s, err, errsize, context);
    out->game = store_column_dup(st, 0);
    if (!out->game) return store_fail(err, errsize, context, "out of memory reading the game");
    int64_t seed_bits = sqlite3_column_int64(st, 1);
    memcpy(&out->seed, &seed_bits, sizeof out->seed);
    out->seq = sqlite3_column_int64(st, 2);
    out->over = sqlite3_column_int(st, 3);
    out->created = sqlite3_column_int64(st, 4);
    out->updated = sqlite3_column_int64(st, 5);
    out->seed_chosen = sqlite3_column_int(st, 6);
    const unsigned char *reason = sqlite3_column_text(st, 7);
    if (reason) snprintf(out->end_reason, sizeof out->end_reason, "%s", (const char *)reason);
    out->rated = sqlite3_column_int(st, 8);
    out->private_ = sqlite3_column_int(st, 9);
    store_column_text(st, 10, out->clock, sizeof out->clock);
    store_column_text(st, 11, out->bot_level, sizeof out->bot_level);
    store_column_text(st, 12, out->rematch_of, sizeof out->rematch_of);
    store_column_text(st, 13, out->rematch, sizeof out->rematch);
    out->creator = sqlite3_column_int64(st, 14);
    out->turn_since = sqlite3_column_int64(st, 15);
    out->invite_until = sqlite3_column_int64(st, 16);
    store_column_text(st, 17, out->creator_addr, sizeof out->creator_addr);
    memcpy(out->id, id, STORE_ID_LEN + 1);
    return 1;
}

/* The seats, which must be 0..n-1 with n in 1..5 and specs that fit. */
static int store_load_seats(store *s, const char *id, store_table *out, const char *context,
                            char *err, size_t errsize) {
    sqlite3_stmt *st = s->stmt[ST_SEAT_LOAD];
    int rc = sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    if (rc != SQLITE_OK) return store_fail_sql(s, err, errsize, context);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int n = out->nseats;
        if (n >= 5 || sqlite3_column_int(st, 0) != n)
            return store_fail(err, errsize, context, "seat rows are not 0 to 4 in order");
        store_seat *seat = &out->seats[n];
        const unsigned char *spec = sqlite3_column_text(st, 1);
        int spec_len = sqlite3_column_bytes(st, 1);
        if (!spec || spec_len < 1 || spec_len >= STORE_SPEC_MAX)
            return store_fail(err, errsize, context, "seat %d: spec missing or too long", n);
        memcpy(seat->spec, spec, (size_t)spec_len + 1);
        /* The type is read first: it means nothing after a conversion. */
        if (sqlite3_column_type(st, 2) != SQLITE_NULL) {
            const void *hash = sqlite3_column_blob(st, 2);
            int hash_len = sqlite3_column_bytes(st, 2);
            if (!hash || hash_len != STORE_HASH_LEN)
                return store_fail(err, errsize, context, "seat %d: token hash of %d bytes", n,
                                  hash_len);
            memcpy(seat->token_hash, hash, STORE_HASH_LEN);
            seat->has_token = 1;
        }
        seat->resigned = sqlite3_column_int(st, 3);
        const unsigned char *forfeit = sqlite3_column_text(st, 4);
        if (forfeit) snprintf(seat->forfeit, sizeof seat->forfeit, "%s", (const char *)forfeit);
        seat->player = sqlite3_column_int64(st, 5);
        seat->clock_ms = sqlite3_column_type(st, 6) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 6);
        seat->invite = sqlite3_column_int(st, 7);
        out->nseats = n + 1;
    }
    if (rc != SQLITE_DONE) return store_fail_sql(s, err, errsize, context);
    if (out->nseats < 1) return store_fail(err, errsize, context, "the table has no seats");
    return 0;
}

/* The actions, in order, grown by doubling. */
static int store_load_actions(store *s, const char *id, store_table *out,
                              const char *context, char *err, size_t errsize) {
    sqlite3_stmt *st = s->stmt[ST_ACTION_LOAD];
    int rc = sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    if (rc != SQLITE_OK) return store_fail_sql(s, err, errsize, context);
    int cap = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int n = out->nactions;
        if (sqlite3_column_int64(st, 0) != n)
            return store_fail(err, errsize, context, "action %d is missing", n);
        int seat = sqlite3_column_int(st, 1);
        if (seat < -1 || seat >= out->nseats)
            return store_fail(err, errsize, context, "action %d: no seat %d", n, seat);
        if (n == cap) {
            int grown = cap ? cap * 2 : 64;
            char **texts = realloc(out->actions, sizeof *texts * (size_t)grown);
            if (texts) out->actions = texts;
            int *seats = realloc(out->action_seats, sizeof *seats * (size_t)grown);
            if (seats) out->action_seats = seats;
            if (!texts || !seats)
                return store_fail(err, errsize, context, "out of memory at action %d", n);
            cap = grown;
        }
        char *text = store_column_dup(st, 2);
        if (!text) return store_fail(err, errsize, context, "out of memory at action %d", n);
        out->actions[n] = text;
        out->action_seats[n] = seat;
        out->nactions = n + 1;
    }
    if (rc != SQLITE_DONE) return store_fail_sql(s, err, errsize, context);
    return 0;
}

/* All three reads share one read transaction, so they see one snapshot
** even if another process (a backup, `sqlite3`) writes meanwhile. */
int lite_load(store *s, const char *id, store_table *out, char *err, size_t errsize) {
    char context[64];
    store_context(context, sizeof context, "loading", id);
    if (out) memset(out, 0, sizeof *out);
    if (store_check_call(s, id, context, err, errsize)) return -1;
    if (!out) return store_fail(err, errsize, context, "no result pointer");

    if (store_begin(s, ST_BEGIN_READ, context, err, errsize)) return -1;
    int found = store_load_table_row(s, id, out, context, err, errsize);
    if (found == 1 && (store_load_seats(s, id, out, context, err, errsize) ||
                       store_load_actions(s, id, out, context, err, errsize)))
        found = -1;
    if (found < 0) {
        store_rollback(s, err, errsize);
        store_table_free(out);
        return -1;
    }
    store_reset_all(s);
    if (store_commit(s, context, err, errsize)) {
        store_table_free(out);
        return -1;
    }
    return found;
}

/* The ids a bound listing statement gives, at most cap (its LIMIT stops
** there; n < cap guards ids all the same).  How many, or -1 with err set;
** either way every statement is reset. */
static int store_read_ids(store *s, sqlite3_stmt *st, int rc, char (*ids)[STORE_ID_LEN + 1],
                          int cap, const char *context, char *err, size_t errsize) {
    int n = 0;
    if (rc == SQLITE_OK) {
        while (n < cap && (rc = sqlite3_step(st)) == SQLITE_ROW) {
            const unsigned char *id = sqlite3_column_text(st, 0);
            if (!id || sqlite3_column_bytes(st, 0) != STORE_ID_LEN) {
                store_fail(err, errsize, context, "a stored id is not %d characters",
                           STORE_ID_LEN);
                store_reset_all(s);
                return -1;
            }
            memcpy(ids[n], id, STORE_ID_LEN + 1);
            n++;
        }
    }
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
        store_fail_sql(s, err, errsize, context);
        store_reset_all(s);
        return -1;
    }
    store_reset_all(s);
    return n;
}

int lite_list(store *s, int unfinished, char (*ids)[STORE_ID_LEN + 1], int cap, char *err,
               size_t errsize) {
    const char *context = "listing tables";
    if (!s) return store_fail(err, errsize, context, "no database");
    if (cap < 0 || (cap > 0 && !ids))
        return store_fail(err, errsize, context, "no room for the ids (cap %d)", cap);
    if (cap == 0) return 0;

    sqlite3_stmt *st = s->stmt[ST_TABLE_LIST];
    int rc = sqlite3_bind_int(st, 1, unfinished ? 1 : 0);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 2, cap);
    return store_read_ids(s, st, rc, ids, cap, context, err, errsize);
}

/* The ids first, then each table's row and seats, all in one read
** transaction: one snapshot, as store_load. */
int lite_list_lobby(store *s, int finished, int cap, store_table *out, char *err,
                     size_t errsize) {
    const char *context = finished ? "listing finished tables" : "listing unfinished tables";
    if (!s) return store_fail(err, errsize, context, "no database");
    if (cap < 0 || (cap > 0 && !out))
        return store_fail(err, errsize, context, "no room for the tables (cap %d)", cap);
    if (cap == 0) return 0;
    char (*ids)[STORE_ID_LEN + 1] = malloc(sizeof *ids * (size_t)cap);
    if (!ids) return store_fail(err, errsize, context, "out of memory");
    memset(out, 0, sizeof *out * (size_t)cap);

    if (store_begin(s, ST_BEGIN_READ, context, err, errsize)) {
        free(ids);
        return -1;
    }
    sqlite3_stmt *st = s->stmt[finished ? ST_LOBBY_ENDED : ST_LOBBY_PLAYING];
    int n = store_read_ids(s, st, sqlite3_bind_int(st, 1, cap), ids, cap, context, err, errsize);
    int loaded = 0;
    for (; loaded < n; loaded++) {
        int found = store_load_table_row(s, ids[loaded], &out[loaded], context, err, errsize);
        if (found == 0) found = store_fail(err, errsize, context, "table %s vanished",
                                           ids[loaded]);
        if (found < 0 || store_load_seats(s, ids[loaded], &out[loaded], context, err, errsize))
            break;
        store_reset_all(s);
    }
    free(ids);
    if (n < 0 || loaded < n) {
        for (int i = 0; i <= loaded && i < n; i++) store_table_free(&out[i]);
        store_rollback(s, err, errsize);
        return -1;
    }
    if (store_commit(s, context, err, errsize)) {
        for (int i = 0; i < n; i++) store_table_free(&out[i]);
        return -1;
    }
    return n;
}
