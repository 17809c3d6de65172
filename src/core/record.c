/*
** record.c -- game records: a game string, player names, a seed and actions.
**
** A record holds its action texts as separately allocated strings, so a
** pointer from tafel_record_action stays valid while more are pushed.  On
** disk a record is one JSON object (cJSON reads and writes it):
**   {"game": "carcassonne(players=2)", "players": ["human", "greedy"],
**    "seed": 7, "actions": ["draw D", "place 1 0 90", ...]}
** "game" and "actions" are required; "players" and "seed" are optional.
** A game a player lost by forfeit (an external bot that crashed, stalled or
** answered an illegal move) says so: "forfeit": {"seat": 1, "reason": "..."};
** its actions stop where the game stopped.  A record may carry the result
** its writer saw, "scores": [87, 102] by seat and "winners": [1], both or
** neither; records without them (older ones) load as before, and
** `tafel replay` checks them against the replay.  A
** seed above 2^53 cannot be a JSON number exactly (cJSON keeps doubles), so
** it is written as a decimal string, and a string seed is accepted back.
** Action indexes in messages are 0-based, like the JSON array's.
*/
#include "tafel.h"
#include "error.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEED_EXACT_MAX 9007199254740992ull /* 2^53 */
/* The most a record file may hold: the longest game is some 5,000 actions,
** ~100 KB of JSON; reading stops here (tafel replay /dev/zero). */
#define RECORD_FILE_MAX (16u << 20)

struct tafel_record {
    char *game;
    uint64_t seed;
    char *players[TAFEL_MAX_PLAYERS];
    char **actions;
    int count, cap;
    int forfeit_seat; /* -1: no forfeit */
    char *forfeit_reason;
    int result_players; /* seats with a score; 0: no result */
    double scores[TAFEL_MAX_PLAYERS];
    int winners[TAFEL_MAX_PLAYERS], nwinners;
};

static char *copy_string(const char *s) {
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

TAFEL_API tafel_record *tafel_record_new(const char *game_string, uint64_t seed) {
    if (!game_string) return NULL;
    tafel_record *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->game = copy_string(game_string);
    if (!r->game) {
        free(r);
        return NULL;
    }
    r->seed = seed;
    r->forfeit_seat = -1;
    return r;
}

TAFEL_API void tafel_record_free(tafel_record *r) {
    if (!r) return;
    for (int i = 0; i < r->count; i++) free(r->actions[i]);
    for (int i = 0; i < TAFEL_MAX_PLAYERS; i++) free(r->players[i]);
    free(r->actions);
    free(r->game);
    free(r->forfeit_reason);
    free(r);
}

TAFEL_API int tafel_record_set_player(tafel_record *r, int seat, const char *name) {
    if (!r || seat < 0 || seat >= TAFEL_MAX_PLAYERS) return TAFEL_EINVAL;
    char *copy = NULL;
    if (name && !(copy = copy_string(name))) return TAFEL_ENOMEM;
    free(r->players[seat]);
    r->players[seat] = copy;
    return TAFEL_OK;
}

TAFEL_API int tafel_record_set_forfeit(tafel_record *r, int seat, const char *reason) {
    if (!r || seat < -1 || seat >= TAFEL_MAX_PLAYERS || (seat >= 0 && !reason))
        return TAFEL_EINVAL;
    char *copy = NULL;
    if (seat >= 0 && !(copy = copy_string(reason))) return TAFEL_ENOMEM;
    free(r->forfeit_reason);
    r->forfeit_reason = copy;
    r->forfeit_seat = seat;
    return TAFEL_OK;
}

TAFEL_API int tafel_record_forfeit(const tafel_record *r, const char **reason) {
    if (reason) *reason = r->forfeit_seat >= 0 ? r->forfeit_reason : NULL;
    return r->forfeit_seat;
}

TAFEL_API int tafel_record_set_result(tafel_record *r, int players, const double *scores,
                                      int nwinners, const int *winners) {
    if (!r || players < 0 || players > TAFEL_MAX_PLAYERS || nwinners < 0 ||
        nwinners > players || (players && !scores) || (nwinners && !winners))
        return TAFEL_EINVAL;
    for (int i = 0; i < players; i++)
        if (!isfinite(scores[i])) return TAFEL_EINVAL;
    for (int i = 0; i < nwinners; i++)
        if (winners[i] < 0 || winners[i] >= players) return TAFEL_EINVAL;
    r->result_players = players;
    r->nwinners = nwinners;
    if (players) memcpy(r->scores, scores, (size_t)players * sizeof *scores);
    if (nwinners) memcpy(r->winners, winners, (size_t)nwinners * sizeof *winners);
    return TAFEL_OK;
}

TAFEL_API int tafel_record_result(const tafel_record *r, double *scores, int *winners,
                                  int *nwinners) {
    if (scores) memcpy(scores, r->scores, sizeof r->scores);
    if (winners) memcpy(winners, r->winners, sizeof r->winners);
    if (nwinners) *nwinners = r->nwinners;
    return r->result_players;
}

TAFEL_API int tafel_record_push_text(tafel_record *r, const char *text) {
    if (!r || !text) return TAFEL_EINVAL;
    if (r->count == r->cap) {
        int cap = r->cap ? 2 * r->cap : 64;
        char **grown = realloc(r->actions, (size_t)cap * sizeof *grown);
        if (!grown) return TAFEL_ENOMEM;
        r->actions = grown;
        r->cap = cap;
    }
    char *copy = copy_string(text);
    if (!copy) return TAFEL_ENOMEM;
    r->actions[r->count++] = copy;
    return TAFEL_OK;
}

TAFEL_API int tafel_record_truncate(tafel_record *r, int count) {
    if (!r || count < 0 || count > r->count) return TAFEL_EINVAL;
    while (r->count > count) free(r->actions[--r->count]);
    return TAFEL_OK;
}

TAFEL_API int tafel_record_push(tafel_record *r, const tafel_state *state,
                                tafel_action action) {
    if (!r || !state) return TAFEL_EINVAL;
    char text[TAFEL_ACTION_TEXT_MAX];
    int n = tafel_action_to_text(state, action, text, sizeof text);
    if (n < 0 || (size_t)n >= sizeof text) return TAFEL_EINVAL;
    return tafel_record_push_text(r, text);
}

TAFEL_API const char *tafel_record_game_string(const tafel_record *r) {
    return r->game;
}

TAFEL_API uint64_t tafel_record_seed(const tafel_record *r) { return r->seed; }

TAFEL_API int tafel_record_action_count(const tafel_record *r) { return r->count; }

TAFEL_API const char *tafel_record_action(const tafel_record *r, int i) {
    return i >= 0 && i < r->count ? r->actions[i] : NULL;
}

TAFEL_API const char *tafel_record_player(const tafel_record *r, int seat) {
    return seat >= 0 && seat < TAFEL_MAX_PLAYERS ? r->players[seat] : NULL;
}

/* ---------------------------------------------------------------------------
** Writing.
*/

/* Seats up to the last named one; unnamed seats in between become null. */
static cJSON *players_to_json(const tafel_record *r) {
    int n = 0;
    for (int i = 0; i < TAFEL_MAX_PLAYERS; i++)
        if (r->players[i]) n = i + 1;
    cJSON *array = cJSON_CreateArray();
    for (int i = 0; array && i < n; i++) {
        cJSON *item = r->players[i] ? cJSON_CreateString(r->players[i])
                                    : cJSON_CreateNull();
        if (!item || !cJSON_AddItemToArray(array, item)) {
            cJSON_Delete(item);
            cJSON_Delete(array);
            return NULL;
        }
    }
    return array;
}

/* Written as raw digits: cJSON prints doubles with 15 significant digits,
** which would round seeds above 10^15. */
static cJSON *seed_to_json(uint64_t seed) {
    char text[24];
    snprintf(text, sizeof text, "%llu", (unsigned long long)seed);
    return seed <= SEED_EXACT_MAX ? cJSON_CreateRaw(text) : cJSON_CreateString(text);
}

static int add_item(cJSON *object, const char *key, cJSON *item) {
    if (!item) return 0;
    if (!cJSON_AddItemToObject(object, key, item)) {
        cJSON_Delete(item);
        return 0;
    }
    return 1;
}

TAFEL_API char *tafel_record_to_json(const tafel_record *r) {
    if (!r) return NULL;
    cJSON *root = cJSON_CreateObject();
    if (!root) return NULL;
    int ok = add_item(root, "game", cJSON_CreateString(r->game)) &&
             add_item(root, "players", players_to_json(r)) &&
             add_item(root, "seed", seed_to_json(r->seed));
    cJSON *actions = ok ? cJSON_CreateArray() : NULL;
    ok = ok && add_item(root, "actions", actions);
    for (int i = 0; ok && i < r->count; i++)
        ok = cJSON_AddItemToArray(actions, cJSON_CreateString(r->actions[i]));
    if (ok && r->forfeit_seat >= 0) {
        cJSON *forfeit = cJSON_CreateObject();
        ok = add_item(root, "forfeit", forfeit) &&
             add_item(forfeit, "seat", cJSON_CreateNumber(r->forfeit_seat)) &&
             add_item(forfeit, "reason", cJSON_CreateString(r->forfeit_reason));
    }
    if (ok && r->result_players) {
        cJSON *scores = cJSON_CreateArray(), *winners = cJSON_CreateArray();
        int added = add_item(root, "scores", scores);
        ok = add_item(root, "winners", winners) && added;
        for (int i = 0; ok && i < r->result_players; i++)
            ok = cJSON_AddItemToArray(scores, cJSON_CreateNumber(r->scores[i]));
        for (int i = 0; ok && i < r->nwinners; i++)
            ok = cJSON_AddItemToArray(winners, cJSON_CreateNumber(r->winners[i]));
    }
    char *text = ok ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    return text;
}

/* ---------------------------------------------------------------------------
** Reading.
*/

static int seed_from_json(const cJSON *item, uint64_t *out, tafel_error *err) {
    if (!item) {
        *out = 0;
        return TAFEL_OK;
    }
    if (cJSON_IsNumber(item)) {
        double d = item->valuedouble;
        if (d < 0 || d > (double)SEED_EXACT_MAX || d != (double)(uint64_t)d)
            return tf_error(err, TAFEL_ERECORD,
                            "record: \"seed\" must be an integer 0..2^53 (write "
                            "larger seeds as a string)");
        *out = (uint64_t)d;
        return TAFEL_OK;
    }
    if (cJSON_IsString(item)) {
        const char *s = item->valuestring;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (*s >= '0' && *s <= '9' && !*end && errno == 0) {
            *out = (uint64_t)v;
            return TAFEL_OK;
        }
        return tf_error(err, TAFEL_ERECORD,
                        "record: \"seed\" string '%s' is not a 64-bit unsigned "
                        "number", s);
    }
    return tf_error(err, TAFEL_ERECORD, "record: \"seed\" must be a number or a "
                    "decimal string");
}

static int players_from_json(const cJSON *item, tafel_record *r,
                             tafel_error *err) {
    if (!item || cJSON_IsNull(item)) return TAFEL_OK;
    if (!cJSON_IsArray(item))
        return tf_error(err, TAFEL_ERECORD, "record: \"players\" must be an array");
    int n = cJSON_GetArraySize(item);
    if (n > TAFEL_MAX_PLAYERS)
        return tf_error(err, TAFEL_ERECORD,
                        "record: \"players\" has %d names, at most %d", n,
                        TAFEL_MAX_PLAYERS);
    for (int i = 0; i < n; i++) {
        const cJSON *name = cJSON_GetArrayItem(item, i);
        if (cJSON_IsNull(name)) continue;
        if (!cJSON_IsString(name))
            return tf_error(err, TAFEL_ERECORD,
                            "record: \"players\" item %d must be a string or null", i);
        if (tafel_record_set_player(r, i, name->valuestring))
            return tf_error(err, TAFEL_ENOMEM, "out of memory");
    }
    return TAFEL_OK;
}

static int actions_from_json(const cJSON *item, tafel_record *r,
                             tafel_error *err) {
    if (!item) return tf_error(err, TAFEL_ERECORD, "record: no \"actions\"");
    if (!cJSON_IsArray(item))
        return tf_error(err, TAFEL_ERECORD,
                        "record: \"actions\" must be an array of strings");
    int i = 0;
    for (const cJSON *a = item->child; a; a = a->next, i++) {
        if (!cJSON_IsString(a))
            return tf_error(err, TAFEL_ERECORD,
                            "record: \"actions\" must be an array of strings "
                            "(item %d is not)", i);
        if (tafel_record_push_text(r, a->valuestring))
            return tf_error(err, TAFEL_ENOMEM, "out of memory");
    }
    return TAFEL_OK;
}

static int forfeit_from_json(const cJSON *item, tafel_record *r, tafel_error *err) {
    if (!item) return TAFEL_OK;
    const cJSON *seat = cJSON_GetObjectItemCaseSensitive(item, "seat");
    const cJSON *reason = cJSON_GetObjectItemCaseSensitive(item, "reason");
    if (!cJSON_IsObject(item) || !cJSON_IsNumber(seat) || !cJSON_IsString(reason))
        return tf_error(err, TAFEL_ERECORD, "record: \"forfeit\" must be "
                        "{\"seat\": N, \"reason\": \"...\"}");
    double s = seat->valuedouble;
    if (!(s >= 0 && s < TAFEL_MAX_PLAYERS) || s != (int)s)
        return tf_error(err, TAFEL_ERECORD, "record: \"forfeit\" seat must be 0..%d",
                        TAFEL_MAX_PLAYERS - 1);
    if (tafel_record_set_forfeit(r, (int)s, reason->valuestring))
        return tf_error(err, TAFEL_ENOMEM, "out of memory");
    return TAFEL_OK;
}

/* "scores" and "winners", both or neither: numbers by seat, and distinct
** seats among those scored. */
static int result_from_json(const cJSON *scores, const cJSON *winners, tafel_record *r,
                            tafel_error *err) {
    if (!scores && !winners) return TAFEL_OK;
    if (!scores || !winners)
        return tf_error(err, TAFEL_ERECORD, "record: \"%s\" without \"%s\" (a result "
                        "gives both)", scores ? "scores" : "winners",
                        scores ? "winners" : "scores");
    int players = cJSON_IsArray(scores) ? cJSON_GetArraySize(scores) : -1;
    if (players < 1 || players > TAFEL_MAX_PLAYERS)
        return tf_error(err, TAFEL_ERECORD, "record: \"scores\" must be an array of "
                        "1 to %d numbers", TAFEL_MAX_PLAYERS);
    double s[TAFEL_MAX_PLAYERS];
    int w[TAFEL_MAX_PLAYERS], n = 0;
    for (int i = 0; i < players; i++) {
        const cJSON *x = cJSON_GetArrayItem(scores, i);
        if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble))
            return tf_error(err, TAFEL_ERECORD, "record: \"scores\" item %d is not a "
                            "number", i);
        s[i] = x->valuedouble;
    }
    if (!cJSON_IsArray(winners) || cJSON_GetArraySize(winners) > players)
        return tf_error(err, TAFEL_ERECORD, "record: \"winners\" must be an array of at "
                        "most %d seats", players);
    for (const cJSON *x = winners->child; x; x = x->next, n++) {
        double d = cJSON_IsNumber(x) ? x->valuedouble : -1;
        if (!(d >= 0 && d < players) || d != (int)d)
            return tf_error(err, TAFEL_ERECORD, "record: \"winners\" item %d is not a "
                            "seat 0..%d", n, players - 1);
        for (int j = 0; j < n; j++)
            if (w[j] == (int)d)
                return tf_error(err, TAFEL_ERECORD, "record: \"winners\" names seat %d "
                                "twice", w[j]);
        w[n] = (int)d;
    }
    tafel_record_set_result(r, players, s, n, w);
    return TAFEL_OK;
}

/* A key given twice would be read by its first value alone, silently. */
static int duplicate_key(const cJSON *root, tafel_error *err) {
    for (const cJSON *a = root->child; a; a = a->next)
        for (const cJSON *b = a->next; b; b = b->next)
            if (a->string && b->string && !strcmp(a->string, b->string))
                return tf_error(err, TAFEL_ERECORD, "record: key \"%s\" is given twice",
                                TF_Q(a->string));
    return TAFEL_OK;
}

/* Build the record from a parsed object; on error *out stays NULL. */
static int record_from_object(const cJSON *root, tafel_record **out,
                              tafel_error *err) {
    if (!cJSON_IsObject(root))
        return tf_error(err, TAFEL_ERECORD, "record: not a JSON object");
    if (duplicate_key(root, err)) return TAFEL_ERECORD;
    const cJSON *game = cJSON_GetObjectItemCaseSensitive(root, "game");
    if (!game) return tf_error(err, TAFEL_ERECORD, "record: no \"game\"");
    if (!cJSON_IsString(game))
        return tf_error(err, TAFEL_ERECORD, "record: \"game\" must be a string");
    uint64_t seed = 0;
    int rc = seed_from_json(cJSON_GetObjectItemCaseSensitive(root, "seed"), &seed,
                            err);
    if (rc) return rc;
    tafel_record *r = tafel_record_new(game->valuestring, seed);
    if (!r) return tf_error(err, TAFEL_ENOMEM, "out of memory");
    rc = players_from_json(cJSON_GetObjectItemCaseSensitive(root, "players"), r,
                           err);
    if (!rc)
        rc = actions_from_json(cJSON_GetObjectItemCaseSensitive(root, "actions"),
                               r, err);
    if (!rc)
        rc = forfeit_from_json(cJSON_GetObjectItemCaseSensitive(root, "forfeit"), r, err);
    if (!rc)
        rc = result_from_json(cJSON_GetObjectItemCaseSensitive(root, "scores"),
                              cJSON_GetObjectItemCaseSensitive(root, "winners"), r, err);
    if (rc) {
        tafel_record_free(r);
        return rc;
    }
    *out = r;
    return TAFEL_OK;
}

/* Where in json byte at is, as "line L, column C", and the text there. */
static int json_error(const char *json, size_t at, const char *what, tafel_error *err) {
    int line = 1;
    size_t column = 1;
    for (size_t i = 0; i < at && json[i]; i++, column++)
        if (json[i] == '\n') line++, column = 0;
    if (!json[at])
        return tf_error(err, TAFEL_ERECORD, "record: %s at line %d, column %zu (byte %zu): "
                        "the text ends there", what, line, column, at);
    return tf_error(err, TAFEL_ERECORD, "record: %s at line %d, column %zu (byte %zu): '%s'",
                    what, line, column, at, TF_Q(json + at));
}

/* The escape \u0000 decodes to a NUL that would end the string there:
** "carcassonne\u0000(players=9)" would read as "carcassonne".  Returns the
** offset of the first one, or -1.  A backslash escapes the next byte, so
** "\\u0000" (an escaped backslash, then text) is not one. */
static long nul_escape(const char *json) {
    for (const char *p = json; *p; p++) {
        if (*p != '\\') continue;
        if (p[1] == 'u' && !strncmp(p + 2, "0000", 4)) return (long)(p - json);
        if (p[1]) p++;
    }
    return -1;
}

TAFEL_API int tafel_record_from_json(const char *json, tafel_record **out,
                                     tafel_error *err) {
    if (out) *out = NULL;
    if (!json || !out) return tf_error(err, TAFEL_EINVAL, "record: no JSON text");
    long nul = nul_escape(json);
    if (nul >= 0)
        return json_error(json, (size_t)nul, "\\u0000 (a NUL character) is not allowed", err);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(json, &end, 0);
    if (!root) {
        size_t at = end && end >= json ? (size_t)(end - json) : 0;
        return json_error(json, at, "bad JSON", err);
    }
    end += strspn(end, " \t\r\n");
    if (*end) {
        cJSON_Delete(root);
        return json_error(json, (size_t)(end - json), "text after the JSON object", err);
    }
    int rc = record_from_object(root, out, err);
    cJSON_Delete(root);
    return rc;
}

/* The file as a string (malloc'd), at most RECORD_FILE_MAX bytes of it
** (*more: the file goes on), or NULL with errno set. *len: the bytes read,
** which a NUL byte in the file makes more than strlen. */
static char *read_all(FILE *f, size_t *len, int *more) {
    size_t cap = 4096;
    *len = 0;
    *more = 0;
    errno = 0;
    char *data = malloc(cap);
    while (data) {
        *len += fread(data + *len, 1, cap - *len - 1, f);
        if (*len < cap - 1) break;
        if (cap >= RECORD_FILE_MAX) {
            *more = 1;
            break;
        }
        char *grown = realloc(data, cap *= 2);
        if (!grown) free(data);
        data = grown;
    }
    if (!data) return NULL;
    data[*len] = 0;
    if (ferror(f)) {
        int error = errno ? errno : EIO;
        free(data);
        errno = error;
        return NULL;
    }
    return data;
}

/* Cut a JSON-lines text down to its first non-empty line; 1 when it did.
** A file holding one pretty-printed object (its first line is just "{") is
** left whole. */
static int first_json_line(char *text) {
    char *p = text + strspn(text, " \t\r\n");
    memmove(text, p, strlen(p) + 1);
    char *newline = strchr(text, '\n');
    if (!newline) return 0;
    cJSON *line = cJSON_ParseWithLength(text, (size_t)(newline - text));
    if (line) *newline = 0;
    cJSON_Delete(line);
    return line != NULL;
}

TAFEL_API int tafel_record_load_file(const char *path, tafel_record **out,
                                     tafel_error *err) {
    if (out) *out = NULL;
    if (!path || !out) return tf_error(err, TAFEL_EINVAL, "record: no file name");
    FILE *f = fopen(path, "rb");
    if (!f) return tf_error(err, TAFEL_EIO, "%s: %s", TF_Q(path), strerror(errno));
    size_t len;
    int more, rc;
    char *text = read_all(f, &len, &more);
    int saved = errno;
    fclose(f);
    if (!text) return tf_error(err, TAFEL_EIO, "%s: %s", TF_Q(path), strerror(saved));
    size_t nul = strlen(text);
    int one_line = first_json_line(text);
    if (nul < len && !one_line)
        rc = tf_error(err, TAFEL_ERECORD, "byte %zu is a NUL byte: not a JSON text", nul);
    else if (more && !one_line)
        rc = tf_error(err, TAFEL_ERECORD, "no record in the first %u MiB (a record is far "
                      "smaller): stopped reading", RECORD_FILE_MAX >> 20);
    else
        rc = tafel_record_from_json(text, out, err);
    free(text);
    if (rc && err) {
        char message[sizeof err->message];
        memcpy(message, err->message, sizeof message);
        tf_error(err, rc, "%s: %s", TF_Q(path), message);
    }
    return rc;
}

/* ---------------------------------------------------------------------------
** Replaying.
*/

TAFEL_API int tafel_record_replay(const tafel_record *r, tafel_game **game_out,
                                  tafel_state **state_out, tafel_error *err) {
    if (game_out) *game_out = NULL;
    if (state_out) *state_out = NULL;
    if (!r || !game_out || !state_out)
        return tf_error(err, TAFEL_EINVAL, "record: nothing to replay");
    tafel_game *game;
    tafel_error why;
    if (tafel_game_load(r->game, &game, &why))
        return tf_error(err, TAFEL_ERECORD, "record: game '%s': %s", TF_Q(r->game),
                        why.message);
    int players = tafel_game_players(game);
    if (r->forfeit_seat >= players) {
        tafel_game_free(game);
        return tf_error(err, TAFEL_ERECORD, "record: \"forfeit\" seat %d is not a seat of "
                        "this %d-player game", r->forfeit_seat, players);
    }
    tafel_state *state = tafel_state_new(game);
    if (!state) {
        tafel_game_free(game);
        return tf_error(err, TAFEL_ENOMEM, "out of memory");
    }
    for (int i = 0; i < r->count; i++) {
        if (tafel_state_apply_text(state, r->actions[i], &why) == TAFEL_OK) continue;
        tafel_state_free(state);
        tafel_game_free(game);
        return tf_error(err, TAFEL_ERECORD, "action %d '%s': %s", i, TF_Q(r->actions[i]),
                        why.message);
    }
    *game_out = game;
    *state_out = state;
    return TAFEL_OK;
}
